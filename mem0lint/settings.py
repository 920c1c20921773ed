"""What a run is asked to do: which rules, which fixes, what is known from outside the file.

Kept apart from the engine so the command line can build it without importing libcst.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable


def _matches(code: str, patterns: Iterable[str]) -> bool:
    return any(code.startswith(p) for p in patterns)


@dataclass
class Settings:
    select: tuple[str, ...] = ()  # codes or prefixes; empty selects every rule
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    # Receiver names or dotted factory names -> dialect id (from configuration).
    receivers: dict[str, str] = field(default_factory=dict)
    # A bare noqa comment (no codes) silences mem0lint too; off: it belongs to other tools.
    respect_bare_noqa: bool = False
    # Per SDK package: (package, distribution, judged version, pinned version or ""); empty:
    # every SDK judged as its newest known release (see mem0lint/versions.py).
    sdks: tuple[tuple[str, str, str, str], ...] = ()

    def enabled(self, code: str) -> bool:
        from mem0lint.codes import OPT_IN  # the code table only: no rule imported

        if code in OPT_IN:  # named by its full code, never by a prefix or ALL
            named = code in self.select or code in self.extend_select
            return named and not _matches(code, self.ignore)
        selected = not self.select or _matches(code, self.select)
        selected = selected or _matches(code, self.extend_select)
        return selected and not _matches(code, self.ignore)
