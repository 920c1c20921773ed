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
  function, rebinding it, `global`, a change inside one of its values found by bind/escapes.py)
  leaves the call unknown (silent).

A copy, `params = dict(base)` with `dict` the builtin, holds the keys `base` holds when the
copy is made: `base` must pass the same checks, in the same function, and be bound there by that
one assignment alone (no parameter, loop variable or second binding of it); if the copy runs,
`base` holds the literal. Keys written to either name are hidden (a write to `base` after the
copy does not reach it; hiding it errs towards silence). `dict(base)` is a read of `base`.

Writes only add or replace keys: the literal's keys no write touches are certainly passed with
their literal values. When some write exists, the keys it writes are hidden behind the original
`**params` (so rules see hidden arguments, as for any `**kwargs`, and judge no absence). A key
the literal does not hold, written by a statement of the function itself (not a nested one) that
may run between the binding and the call (`written_before`: on some path of the function's
statements, `return`, `raise`, `break` and `continue` ending theirs), is passed on that path:
the call is judged with it as a keyword too (its first written value), still beside `**params`.
(A write on every path to the call leaves the binder's flow only an unknown binding there: the
literal is taken to reach the call when every path to it ran the binding.)
The findings are reported on the real call (a finding elsewhere, on the `**params` argument), and
never fixed: a fix would have to edit the dict, which other code may read.
"""

from __future__ import annotations

import keyword
from typing import Optional

import libcst as cst

from mem0lint.bind import escapes
from mem0lint.bind.flow import Point
from mem0lint.binding import UNKNOWN
from mem0lint.filtertree import str_value
from mem0lint.walk import children, walk


def spread(call: cst.Call, scope, star_import: bool = False) -> Optional[cst.Call]:
    """The call `call` makes with its `**name` spread of a dict literal written out, or None.
    `star_import`: the module has a `from m import *` (which may bind `dict`)."""
    stars = [a for a in call.args if a.star]
    if len(stars) != 1 or stars[0].star != "**":
        return None
    may_write: dict[str, cst.BaseExpression] = {}
    if isinstance(stars[0].value, cst.Dict):  # `**{"user_id": u}`: keywords spelled as a dict
        held: Optional[tuple[cst.Dict, set[str]]] = (stars[0].value, set())
    elif isinstance(stars[0].value, cst.Name):
        held = _held_by_name(stars[0].value, scope, star_import, may_write)
    else:
        return None
    if held is None:
        return None
    literal, hidden = held
    written: list[cst.Arg] = []
    explicit = {a.keyword.value for a in call.args if a.keyword is not None}
    held_keys = set()
    for element in literal.elements:
        key = _key(element)
        if key is None or key in explicit:
            return None  # `**` inside, a computed key, or a TypeError (given twice)
        held_keys.add(key)
        if key in hidden:
            continue
        written.append(cst.Arg(keyword=cst.Name(key), value=element.value))
    for key, value in may_write.items():
        if key not in held_keys and key not in explicit and _identifier(key):
            written.append(cst.Arg(keyword=cst.Name(key), value=value))
    rest = [a for a in call.args if not a.star]
    made = [a for a in rest if a.keyword is None] + [a for a in rest if a.keyword is not None]
    made += written
    if hidden:
        made.append(stars[0])
    return cst.Call(func=call.func, args=made)


def _held_by_name(
    spread_name: cst.Name, scope, star_import: bool, may_write: dict[str, cst.BaseExpression]
) -> Optional[tuple[cst.Dict, set[str]]]:
    """The dict literal the spread name holds at the call, and the keys written to it since
    (hidden); None when that is not certain (see the module's docstring). `may_write` is given
    the keys a write may have added before the call, with their first written values."""
    name = spread_name.value
    # For a call in a lambda, a comprehension or a nested function (a closure), the nearest
    # enclosing function that binds the name. A closure may run after later statements of that
    # function: the check of every use of the name there (`_Uses`) holds whenever it runs.
    inner = (scope.scope if isinstance(scope, Point) else scope).owner(name)
    if inner is None:
        return None
    literals = [b for b in inner.bindings.get(name, []) if b.kind == "value"]
    if len(literals) != 1:
        return None
    # Only inside a function: it is one unit for pruning.py, so every use of the name that the
    # check below reads is still there after pruning (a module-level dict may be used anywhere).
    if inner.kind != "function" or inner.function is None:
        return None
    reaching = scope.lookup(name) if isinstance(scope, Point) else [literals[0]]
    reaches = literals[0] in reaching
    # A keyed write replaces the literal's binding with an unknown one in the binder's flow.
    written_over = bool(reaching) and all(b is UNKNOWN for b in reaching)
    if not reaches and not written_over:
        return None  # bound after the call, or not on every path to it
    copies = not star_import and not inner.lookup("dict")  # `dict(...)` is the builtin
    held = _held(name, literals[0].value, inner, copies)
    if held is None:
        return None
    flow = None
    if held[1] and isinstance(literals[0].value, cst.Dict):
        flow = written_before(inner.function, name, spread_name)
    if flow is None:
        return held if reaches else None
    # `_held` found the literal the name's one binding in the function: every unknown binding
    # reaching the call is a constant-key write. Still, a path on which the binding never ran
    # (it would raise UnboundLocalError) must not be taken for one that wrote over it.
    keys, bound = flow
    if not reaches and not bound:
        return None
    may_write.update(keys)
    return held


def _held(
    name: str, value: object, inner, copies: bool, follow: bool = True, copy: object = None
) -> Optional[tuple[cst.Dict, set[str]]]:
    """The dict literal whose keys `name`, bound to `value` in the function scope `inner`,
    holds, and the keys written since (hidden); None when that is not certain. `copies`:
    `dict(...)` is the builtin; `follow`: a copy's original is followed (once); `copy`: the
    `dict(name)` call made of it (its values are the copy's, which is checked on its own)."""
    uses = _Uses(name, copies)
    walk(inner.function, uses)
    if uses.bad or uses.binds != 1 or uses.total != uses.allowed:
        return None
    if escapes.changed_inside(inner.function, name, {id(copy)}):
        return None  # `params["filters"]["AND"].append(...)`: its values are not the literal's
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
    held = _held(base, literals[0].value, inner, copies, follow=False, copy=value)  # once
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
    return value if value is not None and _identifier(value) else None


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

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        # `params: dict[str, Any] = {...}` binds as `params = {...}` does; `params: dict` alone
        # binds nothing (the name stays unknown: not allowed).
        if self._is(node.target) and node.value is not None:
            self.binds += 1
            self.allowed += 1
        elif isinstance(node.target, cst.Subscript) and self._is(node.target.value):
            self._write(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Subscript) and self._is(node.target.value):
            self._write(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self.bad = True  # conservative: any `del` in the scope

    def _write(self, target: cst.Subscript) -> None:
        key = constant_key(target)
        if key is None:
            self.bad = True
        else:
            self.written.add(key)


def constant_key(target: cst.Subscript) -> Optional[str]:
    """`d["k"]` -> "k"; None for any other subscript."""
    if len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
        index = target.slice[0].slice.value
        return str_value(index) if isinstance(index, cst.SimpleString) else None
    return None


def _identifier(key: str) -> bool:
    return key.isidentifier() and not keyword.iskeyword(key)


# Keys written before the call ------------------------------------------------------------------

_Written = Optional[dict]  # key -> its first written value; None: no path gets here
_ENDS_PATH = (cst.Return, cst.Raise, cst.Break, cst.Continue)


_UNBOUND = ("unbound",)  # a record's mark: on this path `name` was never bound


def written_before(
    root: cst.FunctionDef | cst.Module, name: str, anchor: cst.CSTNode
) -> Optional[tuple[dict[str, cst.BaseExpression], bool]]:
    """The keys `name["k"] = v` statements of `root`'s own body (a function's, or a module's)
    may have written when the statement holding `anchor` runs, on some path from `name`'s
    binding (which starts an empty record), and whether the binding ran on every path there. A
    may-analysis over the statements: branches join, a loop runs its body again with what it
    wrote, an exception handler sees what any statement of its `try` wrote, a `return`,
    `raise`, `break` or `continue` ends its path (what `break` carries reaches the loop's end).
    None when `anchor` is not in a statement of that body, or no path reaches it."""
    body = root.body if isinstance(root, cst.FunctionDef) else root
    path = _path_to(body, anchor)
    if path is None:
        return None
    walker = _KeyFlow(name, path)
    walker.block(body, {_UNBOUND: None})
    if walker.at_anchor is None:
        return None
    keys = {k: v for k, v in walker.at_anchor.items() if k is not _UNBOUND}
    return keys, _UNBOUND not in walker.at_anchor


def _path_to(root: cst.CSTNode, anchor: cst.CSTNode) -> Optional[set[int]]:
    """The ids of `anchor`'s ancestors under `root` (itself included), or None: not under it, or
    only inside a nested function, class or lambda."""
    parents: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node is anchor:
            path = {id(node)}
            while id(node) in parents:
                node = parents[id(node)]
                path.add(id(node))
            return path
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        for child in children(node):
            parents[id(child)] = node
            stack.append(child)
    return None


def _join(a: _Written, b: _Written) -> _Written:
    if a is None:
        return None if b is None else dict(b)
    joined = dict(a)
    for key, value in (b or {}).items():
        joined.setdefault(key, value)
    return joined


class _KeyFlow:
    """`written_before`'s walk of one body."""

    def __init__(self, name: str, path: set[int]) -> None:
        self.name = name
        self.path = path  # the anchor's ancestors
        self.at_anchor: Optional[dict] = None
        self.breaks: list[_Written] = []  # per enclosing loop: what `break` carries out
        self.continues: list[_Written] = []
        self.loops: dict[tuple, _Written] = {}  # (loop, record on entry) -> record after it

    def block(self, node, state: _Written) -> _Written:
        """Run a body: an IndentedBlock, or the one line after a colon (`if x: return`)."""
        if isinstance(node, cst.SimpleStatementSuite):
            return self.statement(node, state)
        for statement in node.body:
            state = self.statement(statement, state)
        return state

    def _reached(self, node: cst.CSTNode, state: _Written) -> None:
        if state is not None and id(node) in self.path:
            self.at_anchor = _join(self.at_anchor, state)

    def statement(self, node, state: _Written) -> _Written:
        if state is None:
            return None
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in node.body:
                self._reached(small, state)
                state = self.small(small, state)
                if state is None:
                    return None
            return state
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return state  # its body runs elsewhere (a write there stays hidden)
        if isinstance(node, cst.If):
            self._reached(node.test, state)
            body = self.block(node.body, state)
            orelse = node.orelse
            if orelse is None:
                rest = state
            elif isinstance(orelse, cst.If):
                rest = self.statement(orelse, state)
            else:
                rest = self.block(orelse.body, state)
            return _join(body, rest)
        if isinstance(node, (cst.For, cst.While)):
            return self.loop(node, state)
        if isinstance(node, (cst.Try, cst.TryStar)):
            return self.try_(node, state)
        if isinstance(node, cst.With):
            for item in node.items:
                self._reached(item, state)
            return self.block(node.body, state)
        if isinstance(node, cst.Match):
            self._reached(node.subject, state)
            end: _Written = state  # no case matched
            for case in node.cases:
                self._reached(case, state)  # a guard may hold the call
                end = _join(end, self.block(case.body, state))
            return end
        self._reached(node, state)
        return state

    def small(self, node, state: dict) -> _Written:
        if isinstance(node, _ENDS_PATH):
            if isinstance(node, cst.Break) and self.breaks:
                self.breaks[-1] = _join(self.breaks[-1], state)
            if isinstance(node, cst.Continue) and self.continues:
                self.continues[-1] = _join(self.continues[-1], state)
            return None
        for target in _assigned(node):
            if isinstance(target, cst.Name) and target.value == self.name:
                state = {}  # the binding: a fresh dict
            key = self._key_written(target)
            if key is not None:
                state = {**state}
                state.setdefault(key, node.value)
        return state

    def _key_written(self, target: cst.BaseExpression) -> Optional[str]:
        """`name["k"] = ...` -> "k"."""
        if (
            isinstance(target, cst.Subscript)
            and isinstance(target.value, cst.Name)
            and target.value.value == self.name
        ):
            return constant_key(target)
        return None

    def loop(self, node, state: dict) -> _Written:
        # A loop met again with the same record (an outer loop's next round) ends the same way,
        # and what it marks at the anchor is marked already: nested loops cost rounds, not
        # rounds to the power of their depth.
        key = (id(node), frozenset((k, id(v)) for k, v in state.items()))
        if key in self.loops:
            return self.loops[key]
        header = node.iter if isinstance(node, cst.For) else node.test
        entry: dict = state
        self.breaks.append(None)
        self.continues.append(None)
        while True:  # a round that adds no key ends it (keys only grow, values never change)
            self._reached(header, entry)
            end = self.block(node.body, entry)
            again = _join(_join(entry, end), self.continues[-1])
            if again == entry:
                break
            entry = again  # type: ignore[assignment]
        breaks = self.breaks.pop()
        self.continues.pop()
        # The loop ends when its test or iterator says so (then `else:` runs), or at a `break`.
        done = self.block(node.orelse.body, entry) if node.orelse is not None else entry
        self.loops[key] = result = _join(done, breaks)
        return result

    def try_(self, node, state: dict) -> _Written:
        body = self.block(node.body, state)
        # A handler may start after any statement of the `try`: every key it may write. (A
        # binding there does not remove the unbound mark: the handler may start before it.)
        raised = _join(state, self._written_anywhere(node.body))
        end = self.block(node.orelse.body, body) if node.orelse is not None else body
        for handler in node.handlers:
            end = _join(end, self.block(handler.body, raised))
        if node.finalbody is not None:
            # `finally` runs on every path, those that left by `return` or `raise` too (for a
            # call inside it); after it, only the paths that did not leave go on.
            self.block(node.finalbody.body, _join(end, raised))
            return self.block(node.finalbody.body, end)
        return end

    def _written_anywhere(self, body) -> dict:
        """Every key some statement under `body` writes, with its first value."""
        found: dict = {}
        for node in _statements_under(body):
            for target in _assigned(node):
                key = self._key_written(target)
                if key is not None:
                    found.setdefault(key, node.value)
        return found


def _assigned(node: cst.BaseSmallStatement) -> list[cst.BaseExpression]:
    """The targets an assignment statement binds or writes (none for other statements)."""
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    if isinstance(node, cst.AnnAssign) and node.value is not None:
        return [node.target]
    return []


def _statements_under(body) -> list[cst.CSTNode]:
    """The small statements under a body, nested blocks included (not nested definitions)."""
    found: list[cst.CSTNode] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(node, cst.BaseSmallStatement):
            found.append(node)
            continue
        stack.extend(reversed(children(node)))
    return found
