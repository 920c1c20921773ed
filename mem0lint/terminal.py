"""Where people's output goes: stdout or stderr, through rich only when it can colour.

rich costs a tenth of a second per run to import and about 0.1 ms per line to render. On a
pipe or a CI log (no terminal, no FORCE_COLOR) it prints the plain text anyway, so there lines
are written directly, with the clean-ups rich would make (control codes dropped, tabs expanded),
and a run that prints only a summary never imports it.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Optional, TextIO

if TYPE_CHECKING:
    from rich.console import Console

# Environment variables that make rich colour (or size) output that is not a terminal.
_RICH_ENVIRONMENT = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
# What rich's Text drops from what it prints: bell, backspace, vertical tab, form feed, CR.
_CONTROL = {code: None for code in (7, 8, 11, 12, 13)}
TAB_SIZE = 8  # rich's default

# A line is made of (text, style) pieces; style None is plain.
Line = list[tuple[str, Optional[str]]]


class Terminal:
    def __init__(self, stderr: bool = False) -> None:
        self.stderr = stderr
        self._console: Console | None = None

    @property
    def file(self) -> TextIO:
        # Looked up on every use: click's test runner swaps the streams.
        return sys.stderr if self.stderr else sys.stdout

    @property
    def rich(self) -> bool:
        """Whether rich prints (and may colour): on a terminal, or when told to."""
        try:
            tty = self.file.isatty()
        except (AttributeError, ValueError):
            tty = False
        return tty or any(os.environ.get(name) for name in _RICH_ENVIRONMENT)

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self.stderr, highlight=False, soft_wrap=True)
        return self._console

    @property
    def is_terminal(self) -> bool:
        return self.rich and self.console.is_terminal

    @property
    def watched(self) -> bool:
        """A person is watching: the stream itself is a terminal (an environment variable that
        makes rich colour a pipe does not count), outside CI, on a terminal that can redraw."""
        try:
            tty = self.file.isatty()
        except (AttributeError, ValueError):
            return False
        return tty and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"

    def print(self, text: str = "", end: str = "\n") -> None:
        if self.rich:
            self.console.print(text, markup=False, end=end)
        else:
            self.file.write(plain(text) + end)
            self.file.flush()  # as rich does: a buffered stream (a test runner's) keeps it

    def lines(self, lines: list[Line]) -> None:
        """Styled lines, rendered by rich in one go (line by line costs seconds for a large
        report), or written as plain text."""
        if not lines:
            return
        if not self.rich:
            # One `plain` of the whole text: tabs are expanded per line whatever the text holds.
            self.file.write(plain("".join("".join(t for t, _ in line) + "\n" for line in lines)))
            self.file.flush()
            return
        from rich.text import Text

        texts = [Text.assemble(*((t, s) if s else t for t, s in line)) for line in lines]
        self.console.print(Text("\n").join(texts))


def plain(text: str) -> str:
    return text.translate(_CONTROL).expandtabs(TAB_SIZE)


# A progress bar is worth drawing only for a long run, and only for a person watching.
PROGRESS_THRESHOLD = 300


class ProgressBar:
    """Per-file progress on stderr while a run works (pipeline.Progress): drawn only for a
    person at a terminal (`Terminal.watched`) and a run of more than `threshold` files, so never
    in a pipe, a CI log or machine output; a no-op otherwise. It advances as each file is
    decided (dropped by the prefilter, answered from the cache, or checked) and redraws when
    the whole percentage changes. `console`: draw there instead (tests)."""

    def __init__(
        self,
        err: Terminal,
        total: int,
        threshold: int = PROGRESS_THRESHOLD,
        console: Optional[Console] = None,
    ) -> None:
        self.bar = None
        self.total = total
        self.done = 0
        self._shown = -1
        if total > threshold and (console is not None or err.watched):
            from rich.progress import Progress

            self.bar = Progress(
                console=console if console is not None else err.console,
                transient=True,
                auto_refresh=False,
            )
            self.task = self.bar.add_task("Linting", total=total)

    def advance(self) -> None:
        self.done += 1
        bar = self.bar
        if bar is None:
            return
        bar.advance(self.task)
        percent = self.done * 100 // max(self.total, 1)
        if percent != self._shown:
            self._shown = percent
            bar.refresh()

    def __enter__(self):
        if self.bar is None:
            return lambda: None
        self.bar.start()
        return self.advance

    def __exit__(self, *exc_info) -> None:
        if self.bar is not None:
            self.bar.stop()
