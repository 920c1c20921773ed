"""MEM117: `filters=` on Platform `MemoryClient.delete_all()`, which takes entity keywords."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.delete_all import METHODS, filters_to_keywords_fix
from mem0lint.sdk.dialects import PLATFORM


class PlatformDeleteAllFilters(Rule):
    code = "MEM117"
    versions = {"mem0ai": ">=2.0.0"}
    name = "platform-delete-all-filters"
    dialects = frozenset({PLATFORM.id})
    methods = METHODS
    severity = Severity.ERROR
    summary = "`filters=` on Platform `MemoryClient.delete_all()`, which takes entity keywords"
    why = (
        "`MemoryClient.delete_all()` sends its keywords as query parameters of `DELETE "
        "/v1/memories/`; a `filters` dict is not translated but stringified into the URL and "
        "ignored. Alone the call is rejected (no entity id); next to entity keywords it deletes "
        "everything those select, more than the filter intended."
    )
    fix_safety = (
        "safe when the dict holds only plain entity ids (passed as `user_id=` ... keywords), "
        'unsafe when one is `"*"` (a bulk delete); none otherwise'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.delete_all(filters={"user_id": "alice", "agent_id": "bot"})',
            good='client.delete_all(user_id="alice", agent_id="bot")',
            fixed='client.delete_all(user_id="alice", agent_id="bot")',
        ),
        Example(
            "mem0-platform",
            bad='client.delete_all(user_id="alice", filters={"categories": {"in": ["food"]}})',
            good='client.delete_all(user_id="alice")',
        ),
        Example(
            "mem0-platform",
            bad='client.delete_all(filters={"user_id": "*"})',
            good='client.delete_all(user_id="*")',
            fixed='client.delete_all(user_id="*")',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.filters_arg
        if arg is None:
            return
        yield Finding(
            arg,
            "`MemoryClient.delete_all()` sends query parameters; `filters=` is not translated "
            "(stringified and ignored): alone the call is rejected, next to entity keywords it "
            "deletes more than the filter intended. Pass `user_id=` / `agent_id=` / `app_id=` / "
            "`run_id=`",
            filters_to_keywords_fix(site, PLATFORM.grammar.entity_fields),
        )
