"""rules/mirrors.py: one grammar-driven check per mistake every SDK can make.

Every rule of these pairs calls it: MemOS and Memsy (MEM605, 652, 654-656, 663) and mem0's
ranges and empty query (MEM112-114). MEM105 and MEM202 (mem0's `filter=` and logical-key case)
still have their own code, because their fixes differ. Here the mirror, given mem0's facts, must
reproduce the mem0 rules' findings exactly (node, message, severity, fix): for MEM112-114 it pins
their output, for MEM105 and MEM202 it shows the calls they can switch to.
"""

from __future__ import annotations

import inspect
import textwrap

import pytest

from mem0lint import engine
from mem0lint.rule import Severity
from mem0lint.rules import all_rules, mirrors
from mem0lint.rules.common import condition_dicts
from mem0lint.sdk.model import EmptyText, Range

# mem0's facts, as the mem0 rules hold them today.
TOP_K = {"mem0-platform": Range(1, 1000, integer=True), "mem0-oss": Range(0, None, integer=True)}
THRESHOLD = Range(0, 1)
REJECTED_BY = {"mem0-platform": "HTTP 4xx", "mem0-oss": "ValueError"}
IGNORED_BY = {
    "mem0-platform": "sent to the API, which silently ignores it",
    "mem0-oss": "silently ignored",
}
MISSING_FILTERS = {"mem0-platform": "HTTP 400", "mem0-oss": "ValueError"}
MEM0_EMPTY_QUERY = EmptyText(strips=True, none=False)


def mem112(site):
    bounds = TOP_K[site.dialect.id]
    return mirrors.out_of_range(
        site,
        "top_k",
        bounds,
        lambda value: (
            f"`top_k={value}` is invalid: `{site.method}()` accepts an int "
            f"{bounds.span()} ({REJECTED_BY[site.dialect.id]})"
        ),
    )


def mem113(site):
    return mirrors.out_of_range(
        site,
        "threshold",
        THRESHOLD,
        lambda value: (
            f"`threshold={value}` must be a number in [{THRESHOLD.low}, "
            f"{THRESHOLD.high}] ({REJECTED_BY[site.dialect.id]})"
        ),
    )


def mem114(site):
    return mirrors.empty_query(
        site,
        "query",
        MEM0_EMPTY_QUERY,
        "`search()` query is empty or whitespace (ValueError); pass the text to search for, or "
        "call `get_all(filters=...)` to list memories",
    )


def mem105(site):
    rename_fix = inspect.getmodule(all_rules()["MEM105"]).rename_fix  # the mem0 keyword rename
    ignored = IGNORED_BY[site.dialect.id]
    return mirrors.other_filter_keyword(
        site,
        lambda both: (
            f"`filter=` is not a parameter ({ignored}); its conditions are lost next "
            "to `filters=`: merge them into `filters`"
            if both
            else f"`filter=` is not a parameter ({ignored}); without `filters=` the call fails "
            f"({MISSING_FILTERS[site.dialect.id]}): write `filters=`"
        ),
        lambda arg, right: rename_fix(site, arg, right, f"Rename `filter` to `{right}`"),
        both_severity=Severity.WARNING,
    )


def mem202(site):
    from mem0lint.ossflatten import logical_rename_keeps_meaning

    return mirrors.logical_key_case(
        (condition.node for condition in condition_dicts(site.filters)),
        site.dialect.grammar.logical,
        lambda key, right: f"Logical keys are uppercase: `{right}`, not `{key}`",
        dollar_elsewhere=True,
        keeps_meaning=lambda: logical_rename_keeps_meaning(site, site.filters),
    )


ADAPTERS = {
    "MEM112": mem112,
    "MEM113": mem113,
    "MEM114": mem114,
    "MEM105": mem105,
    "MEM202": mem202,
}

