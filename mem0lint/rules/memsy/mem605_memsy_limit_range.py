"""MEM605: Memsy `limit=` outside 1-100 (`search`) or 1-200 (`memories.list`)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.sdk.memsy import GRAMMAR


class MemsyLimitRange(Rule):
    code = "MEM605"
    name = "memsy-limit-range"
    dialects = MEMSY
    methods = frozenset(GRAMMAR.limits)
    severity = Severity.ERROR
    summary = "Memsy `limit=` outside 1-100 (`search`) or 1-200 (`memories.list`)"
    why = "The server validates `limit` and answers HTTP 422 outside the range."
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", limit=500)',
            good='client.search("q", actor_id="u1", limit=100)',
        ),
        Example(
            "memsy",
            bad='client.memories.list(actor_id="u1", limit=0)',
            good='client.memories.list(actor_id="u1", limit=200)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        limit = GRAMMAR.limits[site.method]
        yield from mirrors.out_of_range(
            site,
            "limit",
            limit,
            lambda value: (
                f"`limit={value}` is out of range for `{site.method}()`: {limit.span()} (HTTP 422)"
            ),
        )
