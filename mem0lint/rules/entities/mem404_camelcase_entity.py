"""MEM404: `userId` / `agentId` / `appId` / `runId` as a filter key."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import condition_dicts
from mem0lint.rules.entities.shared import oss_scope_missing
from mem0lint.sdk.dialects import ENTITY_CAMEL_CASE, MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class CamelCaseEntity(Rule):
    code = "MEM404"
    versions = {"mem0ai": ">=2.0.0"}
    name = "camelcase-entity"
    dialects = MEM0
    methods = FILTER_METHODS
    claims_keys = frozenset(ENTITY_CAMEL_CASE)
    renames = ENTITY_CAMEL_CASE
    severity = Severity.ERROR
    summary = "`userId` / `agentId` / `appId` / `runId` as a filter key"
    why = (
        "The Python SDKs and the REST filter use snake_case entity names. On the Platform "
        "`userId` is not an allowed filter key (HTTP 400); in open source it is an ordinary "
        "payload field that no memory has, and without a real `user_id` the call raises "
        "ValueError."
    )
    fix_safety = (
        "safe when the snake_case key is not already there; open source `appId` has no equivalent"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"userId": "u"})',
            good='client.search("q", filters={"user_id": "u"})',
            fixed='client.search("q", filters={"user_id": "u"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"agentId": "a", "topic": "food"})',
            good='memory.get_all(filters={"agent_id": "a", "topic": "food"})',
            fixed='memory.get_all(filters={"agent_id": "a", "topic": "food"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        if grammar.entities_top_level_only and not oss_scope_missing(site):
            # With a real entity id in place a camelCase key may be user metadata.
            return
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                snake = ENTITY_CAMEL_CASE.get(entry.key)
                if snake is None:
                    continue
                if snake not in grammar.entity_fields:
                    yield Finding(
                        entry.key_node,
                        f"`{entry.key}` is not a {site.dialect.label} scope: open source has no "
                        f"`{snake}`; scope with user_id, agent_id or run_id",
                    )
                    continue
                fix = None
                if condition.node.complete:
                    fix = rename_key_fix(condition.node, entry, snake, f"Rename to `{snake}`")
                yield Finding(
                    entry.key_node,
                    f"filter keys are snake_case: `{snake}`, not `{entry.key}` "
                    f"({grammar.rejected_by})",
                    fix,
                )
