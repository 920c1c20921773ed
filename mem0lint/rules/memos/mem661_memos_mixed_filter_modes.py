"""MEM661: A global `and` / `or` (or bare condition) next to source keys at a MemOS root."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS, SOURCE_KEYS


class MemosMixedFilterModes(Rule):
    code = "MEM661"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-mixed-filter-modes"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "A global `and` / `or` (or bare condition) next to source keys at a MemOS root"
    why = (
        "A filter is either one global `and` / `or` group or per-source groups (`user`, "
        "`agent`, `public`, `knowledgebase`), not both."
    )
    examples = [
        Example(
            "memos",
            bad=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}], '
                '"public": {"and": [{"tags": {"contains": "notice"}}]}})'
            ),
            good=(
                'client.search_memory("q", user_id="u", filter={"user": {"and": [{"scene": '
                '"chat"}]}, "public": {"and": [{"tags": {"contains": "notice"}}]}})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        root = site.filters
        if not isinstance(root, DictValue) or not SOURCE_KEYS.intersection(root.keys()):
            return
        for entry in root.entries:
            if entry.key is not None and entry.key not in SOURCE_KEYS:
                yield Finding(
                    entry.key_node,
                    f"do not mix `{entry.key}` with source keys (user / agent / public / "
                    "knowledgebase) at the filter root; put it inside a source group",
                )
