"""`ascend-lint check --add-noqa`: a `# noqa` comment for every finding, as ruff's `--add-noqa`.

A team adopting ascend-lint on a codebase with existing findings baselines them in one command,
then every new finding fails the check. Each finding's code goes on its `noqa_row` (the last
row of a backslash continuation or of a multi-line string it starts on), written as the
editor's "Disable ... for this line" writes it (`directives.noqa_edit`): `  # noqa: CODES` at
the end of the line, after a comment already there, or the codes merged (sorted, deduplicated)
into the line's `# noqa: ...`. One edit per row, whatever the number of findings on it; ruff
counts those edits (`Added 3 noqa directives.`).

Only the comments of the rows change. The new text must compile as the original did (the
fixer's check, `fixer.compiled_fix`), and it is written as `--fix` writes: atomically, in the
file's encoding, with its line endings, never over a file that changed since it was read
(`fixer.write_fixed`). A file that could not be linted is reported and left untouched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from . import source as sources
from .directives import Comments, noqa_edit
from .fixer import FixedFile, FixRefused, compiled_fix, write_fixed
from .model import Diagnostic, Edit, FileResult, Finding, LineIndex, Position


def add_noqa(results: Iterable[FileResult]) -> tuple[list[FileResult], int]:
    """Add the `# noqa` comments of the results' findings to their files: the results (with the
    files that could not be written as errors, the findings no comment can suppress as warnings)
    and the number of rows given or extended a `# noqa`."""
    done: list[FileResult] = []
    added = 0
    for result in results:
        if result.error is not None or not result.findings or result.filename == "-":
            done.append(result)
            continue
        result, count = _add_to_file(result)
        done.append(result)
        added += count
    return done, added


def _add_to_file(result: FileResult) -> tuple[FileResult, int]:
    try:
        original = result.source
        if original is None:  # a cached result: the file as the cache checked it
            original = sources.decode(sources.read_source(result.filename))
    except (OSError, sources.SourceError) as exc:
        return dataclasses.replace(result, error=Diagnostic(result.filename, f"cannot read the file: {exc}")), 0
    text, count, unplaced = with_noqa(original, result.findings)
    warnings = [
        Diagnostic(
            result.filename,
            f"no `# noqa` can be added for {finding.code}: no comment can end line {finding.noqa_row}",
            finding.location,
        )
        for finding in unplaced
    ]
    result = dataclasses.replace(result, warnings=[*result.warnings, *warnings])
    if count == 0:
        return result, 0
    try:
        compiled_fix(original, text, [])
    except FixRefused as refusal:
        message = f"the `# noqa` comments would {refusal}; file left unchanged"
        return dataclasses.replace(result, error=Diagnostic(result.filename, message)), 0
    error = write_fixed(FixedFile(result.filename, original, text))
    if error is not None:
        return dataclasses.replace(result, error=error), 0
    return result, count


def with_noqa(source: str, findings: Iterable[Finding]) -> tuple[str, int, list[Finding]]:
    """`source` with a `# noqa` for each finding: the text, the number of rows edited, and the
    findings whose row no comment can end (a string or a backslash goes on from it)."""
    by_row: dict[int, list[Finding]] = {}
    for finding in findings:
        by_row.setdefault(finding.noqa_row, []).append(finding)
    from .fixes import apply_edits  # libcst: loaded for a file with findings only

    lines = LineIndex(source).lines()
    comments = Comments(source)
    edits = []
    unplaced: list[Finding] = []
    for row, found in sorted(by_row.items()):
        edit = noqa_edit(comments, lines, row, (finding.code for finding in found))
        if edit is None:
            unplaced.extend(found)
        else:
            edits.append(Edit(Position(row, edit.start + 1), Position(row, edit.end + 1), edit.text))
    return apply_edits(source, edits), len(edits), unplaced
