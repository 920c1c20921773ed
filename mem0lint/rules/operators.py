"""MEM2xx: operators inside mem0 filters.

Every key of an operator dict (`{"field": {op: value}}`) has exactly one rule that speaks about
it, chosen by `owner()`: a `$`-spelling goes to MEM201 unless a more specific rule explains it
($exists, $regex, $nin on Platform, $ne: None), SQL symbols to MEM203, and so on. Operators that
exist in the dialect are then checked against what the field accepts (per-field-kind tables below);
those rules see only keys nobody else owns, so a key is never reported twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Union

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.dialects import MEM0, MEM0_ENTITIES, OPEN_SOURCE, PLATFORM, TIME_FIELDS
from mem0lint.filtertree import DictValue, Entry, ListValue, Opaque, Scalar, walk
from mem0lint.fixbuilders import filters as filter_fixes
from mem0lint.ossflatten import logical_rename_keeps_meaning
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import (
    LOGICAL,
    FieldCondition,
    condition_dicts,
    field_conditions,
    logical_name,
)

FILTER_METHODS = frozenset({"search", "get_all"})

# ---------------------------------------------------------------------------------------------
# Facts: operator spellings and what each field kind accepts, per dialect.
# ---------------------------------------------------------------------------------------------

# `$`-operators whose bare form means the same in mem0 as in MongoDB. `$not` is left out: in
# MongoDB it negates one operator expression, not a list of conditions.
DOLLAR_SAFE = {
    "$and": "AND",
    "$or": "OR",
    "$in": "in",
    "$eq": "eq",
    "$ne": "ne",
    "$gt": "gt",
    "$gte": "gte",
    "$lt": "lt",
    "$lte": "lte",
}
# `$`-operators whose bare twin means something else in a dialect: the rename is offered, but
# only as an unsafe fix. MongoDB's `$ne` / `$nin` also match documents where the field is missing
# or null; open source's `ne` / `nin` become Qdrant `except` conditions, which never match a
# missing or null field. (The Platform's `ne` includes nulls, like MongoDB's.)
DOLLAR_CHANGES_MEANING = {OPEN_SOURCE.id: frozenset({"$ne", "$nin"})}
# `$`-keys another rule explains better than MEM201 does. `owner()` also sends `$nin` to MEM204
# where the dialect has no `nin`, and `$ne: None` to MEM207.
DOLLAR_ELSEWHERE = {"$exists": "MEM206", "$regex": "MEM205", "$options": "MEM205"}

# SQL comparison symbols written as operator keys -> the mem0 word (R9).
SQL_SYMBOLS = {
    ">=": "gte",
    "<=": "lte",
    ">": "gt",
    "<": "lt",
    "!=": "ne",
    "<>": "ne",
    "==": "eq",
    "=": "eq",
}

# Operator spellings from other query languages -> the mem0 operator(s) to suggest. "nin" is
# turned into `NOT` + `in` where the dialect has no `nin`.
FOREIGN_OPERATORS: dict[str, tuple[str, ...]] = {
    "regex": ("icontains",),
    "$regex": ("icontains",),
    "like": ("contains",),
    "ilike": ("icontains",),
    "match": ("contains",),
    "neq": ("ne",),
    "not_eq": ("ne",),
    "not_equal": ("ne",),
    "noteq": ("ne",),
    "equals": ("eq",),
    "equal": ("eq",),
    "is": ("eq",),
    "not_in": ("nin",),
    "notin": ("nin",),
    "not in": ("nin",),
    "between": ("gte", "lte"),
    "range": ("gte", "lte"),
    "startswith": ("contains",),
    "starts_with": ("contains",),
    "endswith": ("contains",),
    "ends_with": ("contains",),
    "has": ("contains",),
    "includes": ("contains",),
    "any": ("in",),
    "one_of": ("in",),
}

# How each dialect refuses a filter it cannot read.
REJECTS = {PLATFORM.id: "HTTP 400", OPEN_SOURCE.id: "ValueError"}


@dataclass(frozen=True)
class FieldKind:
    """What one kind of field accepts in a dialect (spec §3.1 "Fields × operators")."""

    name: str  # how messages name the kind
    operators: frozenset[str]
    bare: bool = True  # a bare value (equality) is accepted
    wildcard: bool = True  # `"*"` (any non-null value) is accepted


# Platform: each field name -> its kind. Keys inside {"metadata": {...}} have the kind
# METADATA_KIND. Fields not listed accept every operator of the grammar as far as this module is
# concerned (unknown fields are MEM303/MEM304's business).
ENTITY = FieldKind("an entity id", frozenset({"eq", "ne", "in"}))
TIME = FieldKind("a time field", frozenset({"gt", "gte", "lt", "lte", "ne", "in"}))
CATEGORIES = FieldKind("`categories`", frozenset({"in", "contains"}), bare=False, wildcard=False)
KEYWORDS = FieldKind("`keywords`", frozenset({"contains", "icontains"}), bare=False, wildcard=False)
METADATA = FieldKind("a metadata key", frozenset({"eq", "ne", "contains"}))

FIELD_KINDS: dict[str, dict[str, FieldKind]] = {
    PLATFORM.id: {
        **{name: ENTITY for name in MEM0_ENTITIES},
        **{name: TIME for name in TIME_FIELDS},
        "categories": CATEGORIES,
        "keywords": KEYWORDS,
    },
    # Open source: every payload key accepts every operator of the grammar.
    OPEN_SOURCE.id: {},
}
METADATA_KIND: dict[str, Union[FieldKind, None]] = {PLATFORM.id: METADATA, OPEN_SOURCE.id: None}

# Where an unknown key inside a field's dict value is certainly a bad operator. On Platform a
# metadata key (or an unknown field) may hold a nested dict, which MEM307/MEM304 explain; there
# only keys that look like operators are reported. Open source sends every dict value to the
# operator translation or to the vector store, which both reject unknown keys.
NESTED_DICT_IS_OPERATOR_DICT = {PLATFORM.id: False, OPEN_SOURCE.id: True}

RANGE_OPERATORS = frozenset({"gt", "gte", "lt", "lte"})
REGEX_METACHARACTERS = re.compile(r"[.^$*+?()\[\]{}|\\]")


# ---------------------------------------------------------------------------------------------
# Walking: operator dicts and who owns each of their keys.
# ---------------------------------------------------------------------------------------------


def is_metadata_wrapper(condition: FieldCondition) -> bool:
    """The `{"metadata": {...}}` entry itself: its keys are fields, not operators."""
    return (
        condition.metadata_wrapper is None
        and condition.field == "metadata"
        and isinstance(condition.entry.value, DictValue)
    )


def field_kind(site: CallSite, condition: FieldCondition) -> FieldKind | None:
    if condition.metadata_wrapper is not None:
        return METADATA_KIND[site.dialect.id]
    return FIELD_KINDS[site.dialect.id].get(condition.field)


def operator_fields(site: CallSite) -> Iterator[FieldCondition]:
    """Field conditions whose value is read as a value or an operator dict (not wrappers)."""
    for condition in field_conditions(site.filters, unwrap_metadata=True):
        if not is_metadata_wrapper(condition):
            yield condition


def plain_scalar(node: object) -> bool:
    """A literal that a bare value can stand for: not None, not the `"*"` wildcard."""
    return isinstance(node, Scalar) and node.value is not None and node.value != "*"


def is_null(node: object) -> bool:
    return isinstance(node, Scalar) and node.value is None


def owner(key: str, value: object, site: CallSite) -> str | None:
    """The rule that reports operator key `key` (with `value`), or None for a valid operator."""
    operators = site.dialect.grammar.operators
    if key.startswith("$"):
        if key in DOLLAR_ELSEWHERE:
            return DOLLAR_ELSEWHERE[key]
        if key == "$ne" and is_null(value):
            return "MEM207"
        if key == "$nin" and "nin" not in operators:
            return "MEM204"
        return "MEM201"
    if key in SQL_SYMBOLS:
        return "MEM203"
    if key == "exists":
        return "MEM206"
    if key == "nin" and "nin" not in operators:
        return "MEM204"
    if key not in operators:
        return "MEM205"
    if key == "ne" and is_null(value):
        return "MEM207"
    if key in ("in", "nin") and isinstance(value, (Scalar, DictValue)):
        return "MEM214"
    return None


@dataclass(eq=False)
class OperatorEntry:
    """One `op: value` of a field's operator dict."""

    condition: FieldCondition
    entry: Entry
    kind: FieldKind | None

    @property
    def key(self) -> str:
        return self.entry.key

    @property
    def value(self):
        return self.entry.value

    @property
    def ops(self) -> DictValue:
        return self.condition.entry.value

    @property
    def sole(self) -> bool:
        """The only key of its operator dict (no `**spread` either)."""
        return self.ops.complete and len(self.ops.entries) == 1


