"""MEM135: keywords removed in mem0ai 2.0 passed to `add()` / `update()`.

Parameter lists read from mem0ai 2.2.1 (`inspect.signature`): open source
`Memory.add(messages, *, user_id, agent_id, run_id, metadata, timestamp, expiration_date, infer,
memory_type, prompt)` (AsyncMemory adds `llm`) and `Memory.update(memory_id, text, metadata,
expiration_date, data)` have no `**kwargs`; the Platform's `add(messages, options=None,
**kwargs)` / `update(memory_id, options=None, **kwargs)` send every keyword as a JSON key.
Which keys the v3 API reads: docs/openapi.json (`POST /v3/memories/add/` still lists
`enable_graph`, `immutable`, `includes`, `excludes`, `output_format`: those are not reported on
a Platform `add()`; `PUT /v1/memories/{id}/` reads only `text`, `metadata`, `expiration_date`).
"""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.sdk_args import asks_for_2x_default
from mem0lint.sdk.dialects import MEM0, PLATFORM
from mem0lint.sdk.mem0_arguments import PLATFORM_ADD_BODY, REMOVED_WRITE_KEYWORDS


class RemovedWriteKeyword(Rule):
    code = "MEM135"
    name = "removed-write-keyword"
    dialects = MEM0
    methods = frozenset({"add", "update"})
    versions = {"mem0ai": ">=2.0.0"}
    severity = {"mem0-oss": Severity.ERROR, "mem0-platform": Severity.WARNING}
    summary = "A keyword removed in mem0ai 2.0 on `add()` / `update()` (`output_format=`, ...)"
    why = (
        "mem0ai 2.0 removed `output_format`, `version`, `api_version`, `async_mode`, "
        "`enable_graph`, `filter_memories`, `immutable`, `includes`, `excludes`, `batch_size`, "
        "`force_add_only` and the org/project keywords. Open source `add()` and `update()` have "
        "no `**kwargs`: TypeError. The Platform client sends them as JSON keys the v3 API does "
        'not read (`async_mode=False` no longer makes `add` synchronous, `output_format="v1.0"` '
        "no longer returns a list). Where the value asks for what 2.x does anyway "
        '(`version="v2"`, `output_format="v1.1"`, `api_version=`, `async_mode=True`, '
        "`enable_graph=False`) a Platform keyword changes nothing and is not reported; open "
        "source still raises, and its removal is safe."
    )
    fix_safety = "safe removal (open source) for values 2.x forces anyway; none otherwise"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I like tea", user_id="alice", output_format="v1.1")',
            good='memory.add("I like tea", user_id="alice")',
            fixed='memory.add("I like tea", user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.update("mem-1", text="Likes tea", enable_graph=True)',
            good='memory.update("mem-1", text="Likes tea")',
        ),
        Example(
            "mem0-platform",
            bad='client.add("I like tea", user_id="alice", async_mode=False)',
            good='client.add("I like tea", user_id="alice", infer=False)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        platform = site.dialect.id == PLATFORM.id
        for name, arg in site.keywords.items():
            if name not in REMOVED_WRITE_KEYWORDS:
                continue
            if platform and site.method == "add" and name in PLATFORM_ADD_BODY:
                continue
            harmless = asks_for_2x_default(name, arg.value)
            if platform and harmless:
                # The Platform sends it as a dead JSON key asking for what 2.x does anyway:
                # nothing changes, so a finding would be noise.
                continue
            if not platform:
                fix = None
                if harmless:
                    fix = Fix(
                        Applicability.SAFE,
                        f"Remove `{name}=`",
                        (fixes.without_arg(site.call, arg),),
                    )
                yield Finding(
                    arg,
                    f"`Memory.{site.method}()` has no `{name}` since mem0ai 2.0 (TypeError); "
                    "remove it",
                    fix,
                )
            else:
                yield Finding(
                    arg,
                    f"`{name}=` was removed in mem0ai 2.0: `MemoryClient.{site.method}()` sends "
                    "it as a JSON key the API does not read; remove it",
                )
