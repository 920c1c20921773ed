"""MEM1xx: the arguments of mem0 `search`, `get_all` and `delete_all` calls.

The facts the rules need beyond `dialects.py` (wrong spellings, value ranges) are the tables just
below; every rule reads them instead of spelling SDK knowledge inline.
"""

from __future__ import annotations

import re
from typing import Iterator

import libcst as cst

from mem0lint import argvalues, fixes
from mem0lint.callsite import CallSite
from mem0lint.dialects import (
    DIALECTS,
    MEM0,
    MEM0_ENTITIES,
    MEMOS_KEYWORDS,
    PLATFORM,
    WRONG_LIST_METHODS,
    OnUnknownKeyword,
)
from mem0lint.filtertree import DictValue, ListValue, literal_value
from mem0lint.filtertree import walk as walk_filter
from mem0lint.fixbuilders import arguments as argument_fixes
from mem0lint.renames import spelling
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import fully_literal

# Wrong keyword spellings, all silently ignored by mem0 `search()` (the SDKs take **kwargs).
RESULT_CAP_ALIASES = ("limit", "k", "n", "max_results", "count", "size")
THRESHOLD_ALIASES = (
    "min_score",
    "score_threshold",
    "similarity_threshold",
    "min_relevance",
    "cutoff",
)
RERANK_ALIASES = ("use_rerank", "reranking", "reorder")
# Paging keywords: `search()` has no pages on either dialect (MEM111).
SEARCH_PAGING = ("page", "page_size", "offset")

# Accepted literal ranges, per dialect: (low, high); None = unbounded. Platform: server-side
# validation (openapi); open source: `_validate_search_params` in mem0/memory/main.py.
TOP_K_RANGE = {"mem0-platform": (1, 1000), "mem0-oss": (0, None)}
THRESHOLD_RANGE = (0, 1)
# Platform `get_all()` paginates; `page_size` is 1-200 (openapi).
PAGE_SIZE_RANGE = (1, 200)

# The class a user holds, for messages.
CLIENT_CLASS = {"mem0-platform": "MemoryClient", "mem0-oss": "Memory"}

# How an ignored keyword is ignored, for messages.
IGNORED_BY = {
    "mem0-platform": "sent to the API, which silently ignores it",
    "mem0-oss": "silently ignored",
}

# Every snake_case keyword some mem0 method knows: the targets of camelCase spellings (MEM124).
KNOWN_SNAKE = frozenset(
    {p for d in MEM0 for m in DIALECTS[d].methods.values() for p in m.params} | MEM0_ENTITIES
)


def not_a_parameter(site: CallSite, keyword: str) -> str:
    return f"`{keyword}=` is not a `{site.method}()` parameter ({IGNORED_BY[site.dialect.id]})"


def camel_to_snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def camel_spelling_of(name: str) -> str | None:
    """The snake_case mem0 keyword `name` is a camelCase spelling of (MEM124), else None."""
    snake = camel_to_snake(name)
    return snake if snake != name and snake in KNOWN_SNAKE else None


def _could_become(name: str) -> frozenset[str]:
    """Every keyword some rule of this module may rename `name` to (conservative)."""
    targets = set()
    if name in RESULT_CAP_ALIASES:
        targets |= {"top_k", "page_size"}
    if name == "top_k":
        targets.add("page_size")  # Platform get_all (MEM109)
    if name == "page_size":
        targets.add("top_k")  # open source get_all (MEM110)
    if name in THRESHOLD_ALIASES:
        targets.add("threshold")
    if name in RERANK_ALIASES:
        targets.add("rerank")
    if name == "filter":
        targets.add("filters")
    snake = camel_to_snake(name)
    if snake != name:
        targets.add(snake)
    return frozenset(targets)


def rename_fix(site: CallSite, arg: cst.Arg, target: str, message: str, safe: bool = True):
    """A fix renaming the keyword of `arg` to `target`, or None when that could repeat a keyword.

    Several rules rename into the same keyword (`limit=` and `topK=` both become `top_k=`) and
    the fix loop applies non-overlapping fixes of one round together: a fix is offered only when
    no other keyword of the call is, or may become, `target`. With `**kwargs` in the call the
    target may already be in the spread (a TypeError after the rename): unsafe.
    """
    for name in site.keywords:
        if name != arg.keyword.value and (name == target or target in _could_become(name)):
            return None
    if target == "filters" and positional_filter_dict(site) is not None:
        return None  # MEM106 turns the positional dict into `filters=`
    applicability = Applicability.SAFE if safe else Applicability.UNSAFE
    accepted = argvalues.verdict(site.dialect.id, target, arg.value)
    if accepted is False:
        return None  # the renamed call would raise (argvalues.py)
    if accepted is None:
        applicability = Applicability.UNSAFE
        message += f" (the value must be one `{target}` accepts)"
    if site.has_star_args:
        applicability = Applicability.UNSAFE
        message += " (the `**` spread may hold it already)"
    return Fix(applicability, message, (fixes.rename_keyword(arg, target),))


