"""Settings: `[tool.ascend-lint]` in pyproject.toml, merged with command-line options.

Rule selection follows ruff: `select` replaces the default (all rules), `extend-select` adds,
`ignore` removes; each entry is a code, a code prefix (`ASC00`) or a group (`perf`). The most
specific entry wins, so `select = ["ASC"]`, `ignore = ["ASC00"]`, `extend-select = ["ASC003"]`
enables ASC003 only; a group is more specific than any prefix, less than a whole code. The
command line is a second layer over the configuration's: its `--select` starts over (the
configuration's `ignore` and `extend-select` go with what it replaces), its `--extend-select`
and `--ignore` change what the configuration enables. `per-file-ignores` then remove rules.
"""

from __future__ import annotations

import argparse
import configparser
import fnmatch
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .ascend_text import ascend_name, says_ascend
from .package import in_ascend_package, package_folders
from .socs import DEFAULT_SOC, SOCS, Soc

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

KNOWN_KEYS = frozenset(
    {
        "select",
        "ignore",
        "extend-select",
        "per-file-ignores",
        "target-paths",
        "exclude",
        "force-exclude",
        "triton-modules",
        "target-soc",
        "per-file-target-soc",
    }
)
DEFAULT_EXCLUDE = (".git", ".hg", ".venv", "venv", "__pycache__", "build", "dist", ".tox", ".eggs", "node_modules")


class ConfigError(Exception):
    """A configuration or usage error (exit code 2)."""


@dataclass(frozen=True)
class RuleSelection:
    """A layer of rule selection: the configuration's, the command line's (see the module's
    docstring)."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommandLine:
    """What the command line sets over every configuration a run reads."""

    selection: RuleSelection = RuleSelection()
    target_all: bool = False
    target_soc: str | None = None
    force_exclude: bool | None = None


def real_path(path: str | os.PathLike[str]) -> Path:
    """The path, absolute, with every symlink on it that leads somewhere followed: what
    `Path.resolve()` gives, except that a symlink loop (`a.py -> b.py -> a.py`) is left as it
    is instead of raising RuntimeError (Python before 3.13), so the file meets its reader and
    gets the OS's error ("Too many levels of symbolic links"), as when it is named. Every user
    path the discovery, the configuration and the reports resolve goes through here."""
    return Path(os.path.realpath(path))


def missing(path: str | os.PathLike[str]) -> bool:
    """Nothing is at `path` (a dangling symlink is something: reading it says it dangles). A
    path the OS will not look at (in a folder that cannot be searched, a symlink loop) is not
    missing: `os.path.exists` says False for both, and the user was told "no such file"
    instead of "Permission denied"."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _relative_text(filename: str, inside: Path | None) -> str:
    """`Settings.relative`'s text: the path below the root, or the file's as given."""
    return Path(filename).as_posix() if inside is None else inside.as_posix()


