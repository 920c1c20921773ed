"""Which rule explains what: coordination derived from the rules' own declarations.

A rule that explains some call keywords better than a general rule would (MEM692 names mem0's
`top_k=` on a Memsy client as mem0's vocabulary; MEM606 would only say "no such parameter")
declares them in `claims_keywords`; the general rule leaves to it every keyword another rule of
the same dialect claims.
"""

from __future__ import annotations

from functools import cache

from mem0lint.rule import Rule
from mem0lint.rules import all_rules


@cache
def _claimed(code: str, dialect: str) -> frozenset[str]:
    return frozenset(
        keyword
        for other in all_rules().values()
        if other.code != code and dialect in other.dialects
        for keyword in other.claims_keywords
    )


def keywords_claimed_elsewhere(rule: Rule, dialect: str) -> frozenset[str]:
    """The call keywords other rules of `dialect` claim (their `claims_keywords`)."""
    return _claimed(rule.code, dialect)
