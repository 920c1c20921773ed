"""MEM303: A top-level filter key the Platform does not allow (HTTP 400)."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.structure.shared import is_plain_scalar, owned_by_other_rules, replace_entries
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class UnknownTopLevelKey(Rule):
    code = "MEM303"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-top-level-key"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "A top-level filter key the Platform does not allow (HTTP 400)"
    why = (
        "The Platform accepts only logical keys and a fixed list of fields at the top level of "
        '`filters` and answers anything else with HTTP 400 ("Top-level key must be a logical '
        'operator or an allowed field"). Custom fields are metadata: `{"metadata": {k: v}}`.'
    )
    fix_safety = (
        'unsafe; `{k: v}` -> `{"metadata": {k: v}}` is right only if `k` was stored as metadata; '
        "offered for scalar values only"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "tier": "gold"})',
            good='client.search("q", filters={"user_id": "u", "metadata": {"tier": "gold"}})',
            fixed='client.search("q", filters={"user_id": "u", "metadata": {"tier": "gold"}})',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        root = site.filters
        if not isinstance(root, DictValue):
            return
        allowed = site.dialect.grammar.allowed_top_level
        unknown = [
            e
            for e in root.entries
            if e.key is not None
            and e.key not in allowed
            and not owned_by_other_rules(e.key, site.dialect.id)
        ]
        if not unknown:
            return
        fix = self._fix(root, unknown)
        listed = ", ".join(sorted(allowed))
        for entry in unknown:
            yield Finding(
                entry.key_node,
                f"`{entry.key}` is not an allowed top-level filter key (HTTP 400); custom fields "
                f'go under `{{"metadata": {{...}}}}`; allowed: {listed}',
                fix,
            )

    @staticmethod
    def _fix(root: DictValue, unknown: list[Entry]) -> Fix | None:
        """Move every scalar unknown key into one metadata wrapper (one fix: one wrapper)."""
        if root.get("metadata") is not None or not root.complete:
            return None
        movable = [e for e in unknown if is_plain_scalar(e.value)]
        if not movable:
            return None
        inner = fixes.single_line_dict([e.element for e in movable])
        wrapper = fixes.dict_element("metadata", inner, like=movable[0].key_node).with_changes(
            comma=movable[0].element.comma
        )
        replace = {id(e.element): None for e in movable}
        replace[id(movable[0].element)] = wrapper
        names = ", ".join(f"`{e.key}`" for e in movable)
        return Fix(
            Applicability.UNSAFE,
            f"Move {names} under `metadata` (only right if stored as metadata)",
            ((root.node, replace_entries(root, replace)),),
        )