def number(arg: cst.Arg) -> int | float | None:
    """The value of an int or float literal (bool excluded), else None."""
    ok, value = literal_value(arg.value)
    if ok and isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def in_range(value: float, bounds: tuple) -> bool:
    low, high = bounds
    return (low is None or value >= low) and (high is None or value <= high)


def describe_range(bounds: tuple) -> str:
    low, high = bounds
    return f"{low}-{high}" if high is not None else f">= {low}"


# The index of the positional argument an author may have meant as the filter dict.
FILTER_POSITION = {"search": 1, "get_all": 0}


def filters_positional(site: CallSite) -> cst.Arg | None:
    """The positional argument in the place of the filter (`search(q, HERE)`, `get_all(HERE)`)."""
    index = FILTER_POSITION.get(site.method)
    if index is None:
        return None
    positional = site.positional
    return positional[index] if len(positional) > index else None


def positional_filter_dict(site: CallSite) -> cst.Arg | None:
    """That argument when it is a dict literal (or a name bound once to one)."""
    arg = filters_positional(site)
    if arg is not None and isinstance(site.follow(arg.value), cst.Dict):
        return arg
    return None


def is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def entity_conflicts(tree: DictValue, names: list[str]) -> bool:
    """Is any of `names` already a key anywhere in the filter, however spelled (`userId`,
    `USER_ID`, inside `AND` / `OR` / `metadata`)?"""
    wanted = {spelling(n) for n in names}
    for node in walk_filter(tree):
        if isinstance(node, DictValue) and any(
            e.key is not None and spelling(e.key) in wanted for e in node.entries
        ):
            return True
    return False


