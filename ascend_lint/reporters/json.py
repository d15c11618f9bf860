"""Machine-readable output with ruff-compatible keys (rows and columns 1-based)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..config import Settings
from ..engine import display_paths
from ..model import FileResult, Finding, Position


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
        "url": None,
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


def render_json(results: list[FileResult], settings: Settings) -> str:
    display = display_paths()
    return json.dumps([finding_to_dict(f, display) for r in results for f in r.findings], indent=2) + "\n"


def render_json_lines(results: list[FileResult], settings: Settings) -> str:
    display = display_paths()
    return "".join(json.dumps(finding_to_dict(f, display)) + "\n" for r in results for f in r.findings)
