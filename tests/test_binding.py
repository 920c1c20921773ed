"""Receiver binding: a call is judged only when its receiver is certainly an SDK client."""

from __future__ import annotations

import pytest
from conftest import lint_source

WRONG = 'limit=3, filters={"user_id": "u"})'

JUDGED = {
    "module alias": f"""
        import mem0 as m
        c = m.MemoryClient()
        c.search("q", {WRONG}
    """,
    "import from submodule with alias, async with": f"""
        from mem0.client.main import AsyncMemoryClient as AMC
        async def f():
            async with AMC() as c:
                await c.search("q", {WRONG}
    """,
    "self attribute set in __init__, factory": f"""
        from mem0 import Memory
        class Agent:
            def __init__(self):
                self.memory = Memory.from_config({{}})
            def recall(self, q):
                return self.memory.search(q, {WRONG}
    """,
    "Optional[...] annotation": f"""
        from typing import Optional
        from mem0 import MemoryClient
        def recall(client: Optional[MemoryClient], q):
            return client.search(q, {WRONG}
    """,
    "string annotation with | None": f"""
        from mem0 import MemoryClient
        def recall(client: "MemoryClient | None", q):
            return client.search(q, {WRONG}
    """,
    "local factory function": f"""
        from mem0 import MemoryClient
        def get_client():
            return MemoryClient()
        get_client().search("q", {WRONG}
    """,
    "module global defined below its use": f"""
        from mem0 import Memory
        def f():
            return memory.search("q", {WRONG}
        memory = Memory()
    """,
    "None placeholder, set through global": f"""
        from mem0 import MemoryClient
        client = None
        def init():
            global client
            client = MemoryClient()
        def f():
            client.search("q", {WRONG}
    """,
    "annotated class attribute": f"""
        from mem0 import MemoryClient
        class Service:
            client: MemoryClient
            def run(self):
                self.client.search("q", {WRONG}
    """,
    "awaited AsyncMemory.from_config": f"""
        from mem0 import AsyncMemory
        async def f():
            memory = AsyncMemory.from_config({{}})
            await memory.search("q", {WRONG}
    """,
    "with Memory() as m": f"""
        from mem0.memory.main import Memory
        with Memory() as m:
            m.search("q", {WRONG}
    """,
    "the class's own annotated getter, self.get_memory()": f"""
        from mem0 import Memory
        class Agent:
            def get_memory(self) -> Memory:
                return make_memory()
            def recall(self, q):
                memory = self.get_memory()
                return memory.search(q, {WRONG}
    """,
    "a lazy getter returning the attribute it sets": f"""
        from mem0 import MemoryClient
        class Agent:
            def __init__(self):
                self._client = None
            def _client_or_new(self):
                if self._client is None:
                    self._client = MemoryClient()
                return self._client
            def recall(self, q):
                return self._client_or_new().search(q, {WRONG}
    """,
    "a getter annotated `-> Any`: what it returns, a client made in a worker thread": f"""
        import asyncio
        from typing import Any
        from mem0 import Memory as Mem0Memory
        class Backend:
            async def _ensure_client(self) -> Any:
                if self._client is None:
                    self._client = await asyncio.to_thread(Mem0Memory.from_config, {{}})
                return self._client
            async def recall(self, q):
                client = await self._ensure_client()
                return await asyncio.to_thread(client.search, q, {WRONG}
    """,
    "an awaited async getter, a static method": f"""
        from mem0 import AsyncMemory
        class Agent:
            @staticmethod
            async def _memory() -> AsyncMemory:
                return AsyncMemory.from_config({{}})
            async def recall(self, q):
                memory = await self._memory()
                return await memory.search(q, {WRONG}
    """,
    "a `@property` that makes the client on first use": f"""
        from mem0 import Memory
        class Store:
            _memory = None
            @property
            def memory(self):
                if self._memory is None:
                    self._memory = Memory.from_config({{}})
                return self._memory
            def recall(self, q):
                return self.memory.search(q, {WRONG}
    """,
    "a factory annotated `-> Optional[Any]`: what it returns (None when it failed)": f"""
        from typing import Any, Optional
        def init_memory() -> Optional[Any]:
            try:
                from mem0 import Memory
                return Memory.from_config({{}})
            except Exception:
                return None
        memory = init_memory()
        if memory:
            memory.search("q", {WRONG}
    """,
}

