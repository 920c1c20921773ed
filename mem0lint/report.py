"""Printing findings: text with code frames for people; concise lines; JSON, JSON lines, GitHub
Actions annotations and SARIF for machines. One function per format; `WRITERS` names them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable, TextIO

from mem0lint.results import FileReport
from mem0lint.terminal import Line, Terminal

if TYPE_CHECKING:  # the rule registry: a clean run needs none of it
    from mem0lint.results import Diagnostic, Edit

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _overlaps(a: tuple, b: tuple) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def visible_edits(report: FileReport) -> dict[int, list[Edit]]:
    """id(diagnostic) -> the edits to publish for its fix, such that no two findings of the file
    (of one notebook cell) publish overlapping edits: safe fixes first, then unsafe ones, each in
    the report's order, as `--fix` applies them in its first round; a later overlapping one
    publishes none (its fix applies in a later round of `--fix`, on the re-parsed code)."""
    if not report.diagnostics:
        return {}  # most files of a run: every writer asks of each file, clean or not
    taken: dict[object, list[tuple]] = {}
    visible: dict[int, list[Edit]] = {}
    with_fix = [d for d in report.diagnostics if d.fix is not None]
    safe = [d for d in with_fix if d.fix.applicability.value == "safe"]
    for diagnostic in safe + [d for d in with_fix if d.fix.applicability.value != "safe"]:
        spans = [(e.location, e.end_location) for e in diagnostic.edits]
        claimed = taken.setdefault(diagnostic.cell, [])
        if any(_overlaps(s, t) for s in spans for t in claimed):
            visible[id(diagnostic)] = []
            continue
        claimed.extend(spans)
        visible[id(diagnostic)] = list(diagnostic.edits)
    return visible


def as_json_object(
    report: FileReport, diagnostic: Diagnostic, visible: dict[int, list[Edit]] | None = None
) -> dict:
    """The stable JSON shape of one finding (CI integrations parse it). `visible`: from
    `visible_edits(report)` (computed when not given)."""
    fix = None
    if diagnostic.fix is not None:
        if visible is None:
            visible = visible_edits(report)
        edits = visible.get(id(diagnostic), diagnostic.edits)
        fix = {
            "applicability": diagnostic.fix.applicability.value,
            "message": diagnostic.fix.message,
            "edits": [
                {
                    "content": edit.content,
                    "location": {"row": edit.location[0], "column": edit.location[1]},
                    "end_location": {"row": edit.end_location[0], "column": edit.end_location[1]},
                }
                for edit in edits
            ],
        }
        if not edits and diagnostic.edits:
            fix["deferred"] = True  # its edits overlap an earlier finding's: --fix applies it next
    obj = {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "dialect": diagnostic.dialect or None,
        "filename": str(report.source.path),
        "location": {"row": diagnostic.start[0], "column": diagnostic.start[1]},
        "end_location": {"row": diagnostic.end[0], "column": diagnostic.end[1]},
        "fix": fix,
        # Which SDK release the call was judged by; "upgrade": what breaks on moving to a
        # configured target version (upgrade mode), else "finding".
        "sdk": diagnostic.sdk,
        "sdk_version": diagnostic.sdk_version,
        "kind": "upgrade" if diagnostic.upgrade else "finding",
    }
    if diagnostic.upgrade:
        before, _, after = diagnostic.upgrade.partition(" -> ")
        obj["upgrade"] = {"from": before, "to": after}
    if diagnostic.cell is not None:
        obj["cell"] = diagnostic.cell
    return obj


def write_json(reports: list[FileReport], stream: TextIO) -> None:
    findings = []
    for report in reports:
        visible = visible_edits(report)  # once per file, not per finding
        findings += [as_json_object(report, d, visible) for d in report.diagnostics]
    write_indented(findings, stream)
    stream.write("\n")


def write_indented(data: object, stream: TextIO) -> None:
    """`json.dump(data, stream, indent=2)` in one write: `dump` hands the stream each of its many
    small pieces on its own (heavy's 3,008 findings: 0.53 s after the check, now 0.15 s)."""
    stream.write(json.dumps(data, indent=2))


def fix_marker(diagnostic: Diagnostic) -> str:
    if diagnostic.fix is None:
        return ""
    from mem0lint.rule import Applicability

    if diagnostic.fix.applicability is Applicability.SAFE:
        return "[*] "
    return "[unsafe fix] "


def code_frame(report: FileReport, diagnostic: Diagnostic) -> list[Line]:
    row, column = diagnostic.start
    end_row, end_column = diagnostic.end
    line = report.line_of(diagnostic)
    if line is None:
        return [[]]
    line = line.expandtabs(1)
    width = len(str(row))
    last = end_column if end_row == row else len(line) + 1
    caret = " " * (column - 1) + "^" * max(1, last - column)
    return [
        [(f"{' ' * width} |", "blue")],
        [(f"{row} | ", "blue"), (line, None)],
        [(f"{' ' * width} | ", "blue"), (caret, SEVERITY_STYLE[diagnostic.severity.value])],
    ]


def where(report: FileReport, diagnostic: Diagnostic) -> str:
    row, column = diagnostic.start
    if diagnostic.cell is not None:
        return f"{report.source.path}:cell {diagnostic.cell}:{row}:{column}:"
    return f"{report.source.path}:{row}:{column}:"


def write_text(reports: list[FileReport], terminal: Terminal, show_frames: bool = True) -> None:
    lines: list[Line] = []
    for report in reports:
        for diagnostic in report.diagnostics:
            lines.append(
                [
                    (where(report, diagnostic), "bold"),
                    (" ", None),
                    (diagnostic.code, SEVERITY_STYLE[diagnostic.severity.value]),
                    (" ", None),
                    (fix_marker(diagnostic), "green"),
                    (diagnostic.message, None),
                ]
            )
            if show_frames:
                lines += [*code_frame(report, diagnostic), []]
    terminal.lines(lines)


def summary(reports: list[FileReport], unsafe_enabled: bool) -> str:
    diagnostics = [d for r in reports for d in r.diagnostics]
    files = len({str(r.source.path) for r in reports if r.diagnostics})
    fixed = sum(r.fixed for r in reports)
    parts = []
    if fixed:
        parts.append(f"Fixed {fixed} problem{'s' if fixed != 1 else ''}.")
    if not diagnostics:
        parts.append("All checks passed." if not fixed else "No problems left.")
        return " ".join(parts)
    from mem0lint.rule import Applicability  # the rule registry: not needed for a clean run

    safe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.UNSAFE)
    plural = "s" if len(diagnostics) != 1 else ""
    text = f"Found {len(diagnostics)} problem{plural} in {files} file{'s' if files != 1 else ''}"
    hints = []
    if safe:
        hints.append(f"{safe} fixable with `--fix`")
    if unsafe:
        hints.append(
            f"{unsafe} {'more ' if safe else ''}with `--unsafe-fixes`"
            if not unsafe_enabled
            else f"{unsafe} with unsafe fixes"
        )
    if hints:
        text += f" ({', '.join(hints)})"
    parts.append(text + ".")
    return " ".join(parts)


