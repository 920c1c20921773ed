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
    """How often each name is used as a variable under a node (the module, or the function the
    variable is local to); counted on first need. Keyword-argument names, attribute names and
    import names are not variables and are not counted."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self._counts: dict[int, Counter] = {}

    def count(self, root: cst.CSTNode, name: str) -> int:
        counts = self._counts.get(id(root))
        if counts is None:
            counts = self._counts[id(root)] = Counter()
            stack: list[cst.CSTNode] = [root]
            while stack:
                node = stack.pop()
                if isinstance(node, cst.Name):
                    counts[node.value] += 1
                    continue
                children = node.children
                if isinstance(node, cst.Arg) and node.keyword is not None:
                    children = [c for c in children if c is not node.keyword]
                elif isinstance(node, cst.Attribute):
                    children = [c for c in children if c is not node.attr]
                elif isinstance(node, (cst.Import, cst.ImportFrom)):
                    continue
                stack.extend(children)
        return counts[name]

    def uses(self, site, name: str) -> int:
        """Uses of `name` (bound in the call's own scope) where that variable can be seen."""
        function = site.scope.function if site.scope.kind == "function" else None
        return self.count(function if function is not None else self.module, name)


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
    # The arguments that name a dict literal defined elsewhere (what `site.follow` reads).
    followed = site.notes.get("sharing.followed")
    if followed is None:
        followed = []
        for arg in site.call.args:
            if isinstance(arg.value, cst.Name):
                target = site.follow(arg.value)
                if target is not arg.value:
                    followed.append((arg.value.value, _ids(target)))
        site.notes["sharing.followed"] = followed
    if not followed:
        return finding
    for old, _ in fix.replacements:
        for name, ids in followed:
            if id(old) in ids and names.uses(site, name) != 2:
                finding.fix = Fix(Applicability.UNSAFE, fix.message + NOTE, fix.replacements)
                return finding
    return finding
