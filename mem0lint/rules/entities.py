"""MEM4xx: entity scoping in mem0 filters (user_id, agent_id, app_id, run_id).

The two SDKs disagree on where an entity id counts: the Platform finds it anywhere in the filter,
open source only as a top-level key (`key in filters`). Which entity names exist and where they
count come from the dialect's grammar.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.dialects import ENTITY_ALIASES, ENTITY_CAMEL_CASE, MEM0, OPEN_SOURCE, PLATFORM
from mem0lint.filtertree import DictValue, Entry, ListValue, Opaque, Scalar
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import (
    ConditionDict,
    FieldCondition,
    condition_dicts,
    field_conditions,
    fully_literal,
    logical_name,
)

FILTER_METHODS = frozenset({"search", "get_all"})


def entity_conditions(site: CallSite) -> list[FieldCondition]:
    entities = site.dialect.grammar.entity_fields
    return [c for c in field_conditions(site.filters) if c.field in entities]


def top_level_entities(site: CallSite) -> list[Entry]:
    root = site.filters
    if not isinstance(root, DictValue):
        return []
    return [e for e in root.entries if e.key in site.dialect.grammar.entity_fields]


def misspelled_entity_keys(site: CallSite) -> list[Entry]:
    """camelCase or alias spellings of an entity id: MEM404 / MEM405 explain those."""
    entities = site.dialect.grammar.entity_fields
    return [
        c.entry
        for c in field_conditions(site.filters)
        if c.field in ENTITY_CAMEL_CASE or ENTITY_ALIASES.get(c.field) in entities
    ]


def equality_value(node) -> object:
    """The node compared for equality: `v` in `{f: v}` or `{f: {"eq": v}}`, else None."""
    if isinstance(node, DictValue) and len(node.entries) == 1 and node.entries[0].key == "eq":
        return node.entries[0].value
    if isinstance(node, (Scalar, Opaque)):
        return node
    return None


def oss_scope_missing(site: CallSite) -> bool:
    """Open source: no top-level entity id and none can come from elsewhere (ValueError)."""
    return (
        scope_is_visible(site)
        and fully_literal(site.filters, top_level_only=True)
        and not top_level_entities(site)
    )


def scope_is_visible(site: CallSite) -> bool:
    """True when the entity ids of this call's filter can all be seen in the source.

    With entity ids given as keywords (MEM101 moves them into `filters`), `**kwargs`, a
    positional options object, or `filter=` (MEM105) the scope may come from elsewhere.
    """
    grammar = site.dialect.grammar
    names = site.argument_names
    if site.has_star_args or "options" in names or "filter" in names:
        return False
    named = set(grammar.entity_fields) | set(ENTITY_CAMEL_CASE) | set(ENTITY_ALIASES)
    if named & names:
        return False
    query_args = 1 if site.method == "search" else 0
    return len(site.positional) <= query_args


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


class OssEntityNotTopLevel(Rule):
    code = "MEM402"
    versions = {"mem0ai": ">=2.0.0"}
    name = "oss-entity-not-top-level"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Open source: the only entity ids of the filter sit inside `AND` / `OR` / `NOT`"
    why = (
        "Open source checks `user_id`, `agent_id` and `run_id` with `key in filters` on the top "
        'level only, so `{"AND": [{"user_id": u}, ...]}` raises ValueError ("filters must '
        'contain at least one of: user_id, agent_id, run_id"). Put the entity id next to `AND`.'
    )
    fix_safety = (
        "safe (R23) for a scalar entity condition that is a direct child of the root `AND` (the "
        "two forms are the same conjunction); unsafe when its value is a variable (a non-scalar "
        "value would turn into an entity-id error); none inside `OR` / `NOT`"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"AND": [{"user_id": "u"}, {"topic": "food"}]})',
            good='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
            fixed='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"OR": [{"user_id": "a"}, {"user_id": "b"}]})',
            good="""
            for user in ("a", "b"):
                memory.search("q", filters={"user_id": user})
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        root = site.filters
        if not oss_scope_missing(site):
            return
        nested = entity_conditions(site)
        if not nested:
            return
        fix = self._fix(site, root, nested)
        for condition in nested:
            where = condition.owner.path[0]
            hoistable = fix is not None and self._hoistable(root, condition)
            advice = (
                f"hoist `{condition.field}` out of `{where}`"
                if hoistable or where == "AND"
                else f"an entity id inside `{where}` is not a scope: run one call per id"
            )
            yield Finding(
                condition.entry.key_node,
                "open source only sees entity ids at the top level of `filters` (ValueError "
                f'"filters must contain at least one of: user_id, agent_id, run_id"); {advice}',
                fix if hoistable else None,
            )

    @staticmethod
    def _root_and(root: DictValue) -> Entry | None:
        ands = [e for e in root.entries if logical_name(e.key) == "AND"]
        return ands[0] if len(ands) == 1 and isinstance(ands[0].value, ListValue) else None

    def _hoistable(self, root: DictValue, condition: FieldCondition) -> bool:
        and_entry = self._root_and(root)
        owner = condition.owner
        return (
            and_entry is not None
            and owner.parent_list is and_entry.value
            and owner.node.complete
            and isinstance(condition.entry.value, (Scalar, Opaque))
            and not (
                isinstance(condition.entry.value, Scalar)
                and (
                    not isinstance(condition.entry.value.value, (str, int))
                    or isinstance(condition.entry.value.value, bool)
                )
            )
        )

    def _fix(self, site: CallSite, root: DictValue, nested: list[FieldCondition]) -> Fix | None:
        and_entry = self._root_and(root)
        if and_entry is None or not root.complete:
            return None
        hoisted = [c for c in nested if self._hoistable(root, c)]
        if not hoisted:
            return None
        names = [c.field for c in hoisted]
        if len(set(names)) != len(names):
            return None  # the same id twice: the author must choose
        lifted = {id(c.entry.element) for c in hoisted}
        kept_items = []
        for item in and_entry.value.items:
            element = next(e for e in and_entry.value.node.elements if e.value is item.node)
            if not isinstance(item, DictValue) or not any(
                id(e.element) in lifted for e in item.entries
            ):
                kept_items.append(element)
                continue
            rest = [e.element for e in item.entries if id(e.element) not in lifted]
            if rest:
                kept_items.append(element.with_changes(value=fixes.with_elements(item.node, rest)))
        new_entries = [fixes.strip_comma(c.entry.element) for c in hoisted]
        elements = []
        for element in root.node.elements:
            if element is and_entry.element:
                elements.extend(new_entries)
                if kept_items:
                    new_list = fixes.with_elements(and_entry.value.node, kept_items)
                    elements.append(element.with_changes(value=new_list))
            else:
                elements.append(element)
        unsafe = any(isinstance(c.entry.value, Opaque) for c in hoisted)
        listed = ", ".join(f"`{n}`" for n in names)
        return Fix(
            Applicability.UNSAFE if unsafe else Applicability.SAFE,
            f"Hoist {listed} to the top level"
            + (" (assumes the variable holds one plain id)" if unsafe else ""),
            ((root.node, fixes.with_elements(root.node, elements)),),
        )


