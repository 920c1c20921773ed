"""The SDK classes a documentation page may use without importing them (bind/implicit.py).

A table without libcst: the prefilter (prefilter.py) keeps every file that spells one of them.
"""

# The bare name -> the class it is on a page that never binds it.
DISTINCTIVE = {
    "MemOSClient": "memos.api.client.MemOSClient",
    "MemsyClient": "memsy.MemsyClient",
    "AsyncMemsyClient": "memsy.AsyncMemsyClient",
}
