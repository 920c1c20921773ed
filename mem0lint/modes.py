"""What a run does with the files it checks."""

from __future__ import annotations

from enum import Enum


class Mode(str, Enum):
    """A `str` enum: `Mode("fix") is Mode.FIX`, and `Mode.FIX == "fix"` for older callers."""

    CHECK = "check"  # report findings
    FIX = "fix"  # apply fixes in place (`--fix`, `--unsafe-fixes`)
    DIFF = "diff"  # print the fixes as a unified diff; write nothing
    ADD_NOQA = "add-noqa"  # add a noqa comment for every finding

    @property
    def fixes(self) -> bool:
        """Runs the fix loop (fix, diff)."""
        return self in (Mode.FIX, Mode.DIFF)

    @property
    def replays(self) -> bool:
        """May take findings from the cache and prune unrelated code: only a check, since the
        other modes need each file's syntax tree."""
        return self is Mode.CHECK

    @property
    def rewrites(self) -> bool:
        """Produces new file content (fix, add-noqa): on stdin it is the output."""
        return self in (Mode.FIX, Mode.ADD_NOQA)

    @property
    def reports_errors_on_stderr(self) -> bool:
        """A file's error goes to stderr; in the other modes the report itself carries it."""
        return self in (Mode.DIFF, Mode.ADD_NOQA)
