"""MEM601-MEM610: Memsy calls (`MemsyClient.search`, `client.memories.list`, `EventPayload`).

One rule per file. What Memsy accepts (signatures aside, which are in `mem0lint.sdk.dialects`) is in
`mem0lint/sdk/memsy.py`. Memsy has no filter language; scoping is by keyword. Everything after
`query` is keyword-only and there is no `**kwargs`, so a wrong keyword raises TypeError before
any request. `limit=` is Memsy's own result cap and is always right.
"""
