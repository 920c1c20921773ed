"""What the entity rules share: where a filter names its entity ids.

The two SDKs disagree on where an entity id counts: the Platform finds it anywhere in the filter,
open source only as a top-level key (`key in filters`). Which entity names exist and where they
count come from the dialect grammar.
"""

from __future__ import annotations

from typing import Union

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, Opaque, Scalar
from mem0lint.rules.arguments.shared import is_none
from mem0lint.rules.common import FieldCondition, field_conditions, fully_literal
from mem0lint.sdk.dialects import ENTITY_ALIASES, ENTITY_CAMEL_CASE


def entity_conditions(site: CallSite) -> list[FieldCondition]:
    entities = site.dialect.grammar.entity_fields
    return [c for c in field_conditions(site.filters) if c.field in entities]


def top_level_entities(site: CallSite) -> list[Entry]:
    root = site.filters
    if not isinstance(root, DictValue):
        return []
    return [e for e in root.entries if e.key in site.dialect.grammar.entity_fields]


def equality_value(node) -> object:
    """The node compared for equality: `v` in `{f: v}` or `{f: {"eq": v}}`, else None."""
    if isinstance(node, DictValue) and len(node.entries) == 1 and node.entries[0].key == "eq":
        return node.entries[0].value
    if isinstance(node, (Scalar, Opaque)):
        return node
    return None


def oss_scope_missing(site: CallSite) -> bool:
    """Open source: no top-level entity id and none can come from elsewhere (ValueError)."""
    return (
        scope_is_visible(site)
        and fully_literal(site.filters, top_level_only=True)
        and not top_level_entities(site)
    )


def scope_is_visible(site: CallSite) -> bool:
    """True when the entity ids of this call's filter can all be seen in the source.

    With entity ids given as keywords (MEM101 moves them into `filters`), `**kwargs`, a
    positional options object, or `filter=` (MEM105) the scope may come from elsewhere.
    """
    grammar = site.dialect.grammar
    names = site.argument_names
    if site.has_star_args or "options" in names or "filter" in names:
        return False
    named = set(grammar.entity_fields) | set(ENTITY_CAMEL_CASE) | set(ENTITY_ALIASES)
    if named & names:
        return False
    query_args = 1 if site.method == "search" else 0
    return len(site.positional) <= query_args


def entity_keyword_given(
    site: CallSite, keywords: frozenset[str], positional: int
) -> Union[bool, None]:
    """Open source before 2.0, and `add()` since: does the call pass an entity id keyword
    (`user_id=`, `agent_id=`, `run_id=`) that is not `None`? None when that cannot be told, or
    the call fails otherwise first: a `*`/`**` spread may hold one, more positionals than
    `positional` (a TypeError, or an id by position), a keyword outside `keywords` (a TypeError
    on some release the rule judges)."""
    if site.has_star_args or len(site.positional) > positional:
        return None
    given = site.keywords
    if any(name not in keywords for name in given):
        return None
    entities = site.dialect.grammar.entity_fields
    return any(not is_none(given[name].value) for name in entities if name in given)
