"""MEM209: `categories` compared with something other than `in` (a list) or `contains`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix
from mem0lint.rules.filters.shared import (
    FieldKindRule,
    KindViolation,
    new_dict,
    new_list,
    plain_scalar,
    replace_value,
)
from mem0lint.sdk.mem0_filters import CATEGORIES


class CategoriesOperator(FieldKindRule):
    code = "MEM209"
    versions = {"mem0ai": ">=2.0.0"}
    name = "categories-op"
    kind = CATEGORIES
    summary = "`categories` compared with something other than `in` (a list) or `contains`"
    why = (
        "Platform `categories` accept only `in` (any of a list) and `contains` (case-insensitive). "
        "A bare value, `eq`, `ne`, `icontains` and ranges are rejected (HTTP 400)."
    )
    fix_safety = (
        "safe for `icontains` (`contains` is already case-insensitive on categories); unsafe "
        'for a bare string or `{"eq": s}` (`{"in": [s]}` is exact membership); none otherwise'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "categories": {"icontains": "Fin"}})',
            good='client.get_all(filters={"user_id": "u1", "categories": {"contains": "Fin"}})',
            fixed='client.get_all(filters={"user_id": "u1", "categories": {"contains": "Fin"}})',
        ),
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "categories": "finance"})',
            good='client.get_all(filters={"user_id": "u1", "categories": {"in": ["finance"]}})',
            fixed='client.get_all(filters={"user_id": "u1", "categories": {"in": ["finance"]}})',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            op = violation.entry.key if violation.entry is not None else None
            if op == "icontains":
                advice = "use `contains`, which is case-insensitive on categories"
            else:
                advice = 'for membership write `{"in": [...]}`'
            yield Finding(
                violation.node,
                f"`categories` accepts only `in` (a list) and `contains`: {violation.what} is "
                f"rejected (HTTP 400); {advice}",
                self._fix(violation),
            )

    @staticmethod
    def _fix(violation: KindViolation) -> Fix | None:
        entry = violation.entry
        condition = violation.condition
        if entry is not None and entry.key == "icontains":
            return rename_key_fix(
                violation.ops, entry, "contains", "Replace `icontains` with `contains`"
            )
        if entry is None:
            value, like = condition.entry.value, condition.entry.key_node
        elif entry.key == "eq" and violation.sole:
            value, like = entry.value, entry.key_node
        else:
            return None
        if not (plain_scalar(value) and isinstance(value.value, str)):
            return None
        membership = new_dict(like, [("in", new_list([value.node]))])
        return Fix(
            Applicability.UNSAFE,
            "Test membership with `in` (exact category, not a substring)",
            (replace_value(condition.entry, membership),),
        )
