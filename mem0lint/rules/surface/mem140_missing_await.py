"""MEM140: a method of `AsyncMemoryClient` / `AsyncMemory` called without `await`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.surface.awaits import (
    _parents,
    await_allowed,
    awaited,
    misuses,
    receiver_class,
)
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_async import COROUTINE_METHODS
from mem0lint.sdk.releases import ASYNC_CLIENT

WHAT = {
    "discarded": "the coroutine is thrown away, so the call never runs (nothing is sent or "
    'stored; Python warns "coroutine ... was never awaited")',
    "iterated": "iterating the coroutine raises TypeError ('coroutine' object is not iterable)",
    "indexed": "subscripting the coroutine raises TypeError ('coroutine' object is not "
    "subscriptable)",
    "sliced": "subscripting the coroutine raises TypeError ('coroutine' object is not "
    "subscriptable)",
    "key": "`.get` on the coroutine raises AttributeError ('coroutine' object has no attribute "
    "'get')",
    "attribute": "reading an attribute of the coroutine raises AttributeError",
    "measured": "`len()` of the coroutine raises TypeError",
}


class MissingAwait(Rule):
    code = "MEM140"
    name = "missing-await"
    dialects = MEM0
    methods = frozenset().union(*COROUTINE_METHODS.values())
    versions = {"mem0ai": f">={ASYNC_CLIENT}"}
    severity = Severity.ERROR
    summary = "A method of `AsyncMemoryClient` / `AsyncMemory` called without `await`"
    why = (
        "The memory methods of the async clients are coroutine functions in every release "
        "(`AsyncMemoryClient` since mem0ai 0.1.22, `AsyncMemory` since 0.1.89): calling one "
        "only creates a coroutine. Thrown away, the call never runs: the memory is not added, "
        "updated or deleted, and nothing fails but a RuntimeWarning. Used as the result "
        "(iterated, indexed, `.get(...)`, `len()`), it raises TypeError or AttributeError. "
        "Reported only when the receiver is one of the async classes for sure and the "
        "coroutine provably never reaches an `await` (passed on, returned, stored or given to "
        "`asyncio.gather` / `create_task` / `asyncio.run`, it is left alone)."
    )
    fix_safety = (
        "safe inside an `async def` when the coroutine is used as the result (the code raises "
        "there today; `await` is inserted at the call); unsafe when the call's value is thrown "
        "away (the call starts to run: a write the program never made is made) or read through "
        "a name (the call runs even where the name's uses are not reached); none outside an "
        "`async def`, in a lambda or in a generator expression"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            from mem0 import AsyncMemoryClient

            client = AsyncMemoryClient()

            async def main():
                found = client.search("tea", filters={"user_id": "alice"})["results"]
                return found
            """,
            good="""
            from mem0 import AsyncMemoryClient

            client = AsyncMemoryClient()

            async def main():
                found = (await client.search("tea", filters={"user_id": "alice"}))["results"]
                return found
            """,
            fixed="""
            from mem0 import AsyncMemoryClient

            client = AsyncMemoryClient()

            async def main():
                found = (await client.search("tea", filters={"user_id": "alice"}))["results"]
                return found
            """,
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import AsyncMemory

            memory = AsyncMemory()

            async def main():
                page = memory.get_all(filters={"user_id": "alice"})
                return len(page["results"])
            """,
            good="""
            from mem0 import AsyncMemory

            memory = AsyncMemory()

            async def main():
                page = await memory.get_all(filters={"user_id": "alice"})
                return len(page["results"])
            """,
            fixed="""
            from mem0 import AsyncMemory

            memory = AsyncMemory()

            async def main():
                page = await memory.get_all(filters={"user_id": "alice"})
                return len(page["results"])
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.awaited:
            return
        cls = receiver_class(site)
        if cls is None or site.method not in COROUTINE_METHODS.get(cls, ()):
            return
        found = misuses(site)
        if not found:
            return
        parents = _parents(site.resolver.collector, site)
        fix = None
        if await_allowed(site.call, parents):
            unsafe = found[0].kind == "discarded" or found[0].through_name
            fix = Fix(
                Applicability.UNSAFE if unsafe else Applicability.SAFE,
                "Await the call",
                ((site.call, awaited(site.call, parents)),),
            )
        method = f"`{cls}.{site.method}()`"
        for index, use in enumerate(found):
            if use.kind == "discarded":
                message = f"{method} is called without `await`: {WHAT[use.kind]}; add `await`"
            else:
                subject = (
                    f"`{use.expr.value}`, bound to {method} without `await`,"
                    if use.through_name
                    else f"{method} without `await`"
                )
                message = f"{subject} is a coroutine, not the result: {WHAT[use.kind]}; add `await`"
            yield Finding(use.expr, message, fix if index == 0 else None)
