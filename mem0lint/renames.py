"""Renaming a key of a dict literal, unless the new name is (or may be) taken: one rule for all.

Every rule that fixes a key by renaming it asks `rename_key_fix`:

- the new key already in the dict: no fix (Python keeps only the last of two equal keys, so the
  rename would silently drop a condition);
- another key of the same dict that a fix of this round may turn into the new key too (`$and`
  next to `and`, `userId` next to `user-id`): no fix (the fix loop applies non-overlapping fixes
  of one round together, and two renames into one key drop one of them);
- a `**spread` or a computed key in the dict: it may hold the new key already, so the fix is at
  most unsafe.
"""

from __future__ import annotations

import re

from mem0lint import fixes
from mem0lint.filtertree import DictValue, Entry
from mem0lint.rule import Applicability, Fix


def spelling(key: str) -> str:
    """What a key may be respelled into by some fix: `$And`, ` and`, `AND` -> `and`;
    `userId`, `user-id`, `USER_ID` -> `user_id`."""
    bare = key.strip().lstrip("$").strip()
    bare = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", bare)
    return bare.replace("-", "_").replace(" ", "_").lower()


def key_taken(owner: DictValue, entry: Entry, new_key: str) -> bool:
    """Would renaming `entry` of `owner` to `new_key` collide with a key that is or may become
    `new_key`?"""
    if owner.get(new_key) is not None:
        return True
    target = spelling(new_key)
    return any(
        other is not entry and other.key is not None and spelling(other.key) == target
        for other in owner.entries
    )


def may_hide(owner: DictValue) -> bool:
    """A `**spread` or a computed key: any key may be there already."""
    return not owner.complete


def rename_key_fix(
    owner: DictValue,
    entry: Entry,
    new_key: str,
    message: str,
    applicability: Applicability = Applicability.SAFE,
) -> Fix | None:
    """A fix renaming `entry` (a key of `owner`) to `new_key`; None when the name is taken."""
    if entry.key_node is None or key_taken(owner, entry, new_key):
        return None
    if may_hide(owner):
        applicability = Applicability.UNSAFE
    return Fix(applicability, message, (fixes.rename_key(entry, new_key),))
