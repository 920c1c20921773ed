"""MEM153: a `get_all()` answer used as every memory, while a default caps it (opt-in)."""

from __future__ import annotations

from typing import Iterator, Union

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.entity_scope import in_test
from mem0lint.rules.surface.results import _bound_name, _parents, _scope_nodes, classify, uses
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import GET_ALL_CAP_KEYWORDS, GET_ALL_PAGE_KEYS, client_class

WHOLE = ("iterated", "measured")


def _results_expr(use, parents) -> Union[cst.BaseExpression, None]:
    """`res["results"]` / `res.get("results")` around a use of the answer."""
    parent = parents.get(id(use.expr))
    if isinstance(parent, cst.Subscript):
        return parent
    if isinstance(parent, cst.Attribute):
        call = parents.get(id(parent))
        return call if isinstance(call, cst.Call) else None
    return None


def _whole_uses(expr: cst.BaseExpression, site: CallSite, parents) -> list[str]:
    """How the memory list is used as a whole: iterated or measured, at `expr` or through a
    name bound to it once in the same scope."""
    direct = classify(expr, parents)
    if direct is not None:
        return [direct.kind] if direct.kind in WHOLE else []
    name = _bound_name(expr, parents)
    if name is None:
        return []
    point = site.scope
    scope = getattr(point, "scope", point)
    bindings = scope.bindings.get(name, [])
    if len(bindings) != 1 or name in scope.dynamic or name in scope.globals:
        return []
    if scope.kind == "function" and scope.function is not None:
        root = scope.function.body
    elif scope.kind == "module":
        root = site.resolver.collector.module
    else:
        return []
    found = []
    for node in _scope_nodes(root):
        if isinstance(node, cst.Name) and node.value == name:
            use = classify(node, parents)
            if use is not None and use.kind in WHOLE:
                found.append(use.kind)
    return found


class GetAllSilentCap(Rule):
    code = "MEM153"
    name = "get-all-silent-cap"
    dialects = MEM0
    methods = frozenset({"get_all"})
    versions = {"mem0ai": ">=2.0.0"}
    severity = Severity.INFO
    opt_in = True
    summary = (
        "`get_all()` without `top_k=` / `page_size=` used as every memory: open source returns "
        "20, the Platform one page"
    )
    why = (
        "Since mem0ai 2.0 open source `Memory.get_all()` returns at most `top_k=20` memories "
        "(1.x: 100), and the Platform's `get_all()` answers one page of `POST /v3/memories/` "
        "(`page_size` 100 by default, at most 200) with `count`/`next`/`previous`. Code that "
        'iterates or counts `["results"]` as "all memories" silently sees only the first ones '
        "(mem0 #3751; hermes-agent found 47 stored, 20 listed). Reported only when the call sets "
        "no cap and the code reads no page key, outside test functions. Off by default: "
        "select `MEM153` by its code."
    )
    fix_safety = "none (the right cap is the author's choice)"
    examples = [
        Example(
            "mem0-oss",
            bad=(
                'everything = memory.get_all(filters={"user_id": "alice"})\n'
                'print(len(everything["results"]), "memories")'
            ),
            good=(
                'everything = memory.get_all(filters={"user_id": "alice"}, top_k=1000)\n'
                'print(len(everything["results"]), "memories")'
            ),
        ),
        Example(
            "mem0-platform",
            bad=(
                'for m in client.get_all(filters={"user_id": "alice"})["results"]:\n'
                '    print(m["memory"])'
            ),
            good=(
                "page = 1\n"
                "while page:\n"
                '    answer = client.get_all(filters={"user_id": "alice"}, page=page)\n'
                '    for m in answer["results"]:\n'
                '        print(m["memory"])\n'
                '    page = page + 1 if answer.get("next") else None'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        caps = GET_ALL_CAP_KEYWORDS[site.dialect.id]
        if site.has_star_args or site.positional or any(k in site.keywords for k in caps):
            return
        if "options" in site.keywords or in_test(site):  # a test's store holds what it set up
            return
        found = uses(site)
        if not found or any(u.kind == "key" and u.key in GET_ALL_PAGE_KEYS for u in found):
            return
        parents = _parents(site.resolver.collector, site)
        if parents is None:
            return
        kinds = []
        for use in found:
            if use.kind != "key" or use.key != "results":
                continue
            expr = _results_expr(use, parents)
            if expr is not None:
                kinds += _whole_uses(expr, site, parents)
        if not kinds:
            return
        how = "iterated" if "iterated" in kinds else "counted"
        where = f"`{client_class(site.dialect)}.get_all()`"
        if site.dialect.id == "mem0-oss":
            default = site.spec.defaults.get("top_k") if site.spec is not None else None
            cap = f"returns at most {default} memories (`top_k` default)"
            remedy = "pass `top_k=` as large as the store can hold"
        else:
            default = site.spec.defaults.get("page_size") if site.spec is not None else None
            cap = f"returns only the first page ({default} memories by default)"
            remedy = 'pass `page_size=` / `page=` and follow `"next"`'
        yield Finding(
            site.call,
            f'{where} {cap}; its `["results"]` is {how} here as if it held every memory: {remedy}',
        )
