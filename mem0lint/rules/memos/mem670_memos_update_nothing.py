"""MEM670: MemOS `update_memory(memory_id)` with nothing to change."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.rules.memos.writes import presence
from mem0lint.rules.sdk_args import argument
from mem0lint.sdk.memos import WRITES


class MemosUpdateNothing(Rule):
    code = "MEM670"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-update-nothing"
    dialects = MEMOS
    methods = frozenset({"update_memory"})
    severity = Severity.ERROR
    summary = "MemOS `update_memory(memory_id)` without `content`, `title` or `status`"
    why = (
        "The client raises ValueError('content, title or status is required') before sending "
        "when none of them is truthy (None and an empty string count as not given). MemOS "
        "calls the new text `content`, not mem0's `text` or `data`."
    )
    examples = [
        Example(
            "memos",
            bad='client.update_memory("mem_1")',
            good='client.update_memory("mem_1", content="Likes tennis")',
        ),
        Example(
            "memos",
            bad='client.update_memory("mem_1", content="", title=None)',
            good='client.update_memory("mem_1", content="Likes tennis")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args:
            return
        known = {"memory_id", *WRITES.update_fields}
        if any(name not in known for name in site.keywords):
            return  # an unknown keyword (MEM653) may be what the author meant as the change
        if len(site.positional) > len(site.spec.params):
            return
        states = [presence(_value(argument(site, name))) for name in WRITES.update_fields]
        if all(state == "absent" for state in states):
            yield Finding(
                site.call.func,
                "`update_memory()` with nothing to change raises ValueError: pass `content=`, "
                "`title=` or `status=`",
            )


def _value(arg):
    return arg.value if arg is not None else None
