"""Parameters of plain functions bound by their call sites.

`def _fetch(src, q): return src.search(q, ...)` called only as `_fetch(memory, "x")` with
`memory = Memory.from_config(...)`: `src` is what every call site passes, joined. Only when every
call site is known: a function private to the module (`_name`) or local to another function,
undecorated, not a method, whose name is spelled nowhere else (not passed as a callback, not
exported, not rebound). A call with `*args`/`**kwargs`, a parameter left to a default other than
`None`, or no call at all: unknown (silent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from mem0lint.bind import values
from mem0lint.bind.values import Value

if TYPE_CHECKING:
    from mem0lint.binding import Binding, Resolver

MAX_CALLERS = 50


def value_of_param(resolver: Resolver, binding: Binding, depth: int) -> Value:
    function, index = binding.value
    if depth > resolver.MAX_DEPTH:
        resolver._partial += 1
        return None
    key = (id(function), index)
    active = resolver.__dict__.setdefault("_params_active", set())
    if key in active:
        resolver._partial += 1  # not a final answer: not remembered (see Resolver._memo)
        return None  # recursion: what the function passes itself is not known
    active.add(key)
    try:
        return _value(resolver, binding, depth)
    finally:
        active.discard(key)


def _closed(function: cst.FunctionDef, outer, collector) -> bool:
    """Are all the function's call sites in this module?"""
    return collector.closed or function.name.value.startswith("_") or outer.kind == "function"


def _value(resolver: Resolver, binding: Binding, depth: int) -> Value:
    (function, index), outer = binding.value, binding.scope
    collector = resolver.collector
    name = function.name.value
    if not _closed(function, outer, collector):
        return None
    if len(outer.bindings.get(name, [])) != 1:
        return None  # rebound or defined twice
    # In a document, the blocks up to the definition's (a later block changes nothing before).
    block = outer.block if collector.blocks is not None else None
    calls = [
        (call, point)
        for call, point in collector.calls
        if isinstance(call.func, cst.Name)
        and call.func.value == name
        and (block is None or point.block <= block)
    ]
    uses = [b for b in collector.name_uses.get(name, []) if block is None or b <= block]
    # Spelled only in the `def` and as the callee of these calls.
    if not calls or len(calls) > MAX_CALLERS or len(uses) != len(calls) + 1:
        return None
    params = [*function.params.posonly_params, *function.params.params]
    param = params[index]
    found: list[Value] = []
    for call, point in calls:
        callee = point.lookup(name)
        if len(callee) != 1 or callee[0].kind != "function" or callee[0].value is not function:
            return None
        arg = _argument(call, params, index)
        if arg is None:
            default = param.default
            if default is None:
                return None  # a call that does not pass it (a TypeError, or unknown)
            if isinstance(default, cst.Name) and default.value == "None":
                continue  # the `None` placeholder
            return None
        if arg is False:
            return None
        passed_on = point.lookup(arg.value) if isinstance(arg, cst.Name) else []
        if passed_on and all(b is binding for b in passed_on):
            continue  # a recursive call passing the parameter on adds nothing
        value = resolver.value_of(arg, point, depth + 1)
        if value is None:
            return None
        found.append(value)
    return values.join_bound(found)


def _argument(call: cst.Call, params: list[cst.Param], index: int):
    """The expression passed for parameter `index`; None when not passed; False when hidden
    (`*args`, `**kwargs`) or passed twice."""
    if any(arg.star for arg in call.args):
        return False
    name = params[index].name.value
    positional = [a for a in call.args if a.keyword is None]
    keyword = [a for a in call.args if a.keyword is not None and a.keyword.value == name]
    if index < len(positional):
        return False if keyword else positional[index].value
    if keyword:
        return keyword[0].value
    return None
