"""MEM5xx: the values given to mem0 calls, judged as literals (dates, numbers); one rule per
module."""
