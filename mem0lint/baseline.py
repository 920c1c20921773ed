"""A baseline: the findings a project accepts for now, so only new ones fail CI.

Each finding is keyed by its file (relative to the baseline file), its code and the text of its
line (stripped), never its line number: code added above a finding does not make it "new".
Identical keys are counted, so a second copy of an accepted mistake is still reported.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

from mem0lint.rule import Diagnostic
from mem0lint.runner import FileReport

VERSION = 1


class BaselineError(Exception):
    pass


def _key(base: Path, report: FileReport, diagnostic: Diagnostic) -> tuple[str, str, str]:
    path = Path(os.path.relpath(report.source.path.absolute(), base)).as_posix()
    return path, diagnostic.code, (report.line_of(diagnostic) or "").strip()


def read(path: Path) -> Counter:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data["findings"]
        return Counter({(e["path"], e["code"], e["line"]): int(e.get("count", 1)) for e in entries})
    except OSError as error:
        raise BaselineError(f"{path}: cannot read: {error.strerror or error}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise BaselineError(f"{path}: not a mem0lint baseline ({error})") from None


def write(path: Path, reports: list[FileReport]) -> int:
    base = path.absolute().parent
    counts = Counter(_key(base, r, d) for r in reports for d in r.diagnostics)
    findings = [
        {"path": p, "code": c, "line": line, "count": n}
        for (p, c, line), n in sorted(counts.items())
    ]
    text = json.dumps({"version": VERSION, "findings": findings}, indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
    return sum(counts.values())


def subtract(path: Path, accepted: Counter, reports: list[FileReport]) -> int:
    """Drop accepted findings from the reports; returns how many were dropped."""
    base = path.absolute().parent
    remaining = Counter(accepted)
    dropped = 0
    for report in reports:
        kept = []
        for diagnostic in report.diagnostics:
            key = _key(base, report, diagnostic)
            if remaining[key] > 0:
                remaining[key] -= 1
                dropped += 1
            else:
                kept.append(diagnostic)
        report.diagnostics = kept
    return dropped
