"""MEM116: Open source `Memory.delete_all()` called with a keyword other than the entity ids."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.delete_all import METHODS, filters_to_keywords_fix
from mem0lint.rules.arguments.shared import camel_spelling_of
from mem0lint.sdk.dialects import OPEN_SOURCE


class OssDeleteAllBadKwarg(Rule):
    code = "MEM116"
    name = "oss-delete-all-bad-kwarg"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = METHODS
    severity = Severity.ERROR
    summary = "Open source `Memory.delete_all()` called with a keyword other than the entity ids"
    why = (
        "`Memory.delete_all(user_id=None, agent_id=None, run_id=None)` has no `**kwargs`: "
        "`filters=`, `app_id=` or any other keyword raises TypeError before anything is deleted."
    )
    fix_safety = (
        "safe for `filters=` holding only plain `user_id` / `agent_id` / `run_id` values (passed "
        'as keywords), unsafe when one is `"*"` (a bulk delete); none otherwise'
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.delete_all(filters={"user_id": "alice"})',
            good='memory.delete_all(user_id="alice")',
            fixed='memory.delete_all(user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.delete_all(user_id="alice", app_id="shop")',
            good='memory.delete_all(user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.delete_all(filters={"user_id": "*"})',
            good="memory.reset()",
            fixed='memory.delete_all(user_id="*")',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        params = site.spec.params
        for name, arg in site.keywords.items():
            if name in params or camel_spelling_of(name) is not None:
                continue  # camelCase spellings: MEM124
            fix = None
            if name == "filters":
                fix = filters_to_keywords_fix(site, OPEN_SOURCE.grammar.entity_fields)
            yield Finding(
                arg,
                f"`Memory.delete_all()` accepts only `user_id`, `agent_id`, `run_id` (TypeError "
                f"on `{name}=`)",
                fix,
            )
