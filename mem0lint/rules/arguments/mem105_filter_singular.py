"""MEM105: `filter=` (singular) instead of `filters=`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import ignored_by, rename_fix
from mem0lint.sdk.dialects import MEM0


class FilterSingular(Rule):
    code = "MEM105"
    versions = {"mem0ai": ">=2.0.0"}
    name = "filter-singular"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    claims_keywords = frozenset({"filter"})
    renames = {"filter": "filters"}
    severity = Severity.ERROR
    summary = "`filter=` (singular) instead of `filters=`"
    why = (
        "mem0 takes `filters=`. A singular `filter=` is an unknown keyword and silently dropped, "
        "so the call runs without a filter: the Platform answers HTTP 400 (filters are "
        "required), open source raises ValueError (no entity id). Next to a real `filters=`, "
        "the conditions in `filter=` are silently lost."
    )
    fix_safety = "safe (renamed to `filters`); no fix when `filters=` is also given"
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filter={"user_id": "alice"})',
            good='client.get_all(filters={"user_id": "alice"})',
            fixed='client.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filter={"user_id": "alice"}, top_k=3)',
            good='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
            fixed='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("filter")
        if arg is None:
            return
        ignored = ignored_by(site)
        if site.keyword("filters") is not None:
            yield Finding(
                arg,
                f"`filter=` is not a parameter ({ignored}); its conditions are lost next to "
                "`filters=`: merge them into `filters`",
                severity=Severity.WARNING,
            )
            return
        yield Finding(
            arg,
            f"`filter=` is not a parameter ({ignored}); without `filters=` the call fails "
            f"({site.dialect.grammar.rejected_by}): write `filters=`",
            rename_fix(site, arg, "filters", "Rename `filter` to `filters`"),
        )
