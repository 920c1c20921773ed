"""Where a client can come from, judged from a module's imports without libcst.

The binder (binding.py) finds a client in a module only through an import whose name the SDK
tables know (a client class, a factory on it, a request record, an HTTP client or
`requests.post`), a configured receiver, what the project index finds at an import
(`ProjectLookup.instance`/`returns`), a class a docs page uses unimported, or (a test file) a
pytest fixture of a conftest.py above it. `ImportTaint` judges each import by what it binds;
`holds_no_client` says a module has none of these at all, so no call in it can be on a client:
the pipeline then does not parse it with libcst (pruning.plan), and the project index knows
that nothing a module defines is a client (project.ProjectIndex._may_hold).

`scanned_gives` answers the same from a byte scan of the imports (modules.imports) when that
scan provably sees every import (`_scan_complete`), so most files need no parser at all.
tests/test_pruning_projects.py proves the byte scan a superset of Python's own reading.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import sys
import sysconfig
from typing import Iterable, Iterator, Union

from mem0lint.sdk import dialects

Source = Union[str, bytes]


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted name each name an import binds stands for, as binding.py writes it."""
    if isinstance(node, ast.Import):
        return [alias.name if alias.asname else alias.name.split(".")[0] for alias in node.names]
    module = "." * node.level + (node.module or "")
    return [
        f"{module}{alias.name}" if module.endswith(".") else f"{module}.{alias.name}"
        for alias in node.names
    ]


