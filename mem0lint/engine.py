"""One module through the pipeline: prefilter, parse, bind, call sites, rules, positions, fixes."""

from __future__ import annotations

# First: libcst's first import, with its classes' compiled methods kept (codecache.py).
from mem0lint import codecache  # noqa: F401

# isort: split
import dataclasses
import re
from dataclasses import dataclass
from typing import Callable, Union

import libcst as cst
from libcst._nodes.internal import CodegenState

from mem0lint import context, fixcheck, suppressions
from mem0lint.binding import BindingCollector, ProjectLookup, Resolver
from mem0lint.callsite import CallSite, call_sites
from mem0lint.parsing import ParseFailure, guard_nesting, parsed_unvalidated  # re-exported
from mem0lint.positions import node_ranges, ranges_within, whole
from mem0lint.prefilter import may_matter  # noqa: F401  (re-exported: the pipeline's first step)
from mem0lint.pruning import Layout, layout_of
from mem0lint.results import Applicability, Diagnostic, Edit
from mem0lint.rule import Rule
from mem0lint.rules import all_rules
from mem0lint.sdk.applies import Verdict, verdict
from mem0lint.sdk.dialects import Dialect
from mem0lint.settings import Settings  # noqa: F401  (re-exported; importable without libcst)
from mem0lint.walk import children, replaced_in, walk

MAX_FIX_ROUNDS = 10


