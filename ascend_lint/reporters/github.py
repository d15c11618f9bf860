"""GitHub Actions workflow commands (`--output-format github`): one annotation per finding.

`::error file=P,line=L,col=C,endLine=E,endColumn=EC,title=ASC003 [dot-lhs-reuse]::message`
(errors, as ruff's github format: a finding is something to fix before merging; a file that
could not be linted is an error too, titled so). Columns are 1-based code points with an
exclusive end, as everywhere in ascend-lint. `file` is absolute, as ruff writes it
(`shared.report_path`: the runner makes it relative to the repository, wherever ascend-lint
ran); the related locations in the message are relative to the current directory.
"""

from __future__ import annotations

from ascend_lint.model import Diagnostic, FileResult, Finding
from ascend_lint.reporters import shared


def render_github(results: list[FileResult], settings: object) -> str:
    commands = []
    for result in results:
        if result.error:
            commands.append(_error_command(result.filename, result.error))
        commands.extend(_finding_command(finding) for finding in result.findings)
    return "".join(command + "\n" for command in commands)


def _finding_command(finding: Finding) -> str:
    lines = [finding.message]
    for related in finding.related:
        where = f"{shared.display_path(related.filename)}:{related.location.row}:{related.location.column}"
        lines.append(f"{where}: {related.message}")
    properties: dict[str, object] = {
        "file": shared.report_path(finding.filename),
        "line": finding.location.row,
        "col": finding.location.column,
        "endLine": finding.end_location.row,
        "endColumn": finding.end_location.column,
        "title": f"{finding.code} [{finding.name}]",
    }
    return _command("error", properties, "\n".join(lines))


def _error_command(filename: str, error: Diagnostic) -> str:
    properties: dict[str, object] = {"file": shared.report_path(filename)}
    if error.location:
        properties.update(line=error.location.row, col=error.location.column)
    properties["title"] = f"{shared.NAME} could not lint this file"
    return _command("error", properties, error.message)


def _command(level: str, properties: dict[str, object], message: str) -> str:
    listed = ",".join(f"{name}={_escape_property(str(value))}" for name, value in properties.items())
    return f"::{level} {listed}::{_escape_data(message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