class EntityKwargNotInFilters(Rule):
    """Entity ids passed as keywords instead of inside `filters`.

    mem0 2.x moved `user_id`, `agent_id`, `app_id` and `run_id` into the filter: the SDKs raise
    `ValueError` before any request is sent (Platform raw REST answers 400).
    """

    code = "MEM101"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-kwarg-not-in-filters"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.ERROR
    summary = "Entity ids (`user_id`, ...) passed as keywords instead of inside `filters=`"
    why = (
        "Since mem0 2.x, `search()` and `get_all()` reject top-level entity ids with a ValueError "
        "(the Platform REST API with HTTP 400). This is the most common mistake in public mem0 "
        "code, copied from older docs."
    )
    fix_safety = (
        "safe when `filters` is absent, `None` or an inline literal dict that lacks the key at "
        "every level and in every spelling (`userId`, inside `AND` / `OR`) (Platform: added as a "
        "sibling or appended to the root `AND`; open source: always a top-level key); no fix when "
        "it has the key (safe: dropped, when the keyword repeats the literal the filter's root "
        "already requires, after every `**spread`); unsafe when `filters` is a variable "
        "(`{**filters, ...}`) or has variable "
        "parts, when `**kwargs` may hold `filters`, and for `user_id=None` (dropped, never sent as "
        "null)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("hobbies", user_id="alice", top_k=5)',
            good='client.search("hobbies", filters={"user_id": "alice"}, top_k=5)',
            fixed='client.search("hobbies", filters={"user_id": "alice"}, top_k=5)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(user_id="alice", filters={"AND": [{"topic": "food"}]})',
            good='memory.get_all(filters={"AND": [{"topic": "food"}], "user_id": "alice"})',
            fixed='memory.get_all(filters={"AND": [{"topic": "food"}], "user_id": "alice"})',
        ),
        Example(
            "mem0-platform",
            bad='client.get_all(filters=build_filters(), user_id="alice")',
            good='client.get_all(filters={**build_filters(), "user_id": "alice"})',
            fixed='client.get_all(filters={**build_filters(), "user_id": "alice"})',
            unsafe=True,
        ),
    ]

    def entity_names(self, site: CallSite) -> frozenset[str]:
        return site.dialect.grammar.entity_fields

    def check(self, site: CallSite) -> Iterator[Finding]:
        entities = self.entity_names(site)
        if site.rest:
            yield from self._check_body(site, entities)
            return
        moved = [arg for name, arg in site.keywords.items() if name in entities]
        if not moved:
            return
        fix = self._fix(site, moved)
        for arg in moved:
            key = arg.keyword.value
            yield Finding(
                arg,
                f"`{key}=` is not accepted as a keyword by `{site.method}()` (raises "
                f'{site.spec.entity_kwargs_error}); put it in `filters={{"{key}": ...}}`',
                fix,
            )

    def _check_body(self, site: CallSite, entities: frozenset[str]) -> Iterator[Finding]:
        """Raw REST: entity ids at the top level of the JSON body are answered with HTTP 400."""
        moved = [e for e in site.body.entries if e.key in entities]
        if not moved:
            return
        fix = self._body_fix(site, moved)
        for entry in moved:
            yield Finding(
                entry.key_node,
                f'`"{entry.key}"` at the top level of the `{site.method}` request body is '
                f'rejected (HTTP 400); put it in `"filters": {{"{entry.key}": ...}}`',
                fix,
            )

    def _body_fix(self, site: CallSite, moved: list) -> Fix | None:
        body = site.body
        if not body.complete:
            return None
        names = ", ".join(f"`{e.key}`" for e in moved)
        message = f"Move {names} into `filters`"
        new_entries = [fixes.strip_comma(e.element) for e in moved]
        kept = [e.element for e in body.entries if not any(e is m for m in moved)]
        filters = body.get("filters")
        if filters is None:
            new_filters = fixes.dict_element(
                "filters", fixes.single_line_dict(new_entries), like=moved[0].key_node
            )
            index = next(i for i, e in enumerate(body.entries) if e is moved[0])
            kept.insert(min(index, len(kept)), new_filters)
        else:
            tree = filters.value
            if not (isinstance(tree, DictValue) and tree.complete):
                return None
            if entity_conflicts(tree, [e.key for e in moved]):
                return None  # both spellings present: the author must choose
            new_dict = self._add_entities(site, tree, new_entries)
            kept = [e.with_changes(value=new_dict) if e is filters.element else e for e in kept]
        new_body = fixes.with_elements(body.node, kept)
        safe = fully_literal(filters.value) if filters is not None else True
        applicability = Applicability.SAFE if safe else Applicability.UNSAFE
        return Fix(applicability, message, ((body.node, new_body),))

    def _fix(self, site: CallSite, moved: list[cst.Arg]) -> Fix | None:
        repeated = argument_fixes.repeated_entities(site, moved)
        if repeated is not None:
            return repeated
        # `user_id=None` means "no user": it is dropped, never sent as a null filter value.
        dropped = [a for a in moved if is_none(a.value)]
        carried = [a for a in moved if not is_none(a.value)]
        new_entries = [fixes.dict_element(a.keyword.value, a.value, like=a.value) for a in carried]
        names = ", ".join(f"`{a.keyword.value}`" for a in carried)
        message = f"Move {names} into `filters`" if carried else ""
        if dropped:
            message += "; " if message else ""
            message += "Drop " + ", ".join(f"`{a.keyword.value}=None`" for a in dropped)
        # Dropping a None scope leaves the scope to what is left: the author should look.
        safety = Applicability.UNSAFE if dropped else Applicability.SAFE
        kept = [a for a in site.call.args if not any(a is m for m in moved)]
        filters_arg = site.filters_arg
        if filters_arg is not None and is_none(filters_arg.value):
            # `filters=None` is no filter: the new dict takes its place.
            kept = [a for a in kept if a is not filters_arg]
            filters_arg = None
        if filters_arg is None:
            args = list(kept)
            if new_entries:
                new_filters = fixes.keyword_arg("filters", fixes.single_line_dict(new_entries))
                index = next(i for i, a in enumerate(site.call.args) if a is moved[0])
                args.insert(min(index, len(args)), new_filters)
            if site.has_star_args:
                # `**kwargs` may hold `filters` already: a second one is a TypeError.
                safety = Applicability.UNSAFE
                message += " (the `**` spread may hold `filters` already)"
            return Fix(safety, message, ((site.call, fixes.with_args(site.call, args)),))
        tree = site.filters
        if site.filters_inline and isinstance(tree, DictValue) and tree.complete:
            if entity_conflicts(tree, [a.keyword.value for a in moved]):
                return None  # both spellings present: the author must choose
            new_dict = self._add_entities(site, tree, new_entries) if new_entries else tree.node
            call = fixes.with_args(
                site.call,
                [a.with_changes(value=new_dict) if a is filters_arg else a for a in kept],
            )
            if not fully_literal(tree):
                # A variable inside the filter may hold the key already.
                safety = Applicability.UNSAFE
            return Fix(safety, message, ((site.call, call),))
        if not new_entries:
            return Fix(safety, message, ((site.call, fixes.with_args(site.call, kept)),))
        # A variable or an expression: spread it; an existing key would be overridden.
        spread = cst.Dict([cst.StarredDictElement(filters_arg.value), *new_entries])
        call = fixes.with_args(
            site.call,
            [
                a.with_changes(value=fixes.single_line_dict(spread.elements))
                if a is filters_arg
                else a
                for a in kept
            ],
        )
        return Fix(
            Applicability.UNSAFE,
            message + " (may override a key of the filter)",
            ((site.call, call),),
        )

    @staticmethod
    def _add_entities(site: CallSite, tree: DictValue, new_entries) -> cst.Dict:
        """Sibling keys are ANDed on both dialects; on Platform a root AND list reads better."""
        node = tree.node
        if site.dialect is PLATFORM:
            and_entry = tree.get("AND")
            if and_entry is not None and isinstance(and_entry.value, ListValue):
                conditions = [cst.Element(fixes.single_line_dict([e])) for e in new_entries]
                and_list = and_entry.value.node
                new_list = fixes.with_elements(and_list, [*and_list.elements, *conditions])
                return node.deep_replace(and_list, new_list)
        return fixes.with_elements(node, [*node.elements, *new_entries])


