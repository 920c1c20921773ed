"""Attributes of an instance of a class of this module: `writer = MemoryWriter()` then
`writer.mem0.search(...)`, where `MemoryWriter`'s methods set `self.mem0 = MemoryClient()`.

The attribute is read as `self.mem0` is inside the class (every `self.mem0 = ...` of its methods
and `mem0 = ...` of its body, joined), and only when nothing else can decide it:

- the instance is a name bound once (never `global`/`nonlocal` from elsewhere) to a call of a
  class bound once in the module or function that makes it;
- the class is plain: no base classes, no decorators, no metaclass, and it does not define
  `__new__`, `__getattr__`, `__getattribute__` or `__setattr__` (each can give the attribute
  another value than its methods' writes);
- no statement of the module writes an attribute of that name on anything but `self`
  (`writer.mem0 = ...` is bind/paths.py's; `def configure(w): w.mem0 = ...` may be given this
  instance), nor changes the instance through `setattr` or `[...]`;
- the class does not define `__enter__` or `__aenter__` (`with Writer() as w` binds what they
  return, not the instance).

Anything else is unknown, and never judged. Another module sees such an attribute of a module's
object through the project index (`from app.service import memory_service`, then
`memory_service.memory.search(...)`: project.py evaluates `memory_service.memory` in
app/service.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

import libcst as cst

from mem0lint.bind import paths
from mem0lint.bind.values import Value

if TYPE_CHECKING:
    from mem0lint.binding import ClassInfo, Resolver, Scope

# What `value_of_attribute` answers when `expr` is not an attribute of such an instance.
NOT_AN_INSTANCE = frozenset({"<not an instance>"})

# Methods that decide an attribute's value otherwise than the class's writes do, or that make
# `with Cls() as name` bind something else than the instance.
OVERRIDES = frozenset(
    {"__new__", "__getattr__", "__getattribute__", "__setattr__", "__enter__", "__aenter__"}
)


def value_of_attribute(resolver: Resolver, expr: cst.Attribute, scope: Scope, depth: int) -> Value:
    """The clients `root.attr` may be when `root` is an instance of a class of this module; None
    (unknown), or NOT_AN_INSTANCE."""
    info = _class_of_instance(expr.value, scope)
    if info is None:
        return NOT_AN_INSTANCE
    root = expr.value.value  # type: ignore[attr-defined]  (a Name: `_class_of_instance`)
    if not _plain(info) or (root, ()) in resolver.collector.path_poisoned:
        return None
    attribute = expr.attr.value
    if any(attrs[-1:] == (attribute,) for _, attrs in resolver.collector.path_writes):
        return None  # `def configure(w): w.mem0 = ...` may be given this instance
    attributes = info.attributes.get(attribute)
    if not attributes:
        return None  # set elsewhere (a base, `setattr`), or never: unknown
    return resolver.value_of_attribute_bindings(attributes, depth)


def plain_class_of(expr: cst.BaseExpression, scope: Scope) -> Union[cst.ClassDef, None]:
    """The class `expr` is an instance of, when it is a name bound once to a call of a plain
    class of this module (as above); None otherwise."""
    info = _class_of_instance(expr, scope)
    return info.node if info is not None and _plain(info) else None


def _class_of_instance(expr: cst.BaseExpression, scope: Scope) -> Union[ClassInfo, None]:
    if not isinstance(expr, cst.Name) or paths.stable_identity(expr.value, scope) is None:
        return None
    bindings = scope.lookup(expr.value)
    if len(bindings) != 1 or bindings[0].kind != "value":
        return None
    made, where = bindings[0].value, bindings[0].scope
    if not isinstance(made, cst.Call) or not isinstance(made.func, cst.Name) or where is None:
        return None
    classes = where.lookup(made.func.value)
    if len(classes) != 1 or classes[0].kind != "class":
        return None
    return classes[0].value  # type: ignore[return-value]


def _plain(info: ClassInfo) -> bool:
    node = info.node
    return (
        not node.bases
        and not node.keywords
        and not node.decorators
        and OVERRIDES.isdisjoint(info.attributes)
    )
