"""What MEM140-MEM142 share: the receiver's client class, and what the code does with a call's
value when it is not awaited.

The receiver's class comes from the binder's class mode (`Resolver.classes_of`): only a receiver
that is one class for sure (not a union, not configured by dialect only, not a forwarded bound
method), by the bindings that reach the call and by every binding of its name in the scope, is
judged. A module that replaces methods with mocks (`AsyncMock`, `patch`, ...) is left
alone: a mocked method may be a coroutine on a sync client, or a plain function on an async one.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator, Optional, Union

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.memo import statement_result
from mem0lint.rules.surface.results import _bound_name, _parents, sole_binding_root
from mem0lint.walk import children

# Names that say a test replaces attributes or whole objects with stand-ins.
MOCK_WORDS = frozenset(
    {
        "AsyncMock",
        "MagicMock",
        "Mock",
        "NonCallableMock",
        "create_autospec",
        "patch",
        "monkeypatch",
        "mocker",
        "setattr",
        "mock",
        "unittest",
    }
)

# A coroutine's own attributes: reading them is no misuse.
COROUTINE_ATTRIBUTES = frozenset(
    {"send", "throw", "close", "cr_await", "cr_code", "cr_frame", "cr_running", "cr_origin"}
)


def receiver_class(site: CallSite) -> Optional[str]:
    """The one client class the receiver of `recv.method(...)` is, or None."""
    if site.receiver is None or site.rest or site.outer is not None or site.union is not None:
        return None
    func = site.call.func
    if not isinstance(func, cst.Attribute) or func.value is not site.receiver:
        return None  # an alias (`search = client.search`) is resolved in another scope
    found = site.resolver.classes_of(site.receiver, site.scope)
    if found is None or len(found) != 1:
        return None
    # Every binding of the receiver in the scope, whatever reaches the call, must agree too: a
    # page that shows `client = MemoryClient()` and `client = AsyncMemoryClient()` as
    # alternatives (read in order, the later one wins) documents both clients' calls.
    if site.resolver.classes_of(site.receiver, getattr(site.scope, "scope", site.scope)) != found:
        return None
    if mocked(site):
        return None
    return next(iter(found))


def _mentions_a_mock(root: cst.CSTNode) -> bool:
    """Does a name under `root` spell a mock word?"""
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name) and node.value in MOCK_WORDS:
            return True
        stack.extend(children(node))
    return False


def mocked(site: CallSite) -> bool:
    """Does the module spell a mock word anywhere as a name (computed once per lint, and kept by
    the language server per unchanged top-level statement: memo.py)? A name is spelled in the
    text the module was parsed or pruned from: a text without any of the words needs no walk. A
    walk of the module that finds none, where the text spells one, asks Python's tree of the text:
    pruning may have dropped the statement that names it (a test that patches and calls no
    client), and the answer must not depend on which statements pruning left."""
    collector = site.resolver.collector
    found = getattr(collector, "_await_mocked", None)
    if found is None:
        module = getattr(collector, "module", None)
        source = getattr(collector, "source", None)
        if module is not None and source is not None and not _spells_a_mock_word(source):
            found = False
        else:
            found = module is None or any(
                statement_result("mock words", statement, _mentions_a_mock)
                for statement in module.body
            )
            if not found and source is not None:
                found = bool(_names_a_mock(source))  # None: not parsed, so not pruned either
        collector._await_mocked = found
    return found


def _names_a_mock(source: Union[str, bytes]) -> Optional[bool]:
    """Does Python's tree of `source` hold a mock word as an identifier (a name, an attribute,
    a parameter, a keyword, an import, a definition: each a libcst `Name`)? None when Python
    cannot parse it."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in ast.walk(tree):
        for field in _IDENTIFIER_FIELDS.intersection(node._fields):
            value = getattr(node, field, None)
            for name in value if isinstance(value, list) else [value]:
                if isinstance(name, str) and not MOCK_WORDS.isdisjoint(name.split(".")):
                    return True
    return False


# The fields in which Python's tree keeps identifiers, as strings (`Name.id`, `alias.name`,
# `ImportFrom.module`, `Global.names`, `MatchMapping.rest`, ...); libcst keeps each as a `Name`.
_IDENTIFIER_FIELDS = frozenset(
    {"id", "attr", "arg", "name", "asname", "module", "names", "rest", "kwd_attrs"}
)


