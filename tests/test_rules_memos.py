"""MemOS Cloud (MEM651-MEM665, MEM690): the tricky cases around the rule examples.

The correct calls of the MemOS "Search Memory" page (seed 004) must stay silent; `from memos
import MOS` is the local orchestrator and is never judged as `MemOSClient`.
"""

from __future__ import annotations

import textwrap

import pytest
from conftest import codes, fix_source

CLIENT = """
from memos.api.client import MemOSClient
client = MemOSClient(api_key="key")
"""


def memos(code: str) -> list[str]:
    return codes(CLIENT + textwrap.dedent(code))


SEED_CALLS = {
    "quick start": """
        client.search_memory(
            query="我国庆想出去玩，帮我推荐个没去过的城市，以及没住过的酒店品牌",
            user_id="memos_user_123",
            conversation_id="0928",
        )
    """,
    "global filter": """
        client.search_memory(
            query="整理我今年和阅读相关的要点",
            user_id="memos_user_123",
            filter={
                "and": [
                    {"tags": {"contains": "阅读"}},
                    {"create_time": {"gte": "2025-01-01"}},
                    {"create_time": {"lte": "2025-12-31"}},
                    {"scene": "chat"},
                ],
            },
        )
    """,
    "per-source filter": """
        client.search_memory(
            query="整理一份合规要点",
            user_id="memos_user_123",
            knowledgebase_ids=["kb_xxx"],
            filter={
                "knowledgebase": {"and": [{"tags": {"contains": "制度"}}]},
                "user": {"and": [{"agent_id": "compliance_assistant"}, {"scene": "chat"}]},
                "public": {"and": [{"tags": {"contains": "公告"}}]},
            },
        )
    """,
    "relativity and limit": """
        client.search_memory(
            query="为我规划5天的成都游。", user_id="memos_user_123", relativity=0.8,
            memory_limit_number=9,
        )
    """,
    "agent-wide memory": 'client.search_memory("q", agent_id="travel_bot")',
    "subject from variables (may be either)": (
        'client.search_memory("q", user_id=user, agent_id=agent)'
    ),
    "three positionals": 'client.search_memory("q", "u_1", "0928")',
    "get_memory": 'client.get_memory(user_id="u_1", size=20, filter={"and": [{"scene": "x"}]})',
    "nested or inside and": (
        'client.search_memory("q", user_id="u", filter={"and": [{"scene": "a"}, '
        '{"or": [{"biz_id": "1"}, {"biz_id": "2"}]}]})'
    ),
    "filter from a variable": 'client.search_memory("q", user_id="u", filter=build())',
}


@pytest.mark.parametrize("code", SEED_CALLS.values(), ids=SEED_CALLS.keys())
def test_correct_memos_calls_are_silent(code):
    assert memos(code) == []


def test_local_orchestrator_is_never_memos_client():
    code = """
    from memos import MOS
    mos = MOS(config)
    mos.search(query="q", user_id="u", top_k=3, filters={"AND": []})
    mos.search_memory("q", top_k=3)
    """
    assert codes(code) == []


def test_memos_client_is_only_known_from_memos_api_client():
    # Not re-exported from `memos`: the name alone proves nothing.
    code = """
    from memos import MemOSClient
    c = MemOSClient(api_key="k")
    c.search_memory("q", top_k=3)
    """
    assert codes(code) == []


def test_subject_rule_reads_positionals_and_empty_strings():
    assert memos('client.search_memory("q", "u_1")') == []
    assert memos('client.search_memory("q", "u_1", None, "bot")') == ["MEM651", "MEM665"]
    assert memos('client.search_memory("q", user_id="")') == ["MEM651"]
    assert memos("client.get_memory(page=2)") == ["MEM651"]
    assert memos('client.search_memory("q", **subject)') == []


def test_renames_respect_the_documented_ranges():
    code = CLIENT + 'client.search_memory("q", user_id="u", top_k=50, threshold=2)'
    assert memos('client.search_memory("q", user_id="u", top_k=50, threshold=2)') == [
        "MEM653",
        "MEM653",
    ]
    assert fix_source(code) == code  # a rename would carry an out-of-range value


