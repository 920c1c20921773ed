"""Lint text as if it were the file at PATH, with the project around it (stdin, the language
server). Moved to the pipeline (`pipeline.lint_text`, `pipeline.project_index`); re-exported here
for server.py and older callers.

    from mem0lint.pipeline import lint_text
    report = lint_text(text, "src/app/service.py")            # settings from its pyproject.toml
    report = lint_text(text, path, mode="fix", rules=rules)   # fixed text in report.output
"""

from __future__ import annotations

from mem0lint.pipeline import lint_text, project_index

__all__ = ["lint_text", "project_index"]
