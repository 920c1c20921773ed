"""MEM125: `Memory(llm=...)`, `Memory(api_key=...)`: a keyword the constructor does not take."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CONSTRUCTOR, CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import (
    OSS_CONFIG_FIELDS,
    OSS_CONFIG_REMOVED,
    PLATFORM_CLIENT_PARAMS,
    REMOVED_CLIENT_PARAMS,
)


class MemoryCtorKeyword(Rule):
    code = "MEM125"
    name = "memory-ctor-keyword"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({CONSTRUCTOR})
    # No `versions`: `Memory.__init__(self, config: MemoryConfig = MemoryConfig())`, and the same
    # for `AsyncMemory`, in every wheel read (0.1.32, 0.1.55, 0.1.114, 1.0.0, 1.0.1, 2.2.1).
    severity = Severity.ERROR
    summary = "`Memory(llm=...)`, `Memory(api_key=...)`: a keyword the constructor does not take"
    why = (
        "The open-source `Memory()` and `AsyncMemory()` take one parameter, `config` (a "
        "`MemoryConfig`), and no `**kwargs`: any other keyword raises `TypeError: __init__() got "
        "an unexpected keyword argument`. Settings such as `llm` or `vector_store` are sections "
        "of the configuration (`Memory.from_config({...})`); `api_key` and `host` belong to the "
        "Platform client, `MemoryClient`."
    )
    fix_safety = "none (which configuration or which client was meant is the author's choice)"
    examples = [
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory(llm={"provider": "openai", "config": {"model": "gpt-4.1-mini"}})
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config(
                {"llm": {"provider": "openai", "config": {"model": "gpt-4.1-mini"}}}
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory(api_key=key)
            """,
            good="""
            from mem0 import MemoryClient

            memory = MemoryClient(api_key=key)
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        # The class the site was made for (`mem0.AsyncMemory`), whatever name the file calls it.
        qualified = site.resolver.qualified_name(site.call.func, site.scope) or "Memory"
        cls = qualified.rsplit(".", 1)[-1]
        for name, arg in site.keywords.items():
            if name == "config":
                continue
            if name in OSS_CONFIG_FIELDS or name in OSS_CONFIG_REMOVED:
                hint = f'pass it as a section: `{cls}.from_config({{"{name}": ...}})`'
            elif name in PLATFORM_CLIENT_PARAMS or name in REMOVED_CLIENT_PARAMS:
                hint = f"`{name}` is the Platform client's: `MemoryClient({name}=...)`"
            else:
                hint = "it takes only `config` (a `MemoryConfig`)"
            yield Finding(
                arg, f"`{cls}()` has no `{name}` parameter (TypeError: unexpected keyword); {hint}"
            )
        if not site.has_star_args and len(site.positional) > 1:
            yield Finding(
                site.call,
                f"`{cls}()` takes one argument, `config`; this call passes "
                f"{len(site.positional)} by position: TypeError",
            )
