"""The read of a clobbered tile (ASC003, interpret backend) is the evaluation of the finding's
expression: its value is poisoned wherever it flows — into a ``@triton.jit`` helper's
parameter, into a call black spreads over several lines (the call executes on its first line)
— while the tile's other reads still load its values. Before, the poison was shown by rows:
the helper's body and the call's first line saw the tile intact, and these reads, which store
the clobbered tile, were REFUTED. Runs the real interpreter."""

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

READS = """\
import torch
import triton
import triton.language as tl


@triton.jit
def put(p, t):
    tl.store(p, t)


@triton.jit
def total(t):
    return tl.sum(t, axis=1)


@triton.jit
def flow_kernel(a_ptr, b_ptr, o_ptr, p_ptr, q_ptr, s_ptr):
    r = tl.arange(0, 16)
    offs = r[:, None] * 16 + r[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    acc = tl.dot(a, b)
    tl.store(o_ptr + offs, acc)
    b_t = total(a)  # helper, value unused
    put(p_ptr + offs, a)  # helper, stored
    b_u = tl.max(
        a,  # multi-line call, value unused
        axis=1,
    )
    tl.store(
        q_ptr + offs,
        a,  # multi-line call, stored
    )
    tl.store(s_ptr + r, tl.sum(b, axis=1))


def workload():
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(16, 16, generator=gen), torch.randn(16, 16, generator=gen)
    o, p, q, s = torch.zeros(16, 16), torch.zeros(16, 16), torch.zeros(16, 16), torch.zeros(16)
    flow_kernel[(1,)](a, b, o, p, q, s)
"""


def test_a_read_is_poisoned_wherever_its_value_flows_and_only_there(tmp_path: Path):
    path = tmp_path / "triton_ascend" / "flow.py"
    path.parent.mkdir()
    path.write_text(READS)
    findings = lint_source(READS, str(path), settings(select=["ASC003"])).findings
    kernel = KernelRef(str(path.resolve()), "triton_ascend.flow", "flow_kernel")
    jobs = [ReplayJob(f, "interpret", Evidence.DOT_CLOBBER_OUTPUTS, Workload(file=str(path)), kernel) for f in findings]

    outcomes = replay_batch_in_subprocess(jobs, 120.0)  # one process: the imports once

    lines = READS.splitlines()
    verdicts = {
        lines[o.finding.location.row - 1].split("#")[-1].strip(): (o.verdict.value, o.evidence) for o in outcomes
    }
    assert sorted(verdicts) == [
        "helper, stored",
        "helper, value unused",
        "multi-line call, stored",
        "multi-line call, value unused",
    ], verdicts
    # the stored reads change their own output, and only it
    for read, output, others in (("helper, stored", "p_ptr", "q_ptr"), ("multi-line call, stored", "q_ptr", "p_ptr")):
        verdict, evidence = verdicts[read]
        assert verdict == "CONFIRMED" and output in evidence and others not in evidence, (read, evidence)
    # the reads whose values go nowhere: their poison does not reach the stored reads, nor do
    # the stored reads' helper body or multi-line call show them the poison
    assert verdicts["helper, value unused"][0] == "REFUTED", verdicts["helper, value unused"]
    assert verdicts["multi-line call, value unused"][0] == "REFUTED", verdicts["multi-line call, value unused"]
