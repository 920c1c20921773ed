"""Rule docs are generated from the rule classes; the README table must match them."""

from pathlib import Path

from mem0lint.docs import explain
from mem0lint.readme import with_rules_table
from mem0lint.rules import all_rules

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_rule_table_is_current():
    text = README.read_text(encoding="utf-8")
    assert with_rules_table(text) == text, "run: python -m mem0lint.readme"


def test_every_rule_explains_itself():
    for code, rule in all_rules().items():
        page = explain(rule)
        assert page.startswith(f"# {code} {rule.name}")
        assert "## Why is this bad?" in page and "Use instead:" in page


def test_rules_page_is_current():
    from mem0lint.readme import rules_page

    page = README.parent / "docs" / "rules.md"
    assert page.read_text(encoding="utf-8") == rules_page(), "run: python -m mem0lint.readme"
