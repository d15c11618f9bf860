"""Snapshots of what `ascend-lint check` reports on each fixture file, as reviewable text.

One file per fixture under tests/snapshots/ (same relative path, `.snap` appended), pinning
each finding as ruff's snapshots do: code and name, range, message, the source excerpt under
the range, the related locations, the fix (applicability, message, exact edits) or why there
is none, and the facts `confirm` receives.
tests/test_snapshots.py compares; `python tests/regenerate.py` rewrites them.
"""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES, REPO

from ascend_lint.config import Settings
from ascend_lint.engine import lint_file
from ascend_lint.model import Edit, FileResult, Finding, Position

SNAPSHOTS = REPO / "tests" / "snapshots"
REGENERATE = "python tests/regenerate.py"


def snapshot_path(fixture: Path) -> Path:
    return SNAPSHOTS / f"{fixture.relative_to(FIXTURES).as_posix()}.snap"


def render(fixture: Path) -> str:
    """The snapshot text for a fixture file, linted with default settings rooted at the repository."""
    name = fixture.relative_to(REPO).as_posix()
    result = lint_file(str(fixture), Settings(root=REPO))
    header = [
        f"# `ascend-lint check {name}` (default settings)",
        f"# Regenerate with `{REGENERATE}`, then review the diff.",
        "",
    ]
    return "\n".join(header + _body(result)) + "\n"


def _body(result: FileResult) -> list[str]:
    if result.error is not None:
        return [f"error: {result.error.message}"]
    if not result.checked:
        return ["not linted: not Ascend kernel code"]
    if not result.findings:
        return ["no findings"]
    lines = (result.source or "").splitlines()
    out: list[str] = []
    for finding in result.findings:
        out += _finding(finding, lines)
    return out


def _finding(finding: Finding, lines: list[str]) -> list[str]:
    where = _range(finding.location, finding.end_location)
    kernel = f" in kernel `{finding.kernel}`" if finding.kernel else ""
    out = [f"{finding.code} [{finding.name}] {where}{kernel}", f"  {finding.message}"]
    out += _excerpt(lines, finding.location, finding.end_location)
    for related in finding.related:
        out.append(f"  related {_range(related.location, related.end_location)}: {related.message}")
        out += _excerpt(lines, related.location, related.end_location)
    if finding.fix is None:
        out.append(f"  no fix: {finding.no_fix_reason}" if finding.no_fix_reason else "  no fix")
    else:
        out.append(f"  fix ({finding.fix.applicability}): {finding.fix.message}")
        out += [f"    {_edit(edit)}" for edit in finding.fix.edits]
    if finding.facts:
        out.append("  facts: " + ", ".join(f"{key}={value!r}" for key, value in sorted(finding.facts.items())))
    return [*out, ""]


def _range(start: Position, end: Position) -> str:
    return f"{start.row}:{start.column}-{end.row}:{end.column}"


def _excerpt(lines: list[str], start: Position, end: Position) -> list[str]:
    """The first line of the range with carets under the range (to the line's end when the
    range spans lines)."""
    text = lines[start.row - 1] if start.row <= len(lines) else ""
    stop = end.column if end.row == start.row else len(text) + 1
    gutter = f"{start.row:>5} | "
    carets = " " * (len(gutter) - 2) + "| " + " " * (start.column - 1) + "^" * max(stop - start.column, 1)
    more = [f"{' ' * (len(gutter) - 2)}| ... to {end.row}:{end.column}"] if end.row != start.row else []
    return [f"{gutter}{text}".rstrip(), carets, *more]


def _edit(edit: Edit) -> str:
    if edit.start == edit.end:
        return f"insert at {edit.start.row}:{edit.start.column}: {edit.content!r}"
    where = _range(edit.start, edit.end)
    return f"delete {where}" if not edit.content else f"replace {where} with {edit.content!r}"
