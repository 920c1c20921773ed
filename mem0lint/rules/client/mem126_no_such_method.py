"""MEM126: a method the mem0 client class does not have in the release judged."""

from __future__ import annotations

import re
from typing import Iterator, Union

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.results import _parents
from mem0lint.sdk.dialects import MEM0, WRONG_LIST_METHODS
from mem0lint.sdk.mem0_attributes import ATTRIBUTES, CLASSES, KNOWN
from mem0lint.sdk.releases import ATTRIBUTES_READ

_ORDER = {version: index for index, version in enumerate(KNOWN)}

# What a `try` handler that guards against a missing method names (its last dotted part).
_GUARDING = frozenset({"AttributeError", "Exception", "BaseException"})


def _within(release: str, ranges: tuple[tuple[str, str], ...]) -> bool:
    index = _ORDER[release]
    return any(_ORDER[first] <= index <= _ORDER[last] for first, last in ranges)


def history(cls: str, name: str, release: str) -> str:
    """The nearest change of `name` on `cls` around `release`: "removed in 1.0.0" (the class
    had it before), "added in 2.1.0" (it gets it later), or "" (never had it)."""
    ranges = ATTRIBUTES[cls].get(name, ())
    index = _ORDER[release]
    before = [last for _, last in ranges if _ORDER[last] < index]
    after = [first for first, _ in ranges if _ORDER[first] > index]
    if before:
        return f"removed in {KNOWN[max(_ORDER[v] for v in before) + 1]}"
    if after:
        return f"added in {min(after, key=_ORDER.__getitem__)}"
    return ""


def has(cls: str, name: str, release: str) -> Union[bool, None]:
    """Does an instance of `cls` have `name` in `release`? None: not known."""
    if release not in _ORDER or cls not in CLASSES or not _within(release, CLASSES[cls]):
        return None
    return _within(release, ATTRIBUTES[cls].get(name, ()))


# Words that say the module replaces attributes or whole objects with stand-ins.
_MOCKS = re.compile(
    r"\b(?:Mock|MagicMock|AsyncMock|NonCallableMock|create_autospec|patch|monkeypatch|mocker"
    r"|mock|unittest|setattr)\b"
)


def _text(site: CallSite) -> Union[str, None]:
    """The text the module was parsed (or pruned) from: what is read there does not depend on
    which statements pruning left."""
    collector = site.resolver.collector
    source = getattr(collector, "source", None)
    if source is None:
        module = getattr(collector, "module", None)
        return module.code if module is not None else None
    return source.decode("utf-8", "replace") if isinstance(source, bytes) else source


def _spoken_of(site: CallSite, name: str) -> bool:
    """Does the module's text spell the name as a string (`hasattr(x, "name")`, `getattr`,
    `setattr`), assign it as an attribute (`x.name = ...`) or spell a mock word? Then the
    attribute may be checked for, or put there: not judged."""
    text = _text(site)
    if text is None:
        return True
    collector = site.resolver.collector
    mocked = getattr(collector, "_mem126_mocked", None)
    if mocked is None:
        mocked = collector._mem126_mocked = _MOCKS.search(text) is not None
    if mocked:
        return True
    spelled = re.escape(name)
    return (
        re.search(rf"[\"']{spelled}[\"']", text) is not None
        or re.search(rf"\.\s*{spelled}\s*(?::[^=\n]*)?(?:[-+*/|&%@^]|//|<<|>>|\*\*)?=(?!=)", text)
        is not None
    )


def _catches(handler: cst.ExceptHandler) -> bool:
    """Might the handler catch AttributeError? Bare, AttributeError, Exception, BaseException,
    or a name we cannot read (a variable holding classes)."""
    if handler.type is None:
        return True
    kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else None
    names = [e.value for e in kinds] if kinds is not None else [handler.type]
    for name in names:
        if isinstance(name, cst.Attribute):
            name = name.attr
        if not isinstance(name, cst.Name):
            return True
        last = name.value
        if last in _GUARDING or not last.endswith(("Error", "Exception", "Warning", "Exit")):
            return True
    return False