class UnknownResultCapKwarg(Rule):
    code = "MEM102"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-result-cap-kwarg"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = "`limit=`, `k=`, `max_results=`... on `search()`: the cap is `top_k`"
    why = (
        "mem0's `search()` accepts unknown keywords and ignores them: `limit=5` returns the "
        "default number of results (Platform 10, open source 20) without any error."
    )
    fix_safety = (
        "safe (renamed to `top_k`) for a literal `top_k` accepts (an int, not a bool: Platform "
        "1-1000, open source >= 0), unless `top_k` is already given; unsafe for a value that is "
        "not a literal (`None` raises on open source); no fix for other literals"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, limit=5)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=5)',
            fixed='client.search("q", filters={"user_id": "alice"}, top_k=5)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, k=3)',
            good='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
            fixed='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        default = site.spec.defaults["top_k"]
        for alias in RESULT_CAP_ALIASES:
            arg = site.keyword(alias)
            if arg is None:
                continue
            fix = rename_fix(site, arg, "top_k", f"Rename `{alias}` to `top_k`")
            yield Finding(
                arg,
                f"`{alias}=` is silently ignored by `{site.method}()`; the result cap is "
                f"`top_k` (default {default})",
                fix,
            )


class UnknownThresholdKwarg(Rule):
    code = "MEM103"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-threshold-kwarg"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = "`min_score=`, `score_threshold=`... on `search()`: the minimum score is `threshold`"
    why = (
        "mem0's `search()` ignores keywords it does not know: `min_score=0.5` keeps the default "
        "threshold (0.1) and returns weaker matches than asked for, without any error."
    )
    fix_safety = (
        "safe when the value is a number literal in [0, 1] (or a string spelling one: "
        '`"0.5"` -> `0.5`); unsafe when the value is not a '
        "literal (out of range, the renamed keyword raises instead of being ignored); no fix for "
        "other literals"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, min_score=0.5)',
            good='client.search("q", filters={"user_id": "alice"}, threshold=0.5)',
            fixed='client.search("q", filters={"user_id": "alice"}, threshold=0.5)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, score_threshold=cutoff)',
            good='memory.search("q", filters={"user_id": "alice"}, threshold=cutoff)',
            fixed='memory.search("q", filters={"user_id": "alice"}, threshold=cutoff)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        default = site.spec.defaults["threshold"]
        for alias in THRESHOLD_ALIASES:
            arg = site.keyword(alias)
            if arg is None:
                continue
            message = (
                f"{not_a_parameter(site, alias)}; the minimum score is `threshold` "
                f"(default {default})"
            )
            rename = f"Rename `{alias}` to `threshold`"
            value = number(arg)
            is_literal, _ = literal_value(arg.value)
            fix = None
            if value is not None and in_range(value, THRESHOLD_RANGE):
                fix = rename_fix(site, arg, "threshold", rename)
            elif value is not None:
                message += f"; {value} is outside [0, 1], so it is not a mem0 threshold as written"
            elif not is_literal:
                fix = rename_fix(
                    site, arg, "threshold", rename + " (value must be in [0, 1])", safe=False
                )
            else:
                fix = argument_fixes.numeric_string_rename(
                    arg, lambda a, m=rename: rename_fix(site, a, "threshold", m)
                )
            yield Finding(arg, message, fix)


class UnknownRerankKwarg(Rule):
    code = "MEM104"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-rerank-kwarg"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = "`use_rerank=`, `reranking=`, `reorder=` on `search()`: the keyword is `rerank`"
    why = (
        "mem0's `search()` ignores keywords it does not know: `use_rerank=True` returns the "
        "results unreranked, without any error."
    )
    fix_safety = (
        "safe (renamed to `rerank`, unless `rerank` is already given) for a bool literal; unsafe "
        "for a value that is not a literal; no fix for other literals"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, use_rerank=True)',
            good='client.search("q", filters={"user_id": "alice"}, rerank=True)',
            fixed='client.search("q", filters={"user_id": "alice"}, rerank=True)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, reranking=True)',
            good='memory.search("q", filters={"user_id": "alice"}, rerank=True)',
            fixed='memory.search("q", filters={"user_id": "alice"}, rerank=True)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for alias in RERANK_ALIASES:
            arg = site.keyword(alias)
            if arg is None:
                continue
            yield Finding(
                arg,
                f"{not_a_parameter(site, alias)}; use `rerank=`",
                rename_fix(site, arg, "rerank", f"Rename `{alias}` to `rerank`"),
            )


