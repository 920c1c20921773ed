"""MEM3xx: the structure of a mem0 filter (logical keys, allowed keys, where metadata goes).

Logical keys are recognised however they are spelled (`AND`, `and`, `$and`): a wrong spelling is
MEM201/MEM202's finding, the shape around it is this module's.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.dialects import ENTITY_ALIASES, ENTITY_CAMEL_CASE, MEM0, PLATFORM
from mem0lint.filtertree import DictValue, Entry, ListValue, Scalar
from mem0lint.fixbuilders import filters as filter_fixes
from mem0lint.renames import key_taken, may_hide, rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import ConditionDict, condition_dicts, logical_name

FILTER_METHODS = frozenset({"search", "get_all"})
METADATA_PREFIX = "metadata."
# Platform metadata conditions that a `{"metadata": {k: v}}` wrapper can hold (§3.1).
PLATFORM_METADATA_OPS = frozenset({"eq", "ne", "contains"})


def logical_entries(node: DictValue, name: str) -> list[Entry]:
    return [e for e in node.entries if logical_name(e.key) == name]


def dotted_metadata_field(key: str | None) -> str | None:
    """`"metadata.k"` -> `"k"`; None for any other key."""
    if key is None or not key.startswith(METADATA_PREFIX):
        return None
    return key[len(METADATA_PREFIX) :] or None


def owned_by_other_rules(key: str) -> bool:
    """Keys another rule explains better than "not an allowed key"."""
    return (
        logical_name(key) is not None  # MEM201 / MEM202
        or key.startswith("$")  # MEM201 / MEM205
        or dotted_metadata_field(key) is not None  # MEM305
        or key in ENTITY_CAMEL_CASE  # MEM404
        or key in ENTITY_ALIASES  # MEM405
    )


def is_plain_scalar(node) -> bool:
    return isinstance(node, Scalar) and node.value is not None


def replace_entries(
    condition: DictValue, replace: dict[int, cst.BaseDictElement | None]
) -> cst.Dict:
    """The dict with some elements replaced (id -> element) or removed (id -> None)."""
    elements = []
    for element in condition.node.elements:
        if id(element) in replace:
            if replace[id(element)] is not None:
                elements.append(replace[id(element)])
        else:
            elements.append(element)
    return fixes.with_elements(condition.node, elements)


class NotShape(Rule):
    code = "MEM301"
    versions = {"mem0ai": ">=2.0.0"}
    name = "not-shape"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.WARNING, "mem0-oss": Severity.ERROR}
    summary = "`NOT` written in the other SDK's shape (Platform: one object; open source: a list)"
    why = (
        "The two mem0 SDKs disagree on `NOT`. The Platform documents one condition object, "
        '`{"NOT": {...}}`; open source requires a non-empty list, `{"NOT": [{...}]}`, and raises '
        '"NOT operator requires a non-empty list of conditions" (ValueError) for an object.'
    )
    fix_safety = (
        "safe; Platform `[c]` -> `c` (R11), open source `c` -> `[c]` (R12); a Platform list of "
        "several conditions is reported only (its meaning is undocumented)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "NOT": [{"run_id": "r1"}]})',
            good='client.search("q", filters={"user_id": "u", "NOT": {"run_id": "r1"}})',
            fixed='client.search("q", filters={"user_id": "u", "NOT": {"run_id": "r1"}})',
        ),
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={"user_id": "u", "NOT": [{"categories": {"in": ["a"]}}, {"run_id": "r"}]},
            )
            """,
            good="""
            client.search(
                "q",
                filters={
                    "user_id": "u",
                    "NOT": {"OR": [{"categories": {"in": ["a"]}}, {"run_id": "r"}]},
                },
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "NOT": {"topic": "work"}})',
            good='memory.search("q", filters={"user_id": "u", "NOT": [{"topic": "work"}]})',
            fixed='memory.search("q", filters={"user_id": "u", "NOT": [{"topic": "work"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        wants_object = site.dialect.grammar.logical["NOT"] == "object"
        for condition in condition_dicts(site.filters):
            for entry in logical_entries(condition.node, "NOT"):
                finding = self._platform(entry) if wants_object else self._open_source(site, entry)
                if finding is not None:
                    yield finding

    @staticmethod
    def _platform(entry: Entry) -> Finding | None:
        value = entry.value
        if isinstance(value, ListValue):
            if not value.items:
                return None  # MEM312
            only = value.items[0]
            if len(value.items) == 1:
                # `NOT` of an empty condition is left alone: MEM312 reports it.
                empty = isinstance(only, DictValue) and not only.entries
                fix = (
                    None
                    if empty
                    else Fix(
                        Applicability.SAFE,
                        "Unwrap the single condition",
                        ((value.node, only.node),),
                    )
                )
                return Finding(
                    value.node, "Platform `NOT` takes one condition object, not a list", fix
                )
            return Finding(
                value.node,
                "Platform `NOT` takes one condition object; to exclude any of several "
                'conditions write `{"NOT": {"OR": [...]}}`',
            )
        if isinstance(value, Scalar):
            return Finding(value.node, "Platform `NOT` takes one condition object")
        return None

    @staticmethod
    def _open_source(site: CallSite, entry: Entry) -> Finding | None:
        value = entry.value
        if isinstance(value, DictValue):
            # An empty object would become `[{}]`, which the store reads as "no condition".
            fix = None
            if value.entries:
                fix = Fix(
                    Applicability.SAFE,
                    "Wrap the condition in a list",
                    ((value.node, cst.List([cst.Element(value.node)])),),
                )
            return Finding(
                value.node,
                'open source `NOT` takes a non-empty list of conditions, `{"NOT": [{...}]}`; '
                "an object raises ValueError",
                fix,
            )
        if isinstance(value, Scalar):
            return Finding(
                value.node, "open source `NOT` takes a non-empty list of conditions (ValueError)"
            )
        return None


class AndOrSiblings(Rule):
    code = "MEM302"
    versions = {"mem0ai": ">=2.0.0"}
    name = "and-or-siblings"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`AND` and `OR` as keys of the same dict: the Platform drops the `OR`"
    why = (
        "Sibling keys of a filter dict are ANDed, so `{AND: [a, b], OR: [c, d]}` reads as "
        "a and b and (c or d). The Platform silently drops the `OR` branch instead and returns "
        "results that ignore it. Nesting the `OR` inside the `AND` list says the same thing in a "
        "form the Platform evaluates."
    )
    fix_safety = (
        "safe (R21): the `OR` object moves into the `AND` list; an `OR` held by a variable: "
        "safe when it is bound once to a non-empty list of conditions, else unsafe"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u"}], "OR": [{"run_id": "a"}, {"run_id": "b"}]},
            )
            """,
            good="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u"}, {"OR": [{"run_id": "a"}, {"run_id": "b"}]}]},
            )
            """,
            fixed="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u"}, {"OR": [{"run_id": "a"}, {"run_id": "b"}]}]},
            )
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in condition_dicts(site.filters):
            ands = logical_entries(condition.node, "AND")
            ors = logical_entries(condition.node, "OR")
            if not ands or not ors:
                continue
            fix = None
            if len(ands) == 1 and len(ors) == 1:
                fix = self._fix(condition, ands[0], ors[0])
                fix = fix or filter_fixes.or_variable_into_and(site, condition, ands[0], ors[0])
            yield Finding(
                ors[0].key_node,
                f"`{ors[0].key}` next to `{ands[0].key}` is silently dropped by the Platform; "
                f"move the `{ors[0].key}` object into the `{ands[0].key}` list",
                fix,
            )

    @staticmethod
    def _fix(condition: ConditionDict, and_entry: Entry, or_entry: Entry) -> Fix | None:
        and_list, or_list = and_entry.value, or_entry.value
        if not isinstance(and_list, ListValue) or not and_list.items:
            return None
        if not isinstance(or_list, ListValue) or not or_list.items:
            return None
        moved = cst.Element(fixes.single_line_dict([or_entry.element]))
        new_list = fixes.with_elements(and_list.node, [*and_list.node.elements, moved])
        new_dict = replace_entries(
            condition.node,
            {
                id(and_entry.element): and_entry.element.with_changes(value=new_list),
                id(or_entry.element): None,
            },
        )
        return Fix(
            Applicability.SAFE,
            f"Move `{or_entry.key}` into the `{and_entry.key}` list",
            ((condition.node.node, new_dict),),
        )


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
            if e.key is not None and e.key not in allowed and not owned_by_other_rules(e.key)
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


class UnknownNestedKey(Rule):
    code = "MEM304"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-nested-key"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "A field inside `AND` / `OR` / `NOT` that is not a Platform filter field"
    why = (
        "Inside logical keys the Platform documents the same fields as at the top level. Any "
        "other name is not a stored field, so the condition cannot match as intended; custom "
        'fields are metadata: `{"metadata": {k: v}}`.'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"AND": [{"user_id": "u"}, {"tier": "gold"}]})',
            good=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, '
                '{"metadata": {"tier": "gold"}}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        allowed = site.dialect.grammar.allowed_top_level
        for condition in condition_dicts(site.filters):
            if condition.is_root:
                continue
            for entry in condition.node.entries:
                key = entry.key
                if key is None or key in allowed or owned_by_other_rules(key):
                    continue
                yield Finding(
                    entry.key_node,
                    f"`{key}` is not a Platform filter field; the condition cannot match as "
                    f'intended (custom fields go under `{{"metadata": {{...}}}}`)',
                )


class DottedMetadataKey(Rule):
    code = "MEM305"
    versions = {"mem0ai": ">=2.0.0"}
    name = "dotted-metadata-key"
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
        'safe; Platform `{"metadata": {"k": v}}` (R13) for a scalar, eq/ne/contains or variable '
        "value, every dotted key of a dict into one wrapper (the existing one if any; no fix "
        'when a field repeats); open source `{"k": v}` (R14) when `k` is free'
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
            and all(
                e.key in PLATFORM_METADATA_OPS and is_plain_scalar(e.value) for e in value.entries
            )
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
        taken = set(condition.node.keys())
        if (
            not condition.node.complete
            or field in taken
            or field in grammar.entity_fields
            or field == "metadata"
            or logical_name(field) is not None
        ):
            return None
        return rename_key_fix(condition.node, entry, field, f"Rename to `{field}`")


class MetadataWrapperOnOss(Rule):
    code = "MEM306"
    versions = {"mem0ai": ">=2.0.0"}
    name = "metadata-wrapper-on-oss"
    dialects = frozenset({"mem0-oss"})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = '`{"metadata": {...}}` in an open-source filter'
    why = (
        "Open source stores metadata flattened into the payload, so metadata keys are top-level "
        'filter keys. A `{"metadata": {"k": v}}` wrapper is read as field `metadata` with '
        'operator `k`: ValueError ("Unsupported metadata filter operator" in `search()`, '
        '"Unsupported filter operator(s)" from the Qdrant store).'
    )
    fix_safety = "safe (R14): the inner keys move up one level when none of them is taken"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "metadata": {"topic": "food"}})',
            good='memory.search("q", filters={"user_id": "u", "topic": "food"})',
            fixed='memory.search("q", filters={"user_id": "u", "topic": "food"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        for condition in condition_dicts(site.filters):
            entry = condition.node.get("metadata")
            inner = entry.value if entry is not None else None
            if not isinstance(inner, DictValue):
                continue
            if any(e.key in grammar.operators for e in inner.entries):
                continue  # an operator on a payload field that happens to be named `metadata`
            yield Finding(
                entry.key_node,
                "open source metadata keys are top-level filter keys; the `metadata` wrapper "
                "raises ValueError: write the inner keys directly",
                self._fix(site, condition, entry, inner),
            )

    @staticmethod
    def _fix(site: CallSite, condition: ConditionDict, entry: Entry, inner: DictValue):
        grammar = site.dialect.grammar
        siblings = set(condition.node.keys()) - {"metadata"}
        keys = inner.keys()
        if (
            not inner.entries
            or not inner.complete
            or not condition.node.complete
            or len(set(keys)) != len(keys)
            or any(
                k in siblings
                or k in grammar.entity_fields
                or k == "metadata"
                or logical_name(k) is not None
                or k.startswith("$")
                for k in keys
            )
        ):
            return None
        elements = []
        for element in condition.node.node.elements:
            if element is entry.element:
                moved = [fixes.strip_comma(e.element) for e in inner.entries]
                moved[-1] = moved[-1].with_changes(comma=element.comma)
                elements.extend(moved)
            else:
                elements.append(element)
        new = fixes.with_elements(condition.node.node, elements)
        return Fix(
            Applicability.SAFE,
            "Move the metadata keys to the top level of this condition",
            ((condition.node.node, new),),
        )


class LogicalValueNotList(Rule):
    code = "MEM311"
    versions = {"mem0ai": ">=2.0.0"}
    name = "logical-value-not-list"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`AND` / `OR` given one condition object (or, in open source, a tuple), not a list"
    why = (
        "`AND` and `OR` take a list of condition objects in both SDKs. Open source raises "
        '"AND operator requires a list of conditions" (ValueError); the Platform rejects the '
        "filter."
    )
    fix_safety = "safe; a single condition object is wrapped in a list, a tuple becomes a list"
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"OR": {"user_id": "u"}})',
            good='client.search("q", filters={"OR": [{"user_id": "u"}]})',
            fixed='client.search("q", filters={"OR": [{"user_id": "u"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "AND": {"topic": "food"}})',
            good='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
            fixed='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "OR": ({"a": 1}, {"b": 2})})',
            good='memory.search("q", filters={"user_id": "u", "OR": [{"a": 1}, {"b": 2}]})',
            fixed='memory.search("q", filters={"user_id": "u", "OR": [{"a": 1}, {"b": 2}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        rejected_by = site.dialect.grammar.rejected_by
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                name = logical_name(entry.key)
                if name is None:
                    continue
                value = entry.value
                if name == "NOT" and not isinstance(value, ListValue):
                    continue  # the object-or-list question is MEM301's
                if isinstance(value, DictValue):
                    fix = None
                    if value.entries:  # an empty one is MEM312's
                        fix = Fix(
                            Applicability.SAFE,
                            "Wrap the condition in a list",
                            ((value.node, cst.List([cst.Element(value.node)])),),
                        )
                elif isinstance(value, Scalar):
                    fix = None
                elif (
                    isinstance(value, ListValue)
                    and isinstance(value.node, cst.Tuple)
                    and site.dialect.grammar.logical_needs_list_type
                ):
                    yield self._tuple(entry, value)
                    continue
                else:
                    continue
                yield Finding(
                    value.node,
                    f"`{entry.key}` takes a list of condition objects ({rejected_by}): "
                    f"`{entry.key}: [{{...}}]`",
                    fix,
                )

    @staticmethod
    def _tuple(entry: Entry, value: ListValue) -> Finding:
        elements = list(value.node.elements)
        if len(elements) == 1:  # `(c,)`: the comma only made it a tuple
            elements[0] = fixes.strip_comma(elements[0])
        as_list = cst.List(elements)
        return Finding(
            value.node,
            f"`{entry.key}` must be a list, not a tuple: open source checks "
            "`isinstance(value, list)` and raises ValueError",
            Fix(Applicability.SAFE, "Use a list", ((value.node, as_list),)),
        )


class EmptyLogical(Rule):
    code = "MEM312"
    versions = {"mem0ai": ">=2.0.0"}
    name = "empty-logical"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.WARNING, "mem0-oss": Severity.ERROR}
    summary = "An empty `AND` / `OR` / `NOT` list"
    why = (
        "An empty logical list states no condition. Open source `search()` raises ValueError for "
        "an empty `OR` or `NOT` (an empty `AND` is silently a no-op); on the Platform the meaning "
        "of an empty list is undocumented. Usually a list built for conditions that never came."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "OR": []})',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "AND": []})',
            good='client.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        checked = grammar.logic_checked_in is None or site.method in grammar.logic_checked_in
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                name = logical_name(entry.key)
                if name is None:
                    continue
                value = entry.value
                empty = (isinstance(value, ListValue) and not value.items) or (
                    isinstance(value, DictValue) and not value.entries
                )
                if not empty:
                    continue
                raises = checked and condition.is_root and name in grammar.empty_logical_raises
                if raises:
                    yield Finding(
                        value.node,
                        f"`{entry.key}` needs at least one condition ({grammar.rejected_by}); "
                        "remove it or fill it",
                    )
                else:
                    yield Finding(
                        value.node,
                        f"empty `{entry.key}` states no condition; remove it or fill it",
                        severity=Severity.WARNING,
                    )


class OssAndDuplicateKey(Rule):
    code = "MEM308"
    versions = {"mem0ai": ">=2.0.0"}
    name = "oss-and-duplicate-key"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = "Open source `search()`: the same field twice across the root and its `AND`"
    why = (
        "`Memory.search()` flattens the root `AND` list and the root's own keys into one dict. "
        "A field that appears twice keeps only the last value, silently: "
        '`{"user_id": "u", "AND": [{"user_id": "v"}]}` searches user v. Two operator dicts '
        "are merged, so `gte` in one and `lte` in another is fine."
    )
    examples = [
        Example(
            "mem0-oss",
            bad=(
                'memory.search("q", filters={"user_id": "u", '
                '"AND": [{"topic": "food"}, {"topic": "travel"}]})'
            ),
            good=(
                'memory.search("q", filters={"user_id": "u", "topic": {"in": ["food", "travel"]}})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        root = site.filters
        if not isinstance(root, DictValue) or not root.complete:
            return
        if not any(e.key in site.dialect.grammar.entity_fields for e in root.entries):
            return  # the call raises before flattening (MEM401 / MEM402)
        # Only the exact key `AND` is flattened; the rest reaches the store as written.
        seen: dict[str, Entry] = {}
        for entry in root.entries:
            if entry.key == "AND" and isinstance(entry.value, ListValue):
                for item in entry.value.items:
                    if not isinstance(item, DictValue):
                        return  # a hidden key could be anywhere
                    for inner in item.entries:
                        yield from self._merge(seen, inner)
            elif logical_name(entry.key) is None:
                yield from self._merge(seen, entry)

    @staticmethod
    def _merge(seen: dict[str, Entry], entry: Entry) -> Iterator[Finding]:
        if entry.key is None:
            return
        earlier = seen.get(entry.key)
        seen[entry.key] = entry
        if earlier is None:
            return
        a, b = earlier.value, entry.value
        if (
            isinstance(a, DictValue)
            and isinstance(b, DictValue)
            and a.complete
            and b.complete
            and not set(a.keys()) & set(b.keys())
        ):
            return  # operator dicts with different operators merge into one condition
        yield Finding(
            entry.key_node,
            f"open source `search()` flattens `AND`: this `{entry.key}` silently replaces the "
            "earlier one (last wins); combine them in one condition",
        )


class FiltersNotDict(Rule):
    code = "MEM314"
    versions = {"mem0ai": ">=2.0.0"}
    name = "filters-not-dict"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`filters=` given a list, string or number instead of a dict"
    why = (
        "`filters` is one JSON object. Open source fails on anything else (a list has no entity "
        "key: ValueError; a string has no `.copy()`: AttributeError); the Platform rejects it."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters=[{"user_id": "u"}, {"run_id": "r"}])',
            good='client.search("q", filters={"AND": [{"user_id": "u"}, {"run_id": "r"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters="u")',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        value = site.filters
        if isinstance(value, ListValue):
            kind = "list" if isinstance(value.node, cst.List) else "tuple"
        elif isinstance(value, Scalar) and value.value is not None:
            kind = type(value.value).__name__
        else:
            return
        yield Finding(
            value.node,
            f"`filters` must be a dict (got {kind}); for several conditions use "
            '`{"AND": [...]}` or `{"OR": [...]}`',
        )
