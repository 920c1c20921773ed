"""MEM655: A MemOS `*_limit_number` over the documented maximum of 25."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.rules.sdk_args import argument, number
from mem0lint.sdk.memos import LIMIT_MAX, LIMIT_PARAMS


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
            arg = argument(site, name)
            value = number(arg.value) if arg is not None else None
            if value is not None and value > LIMIT_MAX:
                yield Finding(arg, f"`{name}={value}` exceeds the documented maximum {LIMIT_MAX}")
