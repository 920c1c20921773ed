"""The binder's parts: the value lattice (values.py), the statement-order pass (flow.py) and the
judging of calls on unions (union.py). `mem0lint.binding` keeps the collector and resolver."""
