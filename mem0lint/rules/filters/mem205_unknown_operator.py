"""MEM205: Operator keys mem0 does not have (`regex`, `$regex`, `like`, `neq`...)."""

from __future__ import annotations

import re
from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Scalar
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Severity
from mem0lint.rules.filters.shared import (
    OperatorEntry,
    OperatorRule,
    new_dict,
    operator_entries,
    replace_value,
)
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import (
    FILTER_METHODS,
    FOREIGN_OPERATORS,
    METADATA_KIND,
    NESTED_DICT_IS_OPERATOR_DICT,
    OPERATOR_LOOKING,
    REGEX_REWRITE_KINDS,
    FieldKind,
)

REGEX_METACHARACTERS = re.compile(r"[.^$*+?()\[\]{}|\\]")


def suggestion(words: tuple[str, ...], site: CallSite, kind: FieldKind | None) -> str:
    """What to write instead of a foreign operator, limited to what the field accepts."""
    if words == ("nin",) and "nin" not in site.dialect.grammar.operators:
        words = ("in",)
        prefix = "`NOT` + "
    else:
        prefix = ""
    if kind is not None and not set(words) <= kind.operators:
        return f"{kind.name} accepts only {', '.join(sorted(kind.operators))}"
    return "use " + prefix + " / ".join(f"`{w}`" for w in words)


def operator_list(site: CallSite) -> str:
    order = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "icontains")
    return ", ".join(op for op in order if op in site.dialect.grammar.operators)


class UnknownOperator(OperatorRule):
    code = "MEM205"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-operator"
    claims_operators = frozenset({"$regex", "$options"})  # and every key not in the grammar
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Operator keys mem0 does not have (`regex`, `$regex`, `like`, `neq`...)"
    why = (
        "mem0 has a closed operator set: eq, ne, gt, gte, lt, lte, in, contains, icontains (and "
        "nin in open source). The Platform rejects anything else with HTTP 400; open source "
        "raises ValueError (unsupported filter operator)."
    )
    fix_safety = (
        'unsafe, Platform `keywords` only: `{"$regex": "lit", "$options": "i"}` becomes '
        '`{"icontains": "lit"}` and `{"$regex": "lit"}` becomes `{"contains": "lit"}` when the '
        "pattern is a literal without regex metacharacters; safe for an operator in the wrong "
        "case (`GTE` -> `gte`); otherwise no fix"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.get_all(
                filters={"user_id": "u1", "keywords": {"$regex": "invoice", "$options": "i"}}
            )
            """,
            good='client.get_all(filters={"user_id": "u1", "keywords": {"icontains": "invoice"}})',
            fixed="""
            client.get_all(
                filters={"user_id": "u1", "keywords": {"icontains": "invoice"}}
            )
            """,
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "topic": {"like": "travel"}})',
            good='memory.search("q", filters={"user_id": "u1", "topic": {"contains": "travel"}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            if op.key == "$options" and op.ops.get("$regex") is not None:
                continue  # reported once, with its `$regex`
            if not self._in_operator_position(site, op):
                continue
            words = FOREIGN_OPERATORS.get(op.key)
            spelled = op.key.strip().lower()
            fix = self._regex_fix(site, op)
            if spelled != op.key and spelled in site.dialect.grammar.operators:
                advice = f"operators are lowercase words: use `{spelled}`"
                fix = self._respell_fix(op, spelled)
            elif words:
                advice = suggestion(words, site, op.kind)
            else:
                advice = f"mem0 operators are {operator_list(site)}"
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` is not a mem0 operator ({site.dialect.grammar.rejected_by}); {advice}",
                fix,
            )

    @staticmethod
    def _respell_fix(op: OperatorEntry, spelled: str) -> Fix | None:
        """`GTE` / `In` / `" gte"` -> the operator itself: the author named it already."""
        return rename_key_fix(op.ops, op.entry, spelled, f"Replace `{op.key}` with `{spelled}`")

    @staticmethod
    def _in_operator_position(site: CallSite, op: OperatorEntry) -> bool:
        """Is this dict certainly an operator dict (and not, say, nested metadata)?"""
        if NESTED_DICT_IS_OPERATOR_DICT[site.dialect.id]:
            return True
        if op.kind is not None and op.kind is not METADATA_KIND[site.dialect.id]:
            return True  # entity, time, categories, keywords: a dict value holds operators
        keys = op.ops.keys()  # string keys only
        return any(key.startswith("$") or key.lower() in OPERATOR_LOOKING for key in keys)

    @staticmethod
    def _regex_fix(site: CallSite, op: OperatorEntry) -> Fix | None:
        if op.kind not in REGEX_REWRITE_KINDS[site.dialect.id] or not op.ops.complete:
            return None
        if op.key not in ("$regex", "regex") or not set(op.ops.keys()) <= {op.key, "$options"}:
            return None
        pattern = op.value
        if not isinstance(pattern, Scalar) or not isinstance(pattern.value, str):
            return None
        if not pattern.value or REGEX_METACHARACTERS.search(pattern.value):
            return None
        options = op.ops.get("$options")
        if options is None:
            word = "contains"
        elif isinstance(options.value, Scalar) and options.value.value in ("", "i"):
            word = "contains" if options.value.value == "" else "icontains"
        else:
            return None
        replacement = new_dict(op.entry.key_node, [(word, pattern.node)])
        return Fix(
            Applicability.UNSAFE,
            f"Replace the literal regex with `{word}`",
            (replace_value(op.condition.entry, replacement),),
        )
