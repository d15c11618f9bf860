"""``confirm`` output: text, JSON, and SARIF with the verdict in each result's properties."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_lint import source as sources
from ascend_lint.config import Settings
from ascend_lint.model import FileResult, LineIndex

from .compile.memory import kib
from .targets import describe
from .verdicts import Outcome, Verdict, finding_to_json

_SNIPPET = 72


@dataclass
class ConfirmReport:
    workload: str
    backend: str
    outcomes: list[Outcome]
    memory: list[dict[str, Any]] = field(default_factory=list)
    capture_error: str | None = None
    # ``--pytest`` workloads: test node id -> flagged kernel -> launches it made
    tests: dict[str, dict[str, int]] = field(default_factory=dict)
    # the files of PATHS that could not be linted (a syntax error, a missing path), as `check`
    # reports them in its JSON
    errors: list[dict[str, Any]] = field(default_factory=list)

    def counts(self) -> Counter[Verdict]:
        return Counter(o.verdict for o in self.outcomes)

    def seconds(self) -> float:
        return sum(o.seconds for o in self.outcomes)


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path


def _indented(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def summary(report: ConfirmReport) -> str:
    counts = report.counts()
    confirmed = counts[Verdict.CONFIRMED]
    per = f", {report.seconds() / confirmed:.1f} s per confirmed finding" if confirmed else ""
    return (
        f"{confirmed} confirmed, {counts[Verdict.REFUTED]} refuted, "
        f"{counts[Verdict.INCONCLUSIVE]} inconclusive ({report.seconds():.1f} s of replays{per})"
    )


def _source_line(file: str, line: int | None) -> str:
    if not line:
        return ""
    try:  # decoded as CPython reads the file, rows as it counts them (the compiler's line numbers)
        text = LineIndex(sources.decode(Path(file).read_bytes())).lines()[line - 1].strip()
    except (OSError, IndexError, sources.SourceError):
        return ""
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"


def memory_text(plan: dict[str, Any]) -> str:
    """One kernel specialisation's planned on-chip memory, largest buffers first."""
    on = f" on {describe(plan['target'])}" if plan.get("target") else ""
    lines = [f"{plan['kernel']} ({_relative(plan['file'])}){on}", _indented(plan.get("launch", ""))]
    if plan.get("error"):
        lines.append(_indented(f"does not compile: {plan['error']}"))
    for scope in plan["scopes"]:
        capacity = scope["capacity_bytes"]
        share = f" of {kib(capacity)} ({100 * scope['peak_bytes'] / capacity:.0f}%)" if capacity else ""
        lines.append(f"    {scope['scope']:<4} {kib(scope['peak_bytes'])}{share}")
        for buffer in scope["largest_buffers"]:
            where = f"{Path(buffer['file']).name}:{buffer['line']}" if buffer.get("file") else "?"
            snippet = _source_line(buffer["file"], buffer["line"]) if buffer.get("file") else ""
            count = f"x{buffer['buffers']}" if buffer["buffers"] > 1 else ""
            lines.append(f"         {kib(buffer['bytes']):>9} {count:>3}  {where}  {snippet}".rstrip())
        if scope.get("error"):
            lines.append(f"         {scope['error']}")
    return "\n".join(lines)


def render_text(report: ConfirmReport) -> str:
    blocks = []
    for outcome in report.outcomes:
        f = outcome.finding
        on = f" on {describe(outcome.target)}" if outcome.target else ""
        how = f"{outcome.backend}{on}, {outcome.seconds:.1f} s" if outcome.backend else "no replay"
        head = (
            f"{f.filename}:{f.location.row}:{f.location.column}: {f.code} {outcome.verdict.value} [{how}] {f.message}"
        )
        blocks.append(head + "\n" + _indented(outcome.evidence))
    if report.tests:
        lines = [
            f"    {test}: "
            + ", ".join(f"{kernel} ({count} launch{'es' * (count > 1)})" for kernel, count in kernels.items())
            for test, kernels in report.tests.items()
        ]
        blocks.append("Tests that launched flagged kernels:\n" + "\n".join(lines))
    if report.memory:
        blocks.append("Planned on-chip memory (compile backend):\n" + "\n".join(memory_text(p) for p in report.memory))
    blocks.append(summary(report))
    return "\n".join(blocks) + "\n"


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    data = finding_to_json(outcome.finding)
    data.pop("fix", None)
    data.pop("facts", None)
    data.update(
        verdict=outcome.verdict.value,
        backend=outcome.backend,
        target=outcome.target,
        evidence=outcome.evidence,
        variants=outcome.to_json()["variants"],
        seconds=round(outcome.seconds, 3),
    )
    return data


def errors_json(results: list[FileResult]) -> list[dict[str, Any]]:
    """The files that could not be linted, as ``check --output-format json`` gives them."""
    from ascend_lint.engine import display_paths
    from ascend_lint.reporters.json import error_to_dict

    display = display_paths()
    return [error_to_dict(r.error, display) for r in results if r.error is not None]


def render_json(report: ConfirmReport) -> str:
    counts = report.counts()
    return json.dumps(
        {
            "workload": report.workload,
            "backend": report.backend,
            "capture_error": report.capture_error,
            "tests": report.tests,
            "findings": [outcome_json(o) for o in report.outcomes],
            "errors": report.errors,
            "memory": report.memory,
            "summary": {
                "confirmed": counts[Verdict.CONFIRMED],
                "refuted": counts[Verdict.REFUTED],
                "inconclusive": counts[Verdict.INCONCLUSIVE],
                "seconds": round(report.seconds(), 3),
            },
        },
        indent=2,
    )


def render_sarif(report: ConfirmReport, results: list[FileResult], settings: Settings) -> str:
    """The linter's SARIF log for ``results``, each result carrying its verdict in properties."""
    from ascend_lint.reporters.sarif import render_sarif as sarif

    properties = {
        (o.finding.filename, o.finding.location.row, o.finding.location.column, o.finding.code): {
            "verdict": o.verdict.value,
            "backend": o.backend,
            "target": o.target,
            "evidence": o.evidence,
            "seconds": round(o.seconds, 3),
        }
        for o in report.outcomes
    }
    return sarif(results, settings, properties)