def _spells_a_mock_word(source: Union[str, bytes]) -> bool:
    if isinstance(source, bytes):
        return any(word.encode() in source for word in MOCK_WORDS)
    return any(word in source for word in MOCK_WORDS)


@dataclass(frozen=True)
class Misuse:
    kind: str  # "discarded", "iterated", "indexed", "sliced", "key", "measured", "attribute"
    expr: cst.BaseExpression  # the call, or the Name read that misuses it
    through_name: bool = False


def _data_use(expr: cst.BaseExpression, parents) -> Optional[str]:
    """How `expr` (a coroutine) is used right where it stands as if it were the result."""
    parent = parents.get(id(expr))
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is expr:
        return "iterated"
    if isinstance(parent, cst.Subscript) and parent.value is expr:
        if len(parent.slice) == 1 and isinstance(parent.slice[0].slice, cst.Slice):
            return "sliced"
        return "indexed"
    if isinstance(parent, cst.Attribute) and parent.value is expr:
        name = parent.attr.value
        if name in COROUTINE_ATTRIBUTES or name.startswith("__"):
            return None
        return "key" if name == "get" else "attribute"
    if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
        call = parents.get(id(parent))
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Name)
            and call.func.value == "len"
            and len(call.args) == 1
        ):
            return "measured"
    return None


def _nodes(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node under `root`, nested functions and classes included."""
    stack = children(root)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))


def misuses(site: CallSite) -> list[Misuse]:
    """The ways the value of the (not awaited) call is provably used as a result, or thrown
    away; [] when anything could still await it (a name read anywhere else, a call argument, a
    return value, a container)."""
    collector = site.resolver.collector
    parents = _parents(collector, site)
    if parents is None:
        return []
    call = site.call
    parent = parents.get(id(call))
    if isinstance(parent, cst.Expr) and parent.value is call:
        return [Misuse("discarded", call)]
    kind = _data_use(call, parents)
    if kind is not None:
        return [Misuse(kind, call)]
    name = _bound_name(call, parents)
    if name is None:
        return []
    root = sole_binding_root(site, name, call)
    if root is None:
        return []
    target = parents.get(id(call))
    target_name = target.targets[0].target if isinstance(target, cst.Assign) else target.target
    found = []
    for node in _nodes(root):
        if not isinstance(node, cst.Name) or node.value != name or node is target_name:
            continue
        if isinstance(root, cst.FunctionDef) and _is_def_part(node, root, parents):
            return []  # the function's own name or a parameter of the same spelling
        if _neutral(node, parents):
            continue
        use = _data_use(node, parents)
        if use is None:
            return []  # read in any other way: it may be awaited, passed on, stored
        found.append(Misuse(use, node, through_name=True))
    return found


def _neutral(node: cst.Name, parents) -> bool:
    """A read that cannot await the coroutine nor hand it on: a truth test (`if x:`, `not x`,
    `while x`, `a if x else b`), an `is` comparison, an f-string field."""
    parent = parents.get(id(node))
    if isinstance(parent, (cst.If, cst.While)) and parent.test is node:
        return True
    if isinstance(parent, cst.IfExp) and parent.test is node:
        return True
    if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        return True
    if isinstance(parent, cst.FormattedStringExpression) and parent.expression is node:
        return True
    if isinstance(parent, cst.Comparison) and parent.left is node:
        return all(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in parent.comparisons)
    is_test = (cst.Is, cst.IsNot)
    return isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, is_test)


def _is_def_part(node: cst.Name, function: cst.FunctionDef, parents) -> bool:
    return node is function.name or isinstance(parents.get(id(node)), cst.Param)


def await_allowed(node: cst.CSTNode, parents) -> bool:
    """An `await` written at `node` is valid and means what it says: the innermost function
    around it is an `async def`, with no lambda, generator expression or class body between."""
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, cst.FunctionDef):
            return current.asynchronous is not None
        if isinstance(current, (cst.Lambda, cst.GeneratorExp, cst.ClassDef)):
            return False
        current = parents.get(id(current))
    return False


def awaited(call: cst.Call, parents) -> cst.BaseExpression:
    """`await call`, parenthesised where its parent binds tighter than `await`."""
    parent = parents.get(id(call))
    node = cst.Await(expression=call)
    if isinstance(parent, (cst.Subscript, cst.Attribute)):
        node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node
