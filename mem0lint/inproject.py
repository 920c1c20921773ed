"""Lint text as if it were the file at PATH, with the project around it.

This is what stdin mode (`mem0lint - --stdin-filename PATH`) and an editor (the language
server) do: the text is not read from disk (it may be unsaved), but the other modules of the
project are, lazily, from where PATH sits (`modules.ModuleFinder`), so the text gets the same
findings as the file would get in a path run, whatever else is or is not named. The file at PATH
is never written; the fixed text is `FileReport.output`.

    from mem0lint.inproject import lint_text
    report = lint_text(text, "src/app/service.py")            # settings from its pyproject.toml
    report = lint_text(text, path, mode="fix", rules=rules)   # fixed text in report.output
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Union

from mem0lint.runner import CHECK, FileReport, process
from mem0lint.sources import SourceFile

if TYPE_CHECKING:
    from mem0lint import engine
    from mem0lint.config import CommandLine, Finder
    from mem0lint.project import ProjectIndex
    from mem0lint.versions import Discovery

__all__ = ["lint_text", "project_index"]


def project_index(receivers: Union[dict[str, str], None] = None) -> ProjectIndex:
    """A fresh index of the project around any file (one per run, or per editor request:
    it caches what it reads, so a long-lived one would not see later edits)."""
    from mem0lint.project import ProjectIndex

    index = ProjectIndex()
    index.configure(dict(receivers or {}))
    return index


def lint_text(
    text: Union[str, bytes],
    path: Union[str, Path],
    mode: str = CHECK,
    *,
    rules: Union[engine.RuleSet, None] = None,
    command_line: Union[CommandLine, None] = None,
    project: Union[ProjectIndex, None] = None,
    finder: Union[Finder, None] = None,
    discovery: Union[Discovery, None] = None,
    unsafe: Union[bool, None] = None,
) -> FileReport:
    """Check (or, with `mode` "fix" / "diff" / "add-noqa", fix) `text` as the file at `path`.

    `rules`: the rule set to use; by default the settings of the nearest configuration above
    `path` (found by `finder`, with `command_line` options on top) and the SDK releases the
    project installs (resolved by `discovery`), as in a path run. `unsafe`: True/False overrides
    the configured unsafe-fixes (the language server's quick fixes). `project`: the index to bind
    receivers from other modules; by default a fresh one configured with the settings'
    receivers. Raises `config.ConfigError` for bad configuration; never raises for bad input
    (see `runner.process`); never writes a file."""
    import dataclasses

    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    if rules is None:
        from mem0lint import config, engine
        from mem0lint.versions import Discovery, engine_settings

        finder = finder or config.Finder()
        resolved = config.resolve(finder.for_path(path), command_line or config.CommandLine(), path)
        settings = engine_settings(resolved, path, discovery or Discovery())
        if unsafe is not None:
            settings = dataclasses.replace(settings, unsafe_fixes=unsafe)
        rules = engine.RuleSet(settings)
    if project is None:
        project = project_index(rules.settings.receivers)
    source = SourceFile(path, explicit=True)
    return process(source, rules, mode, [path.parent], data=data, project=project, write=False)