def operator_entries(site: CallSite, code: str | None = None) -> Iterator[OperatorEntry]:
    """Keys of operator dicts in the filter; with `code`, only those that rule owns."""
    for condition in operator_fields(site):
        ops = condition.operators
        if ops is None:
            continue
        kind = field_kind(site, condition)
        for entry in ops.entries:
            if entry.key is None:
                continue
            if code is None or owner(entry.key, entry.value, site) == code:
                yield OperatorEntry(condition, entry, kind)


def suggestion(words: tuple[str, ...], site: CallSite, kind: FieldKind | None) -> str:
    """What to write instead of a foreign operator, limited to what the field accepts."""
    if words == ("nin",) and "nin" not in site.dialect.grammar.operators:
        words = ("in",)
        prefix = "`NOT` + "
    else:
        prefix = ""
    if kind is not None and not set(words) <= kind.operators:
        return f"{kind.name} accepts only {', '.join(sorted(kind.operators))}"
    return "use " + prefix + " / ".join(f"`{w}`" for w in words)


def operator_list(site: CallSite) -> str:
    order = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "icontains")
    return ", ".join(op for op in order if op in site.dialect.grammar.operators)


# ---------------------------------------------------------------------------------------------
# Small builders for the replacements below (quote style copied from a neighbouring key).
# ---------------------------------------------------------------------------------------------


def new_dict(like: cst.BaseExpression | None, items: list[tuple[str, cst.BaseExpression]]):
    return fixes.single_line_dict([fixes.dict_element(k, v, like) for k, v in items])


def new_list(values: list[cst.BaseExpression]) -> cst.List:
    elements = [cst.Element(v) for v in values]
    return cst.List(fixes.normalise_commas([], elements))


def replace_value(entry: Entry, node: cst.BaseExpression) -> tuple[cst.CSTNode, cst.CSTNode]:
    return entry.value.node, node


# ---------------------------------------------------------------------------------------------
# MEM201, MEM202: `$`-spellings and lowercase logical keys.
# ---------------------------------------------------------------------------------------------


