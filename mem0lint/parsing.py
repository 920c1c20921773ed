"""Reading a text into libcst's tree, and refusing what its parser cannot take.

libcst's native parser overflows its stack (a segfault, not an exception) on some deeply nested
input, so a file's text goes through `guard_nesting` before libcst parses it (runner.py for the
files checked, the project index for the modules it reads); and libcst validates every node it
builds, which a parsed tree never needs (`parsed_unvalidated`), each through a dataclass
`__init__` slower than setting its slots is (`_slot_init`); and every node class is an ABC, whose
instance checks go through Python code for virtual subclasses libcst never registers
(`_install_instance_checks`).
"""

from __future__ import annotations

import abc
import ast
import dataclasses
import inspect
import sys
import types
from typing import Callable, Iterator, Union

import libcst as cst

from mem0lint.walk import subclasses


class ParseFailure(Exception):
    def __init__(self, message: str, position: Union[tuple[int, int], None] = None) -> None:
        super().__init__(message)
        self.position = position  # libcst's 1-based (row, column) of a syntax error


# Deeper expressions are refused before libcst sees them (real code stays far below).
MAX_NESTING = 400
# Only input that looks suspicious pays for the check: brackets nested this deep, or a line this
# long (a 10,000-term `a + b + ...` chain nests without brackets), or a NUL byte.
SUSPICIOUS_BRACKETS = 100
SUSPICIOUS_LINE = 4000
_BRACKETS = bytes(range(256)).translate(None, b"([{)]}")


def _bracket_depth(data: bytes) -> int:
    """Nesting of brackets, strings and comments included (an over-estimate: only a hint)."""
    depth = deepest = 0
    for byte in data.translate(None, _BRACKETS):
        if byte in b"([{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _suspicious(source: Union[bytes, str]) -> bool:
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    if b"\0" in data:
        return True
    longest = max((len(line) for line in data.split(b"\n")), default=0)
    return longest > SUSPICIOUS_LINE or _bracket_depth(data) > SUSPICIOUS_BRACKETS


def guard_nesting(source: Union[bytes, str]) -> None:
    """Refuse, quickly and safely, input that would crash or stall libcst's parser.

    libcst's native parser overflows its stack (a segfault, not an exception) on some 10,000-level
    nested expressions, and takes minutes on others. CPython's parser has limits of its own and
    says so; its verdict on anything else (a syntax error, a newer grammar than this Python's) is
    left to libcst.
    """
    if not _suspicious(source):
        return
    try:
        tree = compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (RecursionError, MemoryError):
        raise ParseFailure("too deeply nested to parse") from None
    except SyntaxError as error:
        message = str(error.msg)
        if "nested" in message or "too complex" in message:
            raise ParseFailure(f"too deeply nested to parse ({message})") from None
        if "null bytes" in message:
            raise ParseFailure("contains a NUL byte; not Python source") from None
        return
    except ValueError as error:  # Python < 3.12: "source code string cannot contain null bytes"
        if "null" in str(error):
            raise ParseFailure("contains a NUL byte; not Python source") from None
        return
    depth = _depth(tree)
    if depth > MAX_NESTING:
        raise ParseFailure(f"too deeply nested to analyse (depth {depth} > {MAX_NESTING})")


def _depth(tree: ast.AST) -> int:
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _post_init_validates_only(method) -> bool:
    """Is libcst's `CSTNode.__post_init__` the one that only calls `self._validate()`?"""
    code = getattr(method, "__code__", None)
    return code is not None and code.co_names == ("_validate",) and code.co_argcount == 1


_validating = cst.CSTNode.__dict__.get("__post_init__")
_parsing = False  # True while libcst parses: its nodes are not validated then


def _validated_unless_parsing(self: cst.CSTNode) -> None:
    if not _parsing:
        self._validate()


# libcst validates every node it builds, a sixth of a parse; a parsed tree is valid by
# construction (libcst's own comment in `CSTNode.__post_init__` says as much). So validation is
# skipped while parsing, and only where `__post_init__` is the known one (any other libcst:
# validated). Installed once: assigning to the base class of every node on each parse made
# Python drop its attribute caches for all of them, twice per parse.
if _post_init_validates_only(_validating):
    cst.CSTNode.__post_init__ = _validated_unless_parsing  # type: ignore[method-assign]


# Each node the parser builds goes through its class's dataclass `__init__`: every field set by
# `object.__setattr__` (the classes are frozen), then a call of `__post_init__`. That is over a
# third of a parse. The same `__init__` with each field set through its slot, and validation
# asked for inline, builds the same node in four fifths of the time (a parse: a tenth faster).
# Installed only on a class whose `__init__` is the one dataclasses made of its fields, and only
# where validation is skipped as above (`DATACLASS_INITS` keeps the originals, for the tests).
DATACLASS_INITS: dict[type, Callable[..., None]] = {}


def _node_types() -> Iterator[type]:
    """Every node class libcst uses (not a class `add_slots` replaced by a copy with slots)."""
    for node_type in subclasses(cst.CSTNode):
        module = sys.modules.get(node_type.__module__)
        if getattr(module, node_type.__name__, None) is node_type:
            yield node_type


