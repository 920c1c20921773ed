"""MEM133: the new text passed by position to Platform `update()`, where it binds to `options`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import PLATFORM


def is_text(node: cst.BaseExpression) -> bool:
    """A string literal, f-string or concatenation of them: never an `UpdateMemoryOptions`."""
    return isinstance(node, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))


class UpdateTextPositional(Rule):
    code = "MEM133"
    name = "update-text-positional"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"update"})
    versions = {"mem0ai": ">=2.0.0"}
    severity = Severity.ERROR
    summary = 'Platform `update(memory_id, "new text")`: the second positional is `options`'
    why = (
        "Since mem0ai 2.0 the Platform client is `update(memory_id, options=None, **kwargs)`: a "
        "string in second place binds to `options` and the call fails with `AttributeError: "
        "'str' object has no attribute 'model_dump'`. (Open source `Memory.update(memory_id, "
        "text)` takes it by position, and is not reported.)"
    )
    fix_safety = "safe (a string literal passed second becomes `text=`)"
    examples = [
        Example(
            "mem0-platform",
            bad='client.update("mem-1", "Likes tennis")',
            good='client.update("mem-1", text="Likes tennis")',
            fixed='client.update("mem-1", text="Likes tennis")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        positional = site.positional
        if len(positional) != 2 or site.has_star_args or not is_text(positional[1].value):
            return
        fix = None
        if site.keyword("text") is None:
            args = [
                fixes.keyword_arg("text", a.value) if a is positional[1] else a
                for a in site.call.args
            ]
            fix = Fix(
                Applicability.SAFE,
                "Pass the new text as `text=`",
                ((site.call, fixes.with_args(site.call, args)),),
            )
        yield Finding(
            positional[1],
            "`MemoryClient.update(memory_id, options=None, **kwargs)`: a string in second place "
            "binds to `options` (AttributeError: 'str' object has no attribute 'model_dump'); "
            "pass it as `text=`",
            fix,
        )
