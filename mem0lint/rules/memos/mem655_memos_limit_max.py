"""MEM655: A MemOS `*_limit_number` over the documented maximum of 25."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.sdk.memos import GRAMMAR, LIMIT_PARAMS


class MemosLimitMax(Rule):
    code = "MEM655"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-limit-max"
    dialects = MEMOS
    methods = frozenset({"search_memory"})
    severity = Severity.WARNING
    summary = "A MemOS `*_limit_number` over the documented maximum of 25"
    why = "The API documents a maximum of 25 for every `*_limit_number` of `search_memory`."
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", memory_limit_number=50)',
            good='client.search_memory("q", user_id="u_1", memory_limit_number=25)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in LIMIT_PARAMS:
            bounds = GRAMMAR.ranges[name]
            yield from mirrors.out_of_range(
                site,
                name,
                bounds,
                lambda value, name=name, bounds=bounds: (
                    f"`{name}={value}` exceeds the documented maximum {bounds.high}"
                ),
            )
