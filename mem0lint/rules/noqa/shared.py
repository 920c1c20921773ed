"""The base of the rules judged on `noqa` comments rather than on call sites."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Finding, Rule, Severity
from mem0lint.sdk.dialects import DIALECTS

ANY_DIALECT = frozenset(DIALECTS)


class SuppressionRule(Rule):
    dialects = ANY_DIALECT
    severity = Severity.WARNING
    fix_safety = "safe (the code is removed from the comment; other tools' codes are kept)"

    def applies_to(self, site: CallSite) -> bool:
        return False  # judged on comments by the suppression pass

    def check(self, site: CallSite) -> Iterator[Finding]:
        return iter(())
