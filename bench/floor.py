"""The libcst floor: parse every .py file under the given folders and run one visitor, in one
process, without prefilter or positions. No linter built on libcst can go below this."""

from __future__ import annotations

import os
import sys

import libcst as cst


class CountCalls(cst.CSTVisitor):
    """One cheap visitor, so the tree is walked as a linter would walk it."""

    def __init__(self) -> None:
        self.calls = 0

    def visit_Call(self, node: cst.Call) -> None:
        self.calls += 1


def main(folders: list[str]) -> int:
    visitor = CountCalls()
    failed = 0
    for folder in folders:
        for directory, _, names in os.walk(folder):
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                with open(os.path.join(directory, name), "rb") as handle:
                    data = handle.read()
                try:
                    module = cst.parse_module(data)
                except (cst.ParserSyntaxError, RecursionError, UnicodeDecodeError, SyntaxError):
                    failed += 1
                    continue
                module.visit(visitor)
    print(f"{visitor.calls} calls visited, {failed} files not parsed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
