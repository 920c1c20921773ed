"""Files mem0lint could not check, reported like findings in every output format.

Like Ruff's syntax-error reports, a file that cannot be read or parsed is a record with its own
code, so no output format can hide it (never "All checks passed."):

- MEM001 `syntax-error`: Python's own parser rejects the file (position from CPython).
- MEM002 `file-error`: the file cannot be read, decoded, written back, or is too large or too
  deeply nested to analyse; a notebook that is not valid JSON. (A symbolic link to nothing that
  a folder's walk meets is passed over with an info line: batch.triage.)
- MEM003 `not-analysed` (info): valid Python (CPython accepts it) that libcst cannot parse, such
  as `(x): int`; nothing in the file was checked. Not a failure: it does not change the exit
  status.

These codes are not rules: they cannot be selected or ignored, and `# noqa` does not hide them.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from mem0lint.results import Diagnostic, FileReport

SYNTAX_ERROR, FILE_ERROR, NOT_ANALYSED = "MEM001", "MEM002", "MEM003"

# code -> (name, severity, summary)
PROBLEMS = {
    SYNTAX_ERROR: ("syntax-error", "error", "The file is not valid Python; nothing was checked"),
    FILE_ERROR: (
        "file-error",
        "error",
        "The file could not be read, decoded, written back or analysed; nothing was checked",
    ),
    NOT_ANALYSED: (
        "not-analysed",
        "info",
        "Valid Python that mem0lint's parser (libcst) cannot read; nothing was checked",
    ),
}


def is_failure(report: FileReport) -> bool:
    """A problem that must fail the run (exit 2 unless --exit-zero)."""
    return bool(report.error) and report.error_code != NOT_ANALYSED


def classify(source: Union[bytes, str], failure: Exception) -> tuple[str, str, tuple[int, int]]:
    """A libcst parse failure of a whole file -> (code, message, 1-based (row, column)).

    CPython's parser decides: if it rejects the source too, it is a syntax error placed where
    CPython says; if it accepts it, libcst alone cannot read it (MEM003)."""
    position = getattr(failure, "position", None)
    if position is None:  # not a syntax error: cannot decode, too deeply nested
        return FILE_ERROR, str(failure), (1, 1)
    try:
        compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return SYNTAX_ERROR, f"syntax error: {error.msg}", _at(error, source)
    except (ValueError, RecursionError, MemoryError):
        return FILE_ERROR, str(failure), (1, 1)
    return (
        NOT_ANALYSED,
        "not analysed: valid Python that libcst cannot parse here; nothing in the file was checked",
        _clamped(source, *position),
    )


def syntax_check(source: Union[bytes, str]) -> Union[tuple[str, str, tuple[int, int]], None]:
    """For a file named on the command line that holds nothing to check: does it parse?
    CPython's parser first (fast); libcst has the last word, so grammar newer than this Python
    that libcst reads is not called an error. None: it parses."""
    try:
        compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        return None
    except SyntaxError as error:
        found = (SYNTAX_ERROR, f"syntax error: {error.msg}", _at(error, source))
    except (ValueError, RecursionError, MemoryError) as error:
        return FILE_ERROR, f"cannot parse: {error}", (1, 1)
    from mem0lint import engine

    try:
        engine.parse(source)
    except engine.ParseFailure:
        return found
    return None


def _at(error: SyntaxError, source: Union[bytes, str]) -> tuple[int, int]:
    return _clamped(source, error.lineno or 1, error.offset or 1)


def _clamped(source: Union[bytes, str], row: int, column: int) -> tuple[int, int]:
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    lines = text.splitlines() or [""]
    row = min(max(row, 1), len(lines))
    column = min(max(column, 1), len(lines[row - 1]) + 1)
    return row, column


def record(report: FileReport) -> Diagnostic:
    """The finding-like record of a file's problem."""
    from mem0lint.results import Diagnostic, Severity

    code = report.error_code or FILE_ERROR
    name, severity, _ = PROBLEMS[code]
    row, column = report.error_at
    return Diagnostic(
        code=code,
        name=name,
        severity=Severity(severity),
        message=str(report.error),
        dialect="",
        node=None,  # type: ignore[arg-type]  (no tree: it did not parse)
        fix=None,
        start=(row, column),
        end=(row, column + 1),
    )


def attach(reports: list[FileReport]) -> None:
    """Put each file's problem in front of its findings (after the baseline: never accepted)."""
    for report in reports:
        if report.error and not any(d.code in PROBLEMS for d in report.diagnostics):
            report.diagnostics.insert(0, record(report))
            if None not in report.frames and report.output is not None:
                text = report.output.decode("utf-8", "replace")
                report.frames[None] = text.splitlines()
