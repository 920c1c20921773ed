"""MEM141: `await` on a method of the sync `MemoryClient` / `Memory`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.surface.awaits import receiver_class
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_async import ASYNC_COUNTERPART_SINCE, PLAIN_METHODS


class AwaitSyncClient(Rule):
    code = "MEM141"
    name = "await-sync-client"
    dialects = MEM0
    methods = frozenset().union(*PLAIN_METHODS.values())
    severity = Severity.ERROR
    summary = "`await` on a method of the sync `MemoryClient` / `Memory`"
    why = (
        "The methods of `MemoryClient` and `Memory` are plain functions in every release: the "
        "call runs to the end (the request is sent, the memory written) and returns a dict or a "
        "list, and `await` on that raises TypeError (object dict can't be used in 'await' "
        "expression). In async code use `AsyncMemoryClient` / `AsyncMemory`, or run the sync "
        "call in a thread (`await asyncio.to_thread(client.search, ...)`), which is left alone."
    )
    fix_safety = (
        "unsafe (the `await` is removed: the program goes on with the result instead of raising "
        "after the call, and the sync call keeps blocking the event loop; switching to the async "
        "client is the better fix and is left to the author)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            async def recall(query):
                return await client.search(query, filters={"user_id": "alice"})
            """,
            good="""
            async def recall(query):
                return client.search(query, filters={"user_id": "alice"})
            """,
            fixed="""
            async def recall(query):
                return client.search(query, filters={"user_id": "alice"})
            """,
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad="""
            async def recall(query):
                found = await memory.search(query, filters={"user_id": "alice"})
                return found["results"]
            """,
            good="""
            async def recall(query):
                found = memory.search(query, filters={"user_id": "alice"})
                return found["results"]
            """,
            fixed="""
            async def recall(query):
                found = memory.search(query, filters={"user_id": "alice"})
                return found["results"]
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not site.awaited:
            return
        cls = receiver_class(site)
        if cls is None or site.method not in PLAIN_METHODS.get(cls, ()):
            return
        await_node = site.resolver.collector.await_of.get(id(site.call))
        fix = None
        if await_node is not None:
            bare = site.call.with_changes(lpar=await_node.lpar, rpar=await_node.rpar)
            fix = Fix(Applicability.UNSAFE, "Remove `await`", ((await_node, bare),))
        yield Finding(
            site.call,
            f"`{cls}.{site.method}()` is not a coroutine: it runs, returns a "
            f"{'list' if site.method == 'history' else 'dict'}, and `await` on that raises "
            # An older release has no async class to suggest (0.1.20 has no `AsyncMemory`).
            f"TypeError; use `Async{cls}` (mem0ai {ASYNC_COUNTERPART_SINCE[cls]} on) or drop the "
            "`await`",
            fix,
        )
