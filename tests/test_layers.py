"""The import graph of mem0lint/ has no upward arrow (issue 10).

Every module is read with `ast` (nothing is imported or run) and placed in one layer of
`LAYERS`, top first; a module may import its own layer and the layers below, never one above.
Imports inside functions (lazy ones) count as much as those at the top of a module; only those
under `if TYPE_CHECKING:` (annotations, never executed) are left out. A package's modules
(`rules/...`, `sdk/...`, `bind/...`, `documents/...`) are in the package's layer. The layers
are described in ARCHITECTURE.md; keep the two in step.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mem0lint"

# Top first. A module (or package) name without the leading `mem0lint.`.
LAYERS: list[tuple[str, frozenset[str]]] = [
    ("entry points", frozenset({"__main__", "cli", "server", "readme", "forkserver_preload"})),
    ("pipeline", frozenset({"pipeline", "inproject", "servecache"})),
    (
        "stages",  # the workers of the pipeline's stages, and the outputs
        frozenset({"batch", "runner", "cache", "snapshot", "baseline", "report", "sarif", "docs"}),
    ),
    (
        "engine",  # one program: parse, find call sites, run rules, place, noqa, context, fix
        frozenset(
            {
                "engine",
                "incremental",
                "fixvet",
                "fixcheck",
                "comments",
                "problems",
                "pruning",
                "suppressions",
                "context",
                "sharing",
            }
        ),
    ),
    ("rules", frozenset({"rules", "fixbuilders", "ossflatten", "renames", "fixes", "argvalues"})),
    (
        "binding",  # what a receiver is, across the file and the project
        frozenset(
            {"bind", "binding", "callsite", "clientsources", "project", "modules", "filtertree"}
        ),
    ),
    (
        "sdk facts and settings",
        frozenset({"sdk", "versions", "failures", "prefilter", "config", "documents"}),
    ),
    (
        "vocabulary and utilities",
        frozenset(
            {
                "mem0lint",
                "codes",
                "rule",
                "results",
                "modes",
                "settings",
                "sources",
                "terminal",
                "positions",
                "parsing",
                "walk",
                "memo",
                "codecache",
            }
        ),
    ),
]

# Known upward arrows, each with its reason. Keep this list short; it should shrink.
ALLOWED: set[tuple[str, str]] = set()


def _layer_of() -> dict[str, int]:
    layer_of: dict[str, int] = {}
    for index, (_, names) in enumerate(LAYERS):
        for name in names:
            assert name not in layer_of, f"{name} is in two layers"
            layer_of[name] = index
    return layer_of


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _unit(module: str) -> str:
    """`mem0lint.rules.memos` -> "rules"; `mem0lint` -> "mem0lint"."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _imports(tree: ast.AST):
    """Every import statement, at any depth, except under `if TYPE_CHECKING:`."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _targets(module: str, is_package: bool, node, modules=()) -> list[str]:
    """The mem0lint modules an import statement of `module` imports (`modules`: the known
    ones, to tell `from mem0lint import engine` from `from mem0lint import __version__`)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([base] if base else []))
        names = [base] + [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
    return [n for n in names if n == "mem0lint" or n.startswith("mem0lint.")]


def import_graph() -> dict[str, set[tuple[str, int]]]:
    """{module: {(imported mem0lint module or package, line)}}."""
    modules = _modules()
    graph: dict[str, set[tuple[str, int]]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges = graph.setdefault(module, set())
        for node in _imports(tree):
            for target in _targets(module, path.name == "__init__.py", node, modules):
                edges.add((target, node.lineno))
    return graph


def upward_arrows() -> list[str]:
    layer_of = _layer_of()
    found = []
    for module, edges in sorted(import_graph().items()):
        here = _unit(module)
        for target, line in sorted(edges):
            there = _unit(target)
            if there == here or (here, there) in ALLOWED:
                continue
            if layer_of[there] < layer_of[here]:
                found.append(
                    f"{module} (line {line}) imports {target}: "
                    f"{LAYERS[layer_of[here]][0]} -> {LAYERS[layer_of[there]][0]}"
                )
    return found


def test_every_module_has_a_layer():
    layer_of = _layer_of()
    missing = sorted({_unit(m) for m in _modules()} - set(layer_of))
    assert missing == [], f"place these in LAYERS (and ARCHITECTURE.md): {missing}"
    stale = sorted(set(layer_of) - {_unit(m) for m in _modules()})
    assert stale == [], f"LAYERS names modules that do not exist: {stale}"


def test_no_upward_arrow():
    assert upward_arrows() == []


def test_the_allowed_arrows_are_still_there():
    """An exception that no import needs any more is removed from ALLOWED."""
    graph = import_graph()
    used = {
        (_unit(module), _unit(target)) for module, edges in graph.items() for target, _ in edges
    }
    assert used >= ALLOWED


def test_lazy_imports_count_and_type_checking_ones_do_not():
    """The checker itself: an import inside a function is an arrow; one under TYPE_CHECKING
    is not."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from mem0lint.cli import main\n"
        "def later():\n"
        "    from mem0lint import pipeline\n"
        "    from . import engine\n"
    )
    tree = ast.parse(source)
    targets = [
        t
        for node in _imports(tree)
        for t in _targets("mem0lint.results", False, node, {"mem0lint.engine", "mem0lint.pipeline"})
    ]
    assert "mem0lint.pipeline" in targets and "mem0lint.engine" in targets
    assert not any(t.startswith("mem0lint.cli") for t in targets)


@pytest.mark.parametrize(
    ("module", "target", "upward"),
    [("results", "pipeline", True), ("pipeline", "results", False), ("rules", "engine", True)],
)
def test_the_layers_order_is_top_first(module, target, upward):
    layer_of = _layer_of()
    assert (layer_of[target] < layer_of[module]) is upward