class UserAndAgentAnd(Rule):
    code = "MEM403"
    versions = {"mem0ai": ">=2.0.0"}
    name = "user-and-agent-and"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`user_id` AND `agent_id` in one conjunction: matches almost nothing on the Platform"
    why = (
        "A memory added by the Platform carries either a user id or an agent id, not both "
        "(only Direct Import with `infer=False` writes both). Requiring both returns an empty "
        "result; to search a user's and an agent's memories use `OR`."
    )
    fix_safety = (
        "unsafe (R22): `OR` asks a different question; right unless the data came from Direct "
        "Import"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "agent_id": "a"})',
            good='client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            fixed='client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            unsafe=True,
        ),
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"AND": [{"user_id": "u"}, {"agent_id": "a"}]})',
            good='client.get_all(filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            fixed='client.get_all(filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            unsafe=True,
        ),
    ]

    PAIR = ("user_id", "agent_id")

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in condition_dicts(site.filters):
            if "NOT" in condition.path:
                continue  # excluding records with both ids is a different question
            if condition.path and condition.path[-1] == "AND":
                continue  # judged with the dict that holds the AND
            found = self._conjunction(condition.node)
            if all(found.get(name) for name in self.PAIR):
                user, agent = found["user_id"][0], found["agent_id"][0]
                yield Finding(
                    agent[0].key_node,
                    "`user_id` AND `agent_id` together match only memories carrying both ids "
                    "(Direct Import); memories added normally carry one of them: did you mean "
                    '`{"OR": [{"user_id": ...}, {"agent_id": ...}]}`?',
                    self._fix(condition, user, agent),
                )

    def _conjunction(self, node: DictValue) -> dict[str, list[tuple[Entry, DictValue]]]:
        """Entity equality conditions ANDed together in `node`: its keys and its AND lists."""
        found: dict[str, list] = {}
        for entry in node.entries:
            if entry.key in self.PAIR and self._is_id(entry.value):
                found.setdefault(entry.key, []).append((entry, node))
            elif logical_name(entry.key) == "AND" and isinstance(entry.value, ListValue):
                for item in entry.value.items:
                    if isinstance(item, DictValue):
                        for key, hits in self._conjunction(item).items():
                            found.setdefault(key, []).extend(hits)
        return found

    @staticmethod
    def _is_id(value) -> bool:
        compared = equality_value(value)
        if isinstance(compared, Scalar):
            value = compared.value
            return isinstance(value, (str, int)) and not isinstance(value, bool) and value != "*"
        return isinstance(compared, Opaque)

    @staticmethod
    def _fix(condition: ConditionDict, user, agent) -> Fix | None:
        (user_entry, user_owner), (agent_entry, agent_owner) = user, agent
        node = condition.node
        if not node.complete:
            return None
        pair = [
            cst.Element(fixes.single_line_dict([user_entry.element])),
            cst.Element(fixes.single_line_dict([agent_entry.element])),
        ]
        or_list = fixes.with_elements(cst.List([]), pair)
        if user_owner is node and agent_owner is node:
            # Flat: {"user_id": u, "agent_id": a, ...} -> {"OR": [...], ...}, unless another
            # logical key would end up next to the new OR (MEM302).
            if any(logical_name(e.key) for e in node.entries):
                return None
            or_entry = fixes.dict_element("OR", or_list, like=user_entry.key_node)
            elements = []
            for element in node.node.elements:
                if element is user_entry.element:
                    elements.append(or_entry.with_changes(comma=element.comma))
                elif element is not agent_entry.element:
                    elements.append(element)
            new = fixes.with_elements(node.node, elements)
        else:
            # {"AND": [{"user_id": u}, {"agent_id": a}]}: both single-key children of one AND.
            ands = [e for e in node.entries if logical_name(e.key) == "AND"]
            if (
                len(node.entries) != 1
                or len(ands) != 1
                or not isinstance(ands[0].value, ListValue)
                or len(ands[0].value.items) != 2
                or {id(user_owner), id(agent_owner)} != {id(i) for i in ands[0].value.items}
                or len(user_owner.entries) != 1
                or len(agent_owner.entries) != 1
            ):
                return None
            # The AND list is the pair: only its key changes (its layout and comments stay).
            new = ands[0].key_node, fixes.string_like(ands[0].key_node, "OR")
            return Fix(Applicability.UNSAFE, "Match memories of the user OR the agent", (new,))
        return Fix(
            Applicability.UNSAFE,
            "Match memories of the user OR the agent",
            ((node.node, new),),
        )


