"""Write mem0lint/sdk/mem0_attributes.py: the attributes of mem0's client classes per release.

Run by hand when a mem0ai release is added (standard library only; the SDK is read with `ast`,
never imported):

    python scripts/mem0_attributes.py SRC [SRC ...]            # writes the module
    python scripts/mem0_attributes.py SRC --check              # exits 1 if the module differs

Each SRC is a folder of unpacked releases, one sub-folder per version holding the `mem0`
package (`SRC/2.2.1/mem0/__init__.py`): the sdists/wheels of PyPI, unpacked (for the module in
the repository: /tmp/bisect/src, mem0ai 0.1.0 ... 2.0.0, and the wheels of 2.0.1 ... 2.2.1
unzipped to /tmp/p/src). A version in several folders is read from the first. Only versions
that `mem0lint.sdk.releases.RELEASES` lists are kept.

For `Memory`, `AsyncMemory`, `MemoryClient` and `AsyncMemoryClient`, found where `mem0/__init__.py`
imports them from, every attribute an instance has is collected: what the class body binds
(methods, properties, nested classes, class attributes, in every branch of an `if`/`try`), every
`self.X = ...` (or `+=`, `:`-annotated, a tuple target, `setattr(self, "X", ...)`) in any function
of the class, and the same of every base class the SDK defines (`MemoryBase`, ...). `object`,
`ABC` and `abc.ABC` add nothing but dunders (which MEM126 never judges). A release where a class
(or a base) defines `__getattr__` / `__getattribute__`, calls `setattr` with a name that is not a
literal, writes `self.__dict__` / `vars(self)`, has a decorator, a metaclass other than `ABCMeta`
or a base the SDK does not define gets no data: its calls are never judged. `SomeClass.X = ...`
anywhere in the SDK package counts too.

The module holds, per class, each attribute name with the ranges of the known releases (inclusive,
over `KNOWN`) that define it, and per class the ranges where it is known at all.
"""

from __future__ import annotations

import argparse
import ast
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from mem0lint.sdk.releases import RELEASES  # noqa: E402  (data only; imports nothing else)

OUT = HERE / "mem0lint" / "sdk" / "mem0_attributes.py"
CLASSES = ("Memory", "AsyncMemory", "MemoryClient", "AsyncMemoryClient")
NEUTRAL_BASES = frozenset({"object", "ABC", "abc.ABC"})
DYNAMIC_METHODS = frozenset({"__getattr__", "__getattribute__"})


class Unknown(Exception):
    """The class's attributes cannot be known from its source."""


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


class Package:
    """One release's `mem0` package, parsed on demand."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._trees: dict[str, ast.Module | None] = {}

    def path_of(self, module: str) -> Path | None:
        base = self.root.joinpath(*module.split("."))
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                return path
        return None

    def tree(self, module: str) -> ast.Module | None:
        if module not in self._trees:
            path = self.path_of(module)
            self._trees[module] = ast.parse(path.read_bytes()) if path else None
        return self._trees[module]

    def find_class(self, module: str, name: str, depth: int = 0) -> tuple[str, ast.ClassDef]:
        """The class `name` as `module` defines or imports it (following re-exports)."""
        tree = self.tree(module)
        if tree is None or depth > 8:
            raise Unknown(f"{module}.{name}")
        found = None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                found = (module, node)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        source = self._absolute(module, node)
                        if source is None or not source.startswith("mem0"):
                            raise Unknown(f"{name} from {source}")
                        found = ("import", source, alias.name)
        if found is None:
            raise Unknown(f"{module}.{name}")
        if found[0] == "import":
            return self.find_class(found[1], found[2], depth + 1)
        return found

    def _absolute(self, module: str, node: ast.ImportFrom) -> str | None:
        if not node.level:
            return node.module
        package = module.split(".")
        path = self.path_of(module)
        if path is not None and path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        return ".".join(package + ([node.module] if node.module else []))

    def imported_as(self, module: str, name: str) -> tuple[str, str] | None:
        """What a name of `module` refers to when it is imported from the SDK."""
        for node in self.tree(module).body:
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        return self._absolute(module, node), alias.name
        return None


def _body_names(body: list[ast.stmt], names: set[str]) -> None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        names.add(sub.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
        for field in ("body", "orelse", "finalbody"):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                _body_names(getattr(node, field, []) or [], names)
        for handler in getattr(node, "handlers", []) or []:
            _body_names(handler.body, names)
    for node in body:  # a walrus in the class body (not in its functions) binds there too
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.NamedExpr):
                names.add(sub.target.id)


def _self_names(cls: ast.ClassDef, names: set[str]) -> None:
    """`self.X = ...` in every function of the class (`self`: each function's first parameter)."""
    for func in ast.walk(cls):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = func.args.posonlyargs + func.args.args
        if not params:
            continue
        me = params[0].arg
        for node in ast.walk(func):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
                if isinstance(node.value, ast.Name) and node.value.id == me:
                    if node.attr == "__dict__":
                        raise Unknown("self.__dict__ written")
                    names.add(node.attr)
            elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
                if isinstance(node.value, ast.Name) and node.value.id == me:
                    raise Unknown("self.__dict__ read")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id == "vars" and node.args:
                    raise Unknown("vars(...)")
                if node.func.id == "setattr" and node.args:
                    target = node.args[0]
                    if isinstance(target, ast.Name) and target.id == me:
                        name = node.args[1] if len(node.args) > 1 else None
                        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                            raise Unknown("setattr(self, <name>)")
                        names.add(name.value)


def class_attributes(package: Package, module: str, cls: ast.ClassDef, depth: int = 0) -> set[str]:
    if depth > 8:
        raise Unknown("deep bases")
    if cls.decorator_list:
        raise Unknown(f"{cls.name} is decorated")
    for keyword in cls.keywords:
        if keyword.arg != "metaclass" or _dotted(keyword.value) not in ("ABCMeta", "abc.ABCMeta"):
            raise Unknown(f"{cls.name}({keyword.arg}=...)")
    names: set[str] = set()
    _body_names(cls.body, names)
    if names & DYNAMIC_METHODS:
        raise Unknown(f"{cls.name} defines __getattr__")
    _self_names(cls, names)
    for base in cls.bases:
        dotted = _dotted(base)
        if dotted in NEUTRAL_BASES:
            continue
        if dotted is None or "." in dotted:
            raise Unknown(f"base {ast.unparse(base)}")
        local = [n for n in package.tree(module).body if isinstance(n, ast.ClassDef)]
        local = [n for n in local if n.name == dotted]
        if local:
            names |= class_attributes(package, module, local[-1], depth + 1)
            continue
        source = package.imported_as(module, dotted)
        if source is None or not source[0] or not source[0].startswith("mem0"):
            raise Unknown(f"base {dotted}")
        base_module, base_cls = package.find_class(source[0], source[1])
        names |= class_attributes(package, base_module, base_cls, depth + 1)
    return names


def patched(package: Package, classes: dict[str, str]) -> dict[str, set[str]]:
    """`Memory.X = ...` / `setattr(Memory, "X", ...)` anywhere in the package (by class name)."""
    found: dict[str, set[str]] = {name: set() for name in classes}
    for path in package.root.joinpath("mem0").rglob("*.py"):
        text = path.read_text(encoding="utf-8", errors="replace")
        if not any(name in text for name in classes):
            continue
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in found
            ):
                found[node.value.id].add(node.attr)
            if isinstance(node, ast.Call) and _dotted(node.func) == "setattr" and node.args:
                target = node.args[0]
                if isinstance(target, ast.Name) and target.id in found:
                    name = node.args[1] if len(node.args) > 1 else None
                    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                        raise Unknown(f"setattr({target.id}, <name>)")
                    found[target.id].add(name.value)
    return found


