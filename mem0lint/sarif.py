"""SARIF 2.1.0 for code scanning: the tool with every rule documented, and each finding with its
location and fix. Paths are relative to the current folder (what upload-sarif expects)."""

from __future__ import annotations

import os
from pathlib import Path

from mem0lint import __version__
from mem0lint.docs import explain
from mem0lint.report import visible_edits
from mem0lint.results import Diagnostic, Edit, FileReport
from mem0lint.rule import Rule
from mem0lint.sdk.dialects import DIALECTS

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
INFORMATION_URI = "https://github.com/mem0lint/mem0lint"


def _rule_descriptor(rule: type[Rule]) -> dict:
    severity = rule.severity
    level = LEVEL[severity.value] if not isinstance(severity, dict) else "warning"
    if isinstance(severity, dict):
        levels = {LEVEL[s.value] for s in severity.values()}
        level = "error" if "error" in levels else level
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why},
        "help": {"text": f"{rule.summary}. {rule.why}", "markdown": explain(rule)},
        "defaultConfiguration": {"level": level},
        "properties": {
            "dialects": sorted(DIALECTS[d].label for d in rule.dialects),
            "fixSafety": rule.fix_safety,
        },
    }


def _problem_descriptors() -> list[dict]:
    """MEM001-MEM003: files that could not be checked (problems.py), after the rules."""
    from mem0lint.problems import PROBLEMS

    return [
        {
            "id": code,
            "name": name,
            "shortDescription": {"text": summary},
            "fullDescription": {"text": summary},
            "help": {"text": summary, "markdown": f"## {code} {name}\n\n{summary}.\n"},
            "defaultConfiguration": {"level": LEVEL[severity]},
        }
        for code, (name, severity, summary) in PROBLEMS.items()
    ]


def _uri(path: Path) -> str:
    absolute = path.absolute()
    try:
        return Path(os.path.relpath(absolute)).as_posix()
    except ValueError:  # another drive on Windows
        return absolute.as_uri()


def _region(start: tuple[int, int], end: tuple[int, int]) -> dict:
    return {"startLine": start[0], "startColumn": start[1], "endLine": end[0], "endColumn": end[1]}


def _result(
    report: FileReport, diagnostic: Diagnostic, index: dict[str, int], edits: list[Edit]
) -> dict:
    """`edits`: the fix's edits that overlap no earlier finding's (report.visible_edits)."""
    uri = _uri(report.source.path)
    physical: dict = {"artifactLocation": {"uri": uri}}
    message = diagnostic.message
    result: dict = {
        "ruleId": diagnostic.code,
        "ruleIndex": index[diagnostic.code],
        "level": LEVEL[diagnostic.severity.value],
    }
    if diagnostic.cell is None:
        physical["region"] = _region(diagnostic.start, diagnostic.end)
    else:
        # A row inside a notebook cell is not a line of the .ipynb file.
        row, column = diagnostic.start
        message = f"cell {diagnostic.cell}, row {row}, column {column}: {message}"
        result["properties"] = {"cell": diagnostic.cell, "row": row, "column": column}
    if diagnostic.sdk is not None:
        properties = result.setdefault("properties", {})
        properties.update(sdk=diagnostic.sdk, sdk_version=diagnostic.sdk_version)
        properties["kind"] = "upgrade" if diagnostic.upgrade else "finding"
        if diagnostic.upgrade:
            properties["upgrade"] = diagnostic.upgrade
    result["message"] = {"text": message}
    result["locations"] = [{"physicalLocation": physical}]
    if diagnostic.fix is not None and diagnostic.cell is None and edits:
        result["fixes"] = [
            {
                "description": {
                    "text": f"{diagnostic.fix.message} ({diagnostic.fix.applicability.value})"
                },
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": uri},
                        "replacements": [
                            {
                                "deletedRegion": _region(edit.location, edit.end_location),
                                "insertedContent": {"text": edit.content},
                            }
                            for edit in edits
                        ],
                    }
                ],
            }
        ]
    return result


def _invocations(warnings: list[str] | None) -> dict:
    if not warnings:
        return {}
    notifications = [{"level": "warning", "message": {"text": w}} for w in warnings]
    return {
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    }


def sarif_log(reports: list[FileReport], warnings: list[str] | None = None) -> dict:
    """`warnings`: about the run, not a file (a named folder with nothing to lint)."""

    from mem0lint.rules import all_rules  # lazily: it loads every rule

    rules = all_rules()
    problems = _problem_descriptors()
    codes = [*rules, *(descriptor["id"] for descriptor in problems)]
    index = {code: position for position, code in enumerate(codes)}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mem0lint",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule_descriptor(rule) for rule in rules.values()] + problems,
                    }
                },
                **_invocations(warnings),
                "columnKind": "unicodeCodePoints",
                "results": [
                    _result(report, diagnostic, index, visible.get(id(diagnostic), []))
                    for report, visible in ((r, visible_edits(r)) for r in reports)
                    for diagnostic in report.diagnostics
                ],
            }
        ],
    }
