"""A Python file: one program, its own bytes (libcst honours the encoding cookie)."""

from __future__ import annotations

from typing import Iterator, Union

import libcst as cst

from mem0lint.documents.base import Document, Program, Region


class PythonDocument(Document):
    def __init__(self, data: bytes) -> None:
        super().__init__(regions=[Region(text="", first_row=1)])
        self.data = data
        self.fixed: Union[bytes, None] = None

    def programs(self) -> Iterator[Program]:
        yield Program(self.data, regions=[0], owned=frozenset({0}), separated=False)

    def update(self, program: Program, module: cst.Module) -> bool:
        self.fixed = module.bytes
        return True

    def rebuild(self, original: bytes) -> bytes:
        return original if self.fixed is None else self.fixed
