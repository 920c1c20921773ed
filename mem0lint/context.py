"""Context: findings that the code around a call shows to be intended, or not judgeable.

One step after the rules (`engine.check_module`), over the module's diagnostics:

- **Expected failures.** A call inside `with pytest.raises(E)` (`raises(E)` after
  `from pytest import raises`, `match=`, a tuple of classes), `with self.assertRaises(E)` /
  `assertRaisesRegex(E, ...)`, or in the body of `try: ... except E:` whose `E` catches every
  exception the finding predicts (`failures.py`) is not reported, so never fixed: the code
  tests or demonstrates that failure. `E` is resolved through the module's imports
  (`from mem0.exceptions import ValidationError`) and matched by the real class hierarchy
  (`except Exception` catches mem0's `ValidationError`; `except KeyError` no `ValueError`).
  Warnings (wrong results, nothing raised), findings whose failure is unknown, raw REST calls
  (an HTTP response is no exception) and names we cannot resolve stay reported.
  A catch-all `try` handler (bare `except:`, `except Exception`/`BaseException`) is the usual
  way application code logs *any* error; it proves no expectation of this one, so by default
  it does not silence (`CATCH_ALL_TRY`). In a test (`pytest.raises(Exception)`) it does.
- **Elided arguments.** A literal `...` passed by position (`MemoryClient(...)`,
  `client.search(...)`) stands for arguments a page leaves out: no finding about missing or
  positional arguments on that call. A `...` given as a value is no value: nothing judges it.
- **Fallbacks for another release.** A call in an `except` clause whose `try` makes the same
  call (method and receiver spelled alike), when no finding says the tried call raises, at the
  release judged, what the clause catches: the clause is written for another release, and the
  findings of release-bound rules (`Rule.versions`) on its call are not reported.
"""

from __future__ import annotations

import builtins
from typing import Iterable, Union

import libcst as cst

from mem0lint import failures
from mem0lint.rule import Diagnostic, Severity
from mem0lint.walk import children as walk_children  # no node rebuilt per node
from mem0lint.walk import subclasses

# Does `try: ... except Exception:` (or bare `except:`) around a call expect its failure?
CATCH_ALL_TRY = False
_CATCH_ALL = frozenset({"builtins.Exception", "builtins.BaseException"})

# The nodes `_Scan._bindings` reads, and (for `_walk_statements`) those that may hold one: a
# statement, a block or clause of statements, or an assignment's target.
_DEFINITIONS = frozenset({cst.ClassDef, cst.FunctionDef})
_TARGETS = frozenset({cst.AssignTarget, cst.AnnAssign})
_BINDERS = frozenset({cst.Import, cst.ImportFrom}) | _DEFINITIONS | _TARGETS
_HOLDS_BINDERS = (
    frozenset(
        node_type
        for base in (cst.BaseStatement, cst.BaseSuite, cst.BaseSmallStatement)
        for node_type in subclasses(base)
    )
    | {cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase}
    | _TARGETS
)

# What may hold a compound statement (a `try`): one, a block, or a clause of one.
_HOLDS_COMPOUND = frozenset(
    node_type
    for base in (cst.BaseCompoundStatement, cst.BaseSuite)
    for node_type in subclasses(base)
) | {cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase}

