"""MEM663: MemOS `search_memory()` with an empty `query`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.sdk.memos import GRAMMAR


class MemosEmptyQuery(Rule):
    code = "MEM663"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-empty-query"
    dialects = MEMOS
    methods = GRAMMAR.query_required_in
    severity = Severity.ERROR
    summary = "MemOS `search_memory()` with an empty `query`"
    why = "The client raises ValueError('query is required') for a falsy query."
    examples = [
        Example(
            "memos",
            bad='client.search_memory("", user_id="u_1")',
            good='client.search_memory("travel plans", user_id="u_1")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        yield from mirrors.empty_query(
            site,
            "query",
            GRAMMAR.empty_query,
            "`query` is required: an empty query raises ValueError",
        )
