"""MEM1xx: the arguments of mem0 `search`, `get_all` and `delete_all` calls.

One rule per module.
"""
