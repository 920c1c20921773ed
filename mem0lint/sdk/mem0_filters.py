"""mem0 filter grammar facts the filter rules read: operator spellings, what each field kind
accepts, and how each mem0 dialect reads a filter (Platform and open source).

Plain data: no libcst here. The grammar itself (operator sets, logical keys, entity fields) is in
`mem0lint.sdk.dialects` (`FilterGrammar`); these tables say what the rules need beyond it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from mem0lint.sdk.dialects import MEM0_ENTITIES, OPEN_SOURCE, PLATFORM, TIME_FIELDS

# The mem0 methods that take a `filters` dict (both dialects).
FILTER_METHODS = frozenset({"search", "get_all"})

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

# SQL comparison symbols written as operator keys -> the mem0 word.
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


@dataclass(frozen=True)
class FieldKind:
    """What one kind of field accepts in a dialect."""

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

# Field kinds on which MEM205 may turn a literal regex into a substring operator, per dialect.
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

# Does `"*"` mean "the field is set" (so `$exists: True` and `ne: None` can become it)?
WILDCARD_MEANS_PRESENT = {
    PLATFORM.id: True,  # any non-null value
    OPEN_SOURCE.id: False,  # Qdrant skips the condition: it matches every record
}

# A filter key `"metadata.k"`: the author meant the metadata key `k`.
METADATA_PREFIX = "metadata."

# ISO-8601 as mem0 reads it: a calendar date, or a date and time with optional seconds,
# fraction and zone. A space instead of `T` is accepted too (Qdrant's own date pattern does).
ISO_DATE = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2})"
    r"(?:[T ](?P<time>\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(?P<zone>Z|[+-]\d{2}:?\d{2})?)?"
)

# Date-valued keywords outside filters, per dialect and method. (Open source rejects any
# `reference_date` whatever its value: MEM115.)
DATE_KEYWORDS = {
    "mem0-platform": {"get_all": ("start_date", "end_date"), "search": ("reference_date",)},
}

# The wildcard: "any value", not a date.
WILDCARD = "*"

# Numeric parameters: the type each expects, and the literal types each dialect turns down.
# Open source: `_validate_search_params` (mem0/memory/main.py) wants `isinstance(top_k, int)` and
# not bool, and `isinstance(threshold, (int, float))` (so a bool threshold passes, as 0/1).
# Platform: sent as JSON as written; a float `top_k` such as 5.0 is left alone (the API's
# handling of it is undocumented and likely accepted).
NUMERIC_PARAMS = {"top_k": int, "threshold": float}

REJECTED_TYPES = {
    "mem0-oss": {"top_k": (str, bool, float), "threshold": (str,)},
    "mem0-platform": {"top_k": (str, bool), "threshold": (str,)},
}

# What a wrong type runs into. Open source: `_validate_search_params` raises ValueError (and
# rejects a bool `top_k`). Platform: the value is sent as JSON as written; the API documents an
# integer / number, its handling of a string is not documented.
WRONG_TYPE_OUTCOME = {
    "mem0-oss": "ValueError",
    "mem0-platform": "sent as JSON of the wrong type; the API documents a number",
}
