"""How a call's result is used: iterated, indexed, measured, or read by key.

A rule gets a call site; this module finds the expressions that use the call's value: the call
itself (or its `await`), and the reads of a name bound to it in the call's own scope
(`global`/`nonlocal`-free). Uses inside nested functions or classes are not followed; a `return`
of the value is, when a rule asks (`returned`), to where the function's calls are read: a
function of the module called by its name, or a method called on `self` in its own class or on
an instance of it (`_returned_to`), two functions deep. When the
name has other bindings, the reads the call's value reaches count: those in the statements of
the module's (or function's) body after the one that binds it (it may do so in a branch or a
loop), up to the next one that binds it again; every other binding must be a statement of that
body of its own, or a literal in an `except` handler (below). A name
also bound to a literal in an `except` handler of the `try` that makes the call (`except
Exception: res = []`) still holds the call's value wherever the call succeeded: its uses outside
those handlers are the call's too (`Use.fallback`). A scope that tests the value's shape
(`isinstance(res, ...)`, `type(res)`, `"results" in res`, `hasattr(res, ...)`) is left alone:
the author handles both shapes (a rule that knows the one shape may ask for `"results" in res` as
a use: MEM139, where the value is a list and the test is the mistake).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterator, Sequence, TypeVar, Union

import libcst as cst

from mem0lint.bind.instances import plain_class_of
from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.memo import statement_result
from mem0lint.walk import children, parents_within, subclasses

T = TypeVar("T")

SHAPE_TESTS = frozenset({"isinstance", "type", "hasattr", "callable"})


@dataclass(frozen=True)
class Use:
    kind: str  # "iterated", "indexed", "sliced", "measured", "key", "contains"
    expr: cst.BaseExpression  # the call (or its await), or a Name read
    through_name: bool
    # "key": the string read (`res["results"]`, `res.get(...)`); "contains": the string looked
    # for (`"results" in res`)
    key: Union[str, None] = None
    # The name may hold an `except` handler's literal instead (where the call failed): an edit
    # at the use must suit both values.
    fallback: bool = False
    by_get: bool = False  # "key": read with `.get(...)`, not a subscript
    negated: bool = False  # "contains": `not in`
    # The function whose `return` carried the value to this use (its caller reads it), if any:
    # the function may return something else on another path, so an edit at the use may not
    # suit every value it holds.
    via: Union[str, None] = None


class Parents:
    """id(node) -> its parent, over the module: read first from the top-level statement of the
    call a rule asks about (`_parents`), and from every statement at the first node not found
    there, so each answer is the whole module's."""

    def __init__(self, module: cst.Module) -> None:
        self._module = id(module)
        self._map: dict[int, cst.CSTNode] = {}
        self._statements = children(module)
        self._built: set[int] = set()
        for child in self._statements:
            self._map[id(child)] = module

    def within(self, index: int) -> None:
        """Read the parents under the top-level statement `index`."""
        if index in self._built or index >= len(self._statements):
            return
        self._built.add(index)
        # Kept by the language server while the statement is unchanged (memo.py).
        self._map.update(statement_result("parents", self._statements[index], parents_within))

    def get(self, key: int, default=None):
        found = self._map.get(key)
        if found is None and key != self._module and len(self._built) < len(self._statements):
            for index in range(len(self._statements)):
                self.within(index)
            found = self._map.get(key)
        return default if found is None else found


def _parents(collector, site: CallSite) -> Union[Parents, None]:
    """The module's parents (one `Parents` per lint), read first around `site`'s call."""
    module = getattr(collector, "module", None)
    if module is None:
        return None
    parents = _per_lint(collector, ("parents",), lambda: Parents(module))
    unit = collector.call_units.get(id(site.outer or site.call))
    if unit is not None:
        parents.within(unit[0])
    return parents


def _int_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Integer):
        return True
    return (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and isinstance(node.expression, cst.Integer)
    )


def _string(node: cst.BaseExpression) -> Union[str, None]:
    return str_value(node) if isinstance(node, cst.SimpleString) else None


