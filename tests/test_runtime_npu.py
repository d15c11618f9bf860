"""``--backend npu``: the fixtures replayed on a real Ascend NPU, compared with the interpreter.

Skipped with the reason on machines without torch_npu and an Ascend device (written without
access to one: the expectations below are the documented NPU behaviour, not yet measured).
"""

from __future__ import annotations

import pytest

pytest.importorskip("triton", reason="needs the runtime extra (triton-ascend)")

from value_cases import BUGS, FIXTURES, SAFE, finding, fixed_finding, row_of

from ascend_lint.model import Finding, Position
from ascend_lint.rule import Evidence
from ascend_lint.runtime_check.capture.launches import KernelRef
from ascend_lint.runtime_check.capture.workload import Workload
from ascend_lint.runtime_check.jobs import ReplayJob
from ascend_lint.runtime_check.replay_child import replay_in_subprocess
from ascend_lint.runtime_check.value import npu
from ascend_lint.runtime_check.verdicts import Verdict

NO_NPU = npu.missing_reason()
pytestmark = [pytest.mark.npu, pytest.mark.skipif(NO_NPU is not None, reason=str(NO_NPU))]

TIMEOUT = 600.0


def _on_npu(flagged: Finding, kernel: str):
    workload = Workload(file=flagged.filename)
    job = ReplayJob(flagged, "npu", Evidence.DEVICE_OUTPUTS, workload, KernelRef(flagged.filename, "m", kernel))
    return replay_in_subprocess(job, TIMEOUT)


@pytest.mark.parametrize("fixture", sorted(BUGS))
def test_asc003_clobber_is_confirmed_on_the_npu(fixture):
    pytest.importorskip("ascend_lint.fixes", reason="the fixed variant is made with ascend_lint.fixes")
    outcome = _on_npu(fixed_finding(fixture), BUGS[fixture][0])

    assert (outcome.verdict, outcome.backend) == (Verdict.CONFIRMED, "npu"), outcome.evidence
    assert "Fix verified" in outcome.evidence


@pytest.mark.parametrize("fixture", sorted(SAFE))
def test_asc003_safe_pattern_is_refuted_on_the_npu(fixture):
    kernel, read = SAFE[fixture]
    outcome = _on_npu(finding(fixture, kernel, read), kernel)

    assert outcome.verdict is Verdict.REFUTED, outcome.evidence


@pytest.mark.parametrize(
    "fixture, verdict",
    [
        ("asc006_task_loop_ptr_advance.py", Verdict.CONFIRMED),
        ("asc006_task_loop_rebound.py", Verdict.REFUTED),
    ],
)
def test_asc006_task_loop_on_the_npu(fixture, verdict):
    path = FIXTURES / fixture
    row = row_of(path.read_text(), "for task_id in")
    flagged = Finding(
        "ASC006",
        "task-loop-pointer-accumulation",
        "pointer advanced across tasks",
        str(path),
        Position(row, 5),
        Position(row, 8),
        kernel="chunk_sum_kernel",
    )

    outcome = _on_npu(flagged, "chunk_sum_kernel")

    assert outcome.verdict is verdict, outcome.evidence
