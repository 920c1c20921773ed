"""A `filters=` value read into a small tree that remembers the CST node of every part.

Only literals are read: dicts, lists and tuples, strings, numbers, booleans, None. Anything else
(a variable, a call, `**spread`, an f-string, a comprehension) becomes an `Opaque` node; rules
reason around it and never guess through it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator, Union

import libcst as cst


@dataclass(eq=False)
class Scalar:
    node: cst.BaseExpression
    value: object  # str, int, float, bool or None


@dataclass(eq=False)
class Opaque:
    node: cst.BaseExpression


@dataclass(eq=False)
class ListValue:
    node: cst.BaseExpression  # cst.List or cst.Tuple
    items: list[FilterNode]


@dataclass(eq=False)
class Entry:
    """One `key: value` of a dict. `key` is None when the key is not a string literal."""

    element: cst.BaseDictElement
    key: Union[str, None]
    value: FilterNode

    @property
    def key_node(self) -> cst.BaseExpression | None:
        return self.element.key if isinstance(self.element, cst.DictElement) else None


@dataclass(eq=False)
class DictValue:
    node: cst.Dict
    entries: list[Entry]

    @property
    def complete(self) -> bool:
        """True when every key is a known string (no `**spread`, no computed key)."""
        return all(e.key is not None for e in self.entries)

    def get(self, key: str) -> Entry | None:
        for entry in self.entries:
            if entry.key == key:
                return entry
        return None

    def keys(self) -> list[str]:
        return [e.key for e in self.entries if e.key is not None]


FilterNode = Union[DictValue, ListValue, Scalar, Opaque]


def string_value(node: cst.SimpleString | cst.ConcatenatedString) -> str | bytes | None:
    """`node.evaluated_value`, which libcst finds with `ast.literal_eval`: a compile per string.
    A string with no backslash and no carriage return (which Python reads as a newline) is its
    text between the quotes, unless it is bytes or an f-string."""
    if isinstance(node, cst.SimpleString):
        text = node.value
        if "\\" not in text and "\r" not in text:
            quote = text[-3:] if text[-3:] in ('"""', "'''") else text[-1]
            start = text.index(quote)
            if start == 0 or text[:start].lower() in ("r", "u"):
                return text[start + len(quote) : -len(quote)]
    return node.evaluated_value


def str_value(node: cst.BaseExpression) -> str | None:
    """The text of a string literal (`string_value`); None for bytes, an f-string or anything
    that is not a string."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = string_value(node)
        return value if isinstance(value, str) else None
    return None


def literal_value(node: cst.BaseExpression) -> tuple[bool, object]:
    """(True, value) for a plain literal, else (False, None)."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = str_value(node)
        return (True, value) if value is not None else (False, None)
    if isinstance(node, (cst.Integer, cst.Float)):
        return True, ast.literal_eval(node.value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        ok, value = literal_value(node.expression)
        if ok and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True, -value
        return False, None
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return True, {"True": True, "False": False, "None": None}[node.value]
    return False, None


def read_filter(node: cst.BaseExpression) -> FilterNode:
    if isinstance(node, cst.Dict):
        entries = []
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                ok, key = literal_value(element.key)
                key = key if ok and isinstance(key, str) else None
                entries.append(Entry(element, key, read_filter(element.value)))
            else:  # **spread
                entries.append(Entry(element, None, Opaque(element.value)))
        return DictValue(node, entries)
    if isinstance(node, (cst.List, cst.Tuple)):
        if any(isinstance(e, cst.StarredElement) for e in node.elements):
            return Opaque(node)
        return ListValue(node, [read_filter(e.value) for e in node.elements])
    ok, value = literal_value(node)
    if ok:
        return Scalar(node, value)
    return Opaque(node)


def walk(node: FilterNode) -> Iterator[FilterNode]:
    """Every node of the tree, parents before children."""
    yield node
    if isinstance(node, DictValue):
        for entry in node.entries:
            yield from walk(entry.value)
    elif isinstance(node, ListValue):
        for item in node.items:
            yield from walk(item)
