"""flake8 plugin: ascend-lint's findings as flake8 errors with the `ASC` prefix.

flake8 hands over the buffer it linted (a file or stdin), so unsaved editor buffers are
linted as the user sees them. The `[tool.ascend-lint]` settings, target paths and `exclude`
included (flake8 names every file it checks: `exclude` holds as with `--force-exclude`), come
from the project the file belongs to; `# noqa` and `per-file-ignores` are flake8's.
`# ascend-lint: disable-file` is read as the CLI reads it (comments only), and a directive
that cannot be read is ignored with a warning on stderr, as `ascend-lint check` prints it.

A configuration that cannot be read (a `pyproject.toml` that is not TOML, an unknown key or
code in `[tool.ascend-lint]`) is one finding per file, `ASC000` at 1:1, saying so: flake8 and
the other plugins run on, the run fails (as `ascend-lint check` stops with status 2) and an
editor shows why there are no `ASC` findings, as the server does.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from ascend_lint.config import ConfigError, Settings, load_settings, real_path
from ascend_lint.engine import lint_source

CONFIG_ERROR = "ASC000"  # the code of "the configuration cannot be read", no rule's


class AscendLintFlake8:
    def __init__(self, tree: ast.AST, lines: list[str], filename: str) -> None:
        # `tree` is unused, but its name is what makes flake8 run this as an AST plugin.
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        try:
            settings = _settings(real_path(self.filename).parent)
        except ConfigError as exc:
            yield 1, 0, f"{CONFIG_ERROR} configuration error, ascend-lint did not check the file: {exc}", type(self)
            return
        if settings.is_excluded(self.filename):
            return
        result = lint_source("".join(self.lines), self.filename, settings, apply_noqa=False)
        for warning in result.warnings:
            print(f"{warning.where(self.filename)}: warning: {warning.message}", file=sys.stderr)
        for finding in result.findings:
            text = f"{finding.code} [{finding.name}] {finding.message}"
            yield finding.location.row, finding.location.column - 1, text, type(self)


@cache
def _settings(directory: Path) -> Settings:
    """The settings of the project holding ``directory``, loaded once per directory."""
    return load_settings([str(directory)])