class DollarOperator(Rule):
    code = "MEM201"
    versions = {"mem0ai": ">=2.0.0"}
    name = "dollar-operator"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "MongoDB `$`-operators (`$and`, `$in`, `$gte`...) in a mem0 filter"
    why = (
        "mem0 operators are bare words. The Platform rejects `$and` with HTTP 400; open source "
        "raises ValueError or, on the raw path, depends on the vector store."
    )
    fix_safety = (
        "safe for `$and`, `$or`, `$in`, `$eq`, `$gt`, `$gte`, `$lt`, `$lte`, and for `$ne` on the "
        "Platform (its `ne` matches missing and null fields, as MongoDB's `$ne` does); unsafe for "
        "`$ne` and `$nin` on open source (MongoDB's match records where the field is missing or "
        "null, open source's `ne` / `nin` on Qdrant never do); unsafe for `$not` (MongoDB's "
        "`$not` negates an operator, not conditions). A logical key on open source `search()` "
        "is respelled only when mem0's flattening of `AND` / `OR` / `NOT` keeps every condition "
        "(no field twice in the `AND` elements and the root, no logical key inside an element); "
        "no fix otherwise. Beside a `**spread`: unsafe"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={"$and": [{"user_id": "u_42"}, {"created_at": {"$gte": "2025-01-01"}}]},
            )
            """,
            good="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u_42"}, {"created_at": {"gte": "2025-01-01"}}]},
            )
            """,
            fixed="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u_42"}, {"created_at": {"gte": "2025-01-01"}}]},
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "tier": {"$in": ["gold", "pro"]}})',
            good='memory.search("q", filters={"user_id": "u", "tier": {"in": ["gold", "pro"]}})',
            fixed='memory.search("q", filters={"user_id": "u", "tier": {"in": ["gold", "pro"]}})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "tier": {"$nin": ["trial"]}})',
            good='memory.search("q", filters={"user_id": "u", "tier": {"nin": ["trial"]}})',
            fixed='memory.search("q", filters={"user_id": "u", "tier": {"nin": ["trial"]}})',
            unsafe=True,  # records without a `tier` no longer match
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        safe = dict(DOLLAR_SAFE)
        if "nin" in site.dialect.grammar.operators:
            safe["$nin"] = "nin"
        changes_meaning = DOLLAR_CHANGES_MEANING.get(site.dialect.id, frozenset())
        for node in walk(site.filters) if site.filters is not None else ():
            if not isinstance(node, DictValue):
                continue
            for entry in node.entries:
                key = entry.key
                if key is None or not key.startswith("$"):
                    continue
                if owner(key, entry.value, site) != self.code:
                    continue  # $exists, $regex, $nin on Platform, $ne: None: see `owner`
                bare = safe.get(key) or (LOGICAL.get(key[1:]) if key == "$not" else None)
                fix = None
                # Renaming next to an existing `bare` key would make a duplicate key, and Python
                # keeps only the last one: no fix then (renames.py).
                if bare is not None:
                    same = key in safe and key not in changes_meaning
                    applicability = Applicability.SAFE if same else Applicability.UNSAFE
                    fix = rename_key_fix(
                        node, entry, bare, f"Replace `{key}` with `{bare}`", applicability
                    )
                if (
                    fix is not None
                    and logical_name(key) is not None
                    and not logical_rename_keeps_meaning(site, site.filters)
                ):
                    fix = None  # open source search() would flatten a condition away
                instead = f"`{bare}`" if bare else "a mem0 operator"
                yield Finding(
                    entry.key_node,
                    f"mem0 operators have no `$`: use {instead} instead of `{key}`",
                    fix,
                )


