"""One module through the pipeline: prefilter, parse, bind, call sites, rules, positions, fixes."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Iterable, Union

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from mem0lint.binding import BindingCollector, Resolver
from mem0lint.callsite import CallSite, call_sites
from mem0lint.dialects import Dialect
from mem0lint.rule import Applicability, Diagnostic, Rule, Severity, all_rules

MAX_FIX_ROUNDS = 10

# A file can matter only if it holds a call shape some rule looks at, or builds a client.
# Spelling the SDK's name is not required: a helper may receive the client from elsewhere.
_PREFILTER = re.compile(
    rb"\.(?:search|get_all|delete_all|search_memory|get_memories|list_memories)\s*\("
    rb"|MemoryClient|Memory\b|Memsy|MemOS|/v[13]/memories"
)
# `.list(` and `.all(` are everywhere; they matter only next to a mem0 import (MEM123).
_WRONG_LIST_CALL = re.compile(rb"\.(?:list|all)\s*\(")


def may_matter(source: Union[bytes, str]) -> bool:
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    if _PREFILTER.search(data) is not None:
        return True
    return b"mem0" in data and _WRONG_LIST_CALL.search(data) is not None


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

    def enabled(self, code: str) -> bool:
        selected = not self.select or _matches(code, self.select)
        selected = selected or _matches(code, self.extend_select)
        return selected and not _matches(code, self.ignore)


class RuleSet:
    """The enabled rules, instantiated once and grouped by dialect."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.by_dialect: dict[str, list[Rule]] = {}
        for code, rule_class in all_rules().items():
            if not settings.enabled(code):
                continue
            rule = rule_class()
            for dialect in rule_class.dialects:
                self.by_dialect.setdefault(dialect, []).append(rule)

    def for_dialect(self, dialect: Dialect) -> list[Rule]:
        return self.by_dialect.get(dialect.id, [])


class ParseFailure(Exception):
    pass


# Deeper expressions are refused before libcst sees them (real code stays far below).
MAX_NESTING = 400


def guard_nesting(source: Union[bytes, str]) -> None:
    """Refuse, quickly and safely, input that would crash or stall libcst's parser.

    libcst's native parser overflows its stack (a segfault, not an exception) on some 10,000-level
    nested expressions, and takes minutes on others. CPython's parser has limits of its own and
    says so; its verdict on anything else (a syntax error, a newer grammar than this Python's) is
    left to libcst.
    """
    try:
        tree = compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (RecursionError, MemoryError):
        raise ParseFailure("too deeply nested to parse") from None
    except SyntaxError as error:
        message = str(error.msg)
        if "nested" in message or "too complex" in message:
            raise ParseFailure(f"too deeply nested to parse ({message})") from None
        if "null bytes" in message:
            raise ParseFailure("contains a NUL byte; not Python source") from None
        return
    except ValueError as error:  # Python < 3.12: "source code string cannot contain null bytes"
        if "null" in str(error):
            raise ParseFailure("contains a NUL byte; not Python source") from None
        return
    depth = _depth(tree)
    if depth > MAX_NESTING:
        raise ParseFailure(f"too deeply nested to analyse (depth {depth} > {MAX_NESTING})")


def _depth(tree: ast.AST) -> int:
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def parse(source: Union[bytes, str]) -> cst.Module:
    guard_nesting(source)
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        raise ParseFailure(
            f"syntax error at {error.raw_line}:{error.raw_column}: {error.message}"
        ) from None
    except RecursionError:
        raise ParseFailure("too deeply nested to parse") from None
    except (UnicodeDecodeError, LookupError, SyntaxError, ValueError) as error:
        raise ParseFailure(f"cannot decode: {error}") from None


def find_sites(module: cst.Module, settings: Settings) -> list[CallSite]:
    collector = BindingCollector()
    module.visit(collector)
    resolver = Resolver(collector)
    configure_resolver(resolver, settings)
    return list(call_sites(collector, resolver))


def configure_resolver(resolver: Resolver, settings: Settings) -> None:
    from mem0lint.dialects import DIALECTS

    for name, dialect_id in settings.receivers.items():
        resolver.external[name] = DIALECTS[dialect_id]


