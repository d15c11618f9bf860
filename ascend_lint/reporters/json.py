"""Machine-readable output with ruff-compatible keys (rows and columns 1-based)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..config import Settings
from ..engine import display_paths
from ..model import Diagnostic, FileResult, Finding, Position
from . import shared


def _position(position: Position) -> dict[str, int]:
    return {"row": position.row, "column": position.column}


def finding_to_dict(finding: Finding, display: Callable[[str], str]) -> dict[str, Any]:
    fix = None
    if finding.fix is not None:
        fix = {
            "applicability": finding.fix.applicability,
            "message": finding.fix.message,
            "edits": [
                {"content": e.content, "location": _position(e.start), "end_location": _position(e.end)}
                for e in finding.fix.edits
            ],
        }
    optional = {} if finding.no_fix_reason is None else {"no_fix_reason": finding.no_fix_reason}
    return {
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
        "filename": display(finding.filename),
        "location": _position(finding.location),
        "end_location": _position(finding.end_location),
        "fix": fix,
        "noqa_row": finding.noqa_row,
        "url": shared.rule_url(finding.code, finding.name),
        "related": [
            {
                "filename": display(r.filename),
                "location": _position(r.location),
                "end_location": _position(r.end_location),
                "message": r.message,
            }
            for r in finding.related
        ],
        **optional,
    }


def error_to_dict(error: Diagnostic, display: Callable[[str], str]) -> dict[str, Any]:
    """A file that could not be linted, as an entry of its own (ruff's `invalid-syntax` entries):
    no code, no fix; at 1:1 when the error has no position (an unreadable file)."""
    location = _position(error.location or Position(1, 1))
    return {
        "code": None,
        "name": shared.error_name(error),
        "message": error.message,
        "filename": display(error.filename),
        "location": location,
        "end_location": location,
        "fix": None,
        "noqa_row": None,
        "url": None,
        "related": [],
    }


def _entries(results: list[FileResult]) -> list[dict[str, Any]]:
    """Per file in order: its error, if it could not be linted, then its findings."""
    display = display_paths()
    entries = []
    for result in results:
        if result.error is not None:
            entries.append(error_to_dict(result.error, display))
        entries.extend(finding_to_dict(finding, display) for finding in result.findings)
    return entries


def render_json(results: list[FileResult], settings: Settings) -> str:
    return json.dumps(_entries(results), indent=2) + "\n"


def render_json_lines(results: list[FileResult], settings: Settings) -> str:
    return "".join(json.dumps(entry) + "\n" for entry in _entries(results))
