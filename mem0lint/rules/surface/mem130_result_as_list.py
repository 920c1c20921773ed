"""MEM130: a mem0 `search()` / `get_all()` result used as a list.

From mem0ai 1.0.0 both SDKs return `{"results": [...]}` whatever the call. Before 1.0, open source
`Memory` / `AsyncMemory` return it or the list by their config's `version` (sdk/mem0_results.py:
`{"results": [...]}` by default from 0.1.59, with `"version": "v1.1"` from 0.1.12; `search()`
whatever the config from 0.1.100): there a use is reported only when that holds, or when every
construction the client may come from is read and gives that shape (rules/surface/ossconfig.py).
The Platform client before 1.0 is not judged.
"""

from __future__ import annotations

from typing import Iterator, Union

from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.surface.ossconfig import configured_version
from mem0lint.rules.surface.results import subscript_results, uses
from mem0lint.sdk.dialects import MEM0, OPEN_SOURCE
from mem0lint.sdk.mem0_results import (
    DEFAULT,
    FIRST_RESULTS_DICT,
    always_results_dict,
    results_dict,
)

WHAT = {
    "iterated": 'iterating it yields its keys (`"results"`, ...), not memories',
    "indexed": "an integer index raises KeyError",
    "sliced": "slicing a dict raises (TypeError, or KeyError on Python 3.12+)",
    "measured": "`len()` counts its keys, not memories",
}


