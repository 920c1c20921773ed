"""MEM603: An empty string `""` as a Memsy id (`session_id=""`, `x or ""`)."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.rules.sdk_args import literal
from mem0lint.sdk.memsy import GRAMMAR

# Parameter -> applicability of rewriting `""` to `None`: safe where the server documents `""`
# as unset, unsafe where its handling is undocumented.
EMPTY_ID_FIX = {
    **{p: Applicability.SAFE for p in GRAMMAR.empty_id_unset},
    **{p: Applicability.UNSAFE for p in GRAMMAR.empty_id_undocumented},
}


class MemsyEmptyStringId(Rule):
    code = "MEM603"
    name = "memsy-empty-string-id"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = 'An empty string `""` as a Memsy id (`session_id=""`, `x or ""`)'
    why = (
        "The server trims ids and treats an empty one as unset, before the mutual-exclusion "
        'check: `session_id=current or ""` silently scopes differently from what was meant, '
        "with a 200 and no warning. Pass None when there is no conversation."
    )
    fix_safety = (
        'safe for `session_id` / `exclude_session_id` (the server already treats `""` as '
        "unset); unsafe for `actor_id` (the server's handling of an empty actor is undocumented)"
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", session_id=current or "")',
            good='client.search("q", actor_id="u1", session_id=current)',
            fixed='client.search("q", actor_id="u1", session_id=current or None)',
        ),
        Example(
            "memsy",
            bad='client.search("q", actor_id="")',
            good='client.search("q", actor_id=None)',
            fixed='client.search("q", actor_id=None)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name, applicability in EMPTY_ID_FIX.items():
            arg = site.keyword(name)
            empty = _empty_string(arg.value) if arg is not None else None
            if empty is None:
                continue
            fix = Fix(applicability, 'Replace `""` with `None`', ((empty, cst.Name("None")),))
            yield Finding(
                empty,
                f'`{name}=""` is treated as unset by the Memsy server (no error, a different '
                "scope); pass `None`",
                fix,
            )


def _empty_string(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The `""` literal itself, or the `""` of `x or ""`."""
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
        return _empty_string(node.right)
    return node if literal(node) == "" and isinstance(node, cst.SimpleString) else None
