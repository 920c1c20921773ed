"""A bound method (or a class, or a factory) passed along is judged as the call it becomes.

`await asyncio.to_thread(client.search, q, user_id=u)` runs `client.search(q, user_id=u)`;
so do `loop.run_in_executor(None, functools.partial(client.search, q, user_id=u))`,
`asyncio.to_thread(functools.partial(client.search, q), user_id=u)`, and a local helper that
only calls its first parameter with the rest (`def run(fn, *args, **kwargs): return fn(*args,
**kwargs)`). The call it becomes is built from the original argument nodes, so findings on them
point at the text; a finding on the call itself is reported on the real call, and a fix that
would rewrite the (made-up) call is dropped. What such a call returns is what the call it
becomes returns: `client = await asyncio.to_thread(Memory.from_config, config)` is a client
(binding.py), and `asyncio.to_thread(Memory, api_key=key)` a constructor call (MEM125).

A `partial` kept in a name and called later may get more arguments there: not followed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

if TYPE_CHECKING:
    from mem0lint.binding import Resolver, Scope

TO_THREAD = frozenset({"asyncio.to_thread"})
PARTIAL = frozenset({"functools.partial"})
MAX_DEPTH = 3


def forwarded(
    call: cst.Call, scope: Scope, resolver: Resolver, name: Optional[str] = ""
) -> Optional[cst.Call]:
    """The call that `call` makes of a bound method it is given, or None. `name`: the
    qualified name of `call.func`, when the caller has it ("": find it)."""
    return _forwarded(call, scope, resolver, 0, name)


def _forwarded(
    call: cst.Call, scope, resolver: Resolver, depth: int, name: Optional[str] = ""
) -> Optional[cst.Call]:
    if depth > MAX_DEPTH or any(a.star for a in call.args[:2]):
        return None
    func = call.func
    if name == "":
        name = resolver.qualified_name(func, scope)
    args = list(call.args)
    if name in TO_THREAD:
        rest = args[1:]
    elif isinstance(func, cst.Attribute) and func.attr.value == "run_in_executor":
        if len(args) < 2 or any(a.keyword is not None for a in args):
            return None
        args, rest = args[1:], args[2:]
    elif isinstance(func, cst.Name) and _is_local_runner(func, scope, resolver):
        rest = args[1:]
    else:
        return None
    if not args or args[0].keyword is not None:
        return None
    target = args[0].value
    if isinstance(target, cst.Call) and resolver.qualified_name(target.func, scope) in PARTIAL:
        inner = target.args
        if not inner or inner[0].keyword is not None or inner[0].star:
            return None
        target, rest = inner[0].value, [*inner[1:], *rest]
    if not isinstance(target, (cst.Attribute, cst.Name)):
        return None
    return cst.Call(func=target, args=_ordered(rest))


def _ordered(args: list[cst.Arg]) -> list[cst.Arg]:
    """Positional arguments before keywords, as a call written out would have them."""
    return [a for a in args if a.keyword is None] + [a for a in args if a.keyword is not None]


def _is_local_runner(func: cst.Name, scope, resolver: Resolver) -> bool:
    """`def run(fn, *args, **kwargs): return fn(*args, **kwargs)` (or without the return),
    defined in this module, and nothing else in its body calls `fn`."""
    bindings = scope.lookup(func.value)
    if len(bindings) != 1 or bindings[0].kind != "function":
        return False
    function: cst.FunctionDef = bindings[0].value
    params = function.params
    positional = [*params.posonly_params, *params.params]
    star, kwargs = params.star_arg, params.star_kwarg
    if len(positional) != 1 or not isinstance(star, cst.Param) or kwargs is None:
        return False
    if function.decorators or params.kwonly_params:
        return False
    fn, args_name, kwargs_name = positional[0].name.value, star.name.value, kwargs.name.value
    inner = _only_call(function)
    return (
        inner is not None
        and isinstance(inner.func, cst.Name)
        and inner.func.value == fn
        and len(inner.args) == 2
        and inner.args[0].star == "*"
        and isinstance(inner.args[0].value, cst.Name)
        and inner.args[0].value.value == args_name
        and inner.args[1].star == "**"
        and isinstance(inner.args[1].value, cst.Name)
        and inner.args[1].value.value == kwargs_name
    )


def _only_call(function: cst.FunctionDef) -> Optional[cst.Call]:
    """The call in a body that is only `return f(...)`, `f(...)` or `return await f(...)`
    (after a docstring)."""
    statements = body_statements(function)
    if len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
        return None
    small = statements[0].body
    if len(small) != 1 or not isinstance(small[0], (cst.Return, cst.Expr)):
        return None
    value = small[0].value
    if isinstance(value, cst.Await):
        value = value.expression
    return value if isinstance(value, cst.Call) else None


def body_statements(function: cst.FunctionDef) -> list[cst.BaseStatement]:
    """The statements of a function's indented body, after its docstring."""
    body = function.body
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else []
    if statements and _is_docstring(statements[0]):
        statements = statements[1:]
    return statements


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def placed(site, finding):
    """(node, fix) of a finding on a call made from a bound method passed along: a finding on
    the made-up call is reported on the real one, and a fix that rewrites it is dropped."""
    outer = site.outer
    if outer is None:
        return finding.node, finding.fix
    spread_arg = site.notes.get("spread")
    if spread_arg is not None:  # bind/spread.py: never fixed
        if finding.node is site.call:
            return outer, None
        if id(finding.node) in _within(outer):
            return finding.node, None
        if id(finding.node) in _within(site.call):
            return spread_arg, None  # an argument the spread gives (the dict's value): at `**`
        return finding.node, None  # elsewhere: a use of the call's value (rules/surface/)
    node = outer if finding.node is site.call else finding.node
    fix = finding.fix
    if fix is not None and any(old is site.call for old, _ in fix.replacements):
        fix = None
    return node, fix


def _within(node: cst.CSTNode) -> set[int]:
    found: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        found.add(id(current))
        stack.extend(current.children)
    return found
