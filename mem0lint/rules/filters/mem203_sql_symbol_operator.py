"""MEM203: SQL comparison symbols (`>=`, `!=`, `==`...) used as operator keys."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Severity
from mem0lint.rules.filters.shared import (
    OperatorRule,
    operator_entries,
    plain_scalar,
    replace_value,
)
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS, SQL_SYMBOLS


class SqlSymbolOperator(OperatorRule):
    code = "MEM203"
    versions = {"mem0ai": ">=2.0.0"}
    name = "sql-symbol-operator"
    claims_operators = frozenset(SQL_SYMBOLS)
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "SQL comparison symbols (`>=`, `!=`, `==`...) used as operator keys"
    why = (
        "mem0 operators are words (`gte`, `lte`, `gt`, `lt`, `ne`). The Platform rejects `>=` "
        "with HTTP 400; open source raises ValueError (unsupported filter operator)."
    )
    fix_safety = (
        "safe; `>=` `<=` `>` `<` `!=` become `gte` `lte` `gt` `lt` `ne`; `==` becomes the "
        "bare value when it is the only operator and its value a plain literal (not None, not "
        '`"*"`), otherwise `eq`; no fix when the word is already a key of the same dict'
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.get_all(
                filters={"AND": [{"user_id": "u1"}, {"created_at": {">=": "2025-01-01"}}]}
            )
            """,
            good="""
            client.get_all(
                filters={"AND": [{"user_id": "u1"}, {"created_at": {"gte": "2025-01-01"}}]}
            )
            """,
            fixed="""
            client.get_all(
                filters={"AND": [{"user_id": "u1"}, {"created_at": {"gte": "2025-01-01"}}]}
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "tier": {"==": "gold"}})',
            good='memory.search("q", filters={"user_id": "u1", "tier": "gold"})',
            fixed='memory.search("q", filters={"user_id": "u1", "tier": "gold"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            word = SQL_SYMBOLS[op.key]
            bare_ok = op.kind is None or op.kind.bare
            fix = None
            if word == "eq" and bare_ok and op.sole and plain_scalar(op.value):
                fix = Fix(
                    Applicability.SAFE,
                    f"Replace `{{{op.key!r}: ...}}` with the bare value",
                    (replace_value(op.condition.entry, op.value.node),),
                )
            else:
                fix = rename_key_fix(op.ops, op.entry, word, f"Replace `{op.key}` with `{word}`")
            use = "a bare value (or `eq`)" if word == "eq" else f"`{word}`"
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` is not a mem0 operator ({site.dialect.grammar.rejected_by}); "
                f"use {use}",
                fix,
            )
