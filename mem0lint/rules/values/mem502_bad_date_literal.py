"""MEM502: A date string on a time field that is not ISO-8601."""

from __future__ import annotations

from datetime import date, datetime
from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, FilterNode, ListValue, Scalar, literal_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import field_conditions
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import DATE_KEYWORDS, FILTER_METHODS, ISO_DATE, WILDCARD


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
    methods = FILTER_METHODS
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