@dataclass
class Settings:
    root: Path
    config_file: Path | None = None
    select: list[str] = field(default_factory=lambda: ["ASC"])
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    target_paths: list[str] | None = None
    exclude: list[str] = field(default_factory=list)
    force_exclude: bool = False  # `exclude` also for files named on the command line (and stdin's name)
    target_all: bool = False
    # modules that re-export Triton (`from <module> import triton, tl`)
    triton_modules: list[str] = field(default_factory=list)
    timeout_per_file: float | None = 300.0  # CPU seconds per file to lint (and to fix); None: no limit
    target_soc: str = DEFAULT_SOC.name  # the SoC family kernels are judged against (UB capacity)
    per_file_target_soc: dict[str, str] = field(default_factory=dict)  # glob -> SoC family, first match wins
    command_line: CommandLine = CommandLine()
    # each file takes the nearest configuration above it (`for_file`): not with `--config` or
    # `--isolated`, nor for settings made directly
    hierarchical: bool = False

    def for_file(self, filename: str) -> Settings:
        """The settings `filename` is linted with: as in ruff, those of the nearest configuration
        above it, with this command line over them; these when it has none or it is this one."""
        if not self.hierarchical:
            return self
        found = _nearest_config(Path(filename).absolute().parent)
        if found is None or found == self.config_file:
            return self
        return _settings_of(found, self.command_line, self.timeout_per_file)

    def enabled_codes(self, filename: str | None = None) -> frozenset[str]:
        from .registry import rule_groups

        layers = [
            RuleSelection(tuple(self.select), tuple(self.extend_select), tuple(self.ignore)),
            self.command_line.selection,
        ]
        if filename is not None:
            relative = self.relative(filename)
            ignored = [
                code
                for pattern, codes in self.per_file_ignores.items()
                if per_file_match(pattern, relative)
                for code in codes
            ]
            layers.append(RuleSelection(ignore=tuple(ignored)))
        return _resolve_selection(rule_groups(), tuple(layers))

    def soc(self, filename: str) -> Soc:
        """The SoC family `filename` is judged against: the first `per-file-target-soc` glob
        that matches it, else `target-soc`."""
        relative = self.relative(filename)
        chosen = next(
            (soc for pattern, soc in self.per_file_target_soc.items() if per_file_match(pattern, relative)),
            self.target_soc,
        )
        return SOCS[chosen]

    def relative(self, filename: str) -> str:
        return _relative_text(filename, self._inside(filename))

    def _inside(self, filename: str) -> Path | None:
        """The file's path relative to the root, None when it is not below the root."""
        try:
            return real_path(filename).relative_to(real_path(self.root))
        except ValueError:
            return None

    def is_excluded(self, filename: str) -> bool:
        """`exclude` matches the file, or a folder between the root and the file is one of
        `DEFAULT_EXCLUDE` (`.venv`, `build`, ...): a file named on the command line with
        `force-exclude`, or handed over by flake8 or an editor. (Folders above the root are
        the user's business, as in ruff: a project checked out under `build/` is linted.)"""
        inside = self._inside(filename)
        if inside is not None and any(part in DEFAULT_EXCLUDE for part in inside.parts[:-1]):
            return True
        return self._matches_exclude(_relative_text(filename, inside))

    def matches_exclude(self, filename: str) -> bool:
        """A glob of `exclude` matches the file."""
        return self._matches_exclude(self.relative(filename))

    def _matches_exclude(self, relative: str) -> bool:
        return any(glob_match(pattern, relative) for pattern in self.exclude)

    def is_target(self, filename: str, source: str | None) -> bool:
        """Whether the file is Ascend kernel code (see README: which files are linted)."""
        return self.skip_reason(filename, source) is None

    def skip_reason(self, filename: str, source: str | None, read: dict[str, str | None] | None = None) -> str | None:
        """None for Ascend kernel code, else why the file is not linted (one of `SKIP_*`). The
        text counts whatever the path says: an Ascend import, and, for a file its path leaves
        out, a kernel launched on an NPU path (`npu_paths`, which parses the file), or a kernel
        launched, or autotune configs taken, from a module of its package that is Ascend code
        by its own text or path (`ascend_imports`; the hashes of the files it reads go to
        `read`: the skip depends on them). With `force-exclude`, an excluded name is skipped
        first (stdin's `--stdin-filename`: a named file is never linted then,
        `engine.expand_paths`)."""
        if self.force_exclude and self.is_excluded(filename):
            return SKIP_EXCLUDED
        if self.target_all or (source is not None and says_ascend(source)):
            return None
        reason = self.path_skip_reason(filename)
        if reason is None or source is None:
            return reason
        from .npu_paths import launches_kernels_on_npu

        if launches_kernels_on_npu(source, self.triton_modules):
            return None
        if filename != "-":  # bare stdin: no package
            from .ascend_imports import uses_ascend_module

            file = Path(filename).absolute()
            if uses_ascend_module(source, file, self._ascend_path, self.triton_modules, read):
                return None
        return reason

    def _ascend_path(self, path: Path) -> bool:
        """Whether the path and project of a module of the package a file imports from make it
        Ascend code (`path_skip_reason`, under the settings that govern it): with its text, the
        signs `ascend_imports` reads of the module (not its NPU launches nor what it imports)."""
        return self.for_file(str(path)).path_skip_reason(str(path)) is None

    def path_skip_reason(self, filename: str) -> str | None:
        """Why the file's path and project leave it out (`target-paths`, else Ascend folders
        and the project's dependencies), or None."""
        relative = self.relative(filename)
        if self.target_paths is not None:
            if any(glob_match(pattern, relative) for pattern in self.target_paths):
                return None
            return SKIP_TARGET_PATHS
        if is_ascend_path(relative):
            return None
        path = Path(filename).absolute()
        project = project_of(path.parent)
        # a loose file's own folder counts wherever it is linted from (`cd triton_ascend && check k.py`)
        inside = (
            path.relative_to(project.root).parts[:-1] if project.root else (*relative.split("/")[:-1], path.parent.name)
        )
        if any(ascend_name(folder) for folder in inside) or in_ascend_package(path.parent):
            return None
        if project.declares_ascend:
            return SKIP_BESIDE_ASCEND if beside_ascend_folder(path, project.root) else None
        return SKIP_NOT_ASCEND


