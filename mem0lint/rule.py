"""What a rule is: one small class with its code, message, docs, examples and check.

Modelled on Fixit's rules and Ruff's rule docs: everything a reader (or `--explain`, the README
table, the parametrised tests) needs about a rule sits in its class.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterator, Union

# The findings' vocabulary lives in results.py; re-exported here for the rule modules.
from mem0lint.results import Applicability, Diagnostic, Fix, Severity  # noqa: F401

if TYPE_CHECKING:  # annotations only: reporting findings must not import libcst
    import libcst as cst

    from mem0lint.callsite import CallSite


@dataclass
class Finding:
    """What a rule reports: where (a CST node), what, and optionally how to fix it."""

    node: cst.CSTNode
    message: str
    fix: Fix | None = None
    severity: Severity | None = None  # None: the rule's severity for the dialect


# The receiver each dialect's examples use; its set-up is prepended to every example.
PREAMBLES = {
    "mem0-platform": "from mem0 import MemoryClient\n\nclient = MemoryClient()\n",
    "mem0-oss": "from mem0 import Memory\n\nmemory = Memory()\n",
    "memsy": (
        "from memsy import MemsyClient\n\n"
        'client = MemsyClient(base_url="https://memsy.example", api_key="key")\n'
    ),
    "memos": 'from memos.api.client import MemOSClient\n\nclient = MemOSClient(api_key="key")\n',
}


@dataclass(frozen=True)
class Example:
    """A bad call, the same call written right, and what `--fix` makes of the bad one.

    `fixed` is None when the rule offers no fix for this example. With `unsafe=True` the fix is
    applied only with `--unsafe-fixes`. Snippets without an import get the dialect's preamble.
    `release`: the SDK release the example is judged at (a rule of old releases only: its good
    call may be wrong today; `sdk.applies.installing` gives the settings); None: the newest.
    """

    dialect: str
    bad: str
    good: str
    fixed: Union[str, None] = None
    unsafe: bool = False
    release: Union[str, None] = None

    def program(self, snippet: str) -> str:
        snippet = textwrap.dedent(snippet).strip("\n") + "\n"
        if "import " in snippet:
            return snippet
        return PREAMBLES[self.dialect] + snippet

    @staticmethod
    def strip_preamble(dialect: str, program: str) -> str:
        preamble = PREAMBLES[dialect]
        return program[len(preamble) :] if program.startswith(preamble) else program


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    dialects: ClassVar[frozenset[str]]
    # Methods the rule looks at (CallSite.method values); None: every call site of the dialect.
    methods: ClassVar[Union[frozenset[str], None]] = None
    severity: ClassVar[Union[Severity, dict[str, Severity]]]
    summary: ClassVar[str]  # what it checks, one line
    why: ClassVar[str]  # why it matters
    fix_safety: ClassVar[str] = "none"  # "safe", "unsafe", or a sentence
    examples: ClassVar[list[Example]] = []
    # The SDK releases the rule applies to: {distribution: PEP 440 specifier set}, e.g.
    # {"mem0ai": ">=2.0.0"}; a distribution not named: every release (see mem0lint/sdk/).
    versions: ClassVar[dict[str, str]] = {}
    claims_keywords: ClassVar[frozenset[str]] = frozenset()  # call keywords the rule explains
    claims_keys: ClassVar[frozenset[str]] = frozenset()  # filter-dict keys the rule explains
    renames: ClassVar[dict[str, str]] = {}  # old -> new spelling the rule's fix writes
    # Off by default: runs only when `select` / `extend-select` names its full code
    # (`codes.OPT_IN` holds the same codes, so settings are resolved without importing rules).
    opt_in: ClassVar[bool] = False
    # Also sees calls of names no dialect lists (`client.extract(...)`: callsite.py makes them
    # only on a receiver that is one client for sure); `methods` must then be None.
    any_method: ClassVar[bool] = False
    # Set for each rule class: its `applies_to` refuses more than its dialects and methods.
    narrows: ClassVar[bool] = False
    registry: ClassVar[dict[str, type[Rule]]] = {}

    def __init__(self) -> None:
        # The SDK release each dialect's calls are judged by (`Verdict.sdk_version`, filled by
        # engine.RuleSet from the settings; None or absent: not known, the newest release).
        self.releases: dict[str, Union[str, None]] = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.narrows = cls.applies_to is not Rule.applies_to
        if "code" in cls.__dict__:
            if cls.code in Rule.registry:
                raise ValueError(f"duplicate rule code {cls.code}")
            Rule.registry[cls.code] = cls

    @classmethod
    def fix_kinds(cls) -> tuple[Applicability, ...]:
        """The kinds of fix the rule offers, as its examples show them: every kind a rule offers
        has an example (the examples are tested), so none is claimed in prose alone."""
        kinds = {
            Applicability.UNSAFE if example.unsafe else Applicability.SAFE
            for example in cls.examples
            if example.fixed is not None
        }
        return tuple(kind for kind in Applicability if kind in kinds)

    def severity_for(self, dialect: str) -> Severity:
        if isinstance(self.severity, dict):
            return self.severity[dialect]
        return self.severity

    def applies_to(self, site: CallSite) -> bool:
        return site.dialect.id in self.dialects and (
            self.methods is None or site.method in self.methods
        )

    def check(self, site: CallSite) -> Iterator[Finding]:
        raise NotImplementedError
