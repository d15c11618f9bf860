"""A workload that hangs after launching the flagged kernel, in the interpret backend: the
workload run is stopped at ``--timeout`` and the launches it made are replayed, as the capture
keeps the launches a hanging workload made for the compile backend (progress.jsonl). Before,
the replay process was killed at the timeout and the finding was INCONCLUSIVE "timed out".
Runs the real interpreter (about ten seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton", reason="needs the runtime extra (triton-ascend)")
pytest.importorskip("torch", reason="needs the runtime extra (torch)")

from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.rule import Evidence
from ascend_lint.runtime_check.capture.launches import KernelRef
from ascend_lint.runtime_check.capture.workload import Workload
from ascend_lint.runtime_check.jobs import ReplayJob
from ascend_lint.runtime_check.replay_child import replay_in_subprocess
from ascend_lint.runtime_check.verdicts import Verdict

pytestmark = pytest.mark.runtime

RUNTIME = Path(__file__).resolve().parent.parent / "fixtures" / "runtime"
FIXTURE = RUNTIME / "triton_ascend" / "asc003_loop_carried.py"
TIMEOUT = 5.0

HANGING = f"""\
import sys
import time

sys.path.insert(0, {str(RUNTIME)!r})
from triton_ascend.asc003_loop_carried import workload as launch_once


def workload():
    launch_once()
    while True:  # never returns: stopped at the timeout
        time.sleep(0.05)
"""


def test_the_launches_a_hanging_workload_made_are_replayed_in_the_interpreter(tmp_path: Path):
    result = lint_source(FIXTURE.read_text(), str(FIXTURE), settings(select=["ASC003"]))
    [finding] = result.findings
    workload = tmp_path / "workload.py"
    workload.write_text(HANGING)
    kernel = KernelRef(str(FIXTURE.resolve()), "triton_ascend.asc003_loop_carried", finding.kernel or "")
    job = ReplayJob(finding, "interpret", Evidence.DOT_CLOBBER_OUTPUTS, Workload(file=str(workload)), kernel)

    outcome = replay_in_subprocess(job, TIMEOUT)

    assert outcome.verdict is Verdict.CONFIRMED, outcome.evidence
    assert "over 1 replayed launch(es)" in outcome.evidence, outcome.evidence
