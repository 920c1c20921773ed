"""MEM215: Open-source entity ids (top-level `user_id`...) given an operator dict or a list."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, ListValue
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.filters.shared import owner, plain_scalar, replace_value
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class EntityOperatorOnOss(Rule):
    code = "MEM215"
    versions = {"mem0ai": ">=2.0.0"}
    name = "entity-operator-on-oss"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Open-source entity ids (top-level `user_id`...) given an operator dict or a list"
    why = (
        "`Memory.search()` / `get_all()` turn a top-level `user_id`, `agent_id` or `run_id` "
        "into a string with `str()` and reject whitespace: an operator dict or a list of several "
        'ids raises ValueError ("cannot contain whitespace"); a one-item list becomes the string '
        "\"['u1']\" and silently matches nothing. Run one call per id."
    )
    fix_safety = (
        'safe when the dict or list names one plain id (`{"eq": u}`, `{"in": [u]}`, `[u]` '
        "become `u`); none otherwise"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": {"eq": "u1"}})',
            good='memory.search("q", filters={"user_id": "u1"})',
            fixed='memory.search("q", filters={"user_id": "u1"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": {"in": ["u1", "u2"]}})',
            good="""
            for user in ["u1", "u2"]:
                memory.get_all(filters={"user_id": user})
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not isinstance(site.filters, DictValue):
            return
        for entry in site.filters.entries:
            if entry.key not in site.dialect.grammar.entity_fields:
                continue
            value = entry.value
            if isinstance(value, DictValue):
                if any(
                    e.key is None or owner(e.key, e.value, site) not in (None, "MEM214")
                    for e in value.entries
                ):
                    continue  # a bad operator key: its own rule speaks first
                what = 'an operator dict raises ValueError ("cannot contain whitespace")'
                severity = None
            elif isinstance(value, ListValue):
                if len(value.items) == 1:
                    shown = (
                        repr([value.items[0].value]) if plain_scalar(value.items[0]) else "[...]"
                    )
                    what = f'a one-item list is sent as the string "{shown}" and matches nothing'
                    severity = Severity.WARNING
                else:
                    what = 'a list of ids raises ValueError ("cannot contain whitespace")'
                    severity = None
            else:
                continue
            yield Finding(
                entry.key_node,
                f"Open-source entity ids must be plain values: `{entry.key}` with {what}; "
                "run one call per id",
                self._fix(entry),
                severity,
            )

    @staticmethod
    def _fix(entry: Entry) -> Fix | None:
        value = entry.value
        if isinstance(value, DictValue):
            if not (value.complete and len(value.entries) == 1):
                return None
            (only,) = value.entries
            if only.key == "eq":
                single = only.value
            elif only.key == "in" and isinstance(only.value, ListValue):
                single = only.value.items[0] if len(only.value.items) == 1 else None
            else:
                return None
        elif isinstance(value, ListValue) and len(value.items) == 1:
            single = value.items[0]
        else:
            return None
        if not plain_scalar(single):
            return None
        return Fix(Applicability.SAFE, "Use the plain id", (replace_value(entry, single.node),))
