"""`mem0lint server`: a Language Server Protocol server on stdio (pygls, lsprotocol).

Diagnostics on open, change and save, for Python files, notebooks (notebook document sync: the
cells are linted together, as one notebook) and Markdown/MDX pages. Lints run one at a time in a
worker thread, as soon as it is free; the event loop keeps reading the client's messages
meanwhile, so the changes that arrive during a lint are coalesced into one lint of the newest
text, and a lint whose text changed meanwhile publishes nothing (`schedule`). Code
actions: the fix of one finding (unsafe fixes are labelled and never preferred), "fix all" with
safe fixes only (`source.fixAll.mem0lint`), and "add noqa" for one finding.

Every document goes through the command line's stdin pipeline (`inproject.lint_text`): the same
settings (the nearest pyproject.toml's `[tool.mem0lint]`), the same per-file pipeline. The
configuration is read again when a `pyproject.toml` changes (workspace/didChangeWatchedFiles;
the server asks the client to watch them when it can).

Per change of a Python document, only what changed is redone: the libcst parse reuses the
unchanged top-level statements of the last version (incremental.py), whose layout places the
findings by generating only their statements, what was computed from each unchanged statement
is kept (memo.py), the text is not pruned (pruning.unpruned), the SDK releases and the project
index are kept while nothing they read changed (servecache.py), and the vetting of safe fixes
(fixvet.py) waits for the first code action of that version. Findings are those of a cold
lint of the text (tests/test_latency.py).
Notebooks and Markdown pages go through the cold path.

pygls is imported only by this module, which only `mem0lint server` imports.
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import re
import tokenize
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Callable, Union

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from mem0lint import __version__, codecache  # noqa: F401 - before libcst (codecache.py)
from mem0lint.incremental import Reparser
from mem0lint.memo import StatementMemo
from mem0lint.servecache import Kept

SOURCE = "mem0lint"
FIX_ALL = "source.fixAll.mem0lint"
# A change is linted once the typing stops for this long (seconds): by default as soon as the
# worker is free (changes that arrive while it lints are coalesced into the next lint).
DEBOUNCE = 0.0
# The cycle collector. The binder's scopes and bindings refer to each other, so every lint leaves
# some 18,000 objects that only a full collection frees, and Python ran one on its own every
# fourth change of a 2,000-line file, adding 100-200 ms to that change. The server makes full
# collections itself instead: once the typing has paused for QUIET_COLLECT seconds, or after
# FORCED_COLLECT lints without such a pause (memory stays bounded under non-stop typing).
QUIET_COLLECT = 0.5
FORCED_COLLECT = 20
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
# Documents without a known suffix are read by their language id.
LANGUAGES = {"python": ".py", "markdown": ".md", "mdx": ".mdx"}
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            notebook="jupyter-notebook",
            cells=[types.NotebookCellLanguage(language="python")],
        )
    ],
    save=True,
)


class _Linted:
    """The last lint of a document (a text document, or a notebook with its cells)."""

    def __init__(self, report, uris_by_cell: dict, texts: dict, unvetted=()) -> None:
        self.report = report
        self.uris_by_cell = uris_by_cell  # cell number (1-based, all cells) -> cell URI
        self.texts = texts  # URI -> its text when linted
        # Fix vetting left for when a code action needs it (fixvet.deferred): until it runs,
        # a safe fix may still be one vetting calls unsafe. Findings do not depend on it.
        self.unvetted = list(unvetted)
        self.fix_all: Union[types.CodeAction, None, bool] = False  # False: not computed yet

    def vet(self) -> None:
        """Run the fix vetting left for later, once (it updates the report's fixes in place)."""
        while self.unvetted:
            self.unvetted.pop(0)()


class Mem0lintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("mem0lint", __version__, notebook_document_sync=NOTEBOOK_SYNC)
        from mem0lint import config

        self.finder = config.Finder(None)
        self.linted: dict[str, _Linted] = {}  # document or notebook URI -> last lint
        # URI -> lint it even if unchanged: what is waiting for the worker (one thread: lints
        # run one at a time, off the event loop, which keeps reading the client's messages).
        self.wanted: dict[str, bool] = {}
        self.changed_at: dict[str, float] = {}  # URI -> when it was last scheduled (loop time)
        self.driver: Union[asyncio.Task, None] = None
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mem0lint-lint")
        self.published: dict[str, int] = {}  # URI -> number of diagnostics last published
        # URI -> the last parse of a Python document, to re-parse only what a change touched.
        self.reparsers: dict[str, Reparser] = {}
        self.kept = Kept()  # URI -> its SDK releases and project index, while unchanged
        # URI -> what was computed from each of its unchanged top-level statements (memo.py).
        self.memos: dict[str, StatementMemo] = {}
        self._split: tuple = (None, [])  # the last text split into lines, and its lines
        self.debounce = DEBOUNCE
        # Full collections (see QUIET_COLLECT): None until `collect_when_quiet` takes them over.
        self.uncollected: Union[int, None] = None  # lints since the last full collection
        self.quiet_timer: Union[asyncio.TimerHandle, None] = None
        self.frozen = False  # what the first lint imported is out of the collector's sight

    # -- running the pipeline ---------------------------------------------------------------

    def _run_python(self, uri: str, path: Path, data: bytes):
        """Check a Python document as `_run` does, re-parsing only the statements a change
        touched (incremental.py), unpruned (pruning.unpruned), and leaving fix vetting for a
        code action (fixvet.py).
        Returns the report and the vetting left to do."""
        from mem0lint import fixvet, incremental, memo, pruning
        from mem0lint.modes import Mode

        reparser = self.reparsers.setdefault(uri, Reparser())
        kept = self.memos.setdefault(uri, StatementMemo())
        with ExitStack() as stack:
            unvetted = stack.enter_context(fixvet.deferred())
            stack.enter_context(incremental.reusing(reparser))
            stack.enter_context(pruning.unpruned())
            stack.enter_context(memo.active(kept))
            report = self._run(path, data, Mode.CHECK, uri=uri)
        kept.keep_only(reparser.module.body if reparser.module is not None else ())
        return report, unvetted

    def _run(
        self,
        path: Path,
        data: bytes,
        mode: str,
        unsafe: Union[bool, None] = None,
        uri: Union[str, None] = None,
    ):
        """`uri`: the document's SDK releases and project index are kept from its last lint
        while nothing they read changed (servecache.py); else both are read afresh."""
        from mem0lint import config
        from mem0lint.inproject import lint_text
        from mem0lint.versions import Discovery

        project = None
        discovery = Discovery()  # the SDK release comes from lock files that may change
        if uri is not None:
            resolved = config.resolve(self.finder.for_path(path), config.CommandLine(), path)
            receivers = resolved.engine_settings().receivers
            discovery, project = self.kept.get(uri, path, receivers)
        report = lint_text(
            data,
            path,
            mode,
            finder=self.finder,
            command_line=config.CommandLine(),
            discovery=discovery,
            project=project,
            unsafe=unsafe,
        )
        if uri is not None:
            self.kept.seal(uri)
        if report.error:
            from mem0lint import problems

            problems.attach([report])
        return report

    def _job(self, uri: str) -> Union[tuple[Callable[[], object], Callable[[object], None]], None]:
        """What linting `uri` (a text document, a notebook or a notebook's cell) takes: a
        computation that reads only what is given to it here (it runs in the worker thread),
        and what to do with its result (in the event loop: remember it, publish). None when
        there is no such document."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None:
            notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            return self._notebook_job(notebook)
        if uri not in self.workspace.text_documents:
            return None
        document = self.workspace.get_text_document(uri)
        text = document.source
        path = Path(to_fs_path(uri) or uri)
        from mem0lint.documents import PYTHON, SUFFIXES, file_type
        from mem0lint.modes import Mode

        known = any(path.suffix.lower() in suffixes for suffixes in SUFFIXES.values())
        if not known and document.language_id not in LANGUAGES:
            return (lambda: None), (lambda _: self._publish(uri, []))  # not a file mem0lint reads
        if not known:  # an unsaved buffer, or a script without a suffix: its language decides
            path = path.with_name(path.name + LANGUAGES[document.language_id])
        data = text.encode("utf-8")
        python = file_type(path) == PYTHON

        def compute():
            if python:
                return self._run_python(uri, path, data)
            return self._run(path, data, Mode.CHECK), []

        def finish(result) -> None:
            if isinstance(result, Exception):
                self._failed(result)
                return
            if uri not in self.workspace.text_documents:
                return  # closed meanwhile
            report, unvetted = result
            self.linted[uri] = _Linted(report, {}, {uri: text}, unvetted)
            if not self._stale(self.linted[uri]):  # else its next lint publishes
                self._publish(uri, [self._diagnostic(uri, text, d) for d in report.diagnostics])

        return _catching(compute), finish

    def _notebook_job(self, notebook: types.NotebookDocument):
        data, uris, texts = self._notebook_json(notebook)
        path = Path(to_fs_path(notebook.uri) or notebook.uri)
        from mem0lint.modes import Mode

        def finish(report) -> None:
            if isinstance(report, Exception):
                self._failed(report)
                return
            if self.workspace.get_notebook_document(notebook_uri=notebook.uri) is None:
                return  # closed meanwhile
            linted = self.linted[notebook.uri] = _Linted(report, uris, texts)
            if self._stale(linted):
                return  # its next lint publishes
            by_uri: dict[str, list] = {uri: [] for uri in uris.values()}
            for diagnostic in report.diagnostics:
                uri = uris.get(diagnostic.cell)
                if uri is None:  # a problem of the whole notebook: its first cell carries it
                    uri = next(iter(uris.values()), None)
                if uri is not None:
                    by_uri[uri].append(self._diagnostic(uri, texts[uri], diagnostic))
            for uri, diagnostics in by_uri.items():
                self._publish(uri, diagnostics)

        return _catching(lambda: self._run(path, data, Mode.CHECK)), finish

    def _failed(self, error: Exception) -> None:
        """A configuration error (see `_catching`): shown to the user."""
        self.window_show_message(
            types.ShowMessageParams(types.MessageType.Error, f"mem0lint: {error}")
        )

    async def _lint(self, uri: str) -> None:
        """Lint `uri` in the worker thread (one lint at a time, so a document's re-parse state
        is never shared), while the event loop goes on reading the client's messages."""
        job = self._job(uri)
        if job is None:
            return
        compute, finish = job
        result = await asyncio.get_running_loop().run_in_executor(self.worker, compute)
        finish(result)

    def _notebook_json(self, notebook: types.NotebookDocument) -> tuple[bytes, dict, dict]:
        cells, uris, texts = [], {}, {}
        for number, cell in enumerate(notebook.cells, start=1):
            text = self.workspace.get_text_document(cell.document).source
            uris[number], texts[cell.document] = cell.document, text
            if cell.kind == types.NotebookCellKind.Code:
                cells.append(
                    {
                        "cell_type": "code",
                        "execution_count": None,
                        "metadata": {},
                        "outputs": [],
                        "source": text,
                    }
                )
            else:
                cells.append({"cell_type": "markdown", "metadata": {}, "source": text})
        notebook_json = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        return json.dumps(notebook_json, indent=1).encode("utf-8"), uris, texts

    def _publish(self, uri: str, diagnostics: list) -> None:
        self.published[uri] = len(diagnostics)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics)
        )

    # -- positions --------------------------------------------------------------------------

    def _lines(self, text: str) -> list[str]:
        """`text.split("\\n")`, split once per text (not once per position: a 2,000-line file
        with 150 findings was split 300 times per change)."""
        split = self._split  # (read once: the worker thread computes code actions too)
        if split[0] is not text:
            split = self._split = (text, text.split("\n"))
        return split[1]

    def _position(self, text: str, row: int, column: int) -> types.Position:
        """1-based (row, column in code points) -> an LSP position in the client's units."""
        lines = self._lines(text)
        line = max(row - 1, 0)
        character = max(column - 1, 0)
        if (
            line < len(lines)
            and self.workspace.position_encoding != types.PositionEncodingKind.Utf32
        ):
            prefix = lines[line][:character]
            if self.workspace.position_encoding == types.PositionEncodingKind.Utf8:
                character = len(prefix.encode("utf-8"))
            else:
                character = len(prefix.encode("utf-16-le")) // 2
        return types.Position(line=line, character=character)

    def _range(self, text: str, start, end) -> types.Range:
        return types.Range(start=self._position(text, *start), end=self._position(text, *end))

    def _diagnostic(self, uri: str, text: str, diagnostic) -> types.Diagnostic:
        # No fix applicability here: it is known once fixes are vetted, for a code action.
        data = {"uri": uri, "code": diagnostic.code, "start": list(diagnostic.start)}
        return types.Diagnostic(
            range=self._range(text, diagnostic.start, diagnostic.end),
            message=diagnostic.message,
            severity=SEVERITY[diagnostic.severity.value],
            code=diagnostic.code,
            source=SOURCE,
            data=data,
        )

    # -- code actions -----------------------------------------------------------------------

    async def code_actions_async(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        """`code_actions`, on a lint of the document's current text (linted first if a change
        is not linted yet), computed in the worker thread."""
        uri = params.text_document.uri
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        key = notebook.uri if notebook is not None else uri
        linted = self.linted.get(key)
        if linted is None or self._stale(linted):  # a change not linted yet
            await self._lint(key)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.worker, self.code_actions, params)

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        key = notebook.uri if notebook is not None else uri
        linted = self.linted.get(key)
        if linted is None:
            return []
        linted.vet()
        only = params.context.only
        wanted = lambda kind: not only or any(kind.startswith(k) for k in only)  # noqa: E731
        actions: list[types.CodeAction] = []
        text = linted.texts.get(uri, "")
        if wanted(types.CodeActionKind.QuickFix):
            for diagnostic in linted.report.diagnostics:
                if self._uri_of(linted, diagnostic, uri) != uri:
                    continue
                shown = self._range(text, diagnostic.start, diagnostic.end)
                if not _touches(shown, params.range):
                    continue
                lsp_diagnostic = self._diagnostic(uri, text, diagnostic)
                if diagnostic.fix is not None and diagnostic.edits:
                    actions.append(self._fix_action(uri, text, diagnostic, lsp_diagnostic))
                noqa = _noqa_edit(text, diagnostic.start[0], diagnostic.code)
                if noqa is not None and diagnostic.node is not None:
                    actions.append(
                        types.CodeAction(
                            title=f"{diagnostic.code}: add `# noqa: {diagnostic.code}`",
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[lsp_diagnostic],
                            edit=types.WorkspaceEdit(changes={uri: [noqa]}),
                        )
                    )
        if wanted(FIX_ALL):
            if linted.fix_all is False:  # once per version: it runs a whole fix
                linted.fix_all = self._fix_all(key, notebook)
            if linted.fix_all is not None:
                actions.append(linted.fix_all)
        return actions

    def _stale(self, linted: _Linted) -> bool:
        """Has any of its documents changed since it was linted?"""
        documents = self.workspace.text_documents
        return any(
            uri in documents and documents[uri].source != text for uri, text in linted.texts.items()
        )

    def _uri_of(self, linted: _Linted, diagnostic, uri: str) -> str:
        if not linted.uris_by_cell:
            return uri
        return linted.uris_by_cell.get(diagnostic.cell, "")

    def _fix_action(self, uri: str, text: str, diagnostic, lsp_diagnostic) -> types.CodeAction:
        safe = diagnostic.fix.applicability.value == "safe"
        title = f"{diagnostic.code}: {diagnostic.fix.message}"
        if not safe:
            title += " (unsafe fix: may change results)"
        edits = [
            types.TextEdit(
                range=self._range(text, edit.location, edit.end_location),
                new_text=edit.content,
            )
            for edit in diagnostic.edits
        ]
        return types.CodeAction(
            title=title,
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[lsp_diagnostic],
            is_preferred=safe,
            edit=types.WorkspaceEdit(changes={uri: edits}),
        )

    def _fix_all(self, key: str, notebook) -> Union[types.CodeAction, None]:
        """Every safe fix (never an unsafe one, whatever the configuration says)."""
        from mem0lint.modes import Mode

        linted = self.linted[key]
        linted.vet()
        if not any(
            d.fix is not None and d.fix.applicability.value == "safe"
            for d in linted.report.diagnostics
        ):
            return None
        path = Path(to_fs_path(key) or key)
        if notebook is None:
            before = linted.texts[key]
            report = self._run(path, before.encode("utf-8"), Mode.FIX, unsafe=False)
            if report.error or not report.fixed or report.output is None:
                return None
            after = report.output.decode("utf-8")
            changes = {key: [_whole(before, after)]}
        else:
            data, uris, texts = self._notebook_json(notebook)
            report = self._run(path, data, Mode.FIX, unsafe=False)
            if report.error or not report.fixed or report.output is None:
                return None
            fixed_cells = json.loads(report.output.decode("utf-8"))["cells"]
            changes = {}
            for number, cell in enumerate(fixed_cells, start=1):
                source = cell.get("source", "")
                after = "".join(source) if isinstance(source, list) else source
                uri = uris.get(number)
                if uri is not None and after != texts[uri]:
                    changes[uri] = [_whole(texts[uri], after)]
        return types.CodeAction(
            title="mem0lint: fix all safely fixable problems",
            kind=FIX_ALL,
            edit=types.WorkspaceEdit(changes=changes),
        )

    # -- configuration ----------------------------------------------------------------------

    def reload_configuration(self) -> None:
        from mem0lint import config

        self.finder = config.Finder(None)
        self.kept.forget()
        for uri in list(self.linted):
            if (
                self.workspace.get_notebook_document(notebook_uri=uri) is not None
                or uri in self.workspace.text_documents
            ):
                self.schedule(uri, again=True)

    def schedule(self, uri: str, again: bool = False) -> None:
        """Lint `uri` (a document or a notebook) as soon as the worker is free. Changes that
        arrive meanwhile are coalesced: one lint of the newest text follows. `again`: lint it
        even if its text is the one last linted (a save, a new configuration)."""
        self.wanted[uri] = self.wanted.get(uri, False) or again
        if again:  # opened or saved: no need to wait for the typing to pause
            self.changed_at.pop(uri, None)
        else:
            self.changed_at[uri] = asyncio.get_running_loop().time()
        if self.quiet_timer is not None:
            self.quiet_timer.cancel()
            self.quiet_timer = None
        if self.driver is None or self.driver.done():
            self.driver = asyncio.ensure_future(self._drive())

    async def _drive(self) -> None:
        """Lint what is wanted, one document at a time, until nothing is."""
        loop = asyncio.get_running_loop()
        while self.wanted:
            uri = next(iter(self.wanted))
            # `debounce` (0 unless the client asks): wait for the typing to pause that long.
            quiet = self.changed_at.get(uri, 0.0) + self.debounce - loop.time()
            if quiet > 0:
                await asyncio.sleep(quiet)
                continue
            again = self.wanted.pop(uri)
            linted = self.linted.get(uri)
            if again or linted is None or self._stale(linted):
                try:
                    await self._lint(uri)
                except Exception:  # noqa: BLE001 - one document's failure stops no other
                    logging.getLogger(__name__).exception("mem0lint: linting %s failed", uri)
                await self._collected_after_lint()
        if self.uncollected:
            self.quiet_timer = loop.call_later(QUIET_COLLECT, self._collect_when_quiet)

    # -- the cycle collector (see QUIET_COLLECT) -----------------------------------------------

    def collect_when_quiet(self) -> None:
        """Take full collections over from Python's own schedule (`mem0lint server` does; the
        tests that drive a server object in their own process leave their collector alone)."""
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, 1_000_000_000)  # never on its own (3.14's is incremental)
        self.uncollected = 0

    async def _collected_after_lint(self) -> None:
        if self.uncollected is None:
            return
        self.uncollected += 1
        first = not self.frozen
        if first or self.uncollected >= FORCED_COLLECT:
            self.frozen = True
            await asyncio.get_running_loop().run_in_executor(self.worker, self._collect, first)

    def _collect(self, freeze: bool = False) -> None:
        gc.collect()
        if freeze:
            # After the first lint the modules it imported (libcst, the rules, the SDK facts) are
            # loaded: they are never garbage, so later collections need not scan them again.
            gc.freeze()
        self.uncollected = 0

    def _collect_when_quiet(self) -> None:
        self.quiet_timer = None
        if not self.wanted and self.uncollected:
            self.uncollected = 0
            asyncio.get_running_loop().run_in_executor(self.worker, self._collect)


