"""MEM601-MEM610: Memsy calls (`MemsyClient.search`, `client.memories.list`, `EventPayload`).

Facts from memsy 0.3.5 (`memsy/client.py`, `memsy/async_client.py`, `memsy/resources/
memories.py`, `memsy/models.py`) and the "Searching Memory" page (seed 003). Memsy has no filter
language; scoping is by keyword. Everything after `query` is keyword-only and there is no
`**kwargs`, so a wrong keyword raises TypeError before any request. `limit=` is Memsy's own
result cap and is always right.
"""

from __future__ import annotations

import re
from typing import Iterator

import libcst as cst

from mem0lint.callsite import CONSTRUCTOR, CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.sdk_args import (
    argument,
    certainly_non_empty,
    literal,
    number,
    rename_fix,
    text_parts,
    unknown_keywords,
)

MEMSY = frozenset({"memsy"})
SESSION_PARAMS = ("session_id", "exclude_session_id")
# Ids the search endpoint accepts (ingest checks only the length).
SEARCHABLE_ID_CHAR = re.compile(r"[A-Za-z0-9_\-:.@/]")
MAX_ID_LENGTH = 256
# Valid `limit` per method (server-side validation, 422 outside).
LIMIT_RANGE = {"search": (1, 100), "memories.list": (1, 200)}

# Wrong keyword -> Memsy's keyword (spec R40-R43). A rename applies only where the method has
# the target parameter (`memories.list` has no `threshold` or `session_id`).
RENAMES = {
    "top_k": "limit",
    "k": "limit",
    "n": "limit",
    "max_results": "limit",
    "min_score": "threshold",
    "score_threshold": "threshold",
    "user_id": "actor_id",
    "agent_id": "actor_id",
    "conversation_id": "session_id",
    "thread_id": "session_id",
}
# mem0's vocabulary: on a Memsy client these are cross-SDK confusion, reported by MEM692 (which
# names both SDKs); MEM606 reports every other unknown keyword.
MEM0_KEYWORDS = frozenset(
    {
        "top_k",
        "filters",
        "user_id",
        "agent_id",
        "run_id",
        "app_id",
        "rerank",
        "page",
        "page_size",
        "show_expired",
        "reference_date",
        "fields",
        "categories",
        "metadata",
    }
)


