"""mem0lint: find and fix wrong calls to agent-memory SDKs."""

__version__ = "0.1.0"
