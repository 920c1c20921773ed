"""The MemOS and Memsy grammars (mem0lint/sdk/memos.py, memsy.py) checked against the real SDKs,
and the keyword claims that replace the hand-kept `MEM0_KEYWORDS` list."""

from __future__ import annotations

import inspect

import pytest
from conftest import codes
from sdk_harness import load_memos_client

from mem0lint.rules import all_rules
from mem0lint.rules.claims import keywords_claimed_elsewhere
from mem0lint.sdk import memos, memsy
from mem0lint.sdk.dialects import MEMOS, MEMSY
from mem0lint.sdk.model import Range

MEMSY_CLIENT = (
    "from memsy import MemsyClient\n"
    'client = MemsyClient(base_url="https://memsy.example", api_key="key")\n'
)


def params(function) -> list[str]:
    return [p for p in inspect.signature(function).parameters if p != "self"]


# Memsy ---------------------------------------------------------------------------------------


def test_memsy_client_params_and_required_ones():
    from memsy import MemsyClient

    signature = inspect.signature(MemsyClient.__init__)
    assert tuple(params(MemsyClient.__init__)) == memsy.GRAMMAR.client_params
    required = tuple(
        name
        for name, p in signature.parameters.items()
        if name != "self" and p.default is inspect.Parameter.empty
    )
    assert required == memsy.GRAMMAR.client_required


def test_memsy_renames_target_real_keyword_only_parameters():
    from memsy import MemsyClient
    from memsy.resources.memories import MemoriesResource

    declared = set(params(MemsyClient.search)) | set(params(MemoriesResource.list))
    assert set(memsy.GRAMMAR.keyword_renames.values()) <= declared
    # The wrong spellings are no parameter of either method (else renaming would be wrong).
    assert not set(memsy.GRAMMAR.keyword_renames) & declared
    for name in memsy.GRAMMAR.session_params:
        kind = inspect.signature(MemsyClient.search).parameters[name].kind
        assert kind is inspect.Parameter.KEYWORD_ONLY


def test_memsy_search_docstring_states_the_id_facts():
    from memsy import MemsyClient

    doc = " ".join(MemsyClient.search.__doc__.split())
    assert memsy.GRAMMAR.id_char.replace("\\", "") in doc
    assert f"at most {memsy.GRAMMAR.max_id_length} characters" in doc
    assert "An empty string is treated as unset" in doc
    assert "Mutually exclusive with ``session_id``" in doc


def test_memsy_list_limit_range_is_the_documented_one():
    from memsy.resources.memories import MemoriesResource

    limit = memsy.GRAMMAR.limits["memories.list"]
    assert f"Page size ({limit.low}\u2013{limit.high}" in MemoriesResource.list.__doc__


def test_memsy_lacks_the_mem0_methods_it_is_told_about():
    from memsy import MemsyClient

    for method, instead in memsy.GRAMMAR.instead_of_mem0.items():
        assert not hasattr(MemsyClient, method)
        if instead is not None:
            assert instead.split("(")[0] in MEMSY.methods


# MemOS ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def memos_client():
    return load_memos_client().MemOSClient(api_key="key")


def test_memos_query_is_rejected_when_falsy_only(memos_client):
    assert memos.GRAMMAR.query_required_in == {"search_memory"}
    for empty in ("", None):
        with pytest.raises(ValueError, match="query is required"):
            memos_client._validate_required_params(query=empty)
    memos_client._validate_required_params(query="  ")  # whitespace is truthy: accepted


def test_memos_subject_is_exactly_one(memos_client):
    user, agent = memos.GRAMMAR.subject_params
    for method in memos.GRAMMAR.subject_methods:
        assert {user, agent} <= set(params(getattr(type(memos_client), method)))
    memos_client._validate_profile_subject("u", None)
    memos_client._validate_profile_subject(None, "a")
    for both_or_neither in (("u", "a"), (None, None), ("", "")):
        with pytest.raises(ValueError, match="exactly one"):
            memos_client._validate_profile_subject(*both_or_neither)


def test_memos_cloud_hosts_are_the_client_defaults():
    client_class = load_memos_client().MemOSClient
    hosts = memos.GRAMMAR.cloud_hosts
    assert hosts[0] in client_class(api_key="key").base_url
    assert hosts[1] in client_class(api_key="key", is_global=True).base_url


def test_memos_keywords_and_methods_exist_where_the_grammar_says(memos_client):
    search = params(type(memos_client).search_memory)
    assert search == list(MEMOS.methods["search_memory"].params)
    assert set(memos.GRAMMAR.ranges) <= set(search)
    # A rename's target is a parameter of search_memory, or of add_message (`metadata` -> `info`).
    add = params(type(memos_client).add_message)
    assert set(memos.GRAMMAR.keyword_renames.values()) <= set(search) | set(add)
    assert not set(memos.GRAMMAR.keyword_renames) & (set(search) | set(add))
    for method in memos.GRAMMAR.filter_methods:
        assert "filter" in params(getattr(type(memos_client), method))
    for method in memos.GRAMMAR.instead_of_mem0:
        assert not hasattr(memos_client, method)
    for method in memos.GRAMMAR.mem0_equivalents:
        assert callable(getattr(memos_client, method))


def test_memos_client_maximums_raise(memos_client):
    for method, maximums in memos.GRAMMAR.client_maximums.items():
        for name, maximum in maximums.items():
            with pytest.raises(ValueError, match=f"{name} must be less than or equal"):
                getattr(memos_client, method)(user_id="u", **{name: maximum + 1})


def test_range():
    assert Range(1, 100).contains(1) and Range(1, 100).contains(100)
    assert not Range(1, 100).contains(0) and not Range(1, 100).contains(100.5)
    assert Range(None, 25).contains(-3) and not Range(None, 25).contains(26)
    assert [Range(1, 100).span(), Range(0).span(), Range(None, 25).span()] == [
        "1-100",
        ">= 0",
        "<= 25",
    ]


# Claims --------------------------------------------------------------------------------------


def test_claimed_keywords_are_derived_from_the_declarations():
    rules = all_rules()
    mem606, mem653 = rules["MEM606"](), rules["MEM653"]()
    assert keywords_claimed_elsewhere(mem606, "memsy") == rules["MEM692"].claims_keywords
    assert keywords_claimed_elsewhere(mem653, "memos") == {"filters"}
    # A rule never defers to itself.
    assert "filters" not in keywords_claimed_elsewhere(rules["MEM652"](), "memos")


@pytest.mark.parametrize("keyword", sorted(all_rules()["MEM692"].claims_keywords))
def test_each_claimed_mem0_keyword_is_reported_once_by_mem692(keyword):
    found = codes(MEMSY_CLIENT + f'client.search("q", actor_id="u", {keyword}=1)\n')
    assert found == ["MEM692"]


def test_an_unclaimed_unknown_keyword_stays_with_mem606():
    assert codes(MEMSY_CLIENT + 'client.search("q", actor_id="u", tags=["a"])\n') == ["MEM606"]
