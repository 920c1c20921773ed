"""MEM143: a keyword open source `Memory.add()` does not take (`filters=`, `app_id=`, ...).

Read from the wheels of 0.1.20 to 2.2.1 (`mem0/memory/main.py`): from 0.1.100 on, `add(messages,
*, user_id, agent_id, run_id, metadata, [timestamp, expiration_date,] infer, memory_type,
prompt)` has no `**kwargs` (AsyncMemory adds `llm`). 0.1.0-0.1.99 still took `filters=`.
`timestamp=` (TypeError before 2.0.6, then ValueError) is MEM147's.
"""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import camel_to_snake
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import OSS_ADD_PARAMS, REMOVED_WRITE_KEYWORDS

# What to write instead, for the keywords people pass most (issue #3012, hermes PR #45981).
INSTEAD = {
    "filters": "pass the ids as keywords (`user_id=`, `agent_id=`, `run_id=`)",
    "app_id": "open source has no app scope: scope by `user_id=` / `agent_id=` / `run_id=`, "
    'or keep the app in `metadata={"app_id": ...}`',
    "session_id": "the session is `run_id=`",
}


class OssAddUnknownKeyword(Rule):
    code = "MEM143"
    name = "oss-add-unknown-keyword"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"add"})
    # 0.1.0-0.1.99: positional-or-keyword parameters with `filters`; from 0.1.100 the
    # signature is closed and keyword-only (read from 0.1.97, 0.1.99, 0.1.100 ... 2.2.1).
    versions = {"mem0ai": ">=" + releases.OSS_ADD_KEYWORD_ONLY}
    severity = Severity.ERROR
    summary = "A keyword open source `Memory.add()` does not take (`filters=`, `app_id=`, ...)"
    why = (
        "Open source `add(messages, *, user_id, agent_id, run_id, metadata, timestamp, "
        "expiration_date, infer, memory_type, prompt)` has no `**kwargs` since mem0ai 0.1.100: "
        "any other keyword (`filters=`, `app_id=`, `session_id=`, a camelCase `userId=`) raises "
        "`TypeError: add() got an unexpected keyword argument`. Keywords removed in 2.0 "
        "(`output_format=`, `version=`...) are MEM135's, the Platform-only `timestamp=` MEM147's."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I like tea", filters={"user_id": "alice"})',
            good='memory.add("I like tea", user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.add("I like tea", user_id="alice", app_id="shop")',
            good='memory.add("I like tea", user_id="alice", metadata={"app_id": "shop"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name, arg in site.keywords.items():
            if name in REMOVED_WRITE_KEYWORDS:
                continue  # MEM135
            if name == "timestamp":
                continue  # accepted from 2.0.6, only to raise ValueError: MEM147
            if name in OSS_ADD_PARAMS:
                continue
            snake = camel_to_snake(name)
            if snake != name and snake in OSS_ADD_PARAMS:
                instead = f"write `{snake}=`"
            else:
                instead = INSTEAD.get(name, "remove it")
            yield Finding(
                arg,
                f"open source `Memory.add()` has no `{name}` parameter and no `**kwargs` "
                f"(TypeError: unexpected keyword argument); {instead}",
            )