def write_concise(reports: list[FileReport], terminal: Terminal) -> None:
    write_text(reports, terminal, show_frames=False)


def write_json_lines(reports: list[FileReport], stream: TextIO) -> None:
    for report in reports:
        visible = visible_edits(report)
        for diagnostic in report.diagnostics:
            stream.write(json.dumps(as_json_object(report, diagnostic, visible)) + "\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_path(path) -> str:
    """A path as GitHub annotations want it: relative to the repository root (GITHUB_WORKSPACE
    in Actions; else the enclosing git root; else the current folder), with `/`."""
    import os
    from pathlib import Path

    absolute = Path(os.path.abspath(path))
    base = os.environ.get("GITHUB_WORKSPACE")
    if not base:
        base = next(
            (str(d) for d in [absolute.parent, *absolute.parent.parents] if (d / ".git").exists()),
            os.getcwd(),
        )
    try:
        return Path(os.path.relpath(absolute, os.path.abspath(base))).as_posix()
    except ValueError:  # another drive on Windows
        return absolute.as_posix()


GITHUB_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def write_github(reports: list[FileReport], stream: TextIO) -> None:
    """GitHub Actions workflow commands: one annotation per finding on the pull request.

    Notebook rows are inside a cell, not lines of the .ipynb file: the cell and row go into the
    message and the annotation is attached to the file."""
    for report in reports:
        path = github_path(report.source.path) if report.diagnostics else ""
        for diagnostic in report.diagnostics:
            command = GITHUB_COMMAND[diagnostic.severity.value]
            properties = [f"file={_escape_property(path)}"]
            message = diagnostic.message
            if diagnostic.cell is None:
                (row, column), (end_row, end_column) = diagnostic.start, diagnostic.end
                properties += [f"line={row}", f"col={column}", f"endLine={end_row}"]
                if end_row == row:
                    properties.append(f"endColumn={end_column}")
            else:
                row, column = diagnostic.start
                message = f"cell {diagnostic.cell}, row {row}, column {column}: {message}"
            properties.append(f"title={_escape_property(f'{diagnostic.code} {diagnostic.name}')}")
            stream.write(f"::{command} {','.join(properties)}::{_escape_data(message)}\n")


def write_sarif(reports: list[FileReport], stream: TextIO, warnings: tuple = ()) -> None:
    """`warnings`: about the run (a named folder with nothing to lint), as notifications."""
    from mem0lint.sarif import sarif_log

    write_indented(sarif_log(reports, list(warnings)), stream)
    stream.write("\n")


def statistics_rows(reports: list[FileReport]) -> list[dict]:
    """Per code: how many findings, how many `--fix` fixes (safe) and how many only
    `--unsafe-fixes` fixes; most frequent first."""
    rows: dict[str, dict] = {}
    for report in reports:
        for diagnostic in report.diagnostics:
            row = rows.setdefault(
                diagnostic.code,
                {"code": diagnostic.code, "name": diagnostic.name, "count": 0},
            )
            row["count"] += 1
            row.setdefault("safe_fixes", 0)
            row.setdefault("unsafe_fixes", 0)
            if diagnostic.fix is not None:
                safe = diagnostic.fix.applicability.value == "safe"
                row["safe_fixes" if safe else "unsafe_fixes"] += 1
    for row in rows.values():
        row["fixable"] = row["safe_fixes"] > 0  # what `--fix` alone can fix, as Ruff's `[*]`
    return sorted(rows.values(), key=lambda row: (-row["count"], row["code"]))


def statistics(reports: list[FileReport]) -> str:
    """Count per code; `[*]` when `--fix` fixes some, `[unsafe fix]` when only `--unsafe-fixes`
    does; how many of each in brackets."""
    rows = statistics_rows(reports)
    width = max((len(str(row["count"])) for row in rows), default=1)
    lines = []
    for row in rows:
        safe, unsafe = row["safe_fixes"], row["unsafe_fixes"]
        marker = "[*] " if safe else "[unsafe fix] " if unsafe else ""
        notes = []
        if safe:
            notes.append(f"{safe} fixable")
        if unsafe:
            notes.append(f"{unsafe} only with `--unsafe-fixes`")
        note = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"{row['count']:>{width}}  {row['code']}  {marker}{row['name']}{note}")
    return "\n".join(lines)


def write_statistics_json(reports: list[FileReport], stream: TextIO) -> None:
    write_indented(statistics_rows(reports), stream)
    stream.write("\n")


# Machine formats write to a text stream; people's formats to a rich Console.
STREAM_WRITERS: dict[str, Callable[[list[FileReport], TextIO], None]] = {
    "json": write_json,
    "json-lines": write_json_lines,
    "github": write_github,
    "sarif": write_sarif,
}
CONSOLE_WRITERS: dict[str, Callable[[list[FileReport], Terminal], None]] = {
    "text": write_text,
    "concise": write_concise,
}
