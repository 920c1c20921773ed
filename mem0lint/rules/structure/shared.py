"""MEM3xx, the structure of a mem0 filter (logical keys, allowed keys, where metadata goes):
what the rules of this package share.

Logical keys are recognised however they are spelled (`AND`, `and`, `$and`): a wrong spelling is
MEM201/MEM202's finding, the shape around it is this package's.
"""

from __future__ import annotations

import libcst as cst

from mem0lint import fixes
from mem0lint.filtertree import DictValue, Entry, Scalar
from mem0lint.rules.common import key_claimed, logical_name
from mem0lint.sdk.mem0_filters import METADATA_PREFIX


def logical_entries(node: DictValue, name: str) -> list[Entry]:
    return [e for e in node.entries if logical_name(e.key) == name]


def dotted_metadata_field(key: str | None) -> str | None:
    """`"metadata.k"` -> `"k"`; None for any other key."""
    if key is None or not key.startswith(METADATA_PREFIX):
        return None
    return key[len(METADATA_PREFIX) :] or None


def owned_by_other_rules(key: str, dialect: str) -> bool:
    """Keys another rule explains better than "not an allowed key": those a rule of the dialect
    declares in its `claims_keys` (`$`-spellings: MEM201, logical keys in any case: MEM202,
    `metadata.k`: MEM305, camelCase entity ids: MEM404, entity aliases: MEM405)."""
    return key_claimed(key, dialect)


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