_ASSERT_RAISES = frozenset({"assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})
_PYTEST_RAISES = frozenset({"pytest.raises", "_pytest.python_api.raises"})
_BUILTIN_NAMES = frozenset(
    name
    for name in dir(builtins)
    if isinstance(getattr(builtins, name), type)
    and issubclass(getattr(builtins, name), BaseException)
)

# Findings about arguments that are missing, or about positional arguments: a call with an
# elided `...` positional argument may have them all.
ELIDED_RULES = frozenset(
    {
        "MEM106",  # a positional filter dict
        "MEM114",  # an empty query
        "MEM118",  # delete_all() without an entity id
        "MEM120",  # Memory(<dict>)
        "MEM401",  # no entity id in filters
        "MEM402",  # entity ids only nested
        "MEM411",  # open source add() without an entity id
        "MEM412",  # open source search()/get_all() without an entity keyword (0.1.100-1.x)
        "MEM413",  # open source add()/search() without an entity id (before 0.1.100)
        "MEM607",  # positional after query (Memsy)
        "MEM608",  # no actor_id (Memsy)
        "MEM610",  # MemsyClient() without base_url / api_key
        "MEM651",  # not exactly one of user_id / agent_id (MemOS)
        "MEM663",  # no query (MemOS)
        "MEM665",  # positional count (MemOS)
    }
)


def apply(module: cst.Module, diagnostics: list[Diagnostic], sites: dict) -> list[Diagnostic]:
    """`sites`: id(diagnostic) -> the call site it was found on."""
    if not diagnostics:
        return diagnostics
    kept = [d for d in diagnostics if not _elided(d, sites.get(id(d)))]
    kept = _without_other_release_fallbacks(module, diagnostics, kept, sites)
    candidates = {}
    units: set = set()  # the top-level statements the candidates' calls are in
    for d in kept:
        site = sites.get(id(d))
        if site is None or site.rest or d.severity is not Severity.ERROR:
            continue
        failure = failures.predicted(d.code, d.dialect)
        if failure is not None:
            candidates[id(d)] = (site.call, failure)
            units.add(d.unit[0] if d.unit is not None else None)
    if not candidates:
        return kept
    scan = _Scan(module, {id(call) for call, _ in candidates.values()}, units)
    return [d for d in kept if id(d) not in candidates or not scan.expects(*candidates[id(d)])]


# Elided arguments -------------------------------------------------------------------------------


def _is_ellipsis(node: Union[cst.CSTNode, None]) -> bool:
    return isinstance(node, cst.Ellipsis)


def _elided(diagnostic: Diagnostic, site) -> bool:
    if _is_ellipsis(diagnostic.node):
        return True  # the judged value is a placeholder (`user_id=...` still names a keyword)
    if site is None or site.rest:
        return False
    if diagnostic.code in ELIDED_RULES:
        return any(
            a.keyword is None and not a.star and _is_ellipsis(a.value) for a in site.call.args
        )
    return False


# Fallbacks for another release ------------------------------------------------------------------


def _without_other_release_fallbacks(
    module: cst.Module, diagnostics: list[Diagnostic], kept: list[Diagnostic], sites: dict
) -> list[Diagnostic]:
    """`kept` less the findings of release-bound rules (`Rule.versions`) on a fallback for
    another release: a call in an `except` clause whose `try` makes the same call (the same
    method on the same receiver) and nothing says that this call raises, at the release judged,
    what the clause catches. The clause then runs only on another release (or on a failure no
    rule predicts): `try: m.get_all(user_id=u)` / `except TypeError: m.get_all(filters=...)`
    is written for both sides of mem0ai 2.0, and neither side is wrong where it runs."""
    from mem0lint.rule import Rule

    fallbacks: dict[int, list[Diagnostic]] = {}  # id(call) -> its release-bound findings
    for d in kept:
        site = sites.get(id(d))
        if site is None or site.rest or site.outer is not None:
            continue  # a raw REST call, or one a wrapper makes: not a call as written
        if Rule.registry[d.code].versions:
            fallbacks.setdefault(id(site.call), []).append(d)
    if not fallbacks:
        return kept
    raising: dict[int, list[tuple[str, ...]]] = {}  # id(call) -> the failures predicted on it
    for d in diagnostics:
        site = sites.get(id(d))
        failure = failures.predicted(d.code, d.dialect) if d.severity is Severity.ERROR else None
        if site is not None and failure is not None:
            raising.setdefault(id(site.call), []).append(failure)
    scan: Union[_Scan, None] = None
    elided: set[int] = set()
    units = {d.unit[0] if d.unit else None for found in fallbacks.values() for d in found}
    roots = [module] if None in units else [module.body[i] for i in sorted(units)]
    for try_node, handler, calls in _handled_calls(roots, set(fallbacks)):
        tried = _calls_in(try_node.body)
        for call in calls:
            func = module.code_for_node(call.func)
            same = [c for c in tried if module.code_for_node(c.func) == func]
            if not same:
                continue
            if scan is None:
                scan = _Scan(module, set(), {None})
            handled = _CATCH_ALL if handler.type is None else scan.classes(handler.type)
            if not any(
                failures.covers(handled, failure)
                for c in same
                for failure in raising.get(id(c), ())
            ):
                elided.update(id(d) for d in fallbacks[id(call)])
    return [d for d in kept if id(d) not in elided]


def _handled_calls(roots: list[cst.CSTNode], wanted: set[int]):
    """(try, except clause, the wanted calls in the clause's body), for each clause under
    `roots` holding one (in its own body, not a nested `try`'s clause, function or lambda)."""
    stack: list[cst.CSTNode] = list(roots)
    while stack:
        node = stack.pop()
        if type(node) is cst.Try or type(node) is cst.TryStar:
            for handler in node.handlers:
                calls = [c for c in _calls_in(handler.body) if id(c) in wanted]
                if calls:
                    yield node, handler, calls
        # A `try` is a statement: only blocks and compound statements can hold one.
        stack.extend(c for c in walk_children(node) if type(c) in _HOLDS_COMPOUND)


def _calls_in(root: cst.CSTNode) -> list[cst.Call]:
    """The calls under `root`, outside functions, lambdas and nested `try` clauses."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        node_type = type(node)
        if node_type is cst.Call:
            found.append(node)
        if node_type in (cst.FunctionDef, cst.Lambda, cst.ExceptHandler, cst.ExceptStarHandler):
            continue
        stack.extend(walk_children(node))
    return found


# Expected failures ------------------------------------------------------------------------------


class _Scan:
    """One walk of the module: the imports, and the handlers around each wanted call."""

    def __init__(self, module: cst.Module, wanted: set[int], units: set) -> None:
        self.imports: dict[str, set[str]] = {}
        self.shadowed: set[str] = set()
        self.star = False
        # id(call) -> the handler expressions around it, innermost last: ("raises", expr)
        # for a pytest / unittest context manager, ("except", expr-or-None) for a try body.
        self.around: dict[int, tuple] = {}
        if None in units:
            self._walk([module], wanted)
            return
        # The statements the calls are in, whole; of the others, what binds module-level names
        # (imports, classes, assignments; `if` / `try` blocks around imports), not functions.
        self._walk([module.body[i] for i in sorted(units) if i < len(module.body)], wanted)
        others = []
        for index, statement in enumerate(module.body):
            if index in units:
                continue
            if type(statement) in _DEFINITIONS:
                self._bindings(statement)  # its name; its body does not run here
            else:
                others.append(statement)
        if wanted.issubset(self.around):
            self._walk_statements(others)  # what binds is a statement: no expression holds one
        else:  # a call judged outside its unit (a wrapper's): looked for everywhere, as ever
            self._walk(others, wanted)

    def _walk(self, roots: list[cst.CSTNode], wanted: set[int]) -> None:
        stack: list[tuple[cst.CSTNode, tuple]] = [(root, ()) for root in reversed(roots)]
        while stack:
            node, handlers = stack.pop()
            if id(node) in wanted:
                self.around[id(node)] = handlers
            node_type = type(node)
            if node_type in _BINDERS:
                self._bindings(node)
            children: list[tuple[cst.CSTNode, tuple]]
            if node_type is cst.With:
                inner = handlers + tuple(
                    ("raises", item.item) for item in node.items if type(item.item) is cst.Call
                )
                children = [(item, handlers) for item in node.items] + [(node.body, inner)]
            elif node_type is cst.Try or node_type is cst.TryStar:
                clauses = tuple(("except", h.type) for h in node.handlers)
                # `try: ... finally:` has no clause: it expects nothing (and adds no context).
                children = [(node.body, handlers + (clauses,) if clauses else handlers)]
                rest: list = [*node.handlers, node.orelse, node.finalbody]
                children += [(child, handlers) for child in rest if child is not None]
            elif node_type is cst.FunctionDef or node_type is cst.Lambda:
                children = [(child, ()) for child in walk_children(node)]  # not run here
            else:
                children = [(child, handlers) for child in walk_children(node)]
            stack.extend(reversed(children))

    def _walk_statements(self, roots: list[cst.CSTNode]) -> None:
        """`_walk`'s bindings under `roots` without entering an expression."""
        stack = list(roots)
        while stack:
            node = stack.pop()
            if type(node) in _BINDERS:
                self._bindings(node)
            stack.extend(c for c in walk_children(node) if type(c) in _HOLDS_BINDERS)

    def _bindings(self, node: cst.CSTNode) -> None:
        node_type = type(node)
        if node_type is cst.Import:
            for alias in node.names:
                dotted = _dotted(alias.name)
                if dotted is None:
                    continue
                if alias.asname is not None:
                    self._bind(_name_of(alias.asname.name), dotted)
                else:
                    head = dotted.split(".")[0]
                    self._bind(head, head)
        elif node_type is cst.ImportFrom:
            module = _dotted(node.module) if node.module is not None else None
            if node.relative or module is None:
                names = [] if isinstance(node.names, cst.ImportStar) else node.names
                for alias in names:
                    self.shadowed.add(_name_of((alias.asname or alias).name))
                return
            if isinstance(node.names, cst.ImportStar):
                self.star = True
                return
            for alias in node.names:
                name = _dotted(alias.name)
                local = _name_of(alias.asname.name) if alias.asname else name
                if name is not None and local is not None:
                    self._bind(local, f"{module}.{name}")
        elif node_type in _DEFINITIONS:
            self.shadowed.add(node.name.value)
        elif node_type in _TARGETS and type(node.target) is cst.Name:
            self.shadowed.add(node.target.value)

    def _bind(self, local: Union[str, None], qualified: str) -> None:
        if local is not None:
            self.imports.setdefault(local, set()).add(qualified)

    def qualified(self, expression: Union[cst.BaseExpression, None]) -> Union[str, None]:
        """`ValidationError` -> `mem0.exceptions.ValidationError`, through the imports."""
        dotted = _dotted(expression) if expression is not None else None
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in self.shadowed:
            return None
        bound = self.imports.get(head)
        if bound is not None:
            if len(bound) != 1:
                return None
            base = next(iter(bound))
        elif not self.star and head in _BUILTIN_NAMES and not rest:
            base = f"builtins.{head}"
        else:
            return None
        return f"{base}.{rest}" if rest else base

    def classes(self, expression: Union[cst.BaseExpression, None]) -> frozenset[str]:
        """The exception classes an `except` / `raises` argument names (unknown ones left out)."""
        if isinstance(expression, cst.Tuple):
            elements: Iterable = (e.value for e in expression.elements)
        else:
            elements = (expression,)
        found = (self.qualified(e) for e in elements)
        return frozenset(name for name in found if name is not None)

    def _raises_argument(self, call: cst.Call) -> Union[cst.BaseExpression, None]:
        """The expected-exception argument of `pytest.raises(...)` / `self.assertRaises(...)`."""
        func = call.func
        is_assert = isinstance(func, cst.Attribute) and func.attr.value in _ASSERT_RAISES
        if not is_assert and self.qualified(func) not in _PYTEST_RAISES:
            return None
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "expected_exception":
                return arg.value
        positional = [a for a in call.args if a.keyword is None and not a.star]
        return positional[0].value if positional else None

    def expects(self, call: cst.Call, failure: tuple[str, ...]) -> bool:
        for context in self.around.get(id(call), ()):
            if context[0] == "raises":
                argument = self._raises_argument(context[1])
                if argument is not None and failures.covers(self.classes(argument), failure):
                    return True
            else:  # the except clauses of one try
                for _, type_ in context:
                    handled = self.classes(type_) if type_ is not None else _CATCH_ALL
                    if not CATCH_ALL_TRY:
                        handled = handled - _CATCH_ALL
                    if failures.covers(handled, failure):
                        return True
        return False


def _name_of(node: cst.CSTNode) -> Union[str, None]:
    return node.value if isinstance(node, cst.Name) else None


def _dotted(node: Union[cst.CSTNode, None]) -> Union[str, None]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None
