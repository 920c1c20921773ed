"""MEM503: `top_k` / `threshold` given as a string, a bool, or (`top_k`) a float."""

from __future__ import annotations

import ast
import re
from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import (
    FILTER_METHODS,
    NUMERIC_PARAMS,
    REJECTED_TYPES,
    WRONG_TYPE_OUTCOME,
)


def numeric_text(text: str, kind: type) -> int | float | None:
    """The number a string literal spells, if it is a plain int (or float for float params)."""
    text = text.strip()
    if kind is int:
        return int(text) if re.fullmatch(r"[+-]?\d+", text) else None
    if re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", text):
        return ast.literal_eval(text.lstrip("+"))
    return None


class NumericArgType(Rule):
    code = "MEM503"
    versions = {"mem0ai": ">=2.0.0"}
    name = "numeric-arg-type"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.WARNING, "mem0-oss": Severity.ERROR}
    summary = "`top_k` / `threshold` given as a string, a bool, or (`top_k`) a float"
    why = (
        "Open source `search()` and `get_all()` check the types: `top_k` must be an int (a bool "
        "is rejected) and `threshold` an int or float, else ValueError. The Platform SDK sends "
        'the value as written, so `top_k="5"` reaches the API as a JSON string.'
    )
    fix_safety = 'safe for string literals that spell a number (`"5"` -> `5`); none otherwise'
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, top_k="5")',
            good='memory.search("q", filters={"user_id": "alice"}, top_k=5)',
            fixed='memory.search("q", filters={"user_id": "alice"}, top_k=5)',
        ),
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, threshold="0.3")',
            good='client.search("q", filters={"user_id": "alice"}, threshold=0.3)',
            fixed='client.search("q", filters={"user_id": "alice"}, threshold=0.3)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, top_k=True)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=1)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name, kind in NUMERIC_PARAMS.items():
            arg = site.keyword(name)
            if arg is None or name not in site.spec.params:
                continue  # Platform get_all(top_k=) is MEM109
            ok, value = literal_value(arg.value)
            if not ok or value is None:
                continue
            if not isinstance(value, REJECTED_TYPES[site.dialect.id][name]):
                continue
            expected = "an int" if kind is int else "a number"
            fix = None
            if isinstance(value, str):
                spelled = numeric_text(value, kind)
                if spelled is not None:
                    fix = Fix(
                        Applicability.SAFE,
                        f"Write `{name}={spelled!r}`",
                        ((arg.value, cst.parse_expression(repr(spelled))),),
                    )
            yield Finding(
                arg,
                f"`{name}` must be {expected}, got the {type(value).__name__} {value!r} "
                f"({WRONG_TYPE_OUTCOME[site.dialect.id]})",
                fix,
            )
