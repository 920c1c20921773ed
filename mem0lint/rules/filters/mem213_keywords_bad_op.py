"""MEM213: `keywords` compared with something other than `contains` / `icontains`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Opaque
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix
from mem0lint.rules.filters.shared import (
    FieldKindRule,
    KindViolation,
    new_dict,
    plain_scalar,
    replace_value,
)
from mem0lint.sdk.mem0_filters import KEYWORDS


class KeywordsBadOperator(FieldKindRule):
    code = "MEM213"
    versions = {"mem0ai": ">=2.0.0"}
    name = "keywords-bad-op"
    kind = KEYWORDS
    summary = "`keywords` compared with something other than `contains` / `icontains`"
    why = (
        "The Platform `keywords` filter is a substring match: it accepts only `contains` "
        "(case-sensitive) and `icontains` (case-insensitive). A bare value, `eq`, `in` or a "
        "range is rejected."
    )
    fix_safety = (
        "unsafe (a substring match, case-insensitive, instead of equality): a bare string or a "
        'lone `{"eq": s}` becomes `{"icontains": s}`; none otherwise'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "keywords": "invoice"})',
            good='client.get_all(filters={"user_id": "u1", "keywords": {"icontains": "invoice"}})',
            fixed='client.get_all(filters={"user_id": "u1", "keywords": {"icontains": "invoice"}})',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            yield Finding(
                violation.node,
                f"`keywords` needs `contains` (case-sensitive) or `icontains`: {violation.what} "
                f"is rejected by the Platform API",
                self._fix(violation),
            )

    @staticmethod
    def _fix(violation: KindViolation) -> Fix | None:
        message = "Match the text with `icontains`"
        entry = violation.entry
        condition = violation.condition
        if entry is None:
            value = condition.entry.value
            if not (plain_scalar(value) and isinstance(value.value, str)):
                return None
            substring = new_dict(condition.entry.key_node, [("icontains", value.node)])
            return Fix(Applicability.UNSAFE, message, (replace_value(condition.entry, substring),))
        if entry.key != "eq" or not violation.sole:
            return None
        value = entry.value
        if not (
            isinstance(value, Opaque) or (plain_scalar(value) and isinstance(value.value, str))
        ):
            return None
        return rename_key_fix(violation.ops, entry, "icontains", message, Applicability.UNSAFE)
