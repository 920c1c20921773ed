"""MEM410: Open source: a top-level entity id with whitespace inside."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Scalar
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.entities.shared import top_level_entities
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class WhitespaceEntityId(Rule):
    code = "MEM410"
    versions = {"mem0ai": ">=2.0.0"}
    name = "whitespace-entity-id"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Open source: a top-level entity id with whitespace inside"
    why = (
        "Open source trims entity ids and rejects any that still contain whitespace "
        '("cannot contain whitespace", ValueError), so a display name is not a user id.'
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "Ada Lovelace"})',
            good='memory.search("q", filters={"user_id": "ada_lovelace"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for entry in top_level_entities(site):
            value = entry.value
            if not (isinstance(value, Scalar) and isinstance(value.value, str)):
                continue
            if any(c.isspace() for c in value.value.strip()):
                yield Finding(
                    value.node,
                    f"`{entry.key}` contains whitespace, which open source rejects (ValueError)",
                )
