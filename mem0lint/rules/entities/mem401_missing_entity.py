"""MEM401: `search()` / `get_all()` without an entity id in `filters`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Entry, Scalar
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import field_conditions, fully_literal
from mem0lint.rules.entities.shared import (
    entity_conditions,
    scope_is_visible,
    top_level_entities,
)
from mem0lint.sdk.dialects import ENTITY_ALIASES, ENTITY_CAMEL_CASE, MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


def misspelled_entity_keys(site: CallSite) -> list[Entry]:
    """camelCase or alias spellings of an entity id: MEM404 / MEM405 explain those."""
    entities = site.dialect.grammar.entity_fields
    return [
        c.entry
        for c in field_conditions(site.filters)
        if c.field in ENTITY_CAMEL_CASE or ENTITY_ALIASES.get(c.field) in entities
    ]


class MissingEntity(Rule):
    code = "MEM401"
    versions = {"mem0ai": ">=2.0.0"}
    name = "missing-entity"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`search()` / `get_all()` without an entity id in `filters`"
    why = (
        "Every mem0 search and listing is scoped to an entity. The Platform requires `filters` "
        "with at least one of user_id / agent_id / app_id / run_id (anywhere in the filter) and "
        "rejects the call otherwise (HTTP 400). Open source raises ValueError unless `user_id`, "
        "`agent_id` or `run_id` is a top-level key of `filters`."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"categories": {"in": ["travel"]}})',
            good='client.search("q", filters={"user_id": "u", "categories": {"in": ["travel"]}})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"topic": "food"})',
            good='memory.get_all(filters={"user_id": "u", "topic": "food"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q")',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        if not scope_is_visible(site):
            return
        names = sorted(grammar.entity_fields)
        wanted = ", ".join(f"`{n}`" for n in names)
        where = "as a top-level key" if grammar.entities_top_level_only else "(anywhere in it)"
        mechanism = grammar.rejected_by
        if site.filters is None or (
            isinstance(site.filters, Scalar) and site.filters.value is None
        ):
            yield Finding(
                site.call.func,
                f"`{site.method}()` without `filters` is rejected ({mechanism}); scope it with "
                f"`filters={{...}}` holding one of {wanted}",
            )
            return
        root = site.filters
        if not fully_literal(root, top_level_only=grammar.entities_top_level_only):
            return  # a hidden part may hold the entity id
        if misspelled_entity_keys(site):
            return  # MEM404 / MEM405
        if grammar.entities_top_level_only:
            if top_level_entities(site) or entity_conditions(site):
                return  # nested: MEM402
        elif entity_conditions(site):
            return
        extra = ""
        if root.get("app_id") is not None and "app_id" not in grammar.entity_fields:
            extra = " (`app_id` is not an entity in open source)"
        yield Finding(
            root.node,
            f"`filters` needs at least one of {wanted} {where}; without one it is rejected "
            f"({mechanism}){extra}",
        )
