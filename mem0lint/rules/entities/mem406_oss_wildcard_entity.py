"""MEM406: Open source: `"*"` as an entity id removes the scope."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Scalar, string_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.entities.shared import entity_conditions
from mem0lint.sdk.dialects import OPEN_SOURCE


class OssWildcardEntity(Rule):
    code = "MEM406"
    versions = {"mem0ai": ">=2.0.0"}
    name = "oss-wildcard-entity"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"search", "get_all", "delete_all"})
    severity = Severity.WARNING
    summary = 'Open source: `"*"` as an entity id removes the scope'
    why = (
        'On the Platform `"*"` means "any non-null value". In open source it passes validation '
        "and the default Qdrant store (and Chroma) then skips the condition: the call sees every "
        "record, other users' included, and records without the field. "
        '`delete_all(user_id="*")` lists and deletes the whole collection.'
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "*", "agent_id": "support"})',
            good='memory.search("q", filters={"agent_id": "support"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.delete_all(user_id="*")',
            good="memory.reset()",
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not site.dialect.grammar.wildcard_entity_unscoped:
            return
        if site.method == "delete_all":
            yield from self._delete_all(site)
            return
        # Root keys and root-AND children are one conjunction; inside OR / NOT the store drops
        # the branch instead (store-dependent nested logic, MEM310).
        conjunction = [
            c for c in entity_conditions(site) if all(name == "AND" for name in c.owner.path)
        ]
        wildcards = [c for c in conjunction if self._is_wildcard(c.entry.value)]
        scoped = len(wildcards) < len(conjunction)
        for condition in wildcards:
            if scoped:
                consequence = (
                    f'records without `{condition.field}` match too (the Platform\'s `"*"` '
                    "means any non-null value)"
                )
            else:
                consequence = "the call is not scoped at all: every memory in the store matches"
            yield Finding(
                condition.entry.value.node,
                f'`"{condition.field}": "*"` is skipped by Qdrant/Chroma: {consequence}',
                # With a real id next to it the scope holds; only the null case differs.
                severity=Severity.INFO if scoped else None,
            )

    @staticmethod
    def _is_wildcard(value) -> bool:
        return isinstance(value, Scalar) and value.value == "*"

    @staticmethod
    def _delete_all(site: CallSite) -> Iterator[Finding]:
        params = site.spec.params
        given = {params[i]: a for i, a in enumerate(site.positional) if i < len(params)}
        given.update(site.keywords)
        for name in params:
            arg = given.get(name)
            if arg is None or not isinstance(arg.value, cst.SimpleString):
                continue
            if string_value(arg.value) == "*":
                yield Finding(
                    arg,
                    f'`delete_all({name}="*")` is not "every {name}": the store skips the '
                    "condition and deletes every memory in the collection (use `reset()` if "
                    "that is meant)",
                )
