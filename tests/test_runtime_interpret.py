"""Value replays of ASC003 in triton-ascend's interpreter, standard vs Ascend ``tl.dot`` semantics.

Everything runs for real: the interpreter on CPU tensors, in worker subprocesses. The fixtures
in ``fixtures/runtime/triton_ascend/asc003_*.py`` are small kernels with a host wrapper and a
seeded ``workload()``.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace

import pytest

pytest.importorskip("triton", reason="needs the runtime extra (triton-ascend)")
pytest.importorskip("torch", reason="needs the runtime extra (torch)")

from value_cases import BUGS, FIXTURES, SAFE, finding, fixed_finding, hand_fixed, line_edits, row_of

from ascend_lint.cli import main
from ascend_lint.model import Finding, Position
from ascend_lint.rule import Evidence
from ascend_lint.runtime_check import backends
from ascend_lint.runtime_check.capture.launches import KernelRef
from ascend_lint.runtime_check.capture.workload import Workload
from ascend_lint.runtime_check.device import DEFAULT_MODEL
from ascend_lint.runtime_check.jobs import ReplayJob
from ascend_lint.runtime_check.replay_child import replay_in_subprocess
from ascend_lint.runtime_check.value import interpret
from ascend_lint.runtime_check.value.evidence import differences
from ascend_lint.runtime_check.value.launches import compare_runs
from ascend_lint.runtime_check.value.worker import run_in_subprocess
from ascend_lint.runtime_check.verdicts import Verdict

pytestmark = pytest.mark.runtime

TIMEOUT = 120.0


def _judge(flagged: Finding) -> tuple[Verdict, str, list]:
    kernel = KernelRef(flagged.filename, "m", flagged.kernel)
    job = interpret.value_job(flagged, Workload(file=flagged.filename), kernel, DEFAULT_MODEL)
    result = run_in_subprocess(job, TIMEOUT)
    verdict, evidence = interpret.judge(flagged, flagged.kernel, result)
    return verdict, evidence, differences(result.launches, result.runs[1])


@pytest.mark.parametrize("fixture", sorted(BUGS))
def test_clobbered_read_is_confirmed_and_the_fix_verified(fixture):
    pytest.importorskip("ascend_lint.fixes", reason="the fixed variant is made with ascend_lint.fixes")
    kernel, output, _ = BUGS[fixture]

    verdict, evidence, changed = _judge(fixed_finding(fixture))

    assert verdict is Verdict.CONFIRMED, evidence
    assert [d.tensor for d in changed] == [f"{kernel} launch 0: {output}"]
    assert changed[0].mismatched > 0 and changed[0].max_abs_diff > 0
    assert "Fix verified" in evidence


@pytest.mark.parametrize("fixture", sorted(SAFE))
def test_documented_safe_pattern_is_refuted(fixture):
    kernel, read = SAFE[fixture]
    verdict, evidence, changed = _judge(finding(fixture, kernel, read))

    assert verdict is Verdict.REFUTED, evidence
    assert changed == []
    assert "does not reach them on this workload" in evidence


@pytest.mark.parametrize("fixture", sorted(BUGS))
def test_hand_fixed_kernel_is_exact_under_both_semantics(fixture):
    """The check the autofix tests make with the linter's own fixed source."""
    _, _, replacements = BUGS[fixture]
    source = (FIXTURES / fixture).read_text()

    check = interpret.check_fixed_source(source, hand_fixed(source, replacements))

    assert check == interpret.FixCheck(standard=[], ascend=[])


def test_fix_check_catches_an_unfixed_kernel():
    source = (FIXTURES / "asc003_nested_dot.py").read_text()

    check = interpret.check_fixed_source(source, source)

    assert check.standard == []
    assert [d.tensor for d in check.ascend] == ["chain_product_kernel launch 0: a_copy"]


WRAPPERS = """
import torch
import triton
import triton.language as tl


@triton.jit
def wrappers_kernel(x, w, o_cast, o_neg, o_copy, BT: tl.constexpr):
    o_i = tl.arange(0, BT)
    tile = o_i[:, None] * BT + o_i[None, :]
    b_w = tl.load(w + tile)
    b_c = tl.load(x + tile)
    tl.dot(tl.cast(b_c, tl.float16), b_w.to(tl.float16))
    tl.store(o_cast + tile, b_c)
    b_n = tl.load(x + tile)
    tl.dot(-b_n, b_w)
    tl.store(o_neg + tile, b_n)
    b_p = tl.load(x + tile)
    b_p_copy = b_p + 0.0
    tl.dot(b_p_copy, b_w)
    tl.store(o_copy + tile, b_p)


def workload():
    gen = torch.Generator().manual_seed(0)
    x, w = (torch.randn(16, 16, generator=gen) for _ in range(2))
    outs = [torch.zeros(16, 16) for _ in range(3)]
    wrappers_kernel[(1,)](x, w, *outs, BT=16)
"""


