"""MEM120: `Memory({...})`: a config dict passed to the constructor."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CONSTRUCTOR, CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import OPEN_SOURCE


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
