"""Which statements may hold a call the engine judges, read on Python's tree.

Pruning (pruning.py) keeps every statement whose words may be tainted by an SDK's: in a test file,
a page or a module that says `memory` everywhere that is nearly all of them. This module answers a
narrower question, without libcst: in which units (pruning's: a top-level statement or a class
member) may the binder (binding.py, callsite.py) find a call site, or may a rule read what such a
call returns? A unit it clears holds neither, so pruning need not keep it for its own sake (it
still keeps it for what a kept unit needs: pruning._kept).

It may say yes too often, never too rarely. It follows values by name, as the binder does, but
flow- and scope-insensitively (a name bound to a client anywhere is one everywhere; an attribute
name likewise, whatever it is read on), and it takes as a client:

- what an import gives when the SDK tables know its name (a client class, a factory on it, a
  request record; an HTTP client where the module may post to the Platform), or when the project
  index or a configured receiver may give one (`ImportTaint.may_give`): then anything read or
  called through the name too; a configured receiver's last part, as a name or attribute;
- a call of a client class (or of what names one: `mem0.MemoryClient`), of a factory on one, of
  a function or method whose return may be a client (by name: `self.make()`, `get_client()`), or
  of anything given something that refers to a client (`to_thread(Memory.from_config, c)`,
  `async_wrap(client.search)`: forwarded and wrapped calls);
- what such a value is bound to: assignment, annotation (a string annotation by its words),
  `with`, `for`, walrus, `isinstance` narrowing, a parameter of a function called with one
  (bind/params.py), a fixture (this module's, or any parameter at all in a test file where a
  conftest.py above it may give one), a bound method kept in a name (`search = client.search`).

The result of a method call on a client is no client (binding.py resolves no such call), which is
what makes this narrower than the words. But rules read where a call's result goes
(rules/surface/results.py): a name the module's top level binds to a value holding a site, and
calls of a function whose return holds one, are flagged wherever they are read.

An `import *` gives nothing here, as it binds no name binding.py can follow (what it binds is
unknown there, and unknown is silent). tests/test_pruning.py and tests/test_pruning_projects.py
prove, with pruning, that no finding changes.
"""

from __future__ import annotations

import ast
import re
from typing import Iterable, Iterator

from mem0lint.clientsources import ImportTaint, _known_names, _standard_library_only
from mem0lint.sdk import dialects

_FUNCTION = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSION = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_WORD = re.compile(r"\w+")
_FACTORIES = frozenset(f for d in dialects.CLASS_DIALECT.values() for f in d.factories)


def _last_parts(names: Iterable[str]) -> frozenset[str]:
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


_CLASS_WORDS = _last_parts(
    [*dialects.CLASS_DIALECT, *dialects.RECORD_CLASSES, *dialects.DOCS_IMPLICIT_CLASSES]
)
_HTTP_WORDS = _last_parts([*dialects.HTTP_CLIENT_CLASSES, *dialects.HTTP_POST_FUNCTIONS])


class AnyImport(ImportTaint):
    """Every import from outside the standard library may give a client (pruning without the
    project in view, `ImportTaint` None: a receiver may be configured for any of them)."""

    def __init__(self) -> None:
        super().__init__(None)

    def may_give(self, dotted: str) -> bool:
        return True

    def without_transports(self) -> AnyImport:
        return self


ANY_IMPORT = AnyImport()


class _Binding:
    """A statement or expression binding `targets` to `value` (None: a name bound with no value
    worth following, only its annotation: `x: MemoryClient`)."""

    __slots__ = ("targets", "value", "annotation", "top")

    def __init__(self, targets, value, annotation=None, top=False) -> None:
        self.targets: list[ast.expr] = targets
        self.value: ast.expr | None = value
        self.annotation: ast.expr | None = annotation
        self.top = top  # at the module's top level: readable from every unit


class _Function:
    __slots__ = ("node", "returned", "fixture_names")

    def __init__(self, node) -> None:
        self.node = node
        self.returned: list[ast.expr] = []  # `return` and `yield` values (its own, not nested)
        self.fixture_names = _fixture_names(node)