def test_filters_is_renamed_then_the_filter_is_checked():
    code = CLIENT + 'client.search_memory("q", user_id="u", filters={"AND": [{"scene": "x"}]})'
    assert fix_source(code).endswith(
        'client.search_memory("q", user_id="u", filter={"and": [{"scene": "x"}]})'
    )


def test_dollar_logic_is_lowercased_and_dollar_ops_reported():
    code = 'client.search_memory("q", user_id="u", filter={"$or": [{"tags": {"$gte": "d"}}]})'
    assert memos(code) == ["MEM656", "MEM658"]


def test_bare_root_next_to_and_is_moved_inside():
    code = CLIENT + 'client.search_memory("q", user_id="u", filter={"and": [{"a": "1"}], "b": "2"})'
    assert fix_source(code).endswith(
        'client.search_memory("q", user_id="u", filter={"and": [{"a": "1"}, {"b": "2"}]})'
    )


def test_source_group_with_bare_condition():
    code = 'client.search_memory("q", user_id="u", filter={"user": {"scene": "chat"}})'
    assert memos(code) == ["MEM657"]


def test_mixed_modes_and_siblings():
    assert memos(
        'client.search_memory("q", user_id="u", filter={"or": [{"a": "1"}], "user": {"and": []}})'
    ) == ["MEM661"]
    assert memos(
        'client.search_memory("q", user_id="u", filter={"and": [{"a": "1"}], "or": [{"b": "2"}]})'
    ) == ["MEM662"]


def test_mem0_methods_on_memos_client():
    assert memos('client.get_all(filters={"user_id": "u"})') == ["MEM690"]
    assert memos('client.delete_all(user_id="u")') == ["MEM690"]


def test_mem0_gets_memos_grammar_reported_in_mem0_dialect():
    from conftest import lint_source

    code = """
    from mem0 import MemoryClient
    client = MemoryClient()
    client.search_memory("q", user_id="u")
    client.search("q", filters={"user_id": "u"}, conversation_id="c1")
    """
    found = [(d.code, d.dialect) for d in lint_source(code)]
    assert found == [("MEM691", "mem0-platform"), ("MEM691", "mem0-platform")]


@pytest.mark.parametrize(
    ("made", "expected"),
    [
        ('MemOSClient(api_key="key")', ["MEM660"]),  # MemOS Cloud by default
        (
            'MemOSClient(api_key="k", base_url="https://memos.memtensor.cn/api/openmem/v1")',
            ["MEM660"],
        ),
        # A self-hosted server (or a placeholder): its time fields are created_at / updated_at.
        ('MemOSClient(api_key="k", base_url="http://localhost:8000")', []),
        ('MemOSClient(api_key="k", base_url="...")', []),
        ("MemOSClient(api_key=key, base_url=url)", []),
    ],
)
def test_time_field_names_are_cloud_names_only_on_the_cloud(made, expected):
    code = f"""
from memos.api.client import MemOSClient
client = {made}
client.search_memory(
    query="q", user_id="u", conversation_id="c",
    filter={{"and": [{{"created_at": {{"gte": "2025-01-01"}}}}]}},
)
"""
    assert codes(code) == expected


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # MemOSClient's write calls have no **kwargs either (MemoryOS 2.0.24-2.0.33): TypeError.
        ('client.add_message(msgs, user_id="u", writable_cube_ids=["c"])', ["MEM653"]),
        ('client.add_message(msgs, user_id="u", metadata={"k": 1})', ["MEM653"]),
        ('client.add_message(msgs, user_id="u", info={"k": 1}, tags=["t"])', []),
        ('client.delete_memory(memory_ids=["m"], writable_cube_ids=["c"])', ["MEM653"]),
        ('client.delete_memory(["u"], ["m"])', []),
        ('client.update_memory("m", content="c", text="t")', ["MEM653"]),
        ('client.update_memory("m", content="c")', []),
        ("client.add_message(msgs, **extra)", []),
    ],
)
def test_unknown_keywords_on_write_calls(call, expected):
    assert memos(call) == expected
