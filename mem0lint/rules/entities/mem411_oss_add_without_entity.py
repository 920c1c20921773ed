"""MEM411: open source `add()` without `user_id=`, `agent_id=` or `run_id=`.

Read from the wheels of 0.1.0 to 1.0.11 and 2.0.0 (every release; a helper session ran each on a
stubbed `Memory`) and 2.2.1: from 0.1.100, `add()` builds its scope in
`_build_filters_and_metadata` from the three keywords only (a truthiness test: `None` is no id)
and raises when none is given: `ValueError` up to 0.1.117, `mem0.exceptions.ValidationError`
("At least one of 'user_id', 'agent_id', or 'run_id' must be provided.", VALIDATION_001) from
0.1.118 to 2.2.1. Before 0.1.100 a `filters=` dict or a positional id could scope it: not judged.
"""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.entities.shared import entity_keyword_given
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import OSS_ADD_PARAMS, client_class


class OssAddWithoutEntity(Rule):
    code = "MEM411"
    name = "oss-add-without-entity"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"add"})
    versions = {"mem0ai": ">=" + releases.OSS_ADD_KEYWORD_ONLY}
    severity = Severity.ERROR
    summary = "Open source `add()` without `user_id=`, `agent_id=` or `run_id=`"
    why = (
        "Open source stores every memory for an entity, named by the `user_id`, `agent_id` or "
        "`run_id` keyword. Without one (`None` counts as none) `add()` raises before it reads "
        "the messages: mem0's `ValidationError` (\"At least one of 'user_id', 'agent_id', "
        "or 'run_id' must be provided.\"; a `ValueError` before 0.1.118). An id inside "
        "`metadata` does not scope the memory."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I prefer tea")',
            good='memory.add("I prefer tea", user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.add(messages, metadata={"user_id": "alice"})',
            good="memory.add(messages, user_id=\"alice\", metadata={'source': 'chat'})",
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        # A second positional is MEM144's TypeError, an unknown keyword MEM143's.
        if entity_keyword_given(site, frozenset(OSS_ADD_PARAMS), positional=1) is not False:
            return
        yield Finding(
            site.call.func,
            f"`{client_class(site.dialect)}.add()` without `user_id=`, `agent_id=` or "
            "`run_id=` raises (mem0's ValidationError; ValueError before 0.1.118): name the "
            "entity the memory belongs to",
        )
