"""MEM211: Platform time fields compared with `contains` / `icontains`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding
from mem0lint.rules.filters.shared import FieldKindRule, KindViolation, kind_violations
from mem0lint.sdk.mem0_filters import TIME


class TimeFieldBadOperator(FieldKindRule):
    code = "MEM211"
    versions = {"mem0ai": ">=2.0.0"}
    name = "time-field-bad-op"
    kind = TIME
    summary = "Platform time fields compared with `contains` / `icontains`"
    why = (
        "Platform time fields (`created_at`, `updated_at`, `timestamp`, `expiration_date`) accept "
        "a bare value, gt, gte, lt, lte, ne and in; other operators are rejected with HTTP 400."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "created_at": {"contains": "2025-03"}})',
            good="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "created_at": {"gte": "2025-03-01", "lt": "2025-04-01"},
                }
            )
            """,
        ),
    ]

    def violations(self, site: CallSite) -> Iterator[KindViolation]:
        for violation in kind_violations(site, self.kind):
            if violation.entry is None or violation.entry.key != "eq":  # eq: MEM210
                yield violation

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            yield Finding(
                violation.node,
                f"`{violation.field}` supports a bare value, gt, gte, lt, lte, ne and in only: "
                f"{violation.what} is rejected (HTTP 400); use a `gte` / `lt` range",
            )
