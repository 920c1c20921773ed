"""MEM2xx, operators inside mem0 filters: what the rules of this package share.

Every key of an operator dict (`{"field": {op: value}}`) has exactly one rule that speaks about
it, chosen by `owner()` from what the rules declare (`OperatorRule.claims_operators`): a
`$`-spelling goes to MEM201 unless a more specific rule claims it ($exists, $regex, $nin on
Platform, $ne: None), SQL symbols to MEM203, and so on. Operators that
exist in the dialect are then checked against what the field accepts (per-field-kind tables below);
those rules see only keys nobody else owns, so a key is never reported twice.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar, Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, ListValue, Scalar
from mem0lint.rule import Applicability, Fix, Rule, Severity
from mem0lint.rules.common import FieldCondition, field_conditions
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import (
    FIELD_KINDS,
    FILTER_METHODS,
    METADATA_KIND,
    WILDCARD_MEANS_PRESENT,
    FieldKind,
)


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


class OperatorRule(Rule):
    """A rule on keys of operator dicts: `claims_operators` are the keys it explains, when
    `claims_value` accepts the key's value. `owner()` is derived from these declarations."""

    claims_operators: ClassVar[frozenset[str]] = frozenset()

    @staticmethod
    def claims_value(value: object) -> bool:
        return True


def operator_claimants(dialect: str) -> tuple[type[OperatorRule], ...]:
    """The operator rules of `dialect`, by code: the first whose claim fits owns the key."""
    return _operator_claimants(dialect, len(Rule.registry))


@functools.cache
def _operator_claimants(dialect: str, registered: int) -> tuple[type[OperatorRule], ...]:
    return tuple(
        rule
        for _, rule in sorted(Rule.registry.items())
        if issubclass(rule, OperatorRule) and rule.claims_operators and dialect in rule.dialects
    )


def owner(key: str, value: object, site: CallSite) -> str | None:
    """The rule that reports operator key `key` (with `value`), or None for a valid operator."""
    for rule in operator_claimants(site.dialect.id):
        if key in rule.claims_operators and rule.claims_value(value):
            return rule.code
    if key.startswith("$"):
        return "MEM201"  # every other `$`-spelling: the bare word, or "not a mem0 operator"
    if key not in site.dialect.grammar.operators:
        return "MEM205"
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


def new_dict(like: cst.BaseExpression | None, items: list[tuple[str, cst.BaseExpression]]):
    return fixes.single_line_dict([fixes.dict_element(k, v, like) for k, v in items])


def new_list(values: list[cst.BaseExpression]) -> cst.List:
    elements = [cst.Element(v) for v in values]
    return cst.List(fixes.normalise_commas([], elements))


def replace_value(entry: Entry, node: cst.BaseExpression) -> tuple[cst.CSTNode, cst.CSTNode]:
    return entry.value.node, node


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
