"""Is a keyword's value one the renamed-to parameter accepts? (Fixes that rename a keyword.)

A keyword mem0 silently ignores (`limit=`, `topK=`, `min_score=`) lets the call run with any value;
the parameter it is renamed to is checked: open source raises ValueError for `top_k=None`, a bool,
a float or a negative number, the Platform answers HTTP 400 outside 1-1000. So a rename is safe
only when the value is a literal the target accepts; not a literal (a variable, a parameter whose
default is None, a call): unsafe; a literal the target rejects: no fix.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from mem0lint.filtertree import literal_value


def _int_in(low: int, high: Optional[int]) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and low <= value
            and (high is None or value <= high)
        )

    return check


def _number_in(low: float, high: float) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        return (
            isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high
        )

    return check


def _bool(value: object) -> bool:
    return isinstance(value, bool)


# (dialect, parameter) -> what the real SDK (or its server) accepts without raising.
ACCEPTS: dict[tuple[str, str], Callable[[object], bool]] = {
    ("mem0-platform", "top_k"): _int_in(1, 1000),
    ("mem0-oss", "top_k"): _int_in(0, None),
    ("mem0-platform", "threshold"): _number_in(0, 1),
    ("mem0-oss", "threshold"): _number_in(0, 1),
    ("mem0-platform", "rerank"): _bool,
    ("mem0-oss", "rerank"): _bool,
    ("mem0-platform", "page_size"): _int_in(1, 200),
    ("mem0-platform", "page"): _int_in(1, None),
}


def verdict(dialect: str, parameter: str, value: cst.BaseExpression) -> Optional[bool]:
    """True: a literal the parameter accepts (or a parameter without a check); False: a literal
    it rejects; None: not a literal, so unknown."""
    accepts = ACCEPTS.get((dialect, parameter))
    if accepts is None:
        return True
    is_literal, literal = literal_value(value)
    if not is_literal:
        return None
    return accepts(literal)
