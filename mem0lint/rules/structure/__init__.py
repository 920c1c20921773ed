"""MEM3xx: the structure of a mem0 filter, one rule per module."""