class LowercaseLogical(Rule):
    code = "MEM202"
    versions = {"mem0ai": ">=2.0.0"}
    name = "lowercase-logical"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Logical keys spelled `and` / `or` / `not` instead of `AND` / `OR` / `NOT`"
    why = (
        "mem0 logical keys are uppercase. The Platform rejects a lowercase `and` at the top "
        "level (HTTP 400); open source treats it as a payload field named `and`, which matches "
        "nothing or is rejected by the vector store."
    )
    fix_safety = (
        "safe, unless the uppercase key is there (or may be: a `**spread` makes it unsafe); on "
        "open source `search()` only when mem0's flattening keeps every condition (see MEM201)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"or": [{"user_id": "a"}, {"agent_id": "b"}]})',
            good='client.search("q", filters={"OR": [{"user_id": "a"}, {"agent_id": "b"}]})',
            fixed='client.search("q", filters={"OR": [{"user_id": "a"}, {"agent_id": "b"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                key = entry.key
                name = logical_name(key)
                if name is None or key.startswith("$") or key == name:
                    continue
                fix = rename_key_fix(condition.node, entry, name, f"Replace `{key}` with `{name}`")
                if fix is not None and not logical_rename_keeps_meaning(site, site.filters):
                    fix = None
                yield Finding(
                    entry.key_node, f"Logical keys are uppercase: `{name}`, not `{key}`", fix
                )


# ---------------------------------------------------------------------------------------------
# MEM203-MEM207, MEM214: operator keys that are misspelled, missing or misused.
# ---------------------------------------------------------------------------------------------


class SqlSymbolOperator(Rule):
    code = "MEM203"
    versions = {"mem0ai": ">=2.0.0"}
    name = "sql-symbol-operator"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "SQL comparison symbols (`>=`, `!=`, `==`...) used as operator keys"
    why = (
        "mem0 operators are words (`gte`, `lte`, `gt`, `lt`, `ne`). The Platform rejects `>=` "
        "with HTTP 400; open source raises ValueError (unsupported filter operator)."
    )
    fix_safety = (
        "safe (R9): `>=` `<=` `>` `<` `!=` become `gte` `lte` `gt` `lt` `ne`; `==` becomes the "
        "bare value when it is the only operator and its value a plain literal (not None, not "
        '`"*"`), otherwise `eq`; no fix when the word is already a key of the same dict'
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.get_all(
                filters={"AND": [{"user_id": "u1"}, {"created_at": {">=": "2025-01-01"}}]}
            )
            """,
            good="""
            client.get_all(
                filters={"AND": [{"user_id": "u1"}, {"created_at": {"gte": "2025-01-01"}}]}
            )
            """,
            fixed="""
            client.get_all(
                filters={"AND": [{"user_id": "u1"}, {"created_at": {"gte": "2025-01-01"}}]}
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "tier": {"==": "gold"}})',
            good='memory.search("q", filters={"user_id": "u1", "tier": "gold"})',
            fixed='memory.search("q", filters={"user_id": "u1", "tier": "gold"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            word = SQL_SYMBOLS[op.key]
            bare_ok = op.kind is None or op.kind.bare
            fix = None
            if word == "eq" and bare_ok and op.sole and plain_scalar(op.value):
                fix = Fix(
                    Applicability.SAFE,
                    f"Replace `{{{op.key!r}: ...}}` with the bare value",
                    (replace_value(op.condition.entry, op.value.node),),
                )
            else:
                fix = rename_key_fix(op.ops, op.entry, word, f"Replace `{op.key}` with `{word}`")
            use = "a bare value (or `eq`)" if word == "eq" else f"`{word}`"
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` is not a mem0 operator ({REJECTS[site.dialect.id]}); use {use}",
                fix,
            )


class NinOnPlatform(Rule):
    code = "MEM204"
    versions = {"mem0ai": ">=2.0.0"}
    name = "nin-on-platform"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`nin` / `$nin` in a Platform filter; the Platform has no `nin`"
    why = (
        "`nin` exists only in mem0 open source. The Platform API rejects it with HTTP 400; to "
        'exclude values, wrap an `in` clause in `NOT`: `{"NOT": {"f": {"in": [...]}}}`.'
    )
    fix_safety = (
        'unsafe (R10): `{f: {"nin": L}}` becomes `{"NOT": {f: {"in": L}}}` (still one element '
        "inside an AND/OR list; a `NOT` sibling in a flat dict), but how the Platform's `NOT` "
        "treats records where f is null is undocumented. No fix on metadata keys (metadata has "
        "no `in`), next to an existing `NOT`, beside `**spread`, or for a scalar value"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={
                    "user_id": "u1",
                    "categories": {"nin": ["spam", "test"]},
                },
            )
            """,
            good="""
            client.search(
                "q",
                filters={
                    "user_id": "u1",
                    "NOT": {"categories": {"in": ["spam", "test"]}},
                },
            )
            """,
            fixed="""
            client.search(
                "q",
                filters={
                    "user_id": "u1",
                    "NOT": {"categories": {"in": ["spam", "test"]}},
                },
            )
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            field = op.condition.field
            if op.condition.metadata_wrapper is not None:
                instead = f'`{{"NOT": {{"OR": [{{"metadata": {{"{field}": a}}}}, ...]}}}}`'
                fix = None
            else:
                instead = f'`{{"NOT": {{"{field}": {{"in": [...]}}}}}}`'
                fix = self._fix(op)
            yield Finding(
                op.entry.key_node,
                f"The Platform has no `{op.key}` (HTTP 400); exclude values with {instead}",
                fix,
            )

    @staticmethod
    def _fix(op: OperatorEntry) -> Fix | None:
        owner_dict = op.condition.owner.node
        if isinstance(op.value, (Scalar, DictValue)) or not owner_dict.complete:
            return None
        keys = owner_dict.keys()
        if any(logical_name(key) == "NOT" for key in keys):
            return None  # a second NOT key would replace the first
        field_element = op.condition.entry.element
        in_clause = cst.Dict([fixes.dict_element("in", op.value.node, op.entry.key_node)])
        negated = fixes.single_line_dict([field_element.with_changes(value=in_clause)])
        not_key = fixes.string_like(field_element.key, "NOT")
        message = f"Rewrite `{op.key}` as `NOT` + `in`"
        if op.sole:
            replacement = field_element.with_changes(key=not_key, value=negated)
            return Fix(Applicability.UNSAFE, message, ((field_element, replacement),))
        kept = [e.element for e in op.ops.entries if e is not op.entry]
        narrowed = field_element.with_changes(value=fixes.with_elements(op.ops.node, kept))
        not_element = cst.DictElement(key=not_key, value=negated)
        elements = []
        for element in owner_dict.node.elements:
            elements.extend([narrowed, not_element] if element is field_element else [element])
        new_owner = fixes.with_elements(owner_dict.node, elements)
        return Fix(Applicability.UNSAFE, message, ((owner_dict.node, new_owner),))


# Field kinds on which R28 may turn a literal regex into a substring operator, per dialect.
REGEX_REWRITE_KINDS: dict[str, tuple[FieldKind, ...]] = {
    PLATFORM.id: (KEYWORDS,),  # the only Platform field with both contains and icontains
    OPEN_SOURCE.id: (),  # icontains is case-sensitive on Qdrant without a full-text index
}
OPERATOR_LOOKING = (
    frozenset(SQL_SYMBOLS)
    | frozenset(FOREIGN_OPERATORS)
    | OPEN_SOURCE.grammar.operators
    | {"exists", "options"}
)


class UnknownOperator(Rule):
    code = "MEM205"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-operator"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Operator keys mem0 does not have (`regex`, `$regex`, `like`, `neq`...)"
    why = (
        "mem0 has a closed operator set: eq, ne, gt, gte, lt, lte, in, contains, icontains (and "
        "nin in open source). The Platform rejects anything else with HTTP 400; open source "
        "raises ValueError (unsupported filter operator)."
    )
    fix_safety = (
        'unsafe, Platform `keywords` only (R28): `{"$regex": "lit", "$options": "i"}` becomes '
        '`{"icontains": "lit"}` and `{"$regex": "lit"}` becomes `{"contains": "lit"}` when the '
        "pattern is a literal without regex metacharacters; safe for an operator in the wrong "
        "case (`GTE` -> `gte`); otherwise no fix"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.get_all(
                filters={"user_id": "u1", "keywords": {"$regex": "invoice", "$options": "i"}}
            )
            """,
            good='client.get_all(filters={"user_id": "u1", "keywords": {"icontains": "invoice"}})',
            fixed="""
            client.get_all(
                filters={"user_id": "u1", "keywords": {"icontains": "invoice"}}
            )
            """,
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "topic": {"like": "travel"}})',
            good='memory.search("q", filters={"user_id": "u1", "topic": {"contains": "travel"}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            if op.key == "$options" and op.ops.get("$regex") is not None:
                continue  # reported once, with its `$regex`
            if not self._in_operator_position(site, op):
                continue
            words = FOREIGN_OPERATORS.get(op.key)
            spelled = op.key.strip().lower()
            fix = self._regex_fix(site, op)
            if spelled != op.key and spelled in site.dialect.grammar.operators:
                advice = f"operators are lowercase words: use `{spelled}`"
                fix = self._respell_fix(op, spelled)
            elif words:
                advice = suggestion(words, site, op.kind)
            else:
                advice = f"mem0 operators are {operator_list(site)}"
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` is not a mem0 operator ({REJECTS[site.dialect.id]}); {advice}",
                fix,
            )

    @staticmethod
    def _respell_fix(op: OperatorEntry, spelled: str) -> Fix | None:
        """`GTE` / `In` / `" gte"` -> the operator itself: the author named it already."""
        return rename_key_fix(op.ops, op.entry, spelled, f"Replace `{op.key}` with `{spelled}`")

    @staticmethod
    def _in_operator_position(site: CallSite, op: OperatorEntry) -> bool:
        """Is this dict certainly an operator dict (and not, say, nested metadata)?"""
        if NESTED_DICT_IS_OPERATOR_DICT[site.dialect.id]:
            return True
        if op.kind is not None and op.kind is not METADATA_KIND[site.dialect.id]:
            return True  # entity, time, categories, keywords: a dict value holds operators
        keys = op.ops.keys()  # string keys only
        return any(key.startswith("$") or key.lower() in OPERATOR_LOOKING for key in keys)

    @staticmethod
    def _regex_fix(site: CallSite, op: OperatorEntry) -> Fix | None:
        if op.kind not in REGEX_REWRITE_KINDS[site.dialect.id] or not op.ops.complete:
            return None
        if op.key not in ("$regex", "regex") or not set(op.ops.keys()) <= {op.key, "$options"}:
            return None
        pattern = op.value
        if not isinstance(pattern, Scalar) or not isinstance(pattern.value, str):
            return None
        if not pattern.value or REGEX_METACHARACTERS.search(pattern.value):
            return None
        options = op.ops.get("$options")
        if options is None:
            word = "contains"
        elif isinstance(options.value, Scalar) and options.value.value in ("", "i"):
            word = "contains" if options.value.value == "" else "icontains"
        else:
            return None
        replacement = new_dict(op.entry.key_node, [(word, pattern.node)])
        return Fix(
            Applicability.UNSAFE,
            f"Replace the literal regex with `{word}`",
            (replace_value(op.condition.entry, replacement),),
        )


