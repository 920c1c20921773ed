"""The `version` an open source client's config gives it, read at the calls that built it.

Open source `Memory` / `AsyncMemory` take their `version` from `MemoryConfig` (see
sdk/mem0_results.py). Read exactly, and only these constructions:

- `Memory()` / `AsyncMemory()`: `MemoryConfig()`, the default;
- `Memory(MemoryConfig(...))` / `Memory(config=MemoryConfig(...))` with keyword arguments only
  (no `**spread`): its `version=` keyword, if a string literal, else the default;
- `Memory.from_config({...})` (awaited or not) with a dict literal, inline or a name whose every
  binding in its scope is one (they must agree) and which is never changed (`d["k"] = ...`,
  `d.update(...)` make it unknown), every key a string literal and no `**spread`: its
  `"version"` value, if a string literal, else the default.

Anything else (a config from a variable bound elsewhere or twice, a parameter, a function's
result, a subclass of `Memory`) is not known, and the shape is not judged.
"""

from __future__ import annotations

from typing import Union

import libcst as cst

from mem0lint.bind import escapes
from mem0lint.bind.origins import constructions
from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value
from mem0lint.rules.surface.ossadd import follow_in, literal_keys
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_results import DEFAULT


def configured_version(site: CallSite) -> Union[str, None]:
    """The `version` of the config of every construction the receiver may come from, when they
    all agree (DEFAULT: none gives one); None when one is not read or they differ."""
    if site.receiver is None:
        return None
    made = constructions(site.resolver, site.receiver, site.scope)
    if not made:
        return None
    found = {_version_of(site, call, scope) for call, scope in made}
    return found.pop() if len(found) == 1 else None


def _version_of(site: CallSite, call: cst.Call, scope) -> Union[str, None]:
    name = site.resolver.qualified_name(call.func, scope)
    if name is None:
        return None
    owner, _, attr = name.rpartition(".")
    if any(arg.star for arg in call.args):
        return None
    if name in OPEN_SOURCE.classes:
        if not call.args:
            return DEFAULT
        if len(call.args) != 1:
            return None
        arg = call.args[0]
        if arg.keyword is not None and arg.keyword.value != "config":
            return None
        return _memory_config(site, arg.value, scope)
    if owner in OPEN_SOURCE.classes and attr == "from_config":
        if len(call.args) != 1:
            return None
        arg = call.args[0]
        if arg.keyword is not None and arg.keyword.value != "config_dict":
            return None
        return _config_dict(site, call, arg.value, scope)
    return None


def _memory_config(site: CallSite, expr: cst.BaseExpression, scope) -> Union[str, None]:
    """`MemoryConfig(...)` with keyword arguments only: its `version=` (DEFAULT: none)."""
    if not isinstance(expr, cst.Call):
        return None
    name = site.resolver.qualified_name(expr.func, scope) or ""
    if not (name.startswith("mem0.") and name.endswith(".MemoryConfig")):
        return None
    version = DEFAULT
    for arg in expr.args:
        if arg.star or arg.keyword is None:
            return None
        if arg.keyword.value == "version":
            ok, value = literal_value(arg.value)
            if not ok or not isinstance(value, str):
                return None
            version = value
    return version


def _config_dict(
    site: CallSite, call: cst.Call, expr: cst.BaseExpression, scope
) -> Union[str, None]:
    """A dict literal (or a name whose every binding in `scope`'s own bindings is one, and which
    nothing but `call` may change: bind/escapes.py): its `"version"` (DEFAULT: no such key),
    when they all agree."""
    values = _dict_values(expr, scope)
    collector = site.resolver.collector
    if (
        isinstance(expr, cst.Name)
        and values != [expr]
        and escapes.changed(collector, scope, expr.value, {id(call)}, deep=False)
    ):
        return None
    found = {_version_key(value) for value in values}
    return found.pop() if len(found) == 1 else None


def _dict_values(expr: cst.BaseExpression, scope) -> list[cst.BaseExpression]:
    """`expr`, or the values a name is bound to when each binding is a plain one (a mutation,
    `d["k"] = ...` or `d.update(...)`, is a binding of another kind: then the name itself)."""
    if isinstance(expr, cst.Name):
        bindings = scope.bindings.get(expr.value, [])
        if len(bindings) > 1 and all(b.kind == "value" for b in bindings):
            return [b.value for b in bindings]
    return [follow_in(scope, expr)]


def _version_key(config: cst.BaseExpression) -> Union[str, None]:
    keys = literal_keys(config)
    if keys is None:
        return None
    element = keys.get("version")
    if element is None:
        return DEFAULT
    ok, value = literal_value(element.value)
    return value if ok and isinstance(value, str) else None