def test_emulation_clobbers_through_wrappers_but_not_copies():
    changed = compare_runs(interpret.run_source(WRAPPERS, emulate=False), interpret.run_source(WRAPPERS, emulate=True))

    clobbered = sorted(d.tensor for d in changed)
    assert clobbered == ["wrappers_kernel launch 0: o_cast", "wrappers_kernel launch 0: o_neg"]


def test_run_source_reports_a_failing_workload():
    with pytest.raises(RuntimeError, match="defines no workload"):
        interpret.run_source("x = 1\n", emulate=False)


def test_asc006_fixtures_agree_in_the_interpreter():
    """The CPU reference the NPU backend compares against: both variants compute row sums."""
    import torch

    bug = interpret.run_source((FIXTURES / "asc006_task_loop_ptr_advance.py").read_text(), emulate=False)
    rebound = interpret.run_source((FIXTURES / "asc006_task_loop_rebound.py").read_text(), emulate=False)
    x = torch.randn(5, 32, 16, generator=torch.Generator().manual_seed(0))

    assert compare_runs(bug, rebound) == []
    assert torch.allclose(torch.from_numpy(bug[0].outputs["y"]), x.sum(1), atol=1e-5)


def _skip_on_an_npu():
    if backends.unavailable("npu") is None:
        pytest.skip("an NPU is present: auto picks npu")


@pytest.mark.parametrize(
    "code, backend",
    [
        ("ASC001", "compile"),
        ("ASC002", "compile"),
        ("ASC003", "interpret"),
        ("ASC004", "compile"),
        ("ASC005", "compile"),
    ],
)
def test_auto_picks_the_strongest_backend_without_an_npu(code, backend):
    _skip_on_an_npu()
    finding = Finding(code, "x", "m", "k.py", Position(1, 1), Position(1, 2))
    assert backends.plan("auto", finding).backend == backend


def test_auto_says_asc006_needs_an_npu():
    _skip_on_an_npu()
    fixture = FIXTURES / "asc006_task_loop_ptr_advance.py"
    row = row_of(fixture.read_text(), "p_x += ")
    flagged = Finding(
        "ASC006",
        "task-loop-pointer-accumulation",
        "m",
        str(fixture),
        Position(row, 9),
        Position(row, 11),
        kernel="chunk_sum_kernel",
    )
    plan = backends.plan("auto", flagged)
    kernel = KernelRef(str(fixture), "m", "chunk_sum_kernel")
    job = ReplayJob(flagged, plan.backend, plan.evidence, Workload(file=str(fixture)), kernel)

    outcome = replay_in_subprocess(job, TIMEOUT)

    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert outcome.evidence.startswith("needs an NPU")


def test_worker_runs_the_registered_interpret_backend():
    fixture = "asc003_nested_dot.py"
    kernel, _, replacements = BUGS[fixture]
    flagged = finding(fixture, kernel, replacements[-1][0])
    job = ReplayJob(
        flagged,
        "interpret",
        Evidence.DOT_CLOBBER_OUTPUTS,
        Workload(file=flagged.filename),
        KernelRef(flagged.filename, "m", kernel),
    )

    outcome = replay_in_subprocess(job, TIMEOUT)

    assert (outcome.verdict, outcome.backend) == (Verdict.CONFIRMED, "interpret"), outcome.evidence
    assert "a_copy" in outcome.evidence and "no fix to verify" in outcome.evidence
    assert [report.ok for report in outcome.variants] == [True, True]


