"""A bound method wrapped by a local pass-through wrapper: `async_wrap(client.search)(q, ...)`.

A module-level function `W(func)` is a *pass-through wrapper* when this can be proved from its
text alone:

- it takes exactly one positional parameter (no default, no `*`/`**`, no other parameter), is
  not decorated, and its body (after a docstring) is only an inner `def run(*args, **kwargs)`
  (decorated at most with `functools.wraps(func)`) followed by `return run`;
- inside `run`, `func` is only called as `func(*args, **kwargs)` (at least once, a `lambda`
  around it allowed) or read as `func.__name__` / `func.__qualname__`; `args` and `kwargs` are
  only passed on that way, indexed (`args[:1]`), given to `len()`, or read with
  `kwargs.keys()` / `.items()` / `.values()` / `.get()`: never rebound or changed.

Then `W(client.search)(...)`, or `f = W(client.search)` (bound once) then `f(...)`, runs
`client.search(...)` with the same arguments: judged as that call (reported on the real call,
as for bind/forward.py). Anything else is unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from mem0lint.bind.flow import Point
from mem0lint.bind.forward import body_statements
from mem0lint.walk import walk

if TYPE_CHECKING:
    from mem0lint.binding import Scope

_FUNC_ATTRIBUTES = frozenset({"__name__", "__qualname__"})
_READERS = frozenset({"keys", "items", "values", "get"})


def unwrapped(call: cst.Call, scope: Scope) -> Optional[cst.Call]:
    """The call of a bound method that `call` makes through a pass-through wrapper, or None."""
    if any(a.star for a in call.args):
        return None
    wrapped = _wrapped_target(call.func, scope)
    if wrapped is None:
        return None
    return cst.Call(func=wrapped, args=call.args)


def _wrapped_target(func: cst.BaseExpression, scope) -> Optional[cst.Attribute]:
    """`W(client.search)` (directly, or through a name bound once to it) -> `client.search`."""
    if isinstance(func, cst.Name):
        bindings = scope.lookup(func.value)
        inner = scope.scope if isinstance(scope, Point) else scope
        if len(bindings) != 1 or len(inner.lookup(func.value)) != 1:
            return None
        binding = bindings[0]
        if binding.kind != "value" or not isinstance(binding.value, cst.Call):
            return None
        func, scope = binding.value, binding.scope
    if not isinstance(func, cst.Call) or not isinstance(func.func, cst.Name):
        return None
    if len(func.args) != 1 or func.args[0].keyword is not None or func.args[0].star:
        return None
    target = func.args[0].value
    if not isinstance(target, cst.Attribute):
        return None
    wrappers = scope.lookup(func.func.value)
    if len(wrappers) != 1 or wrappers[0].kind != "function":
        return None
    if not is_pass_through(wrappers[0].value):
        return None
    return target


def is_pass_through(function: cst.FunctionDef) -> bool:
    params = function.params
    positional = [*params.posonly_params, *params.params]
    if function.decorators or len(positional) != 1 or positional[0].default is not None:
        return False
    if params.kwonly_params or params.star_kwarg is not None:
        return False
    if isinstance(params.star_arg, cst.Param):
        return False
    func = positional[0].name.value
    statements = body_statements(function)
    if len(statements) != 2:
        return False
    inner, last = statements
    if not isinstance(inner, cst.FunctionDef) or not _returns_name(last, inner.name.value):
        return False
    inner_params = inner.params
    star, kwargs = inner_params.star_arg, inner_params.star_kwarg
    if inner_params.posonly_params or inner_params.params or inner_params.kwonly_params:
        return False
    if not isinstance(star, cst.Param) or kwargs is None:
        return False
    if not all(_is_wraps(d.decorator, func) for d in inner.decorators):
        return False
    uses = _Uses(func, star.name.value, kwargs.name.value)
    walk(inner.body, uses)
    return not uses.bad and uses.calls > 0 and uses.total == uses.allowed


def _returns_name(statement: cst.BaseStatement, name: str) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    return (
        isinstance(small, cst.Return)
        and isinstance(small.value, cst.Name)
        and small.value.value == name
    )


def _is_wraps(decorator: cst.BaseExpression, func: str) -> bool:
    """`@wraps(func)` / `@functools.wraps(func)`: copies names, changes no call."""
    if not isinstance(decorator, cst.Call) or len(decorator.args) != 1:
        return False
    callee = decorator.func
    name = callee.attr.value if isinstance(callee, cst.Attribute) else getattr(callee, "value", "")
    value = decorator.args[0].value
    return name == "wraps" and isinstance(value, cst.Name) and value.value == func


class _Uses(cst.CSTVisitor):
    """Every spelling of `func`, `args` and `kwargs` in the inner function must be allowed."""

    def __init__(self, func: str, args: str, kwargs: str) -> None:
        self.func, self.args, self.kwargs = func, args, kwargs
        self.names = {func, args, kwargs}
        self.total = 0
        self.allowed = 0
        self.calls = 0
        self.bad = False

    def _is(self, node: cst.BaseExpression, name: str) -> bool:
        return isinstance(node, cst.Name) and node.value == name

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names:
            self.total += 1

    def visit_Call(self, node: cst.Call) -> None:
        func, args = node.func, node.args
        if self._is(func, self.func):
            if (
                len(args) == 2
                and args[0].star == "*"
                and self._is(args[0].value, self.args)
                and args[1].star == "**"
                and self._is(args[1].value, self.kwargs)
            ):
                self.calls += 1
                self.allowed += 3
            else:
                self.bad = True
        elif self._is(func, "len") and len(args) == 1 and not args[0].star:
            if self._is(args[0].value, self.args) or self._is(args[0].value, self.kwargs):
                self.allowed += 1
        elif (
            isinstance(func, cst.Attribute)
            and self._is(func.value, self.kwargs)
            and func.attr.value in _READERS
        ):
            self.allowed += 1

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self._is(node.value, self.func) and node.attr.value in _FUNC_ATTRIBUTES:
            self.allowed += 1

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if self._is(node.value, self.args) or self._is(node.value, self.kwargs):
            self.allowed += 1  # a read; a write is caught below

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if not isinstance(node.target, cst.Name):
            self._no_write(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._no_write(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._no_write(node.target)

    def _no_write(self, target: cst.BaseExpression) -> None:
        """A write through `args[...]`/`kwargs[...]` (or to any attribute of them): bad."""
        for node in _subtree(target):
            if isinstance(node, cst.Name) and node.value in self.names:
                self.bad = True


def _subtree(node: cst.CSTNode):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)
