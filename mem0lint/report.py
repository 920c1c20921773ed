"""Printing findings: text with code frames for people, JSON for machines."""

from __future__ import annotations

import json
from typing import TextIO

from rich.console import Console
from rich.text import Text

from mem0lint.rule import Applicability, Diagnostic
from mem0lint.runner import FileReport

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def as_json_object(report: FileReport, diagnostic: Diagnostic) -> dict:
    """The stable JSON shape of one finding (CI integrations parse it)."""
    fix = None
    if diagnostic.fix is not None:
        fix = {
            "applicability": diagnostic.fix.applicability.value,
            "message": diagnostic.fix.message,
            "edits": [
                {
                    "content": edit["content"],
                    "location": {"row": edit["location"][0], "column": edit["location"][1]},
                    "end_location": {
                        "row": edit["end_location"][0],
                        "column": edit["end_location"][1],
                    },
                }
                for edit in diagnostic.edits
            ],
        }
    obj = {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "dialect": diagnostic.dialect,
        "filename": str(report.source.path),
        "location": {"row": diagnostic.start[0], "column": diagnostic.start[1]},
        "end_location": {"row": diagnostic.end[0], "column": diagnostic.end[1]},
        "fix": fix,
    }
    if diagnostic.cell is not None:
        obj["cell"] = diagnostic.cell
    return obj


def write_json(reports: list[FileReport], stream: TextIO) -> None:
    findings = [as_json_object(r, d) for r in reports for d in r.diagnostics]
    json.dump(findings, stream, indent=2)
    stream.write("\n")


def fix_marker(diagnostic: Diagnostic) -> str:
    if diagnostic.fix is None:
        return ""
    if diagnostic.fix.applicability is Applicability.SAFE:
        return "[*] "
    return "[unsafe fix] "


def code_frame(lines: list[str], diagnostic: Diagnostic) -> Text:
    row, column = diagnostic.start
    end_row, end_column = diagnostic.end
    if not 0 < row <= len(lines):
        return Text()
    line = lines[row - 1].expandtabs(1)
    width = len(str(row))
    last = end_column if end_row == row else len(line) + 1
    caret = " " * (column - 1) + "^" * max(1, last - column)
    frame = Text()
    frame.append(f"{' ' * width} |\n", style="blue")
    frame.append(f"{row} | ", style="blue")
    frame.append(line + "\n")
    frame.append(f"{' ' * width} | ", style="blue")
    frame.append(caret, style=SEVERITY_STYLE[diagnostic.severity.value])
    return frame


def write_text(reports: list[FileReport], console: Console, show_frames: bool = True) -> None:
    for report in reports:
        for diagnostic in report.diagnostics:
            row, column = diagnostic.start
            where = f"{report.source.path}:{row}:{column}:"
            if diagnostic.cell is not None:
                where = f"{report.source.path}:cell {diagnostic.cell}:{row}:{column}:"
            line = Text()
            line.append(where, style="bold")
            line.append(" ")
            line.append(diagnostic.code, style=SEVERITY_STYLE[diagnostic.severity.value])
            line.append(" ")
            line.append(fix_marker(diagnostic), style="green")
            line.append(diagnostic.message)
            console.print(line)
            if show_frames:
                console.print(code_frame(report.lines, diagnostic))
                console.print()


def summary(reports: list[FileReport], unsafe_enabled: bool) -> str:
    diagnostics = [d for r in reports for d in r.diagnostics]
    files = len({str(r.source.path) for r in reports if r.diagnostics})
    fixed = sum(r.fixed for r in reports)
    safe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.UNSAFE)
    parts = []
    if fixed:
        parts.append(f"Fixed {fixed} problem{'s' if fixed != 1 else ''}.")
    if not diagnostics:
        parts.append("All checks passed." if not fixed else "No problems left.")
        return " ".join(parts)
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