class CamelCaseEntity(Rule):
    code = "MEM404"
    versions = {"mem0ai": ">=2.0.0"}
    name = "camelcase-entity"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`userId` / `agentId` / `appId` / `runId` as a filter key"
    why = (
        "The Python SDKs and the REST filter use snake_case entity names. On the Platform "
        "`userId` is not an allowed filter key (HTTP 400); in open source it is an ordinary "
        "payload field that no memory has, and without a real `user_id` the call raises "
        "ValueError."
    )
    fix_safety = (
        "safe (R24) when the snake_case key is not already there; open source `appId` has no "
        "equivalent"
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


class EntityAlias(Rule):
    code = "MEM405"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-alias"
    dialects = MEM0
    methods = FILTER_METHODS
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
    fix_safety = "unsafe (R25): right only if those ids were stored under the mem0 name"
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


class EmptyEntityId(Rule):
    code = "MEM409"
    versions = {"mem0ai": ">=2.0.0"}
    name = "empty-entity-id"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.WARNING, "mem0-oss": Severity.ERROR}
    summary = 'An entity id that is `""` or only whitespace'
    why = (
        "An empty id scopes the call to nobody. Open source validates top-level entity ids and "
        'raises ValueError ("cannot be empty or whitespace-only"); elsewhere the condition '
        "silently matches nothing. Usually an unset variable formatted into a string."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": " "})',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"OR": [{"user_id": ""}, {"agent_id": "a"}]})',
            good='client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        for condition in entity_conditions(site):
            raises = grammar.validates_entity_ids and condition.owner.is_root
            # Where open source validates ids an operator dict fails for another reason (MEM215).
            value = condition.entry.value if raises else equality_value(condition.entry.value)
            if not (isinstance(value, Scalar) and isinstance(value.value, str)):
                continue
            if value.value.strip():
                continue
            if raises:
                yield Finding(
                    value.node,
                    f"`{condition.field}` is empty or whitespace (ValueError); pass a real id",
                )
            else:
                yield Finding(
                    value.node,
                    f"`{condition.field}` is empty or whitespace: the condition matches nothing",
                    severity=Severity.WARNING,
                )


class WhitespaceEntityId(Rule):
    code = "MEM410"
    versions = {"mem0ai": ">=2.0.0"}
    name = "whitespace-entity-id"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Open source: a top-level entity id with whitespace inside"
    why = (
        "Open source trims entity ids and rejects any that still contain whitespace "
        '("cannot contain whitespace", ValueError), so a display name is not a user id.'
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "Ada Lovelace"})',
            good='memory.search("q", filters={"user_id": "ada_lovelace"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for entry in top_level_entities(site):
            value = entry.value
            if not (isinstance(value, Scalar) and isinstance(value.value, str)):
                continue
            if any(c.isspace() for c in value.value.strip()):
                yield Finding(
                    value.node,
                    f"`{entry.key}` contains whitespace, which open source rejects (ValueError)",
                )


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
            if arg.value.evaluated_value == "*":
                yield Finding(
                    arg,
                    f'`delete_all({name}="*")` is not "every {name}": the store skips the '
                    "condition and deletes every memory in the collection (use `reset()` if "
                    "that is meant)",
                )


