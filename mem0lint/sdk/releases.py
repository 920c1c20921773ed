"""The SDK releases mem0lint knows, and when the API their callers use changed.

The release lists are PyPI's (`pip index versions`, 2026-11-30), oldest first. A version a project
pins that is not listed here is judged by the nearest listed release below it (see versions.py).
The mem0ai timeline is that of `shared/spec/client-surface.md` section 0, checked against the
released wheels (`mem0/client/main.py`, `mem0/memory/main.py` of 0.1.88, 0.1.100, 0.1.115, 1.0.3,
1.0.10, 1.0.11 and 2.0.0).
"""

from __future__ import annotations

# Distribution -> its releases, oldest first.


def _listed(text: str) -> tuple[str, ...]:
    return tuple(text.split())


RELEASES: dict[str, tuple[str, ...]] = {
    "mem0ai": _listed(
        """
        0.0.1 0.0.2 0.0.3 0.0.4 0.0.5 0.0.6 0.0.7 0.0.8 0.0.9 0.0.10 0.0.11 0.0.12 0.0.13 0.0.14
        0.0.15 0.0.16 0.0.17 0.0.18 0.0.19 0.0.20 0.0.21 0.1.0 0.1.1 0.1.2 0.1.3 0.1.4 0.1.5
        0.1.6 0.1.7 0.1.8 0.1.9 0.1.10 0.1.11 0.1.12 0.1.13 0.1.14 0.1.15 0.1.16 0.1.17 0.1.18
        0.1.19 0.1.20 0.1.21 0.1.22 0.1.23 0.1.24 0.1.25 0.1.26 0.1.27 0.1.28 0.1.29 0.1.30
        0.1.31 0.1.32 0.1.33 0.1.34 0.1.35 0.1.36 0.1.37 0.1.38 0.1.39 0.1.40 0.1.41 0.1.42
        0.1.43 0.1.44 0.1.45 0.1.46 0.1.47 0.1.48 0.1.49 0.1.50 0.1.52 0.1.53 0.1.54 0.1.55
        0.1.56 0.1.57 0.1.58 0.1.59 0.1.60 0.1.61 0.1.62 0.1.63 0.1.65 0.1.66 0.1.67 0.1.69
        0.1.70 0.1.71 0.1.72 0.1.73 0.1.74 0.1.75 0.1.76 0.1.77 0.1.78 0.1.79 0.1.80 0.1.81
        0.1.82 0.1.83 0.1.84 0.1.85 0.1.86 0.1.87 0.1.88 0.1.89 0.1.90 0.1.91 0.1.92 0.1.93
        0.1.94 0.1.95 0.1.96 0.1.97 0.1.98 0.1.99 0.1.100 0.1.101 0.1.102 0.1.103 0.1.104
        0.1.106 0.1.107 0.1.108 0.1.109 0.1.110 0.1.111 0.1.112 0.1.113 0.1.114 0.1.115 0.1.116
        0.1.117 0.1.118 1.0.0 1.0.1 1.0.2 1.0.3 1.0.4 1.0.5 1.0.6 1.0.7 1.0.8 1.0.9 1.0.10
        1.0.11 2.0.0 2.0.1 2.0.2 2.0.3 2.0.4 2.0.5 2.0.6 2.0.7 2.0.8 2.0.10 2.0.11 2.0.12 2.0.13
        2.0.14 2.0.15 2.0.16 2.0.17 2.0.18 2.0.19 2.0.20 2.1.0 2.2.0 2.2.1
        """
    ),
    "memsy": _listed(
        """
        0.3.0 0.3.1 0.3.2 0.3.3 0.3.5
        """
    ),
    "memoryos": _listed(
        """
        0.0.1 0.1.12 0.1.13 0.2.0 0.2.1 0.2.2 1.0.0 1.0.1 1.1.1 1.1.2 1.1.3 2.0.0 2.0.1 2.0.2
        2.0.3 2.0.4 2.0.5 2.0.6 2.0.7 2.0.8 2.0.9 2.0.10 2.0.11 2.0.12 2.0.13 2.0.14 2.0.15
        2.0.16 2.0.17 2.0.19 2.0.20 2.0.22 2.0.23 2.0.24 2.0.25 2.0.27 2.0.30 2.0.32 2.0.33
        """
    ),
}

