"""``confirm`` verdicts rest only on evidence about the finding's own kernel, line and launch.

Each test replays a fixture of ``fixtures/runtime/`` for real (the Ascend compiler
or triton-ascend's interpreter, in worker subprocesses): a launch the interpreter used to refuse,
a line a constexpr prunes, another launch's option value; a fixed variant failing elsewhere
leaves the fix unverified, not the finding.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from ascend_lint.runtime_check.toolchain import missing_reason

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}"),
]

from ascend_lint.cli import main  # noqa: E402
from ascend_lint.model import Edit, Finding, Fix, Position  # noqa: E402
from ascend_lint.runtime_check import backends  # noqa: E402
from ascend_lint.runtime_check.capture.recorder import capture_launches  # noqa: E402
from ascend_lint.runtime_check.capture.workload import Workload  # noqa: E402
from ascend_lint.runtime_check.device import DEFAULT_MODEL  # noqa: E402
from ascend_lint.runtime_check.jobs import ReplayJob, match  # noqa: E402
from ascend_lint.runtime_check.replay_child import replay_in_subprocess  # noqa: E402
from ascend_lint.runtime_check.verdicts import Verdict  # noqa: E402

RUNTIME = Path(__file__).resolve().parent.parent / "fixtures" / "runtime"
KERNELS = RUNTIME / "triton_ascend"
# kept apart from triton_ascend/: the ASC003 tests confirm that whole folder with their own workload
LAUNCHES = RUNTIME / "interpreter" / "asc003_launch_options.py"
TIMEOUT = 180.0


def row_of(path: Path, fragment: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if fragment in line)


def confirm(module: str, backend: str, *extra: str) -> dict[tuple[str, int, int], dict]:
    """``ascend-lint confirm`` on a fixture module that is its own workload: findings by
    (code, row, column)."""
    path = str(KERNELS / module if "/" not in module else RUNTIME / module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        options = ["--backend", backend, "--isolated", "--output-format", "json", "--timeout", str(TIMEOUT)]
        main(["confirm", path, "--workload", path, *options, *extra])
    report = json.loads(out.getvalue())
    return {(f["code"], f["location"]["row"], f["location"]["column"]): f for f in report["findings"]}


def one(findings: dict, code: str, row: int) -> dict:
    (found,) = [f for (c, r, _), f in findings.items() if (c, r) == (code, row)]
    return found


@pytest.fixture(scope="module")
def interpreted():
    return confirm("interpreter/asc003_launch_options.py", "interpret")


def test_interpreter_runs_launches_with_ascend_compile_options(interpreted):
    """`multibuffer=True` is an option of triton-ascend's launcher (an `NPUOptions` field): the
    interpreter drops it as it drops `num_warps`, and the clobber is decided."""
    row = row_of(LAUNCHES, "b_o += tl.dot(b_q, b_k)")
    finding = one(interpreted, "ASC003", row)
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "Fix verified" in finding["evidence"]


def test_interpreter_runs_to_on_a_float_argument(interpreted):
    """A float argument is an fp32 scalar when compiled: `scale.to(tl.float32)` runs."""
    path = LAUNCHES
    row = row_of(path, "def scaled_sum_kernel") + 7
    finding = one(interpreted, "ASC003", row)
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]


def test_a_launch_the_interpreter_cannot_run_says_why(interpreted):
    path = LAUNCHES
    row = row_of(path, "def asm_sum_kernel") + 7
    finding = one(interpreted, "ASC003", row)
    assert finding["verdict"] == "INCONCLUSIVE", finding["evidence"]
    assert finding["evidence"].startswith(
        f"the interpreter could not run asm_sum_kernel launch 0, line {row_of(path, 'b_o = tl.inline_asm_elementwise')}: "
        "NotImplementedError: inline_asm not supported in interpreter mode"
    ), finding["evidence"]
    assert "never launched" not in finding["evidence"]


def test_a_dot_in_a_branch_the_launch_prunes_is_inconclusive(interpreted):
    path = LAUNCHES
    row = row_of(path, "def optional_sum_kernel") + 8
    finding = one(interpreted, "ASC003", row)
    assert finding["verdict"] == "INCONCLUSIVE", finding["evidence"]
    assert f"the tl.dot at line {row} never runs" in finding["evidence"]


@pytest.fixture(scope="module")
def pruned():
    return confirm("asc005_pruned_residual.py", "compile")


def test_a_dma_branch_the_launch_compiles_out_is_inconclusive(pruned):
    row = row_of(KERNELS / "asc005_pruned_residual.py", "if i_t == NT - 1:")
    finding = one(pruned, "ASC005", row)
    assert finding["verdict"] == "INCONCLUSIVE", finding["evidence"]
    assert f"line {row} was not compiled for the launched specialisation" in finding["evidence"]
    assert "HAS_RESIDUAL = False" in finding["evidence"]


def test_a_to_the_launch_compiles_out_is_not_refuted(pruned):
    row = row_of(KERNELS / "asc005_pruned_residual.py", "eps.to(tl.float32)")
    finding = one(pruned, "ASC002", row)
    assert finding["verdict"] == "INCONCLUSIVE", finding["evidence"]
    assert f"line {row} was not compiled for the launched specialisation" in finding["evidence"]
    assert "USE_EPS = False" in finding["evidence"]


@pytest.fixture(scope="module")
def two_launches():
    return confirm("asc001_two_launches.py", "compile")


def test_a_launch_never_made_is_not_judged_on_another_launchs_value(two_launches):
    path = KERNELS / "asc001_two_launches.py"
    unreached = row_of(path, "num_warps=4, num_stages=2")
    finding = two_launches[("ASC001", unreached, path.read_text().splitlines()[unreached - 1].index("num_warps") + 1)]
    assert finding["verdict"] == "INCONCLUSIVE", finding["evidence"]
    assert finding["evidence"] == f"the workload never made the launch at line {unreached}"
    made = one(two_launches, "ASC001", row_of(path, "BLOCK=256, num_warps=8"))
    assert made["verdict"] == "CONFIRMED" and "num_warps=8" in made["evidence"], made["evidence"]


def test_each_autotune_config_is_judged_on_its_own_launch(two_launches):
    path = KERNELS / "asc001_two_launches.py"
    for block in (64, 128):
        finding = one(two_launches, "ASC001", row_of(path, f'{{"BLOCK": {block}}}, num_warps=4'))
        assert finding["verdict"] == "CONFIRMED", finding["evidence"]
        assert {v["launch"].split("BLOCK: ")[-1] for v in finding["variants"]} == {f"constexpr = {block}"}


@pytest.fixture(scope="module")
def two_guards():
    return confirm("asc004_two_guards.py", "compile", "--select", "ASC004")


def test_a_none_pointer_error_in_another_guard_is_no_evidence(two_guards):
    path = KERNELS / "asc004_two_guards.py"
    first = row_of(path, "b_h = tl.load(h0 + o_d)")
    finding = one(two_guards, "ASC004", row_of(path, "if STORE_FINAL_STATE and i_t == 0:"))
    assert finding["verdict"] == "INCONCLUSIVE", finding["evidence"]
    assert f"the compile fails at line {first}, not in the `if` at the finding's line" in finding["evidence"]


def test_a_fixed_variant_failing_elsewhere_leaves_the_original_evidence(two_guards):
    """The original fails inside the flagged `if`: that is the evidence. The fixed variant then
    fails at the other guard, which only leaves the fix unverified."""
    path = KERNELS / "asc004_two_guards.py"
    finding = one(two_guards, "ASC004", row_of(path, "if USE_INITIAL_STATE and i_t == 0:"))
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "the fix is not verified: the fixed variant fails at line" in finding["evidence"]
    assert "fails too" not in finding["evidence"]


def test_a_pointer_offset_fix_failing_elsewhere_leaves_the_original_evidence():
    """A fix that widens `start` to int64 (the shipped rule declines it) makes the block
    pointer's offsets int64: the compiler rejects them on another line."""
    path = KERNELS / "asc008_fix_breaks_block_ptr.py"
    row = row_of(path, "start = bos * D")
    column = path.read_text().splitlines()[row - 1].index("bos * D") + 1
    widen = Edit(Position(row, column), Position(row, column + 3), "bos.to(tl.int64)")
    fix = Fix("unsafe", "widen", (widen,))
    finding = Finding(
        "ASC008", "wider", "hand-made", str(path), Position(row, column), Position(row, column + 7), fix=fix
    )
    workload = Workload(file=str(path))
    kernel, launches = match(finding, path.read_text(), capture_launches(workload, DEFAULT_MODEL, TIMEOUT))
    job = ReplayJob(finding, "compile", backends.plan("compile", finding).evidence, workload, kernel, launches)
    outcome = replay_in_subprocess(job, TIMEOUT)
    assert outcome.verdict is Verdict.CONFIRMED, outcome.evidence
    block_ptr = row_of(path, "tl.make_block_ptr")
    assert (
        f"the fix is not verified: the fixed variant fails at line {block_ptr}, away from the finding's line ({row} once fixed)"
        in (outcome.evidence)
    )
    assert "Block pointers only support 32 bit" in outcome.evidence
    assert "fails too" not in outcome.evidence


def test_a_name_bound_only_under_the_flag_is_the_pointers_own_compile_error():
    """With `h0=None` a mixed arm reading `p_h0` / `b_h0` (bound from `h0` only under `if
    USE_H0:`) fails with a NameError, not a NoneType error: that is the finding's evidence too,
    and the nested fix compiles. A mixed conditional expression fails in its own row."""
    path = KERNELS / "asc004_derived_state.py"
    findings = confirm("asc004_derived_state.py", "compile", "--select", "ASC004")
    for name, fragment in (("p_h0", "b += tl.load(p_h0"), ("b_h0", "b += b_h0")):
        finding = one(findings, "ASC004", row_of(path, fragment) - 1)
        assert finding["verdict"] == "CONFIRMED", finding["evidence"]
        assert f"{name} is not defined" in finding["evidence"]
        assert "the fixed variant compiles" in finding["evidence"]
    choice = one(findings, "ASC004", row_of(path, "if (USE_H0 and i_t < W) else"))
    assert choice["verdict"] == "CONFIRMED", choice["evidence"]
    assert "NoneType" in choice["evidence"]
