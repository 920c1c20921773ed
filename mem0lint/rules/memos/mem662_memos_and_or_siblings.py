"""MEM662: `and` and `or` side by side in one MemOS group."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import logical_name
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS, groups


class MemosAndOrSiblings(Rule):
    code = "MEM662"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-and-or-siblings"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`and` and `or` side by side in one MemOS group"
    why = (
        "A group holds one logical key. With `and` and `or` as siblings one branch is ignored "
        "(the server keeps `or`); nest one inside the other."
    )
    examples = [
        Example(
            "memos",
            bad=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}], '
                '"or": [{"biz_id": "a"}, {"biz_id": "b"}]})'
            ),
            good=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}, '
                '{"or": [{"biz_id": "a"}, {"biz_id": "b"}]}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for group in groups(site.filters):
            logical = group.logical_entries()
            names = {logical_name(e.key) for e in logical}
            if names == {"AND", "OR"}:
                yield Finding(
                    logical[-1].key_node,
                    "`and` and `or` at one level: one branch is ignored; nest the `or` group "
                    "inside the `and` list",
                )
