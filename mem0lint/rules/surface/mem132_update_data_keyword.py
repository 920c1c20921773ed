"""MEM132: `update(memory_id, data=...)` where mem0 takes `text=`."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import MEM0, PLATFORM


def _exercises_deprecation(site: CallSite) -> bool:
    """Inside `def test_..._deprecated_...()`: the author calls the alias on purpose (the SDK's
    own tests of it)."""
    scope = getattr(site.scope, "scope", site.scope)
    function = getattr(scope, "function", None)
    return function is not None and "deprecat" in function.name.value.lower()


class UpdateDataKeyword(Rule):
    code = "MEM132"
    name = "update-data-keyword"
    dialects = MEM0
    methods = frozenset({"update"})
    # Open source takes `text=` from 2.0.12 (2.0.10 had `data=` only); the Platform since
    # 0.1.109, and from 2.0 forwards any other keyword as a JSON key.
    versions = {"mem0ai": ">=2.0.12"}
    severity = Severity.WARNING
    summary = "`update(memory_id, data=...)`: the new text goes in `text=`"
    why = (
        "Open source keeps `data=` only as a deprecated alias that logs a warning on every call "
        "(to be removed in the next major). The Platform client (`update(memory_id, "
        "options=None, **kwargs)`) sends `data` as an unknown JSON key: `text` is never sent, "
        "so the memory's text is not updated."
    )
    fix_safety = "safe (rename to `text=`) when `text=` is not given too"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.update("mem-1", data="Likes tennis")',
            good='memory.update("mem-1", text="Likes tennis")',
            fixed='memory.update("mem-1", text="Likes tennis")',
        ),
        Example(
            "mem0-platform",
            bad='client.update("mem-1", data="Likes tennis")',
            good='client.update("mem-1", text="Likes tennis")',
            fixed='client.update("mem-1", text="Likes tennis")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("data")
        if arg is None or _exercises_deprecation(site):
            return
        fix = None
        if site.keyword("text") is None and not site.has_star_args:
            fix = Fix(
                Applicability.SAFE,
                "Rename `data` to `text`",
                (fixes.rename_keyword(arg, "text"),),
            )
        if site.dialect.id == PLATFORM.id:
            message = (
                "`MemoryClient.update()` sends `data=` as an unknown JSON key, never as `text`: "
                "the memory's text is not updated; use `text=`"
            )
        else:
            message = "`data=` is a deprecated alias of `text=` in `Memory.update()`; use `text=`"
        yield Finding(arg, message, fix)
