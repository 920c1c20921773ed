"""MEM121: `await AsyncMemory.from_config(...)`: the factory is synchronous."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import OPEN_SOURCE


class AwaitFromConfig(Rule):
    code = "MEM121"
    versions = {"mem0ai": ">=1.0.10"}
    name = "await-from-config"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"from_config"})
    severity = Severity.ERROR
    summary = "`await AsyncMemory.from_config(...)`: the factory is synchronous"
    why = (
        "`from_config` is a plain classmethod on `AsyncMemory` too: it returns the instance, not "
        "a coroutine, and awaiting it raises TypeError (object AsyncMemory can't be used in "
        "'await' expression). Only the memory methods are coroutines."
    )
    fix_safety = "safe (the `await` is removed)"
    examples = [
        Example(
            "mem0-oss",
            bad="""
            from mem0 import AsyncMemory

            async def build(config):
                return await AsyncMemory.from_config(config)
            """,
            good="""
            from mem0 import AsyncMemory

            async def build(config):
                return AsyncMemory.from_config(config)
            """,
            fixed="""
            from mem0 import AsyncMemory

            async def build(config):
                return AsyncMemory.from_config(config)
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not site.awaited:
            return
        await_node = site.resolver.collector.await_of.get(id(site.call))
        fix = None
        if await_node is not None:
            bare = site.call.with_changes(lpar=await_node.lpar, rpar=await_node.rpar)
            fix = Fix(Applicability.SAFE, "Remove `await`", ((await_node, bare),))
        yield Finding(
            site.call,
            "`from_config()` is synchronous, also on `AsyncMemory`; awaiting its result raises "
            "TypeError: drop the `await`",
            fix,
        )
