"""Two reads of one clobbered tile on one line (ASC003, interpret backend): each finding is
judged on its own read only. The poison is shown from the instruction loading the finding's
read to the next load of the tile on the line; before, both reads of the row saw it, and the
read whose value goes nowhere was CONFIRMED by the other's. Runs the real interpreter."""

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
from ascend_lint.runtime_check.replay_child import replay_batch_in_subprocess

pytestmark = pytest.mark.runtime

SAME_LINE_READS = """\
import torch
import triton
import triton.language as tl


@triton.jit
def same_line_kernel(a_ptr, b_ptr, o_ptr, s_ptr, v_ptr, BS: tl.constexpr):
    offs = tl.arange(0, BS)
    b_a = tl.load(a_ptr + offs[:, None] * BS + offs[None, :])
    b_b = tl.load(b_ptr + offs[:, None] * BS + offs[None, :])
    b_c = tl.dot(b_a, b_b)
    b_s = tl.sum(b_a, axis=1); b_t = tl.max(b_a, axis=1)
    b_u = tl.max(b_a, axis=1); b_v = tl.sum(b_a, axis=1)
    tl.store(o_ptr + offs[:, None] * BS + offs[None, :], b_c)
    tl.store(s_ptr + offs, b_s)
    tl.store(v_ptr + offs, b_v)


def workload():
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(16, 16, generator=gen), torch.randn(16, 16, generator=gen)
    o, s, v = torch.zeros(16, 16), torch.zeros(16), torch.zeros(16)
    same_line_kernel[(1,)](a, b, o, s, v, BS=16)
"""


def test_each_of_two_reads_on_one_line_is_judged_on_its_own_read(tmp_path: Path):
    path = tmp_path / "triton_ascend" / "same_line.py"
    path.parent.mkdir()
    path.write_text(SAME_LINE_READS)
    findings = lint_source(SAME_LINE_READS, str(path), settings(select=["ASC003"])).findings
    kernel = KernelRef(str(path.resolve()), "triton_ascend.same_line", "same_line_kernel")
    workload = Workload(file=str(path))
    jobs = [ReplayJob(f, "interpret", Evidence.DOT_CLOBBER_OUTPUTS, workload, kernel) for f in findings]

    outcomes = replay_batch_in_subprocess(jobs, 120.0)  # one process: the imports once

    lines = SAME_LINE_READS.splitlines()
    verdicts = {}
    for outcome in outcomes:
        row, column = outcome.finding.location.row, outcome.finding.location.column
        assigned = lines[row - 1][: column - 1].rsplit(";", 1)[-1].split("=")[0].strip()
        verdicts[assigned] = (outcome.verdict.value, outcome.evidence)
    assert sorted(verdicts) == ["b_s", "b_t", "b_u", "b_v"], verdicts
    # the reads whose values are stored change the outputs, each its own tensor
    assert verdicts["b_s"][0] == "CONFIRMED" and "s_ptr" in verdicts["b_s"][1], verdicts["b_s"]
    assert "v_ptr" not in verdicts["b_s"][1], verdicts["b_s"]
    assert verdicts["b_v"][0] == "CONFIRMED" and "v_ptr" in verdicts["b_v"][1], verdicts["b_v"]
    assert "s_ptr" not in verdicts["b_v"][1], verdicts["b_v"]
    # the reads whose values go nowhere, after and before the stored read on their line
    assert verdicts["b_t"][0] == "REFUTED", verdicts["b_t"]
    assert verdicts["b_u"][0] == "REFUTED", verdicts["b_u"]
