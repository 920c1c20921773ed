"""Walking a mem0 filter the way the rules see it: condition dicts, fields, operator dicts."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Iterator

from mem0lint.filtertree import DictValue, Entry, FilterNode, ListValue, Opaque
from mem0lint.rule import Rule

# What an author may have meant by a logical key, however spelled ($and, and, And, AND).
LOGICAL = {"and": "AND", "or": "OR", "not": "NOT"}


def logical_name(key: str | None) -> str | None:
    """ "AND"/"OR"/"NOT" for any spelling of a logical key ($and, and, Or...), else None."""
    if key is None:
        return None
    return LOGICAL.get(key.lstrip("$").lower())


@dataclass(eq=False)
class ConditionDict:
    """A dict in condition position (the root, or inside a logical key), with its context."""

    node: DictValue
    # Logical keys above it, normalised (("AND", "OR") = inside an OR inside an AND).
    path: tuple[str, ...]
    # The list that holds it (None for the root or a NOT object).
    parent_list: ListValue | None = None

    @property
    def is_root(self) -> bool:
        return not self.path


def condition_dicts(
    root: FilterNode | None, path: tuple[str, ...] = (), parent_list: ListValue | None = None
) -> Iterator[ConditionDict]:
    if not isinstance(root, DictValue):
        return
    yield ConditionDict(root, path, parent_list)
    for entry in root.entries:
        name = logical_name(entry.key)
        if name is None:
            continue
        if isinstance(entry.value, ListValue):
            for item in entry.value.items:
                yield from condition_dicts(item, (*path, name), entry.value)
        else:
            yield from condition_dicts(entry.value, (*path, name))


@dataclass(eq=False)
class FieldCondition:
    """`field: value` inside a condition dict. `operators` is set when value is `{op: v}`."""

    entry: Entry
    owner: ConditionDict
    # For a Platform metadata key: the enclosing {"metadata": {...}} entry.
    metadata_wrapper: Entry | None = None

    @property
    def field(self) -> str:
        return self.entry.key

    @property
    def operators(self) -> DictValue | None:
        value = self.entry.value
        return value if isinstance(value, DictValue) else None


def field_conditions(
    root: FilterNode | None, unwrap_metadata: bool = False
) -> Iterator[FieldCondition]:
    """Every field condition, descending through logical keys.

    With `unwrap_metadata`, the keys inside a `{"metadata": {...}}` entry are yielded too (the
    wrapper entry itself is yielded first, as an ordinary field).
    """
    for condition in condition_dicts(root):
        for entry in condition.node.entries:
            if entry.key is None or logical_name(entry.key) is not None:
                continue
            yield FieldCondition(entry, condition)
            if unwrap_metadata and entry.key == "metadata" and isinstance(entry.value, DictValue):
                for inner in entry.value.entries:
                    if inner.key is not None:
                        yield FieldCondition(inner, condition, metadata_wrapper=entry)


def fully_literal(root: FilterNode | None, top_level_only: bool = False) -> bool:
    """True when no key of the filter can hide behind a variable, a call or `**spread`.

    Rules that report a *missing* key need this: one opaque part could supply it. With
    `top_level_only`, only the root dict's own keys must be known.
    """
    if not isinstance(root, DictValue) or not root.complete:
        return False
    if top_level_only:
        return True
    for condition in condition_dicts(root):
        if not condition.node.complete:
            return False
        for entry in condition.node.entries:
            if logical_name(entry.key) is None:
                continue
            value = entry.value
            items = value.items if isinstance(value, ListValue) else [value]
            if any(isinstance(item, Opaque) for item in items):
                return False
    return True


def any_case(word: str) -> str:
    """A glob pattern matching `word` in any case: `and` -> `[aA][nN][dD]`."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


def claims(rule: type[Rule], key: str) -> bool:
    """Does `rule` explain the filter key `key`? Its `claims_keys` hold exact keys or glob
    patterns (`"$*"`, `"metadata.?*"`)."""
    return key in rule.claims_keys or any(fnmatchcase(key, p) for p in rule.claims_keys)


def key_claimed(key: str, dialect: str) -> bool:
    """Does a rule of `dialect` explain the filter key `key` (its `claims_keys`)?"""
    return any(claims(rule, key) for rule in _key_claimants(dialect, len(Rule.registry)))


@functools.cache
def _key_claimants(dialect: str, registered: int) -> tuple[type[Rule], ...]:
    return tuple(
        rule for rule in Rule.registry.values() if rule.claims_keys and dialect in rule.dialects
    )
