"""Code a page shows as the old or wrong form on purpose: not reported, never fixed.

Documentation puts the old form next to the new one (`# Before` / `# After`, an "Old" tab, a
"v2" heading on a v2-to-v3 migration page, a `❌ Wrong` example). Such code is meant to be wrong;
a finding there would be a false one, so it is not reported and never rewritten. Marked, only
by clear markers:

- Markdown / MDX: a Python block whose nearest heading above, enclosing `<Tab title="...">`,
  fence title (```` ```python Before ````), or bold lead-in line right above the fence
  (`**v0.x (Lenient):**`) is an "old" label;
- notebooks: a code cell right below a markdown cell with an "old" label line;
- everywhere: the lines from a comment line that is an "old" label (`# Before`, `# Old (v2)`,
  `# ❌ Wrong`) to the next comment line that is a "new" label (`# After`, `# New`, `# v3`,
  `# ✅`) or the end of the block; in a Python file, also to the first blank line after the
  code under it, or the end of the indented block it is in.

A label is "old" when it starts with Before, Old, Deprecated, Legacy, Wrong, Incorrect, Bad,
Don't, Avoid, Outdated, v0 (or v1 / v2 on a page that mentions v3) followed by nothing, by at most
one word, or by punctuation (`Before: ...`, `Old (v2)`); when it holds such a word in brackets
(`Search (deprecated)`); or when it holds ❌. It never is when it also holds a "new" word
(After, New, v3, Correct, Recommended, ✅): "Migrating from v2 to v3" marks nothing. Headings
such as "Before you begin" or "Don't forget your key" are no markers.
"""

from __future__ import annotations

import re
from typing import Callable, Union

from mem0lint.rule import Diagnostic

_OLD = (
    r"before|old|older|deprecated|legacy|wrong|incorrect|bad|avoid|don['’]?t|do not|outdated"
    r"|v[012](?:\.x)?"
)
_NEW = r"after|new|newer|v3(?:\.x)?|correct|right|good|recommended|fixed|updated|current|instead"
_OLD_START = re.compile(rf"^(?P<word>{_OLD})\b(?P<rest>.*)$", re.IGNORECASE)
_NEW_START = re.compile(rf"^(?P<word>{_NEW})\b(?P<rest>.*)$", re.IGNORECASE)
_OLD_BRACKETED = re.compile(rf"[(\[]\s*(?P<word>{_OLD})\b[^)\]]*[)\]]", re.IGNORECASE)
_NEW_ANYWHERE = re.compile(rf"\b(?:{_NEW})\b|✅|✔", re.IGNORECASE)
_CROSS = re.compile("❌|✗|✘|🚫")
_SEPARATORS = re.compile(r"[:(\[\-–—,]")
# Words after the marker that make it ordinary prose: "Before you begin", "Don't forget".
_PROSE = frozenset(
    {"you", "we", "your", "our", "i", "it", "this", "the", "a", "an", "forget", "miss", "to"}
    | {"let", "start", "begin"}
)
# v1 / v2 are "old" only on a page that mentions v3; v0 always is (1.0 shipped in 2025).
_VERSION = re.compile(r"^v[12]", re.IGNORECASE)
_HAS_V3 = re.compile(r"\bv3\b", re.IGNORECASE)
_DECOR = " \t#*_`>|\"'"


def _clean(label: str) -> str:
    return label.strip().strip(_DECOR).strip()


def _shaped(match: re.Match) -> bool:
    """A marker word followed by nothing, one word, or punctuation."""
    rest = match.group("rest").strip()
    if not rest or _SEPARATORS.match(rest):
        return True
    head = _SEPARATORS.split(rest, 1)[0].split()
    if len(head) != 1 or head[0].lower() in _PROSE:
        return False
    return not (match.group("word").lower() == "before" and head[0].lower().endswith("ing"))


