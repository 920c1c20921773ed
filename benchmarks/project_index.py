"""What the project index costs on a large tree: `python benchmarks/project_index.py DIR`.

Runs a full check of DIR twice, without and with the index, and reports the time to build the
index and the time spent answering its lookups (the parse of the modules it was asked about).
"""

from __future__ import annotations

import sys
import time

from mem0lint import engine, project
from mem0lint.modes import Mode
from mem0lint.pipeline import check_file
from mem0lint.sources import discover


def run(root: str, with_index: bool) -> None:
    spent = {"seconds": 0.0, "lookups": 0}
    originals = {}
    for name in ("instance", "returns", "fixture"):
        originals[name] = getattr(project.ModuleView, name)

        def timed(self, arg, _original=originals[name]):
            start = time.perf_counter()
            try:
                return _original(self, arg)
            finally:
                spent["seconds"] += time.perf_counter() - start
                spent["lookups"] += 1

        setattr(project.ModuleView, name, timed)
    try:
        sources = list(discover([root]))
        start = time.perf_counter()
        index = (
            project.ProjectIndex.for_paths([root], [s.path for s in sources])
            if with_index
            else None
        )
        built = time.perf_counter() - start
        rules = engine.RuleSet(engine.Settings())
        start = time.perf_counter()
        findings = sum(
            len(check_file(s, rules, Mode.CHECK, [], index).diagnostics) for s in sources
        )
        linted = time.perf_counter() - start
    finally:
        for name, original in originals.items():
            setattr(project.ModuleView, name, original)
    parsed = sum(1 for v in index._parsed.values() if v is not None) if index else 0
    print(
        f"{'with' if with_index else 'without'} index: {len(sources)} files, "
        f"build {built:.3f}s, lint {linted:.2f}s, {spent['lookups']} lookups in "
        f"{spent['seconds']:.3f}s, {parsed} modules parsed for the index, {findings} findings"
    )


if __name__ == "__main__":
    for with_index in (False, True):
        run(sys.argv[1], with_index)
