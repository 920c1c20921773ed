"""MEM155: a docs placeholder (`"m1"`, `"<memory_id>"`, `"your_memory_id"`) as a memory id."""

from __future__ import annotations

import re
from typing import Iterator, Union

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.entity_scope import in_test
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import ID_METHODS, PLACEHOLDER_MEMORY_ID, client_class

_PLACEHOLDER = re.compile(PLACEHOLDER_MEMORY_ID, re.IGNORECASE)


def _id_argument(site: CallSite) -> Union[cst.Arg, None]:
    if site.positional:
        return site.positional[0]
    return site.keyword("memory_id")


class PlaceholderMemoryId(Rule):
    code = "MEM155"
    name = "placeholder-memory-id"
    dialects = MEM0
    methods = frozenset(ID_METHODS)
    # No `versions`: ids are UUIDs in every release (0.1.0 to 2.2.1).
    severity = Severity.WARNING
    summary = (
        'A docs placeholder (`"m1"`, `"<memory_id>"`, `"your_memory_id"`) passed as the memory id'
    )
    why = (
        "Memory ids are UUIDs (open source makes them with `uuid.uuid4()`; the Platform's "
        'openapi declares `format: uuid`). A placeholder copied from a tutorial (`"m1"`, '
        '`"mem_123"`, `"<memory_id>"`, `"your_memory_id"`, the quoted name `"memory_id"`) '
        "names no memory: the Platform answers 4xx, open source `get()` returns None and "
        '`update()`/`delete()` raise ValueError (mem0 #1522, #1547). Use the `"id"` of a '
        "`search()`/`get_all()`/`add()` result. Not reported in Markdown pages and notebooks, "
        "where a placeholder is the point, nor in test functions."
    )
    fix_safety = "none (the real id is not in the code)"
    examples = [
        Example(
            "mem0-platform",
            bad='client.update("your_memory_id", text="Likes tea")',
            good=(
                'for hit in client.search("tea", filters={"user_id": "alice"})["results"]:\n'
                '    client.update(hit["id"], text="Likes tea")'
            ),
        ),
        Example(
            "mem0-oss",
            bad='memory.delete(memory_id="m1")',
            good=(
                'for m in memory.get_all(filters={"user_id": "alice"})["results"]:\n'
                '    memory.delete(memory_id=m["id"])'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        collector = site.resolver.collector
        if getattr(collector, "closed", True) or site.rest or in_test(site):
            return  # a page or notebook (`closed`): placeholders are for the reader
        arg = _id_argument(site)
        if arg is None or arg.star:
            return
        node, through = arg.value, None
        if isinstance(node, cst.Name):
            bindings = site.scope.bindings.get(node.value, [])
            if len(bindings) != 1 or bindings[0].kind != "value":
                return
            node, through = bindings[0].value, node.value
        if not isinstance(node, cst.SimpleString):
            return
        value = str_value(node)
        if value is None or not _PLACEHOLDER.match(value):
            return
        named = f" (bound to `{through}`)" if through else ""
        yield Finding(
            arg,
            f'`{client_class(site.dialect)}.{site.method}()` is given "{value}"{named}, a docs '
            "placeholder, not a memory id (ids are UUIDs): the memory is not found; pass the "
            '`"id"` of a result',
        )
