"""Does a rule apply to a call, given the SDK version its file is judged by?

`Settings.sdks` holds, per SDK package, (package, distribution, judged version, pinned version);
see versions.py. Empty (a file whose versions were not resolved, as in the engine's own tests):
every SDK is judged as its newest known release. A rule's `versions` ({distribution: PEP 440
specifier set}) says which releases it applies to; none: every release.

Upgrade mode: when a target version is configured above what the project installs, a rule that
applies at the target but not at the pinned release reports what breaks on the upgrade.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterable, Union

from packaging.version import Version

from mem0lint.sdk.releases import DISPLAY, PACKAGES, RELEASES

# The SDK package each dialect's code imports.
DIALECT_PACKAGE = {"mem0-platform": "mem0", "mem0-oss": "mem0", "memsy": "memsy", "memos": "memos"}


def installing(dialect: str, release: Union[str, None]) -> tuple[tuple[str, str, str, str], ...]:
    """`Settings.sdks` for a project whose code is in `dialect` and that installs `release` of
    its SDK (None: nothing said, the newest)."""
    if release is None:
        return ()
    package = DIALECT_PACKAGE[dialect]
    return ((package, PACKAGES[package], release, ""),)


@dataclass(frozen=True)
class Verdict:
    applies: bool
    sdk: Union[str, None] = None  # the distribution, as PyPI spells it
    sdk_version: Union[str, None] = None
    upgrade: str = ""  # "1.0.3 -> 2.2.0" when the finding is what breaks on the upgrade


def _nearest(distribution: str, version: str) -> str:
    from mem0lint.versions import nearest_known

    return nearest_known(distribution, version)[0]


def _canonical(versions: dict[str, str]) -> dict[str, str]:
    from packaging.utils import canonicalize_name

    return {canonicalize_name(name): specifier for name, specifier in versions.items()}


def verdict(
    versions: dict[str, str], dialect: str, sdks: Iterable[tuple[str, str, str, str]]
) -> Verdict:
    return _verdict(tuple(sorted(versions.items())), dialect, tuple(sdks))


@functools.lru_cache(maxsize=4096)
def _verdict(
    ranges: tuple[tuple[str, str], ...], dialect: str, sdks: tuple[tuple[str, str, str, str], ...]
) -> Verdict:
    versions = dict(ranges)
    package = DIALECT_PACKAGE.get(dialect)
    if package is None:  # not an SDK's calls (raw HTTP): no version to judge by
        return Verdict(True)
    distribution, version, pinned = PACKAGES[package], "", ""
    found = False
    for entry_package, entry_distribution, entry_version, entry_pinned in sdks:
        if entry_package == package:
            distribution, version, pinned, found = (
                entry_distribution,
                entry_version,
                entry_pinned,
                True,
            )
    if not found:
        version = RELEASES[distribution][-1]
    name = DISPLAY.get(distribution, distribution)
    if not version:  # a fork or unknown provider, not configured
        return Verdict(False, name)
    specifier = _canonical(versions).get(distribution)
    if specifier is None:
        return Verdict(True, name, version)
    from mem0lint.versions import in_range

    if not in_range(specifier, version):
        return Verdict(False, name, version)
    older = bool(pinned) and Version(pinned) < Version(version)
    if older and not in_range(specifier, _nearest(distribution, pinned)):
        return Verdict(True, name, version, f"{pinned} -> {version}")
    return Verdict(True, name, version)
