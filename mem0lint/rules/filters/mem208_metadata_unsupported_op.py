"""MEM208: Platform metadata keys with operators other than eq / ne / contains."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import ListValue
from mem0lint.fixbuilders import filters as filter_fixes
from mem0lint.rule import Applicability, Example, Finding, Fix
from mem0lint.rules.common import logical_name
from mem0lint.rules.filters.shared import (
    FieldKindRule,
    KindViolation,
    new_list,
    plain_scalar,
    replace_value,
)
from mem0lint.sdk.mem0_filters import METADATA


class MetadataUnsupportedOperator(FieldKindRule):
    code = "MEM208"
    versions = {"mem0ai": ">=2.0.0"}
    name = "metadata-unsupported-op"
    kind = METADATA
    summary = "Platform metadata keys with operators other than eq / ne / contains"
    why = (
        "Platform metadata filters support only a bare value (or `eq`), `ne` and `contains`; "
        "`in`, `gt`, `gte`, `lt`, `lte` (and `icontains`) are rejected with HTTP 400 "
        "(FilterValidationError). Several accepted values are written as an `OR` of equalities."
    )
    fix_safety = (
        'safe for `in`: `{"metadata": {k: {"in": [a, b]}}}` becomes `{"OR": [{"metadata": '
        '{k: a}}, {"metadata": {k: b}}]}` (a one-element list becomes the bare value) when the '
        "list holds plain literals and the condition is alone in its dict or its siblings are "
        "plain fields; beside an `AND` list the `OR` joins it, beside an `OR` both become one "
        "`AND`; none for ranges or beside both"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "metadata": {"type": {"in": ["semantic", "episodic"]}},
                }
            )
            """,
            good="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "OR": [{"metadata": {"type": "semantic"}}, {"metadata": {"type": "episodic"}}],
                }
            )
            """,
            fixed="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "OR": [{"metadata": {"type": "semantic"}}, {"metadata": {"type": "episodic"}}],
                }
            )
            """,
        ),
    ]

    ADVICE = {
        "in": "match any of several values with an `OR` of equalities",
        "icontains": "use `contains` (metadata has no case-insensitive match)",
    }

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            op = violation.entry.key
            advice = self.ADVICE.get(
                op, "store the value in a field that supports ranges, or filter the results"
            )
            yield Finding(
                violation.node,
                f"Platform metadata supports only eq / ne / contains: `{op}` on "
                f"`{violation.field}` is rejected (HTTP 400 FilterValidationError); {advice}",
                self._fix(violation) if op == "in" else None,
            )

    @staticmethod
    def _fix(violation: KindViolation) -> Fix | None:
        """`in` on a metadata key as an OR of equalities."""
        values = violation.entry.value
        if not violation.sole or not isinstance(values, ListValue) or not values.items:
            return None
        if not all(plain_scalar(item) for item in values.items):
            return None
        condition = violation.condition
        if len(values.items) == 1:
            only = values.items[0].node
            return Fix(
                Applicability.SAFE,
                "Replace a one-value `in` with the value",
                (replace_value(condition.entry, only),),
            )
        wrapper = condition.metadata_wrapper
        metadata = wrapper.value
        owner_dict = condition.owner.node
        if not metadata.complete or not owner_dict.complete:
            return None
        branches = []
        for item in values.items:
            inner = [
                e.element.with_changes(value=item.node) if e is condition.entry else e.element
                for e in metadata.entries
            ]
            branch = wrapper.element.with_changes(value=fixes.single_line_dict(inner))
            branches.append(fixes.single_line_dict([branch]))
        alternatives = new_list(branches)
        or_key = fixes.string_like(wrapper.element.key, "OR")
        message = "Rewrite `in` as an `OR` of metadata equalities"
        if len(owner_dict.entries) == 1:
            whole = fixes.single_line_dict([cst.DictElement(or_key, alternatives)])
            return Fix(Applicability.SAFE, message, ((owner_dict.node, whole),))
        keys = owner_dict.keys()
        if any(logical_name(key) is not None for key in keys):
            return filter_fixes.in_as_or_beside_logical(owner_dict, wrapper, alternatives, message)
        replacement = wrapper.element.with_changes(key=or_key, value=alternatives)
        return Fix(Applicability.SAFE, message, ((wrapper.element, replacement),))