PLATFORM = "from mem0 import MemoryClient\nclient = MemoryClient()\n"
OSS = "from mem0 import Memory\nclient = Memory()\n"
CALLS = [
    # ranges
    'client.search("q", filters={"user_id": "u"}, top_k=0)',
    'client.search("q", filters={"user_id": "u"}, top_k=1001, threshold=1.5)',
    'client.search("q", filters={"user_id": "u"}, top_k=-1, threshold=-0.1)',
    'client.search("q", filters={"user_id": "u"}, top_k=5.5, threshold=70)',
    'client.search("q", filters={"user_id": "u"}, top_k=True, threshold=True)',
    'client.search("q", filters={"user_id": "u"}, top_k=n, threshold=t)',
    'client.get_all(filters={"user_id": "u"}, top_k=-3)',
    'client.get_all(filters={"user_id": "u"}, top_k=1000)',
    'client.search("q", filters={"user_id": "u"}, top_k=1000, threshold=0)',
    # empty queries
    'client.search("", filters={"user_id": "u"})',
    'client.search(query="  \\n", filters={"user_id": "u"})',
    'client.search(None, filters={"user_id": "u"})',
    'client.search(f"", filters={"user_id": "u"})',
    'client.search("ok", filters={"user_id": "u"})',
    'client.search(q, filters={"user_id": "u"})',
    'client.search(*args, filters={"user_id": "u"})',
    # filter / filters
    'client.search("q", filter={"user_id": "u"})',
    'client.get_all(filter={"user_id": "u"})',
    'client.get_all(filter={"user_id": "u"}, filters={"agent_id": "a"})',
    'client.search("q", filter={"user_id": "u"}, **extra)',
    'client.search("q", {"user_id": "u"}, filter={"agent_id": "a"})',
    'client.search("q", filters={"user_id": "u"})',
    # logical keys
    'client.search("q", filters={"or": [{"user_id": "a"}, {"agent_id": "b"}]})',
    'client.search("q", filters={"and": [{"user_id": "a"}], "AND": [{"agent_id": "b"}]})',
    'client.search("q", filters={"And": [{"user_id": "a"}, {"not": [{"agent_id": "b"}]}]})',
    'client.search("q", filters={"$and": [{"user_id": "a"}]})',
    'client.search("q", filters={"or": [{"user_id": "a"}], **more})',
    'client.get_all(filters={"user_id": "u", "or": [{"tier": "a"}, {"tier": "b"}]})',
    'client.search("q", filters={"user_id": "u", "and": [{"x": 1}], "x": 2})',
]


def _sites(program: str, method: str = ""):
    module = engine.parse(program)
    sites = engine.find_sites(module, engine.Settings())
    return [s for s in sites if s.method == method] if method else sites


def _shape(finding) -> tuple:
    fix = finding.fix
    return (
        id(finding.node),
        finding.message,
        finding.severity,
        None if fix is None else (fix.applicability, fix.message, len(fix.replacements)),
    )


@pytest.mark.parametrize("preamble", [PLATFORM, OSS], ids=["platform", "oss"])
@pytest.mark.parametrize("code", sorted(ADAPTERS))
def test_the_mirror_reproduces_the_mem0_rule(code, preamble):
    rule = all_rules()[code]()
    compared = found = 0
    for call in CALLS:
        for site in _sites(preamble + textwrap.dedent(call) + "\n"):
            if not rule.applies_to(site):
                continue
            compared += 1
            expected = [_shape(f) for f in rule.check(site)]
            assert [_shape(f) for f in ADAPTERS[code](site)] == expected, call
            found += len(expected)
    assert compared and found  # the calls exercise the rule, findings included


def test_out_of_range_reads_positional_arguments_and_ignores_non_literals():
    program = (
        "from memos.api.client import MemOSClient\n"
        'client = MemOSClient(api_key="k")\n'
        'client.search_memory("q", "u", None, None, 30)\n'
        'client.search_memory("q", "u", memory_limit_number=limit)\n'
    )
    sites = _sites(program, "search_memory")
    bounds = Range(None, 25)
    found = [list(mirrors.out_of_range(s, "memory_limit_number", bounds, str)) for s in sites]
    assert [[f.message for f in fs] for fs in found] == [["30"], []]


def test_empty_query_follows_the_sdk_idea_of_empty():
    program = PLATFORM + 'client.search("  ")\nclient.search(None)\nclient.search("")\n'
    sites = _sites(program, "search")

    def hits(empty):
        return [bool(list(mirrors.empty_query(s, "query", empty, "m"))) for s in sites]

    assert hits(EmptyText(strips=True, none=False)) == [True, False, True]
    assert hits(EmptyText(strips=False, none=True)) == [False, True, True]


def test_logical_key_case_leaves_keys_the_grammar_lacks():
    program = (
        "from memos.api.client import MemOSClient\n"
        'client = MemOSClient(api_key="k")\n'
        'client.search_memory("q", user_id="u", filter={"not": [{"a": 1}], "OR": [{"b": 2}]})\n'
    )
    (site,) = _sites(program, "search_memory")
    found = list(
        mirrors.logical_key_case([site.filters], ("and", "or"), lambda key, right: f"{key}>{right}")
    )
    assert [f.message for f in found] == ["OR>or"]
    assert found[0].fix is not None
