"""MEM136: scoping keywords (or extra arguments) on the id-based `get`/`delete`/`history`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.surface.mem156_id_keyword import id_keyword_for_memory_id
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import ID_CALL_PARAMS, client_class


class IdCallExtraArgument(Rule):
    code = "MEM136"
    name = "id-call-extra-argument"
    dialects = MEM0
    methods = frozenset({"get", "delete", "history"})
    # No `versions`: the same closed signatures in every release that has these classes (0.1.0
    # to 2.2.1; the 0.0.x wheels have no `mem0` client package).
    severity = Severity.ERROR
    summary = (
        "`delete(memory_id, user_id=...)`, `history(...)`, `get(...)`: id-based calls take the "
        "id only"
    )
    why = (
        "`get`, `delete` and `history` address one memory by its id and declare no other "
        "parameter (the Platform's `delete` also takes `delete_linked`), and no `**kwargs`: "
        "`user_id=`, `agent_id=`, `filters=` or a second positional argument raise `TypeError: "
        "... got an unexpected keyword argument`. The keyword never restricted the call to that "
        "user, so dropping it is left to the author."
    )
    fix_safety = (
        "unsafe (the keyword is removed: the call then runs, on the id alone, which may not be "
        "what the author believed the scope to be)"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.delete("mem-1", user_id="alice")',
            good='memory.delete("mem-1")',
            fixed='memory.delete("mem-1")',
            unsafe=True,
        ),
        Example(
            "mem0-platform",
            bad='client.history("mem-1", user_id="alice")',
            good='client.history("mem-1")',
            fixed='client.history("mem-1")',
            unsafe=True,
        ),
        Example(
            "mem0-platform",
            bad='client.get("mem-1", agent_id="support")',
            good='client.get("mem-1")',
            fixed='client.get("mem-1")',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        params = ID_CALL_PARAMS[site.dialect.id][site.method]
        where = f"`{client_class(site.dialect)}.{site.method}()`"
        misnamed = id_keyword_for_memory_id(site)  # the id itself, as `id=`: MEM156
        extra = [
            (name, arg)
            for name, arg in site.keywords.items()
            if name not in params and arg is not misnamed
        ]
        for name, arg in extra:
            yield Finding(
                arg,
                f"{where} takes the memory id only: `{name}=` raises TypeError (unexpected "
                "keyword argument); it never scoped the call",
                self._fix(site, arg, name),
            )
        if site.has_star_args:
            return
        if len(site.positional) > len(params):
            yield Finding(
                site.call,
                f"{where} takes {len(params)} argument{'s' if len(params) > 1 else ''} "
                f"({', '.join(params)}); this call passes {len(site.positional)} by position: "
                "TypeError",
            )

    @staticmethod
    def _fix(site: CallSite, arg: cst.Arg, name: str) -> Fix | None:
        if site.has_star_args:
            return None
        return Fix(Applicability.UNSAFE, f"Remove `{name}=`", (fixes.without_arg(site.call, arg),))
