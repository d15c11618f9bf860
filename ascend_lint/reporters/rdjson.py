"""reviewdog's diagnostic format: `rdjson` (one document) and `rdjsonl` (one diagnostic a line).

reviewdog counts columns in UTF-8 bytes (1-based, exclusive end); ascend-lint counts code
points, so every column is converted through the linted text (`FileResult.source`). Fix edits
become `suggestions`, which `-reporter=github-pr-review` posts as GitHub suggested changes.
"""

from __future__ import annotations

import json
import re

from ascend_lint.model import Diagnostic, FileResult, Finding, Position
from ascend_lint.reporters import shared
from ascend_lint.reporters.shared import JSONObject

SOURCE = shared.without_none({"name": shared.NAME, "url": shared.HOMEPAGE})
SEVERITY = shared.LEVEL.upper()
# The line breaks Python's tokenizer (and so libcst's row numbers) recognises.
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def render_rdjson(results: list[FileResult], settings: object) -> str:
    document = {"source": SOURCE, "severity": SEVERITY, "diagnostics": _diagnostics(results)}
    return json.dumps(document, indent=2) + "\n"


def render_rdjsonl(results: list[FileResult], settings: object) -> str:
    return "".join(json.dumps({"source": SOURCE, **diagnostic}) + "\n" for diagnostic in _diagnostics(results))


def _diagnostics(results: list[FileResult]) -> list[JSONObject]:
    diagnostics: list[JSONObject] = []
    for result in results:
        if result.error:
            diagnostics.append(_error_diagnostic(result.filename, result.error))
        if result.findings and result.source is not None:
            lines = LINE_BREAK.split(result.source)
            diagnostics.extend(_finding_diagnostic(finding, lines) for finding in result.findings)
    return diagnostics


def _finding_diagnostic(finding: Finding, lines: list[str]) -> JSONObject:
    diagnostic: JSONObject = {
        "message": finding.message,
        "location": {
            "path": shared.report_path(finding.filename),
            "range": _range(lines, finding.location, finding.end_location),
        },
        "severity": SEVERITY,
        "code": shared.without_none({"value": finding.code, "url": shared.rule_url(finding.code, finding.name)}),
    }
    if finding.fix:
        diagnostic["suggestions"] = [
            {"range": _range(lines, edit.start, edit.end), "text": edit.content} for edit in finding.fix.edits
        ]
    if finding.related:  # in the same file: the engine lints one file at a time
        diagnostic["related_locations"] = [
            {
                "message": related.message,
                "location": {
                    "path": shared.report_path(related.filename),
                    "range": _range(lines, related.location, related.end_location),
                },
            }
            for related in finding.related
        ]
    return diagnostic


def _error_diagnostic(filename: str, error: Diagnostic) -> JSONObject:
    location: JSONObject = {"path": shared.report_path(filename)}
    if error.location:  # the line only: a file that could not be linted may not decode
        location["range"] = {"start": {"line": error.location.row}}
    return {"message": error.message, "location": location, "severity": "ERROR"}


def _range(lines: list[str], start: Position, end: Position) -> JSONObject:
    return {"start": _byte_position(lines, start), "end": _byte_position(lines, end)}


def _byte_position(lines: list[str], position: Position) -> JSONObject:
    line = lines[position.row - 1] if position.row <= len(lines) else ""
    column = len(line[: position.column - 1].encode("utf-8")) + 1
    return {"line": position.row, "column": column}
