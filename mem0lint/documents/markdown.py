"""Markdown and MDX pages: the fenced Python blocks, in reading order, as one program.

Documentation often splits set-up ("create a client") and use ("search") into separate blocks,
so the page is one program: the binder carries what each block binds into the next, and a later
block never changes how an earlier one is judged (bind/flow.py). Each block is parsed once, as
part of the page; only when the page does not parse are the blocks parsed alone, to leave out
those that do not parse (see `Document.retry`). Fences are found wherever they are, including
inside MDX components (`<CodeGroup>`, `<Tab>`), indented or not, and with a title after the
language (```` ```python Platform API Example ````). Blocks in other languages are never read;
a Python block that does not parse is skipped with an info line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from mem0lint.documents.base import Document, Program, Region, join

PYTHON_TAGS = frozenset({"python", "py", "python3", "py3"})
_OPENER = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass
class _Block:
    start: int  # index of the first content line in the file's lines
    end: int  # index of the closing fence line (or len(lines) when unclosed)
    indent: str


class MarkdownDocument(Document):
    def __init__(self, data: bytes, indented: bool = False) -> None:
        """`indented`: also read indented code blocks that clearly hold SDK code (Markdown;
        MDX has no indented code blocks)."""
        super().__init__()
        self.encoding = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
        text = data.decode(self.encoding, "surrogateescape")
        self.lines = text.splitlines(keepends=True)
        self.blocks: list[_Block] = []
        found = list(_python_blocks(self.lines))
        if indented:
            found = sorted(found + list(_indented_blocks(self.lines)), key=lambda b: b.start)
        for block in found:
            content = self.lines[block.start : block.end]
            label = f"code block at line {block.start}"
            region = Region(text="", first_row=block.start + 1, indent=len(block.indent))
            region.label = label
            body = []
            for line in content:
                stripped = line.rstrip("\r\n")
                if stripped.strip() and not stripped.startswith(block.indent):
                    region.skipped = "a line is indented less than its fence"
                    break
                body.append(stripped[len(block.indent) :] + "\n")
            if region.skipped is None:
                region.text = "".join(body)
            else:
                self.info.append(f"{label} does not parse; skipped ({region.skipped})")
            self.blocks.append(block)
            self.regions.append(region)
        self.original_texts = [r.text for r in self.regions]

    def programs(self) -> Iterator[Program]:
        indices = [i for i, r in enumerate(self.regions) if r.skipped is None]
        if indices:
            yield Program(join(self.regions, indices), indices, frozenset(indices))

    def rebuild(self, original: bytes) -> bytes:
        lines = list(self.lines)
        # From the last block up, so earlier line indices stay valid.
        for block, region, before in reversed(
            list(zip(self.blocks, self.regions, self.original_texts))
        ):
            if region.text == before:
                continue
            newline = _newline_of(lines[block.start : block.end + 1])
            new = [
                (block.indent + line if line.strip() else line) + newline
                for line in region.text.splitlines()
            ]
            lines[block.start : block.end] = new
        result = "".join(lines)
        if result == "".join(self.lines):
            return original
        return result.encode(self.encoding, "surrogateescape")


def _newline_of(lines: list[str]) -> str:
    for line in lines:
        if line.endswith("\r\n"):
            return "\r\n"
    return "\n"


def _python_blocks(lines: list[str]) -> Iterator[_Block]:
    position = 0
    while position < len(lines):
        match = _OPENER.match(lines[position].rstrip("\r\n"))
        if not match:
            position += 1
            continue
        fence, info = match.group("fence"), match.group("info").strip()
        if fence[0] == "`" and "`" in info:
            position += 1  # inline code such as ```a``` on one line, not a fence
            continue
        closer = re.compile(r"^ *" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        end = position + 1
        while end < len(lines) and not closer.match(lines[end].rstrip("\r\n")):
            end += 1
        language = info.split(None, 1)[0].strip("{}.").lower() if info else ""
        if language in PYTHON_TAGS:
            yield _Block(position + 1, end, match.group("indent"))
        position = end + 1


# An indented code block is read only when it clearly holds SDK code: its first line imports an
# SDK package (`from mem0 import MemoryClient`, `import memos`).
_SDK_IMPORT = re.compile(r"^(?:from|import)\s+(?:mem0|memsy|memos)(?:[.\s]|$)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _indented_blocks(lines: list[str]) -> Iterator[_Block]:
    """CommonMark indented code blocks (4 spaces, after a blank line, outside fences) whose
    first line imports an SDK package and whose lines all keep the first line's indent.
    Anything else (a list item's continuation, prose, shell) is never read."""
    position, fence = 0, None
    previous_blank = True
    while position < len(lines):
        line = lines[position].rstrip("\r\n")
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            position += 1
            previous_blank = False
            continue
        if opener:
            fence = opener.group(1)
            position += 1
            previous_blank = False
            continue
        indent = len(line) - len(line.lstrip(" "))
        starts = previous_blank and indent >= 4 and _SDK_IMPORT.match(line.strip())
        if starts and not _in_list(lines, position):
            end = _indented_end(lines, position, indent)
            if end is not None:
                yield _Block(position, end, " " * indent)
                position = end
                previous_blank = False
                continue
        previous_blank = not line.strip()
        position += 1


def _indented_end(lines: list[str], start: int, indent: int):
    """The index after the block's last non-blank line; None if a line inside it is indented
    less than its first (not one code block)."""
    end = start
    position = start
    while position < len(lines):
        line = lines[position].rstrip("\r\n")
        if line.strip():
            if len(line) - len(line.lstrip(" ")) < 4:
                break
            if len(line) - len(line.lstrip(" ")) < indent:
                return None
            end = position + 1
        position += 1
    return end


_LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s|$)")


def _in_list(lines: list[str], position: int) -> bool:
    """Is the indented line the continuation of a list item (the last unindented line above
    it starts a list item)? Then it is not an indented code block."""
    for index in range(position - 1, -1, -1):
        line = lines[index].rstrip("\r\n")
        if not line.strip():
            continue
        if len(line) - len(line.lstrip(" ")) < 4:
            return bool(_LIST_ITEM.match(line))
    return False
