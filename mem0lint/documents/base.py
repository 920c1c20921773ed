"""What every document kind shares: regions of Python code and programs built from them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Union

import libcst as cst

# Between two regions of one program: a comment line no fix ever touches (fixes replace
# expressions, never whole statements), so a fixed program splits back into its regions.
SEPARATOR = "# mem0lint-region-boundary {index}\n"
_SEPARATOR_LINE = re.compile(r"^# mem0lint-region-boundary (\d+)$")


class DocumentError(Exception):
    """The container cannot be read (not valid JSON, not a notebook...)."""


@dataclass
class Region:
    """A stretch of Python code inside a container, as the engine sees it."""

    text: str  # the code, every line ending in "\n"
    first_row: int  # container row (1-based) of its first line; row 1 of the cell in notebooks
    cell: Union[int, None] = None  # 1-based notebook cell index
    indent: int = 0  # columns removed from every line (indented Markdown fences)
    label: str = ""  # how info lines name it: "cell 3", "code block at line 12"
    skipped: Union[str, None] = None  # why it is not linted (does not parse)


@dataclass
class Program:
    """Python source made of regions; findings in regions other than `owned` are dropped."""

    source: Union[str, bytes]
    regions: list[int]  # indices into the document's regions, in program order
    owned: frozenset[int]  # the regions whose findings and fixes this program is responsible for
    separated: bool = True  # False: one region, no separator lines (plain .py files)

    def layout(self, code: str) -> list[tuple[int, int]]:
        """(region index, program row of its first line) for each region of `code`."""
        if not self.separated:
            return [(self.regions[0], 1)]
        starts = [(self.regions[0], 1)]
        for row, line in enumerate(code.split("\n"), start=1):
            match = _SEPARATOR_LINE.match(line)
            if match:
                starts.append((int(match.group(1)), row + 1))
        return starts

    def split(self, code: str) -> Union[dict[int, str], None]:
        """The text of each region in a (fixed) program; None if the separators are disturbed."""
        if not self.separated:
            return {self.regions[0]: code}
        pieces: dict[int, list[str]] = {self.regions[0]: []}
        current = self.regions[0]
        for line in code.splitlines(keepends=True):
            match = _SEPARATOR_LINE.match(line.rstrip("\r\n"))
            if match:
                current = int(match.group(1))
                pieces[current] = []
            else:
                pieces[current].append(line)
        if list(pieces) != self.regions:
            return None
        return {index: "".join(lines) for index, lines in pieces.items()}


def parse_problem(text: str, first_row: int) -> Union[str, None]:
    """Why `text` does not parse as a module on its own (rows of the container), or None."""
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        return f"invalid syntax at row {first_row + error.raw_line - 1}"
    except (RecursionError, ValueError) as error:
        return str(error) or type(error).__name__
    return None


def join(regions: list[Region], indices: list[int]) -> str:
    """Program text: the regions' code with a separator line before every region but the first."""
    parts = []
    for position, index in enumerate(indices):
        if position:
            parts.append(SEPARATOR.format(index=index))
        text = regions[index].text
        parts.append(text if text.endswith("\n") or not text else text + "\n")
    return "".join(parts)


@dataclass
class Document:
    """A file as programs. Subclasses fill `regions` and implement `programs` and `rebuild`."""

    regions: list[Region] = field(default_factory=list)
    info: list[str] = field(default_factory=list)  # notes for the user (skipped blocks)
    cells: bool = False  # findings carry a cell index

    def programs(self) -> Iterator[Program]:
        raise NotImplementedError

    def retry(self, program: Program) -> Union[list[Program], None]:
        """`program` (regions in order) does not parse: the regions that do not parse alone are
        left out, with an info line each, and the rest is tried again as one program; if every
        region parses alone, each becomes a program of its own. None: nothing to say (a single
        region that parses alone, or not a document of regions)."""
        if not program.separated:
            return None
        left_out = False
        for index in program.regions:
            region = self.regions[index]
            if region.skipped is None:
                region.skipped = parse_problem(region.text, region.first_row)
                if region.skipped is not None:
                    left_out = True
                    self.info.append(f"{region.label} does not parse; skipped ({region.skipped})")
        good = [i for i in program.regions if self.regions[i].skipped is None]
        if left_out:
            return [Program(join(self.regions, good), good, frozenset(good))] if good else []
        if len(good) > 1:
            return [Program(join(self.regions, [i]), [i], frozenset({i})) for i in good]
        return None

    def update(self, program: Program, module: cst.Module) -> bool:
        """Take a fixed program back into the regions it owns. False if it cannot."""
        pieces = program.split(module.code)
        if pieces is None:
            return False
        for index in program.owned:
            self.regions[index].text = pieces[index]
        return True

    def locate(self, program: Program, code: str, row: int, column: int):
        """Program (row, column) -> (region index, cell, container row, container column)."""
        region_index, start = program.regions[0], 1
        for index, first in program.layout(code):
            if first <= row:
                region_index, start = index, first
        region = self.regions[region_index]
        return region_index, region.cell, region.first_row + row - start, column + region.indent

    def rebuild(self, original: bytes) -> bytes:
        raise NotImplementedError

    def frame_lines(self, data: bytes) -> dict[Union[int, None], list[str]]:
        """Lines for code frames: by cell for notebooks, the file's own lines otherwise."""
        return {None: data.decode("utf-8", "replace").splitlines()}
