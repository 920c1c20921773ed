"""MEM131: extracted memories read from a Platform `add()` response (mem0ai >= 2.0)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.results import uses
from mem0lint.sdk.dialects import PLATFORM


class AddResultRead(Rule):
    code = "MEM131"
    name = "platform-add-result-read"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"add"})
    versions = {"mem0ai": ">=2.0.0"}
    severity = Severity.WARNING
    summary = 'Reading `["results"]` of a Platform `add()` response, which is only an event'
    why = (
        "Since mem0ai 2.0 (v3 API) the Platform extracts memories in the background: `add()` "
        'answers `{"event_id": ..., "status": "PENDING"}`. `resp["results"]` raises KeyError, '
        '`resp.get("results")` is always empty, and the extraction may still fail later. Poll '
        "the event, or pass `infer=False` to store the messages as given."
    )
    examples = [
        Example(
            "mem0-platform",
            bad=(
                'resp = client.add([{"role": "user", "content": "I like tea"}], user_id="alice")\n'
                'saved = resp.get("results", [])'
            ),
            good=(
                'resp = client.add([{"role": "user", "content": "I like tea"}], user_id="alice")\n'
                'event = resp.get("event_id")'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args or site.keyword("infer") is not None:
            return  # infer=False: stored synchronously; what it answers is not claimed here
        for use in uses(site):
            if use.kind == "key" and use.key == "results":
                yield Finding(
                    use.expr,
                    'Platform `add()` answers `{"event_id", "status": "PENDING"}` since mem0ai '
                    '2.0: there is no `"results"` (memories are extracted later); poll the event '
                    "or use `infer=False`",
                )
