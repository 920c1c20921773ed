"""Run one file through check, fix, diff or add-noqa, and say what happened.

The file is turned into programs by its document kind (mem0lint/documents/): a `.py` file is one
program, a notebook one program of its code cells, a Markdown page one program per Python block.
Every program goes through the one engine; positions are mapped back to real rows (and cells),
and fixed programs are written back into the container. Never raises for bad input.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Union

from mem0lint.modes import Mode
from mem0lint.results import Edit, FileReport
from mem0lint.sources import SourceFile, WriteRefused, write_atomically

if TYPE_CHECKING:  # imported for real only once a file passes the prefilter
    import libcst as cst

    from mem0lint import engine
    from mem0lint.binding import ProjectLookup
    from mem0lint.documents.base import Document, Program
    from mem0lint.project import ProjectIndex
    from mem0lint.results import Diagnostic

# Files that may matter but are bigger than this are reported, not parsed: libcst needs minutes
# and gigabytes for a 50 MB module. Hand-written Python stays far below.
MAX_FILE_BYTES = 10 * 1024 * 1024


def process(
    source: SourceFile,
    rules: engine.RuleSet,
    mode: Mode,
    roots: list[Path],
    data: Union[bytes, None] = None,
    project: Union[ProjectIndex, None] = None,
    write: bool = True,
) -> FileReport:
    """Lint (or fix) one file that may matter: the prefilter is the caller's (pipeline.py).

    `data`: the content, when the caller has read it already (stdin, or the pipeline's
    triage). `write=False` (stdin) never touches the file. `project`: the run's index of
    modules, to bind receivers imported from other files.
    """
    mode = Mode(mode)
    report = FileReport(source)
    original = data
    if original is None:
        try:
            original = source.path.read_bytes()
        except OSError as error:
            report.error = f"cannot read: {error.strerror or error}"
            return report
    report.output = original
    if len(original) > MAX_FILE_BYTES:
        size, limit = len(original) / 2**20, MAX_FILE_BYTES / 2**20
        report.error = f"too large to analyse ({size:.1f} MB > {limit:.0f} MB); skipped"
        return report
    # Only now: a run where nothing matters never imports libcst.
    from mem0lint.documents import load
    from mem0lint.documents.base import DocumentError

    try:
        document = load(source.path, original)
    except DocumentError as error:
        report.error = str(error)
        return report
    view = project.view(source.path) if project is not None else None
    try:
        for program in document.programs():
            if not _run_program(document, program, rules, mode, report, view):
                return report
    except RecursionError:
        report.error = "too deeply nested to analyse"
        return report
    finally:
        if project is not None:
            report.consulted = project.take_consulted()
    report.info = list(document.info)
    new = document.rebuild(original)
    report.frames = document.frame_lines(new)
    if new == original:
        report.fixed = report.noqa_added = 0
        return report
    report.output = new
    if mode is Mode.DIFF:
        before = original.decode("utf-8", "replace")
        report.diff = unified_diff(before, new.decode("utf-8", "replace"), str(source.path))
        # --diff reports what the fixes would leave, but counts the original findings too.
        report.diagnostics = []
        return report
    if not write:
        return report
    try:
        write_atomically(source.path, new, original, roots)
    except WriteRefused as error:
        report.error = str(error)
        report.fixed = report.noqa_added = 0
    return report


def _run_program(
    document: Document,
    program: Program,
    rules: engine.RuleSet,
    mode: Mode,
    report: FileReport,
    project: Union[ProjectLookup, None] = None,
) -> bool:
    """One program through the engine. False when the whole file must stop (a .py error)."""
    from mem0lint import engine, pruning, suppressions
    from mem0lint.clientsources import ImportTaint
    from mem0lint.documents import markers

    parsed, layout = program.source, None
    try:
        # Once, on the program as written: input too deep for the parsers is refused whether or
        # not pruning would drop it, so a check and a fix give the same verdict.
        engine.guard_nesting(parsed)
        if mode.replays:
            seeds = pruning.seed_words(tuple(rules.settings.receivers))
            local = project.top_level_names() if project is not None else frozenset()
            imports = ImportTaint(project, rules.settings.receivers)
            planned = pruning.plan(report.source.path, parsed, seeds, local, imports)
            if planned is None:
                return True  # no call in it can be on a client: nothing to judge
            parsed, layout = planned
        module = engine.parse(parsed, guarded=True)
    except engine.ParseFailure as error:
        if not program.separated:
            from mem0lint.problems import classify

            report.error_code, report.error, report.error_at = classify(program.source, error)
            return False
        retried = document.retry(program)  # the regions that parse alone, without the others
        if retried is None:
            document.info.append(f"skipped: {error}")
        for again in retried or ():
            _run_program(document, again, rules, mode, report, project)
        return True
    keep = _keeper(document, program) if set(program.regions) != program.owned else None
    keep = markers.keeper(document, program, keep)  # code shown as the old form: info, no fix
    source = program.source
    blocks = program.separated  # regions in reading order: a later one never changes an earlier
    code = None  # the text of the final program, when a fix changed it
    if mode is Mode.CHECK:
        from mem0lint.fixcheck import target_for

        diagnostics = engine.lint(
            module,
            rules,
            keep=keep,
            project=project,
            source=source,
            layout=layout,
            blocks=blocks,
            target=target_for(report.source.path),
            find_layout=True,
        )
    elif mode is Mode.ADD_NOQA:
        diagnostics = engine.lint(
            module, rules, keep=keep, project=project, source=source, blocks=blocks
        )
        # The file is written back from its module: not if libcst would change more (lost_row).
        lost = engine.lost_row(module, source) if diagnostics else None
        if lost is not None:
            document.info.append(engine.rewrites(lost).replace("not fixed", "no noqa added"))
            final, added = module, 0
        else:
            final, added, _ = suppressions.add_noqa(module, diagnostics)
        if added and document.update(program, final):
            report.noqa_added += added
            diagnostics = []
    else:
        from mem0lint.fixcheck import target_for

        target = target_for(report.source.path)
        result = engine.fix(
            module, rules, keep=keep, project=project, source=source, blocks=blocks, target=target
        )
        diagnostics = result.diagnostics
        if result.note is not None:
            document.info.append(result.note)
        if result.applied and result.code is not None:
            if document.update(program, result.module):
                report.fixed += result.applied
                code = result.code
            else:
                document.info.append("a fix could not be mapped back into the file; not applied")
                diagnostics = engine.lint(
                    module,
                    rules,
                    keep=keep,
                    project=project,
                    source=source,
                    blocks=blocks,
                    target=target,
                )
    if program.separated and diagnostics:
        if code is None:
            code = source.decode("utf-8") if isinstance(source, bytes) else source
        for diagnostic in diagnostics:
            _relocate(document, program, code, diagnostic)
    report.diagnostics.extend(diagnostics)
    report.diagnostics.sort(key=lambda d: (d.cell or 0, d.start, d.code))
    return True


def check_named(source: SourceFile, report: FileReport, data: Union[bytes, None] = None) -> None:
    """A file named on the command line with nothing to check is still read and parsed as its
    kind; what fails is the report's error (problems.py)."""
    from mem0lint.documents import PYTHON, file_type

    if data is None:
        try:
            data = source.path.read_bytes()
        except OSError as error:
            report.error = f"cannot read: {error.strerror or error}"
            return

    if len(data) > MAX_FILE_BYTES:
        return
    if file_type(source.fspath) == PYTHON:
        from mem0lint.problems import syntax_check

        found = syntax_check(data)
        if found is not None:
            report.error_code, report.error, report.error_at = found
        return
    from mem0lint.documents import load
    from mem0lint.documents.base import DocumentError

    try:
        load(source.path, data)
    except DocumentError as error:
        report.error = str(error)


