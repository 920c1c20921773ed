"""Missing filter fixes: MEM302 with an `OR` held by a variable, MEM305 with several dotted keys,
beside an existing `metadata` dict or with a variable value, MEM208 beside a logical key.
"""

from __future__ import annotations

import libcst as cst

from mem0lint import fixes
from mem0lint.filtertree import DictValue, Entry, ListValue, Opaque, Scalar
from mem0lint.renames import may_hide
from mem0lint.rule import Applicability, Fix
from mem0lint.sdk.mem0_filters import METADATA, METADATA_PREFIX

# Platform metadata conditions a `{"metadata": {k: v}}` wrapper can hold.
METADATA_OPS = METADATA.operators


def _logical(key: str | None) -> str | None:
    from mem0lint.rules.common import logical_name

    return logical_name(key)


def _without(node: cst.Dict, replace: dict) -> cst.CSTNode:
    """`node` with elements replaced (id -> element) or dropped (id -> None)."""
    elements = []
    for element in node.elements:
        if id(element) not in replace:
            elements.append(element)
        elif replace[id(element)] is not None:
            elements.append(replace[id(element)])
    return fixes.with_elements(node, elements)


def _variable(node: cst.BaseExpression) -> bool:
    """A name or attribute (`alts`, `self.alts`): a value read at run time, not built here."""
    if isinstance(node, cst.Attribute):
        return _variable(node.value)
    return isinstance(node, cst.Name) and node.value not in ("None", "True", "False")


def _bound_list_of_conditions(site, name: cst.Name) -> bool:
    """Is `name` bound once, to a non-empty list literal of non-empty dict literals?"""
    bindings = site.scope.lookup(name.value)
    if len(bindings) != 1 or bindings[0].kind != "value":
        return False
    value = bindings[0].value
    return (
        isinstance(value, cst.List)
        and bool(value.elements)
        and all(isinstance(e.value, cst.Dict) and e.value.elements for e in value.elements)
    )


def or_variable_into_and(site, condition, and_entry: Entry, or_entry: Entry) -> Fix | None:
    """MEM302 with `"OR": alts`: `{"OR": alts}` moves into the `AND` list as it is. Safe when
    `alts` is bound once to a non-empty list of conditions; otherwise unsafe: the Platform drops a
    sibling `OR` without reading it, but checks it inside `AND` (an empty list there is HTTP 400).
    """
    and_list, or_value = and_entry.value, or_entry.value
    if not isinstance(and_list, ListValue) or not and_list.items:
        return None
    if not isinstance(or_value, Opaque) or not _variable(or_value.node):
        return None
    known = isinstance(or_value.node, cst.Name) and _bound_list_of_conditions(site, or_value.node)
    moved = cst.Element(fixes.single_line_dict([or_entry.element]))
    new_list = fixes.with_elements(and_list.node, [*and_list.node.elements, moved])
    new_dict = _without(
        condition.node.node,
        {
            id(and_entry.element): and_entry.element.with_changes(value=new_list),
            id(or_entry.element): None,
        },
    )
    message = f"Move `{or_entry.key}` into the `{and_entry.key}` list"
    if not known:
        message += " (the Platform checks it there: it must be a non-empty list of conditions)"
    return Fix(
        Applicability.SAFE if known else Applicability.UNSAFE,
        message,
        ((condition.node.node, new_dict),),
    )


def _plain(node) -> bool:
    return isinstance(node, Scalar) and node.value is not None


def _wrappable(value) -> bool:
    """A value the Platform's metadata wrapper holds as written: a plain scalar, an eq / ne /
    contains object of plain scalars, or a variable (whatever it holds, it is now where the
    Platform reads metadata, instead of under a key it rejects)."""
    if _plain(value):
        return True
    if isinstance(value, Opaque):
        return _variable(value.node)
    return (
        isinstance(value, DictValue)
        and value.complete
        and bool(value.entries)
        and all(e.key in METADATA_OPS and _plain(e.value) for e in value.entries)
    )


