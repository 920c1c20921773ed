"""MEM146: `memory_type=` on open source `add()`: a value other than `"procedural_memory"`, or
`"procedural_memory"` without `agent_id=`.

Read from 0.1.100 to 2.2.1 (`Memory.add` / `AsyncMemory.add`): any other non-None value raises
(ValueError up to 0.1.x, Mem0ValidationError VALIDATION_002 from 1.0); the procedural path runs
only `if agent_id is not None and memory_type == "procedural_memory"`, otherwise the messages go
through the ordinary fact extraction.
"""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.ossadd import is_none
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import OSS_MEMORY_TYPES


class OssAddMemoryType(Rule):
    code = "MEM146"
    name = "oss-add-memory-type"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"add"})
    # The check and the agent_id condition read the same in 0.1.100, 0.1.115, 1.0.3, 1.0.11,
    # 2.0.0, 2.0.10 and 2.2.1 (before 0.1.100 `memory_type` could also be passed by position).
    versions = {"mem0ai": ">=" + releases.OSS_ADD_KEYWORD_ONLY}
    severity = Severity.ERROR
    summary = (
        '`memory_type=` other than `"procedural_memory"`, or procedural without `agent_id=`, '
        "on open source `add()`"
    )
    why = (
        'Open source `add()` knows one `memory_type`, `"procedural_memory"`; any other value '
        '(`"semantic"`, `"episodic"`, `"short_term"`...) raises Mem0ValidationError '
        "(VALIDATION_002; ValueError before 1.0). The procedural summary is written only when "
        '`agent_id=` is given too: `memory_type="procedural_memory"` with `user_id=` alone is '
        "silently stored as ordinary extracted facts."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I like tea", user_id="alice", memory_type="semantic")',
            good='memory.add("I like tea", user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad=(
                'memory.add("Step 1: open the page", user_id="alice", '
                'memory_type="procedural_memory")'
            ),
            # For a procedural summary pass `agent_id=` instead (the harness's stub LLM cannot
            # write one, so the example keeps the ordinary memory the call stored anyway).
            good='memory.add("Step 1: open the page", user_id="alice")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("memory_type")
        if arg is None or is_none(arg.value):
            return
        value = str_value(arg.value)
        if value is None:
            return
        if value not in OSS_MEMORY_TYPES:
            yield Finding(
                arg,
                f'`memory_type="{value}"`: open source `add()` accepts only '
                f'"{OSS_MEMORY_TYPES[0]}" and raises Mem0ValidationError on anything else; '
                "remove it for ordinary memories",
            )
            return
        if site.keyword("agent_id") is None and not site.has_star_args:
            yield Finding(
                arg,
                '`memory_type="procedural_memory"` without `agent_id=`: open source `add()` '
                "writes the procedural summary only for an agent, so these messages are "
                "silently stored as ordinary facts; pass `agent_id=`",
                severity=Severity.WARNING,
            )
