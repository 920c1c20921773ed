"""Can this file hold a finding? Decided from its bytes, without importing libcst.

A finding needs a call site, and a call site needs a receiver that resolves to an SDK client.
Resolution (binding.py) ends in one of two places: a client class found through an import
(`CLASS_DIALECT`, e.g. `mem0.MemoryClient`), or a name known from outside the file
(`Resolver.external`: configuration, a project index). Either way the file spells words that
this module looks for:

- a client class: the import statement spells the SDK's top-level package (`mem0`, `memsy`,
  `memos`; relative imports never resolve to a client class) and the class name's last part
  is spelled where it is imported or used (`MemoryClient`, `Memory`, `MemsyClient`, ...);
- an external name `a.b.name`: `name` is spelled where it is imported or used;
- a name imported from another module of the project (a project index binds it): the file
  spells no SDK word, so `batch.triage` asks `modules.ModuleFinder.reaches_sdk`, which resolves
  the imports the file uses again to the project's actual module files (relative imports,
  packages, `src/` layouts, conftest.py files above a test) and follows them, through
  re-exports, to a module that spells one. A module name is never matched as a word: a kept
  `config.py` does not keep every file that says "config";
- a raw REST call: the endpoint's URL (`/v3/memories/...`) is spelled, and so is the Platform's
  host (`mem0.ai`): a call is judged only when its URL's literal head, in the same file, names it
  (`callsite._platform_host`). One word alone ("memories" in a comment) no longer keeps a file;
- a docs page's client built without an import: the class's distinctive name (`MemOSClient`).

So "no such words" proves "no finding", whatever the call shapes are: a helper module that
receives its client from another module is covered through the external names it is given.
Substring tests (no word boundaries) keep the scan at memory speed: a file is first searched
for the words with a shared literal head (`mem0|memos|memsy`, two scans in all), and only one that
has some is tested word by word. They may keep a file that cannot matter (`Memory` in a
comment), never drop one that does.

Sources in an encoding that is not ASCII-compatible (a UTF-16 BOM, `# coding: utf-7`...) are
decoded before the scan, so their identifiers are seen as the parser will see them.
"""

from __future__ import annotations

import codecs
import functools
import re
from typing import Iterable, Union


@functools.cache
def anchors() -> tuple[dict[bytes, tuple[bytes, ...]], tuple[bytes, ...], tuple[bytes, ...]]:
    """(for each SDK package, the words every import of one of its client classes spells; the
    words a raw REST call spells, every one of them; the SDK classes a docs page may use without
    importing them, any one of them). Derived from the dialect tables, so a new
    client class cannot be forgotten here; built on first use (a run served from the cache reads
    no file)."""
    from mem0lint.sdk import dialects

    # Client classes, and request records such as memsy.EventPayload.
    qualified_names = set(dialects.CLASS_DIALECT) | set(dialects.RECORD_CLASSES)
    packages: dict[bytes, tuple[bytes, ...]] = {}
    for qualified in sorted(qualified_names):
        package = qualified.split(".", 1)[0].encode()
        words = set(packages.get(package, ())) | {qualified.rsplit(".", 1)[-1].encode()}
        # `Memory` is a substring of `AsyncMemoryClient`: keep only the shortest distinct words.
        packages[package] = tuple(
            sorted(w for w in words if not any(o != w and o in w for o in words))
        )
    # Raw REST calls (`requests.post(".../v3/memories/search/", ...)`) name no SDK: their URL.
    rest = {
        max(re.findall(r"[A-Za-z_]+", endpoint), key=len).encode()
        for endpoint in dialects.REST_ENDPOINTS
    }
    rest |= {dialects.PLATFORM_HOST.encode()}
    implicit = tuple(sorted(name.encode() for name in dialects.DOCS_IMPLICIT_CLASSES))
    return packages, tuple(sorted(rest)), implicit


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)
_ASCII_COMPATIBLE = {"utf_8", "utf_8_sig", "ascii", "latin_1", "iso8859_1", "cp1252"}
_NOT_ASCII_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE)


def _as_scanned(data: bytes) -> bytes:
    """The bytes to scan: `data` itself unless its encoding could hide ASCII identifiers."""
    if data.startswith(_NOT_ASCII_BOMS):
        for encoding in ("utf-32", "utf-16"):
            try:
                return data.decode(encoding).encode("utf-8", "surrogatepass")
            except UnicodeDecodeError:
                continue
        return data
    head = data[: data.find(b"\n", data.find(b"\n") + 1) + 1 or len(data)]
    cookie = _COOKIE.search(head) if b"coding" in head else None
    if cookie is None:
        return data
    try:
        name = codecs.lookup(cookie.group(1).decode("ascii")).name.replace("-", "_")
    except (LookupError, UnicodeDecodeError):
        return data  # the parser rejects it too
    if name in _ASCII_COMPATIBLE:
        return data
    try:
        return data.decode(name, "replace").encode("utf-8", "surrogatepass")
    except (LookupError, UnicodeError):
        return data


def external_words(names: Iterable[str]) -> tuple[bytes, ...]:
    """The last part of each dotted name known from outside the file (configuration, index)."""
    return tuple(sorted({n.rsplit(".", 1)[-1].encode("utf-8") for n in names if n}))


@functools.cache
def _gates() -> tuple[re.Pattern[bytes], ...]:
    """Patterns one of which finds something in every source `may_matter` keeps (its names
    aside): each SDK package, one word of the REST call (all of them are needed), each class a
    docs page may use unimported. One pattern per shared three-byte head (`mem0|memos|memsy`):
    the regular expression engine then searches for that literal head at memory speed, so a
    file that spells none of them costs two scans instead of one per word."""
    packages, rest, implicit = anchors()
    words = {*packages, min(rest, key=len), *implicit} if rest else {*packages, *implicit}
    # A word that holds another is found with it (`AsyncMemsyClient`, `mem0.ai`).
    words = {w for w in words if not any(o != w and o in w for o in words)}
    by_head: dict[bytes, list[bytes]] = {}
    for word in sorted(words):
        by_head.setdefault(word[:3], []).append(word)
    return tuple(
        re.compile(b"|".join(re.escape(w) for w in sorted(group, key=len, reverse=True)))
        for group in by_head.values()
    )


def scanned(source: Union[bytes, str]) -> bytes:
    """The bytes a word is searched for in: a text's UTF-8, a file's bytes (`_as_scanned`)."""
    if isinstance(source, str):
        return source.encode("utf-8", "surrogatepass")
    return _as_scanned(source)


def may_matter(source: Union[bytes, str], names: Iterable[bytes] = ()) -> bool:
    """False only when no finding is possible in `source`.

    `names`: `external_words(...)` of every name the resolver is told about from outside.
    """
    data = scanned(source)
    if any(name in data for name in names):
        return True
    if not any(gate.search(data) for gate in _gates()):
        return False  # the common case: a file of a tree that never touches an SDK
    packages, rest, implicit = anchors()
    for package, words in packages.items():
        if package in data and any(word in data for word in words):
            return True
    if all(word in data for word in rest):
        return True
    return any(name in data for name in implicit)
