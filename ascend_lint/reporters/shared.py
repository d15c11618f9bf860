"""What the review formats (sarif, github, rdjson) share: the tool's identity, links, level, paths."""

from __future__ import annotations

from importlib import metadata
from pathlib import PurePath

NAME = "ascend-lint"
HOMEPAGE = "https://github.com/ascend-lint/ascend-lint"

# Every rule reports a likely bug that the user should look at; none blocks a merge by itself.
LEVEL = "warning"


def version() -> str:
    return metadata.version("ascend-lint")


def rule_url(code: str) -> str:
    """Where a rule's documentation is published (the text `ascend-lint rule CODE` prints)."""
    return f"{HOMEPAGE}/blob/main/docs/rules.md#{code.lower()}"


def report_path(filename: str) -> str:
    """A finding's path as review tools expect it: relative as given, with forward slashes."""
    return PurePath(filename).as_posix()
