"""MEM408: Platform: the filter's only entity ids are under `NOT`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import fully_literal
from mem0lint.rules.entities.shared import entity_conditions, scope_is_visible
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class EntityOnlyUnderNot(Rule):
    code = "MEM408"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-only-under-not"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "Platform: the filter's only entity ids are under `NOT`"
    why = (
        "The Platform requires an entity id in `filters`, but whether one under `NOT` scopes the "
        'call is undocumented. `{"NOT": {"user_id": "u"}}` asks for every other user\'s '
        "memories; name the scope positively."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"NOT": {"user_id": "bot"}})',
            good='client.search("q", filters={"agent_id": "a", "NOT": {"user_id": "bot"}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not scope_is_visible(site) or not fully_literal(site.filters):
            return
        conditions = entity_conditions(site)
        if conditions and all("NOT" in c.owner.path for c in conditions):
            first = conditions[0]
            yield Finding(
                first.entry.key_node,
                f"`{first.field}` under `NOT` is the filter's only entity id; whether that "
                "scopes the call is undocumented: add a positive entity condition",
            )
