"""MEM9xx: `noqa` comments that name mem0lint codes they do not need.

These rules are checked by the engine's suppression pass (mem0lint/suppressions.py), not on
call sites; they live here so `--explain`, the rule table and the example tests cover them.
"""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.dialects import DIALECTS
from mem0lint.rule import Example, Finding, Rule, Severity

ANY_DIALECT = frozenset(DIALECTS)


class _SuppressionRule(Rule):
    dialects = ANY_DIALECT
    severity = Severity.WARNING
    fix_safety = "safe (the code is removed from the comment; other tools' codes are kept)"

    def applies_to(self, site: CallSite) -> bool:
        return False  # judged on comments by the suppression pass

    def check(self, site: CallSite) -> Iterator[Finding]:
        return iter(())


class UnusedNoqa(_SuppressionRule):
    code = "MEM901"
    name = "unused-noqa"
    summary = "A `# noqa: MEM...` code on a line where that rule reports nothing"
    why = (
        "A suppression that suppresses nothing hides the next real finding on that line and "
        "misleads readers into thinking the call is wrong. Codes of rules that are not enabled "
        "count as unused, as in Ruff."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"}, top_k=3)  # noqa: MEM102',
            good='client.search("q", filters={"user_id": "u"}, top_k=3)',
            fixed='client.search("q", filters={"user_id": "u"}, top_k=3)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u"})  # noqa: E501, MEM201',
            good='memory.search("q", filters={"user_id": "u"})  # noqa: E501',
            fixed='memory.search("q", filters={"user_id": "u"})  # noqa: E501',
        ),
    ]


class UnknownNoqaCode(_SuppressionRule):
    code = "MEM902"
    name = "unknown-noqa-code"
    summary = "A `MEM` code in a `noqa` comment that is not a mem0lint rule"
    why = (
        "A misspelt code (`MEM2O1`, `MEM2010`) suppresses nothing; the author meant to silence "
        "something else, and the finding they meant is still reported."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"})  # noqa: MEM000',
            good='client.search("q", filters={"user_id": "u"})',
            fixed='client.search("q", filters={"user_id": "u"})',
        ),
    ]