def flagged_units(
    roots: list[list[ast.AST]],
    imports: ImportTaint,
    local: frozenset[str],
    fixtures: bool,
) -> tuple[list[bool], frozenset[str]]:
    """For each unit (given by the nodes it spans), may it hold a call site or read what one
    returns? And the names a rule may follow from a site to a value (`followed`).
    `fixtures`: a test file under a conftest.py that may give a client as a fixture."""
    # The SDKs' clients; an HTTP client (`imports.transports`) gives a call site only at a
    # `.post` whose URL may start at the Platform's host (callsite._rest_site), which a second
    # finder, counting HTTP clients as clients too, judges.
    finder = _Finder(imports.without_transports(), local, fixtures)
    calls: list[list[ast.Call]] = [[] for _ in roots]
    loads: list[set[str]] = [set() for _ in roots]
    for index, unit_roots in enumerate(roots):
        for root in unit_roots:
            finder.collect(root, calls[index], loads[index])
    finder.solve()
    http = None
    if imports.transports:
        http = _Finder(imports, local, fixtures)
        http.bindings, http.functions, http.arguments = (
            finder.bindings,
            finder.functions,
            finder.arguments,
        )
        for node in finder.import_nodes:
            http._import(node)
        http.global_names, http.defined = finder.global_names, finder.defined
        http.solve()
    sites = [
        [
            call
            for call in unit_calls
            if finder.is_site(call)
            or (http is not None and _may_post_to_platform(call) and http.is_site(call))
        ]
        for unit_calls in calls
    ]
    found = [call for unit_sites in sites for call in unit_sites]
    # What a client's method returns is read by rules where it goes; what makes a client, as a
    # client, is followed by the binder (a construction's uses are no rule's business).
    finder.solve_results({id(call) for call in found if not finder.constructs(call)})
    flags = []
    for unit_sites, unit_calls, unit_loads in zip(sites, calls, loads):
        flags.append(
            bool(unit_sites)
            or not unit_loads.isdisjoint(finder.top_results)
            or any(finder.calls_result_function(call) for call in unit_calls)
        )
    return flags, finder.followed(found)


