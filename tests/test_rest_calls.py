"""Raw REST calls to mem0's search and list endpoints are judged with the Platform grammar."""

from __future__ import annotations

import pytest
from conftest import fix_source, lint_source

HEAD = """
import os
import aiohttp
import httpx
import requests
BASE = "https://api.mem0.ai"
"""

JUDGED = {
    "requests.post, literal URL": (
        'requests.post("https://api.mem0.ai/v3/memories/search/", json={"query": "q", '
        '"user_id": "u"})'
    ),
    "httpx.post, f-string URL": 'httpx.post(f"{BASE}/v3/memories/", json={"user_id": "u"})',
    "requests.Session": (
        's = requests.Session()\ns.post(BASE + "/v3/memories/search/", json={"agent_id": "a"})'
    ),
    "httpx.Client in with": (
        'with httpx.Client() as c:\n    c.post(url=f"{BASE}/v3/memories/", json={"run_id": "r"})'
    ),
    "host from the environment, Platform by default": (
        'requests.post(os.environ.get("MEM0_HOST", BASE) + "/v3/memories/search/", '
        'json={"user_id": "u"})'
    ),
    "aiohttp session, URL name": """
        URL = f"{BASE}/v3/memories/search/"
        async def f():
            async with aiohttp.ClientSession() as s:
                async with s.post(URL, json={"query": "q", "app_id": "x"}) as r:
                    return r
    """,
    "strings side by side": (
        'requests.post("https://api.mem0.ai" "/v3/memories/search/", json={"user_id": "u"})'
    ),
    "body bound to a name": (
        'body = {"query": "q", "user_id": "u"}\n'
        'requests.post(f"{BASE}/v3/memories/search/", json=body)'
    ),
}


@pytest.mark.parametrize("code", JUDGED.values(), ids=JUDGED.keys())
def test_top_level_entity_in_body_is_a_400(code):
    import textwrap

    found = lint_source(HEAD + textwrap.dedent(code))
    assert [(d.code, d.dialect) for d in found] == [("MEM101", "mem0-platform")]
    assert "HTTP 400" in found[0].message


SILENT = {
    "another endpoint": 'requests.post(f"{BASE}/v1/memories/{mid}/", json={"user_id": "u"})',
    "add endpoint": 'requests.post(f"{BASE}/v1/memories/", json={"user_id": "u"})',
    "URL built at run time": 'requests.post(url, json={"user_id": "u"})',
    "body not a dict literal": 'requests.post(f"{BASE}/v3/memories/search/", json=make())',
    "data= instead of json=": (
        'requests.post(f"{BASE}/v3/memories/search/", data=\'{"user_id": "u"}\')'
    ),
    "GET": 'requests.get(f"{BASE}/v3/memories/search/", params={"user_id": "u"})',
    "unknown object's post": 'poster.post(f"{BASE}/v3/memories/search/", json={"user_id": "u"})',
    # The same paths on a proxy or sidecar of the user's own: its grammar is not the Platform's.
    "a sidecar's URL from a variable": (
        'requests.post(f"{sidecar_url}/v3/memories/search/", json={"user_id": "u"})'
    ),
    "a local server": (
        'requests.post("http://localhost:8000/v3/memories/search/", json={"user_id": "u"})'
    ),
    "correct body": (
        'requests.post(f"{BASE}/v3/memories/search/", json={"query": "q", '
        '"filters": {"OR": [{"user_id": "u"}, {"agent_id": "a"}]}, "top_k": 5})'
    ),
}


@pytest.mark.parametrize("code", SILENT.values(), ids=SILENT.keys())
def test_other_http_calls_are_not_judged(code):
    assert lint_source(HEAD + code) == []


UNSPELLED = {
    "the host behind an escape": '"https://api.mem0\\x2eai/v3/memories/search/"',
    "the host split across strings": '"https://api.mem0" ".ai/v3/memories/search/"',
    "the endpoint behind an escape": '"https://api.mem0.ai/v3/memori\\x65s/search/"',
}


@pytest.mark.parametrize("url", UNSPELLED.values(), ids=UNSPELLED.keys())
def test_a_url_is_read_as_written(url):
    # What is judged is spelled in the file's bytes: the prefilter and the pruning gate look
    # for the host and the endpoint there, and never drop a file that holds a finding.
    code = f'import requests\nrequests.post({url}, json={{"user_id": "u"}})\n'
    assert lint_source(code) == []


def test_a_url_summed_from_many_parts_is_read_a_few_deep_only():
    # Each `+` is a step of the bounded search, as a name is: the head is not looked for
    # through a long sum.
    parts = " + ".join(['"x"'] * 50)
    url = f'BASE + {parts} + "/v3/memories/search/"'
    assert lint_source(HEAD + f'requests.post({url}, json={{"user_id": "u"}})\n') == []


def test_filter_operators_in_the_body_are_checked():
    code = HEAD + (
        'requests.post(f"{BASE}/v3/memories/", json={"filters": {"$or": [{"user_id": "u"}]}})'
    )
    assert [d.code for d in lint_source(code)] == ["MEM201"]


def test_entity_moves_into_the_body_filters():
    code = HEAD + (
        'requests.post(f"{BASE}/v3/memories/search/", '
        'json={"query": "q", "user_id": "u", "filters": {"AND": [{"topic": "a"}]}})'
    )
    assert fix_source(code).endswith(
        'json={"query": "q", "filters": {"AND": [{"topic": "a"}, {"user_id": "u"}]}})'
    )


def test_entity_next_to_another_entity_is_not_a_safe_move():
    # `user_id` AND `agent_id` matches almost nothing on the Platform (MEM403): the moved
    # entity would leave a new finding behind, so the fix is not safe (issue 11, class 6).
    code = HEAD + (
        'requests.post(f"{BASE}/v3/memories/search/", '
        'json={"query": "q", "user_id": "u", "filters": {"AND": [{"agent_id": "a"}]}})'
    )
    assert fix_source(code) == code


def test_no_fix_when_both_spellings_are_present():
    code = HEAD + (
        'requests.post(f"{BASE}/v3/memories/search/", '
        'json={"query": "q", "user_id": "u", "filters": {"user_id": "v"}})'
    )
    assert fix_source(code) == code