# What a mem0 call without any `filters` runs into (both dialects require an entity id).
MISSING_FILTERS = {"mem0-platform": "HTTP 400", "mem0-oss": "ValueError"}


class FilterSingular(Rule):
    code = "MEM105"
    versions = {"mem0ai": ">=2.0.0"}
    name = "filter-singular"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.ERROR
    summary = "`filter=` (singular) instead of `filters=`"
    why = (
        "mem0 takes `filters=`. A singular `filter=` is an unknown keyword and silently dropped, "
        "so the call runs without a filter: the Platform answers HTTP 400 (filters are "
        "required), open source raises ValueError (no entity id). Next to a real `filters=`, "
        "the conditions in `filter=` are silently lost."
    )
    fix_safety = "safe (renamed to `filters`); no fix when `filters=` is also given"
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filter={"user_id": "alice"})',
            good='client.get_all(filters={"user_id": "alice"})',
            fixed='client.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filter={"user_id": "alice"}, top_k=3)',
            good='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
            fixed='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("filter")
        if arg is None:
            return
        ignored = IGNORED_BY[site.dialect.id]
        if site.keyword("filters") is not None:
            yield Finding(
                arg,
                f"`filter=` is not a parameter ({ignored}); its conditions are lost next to "
                "`filters=`: merge them into `filters`",
                severity=Severity.WARNING,
            )
            return
        yield Finding(
            arg,
            f"`filter=` is not a parameter ({ignored}); without `filters=` the call fails "
            f"({MISSING_FILTERS[site.dialect.id]}): write `filters=`",
            rename_fix(site, arg, "filters", "Rename `filter` to `filters`"),
        )


# Typed options models of the Platform, which sit in the positional slot after the query.
OPTIONS_MODEL = {"search": "SearchMemoryOptions", "get_all": "GetAllMemoryOptions"}
# Keys that make a positional dict a set of options (`{"filters": ..., "top_k": 5}`), not a filter.
OPTION_KEYS = frozenset(
    {
        "filters",
        "top_k",
        "threshold",
        "rerank",
        "page",
        "page_size",
        "fields",
        "show_expired",
        "latest_only",
        "reference_date",
        "keyword_search",
        "start_date",
        "end_date",
        "explain",
    }
)


class PositionalFilters(Rule):
    code = "MEM106"
    versions = {"mem0ai": ">=2.0.0"}
    name = "positional-filters"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.ERROR
    summary = "A filter dict passed by position (`search(q, {...})`, `get_all({...})`)"
    why = (
        "Open source `search()` and `get_all()` take everything after the query by keyword only: "
        "a positional dict raises TypeError. On the Platform that slot is `options`, a "
        "`SearchMemoryOptions` / `GetAllMemoryOptions` model: a plain dict raises AttributeError "
        "('dict' object has no attribute 'model_dump'). A typed options object there is correct."
    )
    fix_safety = (
        "safe (passed as `filters=`) when the dict (or `dict(k=v, ...)`) is a filter and is the "
        "last positional "
        "argument; no fix for a dict of options or a non-dict argument"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", {"user_id": "alice"}, top_k=5)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=5)',
            fixed='client.search("q", filters={"user_id": "alice"}, top_k=5)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all({"user_id": "alice"})',
            good='memory.get_all(filters={"user_id": "alice"})',
            fixed='memory.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", 5, filters={"user_id": "alice"})',
            good='memory.search("q", top_k=5, filters={"user_id": "alice"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = filters_positional(site)
        if arg is None:
            return
        value = argument_fixes.dict_call_as_literal(site, site.follow(arg.value))
        index = FILTER_POSITION[site.method]
        # Platform: the slot is the `options` parameter; only a plain dict there is wrong.
        options_slot = index < site.spec.positional
        if options_slot:
            mechanism = (
                f"AttributeError: this slot is `options`, a `{OPTIONS_MODEL[site.method]}`, "
                "and a dict has no `model_dump`"
            )
        else:
            after = "the arguments after the query are" if index else "all arguments are"
            mechanism = f"TypeError: {after} keyword-only"
        if not isinstance(value, cst.Dict):
            if not options_slot:
                yield Finding(
                    arg,
                    f"`{site.method}()` takes no positional argument here ({mechanism}); pass "
                    "it by keyword",
                )
            return
        keys = {
            literal_value(e.key)[1]
            for e in value.elements
            if isinstance(e, cst.DictElement) and literal_value(e.key)[0]
        }
        if keys & OPTION_KEYS:
            yield Finding(
                arg,
                f"`{site.method}()` takes no positional dict ({mechanism}); pass its entries as "
                "keyword arguments (`filters=...`, `top_k=...`)",
            )
            return
        yield Finding(
            arg,
            f"`{site.method}()` takes no positional filter dict ({mechanism}); pass it as "
            "`filters=`",
            self._fix(site, arg),
        )

    @staticmethod
    def _fix(site: CallSite, arg: cst.Arg) -> Fix | None:
        if site.positional[-1] is not arg or any(a.star == "*" for a in site.call.args):
            return None  # more positionals follow: they would come after a keyword
        if "filters" in site.keywords or "filter" in site.keywords:
            return None  # two filters: the author must choose
        as_keyword = arg.with_changes(
            keyword=cst.Name("filters"),
            equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""),
                whitespace_after=cst.SimpleWhitespace(""),
            ),
        )
        return Fix(Applicability.SAFE, "Pass the dict as `filters=`", ((arg, as_keyword),))


