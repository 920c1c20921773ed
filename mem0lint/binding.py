"""Which SDK does the receiver of a call belong to?

One pass over the module records, per scope, what every name is bound to (imports, assignments,
annotations, `with ... as`, parameters) and, per class, what `self.x` is set to. Resolution runs
afterwards, on demand, so a module global defined below the function that uses it still binds.

The pass walks statements in order (bind/flow.py): every call, assigned value and returned value
remembers the point it is at, and a name is resolved by the bindings that reach that point
(closures, functions reading module globals and `self.x`: by every binding). What a receiver may
be is a set of clients (bind/values.py): a union is judged only by what every member says
(bind/union.py). Anything that cannot be resolved (a parameter without annotation whose call
sites are not all known, a name rebound to something unknown, `getattr`) is unknown and never
judged. Unknown must stay silent: a false positive is a bug.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterator, Optional, Union

import libcst as cst

from mem0lint.bind import forward, instances, params, paths, values
from mem0lint.bind.flow import Env, Frame, Point, extend, isinstance_narrowing, join_envs
from mem0lint.bind.implicit import implicit_class
from mem0lint.bind.values import Value
from mem0lint.filtertree import str_value, string_value
from mem0lint.sdk.dialects import RESOLVABLE_CLASSES, Dialect
from mem0lint.sdk.mem0_async import MEM0_CLASS_NAMES
from mem0lint.walk import walk


@dataclass
class ClassInfo:
    node: cst.ClassDef
    # `self.x = ...` in any method and `x = ...` / `x: T` in the class body.
    attributes: dict[str, list[Binding]] = field(default_factory=dict)


class BindingKind(str, Enum):
    """How a name got its value (`Binding.kind`): a `str` enum, so `kind == "value"` holds."""

    IMPORT = "import"  # value: the dotted name
    VALUE = "value"  # value: an expression
    ANNOTATION = "annotation"  # value: a type expression
    ISINSTANCE = "isinstance"  # value: the types an `isinstance` check narrowed to
    SELF = "self"  # value: the ClassInfo
    CLASS = "class"  # value: the ClassInfo of a `class` statement
    FUNCTION = "function"  # value: the FunctionDef
    FIXTURE = "fixture"  # value: the parameter name (the pytest fixture it receives)
    PARAM = "param"  # value: (FunctionDef, parameter index)
    ITEM = "item"  # value: (sequence expression, index, length): unpacked from a tuple or list
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Binding:
    """One way a name gets its value; `kind` is one of `BindingKind` (see there for `value`)."""

    kind: BindingKind
    value: object = None
    # The scope the expression in `value` must be resolved in.
    scope: Union[Scope, None] = None


UNKNOWN = Binding("unknown")


@dataclass(eq=False)
class Scope:
    kind: str  # "module" | "class" | "function"
    parent: Union[Scope, None]
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    class_info: Union[ClassInfo, None] = None
    function: Union[cst.FunctionDef, None] = None
    # Names declared `global` here: assignments to them bind in the module scope.
    globals: set[str] = field(default_factory=set)
    # Statement order (bind/flow.py): the bindings reaching the statement being walked; names
    # an inner scope rebinds (`global`, `nonlocal`): resolved by every binding.
    env: Env = field(default_factory=dict)
    env_shared: bool = False  # a Point holds `env`: copy before changing it
    dynamic: set[str] = field(default_factory=set)
    observer: Optional[Callable[[Scope, str, Binding], None]] = None
    outer: Optional[Point] = None  # a comprehension's: the point it runs at

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)
        if self.observer is not None:
            self.observer(self, name, binding)

    def lookup(self, name: str) -> list[Binding]:
        owner = self.owner(name)
        return owner.bindings[name] if owner is not None else []

    def owner(self, name: str) -> Union[Scope, None]:
        """The scope whose binding of `name` a read here sees, by Python's rule: own scope, then
        enclosing functions and the module, never class bodies of enclosing scopes."""
        scope: Union[Scope, None] = self
        first = True
        while scope is not None:
            if (first or scope.kind != "class") and name in scope.bindings:
                return scope
            first = False
            scope = scope.parent
        return None


def _target_names(target: cst.BaseExpression) -> Iterator[cst.Name]:
    if isinstance(target, cst.Name):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_names(target.value)


class BindingCollector(cst.CSTVisitor):
    """Records bindings and every call together with the scope it appears in."""

    def __init__(self) -> None:
        self.module_scope = Scope("module", None, observer=self._bound)
        self._scopes: list[Scope] = [self.module_scope]
        # Documents: the block (region) being walked; id(binding) -> its block (see flow.py).
        self.block = 0
        self.blocks: Optional[dict[int, int]] = None
        self._frames: list[Frame] = []
        # id(returned or yielded expression) -> the point it is evaluated at.
        self.points: dict[int, Point] = {}
        # The blocks each name is spelled in, once per use (a function whose name appears only
        # in its `def` and as the callee of calls does not escape: its call sites are known).
        self.name_uses: dict[str, list[int]] = {}
        # A page or notebook: nothing imports it, so its functions' call sites are all here.
        self.closed = False
        # What the module was parsed from, when the caller has it (rules may search it for a
        # word before walking the tree for a name that spells it).
        self.source: Optional[Union[str, bytes]] = None
        self.calls: list[tuple[cst.Call, Scope]] = []
        # id(awaited expression) -> the Await node (a fix that drops a wrong `await` needs it).
        self.await_of: dict[int, cst.Await] = {}
        self.functions: dict[int, Scope] = {}  # id(FunctionDef) -> its scope
        self.returns: dict[int, list[cst.BaseExpression]] = {}
        self.yields: dict[int, list[cst.BaseExpression]] = {}
        # Module-level pytest fixtures: fixture name -> its function.
        self.fixtures: dict[str, cst.FunctionDef] = {}
        # Where each call is, for positions.py: (index of its top-level statement, index of
        # the member of a top-level class, or None). `unit` is set by the caller per statement.
        self.unit: tuple[int, int | None] = (0, None)
        self.call_units: dict[int, tuple[int, int | None]] = {}
        # Attribute paths on other objects than `self` (bind/paths.py): (root name, attributes)
        # -> [(root identity, binding)]; and the paths written through `[...]` or `setattr`.
        self.path_writes: dict[tuple[str, tuple[str, ...]], list] = {}
        self.path_poisoned: set[tuple[str, tuple[str, ...]]] = set()
        # Documents (bind/implicit.py): every name some scope binds, and whether `import *` is
        # used anywhere.
        self.bound_anywhere: set[str] = set()
        self.star_import = False

    @property
    def scope(self) -> Scope:
        return self._scopes[-1]

    # Statement order (bind/flow.py) -----------------------------------------------------------
    def start_block(self, block: int) -> None:
        """Documents: the statements walked from now on belong to region `block`."""
        self.block = block
        if self.blocks is None:
            self.blocks = {}

    def here(self) -> Point:
        """The current scope at the statement being walked."""
        scope = self.scope
        scope.env_shared = True
        point = Point(scope, scope.env, self.block, self.blocks, scope.outer)
        for frame in self._frames:
            if frame.scope is scope:
                frame.points.append(point)
        return point

    def end(self) -> Point:
        """The module as an importer sees it: the bindings that reach its end (names an inner
        scope rebinds through `global` stay flow-insensitive). For cross-module lookups."""
        scope = self.module_scope
        scope.env_shared = True
        return Point(scope, scope.env, self.block, self.blocks)

    def _bound(self, scope: Scope, name: str, binding: Binding) -> None:
        self.bound_anywhere.add(name)
        if self.blocks is not None:
            self.blocks[id(binding)] = self.block
        if scope is not self.scope:  # `global` / `nonlocal` from an inner scope
            scope.dynamic.add(name)
            return
        self._set(scope, name, (binding,))
        for frame in self._frames:
            if frame.scope is scope:
                frame.made.setdefault(name, []).append(binding)

    def _set(self, scope: Scope, name: str, bindings: tuple) -> None:
        if scope.env_shared:
            scope.env = dict(scope.env)
            scope.env_shared = False
        scope.env[name] = bindings

    def _replace_env(self, env: Env) -> None:
        scope = self.scope
        scope.env = env
        scope.env_shared = True  # may be shared with a saved entry state

    def _walk_framed(self, nodes) -> Frame:
        """Walk `nodes` (a loop or `try` body), recording the points made and what is bound."""
        frame = Frame(self.scope)
        self._frames.append(frame)
        try:
            for node in nodes:
                if node is not None:
                    walk(node, self)
        finally:
            self._frames.pop()
        return frame

    def visit_If(self, node: cst.If) -> bool:
        walk(node.test, self)
        entry = self.scope.env
        self.scope.env_shared = True
        narrowed = isinstance_narrowing(node.test)
        for name, types in narrowed:
            self._set(self.scope, name, (Binding("isinstance", types, self.here()),))
        walk(node.body, self)
        exits = [self.scope.env]
        self._replace_env(entry)
        if node.orelse is not None:
            walk(node.orelse, self)
        exits.append(self.scope.env)
        self._replace_env(join_envs(exits))
        return False

    def _loop(self, node: Union[cst.For, cst.While]) -> bool:
        entry = self.scope.env
        self.scope.env_shared = True
        if isinstance(node, cst.For):
            walk(node.iter, self)
            entry = self.scope.env
            self.scope.env_shared = True
            frame = Frame(self.scope)
            self._frames.append(frame)
            try:
                self._bind_target(node.target, None)
                walk(node.body, self)
            finally:
                self._frames.pop()
        else:
            frame = self._walk_framed([node.test, node.body])
        # The body runs again with what it bound: every point in it sees those bindings too.
        for point in frame.points:
            point.env = extend(point.env, frame.made)
        after = extend(self.scope.env, frame.made)
        self._replace_env(join_envs([entry, after]))
        if node.orelse is not None:
            walk(node.orelse, self)
        return False

    visit_For = visit_While = _loop

    def _try(self, node: Union[cst.Try, cst.TryStar]) -> bool:
        entry = self.scope.env
        self.scope.env_shared = True
        frame = self._walk_framed([node.body])
        after_body = self.scope.env
        # A handler starts wherever the body raised: from the entry or after any binding.
        raised = extend(join_envs([entry, after_body]), frame.made)
        if node.orelse is not None:
            walk(node.orelse, self)
        exits = [self.scope.env]
        for handler in node.handlers:
            self._replace_env(raised)
            walk(handler, self)
            exits.append(self.scope.env)
        self._replace_env(join_envs(exits))
        if node.finalbody is not None:
            walk(node.finalbody, self)
        return False

    visit_Try = visit_TryStar = _try

    def visit_Match(self, node: cst.Match) -> bool:
        walk(node.subject, self)
        entry = self.scope.env
        self.scope.env_shared = True
        exits = [entry]  # no case may match
        for case in node.cases:
            self._replace_env(entry)
            walk(case, self)
            exits.append(self.scope.env)
        self._replace_env(join_envs(exits))
        return False

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self._bind_target(node.name, None)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self._bind_target(node.name, None)

    # Scopes ---------------------------------------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        info = ClassInfo(node)
        self.scope.bind(node.name.value, Binding("class", info))
        self._scopes.append(Scope("class", self.scope, class_info=info, observer=self._bound))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        class_scope = self._scopes.pop()
        info = class_scope.class_info
        for name, bindings in class_scope.bindings.items():
            info.attributes.setdefault(name, []).extend(bindings)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        outer = self.scope
        if outer.kind == "class" and outer.parent is self.module_scope and outer.class_info:
            members = outer.class_info.node.body.body
            index = next((i for i, member in enumerate(members) if member is node), None)
            self.unit = (self.unit[0], index)
        outer.bind(node.name.value, Binding("function", node, outer))
        scope = Scope("function", outer, function=node)
        self.functions[id(node)] = scope
        self.returns[id(node)] = []
        self.yields[id(node)] = []
        params = [*node.params.posonly_params, *node.params.params]
        decorators = {
            d.decorator.value for d in node.decorators if isinstance(d.decorator, cst.Name)
        }
        first_is_instance = outer.kind == "class" and params and "staticmethod" not in decorators
        fixture_name = _fixture_name(node)
        if fixture_name is not None and outer.kind == "module":
            self.fixtures[fixture_name] = node
        # pytest passes fixtures by parameter name to tests and to other fixtures, except the
        # names a `parametrize` mark supplies.
        receives_fixtures = fixture_name is not None or node.name.value.startswith("test")
        parametrized = _parametrized_names(node) if receives_fixtures else set()
        # A plain function: not a method, not decorated, not a test or fixture.
        plain = outer.kind != "class" and not node.decorators and not receives_fixtures
        for index, param in enumerate(
            [*params, *node.params.kwonly_params]
            + [
                p
                for p in (node.params.star_arg, node.params.star_kwarg)
                if isinstance(p, cst.Param)
            ]
        ):
            if index == 0 and first_is_instance:
                scope.bind(param.name.value, Binding("self", outer.class_info))
            elif param.annotation is not None:
                scope.bind(
                    param.name.value, Binding("annotation", param.annotation.annotation, outer)
                )
            elif (
                receives_fixtures
                and param in params
                and param.default is None
                and param.name.value not in parametrized
                and "*" not in parametrized
            ):
                scope.bind(param.name.value, Binding("fixture", param.name.value))
            elif plain and param in params:
                # What every call site of this function passes (bind/params.py).
                scope.bind(param.name.value, Binding("param", (node, index), self.here()))
            else:
                scope.bind(param.name.value, UNKNOWN)
        scope.env = {name: tuple(bindings) for name, bindings in scope.bindings.items()}
        scope.observer = self._bound
        self._scopes.append(scope)

    def visit_Name(self, node: cst.Name) -> None:
        uses = self.name_uses.get(node.value)
        if uses is None:
            self.name_uses[node.value] = [self.block]
        else:
            uses.append(self.block)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._scopes.pop()
        if self.scope.kind == "class" and self.scope.parent is self.module_scope:
            self.unit = (self.unit[0], None)

    def visit_Lambda(self, node: cst.Lambda) -> None:
        scope = Scope("function", self.scope)
        params = node.params
        for param in [
            *params.posonly_params,
            *params.params,
            *params.kwonly_params,
            *(p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)),
        ]:
            scope.bind(param.name.value, UNKNOWN)
        scope.env = {name: tuple(bindings) for name, bindings in scope.bindings.items()}
        scope.observer = self._bound
        self._scopes.append(scope)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._scopes.pop()

    # Comprehension variables live in their own scope and must not make an outer name ambiguous.
    # It runs where it is written: names it does not bind are read at that point.
    def _enter_comprehension(self, node: cst.BaseExpression) -> None:
        outer = self.here()
        self._scopes.append(Scope("function", self.scope, observer=self._bound, outer=outer))

    def _leave_comprehension(self, original_node: cst.BaseExpression) -> None:
        self._scopes.pop()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _enter_comprehension
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _leave_comprehension

    def visit_Return(self, node: cst.Return) -> None:
        function = self.scope.function
        if function is not None and node.value is not None:
            self.returns[id(function)].append(node.value)
            self.points[id(node.value)] = self.here()

    def visit_Yield(self, node: cst.Yield) -> None:
        function = self.scope.function
        if function is not None:
            value = node.value
            value = value if isinstance(value, cst.BaseExpression) else cst.Name("None")
            self.yields[id(function)].append(value)
            self.points[id(value)] = self.here()

    # Bindings -------------------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.scope.bind(alias.asname.name.value, Binding("import", dotted))
            else:
                top = dotted.split(".", 1)[0]
                self.scope.bind(top, Binding("import", top))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            module = "." * len(node.relative) + (_dotted(node.module) if node.module else "")
        else:
            module = _dotted(node.module)
        if isinstance(node.names, cst.ImportStar):
            self.star_import = True
            return
        for alias in node.names:
            name = _dotted(alias.name)
            local = alias.asname.name.value if alias.asname is not None else name
            # `from . import x` -> ".x"; `from .m import x` -> ".m.x"
            joined = f"{module}{name}" if module.endswith(".") else f"{module}.{name}"
            self.scope.bind(local, Binding("import", joined))

    # Bound on leaving: the value is evaluated (its calls walked) before the name is rebound.
    def leave_Assign(self, original_node: cst.Assign) -> None:
        node = original_node
        for target in node.targets:
            self._bind_target(target.target, node.value)

    def leave_AnnAssign(self, original_node: cst.AnnAssign) -> None:
        node = original_node
        if node.value is not None:
            self._bind_target(node.target, node.value)
        else:
            self._bind_target(node.target, node.annotation.annotation, kind="annotation")

    def leave_AugAssign(self, original_node: cst.AugAssign) -> None:
        self._bind_target(original_node.target, None)

    def leave_NamedExpr(self, original_node: cst.NamedExpr) -> None:
        self._bind_target(original_node.target, original_node.value)

    def leave_WithItem(self, original_node: cst.WithItem) -> None:
        if original_node.asname is not None:
            self._bind_target(original_node.asname.name, original_node.item)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_target(node.target, None)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind_target(node.name.name, None)

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self.scope.globals.add(item.name.value)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        # Rebinding an enclosing function's name: too dynamic to follow, never judged.
        for item in node.names:
            self.scope.dynamic.add(item.name.value)
            self.scope.bind(item.name.value, UNKNOWN)
            if self.scope.parent is not None:
                self.scope.parent.bind(item.name.value, UNKNOWN)

    def _bind_target(
        self, target: cst.BaseExpression, value: cst.BaseExpression | None, kind: str = "value"
    ) -> None:
        binding = UNKNOWN if value is None else Binding(kind, value, self.here())
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            # self.x = ... inside a method: an attribute of the class.
            owner = self.scope.lookup(target.value.value)
            if len(owner) == 1 and owner[0].kind == "self":
                owner[0].value.attributes.setdefault(target.attr.value, []).append(binding)
                return
        if isinstance(target, cst.Attribute):
            self._bind_path(target, binding)  # `st.session_state.memory = ...` (bind/paths.py)
            return
        if isinstance(target, cst.Name):
            scope = self.module_scope if target.value in self.scope.globals else self.scope
            scope.bind(target.value, binding)
            return
        if isinstance(target, (cst.Tuple, cst.List)) and value is not None and kind == "value":
            elements = [e.value for e in target.elements]
            if not any(isinstance(e, cst.StarredElement) for e in target.elements):
                if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(
                    elements
                ):
                    if not any(isinstance(e, cst.StarredElement) for e in value.elements):
                        for element, item in zip(elements, value.elements):
                            self._bind_target(element, item.value)
                        return
                elif isinstance(value, (cst.Call, cst.Await)):
                    # `client, config = make()`: the item of what the factory returns.
                    for index, element in enumerate(elements):
                        if isinstance(element, cst.Name):
                            item = Binding("item", (value, index, len(elements)), self.here())
                            self._bind_name(element, item)
                        else:
                            self._bind_target(element, None)
                    return
        for name in _target_names(target):  # tuple unpacking: value unknown
            self.scope.bind(name.value, UNKNOWN)

    def _bind_name(self, target: cst.Name, binding: Binding) -> None:
        scope = self.module_scope if target.value in self.scope.globals else self.scope
        scope.bind(target.value, binding)

    # A dict literal changed after it is bound (`f["k"] = v`, `del f["k"]`, `f.update(...)`) no
    # longer says what the name holds: record an unknown binding so it is not followed. Only for
    # names bound here to a dict literal, so `memory.update(...)` on a client changes nothing.
    def _mutated(self, target: cst.BaseExpression) -> None:
        if not isinstance(target, cst.Name):
            return
        bindings = self.scope.bindings.get(target.value, [])
        if any(b.kind == "value" and isinstance(b.value, cst.Dict) for b in bindings):
            self.scope.bind(target.value, UNKNOWN)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Subscript):
            self._mutated(node.target.value)
            paths.poison_subscript(self, node.target.value)

    def _bind_path(self, target: cst.Attribute, binding: Binding) -> None:
        paths.bind(self, target, binding)

    def visit_Del(self, node: cst.Del) -> None:
        for target in _subscript_targets(node.target):
            self._mutated(target.value)
            paths.poison_subscript(self, target.value)

    # Calls ----------------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append((node, self.here()))
        self.call_units[id(node)] = self.unit
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in DICT_MUTATORS:
            self._mutated(func.value)
            paths.poison_subscript(self, func.value)
        paths.poison_setattr(self, node)

    def visit_Await(self, node: cst.Await) -> None:
        self.await_of[id(node.expression)] = node


DICT_MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__"})


def _subscript_targets(target: cst.BaseExpression) -> Iterator[cst.Subscript]:
    if isinstance(target, cst.Subscript):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _subscript_targets(element.value)


def _fixture_name(node: cst.FunctionDef) -> str | None:
    """The name pytest knows a fixture by (`@pytest.fixture(name="x")` renames it), or None."""
    for decorator in node.decorators:
        expr = decorator.decorator
        call = expr if isinstance(expr, cst.Call) else None
        target = call.func if call is not None else expr
        if _dotted(target).rsplit(".", 1)[-1] != "fixture":
            continue
        for arg in call.args if call is not None else ():
            if arg.keyword is not None and arg.keyword.value == "name":
                value = arg.value
                return str_value(value) if isinstance(value, cst.SimpleString) else None
        return node.name.value
    return None


def _parametrized_names(node: cst.FunctionDef) -> set[str]:
    """Argument names given by `@pytest.mark.parametrize("a, b", ...)` (unknown names: all)."""
    names: set[str] = set()
    for decorator in node.decorators:
        expr = decorator.decorator
        if not isinstance(expr, cst.Call) or not _dotted(expr.func).endswith("parametrize"):
            continue
        first = expr.args[0].value if expr.args else None
        spelled = str_value(first) if isinstance(first, cst.SimpleString) else None
        if spelled is not None:
            names.update(n.strip() for n in spelled.split(","))
        elif isinstance(first, (cst.List, cst.Tuple)):
            for element in first.elements:
                value = element.value
                name = str_value(value) if isinstance(value, cst.SimpleString) else None
                if name is not None:
                    names.add(name)
        else:
            names.add("*")  # cannot tell which parameters it supplies
    return names


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


class Resolver:
    """Answers "which dialect is this expression?" from the collected bindings.

    The answers are values (bind/values.py): a set of dialects (a union) or unknown. `dialect_of`
    and friends keep their old meaning: one dialect, or None for anything else.
    """

    MAX_DEPTH = 20

    def __init__(
        self,
        collector: BindingCollector,
        project: Optional[ProjectLookup] = None,
        classes: bool = False,
    ):
        self.collector = collector
        # Class mode (`classes_of`): a value holds client classes (`AsyncMemoryClient`, ...)
        # instead of dialect ids; what only a dialect is known of (configuration, other
        # modules of the project) is unknown there, and annotations are no evidence (a client
        # annotated `MemoryClient` but given an `AsyncMemoryClient` is a wrong annotation).
        self._classes = classes
        self._class_resolver: Optional[Resolver] = None
        # Configured knowledge: receiver names and dotted factory names -> dialect.
        self.external: dict[str, Dialect] = {}
        # What other modules of the same project define (None: this file alone).
        self.project = project
        # The value of each list of bindings, once computed (several names and branches share
        # them: without this a chain of `if`s is exponential). A list being computed that is met
        # again is a cycle (a loop's `c = c if x else c`): it adds nothing (the least fixpoint).
        # A result that met a cycle or the depth limit is not kept: it depends on where it began.
        self._memo: dict[tuple, Value] = {}
        self._active: set[tuple] = set()
        self._partial = 0  # cycles met and depth limits hit so far

    # Client classes (async or sync) ----------------------------------------------------------
    def classes_of(self, expr: cst.BaseExpression, scope: Scope) -> Value:
        """The client classes a receiver may be (`"AsyncMemoryClient"`, `"Memory"`; other SDKs'
        classes by qualified name), or None: the same resolution as `receiver_value`, by a
        resolver of its own, so the dialect answers (and every rule's findings) stay as they are.
        """
        if self._classes:
            return self.receiver_value(expr, scope)
        if self._class_resolver is None:
            self._class_resolver = Resolver(self.collector, self.project, classes=True)
            self._class_resolver.external = self.external
        return self._class_resolver.receiver_value(expr, scope)

    def _class_value(self, qualified: str) -> Value:
        """The value of an instance of a known class."""
        if self._classes:
            return frozenset({MEM0_CLASS_NAMES.get(qualified, qualified)})
        return values.of(RESOLVABLE_CLASSES[qualified])

    def _dialect_value(self, dialect: Optional[Dialect]) -> Value:
        """The value of an object only its dialect is known of (unknown in class mode)."""
        if self._classes:
            return None
        return values.of(dialect)

    # Knowledge from outside this file ----------------------------------------------------------
    def _imported_object(self, dotted: str) -> Dialect | None:
        """The dialect of the object a dotted name (an import, `mod.attr`) refers to."""
        if dotted in self.external:
            return self.external[dotted]
        if self.project is None:
            return None
        return self.project.instance(self.project.absolute(dotted))

    def _imported_callable(self, dotted: str) -> Dialect | None:
        """The dialect of what calling the dotted name returns (a factory, a re-exported class)."""
        if dotted in self.external:
            return self.external[dotted]
        if self.project is None:
            return None
        return self.project.returns(self.project.absolute(dotted))

    def dialect_of_fixture(self, name: str, depth: int = 0) -> Dialect | None:
        return values.only(self._value_of_fixture(name, depth))

    def _value_of_fixture(self, name: str, depth: int = 0) -> Value:
        """The client a pytest fixture provides: this module's fixture, else a conftest's."""
        function = self.collector.fixtures.get(name)
        if function is not None:
            return self._value_of_function(
                function, self.collector.module_scope, depth, fixture=True
            )
        return self._dialect_value(self.project.fixture(name)) if self.project is not None else None

    def qualified_name(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> str | None:
        """`MC` -> "mem0.MemoryClient" after `from mem0 import MemoryClient as MC`."""
        if depth > self.MAX_DEPTH:
            return None
        if isinstance(expr, cst.Name):
            # The same import repeated (two Markdown blocks, two cells) is one binding; a `None`
            # fallback (`except ImportError: Memory = None`) is no other class.
            bindings = [b for b in scope.lookup(expr.value) if not _is_none_value(b)]
            if bindings and all(b.kind == "import" for b in bindings):
                first = bindings[0].value
                if all(b.value == first for b in bindings):
                    return first
            return None
        if isinstance(expr, cst.Attribute):
            base = self.qualified_name(expr.value, scope, depth + 1)
            return f"{base}.{expr.attr.value}" if base else None
        return None

    def receiver_dialect(self, expr: cst.BaseExpression, scope: Scope) -> Dialect | None:
        return values.only(self.receiver_value(expr, scope))

    def receiver_value(self, expr: cst.BaseExpression, scope: Scope) -> Value:
        """The value of a call's receiver: from its bindings, else from configuration naming
        the receiver as written (`memory`, `self.memory`) where binding cannot see it (DI)."""
        found = self.value_of(expr, scope)
        if found is None and isinstance(expr, (cst.Name, cst.Attribute)):
            found = self._dialect_value(self.external.get(_dotted(expr)))
        return found

    def dialect_of(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Dialect | None:
        """The dialect of the client object `expr` evaluates to, or None if not certain."""
        return values.only(self.value_of(expr, scope, depth))

    def value_of(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Value:
        """The clients `expr` may evaluate to (a union), or None (unknown)."""
        if depth > self.MAX_DEPTH:
            self._partial += 1
            return None
        if isinstance(expr, cst.Await):
            return self.value_of(expr.expression, scope, depth + 1)
        if isinstance(expr, cst.Call):
            return self._value_of_call(expr, scope, depth + 1)
        if isinstance(expr, cst.Name):
            return self._value_of_bindings(scope.lookup(expr.value), depth + 1)
        if isinstance(expr, cst.Attribute):
            if isinstance(expr.value, cst.Name):
                owner = scope.lookup(expr.value.value)
                if len(owner) == 1 and owner[0].kind == "self":
                    attributes = owner[0].value.attributes.get(expr.attr.value, [])
                    if isinstance(scope, Point):
                        attributes = scope.visible(attributes)
                    return self.value_of_attribute_bindings(attributes, depth + 1)
            found = paths.value_of_path(self, expr, scope, depth + 1)
            if found is not paths.NO_WRITES:
                return found
            found = instances.value_of_attribute(self, expr, scope, depth + 1)
            if found is not instances.NOT_AN_INSTANCE:
                return found
            name = self.qualified_name(expr, scope)
            return self._dialect_value(self._imported_object(name)) if name else None
        if isinstance(expr, cst.IfExp):
            return values.join(
                [self.value_of(e, scope, depth + 1) for e in (expr.body, expr.orelse)]
            )
        return None

    def dialect_of_annotation(
        self, expr: cst.BaseExpression, scope: Scope, depth: int = 0
    ) -> Dialect | None:
        return values.only(self.value_of_annotation(expr, scope, depth))

    def value_of_annotation(self, expr: cst.BaseExpression, scope: Scope, depth: int = 0) -> Value:
        """`MemoryClient`, `Optional[MemoryClient]`, `MemoryClient | None`, `"MemoryClient"`,
        `Union[MemoryClient, Memory]` (a union)."""
        if depth > self.MAX_DEPTH:
            self._partial += 1
            return None
        if isinstance(expr, cst.SimpleString):
            try:
                parsed = cst.parse_expression(string_value(expr))
            except (cst.ParserSyntaxError, TypeError, ValueError):
                return None
            return self.value_of_annotation(parsed, scope, depth + 1)
        members = _union_members(expr, lambda base: self.qualified_name(base, scope))
        if members is not None:
            return self._join_ignoring_none(members, scope, depth)
        if isinstance(expr, cst.Subscript):
            return None
        if isinstance(expr, cst.Tuple):  # isinstance(x, (A, B))
            items = [e.value for e in expr.elements if not isinstance(e, cst.StarredElement)]
            if len(items) != len(expr.elements):
                return None
            return self._join_ignoring_none(items, scope, depth)
        name = self.qualified_name(expr, scope)
        if name is None:
            return None
        # A class re-exported by another module of the project: calling it gives an instance.
        if name in RESOLVABLE_CLASSES:
            return self._class_value(name)
        return self._dialect_value(self._imported_callable(name))

    def _join_ignoring_none(self, items, scope: Scope, depth: int) -> Value:
        kept = [i for i in items if not (isinstance(i, cst.Name) and i.value == "None")]
        return values.join_bound([self.value_of_annotation(i, scope, depth + 1) for i in kept])

    def _value_of_call(self, call: cst.Call, scope: Scope, depth: int) -> Value:
        func = call.func
        name = self.qualified_name(func, scope)
        made = forward.forwarded(call, scope, self, name)  # `to_thread(Memory.from_config, c)`
        if made is not None:
            return self._value_of_call(made, scope, depth + 1)
        if name is not None:
            if name in RESOLVABLE_CLASSES:
                return self._class_value(name)
            owner, _, attr = name.rpartition(".")
            if owner in RESOLVABLE_CLASSES and attr in RESOLVABLE_CLASSES[owner].factories:
                return self._class_value(owner)
            found = self._imported_callable(name)  # a factory known from the project or config
            if found is not None:
                return self._dialect_value(found)
        if name is None:
            implicit = implicit_class(self.collector, func, scope)  # docs (bind/implicit.py)
            if implicit is not None:
                return self._class_value(implicit)
        if isinstance(func, cst.Name):
            return self._value_of_bindings(
                [b for b in scope.lookup(func.value) if b.kind == "function"] or [UNKNOWN],
                depth,
                returned=True,
            )
        methods = self._own_methods(func, scope)
        if methods:
            return self._value_of_bindings(methods, depth, returned=True)
        return None

    @staticmethod
    def _own_methods(func: cst.BaseExpression, scope: Scope) -> list[Binding]:
        """`self.make()`: the class's own `def make` (every binding of the name in the class is
        one, undecorated or a static or class method); [] when not certain. A subclass may
        override it, as it may reassign any `self.x` this resolver reads from the class."""
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return []
        owner = scope.lookup(func.value.value)
        if len(owner) != 1 or owner[0].kind != "self":
            return []
        members = owner[0].value.attributes.get(func.attr.value, [])
        plain = {"staticmethod", "classmethod"}
        for member in members:
            if member.kind != "function" or any(
                not (isinstance(d.decorator, cst.Name) and d.decorator.value in plain)
                for d in member.value.decorators
            ):
                return []
        return members

    def value_of_attribute_bindings(self, bindings: list[Binding], depth: int) -> Value:
        """The value read as an instance's attribute bound by `bindings` (the class's writes):
        a getter (`@property`, `@cached_property`) gives what it returns, as calling it would
        (`return self._memory` after a lazy `self._memory = Memory.from_config(...)`)."""
        getters = [b for b in bindings if _is_getter(b)]
        if not getters:
            return self._value_of_bindings(bindings, depth)
        others = [b for b in bindings if not _is_getter(b)]
        found = [self._value_of_function(b.value, b.scope, depth) for b in getters]
        if others:
            found.append(self._value_of_bindings(others, depth))
        if any(value is None for value in found):
            return None
        return values.join_bound(found)

    def _value_of_bindings(
        self, bindings: list[Binding], depth: int, returned: bool = False
    ) -> Value:
        key = (returned, *map(id, bindings))
        if key in self._memo:
            return self._memo[key]
        if key in self._active:
            self._partial += 1
            return values.NOTHING
        self._active.add(key)
        partial = self._partial
        try:
            found = self._join_bindings(bindings, depth, returned)
        finally:
            self._active.discard(key)
        if self._partial == partial:
            self._memo[key] = found
        return found

    def _join_bindings(self, bindings: list[Binding], depth: int, returned: bool) -> Value:
        found: list[Value] = []
        for binding in bindings:
            if binding.kind == "value":
                if isinstance(binding.value, cst.Name) and binding.value.value == "None":
                    continue  # `client = None` placeholders do not make a name ambiguous
                found.append(self.value_of(binding.value, binding.scope, depth + 1))
            elif binding.kind in ("annotation", "isinstance"):
                if self._classes and binding.kind == "annotation":
                    # An annotation says which client the author believes it is; whether it
                    # is the async or the sync class is what the class mode must not believe.
                    continue
                found.append(self.value_of_annotation(binding.value, binding.scope, depth + 1))
            elif binding.kind == "import":
                found.append(self._dialect_value(self._imported_object(binding.value)))
            elif binding.kind == "fixture":
                found.append(self._value_of_fixture(binding.value, depth + 1))
            elif binding.kind == "function" and returned:
                found.append(self._value_of_function(binding.value, binding.scope, depth))
            elif binding.kind == "item":
                found.append(self._value_of_item(binding, depth + 1))
            elif binding.kind == "param":
                found.append(params.value_of_param(self, binding, depth + 1))
            else:
                return None
            if found[-1] is None:
                return None
        return values.join_bound(found)

    def _value_of_item(self, binding: Binding, depth: int) -> Value:
        """`client, config = make()`: item `index` of every tuple a local `make` returns."""
        value, index, count = binding.value
        call = value.expression if isinstance(value, cst.Await) else value
        if depth > self.MAX_DEPTH:
            self._partial += 1
            return None
        if not isinstance(call, cst.Call):
            return None
        if not isinstance(call.func, cst.Name):
            return None
        functions = [b for b in binding.scope.lookup(call.func.value) if b.kind == "function"]
        if not functions or len(functions) != len(binding.scope.lookup(call.func.value)):
            return None
        found: list[Value] = []
        for function_binding in functions:
            function = function_binding.value
            inner = self.collector.functions.get(id(function))
            returned = self.collector.returns.get(id(function), [])
            if inner is None or not returned or self.collector.yields.get(id(function)):
                return None
            for expr in returned:
                if not isinstance(expr, cst.Tuple) or len(expr.elements) != count:
                    return None
                if any(isinstance(e, cst.StarredElement) for e in expr.elements):
                    return None
                point = self.collector.points.get(id(expr), inner)
                found.append(self.value_of(expr.elements[index].value, point, depth + 1))
        return values.join_bound(found)

    def _value_of_function(
        self, function: cst.FunctionDef, outer: Scope, depth: int, fixture: bool = False
    ) -> Value:
        """A local factory: `def get_client() -> MemoryClient` or one returning a client.

        For a pytest fixture, what it yields counts as what it returns (`yield client`).
        """
        yields = self.collector.yields.get(id(function), [])
        if yields and not fixture:
            return None  # a generator function returns a generator, not a client
        if (
            function.returns is not None
            and not self._classes
            and not self._says_nothing(function.returns.annotation, outer)
        ):  # (class mode: what it returns)
            annotation = function.returns.annotation
            if yields:
                annotation = _generator_item(annotation)
            if annotation is None:
                return None
            return self.value_of_annotation(annotation, outer, depth + 1)
        inner = self.collector.functions.get(id(function))
        returned = [*self.collector.returns.get(id(function), []), *yields]
        if inner is None or not returned:
            return None
        points = self.collector.points
        # `return None` (a failed set-up): a call on None raises before it is made, so only the
        # client the other returns give can take the call (like `client = None` placeholders).
        returned = [v for v in returned if not (isinstance(v, cst.Name) and v.value == "None")]
        return values.join_bound(
            [self.value_of(v, points.get(id(v), inner), depth + 1) for v in returned]
        )

    def _says_nothing(self, annotation: cst.BaseExpression, scope: Scope) -> bool:
        """`-> Any`, `-> Optional[Any]`, `-> Any | None`: the annotation tells nothing (a `None`
        it allows is what a failed set-up returns, which no call is made on); what the function
        returns does."""
        if isinstance(annotation, cst.SimpleString):
            try:
                annotation = cst.parse_expression(string_value(annotation))
            except (cst.ParserSyntaxError, TypeError, ValueError):
                return False
        members = _union_members(annotation, lambda base: self.qualified_name(base, scope))
        if members is not None:
            kept = [m for m in members if not (isinstance(m, cst.Name) and m.value == "None")]
            return bool(kept) and all(self._says_nothing(m, scope) for m in kept)
        return self.qualified_name(annotation, scope) in _ANY


_ANY = frozenset({"typing.Any", "typing_extensions.Any"})


# The decorators that make a method a getter: reading the attribute calls it.
_GETTERS = frozenset({"property", "cached_property", "functools.cached_property"})


def _is_getter(binding: Binding) -> bool:
    """A method decorated with nothing but `@property` (or `@cached_property`)."""
    function = binding.value
    if binding.kind != "function" or not isinstance(function, cst.FunctionDef):
        return False
    return len(function.decorators) == 1 and _dotted(function.decorators[0].decorator) in _GETTERS


def _union_members(
    annotation: cst.BaseExpression, qualified: Callable[[cst.BaseExpression], str | None]
) -> list[cst.BaseExpression] | None:
    """The members of `A | B`, `Optional[A]` or `Union[A, B]`; None for any other annotation."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        return [annotation.left, annotation.right]
    if isinstance(annotation, cst.Subscript):
        base = qualified(annotation.value) or _dotted(annotation.value)
        if base.rsplit(".", 1)[-1] in {"Optional", "Union"}:
            return [el.slice.value for el in annotation.slice if isinstance(el.slice, cst.Index)]
    return None


