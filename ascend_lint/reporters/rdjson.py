"""reviewdog's diagnostic format: `rdjson` (one document) and `rdjsonl` (one diagnostic a line).

reviewdog counts columns in UTF-8 bytes (1-based, exclusive end); ascend-lint counts code
points, so every column is converted through the linted text (`FileResult.source`).

A fix becomes ONE suggestion, which `-reporter=github-pr-review` posts as a GitHub suggested
change. reviewdog (`service/github/github.go`) places the review comment on the first
suggestion's lines when they are in the diff, else on the diagnostic's, and rejects every
suggestion whose lines differ from the comment's ("reviewdog suggestion error"); so a fix's
edits are never split into several suggestions (ASC003 inserts a copy on one line and reads it
on another: accepting one alone would break the kernel). A fix of one edit keeps its exact
range (columns: reviewdog rebuilds the lines around it); a fix of several edits is one
line-wise suggestion (no columns: the lines from the first edit's to the last edit's, ends
included, rdjson's linewise range) whose text is those lines as the fix leaves them, without
the last line break. The diagnostic keeps its own range: when the suggestion's lines are in
the diff the comment spans them anyway, and when they are not GitHub cannot take the
suggestion at all, while a diagnostic widened to them would lose its comment too.
"""

from __future__ import annotations

import json
import re

from ascend_lint.fixes import apply_edits
from ascend_lint.model import Diagnostic, FileResult, Finding, Fix, LineIndex, Position
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
            source = result.source
            lines = LINE_BREAK.split(source)
            diagnostics.extend(_finding_diagnostic(finding, source, lines) for finding in result.findings)
    return diagnostics


def _finding_diagnostic(finding: Finding, source: str, lines: list[str]) -> JSONObject:
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
        diagnostic["suggestions"] = [_suggestion(finding.fix, source, lines)]
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


def _suggestion(fix: Fix, source: str, lines: list[str]) -> JSONObject:
    """The fix as one suggestion: its edit's exact range, or the whole lines its edits touch."""
    if len(fix.edits) == 1:
        (edit,) = fix.edits
        return {"range": _range(lines, edit.start, edit.end), "text": edit.content}
    first, last = min(edit.start.row for edit in fix.edits), max(edit.end.row for edit in fix.edits)
    index = LineIndex(source)
    begin = index.starts[first - 1]
    end = index.starts[last] if last < len(index.starts) else len(source)  # after the last line's break
    fixed = apply_edits(source, fix.edits)
    old = _lines_with_breaks(source[begin:end])  # no edit reaches the last line's break
    new = _lines_with_breaks(fixed[begin : end + len(fixed) - len(source)])
    last = first + len(old) - 1  # an edit ending at the empty "line" after a final line break
    while last > first and old and new and old[-1] == new[-1]:  # lines left as they were
        old.pop(), new.pop()
        last -= 1
    while last > first and old and new and old[0] == new[0]:
        old.pop(0), new.pop(0)
        first += 1
    text = "".join(new)
    if LINE_BREAK.search(old[-1]):  # a line-wise suggestion replaces the lines with their breaks
        text = re.sub(r"(\r\n|\r|\n)\Z", "", text)
    return {"range": {"start": {"line": first}, "end": {"line": last}}, "text": text}


def _lines_with_breaks(text: str) -> list[str]:
    starts = LineIndex(text).starts
    return [piece for piece in (text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)) if piece]


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
