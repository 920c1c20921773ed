"""What the Memsy ingest rules (MEM611-MEM614) share: the `events` argument, and telling an
`EventPayload(...)` construction from any other call."""

from __future__ import annotations

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rules.sdk_args import argument
from mem0lint.sdk.dialects import RECORD_CLASSES
from mem0lint.sdk.memsy import INGEST


def events_arg(site: CallSite) -> cst.Arg | None:
    if site.has_star_args:
        return None
    return argument(site, "events")


def is_payload(site: CallSite, node: cst.BaseExpression) -> bool:
    """`EventPayload(...)`, the class resolved through the module's imports."""
    if not isinstance(node, cst.Call):
        return False
    qualified = site.resolver.qualified_name(node.func, site.scope)
    return qualified in RECORD_CLASSES and RECORD_CLASSES[qualified][1] == INGEST.record
