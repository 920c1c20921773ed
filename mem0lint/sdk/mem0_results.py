"""What open source `Memory` / `AsyncMemory` `search()` and `get_all()` return, per release.

Read in every wheel from 0.1.0 to 1.0.11 (and 2.0.0), and run on each boundary release (0.1.0,
0.1.11, 0.1.12, 0.1.29, 0.1.58, 0.1.59, 0.1.88, 0.1.89, 0.1.113, 0.1.118, 1.0.0) with the models
and store stubbed (tests/test_result_shapes_before_1_0.py). The shape hangs on
`MemoryConfig.version` (mem0/configs/base.py), which `Memory.__init__` copies into
`self.version` / `self.api_version`; `Memory()` builds `MemoryConfig()` and
`Memory.from_config(config_dict)` builds `MemoryConfig(**config_dict)`.

- 0.1.0-0.1.11: `version` defaults to "v1.0" (0.1.0 configs/base.py:54-57); get_all/search
  return the list unless `version == "v1.1"`, then `{"memories": [...]}` (0.1.0
  memory/main.py:282-296, :375): a dict, but not under `"results"`.
- 0.1.12-0.1.58: default "v1.0" (0.1.12 configs/base.py:57, 0.1.58 :49); `version == "v1.1"`
  gives `{"results": [...]}` (+ "relations" with a graph), anything else the list (0.1.12
  memory/main.py:293, :383; 0.1.58 :340, :434).
- 0.1.59-0.1.118: default "v1.1" (0.1.59 configs/base.py:49, 0.1.89-0.1.118 :52); the list only
  when `version == "v1.0"` and no graph store, else `{"results": [...]}` (0.1.59
  memory/main.py:339-352, :431-444; 0.1.102 :549-561 and :652-664; 0.1.113 :558-570 and
  :673-685; 0.1.118 :593, :708; AsyncMemory, 0.1.89 on, the same: 0.1.118 :1462, :1580). From
  0.1.100 `search()` returns the dict under "v1.0" too (0.1.100 memory/main.py:658-667).
- 1.0.0 on: always `{"results": [...]}` (MEM130's own range).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from packaging.version import Version

from mem0lint.sdk.releases import OSS_RESULTS_CONFIG, OSS_RESULTS_DEFAULT, V1

OSS_SEARCH_ALWAYS_RESULTS = "0.1.100"

# What a config says of `version`: its literal value, or DEFAULT (no `version` given).
DEFAULT = ""


@dataclass(frozen=True)
class ResultShapes:
    """One run of releases with the same rule for the shape of a `search()` / `get_all()`."""

    first: str  # the first release of the run
    default_version: str  # `MemoryConfig.version`'s default
    # The `version` values with which both methods return `{"results": [...]}` whatever else the
    # config holds (a graph store only adds "relations"); any other value: not known to be that.
    results_dict: frozenset[str]
    # `search()` returns `{"results": [...]}` whatever the config (0.1.100 on).
    search_always: bool = False


# Oldest first; each run lasts until the next one's first release (1.0.0: MEM130's own range).
OSS_RESULT_SHAPES: tuple[ResultShapes, ...] = (
    ResultShapes("0.1.0", "v1.0", frozenset()),  # "v1.1": {"memories": [...]}
    ResultShapes(OSS_RESULTS_CONFIG, "v1.0", frozenset({"v1.1"})),
    ResultShapes(OSS_RESULTS_DEFAULT, "v1.1", frozenset({"v1.1"})),
    # 0.1.100 memory/main.py:658-668: search()'s "v1.0" branch returns the dict too (0.1.99
    # :521-531 returned the list); get_all() keeps the list (0.1.102 :552-560).
    ResultShapes(OSS_SEARCH_ALWAYS_RESULTS, "v1.1", frozenset({"v1.1"}), search_always=True),
)
# The first release whose results are the dict whatever the config says.
ALWAYS_RESULTS_DICT = V1
# The first release where a config can make the result `{"results": [...]}`.
FIRST_RESULTS_DICT = OSS_RESULTS_CONFIG


def _run(release: str) -> ResultShapes:
    found = OSS_RESULT_SHAPES[0]
    for shapes in OSS_RESULT_SHAPES:
        if Version(release) >= Version(shapes.first):
            found = shapes
    return found


def always_results_dict(release: str) -> bool:
    """From 1.0.0 both methods return `{"results": [...]}` whatever the config."""
    return Version(release) >= Version(ALWAYS_RESULTS_DICT)


def results_dict(release: Union[str, None], version: Union[str, None], method: str) -> bool:
    """Does open source `method` (`search` or `get_all`) return `{"results": [...]}` on
    `release` (None: the newest) for a client whose config's `version` is `version` (DEFAULT:
    not given; None: not known)? False when it may be the list, or another dict."""
    if release is None or always_results_dict(release):
        return True
    shapes = _run(release)
    if method == "search" and shapes.search_always:
        return True
    if version is None:
        return False
    return (shapes.default_version if version == DEFAULT else version) in shapes.results_dict


# Up to this release (not included) the list does not hang on a graph store: from 0.1.59 it
# comes only with `"version": "v1.0"` and no graph store (0.1.59 memory/main.py:339-352), which
# a config read for its `version` alone does not tell.
LIST_WITHOUT_GRAPH_UNTIL = OSS_RESULTS_DEFAULT


def results_list(release: Union[str, None], version: Union[str, None]) -> bool:
    """Do open source `search()` and `get_all()` return the plain list of memories on `release`
    for a client whose config's `version` is `version` (DEFAULT: not given; None: not known)?
    True only when that is certain: up to 0.1.58, any `version` but "v1.1" (0.1.0 and 0.1.12
    memory/main.py: the list unless `api_version == "v1.1"`). From 0.1.59 never said."""
    if release is None or version is None:
        return False
    if Version(release) >= Version(LIST_WITHOUT_GRAPH_UNTIL):
        return False
    said = _run(release).default_version if version == DEFAULT else version
    return said != "v1.1"
