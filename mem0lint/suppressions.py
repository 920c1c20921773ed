"""`noqa` comments: which findings they silence, which of their codes are unused or unknown,
and adding them for every finding (`--add-noqa`).

- `# noqa: MEM201, MEM202` on the first line of a finding silences those codes there.
- `# mem0lint: noqa` anywhere in a program silences everything in it; with codes, only those.
- A bare `# noqa` belongs to other tools and silences mem0lint only with `respect-bare-noqa`.
- Other tools' codes (`E501`) are never reported nor removed.

Unused (MEM901) and unknown (MEM902) mem0lint codes become findings on the comment, with a safe
fix that removes just those codes (or the whole `noqa` when nothing is left).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from mem0lint.results import Applicability, Diagnostic, Edit, Fix

_NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_FILE_NOQA = re.compile(
    r"#\s*mem0lint:\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)
UNUSED, UNKNOWN = "MEM901", "MEM902"


def is_own(code: str) -> bool:
    return code.upper().startswith("MEM")


@dataclass
class LineNoqa:
    row: int
    trailing: cst.TrailingWhitespace  # the node holding the comment (what a fix replaces)
    comment: cst.Comment
    codes: list[str]  # every code written, in order, upper-cased
    bare: bool  # a noqa comment without codes


@dataclass
class FileNoqa:
    comment: cst.Comment
    codes: list[str]  # empty: everything


class _Comments(cst.CSTVisitor):
    def __init__(self) -> None:
        self.trailing: list[tuple[cst.TrailingWhitespace, cst.Comment]] = []
        self.file_level: list[FileNoqa] = []

    def visit_TrailingWhitespace(self, node: cst.TrailingWhitespace) -> None:
        if node.comment is not None and _NOQA.search(node.comment.value):
            self.trailing.append((node, node.comment))

    def visit_Comment(self, node: cst.Comment) -> None:
        match = _FILE_NOQA.search(node.value)
        if match:
            codes = _CODE.findall(match.group("codes") or "")
            self.file_level.append(FileNoqa(node, [c.upper() for c in codes]))


@dataclass
class Directives:
    lines: dict[int, LineNoqa]
    file_level: list[FileNoqa]


def mentions_noqa(code: Union[str, bytes]) -> bool:
    """A cheap test on the text: without the word, there is nothing to scan for."""
    return re.search(b"(?i)noqa" if isinstance(code, bytes) else "(?i)noqa", code) is not None


_OWN_CODE = re.compile(rb"(?i)noqa[^\r\n]*mem")


def names_own_code(code: Union[str, bytes]) -> bool:
    """May a `noqa` of the text name a mem0lint code (`MEM...` after `noqa` on its line)? Only
    then can the comments give a finding of their own (MEM901, MEM902): other tools' codes and
    a bare `noqa` only silence findings, and a file where no call can be on a client has none.
    Searched in the bytes as the prefilter reads them (an encoding that hides ASCII, decoded)."""
    from mem0lint.prefilter import scanned

    return _OWN_CODE.search(scanned(code)) is not None


def scan(module: cst.Module, positions) -> Directives:

    visitor = _Comments()
    module.visit(visitor)
    lines: dict[int, LineNoqa] = {}
    for trailing, comment in visitor.trailing:
        codes: list[str] = []
        bare = False
        for match in _NOQA.finditer(comment.value):
            if match.group("codes"):
                codes += [c.upper() for c in _CODE.findall(match.group("codes"))]
            else:
                bare = True
        row = positions[comment].start.line
        lines[row] = LineNoqa(row, trailing, comment, codes, bare)
    return Directives(lines, visitor.file_level)


def apply(
    module: cst.Module,
    diagnostics: list[Diagnostic],
    positions,
    enabled,
    respect_bare_noqa: bool = False,
    version_skipped=None,
) -> list[Diagnostic]:
    """Drop silenced findings; add MEM901/MEM902 findings for codes that silence nothing.
    `version_skipped(code)`: the rule does not apply to the SDK release the file is judged by
    (its noqa may be kept for another release): not reported unused."""
    from mem0lint.rules import all_rules  # lazily: it loads every rule

    directives = scan(module, positions)
    kept: list[Diagnostic] = []
    used: set[tuple[int, str]] = set()
    everything = any(not f.codes for f in directives.file_level)
    file_codes = {c for f in directives.file_level for c in f.codes}
    for diagnostic in diagnostics:
        row = diagnostic.start[0]
        noqa = directives.lines.get(row)
        if noqa is not None and diagnostic.code in noqa.codes:
            used.add((row, diagnostic.code))
            continue
        if noqa is not None and noqa.bare and respect_bare_noqa:
            continue
        if everything or diagnostic.code in file_codes:
            continue
        kept.append(diagnostic)
    known = all_rules()
    for row, noqa in sorted(directives.lines.items()):
        unknown = [c for c in noqa.codes if is_own(c) and c not in known]
        unused = [c for c in noqa.codes if is_own(c) and c in known and (row, c) not in used]
        if version_skipped is not None:
            unused = [c for c in unused if not version_skipped(c)]
        for code, codes in ((UNKNOWN, unknown), (UNUSED, unused)):
            if codes and enabled(code):
                kept.append(_finding(code, codes, noqa, positions, known))
    for file_noqa in directives.file_level:
        unknown = [c for c in file_noqa.codes if is_own(c) and c not in known]
        if unknown and enabled(UNKNOWN):
            diagnostic = _diagnostic(UNKNOWN, _message(UNKNOWN, unknown), file_noqa.comment, None)
            _place(diagnostic, positions)
            kept.append(diagnostic)
    kept.sort(key=lambda d: (d.start, d.code))
    return kept


def _message(code: str, codes: list[str]) -> str:
    listed = ", ".join(codes)
    if code == UNKNOWN:
        return f"`noqa` names {listed}, which is not a mem0lint rule; remove it or fix the code"
    return f"`noqa` silences {listed}, but nothing is reported there; remove it"


def _diagnostic(code: str, message: str, node: cst.CSTNode, fix: Union[Fix, None]) -> Diagnostic:

    from mem0lint.rules import all_rules  # lazily: it loads every rule

    rule = all_rules()[code]
    return Diagnostic(
        code=code,
        name=rule.name,
        severity=rule.severity,
        message=message,
        dialect="",
        node=node,
        fix=fix,
    )


def _span(position: CodeRange) -> tuple[tuple[int, int], tuple[int, int]]:
    return (
        (position.start.line, position.start.column + 1),
        (position.end.line, position.end.column + 1),
    )


def _place(diagnostic: Diagnostic, positions) -> None:
    diagnostic.start, diagnostic.end = _span(positions[diagnostic.node])


def _finding(code: str, codes: list[str], noqa: LineNoqa, positions, known) -> Diagnostic:
    replacement = without_codes(noqa.trailing, set(codes))
    fix = Fix(
        Applicability.SAFE,
        f"Remove {', '.join(codes)} from the `noqa`",
        ((noqa.trailing, replacement),),
    )
    diagnostic = _diagnostic(code, _message(code, codes), noqa.comment, fix)
    _place(diagnostic, positions)
    start, end = _span(positions[noqa.trailing])
    diagnostic.edits = [Edit(cst.Module([]).code_for_node(replacement), start, end)]
    return diagnostic


def without_codes(trailing: cst.TrailingWhitespace, drop: set[str]) -> cst.TrailingWhitespace:
    """The comment with the `drop` codes removed; the `noqa` goes when no code is left."""
    value = trailing.comment.value

    def rewrite(match: re.Match) -> str:
        if not match.group("codes"):
            return match.group(0)
        codes = _CODE.findall(match.group("codes"))
        left = [c for c in codes if c.upper() not in drop]
        if not left:
            return ""
        head = match.group(0)[: match.start("codes") - match.start(0)]
        return head + ", ".join(left)

    new = _NOQA.sub(rewrite, value).rstrip()
    new = re.sub(r"\s+#\s*$", "", new).rstrip()  # "# type: ignore  #" -> "# type: ignore"
    new = new.strip()
    if new in ("", "#"):
        return trailing.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None)
    if not new.startswith("#"):
        new = "# " + new
    return trailing.with_changes(comment=cst.Comment(new))


class _AddNoqa(cst.CSTTransformer):
    def __init__(self, codes_by_node: dict[int, list[str]]) -> None:
        self.codes_by_node = codes_by_node

    def leave_TrailingWhitespace(self, original_node, updated_node):
        codes = self.codes_by_node.get(id(original_node))
        if not codes:
            return updated_node
        comment = updated_node.comment
        if comment is None:
            return updated_node.with_changes(
                whitespace=cst.SimpleWhitespace("  "),
                comment=cst.Comment(f"# noqa: {', '.join(codes)}"),
            )
        match = next((m for m in _NOQA.finditer(comment.value) if m.group("codes")), None)
        if match is not None:
            present = [c.upper() for c in _CODE.findall(match.group("codes"))]
            extra = [c for c in codes if c not in present]
            value = comment.value[: match.end()] + "".join(f", {c}" for c in extra)
            value += comment.value[match.end() :]
            return updated_node.with_changes(comment=cst.Comment(value))
        value = f"{comment.value}  # noqa: {', '.join(codes)}"
        return updated_node.with_changes(comment=cst.Comment(value))


class _Trailing(cst.CSTVisitor):
    def __init__(self) -> None:
        self.nodes: list[cst.TrailingWhitespace] = []

    def visit_TrailingWhitespace(self, node: cst.TrailingWhitespace) -> None:
        self.nodes.append(node)


def add_noqa(module: cst.Module, diagnostics: list[Diagnostic]) -> tuple[cst.Module, int, int]:
    """A `# noqa: CODE` on the first line of every finding. Returns the new module, how many
    findings were silenced, and how many could not be (a line inside a multi-line string)."""
    if not diagnostics:
        return module, 0, 0
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    visitor = _Trailing()
    module.visit(visitor)
    by_row: dict[int, cst.TrailingWhitespace] = {}
    for node in visitor.nodes:
        by_row.setdefault(positions[node].start.line, node)
    codes_by_node: dict[int, list[str]] = {}
    added = missed = 0
    for diagnostic in diagnostics:
        node = by_row.get(diagnostic.start[0])
        if node is None:
            missed += 1
            continue
        codes = codes_by_node.setdefault(id(node), [])
        if diagnostic.code not in codes:
            codes.append(diagnostic.code)
        added += 1
    if not codes_by_node:
        return module, 0, missed
    return module.visit(_AddNoqa(codes_by_node)), added, missed
