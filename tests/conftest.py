"""Shared helpers: lint or fix a snippet of source in memory."""

from __future__ import annotations

import textwrap

import pytest

from mem0lint import engine

# Projects the tests lint as data (they import SDKs and one another): never collected.
collect_ignore_glob = ["fixtures/*"]


def lint_source(code: str, select: tuple[str, ...] = (), **settings) -> list:
    module = engine.parse(textwrap.dedent(code))
    return engine.lint(module, engine.RuleSet(engine.Settings(select=select, **settings)))


def fix_source(code: str, select: tuple[str, ...] = (), unsafe: bool = False, sdks=()) -> str:
    module = engine.parse(textwrap.dedent(code))
    rules = engine.RuleSet(engine.Settings(select=select, unsafe_fixes=unsafe, sdks=tuple(sdks)))
    return engine.fix(module, rules).module.code


def codes(code: str, **kwargs) -> list[str]:
    return [d.code for d in lint_source(code, **kwargs)]


@pytest.fixture
def lint():
    return lint_source


def run_cli(*args: str, input=None):
    """Run the `mem0lint` command in-process; `.stdout`, `.stderr` and `.exit_code`."""
    from click.testing import CliRunner

    from mem0lint.cli import main

    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into stdout by default
    except TypeError:
        runner = CliRunner()  # click >= 8.2 always keeps them apart
    return runner.invoke(main, list(args), input=input, catch_exceptions=False)
