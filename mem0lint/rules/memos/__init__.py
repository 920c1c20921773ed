"""MEM651-MEM665: MemOS Cloud calls (`MemOSClient.search_memory`, `get_memory`), one rule per file.

What MemOS accepts (signatures aside, which are in `mem0lint.sdk.dialects`) is in
`mem0lint/sdk/memos.py`; how a MemOS filter is read is in `shared.py`. `from memos import MOS`
(the local orchestrator) is another API and is never judged here.
"""
