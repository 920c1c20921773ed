"""MEM147: temporal arguments open source rejects: `timestamp=` on `add()` (Platform-only), an
`expiration_date=` string literal `add()` / `update()` cannot read.

Read from 2.0.10 (where `expiration_date` first appears) to 2.2.1: `_normalize_expiration_date`
in mem0/memory/main.py accepts `None`, a `date`/`datetime`, or a string `date.fromisoformat`
reads; any other string raises `ValueError("expiration_date must be a valid date in YYYY-MM-DD
format.")`. `add(timestamp=...)` raises ValueError from 2.0.6 on ("Platform-only"; TypeError
before), `update()` has no `timestamp` (TypeError; not judged here).
"""

from __future__ import annotations

import re
import sys
from datetime import date
from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.ossadd import follow, is_none
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE

# Forms Python 3.11's `date.fromisoformat` added (basic `YYYYMMDD`, ISO weeks): a linter running
# on an older Python must not call them wrong, since the user's Python may read them.
_NEWER_ISO = re.compile(r"^\d{8}$|W")


def rejected(text: str) -> bool:
    """Whether `date.fromisoformat` rejects `text` on every Python mem0ai runs on."""
    try:
        date.fromisoformat(text)
    except ValueError:
        return sys.version_info >= (3, 11) or not _NEWER_ISO.search(text)
    return False


class OssTemporalArgument(Rule):
    code = "MEM147"
    name = "oss-temporal-argument"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"add", "update"})
    # `expiration_date` first appears in 2.0.10 (add and update), with the same normalizer up to
    # 2.2.1; before, the keyword itself raises TypeError.
    versions = {"mem0ai": ">=" + releases.OSS_EXPIRATION_DATE}
    severity = Severity.ERROR
    summary = (
        "Open source: `timestamp=` on `add()`, or an `expiration_date=` literal that is not a "
        "`YYYY-MM-DD` date"
    )
    why = (
        "Open source `add()` and `update()` read `expiration_date` with `date.fromisoformat`: "
        '`"31-12-2026"`, `"2026/12/31"`, `"2026-02-30"` or a date-time string raise '
        "`ValueError: expiration_date must be a valid date in YYYY-MM-DD format.`. "
        "`timestamp=` (the creation time of a memory) is a Platform-only feature: open source "
        "`add()` raises ValueError on any value but `None`."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I like tea", user_id="alice", timestamp=1767225600)',
            good='memory.add("I like tea", user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.add("Trial ends soon", user_id="alice", expiration_date="31/12/2026")',
            good='memory.add("Trial ends soon", user_id="alice", expiration_date="2026-12-31")',
        ),
        Example(
            "mem0-oss",
            bad='memory.update("mem-1", text="Trial", expiration_date="2026-12-31T00:00:00")',
            good='memory.update("mem-1", text="Trial", expiration_date="2026-12-31")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        stamp = site.keyword("timestamp")
        # `None` (or a name bound once to it) is what the SDK accepts: it raises on anything else
        if site.method == "add" and stamp is not None and not is_none(follow(site, stamp.value)):
            yield Finding(
                stamp,
                "`timestamp=` is Platform-only: open source `Memory.add()` raises ValueError on "
                "it; remove it",
            )
        arg = site.keyword("expiration_date")
        if arg is None:
            return
        text = str_value(arg.value)
        if text is None or not rejected(text):
            return
        yield Finding(
            arg,
            f'`expiration_date="{text}"`: open source `{site.method}()` reads it with '
            "`date.fromisoformat` and raises ValueError (expiration_date must be a valid date "
            "in YYYY-MM-DD format)",
        )
