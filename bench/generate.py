"""A seeded generator of mem0-heavy Python code, for the benchmark and the prefilter tests.

It writes a package of modules that call the four memory SDKs the ways application code does:
correct calls and wrong ones (old API shapes, MongoDB habits, another SDK's grammar), clients
bound as module globals, as `self.x` in `__init__`, as annotated parameters, through factories
and in `with` blocks; decoys that must stay silent (pymongo, Chroma, `re.search`, a LangChain
class imported as `Memory`, a home-made store with a `search` method); and helper modules that
never spell an SDK's name (they get the client as a parameter or from another module).

`generate_sources(count, seed)` returns {relative path: source} in memory (the tests use it);
`write_corpus(folder, count, seed)` writes it. The same seed always gives the same files.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

# --- how each SDK's client is imported and built -------------------------------------------
SDKS = {
    "platform": {
        "imports": [
            ("from mem0 import MemoryClient", "MemoryClient", 'MemoryClient(api_key="m0-key")'),
            (
                "from mem0.client.main import MemoryClient as Mem0Client",
                "Mem0Client",
                "Mem0Client(api_key=os.environ.get('MEM0_API_KEY'))",
            ),
            ("import mem0", "mem0.MemoryClient", "mem0.MemoryClient()"),
        ],
    },
    "oss": {
        "imports": [
            ("from mem0 import Memory", "Memory", "Memory()"),
            ("from mem0 import Memory", "Memory", 'Memory.from_config({"version": "v1.1"})'),
            ("from mem0.memory.main import Memory", "Memory", "Memory.from_config(CONFIG)"),
        ],
    },
    "memsy": {
        "imports": [
            (
                "from memsy import MemsyClient",
                "MemsyClient",
                'MemsyClient(base_url="https://memsy.example", api_key="key")',
            ),
            (
                "from memsy.client import MemsyClient",
                "MemsyClient",
                "MemsyClient(base_url=BASE_URL, api_key=os.environ['MEMSY_KEY'])",
            ),
        ],
    },
    "memos": {
        "imports": [
            (
                "from memos.api.client import MemOSClient",
                "MemOSClient",
                'MemOSClient(api_key="key")',
            ),
        ],
    },
}

# --- calls: {sdk: [(is_wrong, template)]}; `{c}` is the receiver --------------------------
CALLS = {
    "platform": [
        (False, '{c}.search(query, filters={{"AND": [{{"user_id": user_id}}]}}, top_k=5)'),
        (
            False,
            '{c}.search(\n        query,\n        filters={{"AND": [{{"user_id": user_id}}, '
            '{{"categories": {{"in": ["billing"]}}}}]}},\n        top_k=10,\n    )',
        ),
        (False, '{c}.get_all(filters={{"user_id": user_id}}, page_size=50)'),
        (False, "{c}.delete_all(user_id=user_id)"),
        (True, "{c}.search(query, user_id=user_id, limit=5)"),
        (True, '{c}.search(query, filters={{"$and": [{{"user_id": user_id}}]}})'),
        (
            True,
            '{c}.get_all(filters={{"or": [{{"user_id": user_id}}, {{"agent_id": "support"}}]}})',
        ),
        (
            True,
            '{c}.search(\n        query,\n        filters={{\n            "$and": [\n'
            '                {{"user_id": user_id}},\n'
            '                {{"created_at": {{"$gte": "2025-01-01"}}}},  # migration\n'
            "            ]\n        }},\n    )",
        ),
        (True, "{c}.get_all(user_id=user_id)"),
    ],
    "oss": [
        (False, '{c}.search(query, filters={{"user_id": user_id}}, top_k=3)'),
        (False, '{c}.get_all(filters={{"user_id": user_id, "agent_id": "planner"}})'),
        (False, "{c}.delete_all(user_id=user_id)"),
        (True, "{c}.search(query, user_id=user_id)"),
        (True, "{c}.search(query, user_id=user_id, limit=3)"),
        (True, '{c}.get_all(filters={{"user_id": user_id, "score": {{"$gte": 0.5}}}})'),
        (True, '{c}.search(query, filters={{"and": [{{"user_id": user_id}}]}})'),
    ],
    "memsy": [
        (False, "{c}.search(query, actor_id=user_id, limit=5)"),
        (False, '{c}.search(query, actor_id=user_id, session_id="s-1", limit=20)'),
        (False, "{c}.memories.list(actor_id=user_id, limit=50)"),
        (True, "{c}.search(query, user_id=user_id, top_k=5)"),
        (True, '{c}.search(query, actor_id=user_id, filters={{"user_id": user_id}})'),
        (True, "{c}.search(query, user_id, 5)"),
    ],
    "memos": [
        (False, "{c}.search_memory(query, user_id=user_id, memory_limit_number=6)"),
        (
            False,
            '{c}.search_memory(query, user_id=user_id, filter={{"and": [{{"tags": '
            '{{"contains": "travel"}}}}, {{"create_time": {{"gte": "2025-01-01"}}}}]}})',
        ),
        (True, '{c}.search_memory(query, user_id=user_id, filters={{"AND": []}})'),
        (True, '{c}.search_memory(query, user_id=user_id, filter={{"AND": [{{"a": 1}}]}})'),
        (True, "{c}.search_memory(query, user_id=user_id, top_k=5)"),
    ],
}

FILLER = [
    '''
    def _normalise(text: str) -> str:
        """Collapse whitespace and lower-case, the way the search index stores text."""
        words = [w for w in text.split() if w]
        return " ".join(words).lower()
    ''',
    """
    @dataclass
    class Turn:
        role: str
        content: str
        metadata: dict = field(default_factory=dict)

        def as_message(self) -> dict:
            return {"role": self.role, "content": self.content}
    """,
    """
    def _batches(items, size=20):
        batch = []
        for item in items:
            batch.append(item)
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch
    """,
    """
    def _score(result: dict) -> float:
        try:
            return float(result.get("score", 0.0))
        except (TypeError, ValueError):
            logger.warning("bad score in %r", result)
            return 0.0
    """,
    """
    RETRIES = 3
    TIMEOUT = float(os.environ.get("MEMORY_TIMEOUT", "10"))
    """,
]

DECOYS = [
    """
    import pymongo

    mongo = pymongo.MongoClient()
    orders = mongo.shop.orders.find({"$and": [{"status": "open"}, {"total": {"$gte": 100}}]})
    """,
    """
    import chromadb

    collection = chromadb.Client().get_collection("docs")
    hits = collection.query(query_texts=["refund"], where={"$and": [{"lang": "en"}]})
    """,
    """
    import re

    match = re.search(r"user_(\\d+)", "user_42")
    pattern = re.compile(r"\\s+")
    found = pattern.search("a  b")
    """,
    """
    from langchain.memory import ConversationBufferMemory as Memory

    memory = Memory()
    memory.search("hello", user_id="alice", limit=3)
    """,
    """
    class LocalStore:
        def search(self, query, user_id=None, limit=10, filters=None):
            return []

    store = LocalStore()
    store.search("q", user_id="alice", limit=3, filters={"$and": [{"a": 1}]})
    """,
]

HEADER = '''\
"""{doc}"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Optional

