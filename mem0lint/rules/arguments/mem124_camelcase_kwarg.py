"""MEM124: camelCase keywords (`userId=`, `topK=`, `pageSize=`) on a mem0 call."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import camel_spelling_of, ignored_by, rename_fix
from mem0lint.sdk.dialects import MEM0, MEM0_ENTITIES, OnUnknownKeyword

# Severity of a camelCase entity id, per dialect: on the Platform the unscoped call fails.
CAMEL_ENTITY_SEVERITY = {"mem0-platform": Severity.ERROR, "mem0-oss": Severity.WARNING}


class CamelCaseKwarg(Rule):
    code = "MEM124"
    versions = {"mem0ai": ">=2.0.0"}
    name = "camelcase-kwarg"
    dialects = MEM0
    methods = frozenset({"search", "get_all", "delete_all"})
    severity = Severity.WARNING
    summary = "camelCase keywords (`userId=`, `topK=`, `pageSize=`) on a mem0 call"
    why = (
        "The mem0 Python SDKs are snake_case; camelCase spellings come from the REST or "
        "JavaScript docs. `search()` and `get_all()` silently ignore them (an ignored `userId` "
        "leaves the call unscoped, which fails), open source `delete_all()` raises TypeError."
    )
    fix_safety = (
        "safe (renamed to snake_case) when the value is one the parameter accepts (`topK=` takes "
        "an int literal in range; a variable: unsafe); no fix for `appId` on open source, which "
        "has no app scope"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, topK=5)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=5)',
            fixed='client.search("q", filters={"user_id": "alice"}, top_k=5)',
        ),
        Example(
            "mem0-platform",
            bad='client.delete_all(userId="alice")',
            good='client.delete_all(user_id="alice")',
            fixed='client.delete_all(user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.delete_all(runId="run-1")',
            good='memory.delete_all(run_id="run-1")',
            fixed='memory.delete_all(run_id="run-1")',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, appId="shop")',
            good='memory.search("q", filters={"user_id": "alice", "app": "shop"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        raises = site.spec.on_unknown is OnUnknownKeyword.TYPE_ERROR
        outcome = "raises TypeError" if raises else f"is not a parameter ({ignored_by(site)})"
        entities = site.dialect.grammar.entity_fields
        for name, arg in site.keywords.items():
            snake = camel_spelling_of(name)
            if snake is None:
                continue
            is_entity = snake in MEM0_ENTITIES
            if raises:
                severity = Severity.ERROR
            elif is_entity:
                severity = CAMEL_ENTITY_SEVERITY[site.dialect.id]
            else:
                severity = Severity.WARNING
            if is_entity and snake not in entities:
                yield Finding(
                    arg,
                    f"`{name}=` {outcome}: {site.dialect.label} has no `{snake}` scope; scope "
                    f"the call by {' / '.join(sorted(entities))}",
                    severity=severity,
                )
                continue
            if is_entity and site.spec.entity_kwargs_error:
                # `user_id=` is wrong here too; MEM101 then moves it into `filters`.
                instead = f'`filters={{"{snake}": ...}}`'
                fix = None
                if entity_move_is_safe(site, snake):
                    fix = rename_fix(site, arg, snake, f"Rename `{name}` to `{snake}`")
            else:
                instead = f"`{snake}=`"
                fix = rename_fix(site, arg, snake, f"Rename `{name}` to `{snake}`")
            yield Finding(
                arg,
                f"`{name}=` {outcome}; the Python SDK is snake_case: write {instead}",
                fix,
                severity=severity,
            )


def entity_move_is_safe(site: CallSite, key: str) -> bool:
    """Whether MEM101 can move a `key=` keyword into `filters` safely (no filters, or an inline
    literal dict without that key): only then is renaming a camelCase entity id a step forward
    rather than a swap of a silently ignored keyword for a ValueError."""
    if site.filters_arg is None:
        return True
    tree = site.filters
    return (
        site.filters_inline and isinstance(tree, DictValue) and tree.complete and not tree.get(key)
    )
