"""Line and column of a few nodes, at the cost of part of one plain code generation.

libcst's PositionProvider computes a CodeRange for every node of the module, splitting every
token on newlines as it goes: for a file with three findings that is most of the work. Here the
module is generated (the same `_codegen` walk the provider uses) while token counts are noted
only at the wanted nodes, and generation stops after the last of them; the counts become
line:column afterwards, by scanning the text once. Ranges are the provider's: syntactic where
the node records one, hoisted from child nodes where libcst hoists them. A node a fix replaces
is also given its *whole* range (`whole`): all the code it generates, its own parentheses,
comma and whitespace included, which is what replacing it in the tree replaces.
"""

from __future__ import annotations

import inspect
import re
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from typing import Iterable, Iterator, Optional

import libcst as cst
from libcst._nodes.internal import CodegenState

_NEWLINE = re.compile(r"\r\n?|\n")

# Recording no position: one context manager for every node. libcst's own
# `CodegenState.record_syntactic_position` is a `@contextmanager` that only yields, so every
# code generation (`Module.code`, `code_for_node`, the fixes, the ranges below) made and ran a
# generator for most nodes it generated (1-2% of a check's instructions).
_NOTHING_RECORDED = nullcontext()


def _records_nothing(method) -> bool:
    """Is `method` libcst's `record_syntactic_position` that only yields?"""
    code = getattr(getattr(method, "__wrapped__", None), "__code__", None)
    return (
        code is not None
        and inspect.isgeneratorfunction(method.__wrapped__)
        and not code.co_names
        and code.co_consts in ((None,), ())
    )


def _record_nothing(
    self: CodegenState,
    node: cst.CSTNode,
    *,
    start_node: Optional[cst.CSTNode] = None,
    end_node: Optional[cst.CSTNode] = None,
) -> AbstractContextManager[None]:
    return _NOTHING_RECORDED


# Only where the method is the known one (any other libcst: left as it is). The position
# provider's state and `_Noting` below define their own.
if _records_nothing(CodegenState.__dict__.get("record_syntactic_position")):
    CodegenState.record_syntactic_position = _record_nothing  # type: ignore[method-assign]

Range = tuple[tuple[int, int], tuple[int, int]]  # ((line, column), (line, column)); column 0-based


def whole(node: cst.CSTNode) -> tuple[str, int]:
    """The key of a node's whole range in the dicts below (its syntactic range: `id(node)`)."""
    return _whole(id(node))


def _whole(key: int) -> tuple[str, int]:
    return ("whole", key)


class _AllNoted(Exception):
    """Every wanted node is placed: the rest of the module need not be generated."""


class _Noting(CodegenState):
    """Code generation that notes token indices where wanted nodes start and end."""

    __slots__ = ("wanted", "opened", "spans", "wholes")

    def __init__(self, module: cst.Module, wanted: set[int]) -> None:
        super().__init__(
            default_indent=module.default_indent, default_newline=module.default_newline
        )
        self.wanted = wanted
        self.opened: dict[int, int] = {}
        self.spans: dict[int, tuple[int, int]] = {}
        self.wholes: dict[int, tuple[int, int]] = {}

    def pop_trailing_newline(self) -> None:
        """Kept: the provider has counted it before the module drops it."""

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.wanted:
            self.opened[id(node)] = len(self.tokens)

    def after_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.wanted:
            self.wholes[key] = (self.opened[key], len(self.tokens))
            if key not in self.spans:  # a syntactic range, recorded inside, wins
                self.spans[key] = self.wholes[key]
            if len(self.wholes) == len(self.wanted):
                raise _AllNoted

    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: Optional[cst.CSTNode] = None,
        end_node: Optional[cst.CSTNode] = None,
    ) -> AbstractContextManager[None]:
        if id(node) not in self.wanted:
            return _NOTHING_RECORDED
        return self._recording(node, start_node, end_node)

    @contextmanager
    def _recording(
        self,
        node: cst.CSTNode,
        start_node: Optional[cst.CSTNode],
        end_node: Optional[cst.CSTNode],
    ) -> Iterator[None]:
        for hoisted in (start_node, end_node):
            if hoisted is not None:
                self.wanted.add(id(hoisted))  # generated inside this block: noted in time
        start = len(self.tokens)
        try:
            yield
        finally:
            end = len(self.tokens)
            if start_node is not None:
                start = self.spans[id(start_node)][0]
            if end_node is not None:
                end = self.spans[id(end_node)][1]
            self.spans[id(node)] = (start, end)


def node_ranges(
    module: cst.Module, nodes: Iterable[cst.CSTNode], replaced: Iterable[cst.CSTNode] = ()
) -> dict:
    """{id(node): ((line, column), (end_line, end_column))} for `nodes`, as PositionProvider
    gives them (lines 1-based, columns 0-based), and {whole(node): ...} for `replaced`."""
    wanted = {id(node) for node in nodes}
    wholes = {id(node) for node in replaced}
    state = _Noting(module, wanted | wholes)
    with suppress(_AllNoted):
        module._codegen(state)
    return _ranges(state, wanted, wholes, first_line=1)


def ranges_within(
    module: cst.Module,
    statement: cst.CSTNode,
    nodes: Iterable[cst.CSTNode],
    replaced: Iterable[cst.CSTNode],
    first_line: int,
    indent: Optional[str],
    text: str,
    offset: int,
) -> Optional[dict]:
    """`node_ranges` for nodes inside one statement, generating that statement only.

    `first_line`: the row its generated text starts on (its leading lines included), which
    starts at `offset` of `text`, the module's source; `indent`: the indentation of the block
    it is in (None at the top). None when the generated text is not what `text` holds there
    (the caller generates the module) or a node is not inside the statement."""
    wanted = {id(node) for node in nodes}
    wholes = {id(node) for node in replaced}
    state = _Noting(module, wanted | wholes)
    if indent is not None:
        state.indent_tokens = [indent]
    with suppress(_AllNoted):
        statement._codegen(state)
    if not all(key in state.wholes for key in wanted | wholes):
        return None
    if not text.startswith("".join(state.tokens), offset):
        return None
    return _ranges(state, wanted, wholes, first_line)


def _ranges(state: _Noting, wanted: set[int], wholes: set[int], first_line: int) -> dict:
    """Token indices -> (line, column), walking the generated text once in index order."""
    tokens = state.tokens
    at: dict[int, tuple[int, int]] = {}
    line, column, done = first_line, 0, 0
    indices = {i for key in wanted for i in state.spans[key]}
    indices.update(i for key in wholes for i in state.wholes[key])
    for index in sorted(indices):
        text = "".join(tokens[done:index])
        pieces = _NEWLINE.split(text)
        if len(pieces) == 1:
            column += len(text)
        else:
            line += len(pieces) - 1
            column = len(pieces[-1])
        done = index
        at[index] = (line, column)
    found: dict = {key: (at[state.spans[key][0]], at[state.spans[key][1]]) for key in wanted}
    for key in wholes:
        start, end = state.wholes[key]
        found[_whole(key)] = (at[start], at[end])
    return found
