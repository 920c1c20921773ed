"""MEM413: open source `add()` / `search()` without an entity id, before 0.1.100.

Read in every wheel from 0.1.0 to 0.1.99 and run on a stubbed `Memory` by a helper session
(each release, each call shape): `add()` and `search()` start with `filters = filters or {}`,
copy each truthy `user_id` / `agent_id` / `run_id` keyword into it, and raise
`ValueError("One of the filters: user_id, agent_id or run_id is required!")` unless one of the
three is a key of `filters` (`key in filters`: even `{"user_id": None}` passes). An id in
`metadata` never counts. `get_all()` did not check before 0.1.100; from 0.1.100 on, MEM411
and MEM412 say what raises.
"""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Scalar
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.entities.shared import entity_keyword_given
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import client_class

# The keywords every release from 0.1.0 to 0.1.99 takes; the ids may also come by position
# (`add(messages, user_id, ...)`, `search(query, user_id, ...)`), which is not judged. Another
# keyword (`infer=` before 0.1.69, ...) raises TypeError first.
KEYWORDS = {
    "add": frozenset({"user_id", "agent_id", "run_id", "metadata", "filters", "prompt"}),
    "search": frozenset({"query", "user_id", "agent_id", "run_id", "limit", "filters"}),
}


class OssEntityBeforeKeywordOnly(Rule):
    code = "MEM413"
    name = "oss-entity-before-0-1-100"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset(KEYWORDS)
    versions = {"mem0ai": f"<{releases.OSS_ADD_KEYWORD_ONLY}"}
    severity = Severity.ERROR
    summary = "Open source `add()` / `search()` without an entity id, before mem0ai 0.1.100"
    why = (
        'Before 0.1.100, open source `add()` and `search()` raise `ValueError` ("One of the '
        'filters: user_id, agent_id or run_id is required!") unless the call names an entity: '
        "a `user_id=`, `agent_id=` or `run_id=` keyword that is not `None`, or one of those keys "
        "in `filters`. An id inside `metadata` does not count."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I prefer tea", metadata={"user_id": "alice"})',
            good='memory.add("I prefer tea", user_id="alice")',
            release="0.1.32",
        ),
        Example(
            "mem0-oss",
            bad="memory.search(query, limit=3)",
            good='memory.search(query, user_id="alice", limit=3)',
            release="0.1.99",
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        # The query or messages by position; a second positional may be an id.
        if entity_keyword_given(site, KEYWORDS[site.method], positional=1) is not False:
            return
        entities = site.dialect.grammar.entity_fields  # user_id, agent_id, run_id
        filters = site.filters
        if filters is not None and not (isinstance(filters, Scalar) and filters.value is None):
            if not isinstance(filters, DictValue) or not filters.complete:
                return  # a hidden key may name the entity
            if any(filters.get(key) is not None for key in entities):
                return
        yield Finding(
            site.call.func,
            f"`{client_class(site.dialect)}.{site.method}()` before mem0ai 0.1.100 raises "
            "ValueError without an entity id: pass `user_id=`, `agent_id=` or `run_id=` (or "
            "that key in `filters`)",
        )
