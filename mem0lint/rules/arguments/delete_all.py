"""What the mem0 `delete_all()` rules (MEM116-MEM118) share.

Unlike `search()` and `get_all()`, `delete_all()` still takes `user_id=` / `agent_id=` /
`run_id=` (and on the Platform `app_id=`) directly: open source as its only parameters (no
`**kwargs`), the Platform as query parameters of `DELETE /v1/memories/`.
"""

from __future__ import annotations

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, ListValue, Scalar
from mem0lint.rule import Applicability, Fix

METHODS = frozenset({"delete_all"})


def entity_keywords_from_filters(site: CallSite, entities: frozenset[str]) -> list[cst.Arg] | None:
    """`filters={"user_id": u, ...}` as `user_id=u, ...` keywords, when that is exact.

    Only an inline dict whose keys are all entity ids with plain values (no operator dict, no
    list), none of them also given as a keyword.
    """
    tree = site.filters
    if not site.filters_inline or not isinstance(tree, DictValue) or not tree.complete:
        return None
    keys = tree.keys()  # a DictValue, not a dict
    if not keys or any(key not in entities or key in site.keywords for key in keys):
        return None
    for entry in tree.entries:
        if isinstance(entry.value, (DictValue, ListValue)):
            return None
        if isinstance(entry.value, Scalar) and entry.value.value is None:
            return None
    return [fixes.keyword_arg(e.key, e.element.value) for e in tree.entries]


def filters_to_keywords_fix(site: CallSite, entities: frozenset[str]) -> Fix | None:
    keywords = entity_keywords_from_filters(site, entities)
    if keywords is None:
        return None
    args = []
    for arg in site.call.args:
        args.extend(keywords if arg is site.filters_arg else [arg])
    # A `"*"` id turns a call that raised into a bulk delete (on open source with Qdrant, of the
    # whole collection): never applied without asking.
    wildcard = any(
        isinstance(e.value, Scalar) and e.value.value == "*" for e in site.filters.entries
    )
    risky = site.has_star_args or wildcard
    return Fix(
        Applicability.UNSAFE if risky else Applicability.SAFE,
        "Pass the entity ids as keywords",
        ((site.call, fixes.with_args(site.call, args)),),
    )