def _is_none_value(binding: Binding) -> bool:
    value = binding.value
    return binding.kind == "value" and isinstance(value, cst.Name) and value.value == "None"


def _generator_item(annotation: cst.BaseExpression) -> cst.BaseExpression | None:
    """`Iterator[X]`, `Generator[X, None, None]`, `AsyncIterator[X]` -> X."""
    if not isinstance(annotation, cst.Subscript):
        return None
    base = _dotted(annotation.value).rsplit(".", 1)[-1]
    if base not in {"Iterator", "Iterable", "Generator", "AsyncIterator", "AsyncGenerator"}:
        return None
    first = annotation.slice[0].slice if annotation.slice else None
    return first.value if isinstance(first, cst.Index) else None


class ProjectLookup:
    """What the resolver may ask about the rest of the project (see `mem0lint.project`)."""

    def absolute(self, dotted: str) -> str:
        """A dotted name from an import in this file, relative imports made absolute."""
        raise NotImplementedError

    def instance(self, dotted: str) -> Dialect | None:
        """The dialect of the client object `pkg.module.name` is bound to, if certain."""
        raise NotImplementedError

    def returns(self, dotted: str) -> Dialect | None:
        """The dialect of the client that calling `pkg.module.name` returns, if certain."""
        raise NotImplementedError

    def fixture(self, name: str) -> Dialect | None:
        """The dialect of the client a pytest fixture from a `conftest.py` above provides."""
        raise NotImplementedError

    def top_level_names(self) -> frozenset[str]:
        """The top-level names of the project's modules (`app` for `app.deps`)."""
        raise NotImplementedError