def check_module(module: cst.Module, rules: RuleSet) -> list[Diagnostic]:
    """Diagnostics without positions (cheap); `place` adds them."""
    diagnostics: list[Diagnostic] = []
    seen: set[tuple[str, int, str]] = set()
    for site in find_sites(module, rules.settings):
        for rule in rules.for_dialect(site.dialect):
            if not rule.applies_to(site):
                continue
            for finding in rule.check(site):
                key = (rule.code, id(finding.node), finding.message)
                if key in seen:  # a followed filter dict used by several calls
                    continue
                seen.add(key)
                diagnostics.append(
                    Diagnostic(
                        code=rule.code,
                        name=rule.name,
                        severity=finding.severity or rule.severity_for(site.dialect.id),
                        message=finding.message,
                        dialect=site.dialect.id,
                        node=finding.node,
                        fix=finding.fix,
                    )
                )
    return diagnostics


def place(module: cst.Module, diagnostics: list[Diagnostic]) -> None:
    """Fill in 1-based row/column of every diagnostic and its fix edits."""
    if not diagnostics:
        return
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

    def span(node: cst.CSTNode) -> tuple[tuple[int, int], tuple[int, int]]:
        code_range = positions[node]
        return (
            (code_range.start.line, code_range.start.column + 1),
            (code_range.end.line, code_range.end.column + 1),
        )

    for diagnostic in diagnostics:
        diagnostic.start, diagnostic.end = span(diagnostic.node)
        if diagnostic.fix is not None:
            diagnostic.edits = []
            for old, new in diagnostic.fix.replacements:
                start, end = span(old)
                diagnostic.edits.append(
                    {"content": module.code_for_node(new), "location": start, "end_location": end}
                )
    diagnostics.sort(key=lambda d: (d.start, d.code))


def lint(module: cst.Module, rules: RuleSet) -> list[Diagnostic]:
    diagnostics = check_module(module, rules)
    place(module, diagnostics)
    return diagnostics


class _Replace(cst.CSTTransformer):
    def __init__(self, replacements: dict[int, cst.CSTNode]) -> None:
        self.replacements = replacements

    def on_leave(self, original_node, updated_node):
        return self.replacements.get(id(original_node), updated_node)


def _overlaps(a: tuple, b: tuple) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def applicable(diagnostic: Diagnostic, unsafe: bool) -> bool:
    fix = diagnostic.fix
    return fix is not None and (fix.applicability is Applicability.SAFE or unsafe)


@dataclass
class FixResult:
    module: cst.Module
    applied: int  # fixes applied over all rounds
    diagnostics: list[Diagnostic]  # what is left


def fix(module: cst.Module, rules: RuleSet) -> FixResult:
    """Apply fixes, re-parse, re-check, until nothing applies (bounded)."""
    unsafe = rules.settings.unsafe_fixes
    applied = 0
    for _ in range(MAX_FIX_ROUNDS):
        diagnostics = lint(module, rules)
        chosen: dict[int, cst.CSTNode] = {}
        taken: list[tuple] = []
        for diagnostic in diagnostics:
            if not applicable(diagnostic, unsafe):
                continue
            spans = [(e["location"], e["end_location"]) for e in diagnostic.edits]
            if any(_overlaps(s, t) for s in spans for t in taken):
                continue  # the next round sees the re-parsed code
            taken.extend(spans)
            for old, new in diagnostic.fix.replacements:
                chosen[id(old)] = new
            applied += 1
        if not chosen:
            return FixResult(module, applied, diagnostics)
        changed = module.visit(_Replace(chosen))
        module = parse_again(changed, module)
    return FixResult(module, applied, lint(module, rules))


def parse_again(changed: cst.Module, like: cst.Module) -> cst.Module:
    """Re-parse fixed code: a fix that yields code which does not parse is a bug, not output."""
    return cst.parse_module(changed.code, config=like.config_for_parsing)


def severity_rank(severity: Severity) -> int:
    return {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}[severity]
