"""The rule codes, read from the rules' file names: `rules/<family>/mem201_dollar_operator.py`.

One rule per file, named by its code, makes the file tree the code table: `--select`,
`--ignore` and the configuration are validated without importing a rule (and libcst with it).
`tests/test_codes.py` holds the table equal to the registry of the imported rules.
"""

from __future__ import annotations

import functools
import os
import re

RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules")
_RULE_FILE = re.compile(r"^mem(\d{3})_\w+\.py$")


@functools.cache
def rule_files() -> dict[str, str]:
    """{code: path of its file, relative to the rules package}, e.g. "filters/mem201_...py"."""
    found: dict[str, str] = {}
    for family in sorted(os.listdir(RULES)):
        folder = os.path.join(RULES, family)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            match = _RULE_FILE.match(name)
            if match:
                found[f"MEM{match.group(1)}"] = f"{family}/{name}"
    return found


# Rules outside the default selection (`Rule.opt_in`): an info-level rule whose findings are
# often deliberate runs only when `select` or `extend-select` names its full code; a prefix or
# `ALL` does not turn it on. `tests/test_codes.py` holds this equal to the rules' `opt_in`.
OPT_IN = frozenset({"MEM153"})


def is_known(prefix: str) -> bool:
    """Does `prefix` ("MEM2", "MEM201", "ALL") select at least one rule?"""
    return prefix == "ALL" or any(code.startswith(prefix) for code in rule_files())
