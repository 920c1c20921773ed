"""What every fix must keep, checked before it is applied: the comments, and code that compiles.

A fix rewrites a node; the replacement must carry every comment the original carried (the
`noqa` comments MEM901/MEM902 edit on purpose excepted). The fixed program must compile on the
oldest Python its project supports (`requires-python` of the nearest `pyproject.toml`, else
`python_requires` of `setup.cfg`; 3.9 by default), whatever Python runs mem0lint: a fix that
writes `"key"` inside a double-quoted f-string compiles on 3.12 only.
"""

from __future__ import annotations

import ast
import os
import re
from collections import Counter
from typing import Union

import libcst as cst

from mem0lint.walk import comment_nodes

DEFAULT_TARGET = (3, 9)
Target = tuple[int, int]

_NOQA = re.compile(r"#\s*noqa\b", re.IGNORECASE)


def _counted(comment: cst.Comment) -> Union[str, None]:
    """The comment as counted: what MEM901/MEM902 may edit is the noqa clause; anything after
    it stays (None: nothing but the clause)."""
    value = comment.value.rstrip()
    if _NOQA.search(value):
        parts = [p.strip() for p in value.split("#") if p.strip()]
        kept = [p for p in parts if not p.lower().startswith("noqa")]
        if not kept:
            return None
        value = "# " + "  # ".join(kept)
    return value


def comments(nodes) -> Counter[str]:
    """The comments under `nodes` (a multiset), noqa clauses left out."""
    found: Counter[str] = Counter()
    for node in nodes:
        for comment in comment_nodes(node):
            value = _counted(comment)
            if value is not None:
                found[value] += 1
    return found


def keeps_comments(replacements) -> bool:
    """Does a fix's set of (old, new) pairs carry every comment of the old nodes, once?"""
    before = comments(old for old, _ in replacements)
    after = comments(new for _, new in replacements)
    return before == after


# ---- the oldest Python of the project -------------------------------------------------------

_targets: dict[str, Target] = {}


def floor_of(specifier: str) -> Union[Target, None]:
    """The oldest Python 3 minor version a `requires-python` specifier admits (None: unread).
    A minor version counts as `3.N` (`3.N.0`), as pip reads `requires-python` for it."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import Version

    try:
        admitted = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None
    for minor in range(0, 30):
        if Version(f"3.{minor}") in admitted:
            return (3, minor)
    return None


def _read(path: str) -> Union[str, None]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def _requires_python(folder: str) -> Union[str, None, bool]:
    """The project's specifier in `folder`; False: no project file here (look further up)."""
    pyproject = os.path.join(folder, "pyproject.toml")
    if os.path.isfile(pyproject):
        text = _read(pyproject)
        if text is None:
            return None
        match = re.search(r"""^\s*requires-python\s*=\s*(['"])(.*?)\1""", text, re.MULTILINE)
        if match is not None:
            return match.group(2)
        if re.search(r"^\s*\[project\]", text, re.MULTILINE):
            return None
    setup_cfg = os.path.join(folder, "setup.cfg")
    if os.path.isfile(setup_cfg):
        text = _read(setup_cfg)
        if text is None:
            return None
        match = re.search(r"^\s*python_requires\s*=\s*(.+?)\s*$", text, re.MULTILINE)
        return match.group(1).strip("'\"") if match is not None else None
    return False


def target_for(path: Union[str, os.PathLike, None]) -> Target:
    """The oldest Python the project holding `path` supports; DEFAULT_TARGET when unknown."""
    if path is None:
        return DEFAULT_TARGET
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    if folder in _targets:
        return _targets[folder]
    seen = []
    target = DEFAULT_TARGET
    here = folder
    while True:
        if here in _targets:
            target = _targets[here]
            break
        seen.append(here)
        found = _requires_python(here)
        if found is not False:
            floor = floor_of(found) if isinstance(found, str) else None
            target = floor if floor is not None else DEFAULT_TARGET
            break
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    for folder_seen in seen:
        _targets[folder_seen] = target
    return target


# ---- does it compile for the target ----------------------------------------------------------


