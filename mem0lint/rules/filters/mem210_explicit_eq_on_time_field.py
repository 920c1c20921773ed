"""MEM210: Explicit `eq` on a Platform time field (`created_at`, `updated_at`...)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Opaque
from mem0lint.rule import Applicability, Example, Finding, Fix
from mem0lint.rules.filters.shared import (
    FieldKindRule,
    KindViolation,
    kind_violations,
    plain_scalar,
    replace_value,
)
from mem0lint.sdk.mem0_filters import TIME


class ExplicitEqOnTimeField(FieldKindRule):
    code = "MEM210"
    versions = {"mem0ai": ">=2.0.0"}
    name = "explicit-eq-on-time-field"
    kind = TIME
    summary = "Explicit `eq` on a Platform time field (`created_at`, `updated_at`...)"
    why = (
        "Platform time fields take a bare value for equality; an explicit `eq` is rejected with "
        "HTTP 400."
    )
    fix_safety = (
        "safe when `eq` is the only operator and its value a plain literal; unsafe when "
        'the value is a variable or call (a dict or `"*"` at runtime would change the meaning)'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "created_at": {"eq": "2025-03-01"}})',
            good='client.get_all(filters={"user_id": "u1", "created_at": "2025-03-01"})',
            fixed='client.get_all(filters={"user_id": "u1", "created_at": "2025-03-01"})',
        ),
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "created_at": {"eq": day}})',
            good='client.get_all(filters={"user_id": "u1", "created_at": day})',
            fixed='client.get_all(filters={"user_id": "u1", "created_at": day})',
            unsafe=True,
        ),
    ]

    def violations(self, site: CallSite) -> Iterator[KindViolation]:
        for violation in kind_violations(site, self.kind):
            if violation.entry is not None and violation.entry.key == "eq":
                yield violation

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            field = violation.field
            fix = None
            value = violation.entry.value
            if violation.sole and (plain_scalar(value) or isinstance(value, Opaque)):
                safety = Applicability.SAFE if plain_scalar(value) else Applicability.UNSAFE
                fix = Fix(
                    safety,
                    'Replace `{"eq": ...}` with the bare value',
                    (replace_value(violation.condition.entry, value.node),),
                )
            yield Finding(
                violation.node,
                f"`eq` is rejected on `{field}` (HTTP 400); pass the bare value: "
                f'`{{"{field}": ...}}`',
                fix,
            )