class NeIncludesNull(Rule):
    code = "MEM407"
    versions = {"mem0ai": ">=2.0.0"}
    name = "ne-includes-null"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.INFO
    summary = "Platform `ne` on an entity id also matches records where the id is null"
    why = (
        '`{"agent_id": {"ne": "a"}}` keeps every record whose agent id is not "a", including '
        'the many that have no agent id at all. Add `{"agent_id": "*"}` (any non-null value) '
        "next to it when only records with another agent are meant."
    )
    fix_safety = 'unsafe; adding `"*"` drops the null-valued records the filter matches today'
    examples = [
        Example(
            "mem0-platform",
            bad=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, {"agent_id": {"ne": "a"}}]})'
            ),
            good=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, '
                '{"agent_id": {"ne": "a"}}, {"agent_id": "*"}]})'
            ),
            fixed=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, '
                '{"agent_id": {"ne": "a"}}, {"agent_id": "*"}]})'
            ),
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        conditions = entity_conditions(site)
        # A `"*"` on the field anywhere in the conjunction already requires a value.
        guarded = {
            c.field
            for c in conditions
            if isinstance(c.entry.value, Scalar)
            and c.entry.value.value == "*"
            and all(name == "AND" for name in c.owner.path)
        }
        for condition in conditions:
            ne = condition.operators.get("ne") if condition.operators is not None else None
            if ne is None or (isinstance(ne.value, Scalar) and ne.value.value is None):
                continue  # `ne: None` is MEM207's
            if condition.field in guarded:
                continue
            yield Finding(
                ne.key_node,
                f"`ne` also matches records where `{condition.field}` is null; add "
                f'`{{"{condition.field}": "*"}}` to the AND to require a value',
                self._fix(condition),
            )

    @staticmethod
    def _fix(condition: FieldCondition) -> Fix | None:
        """Only for a one-key condition that is an element of an `AND` list."""
        owner = condition.owner
        if (
            "NOT" in owner.path
            or not owner.path
            or owner.path[-1] != "AND"
            or owner.parent_list is None
            or len(owner.node.entries) != 1
        ):
            return None
        guard = cst.Element(
            fixes.single_line_dict(
                [
                    fixes.dict_element(
                        condition.field,
                        fixes.string_like(condition.entry.key_node, "*"),
                        like=condition.entry.key_node,
                    )
                ]
            )
        )
        the_list = owner.parent_list.node
        elements = []
        for element in the_list.elements:
            elements.append(element)
            if element.value is owner.node.node:
                elements.append(guard)
        return Fix(
            Applicability.UNSAFE,
            f'Require a value: add `{{"{condition.field}": "*"}}`',
            ((the_list, fixes.with_elements(the_list, elements)),),
        )


class EntityOnlyUnderNot(Rule):
    code = "MEM408"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-only-under-not"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "Platform: the filter's only entity ids are under `NOT`"
    why = (
        "The Platform requires an entity id in `filters`, but whether one under `NOT` scopes the "
        'call is undocumented. `{"NOT": {"user_id": "u"}}` asks for every other user\'s '
        "memories; name the scope positively."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"NOT": {"user_id": "bot"}})',
            good='client.search("q", filters={"agent_id": "a", "NOT": {"user_id": "bot"}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not scope_is_visible(site) or not fully_literal(site.filters):
            return
        conditions = entity_conditions(site)
        if conditions and all("NOT" in c.owner.path for c in conditions):
            first = conditions[0]
            yield Finding(
                first.entry.key_node,
                f"`{first.field}` under `NOT` is the filter's only entity id; whether that "
                "scopes the call is undocumented: add a positive entity condition",
            )
