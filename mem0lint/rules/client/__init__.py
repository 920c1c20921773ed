"""MEM119-MEM121: building mem0 clients (constructor arguments, `from_config`).

One rule per module.
"""