def classify(expr: cst.BaseExpression, parents: Parents) -> Union[Use, None]:
    """What the code does with `expr` right where it stands; None for anything else."""
    parent = parents.get(id(expr))
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is expr:
        return Use("iterated", expr, False)
    if isinstance(parent, cst.Subscript) and parent.value is expr and len(parent.slice) == 1:
        index = parent.slice[0].slice
        if isinstance(index, cst.Slice):
            return Use("sliced", expr, False)
        if isinstance(index, cst.Index):
            if _int_literal(index.value):
                return Use("indexed", expr, False)
            key = _string(index.value)
            if key is not None:
                return Use("key", expr, False, key)
        return None
    if isinstance(parent, cst.Attribute) and parent.value is expr and parent.attr.value == "get":
        call = parents.get(id(parent))
        if isinstance(call, cst.Call) and call.func is parent and call.args:
            key = _string(call.args[0].value)
            if key is not None and call.args[0].keyword is None:
                return Use("key", expr, False, key, by_get=True)
        return None
    if isinstance(parent, cst.ComparisonTarget) and parent.comparator is expr:
        # `"results" in res`: one comparison, a string on its left
        comparison = parents.get(id(parent))
        if (
            isinstance(parent.operator, (cst.In, cst.NotIn))
            and isinstance(comparison, cst.Comparison)
            and len(comparison.comparisons) == 1
        ):
            key = _string(comparison.left)
            if key is not None:
                negated = isinstance(parent.operator, cst.NotIn)
                return Use("contains", expr, False, key, negated=negated)
        return None
    if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
        call = parents.get(id(parent))
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name)):
            return None
        if not call.args or call.args[0] is not parent or any(a.star for a in call.args):
            return None
        if call.func.value == "len" and len(call.args) == 1:
            return Use("measured", expr, False)
        # `enumerate(result)`, `enumerate(result, 1)`, `enumerate(result, start=1)`
        start = call.args[1:]
        if call.func.value == "enumerate" and (
            not start
            or (len(start) == 1 and (start[0].keyword is None or start[0].keyword.value == "start"))
        ):
            outer = parents.get(id(call))
            if isinstance(outer, (cst.For, cst.CompFor)) and outer.iter is call:
                return Use("iterated", expr, False)
    return None


def _value_expr(call: cst.Call, parents: Parents) -> cst.BaseExpression:
    await_node = parents.get(id(call))
    if isinstance(await_node, cst.Await) and await_node.expression is call:
        return await_node
    return call


def _bound_name(expr: cst.BaseExpression, parents) -> Union[str, None]:
    parent = parents.get(id(expr))
    if isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1:
        target = parent.targets[0].target
        return target.value if isinstance(target, cst.Name) else None
    if isinstance(parent, cst.AnnAssign) and parent.value is expr:
        return parent.target.value if isinstance(parent.target, cst.Name) else None
    return None


def _per_lint(collector, key: tuple, compute: Callable[[], T]) -> T:
    """`compute()`, kept on the lint's collector (there is one per lint) under `key`: a module
    has many calls, and each asks the same of its scopes and of the module."""
    kept = collector.__dict__.setdefault("_surface_kept", {})
    found = kept.get(key, _MISSING)
    if found is _MISSING:
        found = kept[key] = compute()
    return found


_MISSING = object()


def _names_in_scope(
    collector, root: Union[cst.Module, cst.FunctionDef]
) -> dict[str, list[cst.Name]]:
    """name -> its `Name` nodes in `root`'s own scope, in `_scope_nodes` order: computed once per
    scope in a lint, and kept by the language server while a top-level function is unchanged
    (memo.py)."""
    return _per_lint(
        collector,
        ("scope names", id(root)),
        lambda: statement_result("scope names", root, _names_by_value),
    )


def _names_by_value(root: Union[cst.Module, cst.FunctionDef]) -> dict[str, list[cst.Name]]:
    by_value: dict[str, list[cst.Name]] = {}
    for node in _scope_nodes(root.body if isinstance(root, cst.FunctionDef) else root):
        if isinstance(node, cst.Name):
            by_value.setdefault(node.value, []).append(node)
    return by_value


