"""Configuration: `[tool.mem0lint]` in the nearest pyproject.toml above a file, or `--config`.

Every setting remembers where it came from (the default, a config file's key, a command-line
option) so `mem0lint --show-settings PATH` can say why a file is linted the way it is. A key
that is not known or a value of the wrong shape is a `ConfigError` naming the file and the key.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Union

from mem0lint.documents import FILE_TYPES
from mem0lint.settings import Settings

if TYPE_CHECKING:  # imported when first needed: 15 ms a run otherwise
    import pathspec


def _tomllib():
    """The TOML parser, imported when a configuration is read."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.9 and 3.10
        import tomli as tomllib
    return tomllib


OUTPUT_FORMATS = ("text", "concise", "json", "json-lines", "github", "sarif")
DEFAULT = "default"
_DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")


class ConfigError(Exception):
    """A configuration file or value mem0lint cannot use; the message names file and key."""


def _known_code(code: str) -> bool:
    from mem0lint.codes import is_known

    return is_known(code)


def _codes(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of rule codes, got {value!r}")
    codes = tuple(v.strip().upper() for v in value)
    for code in codes:
        if not _known_code(code):
            raise ConfigError(f"{where}: no rule code starts with {code!r}")
    return codes


def _patterns(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of glob patterns, got {value!r}")
    return tuple(value)


def _boolean(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    return value


def _output_format(where: str, value: Any) -> str:
    if value not in OUTPUT_FORMATS:
        raise ConfigError(f"{where}: expected one of {', '.join(OUTPUT_FORMATS)}, got {value!r}")
    return value


def _file_types(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or any(v not in FILE_TYPES for v in value):
        raise ConfigError(f"{where}: expected a list of {', '.join(FILE_TYPES)}, got {value!r}")
    return tuple(value)


def _per_file_ignores(where: str, value: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table of pattern = [codes], got {value!r}")
    return {pattern: _codes(f"{where}.{pattern!r}", codes) for pattern, codes in value.items()}


def _receivers(where: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table of name = dialect, got {value!r}")
    for name, dialect in value.items():
        if not _DOTTED_NAME.match(name):
            raise ConfigError(f"{where}: {name!r} is not a name or dotted name")
        from mem0lint.sdk.dialects import DIALECTS  # the SDK tables: only for a `receivers` table

        if dialect not in DIALECTS:
            known = ", ".join(sorted(DIALECTS))
            raise ConfigError(f"{where}.{name}: expected one of {known}, got {dialect!r}")
    return dict(value)


def _target_versions(where: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table of distribution = version, got {value!r}")
    from mem0lint.versions import check_target

    targets: dict[str, str] = {}
    for name, version in value.items():
        if not isinstance(version, str):
            raise ConfigError(f"{where}.{name}: expected a version string, got {version!r}")
        try:
            targets.update(check_target(name, version, f"{where}.{name}"))
        except ValueError as error:
            raise ConfigError(str(error)) from None
    return targets


# Every key `[tool.mem0lint]` accepts, with the function that checks and normalises its value.
KEYS: dict[str, Callable[[str, Any], Any]] = {
    "select": _codes,
    "ignore": _codes,
    "extend-select": _codes,
    "per-file-ignores": _per_file_ignores,
    "exclude": _patterns,
    "extend-exclude": _patterns,
    "unsafe-fixes": _boolean,
    "output-format": _output_format,
    "receivers": _receivers,
    "respect-bare-noqa": _boolean,
    "file-types": _file_types,
    "target-versions": _target_versions,
}


@dataclass
class Config:
    """One configuration file's `[tool.mem0lint]`, checked."""

    path: Path
    values: dict[str, Any]

    @property
    def root(self) -> Path:
        return self.path.parent


def read(path: Path) -> Union[Config, None]:
    """The mem0lint table of a TOML file (None for a pyproject.toml without one).

    In `pyproject.toml` it is `[tool.mem0lint]`; any other file given to `--config` may hold
    the keys at top level (like `ruff.toml`) or under `[tool.mem0lint]`.
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    if path.name == "pyproject.toml" and b"mem0lint" not in data:
        return None  # another tool's file: not parsed (nor is tomllib imported)
    tomllib = _tomllib()
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    table = document.get("tool", {}).get("mem0lint")
    prefix = "[tool.mem0lint]"
    if table is None:
        if path.name == "pyproject.toml":
            return None
        table, prefix = document, ""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {prefix or 'the file'} must be a table")
    values = {}
    for key, value in table.items():
        where = f"{path}: {prefix + ' ' if prefix else ''}{key}"
        check = KEYS.get(key)
        if check is None:
            known = ", ".join(KEYS)
            raise ConfigError(f"{where}: unknown key (known keys: {known})")
        values[key] = check(where, value)
    return Config(path.absolute(), values)


class Finder:
    """The configuration for each file: `--config` if given, else the nearest pyproject.toml
    with a `[tool.mem0lint]` table in the file's folder or above it."""

    def __init__(self, explicit: Union[Path, None] = None) -> None:
        self.explicit = read(explicit) if explicit is not None else None
        if explicit is not None and self.explicit is None:
            raise ConfigError(f"{explicit}: has no [tool.mem0lint] table")
        # Absolute folder (a string: pathlib is slow for thousands of folders) -> its config.
        self._by_folder: dict[str, Union[Config, None]] = {}

    def for_path(self, path: Path) -> Union[Config, None]:
        if self.explicit is not None:
            return self.explicit
        absolute = os.path.abspath(path)
        return self._for_folder(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))

    def for_file(self, path: Path) -> Union[Config, None]:
        """`for_path` for a path known to be a file: no stat."""
        if self.explicit is not None:
            return self.explicit
        folder = os.path.dirname(path)
        found = self._by_folder.get(folder, self)
        if found is self:
            found = self._by_folder[folder] = self._for_folder(os.path.abspath(folder or "."))
        return found  # type: ignore[return-value]

    def _for_folder(self, folder: str) -> Union[Config, None]:
        found = self._by_folder.get(folder, self)
        if found is self:
            found = None
            candidate = os.path.join(folder, "pyproject.toml")
            if os.path.isfile(candidate):
                found = read(Path(candidate))
            parent = os.path.dirname(folder)
            if found is None and parent != folder:
                found = self._for_folder(parent)
            self._by_folder[folder] = found
        return found  # type: ignore[return-value]


@dataclass
class CommandLine:
    """Settings given on the command line; None/empty: not given."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    output_format: Union[str, None] = None
    file_types: tuple[str, ...] = ()
    target_versions: dict[str, str] = field(default_factory=dict)  # --target-version


@dataclass
class Resolved:
    """The settings for one file, and where each came from."""

    config: Union[Config, None]
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[str, ...] = ()  # the codes that apply to this file
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    output_format: str = "text"
    receivers: dict[str, str] = field(default_factory=dict)
    respect_bare_noqa: bool = False
    file_types: tuple[str, ...] = FILE_TYPES
    target_versions: dict[str, str] = field(default_factory=dict)  # distribution -> version
    origins: dict[str, str] = field(default_factory=dict)

    def engine_settings(self) -> Settings:
        select = () if "ALL" in self.select else self.select
        return Settings(
            select=select,
            ignore=self.ignore + self.per_file_ignores,
            extend_select=self.extend_select,
            unsafe_fixes=self.unsafe_fixes,
            receivers=dict(self.receivers),
            respect_bare_noqa=self.respect_bare_noqa,
        )

    def key(self) -> tuple:
        """Files with equal keys share one RuleSet."""
        return (
            self.select,
            self.ignore + self.per_file_ignores,
            self.extend_select,
            self.unsafe_fixes,
            tuple(sorted(self.receivers.items())),
            self.respect_bare_noqa,
            tuple(sorted(self.target_versions.items())),
        )


def _relative(path: Path, root: Path) -> str:
    absolute = path.absolute()
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return absolute.as_posix()


def resolve(config: Union[Config, None], cli: CommandLine, path: Union[Path, None]) -> Resolved:
    resolved = Resolved(config)
    origins = resolved.origins
    values = config.values if config is not None else {}
    for key in KEYS:
        attribute = key.replace("-", "_")
        if key == "per-file-ignores":
            continue
        if key in values:
            setattr(resolved, attribute, values[key])
            origins[attribute] = f"{config.path} [tool.mem0lint] {key}"
        else:
            origins[attribute] = DEFAULT
    if cli.select:
        resolved.select, origins["select"] = cli.select, "command line --select"
    if cli.ignore:
        resolved.ignore = resolved.ignore + cli.ignore
        origins["ignore"] = _also(origins["ignore"], "command line --ignore")
    if cli.extend_select:
        resolved.extend_select = resolved.extend_select + cli.extend_select
        origins["extend_select"] = _also(origins["extend_select"], "command line --extend-select")
    if cli.unsafe_fixes:
        resolved.unsafe_fixes, origins["unsafe_fixes"] = True, "command line --unsafe-fixes"
    if cli.output_format:
        resolved.output_format = cli.output_format
        origins["output_format"] = "command line --output-format"
    if cli.file_types:
        resolved.file_types, origins["file_types"] = cli.file_types, "command line --file-types"
    if cli.target_versions:
        resolved.target_versions = {**resolved.target_versions, **cli.target_versions}
        origins["target_versions"] = _also(
            origins["target_versions"], "command line --target-version"
        )
    origins["per_file_ignores"] = DEFAULT
    if config is not None and path is not None and "per-file-ignores" in values:
        relative = _relative(path, config.root)
        codes: list[str] = []
        import pathspec

        for pattern, pattern_codes in values["per-file-ignores"].items():
            if pathspec.GitIgnoreSpec.from_lines([pattern]).match_file(relative):
                codes += pattern_codes
        if codes:
            resolved.per_file_ignores = tuple(codes)
            origins["per_file_ignores"] = f"{config.path} [tool.mem0lint] per-file-ignores"
    return resolved


def _also(before: str, now: str) -> str:
    return now if before == DEFAULT else f"{before} + {now}"


class Excluder:
    """`exclude` and `extend-exclude` patterns, matched relative to their config file's folder."""

    def __init__(self, finder: Finder) -> None:
        self.finder = finder
        self._specs: dict[Path, pathspec.PathSpec] = {}

    def may_exclude(self, folder: str) -> bool:
        """Can `excluded` say yes to an entry of `folder`: has its configuration patterns?"""
        config = self.finder.for_file(os.path.join(folder, "_"))
        values = config.values if config is not None else {}
        return bool(values.get("exclude") or values.get("extend-exclude"))

    def excluded(self, path: Path, is_dir: bool) -> bool:
        config = self.finder.for_file(path)  # the configuration of the folder it is in
        if config is None:
            return False
        spec = self._specs.get(config.path)
        if spec is None:
            patterns = config.values.get("exclude", ()) + config.values.get("extend-exclude", ())
            import pathspec

            spec = self._specs[config.path] = pathspec.GitIgnoreSpec.from_lines(patterns)
        relative = _relative(path, config.root) + ("/" if is_dir else "")
        return spec.match_file(relative)


def describe(resolved: Resolved, path: Path, excluded: bool = False) -> str:
    """What `--show-settings PATH` prints."""
    lines = [f"Settings for {path}"]
    where = resolved.config.path if resolved.config is not None else "none (defaults)"
    lines.append(f"  configuration file: {where}")
    if excluded:
        lines.append("  excluded: yes (skipped in folders and with --force-exclude)")
    shown = [
        "select",
        "extend_select",
        "ignore",
        "per_file_ignores",
        "exclude",
        "extend_exclude",
        "unsafe_fixes",
        "output_format",
        "receivers",
        "respect_bare_noqa",
        "file_types",
        "target_versions",
    ]
    for attribute in shown:
        value = getattr(resolved, attribute)
        if isinstance(value, tuple):
            value = list(value)
        if attribute == "select" and not value:
            value = ["ALL"]  # empty selects every rule: say so, not `select = []`
        name = attribute.replace("_", "-")
        lines.append(f"  {name} = {value!r}  # from {resolved.origins.get(attribute, DEFAULT)}")
    from mem0lint.codes import rule_files  # the code table: no rule imported

    rules = rule_files()
    settings = resolved.engine_settings()
    enabled = [code for code in rules if settings.enabled(code)]
    lines.append(f"  enabled rules ({len(enabled)} of {len(rules)}) = {enabled!r}")
    from mem0lint.codes import OPT_IN

    opt_in = sorted(OPT_IN)
    lines.append(f"  opt-in rules (off unless selected by full code) = {opt_in!r}")
    return "\n".join(lines) + "\n"
