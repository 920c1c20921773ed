"""MEM407: Platform `ne` on an entity id also matches records where the id is null."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import FieldCondition
from mem0lint.rules.entities.shared import entity_conditions
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class NeIncludesNull(Rule):
    code = "MEM407"
    versions = {"mem0ai": ">=2.0.0"}
    name = "ne-includes-null"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.INFO
    summary = "Platform `ne` on an entity id also matches records where the id is null"
    why = (
        '`{"agent_id": {"ne": "a"}}` keeps every record whose agent id is not "a", including '
        'the many that have no agent id at all. Add `{"agent_id": "*"}` (any non-null value) '
        "next to it when only records with another agent are meant."
    )
    fix_safety = 'unsafe; adding `"*"` drops the null-valued records the filter matches today'
    examples = [
        Example(
            "mem0-platform",
            bad=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, {"agent_id": {"ne": "a"}}]})'
            ),
            good=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, '
                '{"agent_id": {"ne": "a"}}, {"agent_id": "*"}]})'
            ),
            fixed=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, '
                '{"agent_id": {"ne": "a"}}, {"agent_id": "*"}]})'
            ),
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        conditions = entity_conditions(site)
        # A `"*"` on the field anywhere in the conjunction already requires a value.
        guarded = {
            c.field
            for c in conditions
            if isinstance(c.entry.value, Scalar)
            and c.entry.value.value == "*"
            and all(name == "AND" for name in c.owner.path)
        }
        for condition in conditions:
            ne = condition.operators.get("ne") if condition.operators is not None else None
            if ne is None or (isinstance(ne.value, Scalar) and ne.value.value is None):
                continue  # `ne: None` is MEM207's
            if condition.field in guarded:
                continue
            yield Finding(
                ne.key_node,
                f"`ne` also matches records where `{condition.field}` is null; add "
                f'`{{"{condition.field}": "*"}}` to the AND to require a value',
                self._fix(condition),
            )

    @staticmethod
    def _fix(condition: FieldCondition) -> Fix | None:
        """Only for a one-key condition that is an element of an `AND` list."""
        owner = condition.owner
        if (
            "NOT" in owner.path
            or not owner.path
            or owner.path[-1] != "AND"
            or owner.parent_list is None
            or len(owner.node.entries) != 1
        ):
            return None
        guard = cst.Element(
            fixes.single_line_dict(
                [
                    fixes.dict_element(
                        condition.field,
                        fixes.string_like(condition.entry.key_node, "*"),
                        like=condition.entry.key_node,
                    )
                ]
            )
        )
        the_list = owner.parent_list.node
        elements = []
        for element in the_list.elements:
            elements.append(element)
            if element.value is owner.node.node:
                elements.append(guard)
        return Fix(
            Applicability.UNSAFE,
            f'Require a value: add `{{"{condition.field}": "*"}}`',
            ((the_list, fixes.with_elements(the_list, elements)),),
        )
