"""A fix that edits a dict where a variable is defined, not in the call: is the call its only user?

`scope = {"$or": [...]}` then `client.search("q", filters=scope)`: the rules read the filter
through the variable, and a fix edits the dict literal where it is defined. When anything else
reads `scope` (a pymongo `find(scope)`, a later `scope["$or"]`, a call of another dialect), that
edit changes it too. Such a fix is safe only when the variable's every use is the linted call:
the name appears exactly twice in the module (its binding and the call). Otherwise: unsafe.
Counting every occurrence of the name in the whole module (any scope) errs on the side of unsafe.
"""

from __future__ import annotations

from collections import Counter

import libcst as cst

from mem0lint.rule import Applicability, Finding, Fix

NOTE = " (unsafe: the dict is defined elsewhere and other code uses it too)"


class NameCounts:
    """How often each name occurs in a module; counted on first need."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self._counts: Counter | None = None

    def __getitem__(self, name: str) -> int:
        if self._counts is None:
            counts: Counter = Counter()
            stack: list[cst.CSTNode] = [self.module]
            while stack:
                node = stack.pop()
                if isinstance(node, cst.Name):
                    counts[node.value] += 1
                stack.extend(node.children)
            self._counts = counts
        return self._counts[name]


def _ids(node: cst.CSTNode) -> set[int]:
    found, stack = set(), [node]
    while stack:
        current = stack.pop()
        found.add(id(current))
        stack.extend(current.children)
    return found


def checked(site, finding: Finding, names: NameCounts) -> Finding:
    """`finding`, its safe fix downgraded when it edits a dict that other code reads too."""
    fix = finding.fix
    if fix is None or fix.applicability is not Applicability.SAFE:
        return finding
    inside = site.notes.get("sharing.ids")
    if inside is None:
        inside = site.notes["sharing.ids"] = _ids(site.call)
    outside = [old for old, _ in fix.replacements if id(old) not in inside]
    if not outside:
        return finding
    # The names in the call that lead to a dict literal defined elsewhere.
    followed = []
    stack: list[cst.CSTNode] = [site.call]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            target = site.follow(node)
            if target is not node:
                followed.append((node.value, _ids(target)))
        stack.extend(node.children)
    for old in outside:
        for name, ids in followed:
            if id(old) in ids and names[name] != 2:
                finding.fix = Fix(Applicability.UNSAFE, fix.message + NOTE, fix.replacements)
                return finding
    return finding
