"""MEM604: A literal Memsy session id with characters search rejects, or over 256 characters."""

from __future__ import annotations

import re
from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.rules.sdk_args import argument, text_parts
from mem0lint.sdk.memsy import GRAMMAR

# Ids the search endpoint accepts (ingest checks only the length).
SEARCHABLE_ID_CHAR = re.compile(GRAMMAR.id_char)

MAX_ID_LENGTH = GRAMMAR.max_id_length


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
        names = ("session_id",) if at_ingest else GRAMMAR.session_params
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