def is_old(label: str, v3_on_page: bool = True) -> bool:
    label = _clean(label)
    if not label or "✅" in label or "✔" in label:
        return False
    if _CROSS.search(label):
        return True
    if _NEW_ANYWHERE.search(label):
        return False
    start = _OLD_START.match(label)
    found = start if start is not None and _shaped(start) else _OLD_BRACKETED.search(label)
    if found is None:
        return False
    return v3_on_page or not _VERSION.match(found.group("word"))


def is_new(label: str) -> bool:
    label = _clean(label)
    if "✅" in label or "✔" in label:
        return True
    start = _NEW_START.match(label)
    return start is not None and _shaped(start)


def comment_rows(text: str, v3_on_page: bool, python_file: bool = False) -> set[int]:
    """Rows (1-based) of `text` between an "old" comment line and the next "new" one; a range
    ends at a region boundary of a joined program too.

    `python_file`: the text is a whole Python file, not a page's short example, and a range
    ends also at the first blank line after code under the label, and where the code leaves
    the block the label is in: such a label heads the lines under it (`# Before` over a call),
    and an ordinary comment that reads like one (`# Don't fail, but log it` in an `except:`
    block, `# Legacy support`) must not hide every finding below it in the file."""
    rows: set[int] = set()
    inside = False
    indent, headed = 0, False  # the label's indentation; whether code came under it yet
    for row, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        code = bool(stripped) and not stripped.startswith("#")
        if inside and python_file:
            if (not stripped and headed) or (code and _indent(line) < indent):
                inside = False
            headed = headed or code
        if stripped.startswith("#"):
            if _BOUNDARY.match(stripped):
                inside = False
            elif is_old(stripped, v3_on_page):
                inside, indent, headed = True, _indent(line), False
            elif is_new(stripped):
                inside = False
        if inside:
            rows.add(row)
    return rows


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


_BOUNDARY = re.compile(r"^# mem0lint-region-boundary \d+$")
# A comment line that may be an "old" label (a cheap test before `comment_rows`).
_MAYBE_OLD_COMMENT = re.compile(
    rf"^[ \t]*#[ \t#*_`>]*(?:{_OLD}|.*(?:❌|✗|✘|🚫|[(\[][ \t]*(?:{_OLD})))",
    re.IGNORECASE | re.MULTILINE,
)


# Containers ---------------------------------------------------------------------------------

_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(?P<text>.*?)\s*#*\s*$")
_TAB_OPEN = re.compile(r"<Tab\b[^>]*?\btitle\s*=\s*(?:\"(?P<a>[^\"]*)\"|'(?P<b>[^']*)')")
_TAB_CLOSE = re.compile(r"</Tab\s*>")
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# A paragraph that is one bold phrase (`**Before:**`, `__Old way__`): a label for the block below.
_BOLD_LINE = re.compile(r"^ {0,3}(?P<mark>\*\*|__)(?P<text>[^*_].*?)(?P=mark)\s*:?\s*$")


def _markdown_labels(lines: list[str], starts: set[int]) -> dict[int, list[str]]:
    """For the block whose first content line is each of `starts`: its fence title, the title of
    the tab it is in, its nearest heading."""
    labels: dict[int, list[str]] = {}
    heading, tabs = "", []
    lead = ""  # the bold paragraph line just above, while only blank lines follow it
    position = 0
    while position < len(lines):
        line = lines[position].rstrip("\r\n")
        fence = _FENCE.match(line)
        if fence and not (fence.group("fence")[0] == "`" and "`" in fence.group("info")):
            marker = fence.group("fence")
            closer = re.compile(r"^ *" + re.escape(marker[0]) + "{" + str(len(marker)) + r",}\s*$")
            if position + 1 in starts:
                info = fence.group("info").strip().split(None, 1)
                title = info[1] if len(info) > 1 else ""
                title = re.sub(r"^\{?\s*title\s*=\s*|[\"'{}]", "", title)
                labels[position + 1] = [title, tabs[-1] if tabs else "", heading, lead]
            position += 1
            while position < len(lines) and not closer.match(lines[position].rstrip("\r\n")):
                position += 1
            position += 1
            lead = ""
            continue
        if line.strip():
            bold = _BOLD_LINE.match(line)
            lead = bold.group("text") if bold else ""
        found = _HEADING.match(line)
        if found:
            heading = found.group("text")
        for tab in _TAB_OPEN.finditer(line):
            tabs.append(tab.group("a") if tab.group("a") is not None else tab.group("b"))
        for _ in _TAB_CLOSE.finditer(line):
            if tabs:
                tabs.pop()
        position += 1
    return labels


