"""A call on a union of clients (`MemoryClient(k) if k else Memory.from_config(cfg)`).

It is judged as each member would be, and only the findings every member produces count: the
same rule on the same node. Such a finding keeps the least severe of the members' severities and
one message if they agree (else each member's, named); it is fixed only when every member's fix
makes the same edits, with the least safe applicability.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterator, Optional

import libcst as cst

from mem0lint.rule import Applicability, Finding, Fix, Rule, Severity

if TYPE_CHECKING:
    from mem0lint.callsite import CallSite
    from mem0lint.engine import RuleSet

_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


def label(union: frozenset[str]) -> str:
    """How a finding on a union names its dialect: the members' ids, `a|b`."""
    return "|".join(sorted(union))


def common_findings(
    sites: list[CallSite], rules: RuleSet
) -> Iterator[tuple[Rule, Finding, Severity]]:
    """(rule, finding, severity) for the findings every member site produces."""
    per_member: list[dict[tuple[str, int], tuple[Rule, Finding, Severity]]] = []
    for site in sites:
        found: dict[tuple[str, int], tuple[Rule, Finding, Severity]] = {}
        for rule in rules.judging(site):
            for finding in rule.check(site):
                severity = finding.severity or rule.severity_for(site.dialect.id)
                found.setdefault((rule.code, id(finding.node)), (rule, finding, severity))
        if not found:
            return
        per_member.append(found)
    if not per_member:
        return
    for key, (rule, finding, _) in per_member[0].items():
        if not all(key in member for member in per_member):
            continue
        entries = [member[key] for member in per_member]
        severity = min((entry[2] for entry in entries), key=lambda s: _RANK.get(s, 0))
        fix = same_fix([entry[1].fix for entry in entries])
        message = _message(sites, [entry[1].message for entry in entries])
        yield rule, replace(finding, fix=fix, severity=severity, message=message), severity


def _message(sites: list[CallSite], messages: list[str]) -> str:
    """One message when the members agree; else each member's, named (the facts differ)."""
    if all(m == messages[0] for m in messages):
        return messages[0]
    return " | ".join(f"{site.dialect.label}: {m}" for site, m in zip(sites, messages))


def same_fix(fixes: list[Optional[Fix]]) -> Optional[Fix]:
    """The members' fix when they all make the same edits; the least safe applicability."""
    if not fixes or any(f is None for f in fixes):
        return None
    first = fixes[0]
    edits = _edits(first)
    for other in fixes[1:]:
        if _edits(other) != edits:
            return None
    unsafe = any(f.applicability is Applicability.UNSAFE for f in fixes)
    return replace(first, applicability=Applicability.UNSAFE) if unsafe else first


_EMPTY = cst.Module(body=[])


def _edits(fix: Fix) -> list[tuple[int, str]]:
    return [(id(old), _EMPTY.code_for_node(new)) for old, new in fix.replacements]