NOT_JUDGED = {
    "another library's Memory": """
        from langchain.memory import Memory
        m = Memory()
        m.search("q", limit=3)
    """,
    "unannotated parameter": """
        def f(client):
            client.search("q", limit=3)
    """,
    "name rebound to something unknown": """
        from mem0 import MemoryClient
        import pymongo
        client = MemoryClient()
        client = pymongo.MongoClient()
        client.search("q", limit=3)
    """,
    "a local shadows the module client": """
        from mem0 import MemoryClient
        client = MemoryClient()
        def f(client):
            client.search("q", limit=3)
    """,
    "comprehension variable does not leak": """
        from mem0 import MemoryClient
        clients = [object()]
        client = MemoryClient()
        def g():
            return [client.search("q", limit=3) for client in clients]
    """,
    "re.search": """
        import re
        re.search("q", "text")
    """,
    "a user's own class": """
        class Store:
            def search(self, q, limit=10): ...
        Store().search("q", limit=3)
    """,
    "a getter behind a decorator that may change what it returns": """
        from mem0 import MemoryClient
        class Agent:
            @contextlib.contextmanager
            def client(self) -> MemoryClient:
                yield MemoryClient()
            def recall(self, q):
                self.client().search("q", limit=3)
    """,
    "a getter name also assigned on the instance": """
        from mem0 import MemoryClient
        class Agent:
            def __init__(self, make):
                self.client = make
            def client(self) -> MemoryClient:
                return MemoryClient()
            def recall(self, q):
                self.client().search("q", limit=3)
    """,
    "a getter of another class, or of a base class": """
        from mem0 import MemoryClient
        class Base:
            def client(self) -> MemoryClient:
                return MemoryClient()
        class Agent(Base):
            def recall(self, other, q):
                other.client().search("q", limit=3)
                self.client().search("q", limit=3)
    """,
    "a property with a setter, set to something else": """
        from mem0 import Memory
        class Store:
            def __init__(self, backend):
                self.memory = backend
            @property
            def memory(self):
                return Memory()
            @memory.setter
            def memory(self, value):
                self._memory = value
            def recall(self, q):
                return self.memory.search(q, limit=3)
    """,
    "a property read as a class attribute, and one under another decorator": """
        import abc
        from mem0 import Memory
        class Store:
            @property
            @abc.abstractmethod
            def memory(self):
                return Memory()
            def recall(self, q):
                Store.memory.search(q, limit=3)
                return self.memory.search(q, limit=3)
    """,
    "a factory annotated `-> Optional[object]`": """
        from typing import Optional
        from mem0 import Memory
        def init_memory() -> Optional[object]:
            return Memory()
        init_memory().search("q", limit=3)
    """,
}


@pytest.mark.parametrize("code", JUDGED.values(), ids=JUDGED.keys())
def test_receiver_is_bound(code):
    assert [d.code for d in lint_source(code)] == ["MEM102"]


@pytest.mark.parametrize("code", NOT_JUDGED.values(), ids=NOT_JUDGED.keys())
def test_unknown_receiver_is_not_judged(code):
    assert lint_source(code) == []


def test_filter_name_bound_once_is_followed_and_fixed_where_written():
    from conftest import fix_source

    code = """
        from mem0 import MemoryClient
        client = MemoryClient()
        filters = {"$and": [{"user_id": "u"}]}
        client.search("q", filters=filters)
    """
    assert [d.code for d in lint_source(code)] == ["MEM201"]
    assert '{"AND": [{"user_id": "u"}]}' in fix_source(code)


def test_filter_name_bound_twice_is_opaque():
    code = """
        from mem0 import MemoryClient
        client = MemoryClient()
        filters = {"$and": [{"user_id": "u"}]}
        if x:
            filters = {"user_id": "v"}
        client.search("q", filters=filters)
    """
    assert lint_source(code) == []


@pytest.mark.parametrize(
    "mutation",
    ['filters["user_id"] = "v"', 'del filters["$and"]', 'filters.update({"user_id": "v"})'],
)
def test_filter_dict_changed_after_binding_is_opaque(mutation):
    code = f"""
        from mem0 import MemoryClient
        client = MemoryClient()
        filters = {{"$and": [{{"user_id": "u"}}]}}
        {mutation}
        client.search("q", filters=filters)
    """
    assert lint_source(code) == []


def test_client_method_named_like_a_dict_mutator_keeps_the_receiver():
    code = """
        from mem0 import Memory
        memory = Memory()
        memory.update("id", "text")
        memory.search("q", filters={"user_id": "u"}, limit=3)
    """
    assert [d.code for d in lint_source(code)] == ["MEM102"]
