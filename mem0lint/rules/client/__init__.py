"""MEM119-MEM121, MEM125, MEM149: building mem0 clients (constructor arguments, `from_config`).

One rule per module.
"""
