"""What a run would lint, and with which settings, linting nothing: `check --show-files` and
`check --show-settings` (ruff's options), and the line `--verbose` prints for a skipped file.

`--show-files` prints one line per file, in the order the run lints them (stdin's first, then
each path, a folder's files sorted), paths as the reports show them: a file the run checks is
its path alone (ruff's listing); a file default targeting leaves out is followed by two spaces
and `(skipped: not Ascend kernel code: <why>)`, one that cannot be linted by `(error:
<message>)`. Files `exclude` leaves out are not listed, as in ruff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import SKIP_EXCLUDED, SKIP_NOT_ASCEND, ConfigError, Settings, skip_text
from .engine import expand_paths, planned_files, relative_display, targeting
from .model import FileResult
from .registry import all_rules

if TYPE_CHECKING:
    from .rule import Rule


def file_line(result: FileResult) -> str:
    """A file as `--show-files` lists it (the module's docstring)."""
    path = relative_display(result.filename)
    if result.error is not None:
        return f"{path}  (error: {result.error.message})"
    if not result.checked:
        return f"{path}  (skipped: {skip_text(result.skip_reason or SKIP_NOT_ASCEND)})"
    return path


def planned(paths: Iterable[str], settings: Settings, stdin: bytes | None, stdin_filename: str) -> list[FileResult]:
    """The files a run over `paths` (and stdin's bytes, named `stdin_filename`) considers, in its
    order, each with what targeting decides (`engine.targeting`), and the paths it cannot walk."""
    results = [] if stdin is None else [targeting(stdin_filename, settings, stdin)]
    for slot in planned_files(paths, settings, None):
        results.append(slot if isinstance(slot, FileResult) else targeting(slot, settings))
    return results


def show_files(paths: Iterable[str], settings: Settings, stdin: bytes | None, stdin_filename: str) -> str:
    """The `--show-files` listing."""
    return "".join(
        f"{file_line(result)}\n"
        for result in planned(paths, settings, stdin, stdin_filename)
        if result.skip_reason != SKIP_EXCLUDED  # stdin's name, with `force-exclude`
    )


def first_file(paths: list[str], settings: Settings, stdin_filename: str) -> str:
    """The file `--show-settings` describes, as in ruff: the first of the paths, or the first
    Python file under it when it is a folder (`-`: `stdin_filename`, which need not exist)."""
    path = paths[0] if paths else "."
    if path == "-":
        return stdin_filename
    if not os.path.exists(path):
        raise ConfigError(f"{path}: no such file or directory")
    if not os.path.isdir(path):
        return path  # even when excluded: the settings say so
    found = next(expand_paths([path], settings, []), None)
    if found is None:
        raise ConfigError(f"no Python file to lint under {path}")
    return found


def show_settings(result: FileResult, run: Settings, cache_dir: Path, cached: bool) -> str:
    """The `--show-settings` listing of one file (`result`: what targeting decides for it):
    `key = value` lines in sections, keys as in `[tool.ascend-lint]`, values in JSON (`none`:
    unset), for that file
    (`enabled` after `per-file-ignores`, `target-soc` after `per-file-target-soc`)."""
    filename = result.filename
    settings = run.for_file(filename)
    selection = settings.command_line.selection
    config = settings.config_file
    lines = [
        f"Resolved settings for: {_value(relative_display(filename))}",
        f"Settings path: {_value(relative_display(str(config)) if config else None)}",
        "",
        "# Files",
        *_entries(
            root=str(settings.root),
            exclude=settings.exclude,
            excluded=settings.is_excluded(filename),
            force_exclude=settings.force_exclude,
            target_paths=settings.target_paths,
            target_all=settings.target_all,
            targeted=result.checked and result.error is None,
            skip_reason=skip_text(result.skip_reason) if result.skip_reason else None,
            error=result.error.message if result.error else None,
        ),
        "",
        "# Rules",
        *_entries(select=settings.select, extend_select=settings.extend_select, ignore=settings.ignore),
        *_entries(
            prefix="command-line.",
            select=None if selection.select is None else list(selection.select),
            extend_select=list(selection.extend_select),
            ignore=list(selection.ignore),
        ),
        *_entries(per_file_ignores=settings.per_file_ignores),
        "enabled = [",
        *(f"\t{rule.NAME} ({rule.CODE})," for rule in _rules(settings.enabled_codes(filename))),
        "]",
        "",
        "# Analysis",
        *_entries(
            target_soc=settings.soc(filename).name,
            per_file_target_soc=settings.per_file_target_soc,
            triton_modules=settings.triton_modules,
            timeout_per_file=settings.timeout_per_file,
        ),
        "",
        "# Cache",
        *_entries(cache_dir=str(cache_dir), cache=cached),
    ]
    return "".join(f"{line}\n" for line in lines)


def _rules(codes: frozenset[str]) -> list[type[Rule]]:
    return [rule for rule in all_rules() if rule.CODE in codes]


def _entries(prefix: str = "", **values: Any) -> list[str]:
    return [f"{prefix}{key.replace('_', '-')} = {_value(value)}" for key, value in values.items()]


def _value(value: Any) -> str:
    """JSON (strings, lists, tables), `none` for an unset value as ruff prints it."""
    return "none" if value is None else json.dumps(value, ensure_ascii=False)
