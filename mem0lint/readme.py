"""Keep the README's rule table in sync with the rules: `python -m mem0lint.readme`."""

from __future__ import annotations

from pathlib import Path

from mem0lint.docs import rules_table

START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"


def with_rules_table(readme: str) -> str:
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{rules_table()}{END}{tail}"


if __name__ == "__main__":
    path = Path(__file__).resolve().parent.parent / "README.md"
    path.write_text(with_rules_table(path.read_text(encoding="utf-8")), encoding="utf-8")
