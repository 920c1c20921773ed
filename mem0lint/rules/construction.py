"""MEM119-MEM121: building mem0 clients (constructor arguments, `from_config`)."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CONSTRUCTOR, CallSite
from mem0lint.dialects import OPEN_SOURCE, PLATFORM
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity

# `MemoryClient.__init__(api_key=None, host=None, client=None)` has no **kwargs since mem0ai 2.x:
# these former parameters raise TypeError (organisation and project now come from the key).
REMOVED_CLIENT_PARAMS = ("org_id", "project_id", "org_name", "project_name")


class RemovedClientParam(Rule):
    code = "MEM119"
    versions = {"mem0ai": ">=2.0.0"}
    name = "removed-client-param"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({CONSTRUCTOR})
    severity = Severity.ERROR
    summary = "`MemoryClient(org_id=..., project_id=...)`: parameters removed in mem0ai 2.x"
    why = (
        "`MemoryClient` and `AsyncMemoryClient` take only `api_key`, `host` and `client`; the "
        "organisation and project are derived from the API key. The old `org_id` / "
        "`project_id` (and `org_name` / `project_name`) keywords raise TypeError."
    )
    fix_safety = "safe (the removed keywords are deleted)"
    examples = [
        Example(
            "mem0-platform",
            bad="""
            from mem0 import MemoryClient

            client = MemoryClient(api_key=key, org_id="org-1", project_id="proj-1")
            """,
            good="""
            from mem0 import MemoryClient

            client = MemoryClient(api_key=key)
            """,
            fixed="""
            from mem0 import MemoryClient

            client = MemoryClient(api_key=key)
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        removed = [a for name, a in site.keywords.items() if name in REMOVED_CLIENT_PARAMS]
        if not removed:
            return
        kept = [a for a in site.call.args if not any(a is r for r in removed)]
        names = ", ".join(f"`{a.keyword.value}`" for a in removed)
        fix = Fix(
            Applicability.SAFE,
            f"Remove {names}",
            ((site.call, fixes.with_args(site.call, kept)),),
        )
        for arg in removed:
            yield Finding(
                arg,
                f"`{arg.keyword.value}=` was removed in mem0ai 2.x (TypeError); the organisation "
                "and project come from the API key",
                fix,
            )


class MemoryCtorWithDict(Rule):
    code = "MEM120"
    name = "memory-ctor-with-dict"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({CONSTRUCTOR})
    severity = Severity.ERROR
    summary = "`Memory({...})`: a config dict passed to the constructor"
    why = (
        "`Memory(config)` expects a `MemoryConfig` object; a plain dict fails on the first "
        "attribute access (AttributeError: 'dict' object has no attribute ...). Dicts go "
        "through `Memory.from_config(dict)`, which validates them into a `MemoryConfig`."
    )
    fix_safety = "safe (the call becomes `from_config` with the same dict)"
    examples = [
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory({"vector_store": {"provider": "qdrant"}})
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config({"vector_store": {"provider": "qdrant"}})
            """,
            fixed="""
            from mem0 import Memory

            memory = Memory.from_config({"vector_store": {"provider": "qdrant"}})
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        args = site.call.args
        if len(args) != 1 or args[0].star:
            return
        arg = args[0]
        if arg.keyword is not None and arg.keyword.value != "config":
            return
        if not isinstance(site.follow(arg.value), cst.Dict):
            return
        positional = arg.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
        factory = site.call.with_changes(
            func=cst.Attribute(value=site.call.func, attr=cst.Name("from_config")),
            args=[positional],
        )
        yield Finding(
            arg,
            "`Memory()` takes a `MemoryConfig`, not a dict (AttributeError); use "
            "`Memory.from_config(dict)`",
            Fix(Applicability.SAFE, "Call `from_config`", ((site.call, factory),)),
        )


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
