"""Shared reading of open source `add()` arguments and `from_config` dicts (MEM143-MEM149)."""

from __future__ import annotations

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value

# What a name bound once may be followed to: values nothing can change in place after the
# binding, or dicts, whose in-place changes (`d["k"] = v`, `d.update(...)`) the binder records as
# a second, unknown binding. Never a list: `messages = []` then `messages.append(...)` is the
# usual way to build the messages, and the binder does not track list mutation.
_FOLLOWED = (cst.Dict, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def follow(site: CallSite, expr: cst.BaseExpression) -> cst.BaseExpression:
    """A name bound exactly once, in the call's own scope, to a dict, a string or `None` -> that
    value; else the expression itself (a name bound twice, or elsewhere, stays a name, and so
    does a dict something else may change: bind/escapes.py)."""
    value = follow_in(site.scope, expr)
    if value is expr or not isinstance(value, cst.Dict):
        return value
    # Its own keys are what these rules read: a change deeper in does not count.
    return expr if site.changed_elsewhere(expr.value, deep=False) else value


def follow_in(scope, expr: cst.BaseExpression) -> cst.BaseExpression:
    """`follow` in `scope`'s own bindings."""
    if isinstance(expr, cst.Name) and expr.value not in ("True", "False", "None"):
        bindings = scope.bindings.get(expr.value, [])
        if len(bindings) == 1 and bindings[0].kind == "value":
            value = bindings[0].value
            if isinstance(value, _FOLLOWED) or is_none(value):
                return value
    return expr


def argument(site: CallSite, name: str, position: int | None) -> cst.Arg | None:
    """The argument passed for parameter `name` (by keyword, or at `position`), if visible."""
    arg = site.keyword(name)
    if arg is not None:
        return arg
    if position is None or any(a.star for a in site.call.args):
        return None
    positional = site.positional
    return positional[position] if len(positional) > position else None


def literal_keys(node: cst.BaseExpression) -> dict[str, cst.DictElement] | None:
    """A dict literal's string keys -> their elements; None when it is not a dict literal or
    has a `**spread` or a key that is not a string literal (its keys are then unknown)."""
    if not isinstance(node, cst.Dict):
        return None
    keys: dict[str, cst.DictElement] = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement):
            return None
        ok, key = literal_value(element.key)
        if not ok or not isinstance(key, str):
            return None
        keys[key] = element
    return keys


def is_text(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))


def is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def infers(site: CallSite) -> bool | None:
    """Whether the call runs the LLM extraction: True (default or `infer=True`), False, or None
    when `infer=` is not a literal (or a `**spread` may carry it)."""
    arg = site.keyword("infer")
    if arg is None:
        return None if any(a.star for a in site.call.args) else True
    ok, value = literal_value(arg.value)
    return value if ok and isinstance(value, bool) else None