# Does `"*"` mean "the field is set" (so `$exists: True` and `ne: None` can become it)?
WILDCARD_MEANS_PRESENT = {
    PLATFORM.id: True,  # any non-null value
    OPEN_SOURCE.id: False,  # Qdrant skips the condition: it matches every record
}


def presence_fix(site: CallSite, op: OperatorEntry, why: str) -> Fix | None:
    """`{f: {op: v}}` -> `{f: "*"}` where the wildcard means "present" and f accepts it."""
    if not WILDCARD_MEANS_PRESENT[site.dialect.id] or not op.sole:
        return None
    if op.kind is not None and not op.kind.wildcard:
        return None
    star = fixes.string_like(op.entry.key_node, "*")
    return Fix(
        Applicability.UNSAFE,
        f'Replace `{{{op.key!r}: ...}}` with `"*"` ({why})',
        (replace_value(op.condition.entry, star),),
    )


class ExistsOperator(Rule):
    code = "MEM206"
    versions = {"mem0ai": ">=2.0.0"}
    name = "exists-operator"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`$exists` / `exists` in a mem0 filter"
    why = (
        "mem0 has no existence operator. The Platform rejects it with HTTP 400 and spells "
        '"field is set" as the wildcard `"*"` (any non-null value); open source raises ValueError, '
        'and its `"*"` is a no-op on Qdrant (it matches every record), so there is no portable '
        "presence test there."
    )
    fix_safety = (
        'unsafe on the Platform (R26): `{f: {"$exists": True}}` becomes `{f: "*"}`, which also '
        "leaves out records where f is null; none for `$exists: False`, on `categories` / "
        "`keywords`, or on open source (R26b)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "run_id": {"$exists": True}})',
            good='client.get_all(filters={"user_id": "u1", "run_id": "*"})',
            fixed='client.get_all(filters={"user_id": "u1", "run_id": "*"})',
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "u1", "project": {"$exists": True}})',
            good='memory.get_all(filters={"user_id": "u1", "project": "apollo"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        present = WILDCARD_MEANS_PRESENT[site.dialect.id]
        for op in operator_entries(site, self.code):
            field = op.condition.field
            fix = None
            if present:
                advice = f'for "{field} is set" write `{{"{field}": "*"}}` (any non-null value)'
                if isinstance(op.value, Scalar) and op.value.value is True:
                    fix = presence_fix(site, op, "also excludes nulls")
            else:
                advice = 'there is no portable presence test (`"*"` is a no-op on Qdrant)'
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` is not a mem0 operator ({REJECTS[site.dialect.id]}); {advice}",
                fix,
            )


class NeNullForPresence(Rule):
    code = "MEM207"
    versions = {"mem0ai": ">=2.0.0"}
    name = "ne-null-for-presence"
    dialects = MEM0
    methods = FILTER_METHODS
    # Open source: Qdrant (the default store) builds `MatchExcept(except=[None])`, which pydantic
    # rejects (ValidationError, a ValueError) before any search runs.
    severity = {PLATFORM.id: Severity.WARNING, OPEN_SOURCE.id: Severity.ERROR}
    summary = '`{"ne": None}` used to ask for "the field is set"'
    why = (
        "`ne` compares values; it is not a presence test, and on the Platform `ne` also matches "
        'records where the field is null. The Platform spells "any non-null value" as `"*"`. '
        "In open source, Qdrant rejects a None comparison value (ValueError) and there is no "
        'portable presence test (`"*"` is a no-op on Qdrant).'
    )
    fix_safety = (
        'unsafe on the Platform (R27): `{f: {"ne": None}}` becomes `{f: "*"}` when `ne` is the '
        "only operator; none on open source"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "agent_id": {"ne": None}})',
            good='client.get_all(filters={"user_id": "u1", "agent_id": "*"})',
            fixed='client.get_all(filters={"user_id": "u1", "agent_id": "*"})',
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "u1", "project": {"$ne": None}})',
            good='memory.get_all(filters={"user_id": "u1", "project": "apollo"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        present = WILDCARD_MEANS_PRESENT[site.dialect.id]
        for op in operator_entries(site, self.code):
            field = op.condition.field
            if present:
                advice = f'write `{{"{field}": "*"}}` (any non-null value)'
            else:
                advice = (
                    "on Qdrant it raises ValueError (None is not a comparable value), and open "
                    'source has no portable presence test (`"*"` is a no-op on Qdrant)'
                )
            yield Finding(
                op.entry.key_node,
                f'`{{"{op.key}": None}}` does not mean "{field} is set"; {advice}',
                presence_fix(site, op, "excludes nulls"),
            )


class InNeedsList(Rule):
    code = "MEM214"
    versions = {"mem0ai": ">=2.0.0"}
    name = "in-needs-list"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`in` / `nin` with a single value instead of a list"
    why = (
        "`in` and `nin` test membership in a list. A scalar is rejected by the Platform API and, "
        "in open source, by the vector store (Qdrant, pgvector: ValueError)."
    )
    fix_safety = "safe (R20): a literal scalar is wrapped in a list; no fix for None or a dict"
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": {"in": "u1"}})',
            good='client.get_all(filters={"user_id": {"in": ["u1"]}})',
            fixed='client.get_all(filters={"user_id": {"in": ["u1"]}})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "tier": {"nin": "trial"}})',
            good='memory.search("q", filters={"user_id": "u1", "tier": {"nin": ["trial"]}})',
            fixed='memory.search("q", filters={"user_id": "u1", "tier": {"nin": ["trial"]}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            fix = None
            if isinstance(op.value, Scalar) and op.value.value is not None:
                fix = Fix(
                    Applicability.SAFE,
                    "Wrap the value in a list",
                    (replace_value(op.entry, new_list([op.value.node])),),
                )
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` needs a list of values ({REJECTS[site.dialect.id]}); "
                f"write `{op.key}: [...]`",
                fix,
            )


