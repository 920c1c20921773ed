"""MEM116-MEM118: mem0 `delete_all()`, which takes entity ids as keywords, not a filter.

Unlike `search()` and `get_all()`, `delete_all()` still takes `user_id=` / `agent_id=` /
`run_id=` (and on the Platform `app_id=`) directly: open source as its only parameters (no
`**kwargs`), the Platform as query parameters of `DELETE /v1/memories/`.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.dialects import MEM0, OPEN_SOURCE, PLATFORM
from mem0lint.filtertree import DictValue, ListValue, Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.arguments.shared import camel_spelling_of

METHODS = frozenset({"delete_all"})
# Keywords that show the author tried to scope the call; judged by the rules that own them.
SCOPING_ATTEMPTS = frozenset({"filters", "filter", "options"})
# What an unscoped delete_all() runs into, and how to delete everything on purpose.
UNSCOPED = {
    "mem0-platform": (
        'is rejected by the API; pass `user_id=` / `agent_id=` / `app_id=` / `run_id=` (`"*"` '
        "for one of them deletes all memories of that entity type)"
    ),
    "mem0-oss": (
        "raises ValueError; pass `user_id=` / `agent_id=` / `run_id=` (`reset()` wipes every "
        "memory on purpose)"
    ),
}


def entity_keywords_from_filters(site: CallSite, entities: frozenset[str]) -> list[cst.Arg] | None:
    """`filters={"user_id": u, ...}` as `user_id=u, ...` keywords, when that is exact.

    Only an inline dict whose keys are all entity ids with plain values (no operator dict, no
    list), none of them also given as a keyword.
    """
    tree = site.filters
    if not site.filters_inline or not isinstance(tree, DictValue) or not tree.complete:
        return None
    keys = tree.keys()  # a DictValue, not a dict
    if not keys or any(key not in entities or key in site.keywords for key in keys):
        return None
    for entry in tree.entries:
        if isinstance(entry.value, (DictValue, ListValue)):
            return None
        if isinstance(entry.value, Scalar) and entry.value.value is None:
            return None
    return [fixes.keyword_arg(e.key, e.element.value) for e in tree.entries]


def filters_to_keywords_fix(site: CallSite, entities: frozenset[str]) -> Fix | None:
    keywords = entity_keywords_from_filters(site, entities)
    if keywords is None:
        return None
    args = []
    for arg in site.call.args:
        args.extend(keywords if arg is site.filters_arg else [arg])
    # A `"*"` id turns a call that raised into a bulk delete (on open source with Qdrant, of the
    # whole collection): never applied without asking.
    wildcard = any(
        isinstance(e.value, Scalar) and e.value.value == "*" for e in site.filters.entries
    )
    risky = site.has_star_args or wildcard
    return Fix(
        Applicability.UNSAFE if risky else Applicability.SAFE,
        "Pass the entity ids as keywords",
        ((site.call, fixes.with_args(site.call, args)),),
    )


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


class DeleteAllUnscoped(Rule):
    code = "MEM118"
    versions = {"mem0ai": ">=2.0.0"}
    name = "delete-all-unscoped"
    dialects = MEM0
    methods = METHODS
    severity = Severity.ERROR
    summary = "`delete_all()` without any entity id"
    why = (
        "mem0 refuses to delete without a scope: open source raises ValueError, the Platform API "
        "rejects the request. Pass the ids to delete for."
    )
    examples = [
        Example(
            "mem0-platform",
            bad="client.delete_all()",
            good='client.delete_all(user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad="memory.delete_all(user_id=None)",
            good='memory.delete_all(user_id="alice")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.positional or site.has_star_args:
            return  # open source: positional ids; Platform: typed options
        entities = site.dialect.grammar.entity_fields
        for name, arg in site.keywords.items():
            if name in SCOPING_ATTEMPTS or camel_spelling_of(name) is not None:
                return  # MEM116 / MEM117 / MEM124 explain those
            if name in entities and not _is_none(arg.value):
                return
        yield Finding(site.call, f"`delete_all()` without an entity id {UNSCOPED[site.dialect.id]}")


def _is_none(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value == "None"
