"""MEM409: An entity id that is `""` or only whitespace."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Scalar
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.entities.shared import entity_conditions, equality_value
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class EmptyEntityId(Rule):
    code = "MEM409"
    versions = {"mem0ai": ">=2.0.0"}
    name = "empty-entity-id"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.WARNING, "mem0-oss": Severity.ERROR}
    summary = 'An entity id that is `""` or only whitespace'
    why = (
        "An empty id scopes the call to nobody. Open source validates top-level entity ids and "
        'raises ValueError ("cannot be empty or whitespace-only"); elsewhere the condition '
        "silently matches nothing. Usually an unset variable formatted into a string."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": " "})',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"OR": [{"user_id": ""}, {"agent_id": "a"}]})',
            good='client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        for condition in entity_conditions(site):
            raises = grammar.validates_entity_ids and condition.owner.is_root
            # Where open source validates ids an operator dict fails for another reason (MEM215).
            value = condition.entry.value if raises else equality_value(condition.entry.value)
            if not (isinstance(value, Scalar) and isinstance(value.value, str)):
                continue
            if value.value.strip():
                continue
            if raises:
                yield Finding(
                    value.node,
                    f"`{condition.field}` is empty or whitespace (ValueError); pass a real id",
                )
            else:
                yield Finding(
                    value.node,
                    f"`{condition.field}` is empty or whitespace: the condition matches nothing",
                    severity=Severity.WARNING,
                )
