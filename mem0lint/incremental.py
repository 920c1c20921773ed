"""Re-parse only what changed: the language server's libcst parse of a document's next version.

An editor sends a whole new text on every keystroke, and most of it is what the last version
was. `Reparser` keeps the last libcst module of one document and, for the next text, parses only
the top-level statements around the change, then rebuilds the module from the old statements
before and after it (the same node objects) and the new ones. The result must be the module a
cold parse of the new text gives (tests/test_latency.py compares them, node for node, after
random edits); wherever that cannot be told for sure it parses the whole text:

- The change region is widened by one whole statement on each side: a change can move the end of
  the statement before it (an indented line joins its block, a comment line changes owner) and
  the leading lines of the statement after it. Statements further away only see unchanged text
  up to a line that starts a statement at column 0, which fixes where they start and end.
- The piece is parsed with the statement after it (the "sentinel", whose start is then known
  to be where it was) and the sentinel is dropped; the piece must end exactly where the old
  sentinel began, else the whole text is parsed. At the end of the text there is no sentinel: the
  piece takes the module's footer and final newline with it.
- The lines before the piece's first statement become its leading lines (a cold parse gives a
  statement every line since the previous statement; a piece parsed alone gives them to its
  module's header), unless the piece starts the file.
- What a cold parse infers from the start of the text (encoding, default newline and indent) is
  kept only when the change is after the first two lines and after the first top-level
  statement holding an indented block (the first INDENT, where the default indent is read); the
  piece must infer the same indent and newline (a block whose indent is the default stores
  none).
- A piece that does not parse: the whole text is parsed, so a syntax error has its own position.

Used through `engine.parse`, which asks `active_parse(source)` first (the server sets a reparser
with `reusing(...)` around one lint); nothing else parses incrementally.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Union

import libcst as cst

Source = Union[str, bytes]

_JOINED = re.compile(rb"\\\r?\n|\\\r")
_ACTIVE: ContextVar[Union[Reparser, None]] = ContextVar("mem0lint_reparser", default=None)


class Reparser:
    """The last parse of one document, and how to parse its next version."""

    def __init__(self) -> None:
        self.data: Union[bytes, None] = None  # the last text parsed (UTF-8)
        self.module: Union[cst.Module, None] = None
        self.ends: list[int] = []  # byte offset where each top-level statement's code ends
        self.header_end = 0  # where the module's header ends (the first statement starts)
        self.reused = 0  # statements reused by the last parse (for tests and the benchmark)
        self._layout: Union[tuple, None] = None  # (module, its Layout), built when asked

    def parse(self, source: Source) -> cst.Module:
        """The module of `source` (raises `engine.ParseFailure` as `engine.parse` does)."""
        data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
        module = None
        if self.module is not None and isinstance(source, bytes) == self._bytes:
            module = self._incremental(data, source)
        self.reused = 0 if module is None else self.reused
        if module is None:
            module = _cold(source)
            self._remember(data, source, module)
        return module

    def layout(self, module: cst.Module):
        """Where the statements of `module` start (a `pruning.Layout`), if it is the last parse
        (and one whose statements' code is the text, piece by piece); else None."""
        if module is not self.module or self.data is None:
            return None
        if self._layout is None or self._layout[0] is not module:
            self._layout = (module, _layout(self.data, module, self.ends, self.header_end))
        return self._layout[1]

    # -- the cold path ----------------------------------------------------------------------

    def _remember(self, data: bytes, source: Source, module: cst.Module) -> None:
        self._bytes = isinstance(source, bytes)
        self.module = None
        if module.encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
            return  # offsets here are UTF-8 bytes
        if _JOINED.search(data):
            return  # a backslash joins lines: statements do not start where lines do
        header = "".join(module.code_for_node(line) for line in module.header)
        offset = self.header_end = len(header.encode("utf-8"))
        self.ends = []
        self.first_block = next(
            (i for i, statement in enumerate(module.body) if _has_block(statement)), None
        )
        for statement in module.body:
            offset += len(module.code_for_node(statement).encode("utf-8", "surrogatepass"))
            self.ends.append(offset)
        footer = "".join(module.code_for_node(line) for line in module.footer)
        if offset + len(footer.encode("utf-8")) != len(data):
            return  # the statements' code is not the text, piece by piece: never reused
        self.data, self.module = data, module

    _bytes = True

    # -- the incremental path ---------------------------------------------------------------

    def _incremental(self, data: bytes, source: Source) -> Union[cst.Module, None]:
        old, module, ends = self.data, self.module, self.ends
        assert old is not None and module is not None
        if data == old:
            self.reused = len(module.body)
            return module
        if not ends or _JOINED.search(data):
            return None
        prefix = _common_prefix(old, data)
        suffix = _common_suffix(old, data, min(len(old), len(data)) - prefix)
        if prefix <= _second_line_end(old) or prefix <= _second_line_end(data):
            return None  # an encoding declaration may have changed
        starts = [self.header_end] + ends[:-1]
        # The statements the change touches (in the old text), widened by one on each side.
        first = next((i for i, end in enumerate(ends) if end > prefix), len(ends)) - 1
        changed_end = len(old) - suffix
        last = max((i for i, start in enumerate(starts) if start < changed_end), default=-1) + 1
        if first <= 0 or self.first_block is None or first <= self.first_block:
            # The header, or up to the first indented block (the default indent): a cold parse.
            return None
        sentinel = last + 1 if last + 1 < len(ends) else None  # parsed along, then dropped
        piece_start = starts[first]
        piece_end_old = len(old) if sentinel is None else ends[sentinel]
        piece_end = len(data) - (len(old) - piece_end_old)
        if piece_end < piece_start:
            return None
        piece = data[piece_start:piece_end]
        try:
            parsed = _cold(piece if isinstance(source, bytes) else piece.decode("utf-8"))
        except Exception:  # noqa: BLE001 - any failure: the cold parse says what it is
            return None
        if (
            parsed.default_indent != module.default_indent
            or parsed.default_newline != module.default_newline
        ):
            return None
        body = list(parsed.body)
        if sentinel is not None:
            if not body or parsed.footer:
                return None
            # The piece less its sentinel must end where the old sentinel began.
            kept = len(piece) - len(parsed.code_for_node(body[-1]).encode("utf-8"))
            if piece_start + kept != len(data) - (len(old) - starts[sentinel]):
                return None
            body.pop()
        if parsed.header:
            if not body:
                return None
            body[0] = body[0].with_changes(leading_lines=[*parsed.header, *body[0].leading_lines])
        tail = list(module.body[sentinel:]) if sentinel is not None else []
        new_body = [*module.body[:first], *body, *tail]
        changes: dict = {"body": new_body}
        if sentinel is None:
            changes["footer"] = parsed.footer
            changes["has_trailing_newline"] = parsed.has_trailing_newline
        new = module.with_changes(**changes)
        # Where each statement now ends: the same before the piece, shifted after it.
        offset, new_ends = piece_start, ends[:first]
        for statement in body:
            offset += len(new.code_for_node(statement).encode("utf-8", "surrogatepass"))
            new_ends.append(offset)
        shift = len(data) - len(old)
        new_ends += [end + shift for end in ends[sentinel:]] if sentinel is not None else []
        footer = "".join(new.code_for_node(line) for line in new.footer)
        if offset != (
            len(data) - len(footer.encode("utf-8"))
            if sentinel is None
            else piece_end - (ends[sentinel] - starts[sentinel])
        ):
            return None  # the pieces are not the text: parse it whole
        self.reused = first + len(tail)
        self.data, self.module, self.ends = data, new, new_ends
        return new


def _layout(data: bytes, module: cst.Module, ends: list[int], header_end: int):
    """Where each top-level statement's first code row is (its decorators'), as
    `pruning.analyse` gives it: `engine.place` then generates only the statements that hold
    findings. None when the text does not decode."""
    from mem0lint.pruning import Layout

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    breaks = [m.end() for m in _BREAK.finditer(data)]  # byte offsets where rows 2, 3, ... start
    starts, index = [], 0
    for start, statement in zip([header_end] + ends[:-1], module.body):
        while index < len(breaks) and breaks[index] <= start:
            index += 1
        leading = len(getattr(statement, "leading_lines", ()))
        decorators = getattr(statement, "decorators", ())
        if decorators:
            leading += len(decorators[0].leading_lines)
        starts.append(index + 1 + leading)
    return Layout(text, starts, {})


_BREAK = re.compile(rb"\r\n|\r|\n")


def _cold(source: Source) -> cst.Module:
    from mem0lint import engine

    token = _ACTIVE.set(None)
    try:
        return engine.parse(source, guarded=True)
    finally:
        _ACTIVE.reset(token)


def _common_prefix(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    low, high = 0, n  # a[:low] == b[:low]; binary search on slices (C speed)
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    low, high = 0, max(limit, 0)
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            low = mid
        else:
            high = mid - 1
    return low


def _second_line_end(data: bytes) -> int:
    """The end of the second line (an encoding declaration is on the first or second)."""
    second = data.find(b"\n", data.find(b"\n") + 1)
    return second if second >= 0 else len(data)


def _has_block(statement: cst.CSTNode) -> bool:
    """Does the statement hold an indented block (where a parse finds the default indent)?"""
    if isinstance(statement, cst.IndentedBlock):
        return True
    if isinstance(statement, cst.SimpleStatementLine):
        return False
    for name in ("body", "orelse", "handlers", "finalbody", "cases"):
        value = getattr(statement, name, None)
        values = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, cst.CSTNode) and _has_block(v) for v in values):
            return True
    return False


@contextmanager
def reusing(reparser: Reparser) -> Iterator[Reparser]:
    """`engine.parse` parses through `reparser` within."""
    token = _ACTIVE.set(reparser)
    try:
        yield reparser
    finally:
        _ACTIVE.reset(token)


def active_layout(module: cst.Module):
    """The layout of `module` (a `pruning.Layout`) when the active reparser's last parse gave
    it; else None."""
    reparser = _ACTIVE.get()
    return None if reparser is None else reparser.layout(module)


def active_parse(source: Source) -> Union[cst.Module, None]:
    """The module of `source` from the active reparser; None when there is none."""
    reparser = _ACTIVE.get()
    return None if reparser is None else reparser.parse(source)
