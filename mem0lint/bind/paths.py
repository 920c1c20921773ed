"""Attributes of other objects than `self`: `st.session_state.memory = Memory()`.

A dotted path `root.a.b` whose root is a name is bound, like `self.x`, flow-insensitively: a
read of `root.a.b` gets every value any statement of the module assigns to the same path on the
same root (the same name bound in the same scope), joined. Only for a *stable* root: a name bound
once (or one import, repeated), never `global`/`nonlocal` from elsewhere.

Unknown, and so never judged:
- any write to the path is unknown (`+=`, a loop target, a tuple) or has a root this pass cannot
  place;
- a shorter path on the same root is assigned (`st.session_state = {}`: a new object), written
  through `[...]` (`st.session_state["memory"] = x` is the same attribute in Streamlit), mutated
  with `update`/`setdefault`/..., or given to `setattr`;
- the root is rebound, or is a different variable (the same spelling in another function).

A path no statement of the module assigns is not this module's business: the caller goes on
(imports, configuration).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Tuple

import libcst as cst

from mem0lint.bind.flow import Point
from mem0lint.bind.values import Value

if TYPE_CHECKING:
    from mem0lint.binding import Binding, BindingCollector, Resolver, Scope

Path = Tuple[str, Tuple[str, ...]]

# `value_of_path`'s answer when no statement of the module assigns the path.
NO_WRITES = frozenset({"<no writes>"})


def split(expr: cst.BaseExpression) -> Optional[Path]:
    """`st.session_state.memory` -> ("st", ("session_state", "memory")); None if the root is not
    a plain name (a call, a subscript...)."""
    attrs: list[str] = []
    while isinstance(expr, cst.Attribute):
        attrs.append(expr.attr.value)
        expr = expr.value
    if not isinstance(expr, cst.Name):
        return None
    return expr.value, tuple(reversed(attrs))


def _identity(name: str, scope, stable: bool) -> Optional[tuple]:
    """The variable `name` is in `scope`: (id of the scope binding it, name). With `stable`,
    None unless it is bound once (or by one import, repeated) and never from an inner scope."""
    current = scope.scope if isinstance(scope, Point) else scope
    first = True
    while current is not None:
        if (first or current.kind != "class") and name in current.bindings:
            bindings = current.bindings[name]
            if any(b.kind == "self" for b in bindings):
                return None  # `self.a.b`: the class's attributes are not followed this deep
            if stable:
                if name in current.dynamic:
                    return None
                imports = {b.value for b in bindings if b.kind == "import"}
                if len(bindings) != 1 and not (len(imports) == 1 and _all_imports(bindings)):
                    return None
            return id(current), name
        first = False
        current = current.parent
    return None


def stable_identity(name: str, scope) -> Optional[tuple]:
    """The variable `name` is in `scope` when it is bound once (or by one import, repeated) and
    never from an inner scope; else None."""
    return _identity(name, scope, stable=True)


def _all_imports(bindings: list[Binding]) -> bool:
    return all(b.kind == "import" for b in bindings)


def bind(collector: BindingCollector, target: cst.Attribute, binding: Binding) -> None:
    path = split(target)
    if path is None:
        return
    identity = _identity(path[0], collector.scope, stable=False)
    if collector.blocks is not None and binding.kind != "unknown":
        collector.blocks[id(binding)] = collector.block  # documents: the block it is made in
    collector.path_writes.setdefault(path, []).append((identity, binding))


def poison_subscript(collector: BindingCollector, container: cst.BaseExpression) -> None:
    """`container[...] = v`, `del container[...]`, `container.update(...)`: the attributes of
    `container` may have changed."""
    path = split(container)
    if path is not None:
        collector.path_poisoned.add(path)


def poison_setattr(collector: BindingCollector, call: cst.Call) -> None:
    if isinstance(call.func, cst.Name) and call.func.value == "setattr" and call.args:
        poison_subscript(collector, call.args[0].value)


def value_of_path(resolver: Resolver, expr: cst.Attribute, scope: Scope, depth: int) -> Value:
    """The clients `root.a.b` may be, None (unknown) or NO_WRITES."""
    path = split(expr)
    collector = resolver.collector
    if path is None:
        return NO_WRITES
    writes = collector.path_writes.get(path)
    if not writes:
        return NO_WRITES
    root, attrs = path
    for length in range(len(attrs)):
        shorter = (root, attrs[:length])
        if shorter in collector.path_poisoned or (length and shorter in collector.path_writes):
            return None
    identity = _identity(root, scope, stable=True)
    if identity is None or any(i is None for i, _ in writes):
        return None
    bindings = [b for i, b in writes if i == identity]
    if not bindings:
        return NO_WRITES
    if isinstance(scope, Point):
        bindings = scope.visible(bindings)
        if not bindings:
            return None
    return resolver._value_of_bindings(bindings, depth)
