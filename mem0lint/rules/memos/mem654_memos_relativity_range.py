"""MEM654: MemOS `relativity` outside [0, 1]."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.sdk.memos import GRAMMAR


class MemosRelativityRange(Rule):
    code = "MEM654"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-relativity-range"
    dialects = MEMOS
    methods = frozenset({"search_memory"})
    severity = Severity.ERROR
    summary = "MemOS `relativity` outside [0, 1]"
    why = "`relativity` is a similarity floor between 0 and 1 (default 0.45; 0 disables it)."
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", relativity=45)',
            good='client.search_memory("q", user_id="u_1", relativity=0.45)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        bounds = GRAMMAR.ranges["relativity"]
        yield from mirrors.out_of_range(
            site,
            "relativity",
            bounds,
            lambda value: f"`relativity={value}` must be in [{bounds.low}, {bounds.high}]",
        )