SKIP_NOT_ASCEND = "not Ascend kernel code"
SKIP_TARGET_PATHS = "not in `target-paths`"
SKIP_BESIDE_ASCEND = "another backend next to an Ascend folder"
SKIP_EXCLUDED = "excluded"
# what each reason of default targeting means (the summary, `--show-files`, `--verbose`)
SKIP_DETAIL = {
    SKIP_NOT_ASCEND: "no Ascend folder (`triton_ascend`, `*ascend*`, `*npu*`) on the path, no Ascend import, "
    "no `torch_npu` / `triton-ascend` dependency in the project, no kernel launched on an NPU path, "
    "no kernel launched or autotune configs taken from an Ascend module of its package",
    SKIP_TARGET_PATHS: "not matched by `target-paths`, no Ascend import, no kernel launched on an NPU path, "
    "no kernel launched or autotune configs taken from an Ascend module of its package",
    SKIP_BESIDE_ASCEND: "another backend (e.g. CUDA) beside an Ascend folder of the project",
}


def skip_text(reason: str) -> str:
    """Why one file is not linted, in a line: `not Ascend kernel code: <detail>` for a reason of
    default targeting, `excluded (`exclude`)` for a name `force-exclude` leaves out."""
    if reason == SKIP_EXCLUDED:
        return "excluded (`exclude`)"
    return f"{SKIP_NOT_ASCEND}: {SKIP_DETAIL.get(reason, reason)}"


# package names as the project files may spell them, normalised as in PEP 503
ASCEND_PACKAGES = frozenset({"torch-npu", "triton-ascend"})


def is_ascend_path(path: str) -> bool:
    """Under a `triton_ascend` folder, or a file named `*triton_ascend*.py`."""
    parts = path.replace(os.sep, "/").split("/")
    return "triton_ascend" in parts[:-1] or ("triton_ascend" in parts[-1] and parts[-1].endswith(".py"))


@dataclass(frozen=True)
class Project:
    root: Path | None  # the folder of the nearest pyproject.toml / setup.cfg / setup.py
    declares_ascend: bool  # a required dependency on torch_npu or triton-ascend


@lru_cache(maxsize=256)
def project_of(folder: Path) -> Project:
    """The project a folder belongs to, found by walking up to its project file."""
    for candidate in (folder, *folder.parents):
        found = [candidate / name for name in ("pyproject.toml", "setup.cfg", "setup.py")]
        if any(os.path.isfile(path) for path in found):
            return Project(candidate, any(_declares_ascend(path) for path in found[:2] if os.path.isfile(path)))
    return Project(None, False)


