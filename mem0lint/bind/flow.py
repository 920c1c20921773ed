"""The statement-order part of the binder.

`binding.BindingCollector` walks a module in source order. Each function, class or module body
keeps an environment, `Scope.env`: for every name bound in it so far, the bindings that reach the
current statement. An assignment replaces; `if`/`try`/`match` branches start from the entry and
join at the exit; a loop's body sees what its own later statements bind (a small fixpoint: every
binding the body makes joins the points inside it); `isinstance` narrows in an `if` body.

A `Point` is a scope at one statement: calls, assigned values and returned values remember the
point they appear at, so a name is resolved by the bindings that reach it there. Names read from
an enclosing function or the module (closures, functions reading globals) and names some inner
scope rebinds (`global`, `nonlocal`) are resolved by every binding (flow-insensitive), as are
`self.x` attributes.

Documents (Markdown pages, notebooks) are one program in reading order; every binding remembers
the block it was made in, and a call in block k sees no binding of a later block (`horizon`), so a
later block never changes how an earlier one is judged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterable, Optional, Tuple

import libcst as cst

if TYPE_CHECKING:
    from mem0lint.binding import Binding, Scope

Env = Dict[str, Tuple["Binding", ...]]


class Point:
    """A scope as seen from one statement. Reads like a `Scope` (its attributes are the scope's);
    `lookup` answers with the bindings that reach this statement."""

    __slots__ = ("scope", "env", "block", "blocks", "outer")

    def __init__(
        self,
        scope: Scope,
        env: Env,
        block: int = 0,
        blocks: Optional[Dict[int, int]] = None,
        outer: Optional[Point] = None,
    ) -> None:
        self.scope = scope
        self.env = env
        self.block = block
        self.blocks = blocks  # id(binding) -> block it was made in; None: one block only
        self.outer = outer  # a comprehension's: the point it runs at

    def __getattr__(self, name: str):
        return getattr(self.scope, name)

    def lookup(self, name: str) -> list[Binding]:
        scope = self.scope
        if name not in scope.dynamic:
            found = self.env.get(name)
            if found is not None:
                return self.visible(found)
            if name in scope.bindings and scope.kind != "class":
                return []  # local, and not bound yet at this statement
        if self.outer is not None:
            return self.outer.lookup(name)
        return self.visible(scope.lookup(name))

    def visible(self, bindings: Iterable[Binding]) -> list[Binding]:
        """The bindings made in this block or an earlier one."""
        if self.blocks is None:
            return list(bindings)
        blocks, block = self.blocks, self.block
        return [b for b in bindings if blocks.get(id(b), 0) <= block]


def join_envs(envs: list[Env]) -> Env:
    """Names bound on some path keep every binding that reaches them on any path (a name unbound
    on the others would raise there, so those paths add nothing)."""
    if len(envs) == 1:
        return envs[0]
    joined: Env = {}
    for env in envs:
        for name, bindings in env.items():
            known = joined.get(name)
            if known is None:
                joined[name] = bindings
            elif known is not bindings:
                joined[name] = known + tuple(b for b in bindings if b not in known)
    return joined


def extend(env: Env, made: Dict[str, list]) -> Env:
    """`env` with the bindings in `made` added to each name's (a loop's back edge, or what a
    `try` body may have done before it raised)."""
    if not made:
        return env
    result = dict(env)
    for name, bindings in made.items():
        known = result.get(name, ())
        result[name] = known + tuple(b for b in bindings if b not in known)
    return result


class Frame:
    """A loop body or `try` body being walked: the points made in it and what it binds."""

    __slots__ = ("scope", "points", "made")

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.points: list[Point] = []
        self.made: Dict[str, list] = {}


def isinstance_narrowing(test: cst.BaseExpression) -> list[tuple[str, cst.BaseExpression]]:
    """`isinstance(name, T)` (alone or in an `and`): [(name, T)] holds in the `if` body."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return isinstance_narrowing(test.left) + isinstance_narrowing(test.right)
    if (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Name)
        and test.func.value == "isinstance"
        and len(test.args) == 2
        and all(a.keyword is None and not a.star for a in test.args)
        and isinstance(test.args[0].value, cst.Name)
    ):
        return [(test.args[0].value.value, test.args[1].value)]
    return []


_BOUNDARY = "# mem0lint-region-boundary "  # documents/base.py SEPARATOR


def region_of(statement: cst.CSTNode) -> Optional[int]:
    """The region a document's top-level statement starts, from the boundary comment before it
    (the last one: regions holding only comments leave theirs there too); None if none."""
    found = None
    for line in getattr(statement, "leading_lines", ()):
        comment = line.comment
        if comment is not None and comment.value.startswith(_BOUNDARY):
            tail = comment.value[len(_BOUNDARY) :].strip()
            if tail.isdigit():
                found = int(tail)
    return found