{imports}

logger = logging.getLogger(__name__)
BASE_URL = "https://memsy.example"
CONFIG = {{"vector_store": {{"provider": "qdrant"}}}}
'''


def _dedent(block: str) -> str:
    return textwrap.dedent(block).strip("\n") + "\n"


def _call(rng: random.Random, sdk: str, receiver: str, wrong_rate: float = 0.5) -> str:
    wrong = rng.random() < wrong_rate
    choices = [t for is_wrong, t in CALLS[sdk] if is_wrong == wrong]
    return rng.choice(choices).format(c=receiver)


def _functions(rng: random.Random, sdk: str, receiver: str, count: int, indent: str = "") -> str:
    out = []
    for index in range(count):
        name = f"{rng.choice(['recall', 'lookup', 'history', 'context', 'profile'])}_{index}"
        params = "self, user_id: str, query: str" if indent else "user_id: str, query: str"
        body = _call(rng, sdk, receiver)
        out.append(
            f"{indent}def {name}({params}):\n"
            f'{indent}    logger.debug("memory lookup for %s", user_id)\n'
            f"{indent}    results = {body.replace(chr(10), chr(10) + indent)}\n"
            f"{indent}    return results\n"
        )
    return "\n\n".join(out)


def _service_module(rng: random.Random, index: int) -> str:
    """One SDK, bound one of five ways, with several calls, some filler and maybe a decoy."""
    sdk = rng.choice(list(SDKS))
    import_line, class_ref, build = rng.choice(SDKS[sdk]["imports"])
    style = rng.choice(["global", "self", "annotated", "factory", "with"])
    calls = rng.randint(4, 8)
    parts = []
    if style == "global":
        parts.append(f"client = {build}\n")
        parts.append(_functions(rng, sdk, "client", calls))
    elif style == "self":
        parts.append(
            f"class MemoryService{index}:\n"
            f"    def __init__(self, name: str = 'svc') -> None:\n"
            f"        self.name = name\n"
            f"        self.memory = {build}\n\n"
            + _functions(rng, sdk, "self.memory", calls, indent="    ")
        )
    elif style == "annotated":
        annotation = rng.choice([class_ref, f"Optional[{class_ref}]", f'"{class_ref}"'])
        out = []
        for number in range(calls):
            call = _call(rng, sdk, "client").replace("\n", "\n    ")
            out.append(
                f"def handle_{number}(client: {annotation}, user_id: str, query: str):\n"
                f"    if not query:\n        return []\n"
                f"    return {call}\n"
            )
        parts.append("\n\n".join(out))
    elif style == "factory":
        annotated = rng.random() < 0.5
        returns = f" -> {class_ref}" if annotated else ""
        parts.append(f"def make_client(){returns}:\n    return {build}\n")
        parts.append(
            f"def first(user_id: str, query: str):\n    return {_call(rng, sdk, 'make_client()')}\n"
        )
        parts.append(
            "def second(user_id: str, query: str):\n"
            "    memory = make_client()\n"
            f"    return {_call(rng, sdk, 'memory')}\n"
        )
        parts.append(_functions(rng, sdk, "make_client()", max(1, calls - 2)))
    else:
        out = []
        for number in range(calls):
            call = _call(rng, sdk, "memory").replace("\n", "\n        ")
            out.append(
                f"def session_{number}(user_id: str, query: str):\n"
                f"    with {build} as memory:\n"
                f"        return {call}\n"
            )
        parts.append("\n\n".join(out))
    for _ in range(rng.randint(4, 7)):
        parts.append(_dedent(rng.choice(FILLER)))
    if rng.random() < 0.3:
        parts.append(_dedent(rng.choice(DECOYS)))
    doc = f"Memory access for feature {index} ({sdk}, {style})."
    return HEADER.format(doc=doc, imports=import_line) + "\n\n" + "\n\n".join(parts)


def _clients_module(rng: random.Random) -> str:
    """Where a package builds its clients; helpers import them from here."""
    return (
        HEADER.format(
            doc="Clients shared by the package.",
            imports="from mem0 import Memory, MemoryClient\nfrom memsy import MemsyClient",
        )
        + "\n\nmemory = MemoryClient()\n"
        + "local_memory = Memory()\n"
        + 'memsy = MemsyClient(base_url=BASE_URL, api_key="key")\n\n\n'
        + "def get_memory() -> MemoryClient:\n    return memory\n"
    )


def _helper_module(rng: random.Random, index: int) -> str:
    """Never spells an SDK's name: gets clients as parameters or from the clients module."""
    calls = []
    for number in range(rng.randint(4, 8)):
        sdk = rng.choice(["platform", "oss", "memsy"])
        receiver = {"platform": "memory", "oss": "local_memory", "memsy": "memsy"}[sdk]
        if rng.random() < 0.5:
            calls.append(
                f"def helper_{number}(user_id: str, query: str):\n"
                f"    return {_call(rng, sdk, receiver)}\n"
            )
        else:
            calls.append(
                f"def passed_{number}(client, user_id: str, query: str):\n"
                f"    return {_call(rng, sdk, 'client')}\n"
            )
    return (
        HEADER.format(
            doc=f"Helpers for feature {index}; they reuse the package's clients.",
            imports="from .clients import get_memory, local_memory, memory, memsy",
        )
        + "\n\n"
        + "\n\n".join(calls)
        + "\n\n"
        + _dedent(rng.choice(FILLER))
    )


def _decoy_module(rng: random.Random, index: int) -> str:
    blocks = rng.sample(DECOYS, k=3)
    return (
        HEADER.format(doc=f"Look-alikes {index}: none of this is a memory SDK.", imports="")
        + "\n\n"
        + "\n\n".join(_dedent(b) for b in blocks)
        + "\n\n"
        + "\n\n".join(_dedent(b) for b in rng.sample(FILLER, k=4))
    )


def generate_sources(count: int = 1000, seed: int = 0) -> dict[str, str]:
    """`count` modules in packages of 20: a clients module, helpers, decoys, services."""
    rng = random.Random(seed)
    sources: dict[str, str] = {}
    for index in range(count):
        package = f"memapp/feature_{index // 20:03d}"
        slot = index % 20
        if slot == 0:
            sources[f"{package}/clients.py"] = _clients_module(rng)
            continue
        if slot in (1, 2, 3):
            sources[f"{package}/helpers_{slot}.py"] = _helper_module(rng, index)
        elif slot in (4, 5):
            sources[f"{package}/lookalikes_{slot}.py"] = _decoy_module(rng, index)
        else:
            sources[f"{package}/service_{slot:02d}.py"] = _service_module(rng, index)
    return sources


def write_corpus(folder: Path, count: int = 1000, seed: int = 0) -> list[Path]:
    paths = []
    for relative, source in generate_sources(count, seed).items():
        path = Path(folder) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    written = write_corpus(arguments.folder, arguments.count, arguments.seed)
    print(f"wrote {len(written)} files to {arguments.folder}")