# ---------------------------------------------------------------------------------------------
# MEM208-MEM213, MEM216: operators a field kind does not accept (Platform field table).
# ---------------------------------------------------------------------------------------------


@dataclass(eq=False)
class KindViolation:
    """A valid operator (or a bare value: `entry` None) that the field's kind does not accept."""

    condition: FieldCondition
    kind: FieldKind
    entry: Entry | None

    @property
    def field(self) -> str:
        return self.condition.field

    @property
    def ops(self) -> DictValue | None:
        return self.condition.operators

    @property
    def sole(self) -> bool:
        ops = self.ops
        return ops is not None and ops.complete and len(ops.entries) == 1

    @property
    def node(self) -> cst.CSTNode:
        return self.entry.key_node if self.entry is not None else self.condition.entry.key_node

    @property
    def what(self) -> str:
        return f"`{self.entry.key}`" if self.entry is not None else "a bare value"


def kind_violations(site: CallSite, kind: FieldKind) -> Iterator[KindViolation]:
    for condition in operator_fields(site):
        if field_kind(site, condition) is not kind:
            continue
        value = condition.entry.value
        if isinstance(value, DictValue):
            for entry in value.entries:
                if entry.key is None or owner(entry.key, entry.value, site) is not None:
                    continue  # not a valid operator: another rule reports it
                if entry.key not in kind.operators:
                    yield KindViolation(condition, kind, entry)
        elif not kind.bare and isinstance(value, (Scalar, ListValue)):
            if isinstance(value, Scalar) and value.value == "*":
                continue  # the wildcard is not a value comparison
            yield KindViolation(condition, kind, None)


class FieldKindRule(Rule):
    """A rule about the operators one kind of Platform field accepts."""

    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    kind: FieldKind

    def violations(self, site: CallSite) -> Iterator[KindViolation]:
        return kind_violations(site, self.kind)


