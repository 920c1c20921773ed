"""MEM101: Entity ids (`user_id`, ...) passed as keywords instead of inside `filters=`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, ListValue
from mem0lint.filtertree import walk as walk_filter
from mem0lint.fixbuilders import arguments as argument_fixes
from mem0lint.renames import spelling
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.arguments.shared import is_none
from mem0lint.rules.common import fully_literal
from mem0lint.sdk.dialects import MEM0, MEM0_ENTITIES, PLATFORM


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
    claims_keywords = MEM0_ENTITIES
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
        value = filters_arg.value
        if _may_be_none(value):
            return None  # `**None` raises TypeError: the fixed call would fail another way
        if not isinstance(value, _SPREADABLE) and not value.lpar:
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        spread = cst.Dict([cst.StarredDictElement(value), *new_entries])
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


# What `**` takes without parentheses (`{**a if b else c}` does not parse).
_SPREADABLE = (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.Dict)


def _may_be_none(value: cst.BaseExpression) -> bool:
    """`None`, or a conditional with a `None` branch (`filters if filters else None`)."""
    if isinstance(value, cst.Name):
        return value.value == "None"
    if isinstance(value, cst.IfExp):
        return _may_be_none(value.body) or _may_be_none(value.orelse)
    return False