# The top-level package each SDK's code imports, and the distribution that provides it.
PACKAGES: dict[str, str] = {"mem0": "mem0ai", "memsy": "memsy", "memos": "memoryos"}

# How each distribution is spelled where people read it (PyPI's own spelling).
DISPLAY: dict[str, str] = {"mem0ai": "mem0ai", "memsy": "memsy", "memoryos": "MemoryOS"}

# Distributions known to install their own copy of a package above (forks): their calls are not
# judged unless a target version is configured.
FORKS: dict[str, str] = {"mem0-polardb": "mem0"}

# Distributions whose names look like a provider's but that only use it (they require it, so a
# lock lists the real provider next to them).
NOT_PROVIDERS = frozenset({"mem0lint", "mem0-mcp", "mem0-mcp-server", "langchain-mem0"})

# mem0ai: the releases where what callers may write changed.
ASYNC_MEMORY = "0.1.89"  # AsyncMemory added; `AsyncMemory.from_config` is `async def`
UPDATE_TEXT = "0.1.109"  # Platform update(memory_id, text=None, metadata=None)
V1 = "1.0.0"  # results are {"results": [...]}; version= / output_format= dropped
# open source search()/get_all(): {"results": [...]} with a config's `"version": "v1.1"` (0.1.0 to
# 0.1.11: {"memories": [...]}), and by default from OSS_RESULTS_DEFAULT (sdk/mem0_results.py)
OSS_RESULTS_CONFIG = "0.1.12"
OSS_RESULTS_DEFAULT = "0.1.59"
FROM_CONFIG_SYNC = "1.0.10"  # `AsyncMemory.from_config` is a plain classmethod again
V2 = "2.0.0"  # v3 endpoints: entity ids only inside filters=; org_id/project_id... removed
EMPTY_QUERY_REJECTED = "2.0.5"  # both SDKs: search("") / search("  ") raises ValueError
# open source search(reference_date=...) raises ValueError (2.0.0-2.0.5: a **kwargs key, ignored)
OSS_REFERENCE_DATE = "2.0.6"
UPDATE_OPTIONAL = (
    "2.0.10"  # open source update(memory_id, data=None, ...): nothing to update raises
)
OSS_UPDATE_TEXT = "2.0.12"  # open source update(memory_id, text=...); data= a deprecated alias
# open source add(messages, *, ...): keyword-only, no **kwargs, no `filters` (0.1.99 still took
# `add(messages, user_id, agent_id, run_id, metadata, filters, ...)` by position)
OSS_ADD_KEYWORD_ONLY = "0.1.100"
OSS_EXPIRATION_DATE = "2.0.10"  # open source add()/update(expiration_date=) in YYYY-MM-DD
OSS_METADATA_IDENTITY = "2.0.16"  # open source add() drops user_id/... from metadata= (#6655)

# memsy: `search(session_id=, exclude_session_id=)` (the surface the session rules judge).
MEMSY_SESSIONS = "0.3.5"
# MemoryOS: `MemOSClient.search_memory(query, user_id, conversation_id, agent_id, ...,
# relativity, ...)`, `get_memory(..., filter)` and the "exactly one of user_id / agent_id" check.
MEMOS_CLIENT = "2.0.24"
# mem0ai: the oldest release whose client classes' attributes were read (sdk/mem0_attributes.py,
# MEM126); the 0.0.x sources were not.
ATTRIBUTES_READ = "0.1.0"
# mem0ai: `AsyncMemoryClient` ships (its memory methods are coroutine functions from then on).
ASYNC_CLIENT = "0.1.22"
