"""MEM115: `reference_date=` on open source `Memory.search()`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.sdk import releases


class ReferenceDateOnOss(Rule):
    code = "MEM115"
    # 2.0.0 to 2.0.5 have no such parameter: the keyword went into **kwargs, ignored.
    versions = {"mem0ai": ">=" + releases.OSS_REFERENCE_DATE}
    name = "reference-date-on-oss"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "`reference_date=` on open source `Memory.search()`"
    why = (
        "`reference_date` (relative-time queries) is a Platform feature. Open source "
        "`Memory.search()` declares the parameter only to raise ValueError when it is not None."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("last week", filters={"user_id": "u"}, reference_date="2025-01-01")',
            good='memory.search("last week", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("reference_date")
        if arg is None or literal_value(arg.value) == (True, None):
            return
        yield Finding(
            arg,
            "`reference_date` is Platform-only; `Memory.search()` raises ValueError when it is "
            "set: remove it (or filter on `created_at`)",
        )
