"""Run one file through check, fix or diff, and say what happened. Never raises for bad input."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from mem0lint import engine
from mem0lint.rule import Diagnostic
from mem0lint.sources import SourceFile, WriteRefused, write_atomically

CHECK, FIX, DIFF = "check", "fix", "diff"
# Files that may matter but are bigger than this are reported, not parsed: libcst needs minutes
# and gigabytes for a 50 MB module. Hand-written Python stays far below.
MAX_FILE_BYTES = 10 * 1024 * 1024


@dataclass
class FileReport:
    source: SourceFile
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None  # could not be read, decoded or parsed; or a fix was not written
    fixed: int = 0  # fixes applied (or, with --diff, that would be)
    diff: str = ""
    lines: list[str] = field(default_factory=list)  # the text, for code frames


def process(source: SourceFile, rules: engine.RuleSet, mode: str, roots: list[Path]) -> FileReport:
    report = FileReport(source)
    try:
        original = source.path.read_bytes()
    except OSError as error:
        report.error = f"cannot read: {error.strerror or error}"
        return report
    if not engine.may_matter(original):
        return report
    if len(original) > MAX_FILE_BYTES:
        size, limit = len(original) / 2**20, MAX_FILE_BYTES / 2**20
        report.error = f"too large to analyse ({size:.1f} MB > {limit:.0f} MB); skipped"
        return report
    try:
        module = engine.parse(original)
    except engine.ParseFailure as error:
        report.error = str(error)
        return report
    try:
        if mode == CHECK:
            report.diagnostics = engine.lint(module, rules)
            report.lines = module.code.splitlines()
            return report
        result = engine.fix(module, rules)
    except RecursionError:
        report.error = "too deeply nested to analyse"
        return report
    report.diagnostics = result.diagnostics
    report.lines = result.module.code.splitlines()
    new = result.module.bytes
    if new == original:
        return report
    report.fixed = result.applied
    if mode == DIFF:
        report.diff = unified_diff(module.code, result.module.code, str(source.path))
        # --diff reports what the fixes would leave, but counts the original findings too.
        report.diagnostics = []
        return report
    try:
        write_atomically(source.path, new, original, roots)
    except WriteRefused as error:
        report.error = str(error)
        report.fixed = 0
    return report


def unified_diff(before: str, after: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{name}",
            tofile=f"b/{name}",
        )
    )
