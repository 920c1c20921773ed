"""MEM156: `get(id=...)`, `delete(id=...)`: the id-based calls name the id `memory_id`."""

from __future__ import annotations

from typing import Iterator, Union

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import rename_fix
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import ID_METHODS, client_class


def id_keyword_for_memory_id(site: CallSite) -> Union[cst.Arg, None]:
    """The `id=` argument of a call that gives its memory id only that way: nothing by
    position, no `memory_id=`, no `*`/`**` spread that could hold either. MEM136 leaves such an
    `id=` to this rule (it is the id misnamed, not an extra argument)."""
    arg = site.keyword("id")
    if arg is None or site.positional or site.keyword("memory_id") or site.has_star_args:
        return None
    return arg


class IdKeyword(Rule):
    code = "MEM156"
    name = "id-keyword"
    dialects = MEM0
    methods = frozenset(ID_METHODS)
    # No `versions`: `memory_id` is the first parameter of `get`, `delete`, `history` and
    # `update` on all four clients in every wheel read (0.1.0, 0.1.10, 0.1.20, 0.1.32, 0.1.114,
    # 1.0.0, 2.2.1).
    severity = Severity.ERROR
    summary = "`get(id=...)`, `delete(id=...)`, `update(id=...)`: the id goes in `memory_id=`"
    why = (
        "The REST API and the memories themselves call the id `id`, but the Python clients' "
        "`get`, `delete`, `history` and `update` name their first parameter `memory_id`. "
        "`id=` raises `TypeError` (an unexpected keyword; on the Platform's 2.x `update()`, "
        "which takes `**kwargs`, a missing `memory_id`), so the call never reaches the memory."
    )
    fix_safety = (
        "safe (`id=` is renamed `memory_id=`, the same value: the call then addresses the memory "
        "the code named); no fix with a `*`/`**` spread, or when the id is also given"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="client.get(id=memory_id)",
            good="client.get(memory_id=memory_id)",
            fixed="client.get(memory_id=memory_id)",
        ),
        Example(
            "mem0-oss",
            bad='memory.update(id=memory_id, text="Likes tea")',
            good='memory.update(memory_id=memory_id, text="Likes tea")',
            fixed='memory.update(memory_id=memory_id, text="Likes tea")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = id_keyword_for_memory_id(site)
        if arg is None:
            return
        yield Finding(
            arg,
            f"`{client_class(site.dialect)}.{site.method}()` takes the id as `memory_id`: "
            "`id=` raises TypeError",
            rename_fix(site, arg, "memory_id", "Rename `id` to `memory_id`"),
        )
