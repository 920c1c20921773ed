"""Keep the README's rule table and docs/rules.md in sync with the rules:
`python -m mem0lint.readme`."""

from __future__ import annotations

from pathlib import Path

from mem0lint.docs import explain, rules_table
from mem0lint.rules import all_rules

START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"


def with_rules_table(readme: str) -> str:
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{rules_table()}{END}{tail}"


def _demoted(page: str) -> str:
    """Markdown headings one level down (outside code fences), to nest under the page title."""
    lines, fenced = [], False
    for line in page.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            line = "#" + line
        lines.append(line)
    return "\n".join(lines)


def rules_page() -> str:
    """docs/rules.md: the table, then every rule's `--explain` page."""
    parts = [
        "# mem0lint rules",
        "",
        "Generated from the rule classes by `python -m mem0lint.readme`; do not edit by hand.",
        "",
        rules_table(),
    ]
    parts += [_demoted(explain(rule)) for rule in all_rules().values()]
    return "\n".join(parts)


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    path = root / "README.md"
    path.write_text(with_rules_table(path.read_text(encoding="utf-8")), encoding="utf-8")
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "rules.md").write_text(rules_page(), encoding="utf-8")
