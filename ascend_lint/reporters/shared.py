"""What the review formats (sarif, github, rdjson) share: the tool's name, links, level, paths."""

from __future__ import annotations

from pathlib import PurePath

from ascend_lint.engine import relative_display

NAME = "ascend-lint"
HOMEPAGE = "https://github.com/ascend-lint/ascend-lint"

# Every rule reports a likely bug that the user should look at; none blocks a merge by itself.
LEVEL = "warning"


def rule_url(code: str) -> str:
    """Where a rule's documentation is published (the text `ascend-lint rule CODE` prints)."""
    return f"{HOMEPAGE}/blob/main/docs/rules.md#{code.lower()}"


def report_path(filename: str) -> str:
    """A path as review tools expect it: relative to the current directory when inside it (as
    in the JSON output), with forward slashes."""
    return PurePath(relative_display(filename)).as_posix()