def wrap_dotted_keys(condition, dotted: list[Entry]) -> Fix | None:
    """MEM305 on the Platform: every `"metadata.k": v` of one dict goes into one
    `{"metadata": {...}}` (the existing one when there is one: its keys and the dotted ones are
    ANDed either way). No fix when a field repeats, is dotted again, or is already in the
    existing wrapper; unsafe beside a `**spread` (it may hold `metadata`)."""
    node: DictValue = condition.node
    fields = [e.key[len(METADATA_PREFIX) :] for e in dotted]
    if not all(fields) or any("." in f for f in fields) or len(set(fields)) != len(fields):
        return None
    if not all(_wrappable(e.value) for e in dotted):
        return None
    wrappers = [e for e in node.entries if e.key == "metadata"]
    if len(wrappers) > 1 or any(
        e.key is not None and e.key != "metadata" and e.key.lower() == "metadata"
        for e in node.entries
    ):
        return None
    moved = [
        fixes.strip_comma(e.element.with_changes(key=fixes.string_like(e.key_node, f)))
        for e, f in zip(dotted, fields)
    ]
    replace: dict = {id(e.element): None for e in dotted}
    if wrappers:
        existing = wrappers[0].value
        if not (isinstance(existing, DictValue) and existing.complete and existing.entries):
            return None
        if set(fields) & set(existing.keys()):
            return None  # the same field twice: the author must choose
        inner = fixes.with_elements(existing.node, [*existing.node.elements, *moved])
        replace[id(wrappers[0].element)] = wrappers[0].element.with_changes(value=inner)
    else:
        first = dotted[0]
        replace[id(first.element)] = first.element.with_changes(
            key=fixes.string_like(first.key_node, "metadata"),
            value=fixes.single_line_dict(moved),
        )
    names = ", ".join(f"`{e.key}`" for e in dotted)
    return Fix(
        Applicability.UNSAFE if may_hide(node) else Applicability.SAFE,
        f'Write {names} under `{{"metadata": {{...}}}}`',
        ((node.node, _without(node.node, replace)),),
    )


def in_as_or_beside_logical(owner: DictValue, wrapper: Entry, alternatives, message) -> Fix | None:
    """MEM208 when the metadata condition's dict holds a logical key: a new `OR` key there would
    sit beside `AND` (dropped by the Platform) or clash with an `OR`. Beside one `AND` list, the
    `OR` goes into that list; beside one `OR` (no `AND`), the two `OR`s become one `AND` of both;
    beside `NOT` only, it is a sibling like any other. All ANDed, as the siblings were."""
    ands = [e for e in owner.entries if _logical(e.key) == "AND"]
    ors = [e for e in owner.entries if _logical(e.key) == "OR"]
    or_key = fixes.string_like(wrapper.key_node, "OR")
    new_or = fixes.single_line_dict([cst.DictElement(or_key, alternatives)])
    if ands and ors:
        return None  # MEM302's finding first
    if len(ands) == 1 and not ors:
        and_list = ands[0].value
        if not isinstance(and_list, ListValue) or not and_list.items:
            return None
        new_list = fixes.with_elements(
            and_list.node, [*and_list.node.elements, cst.Element(new_or)]
        )
        replace = {
            id(ands[0].element): ands[0].element.with_changes(value=new_list),
            id(wrapper.element): None,
        }
    elif len(ors) == 1 and not ands:
        old_or = fixes.single_line_dict([fixes.strip_comma(ors[0].element)])
        both = fixes.with_elements(cst.List([]), [cst.Element(old_or), cst.Element(new_or)])
        replace = {
            id(ors[0].element): ors[0].element.with_changes(
                key=fixes.string_like(ors[0].key_node, "AND"), value=both
            ),
            id(wrapper.element): None,
        }
    elif not ands and not ors:
        new = wrapper.element.with_changes(key=or_key, value=alternatives)
        replace = {id(wrapper.element): new}
    else:
        return None
    return Fix(Applicability.SAFE, message, ((owner.node, _without(owner.node, replace)),))
