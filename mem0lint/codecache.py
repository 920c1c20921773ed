"""The methods `dataclasses` writes for libcst's node classes, compiled once and kept.

`dataclasses` writes each class's `__init__`, `__eq__`, `__repr__`, ... as Python source and
compiles it when the class is made. Importing libcst makes about 170 such classes: 978
compilations, 0.10-0.14 s of the 0.25-0.32 s that importing the engine takes. That import is on
the critical path of every check that parses a file (the fork server makes it while this
process walks and triages the tree), of every `-j 1` run and of the language server's start.

Compiled code depends only on its text, the compiler's flags and the interpreter, so, as Python
keeps a module's bytecode, `dataclass_code_kept` keeps the code of those texts in one marshal
file per interpreter (`$XDG_CACHE_HOME/mem0lint`, else `~/.cache/mem0lint`) and hands
`dataclasses` the kept code instead of compiling the same text again. A text seen for the first
time is compiled as `exec` would compile it, and the file is rewritten (atomically) with it.
Nothing the linter reads goes through here: only the library's own class definitions. It is
independent of `--no-cache`, which is about findings, as Python's bytecode is. (Python 3.13
compiles one text per class instead of one per method: 127 texts, and a gain too small to
measure there; on 3.9 the engine's import went from 0.42-0.55 s to 0.31-0.38 s.)
"""

from __future__ import annotations

import dataclasses
import importlib.util
import marshal
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from types import CodeType
from typing import Iterator, Optional

from mem0lint.sources import keep_whole

# The interpreter and the optimisation level decide what a text compiles to; the magic number
# (the bytecode format) is checked again inside the file.
_NAME = f"dataclass-code.{sys.implementation.cache_tag}.O{sys.flags.optimize}.marshal"
_HEADER = b"mem0lint dataclass code 1\n" + importlib.util.MAGIC_NUMBER


def default_path() -> Optional[Path]:
    """Where the compiled code is kept; None when there is no home to keep it in."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        home = os.path.expanduser("~")
        if home == "~":
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "mem0lint" / _NAME


@contextmanager
def dataclass_code_kept(path: Optional[Path]) -> Iterator[dict[str, CodeType]]:
    """Within: every class `dataclasses` makes gets its methods from the code kept at `path`
    where the same text was compiled before. Yields the code of the texts seen within."""
    if path is None or "exec" in vars(dataclasses):  # another hook is in place: leave it be
        yield {}
        return
    kept = _load(path)
    seen: dict[str, CodeType] = {}

    def exec_kept(source, globals_=None, locals_=None):
        if type(source) is str:
            code = kept.get(source)
            if code is None:
                # As `exec` compiles a text: this module's `from __future__` flags not inherited.
                code = compile(source, "<string>", "exec", dont_inherit=True)
            seen[source] = code
            source = code
        exec(source, globals_, locals_)

    dataclasses.exec = exec_kept  # a global of the module, found before the builtin
    try:
        yield seen
    finally:
        del dataclasses.exec
    if not seen.keys() <= kept.keys():
        # Kept as well: what other imports saw (the language server makes other classes), unless
        # most of it is gone (another version of libcst).
        _save(path, {**kept, **seen} if len(kept) <= 2 * len(seen) else seen)


def _load(path: Path) -> dict[str, CodeType]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(_HEADER):
        return {}
    try:
        kept = marshal.loads(data[len(_HEADER) :])
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(kept, dict):
        return {}
    return {
        text: code for text, code in kept.items() if type(text) is str and type(code) is CodeType
    }


def _save(path: Path, kept: dict[str, CodeType]) -> None:
    keep_whole(path, _HEADER + marshal.dumps(kept))


# engine.py imports this module first: libcst's first import in a process goes through here.
with dataclass_code_kept(default_path()):
    import libcst  # noqa: F401
