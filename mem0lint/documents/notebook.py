"""A Jupyter notebook: its code cells, in order, as one program.

IPython lets a cell hold lines that are not Python (`%pip install mem0ai`, `!ls`, `%%bash`
cells); they are masked with a placeholder statement of the same indentation, so rows stay put,
and restored when a fixed cell is written back. A cell that still does not parse is left out
(IPython would reject it too) with an info line. The cells are one program in order, each parsed
once; a later cell never changes how an earlier one is judged (bind/flow.py).

A fix rewrites only the `source` value of the cells it changed, in the file's own JSON style
(indentation, list-of-lines or string, escaping); every other byte of the file is kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Iterator, Union

from mem0lint.documents.base import (
    Document,
    DocumentError,
    Program,
    Region,
    join,
)

# Line magics, shell escapes and help lines: `%pip ...`, `!ls`, `files = !ls`, `?obj`, `obj?`.
_MAGIC_LINE = re.compile(r"^(\s*)(?:[%!?]|[\w.]+\s*=\s*[%!]|[\w.]+\?{1,2}\s*$)")
# Cell magics whose body is Python: only their first line is masked.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "writefile_no"})
_PLACEHOLDER = "pass  # mem0lint-masked-line {index}"
_PLACEHOLDER_LINE = re.compile(r"^(\s*)pass  # mem0lint-masked-line (\d+)$")


@dataclass
class _Cell:
    index: int  # 1-based among all cells
    source_span: tuple[int, int]  # character offsets of the JSON value of "source"
    source: Union[str, list]
    text: str
    masked: dict[int, str]  # placeholder index -> original line (without newline)
    final_newline: bool  # the cell's last line ends in a newline (Jupyter writes it without)


class NotebookDocument(Document):
    def __init__(self, data: bytes) -> None:
        super().__init__(cells=True)
        try:
            self.raw = data.decode("utf-8")
            notebook = json.loads(self.raw)
        except (UnicodeDecodeError, ValueError) as error:
            raise DocumentError(f"not a readable notebook: {error}") from None
        if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
            raise DocumentError("not a notebook: no list of cells")
        self.code_cells: list[_Cell] = []
        self.original_texts: list[str] = []
        language = (
            notebook.get("metadata", {}).get("kernelspec", {}).get("language")
            or notebook.get("metadata", {}).get("language_info", {}).get("name")
            or "python"
        )
        if str(language).lower() != "python":
            self.info.append(f"notebook language is {language!r}, not Python; skipped")
            return
        masked_count = 0
        for index, (cell_type, source, span) in enumerate(_cells(self.raw), start=1):
            if cell_type != "code":
                continue
            text = "".join(source) if isinstance(source, list) else source
            final_newline = text.endswith("\n")
            text, masked = _mask(text, masked_count)
            masked_count += len(masked)
            if text and not final_newline:
                text += "\n"  # programs are joined line by line; taken off again on rebuild
            cell = _Cell(index, span, source, text, masked, final_newline)
            # Parsed with the other cells; alone only if the notebook does not parse (`retry`).
            region = Region(text=text, first_row=1, cell=index, label=f"cell {index}")
            self.code_cells.append(cell)
            self.regions.append(region)
        self.original_texts = [r.text for r in self.regions]

    def programs(self) -> Iterator[Program]:
        indices = [i for i, r in enumerate(self.regions) if r.skipped is None]
        if indices:
            yield Program(join(self.regions, indices), indices, frozenset(indices))

    def rebuild(self, original: bytes) -> bytes:
        pieces: list[str] = []
        position = 0
        for cell, region, before in zip(self.code_cells, self.regions, self.original_texts):
            if region.text == before:
                continue
            text = _unmask(region.text, cell.masked)
            if text is None:
                continue  # a placeholder went missing: keep the cell as it was
            if not cell.final_newline and text.endswith("\n"):
                text = text[:-1]
            start, end = cell.source_span
            pieces.append(self.raw[position:start])
            pieces.append(_dump_source(self.raw[start:end], cell.source, text))
            position = end
        if not pieces:
            return original
        pieces.append(self.raw[position:])
        return "".join(pieces).encode("utf-8")

    def frame_lines(self, data: bytes) -> dict[Union[int, None], list[str]]:
        try:
            cells = _cells(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, DocumentError):
            return {}
        return {
            index: ("".join(source) if isinstance(source, list) else source).splitlines()
            for index, (_, source, _) in enumerate(cells, start=1)
        }


def _mask(text: str, start: int) -> tuple[str, dict[int, str]]:
    lines = text.splitlines(keepends=True)
    masked: dict[int, str] = {}
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        name = first[2:].split(None, 1)[0] if first[2:].strip() else ""
        whole = name not in _PYTHON_CELL_MAGICS
        targets = range(len(lines)) if whole else range(1)
    else:
        targets = [i for i, line in enumerate(lines) if _MAGIC_LINE.match(line)]
    for i in targets:
        line = lines[i]
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        indent = re.match(r"^\s*", body).group(0) if not first.startswith("%%") else ""
        index = start + len(masked)
        masked[index] = body
        lines[i] = indent + _PLACEHOLDER.format(index=index) + ending
    return "".join(lines), masked


def _unmask(text: str, masked: dict[int, str]) -> Union[str, None]:
    seen = set()
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        body = line.rstrip("\r\n")
        match = _PLACEHOLDER_LINE.match(body)
        if match and int(match.group(2)) in masked:
            index = int(match.group(2))
            seen.add(index)
            lines[i] = masked[index] + line[len(body) :]
    return "".join(lines) if seen == set(masked) else None


def _dump_source(raw: str, old: Union[str, list], text: str) -> str:
    """The JSON for a cell's new source, shaped like the old value `raw`."""
    ascii_only = raw.isascii() and "\\u" in raw
    if isinstance(old, str):
        return json.dumps(text, ensure_ascii=ascii_only)
    lines = text.splitlines(keepends=True)
    strings = [json.dumps(line, ensure_ascii=ascii_only) for line in lines]
    if not strings:
        return "[]"
    # Reuse the whitespace around and between the old strings.
    decoder = json.JSONDecoder()
    spans = []
    position = raw.index("[") + 1
    for _ in old:
        start = _skip_space(raw, position)
        _, end = decoder.raw_decode(raw, start)
        spans.append((start, end))
        position = _skip_space(raw, end) + 1  # past the comma
    if spans:
        opening = raw[raw.index("[") + 1 : spans[0][0]]
        closing = raw[spans[-1][1] : len(raw) - 1]
        between = raw[spans[0][1] : spans[1][0]] if len(spans) > 1 else "," + opening
    else:
        opening, closing, between = "", "", ", "
    return "[" + opening + between.join(strings) + closing + "]"


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _cells(raw: str) -> list[tuple[object, Union[str, list], tuple[int, int]]]:
    """(cell_type, source, span of the source value) for each cell, reading positions from the
    raw JSON text so a rewrite can replace exactly that value."""
    decoder = json.JSONDecoder()
    found: list[tuple[object, Union[str, list], tuple[int, int]]] = []

    def members(position: int) -> tuple[list[tuple[str, int, int]], int]:
        """(key, value start, value end) of each member of the object at `position`, and the
        offset just past its closing brace."""
        position = _skip_space(raw, position)
        if raw[position] != "{":
            raise DocumentError("expected a JSON object")
        position = _skip_space(raw, position + 1)
        found_members: list[tuple[str, int, int]] = []
        while raw[position] != "}":
            key, position = json.decoder.scanstring(raw, position + 1)
            position = _skip_space(raw, position)
            start = _skip_space(raw, position + 1)  # past ':'
            _, end = decoder.raw_decode(raw, start)
            found_members.append((key, start, end))
            position = _skip_space(raw, end)
            if raw[position] == ",":
                position = _skip_space(raw, position + 1)
        return found_members, position + 1

    top, _ = members(0)
    for key, start, _ in top:
        if key != "cells":
            continue
        position = _skip_space(raw, start + 1)
        while raw[position] != "]":
            cell_type, source, span = None, "", (0, 0)
            cell_members, position = members(position)
            for cell_key, value_start, value_end in cell_members:
                if cell_key == "cell_type":
                    cell_type = json.loads(raw[value_start:value_end])
                elif cell_key == "source":
                    source = json.loads(raw[value_start:value_end])
                    span = (value_start, value_end)
            found.append((cell_type, source, span))
            position = _skip_space(raw, position)
            if raw[position] == ",":
                position = _skip_space(raw, position + 1)
    return found
