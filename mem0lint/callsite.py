"""Call sites: one small record per call on an SDK client, built from the binding pass."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator

import libcst as cst

from mem0lint.binding import BindingCollector, Resolver, Scope
from mem0lint.dialects import CALL_METHODS, CLASS_DIALECT, Dialect, Method
from mem0lint.filtertree import FilterNode, read_filter

CONSTRUCTOR = "<init>"


@dataclass(eq=False)
class CallSite:
    dialect: Dialect
    # "search", "get_all", "memories.list", a wrong name such as "list", CONSTRUCTOR, or a
    # factory name such as "from_config".
    method: str
    call: cst.Call
    scope: Scope
    resolver: Resolver
    awaited: bool = False
    # The receiver expression (None for constructor calls).
    receiver: cst.BaseExpression | None = None
    notes: dict[str, object] = field(default_factory=dict)

    @property
    def spec(self) -> Method | None:
        return self.dialect.method(self.method)

    @property
    def positional(self) -> list[cst.Arg]:
        return [a for a in self.call.args if a.keyword is None and not a.star]

    @property
    def keywords(self) -> dict[str, cst.Arg]:
        return {a.keyword.value: a for a in self.call.args if a.keyword is not None}

    @property
    def has_star_args(self) -> bool:
        """`*args` / `**kwargs`: some arguments cannot be seen."""
        return any(a.star for a in self.call.args)

    def keyword(self, name: str) -> cst.Arg | None:
        return self.keywords.get(name)

    def follow(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """A name bound exactly once, in the call's own scope, to a dict literal -> that dict."""
        if isinstance(expr, cst.Name):
            bindings = self.scope.bindings.get(expr.value, [])
            if (
                len(bindings) == 1
                and bindings[0].kind == "value"
                and isinstance(bindings[0].value, cst.Dict)
            ):
                return bindings[0].value
        return expr

    @cached_property
    def filters_arg(self) -> cst.Arg | None:
        return self.keyword("filters")

    @cached_property
    def filters(self) -> FilterNode | None:
        """The `filters=` value as a tree, following a name bound once to a dict literal."""
        if self.filters_arg is None:
            return None
        return read_filter(self.follow(self.filters_arg.value))

    @property
    def filters_inline(self) -> bool:
        """True when the filter dict is written inside the call (edits touch only this call)."""
        return self.filters_arg is not None and isinstance(self.filters_arg.value, cst.Dict)


def _method_name(func: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
    """`recv.search` -> (recv, "search"); `recv.memories.list` -> (recv, "memories.list")."""
    if not isinstance(func, cst.Attribute) or func.attr.value not in CALL_METHODS:
        return None
    receiver = func.value
    if (
        func.attr.value == "list"
        and isinstance(receiver, cst.Attribute)
        and receiver.attr.value == "memories"
    ):
        return receiver.value, "memories.list"
    return receiver, func.attr.value


def call_sites(collector: BindingCollector, resolver: Resolver) -> Iterator[CallSite]:
    for call, scope in collector.calls:
        awaited = id(call) in collector.awaited
        method = _method_name(call.func)
        if method is not None:
            receiver, name = method
            dialect = resolver.dialect_of(receiver, scope)
            if dialect is not None and (name in dialect.methods or "." not in name):
                yield CallSite(dialect, name, call, scope, resolver, awaited, receiver)
            continue
        qualified = resolver.qualified_name(call.func, scope)
        if qualified is None:
            continue
        if qualified in CLASS_DIALECT:
            yield CallSite(CLASS_DIALECT[qualified], CONSTRUCTOR, call, scope, resolver, awaited)
            continue
        owner, _, attr = qualified.rpartition(".")
        if owner in CLASS_DIALECT and attr in CLASS_DIALECT[owner].factories:
            yield CallSite(CLASS_DIALECT[owner], attr, call, scope, resolver, awaited)