class MetadataUnsupportedOperator(FieldKindRule):
    code = "MEM208"
    versions = {"mem0ai": ">=2.0.0"}
    name = "metadata-unsupported-op"
    kind = METADATA
    summary = "Platform metadata keys with operators other than eq / ne / contains"
    why = (
        "Platform metadata filters support only a bare value (or `eq`), `ne` and `contains`; "
        "`in`, `gt`, `gte`, `lt`, `lte` (and `icontains`) are rejected with HTTP 400 "
        "(FilterValidationError). Several accepted values are written as an `OR` of equalities."
    )
    fix_safety = (
        'safe for `in` (R15): `{"metadata": {k: {"in": [a, b]}}}` becomes `{"OR": [{"metadata": '
        '{k: a}}, {"metadata": {k: b}}]}` (a one-element list becomes the bare value) when the '
        "list holds plain literals and the condition is alone in its dict or its siblings are "
        "plain fields; beside an `AND` list the `OR` joins it, beside an `OR` both become one "
        "`AND`; none for ranges or beside both"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "metadata": {"type": {"in": ["semantic", "episodic"]}},
                }
            )
            """,
            good="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "OR": [{"metadata": {"type": "semantic"}}, {"metadata": {"type": "episodic"}}],
                }
            )
            """,
            fixed="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "OR": [{"metadata": {"type": "semantic"}}, {"metadata": {"type": "episodic"}}],
                }
            )
            """,
        ),
    ]

    ADVICE = {
        "in": "match any of several values with an `OR` of equalities",
        "icontains": "use `contains` (metadata has no case-insensitive match)",
    }

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            op = violation.entry.key
            advice = self.ADVICE.get(
                op, "store the value in a field that supports ranges, or filter the results"
            )
            yield Finding(
                violation.node,
                f"Platform metadata supports only eq / ne / contains: `{op}` on "
                f"`{violation.field}` is rejected (HTTP 400 FilterValidationError); {advice}",
                self._fix(violation) if op == "in" else None,
            )

    @staticmethod
    def _fix(violation: KindViolation) -> Fix | None:
        """R15: `in` on a metadata key as an OR of equalities."""
        values = violation.entry.value
        if not violation.sole or not isinstance(values, ListValue) or not values.items:
            return None
        if not all(plain_scalar(item) for item in values.items):
            return None
        condition = violation.condition
        if len(values.items) == 1:
            only = values.items[0].node
            return Fix(
                Applicability.SAFE,
                "Replace a one-value `in` with the value",
                (replace_value(condition.entry, only),),
            )
        wrapper = condition.metadata_wrapper
        metadata = wrapper.value
        owner_dict = condition.owner.node
        if not metadata.complete or not owner_dict.complete:
            return None
        branches = []
        for item in values.items:
            inner = [
                e.element.with_changes(value=item.node) if e is condition.entry else e.element
                for e in metadata.entries
            ]
            branch = wrapper.element.with_changes(value=fixes.single_line_dict(inner))
            branches.append(fixes.single_line_dict([branch]))
        alternatives = new_list(branches)
        or_key = fixes.string_like(wrapper.element.key, "OR")
        message = "Rewrite `in` as an `OR` of metadata equalities"
        if len(owner_dict.entries) == 1:
            whole = fixes.single_line_dict([cst.DictElement(or_key, alternatives)])
            return Fix(Applicability.SAFE, message, ((owner_dict.node, whole),))
        keys = owner_dict.keys()
        if any(logical_name(key) is not None for key in keys):
            return filter_fixes.in_as_or_beside_logical(owner_dict, wrapper, alternatives, message)
        replacement = wrapper.element.with_changes(key=or_key, value=alternatives)
        return Fix(Applicability.SAFE, message, ((wrapper.element, replacement),))


class CategoriesOperator(FieldKindRule):
    code = "MEM209"
    versions = {"mem0ai": ">=2.0.0"}
    name = "categories-op"
    kind = CATEGORIES
    summary = "`categories` compared with something other than `in` (a list) or `contains`"
    why = (
        "Platform `categories` accept only `in` (any of a list) and `contains` (case-insensitive). "
        "A bare value, `eq`, `ne`, `icontains` and ranges are rejected (HTTP 400)."
    )
    fix_safety = (
        "safe for `icontains` (R19: `contains` is already case-insensitive on categories); unsafe "
        'for a bare string or `{"eq": s}` (R18: `{"in": [s]}` is exact membership); none otherwise'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "categories": {"icontains": "Fin"}})',
            good='client.get_all(filters={"user_id": "u1", "categories": {"contains": "Fin"}})',
            fixed='client.get_all(filters={"user_id": "u1", "categories": {"contains": "Fin"}})',
        ),
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "categories": "finance"})',
            good='client.get_all(filters={"user_id": "u1", "categories": {"in": ["finance"]}})',
            fixed='client.get_all(filters={"user_id": "u1", "categories": {"in": ["finance"]}})',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            op = violation.entry.key if violation.entry is not None else None
            if op == "icontains":
                advice = "use `contains`, which is case-insensitive on categories"
            else:
                advice = 'for membership write `{"in": [...]}`'
            yield Finding(
                violation.node,
                f"`categories` accepts only `in` (a list) and `contains`: {violation.what} is "
                f"rejected (HTTP 400); {advice}",
                self._fix(violation),
            )

    @staticmethod
    def _fix(violation: KindViolation) -> Fix | None:
        entry = violation.entry
        condition = violation.condition
        if entry is not None and entry.key == "icontains":
            return rename_key_fix(
                violation.ops, entry, "contains", "Replace `icontains` with `contains`"
            )
        if entry is None:
            value, like = condition.entry.value, condition.entry.key_node
        elif entry.key == "eq" and violation.sole:
            value, like = entry.value, entry.key_node
        else:
            return None
        if not (plain_scalar(value) and isinstance(value.value, str)):
            return None
        membership = new_dict(like, [("in", new_list([value.node]))])
        return Fix(
            Applicability.UNSAFE,
            "Test membership with `in` (exact category, not a substring)",
            (replace_value(condition.entry, membership),),
        )


class ExplicitEqOnTimeField(FieldKindRule):
    code = "MEM210"
    versions = {"mem0ai": ">=2.0.0"}
    name = "explicit-eq-on-time-field"
    kind = TIME
    summary = "Explicit `eq` on a Platform time field (`created_at`, `updated_at`...)"
    why = (
        "Platform time fields take a bare value for equality; an explicit `eq` is rejected with "
        "HTTP 400."
    )
    fix_safety = (
        "safe (R17) when `eq` is the only operator and its value a plain literal; unsafe when "
        'the value is a variable or call (a dict or `"*"` at runtime would change the meaning)'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "created_at": {"eq": "2025-03-01"}})',
            good='client.get_all(filters={"user_id": "u1", "created_at": "2025-03-01"})',
            fixed='client.get_all(filters={"user_id": "u1", "created_at": "2025-03-01"})',
        ),
    ]

    def violations(self, site: CallSite) -> Iterator[KindViolation]:
        for violation in kind_violations(site, self.kind):
            if violation.entry is not None and violation.entry.key == "eq":
                yield violation

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            field = violation.field
            fix = None
            value = violation.entry.value
            if violation.sole and (plain_scalar(value) or isinstance(value, Opaque)):
                safety = Applicability.SAFE if plain_scalar(value) else Applicability.UNSAFE
                fix = Fix(
                    safety,
                    'Replace `{"eq": ...}` with the bare value',
                    (replace_value(violation.condition.entry, value.node),),
                )
            yield Finding(
                violation.node,
                f"`eq` is rejected on `{field}` (HTTP 400); pass the bare value: "
                f'`{{"{field}": ...}}`',
                fix,
            )


class TimeFieldBadOperator(FieldKindRule):
    code = "MEM211"
    versions = {"mem0ai": ">=2.0.0"}
    name = "time-field-bad-op"
    kind = TIME
    summary = "Platform time fields compared with `contains` / `icontains`"
    why = (
        "Platform time fields (`created_at`, `updated_at`, `timestamp`, `expiration_date`) accept "
        "a bare value, gt, gte, lt, lte, ne and in; other operators are rejected with HTTP 400."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "created_at": {"contains": "2025-03"}})',
            good="""
            client.get_all(
                filters={
                    "user_id": "u1",
                    "created_at": {"gte": "2025-03-01", "lt": "2025-04-01"},
                }
            )
            """,
        ),
    ]

    def violations(self, site: CallSite) -> Iterator[KindViolation]:
        for violation in kind_violations(site, self.kind):
            if violation.entry is None or violation.entry.key != "eq":  # eq: MEM210
                yield violation

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            yield Finding(
                violation.node,
                f"`{violation.field}` supports a bare value, gt, gte, lt, lte, ne and in only: "
                f"{violation.what} is rejected (HTTP 400); use a `gte` / `lt` range",
            )


class KeywordsInSearch(Rule):
    code = "MEM212"
    versions = {"mem0ai": ">=2.0.0"}
    name = "keywords-in-search"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "A `keywords` filter in Platform `search()`"
    why = (
        "A `keywords` filter works on `get_all()`, but `search()` answers it with HTTP 500 "
        "(MEM-5746). For text relevance pass the text as the query; for a substring match "
        "call `get_all()`."
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "billing", filters={"user_id": "u1", "keywords": {"icontains": "invoice"}}
            )
            """,
            good='client.search("billing invoice", filters={"user_id": "u1"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in operator_fields(site):
            if field_kind(site, condition) is KEYWORDS:
                yield Finding(
                    condition.entry.key_node,
                    "A `keywords` filter in `search()` returns HTTP 500 (MEM-5746); put the text "
                    "in the query, or filter with `get_all()`",
                )


