"""MEM405: `session_id`, `thread_id`, `user`, ... used as a mem0 scope in `filters`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Rule, Severity
from mem0lint.rules.common import condition_dicts
from mem0lint.rules.entities.shared import oss_scope_missing
from mem0lint.sdk.dialects import ENTITY_ALIASES, MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class EntityAlias(Rule):
    code = "MEM405"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-alias"
    dialects = MEM0
    methods = FILTER_METHODS
    claims_keys = frozenset(ENTITY_ALIASES)
    renames = ENTITY_ALIASES
    # Open source: reported only when the filter has no real entity id, i.e. when the call
    # raises ValueError; with a real id the key may be ordinary metadata and is left alone.
    severity = Severity.ERROR
    summary = "`session_id`, `thread_id`, `user`, ... used as a mem0 scope in `filters`"
    why = (
        "mem0 scopes are `user_id`, `agent_id`, `app_id` (Platform) and `run_id`. Session, "
        "thread and conversation ids from other memory libraries map to `run_id`. The Platform "
        "rejects unknown top-level keys (HTTP 400); open source raises ValueError when no real "
        "entity id is left."
    )
    fix_safety = "unsafe, since it is right only if those ids were stored under the mem0 name"
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "session_id": "s1"})',
            good='client.search("q", filters={"user_id": "u", "run_id": "s1"})',
            fixed='client.search("q", filters={"user_id": "u", "run_id": "s1"})',
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"thread_id": "t1"})',
            good='memory.search("q", filters={"run_id": "t1"})',
            fixed='memory.search("q", filters={"run_id": "t1"})',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        if grammar.entities_top_level_only and not oss_scope_missing(site):
            return
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                meant = ENTITY_ALIASES.get(entry.key)
                if meant is None or meant not in grammar.entity_fields:
                    continue
                fix = None
                if condition.node.complete:
                    fix = rename_key_fix(
                        condition.node,
                        entry,
                        meant,
                        f"Rename to `{meant}` (only if stored as `{meant}`)",
                        Applicability.UNSAFE,
                    )
                yield Finding(
                    entry.key_node,
                    f"`{entry.key}` is not a mem0 scope ({grammar.rejected_by}); mem0 scopes are "
                    f"{', '.join(sorted(grammar.entity_fields))}: did you mean `{meant}`?",
                    fix,
                )