def _scope_nodes(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node of a function body or module, not entering nested functions and classes."""
    stack = children(root)
    while stack:
        node = stack.pop()
        yield node
        if type(node) not in _OWN_SCOPES:
            stack.extend(children(node))


# By type, not `isinstance`: one set lookup per node of a scope, where `isinstance` against a
# tuple of classes costs more even without ABCMeta's hook (parsing.py): 0.7% of a heavy check.
_OWN_SCOPES = frozenset(
    subclasses(cst.FunctionDef) | subclasses(cst.ClassDef) | subclasses(cst.Lambda)
)
_YIELDS = frozenset(subclasses(cst.Yield))


def _shape_tested(name: str, node: cst.CSTNode, parents, membership: bool = False) -> bool:
    """Does `node` test the value's shape (`isinstance(res, ...)`, `hasattr(res, ...)`, `"k" in
    res`)? `membership`: a `"k" in res` test is a use the caller judges, not a shape test."""
    parent = parents.get(id(node))
    if isinstance(parent, cst.Arg):
        call = parents.get(id(parent))
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Name)
            and call.func.value in SHAPE_TESTS
        ):
            return True
    return (
        not membership
        and isinstance(parent, cst.ComparisonTarget)
        and isinstance(parent.operator, (cst.In, cst.NotIn))
    )


def _call_value(site: CallSite) -> Union[tuple[Parents, cst.BaseExpression], None]:
    """The module's parents and the expression holding the call's value (the call, or its
    `await`); None for a call this module does not follow (a raw REST post, a call written as
    another call, a member of a union). A call spreading a dict literal (bind/spread.py) is
    judged as the call it becomes, whose value is the real call's."""
    call = site.call
    if site.outer is not None:
        if site.notes.get("spread") is None:
            return None
        call = site.outer
    if site.rest or site.union is not None:
        return None
    parents = _parents(site.resolver.collector, site)
    if parents is None:
        return None
    return parents, _value_expr(call, parents)


def _in_window(node: cst.CSTNode, window, parents) -> bool:
    """Is `node` where the call's value reaches (`_reaching`'s window; None: everywhere)? Also
    inside the value the next binding assigns, which is read before it binds
    (`results = [r for r in results if ...]`)."""
    if window is None:
        return True
    own, end, positions, rebinding = window
    index = _top_index(node, positions, parents)
    return own < index < end or (
        index == end and rebinding is not None and _inside(node, [rebinding], parents)
    )


def uses(site: CallSite, membership: bool = False, returned: bool = False) -> list[Use]:
    """The uses of the value `site.call` returns, as far as they can be told for sure.
    `membership`: `"k" in res` is a use ("contains") rather than a shape test that leaves the
    scope alone (a rule asking it knows the value's one shape: the test is the mistake).
    `returned`: a `return` of the value is followed to the uses of the function's calls
    (`_returned_to`), two functions deep."""
    value = _call_value(site)
    if value is None:
        return []
    parents, expr = value
    return _uses_of(site, expr, parents, membership, _RETURN_DEPTH if returned else 0, None)


# How many functions a value is followed through (`return found` in a helper, the helper's
# result returned by a wrapper).
_RETURN_DEPTH = 2


def _uses_of(
    at, expr: cst.BaseExpression, parents, membership: bool, depth: int, via: Union[str, None]
) -> list[Use]:
    """`uses` of the value `expr` holds, read where `at` (a call site, or `_At`) is."""
    direct = classify(expr, parents)
    if direct is not None:
        return [direct if via is None else replace(direct, via=via)]
    if depth:
        callers = _returned_to(at, expr, parents)
        if callers is not None:
            return _caller_uses(callers, parents, membership, depth)
    name = _bound_name(expr, parents)
    if name is None:
        return []
    reach = _reaching(at, name, expr, parents)
    if reach is None:
        return []
    root, handlers, window = reach
    found = []
    for node in _names_in_scope(at.resolver.collector, root).get(name, ()):
        if _shape_tested(name, node, parents, membership):
            return []
        if handlers and _inside(node, handlers, parents):
            continue  # after the fallback: the handler's literal
        if not _in_window(node, window, parents):
            continue  # another binding's value, or not yet the call's
        use = classify(node, parents)
        if use is not None:
            found.append(replace(use, through_name=True, fallback=bool(handlers), via=via))
        elif depth and not handlers:
            callers = _returned_to(at, node, parents)
            if callers is not None:
                found.extend(_caller_uses(callers, parents, membership, depth))
    return found


def _caller_uses(callers, parents, membership: bool, depth: int) -> list[Use]:
    found = []
    for at, value, function in callers:
        found.extend(_uses_of(at, value, parents, membership, depth - 1, function))
    return found


class _At:
    """Where a value is read, as `_reaching` needs it of a call site: the scope (or point) of
    the read and the module's resolver."""

    def __init__(self, scope, resolver) -> None:
        self.scope, self.resolver = scope, resolver


def _returned_to(at, node: cst.CSTNode, parents) -> Union[list, None]:
    """When `node` is what a `return` gives back (`return found`) from a plain function, the
    places its calls' values are read: [(`_At`, the call or its `await`, the function's name)];
    None when it is not returned, or from a function whose callers cannot all be told.

    Plain: a function of the module, or a method of a class of the module (defined in no other
    class of it, which might override it) called on `self` or on an instance (`_method_calls`);
    no decorator (it may wrap the value), no `yield` (a generator's `return` ends the
    iteration). A coroutine's value is read only where its call is awaited."""
    parent = parents.get(id(node))
    if not (isinstance(parent, cst.Return) and parent.value is node):
        return None
    function = _function_around(parent, parents)
    if function is None or function.decorators:
        return None
    collector = at.resolver.collector
    scope = collector.functions.get(id(function))
    if scope is None or scope.parent is None or _yields(collector, function):
        return None
    name = function.name.value
    owner = parents.get(id(parents.get(id(function))))  # a method's class, through its block
    if scope.parent.kind == "module":
        wanted = _module_function_calls(collector, name, function)
    elif scope.parent.kind == "class" and isinstance(owner, cst.ClassDef):
        wanted = _method_calls(collector, name, owner, parents)
    else:
        return None
    if wanted is None:
        return None
    found = []
    for call, point in wanted:
        value = _value_expr(call, parents)
        if function.asynchronous is not None and not isinstance(value, cst.Await):
            continue  # the coroutine, not its value
        found.append((_At(point, at.resolver), value, name))
    return found


def _function_around(node: cst.CSTNode, parents) -> Union[cst.FunctionDef, None]:
    """The innermost function `node` is in (None at the module's level)."""
    current = parents.get(id(node))
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Module)):
        current = parents.get(id(current))
    return current if isinstance(current, cst.FunctionDef) else None


def _yields(collector, function: cst.FunctionDef) -> bool:
    """Is `function` a generator (a `yield` of its own, not a nested function's)?"""
    return _per_lint(
        collector,
        ("yields", id(function)),
        lambda: any(type(n) in _YIELDS for n in _scope_nodes(function.body)),
    )


def _module_function_calls(collector, name: str, function: cst.FunctionDef):
    """The calls `name(...)` that call the module's `function`: where `name` is read, its only
    binding is that definition (one that sees another function of that name calls that one);
    None when a call may call either (the name is bound again)."""
    found = []
    for call, point in _calls_named(collector, name):
        if not isinstance(call.func, cst.Name):
            continue
        scope = getattr(point, "scope", point)
        bindings = scope.lookup(name)
        if len(bindings) == 1 and bindings[0].value is function:
            found.append((call, point))
        elif any(b.value is function for b in bindings):
            return None
    return found


def _method_calls(collector, name: str, owner: cst.ClassDef, parents):
    """The calls of the method `name` of `owner`: `self.name(...)` in its own methods, and
    `obj.name(...)` where `obj` is an instance of it (a name bound once to `Owner()`, a plain
    class: bind/instances.py); None when another class of the module defines `name` too (a
    subclass may override it, and its `self` is not ours)."""
    if any(c is not owner for c in _classes_defining(collector, name)):
        return None
    found = []
    for call, point in _calls_named(collector, name):
        func = call.func
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            continue
        if func.value.value == "self":
            caller = _function_around(call, parents)
            if caller is not None and parents.get(id(parents.get(id(caller)))) is owner:
                found.append((call, point))
        elif plain_class_of(func.value, getattr(point, "scope", point)) is owner:
            found.append((call, point))
    return found


def _calls_named(collector, name: str) -> list:
    """The module's calls of `name(...)` or `<expr>.name(...)`, with their points."""
    return _per_lint(collector, ("calls",), lambda: _index_calls(collector)).get(name, [])


def _index_calls(collector) -> dict[str, list]:
    index: dict[str, list] = {}
    for call, point in collector.calls:
        func = call.func
        if isinstance(func, cst.Name):
            index.setdefault(func.value, []).append((call, point))
        elif isinstance(func, cst.Attribute):
            index.setdefault(func.attr.value, []).append((call, point))
    return index


def _classes_defining(collector, name: str) -> list[cst.ClassDef]:
    """The classes of the module (not nested in a function) that define a method `name`."""
    return _per_lint(collector, ("methods",), lambda: _index_methods(collector)).get(name, [])


def _index_methods(collector) -> dict[str, list[cst.ClassDef]]:
    index: dict[str, list[cst.ClassDef]] = {}
    for node in _scope_nodes(collector.module):
        if isinstance(node, cst.ClassDef):
            for member in getattr(node.body, "body", ()):
                if isinstance(member, cst.FunctionDef):
                    index.setdefault(member.name.value, []).append(node)
    return index


def discarding_list_tests(site: CallSite) -> list[tuple[str, cst.Call]]:
    """The `isinstance(res, list)` tests that choose between the value `site.call` returns and
    something that does not read it: `res if isinstance(res, list) else []`, or `if
    isinstance(res, list): ...` whose `else:` (or `elif`) does not read `res`. `res` is a name
    bound to the call and read where the call's value reaches (as `uses` reads it), and read
    nowhere else but in truth tests (`if not res: return []`): code that reads it as a dict too
    (`res.get("results", res if isinstance(res, list) else [])`, an `isinstance(res, dict)`
    branch first) handles both shapes. None when it may hold an `except` handler's literal
    instead (a list there makes the test no moot one). Each as (the name, the `isinstance`
    call)."""
    found_value = _call_value(site)
    if found_value is None:
        return []
    parents, value = found_value
    name = _bound_name(value, parents)
    if name is None:
        return []
    reach = _reaching(site, name, value, parents)
    if reach is None or reach[1]:
        return []
    root, _, window = reach
    binding = parents.get(id(value))  # the assignment of the call's value to `name`
    reads = [
        node
        for node in _names_in_scope(site.resolver.collector, root).get(name, ())
        if _in_window(node, window, parents) and not _target_of(node, binding, parents)
    ]
    found = []
    for node in reads:
        test = _list_test(node, parents)
        owner = parents.get(id(test)) if test is not None else None
        if isinstance(owner, (cst.IfExp, cst.If)) and owner.test is test:
            chosen, other = owner.body, owner.orelse
        else:
            continue
        if other is None or _spells(other, name):
            continue
        if all(
            r is chosen or _inside(r, [test, chosen], parents) or _truth_test(r, parents)
            for r in reads
        ):
            found.append((name, test))
    return found


def _target_of(node: cst.CSTNode, binding, parents) -> bool:
    parent = parents.get(id(node))
    if isinstance(parent, cst.AssignTarget):
        return parents.get(id(parent)) is binding
    return isinstance(parent, cst.AnnAssign) and parent is binding and parent.target is node


def _truth_test(node: cst.CSTNode, parents) -> bool:
    """Is `node` only tested for truth or None (`if res:`, `not res`, `res is None`)?"""
    parent = parents.get(id(node))
    if isinstance(parent, (cst.If, cst.IfExp, cst.While)) and parent.test is node:
        return True
    if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        return True
    if isinstance(parent, cst.Comparison) and parent.left is node:
        return all(
            isinstance(c.operator, (cst.Is, cst.IsNot))
            and isinstance(c.comparator, cst.Name)
            and c.comparator.value == "None"
            for c in parent.comparisons
        )
    return False


def _spells(root: cst.CSTNode, name: str) -> bool:
    """Is `name` a `Name` anywhere under `root` (nested functions and lambdas included)?"""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name) and node.value == name:
            return True
        stack.extend(children(node))
    return False


def _list_test(node: cst.CSTNode, parents) -> Union[cst.Call, None]:
    """`isinstance(node, list)` around `node`, or None."""
    arg = parents.get(id(node))
    if not (isinstance(arg, cst.Arg) and arg.keyword is None and not arg.star):
        return None
    call = parents.get(id(arg))
    if not (
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Name)
        and call.func.value == "isinstance"
        and len(call.args) == 2
        and call.args[0] is arg
        and call.args[1].keyword is None
        and isinstance(call.args[1].value, cst.Name)
        and call.args[1].value.value == "list"
    ):
        return None
    return call


def _reaching(site: CallSite, name: str, value: cst.BaseExpression, parents):
    """Where the uses of `name` hold `value`: (root, handlers, window), or None.

    `root`: the module or function whose body binds it (no `global`, no dynamic binding).
    `handlers`: the `except` handlers of the `try` around `value` that rebind the name to a
    literal (the call failed). `window`: None when no other binding of the name exists, else
    the indices of the statements of `root`'s body between which the name holds `value`: after
    the statement that binds it, before the next one that binds it again (each other binding
    must be in a statement of its own of that body), that body's id(statement) -> index, and
    the value that next binding assigns when it is the statement's only one, run once (None
    otherwise)."""
    root = sole_binding_root(site, name, value, exact=False)
    if root is None:
        return None
    point = site.scope
    scope = getattr(point, "scope", point)
    tries = [t for t in _ancestors(value, parents) if isinstance(t, cst.Try)]
    handlers: list[cst.ExceptHandler] = []
    others: list[cst.CSTNode] = []
    for binding in scope.bindings.get(name, []):
        if binding.value is value:
            continue
        handler = _fallback_handler(binding, tries, parents)
        if handler is not None:
            handlers.append(handler)
        elif binding.kind == "value" and isinstance(binding.value, cst.CSTNode):
            others.append(binding.value)
        else:
            return None  # an import, a parameter, a `for` target...: not placed in the body
    if not others:
        return root, handlers, None
    body = _body(root)
    positions = {id(statement): index for index, statement in enumerate(body)}
    own = _top_index(value, positions, parents)
    later = []
    for other in others:
        index = _top_index(other, positions, parents)
        if index < 0 or index == own:
            return None
        if index > own:
            later.append(index)
    if own < 0:
        return None
    end = min(later, default=len(body))
    at_end = [other for other in others if _top_index(other, positions, parents) == end]
    rebinding = at_end[0] if len(at_end) == 1 and not _repeated(at_end[0], parents) else None
    return root, handlers, (own, end, positions, rebinding)


def _repeated(node: cst.CSTNode, parents) -> bool:
    """Is `node` in a loop of its function (its second run reads what its first bound)?"""
    return any(isinstance(a, (cst.For, cst.While, cst.CompFor)) for a in _ancestors(node, parents))


def _body(root: Union[cst.Module, cst.FunctionDef]) -> Sequence[cst.CSTNode]:
    if isinstance(root, cst.Module):
        return root.body
    return root.body.body if isinstance(root.body, cst.IndentedBlock) else ()


def _top_index(node: cst.CSTNode, positions: dict[int, int], parents) -> int:
    """The index of the statement holding `node` in a body (`positions`: id(statement) -> its
    index); -1 when none does."""
    current = node
    while current is not None:
        index = positions.get(id(current))
        if index is not None:
            return index
        current = parents.get(id(current))
    return -1


def _fallback_handler(binding, tries: list[cst.Try], parents) -> Union[cst.ExceptHandler, None]:
    """The `except` handler of one of `tries` in which `binding` binds a literal, or None."""
    literal = binding.value
    if binding.kind != "value" or not (
        isinstance(literal, _FALLBACK_LITERALS)
        or (isinstance(literal, cst.Name) and literal.value == "None")
    ):
        return None
    assign = parents.get(id(literal))
    if not isinstance(assign, (cst.Assign, cst.AnnAssign)) or assign.value is not literal:
        return None
    return next(
        (
            h
            for h in _ancestors(literal, parents)
            if isinstance(h, cst.ExceptHandler) and parents.get(id(h)) in tries
        ),
        None,
    )


# A fallback value: a literal that holds no result (`[]`, `{}`, `()`, `None`, `""`).
_FALLBACK_LITERALS = (cst.List, cst.Dict, cst.Tuple, cst.SimpleString)


def _ancestors(node: cst.CSTNode, parents) -> Iterator[cst.CSTNode]:
    """The nodes above `node`, up to its function (or the module), innermost first."""
    parent = parents.get(id(node))
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Module)):
        yield parent
        parent = parents.get(id(parent))


def _inside(node: cst.CSTNode, owners: list[cst.CSTNode], parents) -> bool:
    """Is one of `owners` above `node` (within its function)?"""
    return any(a in owners for a in _ancestors(node, parents))


def sole_binding_root(
    site: CallSite, name: str, value: cst.BaseExpression, exact: bool = True
) -> Union[cst.Module, cst.FunctionDef, None]:
    """Where to read the uses of `name` when its only binding in the call's scope is `value`
    (no `global`, no dynamic binding): the module, or the function; None otherwise.
    `exact=False`: `value` is one of its bindings (`_reaching` places the others)."""
    point = site.scope
    scope = getattr(point, "scope", point)
    bindings = scope.bindings.get(name, [])
    mine = [b for b in bindings if b.value is value]
    if (
        len(mine) != 1
        or (exact and len(bindings) != 1)
        or mine[0].kind != "value"
        or name in scope.dynamic
        or name in scope.globals
    ):
        return None
    if scope.kind == "module":
        return site.resolver.collector.module
    if scope.kind == "function" and scope.function is not None:
        return scope.function
    return None


def subscript_results(expr: cst.BaseExpression) -> cst.Subscript:
    """`expr["results"]`, parenthesising an `await`."""
    if isinstance(expr, cst.Await) and not expr.lpar:
        expr = expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Subscript(
        value=expr,
        slice=[cst.SubscriptElement(slice=cst.Index(value=cst.SimpleString('"results"')))],
    )
