"""Reference meanings of mem0 filters, used by the equivalence tests.

- `platform`: the mem0 Platform filter grammar (spec §3.1), written out by hand.
- `oss`: open-source mem0 on its default store, Qdrant (spec §3.2): the SDK's own filter
  translation and qdrant-client's local-mode filter check, so nothing about Qdrant is re-invented.
- `mongo`: what the MongoDB-style input the author copied means, decided by mongomock.
- `spelling`: how a wrong spelling (`$gte`, `>=`, `and`, `metadata.k`) reads, for the "meaning the
  author wrote" side.
"""
