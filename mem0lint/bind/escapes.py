"""May a dict literal bound to a name be changed before a call reads it?

Rules read `filters=f`, `from_config(config)` and `add(..., metadata=m)` through `f = {...}` and
judge the literal. binding.py makes the name unknown at the plain writes (`f["k"] = v`,
`del f["k"]`, `f.update(...)`); this module answers for the other ways code changes the dict, read
from every spelling of the name where it is bound (nested functions included: a closure or a
function using a module's dict may change it too):

- a write deeper in: `f["AND"].append(...)`, `f["AND"][0]["user_id"] = u`, `f["AND"] += [...]`;
- a second name for it or for a part of it: `g = f`, `conds = f["AND"]`, `for c in f["AND"]`,
  `self.f = f`, `[f]`, `f or {}` bound to a name, a shallow copy (`dict(f)`, `f.copy()`) kept;
- a call it or a part of it is passed to (`add_user(f, u)`), except the call being judged, a
  call spelled as one of the SDKs' (`client.get_all(filters=f)`, `Memory.from_config(f)`: judged
  on its own) and callees that do not change an argument (`print`, `len`, logging, `json.dumps`,
  `deepcopy`);
- `return f` of a module's dict (the caller may change it).

A read is not a change: `f.get("k")`, `"k" in f`, `len(f["AND"])`, `f"{f}"`, `if f:`. Anything
not recognised as a read is taken for a change (the literal is then not followed: silence).

`keyed_writes` answers a narrower question, for a rule claiming a key is present (MEM149): when
the only changes of the dict's own keys are `f["key"] = value` statements of the body it is
bound in, the keys they may add before the call (bind/spread.py's flow of written keys).
"""

from __future__ import annotations

from typing import Union

import libcst as cst

from mem0lint.sdk.dialects import CALL_METHODS, CLASS_DIALECT
from mem0lint.walk import children, parents_within

# Methods of a dict (or of a list inside it) that change nothing and return a part of it, or a
# shallow copy sharing its parts: what is done with the result decides.
_PART_METHODS = frozenset({"get", "values", "items", "copy", "__getitem__"})
# Methods that change nothing and return nothing of it.
_READ_METHODS = frozenset({"keys", "count", "index", "__contains__", "__len__"})
# Builtins that read an argument and return nothing of it.
_READING_FUNCTIONS = frozenset(
    {"print", "len", "str", "repr", "bool", "isinstance", "type", "id", "hash", "hasattr"}
)
# Builtins whose result holds the argument's parts (a new list of the same dicts, ...).
_PART_FUNCTIONS = frozenset({"list", "tuple", "set", "sorted", "dict", "reversed", "iter"})
# Methods, on any receiver, that read an argument: logging, `json.dumps`, `copy.deepcopy`.
_READING_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "dumps"}
    | {"deepcopy"}
)
# Where a value is only read: tested, compared, formatted, or a statement of its own.
_READ_PARENTS = (
    cst.Comparison,
    cst.ComparisonTarget,
    cst.If,
    cst.While,
    cst.UnaryOperation,
    cst.FormattedStringExpression,
    cst.Expr,
    cst.Index,
    cst.Assert,
)
# Where a name itself binds (or unbinds) rather than reads: binding.py records those bindings.
_BINDING_PARENTS = (
    cst.Param,
    cst.FunctionDef,
    cst.ClassDef,
    cst.ImportAlias,
    cst.AsName,
    cst.NameItem,
    cst.Del,
)
# Where it binds only as the target (`f = ...`, `for f in ...`), and reads elsewhere.
_TARGET_PARENTS = (
    cst.AssignTarget,
    cst.AnnAssign,
    cst.AugAssign,
    cst.For,
    cst.CompFor,
    cst.NamedExpr,
)


def changed(collector, scope, name: str, calls: set[int], deep: bool = True) -> bool:
    """May the dict literal `name` is bound to in `scope` (its only binding) be changed, or read
    through another name, other than by the calls whose ids are `calls` (the call judged)?
    `deep`: a change inside it counts (a filter's conditions); False: only a change of its own
    keys and values does (a config's `"version"`: `config["llm"]["config"]["x"] = 1` does not)."""
    root = _root(collector, scope)
    if root is None:
        return True
    kept = collector.__dict__.setdefault("_escapes", {})
    key = (id(root), name)
    uses = kept.get(key)
    if uses is None:
        parents = _parents_of(collector, root)
        uses = kept[key] = _uses(parents, root, name, isinstance(root, cst.Module))
    return any((deep or depth == 0) and call not in calls for depth, call in uses)


