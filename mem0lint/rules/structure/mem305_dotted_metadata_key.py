"""MEM305: A dotted `"metadata.k"` filter key."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry
from mem0lint.fixbuilders import filters as filter_fixes
from mem0lint.renames import key_taken, may_hide, rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import ConditionDict, condition_dicts, logical_name
from mem0lint.rules.structure.shared import dotted_metadata_field, is_plain_scalar
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS, METADATA, METADATA_PREFIX


class DottedMetadataKey(Rule):
    code = "MEM305"
    versions = {"mem0ai": ">=2.0.0"}
    name = "dotted-metadata-key"
    claims_keys = frozenset({METADATA_PREFIX + "?*"})
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.ERROR, "mem0-oss": Severity.WARNING}
    summary = 'A dotted `"metadata.k"` filter key'
    why = (
        'Neither SDK reads dotted paths. The Platform rejects `"metadata.k"` (HTTP 400) and wants '
        '`{"metadata": {"k": v}}`; open source stores metadata flattened into the payload, so '
        '`"metadata.k"` names a field that does not exist and matches nothing: write `{"k": v}`.'
    )
    fix_safety = (
        'safe; Platform `{"metadata": {"k": v}}` for a scalar, eq/ne/contains or variable '
        "value, every dotted key of a dict into one wrapper (the existing one if any; no fix "
        'when a field repeats); open source `{"k": v}` when `k` is free'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "metadata.type": "note"})',
            good='client.search("q", filters={"user_id": "u", "metadata": {"type": "note"}})',
            fixed='client.search("q", filters={"user_id": "u", "metadata": {"type": "note"}})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "metadata.type": {"in": ["a"]}})',
            good='memory.search("q", filters={"user_id": "u", "type": {"in": ["a"]}})',
            fixed='memory.search("q", filters={"user_id": "u", "type": {"in": ["a"]}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        wrapper = site.dialect.grammar.metadata_style == "wrapper"
        for condition in condition_dicts(site.filters):
            dotted = [e for e in condition.node.entries if dotted_metadata_field(e.key)]
            for entry in dotted:
                field = dotted_metadata_field(entry.key)
                if wrapper:
                    fix = self._wrap(condition, entry, field, len(dotted) == 1)
                    fix = fix or filter_fixes.wrap_dotted_keys(condition, dotted)
                    instead = f'`{{"metadata": {{"{field}": ...}}}}` (dotted keys: HTTP 400)'
                else:
                    fix = self._flatten(site, condition, entry, field)
                    instead = (
                        f'the bare key `"{field}"`: open source metadata keys are top-level '
                        "fields, the dotted key matches nothing"
                    )
                yield Finding(entry.key_node, f"Write {instead}, not `{entry.key}`", fix)

    @staticmethod
    def _wrap(condition: ConditionDict, entry: Entry, field: str, alone: bool) -> Fix | None:
        if not alone or "." in field or key_taken(condition.node, entry, "metadata"):
            return None
        value = entry.value
        simple = is_plain_scalar(value) or (
            isinstance(value, DictValue)
            and value.complete
            and value.entries
            and all(e.key in METADATA.operators and is_plain_scalar(e.value) for e in value.entries)
        )
        if not simple:
            return None  # MEM208 / MEM307 explain what the Platform cannot express
        inner = fixes.single_line_dict([fixes.dict_element(field, value.node, like=entry.key_node)])
        new = entry.element.with_changes(
            key=fixes.string_like(entry.key_node, "metadata"), value=inner
        )
        return Fix(
            # A `**spread` may hold a `metadata` key already (renames.py).
            Applicability.UNSAFE if may_hide(condition.node) else Applicability.SAFE,
            f'Write `{{"metadata": {{"{field}": ...}}}}`',
            ((entry.element, new),),
        )

    @staticmethod
    def _flatten(site: CallSite, condition: ConditionDict, entry: Entry, field: str) -> Fix | None:
        grammar = site.dialect.grammar
        if (
            not condition.node.complete  # a `**spread` may hold `field`: no rename at all
            or field in grammar.entity_fields
            or field == "metadata"
            or logical_name(field) is not None
        ):
            return None
        return rename_key_fix(condition.node, entry, field, f"Rename to `{field}`")