def _keeper(document: Document, program: Program) -> engine.Keep:
    layouts: dict[int, str] = {}

    def keep(module: cst.Module, diagnostic: Diagnostic) -> bool:
        code = layouts.get(id(module))
        if code is None:
            layouts.clear()
            code = layouts[id(module)] = module.code
        region = document.locate(program, code, diagnostic.start[0], 1)[0]
        return region in program.owned

    return keep


def _relocate(document: Document, program: Program, code: str, diagnostic: Diagnostic) -> None:
    """Program rows -> real rows of the file (and the notebook cell)."""
    _, cell, row, column = document.locate(program, code, *diagnostic.start)
    _, _, end_row, end_column = document.locate(program, code, *diagnostic.end)
    diagnostic.start, diagnostic.end, diagnostic.cell = (row, column), (end_row, end_column), cell
    edits = []
    for edit in diagnostic.edits:
        _, _, r, c = document.locate(program, code, *edit.location)
        _, _, er, ec = document.locate(program, code, *edit.end_location)
        edits.append(Edit(edit.content, (r, c), (er, ec)))
    diagnostic.edits = edits


def unified_diff(before: str, after: str, name: str) -> str:
    """A patch `patch` and `git apply` read: a last line without a line end is followed by
    `\\ No newline at end of file`, as diff(1) writes it, not run into the next header."""
    import difflib

    lines = []
    for line in difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{name}",
        tofile=f"b/{name}",
    ):
        lines.append(line)
        if not line.endswith(("\n", "\r")):
            lines.append("\n\\ No newline at end of file\n")
    return "".join(lines)