class TopKOnGetAll(Rule):
    code = "MEM109"
    versions = {"mem0ai": ">=2.0.0"}
    name = "top-k-on-get-all"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"get_all"})
    severity = Severity.WARNING
    summary = "`top_k=` (or `limit=`...) on Platform `get_all()`, which paginates instead"
    why = (
        "Platform `get_all()` has no result cap: `top_k` is sent and silently ignored, and the "
        "call returns a full first page (100 memories). Its size is `page_size` (1-200)."
    )
    fix_safety = (
        "unsafe (renamed to `page_size`: you get the first page of that size; only for a value "
        "that is not a literal or a literal in 1-200)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "alice"}, top_k=20)',
            good='client.get_all(filters={"user_id": "alice"}, page_size=20)',
            fixed='client.get_all(filters={"user_id": "alice"}, page_size=20)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in ("top_k", *RESULT_CAP_ALIASES):
            arg = site.keyword(name)
            if arg is None:
                continue
            value = number(arg)
            is_literal, _ = literal_value(arg.value)
            fix = None
            if (value is not None and in_range(value, PAGE_SIZE_RANGE)) or not is_literal:
                fix = rename_fix(
                    site, arg, "page_size", f"Rename `{name}` to `page_size`", safe=False
                )
            yield Finding(
                arg,
                f"Platform `get_all()` ignores `{name}=` ({IGNORED_BY[site.dialect.id]}); it "
                "paginates with `page` / `page_size` (page_size 1-200, default 100)",
                fix,
            )


class PagingOnOssGetAll(Rule):
    code = "MEM110"
    versions = {"mem0ai": ">=2.0.0"}
    name = "paging-on-oss-get-all"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"get_all"})
    severity = Severity.WARNING
    summary = "`limit=`, `page=`, `page_size=` on open source `Memory.get_all()`"
    why = (
        "Open source `get_all()` has no paging: `limit`, `page` and `page_size` are silently "
        "ignored and the call returns up to `top_k` memories (default 20)."
    )
    fix_safety = (
        "safe for `limit=` and the other result-cap spellings (renamed to `top_k`) with an int "
        "literal >= 0 (`None`, a bool, a float or a negative number raise); unsafe for a value "
        "that is not a literal and for "
        "`page_size=` (renamed to `top_k`: one page of that size, no later pages); no fix for "
        "`page=`"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, limit=100)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=100)',
            fixed='memory.get_all(filters={"user_id": "alice"}, top_k=100)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, page_size=50)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=50)',
            fixed='memory.get_all(filters={"user_id": "alice"}, top_k=50)',
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, page=2)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=200)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        default = site.spec.defaults["top_k"]
        for name in (*RESULT_CAP_ALIASES, "page_size", "page"):
            arg = site.keyword(name)
            if arg is None:
                continue
            fix = None
            if name != "page":
                fix = rename_fix(
                    site, arg, "top_k", f"Rename `{name}` to `top_k`", safe=name != "page_size"
                )
            yield Finding(
                arg,
                f"`Memory.get_all()` has no paging: `{name}=` is silently ignored; the cap is "
                f"`top_k` (default {default})",
                fix,
            )


class PageOnSearch(Rule):
    code = "MEM111"
    versions = {"mem0ai": ">=2.0.0"}
    name = "page-on-search"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = "`page=`, `page_size=`, `offset=` on `search()`, which does not paginate"
    why = (
        "mem0 `search()` returns one ranked list capped by `top_k`; paging keywords are silently "
        "ignored, so a loop over pages gets the same results every time."
    )
    fix_safety = "none (raise `top_k` instead)"
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, page=2)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=20)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, offset=10)',
            good='memory.search("q", filters={"user_id": "alice"}, top_k=20)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in SEARCH_PAGING:
            arg = site.keyword(name)
            if arg is not None:
                yield Finding(
                    arg,
                    f"`search()` does not paginate: {not_a_parameter(site, name)}; raise "
                    "`top_k` to get more results",
                )


