"""What a run produces: findings placed in files (`Diagnostic`, with its `Fix` and the text
`Edit`s that apply it) and what happened to each file (`FileReport`).

The vocabulary every stage after the rules shares (engine, runner, cache, reporters, the language
server). It imports nothing of mem0lint's and never libcst: reports are printed, cached and sent
between processes without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:  # annotations only: reporting findings must not import libcst
    import libcst as cst

    from mem0lint.sources import SourceFile


class Severity(str, Enum):
    ERROR = "error"  # the call raises or is rejected
    WARNING = "warning"  # the call succeeds with silently wrong results
    INFO = "info"  # advisory


class Applicability(str, Enum):
    SAFE = "safe"  # keeps the meaning the author wrote; applied by --fix
    UNSAFE = "unsafe"  # may change results; applied only with --unsafe-fixes


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    # (original node, replacement node) pairs; originals are nodes of the linted module.
    replacements: tuple[tuple[cst.CSTNode, cst.CSTNode], ...]


@dataclass(frozen=True)
class Edit:
    """One text replacement of a fix: `content` replaces [location, end_location), 1-based
    (row, column) pairs of the file (of its notebook cell)."""

    content: str
    location: tuple[int, int]
    end_location: tuple[int, int]

    def as_dict(self) -> dict:
        """The cache's on-disk shape (the same as the dict edits before this class)."""
        return {
            "content": self.content,
            "location": self.location,
            "end_location": self.end_location,
        }

    @classmethod
    def from_dict(cls, stored: dict) -> Edit:
        return cls(stored["content"], tuple(stored["location"]), tuple(stored["end_location"]))  # type: ignore[arg-type]


@dataclass
class Diagnostic:
    """A finding placed in a file: what the reporters print and --fix applies."""

    code: str
    name: str
    severity: Severity
    message: str
    dialect: str
    node: cst.CSTNode
    fix: Union[Fix, None]
    start: tuple[int, int] = (0, 0)  # (row, column), 1-based
    end: tuple[int, int] = (0, 0)
    edits: list[Edit] = field(default_factory=list)
    cell: Union[int, None] = None
    # Where its call is: (top-level statement, member of a top-level class); see engine.place.
    unit: Union[tuple[int, Union[int, None]], None] = None
    sdk: Union[str, None] = None  # the distribution the call's SDK is judged as (mem0ai, memsy...)
    sdk_version: Union[str, None] = None  # the release it is judged by
    upgrade: str = ""  # upgrade mode: "1.0.3 -> 2.2.0" for what breaks on the upgrade


@dataclass
class FileReport:
    source: SourceFile
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: Union[str, None] = None  # could not be read, decoded or parsed; or not written
    fixed: int = 0  # fixes applied (or, with --diff, that would be)
    noqa_added: int = 0  # with --add-noqa
    diff: str = ""
    info: list[str] = field(default_factory=list)  # skipped blocks and cells
    # Lines for code frames, by notebook cell (None: the file's own rows).
    frames: dict[Union[int, None], list[str]] = field(default_factory=dict)
    output: Union[bytes, None] = None  # the (fixed) content, for stdin
    # Other files read and folders listed to bind this file's receivers (project.py): the
    # verdict holds while they are unchanged (cache.py). Only those not sent with a report of
    # the same worker before.
    consulted: list[str] = field(default_factory=list)
    # With `error`: its code (problems.py; "" is MEM002) and its 1-based (row, column).
    error_code: str = ""
    error_at: tuple[int, int] = (1, 1)

    @property
    def lines(self) -> list[str]:
        return self.frames.get(None, [])

    def line_of(self, diagnostic: Diagnostic) -> Union[str, None]:
        lines = self.frames.get(diagnostic.cell, [])
        row = diagnostic.start[0]
        return lines[row - 1] if 0 < row <= len(lines) else None

    def is_clean(self, findings_allowed: bool = False) -> bool:
        """Nothing found (or, with `findings_allowed`, nothing but findings): nothing was
        changed, nothing went wrong."""
        if self.diagnostics and not findings_allowed:
            return False
        return not (self.error or self.fixed or self.diff or self.noqa_added)
