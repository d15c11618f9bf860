"""SARIF 2.1.0 output (`--output-format sarif`), shaped for GitHub code scanning.

The driver lists every rule with its documentation; each finding becomes a result with a
physical location, the locations that explain it (`relatedLocations`) and its fix. SARIF
columns are 1-based code points (`columnKind`), the same unit as `ascend_lint.model`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from ascend_lint import __version__
from ascend_lint.engine import printable
from ascend_lint.model import Diagnostic, FileResult, Finding, Fix, Position
from ascend_lint.registry import all_rules
from ascend_lint.reporters import shared
from ascend_lint.reporters.shared import JSONObject
from ascend_lint.rule import Rule

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"

ResultKey = tuple[str, int, int, str]


def render_sarif(
    results: list[FileResult],
    settings: object,
    result_properties: Mapping[ResultKey, JSONObject] | None = None,
) -> str:
    """The SARIF log for ``results``.

    ``result_properties`` maps ``(filename, row, column, code)`` of a finding to extra
    properties for its result (the runtime companion's verdict).
    """
    rules = all_rules()
    rule_index = {rule.CODE: index for index, rule in enumerate(rules)}
    extra = result_properties or {}
    run = {
        "tool": {"driver": _driver(rules)},
        "columnKind": "unicodeCodePoints",
        "invocations": [_invocation([r.error for r in results if r.error])],
        "results": [
            _result(finding, rule_index[finding.code], extra.get(_key(finding), {}))
            for file_result in results
            for finding in file_result.findings
        ],
    }
    return json.dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def _key(finding: Finding) -> ResultKey:
    return (finding.filename, finding.location.row, finding.location.column, finding.code)


def _driver(rules: Sequence[type[Rule]]) -> JSONObject:
    return shared.without_none(
        {
            "name": shared.NAME,
            "version": __version__,
            "semanticVersion": __version__,
            "informationUri": shared.HOMEPAGE,
            "rules": [_descriptor(rule) for rule in rules],
        }
    )


def _descriptor(rule: type[Rule]) -> JSONObject:
    documentation = rule.documentation()
    return shared.without_none(
        {
            "id": rule.CODE,
            "name": rule.NAME,
            "shortDescription": {"text": rule.SUMMARY},
            "fullDescription": {"text": what_it_does(documentation)},
            "help": {"text": documentation, "markdown": documentation},
            "helpUri": shared.rule_url(rule.CODE, rule.NAME),
            "defaultConfiguration": {"level": shared.LEVEL},
            "properties": _properties(rule),
        }
    )


def _properties(rule: type[Rule]) -> JSONObject:
    """GitHub's `tags` and `precision` ("how often the results indicated by this rule are
    true", by which code scanning orders alerts): the rule's (`Rule.precision`)."""
    tags = ["triton", "ascend", "performance"] if rule.GROUP == "perf" else ["triton", "ascend"]
    return {"tags": tags, "precision": rule.precision()}


def what_it_does(markdown: str) -> str:
    """The "What it does" section as plain paragraphs: SARIF's `fullDescription` ("a
    comprehensive description"), short by the docs' rule (tests/test_rule_examples.py); the
    whole documentation, Details included, is `help`."""
    section = markdown.split("## What it does\n", 1)[-1].split("\n## ", 1)[0]
    paragraphs = [" ".join(line.strip() for line in block.splitlines()) for block in section.split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


def _result(finding: Finding, rule_index: int, properties: JSONObject) -> JSONObject:
    location: JSONObject = {"physicalLocation": _physical(finding.filename, finding.location, finding.end_location)}
    if finding.kernel:
        location["logicalLocations"] = [{"name": finding.kernel, "kind": "function"}]
    result: JSONObject = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": shared.LEVEL,
        "message": {"text": finding.message},
        "locations": [location],
    }
    if finding.related:
        result["relatedLocations"] = [
            {
                "id": number,
                "physicalLocation": _physical(related.filename, related.location, related.end_location),
                "message": {"text": related.message},
            }
            for number, related in enumerate(finding.related, start=1)
        ]
    if finding.fix:
        result["fixes"] = [_fix(finding.filename, finding.fix)]
    if properties:
        result["properties"] = dict(properties)
    return result


def _fix(filename: str, fix: Fix) -> JSONObject:
    return {
        "description": {"text": fix.message},
        "artifactChanges": [
            {
                "artifactLocation": _artifact(filename),
                "replacements": [
                    {"deletedRegion": _region(edit.start, edit.end), "insertedContent": {"text": edit.content}}
                    for edit in fix.edits
                ],
            }
        ],
        "properties": {"applicability": fix.applicability},
    }


def _invocation(errors: list[Diagnostic]) -> JSONObject:
    """Files that could not be linted, as tool notifications (they are not findings)."""
    notifications = []
    for error in errors:
        physical = {"artifactLocation": _artifact(error.filename)}
        if error.location:
            physical["region"] = _region(error.location, error.location)
        notifications.append(
            {"level": "error", "message": {"text": error.message}, "locations": [{"physicalLocation": physical}]}
        )
    return {"executionSuccessful": not errors, "toolExecutionNotifications": notifications}


def _physical(filename: str, start: Position, end: Position) -> JSONObject:
    return {"artifactLocation": _artifact(filename), "region": _region(start, end)}


def _artifact(filename: str) -> JSONObject:
    """An absolute `file://` URI, as ruff writes: upload-sarif makes it relative to the checkout
    (its `checkout_path` input, the workspace by default), wherever ascend-lint ran, where a
    relative one is read as relative to the repository root."""
    return {"uri": Path(os.path.abspath(printable(filename))).as_uri()}


def _region(start: Position, end: Position) -> JSONObject:
    return {
        "startLine": start.row,
        "startColumn": start.column,
        "endLine": end.row,
        "endColumn": end.column,
    }
