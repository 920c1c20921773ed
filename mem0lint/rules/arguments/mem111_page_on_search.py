"""MEM111: `page=`, `page_size=`, `offset=` on `search()`, which does not paginate."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import not_a_parameter
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import SEARCH_PAGING


class PageOnSearch(Rule):
    code = "MEM111"
    versions = {"mem0ai": ">=2.0.0"}
    name = "page-on-search"
    dialects = MEM0
    methods = frozenset({"search"})
    claims_keywords = frozenset(SEARCH_PAGING)
    severity = Severity.WARNING
    summary = "`page=`, `page_size=`, `offset=` on `search()`, which does not paginate"
    why = (
        "mem0 `search()` returns one ranked list capped by `top_k`; paging keywords are silently "
        "ignored, so a loop over pages gets the same results every time."
    )
    fix_safety = "none (raise `top_k` instead)"
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, page=2)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=20)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, offset=10)',
            good='memory.search("q", filters={"user_id": "alice"}, top_k=20)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in SEARCH_PAGING:
            arg = site.keyword(name)
            if arg is not None:
                yield Finding(
                    arg,
                    f"`search()` does not paginate: {not_a_parameter(site, name)}; raise "
                    "`top_k` to get more results",
                )