def _in_guard(site: CallSite) -> bool:
    """Is the call in the body of a `try` that may catch AttributeError, or under
    `with suppress(...)`? (Any such block around it, the enclosing functions' too.)"""
    parents = _parents(site.resolver.collector, site)
    child: cst.CSTNode = site.call
    parent = parents.get(id(child)) if parents is not None else None
    if parent is None:
        return True  # not found where it should be: not judged
    while parent is not None:
        if (
            isinstance(parent, (cst.Try, cst.TryStar))
            and child is parent.body
            and any(_catches(h) for h in parent.handlers)
        ):
            return True
        if isinstance(parent, cst.With):
            for item in parent.items:
                func = item.item.func if isinstance(item.item, cst.Call) else None
                name = func.attr if isinstance(func, cst.Attribute) else func
                if isinstance(name, cst.Name) and name.value == "suppress":
                    return True
        child, parent = parent, parents.get(id(parent))  # type: ignore[union-attr]
    return False


class NoSuchMethod(Rule):
    code = "MEM126"
    name = "no-such-method"
    dialects = MEM0
    # The releases whose sources were read (mem0lint/sdk/mem0_attributes.py); older: not judged.
    versions = {"mem0ai": ">=" + ATTRIBUTES_READ}
    any_method = True
    severity = Severity.ERROR
    summary = "A method the mem0 client class does not have in the release judged"
    why = (
        "`Memory`, `AsyncMemory`, `MemoryClient` and `AsyncMemoryClient` have no `__getattr__`: "
        "calling a method the class does not define in the installed release (`extract()`, "
        "`delete_all_memories()`, a method added in a later release or removed in an earlier "
        "one) raises AttributeError. The attributes come from the released sources "
        "(scripts/mem0_attributes.py). Not judged: a name another rule owns (`list()`, "
        "`get_memories()`, ...: MEM123; another SDK's methods: MEM690-MEM692), a receiver "
        "that may be a subclass or one of several classes, a call guarded by "
        "`hasattr`/`getattr` or inside a `try` that catches "
        "AttributeError (or Exception), a module that patches the name or uses mocks, and a "
        "release whose sources were not read."
    )
    fix_safety = "none (the method meant cannot be told)"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.extract(text=raw_text, schema={"order_id": "string"})',
            good='memory.add(raw_text, user_id="alice")',
        ),
        Example(
            "mem0-platform",
            bad='client.delete_all_memories(filters={"user_id": "alice"})',
            good='client.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-platform",
            bad='client.feedback(memory_id="m-1", feedback="POSITIVE")',
            good='client.get(memory_id="m-1")',
            release="0.1.70",
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        name = site.method
        # Only names no dialect lists: a listed name is another rule's (MEM123's wrong listing
        # names, MEM690-MEM692's names of another SDK, the surface rules' methods).
        if not site.notes.get("unlisted"):
            return
        if name in WRONG_LIST_METHODS or name.startswith("__") or "." in name:
            return
        if site.receiver is None or site.rest or site.outer is not None or site.union:
            return
        func = site.call.func
        if not isinstance(func, cst.Attribute) or func.value is not site.receiver:
            return
        release = self.releases.get(site.dialect.id)
        if release not in _ORDER:
            return
        classes = site.resolver.classes_of(site.receiver, site.scope)
        if not classes or not set(classes) <= set(CLASSES):
            return
        # Every binding of the receiver in the scope must agree (a page that shows
        # `client = MemoryClient()` and `client = AsyncMemoryClient()` as alternatives).
        wider = site.resolver.classes_of(site.receiver, getattr(site.scope, "scope", site.scope))
        if wider != classes:
            return
        if any(has(cls, name, release) is not False for cls in classes):
            return
        if _spoken_of(site, name) or _in_guard(site):
            return
        shown = " or ".join(f"`{cls}`" for cls in sorted(classes))
        changes = sorted({history(cls, name, release) for cls in classes} - {""})
        note = f"; {', '.join(changes)}" if changes else ""
        yield Finding(
            func.attr,
            f"`{name}()` does not exist on {shown} in mem0ai {release} (AttributeError){note}",
        )
