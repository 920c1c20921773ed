"""Helpers shared by the Memsy, MemOS and cross-SDK rules: literal arguments, keyword renames."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value, str_value
from mem0lint.rule import Applicability, Fix
from mem0lint.sdk.mem0_arguments import HARMLESS_REMOVED

_MISSING = object()


def literal(node: cst.BaseExpression | None) -> object:
    """The literal value of an argument, or `_MISSING` when it is not a plain literal."""
    if node is None:
        return _MISSING
    ok, value = literal_value(node)
    return value if ok else _MISSING


def is_literal(value: object) -> bool:
    return value is not _MISSING


def number(node: cst.BaseExpression | None) -> float | None:
    """An int or float literal (never a bool), else None."""
    value = literal(node)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def text_parts(node: cst.BaseExpression) -> list[str] | None:
    """The literal text an id certainly contains: a string's value, an f-string's text parts."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = str_value(node)
        return [value] if value is not None else None
    if isinstance(node, cst.FormattedString):
        return [p.value for p in node.parts if isinstance(p, cst.FormattedStringText)]
    return None


def certainly_non_empty(node: cst.BaseExpression | None) -> bool:
    parts = text_parts(node) if node is not None else None
    return bool(parts) and any(p.strip() for p in parts)


def argument(site: CallSite, name: str) -> cst.Arg | None:
    """The argument bound to parameter `name`, by keyword or by position."""
    arg = site.keyword(name)
    if arg is not None or site.spec is None:
        return arg
    params = site.spec.params
    if name in params[: site.spec.positional]:
        index = params.index(name)
        positional = site.positional
        if index < len(positional) and not any(a.star for a in site.call.args[: index + 1]):
            return positional[index]
    return None


def rename_fix(site: CallSite, arg: cst.Arg, target: str, renames: dict[str, str]) -> Fix | None:
    """Rename keyword `arg` to `target`, unless `target` is given or another keyword of the call
    would be renamed to it too (the author must choose)."""
    if site.spec is None or target not in site.spec.params or site.keyword(target) is not None:
        return None
    rivals = [k for k in site.keywords if renames.get(k) == target]
    if len(rivals) > 1:
        return None
    return Fix(
        # `**kwargs` may hold `target` already: the renamed call would repeat a keyword.
        Applicability.UNSAFE if site.has_star_args else Applicability.SAFE,
        f"Rename `{arg.keyword.value}` to `{target}`",
        (fixes.rename_keyword(arg, target),),
    )


def unknown_keywords(site: CallSite) -> Iterator[cst.Arg]:
    """Keywords the method does not declare (for methods without `**kwargs`)."""
    if site.spec is None:
        return
    for name, arg in site.keywords.items():
        if name not in site.spec.params:
            yield arg


def asks_for_2x_default(name: str, node: cst.BaseExpression) -> bool:
    """Is `name=<node>` a removed mem0ai 1.x keyword whose value asks for what 2.x does anyway
    (`version="v2"`, any `api_version=`: `HARMLESS_REMOVED`)?"""
    if name not in HARMLESS_REMOVED:
        return False
    values = HARMLESS_REMOVED[name]
    if values is None:
        return True
    ok, value = literal_value(node)
    return ok and any(value == v and type(value) is type(v) for v in values)
