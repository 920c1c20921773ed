"""MEM412: open source `search()` / `get_all()` without an entity keyword, 0.1.100 to 1.x.

Read in every wheel from 0.1.100 to 1.0.11 and run on a stubbed `Memory` by a helper session
(each release, each call shape): `search()` and `get_all()` build their scope in
`_build_filters_and_metadata` from the `user_id` / `agent_id` / `run_id` keywords only (a
truthiness test) and raise when none is given: `ValueError` up to 0.1.117, mem0's
`ValidationError` from 0.1.118. A `filters={"user_id": ...}` dict is copied but never read for
the scope: the 2.x form raises here. 2.0.0 turned this around (MEM401, MEM101); before 0.1.100
`get_all()` did not check and `search()` read `filters` keys too (MEM413).
"""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.entities.shared import entity_keyword_given
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import client_class

# The keywords every release from 0.1.100 to 1.0.11 takes (none has **kwargs). Another one
# (`threshold=` before 0.1.106, `rerank=` before 1.0) raises TypeError first: not judged here.
KEYWORDS = {
    "search": frozenset({"query", "user_id", "agent_id", "run_id", "limit", "filters"}),
    "get_all": frozenset({"user_id", "agent_id", "run_id", "limit", "filters"}),
}


class OssEntityKeywordBefore2(Rule):
    code = "MEM412"
    name = "oss-entity-keyword-before-2"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset(KEYWORDS)
    versions = {"mem0ai": f">={releases.OSS_ADD_KEYWORD_ONLY},<{releases.V2}"}
    severity = Severity.ERROR
    summary = "Open source `search()` / `get_all()` without an entity keyword, 0.1.100 to 1.x"
    why = (
        "From 0.1.100 to 1.x, open source `search()` and `get_all()` take the entity id as a "
        "keyword, `user_id=`, `agent_id=` or `run_id=`, and raise without one (`None` counts as "
        "none): `ValueError`, or mem0's `ValidationError` from 0.1.118. A "
        '`filters={"user_id": ...}` dict is the 2.x form: these releases do not read the scope '
        "from it, so the call raises all the same."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("tea", filters={"user_id": "alice"})',
            good='memory.search("tea", user_id="alice")',
            release="1.0.11",
        ),
        Example(
            "mem0-oss",
            bad="memory.get_all(limit=1)",
            good='memory.get_all(user_id="alice", limit=1)',
            release="0.1.118",
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        query = 1 if site.method == "search" else 0  # the rest is keyword-only
        if entity_keyword_given(site, KEYWORDS[site.method], positional=query) is not False:
            return
        entities = site.dialect.grammar.entity_fields  # user_id, agent_id, run_id
        hint = ""
        filters = site.filters
        if isinstance(filters, DictValue) and any(filters.get(k) for k in entities):
            hint = '; `filters={"user_id": ...}` is the mem0ai 2.x form, not read here'
        yield Finding(
            site.call.func,
            f"`{client_class(site.dialect)}.{site.method}()` from mem0ai 0.1.100 to 1.x takes "
            "the entity id as a keyword (`user_id=`, `agent_id=` or `run_id=`): without one it "
            f"raises (ValueError; mem0's ValidationError from 0.1.118){hint}",
        )
