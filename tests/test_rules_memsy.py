"""Memsy (MEM601-MEM610, MEM692): the tricky cases around the rule examples.

`limit=` is Memsy's own keyword and must never be reported; values that are not literals are
never guessed through; mem0 words go to MEM692, everything else unknown to MEM606.
"""

from __future__ import annotations

import textwrap

import pytest
from conftest import codes, fix_source

CLIENT = """
from memsy import AsyncMemsyClient, EventPayload, MemsyClient
client = MemsyClient(base_url="https://memsy.example", api_key="key")
"""


def memsy(code: str, **kwargs) -> list[str]:
    return codes(CLIENT + textwrap.dedent(code), **kwargs)


SILENT = {
    "limit on search": 'client.search("q", actor_id="u", limit=10)',
    "limit bounds": 'client.search("q", actor_id="u", limit=1)\nclient.search("q", limit=100)',
    "limit from a variable": 'client.search("q", actor_id="u", limit=n)',
    "limit on memories.list": 'client.memories.list(actor_id="u", limit=200, offset=50)',
    "org-wide search alone (admin tools)": 'client.search("what does the user prefer?")',
    "seed: personalisation": (
        "client.search(query=user_message, actor_id=user_id, limit=5, threshold=0.4)"
    ),
    "both session scopes from variables (may be None)": (
        'client.search("q", actor_id="u", session_id=current, exclude_session_id=previous)'
    ),
    "a searchable f-string id": 'client.search("q", actor_id="u", session_id=f"conv:{n}/a@b")',
    "role and team ids": 'client.search("q", actor_id="u", role_ids=["r"], team_ids=[])',
    "**kwargs hides the arguments": 'client.search("q", **options)',
    "sub-resources are not the client": "client.actors.list()\nclient.orgs.list(limit=5)",
    "EventPayload with a plain session id": (
        'EventPayload(actor_id="u", session_id="sess_1", kind="user_message", content="hi")'
    ),
}


@pytest.mark.parametrize("code", SILENT.values(), ids=SILENT.keys())
def test_correct_memsy_calls_are_silent(code):
    assert memsy(code) == []


def test_empty_session_next_to_exclude_is_only_the_empty_string_warning():
    # The server drops "" before the exclusivity check: a plain exclude search, not a 422.
    assert memsy('client.search("q", actor_id="u", session_id="", exclude_session_id="c1")') == [
        "MEM603"
    ]


def test_session_scope_without_actor_is_info():
    assert memsy('client.search("q", session_id="c1")') == ["MEM608"]
    # user_id= meant the actor: MEM692 explains, MEM608 stays quiet.
    assert memsy('client.search("q", user_id="u", session_id="c1")') == ["MEM692"]


def test_mem0_words_go_to_mem692_and_others_to_mem606():
    assert memsy('client.search("q", actor_id="u", top_k=5)') == ["MEM692"]
    assert memsy('client.search("q", actor_id="u", max_results=5)') == ["MEM606"]
    assert memsy('client.search("q", actor_id="u", filters={"user_id": "u"})') == ["MEM692"]


def test_rename_is_not_offered_when_two_keywords_want_the_same_name():
    code = CLIENT + 'client.search("q", user_id="u", agent_id="a")'
    assert fix_source(code) == code  # nothing applied


def test_rename_to_a_parameter_the_method_lacks_is_not_offered():
    # memories.list has no `threshold`: report, no fix.
    code = CLIENT + 'client.memories.list(actor_id="u", min_score=0.3)'
    assert memsy('client.memories.list(actor_id="u", min_score=0.3)') == ["MEM606"]
    assert fix_source(code) == code


def test_limit_out_of_range_per_method():
    assert memsy('client.search("q", actor_id="u", limit=101)') == ["MEM605"]
    assert memsy("client.memories.list(limit=150)") == []
    assert memsy("client.memories.list(limit=201)") == ["MEM605"]


def test_async_client_and_context_manager():
    code = """
    async def f():
        async with AsyncMemsyClient(base_url="b", api_key="k") as c:
            await c.search("q", actor_id="u", session_id=["a", "b"])
    """
    assert memsy(code) == ["MEM602"]


def test_session_charset_at_search_and_at_ingest():
    assert memsy('client.search("q", actor_id="u", session_id="Trip to Zürich")') == ["MEM604"]
    long_id = "a" * 257
    assert memsy(f'client.search("q", actor_id="u", session_id="{long_id}")') == ["MEM604"]
    ingest = f'EventPayload("u", "{long_id}", "user_message", "hi")'
    assert memsy(ingest) == ["MEM604"]
    # A dynamic id: nothing certain about its characters.
    assert memsy('client.search("q", actor_id="u", session_id=thread.title)') == []


def test_positional_after_query_and_client_args():
    assert memsy('client.search("q", "u")') == ["MEM607"]
    assert memsy('client.memories.list("u")') == ["MEM607"]
    assert memsy('MemsyClient("https://memsy.example")') == ["MEM610"]
    assert memsy("MemsyClient(**settings)") == []
    assert memsy('MemsyClient("https://memsy.example", "key", 10.0)') == []


def test_control_plane_client_is_not_judged():
    code = """
    from memsy import MemsyControlClient
    control = MemsyControlClient(base_url="b", api_key="k")
    control.events.list(limit=500)
    control.search("q", top_k=3)
    """
    assert codes(code) == []
