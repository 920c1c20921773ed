"""MEM2xx: operators inside mem0 filters, one rule per module (see shared.py for `owner()`)."""