def read_release(root: Path) -> dict[str, set[str] | None]:
    """Class -> its attributes in this release (None: not knowable; absent: no such class)."""
    package = Package(root)
    out: dict[str, set[str] | None] = {}
    defined: dict[str, str] = {}
    for name in CLASSES:
        try:
            module, cls = package.find_class("mem0", name)
        except Unknown:
            continue  # not exported by this release
        defined[name] = module
        try:
            out[name] = class_attributes(package, module, cls)
        except Unknown:
            out[name] = None
    try:
        extra = patched(package, defined)
    except Unknown:
        return {name: None for name in out}
    for name, names in extra.items():
        if out.get(name) is not None:
            out[name] |= names
    return out


def _ranges(present: list[bool], known: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    ranges = []
    start = None
    for index, flag in enumerate(present + [False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            ranges.append((known[start], known[index - 1]))
            start = None
    return tuple(ranges)


def _q(text: str) -> str:
    return f'"{text}"'


def _show(ranges: tuple[tuple[str, str], ...]) -> str:
    inner = ", ".join(f"({_q(first)}, {_q(last)})" for first, last in ranges)
    return f"({inner},)" if len(ranges) == 1 else f"({inner})"


def build(sources: list[Path]) -> str:
    roots: dict[str, Path] = {}
    for source in sources:
        for child in sorted(source.iterdir()):
            if (child / "mem0" / "__init__.py").is_file():
                roots.setdefault(child.name, child)
    known = tuple(v for v in RELEASES["mem0ai"] if v in roots)
    read = {version: read_release(roots[version]) for version in known}
    lines = [
        '"""The attributes of mem0\'s client classes, per release: generated by',
        "scripts/mem0_attributes.py from the released sources (read with `ast`); do not edit.",
        "",
        "`KNOWN`: the releases read, oldest first. `CLASSES[cls]`: the ranges of `KNOWN` (first,",
        "last, inclusive) where the class's attributes are known (it exists, and no `__getattr__`,",
        "dynamic `setattr`, decorator or foreign base hides them). `ATTRIBUTES[cls][name]`: the",
        "ranges where an instance has `name` (a method, property, class attribute or `self.name`",
        "set in any method, the SDK base classes' included). A release outside `CLASSES[cls]`",
        "is never judged.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "Ranges = tuple[tuple[str, str], ...]",
        "",
        "",
        "def _listed(text: str) -> tuple[str, ...]:",
        "    return tuple(text.split())",
        "",
        "",
        "# fmt: off",
        "KNOWN: tuple[str, ...] = _listed(",
        '    """',
        *textwrap.wrap(" ".join(known), 92, initial_indent="    ", subsequent_indent="    "),
        '    """',
        ")",
        "",
        "CLASSES: dict[str, Ranges] = {",
    ]
    for cls in CLASSES:
        present = [read[v].get(cls) is not None for v in known]
        lines.append(f"    {_q(cls)}: {_show(_ranges(present, known))},")
    lines += ["}", "", "ATTRIBUTES: dict[str, dict[str, Ranges]] = {"]
    for cls in CLASSES:
        names = sorted(set().union(*(read[v].get(cls) or set() for v in known)))
        lines.append(f"    {_q(cls)}: {{")
        for name in names:
            present = [name in (read[v].get(cls) or ()) for v in known]
            lines.append(f"        {_q(name)}: {_show(_ranges(present, known))},")
        lines.append("    },")
    lines += ["}", "# fmt: on", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = build(args.sources)
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from the sources")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
