"""Facts shared by the cross-SDK rules."""

from __future__ import annotations

# Methods that exist only in one SDK -> what to call on the other SDK instead.
MEM0_ONLY_METHODS = {
    "memos": {
        "search": "search_memory(query, user_id=..., filter=...)",
        "get_all": "get_memory(user_id=..., filter=...)",
        "delete_all": "delete_memory(user_id=...)",
    },
    "memsy": {
        "get_all": "memories.list(actor_id=...)",
        "delete_all": None,  # Memsy has no bulk delete
    },
}
