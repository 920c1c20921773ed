"""Where a client comes from: the calls that built the object a receiver holds.

`constructions(resolver, expr, scope)` follows what the dialect resolver follows in its plainest
cases only: `await`, a name's value bindings (every one of them, a `None` placeholder left out,
as a call on None raises before it is made) and `self.x` inside a class (every `self.x = ...`
of its methods). It answers the calls that may have made the object, each with the scope its
arguments are read in, or None when one of the ways cannot be followed (a parameter, an
annotation, a factory, an import, another module): then nothing is known of the construction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

import libcst as cst

from mem0lint.bind.flow import Point

if TYPE_CHECKING:
    from mem0lint.binding import Binding, Resolver, Scope

MAX_DEPTH = 12

Made = list[tuple[cst.Call, "Scope"]]


def constructions(
    resolver: Resolver, expr: cst.BaseExpression, scope: Scope, depth: int = 0
) -> Union[Made, None]:
    if depth > MAX_DEPTH:
        return None
    if isinstance(expr, cst.Await):
        return constructions(resolver, expr.expression, scope, depth + 1)
    if isinstance(expr, cst.Call):
        return [(expr, scope)]
    if isinstance(expr, cst.Name):
        return _of_bindings(resolver, scope.lookup(expr.value), depth + 1)
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
        owner = scope.lookup(expr.value.value)
        if len(owner) == 1 and owner[0].kind == "self":
            attributes = owner[0].value.attributes.get(expr.attr.value, [])
            if isinstance(scope, Point):  # the writes that reach this statement
                attributes = scope.visible(attributes)
            return _of_bindings(resolver, attributes, depth + 1)
    return None


def _of_bindings(resolver: Resolver, bindings: list[Binding], depth: int) -> Union[Made, None]:
    made: Made = []
    for binding in bindings:
        if binding.kind != "value" or binding.scope is None:
            return None
        value = binding.value
        if isinstance(value, cst.Name) and value.value == "None":
            continue
        found = constructions(resolver, value, binding.scope, depth)
        if found is None:
            return None
        made += found
    return made or None