def _toml_list(data: dict[str, Any], *keys: str) -> list[Any]:
    """The list (or a table's keys) at `keys` in a TOML document; none where a table on the way
    is something else (`tool = 1`, `[project] dependencies = 1`: not ours to refuse)."""
    found: Any = data
    for key in keys:
        found = found.get(key) if isinstance(found, dict) else None
    return list(found) if isinstance(found, (list, dict)) else []


def _declares_ascend(path: Path) -> bool:
    """Whether `[project] dependencies` (or poetry's, or setup.cfg's `install_requires`)
    require torch_npu / triton-ascend. Optional extras do not count: they mark mixed projects."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if path.name == "setup.cfg":
        parser = configparser.ConfigParser()
        try:
            parser.read_string(text)
        except configparser.Error:
            return False
        requirements = parser.get("options", "install_requires", fallback="").splitlines()
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return False
        requirements = _toml_list(data, "project", "dependencies") + _toml_list(data, "tool", "poetry", "dependencies")
    return any(_requirement_name(entry) in ASCEND_PACKAGES for entry in requirements if isinstance(entry, str))


def _requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return re.sub(r"[-_.]+", "-", match[1]).lower() if match else ""


def beside_ascend_folder(path: Path, root: Path | None) -> bool:
    """Whether the file, or a folder on its way up to the project root, has an Ascend-named
    sibling: the file belongs to another backend of a mixed repository (`cuda/` next to
    `triton_ascend/`)."""
    current = path
    while current.parent != current and current != root:
        if any(ascend_name(entry) for entry in _entries(current.parent) if entry != current.name):
            return True
        current = current.parent
    return False


@lru_cache(maxsize=1024)
def _entries(folder: Path) -> tuple[str, ...]:
    """Sub-folders and Python modules of a folder, not hidden ones (`.ascend_lint_cache`)."""
    try:
        return tuple(
            e.name for e in os.scandir(folder) if not e.name.startswith(".") and (e.is_dir() or e.name.endswith(".py"))
        )
    except OSError:
        return ()


@lru_cache(maxsize=512)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """gitignore-like globs: `**` spans folders, `*` stays inside one, a bare name matches
    at any depth, a trailing `/` or a folder match covers everything below it."""
    pattern = pattern.strip().replace(os.sep, "/")
    while pattern.startswith("./"):  # the configuration's folder, as in ruff: `./pkg/k.py` is `pkg/k.py`
        pattern = pattern[2:]
    anchored = "/" in pattern.rstrip("/")
    pattern = pattern.lstrip("/").rstrip("/")
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i)
            if end == -1:
                out.append(re.escape(pattern[i]))
                i += 1
            else:
                out.append(fnmatch.translate(pattern[i : end + 1])[4:-3])
                i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"^{prefix}{''.join(out)}(?:/.*)?$")


def glob_match(pattern: str, path: str) -> bool:
    return _glob_regex(pattern).match(path) is not None


def per_file_match(pattern: str, path: str) -> bool:
    """A `per-file-*` key matches: a glob, or one after `!` for the files it does not match (ruff's)."""
    return not glob_match(pattern[1:], path) if pattern.startswith("!") else glob_match(pattern, path)


@lru_cache(maxsize=256)
def _resolve_selection(groups: tuple[tuple[str, str | None], ...], layers: tuple[RuleSelection, ...]) -> frozenset[str]:
    """The enabled codes, given each code's group (`perf`), layer by layer: a layer with `select`
    starts over, one without changes what the layers before it enabled. In a layer, the most
    specific entry for a code decides (a group is more specific than any code prefix, less than
    a whole code); `ignore` wins a tie, as in ruff."""
    enabled: set[str] = set()
    for layer in layers:
        chosen = set(enabled) if layer.select is None else set()
        for code, group in groups:

            def specificity(entry: str, code: str = code, group: str | None = group) -> float | None:
                if code.startswith(entry):
                    return len(entry)
                return len(code) - 0.5 if entry.lower() == group else None

            selected = (*(layer.select or ()), *layer.extend_select)
            decisions = [(d, True) for p in selected if (d := specificity(p)) is not None]
            decisions += [(d, False) for p in layer.ignore if (d := specificity(p)) is not None]
            if decisions:
                if max(decisions, key=lambda d: (d[0], not d[1]))[1]:
                    chosen.add(code)
                else:
                    chosen.discard(code)
        enabled = chosen
    return frozenset(enabled)


def validate_codes(entries: list[str], where: str) -> None:
    if not entries:
        return  # knowing the codes imports every rule (and libcst): only when there is something to check
    from .registry import rule_groups

    groups = rule_groups()
    codes = [code for code, _ in groups]
    names = sorted({group for _, group in groups if group})
    for entry in entries:
        if not any(code.startswith(entry) or entry.lower() == group for code, group in groups):
            raise ConfigError(
                f"{where}: unknown rule selector {entry!r} (known codes: {', '.join(codes)}; groups: {', '.join(names)})"
            )


def positive_int(value: str) -> int:
    """A command-line count (`--jobs`): an int of at least 1."""
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


def validate_soc(name: str, where: str) -> None:
    if name not in SOCS:
        raise ConfigError(f"{where}: unknown SoC {name!r} (known: {', '.join(SOCS)})")


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.ascend-lint] table, walking up from `start`. One
    on the way that cannot be read as TOML is an error, as in ruff: it may be the one meant."""
    start = real_path(start)
    for folder in (start, *start.parents) if os.path.isdir(start) else start.parents:
        candidate = folder / "pyproject.toml"
        if os.path.isfile(candidate) and "ascend-lint" in _tools(_toml(candidate)):
            return candidate
    return None


def _toml(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    return data


def _tools(data: dict[str, Any]) -> dict[str, Any]:
    """The `[tool]` table of a TOML document; none when `tool` is not a table (`tool = 1`)."""
    tools = data.get("tool", {})
    return tools if isinstance(tools, dict) else {}


def read_config(path: Path) -> dict[str, Any]:
    """The settings table of a configuration file: `[tool.ascend-lint]` of a pyproject.toml, or
    of any file holding that table (`--config ci.toml` written like a pyproject.toml); else the
    file's top level (a file of the keys alone)."""
    data = _toml(path)
    tools = _tools(data)
    pyproject_like = path.name == "pyproject.toml" or "ascend-lint" in tools
    table = tools.get("ascend-lint", {}) if pyproject_like else data
    if not isinstance(table, dict):  # `[tool] ascend-lint = "select"`
        raise ConfigError(f"{path}: `tool.ascend-lint` must be a table ([tool.ascend-lint])")
    unknown = sorted(set(table) - KNOWN_KEYS)
    if unknown:
        where = (
            "[tool.ascend-lint]" if pyproject_like else "the file (keys at top level, or a [tool.ascend-lint] table)"
        )
        raise ConfigError(
            f"{path}: unknown key(s) in {where}: {', '.join(unknown)} (known: {', '.join(sorted(KNOWN_KEYS))})"
        )
    if not isinstance(table.get("force-exclude", False), bool):
        raise ConfigError(f"{path}: `force-exclude` must be true or false")
    for key in ("select", "ignore", "extend-select", "target-paths", "exclude", "triton-modules"):
        if key in table and not (isinstance(table[key], list) and all(isinstance(v, str) for v in table[key])):
            raise ConfigError(f"{path}: `{key}` must be a list of strings")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict) or not all(
        isinstance(v, list) and all(isinstance(c, str) for c in v) for v in pfi.values()
    ):
        raise ConfigError(f"{path}: `per-file-ignores` must map globs to lists of codes")
    if "target-soc" in table:
        if not isinstance(table["target-soc"], str):
            raise ConfigError(f"{path}: `target-soc` must be a string")
        validate_soc(table["target-soc"], f"{path}: target-soc")
    per_file_soc = table.get("per-file-target-soc", {})
    if not isinstance(per_file_soc, dict) or not all(isinstance(v, str) for v in per_file_soc.values()):
        raise ConfigError(f"{path}: `per-file-target-soc` must map globs to SoC names")
    for pattern, soc in per_file_soc.items():
        validate_soc(soc, f"{path}: per-file-target-soc[{pattern!r}]")
    for key in ("select", "ignore", "extend-select"):
        validate_codes(table.get(key, []), f"{path}: {key}")
    for pattern, codes in pfi.items():
        validate_codes(codes, f"{path}: per-file-ignores[{pattern!r}]")
    return table