def _imports_anywhere(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in `body` and the statements nested in it: imports are
    statements, so expressions are never walked."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, name, None)
            if block and isinstance(block, list):
                stack.extend(reversed(block))


class ImportTaint:
    """Which imports from outside the standard library may give a client: the only way a name
    an import binds becomes one (binding.py) is a qualified name the SDK tables know (a client
    class, a factory on it, a request record, an HTTP client or `requests.post`), a configured
    receiver, or what the project index finds at it (`ProjectLookup.instance`/`returns`, for
    the name or a name under it). An import that can give none of these taints nothing, like a
    standard library import, whatever words it spells (`from mem0.configs.base import
    MemoryConfig`); it is still kept.

    `project`: the file's view of the project index (None: the file judged alone, where the
    index gives nothing); `receivers`: the configured receivers' dotted names; `transports`:
    whether an HTTP client (`requests`, `httpx`) counts. It gives a finding only through a raw
    REST call whose URL spells the Platform's host and a search or list endpoint in this module
    (`may_post_to_platform`), so elsewhere only the SDKs' clients count (`without_transports`)."""

    def __init__(
        self,
        project: object | None,
        receivers: Iterable[str] = (),
        essential: Iterable[str] = (),
        transports: bool = True,
    ) -> None:
        self.project = project
        self.receivers = tuple(receivers)
        self.transports = transports
        self.known = _known_names(transports) | frozenset(self.receivers)
        # The seeds that do not come through an import: the configured receivers' last parts,
        # the classes a docs page uses unimported (and what the caller adds: `essential`).
        self.essential = (
            frozenset(essential)
            | frozenset(name.rsplit(".", 1)[-1] for name in receivers if name)
            | frozenset(dialects.DOCS_IMPLICIT_CLASSES)
        )
        self._given: dict[str, bool] = {}

    def without_transports(self) -> ImportTaint:
        """The same judge, counting only the SDKs' clients."""
        return ImportTaint(self.project, self.receivers, self.essential, transports=False)

    def any_gives(self, tree: ast.Module, local: frozenset[str]) -> bool:
        """Does any import of the module, at any depth, give a client (or import `*`)? When none
        does, every client binding.py can find comes from the essential seeds: the SDK's class
        names, packages and REST words then taint nothing (`from mem0.configs.base import
        MemoryConfig` and a variable named `memories` in mem0's own code)."""
        for node in _imports_anywhere(tree.body):
            if any(alias.name == "*" for alias in node.names):
                return True
            if _standard_library_only(node, local):
                continue
            if any(self.may_give(name) for name in _imported(node)):
                return True
        return False

    def fixtures_may_give(self) -> bool:
        """May a fixture of a conftest.py above the file give a client (`ProjectIndex.
        conftests_may_give`)? Never without a project: the binder finds no fixture then."""
        if self.project is None:
            return False
        asks = getattr(self.project, "conftests_may_give", None)
        return True if asks is None else bool(asks(self.transports))

    def may_give(self, dotted: str) -> bool:
        given = self._given.get(dotted)
        if given is None:
            given = self._given[dotted] = self._may_give(dotted)
        return given

    def _may_give(self, dotted: str) -> bool:
        for known in self.known:
            if known == dotted or known.startswith(dotted + ".") or dotted.startswith(known + "."):
                return True
        if self.project is None:
            return False
        asks = getattr(self.project, "may_bind_client", None)
        return True if asks is None else bool(asks(dotted, self.transports))


@functools.lru_cache(maxsize=2)
def _known_names(transports: bool) -> frozenset[str]:
    """Every qualified name binding.py and callsite.py give a meaning to outside the standard
    library; without the HTTP clients' unless `transports`."""
    names = {*dialects.CLASS_DIALECT, *dialects.RECORD_CLASSES}
    names |= {*dialects.DOCS_IMPLICIT_CLASSES.values()}
    if transports:
        names |= {*dialects.HTTP_CLIENT_CLASSES, *dialects.HTTP_POST_FUNCTIONS}
    return frozenset(names)


def _standard_library() -> frozenset[str]:
    """The standard library's top-level module names: it gives no client, so a name imported
    from it taints nothing. Python 3.10+ lists them; before, its folder does."""
    names = getattr(sys, "stdlib_module_names", None)
    if names is None:  # pragma: no cover - Python 3.9
        folder = sysconfig.get_paths()["stdlib"]
        names = set(sys.builtin_module_names)
        for folder_name in (folder, os.path.join(folder, "lib-dynload")):
            try:
                entries = os.listdir(folder_name)
            except OSError:
                continue
            names.update(entry.split(".", 1)[0] for entry in entries)
        names.discard("site-packages")
    return frozenset(names) - {"__main__"}


_STANDARD = _standard_library()


def _standard_library_only(node: ast.Import | ast.ImportFrom, local: frozenset[str]) -> bool:
    if isinstance(node, ast.ImportFrom):
        if node.level or node.module is None:
            return False  # a module of this project
        modules = [node.module]
    else:
        modules = [alias.name for alias in node.names]
    return all(m.split(".")[0] in _STANDARD and m.split(".")[0] not in local for m in modules)


def python_tree(source: Source) -> tuple[str, ast.Module] | None:
    """The text and Python's tree of `source`; None when this Python cannot parse it."""
    try:
        text = source.decode("utf-8") if isinstance(source, bytes) else source
        return text, ast.parse(text)
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return None


def holds_no_client(
    source: Source, tree: ast.Module, imports: ImportTaint, local: frozenset[str], test: bool
) -> bool:
    """Can no call of the module be on a client? A client comes from an import
    (`ImportTaint.any_gives`: at any depth, `*` included), from a name known without one (the
    essential seeds: a configured receiver, a class a docs page uses unimported; searched as
    bytes anywhere, comments too), or in a test file from a fixture of a conftest.py above it
    (`ImportTaint.fixtures_may_give`). With none, pruning would leave no tainted unit but the
    statements sharing a row, and nothing in those can be a client either: the engine has
    nothing to judge, and libcst need not parse the file."""
    if _spells_any(source, imports.essential):
        return False
    if imports.any_gives(tree, local):
        return False
    return not (test and imports.fixtures_may_give())


def may_post_to_platform(source: Source) -> bool:
    """May a call in the module send a raw REST request to the Platform? callsite.py judges a
    `post` on an HTTP client only when its URL's literal head, as written in this module, spells
    `PLATFORM_HOST` and its literal tail ends at one of `REST_ENDPOINTS` (with or without its
    last `/`): both are text of this module, followed only to names it binds, so both are
    spelled in its bytes. (A module that names the host for other endpoints, as a command line
    tool or an SDK's own client does, posts nothing that is judged.)"""
    from mem0lint.prefilter import scanned

    data = scanned(source)
    return dialects.PLATFORM_HOST.encode() in data and any(
        endpoint.rstrip("/").encode() in data for endpoint in dialects.REST_ENDPOINTS
    )


def _spells_any(source: Source, words: Iterable[str]) -> bool:
    data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
    return any(word.encode("utf-8") in data for word in words)


def may_hold_client(
    source: Source, imports: ImportTaint, local: frozenset[str], test: bool
) -> tuple[bool, tuple[str, ast.Module] | None]:
    """Not `holds_no_client`, judged by bytes when the scan can say (`scanned_gives`), else with
    Python's parser; and the parse, when one was made (pruning reuses it). Unparsable here: it
    may."""
    gives = scanned_gives(source, imports, local)
    if gives is not None:
        return gives or (test and imports.fixtures_may_give()), None
    parsed = python_tree(source)
    if parsed is None:
        return True, None
    return not holds_no_client(source, parsed[1], imports, local, test), parsed


def scanned_gives(source: Source, imports: ImportTaint, local: frozenset[str]) -> bool | None:
    """`holds_no_client`'s import and seed questions from a byte scan, without Python's
    parser: True when an essential seed is spelled, an import may give a client or imports
    `*`; False when none does and the scan saw every import there is (`_scan_complete`); None
    when it cannot say."""
    from mem0lint.modules import imports as scanned_imports

    data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
    if _spells_any(data, imports.essential):
        return True
    if _STAR_IMPORT.search(data):
        return True
    for level, module, names in scanned_imports(data):
        if not level and module and module[0] in _STANDARD and module[0] not in local:
            continue
        if any(imports.may_give(dotted) for dotted in _scanned_dotted(level, module, names)):
            return True
    return False if _scan_complete(data) else None


_STAR_IMPORT = re.compile(rb"\bimport[ \t]+\*")
# What the byte scan of imports (`modules.imports`) could misread: a statement after a colon on
# its row (`if x: import y`); a comment, a byte outside ASCII (a name the scan's `\w` does not
# match) or more than 4,000 bytes in a parenthesised import. Each starts with a literal, which
# the regular expression engine searches for at memory speed.
_COMPOUND = re.compile(rb":[ \t]*(?:import|from)\b")
_PARENTHESES = re.compile(rb"import(?<![\w.]import)[ \t]*\((?![^)#\x80-\xff]{0,4000}\))")


def _scan_complete(data: bytes) -> bool:
    """Does the byte scan see every import statement, spelled as Python reads it? Not in an
    encoding that hides ASCII (a UTF-16 BOM, `# coding: utf-7`: `prefilter._as_scanned`), nor
    with a backslash continuation, a form feed, a carriage return that ends a row alone, a row
    that says `import` or `from` next to a byte outside ASCII, or one of the patterns above."""
    from mem0lint.prefilter import _as_scanned

    if _as_scanned(data) is not data:
        return False
    if b"\\\n" in data or b"\\\r" in data or b"\f" in data:
        return False
    if data.count(b"\r") != data.count(b"\r\n"):
        return False
    if _COMPOUND.search(data) or _PARENTHESES.search(data):
        return False
    return data.isascii() or not any(
        not row.isascii() and (b"import" in row or b"from" in row) for row in data.splitlines()
    )


def _scanned_dotted(level: int, module: list[str], names: list) -> list[str]:
    """`_imported`'s names for an import found by the byte scan (a superset: the scan cannot
    tell `import a.b` from `import a.b as a`, so both are given)."""
    dotted = "." * level + ".".join(module)
    if not names:
        return [dotted]
    found = []
    for name, bound in names:
        if name is None:  # `import a.b` binds `a`; `import a.b as m` binds `a.b`
            found.append(dotted)
            if module and bound == module[0]:
                found.append(module[0])
        else:
            found.append(f"{dotted}{name}" if dotted.endswith(".") else f"{dotted}.{name}")
    return found