class RuleSet:
    """The enabled rules, instantiated once and grouped by dialect."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.by_dialect: dict[str, list[Rule]] = {}
        self.verdicts: dict[tuple[str, str], Verdict] = {}  # (code, dialect): its SDK version
        self._by_method: dict[tuple[str, str], list[Rule]] = {}
        for code, rule_class in all_rules().items():
            if not settings.enabled(code):
                continue
            rule = rule_class()
            for dialect in rule_class.dialects:
                judged = self.verdicts[code, dialect] = verdict(
                    rule_class.versions, dialect, settings.sdks
                )
                rule.releases[dialect] = judged.sdk_version
                if judged.applies:
                    self.by_dialect.setdefault(dialect, []).append(rule)

    def version_skipped(self, code: str) -> bool:
        """Is the rule left out, for some SDK, by the release the files are judged by?"""
        return any(c == code and not v.applies for (c, _), v in self.verdicts.items())

    def for_dialect(self, dialect: Dialect) -> list[Rule]:
        return self.by_dialect.get(dialect.id, [])

    def for_site(self, site: CallSite) -> list[Rule]:
        """The rules that judge `site`: a call of a name no dialect lists (callsite.py's
        `unlisted`) is seen only by the rules that judge every name (`Rule.any_method`)."""
        if site.notes.get("unlisted"):
            everyone = self.for_dialect(site.dialect)
            return [r for r in everyone if r.any_method and r.applies_to(site)]
        return self.judging(site)

    def judging(self, site: CallSite) -> list[Rule]:
        """`for_method`'s rules that apply to `site`. `Rule.applies_to` asks only what
        `for_method` has chosen by (dialect and method), so it is asked only of the rules that
        narrow it (a call per rule per site was a hundredth of a check of mem0-heavy code)."""
        rules = self.for_method(site.dialect, site.method)
        return [r for r in rules if not r.narrows or r.applies_to(site)]

    def for_method(self, dialect: Dialect, method: str) -> list[Rule]:
        """The rules of `dialect` that judge calls of `method` (each may still refuse a site:
        `Rule.applies_to`); asked once per call site, so kept per (dialect, method)."""
        key = (dialect.id, method)
        found = self._by_method.get(key)
        if found is None:
            found = self._by_method[key] = [
                rule
                for rule in self.for_dialect(dialect)
                if rule.methods is None or method in rule.methods
            ]
        return found


def parse(source: Union[bytes, str], guarded: bool = False) -> cst.Module:
    """`guarded`: the caller has run `guard_nesting` on it (or on the text it was pruned from)."""
    if not guarded:
        guard_nesting(source)
    from mem0lint.incremental import active_parse

    reused = active_parse(source)  # the language server's re-parse of a document's next version
    if reused is not None:
        return reused
    try:
        return parsed_unvalidated(source)
    except cst.ParserSyntaxError as error:
        raise ParseFailure(
            f"syntax error at {error.raw_line}:{error.raw_column}: {error.message}",
            (error.editor_line, error.editor_column),
        ) from None
    except RecursionError:
        raise ParseFailure("too deeply nested to parse") from None
    except (UnicodeDecodeError, LookupError, SyntaxError, ValueError) as error:
        raise ParseFailure(f"cannot decode: {error}") from None


def find_sites(
    module: cst.Module,
    settings: Settings,
    project: ProjectLookup | None = None,
    blocks: bool = False,
    source: Union[str, bytes, None] = None,
    units: Union[set, None] = None,
) -> list[CallSite]:
    """`project`: what the rest of the project defines, as this file sees it
    (`ProjectIndex.view(path)`); None judges the file alone. `blocks`: the module is a
    document's regions in reading order (see documents/, bind/flow.py). `source`: a text
    holding every name the module spells (the text it was parsed or pruned from), if known.
    `units`: the sites of the calls in these units only (see `check_module`)."""
    from mem0lint.bind.flow import region_of

    collector = BindingCollector()
    collector.closed = blocks  # a page or notebook: nothing else calls its functions
    collector.source = source
    collector.module = module  # rules that read how a call's result is used (rules/surface/)
    if blocks:
        collector.start_block(0)
    for index, statement in enumerate(module.body):
        collector.unit = (index, None)
        if blocks:
            region = region_of(statement)
            if region is not None:
                collector.start_block(region)
        walk(statement, collector)  # libcst's own `visit` would rebuild the whole tree
    resolver = Resolver(collector, project)
    configure_resolver(resolver, settings)
    return list(call_sites(collector, resolver, units))


def configure_resolver(resolver: Resolver, settings: Settings) -> None:
    from mem0lint.sdk.dialects import DIALECTS

    for name, dialect_id in settings.receivers.items():
        resolver.external[name] = DIALECTS[dialect_id]


def check_module(
    module: cst.Module,
    rules: RuleSet,
    project: ProjectLookup | None = None,
    blocks: bool = False,
    units: Union[set, None] = None,
    source: Union[str, bytes, None] = None,
) -> list[Diagnostic]:
    """Diagnostics without positions (cheap); `place` adds them. `blocks`: the module is a
    document's blocks in reading order (bind/forward.py). `units`: only the calls in these units
    (top-level statements, see `Diagnostic.unit`) are judged. `source`: as `find_sites`'s."""
    from mem0lint import sharing
    from mem0lint.bind import forward, union

    diagnostics: list[Diagnostic] = []
    sites: dict[int, CallSite] = {}  # id(diagnostic) -> its call site, for `context`
    seen: set[tuple[str, int, str]] = set()
    unions: dict[int, list[CallSite]] = {}  # a call on a union: one site per member
    found: list[tuple[CallSite, Rule, object, str]] = []
    names = sharing.NameCounts(module)
    for site in find_sites(module, rules.settings, project, blocks, source, units):
        if site.union is not None:
            unions.setdefault(id(site.call), []).append(site)
            continue
        for rule in rules.for_site(site):
            for finding in rule.check(site):
                found.append((site, rule, finding, site.dialect.id))
    for members in unions.values():
        for rule, finding, _ in union.common_findings(members, rules):
            found.append((members[0], rule, finding, union.label(members[0].union)))
    for site, rule, finding, dialect in found:
        key = (rule.code, id(finding.node), finding.message)
        if key in seen:  # a followed filter dict used by several calls
            continue
        seen.add(key)
        finding = sharing.checked(site, finding, names)
        node, fix = forward.placed(site, finding)
        judged = rules.verdicts.get((rule.code, site.dialect.id), Verdict(True))
        message = finding.message
        if judged.upgrade:
            message = f"upgrade {judged.sdk} {judged.upgrade}: {message}"
        diagnostics.append(
            Diagnostic(
                code=rule.code,
                name=rule.name,
                severity=finding.severity or rule.severity_for(site.dialect.id),
                message=message,
                dialect=dialect,
                node=node,
                fix=fix,
                unit=site.resolver.collector.call_units.get(id(site.outer or site.call)),
                sdk=judged.sdk,
                sdk_version=judged.sdk_version,
                upgrade=judged.upgrade,
            )
        )
        sites[id(diagnostics[-1])] = site
    return context.apply(module, diagnostics, sites)


