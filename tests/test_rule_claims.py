"""Rules declare the keywords and keys they explain and what their fixes rename; the lists other
rules used to keep by hand are derived from those declarations.

The old hand-kept lists of the mem0 argument rules are written out here once, to prove that the
derivation reproduces them; the registry-wide checks keep future declarations consistent.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

import pytest
from conftest import fix_source, lint_source

from mem0lint.rules import all_rules
from mem0lint.rules.arguments.mem107_other_unknown_kwarg import explained_elsewhere
from mem0lint.rules.arguments.shared import _could_become
from mem0lint.sdk.dialects import DIALECTS, MEM0, MEM0_ENTITIES, MEMOS_KEYWORDS

PLATFORM_PREAMBLE = "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"

CAP = {"limit", "k", "n", "max_results", "count", "size"}
THRESHOLD = {"min_score", "score_threshold", "similarity_threshold", "min_relevance", "cutoff"}
RERANK = {"use_rerank", "reranking", "reorder"}

# The hand-kept `EXPLAINED_ELSEWHERE` of rules/arguments.py before the split.
OLD_EXPLAINED = {
    "search": CAP
    | THRESHOLD
    | RERANK
    | {"page", "page_size", "offset", "filter"}
    | MEM0_ENTITIES
    | set(MEMOS_KEYWORDS),
    # MemOS keywords too: MEM691 reports them on `get_all()` as on `search()` (the old list
    # left them out there, so MEM107 reported each one a second time).
    "get_all": CAP | {"filter", "top_k", "page", "page_size"} | MEM0_ENTITIES | set(MEMOS_KEYWORDS),
}


@pytest.mark.parametrize("dialect", sorted(MEM0))
@pytest.mark.parametrize("method", ["search", "get_all"])
def test_explained_elsewhere_is_the_old_list(dialect, method):
    # MEM107 skips the method's own parameters first: only the rest of each list matters.
    params = set(DIALECTS[dialect].methods[method].params)
    assert explained_elsewhere(dialect, method) - params == OLD_EXPLAINED[method] - params


def _old_could_become(name: str) -> set[str]:
    """The hand-kept `_could_become` of rules/arguments.py before the split (camelCase aside)."""
    targets = set()
    if name in CAP:
        targets |= {"top_k", "page_size"}
    if name == "top_k":
        targets.add("page_size")
    if name == "page_size":
        targets.add("top_k")
    if name in THRESHOLD:
        targets.add("threshold")
    if name in RERANK:
        targets.add("rerank")
    if name == "filter":
        targets.add("filters")
    return targets


@pytest.mark.parametrize(
    "name",
    sorted(CAP | THRESHOLD | RERANK | {"top_k", "page_size", "page", "filter", "filters", "x"}),
)
def test_could_become_is_the_old_function(name):
    assert _could_become(name) == _old_could_become(name)


def test_could_become_knows_camel_case_and_memos_keywords():
    assert _could_become("topK") == {"top_k"}
    assert _could_become("memory_limit_number") == {"top_k"}
    assert _could_become("relativity") == {"threshold"}


@pytest.mark.parametrize(
    "call",
    [
        "client.search('q', filters={'user_id': 'u'}, limit=5, memory_limit_number=3)",
        "client.search('q', filters={'user_id': 'u'}, min_score=0.2, relativity=0.5)",
    ],
)
def test_a_memos_keyword_and_an_alias_never_become_one_keyword_twice(call):
    # Before: MEM102 and MEM691 both renamed into `top_k` in one round -> `top_k=5, top_k=3`,
    # a SyntaxError written by --fix. Now the alias waits; the result parses and keeps one.
    code = PLATFORM_PREAMBLE + call + "\n"
    fixed = fix_source(code, unsafe=True)
    compile(fixed, "<fixed>", "exec")
    target = "top_k" if "limit" in call else "threshold"
    assert fixed.count(f"{target}=") == 1


def test_every_rename_is_of_something_the_rule_claims():
    for code, rule in all_rules().items():
        claimed = rule.claims_keywords | rule.claims_keys  # exact names or glob patterns
        for old in rule.renames:
            assert any(fnmatchcase(old, pattern) for pattern in claimed), (code, old)


def test_claims_of_the_argument_rules():
    rules = all_rules()
    assert rules["MEM105"].renames == {"filter": "filters"}
    assert "page" in rules["MEM110"].claims_keywords and "page" not in rules["MEM110"].renames
    assert rules["MEM404"].claims_keys >= {"userId", "agentID"}
    assert rules["MEM405"].renames["session_id"] == "run_id"


def test_a_memos_keyword_on_get_all_is_reported_once():
    code = PLATFORM_PREAMBLE + "client.get_all(filters={'user_id': 'u'}, relativity=0.5)\n"
    assert [d.code for d in lint_source(code)] == ["MEM691"]


def test_mem107_still_reports_what_nobody_claims():
    code = PLATFORM_PREAMBLE + "client.search('q', filters={'user_id': 'u'}, fields2=1, limit=3)\n"
    found = sorted(d.code for d in lint_source(code))
    assert found == ["MEM102", "MEM107"]
