"""Documents: a file turned into one or more Python programs, and fixed programs put back.

The engine lints a libcst Module. A `.py` file is one program. A notebook is one program made of
its code cells in order; a Markdown page is one program made of its fenced Python blocks in
order (a client made in one block binds a call in a later one; a later block never changes how
an earlier one is judged). Each
program remembers where its lines came from, so findings point at real rows (and cells), and a
fixed program can be split back into the regions it was made of.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:  # the document classes import libcst: loaded only when a file needs them
    from mem0lint.documents.base import Document

PYTHON, NOTEBOOK, MARKDOWN = "python", "notebook", "markdown"
FILE_TYPES = (PYTHON, NOTEBOOK, MARKDOWN)
SUFFIXES = {
    PYTHON: frozenset({".py", ".pyi"}),
    NOTEBOOK: frozenset({".ipynb"}),
    MARKDOWN: frozenset({".md", ".markdown", ".mdx"}),
}

__all__ = ["FILE_TYPES", "SUFFIXES", "file_type", "load", "suffixes_for"]


_KIND_OF_SUFFIX = {suffix: kind for kind, suffixes in SUFFIXES.items() for suffix in suffixes}


def file_type(path: Union[str, os.PathLike[str]]) -> str:
    """The kind of a file by its name; anything unknown is read as Python (named files)."""
    return _KIND_OF_SUFFIX.get(os.path.splitext(path)[1].lower(), PYTHON)


def suffixes_for(kinds: tuple[str, ...]) -> frozenset[str]:
    return frozenset(s for kind in kinds for s in SUFFIXES[kind])


def load(path: Path, data: bytes) -> Document:
    """Raises DocumentError when the container itself is unreadable (e.g. invalid notebook)."""
    from mem0lint.documents.markdown import MarkdownDocument
    from mem0lint.documents.notebook import NotebookDocument
    from mem0lint.documents.python import PythonDocument

    kind = file_type(path)
    if kind == NOTEBOOK:
        return NotebookDocument(data)
    if kind == MARKDOWN:
        return MarkdownDocument(data, indented=path.suffix.lower() != ".mdx")
    return PythonDocument(data)