class MemsySessionAndExclude(Rule):
    code = "MEM601"
    versions = {"memsy": ">=0.3.5"}
    name = "memsy-session-and-exclude"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "Memsy `search()` with both `session_id` and `exclude_session_id`"
    why = (
        "The two scopes are mutually exclusive: sending both non-empty is rejected with HTTP "
        "422. They do not cancel out into 'search everything'; for that, send neither."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", session_id="conv_7", exclude_session_id="c_6")',
            good='client.search("q", actor_id="u1", exclude_session_id="conv_6")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        args = [site.keyword(p) for p in SESSION_PARAMS]
        # Only when both are certainly non-empty: a variable may be None, "" counts as unset.
        if all(a is not None and certainly_non_empty(a.value) for a in args):
            yield Finding(
                args[1],
                "`session_id` and `exclude_session_id` are mutually exclusive (HTTP 422); keep "
                "one, or send neither to search all conversations",
            )


class MemsySessionList(Rule):
    code = "MEM602"
    versions = {"memsy": ">=0.3.5"}
    name = "memsy-session-list"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "A list passed as a Memsy `session_id` / `exclude_session_id`"
    why = (
        "Both take a single conversation id, unlike `role_ids` / `team_ids`; a list is rejected "
        "with HTTP 422. There is no multi-conversation search: run one search per conversation."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", session_id=["conv_7", "conv_8"])',
            good='client.search("q", actor_id="u1", session_id="conv_7")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in SESSION_PARAMS:
            arg = site.keyword(name)
            if arg is not None and isinstance(
                arg.value, (cst.List, cst.Tuple, cst.Set, cst.ListComp, cst.SetComp)
            ):
                yield Finding(
                    arg,
                    f"`{name}` takes a single id, not a list (HTTP 422); run one search per "
                    "conversation",
                )


# Parameter -> applicability of rewriting `""` to `None` (spec R44).
EMPTY_ID_FIX = {
    "session_id": Applicability.SAFE,
    "exclude_session_id": Applicability.SAFE,
    "actor_id": Applicability.UNSAFE,
}


class MemsyEmptyStringId(Rule):
    code = "MEM603"
    name = "memsy-empty-string-id"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = 'An empty string `""` as a Memsy id (`session_id=""`, `x or ""`)'
    why = (
        "The server trims ids and treats an empty one as unset, before the mutual-exclusion "
        'check: `session_id=current or ""` silently scopes differently from what was meant, '
        "with a 200 and no warning. Pass None when there is no conversation."
    )
    fix_safety = (
        'safe for `session_id` / `exclude_session_id` (the server already treats `""` as '
        "unset); unsafe for `actor_id` (the server's handling of an empty actor is undocumented)"
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", session_id=current or "")',
            good='client.search("q", actor_id="u1", session_id=current)',
            fixed='client.search("q", actor_id="u1", session_id=current or None)',
        ),
        Example(
            "memsy",
            bad='client.search("q", actor_id="")',
            good='client.search("q", actor_id=None)',
            fixed='client.search("q", actor_id=None)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name, applicability in EMPTY_ID_FIX.items():
            arg = site.keyword(name)
            empty = _empty_string(arg.value) if arg is not None else None
            if empty is None:
                continue
            fix = Fix(applicability, 'Replace `""` with `None`', ((empty, cst.Name("None")),))
            yield Finding(
                empty,
                f'`{name}=""` is treated as unset by the Memsy server (no error, a different '
                "scope); pass `None`",
                fix,
            )


def _empty_string(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The `""` literal itself, or the `""` of `x or ""`."""
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
        return _empty_string(node.right)
    return node if literal(node) == "" and isinstance(node, cst.SimpleString) else None


class MemsySessionCharset(Rule):
    code = "MEM604"
    versions = {"memsy": ">=0.3.5"}
    name = "memsy-session-charset"
    dialects = MEMSY
    methods = frozenset({"search", "EventPayload"})
    severity = Severity.ERROR
    summary = "A literal Memsy session id with characters search rejects, or over 256 characters"
    why = (
        "Searchable ids may contain only letters, digits and `_ - : . @ /`, up to 256 "
        "characters. Ingest (`EventPayload`) checks the length but not the characters, so an id "
        "with a space, `#` or any non-ASCII character stores fine and returns HTTP 422 the "
        "first time it is searched. Slugify ids built from titles before ingest."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", session_id=f"chat {title}")',
            good='client.search("q", actor_id="u1", session_id=f"chat-{slug}")',
        ),
        Example(
            "memsy",
            bad="""
            from memsy import EventPayload

            event = EventPayload("u1", "Trip to Zürich", "user_message", "hello")
            """,
            good="""
            from memsy import EventPayload

            event = EventPayload("u1", "trip-to-zurich", "user_message", "hello")
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        at_ingest = site.method == "EventPayload"
        names = ("session_id",) if at_ingest else SESSION_PARAMS
        for name in names:
            arg = argument(site, name)
            parts = text_parts(arg.value) if arg is not None else None
            if not parts:
                continue
            text = "".join(parts)
            bad = sorted({c for c in text if not SEARCHABLE_ID_CHAR.fullmatch(c)})
            if len(text) > MAX_ID_LENGTH:
                where = "ingest and search reject it" if at_ingest else "search rejects it"
                yield Finding(
                    arg.value,
                    f"`{name}` is longer than {MAX_ID_LENGTH} characters; {where} (HTTP 422)",
                )
            elif bad:
                shown = " ".join(repr(c) for c in bad[:5])
                if at_ingest:
                    yield Finding(
                        arg.value,
                        f"`{name}` contains {shown}: it stores fine but every search scoped to "
                        "it returns HTTP 422; use only letters, digits and `_ - : . @ /`",
                        severity=Severity.WARNING,
                    )
                else:
                    yield Finding(
                        arg.value,
                        f"`{name}` contains {shown}; search accepts only letters, digits and "
                        "`_ - : . @ /` (HTTP 422)",
                    )


class MemsyLimitRange(Rule):
    code = "MEM605"
    name = "memsy-limit-range"
    dialects = MEMSY
    methods = frozenset(LIMIT_RANGE)
    severity = Severity.ERROR
    summary = "Memsy `limit=` outside 1-100 (`search`) or 1-200 (`memories.list`)"
    why = "The server validates `limit` and answers HTTP 422 outside the range."
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", limit=500)',
            good='client.search("q", actor_id="u1", limit=100)',
        ),
        Example(
            "memsy",
            bad='client.memories.list(actor_id="u1", limit=0)',
            good='client.memories.list(actor_id="u1", limit=200)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("limit")
        value = number(arg.value) if arg is not None else None
        low, high = LIMIT_RANGE[site.method]
        if value is not None and not low <= value <= high:
            yield Finding(
                arg,
                f"`limit={value}` is out of range for `{site.method}()`: {low}-{high} (HTTP 422)",
            )


def keyword_finding(site: CallSite, arg: cst.Arg, mem0_style: bool) -> Finding:
    name = arg.keyword.value
    target = RENAMES.get(name)
    if target is not None and target not in site.spec.params:
        target = None
    fix = rename_fix(site, arg, target, RENAMES) if target else None
    if mem0_style:
        message = f"`{name}=` is mem0's vocabulary; Memsy's `{site.method}()` has no `{name}` "
        message += "parameter (TypeError)"
    else:
        message = f"`{site.method}()` has no parameter `{name}` (TypeError)"
    if target:
        message += f"; did you mean `{target}`?"
    return Finding(arg, message, fix)


class MemsyUnknownKwarg(Rule):
    code = "MEM606"
    name = "memsy-unknown-kwarg"
    dialects = MEMSY
    methods = frozenset({"search", "memories.list", "EventPayload"})
    severity = Severity.ERROR
    summary = "A keyword Memsy's method does not declare (mem0's own words: MEM692)"
    why = (
        "Memsy methods have no `**kwargs`: an unknown keyword raises TypeError before any "
        "request. Keywords from mem0 (`top_k`, `user_id`, `filters`) are reported by MEM692."
    )
    fix_safety = (
        "safe renames: `k` / `n` / `max_results` -> `limit`, `min_score` / `score_threshold` "
        "-> `threshold`, `conversation_id` / `thread_id` -> `session_id`; unsafe beside "
        "`**kwargs` (it may hold the new keyword); no fix when two keywords would become one"
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", min_score=0.3)',
            good='client.search("q", actor_id="u1", threshold=0.3)',
            fixed='client.search("q", actor_id="u1", threshold=0.3)',
        ),
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", conversation_id="conv_7", k=5)',
            good='client.search("q", actor_id="u1", session_id="conv_7", limit=5)',
            fixed='client.search("q", actor_id="u1", session_id="conv_7", limit=5)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for arg in unknown_keywords(site):
            if arg.keyword.value not in MEM0_KEYWORDS:
                yield keyword_finding(site, arg, mem0_style=False)


class MemsyPositionalArg(Rule):
    code = "MEM607"
    name = "memsy-positional-arg"
    dialects = MEMSY
    methods = frozenset({"search", "memories.list"})
    severity = Severity.ERROR
    summary = "A positional argument after `query` in a Memsy call"
    why = (
        "Everything after `query` is keyword-only (`search(query, *, actor_id=..., ...)`); an "
        "extra positional argument raises TypeError."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", "user_42")',
            good='client.search("q", actor_id="user_42")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        extra = site.positional[site.spec.positional :]
        if extra:
            where = "after `query`" if site.spec.positional else "to `memories.list()`"
            yield Finding(
                extra[0],
                f"arguments {where} are keyword-only (TypeError); pass them by name",
            )


class MemsyOrgWideSearch(Rule):
    code = "MEM608"
    versions = {"memsy": ">=0.3.5"}
    name = "memsy-org-wide-search"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.INFO
    summary = "A Memsy search scoped to a conversation but not to an actor"
    why = (
        "Without `actor_id` a search runs across every actor in the organisation. Alone that is "
        "a deliberate admin search, so it is not reported; next to `session_id` / "
        "`exclude_session_id` it is an end-user flow that forgot the actor: session-less "
        "memories of every actor pass the conversation scope."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", session_id="conv_7")',
            good='client.search("q", actor_id="user_42", session_id="conv_7")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args or site.keyword("actor_id") is not None:
            return
        scoped = any(site.keyword(p) is not None for p in SESSION_PARAMS)
        # `user_id=` / `agent_id=` meant the actor: MEM692 already says to rename it.
        meant_actor = any(site.keyword(k) is not None for k in ("user_id", "agent_id"))
        if scoped and not meant_actor:
            yield Finding(
                site.call.func,
                "no `actor_id`: this search runs across every actor in the organisation "
                "(session-less memories of all actors pass the conversation scope)",
            )


CLIENT_REQUIRED = ("base_url", "api_key")
CLIENT_PARAMS = ("base_url", "api_key", "timeout", "max_retries", "retry_backoff")


class MemsyClientArgs(Rule):
    code = "MEM610"
    name = "memsy-client-args"
    dialects = MEMSY
    methods = frozenset({CONSTRUCTOR})
    severity = Severity.ERROR
    summary = "`MemsyClient()` without `base_url` or `api_key`"
    why = (
        "Both are required positional-or-keyword parameters with no environment fallback "
        "(unlike mem0's `MEM0_API_KEY`): leaving one out raises TypeError."
    )
    examples = [
        Example(
            "memsy",
            bad="""
            import os

            from memsy import MemsyClient

            client = MemsyClient(api_key=os.environ["MEMSY_API_KEY"])
            """,
            good="""
            import os

            from memsy import MemsyClient

            client = MemsyClient(os.environ["MEMSY_BASE_URL"], os.environ["MEMSY_API_KEY"])
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args:
            return
        given = set(CLIENT_PARAMS[: len(site.positional)]) | set(site.keywords)
        missing = [p for p in CLIENT_REQUIRED if p not in given]
        if missing:
            names = " and ".join(f"`{p}`" for p in missing)
            yield Finding(
                site.call,
                f"`MemsyClient` requires {names} (no environment fallback): TypeError",
            )