class ResultAsList(Rule):
    code = "MEM130"
    name = "result-as-list"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    # From 1.0.0 every call; from 0.1.12 open source clients whose config is read (see above).
    versions = {"mem0ai": f">={FIRST_RESULTS_DICT}"}
    severity = Severity.WARNING
    summary = "A `search()` / `get_all()` result iterated, indexed or measured as if a list"
    why = (
        'Since mem0ai 1.0 both return a dict, `{"results": [...]}` (the Platform\'s `get_all` '
        'adds `count`/`next`/`previous`). Iterating it yields the key `"results"` (then '
        '`TypeError: string indices must be integers` on `m["memory"]`, or an agent that '
        "silently finds no memory); `res[0]` raises KeyError; `len(res)` counts keys. Before "
        "1.0, open source `Memory` returns the dict too unless its config says "
        '`"version": "v1.0"` (the default from 0.1.59; from 0.1.12 with `"version": "v1.1"`): '
        "reported there only when the config the client is built with is read (open source "
        "`search()` returns the dict whatever the config from 0.1.100). A helper that returns "
        "the result is followed to where its caller reads it (`len(fetch_memories(u))`)."
    )
    fix_safety = (
        'safe when the call itself is iterated, indexed or measured (insert `["results"]`); '
        "unsafe through a name bound to the call (the edit is at the use); none when an "
        "`except` handler binds the name to a literal instead, or the use reads a function's "
        "result (either may hold another value, on which the edit would fail)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad=(
                'for m in client.search("tea", filters={"user_id": "alice"}):\n'
                '    print(m["memory"])'
            ),
            good=(
                'for m in client.search("tea", filters={"user_id": "alice"})["results"]:\n'
                '    print(m["memory"])'
            ),
            fixed=(
                'for m in client.search("tea", filters={"user_id": "alice"})["results"]:\n'
                '    print(m["memory"])'
            ),
        ),
        Example(
            "mem0-oss",
            bad='recent = memory.get_all(filters={"user_id": "alice"})[:5]',
            good='recent = memory.get_all(filters={"user_id": "alice"})["results"][:5]',
            fixed='recent = memory.get_all(filters={"user_id": "alice"})["results"][:5]',
        ),
        Example(
            "mem0-oss",
            bad=('found = memory.search("tea", filters={"user_id": "alice"})\nprint(len(found))'),
            good=(
                'found = memory.search("tea", filters={"user_id": "alice"})\n'
                'print(len(found["results"]))'
            ),
            fixed=(
                'found = memory.search("tea", filters={"user_id": "alice"})\n'
                'print(len(found["results"]))'
            ),
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory.from_config({"llm": {"provider": "openai"}})
            memories = memory.get_all(user_id="alice")
            print(len(memories))
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config({"llm": {"provider": "openai"}})
            memories = memory.get_all(user_id="alice")
            print(len(memories["results"]))
            """,
            fixed="""
            from mem0 import Memory

            memory = Memory.from_config({"llm": {"provider": "openai"}})
            memories = memory.get_all(user_id="alice")
            print(len(memories["results"]))
            """,
            unsafe=True,
            release="0.1.113",
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory.from_config({"version": "v1.1"})
            for m in memory.search("tea", user_id="alice"):
                print(m["memory"])
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config({"version": "v1.1"})
            for m in memory.search("tea", user_id="alice")["results"]:
                print(m["memory"])
            """,
            fixed="""
            from mem0 import Memory

            memory = Memory.from_config({"version": "v1.1"})
            for m in memory.search("tea", user_id="alice")["results"]:
                print(m["memory"])
            """,
            release="0.1.40",
        ),
        Example(
            "mem0-oss",
            bad="""
            from mem0 import Memory

            memory = Memory.from_config(settings.MEM0_CONFIG)
            hits = memory.search("tea", user_id="alice")
            best = hits[0]
            """,
            good="""
            from mem0 import Memory

            memory = Memory.from_config(settings.MEM0_CONFIG)
            hits = memory.search("tea", user_id="alice")
            best = hits["results"][0]
            """,
            fixed="""
            from mem0 import Memory

            memory = Memory.from_config(settings.MEM0_CONFIG)
            hits = memory.search("tea", user_id="alice")
            best = hits["results"][0]
            """,
            unsafe=True,
            release="0.1.118",
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        # No argument changes the shape: from mem0ai 1.0.0 the Platform client ignores
        # `output_format` and wraps a list answer in {"results": ...}, and open source always
        # returns the dict; before 1.0, open source's shape is its config's (sdk/mem0_results.py).
        # So a call whose arguments are not all known (`**params`, `*args`) is judged too.
        release = self.releases.get(site.dialect.id)
        early = release is not None and not always_results_dict(release)
        if early and site.dialect.id != OPEN_SOURCE.id:
            return  # the Platform client before 1.0: not judged
        since: Union[str, None] = None if early else "since mem0ai 1.0"
        method = f"{site.method}()"
        for use in uses(site, returned=True):
            if use.kind not in WHAT:
                continue
            if since is None:  # before 1.0: read the config once, at the first use as a list
                since = self._before_1_0(site, release or "")
                if not since:
                    return
            applicability = Applicability.UNSAFE if use.through_name else Applicability.SAFE
            subject = f"`{use.expr.value}`, bound to `{method}`," if use.through_name else method
            if use.fallback:
                subject = f"`{use.expr.value}`, bound to `{method}` where it does not raise,"
            if use.via is not None:  # through a function's `return`: it may return more
                returns = f"`{use.via}()`, where it returns `{method}`'s value,"
                subject = f"`{use.expr.value}`, bound to {returns}" if use.through_name else returns
            fix = Fix(
                applicability,
                'Read the list under `["results"]`',
                ((use.expr, subscript_results(use.expr)),),
            )
            yield Finding(
                use.expr,
                f'{subject} is a dict `{{"results": [...]}}` {since}: '
                f'{WHAT[use.kind]}; use `["results"]`',
                # `["results"]` would fail on the fallback, or on what the function returns else
                None if use.fallback or use.via is not None else fix,
                Severity.ERROR if use.kind in ("indexed", "sliced") else None,
            )

    @staticmethod
    def _before_1_0(site: CallSite, release: str) -> str:
        """Why the result is `{"results": [...]}` on this release before 1.0 ("": not known)."""
        if results_dict(release, None, site.method):
            return f"on mem0ai {release} whatever the config (from 0.1.100)"
        version = configured_version(site)
        if not results_dict(release, version, site.method):
            return ""
        said = 'no `version`, "v1.1" by default' if version == DEFAULT else f'"{version}"'
        return f"on mem0ai {release} with this client's config ({said})"
