"""MEM601-MEM610: Memsy calls (`MemsyClient.search`, `client.memories.list`, `EventPayload`).

Facts from memsy 0.3.5 (`memsy/client.py`, `memsy/async_client.py`, `memsy/resources/
memories.py`, `memsy/models.py`) and the "Searching Memory" page (seed 003). Memsy has no filter
language; scoping is by keyword. Everything after `query` is keyword-only and there is no
`**kwargs`, so a wrong keyword raises TypeError before any request. `limit=` is Memsy's own
result cap and is always right.
"""
