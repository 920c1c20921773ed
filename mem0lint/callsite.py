"""Call sites: one small record per call on an SDK client, built from the binding pass."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator, Union

import libcst as cst

from mem0lint.bind import escapes, forward, spread, values, wrappers
from mem0lint.binding import BindingCollector, Resolver, Scope
from mem0lint.filtertree import DictValue, FilterNode, read_filter
from mem0lint.sdk.dialects import (
    CALL_METHODS,
    CLASS_DIALECT,
    HTTP_POST_FUNCTIONS,
    HTTP_TRANSPORT,
    PLATFORM,
    PLATFORM_HOST,
    RECORD_CLASSES,
    REST_ENDPOINTS,
    Dialect,
    Method,
)

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
    # A raw REST call (`requests.post(".../v3/memories/search/", json={...})`): the JSON body.
    # Its keys play the part of the SDK method's keywords; `filters` comes from it.
    body: DictValue | None = None
    # A call on a union (bind/union.py): the ids of every member; this site is one of them.
    union: frozenset[str] | None = None
    # A bound method passed along (bind/forward.py): `call` is the call it becomes, made of
    # the original argument nodes; `outer` is the real call (`asyncio.to_thread(...)`).
    outer: cst.Call | None = None
    _keywords: dict[str, cst.Arg] | None = field(default=None, init=False, repr=False)

    @property
    def rest(self) -> bool:
        return self.body is not None

    @property
    def spec(self) -> Method | None:
        return self.dialect.method(self.method)

    @property
    def positional(self) -> list[cst.Arg]:
        """SDK positional arguments (a REST call has none: its arguments are the HTTP call's)."""
        if self.rest:
            return []
        return [a for a in self.call.args if a.keyword is None and not a.star]

    @property
    def keywords(self) -> dict[str, cst.Arg]:
        """SDK keyword arguments (a REST call has none; its body keys are `argument_names`).
        Read by most rules of every site, so made once (`call` never changes): not to be
        changed by its readers."""
        if self.rest:
            return {}
        if self._keywords is None:
            self._keywords = {a.keyword.value: a for a in self.call.args if a.keyword is not None}
        return self._keywords

    @property
    def argument_names(self) -> frozenset[str]:
        """The parameters this call passes as the API sees them: keywords, or body keys."""
        if self.rest:
            return frozenset(self.body.keys())
        return frozenset(self.keywords)

    @property
    def has_star_args(self) -> bool:
        """`*args` / `**kwargs` (or a `**spread` in a REST body): some arguments are hidden."""
        if self.rest:
            return not self.body.complete
        return any(a.star for a in self.call.args)

    def keyword(self, name: str) -> cst.Arg | None:
        return self.keywords.get(name)

    def follow(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """A name bound exactly once, in the call's own scope, to a dict literal that nothing
        else may change (bind/escapes.py) -> that dict."""
        if isinstance(expr, cst.Name):
            bindings = self.scope.bindings.get(expr.value, [])
            if (
                len(bindings) == 1
                and bindings[0].kind == "value"
                and isinstance(bindings[0].value, cst.Dict)
                and not self.changed_elsewhere(expr.value)
            ):
                return bindings[0].value
        return expr

    def changed_elsewhere(self, name: str, deep: bool = True) -> bool:
        """May the dict `name` holds be changed by anything but this call (bind/escapes.py)?"""
        calls = {id(call) for call in (self.call, self.outer) if call is not None}
        return escapes.changed(self.resolver.collector, self.scope, name, calls, deep)

    @cached_property
    def filters_arg(self) -> cst.Arg | None:
        """The keyword argument carrying the filter (`filters=`; MemOS: `filter=`)."""
        if self.rest:
            return None
        spec = self.spec
        name = spec.filter_param if spec is not None else "filters"
        return self.keyword(name) if name else None

    @cached_property
    def filters(self) -> FilterNode | None:
        """The filter value as a tree, following a name bound once to a dict literal."""
        if self.body is not None:
            entry = self.body.get("filters")
            return entry.value if entry is not None else None
        if self.filters_arg is None:
            return None
        return read_filter(self.follow(self.filters_arg.value))

    @property
    def filters_inline(self) -> bool:
        """True when the filter dict is written inside the call (edits touch only this call)."""
        if self.body is not None:
            entry = self.body.get("filters")
            return entry is not None and isinstance(entry.value, DictValue)
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


def call_sites(
    collector: BindingCollector, resolver: Resolver, units: Union[set, None] = None
) -> Iterator[CallSite]:
    """The call sites of the module's calls; `units`: of the calls in these units only (each
    site is its call's, or names it as `outer`)."""
    calls = collector.calls
    if units is not None:
        where = collector.call_units
        calls = [(call, scope) for call, scope in calls if where.get(id(call)) in units]
    for call, scope in calls:
        site = _site(call, scope, collector, resolver)
        if isinstance(site, list):
            yield from site
        elif site is not None:
            yield site


def _site(
    call: cst.Call,
    scope: Scope,
    collector: BindingCollector,
    resolver: Resolver,
    awaited: bool | None = None,
) -> CallSite | list[CallSite] | None:
    made = forward.forwarded(call, scope, resolver)
    if made is not None:
        found = _site(made, scope, collector, resolver)
        for site in found if isinstance(found, list) else [found] if found else []:
            site.outer = call
        return found
    made = wrappers.unwrapped(call, scope)  # `async_wrap(client.search)(...)` (bind/wrappers.py)
    if made is not None:
        found = _site(made, scope, collector, resolver)
        for site in found if isinstance(found, list) else [found] if found else []:
            site.outer = call
        return found
    if awaited is None:  # not the call a `**dict` spread becomes (bind/spread.py)
        awaited = id(call) in collector.await_of
        made = spread.spread(call, scope, collector.star_import)
        if made is not None:
            found = _site(made, scope, collector, resolver, awaited)
            for site in found if isinstance(found, list) else [found] if found else []:
                site.outer = call
                site.notes["spread"] = next(a for a in call.args if a.star)
            return found
    func, func_scope = _unalias(call.func, scope)
    method = _method_name(func)
    unlisted = None
    if method is None and func is call.func:
        unlisted = _unlisted_name(func)
    if method is not None:
        receiver, name = method
        value = resolver.receiver_value(receiver, func_scope)
        if value is not None and len(value) > 1:
            return _union_sites(value, name, call, scope, resolver, awaited, receiver)
        dialect = values.only(value)
        if dialect is not None and dialect.id != HTTP_TRANSPORT.id:
            if name in dialect.methods or "." not in name:
                return CallSite(dialect, name, call, scope, resolver, awaited, receiver)
            return None
    rest = _rest_site(call, scope, resolver, awaited)
    if rest is not None:
        return rest
    qualified = resolver.qualified_name(call.func, scope)
    if qualified is None:
        return _unlisted_site(unlisted, call, scope, resolver, awaited)
    if qualified in CLASS_DIALECT:
        return CallSite(CLASS_DIALECT[qualified], CONSTRUCTOR, call, scope, resolver, awaited)
    if qualified in RECORD_CLASSES:
        dialect, record = RECORD_CLASSES[qualified]
        return CallSite(dialect, record, call, scope, resolver, awaited)
    owner, _, attr = qualified.rpartition(".")
    if owner in CLASS_DIALECT and attr in CLASS_DIALECT[owner].factories:
        return CallSite(CLASS_DIALECT[owner], attr, call, scope, resolver, awaited)
    return None  # a module's or class's attribute (`os.path.join`): not a client's


def _unlisted_name(func: cst.BaseExpression) -> str | None:
    """`recv.extract` -> "extract": a name no dialect lists (not a dunder, not `__private`)."""
    if not isinstance(func, cst.Attribute) or func.attr.value.startswith("__"):
        return None
    return func.attr.value


def _unlisted_site(
    name: str | None, call: cst.Call, scope: Scope, resolver: Resolver, awaited: bool
) -> CallSite | None:
    """A call of a name no dialect lists on a receiver that is one mem0 client for sure (no
    union, no HTTP client), written as itself (no alias, wrapper, spread or forwarded method):
    only the rules that judge every name see it (`Rule.any_method`, engine.RuleSet)."""
    if name is None:
        return None
    receiver = call.func.value
    value = resolver.receiver_value(receiver, scope)
    if value is None or len(value) != 1:
        return None
    dialect = values.only(value)
    if dialect is None or dialect.id == HTTP_TRANSPORT.id:
        return None
    site = CallSite(dialect, name, call, scope, resolver, awaited, receiver)
    site.notes["unlisted"] = True
    return site


def _union_sites(
    value: frozenset[str],
    name: str,
    call: cst.Call,
    scope: Scope,
    resolver: Resolver,
    awaited: bool,
    receiver: cst.BaseExpression,
) -> list[CallSite] | None:
    """One site per member of a union; none when a member cannot take the call (it is then
    judged by no member: only findings every member produces count)."""
    sites = []
    for dialect in values.members(value):
        if dialect.id == HTTP_TRANSPORT.id or (name not in dialect.methods and "." in name):
            return None
        site = CallSite(dialect, name, call, scope, resolver, awaited, receiver)
        site.union = value
        sites.append(site)
    return sites


def _unalias(func: cst.BaseExpression, scope: Scope) -> tuple[cst.BaseExpression, Scope]:
    """`search = client.search; search(q)`: a name bound once to a bound method is that method."""
    if isinstance(func, cst.Name):
        bindings = scope.lookup(func.value)
        if len(bindings) == 1 and bindings[0].kind == "value":
            value = bindings[0].value
            if isinstance(value, cst.Attribute) and value.attr.value in CALL_METHODS:
                return value, bindings[0].scope
    return func, scope


# Raw REST ----------------------------------------------------------------------------------------


def _rest_site(call: cst.Call, scope: Scope, resolver: Resolver, awaited: bool) -> CallSite | None:
    """`requests.post(URL, json={...})` or `session.post(...)` to a mem0 search/list endpoint."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "post":
        return None
    if resolver.qualified_name(func, scope) not in HTTP_POST_FUNCTIONS and (
        resolver.dialect_of(func.value, scope) is not HTTP_TRANSPORT
    ):
        return None
    args = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    url = args.get("url", positional[0] if positional else None)
    method = _endpoint(url, scope) if url is not None else None
    body = args.get("json")
    if method is None or body is None or not _platform_host(url, scope):
        return None
    site = CallSite(PLATFORM, method, call, scope, resolver, awaited)
    tree = read_filter(site.follow(body))
    if not isinstance(tree, DictValue):
        return None
    site.body = tree
    return site


def _endpoint(url: cst.BaseExpression, scope: Scope) -> str | None:
    """The SDK method whose grammar a URL's endpoint uses, from the URL's literal tail."""
    tail = _literal_tail(url, scope)
    if tail is None:
        return None
    for suffix, method in REST_ENDPOINTS.items():
        if tail.endswith(suffix) or tail.endswith(suffix.rstrip("/")):
            return method
    return None


def _platform_host(url: cst.BaseExpression, scope: Scope) -> bool:
    """Does the URL start at mem0's Platform (a host spelled `mem0.ai`)? The same paths are
    served by proxies and sidecars of users' own (a `{sidecar_url}/v3/memories/search/`), whose
    grammar is theirs: a URL whose head cannot be seen is not judged."""
    head = _literal_end(url, scope, first=True)
    return head is not None and PLATFORM_HOST in head.split("/v", 1)[0]


def _literal_tail(url: cst.BaseExpression, scope: Scope) -> str | None:
    return _literal_end(url, scope, first=False)


def _literal_end(url: cst.BaseExpression, scope: Scope, first: bool, depth: int = 0) -> str | None:
    """The literal start (`first`) or end of a URL, as written: a string, the first or last of
    strings written side by side, an f-string's first or last text, `BASE + "/path/"`, a name
    bound once to one of those; for the start, also the default of
    `os.environ.get("MEM0_HOST", "https://api.mem0.ai")`. Escapes are not read: what is judged
    is spelled in the file's bytes, which is what the prefilter and pruning.plan look for."""
    if depth > 5:
        return None
    if isinstance(url, cst.SimpleString):
        return None if "b" in url.prefix.lower() else url.raw_value
    if isinstance(url, cst.ConcatenatedString):
        return _literal_end(url.left if first else url.right, scope, first, depth)
    if isinstance(url, cst.FormattedString):
        part = (url.parts[0] if first else url.parts[-1]) if url.parts else None
        if isinstance(part, cst.FormattedStringText):
            return part.value
        if first and isinstance(part, cst.FormattedStringExpression):
            return _literal_end(part.expression, scope, first, depth + 1)
        return None
    if isinstance(url, cst.BinaryOperation) and isinstance(url.operator, cst.Add):
        return _literal_end(url.left if first else url.right, scope, first, depth + 1)
    if isinstance(url, cst.Name):
        bindings = scope.lookup(url.value)
        if len(bindings) == 1 and bindings[0].kind == "value":
            return _literal_end(bindings[0].value, bindings[0].scope, first, depth + 1)
        return None
    if first and isinstance(url, cst.Call) and len(url.args) >= 2:
        return _literal_end(url.args[1].value, scope, first, depth + 1)
    return None
