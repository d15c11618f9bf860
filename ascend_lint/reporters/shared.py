"""What the review formats (sarif, github, rdjson) and the editor share: the tool's name, links
(a rule's, its documentation without details), level, paths."""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from ascend_lint.engine import printable, relative_display
from ascend_lint.model import Diagnostic

if TYPE_CHECKING:
    from ascend_lint.rule import Rule

NAME = "ascend-lint"

# A JSON object as the review formats build it.
JSONObject = dict[str, Any]


def _homepage() -> str | None:
    """The `Homepage` project URL from the installed package's metadata, if it declares one."""
    try:
        urls: list[str] = metadata.metadata("ascend-lint").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "homepage":
            return url.strip()
    return None


# None until the project declares `[project.urls] Homepage`; link fields are omitted then.
HOMEPAGE = _homepage()

# Every rule reports a likely bug that the user should look at; none blocks a merge by itself.
LEVEL = "warning"


def rule_url(code: str, name: str) -> str | None:
    """Where a rule's documentation is published (`docs/rules.md`, what `ascend-lint rule
    --all` prints), when the project has a homepage."""
    if not HOMEPAGE:
        return None
    from ascend_lint.rule import heading_anchor  # libcst: only then (the JSON output of a cached run never parses)

    return f"{HOMEPAGE}/blob/main/docs/rules.md#{heading_anchor(code, name)}"


def brief_documentation(rule: type[Rule]) -> str:
    """A rule's documentation without its `## Details` (the editor's hover, `ascend-lint rule
    --brief`), then a line saying where they are: the rule's heading in docs/rules.md when the
    project has a homepage (`rule_url`), else the command that prints them."""
    if not rule.has_details():
        return rule.documentation()
    url = rule_url(rule.CODE, rule.NAME)
    where = f"[docs/rules.md]({url})" if url else f"`ascend-lint rule {rule.CODE}`"
    return f"{rule.documentation(details=False)}\n*Details (every form recognised, every exception): {where}*\n"


def without_none(mapping: JSONObject) -> JSONObject:
    return {key: value for key, value in mapping.items() if value is not None}


def report_path(filename: str) -> str:
    """A path as review tools expect it: absolute, with forward slashes, as ruff writes the
    `github` and `rdjson` formats. The GitHub runner makes an absolute path relative to the
    repository, and reads a relative one as relative to the repository root, not to the
    step's `working-directory` (actions/runner#765); reviewdog makes an absolute path relative
    to where it runs (`pathutil.NormalizePath`). So the report is right wherever ascend-lint
    ran. Stdin without `--stdin-filename` stays `-`."""
    if filename == "-":
        return filename
    return PurePath(os.path.abspath(printable(filename))).as_posix()


def display_path(filename: str) -> str:
    """A path as the user reads it in a message: relative to the current directory when inside
    it (as in the JSON output), with forward slashes."""
    return PurePath(relative_display(filename)).as_posix()


def error_name(error: Diagnostic) -> str:
    """What the JSON output and `--statistics` call a file that could not be linted: ruff's
    `invalid-syntax` for a syntax error (CPython's message), `lint-error` for the rest
    (unreadable, undecodable, too large, over its time budget, an internal error)."""
    syntax = error.message.startswith(("SyntaxError:", "IndentationError:", "TabError:"))
    return "invalid-syntax" if syntax else "lint-error"