def _notebook_labels(document) -> dict[int, list[str]]:
    """Region index -> the lines of the markdown cell right above its code cell."""
    from mem0lint.documents.notebook import _cells

    try:
        cells = _cells(document.raw)
    except Exception:  # noqa: BLE001  (an unreadable notebook has no regions anyway)
        return {}
    labels: dict[int, list[str]] = {}
    for index, region in enumerate(document.regions):
        above = region.cell - 2 if region.cell else -1
        if 0 <= above < len(cells) and cells[above][0] == "markdown":
            source = cells[above][1]
            text = "".join(source) if isinstance(source, list) else str(source)
            labels[index] = [line for line in text.splitlines() if line.strip()]
    return labels


def _page(document, marked_comments: bool = True) -> tuple[set[int], bool]:
    """(regions marked old as a whole, whether the page mentions v3), once per document.
    `marked_comments`: the program holds a comment that may mark code old (else v3 is not
    asked of a Python file)."""
    cached = document.__dict__.get("_mem0lint_old_regions")
    if cached is not None:
        return cached
    from mem0lint.documents.markdown import MarkdownDocument
    from mem0lint.documents.notebook import NotebookDocument

    labels: dict[int, list[str]] = {}
    if isinstance(document, MarkdownDocument):
        page = "".join(document.lines)
        by_start = _markdown_labels(document.lines, {b.start for b in document.blocks})
        labels = {i: by_start.get(b.start, []) for i, b in enumerate(document.blocks)}
    elif isinstance(document, NotebookDocument):
        page = document.raw
        labels = _notebook_labels(document)
    elif not marked_comments:  # a Python file is never marked as a whole: v3 would go unread
        return set(), False
    else:  # a Python file: one region, the file's own bytes
        data = getattr(document, "data", b"")
        page = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
    v3 = bool(_HAS_V3.search(page))
    whole = {index for index, found in labels.items() if any(is_old(x, v3) for x in found)}
    document.__dict__["_mem0lint_old_regions"] = (whole, v3)
    return whole, v3


Keep = Callable[..., bool]


def keeper(document, program, keep: Union[Keep, None]) -> Keep:
    """`keep` (the runner's filter for a program's findings, or None), also dropping the
    findings in code marked old: shown as the old form on purpose, it is not a mistake of the
    page (reporting it even at info would be a false finding), and it is never fixed. The page
    is read for markers only when a finding arrives."""
    from mem0lint.documents.python import PythonDocument

    python_file = isinstance(document, PythonDocument)
    marks: list = []  # once: (regions marked as a whole, v3 on the page, the program's text)
    rows_of: dict[int, tuple[str, set[int]]] = {}
    first: list = []  # the first module is the program as written (maybe pruned: its comment
    # lines may be blanked, rows are not); later ones are fixed programs: their own code

    def demoting(module, diagnostic: Diagnostic) -> bool:
        if keep is not None and not keep(module, diagnostic):
            return False
        if not marks:
            source = program.source
            written = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
            comments = _MAYBE_OLD_COMMENT.search(written) is not None
            whole, v3 = _page(document, comments)
            marks.append((whole & set(program.owned), v3, written if comments else None))
        whole, v3, written = marks[0]
        if not whole and written is None:
            return True
        cached = rows_of.get(id(module))
        if cached is None:
            rows_of.clear()
            code = module.code if first else written
            first.append(module)
            rows = comment_rows(code, v3, python_file) if written is not None else set()
            cached = rows_of[id(module)] = (code if code is not None else module.code, rows)
        code, rows = cached
        row = diagnostic.start[0]
        return not (row in rows or (whole and document.locate(program, code, row, 1)[0] in whole))

    return demoting
