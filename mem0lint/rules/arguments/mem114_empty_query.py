"""MEM114: `search()` with an empty or whitespace-only query literal."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import EMPTY_QUERY


class EmptyQuery(Rule):
    code = "MEM114"
    # 2.0.0 to 2.0.4 send an empty query on (no check in either SDK's `search`).
    versions = {"mem0ai": ">=" + releases.EMPTY_QUERY_REJECTED}
    name = "empty-query"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "`search()` with an empty or whitespace-only query literal"
    why = (
        "Both mem0 SDKs strip the query and raise ValueError ('Invalid query: cannot be empty or "
        "whitespace-only') before anything is searched. To list memories without a query, call "
        "`get_all(filters=...)`."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("", filters={"user_id": "alice"})',
            good='client.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search(query="  ", filters={"user_id": "alice"})',
            good='memory.get_all(filters={"user_id": "alice"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        yield from mirrors.empty_query(
            site,
            "query",
            EMPTY_QUERY,
            "`search()` query is empty or whitespace (ValueError); pass the text to search "
            "for, or call `get_all(filters=...)` to list memories",
        )