def _slot_setter(node_type: type, name: str) -> Union[Callable[[object, object], None], None]:
    for klass in node_type.__mro__:
        found = klass.__dict__.get(name)
        if isinstance(found, types.MemberDescriptorType):
            return found.__set__
    return None


_GIVEN_BY_FACTORY = object()  # the default of a field whose default comes from a factory
_MAKERS: dict[int, Callable[..., Callable[..., None]]] = {}
_STARRED_PARAMETERS = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS


def _maker(arity: int) -> Callable[..., Callable[..., None]]:
    """`make(set0, factory0, ...)` -> `__init__(self, p0, ...)`, which sets field i through
    `set{i}`, made by `factory{i}` when not given (None: never). Compiled once per arity: one
    compilation per class would add 50 ms to every run's start."""
    make = _MAKERS.get(arity)
    if make is None:
        closed = ", ".join(f"set{i}, factory{i}" for i in range(arity))
        parameters = ", ".join(["self", *(f"p{i}" for i in range(arity))])
        text = f"def make({closed}):\n def __init__({parameters}):\n"
        for i in range(arity):
            text += f"  if p{i} is _GIVEN_BY_FACTORY: p{i} = factory{i}()\n  set{i}(self, p{i})\n"
        text += "  if not _parsing: self._validate()\n return __init__\n"
        made: dict[str, Callable] = {}
        exec(text, globals(), made)  # this module's globals: `_parsing` as it is at the call
        make = _MAKERS[arity] = made["make"]
    return make


def _slot_init(node_type: type) -> Union[Callable[..., None], None]:
    """`node_type`'s dataclass `__init__`, setting fields through their slots; None where its
    `__init__` is not the one dataclasses make of its fields, in their order."""
    init = node_type.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or not dataclasses.is_dataclass(node_type):
        return None
    fields = dataclasses.fields(node_type)
    names = tuple(field.name for field in fields)
    if (
        not set(code.co_names) <= {"object", "__setattr__", "__post_init__"}  # 3.9: `object`
        or code.co_varnames[1 : code.co_argcount] != names
        or code.co_kwonlyargcount
        or code.co_flags & _STARRED_PARAMETERS
        or any(not field.init for field in fields)
        or node_type.__post_init__ is not _validated_unless_parsing
    ):
        return None
    closed: list[object] = []
    defaults: list[object] = []
    for field in fields:
        setter = _slot_setter(node_type, field.name)
        if setter is None:
            return None
        factory = field.default_factory
        closed += [setter, None if factory is dataclasses.MISSING else factory]
        if field.default is not dataclasses.MISSING:
            defaults.append(field.default)
        elif factory is not dataclasses.MISSING:
            defaults.append(_GIVEN_BY_FACTORY)
    fast = _maker(len(fields))(*closed)
    # The parameters take the fields' names, so that arguments are given by keyword.
    fast.__code__ = fast.__code__.replace(co_varnames=("self", *names))
    fast.__defaults__ = tuple(defaults) or None
    fast.__qualname__ = f"{node_type.__qualname__}.__init__"
    return fast


if _post_init_validates_only(_validating):
    for _node_type in _node_types():
        _fast = _slot_init(_node_type)
        if _fast is not None:
            DATACLASS_INITS[_node_type] = _node_type.__init__
            _node_type.__init__ = _fast  # type: ignore[misc]


# Every node class of libcst is an ABC, so `isinstance(node, cst.Name)` of a node of another type
# (the usual answer of a walk's tests) goes through `ABCMeta.__instancecheck__`, in Python, to
# consult the class's virtual subclasses: there are none (libcst registers none and has no
# `__subclasshook__`). Each node class gets a metaclass whose instance check is Python's own, on
# the class's real subclasses: the same answers, at a third of the cost (2% of a check of
# mem0-heavy code). A class with a virtual subclass or a hook keeps ABCMeta's.
class _RealSubclassesOnly(abc.ABCMeta):
    __instancecheck__ = type.__instancecheck__


def _has_virtual_subclasses(node_type: type) -> bool:
    registry = abc._get_dump(node_type)[0]  # type: ignore[attr-defined]
    hooked = any("__subclasshook__" in vars(k) for k in node_type.__mro__ if k is not object)
    return bool(registry) or hooked


def _install_instance_checks() -> None:
    every = subclasses(cst.CSTNode)
    if not hasattr(abc, "_get_dump") or any(map(_has_virtual_subclasses, every)):
        return  # a libcst that registers virtual subclasses: ABCMeta's checks for all
    for node_type in every:
        if type(node_type) is abc.ABCMeta:
            node_type.__class__ = _RealSubclassesOnly


_install_instance_checks()


def parsed_unvalidated(source: Union[bytes, str]) -> cst.Module:
    """`cst.parse_module(source)`, without validating the nodes it builds."""
    global _parsing
    _parsing = True
    try:
        return cst.parse_module(source)
    finally:
        _parsing = False
