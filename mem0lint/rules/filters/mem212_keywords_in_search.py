"""MEM212: A `keywords` filter in Platform `search()`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.filters.shared import field_kind, operator_fields
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import KEYWORDS


class KeywordsInSearch(Rule):
    code = "MEM212"
    versions = {"mem0ai": ">=2.0.0"}
    name = "keywords-in-search"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "A `keywords` filter in Platform `search()`"
    why = (
        "A `keywords` filter works on `get_all()`, but `search()` answers it with HTTP 500 "
        "(MEM-5746). For text relevance pass the text as the query; for a substring match "
        "call `get_all()`."
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "billing", filters={"user_id": "u1", "keywords": {"icontains": "invoice"}}
            )
            """,
            good='client.search("billing invoice", filters={"user_id": "u1"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in operator_fields(site):
            if field_kind(site, condition) is KEYWORDS:
                yield Finding(
                    condition.entry.key_node,
                    "A `keywords` filter in `search()` returns HTTP 500 (MEM-5746); put the text "
                    "in the query, or filter with `get_all()`",
                )
