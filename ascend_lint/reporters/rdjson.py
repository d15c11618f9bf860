"""reviewdog's diagnostic format: `rdjson` (one document) and `rdjsonl` (one diagnostic a line).

reviewdog counts columns in UTF-8 bytes (1-based, exclusive end); ascend-lint counts code
points, so every column is converted through the linted text (`FileResult.source`).

A fix becomes a suggestion, which `-reporter=github-pr-review` posts as a GitHub suggested
change, only when it edits nothing outside the finding's own lines, and then it covers exactly
those lines. reviewdog (`service/github/github.go`, `buildSingleSuggestion`) rejects a
suggestion whose lines differ from the review comment's ("GitHub comment range and suggestion
line range must be same", a "reviewdog suggestion error" in the comment); the comment is on
the diagnostic's lines, or on the first suggestion's when they are all in the diff
(`githubCommentLineRange`), which would move it away from the finding (ASC003's fix edits the
dot, tens of lines above the read it reports). A fix of several edits is never split either
(ASC003 inserts a copy on one line and reads it on another: accepting one alone would break
the kernel). So: a fix of one edit from the finding's first line to its last keeps its exact
range (columns: reviewdog rebuilds the lines around it); another fix that changes no other
line (lines an edit rewrites as they were do not count: ASC001 rewrites a whole `dict(...)` to
delete one line) is one line-wise suggestion (no columns) from the finding's first line to its
last, whose text is those lines as the fix leaves them, without the last line break; a fix
changing other lines gets no suggestion, and the message says the fix exists and which
`ascend-lint check --fix` applies it.
"""

from __future__ import annotations

import json
import re

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
        suggestion = _suggestion(finding, finding.fix, source, lines)
        if suggestion:
            diagnostic["suggestions"] = [suggestion]
        else:
            diagnostic["message"] += _fix_note(finding.fix)
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


def _suggestion(finding: Finding, fix: Fix, source: str, lines: list[str]) -> JSONObject | None:
    """The fix as a suggestion on exactly the finding's lines, if it changes no other line."""
    first, last = finding.location.row, finding.end_location.row
    if len(fix.edits) == 1 and (fix.edits[0].start.row, fix.edits[0].end.row) == (first, last):
        (edit,) = fix.edits
        return {"range": _range(lines, edit.start, edit.end), "text": edit.content}
    from ascend_lint.fixes import apply_edits  # libcst: only for a fix (no run without findings loads it)

    # The lines the edits touch and the finding's, as the fix leaves them; lines it leaves as
    # they were at either end drop out (ASC001 rewrites a whole `dict(...)` to delete one line).
    top = min(first, *(edit.start.row for edit in fix.edits))
    bottom = max(last, *(edit.end.row for edit in fix.edits))
    index = LineIndex(source)
    if bottom > len(index.starts):
        return None
    begin = index.starts[top - 1]
    end = index.starts[bottom] if bottom < len(index.starts) else len(source)  # after the last line's break
    fixed = apply_edits(source, fix.edits)
    old = _lines_with_breaks(source[begin:end])
    new = _lines_with_breaks(fixed[begin : end + len(fixed) - len(source)])
    bottom = top + len(old) - 1  # an edit ending at the empty "line" after a final line break
    while bottom > last and old and new and old[-1] == new[-1]:
        old.pop(), new.pop()
        bottom -= 1
    while top < first and old and new and old[0] == new[0]:
        old.pop(0), new.pop(0)
        top += 1
    if (top, bottom) != (first, last) or not old:
        return None
    text = "".join(new)
    if LINE_BREAK.search(old[-1]):  # a line-wise suggestion replaces the lines with their breaks
        text = re.sub(r"(\r\n|\r|\n)\Z", "", text)
    return {"range": {"start": {"line": first}, "end": {"line": last}}, "text": text}


def _lines_with_breaks(text: str) -> list[str]:
    starts = LineIndex(text).starts
    return [piece for piece in (text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)) if piece]


def _fix_note(fix: Fix) -> str:
    """What the message says of a fix that has no suggestion: it edits other lines too."""
    command = "ascend-lint check --fix" + (" --unsafe-fixes" if fix.applicability == "unsafe" else "")
    kind = "Unsafe fix" if fix.applicability == "unsafe" else "Fix"
    return (
        f"\n\n{kind} available: {fix.message.rstrip('.')}. Run `{command}`: the fix edits lines"
        " outside the finding's, which a suggested change cannot."
    )


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
