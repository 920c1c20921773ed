"""Shared helpers: lint or fix a snippet of source in memory."""

from __future__ import annotations

import textwrap

import pytest

from mem0lint import engine


def lint_source(code: str, select: tuple[str, ...] = (), **settings) -> list:
    module = engine.parse(textwrap.dedent(code))
    return engine.lint(module, engine.RuleSet(engine.Settings(select=select, **settings)))


def fix_source(code: str, select: tuple[str, ...] = (), unsafe: bool = False) -> str:
    module = engine.parse(textwrap.dedent(code))
    rules = engine.RuleSet(engine.Settings(select=select, unsafe_fixes=unsafe))
    return engine.fix(module, rules).module.code


def codes(code: str, **kwargs) -> list[str]:
    return [d.code for d in lint_source(code, **kwargs)]


@pytest.fixture
def lint():
    return lint_source
