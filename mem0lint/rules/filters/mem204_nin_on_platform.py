"""MEM204: `nin` / `$nin` in a Platform filter; the Platform has no `nin`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Severity
from mem0lint.rules.common import logical_name
from mem0lint.rules.filters.shared import OperatorEntry, OperatorRule, operator_entries
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class NinOnPlatform(OperatorRule):
    code = "MEM204"
    versions = {"mem0ai": ">=2.0.0"}
    name = "nin-on-platform"
    claims_operators = frozenset({"nin", "$nin"})
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`nin` / `$nin` in a Platform filter; the Platform has no `nin`"
    why = (
        "`nin` exists only in mem0 open source. The Platform API rejects it with HTTP 400; to "
        'exclude values, wrap an `in` clause in `NOT`: `{"NOT": {"f": {"in": [...]}}}`.'
    )
    fix_safety = (
        'unsafe; `{f: {"nin": L}}` becomes `{"NOT": {f: {"in": L}}}` (still one element '
        "inside an AND/OR list; a `NOT` sibling in a flat dict), but how the Platform's `NOT` "
        "treats records where f is null is undocumented. No fix on metadata keys (metadata has "
        "no `in`), next to an existing `NOT`, beside `**spread`, or for a scalar value"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={
                    "user_id": "u1",
                    "categories": {"nin": ["spam", "test"]},
                },
            )
            """,
            good="""
            client.search(
                "q",
                filters={
                    "user_id": "u1",
                    "NOT": {"categories": {"in": ["spam", "test"]}},
                },
            )
            """,
            fixed="""
            client.search(
                "q",
                filters={
                    "user_id": "u1",
                    "NOT": {"categories": {"in": ["spam", "test"]}},
                },
            )
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            field = op.condition.field
            if op.condition.metadata_wrapper is not None:
                instead = f'`{{"NOT": {{"OR": [{{"metadata": {{"{field}": a}}}}, ...]}}}}`'
                fix = None
            else:
                instead = f'`{{"NOT": {{"{field}": {{"in": [...]}}}}}}`'
                fix = self._fix(op)
            yield Finding(
                op.entry.key_node,
                f"The Platform has no `{op.key}` (HTTP 400); exclude values with {instead}",
                fix,
            )

    @staticmethod
    def _fix(op: OperatorEntry) -> Fix | None:
        owner_dict = op.condition.owner.node
        if isinstance(op.value, (Scalar, DictValue)) or not owner_dict.complete:
            return None
        keys = owner_dict.keys()
        if any(logical_name(key) == "NOT" for key in keys):
            return None  # a second NOT key would replace the first
        field_element = op.condition.entry.element
        in_clause = cst.Dict([fixes.dict_element("in", op.value.node, op.entry.key_node)])
        negated = fixes.single_line_dict([field_element.with_changes(value=in_clause)])
        not_key = fixes.string_like(field_element.key, "NOT")
        message = f"Rewrite `{op.key}` as `NOT` + `in`"
        if op.sole:
            replacement = field_element.with_changes(key=not_key, value=negated)
            return Fix(Applicability.UNSAFE, message, ((field_element, replacement),))
        kept = [e.element for e in op.ops.entries if e is not op.entry]
        narrowed = field_element.with_changes(value=fixes.with_elements(op.ops.node, kept))
        not_element = cst.DictElement(key=not_key, value=negated)
        elements = []
        for element in owner_dict.node.elements:
            elements.extend([narrowed, not_element] if element is field_element else [element])
        new_owner = fixes.with_elements(owner_dict.node, elements)
        return Fix(Applicability.UNSAFE, message, ((owner_dict.node, new_owner),))
