"""MEM651-MEM665: MemOS Cloud calls (`MemOSClient.search_memory`, `get_memory`).

Facts from MemoryOS 2.0.33 (`memos/api/client.py`) and the MemOS Cloud docs (seed 004, filter
page): every parameter of `search_memory` is positional-or-keyword (the 4th is `agent_id`),
there is no `**kwargs`, and the client checks `query` and "exactly one of user_id / agent_id"
before sending. Filters are lowercase `and` / `or` groups, or per-source groups under `user`,
`agent`, `public`, `knowledgebase`. `from memos import MOS` (the local orchestrator) is another
API and is never judged here.
"""
