"""MEM157: a keyword open source `Memory.update()` does not take (`user_id=`, `filters=`, ...).

`update(memory_id, data)` to 1.0.0, then `metadata`, `expiration_date` (2.0.10) and `text`
(2.0.12) were added, never `**kwargs` (sdk/mem0_arguments.py, `OSS_UPDATE_PARAMS`). Keywords
removed in 2.0 are MEM135's, `id=` for the memory id MEM156's.
"""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.surface.mem156_id_keyword import id_keyword_for_memory_id
from mem0lint.sdk.dialects import MEM0_ENTITIES, OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import OSS_UPDATE_PARAMS, REMOVED_WRITE_KEYWORDS


class OssUpdateUnknownKeyword(Rule):
    code = "MEM157"
    name = "oss-update-unknown-keyword"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"update"})
    # No `versions`: no release from 0.1.0 to 2.2.1 has `**kwargs` on update(); a keyword
    # outside every release's parameters raises TypeError on all of them.
    severity = Severity.ERROR
    summary = "A keyword open source `Memory.update()` does not take (`user_id=`, `filters=`, ...)"
    why = (
        "Open source `update(memory_id, text, metadata, expiration_date, data)` addresses one "
        "memory by its id and has no `**kwargs` in any release: `user_id=`, `agent_id=`, "
        "`filters=` or any other keyword raises `TypeError: update() got an unexpected keyword "
        "argument`. The keyword never scoped the update to that user. Keywords removed in 2.0 "
        "(`output_format=`, `enable_graph=`...) are MEM135's, `id=` MEM156's."
    )
    fix_safety = (
        "unsafe (the keyword is removed: the call then runs and updates the memory with that id, "
        "whoever it belongs to); none beside a `*` or `**` argument"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.update("mem-1", text="Likes tea", user_id="alice")',
            good='memory.update("mem-1", text="Likes tea")',
            fixed='memory.update("mem-1", text="Likes tea")',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        misnamed = id_keyword_for_memory_id(site)  # the id itself, as `id=`: MEM156
        for name, arg in site.keywords.items():
            if name in OSS_UPDATE_PARAMS or name in REMOVED_WRITE_KEYWORDS or arg is misnamed:
                continue
            scoping = name in MEM0_ENTITIES or name == "filters"
            instead = "it never scoped the update: remove it" if scoping else "remove it"
            fix = None
            if not site.has_star_args and any(a is arg for a in site.call.args):
                removed = fixes.without_arg(site.call, arg)
                fix = Fix(Applicability.UNSAFE, f"Remove `{name}=`", (removed,))
            yield Finding(
                arg,
                f"open source `Memory.update()` has no `{name}` parameter and no `**kwargs` "
                f"(TypeError: unexpected keyword argument); {instead}",
                fix,
            )