def test_confirm_replays_the_linters_own_asc003_findings():
    """``ascend-lint confirm`` end to end: the linter's findings, auto backend, JSON report."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exit_code = main(
            [
                "confirm",
                str(FIXTURES),
                "--workload",
                str(FIXTURES.parent / "workload_asc003.py"),
                "--select",
                "ASC003",
                "--isolated",
                "--output-format",
                "json",
            ]
        )
    findings = json.loads(out.getvalue())["findings"]

    assert exit_code == 1
    assert sorted(f["filename"].rsplit("/", 1)[-1] for f in findings) == sorted(BUGS)
    for flagged in findings:
        replays = [variant["variant"] for variant in flagged["variants"]]
        assert (flagged["verdict"], flagged["backend"]) == ("CONFIRMED", "interpret"), flagged["evidence"]
        assert ("Fix verified" in flagged["evidence"]) == any(
            name.startswith("fixed (Ascend tl.dot") for name in replays
        ), flagged["evidence"]


# A fix of the ASC006 fixture in the rule's closed form: rebind the pointers from their base at
# the top of each task instead of advancing them across tasks.
ASC006_REBOUND = [
    (
        "        b_acc = tl.zeros([BD], dtype=tl.float32)\n",
        "        p_x = x + task_id * T * BD\n        p_y = y + task_id * BD\n        b_acc = tl.zeros([BD], dtype=tl.float32)\n",
    ),
    ("        p_x += num_core * T * BD\n        p_y += num_core * BD\n", ""),
]


def _asc006_outcome(replacements: list[tuple[str, str]]):
    """The linter's ASC006 finding on the fixture, carrying ``replacements`` as its fix, judged by
    the interpret backend (the rule's own fix, when it offers one, is checked the same way)."""
    from conftest import settings

    from ascend_lint.engine import lint_source
    from ascend_lint.model import Fix

    fixture = FIXTURES / "asc006_task_loop_ptr_advance.py"
    source = fixture.read_text()
    [flagged, *_] = lint_source(source, str(fixture), settings(select=["ASC006"])).findings
    edits = line_edits(source, hand_fixed(source, replacements))
    flagged = replace(flagged, fix=Fix("unsafe", "rebind per task", edits))
    plan = backends.plan("interpret", flagged)
    kernel = KernelRef(str(fixture), "m", "chunk_sum_kernel")
    job = ReplayJob(flagged, plan.backend, plan.evidence, Workload(file=str(fixture)), kernel)
    return replay_in_subprocess(job, TIMEOUT)


def test_asc006_fix_is_verified_by_value_while_the_bug_needs_an_npu():
    outcome = _asc006_outcome(ASC006_REBOUND)

    assert outcome.verdict is Verdict.INCONCLUSIVE and outcome.evidence.startswith("needs an NPU")
    assert "Fix verified" in outcome.evidence and "grid (2,)" in outcome.evidence, outcome.evidence


def test_asc006_fix_that_changes_the_values_is_not_verified():
    outcome = _asc006_outcome([*ASC006_REBOUND, ("b_acc += ", "b_acc -= ")])

    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "Fix NOT verified" in outcome.evidence and "y:" in outcome.evidence, outcome.evidence


# One tile, three reads after the dot: the dot's own next trip (loop-carried), a read under a
# flag the launch leaves False, a store after the loop. Each finding's evidence is its own read's.
SCOPED_READS = """import torch
import triton
import triton.language as tl


@triton.jit
def scoped_kernel(a_ptr, b_ptr, o_ptr, p_ptr, TRIPS, FLAG: tl.constexpr):
    r = tl.arange(0, 16)
    offs = r[:, None] * 16 + r[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    acc = tl.zeros((16, 16), dtype=tl.float32)
    for _ in range(TRIPS):
        acc += tl.dot(a, b)
    if FLAG:
        acc += a * 2.0
    tl.store(o_ptr + offs, acc)
    tl.store(p_ptr + offs, a)


def workload():
    torch.manual_seed(0)
    a, b = torch.randn(16, 16), torch.randn(16, 16)
    o, p = torch.zeros(16, 16), torch.zeros(16, 16)
    scoped_kernel[(1,)](a, b, o, p, TRIPS, FLAG=False)
"""


def _confirm_scoped(tmp_path, trips: int) -> dict[int, dict]:
    path = tmp_path / "triton_ascend" / "scoped_reads.py"
    path.parent.mkdir(parents=True)
    path.write_text(SCOPED_READS.replace("p, TRIPS, FLAG", f"p, {trips}, FLAG"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(
            [
                "confirm",
                str(path),
                "--workload",
                str(path),
                "--select",
                "ASC003",
                "--isolated",
                "--output-format",
                "json",
            ]
        )
    return {f["location"]["row"]: f for f in json.loads(out.getvalue())["findings"]}


def test_each_read_of_one_clobbered_tile_is_judged_on_its_own_read(tmp_path):
    """A CONFIRMED needs the finding's own read to run after the clobber and to change the
    outputs: the clobber is shown to that read only."""
    findings = _confirm_scoped(tmp_path, trips=1)
    source = SCOPED_READS
    dot, flagged, store = (row_of(source, text) for text in ("tl.dot(a, b)", "a * 2.0", "tl.store(p_ptr"))
    assert sorted(findings) == [dot, flagged, store]

    # under `if FLAG:` with FLAG=False: the line never ran (was CONFIRMED by the store's read)
    assert findings[flagged]["verdict"] == "INCONCLUSIVE", findings[flagged]["evidence"]
    assert findings[flagged]["evidence"].startswith(f"line {flagged} never ran"), findings[flagged]["evidence"]
    # the loop made one trip: no next trip reads the clobbered tile (was CONFIRMED by the store)
    assert findings[dot]["verdict"] == "INCONCLUSIVE", findings[dot]["evidence"]
    assert "made one trip" in findings[dot]["evidence"], findings[dot]["evidence"]
    # the store's read is the only one that changes p, and only p
    assert findings[store]["verdict"] == "CONFIRMED", findings[store]["evidence"]
    assert "p_ptr" in findings[store]["evidence"] and "o_ptr" not in findings[store]["evidence"]
    assert f"the dot at line {dot} ran 1 time(s)" in findings[store]["evidence"]


def test_a_loop_carried_read_is_confirmed_by_the_next_trip_only(tmp_path):
    findings = _confirm_scoped(tmp_path, trips=2)
    dot = row_of(SCOPED_READS, "tl.dot(a, b)")

    evidence = findings[dot]["evidence"]
    assert findings[dot]["verdict"] == "CONFIRMED", evidence
    # the dot's second trip reads the clobbered tile: o changes; the store of a after the loop does not
    assert "o_ptr" in evidence and "p_ptr" not in evidence, evidence
    assert f"the dot at line {dot} ran 2 time(s)" in evidence, evidence
