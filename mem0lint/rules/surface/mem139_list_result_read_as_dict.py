"""MEM139: an open source `search()` / `get_all()` result read as a dict where the release
returns the list (mem0ai before 0.1.59, config without `"version": "v1.1"`)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.ossconfig import configured_version
from mem0lint.rules.surface.results import uses
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_results import DEFAULT, LIST_WITHOUT_GRAPH_UNTIL, results_list


class ListResultReadAsDict(Rule):
    code = "MEM139"
    name = "list-result-read-as-dict"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"search", "get_all"})
    versions = {"mem0ai": f"<{LIST_WITHOUT_GRAPH_UNTIL}"}
    severity = Severity.ERROR
    summary = (
        'A `search()` / `get_all()` result read as `{"results": [...]}` where the release returns '
        "the list"
    )
    why = (
        "Up to mem0ai 0.1.58 open source `Memory` returns the plain list of memories unless its "
        'config says `"version": "v1.1"` (the default was "v1.0"; sdk/mem0_results.py). Code '
        'written for the newer `{"results": [...]}` then fails on it: `res["results"]` raises '
        "TypeError (list indices must be integers), `res.get(...)` raises AttributeError, and "
        '`"results" in res` is always False (it compares the string with each memory), so the '
        "branch that shows the memories never runs. Reported only when the config every "
        "construction of the client uses is read (rules/surface/ossconfig.py)."
    )
    fix_safety = (
        "none: either the list is what you want (read `res` itself) or the config should say "
        '`"version": "v1.1"`; which one is yours'
    )
    examples = [
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory.from_config({"vector_store": {"provider": "qdrant"}})
            found = memory.search("tea", user_id="alice")
            if found and "results" in found:
                print(found["results"])
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config({"vector_store": {"provider": "qdrant"}})
            found = memory.search("tea", user_id="alice")
            if found:
                print(found)
            """,
            release="0.1.29",
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory()
            rows = memory.get_all(user_id="alice")["results"]
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config({"version": "v1.1"})
            rows = memory.get_all(user_id="alice")["results"]
            """,
            release="0.1.40",
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        release = self.releases.get(site.dialect.id)
        found = uses(site, membership=True, returned=True)
        reads = [u for u in found if u.kind in ("key", "contains")]
        if not reads:
            return
        version = configured_version(site)
        if not results_list(release, version):
            return
        said = 'no `version`: "v1.0" by default' if version == DEFAULT else f'"{version}"'
        shape = f"a list on mem0ai {release} with this client's config ({said})"
        # A read under a membership test never runs while the test is always False: only the
        # test is reported then.
        tests = [u for u in reads if u.kind == "contains"]
        for use in tests or reads:
            value = use.expr.value if use.through_name else f"{use.via or site.method}()"
            returned = f"`{site.method}()`'s value (returned by `{use.via}()`), " if use.via else ""
            subject = f"`{value}` is {returned}{shape}"
            if use.kind == "contains":
                always = "True" if use.negated else "False"
                operator = "not in" if use.negated else "in"
                yield Finding(
                    use.expr,
                    f'`"{use.key}" {operator} {value}` is always {always}: {subject}, and the '
                    "string is compared with each memory; the memories are the list itself",
                    severity=Severity.WARNING,
                )
            elif use.by_get:
                yield Finding(
                    use.expr,
                    f'{subject}: `.get("{use.key}")` raises AttributeError; the memories are '
                    "the list itself",
                )
            else:
                yield Finding(
                    use.expr,
                    f'{subject}: `["{use.key}"]` raises TypeError (list indices must be '
                    "integers); the memories are the list itself",
                )
