"""MEM207: `{"ne": None}` used to ask for "the field is set"."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Severity
from mem0lint.rules.filters.shared import OperatorRule, is_null, operator_entries, presence_fix
from mem0lint.sdk.dialects import MEM0, OPEN_SOURCE, PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS, WILDCARD_MEANS_PRESENT


class NeNullForPresence(OperatorRule):
    code = "MEM207"
    versions = {"mem0ai": ">=2.0.0"}
    name = "ne-null-for-presence"
    claims_operators = frozenset({"ne", "$ne"})
    dialects = MEM0
    methods = FILTER_METHODS
    # Open source: Qdrant (the default store) builds `MatchExcept(except=[None])`, which pydantic
    # rejects (ValidationError, a ValueError) before any search runs.
    severity = {PLATFORM.id: Severity.WARNING, OPEN_SOURCE.id: Severity.ERROR}
    summary = '`{"ne": None}` used to ask for "the field is set"'
    why = (
        "`ne` compares values; it is not a presence test, and on the Platform `ne` also matches "
        'records where the field is null. The Platform spells "any non-null value" as `"*"`. '
        "In open source, Qdrant rejects a None comparison value (ValueError) and there is no "
        'portable presence test (`"*"` is a no-op on Qdrant).'
    )
    fix_safety = (
        'unsafe on the Platform: `{f: {"ne": None}}` becomes `{f: "*"}` when `ne` is the '
        "only operator; none on open source"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "agent_id": {"ne": None}})',
            good='client.get_all(filters={"user_id": "u1", "agent_id": "*"})',
            fixed='client.get_all(filters={"user_id": "u1", "agent_id": "*"})',
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "u1", "project": {"$ne": None}})',
            good='memory.get_all(filters={"user_id": "u1", "project": "apollo"})',
        ),
    ]

    @staticmethod
    def claims_value(value: object) -> bool:
        return is_null(value)

    def check(self, site: CallSite) -> Iterator[Finding]:
        present = WILDCARD_MEANS_PRESENT[site.dialect.id]
        for op in operator_entries(site, self.code):
            field = op.condition.field
            if present:
                advice = f'write `{{"{field}": "*"}}` (any non-null value)'
            else:
                advice = (
                    "on Qdrant it raises ValueError (None is not a comparable value), and open "
                    'source has no portable presence test (`"*"` is a no-op on Qdrant)'
                )
            yield Finding(
                op.entry.key_node,
                f'`{{"{op.key}": None}}` does not mean "{field} is set"; {advice}',
                presence_fix(site, op, "excludes nulls"),
            )
