"""A baseline: the findings a project accepts for now, so only new ones fail CI.

Each finding is keyed by its file (relative to the baseline file), its code and the text of
what it flags (the node's source, whitespace collapsed), never its line number nor its line's
text: code added above a finding, or a fix applied to another finding on the same line, does not
make it "new". Identical keys are counted (the occurrence), so a second copy of an accepted
mistake is still reported. Version 1 files (keyed by the line's text) are still read.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

from mem0lint.results import Diagnostic, FileReport

VERSION = 2


class BaselineError(Exception):
    pass


def _text(report: FileReport, diagnostic: Diagnostic) -> str:
    """The source text of the finding's span, whitespace collapsed."""
    lines = report.frames.get(diagnostic.cell, [])
    (row, column), (end_row, end_column) = diagnostic.start, diagnostic.end
    if not 0 < row <= end_row <= len(lines):
        return ""
    if row == end_row:
        text = lines[row - 1][column - 1 : end_column - 1]
    else:
        middle = lines[row : end_row - 1]
        text = "\n".join(
            [lines[row - 1][column - 1 :], *middle, lines[end_row - 1][: end_column - 1]]
        )
    return " ".join(text.split())


def _key(
    base: Path, report: FileReport, diagnostic: Diagnostic, version: int = VERSION
) -> tuple[str, str, str]:
    path = Path(os.path.relpath(report.source.path.absolute(), base)).as_posix()
    if version == 1:
        return path, diagnostic.code, (report.line_of(diagnostic) or "").strip()
    return path, diagnostic.code, _text(report, diagnostic)


def read(path: Path) -> Counter:
    """The accepted findings; the key's third part is the line's text in version 1 files, the
    finding's text from version 2 on (see `version_of`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data["findings"]
        field = "line" if data.get("version", 1) == 1 else "text"
        return Counter({(e["path"], e["code"], e[field]): int(e.get("count", 1)) for e in entries})
    except OSError as error:
        raise BaselineError(f"{path}: cannot read: {error.strerror or error}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise BaselineError(f"{path}: not a mem0lint baseline ({error})") from None


def version_of(path: Path) -> int:
    try:
        return int(json.loads(path.read_text(encoding="utf-8")).get("version", 1))
    except (OSError, ValueError, AttributeError, TypeError):
        return VERSION


def write(path: Path, reports: list[FileReport]) -> int:
    base = path.absolute().parent
    counts = Counter(_key(base, r, d) for r in reports for d in r.diagnostics)
    findings = [
        {"path": p, "code": c, "text": text, "count": n}
        for (p, c, text), n in sorted(counts.items())
    ]
    text = json.dumps({"version": VERSION, "findings": findings}, indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
    return sum(counts.values())


def subtract(path: Path, accepted: Counter, reports: list[FileReport]) -> int:
    """Drop accepted findings from the reports; returns how many were dropped."""
    base = path.absolute().parent
    version = version_of(path)
    remaining = Counter(accepted)
    dropped = 0
    for report in reports:
        kept = []
        for diagnostic in report.diagnostics:
            key = _key(base, report, diagnostic, version)
            if remaining[key] > 0:
                remaining[key] -= 1
                dropped += 1
            else:
                kept.append(diagnostic)
        report.diagnostics = kept
    return dropped