# Who rejects an out-of-range value (Platform: server validation; open source: the SDK).
RANGE_REJECTED_BY = {"mem0-platform": "HTTP 4xx", "mem0-oss": "ValueError"}


class TopKOutOfRange(Rule):
    code = "MEM112"
    versions = {"mem0ai": ">=2.0.0"}
    name = "top-k-out-of-range"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.ERROR
    summary = "A literal `top_k` outside the accepted range"
    why = (
        "The Platform API accepts `top_k` 1-1000 and rejects other values; open source "
        "`Memory.search()` / `get_all()` raise ValueError for a negative `top_k`."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, top_k=0)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=1)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, top_k=-1)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=0)',
        ),
    ]

    def applies_to(self, site: CallSite) -> bool:
        # Platform get_all() has no top_k at all (MEM109).
        return super().applies_to(site) and "top_k" in site.spec.params

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("top_k")
        value = number(arg) if arg is not None else None
        if not isinstance(value, int):
            return  # floats, strings, bools: MEM503
        bounds = TOP_K_RANGE[site.dialect.id]
        if in_range(value, bounds):
            return
        yield Finding(
            arg,
            f"`top_k={value}` is invalid: `{site.method}()` accepts an int "
            f"{describe_range(bounds)} ({RANGE_REJECTED_BY[site.dialect.id]})",
        )


class ThresholdOutOfRange(Rule):
    code = "MEM113"
    versions = {"mem0ai": ">=2.0.0"}
    name = "threshold-out-of-range"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "A literal `threshold` outside [0, 1]"
    why = (
        "mem0 scores are in [0, 1]. Open source `search()` raises ValueError for any threshold "
        "outside that range; the Platform API rejects it. A percentage (`threshold=70`) is the "
        "usual cause."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, threshold=70)',
            good='client.search("q", filters={"user_id": "alice"}, threshold=0.7)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, threshold=1.5)',
            good='memory.search("q", filters={"user_id": "alice"}, threshold=1.0)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("threshold")
        value = number(arg) if arg is not None else None
        if value is None or in_range(value, THRESHOLD_RANGE):
            return
        yield Finding(
            arg,
            f"`threshold={value}` must be a number in [0, 1] "
            f"({RANGE_REJECTED_BY[site.dialect.id]})",
        )