class _Finder:
    def __init__(self, imports: ImportTaint, local: frozenset[str], fixtures: bool) -> None:
        self.imports = imports
        self.local = local
        self.fixtures = fixtures
        self.class_words = _CLASS_WORDS | (_HTTP_WORDS if imports.transports else frozenset())
        receivers = _last_parts(name for name in imports.receivers if name)
        self.classes: set[str] = set(dialects.DOCS_IMPLICIT_CLASSES)  # names of client classes
        self.clients: set[str] = set(receivers)  # names that may hold a client
        self.attributes: set[str] = set(receivers)  # attribute names that may hold one
        self.through: set[str] = set()  # names anything read or called through may be one
        self.returning: set[str] = set(receivers)  # functions that may return one, by name
        self.returns_client: set[int] = set()  # ids of the `_Function`s that may
        self.called: set[str] = set()  # functions given one, by name: their parameters
        self.fixture_names: set[str] = set()  # this module's fixtures that may give one
        self.global_names: set[str] = set()
        self.defined: set[str] = set()  # the names of the module's functions, at any depth
        self.bindings: list[_Binding] = []
        self.functions: list[_Function] = []
        self.arguments: list[ast.Call] = []  # calls given arguments, for `called`
        self.import_nodes: list[ast.Import | ast.ImportFrom] = []
        # What a rule may read of a call site's result (rules/surface/results.py).
        self.results: set[str] = set()  # names bound to a value holding a site, anywhere
        self.top_results: set[str] = set()  # those of them the module's top level binds
        self.result_functions: set[str] = set()

    # Reading the tree ---------------------------------------------------------------------------

    def collect(self, root: ast.AST, calls: list[ast.Call], loads: set[str]) -> None:
        """Record what `root` binds and calls."""
        # (node, innermost function, at the module's top level)
        stack: list[tuple[ast.AST, _Function | None, bool]] = [(root, None, True)]
        while stack:
            node, function, top = stack.pop()
            inner, inner_top = function, top
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    loads.add(node.id)
                continue
            if isinstance(node, ast.Call):
                calls.append(node)
                if node.args or node.keywords:
                    self.arguments.append(node)
                if _is_isinstance(node):
                    self.bindings.append(_Binding([node.args[0]], None, node.args[1], top))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self.import_nodes.append(node)
                self._import(node)
            elif isinstance(node, _FUNCTION):
                inner, inner_top = _Function(node), False
                self.functions.append(inner)
                self.defined.add(node.name)
            elif isinstance(node, (*_SCOPE, *_COMPREHENSION)):
                inner_top = False
                if isinstance(node, ast.Lambda):
                    inner = None  # a `return` below it is not the function's
            elif isinstance(node, ast.Assign):
                self.bindings.append(_Binding(node.targets, node.value, None, top))
            elif isinstance(node, ast.AnnAssign):
                self.bindings.append(_Binding([node.target], node.value, node.annotation, top))
            elif isinstance(node, ast.AugAssign):
                self.bindings.append(_Binding([node.target], node.value, None, top))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                self.bindings.append(_Binding([node.target], node.iter, None, top))
            elif isinstance(node, ast.comprehension):
                self.bindings.append(_Binding([node.target], node.iter, None, False))
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                self.bindings.append(_Binding([node.optional_vars], node.context_expr, None, top))
            elif isinstance(node, ast.NamedExpr):
                # In a comprehension it binds in the scope around it: the module's, perhaps.
                self.bindings.append(_Binding([node.target], node.value, None, True))
            elif isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)):
                if function is not None and node.value is not None:
                    function.returned.append(node.value)
            elif isinstance(node, ast.Match):
                captures = [
                    ast.Name(name, ast.Store())
                    for case in node.cases
                    for pattern in ast.walk(case.pattern)
                    for name in (getattr(pattern, "name", None), getattr(pattern, "rest", None))
                    if isinstance(name, str)
                ]
                self.bindings.append(_Binding(captures, node.subject, None, top))
            elif isinstance(node, ast.Global):
                self.global_names.update(node.names)
            for name in node._fields:
                value = getattr(node, name, None)
                if isinstance(value, list):
                    stack.extend(
                        (item, inner, inner_top) for item in value if isinstance(item, ast.AST)
                    )
                elif isinstance(value, ast.AST):
                    stack.append((value, inner, inner_top))

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if _standard_library_only(node, self.local):
            return
        for alias in node.names:
            if alias.name == "*":
                continue  # binding.py binds no name from it: what it may bind is unknown
            if isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                separator = "" if base.endswith(".") or not base else "."
                dotted, bound = f"{base}{separator}{alias.name}", alias.asname or alias.name
            elif alias.asname:
                dotted, bound = alias.name, alias.asname
            else:
                dotted = bound = alias.name.split(".", 1)[0]
            if not self.imports.may_give(dotted):
                continue
            if _names_tables(dotted, self.imports.transports):
                self.classes.add(bound)
            if not self._only_classes(dotted):
                self.through.add(bound)

    def _only_classes(self, dotted: str) -> bool:
        """Does the import give nothing but the SDK tables' names (a class, a package holding
        classes): no configured receiver, nothing the project index may find there?"""
        imports = self.imports
        if isinstance(imports, AnyImport):
            return False
        if any(
            r == dotted or r.startswith(dotted + ".") or dotted.startswith(r + ".")
            for r in imports.receivers
        ):
            return False
        if not _names_tables(dotted, imports.transports):
            return False  # known only through the project index
        project = imports.project
        if project is None:
            return True
        asks = getattr(project, "may_bind_client", None)
        return asks is not None and not asks(dotted, imports.transports)

    # Values ---------------------------------------------------------------------------------

    def names_class(self, expr: ast.AST) -> bool:
        """May `expr` name a client class, a record class or an HTTP post function?"""
        if isinstance(expr, ast.Name):
            return expr.id in self.classes or expr.id in self.through
        if isinstance(expr, ast.Attribute):
            root = _root(expr)
            return (expr.attr in self.class_words and root in self.classes) or root in self.through
        return False

    def may_be_client(self, expr: ast.AST | None) -> bool:
        if expr is None:
            return False
        if isinstance(expr, ast.Name):
            return expr.id in self.clients or expr.id in self.through
        if isinstance(expr, ast.Attribute):
            return expr.attr in self.attributes or _root(expr) in self.through
        if isinstance(expr, ast.Call):
            func = expr.func
            if self.names_class(func) or self.may_be_client(func):
                return True
            if isinstance(func, ast.Attribute):
                if func.attr in self.returning or (
                    func.attr in _FACTORIES and self.names_class(func.value)
                ):
                    return True
            elif isinstance(func, ast.Name) and func.id in self.returning:
                return True
            elif isinstance(func, ast.Call) and self.refers(func):
                return True  # `async_wrap(client.search)(...)`
            return self.forwards(expr)
        if isinstance(expr, (ast.Await, ast.Starred, ast.NamedExpr)):
            return self.may_be_client(expr.value)
        if isinstance(expr, ast.IfExp):
            return self.may_be_client(expr.body) or self.may_be_client(expr.orelse)
        if isinstance(expr, ast.BoolOp):
            return any(self.may_be_client(v) for v in expr.values)
        if isinstance(expr, ast.Subscript):
            return self.may_be_client(expr.value)
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
            return any(self.may_be_client(e) for e in expr.elts)
        if isinstance(expr, ast.Dict):
            return any(self.may_be_client(v) for v in expr.values)
        if isinstance(expr, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self.may_be_client(expr.elt)
        if isinstance(expr, ast.DictComp):
            return self.may_be_client(expr.value)
        return False

    def refers(self, expr: ast.AST) -> bool:
        """Is `expr` a client, a client class, or read through one (`client.search`)?"""
        while True:
            if self.may_be_client(expr) or self.names_class(expr):
                return True
            if not isinstance(expr, ast.Attribute):
                return False
            expr = expr.value

    def annotates_client(self, annotation: ast.AST | None) -> bool:
        if annotation is None:
            return False
        for node in ast.walk(annotation):
            if isinstance(node, ast.Name) and (node.id in self.classes or node.id in self.through):
                return True
            if isinstance(node, ast.Attribute) and (
                node.attr in self.class_words or _root(node) in self.through
            ):
                return True
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                words = set(_WORD.findall(node.value))
                if not words.isdisjoint(self.class_words) or not words.isdisjoint(
                    self.classes | self.through
                ):
                    return True
        return False

    # The fixpoint ---------------------------------------------------------------------------

    def _bind(self, targets: list[ast.expr]) -> bool:
        """`targets` may now hold a client: the names and attributes they bind (an item of a
        dict or list holds nothing the binder reads: `d["k"].search()` is judged on nothing)."""
        changed = False
        for node in _bound_parts(targets):
            if isinstance(node, ast.Name):
                if node.id not in self.clients:
                    self.clients.add(node.id)
                    self.attributes.add(node.id)  # a class body's name is an attribute
                    changed = True
            elif node.attr not in self.attributes:
                self.attributes.add(node.attr)
                changed = True
        return changed

    def solve(self) -> None:
        changed = True
        while changed:
            changed = False
            for binding in self.bindings:
                value = binding.value
                if value is not None and self.names_class(value):
                    for target in binding.targets:
                        if isinstance(target, ast.Name) and target.id not in self.classes:
                            self.classes.add(target.id)
                            changed = True
                if (
                    self.may_be_client(value)
                    or self.annotates_client(binding.annotation)
                    or (value is not None and self.refers(value))  # `search = client.search`
                ):
                    changed |= self._bind(binding.targets)
            for function in self.functions:
                node = function.node
                name = node.name
                if id(function) not in self.returns_client and (
                    self.annotates_client(node.returns)
                    or any(self.may_be_client(v) for v in function.returned)
                ):
                    self.returns_client.add(id(function))
                    self.returning.add(name)
                    self.attributes.add(name)  # a property, a method returning one
                    self.fixture_names.update(function.fixture_names)
                    changed = True
                arguments = node.args
                every = name in self.called or self.fixtures
                for parameter in [
                    *arguments.posonlyargs,
                    *arguments.args,
                    *arguments.kwonlyargs,
                    *(p for p in (arguments.vararg, arguments.kwarg) if p is not None),
                ]:
                    if parameter.arg in self.clients:
                        continue
                    if (
                        every
                        or parameter.arg in self.fixture_names
                        or self.annotates_client(parameter.annotation)
                    ):
                        self.clients.add(parameter.arg)
                        self.attributes.add(parameter.arg)
                        changed = True
            for call in self.arguments:
                name = _called_name(call.func)
                if (
                    name is not None
                    and name not in self.called
                    and any(self.refers(argument) for argument in _arguments(call))
                ):
                    self.called.add(name)
                    changed = True

    def is_site(self, call: ast.Call) -> bool:
        func = call.func
        # A function a project module or configuration gives is a call site only when it is one
        # of the SDK tables' names (`mod.MemoryClient(...)`); what it returns may be a client.
        if isinstance(func, ast.Name):
            if func.id in self.classes or func.id in self.clients:
                return True
        elif isinstance(func, ast.Attribute):
            if func.attr in self.class_words and _root(func) in self.classes:
                return True
            if self.refers(func.value):
                return True
        elif isinstance(func, ast.Call) and self.refers(func):
            return True
        return self.forwards(call)

    def constructs(self, call: ast.Call) -> bool:
        """Is `call` one of a client class or request record, or of a factory on one?"""
        func = call.func
        if isinstance(func, ast.Name):
            return func.id in self.classes
        return isinstance(func, ast.Attribute) and (
            (func.attr in self.class_words and _root(func) in self.classes)
            or (func.attr in _FACTORIES and self.names_class(func.value))
        )

    def forwards(self, call: ast.Call) -> bool:
        """Is `call` one bind/forward.py or bind/wrappers.py may read as the call of a bound
        method, class or factory it is given, and may what it is given refer to a client?"""
        target = self.forwarded(call)
        return target is not None and self.refers(target)

    def forwarded(self, call: ast.Call) -> ast.expr | None:
        """`f` in `asyncio.to_thread(f, ...)`, `loop.run_in_executor(None, f, ...)`, a function
        of this module given `f` first (a runner, a wrapper), `f` perhaps a `partial(f, ...)`."""
        name = _called_name(call.func)
        positional = []
        for argument in call.args:
            if isinstance(argument, ast.Starred):
                break
            positional.append(argument)
        if name == "run_in_executor":
            target = positional[1] if len(positional) > 1 else None
        elif name == "to_thread" or (isinstance(call.func, ast.Name) and name in self.defined):
            target = positional[0] if positional else None
        else:
            return None
        if (
            isinstance(target, ast.Call)
            and _called_name(target.func) == "partial"
            and target.args
            and not isinstance(target.args[0], ast.Starred)
        ):
            target = target.args[0]
        return target

    # Where a site's result goes ---------------------------------------------------------------

    def solve_results(self, sites: set[int]) -> None:
        def holds(expr: ast.AST | None) -> bool:
            if expr is None:
                return False
            for node in ast.walk(expr):
                if isinstance(node, ast.Call) and (
                    id(node) in sites or self.calls_result_function(node)
                ):
                    return True
                if isinstance(node, ast.Name) and node.id in self.results:
                    return True
            return False

        changed = True
        while changed:
            changed = False
            for binding in self.bindings:
                if not holds(binding.value):
                    continue
                for node in _bound_parts(binding.targets):
                    if not isinstance(node, ast.Name):
                        continue
                    if node.id not in self.results:
                        self.results.add(node.id)  # returned, it is read where it is called
                        changed = True
                    if binding.top or node.id in self.global_names:
                        self.top_results.add(node.id)
            for function in self.functions:
                name = function.node.name
                if name not in self.result_functions and any(holds(v) for v in function.returned):
                    self.result_functions.add(name)
                    changed = True

    def followed(self, sites: list[ast.Call]) -> frozenset[str]:
        """The names in the sites' arguments, and in what they are bound to, again and again:
        the names through which a rule may read a dict literal (`filters=scope`, `**params`,
        `{"AND": [condition]}`), where other code reading it makes a fix unsafe (sharing.py) or
        changes the dict (bind/escapes.py)."""
        names: set[str] = set()
        for call in sites:
            target = self.forwarded(call)  # the method called, not an argument of the call
            for argument in _arguments(call):
                if argument is target:
                    continue
                if isinstance(argument, ast.Call) and argument.args and argument.args[0] is target:
                    argument = ast.Tuple([*argument.args[1:], *argument.keywords], ast.Load())
                names.update(_loaded_names(argument))
        changed = True
        while changed:
            changed = False
            for binding in self.bindings:
                if binding.value is None:
                    continue
                if any(
                    isinstance(part, ast.Name) and part.id in names
                    for part in _bound_parts(binding.targets)
                ):
                    more = _loaded_names(binding.value) - names
                    if more:
                        names |= more
                        changed = True
        return frozenset(names)

    def calls_result_function(self, call: ast.Call) -> bool:
        name = _called_name(call.func)
        return name is not None and name in self.result_functions


def _loaded_names(expr: ast.AST) -> set[str]:
    return {node.id for node in ast.walk(expr) if isinstance(node, ast.Name)}


def _bound_parts(targets: list[ast.expr]) -> Iterator[ast.Name | ast.Attribute]:
    stack = list(targets)
    while stack:
        target = stack.pop()
        if isinstance(target, (ast.Name, ast.Attribute)):
            yield target
        elif isinstance(target, (ast.Tuple, ast.List)):
            stack.extend(target.elts)
        elif isinstance(target, ast.Starred):
            stack.append(target.value)


def _may_post_to_platform(call: ast.Call) -> bool:
    """May a `.post(...)` call's URL start at the Platform's host, as callsite._platform_host
    reads it (a string, an f-string's first text, `A + B`'s left, a name bound once, the default
    of `os.environ.get(...)`)? No when that start is a string that does not spell the host (its
    escapes read: a host spelled in the bytes is spelled in the value)."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "post"):
        return False
    if any(k.arg is None for k in call.keywords):
        return (
            True  # `**payload`: a dict literal spread may give `url=` and `json=` (bind/spread.py)
        )
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    positional = [a for a in call.args if not isinstance(a, ast.Starred)]
    url = keywords.get("url", positional[0] if positional else None)
    if url is None or "json" not in keywords:
        return False
    for _ in range(8):
        if isinstance(url, ast.Constant):
            return isinstance(url.value, str) and dialects.PLATFORM_HOST in url.value
        if isinstance(url, ast.JoinedStr):
            if not url.values:
                return False
            url = url.values[0]
        elif isinstance(url, ast.FormattedValue):
            url = url.value
        elif isinstance(url, ast.BinOp) and isinstance(url.op, ast.Add):
            url = url.left
        else:
            return isinstance(url, (ast.Name, ast.Call))  # followed by the binder: may be
    return True


def _names_tables(dotted: str, transports: bool) -> bool:
    """Is `dotted` a name of the SDK tables, or a package or module holding one?"""
    return any(k == dotted or k.startswith(dotted + ".") for k in _known_names(transports))


def _root(expr: ast.AST) -> str | None:
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _arguments(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(keyword.value for keyword in call.keywords)]


def _called_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_isinstance(call: ast.Call) -> bool:
    return (
        isinstance(call.func, ast.Name)
        and call.func.id == "isinstance"
        and len(call.args) == 2
        and not call.keywords
    )


def _fixture_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names pytest may know a fixture by: its own, and every string its `fixture`
    decorator spells (`name="client"`); empty when it is no fixture."""
    found: set[str] = set()
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _called_name(target) != "fixture":
            continue
        found.add(node.name)
        for inner in ast.walk(decorator):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                found.add(inner.value)
    return found
