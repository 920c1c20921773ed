"""MEM656: `AND` / `OR` / `$and` in a MemOS filter: MemOS logic is lowercase `and` / `or`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS, groups
from mem0lint.sdk.memos import GRAMMAR


class MemosUppercaseLogic(Rule):
    code = "MEM656"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-uppercase-logic"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`AND` / `OR` / `$and` in a MemOS filter: MemOS logic is lowercase `and` / `or`"
    why = (
        "MemOS reads only lowercase `and` / `or`. An uppercase (mem0-style) or `$` key is not a "
        "logical group: the server treats the root as something else and drops the filter."
    )
    fix_safety = "safe"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"AND": [{"scene": "chat"}]})',
            good='client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}]})',
            fixed='client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        yield from mirrors.logical_key_case(
            (group.node for group in groups(site.filters)),
            GRAMMAR.logical,
            lambda key, right: f"MemOS logical keys are lowercase: `{right}`, not `{key}`",
        )