class EmptyQuery(Rule):
    code = "MEM114"
    versions = {"mem0ai": ">=2.0.0"}
    name = "empty-query"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "`search()` with an empty or whitespace-only query literal"
    why = (
        "Both mem0 SDKs strip the query and raise ValueError ('Invalid query: cannot be empty or "
        "whitespace-only') before anything is searched. To list memories without a query, call "
        "`get_all(filters=...)`."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("", filters={"user_id": "alice"})',
            good='client.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search(query="  ", filters={"user_id": "alice"})',
            good='memory.get_all(filters={"user_id": "alice"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("query") or (site.positional[0] if site.positional else None)
        if arg is None:
            return
        ok, value = literal_value(arg.value)
        if ok and isinstance(value, str) and not value.strip():
            yield Finding(
                arg,
                "`search()` query is empty or whitespace (ValueError); pass the text to search "
                "for, or call `get_all(filters=...)` to list memories",
            )


class WrongListMethod(Rule):
    code = "MEM123"
    name = "wrong-list-method"
    dialects = MEM0
    methods = WRONG_LIST_METHODS
    severity = Severity.ERROR
    summary = "`list()`, `all()`, `get_memories()`, `list_memories()` on a mem0 client"
    why = (
        "mem0 clients list memories with `get_all(filters=...)`; the other names do not exist "
        "and raise AttributeError."
    )
    fix_safety = (
        "safe (the method is renamed to `get_all`) when the call has no positional argument "
        '(`get_all` takes none: `list("u")` -> `get_all("u")` still fails); no fix otherwise'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.list(filters={"user_id": "alice"})',
            good='client.get_all(filters={"user_id": "alice"})',
            fixed='client.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_memories(filters={"user_id": "alice"})',
            good='memory.get_all(filters={"user_id": "alice"})',
            fixed='memory.get_all(filters={"user_id": "alice"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        attr = site.call.func.attr
        cls = CLIENT_CLASS[site.dialect.id]
        fix = None
        # `get_all` takes no positional filter or id (Platform: its first positional is the
        # `options` model; open source: keyword-only): `list("u")` -> `get_all("u")` still fails.
        if not site.positional and not any(a.star == "*" for a in site.call.args):
            fix = Fix(
                Applicability.SAFE, "Call `get_all`", ((attr, attr.with_changes(value="get_all")),)
            )
        yield Finding(
            attr,
            f"`{site.method}()` does not exist on `{cls}` (AttributeError); listing without a "
            "query is `get_all(filters=...)`",
            fix,
        )


# Severity of a camelCase entity id, per dialect (spec MEM124: the Platform call fails).
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
        outcome = (
            "raises TypeError" if raises else f"is not a parameter ({IGNORED_BY[site.dialect.id]})"
        )
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


class ReferenceDateOnOss(Rule):
    code = "MEM115"
    versions = {"mem0ai": ">=2.0.0"}
    name = "reference-date-on-oss"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "`reference_date=` on open source `Memory.search()`"
    why = (
        "`reference_date` (relative-time queries) is a Platform feature. Open source "
        "`Memory.search()` declares the parameter only to raise ValueError when it is not None."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("last week", filters={"user_id": "u"}, reference_date="2025-01-01")',
            good='memory.search("last week", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("reference_date")
        if arg is None or literal_value(arg.value) == (True, None):
            return
        yield Finding(
            arg,
            "`reference_date` is Platform-only; `Memory.search()` raises ValueError when it is "
            "set: remove it (or filter on `created_at`)",
        )


class OssAppId(Rule):
    code = "MEM122"
    versions = {"mem0ai": ">=2.0.0"}
    name = "oss-app-id"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"search", "get_all"})
    severity = Severity.WARNING
    summary = "`app_id=` on open source `search()` / `get_all()`"
    why = (
        "Open source mem0 scopes memories by `user_id`, `agent_id` and `run_id` only. An "
        "`app_id=` keyword is not rejected like the other entity ids: it is silently ignored, "
        "so the call is not scoped to the app."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u"}, app_id="shop")',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("app_id")
        if arg is None:
            return
        yield Finding(
            arg,
            f"{not_a_parameter(site, 'app_id')}: mem0 open source has no app scope; scope the "
            "call by `user_id` / `agent_id` / `run_id` in `filters`",
        )


# Keywords another rule of this module explains, per method (MEM107 stays silent on them).
EXPLAINED_ELSEWHERE = {
    "search": frozenset(
        {*RESULT_CAP_ALIASES, *THRESHOLD_ALIASES, *RERANK_ALIASES, *SEARCH_PAGING, "filter"}
        | MEM0_ENTITIES
        | set(MEMOS_KEYWORDS)
    ),
    "get_all": frozenset(
        {*RESULT_CAP_ALIASES, "filter", "top_k", "page", "page_size"} | MEM0_ENTITIES
    ),
}


# Keywords of mem0ai 1.x whose value asks for what 2.x does anyway (None: any value). Passing
# them is dead code, not a silently wrong result: info, not a warning.
HARMLESS_REMOVED = {
    "version": frozenset({"v2"}),
    "output_format": frozenset({"v1.1"}),
    "api_version": None,
    "enable_graph": frozenset({False}),
}


def _harmless(name: str, arg: cst.Arg) -> bool:
    if name not in HARMLESS_REMOVED:
        return False
    values = HARMLESS_REMOVED[name]
    if values is None:
        return True
    ok, value = literal_value(arg.value)
    return ok and value in values and type(value) is type(next(iter(values)))


class OtherUnknownKwarg(Rule):
    code = "MEM107"
    versions = {"mem0ai": ">=2.0.0"}
    name = "other-unknown-kwarg"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.WARNING
    summary = "A keyword `search()` / `get_all()` does not have (`output_format=`, `version=`...)"
    why = (
        "mem0 `search()` and `get_all()` accept any keyword: open source drops unknown ones, the "
        "Platform SDK sends them and the API ignores them. Options from older versions "
        "(`output_format`, `version`, `enable_graph`) or other libraries do nothing. Where the "
        'value asks for what 2.x does anyway (`version="v2"`, `output_format="v1.1"`, '
        "`api_version=`, `enable_graph=False`) the keyword is only dead code: reported at info."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"}, enable_graph=True)',
            good='client.search("q", filters={"user_id": "u"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "u"}, fields=["memory"])',
            good='memory.get_all(filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        explained = EXPLAINED_ELSEWHERE[site.method]
        for name, arg in site.keywords.items():
            if name in site.spec.params or name in explained or camel_spelling_of(name):
                continue
            if _harmless(name, arg):
                what = not_a_parameter(site, name)
                message = f"{what}; it asks for what 2.x does anyway: remove it"
                yield Finding(arg, message, severity=Severity.INFO)
                continue
            yield Finding(arg, f"{not_a_parameter(site, name)}; remove it")