def _catching(compute: Callable[[], object]) -> Callable[[], object]:
    """`compute`, returning a ConfigError instead of raising it (for the event loop to show)."""

    def run():
        from mem0lint.config import ConfigError

        try:
            return compute()
        except ConfigError as error:
            return error

    return run


def _touches(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _whole(before: str, after: str) -> types.TextEdit:
    """One edit that replaces the whole text `before` with `after`."""
    lines = before.split("\n")
    end = types.Position(line=len(lines) - 1, character=len(lines[-1].encode("utf-16-le")) // 2)
    return types.TextEdit(
        range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=after
    )


_NOQA = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)", re.IGNORECASE)


def _noqa_edit(text: str, row: int, code: str) -> Union[types.TextEdit, None]:
    """A `# noqa: CODE` at the end of line `row` (added to a noqa already there); None where the
    line ends inside a string, or where it cannot be told (the text does not tokenize)."""
    lines = text.split("\n")
    if not 0 < row <= len(lines):
        return None
    line = lines[row - 1]
    comment_at = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] > row:
                break
            if token.type == tokenize.COMMENT and token.start[0] == row:
                comment_at = token.start[1]
            if token.type == tokenize.STRING and token.start[0] <= row < token.end[0]:
                return None  # the line ends inside a (multi-line) string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    if comment_at is not None:
        found = _NOQA.search(line, comment_at)
        if found is not None:
            if code in found.group("codes").upper():
                return None
            at = found.end("codes")
            position = types.Position(line=row - 1, character=_units(line[:at]))
            return types.TextEdit(
                range=types.Range(start=position, end=position), new_text=f", {code}"
            )
    end = len(line.rstrip())
    position = types.Position(line=row - 1, character=_units(line[:end]))
    return types.TextEdit(
        range=types.Range(start=position, end=position), new_text=f"  # noqa: {code}"
    )


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def build() -> Mem0lintServer:
    server = Mem0lintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: Mem0lintServer, params: types.InitializeParams) -> None:
        """`initializationOptions`: {"debounce": seconds to wait after a change}."""
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
            ls.debounce = max(0.0, float(options["debounce"]))

    @server.feature(types.INITIALIZED)
    def initialized(ls: Mem0lintServer, params: types.InitializedParams) -> None:
        watched = ls.client_capabilities.workspace
        dynamic = watched is not None and watched.did_change_watched_files is not None
        if dynamic and watched.did_change_watched_files.dynamic_registration:
            ls.client_register_capability(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="mem0lint-pyproject",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml")]
                            ),
                        )
                    ]
                )
            )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Mem0lintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, again=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Mem0lintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: Mem0lintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, again=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Mem0lintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.linted.pop(uri, None)
        ls.wanted.pop(uri, None)
        ls.reparsers.pop(uri, None)
        ls.memos.pop(uri, None)
        ls.kept.forget(uri)
        ls._publish(uri, [])

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_open(ls: Mem0lintServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, again=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_change(ls: Mem0lintServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_save(ls: Mem0lintServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, again=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_close(ls: Mem0lintServer, params: types.DidCloseNotebookDocumentParams) -> None:
        ls.linted.pop(params.notebook_document.uri, None)
        ls.wanted.pop(params.notebook_document.uri, None)
        for cell in params.cell_text_documents:
            ls._publish(cell.uri, [])

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL],
            resolve_provider=False,
        ),
    )
    async def code_action(ls: Mem0lintServer, params: types.CodeActionParams):
        return await ls.code_actions_async(params)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: Mem0lintServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.endswith("pyproject.toml") for change in params.changes):
            ls.reload_configuration()

    return server


def main() -> None:
    server = build()
    server.collect_when_quiet()
    server.start_io()
