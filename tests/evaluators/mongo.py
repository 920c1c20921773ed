"""What a MongoDB-style filter means, decided by mongomock (a real implementation of MongoDB's
query language) rather than by anything written here."""

from __future__ import annotations

from typing import Any

import mongomock


def select(filters: Any, documents: list[dict]) -> list[int]:
    """Indices of the documents MongoDB's `find(filters)` returns."""
    collection = mongomock.MongoClient().db.memories
    if documents:
        collection.insert_many([{**doc, "_id": i} for i, doc in enumerate(documents)])
    return sorted(doc["_id"] for doc in collection.find(filters))
