"""Rule documentation generated from the rule classes: `--explain`, the README table."""

from __future__ import annotations

import textwrap

from mem0lint.rule import Rule
from mem0lint.sdk.applies import DIALECT_PACKAGE
from mem0lint.sdk.dialects import DIALECTS
from mem0lint.sdk.releases import DISPLAY, PACKAGES


def _dialect_labels(rule: type[Rule]) -> str:
    return ", ".join(DIALECTS[d].label for d in sorted(rule.dialects))


def _severity(rule: type[Rule]) -> str:
    if isinstance(rule.severity, dict):
        return "; ".join(
            f"{DIALECTS[d].label}: {s.value}" for d, s in sorted(rule.severity.items())
        )
    # An opt-in rule is off unless selected by its full code (codes.OPT_IN).
    return rule.severity.value + (" (opt-in)" if rule.opt_in else "")


def _fix_kinds(rule: type[Rule]) -> str:
    """ "safe", "unsafe", "safe, unsafe" or "none": the fixes the rule's examples show."""
    return ", ".join(kind.value for kind in rule.fix_kinds()) or "none"


def _releases(rule: type[Rule]) -> str:
    """Which SDK releases the rule judges (`Rule.versions`); older pins are not judged by it."""
    if not rule.versions:
        return "every release"
    return ", ".join(
        f"{DISPLAY.get(name, name)} {specifier}"
        for name, specifier in sorted(rule.versions.items())
    )


def _block(code: str) -> str:
    return "```python\n" + textwrap.dedent(code).strip("\n") + "\n```"


def explain(rule: type[Rule]) -> str:
    """Ruff-style rule page: what it does, why, example, fix."""
    parts = [
        f"# {rule.code} {rule.name}",
        "",
        f"Dialects: {_dialect_labels(rule)}. Severity: {_severity(rule)}. Fix: {rule.fix_safety}.",
        f"SDK releases: {_releases(rule)}.",
        "",
        "## What it does",
        rule.summary + ".",
        "",
        "## Why is this bad?",
        textwrap.fill(rule.why, 96),
    ]
    for example in rule.examples:
        label = DIALECTS[example.dialect].label
        if example.release is not None:
            distribution = PACKAGES[DIALECT_PACKAGE[example.dialect]]
            label += f", {DISPLAY.get(distribution, distribution)} {example.release}"
        parts += [
            "",
            f"## Example ({label})",
            _block(example.bad),
            "",
            "Use instead:",
            _block(example.good),
        ]
        if example.fixed is not None:
            how = "`--fix --unsafe-fixes`" if example.unsafe else "`--fix`"
            parts += ["", f"{how} rewrites it to:", _block(example.fixed)]
    return "\n".join(parts) + "\n"


def rules_table() -> str:
    """The Markdown table of every rule (README and `mem0lint --explain` without a code)."""

    from mem0lint.rules import all_rules  # lazily: it loads every rule

    rows = [
        "| Code | Name | Dialects | SDK releases | Severity | Fix | What it checks |",
        "|---|---|---|---|---|---|---|",
    ]
    for code, rule in all_rules().items():
        summary = rule.summary.replace("|", "\\|")
        rows.append(
            f"| {code} | {rule.name} | {_dialect_labels(rule)} | {_releases(rule)} | "
            f"{_severity(rule)} | "
            f"{_fix_kinds(rule)} | {summary} |"
        )
    return "\n".join(rows) + "\n"
