"""What the MemOS write-call rules (MEM667-MEM670) share: reading a delete condition."""

from __future__ import annotations

import re

import libcst as cst

from mem0lint.rules.sdk_args import certainly_non_empty, literal

_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
MEMORY_WORDS = frozenset({"mem", "mems", "memory", "memories", "memid", "memids"})
USER_WORDS = frozenset({"user", "users", "uid", "uids"})
_MEMORY_ID_TEXT = re.compile(r"^mem(ory)?[-_:]", re.IGNORECASE)


def words(node: cst.CSTNode) -> set[str]:
    """The lowercase words of every identifier (and subscript key) in an expression."""
    found: set[str] = set()

    class Visitor(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.update(w.lower() for w in _WORD.findall(name.value))

        def visit_SubscriptElement(self, element: cst.SubscriptElement) -> None:
            index = element.slice
            if isinstance(index, cst.Index):
                key = literal(index.value)
                if isinstance(key, str):
                    found.update(w.lower() for w in _WORD.findall(key))

    node.visit(Visitor())
    return found


def names_memory_ids(node: cst.BaseExpression) -> bool:
    """The expression says it holds memory ids: an identifier with a memory word and no user
    word (`memory_ids`, `[m["id"] for m in memories]`), or a list of string literals that are
    all memory-id-like (`["mem_1"]`)."""
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        texts = [literal(e.value) for e in node.elements]
        if all(isinstance(t, str) for t in texts):
            return all(_MEMORY_ID_TEXT.match(t) for t in texts)
    found = words(node)
    return bool(found & MEMORY_WORDS) and not found & USER_WORDS


def presence(node: cst.BaseExpression | None, counts_when_not_none: bool = False) -> str:
    """How a delete condition counts: "absent" (missing or a falsy literal), "present" (a
    truthy literal; for `filter`, a dict literal) or "unknown"."""
    if node is None:
        return "absent"
    value = literal(node)
    if counts_when_not_none:
        if value is None:
            return "absent"
        return "present" if isinstance(node, cst.Dict) else "unknown"
    if isinstance(node, (cst.List, cst.Tuple, cst.Dict)):
        return "present" if node.elements else "absent"
    if value is None or value == "":
        return "absent"
    return "present" if certainly_non_empty(node) else "unknown"