class _FStrings(cst.CSTVisitor):
    """f-strings written the 3.12 way (PEP 701), which older Pythons cannot tokenize."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.bad: Counter[str] = Counter()

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        quote = node.end
        for expression in _expressions(node.parts):
            text = self.module.code_for_node(expression.expression)
            if quote in text or "\\" in text or "#" in text or "\n" in text and len(quote) == 1:
                self.bad[self.module.code_for_node(node)] += 1
                return


def _expressions(parts):
    for part in parts:
        if isinstance(part, cst.FormattedStringExpression):
            yield part
            if part.format_spec:
                yield from _expressions(part.format_spec)


def newer_fstrings(module: cst.Module) -> Counter[str]:
    finder = _FStrings(module)
    module.visit(finder)
    return finder.bad


# Where an f-string may start (`f"`, `rf'`, `Fr"""`...): a prefix that no word character
# precedes (`'a'f'b'` is one; `'elf'` and `if"x"` are not). A superset: `"elf f'"` matches.
FSTRING_PREFIX = re.compile(r"(?<!\w)(?:[fF][rR]?|[rR][fF])['\"]")


def _compiles(code: Union[str, bytes], target: Target) -> bool:
    version = max(target, (3, 7))
    try:
        ast.parse(code, feature_version=version)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def still_compiles(
    before: cst.Module,
    before_code: Union[str, bytes],
    after: cst.Module,
    after_code: str,
    target: Target,
) -> bool:
    """Does the fixed program compile for `target` wherever the original did?

    Only what the fix introduced counts: an original that Python cannot compile here, or that
    already holds 3.12 f-strings, is not held against the fix."""
    if _compiles(before_code, target) and not _compiles(after_code, target):
        return False
    # Without an f-string prefix in the fixed code there is no f-string to judge (the visit of
    # both trees costs more than the rest of the check).
    if target < (3, 12) and FSTRING_PREFIX.search(after_code):
        added = newer_fstrings(after) - newer_fstrings(before)
        if added:
            return False
    return True


def fstring_fix_compiles(outer: cst.FormattedString, replacements, target: Target) -> bool:
    """Does the f-string `outer` compile for `target` with the replacements made inside it,
    wherever it did before? `still_compiles`' verdict on a file, for a fix whose only code
    inside an f-string is there: the quotes a string may use are the f-string's business."""
    after = outer.visit(_ReplaceById({id(old): new for old, new in replacements}))
    if _compiles(_code(outer), target) and not _compiles(_code(after), target):
        return False
    if target < (3, 12):
        return not newer_fstrings(_alone(after)) - newer_fstrings(_alone(outer))
    return True


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _alone(expression: cst.BaseExpression) -> cst.Module:
    return cst.Module(body=[cst.SimpleStatementLine([cst.Expr(expression)])])


class _ReplaceById(cst.CSTTransformer):
    def __init__(self, replacements: dict) -> None:
        self.replacements = replacements

    def on_leave(self, original_node, updated_node):
        return self.replacements.get(id(original_node), updated_node)


class _Requote(cst.CSTTransformer):
    """Every string literal the fix wrote (not one of the original's) in `quote`, where its
    text allows it."""

    def __init__(self, original: set[int], quote: str) -> None:
        self.original = original
        self.quote = quote

    def leave_SimpleString(self, original_node, updated_node):
        if id(original_node) in self.original or len(updated_node.quote) != 1:
            return updated_node
        prefix = updated_node.prefix
        if updated_node.quote == self.quote or "b" in prefix.lower():
            return updated_node
        body = updated_node.value[len(prefix) + 1 : -1]
        if "\\" in body or self.quote in body:
            return updated_node
        return updated_node.with_changes(value=f"{prefix}{self.quote}{body}{self.quote}")


class _Ids(cst.CSTVisitor):
    def __init__(self) -> None:
        self.ids: set[int] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.ids.add(id(node))
        return True


def requoted(replacements, quote: str) -> tuple:
    """The fix's replacements with the strings it wrote in `quote` (for an f-string around)."""
    ids = _Ids()
    for old, _ in replacements:
        old.visit(ids)
    return tuple((old, new.visit(_Requote(ids.ids, quote))) for old, new in replacements)
