"""MEM216: Platform entity ids compared with operators other than eq / ne / in."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding
from mem0lint.rules.filters.shared import FieldKindRule
from mem0lint.sdk.mem0_filters import ENTITY


class EntityBadOperatorPlatform(FieldKindRule):
    code = "MEM216"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-bad-op-platform"
    kind = ENTITY
    summary = "Platform entity ids compared with operators other than eq / ne / in"
    why = (
        "Platform entity fields (`user_id`, `agent_id`, `app_id`, `run_id`) accept a bare value, "
        '`eq`, `ne`, `in` (a list) and the wildcard `"*"`; `contains`, ranges and the rest are '
        "rejected with HTTP 400."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": {"contains": "team_"}})',
            good='client.get_all(filters={"user_id": {"in": ["team_a", "team_b"]}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            yield Finding(
                violation.node,
                f'`{violation.field}` supports a bare value, eq, ne, in and `"*"` only: '
                f"{violation.what} is rejected (HTTP 400)",
            )
