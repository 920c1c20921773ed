"""Run a program against the real SDKs with the network stubbed at the transport.

- mem0 Platform (`MemoryClient`, `AsyncMemoryClient`) and Memsy talk through httpx: every
  `httpx.Client` / `httpx.AsyncClient` gets an `httpx.MockTransport` that records the request.
  `AsyncMemoryClient` pings with `requests`, MemOS's client posts with `requests`:
  `requests.Session.request` is replaced by a recorder too.
- mem0 open source (`Memory`): the embedder, LLM and vector store factories and the history
  database are stubs; the vector store stub builds the Qdrant filter with mem0's own
  `Qdrant._create_filter`, so whatever Qdrant's adapter rejects is rejected here too.
- MemOS: `memos.api.client` is loaded from the installed MemoryOS package without importing the
  `memos` package's heavy `__init__` (the orchestrator, schedulers, ...).

`run(program)` executes the program (awaiting it when it uses `await` at top level, and calling
the coroutine functions it defines) and returns what was raised and what was sent.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import importlib.util
import inspect
import json
import os
import sys
import types
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("MEM0_TELEMETRY", "False")

import httpx  # noqa: E402
import requests  # noqa: E402

# The unpatched classes, so that running several programs in one test never stacks stubs.
_HTTPX_CLIENT, _HTTPX_ASYNC_CLIENT = httpx.Client, httpx.AsyncClient


@dataclass
class Sent:
    """One request as it would have left the machine."""

    client: str  # "httpx" or "requests"
    method: str
    url: str
    params: dict
    body: Any

    @property
    def path(self) -> str:
        return httpx.URL(self.url).path


@dataclass
class Outcome:
    raised: BaseException | None = None
    sent: list[Sent] = field(default_factory=list)
    store_calls: list[tuple[str, dict]] = field(default_factory=list)  # open-source vector store


def _json_or_text(content: bytes) -> Any:
    if not content:
        return None
    try:
        return json.loads(content)
    except ValueError:
        return content.decode("utf-8", "replace")


def _reply(path: str) -> dict:
    """A plausible success answer for each endpoint the SDKs call."""
    if path.endswith("/ping/"):
        return {"status": "ok", "org_id": "org", "project_id": "proj", "user_email": "a@b.c"}
    if path.endswith("/search/memory"):
        return {"code": 0, "message": "ok", "data": {"memory_detail_list": []}}
    if path.endswith("/add/message"):
        data = {"success": True, "task_id": "t", "status": "running"}
        return {"code": 0, "message": "ok", "data": data}
    if path.endswith("/get/memory"):
        return {"code": 0, "message": "ok", "data": {}}
    if path.endswith("/delete/memory"):  # MemOSDeleteMemoryResponse: DeleteMessageData
        return {"code": 0, "message": "ok", "data": {"success": True}}
    if path.endswith("/update/memory"):
        return {"code": 0, "message": "ok", "data": {}}
    if path.endswith("/ingest"):  # Memsy ingest: the ids of the stored events
        return {"event_ids": ["evt_1"]}
    if "memsy" in path or path.startswith("/v1/search") or path.endswith("/search"):
        return {"results": []}
    if path.endswith("/console/memories"):  # Memsy memories.list: a page
        return {"items": [], "total": 0, "limit": 50, "offset": 0}
    return {"results": [], "message": "ok"}


class _StubStore:
    """mem0 open source's vector store: filters go through mem0's real Qdrant filter builder."""

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def _filter(self, filters):
        from mem0.vector_stores.qdrant import Qdrant

        if filters:
            Qdrant._create_filter(Qdrant.__new__(Qdrant), filters)

    def search(self, query=None, vectors=None, top_k=5, filters=None, **kwargs):
        self.outcome.store_calls.append(("search", {"filters": filters, "top_k": top_k}))
        self._filter(filters)
        return []

    def list(self, filters=None, top_k=None, **kwargs):
        self.outcome.store_calls.append(("list", {"filters": filters, "top_k": top_k}))
        self._filter(filters)
        return [[]]

    def keyword_search(self, *args, **kwargs):
        return []

    def get(self, vector_id=None, **kwargs):
        """One stored memory, whatever the id (update/delete/history read it first)."""
        self.outcome.store_calls.append(("get", {"vector_id": vector_id}))
        payload = {"data": "old text", "hash": "0", "created_at": "2026-01-01T00:00:00+00:00"}
        return types.SimpleNamespace(id=vector_id, payload={**payload, "user_id": "alice"})

    def __getattr__(self, name):
        return lambda *args, **kwargs: []


class _Stub:
    def __getattr__(self, name):
        return lambda *args, **kwargs: [0.0] * 8 if name == "embed" else None


def load_memos_client() -> types.ModuleType:
    """`memos.api.client` from the installed package, without running `memos/__init__.py`."""
    if "memos.api.client" in sys.modules:
        return sys.modules["memos.api.client"]
    spec = importlib.util.find_spec("memos")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("MemoryOS is not installed")
    root = Path(list(spec.submodule_search_locations)[0])
    for name, path in (("memos", root), ("memos.api", root / "api")):
        if name not in sys.modules:
            package = types.ModuleType(name)
            package.__path__ = [str(path)]
            sys.modules[name] = package
    # MemoryOS writes its log under $MEMOS_BASE_PATH/.memos (default: the working directory).
    os.environ.setdefault("MEMOS_BASE_PATH", str(Path(os.environ.get("TMPDIR", "/tmp"))))
    log = types.ModuleType("memos.log")
    import logging

    log.get_logger = lambda name=None: logging.getLogger(name or "memos")
    sys.modules.setdefault("memos.log", log)
    models = importlib.util.spec_from_file_location(
        "memos.api.product_models", root / "api" / "product_models.py"
    )
    try:
        module = importlib.util.module_from_spec(models)
        sys.modules["memos.api.product_models"] = module
        models.loader.exec_module(module)
    except Exception:  # its type imports pull the whole package; a permissive stand-in will do
        module = types.ModuleType("memos.api.product_models")

        class _Response(dict):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)

        module.__getattr__ = lambda name: _Response
        sys.modules["memos.api.product_models"] = module
    client_spec = importlib.util.spec_from_file_location(
        "memos.api.client", root / "api" / "client.py"
    )
    client = importlib.util.module_from_spec(client_spec)
    sys.modules["memos.api.client"] = client
    client_spec.loader.exec_module(client)
    return client


@contextmanager
def stubbed_network(outcome: Outcome, monkeypatch):
    # Examples read their credentials from the environment, as real code does.
    for variable in ("MEMSY_BASE_URL", "MEMSY_API_KEY", "MEM0_API_KEY", "MEMOS_API_KEY"):
        monkeypatch.setenv(variable, "https://memsy.example" if "URL" in variable else "key")

    def handler(request: httpx.Request) -> httpx.Response:
        outcome.sent.append(
            Sent(
                "httpx",
                request.method,
                str(request.url),
                dict(request.url.params),
                _json_or_text(request.content),
            )
        )
        return httpx.Response(200, json=_reply(request.url.path))

    real_client, real_async = _HTTPX_CLIENT, _HTTPX_ASYNC_CLIENT

    class Client(real_client):
        def __init__(self, *args, **kwargs):
            kwargs["transport"] = httpx.MockTransport(handler)
            super().__init__(*args, **kwargs)

    class AsyncClient(real_async):
        def __init__(self, *args, **kwargs):
            kwargs["transport"] = httpx.MockTransport(handler)
            super().__init__(*args, **kwargs)

    def fake_request(self, method, url, params=None, data=None, json=None, **kwargs):
        body = (
            json
            if json is not None
            else _json_or_text(data.encode() if isinstance(data, str) else data or b"")
        )
        outcome.sent.append(Sent("requests", method.upper(), url, dict(params or {}), body))
        response = requests.models.Response()
        response.status_code = 200
        response.url = url
        response._content = _dumps(_reply(httpx.URL(url).path))
        response.headers["Content-Type"] = "application/json"
        return response

    monkeypatch.setattr(httpx, "Client", Client)
    monkeypatch.setattr(httpx, "AsyncClient", AsyncClient)
    monkeypatch.setattr(requests.sessions.Session, "request", fake_request)
    monkeypatch.setenv("MEM0_API_KEY", "m0-test-key")
    monkeypatch.setenv("MEMOS_API_KEY", "memos-test-key")

    import mem0.memory.main as oss_main

    monkeypatch.setattr(oss_main.EmbedderFactory, "create", staticmethod(lambda *a, **k: _Stub()))
    monkeypatch.setattr(oss_main.LlmFactory, "create", staticmethod(lambda *a, **k: _Stub()))
    monkeypatch.setattr(
        oss_main.VectorStoreFactory, "create", staticmethod(lambda *a, **k: _StubStore(outcome))
    )
    monkeypatch.setattr(oss_main, "SQLiteManager", lambda *a, **k: _Stub())
    yield


def _dumps(value) -> bytes:
    return json.dumps(value).encode()


# --- names an example uses without defining ------------------------------------------------------

FILTERS = {"user_id": "alice"}


def stand_in(name: str, called: bool) -> Any:
    """A sensible value for a helper an example leaves undefined (`build_filters()`, `uid`)."""
    lowered = name.lower()
    if "filter" in lowered:
        value: Any = dict(FILTERS)
    elif lowered.endswith("id") or lowered.endswith("ids") or lowered in ("user", "agent"):
        value = ["alice"] if lowered.endswith("ids") else "alice"
    elif lowered in ("n", "k", "limit", "top_k", "size", "count"):
        value = 5
    elif any(word in lowered for word in ("threshold", "cutoff", "score")):
        value = 0.3
    elif "date" in lowered or "time" in lowered:
        value = "2024-01-01"
    elif "config" in lowered:
        value = {}
    else:
        value = "hobbies"
    if called:
        return lambda *args, **kwargs: value
    return value


def free_names(tree: ast.Module) -> dict[str, bool]:
    """Names read but never bound anywhere in the program -> whether they are called."""
    bound, loaded, called = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, (ast.Store, ast.Del)) else loaded).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.add(node.func.id)
    names = loaded - bound - set(dir(builtins))
    return {name: name in called for name in names}


def run(program: str, monkeypatch) -> Outcome:
    outcome = Outcome()
    tree = ast.parse(program)
    namespace: dict[str, Any] = {"__name__": "example"}
    for name, called in free_names(tree).items():
        namespace[name] = stand_in(name, called)
    code = compile(program, "<example>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    with stubbed_network(outcome, monkeypatch):
        if "memos" in program:
            load_memos_client()
        try:
            result = eval(code, namespace)  # noqa: S307 - our own examples, network stubbed
            if inspect.iscoroutine(result):
                asyncio.run(result)
            for node in tree.body:  # coroutine functions the program defines but never awaits
                if isinstance(node, ast.AsyncFunctionDef):
                    function = namespace[node.name]
                    arguments = [stand_in(a.arg, False) for a in node.args.args]
                    asyncio.run(function(*arguments))
        except Exception as error:  # what the SDK raised is the evidence
            outcome.raised = error
    return outcome
