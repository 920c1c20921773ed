"""MEM5xx: the values given to mem0 calls, judged as literals (dates, numbers)."""

from __future__ import annotations

import ast
import re
from datetime import date, datetime
from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.dialects import MEM0
from mem0lint.filtertree import DictValue, FilterNode, ListValue, Scalar, literal_value
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import field_conditions

# ISO-8601 as mem0 reads it: a calendar date, or a date and time with optional seconds,
# fraction and zone. A space instead of `T` is accepted too (Qdrant's own date pattern does).
ISO_DATE = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2})"
    r"(?:[T ](?P<time>\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(?P<zone>Z|[+-]\d{2}:?\d{2})?)?"
)
# Date-valued keywords outside filters, per dialect and method. (Open source rejects any
# `reference_date` whatever its value: MEM115.)
DATE_KEYWORDS = {
    "mem0-platform": {"get_all": ("start_date", "end_date"), "search": ("reference_date",)},
}
# The wildcard: "any value", not a date.
WILDCARD = "*"


def is_iso_date(text: str) -> bool:
    match = ISO_DATE.fullmatch(text)
    if match is None:
        return False
    try:  # a real calendar date and time of day (no 2024-02-30, no 25:00)
        date.fromisoformat(match["date"])
        if match["time"]:
            datetime.strptime(match["time"][:5], "%H:%M")
    except ValueError:
        return False
    return True


def date_strings(value: FilterNode) -> Iterator[Scalar]:
    """String literals in date position: the bare value, operator values, list items."""
    if isinstance(value, Scalar):
        if isinstance(value.value, str):
            yield value
    elif isinstance(value, DictValue):
        for entry in value.entries:
            yield from date_strings(entry.value)
    elif isinstance(value, ListValue):
        for item in value.items:
            yield from date_strings(item)


class BadDateLiteral(Rule):
    code = "MEM502"
    versions = {"mem0ai": ">=2.0.0"}
    name = "bad-date-literal"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.WARNING
    summary = "A date string on a time field that is not ISO-8601"
    why = (
        "mem0 compares dates as ISO-8601 (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`). Other "
        "spellings (`01/02/2024`, `Jan 5 2024`, `2024-1-5`) are rejected by the Platform or, on "
        "open source, compared as plain strings, which silently matches the wrong records."
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q", filters={"AND": [{"user_id": "u"}, {"created_at": {"gte": "01/02/2024"}}]}
            )
            """,
            good="""
            client.search(
                "q", filters={"AND": [{"user_id": "u"}, {"created_at": {"gte": "2024-01-02"}}]}
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "updated_at": {"lt": "2024-1-5"}})',
            good='memory.search("q", filters={"user_id": "u", "updated_at": {"lt": "2024-01-05"}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        time_fields = site.dialect.grammar.time_fields
        for condition in field_conditions(site.filters):
            if condition.field in time_fields:
                yield from self._judge(condition.field, date_strings(condition.entry.value))
        for name in DATE_KEYWORDS.get(site.dialect.id, {}).get(site.method, ()):
            arg = site.keyword(name)
            if arg is not None:
                ok, value = literal_value(arg.value)
                if ok and isinstance(value, str):
                    yield from self._judge(name, [Scalar(arg.value, value)])

    @staticmethod
    def _judge(field: str, values) -> Iterator[Finding]:
        for scalar in values:
            if scalar.value == WILDCARD or is_iso_date(scalar.value):
                continue
            yield Finding(
                scalar.node,
                f"{scalar.value!r} on `{field}` is not ISO-8601; write `YYYY-MM-DD` or "
                "`YYYY-MM-DDTHH:MM:SSZ`",
            )


# Numeric parameters: the type each expects, and the literal types each dialect turns down.
# Open source: `_validate_search_params` (mem0/memory/main.py) wants `isinstance(top_k, int)` and
# not bool, and `isinstance(threshold, (int, float))` (so a bool threshold passes, as 0/1).
# Platform: sent as JSON as written; a float `top_k` such as 5.0 is left alone (the API's
# handling of it is undocumented and likely accepted).
NUMERIC_PARAMS = {"top_k": int, "threshold": float}
REJECTED_TYPES = {
    "mem0-oss": {"top_k": (str, bool, float), "threshold": (str,)},
    "mem0-platform": {"top_k": (str, bool), "threshold": (str,)},
}
# What a wrong type runs into. Open source: `_validate_search_params` raises ValueError (and
# rejects a bool `top_k`). Platform: the value is sent as JSON as written; the API documents an
# integer / number, its handling of a string is not documented.
WRONG_TYPE_OUTCOME = {
    "mem0-oss": "ValueError",
    "mem0-platform": "sent as JSON of the wrong type; the API documents a number",
}


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
    methods = frozenset({"search", "get_all"})
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
