"""mem0's async and sync client classes, and which of their methods are coroutines.

Read from the released wheels (`mem0/client/main.py`, `mem0/memory/main.py`, parsed with `ast`:
0.1.20 to 0.1.29, 0.1.40, 0.1.60, 0.1.88, 0.1.89, 0.1.100, 0.1.118, 1.0.0, 1.0.10, 2.0.0, 2.0.10)
and from the installed 2.2.1 (`inspect.iscoroutinefunction`):

- `AsyncMemoryClient` ships from 0.1.22 on (0.1.21 has only `MemoryClient`); every public memory
  method is `async def` in every release since (`add`, `get`, `get_all`, `search`, `update`,
  `delete`, `delete_all`, `history`, `users`, `delete_users`, `reset`, `chat`; `batch_update` and
  `batch_delete` from 0.1.60 on, `feedback` by 0.1.88). `api_error_handler` wraps them: before
  2.0.10 with a plain `def wrapper` that returns `func(...)` (the coroutine), from 2.0.10 on
  with an `async def` wrapper: calling one returns a coroutine either way.
- `AsyncMemory` ships from 0.1.89 on; `add`, `get`, `get_all`, `search`, `update`, `delete`,
  `delete_all`, `history`, `reset`, `chat` are `async def` in every release. Its `from_config`
  is `async def` from 0.1.89 to 1.0.9 and a plain classmethod from 1.0.10 on (releases.py).
- `MemoryClient` and `Memory`: every one of these methods is a plain `def` in every release, and
  returns a dict, a list or None, none of which `await` accepts (TypeError: object dict can't
  be used in 'await' expression).
"""

from __future__ import annotations

from mem0lint.sdk.releases import ASYNC_CLIENT, ASYNC_MEMORY

# Fully qualified class name -> the class's name (the same class under each import path).
MEM0_CLASS_NAMES: dict[str, str] = {
    "mem0.MemoryClient": "MemoryClient",
    "mem0.client.MemoryClient": "MemoryClient",
    "mem0.client.main.MemoryClient": "MemoryClient",
    "mem0.AsyncMemoryClient": "AsyncMemoryClient",
    "mem0.client.AsyncMemoryClient": "AsyncMemoryClient",
    "mem0.client.main.AsyncMemoryClient": "AsyncMemoryClient",
    "mem0.Memory": "Memory",
    "mem0.memory.main.Memory": "Memory",
    "mem0.AsyncMemory": "AsyncMemory",
    "mem0.memory.main.AsyncMemory": "AsyncMemory",
}

ASYNC_CLASSES = frozenset({"AsyncMemoryClient", "AsyncMemory"})
SYNC_CLASSES = frozenset({"MemoryClient", "Memory"})

# The memory methods mem0lint sees calls of (dialects.CALL_METHODS) that are coroutines on the
# async classes and plain functions on the sync ones, per class, in every release that has them.
_SHARED = frozenset(
    {"add", "get", "get_all", "search", "update", "delete", "delete_all", "history"}
)
COROUTINE_METHODS: dict[str, frozenset[str]] = {
    "AsyncMemoryClient": _SHARED | {"batch_update", "batch_delete"},
    "AsyncMemory": _SHARED,
}
PLAIN_METHODS: dict[str, frozenset[str]] = {
    "MemoryClient": _SHARED | {"batch_update", "batch_delete"},
    "Memory": _SHARED,
}

# Each sync class's async counterpart and the release that added it (releases.py).
ASYNC_COUNTERPART_SINCE: dict[str, str] = {"MemoryClient": ASYNC_CLIENT, "Memory": ASYNC_MEMORY}