def positions_of(module: cst.Module):
    """Every node's position (suppressions need the comments'): only for files with `noqa`."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


def place(
    module: cst.Module, diagnostics: list[Diagnostic], layout: Union[Layout, None] = None
) -> None:
    """Fill in 1-based row/column of every diagnostic and its fix edits.

    With the `layout` of the module's text (pruning.py), only the statements the findings' calls
    are in are generated; else (or where that fails) the module, up to the last node wanted."""
    if not diagnostics:
        return
    if layout is None:  # the language server's re-parse knows where its statements start
        from mem0lint.incremental import active_layout

        layout = active_layout(module)
    # Each finding's node, and the nodes its fix replaces: an edit replaces all of the code a
    # node generates (its parentheses too), as replacing it in the tree does (`whole`).
    wanted: dict[tuple, tuple[list[cst.CSTNode], list[cst.CSTNode]]] = {}
    for d in diagnostics:
        nodes, replaced = wanted.setdefault(d.unit or (), ([], []))
        nodes.append(d.node)
        replaced += [old for old, _ in d.fix.replacements] if d.fix is not None else []
    ranges: dict = {}
    rest: tuple[list[cst.CSTNode], list[cst.CSTNode]] = ([], [])
    for unit, (nodes, replaced) in wanted.items():
        found = None
        if unit and layout:
            found = _ranges_in_unit(module, unit, nodes, replaced, layout)
        if found is None:
            rest[0].extend(nodes)
            rest[1].extend(replaced)
        else:
            ranges.update(found)
    if rest[0] or rest[1]:
        ranges.update(node_ranges(module, *rest))  # PositionProvider would do every node

    def span(key) -> tuple[tuple[int, int], tuple[int, int]]:
        (line, column), (end_line, end_column) = ranges[key]
        return (line, column + 1), (end_line, end_column + 1)

    for diagnostic in diagnostics:
        diagnostic.start, diagnostic.end = span(id(diagnostic.node))
        if diagnostic.fix is not None:
            diagnostic.edits = []
            for old, new in diagnostic.fix.replacements:
                start, end = span(whole(old))
                content = code_in_place(module, diagnostic.unit, old, new)
                diagnostic.edits.append(Edit(content, start, end))
    diagnostics.sort(key=lambda d: (d.start, d.code))


def code_in_place(
    module: cst.Module, unit: Union[tuple, None], old: cst.CSTNode, new: cst.CSTNode
) -> str:
    """The code `new` generates where `old` is: a line it continues inside brackets is
    indented by the blocks around `old`, as in the module the fix writes (`code_for_node`
    generates it as if at the top level). `unit`: the top-level statement `old` is in."""
    code = module.code_for_node(new)
    if "\n" not in code and "\r" not in code:
        return code
    indent = _block_indent(module, unit, old)
    if not indent:
        return code
    state = CodegenState(module.default_indent, module.default_newline, indent_tokens=[indent])
    new._codegen(state)
    return "".join(state.tokens)


def _block_indent(module: cst.Module, unit: Union[tuple, None], node: cst.CSTNode) -> str:
    """The indentation of the innermost block holding `node` ("" at the top level)."""
    roots = [module.body[unit[0]]] if unit and unit[0] < len(module.body) else module.body
    stack: list[tuple[cst.CSTNode, str]] = [(root, "") for root in roots]
    while stack:
        current, indent = stack.pop()
        if current is node:
            return indent
        if isinstance(current, cst.IndentedBlock):
            indent += module.default_indent if current.indent is None else current.indent
        stack.extend((child, indent) for child in children(current))
    return ""


def _ranges_in_unit(
    module: cst.Module,
    unit: tuple,
    nodes: list[cst.CSTNode],
    replaced: list[cst.CSTNode],
    layout: Layout,
) -> Union[dict, None]:
    """Ranges of `nodes` (and whole ranges of `replaced`) from generating the top-level
    statement (or the member of a top-level class) `unit` alone; None when the layout does not
    fit the module or a node is elsewhere."""
    top, member = unit
    if len(layout.starts) != len(module.body):
        return None
    statement: cst.CSTNode = module.body[top]
    first_row, indent = layout.starts[top], None
    member_rows = layout.members.get(top)
    if member is not None and member_rows is not None and isinstance(statement, cst.ClassDef):
        block = statement.body
        if isinstance(block, cst.IndentedBlock) and len(block.body) == len(member_rows):
            statement, first_row = block.body[member], member_rows[member]
            indent = module.default_indent if block.indent is None else block.indent
    # The generated text starts with the statement's own comment and empty lines.
    leading = len(getattr(statement, "leading_lines", ()))
    decorators = getattr(statement, "decorators", ())
    if decorators:
        leading += len(decorators[0].leading_lines)
    row = first_row - leading
    offsets = layout.row_offsets()
    if not 0 < row <= len(offsets):
        return None
    from mem0lint.memo import statement_result

    # Relative to the statement's first row: the language server keeps them while the statement
    # object is unchanged (memo.py; its text then is too, and only its row moves).
    wanted = ("ranges", frozenset(map(id, nodes)), frozenset(map(id, replaced)))
    relative = statement_result(
        wanted,
        statement,
        lambda s: ranges_within(
            module, s, nodes, replaced, 1, indent, layout.text, offsets[row - 1]
        ),
    )
    if relative is None:
        return None
    return {
        key: ((start[0] + row - 1, start[1]), (end[0] + row - 1, end[1]))
        for key, (start, end) in relative.items()
    }


# Which findings a caller is responsible for: a Markdown block linted after the earlier blocks
# keeps only the findings inside itself. Called with the module the diagnostics belong to.
Keep = Callable[[cst.Module, Diagnostic], bool]


def lint(
    module: cst.Module,
    rules: RuleSet,
    *,
    keep: Union[Keep, None] = None,
    project: Union[ProjectLookup, None] = None,
    source: Union[str, bytes, None] = None,
    layout: Union[Layout, None] = None,
    blocks: bool = False,
    target: fixcheck.Target = fixcheck.DEFAULT_TARGET,
    find_layout: bool = False,
) -> list[Diagnostic]:
    """`project`: what the rest of the project defines, as this file sees it; None judges the
    file alone. `source`: the module's text, when the caller has it (generating it costs as much
    as parsing). `layout`: where its statements start (see `place`). `blocks`: the module is a
    document's regions in reading order. `target`: the oldest Python of the project (a fix in
    an f-string is shown as `fix` writes it for that Python). `find_layout`: with findings and
    no `layout`, have Python's parser find it in `source` (`pruning.layout_of`): a check of a
    text that was not pruned (a test file, a page's blocks), where findings are few, so that
    only their statements are generated (the fix loop generates whole modules: measured on
    dense files, a layout for each round cost more than it saved)."""
    diagnostics = check_module(module, rules, project, blocks, source=source)
    text = module.code if source is None else source
    # Comments matter only with findings to silence, or a `noqa` naming a mem0lint code
    # (MEM901/MEM902 judge only those): else the scan and every node's position are skipped.
    noqa = suppressions.mentions_noqa(text) and (
        bool(diagnostics) or suppressions.names_own_code(text)
    )
    if not diagnostics and not noqa:
        return diagnostics
    lone = _LONE_BACKSLASH_BYTES if isinstance(source, bytes) else _LONE_BACKSLASH
    lone_backslash = source is not None and lone.search(source) is not None
    # With a lone `\` line every position comes from the generated code, then moves to the
    # source's rows (`to_source_rows`); a layout's statement-by-statement ranges would mix both.
    _with_comments_kept(diagnostics)
    if layout is None and find_layout and source is not None and not lone_backslash:
        from mem0lint.incremental import active_layout

        layout = active_layout(module) or layout_of(source)  # the language server's, if any
    place(module, diagnostics, None if lone_backslash else layout)
    if any(applicable(d, False) for d in diagnostics):
        from mem0lint import fixvet

        spelled = _spelled_after_fixes(source, diagnostics)
        fixvet.vet(
            module,
            diagnostics,
            rules,
            lambda m, u: check_module(m, rules, project, blocks, u, spelled),
        )
    _in_fstrings_as_fix_writes(module, diagnostics, text, target)
    if noqa:
        settings = rules.settings
        diagnostics = suppressions.apply(
            module,
            diagnostics,
            positions_of(module),
            settings.enabled,
            settings.respect_bare_noqa,
            rules.version_skipped,
        )
    if keep is not None:
        diagnostics = [d for d in diagnostics if keep(module, d)]
    if lone_backslash:  # (`layout.text`: what was parsed, when it was pruned)
        to_source_rows(module, source if layout is None else layout.text, diagnostics)
    return diagnostics


def _in_fstrings_as_fix_writes(
    module: cst.Module, diagnostics: list[Diagnostic], before: Union[str, bytes], target
) -> None:
    """A fix that writes a string inside an f-string is shown as `fix` writes it for `target`:
    in the other quote where that is what compiling needs (before Python 3.12 a string cannot
    reuse the f-string's quote), or not offered where neither compiles (`_compiles_alone`'s
    choice, judged on the f-strings the fix writes in). Safe fixes were vetted with the running
    Python's parser, which may be newer."""
    writes_quotes = [
        d
        for d in diagnostics
        if d.fix is not None and any("'" in e.content or '"' in e.content for e in d.edits)
    ]
    text = before.decode("utf-8", "replace") if isinstance(before, bytes) else before
    if not writes_quotes or not fixcheck.FSTRING_PREFIX.search(text):
        return
    scanned: dict = {}  # a top-level statement's index (None: all) -> ({id: f-string}, ids)
    done: set[int] = set()
    for d in writes_quotes:
        fix = d.fix
        outers = _fstrings_around(module, d.unit, fix, scanned)
        if id(fix) in done or not outers:
            continue
        done.add(id(fix))
        written = next(
            (
                replacements
                for replacements in (
                    fix.replacements,
                    fixcheck.requoted(fix.replacements, "'"),
                    fixcheck.requoted(fix.replacements, '"'),
                )
                if all(fixcheck.fstring_fix_compiles(o, replacements, target) for o in outers)
            ),
            None,
        )
        if written is not fix.replacements:
            refix(module, diagnostics, fix, written)


def refix(
    module: cst.Module, diagnostics: list[Diagnostic], fix, replacements: Union[tuple, None]
) -> None:
    """Every finding that shares `fix` (MEM101 gives one per keyword) gets one fix with
    `replacements` instead, its edits written again (None: no fix)."""
    new = None if replacements is None else dataclasses.replace(fix, replacements=replacements)
    for d in diagnostics:
        if d.fix is fix:
            d.fix = new
            d.edits = [
                dataclasses.replace(edit, content=code_in_place(module, d.unit, old, written))
                for edit, (old, written) in zip(d.edits, replacements or ())
            ]


def _fstrings_around(
    module: cst.Module, unit: Union[tuple, None], fix, scanned: dict
) -> list[cst.FormattedString]:
    """The outermost f-strings holding a node the fix replaces. Looked for in the statement of
    the finding's call first, then (MEM130 replaces where the result is used) in the module."""
    wanted = {id(old) for old, _ in fix.replacements}
    for key in ([unit[0]] if unit and unit[0] < len(module.body) else []) + [None]:
        if key not in scanned:
            scanned[key] = _under_fstrings(module.body if key is None else [module.body[key]])
        outer_of, seen = scanned[key]
        outers = {id(outer_of[i]): outer_of[i] for i in wanted if i in outer_of}
        if outers or wanted <= seen:
            return list(outers.values())
    return []


def _under_fstrings(roots) -> tuple[dict[int, cst.FormattedString], set[int]]:
    """For the nodes under `roots` inside an f-string's expressions, the outermost f-string;
    and the ids of all."""
    outer_of: dict[int, cst.FormattedString] = {}
    seen: set[int] = set()
    stack: list[tuple[cst.CSTNode, Union[cst.FormattedString, None]]] = [(r, None) for r in roots]
    while stack:
        node, outer = stack.pop()
        seen.add(id(node))
        if outer is not None:
            outer_of[id(node)] = outer
        elif type(node) is cst.FormattedString:
            outer = node
        stack.extend((child, outer) for child in children(node))
    return outer_of, seen


def _spelled_after_fixes(
    source: Union[str, bytes, None], diagnostics: list[Diagnostic]
) -> Union[str, None]:
    """A text holding every name a fixed module can spell: the source, and the code each fix
    writes (a fixed module is the source's nodes with some of them replaced). Checks that ask
    whether the module spells a word (rules/surface/awaits.py) then need not walk it."""
    if source is None:
        return None
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    written = [edit.content for d in diagnostics for edit in d.edits or ()]
    return "\n".join([text, *written])


# A line holding only `\` (libcst drops it when it generates the module's code, positions too).
_LONE_BACKSLASH = re.compile(r"^[ \t\f]*\\\r?$", re.MULTILINE)
_LONE_BACKSLASH_BYTES = re.compile(_LONE_BACKSLASH.pattern.encode(), re.MULTILINE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # Python's line ends, and no others


def to_source_rows(
    module: cst.Module, source: Union[str, bytes], diagnostics: list[Diagnostic]
) -> None:
    """Positions come from the module's generated code, which lacks the lines libcst dropped
    (see `lost_row`): move each row to the row of `source` it is. Columns do not change."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    generated = _LINE_BREAK.split(module.code)
    lines = _LINE_BREAK.split(text)
    rows: dict[int, int] = {}
    at = 0
    for index, line in enumerate(generated):
        while at < len(lines) and lines[at] != line:
            at += 1  # a line of the source that the generated code lacks
        if at == len(lines):
            return  # not only dropped lines: leave the positions as they are
        rows[index + 1] = at + 1
        at += 1

    def moved(position: tuple) -> tuple:
        return (rows.get(position[0], position[0]), *position[1:])

    for diagnostic in diagnostics:
        diagnostic.start, diagnostic.end = moved(diagnostic.start), moved(diagnostic.end)
        diagnostic.edits = [
            dataclasses.replace(
                edit, location=moved(edit.location), end_location=moved(edit.end_location)
            )
            for edit in diagnostic.edits
        ]


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
    code: Union[str, None] = None  # the fixed text; None when nothing changed
    note: Union[str, None] = None  # why nothing was fixed, when the file itself is the reason


def fix(
    module: cst.Module,
    rules: RuleSet,
    *,
    keep: Union[Keep, None] = None,
    project: Union[ProjectLookup, None] = None,
    source: Union[str, bytes, None] = None,
    blocks: bool = False,
    target: fixcheck.Target = fixcheck.DEFAULT_TARGET,
) -> FixResult:
    """Apply fixes, re-parse, re-check, until nothing applies (bounded).

    A fix that would lose a comment (`lint` offers none), or leave code that does not compile
    for `target` (the oldest Python of the project), is not applied: its finding stays
    reported, without a fix."""
    unsafe = rules.settings.unsafe_fixes
    applied = 0
    code = None
    refused: set[tuple] = set()
    for _ in range(MAX_FIX_ROUNDS):
        text = source if code is None else code
        diagnostics = lint(
            module, rules, keep=keep, project=project, source=text, blocks=blocks, target=target
        )
        picked: list[Diagnostic] = []
        taken: list[tuple] = []
        for diagnostic in diagnostics:
            if not applicable(diagnostic, unsafe) or _fix_key(diagnostic) in refused:
                continue
            spans = [(e.location, e.end_location) for e in diagnostic.edits]
            if any(_overlaps(s, t) for s in spans for t in taken):
                continue  # the next round sees the re-parsed code
            taken.extend(spans)
            picked.append(diagnostic)
        if not picked:
            return FixResult(module, applied, _without_refused(diagnostics, refused), code)
        before = module.code if text is None else text
        lost = lost_row(module, before) if code is None else None
        if lost is not None:  # the fixed file would lose that text too: fix nothing
            refused.update(_fix_key(d) for d in diagnostics if d.fix is not None)
            return FixResult(
                module, applied, _without_refused(diagnostics, refused), None, rewrites(lost)
            )
        fixed = _apply(module, picked, before)
        if not fixcheck.still_compiles(module, before, fixed[1], fixed[0], target):
            alone = [d for d in picked if _compiles_alone(module, before, d, target) is not None]
            refused.update(_fix_key(d) for d in picked if d not in alone)
            fixed = _apply(module, alone, before) if alone else None
            if fixed is None or not fixcheck.still_compiles(
                module, before, fixed[1], fixed[0], target
            ):
                refused.update(_fix_key(d) for d in alone)
                continue
            picked = alone
        applied += len(picked)
        code, module = fixed
    left = lint(
        module, rules, keep=keep, project=project, source=code, blocks=blocks, target=target
    )
    return FixResult(module, applied, _without_refused(left, refused), code)


def lost_row(module: cst.Module, source: Union[str, bytes]) -> Union[int, None]:
    """The first row of `source` that libcst does not write back as it was (1-based), or None
    when `module.code` is `source`. libcst drops a line holding only `\\` before a statement
    (`x = 1\n\\\ny = 2\n` comes back as `x = 1\ny = 2\n`), so a file rewritten from its
    module (a fix, `--add-noqa`) would lose that line with the fix."""
    if isinstance(source, bytes):
        # Compare bytes in the file's own encoding (a `latin-1` cookie, a BOM: `module.bytes`
        # writes both back), not a UTF-8 decoding of them.
        code, text = module.bytes, source
        newline: Union[str, bytes] = b"\n"
        final_cr = text.endswith(b"\r")
    else:
        code, text, newline, final_cr = module.code, source, "\n", source.endswith("\r")
    if code == text or (final_cr and code == text[:-1]):
        return None  # (a CR-only file's last `\r`: `_apply` puts it back)
    at = next((i for i, (a, b) in enumerate(zip(code, text)) if a != b), min(len(code), len(text)))
    return text.count(newline, 0, at) + 1


def rewrites(row: int) -> str:
    return (
        f"not fixed: libcst would not write line {row} back as it is (a line holding only "
        "`\\`?), so rewriting the file would change it beyond the fixes"
    )


def _keeps_comments(diagnostic: Diagnostic) -> bool:
    """Does the fix carry every comment of what it replaces (put back where it lost one)?"""
    fix = diagnostic.fix
    if fixcheck.keeps_comments(fix.replacements):
        return True
    from mem0lint.comments import put_back

    replacements = put_back(fix.replacements)
    if replacements is None or not fixcheck.keeps_comments(replacements):
        return False
    diagnostic.fix = dataclasses.replace(fix, replacements=replacements)
    return True


def _with_comments_kept(diagnostics: list[Diagnostic]) -> None:
    """The fix every output shows is the one `fix` applies: the comments it lost put back, and
    no fix where one cannot be (a comment is never dropped). Before `place` writes the edits."""
    for diagnostic in diagnostics:
        if diagnostic.fix is not None and not _keeps_comments(diagnostic):
            diagnostic.fix = None


def _fix_key(diagnostic: Diagnostic) -> tuple:
    """The same fix in every round (positions move as other fixes apply)."""
    return (
        diagnostic.code,
        diagnostic.message,
        tuple(edit.content for edit in diagnostic.edits),
    )


def _apply(
    module: cst.Module, picked: list[Diagnostic], before: Union[str, bytes, None] = None
) -> tuple[str, cst.Module]:
    """The fixed code and module. `before`: the text `module` was parsed from."""
    chosen: dict[int, cst.CSTNode] = {}
    for diagnostic in picked:
        for old, new in diagnostic.fix.replacements:
            chosen[id(old)] = new
    tops = {d.unit[0] for d in picked if d.unit}
    fixed = replaced_in(module, chosen, tops)[0]
    final_cr = before is not None and before[-1:] in ("\r", b"\r")
    if final_cr and not fixed.has_trailing_newline:
        # libcst reads the last `\r` of a CR-only file as no final newline and drops it.
        fixed = fixed.with_changes(has_trailing_newline=True)
    code = fixed.code
    again = parse_again(code, module)
    if code.endswith("\r") and not again.has_trailing_newline:
        again = again.with_changes(has_trailing_newline=True)
    return code, again


def _compiles_alone(
    module: cst.Module, before: Union[str, bytes], diagnostic: Diagnostic, target: tuple
) -> Union[Diagnostic, None]:
    """The diagnostic, its fix written in the other quote if that is what compiling needs (an
    f-string around the call); None if neither compiles."""
    fix = diagnostic.fix
    for replacements in (
        fix.replacements,
        fixcheck.requoted(fix.replacements, "'"),
        fixcheck.requoted(fix.replacements, '"'),
    ):
        diagnostic.fix = dataclasses.replace(fix, replacements=replacements)
        code, fixed = _apply(module, [diagnostic], before)
        if fixcheck.still_compiles(module, before, fixed, code, target):
            return diagnostic
    diagnostic.fix = fix
    return None


def _without_refused(diagnostics: list[Diagnostic], refused: set[tuple]) -> list[Diagnostic]:
    """A refused fix is not offered: its finding is reported as not fixable."""
    for diagnostic in diagnostics:
        if diagnostic.fix is not None and _fix_key(diagnostic) in refused:
            diagnostic.fix, diagnostic.edits = None, []
    return diagnostics


def parse_again(code: str, like: cst.Module) -> cst.Module:
    """Re-parse fixed code: a fix that yields code which does not parse is a bug, not output."""
    return cst.parse_module(code, config=like.config_for_parsing)