def changed_inside(function: cst.FunctionDef, name: str, copies: set[int]) -> bool:
    """May a value inside the dict `name` holds in `function` be changed, or given another name
    (`params["filters"]["AND"].append(...)`)? For bind/spread.py, which reads every use of the
    dict's own keys itself, and checks the copies whose ids are `copies` (`kw = dict(params)`)
    as dicts of their own."""
    parents = parents_within(function)
    uses = _uses(parents, function, name, module_level=False)
    return any(depth >= 1 and call not in copies for depth, call in uses)


def keyed_writes(
    collector, scope, name: str, call: cst.Call
) -> Union[list[tuple[str, cst.BaseExpression]], None]:
    """The keys a dict literal bound to `name` may get, before `call` reads it, from writes of
    its own keys all spelled `name["key"] = value` (a string literal key, one target) in the
    body it is bound in, as (key, value) for every such write of a key that reaches `call` on
    some path (bind/spread.py `written_before`); None when anything else may change its own keys
    (`del`, `.update(...)`, a write in a nested function, another name for it, a call it is
    passed to). For a claim that a key is present (MEM149: a key `MemoryConfig` drops), not
    that one is absent."""
    from mem0lint.bind.spread import constant_key, written_before  # spread.py reads this module

    root = _root(collector, scope)
    if root is None:
        return None
    values = [b for b in scope.bindings.get(name, []) if b.kind == "value"]
    if len(values) != 1 or not isinstance(values[0].value, cst.Dict):
        return None
    parents = _parents_of(collector, root)
    writes = []
    for node in _spellings(root, name):
        parent = parents.get(id(node))
        if _not_a_read(node, parent):
            continue
        use = _use(node, parents, isinstance(root, cst.Module))
        if use is None or use[0] > 0 or use[1] == id(call):
            continue  # a read, a change deeper in, or the call itself
        target = parents.get(id(parent))
        assign = parents.get(id(target))
        key = constant_key(parent) if isinstance(parent, cst.Subscript) else None
        if (
            key is None
            or not isinstance(target, cst.AssignTarget)
            or not isinstance(assign, cst.Assign)
            or len(assign.targets) != 1
            or _in_nested_function(assign, parents, root)
        ):
            return None
        writes.append((key, assign.value))
    flow = written_before(root, name, call)
    if flow is None:
        return None
    reaching, _ = flow
    return [(key, value) for key, value in writes if key in reaching]


def _in_nested_function(node: cst.CSTNode, parents, root: cst.CSTNode) -> bool:
    """Is `node` inside a function (or class) defined under `root`?"""
    node = parents.get(id(node))
    while node is not None and node is not root:
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return True
        node = parents.get(id(node))
    return False


def _root(collector, scope) -> Union[cst.Module, cst.FunctionDef, None]:
    if scope.kind == "module":
        return getattr(collector, "module", None)
    if scope.kind == "function" and scope.function is not None and scope.outer is None:
        return scope.function
    return None  # a class body: not followed


def _parents_of(collector, root: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """`parents_within(root)`, once per lint (a module has many calls reading its dicts)."""
    kept = collector.__dict__.setdefault("_escape_parents", {})
    parents = kept.get(id(root))
    if parents is None:
        parents = kept[id(root)] = parents_within(root)
    return parents


def _uses(
    parents: dict[int, cst.CSTNode], root: cst.CSTNode, name: str, module_level: bool
) -> list[tuple[int, Union[int, None]]]:
    """Each use that may change the dict: (how deep in it the object changed, given another
    name or passed on is: 0 the dict itself, 1 a value of it, ...; the id of the call it is
    passed to, None for anything else)."""
    found = []
    for node in _spellings(root, name):
        if not _not_a_read(node, parents.get(id(node))):
            use = _use(node, parents, module_level)
            if use is not None:
                found.append(use)
    return found


def _spellings(root: cst.CSTNode, name: str) -> list[cst.Name]:
    """The `Name` nodes spelling `name` under `root`, less those of a nested function that binds
    a `name` of its own (a parameter, or an assignment without `global`/`nonlocal`)."""
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if type(node) is cst.Name and node.value == name:
            found.append(node)
        elif (
            node is not root
            and type(node) in (cst.FunctionDef, cst.Lambda)
            and _binds_its_own(node, name)
        ):
            continue
        stack.extend(children(node))
    return found


def _binds_its_own(function: Union[cst.FunctionDef, cst.Lambda], name: str) -> bool:
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    every += [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    if any(p.name.value == name for p in every):
        return True
    if isinstance(function, cst.Lambda):
        return False
    binds = shared = False
    stack = list(children(function.body))
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Global, cst.Nonlocal)):
            shared = shared or any(item.name.value == name for item in node.names)
        elif isinstance(node, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For)):
            binds = binds or (isinstance(node.target, cst.Name) and node.target.value == name)
        if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue  # their bindings are their own
        stack.extend(children(node))
    return binds and not shared


