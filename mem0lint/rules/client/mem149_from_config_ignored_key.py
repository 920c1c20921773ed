"""MEM149: a top-level key of an open source `from_config` dict that mem0ai 2.x ignores.

Read from 2.0.0 to 2.2.1 (`MemoryConfig` in mem0/configs/base.py, `Memory.from_config` in
mem0/memory/main.py): `from_config(config_dict)` builds `MemoryConfig(**config_dict)`, a pydantic
model with the default `extra="ignore"` and the fields `vector_store`, `llm`, `embedder`,
`history_db_path`, `reranker`, `version`, `custom_instructions`. 1.x also had `graph_store`,
`custom_fact_extraction_prompt` and `custom_update_memory_prompt`; 2.0 removed them, so they are
dropped without a word, like any misspelt key. A key is read where the dict literal gives it, and
where the code writes it before the call (`config["graph_store"] = {...}`: bind/escapes.py).
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.bind import escapes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.ossadd import argument, follow, is_none
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import OSS_CONFIG_FIELDS, OSS_CONFIG_REMOVED


class FromConfigIgnoredKey(Rule):
    code = "MEM149"
    name = "from-config-ignored-key"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"from_config"})
    # MemoryConfig's fields are the same in 2.0.0, 2.0.4, 2.0.12, 2.0.20, 2.1.0 and 2.2.1; 1.x
    # read `graph_store` and the two custom prompts.
    versions = {"mem0ai": ">=" + releases.V2}
    severity = Severity.WARNING
    summary = (
        "`Memory.from_config({...})` with a key mem0ai 2.x silently ignores (`graph_store`, "
        "`custom_fact_extraction_prompt`, ...)"
    )
    why = (
        "`from_config` builds a `MemoryConfig`, a pydantic model that drops unknown keys "
        "without an error. mem0ai 2.0 removed the graph store (`graph_store`) "
        "and the custom prompts (`custom_fact_extraction_prompt`, "
        "`custom_update_memory_prompt`); `enable_graph` was never a config key. A 1.x config "
        "still loads, but the graph is not built "
        "and the prompt is not used. `custom_instructions` is the nearest replacement for the "
        "extraction prompt; it is added to mem0's own prompt rather than replacing it, so the "
        "text usually needs rewriting, and no fix is offered."
    )
    examples = [
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory.from_config({"custom_fact_extraction_prompt": "Only food facts."})
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config({"custom_instructions": "Only remember food facts."})
            """,
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            config = {"graph_store": {"provider": "neo4j"}, "history_db_path": ":memory:"}
            memory = Memory.from_config(config)
            """,
            good="""
            from mem0 import Memory

            config = {"history_db_path": ":memory:"}
            memory = Memory.from_config(config)
            """,
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory


            def build(graph):
                config = {"history_db_path": ":memory:"}
                if graph:
                    config["graph_store"] = {"provider": "neo4j"}
                return Memory.from_config(config)
            """,
            good="""
            from mem0 import Memory


            def build():
                config = {"history_db_path": ":memory:"}
                return Memory.from_config(config)
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = argument(site, "config_dict", 0)
        if arg is None:
            return
        value = follow(site, arg.value)
        written: list[tuple[str, cst.BaseExpression]] = []
        if value is arg.value and isinstance(value, cst.Name):
            # `config["graph_store"] = {...}` before the call: the literal and the keys written
            written = escapes.keyed_writes(
                site.resolver.collector, site.scope, value.value, site.outer or site.call
            )
            if not written:
                return
            value = next(b.value for b in site.scope.bindings[value.value] if b.kind == "value")
        if not isinstance(value, cst.Dict):
            return
        inline = value is arg.value
        keys = [
            (str_value(element.key), element.key, element.value)
            for element in value.elements
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)
        ]
        given = [*keys, *((k, None, v) for k, v in written)]
        # `"custom_prompt": None` (or a name bound once to None) asks for nothing: dropping it
        # changes nothing. A key written again may hold either value.
        asks_nothing = {key for key, _, v in given if is_none(follow(site, v))}
        for key, node, _ in given:
            if key is None or key in OSS_CONFIG_FIELDS or key in asks_nothing:
                continue
            if key in OSS_CONFIG_REMOVED:
                replacement = OSS_CONFIG_REMOVED[key]
                instead = (
                    f"mem0ai 2.0 removed it; `{replacement}` is the nearest option (added to "
                    "mem0's prompt, not replacing it)"
                    if replacement
                    else "mem0ai 2.0 removed it; delete it"
                )
            elif key == "enable_graph":
                instead = "open source 2.x has no graph memory; delete it"
            else:
                instead = f"the keys are {', '.join(OSS_CONFIG_FIELDS)}"
            yield Finding(
                node if inline else arg,
                f'config key "{key}" is silently ignored: `MemoryConfig` drops unknown keys '
                f"(no error); {instead}",
            )
