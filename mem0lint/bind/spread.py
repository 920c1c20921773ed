"""A dict literal spread into a call: `params = {...}; client.search(**params)`, or written in
the call, `client.delete(memory_id, **{"user_id": u})` (its keys are keywords, as spelled).

The call is judged as the call it becomes, `client.search(query=..., user_id=...)`, when the
spread name provably holds that literal's keys:

- the call is in a function, and the name is bound once in the function's scope (or, for a
  call in a lambda, a comprehension or a nested function, in the nearest enclosing function
  that binds it), to a dict literal whose keys are string constants that are Python identifiers
  (no `**` inside), and that binding reaches the call;
- every other use of the name in that scope (nested functions included) is a read `params[k]`,
  a spread `**params`, or a write `params["k"] = v` / `params["k"] += v` with a constant key.
  Anything else (`del params[k]`, `params.update(...)`, `params.pop(...)`, passing `params` to a
  function, rebinding it, `global`) leaves the call unknown (silent).

A copy, `params = dict(base)` with `dict` the builtin, holds the keys `base` holds when the
copy is made: `base` must pass the same checks, in the same function, and be bound there by that
one assignment alone (no parameter, loop variable or second binding of it); if the copy runs,
`base` holds the literal. Keys written to either name are hidden (a write to `base` after the
copy does not reach it; hiding it errs towards silence). `dict(base)` is a read of `base`.

Writes only add or replace keys: the literal's keys no write touches are certainly passed with
their literal values. When some write exists, the keys it writes are hidden behind the original
`**params` (so rules see hidden arguments, as for any `**kwargs`, and judge no absence). The
findings are reported on the real call (a finding elsewhere, on the `**params` argument), and
never fixed: a fix would have to edit the dict, which other code may read.
"""

from __future__ import annotations

import keyword
from typing import Optional

import libcst as cst

from mem0lint.bind.flow import Point
from mem0lint.filtertree import str_value
from mem0lint.walk import walk


def spread(call: cst.Call, scope, star_import: bool = False) -> Optional[cst.Call]:
    """The call `call` makes with its `**name` spread of a dict literal written out, or None.
    `star_import`: the module has a `from m import *` (which may bind `dict`)."""
    stars = [a for a in call.args if a.star]
    if len(stars) != 1 or stars[0].star != "**":
        return None
    if isinstance(stars[0].value, cst.Dict):  # `**{"user_id": u}`: keywords spelled as a dict
        held: Optional[tuple[cst.Dict, set[str]]] = (stars[0].value, set())
    elif isinstance(stars[0].value, cst.Name):
        held = _held_by_name(stars[0].value.value, scope, star_import)
    else:
        return None
    if held is None:
        return None
    literal, hidden = held
    written: list[cst.Arg] = []
    explicit = {a.keyword.value for a in call.args if a.keyword is not None}
    for element in literal.elements:
        key = _key(element)
        if key is None or key in explicit:
            return None  # `**` inside, a computed key, or a TypeError (given twice)
        if key in hidden:
            continue
        written.append(cst.Arg(keyword=cst.Name(key), value=element.value))
    rest = [a for a in call.args if not a.star]
    made = [a for a in rest if a.keyword is None] + [a for a in rest if a.keyword is not None]
    made += written
    if hidden:
        made.append(stars[0])
    return cst.Call(func=call.func, args=made)


def _held_by_name(name: str, scope, star_import: bool) -> Optional[tuple[cst.Dict, set[str]]]:
    """The dict literal the spread name `name` holds at the call, and the keys written to it
    since (hidden); None when that is not certain (see the module's docstring)."""
    # For a call in a lambda, a comprehension or a nested function (a closure), the nearest
    # enclosing function that binds the name. A closure may run after later statements of that
    # function: the check of every use of the name there (`_Uses`) holds whenever it runs.
    inner = (scope.scope if isinstance(scope, Point) else scope).owner(name)
    if inner is None:
        return None
    literals = [b for b in inner.bindings.get(name, []) if b.kind == "value"]
    if len(literals) != 1:
        return None
    if isinstance(scope, Point) and literals[0] not in scope.lookup(name):
        return None  # bound after the call, or not on every path to it
    # Only inside a function: it is one unit for pruning.py, so every use of the name that the
    # check below reads is still there after pruning (a module-level dict may be used anywhere).
    if inner.kind != "function" or inner.function is None:
        return None
    copies = not star_import and not inner.lookup("dict")  # `dict(...)` is the builtin
    return _held(name, literals[0].value, inner, copies)


def _held(
    name: str, value: object, inner, copies: bool, follow: bool = True
) -> Optional[tuple[cst.Dict, set[str]]]:
    """The dict literal whose keys `name`, bound to `value` in the function scope `inner`,
    holds, and the keys written since (hidden); None when that is not certain. `copies`:
    `dict(...)` is the builtin; `follow`: a copy's original is followed (once)."""
    uses = _Uses(name, copies)
    walk(inner.function, uses)
    if uses.bad or uses.binds != 1 or uses.total != uses.allowed:
        return None
    if isinstance(value, cst.Dict):
        return value, uses.written
    base = _copied(value) if copies and follow else None
    if base is None or base == name or inner.owner(base) is not inner:
        return None
    # `_Uses` (below) then finds that one assignment is its only binding: no parameter, loop
    # variable or second binding may be what is copied (a write adds an unknown binding).
    literals = [b for b in inner.bindings[base] if b.kind == "value"]
    if len(literals) != 1:
        return None
    held = _held(base, literals[0].value, inner, copies, follow=False)  # no copy of a copy
    if held is None:
        return None
    return held[0], uses.written | held[1]


def _copied(value: object) -> Optional[str]:
    """`dict(base)` -> "base"."""
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value == "dict"
        and len(value.args) == 1
        and value.args[0].keyword is None
        and not value.args[0].star
        and isinstance(value.args[0].value, cst.Name)
    ):
        return value.args[0].value.value
    return None


def _key(element: cst.BaseDictElement) -> Optional[str]:
    if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
        return None
    value = str_value(element.key)
    if value is None or not value.isidentifier() or keyword.iskeyword(value):
        return None
    return value


class _Uses(cst.CSTVisitor):
    """How a scope uses the spread name: every spelling must be one of the allowed uses."""

    def __init__(self, name: str, copies: bool = False) -> None:
        self.name = name
        self.copies = copies  # `dict(name)` is a read (`dict` is the builtin)
        self.total = 0  # every Name node spelling it
        self.allowed = 0  # those in an allowed use
        self.binds = 0  # `name = ...`
        self.written: set[str] = set()  # constant keys written
        self.bad = False

    def _is(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value == self.name

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.total += 1

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.star == "**" and self._is(node.value):
            self.allowed += 1

    def visit_Call(self, node: cst.Call) -> None:
        if self.copies and _copied(node) == self.name:
            self.allowed += 1

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if self._is(node.value):
            self.allowed += 1  # a read, or a write checked below

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        target = node.target
        if self._is(target):
            self.binds += 1
            self.allowed += 1
        elif isinstance(target, cst.Subscript) and self._is(target.value):
            self._write(target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            self.bad = self.bad or any(
                isinstance(e.value, cst.Subscript) and self._is(e.value.value)
                for e in target.elements
            )

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Subscript) and self._is(node.target.value):
            self._write(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self.bad = True  # conservative: any `del` in the scope

    def _write(self, target: cst.Subscript) -> None:
        key = None
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
            index = target.slice[0].slice.value
            key = str_value(index) if isinstance(index, cst.SimpleString) else None
        if key is None:
            self.bad = True
        else:
            self.written.add(key)