class KeywordsBadOperator(FieldKindRule):
    code = "MEM213"
    versions = {"mem0ai": ">=2.0.0"}
    name = "keywords-bad-op"
    kind = KEYWORDS
    summary = "`keywords` compared with something other than `contains` / `icontains`"
    why = (
        "The Platform `keywords` filter is a substring match: it accepts only `contains` "
        "(case-sensitive) and `icontains` (case-insensitive). A bare value, `eq`, `in` or a "
        "range is rejected."
    )
    fix_safety = (
        "unsafe (a substring match, case-insensitive, instead of equality): a bare string or a "
        'lone `{"eq": s}` becomes `{"icontains": s}`; none otherwise'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "keywords": "invoice"})',
            good='client.get_all(filters={"user_id": "u1", "keywords": {"icontains": "invoice"}})',
            fixed='client.get_all(filters={"user_id": "u1", "keywords": {"icontains": "invoice"}})',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            yield Finding(
                violation.node,
                f"`keywords` needs `contains` (case-sensitive) or `icontains`: {violation.what} "
                f"is rejected by the Platform API",
                self._fix(violation),
            )

    @staticmethod
    def _fix(violation: KindViolation) -> Fix | None:
        message = "Match the text with `icontains`"
        entry = violation.entry
        condition = violation.condition
        if entry is None:
            value = condition.entry.value
            if not (plain_scalar(value) and isinstance(value.value, str)):
                return None
            substring = new_dict(condition.entry.key_node, [("icontains", value.node)])
            return Fix(Applicability.UNSAFE, message, (replace_value(condition.entry, substring),))
        if entry.key != "eq" or not violation.sole:
            return None
        value = entry.value
        if not (
            isinstance(value, Opaque) or (plain_scalar(value) and isinstance(value.value, str))
        ):
            return None
        return Fix(Applicability.UNSAFE, message, (fixes.rename_key(entry, "icontains"),))


class EntityBadOperatorPlatform(FieldKindRule):
    code = "MEM216"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-bad-op-platform"
    kind = ENTITY
    summary = "Platform entity ids compared with operators other than eq / ne / in"
    why = (
        "Platform entity fields (`user_id`, `agent_id`, `app_id`, `run_id`) accept a bare value, "
        '`eq`, `ne`, `in` (a list) and the wildcard `"*"`; `contains`, ranges and the rest are '
        "rejected with HTTP 400."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": {"contains": "team_"}})',
            good='client.get_all(filters={"user_id": {"in": ["team_a", "team_b"]}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for violation in self.violations(site):
            yield Finding(
                violation.node,
                f'`{violation.field}` supports a bare value, eq, ne, in and `"*"` only: '
                f"{violation.what} is rejected (HTTP 400)",
            )


# ---------------------------------------------------------------------------------------------
# MEM215, MEM218: open-source limits on operator dicts.
# ---------------------------------------------------------------------------------------------


class EntityOperatorOnOss(Rule):
    code = "MEM215"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-operator-on-oss"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Open-source entity ids (top-level `user_id`...) given an operator dict or a list"
    why = (
        "`Memory.search()` / `get_all()` turn a top-level `user_id`, `agent_id` or `run_id` "
        "into a string with `str()` and reject whitespace: an operator dict or a list of several "
        'ids raises ValueError ("cannot contain whitespace"); a one-item list becomes the string '
        "\"['u1']\" and silently matches nothing. Run one call per id."
    )
    fix_safety = (
        'safe when the dict or list names one plain id (`{"eq": u}`, `{"in": [u]}`, `[u]` '
        "become `u`); none otherwise"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": {"eq": "u1"}})',
            good='memory.search("q", filters={"user_id": "u1"})',
            fixed='memory.search("q", filters={"user_id": "u1"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": {"in": ["u1", "u2"]}})',
            good="""
            for user in ["u1", "u2"]:
                memory.get_all(filters={"user_id": user})
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not isinstance(site.filters, DictValue):
            return
        for entry in site.filters.entries:
            if entry.key not in site.dialect.grammar.entity_fields:
                continue
            value = entry.value
            if isinstance(value, DictValue):
                if any(
                    e.key is None or owner(e.key, e.value, site) not in (None, "MEM214")
                    for e in value.entries
                ):
                    continue  # a bad operator key: its own rule speaks first
                what = 'an operator dict raises ValueError ("cannot contain whitespace")'
                severity = None
            elif isinstance(value, ListValue):
                if len(value.items) == 1:
                    shown = (
                        repr([value.items[0].value]) if plain_scalar(value.items[0]) else "[...]"
                    )
                    what = f'a one-item list is sent as the string "{shown}" and matches nothing'
                    severity = Severity.WARNING
                else:
                    what = 'a list of ids raises ValueError ("cannot contain whitespace")'
                    severity = None
            else:
                continue
            yield Finding(
                entry.key_node,
                f"Open-source entity ids must be plain values: `{entry.key}` with {what}; "
                "run one call per id",
                self._fix(entry),
                severity,
            )

    @staticmethod
    def _fix(entry: Entry) -> Fix | None:
        value = entry.value
        if isinstance(value, DictValue):
            if not (value.complete and len(value.entries) == 1):
                return None
            (only,) = value.entries
            if only.key == "eq":
                single = only.value
            elif only.key == "in" and isinstance(only.value, ListValue):
                single = only.value.items[0] if len(only.value.items) == 1 else None
            else:
                return None
        elif isinstance(value, ListValue) and len(value.items) == 1:
            single = value.items[0]
        else:
            return None
        if not plain_scalar(single):
            return None
        return Fix(Applicability.SAFE, "Use the plain id", (replace_value(entry, single.node),))


class MixedRangeAndMatchOss(Rule):
    code = "MEM218"
    versions = {"mem0ai": ">=2.0.0"}
    name = "mixed-range-and-match-oss"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Range and non-range operators on one field in one open-source condition"
    why = (
        "Qdrant (the default open-source vector store) builds one condition per field and "
        "raises ValueError when a range (gt, gte, lt, lte) shares an operator dict with eq, ne, "
        "in, nin, contains or icontains. Splitting the dict into two AND-ed conditions does not "
        "help: `Memory.search()` merges AND-ed conditions on the same field back into one dict."
    )
    fix_safety = "none (the AND split of the spec is merged back by the SDK)"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "score": {"gte": 3, "ne": 5}})',
            good='memory.search("q", filters={"user_id": "u1", "score": {"gte": 3}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in operator_fields(site):
            ops = condition.operators
            if ops is None:
                continue
            valid = [
                e.key
                for e in ops.entries
                if e.key is not None and owner(e.key, e.value, site) in (None, "MEM214")
            ]
            ranges = [k for k in valid if k in RANGE_OPERATORS]
            others = [k for k in valid if k not in RANGE_OPERATORS]
            if ranges and others:
                yield Finding(
                    condition.entry.key_node,
                    f"Qdrant cannot combine {', '.join(ranges)} with {', '.join(others)} on "
                    f"`{condition.field}` in one condition (ValueError); keep the range and "
                    "check the rest on the results",
                )
