"""Run one mem0 call through the real installed SDK; only the network and the store are stubbed.

- Open source (`Memory.search` / `Memory.get_all`, mem0ai 2.2.1): the real method runs (argument
  checks, entity-id checks, the flattening of `AND` / `OR` / `NOT`); the filter it hands to the
  vector store goes through the default store's real filter builder (`Qdrant._create_filter`;
  `mem0/vector_stores/configs.py` defaults the provider to "qdrant") and qdrant-client's local
  payload filtering decides which records it selects.
- Platform (`MemoryClient`): the real client builds the request; an `httpx.MockTransport` records
  it (method, path, query params, JSON body) and answers `{"results": []}`.
- Memsy (`MemsyClient`, memsy 0.3.5): the same, on the client's own `httpx.Client`.
- MemOS (`MemOSClient`, MemoryOS 2.0.33): `memos.api.client`'s `requests` is a recorder.
- Requests are judged by tests/request_validators.py (the documented server rejections).

`outcome(dialect, call_source, records)` returns ("raised", exception type name) or
("ok", what the store or the server received, the indices of the records selected (open source)).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

os.environ.setdefault("MEM0_TELEMETRY", "False")

import httpx  # noqa: E402

if TYPE_CHECKING:
    from mem0lint.engine import FixResult

OSS, PLATFORM, MEMSY, MEMOS = "mem0-oss", "mem0-platform", "memsy", "memos"
HOSTS = {PLATFORM: "https://api.mem0.ai", MEMSY: "https://memsy.example", MEMOS: "https://memos"}


class _Captured(Exception):
    """Raised by the stubbed store: what `Memory` handed to it, and nothing after."""

    def __init__(self, filters: Any, limit: Any) -> None:
        self.filters, self.limit = filters, limit


def _memory():
    from mem0 import Memory

    memory = Memory.__new__(Memory)  # no embedder, LLM or store: the filter path runs as is
    memory.api_version = "v1.1"

    def search_store(query, filters, limit, *args, **kwargs):
        max(limit * 4, 60)  # the first line of mem0's own `_search_vector_store`
        raise _Captured(filters, limit)

    def list_store(filters, limit, *args, **kwargs):
        raise _Captured(filters, limit)

    memory._search_vector_store = search_store
    memory._get_all_from_vector_store = list_store
    return memory


def _client():
    from mem0 import MemoryClient

    sent: list = []

    def handler(request: httpx.Request) -> httpx.Response:
        import json

        body = json.loads(request.content) if request.content else None
        sent.append((request.method, request.url.path, dict(request.url.params), body))
        return httpx.Response(200, json={"results": [], "status": "ok"})

    http = httpx.Client(base_url="https://api.mem0.ai", transport=httpx.MockTransport(handler))
    client = MemoryClient.__new__(MemoryClient)
    client.api_key, client.host, client.client = "m0-key", "https://api.mem0.ai", http
    client.user_id = "hash"
    return client, sent


def _memsy():
    from memsy import MemsyClient

    sent: list = []

    def handler(request: httpx.Request) -> httpx.Response:
        import json

        body = json.loads(request.content) if request.content else None
        sent.append((request.method, request.url.path, dict(request.url.params), body))
        if request.url.path.endswith("/console/memories"):
            return httpx.Response(200, json={"items": [], "total": 0, "limit": 50, "offset": 0})
        if request.url.path.endswith("/ingest"):
            return httpx.Response(200, json={"event_ids": ["evt_1"]})
        return httpx.Response(200, json={"results": []})

    client = MemsyClient(base_url="https://memsy.example", api_key="key", max_retries=0)
    client._client = httpx.Client(
        base_url="https://memsy.example", transport=httpx.MockTransport(handler)
    )
    return client, sent


def _memos():
    """MemOS's `MemOSClient` with its module's `requests` replaced by a recorder."""
    import types

    import requests
    from sdk_harness import _reply, load_memos_client

    module = load_memos_client()
    sent: list = []

    def record(method):
        def call(url, json=None, params=None, data=None, **kwargs):
            if json is None and data is not None:
                json = __import__("json").loads(data)
            sent.append((method, httpx.URL(url).path, dict(params or {}), json))
            response = requests.models.Response()
            response.status_code = 200
            response._content = __import__("json").dumps(_reply(httpx.URL(url).path)).encode()
            response.headers["Content-Type"] = "application/json"
            return response

        return call

    module.requests = types.SimpleNamespace(
        post=record("POST"), get=record("GET"), Response=requests.Response
    )
    return module.MemOSClient(api_key="key"), sent


_MEMORY = None
_CLIENT = None
_OTHERS: dict = {}


def payload(record: dict) -> dict:
    """How open source stores a memory: metadata keys beside the entity ids (as
    tests/evaluators/oss.py reads a record, so that both read the same records)."""
    flat = {k: v for k, v in record.items() if k not in ("metadata", "categories")}
    for key, value in (record.get("metadata") or {}).items():
        flat.setdefault(key, value)
    return flat


def selected(store_filters: Any, records: list[dict]) -> tuple[int, ...]:
    from mem0.vector_stores.qdrant import Qdrant
    from qdrant_client.local.payload_filters import check_filter

    built = Qdrant._create_filter(Qdrant.__new__(Qdrant), store_filters)
    if built is None:
        return tuple(range(len(records)))
    return tuple(
        i
        for i, record in enumerate(records)
        if check_filter(built, payload(record), point_id=i, has_vector={})
    )


def outcome(dialect: str, call: str, records: list[dict], names: dict | None = None) -> tuple:
    """Run `call` (`memory.search(...)` / `client.search(...)`) through the real SDK."""
    global _MEMORY, _CLIENT
    namespace = dict(names or {})
    if dialect == OSS:
        if _MEMORY is None:
            _MEMORY = _memory()
        namespace["memory"] = _MEMORY
        try:
            eval(call, namespace)  # noqa: S307 - generated calls, nothing leaves the process
        except _Captured as captured:
            try:
                chosen = selected(captured.filters, records)
            except Exception as error:  # noqa: BLE001 - the store's builder refused it
                return ("raised", type(error).__name__)
            return ("ok", captured.limit, chosen)
        except Exception as error:  # noqa: BLE001 - what the SDK raised is the evidence
            return ("raised", type(error).__name__)
        return ("ok", None, None)
    if dialect in (MEMSY, MEMOS):
        if dialect not in _OTHERS:
            _OTHERS[dialect] = _memsy() if dialect == MEMSY else _memos()
        client, sent = _OTHERS[dialect]
    else:
        if _CLIENT is None:
            _CLIENT = _client()
        client, sent = _CLIENT
    namespace["client"] = client
    sent.clear()
    try:
        eval(call, namespace)  # noqa: S307
    except Exception as error:  # noqa: BLE001
        return ("raised", type(error).__name__)
    return ("ok", tuple(sent), None)


# --- one statement of a generated program -----------------------------------------------------


def fixed_program(code: str, rules) -> tuple[list, FixResult]:
    """Fix `code` as `mem0lint --fix` does (with the text it was parsed from). Returns what the
    first round reported on the code as written (what `engine.lint` reports: the same call, so
    the program is not linted twice) and `engine.fix`'s result (its `code` is None when nothing
    changed)."""
    from mem0lint import engine

    module = engine.parse(code)
    first: list = []

    def keep(seen, diagnostic):
        if seen is module:
            first.append(diagnostic)
        return True

    return first, engine.fix(module, rules, keep=keep, source=code)


def statement_texts(code: str) -> list[str]:
    """Each top-level statement's text, as `ast.get_source_segment` gives it, in linear time
    (that function splits the whole code again for every statement)."""
    import ast

    data = code.encode()
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return [
        data[
            starts[s.lineno - 1] + s.col_offset : starts[s.end_lineno - 1] + s.end_col_offset
        ].decode()
        for s in ast.parse(code).body
    ]


REJECTED = "rejected before the fix"
RECEIVERS = {OSS: "memory", PLATFORM: "client", MEMSY: "client", MEMOS: "client"}


def statement_call_source(source: str) -> str | None:
    """`memory.search(...)` from a statement that is just that call (else None: an `await`, an
    assignment, or another receiver is not run here)."""
    import ast

    try:
        tree = ast.parse(source.strip())
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    call = tree.body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return None
    if not isinstance(call.func.value, ast.Name) or call.func.value.id not in RECEIVERS.values():
        return None
    return ast.unparse(call)


def compare(
    dialect: str,
    before: str,
    after: str,
    records: list[dict],
    names: dict | None = None,
    intended: tuple | None = None,
) -> str | None:
    """Run the statement before and after its fix through the real SDK. None: not comparable
    (not a plain call on `memory` / `client`); "": it ran cleanly before and after, selecting
    the same; REJECTED: the SDK (or the server) rejected it before, so the fix may only improve
    it; else what went wrong. `intended`: the records the author meant (an evaluator's reading);
    a fix may change what a working call selects only to select exactly those (a dotted
    `metadata.k` key runs, matching nothing, until it is respelled `k`)."""
    if dialect not in RECEIVERS:
        return None
    first, second = statement_call_source(before), statement_call_source(after)
    if first is None or second is None:
        return None
    was = outcome(dialect, first, records, names)
    now = outcome(dialect, second, records, names)
    if was[0] != "ok" or (dialect != OSS and not accepted(dialect, was[1])):
        return REJECTED  # it did not run before; the fix may only make it run
    if now[0] != "ok":
        return f"ran cleanly before, raises {now[1]} after the fix:\n{first}\n{second}"
    if dialect == OSS and now[2] != was[2] and (intended is None or now[2] != intended):
        return f"selects {now[2]} after the fix, {was[2]} before:\n{first}\n{second}"
    if dialect != OSS and not accepted(dialect, now[1]):
        return f"the server accepted the request before the fix, not after:\n{first}\n{second}"
    return ""


def accepted(dialect: str, sent: tuple) -> bool:
    """Would the server accept every request sent (tests/request_validators.py)?"""
    from request_validators import Invalid, validate
    from sdk_harness import Sent

    try:
        for method, path, params, body in sent:
            validate(Sent("httpx", method, HOSTS[dialect] + path, params, body))
    except Invalid:
        return False
    return True
