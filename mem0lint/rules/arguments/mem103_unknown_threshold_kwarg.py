"""MEM103: `min_score=`, `score_threshold=`... on `search()`: the minimum score is `threshold`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value
from mem0lint.fixbuilders import arguments as argument_fixes
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import in_range, not_a_parameter, number, rename_fix
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import THRESHOLD_ALIASES, THRESHOLD_RANGE


class UnknownThresholdKwarg(Rule):
    code = "MEM103"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-threshold-kwarg"
    dialects = MEM0
    methods = frozenset({"search"})
    claims_keywords = frozenset(THRESHOLD_ALIASES)
    renames = dict.fromkeys(THRESHOLD_ALIASES, "threshold")
    severity = Severity.WARNING
    summary = "`min_score=`, `score_threshold=`... on `search()`: the minimum score is `threshold`"
    why = (
        "mem0's `search()` ignores keywords it does not know: `min_score=0.5` keeps the default "
        "threshold (0.1) and returns weaker matches than asked for, without any error."
    )
    fix_safety = (
        "safe when the value is a number literal in [0, 1] (or a string spelling one: "
        '`"0.5"` -> `0.5`); unsafe when the value is not a '
        "literal (out of range, the renamed keyword raises instead of being ignored); no fix for "
        "other literals"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, min_score=0.5)',
            good='client.search("q", filters={"user_id": "alice"}, threshold=0.5)',
            fixed='client.search("q", filters={"user_id": "alice"}, threshold=0.5)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, score_threshold=cutoff)',
            good='memory.search("q", filters={"user_id": "alice"}, threshold=cutoff)',
            fixed='memory.search("q", filters={"user_id": "alice"}, threshold=cutoff)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        default = site.spec.defaults["threshold"]
        for alias in THRESHOLD_ALIASES:
            arg = site.keyword(alias)
            if arg is None:
                continue
            message = (
                f"{not_a_parameter(site, alias)}; the minimum score is `threshold` "
                f"(default {default})"
            )
            rename = f"Rename `{alias}` to `threshold`"
            value = number(arg)
            is_literal, _ = literal_value(arg.value)
            fix = None
            if value is not None and in_range(value, THRESHOLD_RANGE):
                fix = rename_fix(site, arg, "threshold", rename)
            elif value is not None:
                message += f"; {value} is outside [0, 1], so it is not a mem0 threshold as written"
            elif not is_literal:
                fix = rename_fix(
                    site, arg, "threshold", rename + " (value must be in [0, 1])", safe=False
                )
            else:
                fix = argument_fixes.numeric_string_rename(
                    arg, lambda a, m=rename: rename_fix(site, a, "threshold", m)
                )
            yield Finding(arg, message, fix)
