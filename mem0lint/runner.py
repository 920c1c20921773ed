"""Run one file through check, fix or diff, and say what happened. Never raises for bad input."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mem0lint.prefilter import external_words, may_matter
from mem0lint.rule import Diagnostic
from mem0lint.sources import SourceFile, WriteRefused, write_atomically

if TYPE_CHECKING:
    from mem0lint import engine

CHECK, FIX, DIFF = "check", "fix", "diff"


@dataclass
class FileReport:
    source: SourceFile
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None  # could not be read, decoded or parsed; or a fix was not written
    fixed: int = 0  # fixes applied (or, with --diff, that would be)
    diff: str = ""
    lines: list[str] = field(default_factory=list)  # the text, for code frames


def process(
    source: SourceFile,
    rules: engine.RuleSet,
    mode: str,
    roots: list[Path],
    original: bytes | None = None,  # the content, read and prefiltered by the caller (batch.py)
) -> FileReport:
    report = FileReport(source)
    if original is None:
        try:
            original = source.path.read_bytes()
        except OSError as error:
            report.error = f"cannot read: {error.strerror or error}"
            return report
        if not may_matter(original, external_words(rules.settings.receivers)):
            return report
    from mem0lint import engine  # only now: a run where nothing matters never imports libcst

    try:
        module = engine.parse(original)
    except engine.ParseFailure as error:
        report.error = str(error)
        return report
    try:
        if mode == CHECK:
            report.diagnostics = engine.lint(module, rules)
            if report.diagnostics:  # code frames; libcst keeps the text exactly, no codegen
                report.lines = _text(original, module.encoding).splitlines()
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


def _text(original: bytes, encoding: str) -> str:
    text = original.decode(encoding, "replace")
    return text[1:] if text.startswith("\ufeff") else text


def unified_diff(before: str, after: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{name}",
            tofile=f"b/{name}",
        )
    )