@lru_cache(maxsize=1024)
def _nearest_config(folder: Path) -> Path | None:
    """`find_config` from a folder, remembered for the run (`load_settings` forgets it)."""
    while not os.path.exists(folder) and folder != folder.parent:  # an unsaved file (stdin): its folder
        folder = folder.parent
    return find_config(folder)


@lru_cache(maxsize=64)
def _settings_of(config_file: Path, command_line: CommandLine, timeout_per_file: float | None) -> Settings:
    """The settings of another configuration a run finds above one of its files."""
    settings = _settings(config_file, command_line, hierarchical=True)
    settings.timeout_per_file = timeout_per_file
    return settings


def forget_disk() -> None:
    """Forget what was read of the disk about projects and folders (project files, package
    folders, Ascend-named siblings, nearest configurations): an earlier run of this process, or
    an earlier lint of the editor server, may have read them before they changed."""
    for cached in (project_of, package_folders, _entries, _nearest_config, _settings_of):
        cached.cache_clear()


def load_settings(
    paths: Sequence[str] = (),
    config: str | os.PathLike[str] | None = None,
    isolated: bool = False,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    extend_select: list[str] | None = None,
    target_all: bool = False,
    target_soc: str | None = None,
    force_exclude: bool | None = None,
) -> Settings:
    """Settings for linting `paths`: the config file found for the first of them plus the CLI
    overrides (and, for each file, the one nearest to it: `Settings.for_file`)."""
    forget_disk()
    for entries, where in ((select, "--select"), (ignore, "--ignore"), (extend_select, "--extend-select")):
        validate_codes(entries or [], where)
    if target_soc is not None:
        validate_soc(target_soc, "--target-soc")
    selection = RuleSelection(
        None if select is None else tuple(select), tuple(extend_select or ()), tuple(ignore or ())
    )
    command_line = CommandLine(selection, target_all, target_soc, force_exclude)
    if config is not None:
        if os.path.isdir(config) or missing(config):  # else reading it says why it cannot be read
            raise ConfigError(f"config file not found: {config}")
        return _settings(Path(config), command_line, hierarchical=False)
    if isolated:
        return _settings(None, command_line, hierarchical=False)
    return _settings(_nearest_config(Path(paths[0]).absolute() if paths else Path.cwd()), command_line, True)


def _settings(config_file: Path | None, command_line: CommandLine, hierarchical: bool) -> Settings:
    """A configuration's settings (the defaults for none) with the command line over them."""
    table = read_config(config_file) if config_file else {}
    force_exclude = command_line.force_exclude
    return Settings(
        root=real_path(config_file.parent if config_file else Path.cwd()),
        config_file=config_file,
        select=table.get("select", ["ASC"]),
        ignore=table.get("ignore", []),
        extend_select=table.get("extend-select", []),
        command_line=command_line,
        hierarchical=hierarchical,
        per_file_ignores=table.get("per-file-ignores", {}),
        target_paths=table.get("target-paths"),
        exclude=table.get("exclude", []),
        force_exclude=table.get("force-exclude", False) if force_exclude is None else force_exclude,
        target_all=command_line.target_all,
        triton_modules=table.get("triton-modules", []),
        target_soc=command_line.target_soc or table.get("target-soc", DEFAULT_SOC.name),
        per_file_target_soc=table.get("per-file-target-soc", {}),
    )