def _sdk_call(func: cst.BaseExpression) -> bool:
    """`client.search(...)`, `Memory.from_config(...)`, `MemoryClient(...)`: by its spelling, a
    method of the SDKs' surface or an SDK class (where the receiver is not known yet)."""
    if isinstance(func, cst.Attribute):
        return func.attr.value in _SDK_METHODS
    return isinstance(func, cst.Name) and func.value in _SDK_CLASSES


_SDK_METHODS = CALL_METHODS | {"from_config"}
_SDK_CLASSES = frozenset(name.rsplit(".", 1)[-1] for name in CLASS_DIALECT)


def _not_a_read(node: cst.Name, parent) -> bool:
    """A spelling that is not a read of the variable: an attribute's or keyword's name, or a
    binding (`f = ...`, a parameter, `for f in`, `global f`, ...)."""
    if isinstance(parent, cst.Attribute):
        return parent.attr is node
    if isinstance(parent, cst.Arg):
        return parent.keyword is node
    if isinstance(parent, _TARGET_PARENTS):
        return parent.target is node
    return isinstance(parent, _BINDING_PARENTS)


def _use(
    node: cst.Name, parents: dict[int, cst.CSTNode], module_level: bool
) -> Union[tuple[int, Union[int, None]], None]:
    """What a read of the name does (see `_uses`); None: it only reads."""
    current: cst.CSTNode = node
    depth = 0  # how deep in the dict `current` is: `f["AND"]` 1, `f["AND"][0]` 2, `f.copy()` 1
    while True:
        parent = parents.get(id(current))
        if isinstance(parent, cst.Subscript) and parent.value is current:
            current, depth = parent, depth + 1
            continue
        if isinstance(parent, cst.Attribute) and parent.value is current:
            call = parents.get(id(parent))
            if not (isinstance(call, cst.Call) and call.func is parent):
                current, depth = parent, depth + 1
                continue
            method = parent.attr.value
            if method in _READ_METHODS:
                return None
            if method in _PART_METHODS:
                current, depth = call, depth + 1
                continue
            return depth, None  # `.append(...)`, `.update(...)`, or a method not known to read
        if isinstance(parent, (cst.BooleanOperation, cst.IfExp)) and (
            not isinstance(parent, cst.IfExp) or parent.test is not current
        ):
            current = parent  # `f or {}`: the value goes on
            continue
        if isinstance(parent, (cst.Element, cst.DictElement, cst.StarredElement)):
            holder = parents.get(id(parent))  # `[f]`: what is done with the list decides
            if isinstance(holder, (cst.List, cst.Tuple, cst.Set, cst.Dict)) and (
                not isinstance(parent, cst.DictElement) or parent.value is current
            ):
                current = holder
                continue
        break
    if isinstance(parent, (_READ_PARENTS, cst.IfExp)):  # (an `IfExp` here: its test)
        return None
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is current and depth == 0:
        return None  # `for key in f`: its keys, strings
    if isinstance(parent, cst.Return) and not module_level:
        return None  # a new dict on each call of the function; the caller's own
    if isinstance(parent, _STORES) and getattr(parent, "target", None) is current:
        return max(depth - 1, 0), None  # `f["a"]["b"] = v` changes `f["a"]`
    if isinstance(parent, cst.Arg) and parent.value is current:
        call = parents.get(id(parent))
        if not isinstance(call, cst.Call):
            return depth, None
        func = call.func
        if isinstance(func, cst.Name) and func.value in _READING_FUNCTIONS and not parent.star:
            return None
        if isinstance(func, cst.Attribute) and func.attr.value in _READING_METHODS:
            return None
        if _sdk_call(func):
            return None  # judged as a call of its own; an SDK call does not change its filters
        if isinstance(func, cst.Name) and func.value in _PART_FUNCTIONS:
            # `list(f["AND"])` holds the dict's parts: only read where it is made.
            if isinstance(parents.get(id(call)), _READ_PARENTS):
                return None
            return depth + 1, id(call)
        return depth, id(call)
    return depth, None  # another name for it (`g = f`), kept in something, or not known


_STORES = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del, cst.For, cst.CompFor)
