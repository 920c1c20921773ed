"""MEM144: the user id passed by position to `add()`: `add(messages, "alice")`.

Read from the wheels of 0.1.20 to 2.2.1: open source `Memory.add(self, messages, user_id=None,
...)` took it by position up to 0.1.99; from 0.1.100 everything after `messages` is keyword-only.
The Platform's `MemoryClient.add(messages, **kwargs)` (0.1.x-1.x) never took a second positional;
from 2.0.0 `add(messages, options=None, **kwargs)` binds it to `options` and calls
`options.model_dump(...)`.
"""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.surface.mem133_update_text_positional import is_text
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import MEM0, PLATFORM


class AddPositionalId(Rule):
    code = "MEM144"
    name = "add-positional-id"
    dialects = MEM0
    methods = frozenset({"add"})
    # Open source took `user_id` by position up to 0.1.99 (keyword-only from 0.1.100); the
    # Platform client never did, and binds it to `options` from 2.0.
    versions = {"mem0ai": ">=" + releases.OSS_ADD_KEYWORD_ONLY}
    severity = Severity.ERROR
    summary = '`add(messages, "alice")`: the user id passed by position'
    why = (
        "Open source `Memory.add(messages, *, user_id=None, ...)` is keyword-only since mem0ai "
        "0.1.100: a second positional argument raises `TypeError: add() takes 2 positional "
        "arguments but 3 were given`. The Platform's `MemoryClient.add(messages, options=None, "
        "**kwargs)` binds a string there to `options` and fails with `AttributeError: 'str' "
        "object has no attribute 'model_dump'` (TypeError before 2.0)."
    )
    fix_safety = (
        "unsafe (the second positional becomes `user_id=`: what it bound to up to 0.1.99, but "
        "the author may have meant another id)"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I like tea", "alice")',
            good='memory.add("I like tea", user_id="alice")',
            fixed='memory.add("I like tea", user_id="alice")',
            unsafe=True,
        ),
        Example(
            "mem0-platform",
            bad='client.add("I like tea", "alice")',
            good='client.add("I like tea", user_id="alice")',
            fixed='client.add("I like tea", user_id="alice")',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        positional = site.positional
        if len(positional) < 2 or any(a.star for a in site.call.args):
            return
        second = positional[1]
        platform = site.dialect.id == PLATFORM.id
        if platform:
            if not is_text(second.value):
                return  # a variable may hold an `AddMemoryOptions`
            message = (
                "`MemoryClient.add(messages, options=None, **kwargs)`: a string in second place "
                "binds to `options` (AttributeError: 'str' object has no attribute "
                "'model_dump'; TypeError before mem0ai 2.0); pass the id as `user_id=`"
            )
        else:
            message = (
                "open source `Memory.add(messages, *, user_id=None, ...)` takes the ids as "
                f"keywords only: {len(positional)} positional arguments raise TypeError; pass "
                "the id as `user_id=`"
            )
        fix = None
        if len(positional) == 2 and site.keyword("user_id") is None:
            args = [
                fixes.keyword_arg("user_id", a.value) if a is second else a for a in site.call.args
            ]
            fix = Fix(
                Applicability.UNSAFE,
                "Pass the id as `user_id=`",
                ((site.call, fixes.with_args(site.call, args)),),
            )
        yield Finding(second, message, fix)
