"""The ASC003 and ASC006 fixes are right by value: the linter's own fixes, run in
triton-ascend's interpreter.

For each buggy fixture kernel in `fixtures/runtime/triton_ascend/asc003_*.py`, the fixed module
must give exactly the original's outputs under standard `tl.dot` semantics (`+ 0.0` copies
change no value), and keep giving them when every dot clobbers its left operand as on the NPU
(where the original's outputs change: the emulation has teeth).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="needs the runtime extra (triton-ascend)")
pytest.importorskip("torch", reason="needs the runtime extra (torch)")
np = pytest.importorskip("numpy", reason="needs the runtime extra (numpy)")

from conftest import FIXTURES, settings  # noqa: E402

from ascend_lint.engine import lint_source  # noqa: E402
from ascend_lint.fixer import fix_result  # noqa: E402
from ascend_lint.fixes import apply_edits  # noqa: E402
from ascend_lint.runtime_check.capture.recorder import capture_launches  # noqa: E402
from ascend_lint.runtime_check.capture.workload import Workload  # noqa: E402
from ascend_lint.runtime_check.device import DEFAULT_MODEL  # noqa: E402
from ascend_lint.runtime_check.replay_child import memory_in_subprocess  # noqa: E402
from ascend_lint.runtime_check.toolchain import missing_reason as compiler_missing  # noqa: E402
from ascend_lint.runtime_check.value.interpret import check_fixed_source, run_source  # noqa: E402

pytestmark = pytest.mark.runtime

ASC003 = settings(select=["ASC003"])
KERNELS = sorted((FIXTURES / "runtime" / "triton_ascend").glob("asc003_*.py"))
BUGGY = [path for path in KERNELS if lint_source(path.read_text(), str(path), ASC003).findings]


def outputs(source: str, *, emulate: bool) -> list[dict[str, np.ndarray]]:
    return [launch.outputs for launch in run_source(source, emulate=emulate)]


def same(a: list[dict[str, np.ndarray]], b: list[dict[str, np.ndarray]]) -> bool:
    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(np.array_equal(x[k], y[k], equal_nan=True) for k in x)
        for x, y in zip(a, b, strict=False)
    )


def test_every_buggy_fixture_is_covered():
    assert len(BUGGY) >= 6, [p.name for p in BUGGY]


@pytest.mark.parametrize("path", BUGGY, ids=lambda p: p.name)
def test_fixed_kernel_keeps_standard_values_and_survives_the_clobber(path):
    source = path.read_text()
    result, fixed = fix_result(lint_source(source, str(path), ASC003), ASC003, unsafe=True)
    assert fixed is not None and not result.findings, result.findings

    reference = outputs(source, emulate=False)
    assert reference, "the workload launched nothing"
    assert not same(outputs(source, emulate=True), reference), "the emulated clobber changed nothing"
    assert same(outputs(fixed.fixed, emulate=False), reference)
    assert same(outputs(fixed.fixed, emulate=True), reference)


# Kernels whose dot takes a choice of two tiles the front end folds per specialisation (the
# chosen tile itself, not a copy), launched in both: the chosen tile is read after the dot.
CHOICE_HEADER = """
import torch
import triton
import triton.language as tl
"""
CHOICE_WORKLOAD = """

def workload():
    gen = torch.Generator().manual_seed(0)
    a, b, w = (torch.randn(16, 16, generator=gen) for _ in range(3))
    outs = []
    for flag in (False, True):
        o, o2 = torch.zeros(16, 16), torch.zeros(16, 16)
        kernel[(1,)](a, b, w, o, o2, BT=16, FLAG=flag)
        outs += [o, o2]
    return outs
"""
CHOICES = {
    # the choice bound to a name first: the name is the chosen tile
    "bound": """
@triton.jit
def kernel(a, b, w, o, o2, BT: tl.constexpr, FLAG: tl.constexpr):
    tile = tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :]
    b_a = tl.load(a + tile)
    b_b = tl.load(b + tile)
    b_lhs = b_b if FLAG else b_a
    b_o = tl.dot(b_lhs, tl.load(w + tile))
    tl.store(o + tile, b_o + b_a)
    tl.store(o2 + tile, b_b)
""",
    # written in the dot, after a device function's dot clobbered one of the tiles: the read in
    # the choice and the one after it need a copy each, and the other tile one of its own
    "in the dot": """
@triton.jit
def project(x, w, o, tile):
    y = tl.dot(x, w)
    tl.store(o + tile, y + x)
    return y


@triton.jit
def kernel(a, b, w, o, o2, BT: tl.constexpr, FLAG: tl.constexpr):
    tile = tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :]
    b_a = tl.load(a + tile)
    b_b = tl.load(b + tile)
    b_y = project(b_a, tl.load(w + tile), o, tile)
    b_z = tl.dot(b_a if FLAG else b_b, b_y)
    tl.atomic_add(o2 + tile, b_a)
    tl.store(o + tile, b_z + b_b)
""",
    # a choice between two views of one tile, the left operand on every trip: both arms read the
    # tile the previous trip's dot clobbered, so the dot consumes a copy in both
    "same tile": """
@triton.jit
def kernel(a, b, w, o, o2, BT: tl.constexpr, FLAG: tl.constexpr):
    tile = tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :]
    b_a = tl.load(a + tile)
    acc = tl.zeros([BT, BT], dtype=tl.float32)
    for i in range(2):
        acc += tl.dot(tl.trans(b_a) if FLAG else b_a, tl.load(w + tile))
    tl.store(o + tile, acc)
    tl.store(o2 + tile, tl.load(b + tile))
""",
}


@pytest.mark.parametrize("kernel", sorted(CHOICES))
def test_fixed_constexpr_choice_of_left_operand_survives_the_clobber(kernel):
    source = CHOICE_HEADER + CHOICES[kernel] + CHOICE_WORKLOAD
    result, fixed = fix_result(lint_source(source, "choice.py", ASC003), ASC003, unsafe=True)
    assert fixed is not None and not result.findings, result.findings

    reference = outputs(source, emulate=False)
    assert not same(outputs(source, emulate=True), reference), "the emulated clobber changed nothing"
    assert same(outputs(fixed.fixed, emulate=False), reference)
    assert same(outputs(fixed.fixed, emulate=True), reference), fixed.fixed


# ---- ASC006: the closed-form rebinding is the same program ---------------------------------
#
# Each fixed kernel runs in the interpreter (standard semantics) on seeded inputs, original
# and fixed, with fewer programs than tasks (so every core walks several tasks): the outputs
# must be identical. The per-task-offset fix (`q += task_id * T` → `q_task = ...`) changes
# values on purpose and is checked against a reference instead.

ASC006 = settings(select=["ASC006"])
CLOSED_FORM = "in closed form"
ASC006_FIXTURES = sorted(FIXTURES.glob("**/triton_ascend/asc006_*.py"))

# Workloads for ASC006 fixtures that have none of their own: appended to the module.
CUMSUM_WORKLOAD = """

def workload():
    import torch

    gen = torch.Generator().manual_seed(0)
    B, T, BT, num_core = 3, 40, 16, 4
    NT = triton.cdiv(T, BT)
    task_num = B * NT  # 9 tasks on 4 programs
    s = torch.randn(B * T * 4, generator=gen)  # room for the offsets the original accumulates
    o = torch.zeros(task_num * BT)
    chunk_local_cumsum_task_kernel[(num_core,)](s, o, T, task_num, num_core, H=1, BT=BT, NT=NT)
    return o
"""
WALRUS_WORKLOAD = """

def workload():
    import torch

    gen = torch.Generator().manual_seed(0)
    N, D, num_core = 7, 16, 3  # 7 tasks on 3 programs: the pointer advances across tasks
    x = torch.randn((N + num_core) * D, generator=gen)  # room for the offsets the original reads
    y = torch.zeros(N * D)
    walrus_pointer[(num_core,)](x, y, N, D=D, num_core=num_core)
    return y
"""
FIXTURE_WORKLOADS = {
    "asc006_task_loop_pointer_accumulation.py": CUMSUM_WORKLOAD,
    "asc006_assignment_expressions.py": WALRUS_WORKLOAD,
}


def runnable(path) -> str:
    """The fixture as a module with a `workload()`."""
    source = path.read_text()
    return source if "def workload(" in source else source + FIXTURE_WORKLOADS[path.name]


def closed_form_fixed(source: str, filename: str) -> tuple[str, int]:
    """`source` with only ASC006's closed-form fixes applied, and how many findings they fix."""
    findings = lint_source(source, filename, ASC006).findings
    fixes = {f.fix for f in findings if f.fix is not None and CLOSED_FORM in f.fix.message}
    repaired = sum(1 for f in findings if f.fix in fixes)
    return apply_edits(source, [edit for fix in fixes for edit in fix.edits]), repaired


def assert_same_values(original: str, fixed: str) -> None:
    check = check_fixed_source(original, fixed)
    assert not check.standard, [d.describe() for d in check.standard]


CLOSED_FORM_FIXTURES = [p for p in ASC006_FIXTURES if closed_form_fixed(p.read_text(), str(p))[1]]


def test_every_asc006_fixture_with_a_closed_form_fix_is_checked():
    assert {p.name for p in CLOSED_FORM_FIXTURES} == {
        "asc006_assignment_expressions.py",
        "asc006_task_loop_ptr_advance.py",
        "asc006_task_loop_pointer_accumulation.py",
    }


@pytest.mark.parametrize("path", CLOSED_FORM_FIXTURES, ids=lambda p: p.name)
def test_closed_form_fix_keeps_the_values(path):
    source = runnable(path)
    fixed, repaired = closed_form_fixed(source, str(path))
    assert repaired and fixed != source
    left = lint_source(fixed, str(path), ASC006).findings
    assert not [f for f in left if f.fix is not None and CLOSED_FORM in f.fix.message]
    assert_same_values(source, fixed)


def test_a_wrong_closed_form_is_caught():
    """The check has teeth: rebinding from the core's first task instead of the trip's."""
    path = FIXTURES / "runtime" / "triton_ascend" / "asc006_task_loop_ptr_advance.py"
    source = path.read_text()
    fixed, _ = closed_form_fixed(source, str(path))
    wrong = fixed.replace(
        "p_x = x + tl.cast(task_id, tl.int64) * T * BD", "p_x = x + tl.cast(core_id, tl.int64) * T * BD"
    )
    assert wrong != fixed
    with pytest.raises(AssertionError):
        assert_same_values(source, wrong)


def test_per_task_offset_fix_gives_each_task_its_slice():
    """`s += i_bh * T + i_t * BT` becomes `s_task = s + ...`: each task reads its own chunk
    (the original, accumulating, does not), and the walk of `p_o` keeps its values."""
    path = FIXTURES / "triton_ascend" / "asc006_task_loop_pointer_accumulation.py"
    source = runnable(path)
    result, fixed = fix_result(lint_source(source, str(path), ASC006), ASC006, unsafe=True)
    assert fixed is not None and all(f.fix is None for f in result.findings)
    (launch,) = run_source(fixed.fixed, emulate=False)
    s, (T, BT, NT, tasks) = launch.outputs["s"], (40, 16, 3, 9)  # as CUMSUM_WORKLOAD launches it
    expected = []
    for task in range(tasks):
        i_bh, i_t = divmod(task, NT)
        chunk = [s[i_bh * T + i_t * BT + j] if i_t * BT + j < T else 0.0 for j in range(BT)]
        expected.append(np.cumsum(np.array(chunk, dtype=np.float32)))
    np.testing.assert_allclose(launch.outputs["o"], np.concatenate(expected), rtol=1e-5, atol=1e-5)
    (original,) = run_source(source, emulate=False)
    assert not np.allclose(original.outputs["o"], launch.outputs["o"])


# ---- the fixed kernels compile with the real triton-ascend compiler --------------------------

COMPILE_TIMEOUT = 300.0


def compile_errors(source: str) -> list[str]:
    """Compile every launch of the module's `workload()` with triton-ascend + bishengir
    (compile-only toolchain, no NPU); the compiler's errors."""
    with tempfile.TemporaryDirectory(prefix="ascend-lint-fix-compile-") as tmp:
        path = Path(tmp) / "fixed_kernels.py"
        path.write_text(source)
        workload = Workload(file=str(path))
        capture = capture_launches(workload, DEFAULT_MODEL, COMPILE_TIMEOUT)
        assert capture.error is None and capture.launches, capture.error
        errors = []
        for kernel in dict.fromkeys(launch.kernel for launch in capture.launches):
            launches = capture.for_kernel(kernel)
            plans = memory_in_subprocess(kernel, launches, workload, DEFAULT_MODEL, COMPILE_TIMEOUT)
            errors += [f"{plan['kernel']}: {plan['error']}" for plan in plans if plan["error"]]
    return errors


needs_compiler = pytest.mark.skipif(
    compiler_missing() is not None, reason=f"the triton-ascend compiler is missing: {compiler_missing()}"
)


# triton-ascend 3.2 compiles no `:=` in a kernel ("unsupported AST node type: NamedExpr", measured);
# the interpreter runs it, so that fixture's values are checked above
COMPILABLE_CLOSED_FORM_FIXTURES = [p for p in CLOSED_FORM_FIXTURES if ":=" not in p.read_text()]


@needs_compiler
@pytest.mark.parametrize("path", COMPILABLE_CLOSED_FORM_FIXTURES, ids=lambda p: p.name)
def test_fixed_asc006_fixture_compiles(path):
    source = runnable(path)
    _, fixed = fix_result(lint_source(source, str(path), ASC006), ASC006, unsafe=True)
    assert fixed is not None
    assert compile_errors(source) == []  # the control: the original compiles
    assert compile_errors(fixed.fixed) == []


# ---- ASC006 reports the addresses the compiler carries across tasks --------------------------
#
# Each kernel of the block-pointer fixture, compiled with triton-ascend (TTIR and linalg, no NPU):
# a task loop carrying a pointer, plain or block, is an `scf.for` with `iter_args` of `!tt.ptr`
# type (the operands of an `scf.while`), one carrying an offset tile has `iter_args` of integer
# type, and the linalg IR makes both a loop-carried integer offset; a block pointer made at the
# task's offsets carries nothing.

BLOCK_ADVANCE = FIXTURES / "triton_ascend" / "asc006_block_pointer_advance.py"

_COMPILE_TASK_LOOPS = """
import importlib.util, json, re, sys
from pathlib import Path
from ascend_lint.runtime_check import toolchain
chain = toolchain.activate(Path(sys.argv[1]))
import triton
from triton.compiler import ASTSource
spec = importlib.util.spec_from_file_location("kernels", sys.argv[2])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
loop = re.compile(r"= scf\\.(?:for|while) .*")
found = {}
for name, fn in vars(module).items():
    if not isinstance(fn, triton.runtime.JITFunction) or fn.__module__ != "kernels":
        continue
    for tasks in ("i32", "i64"):
        signature = {"x": "*fp32", "y": "*fp32", "T": "i32", "num_tasks": tasks}
        try:
            compiled = triton.compile(
                ASTSource(fn, signature=signature, constants={"BT": 16}), target=chain.target(), options=chain.options()
            )
        except Exception as error:
            found[f"{name}:{tasks}"] = f"error: {error}"
            continue
        for stage, suffix in (("ttir", ""), ("ttadapter", ":linalg")):
            first = re.search(r"scf\\.(?:for|while) .*", compiled.asm[stage])
            found[f"{name}:{tasks}{suffix}"] = first[0] if first else ""
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def task_loops_in_ttir(tmp_path_factory) -> dict[str, str]:
    """Each fixture kernel (`name:i32`, `name:i64`, the type of `num_tasks`) -> its first
    loop's TTIR line (the task loop: no kernel of the fixture has a loop before it), or the
    compile error; `name:i32:linalg` its first loop's line in the linalg IR."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _COMPILE_TASK_LOOPS, str(tmp_path_factory.mktemp("ttir")), str(BLOCK_ADVANCE)],
        capture_output=True,
        text=True,
        timeout=COMPILE_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@needs_compiler
def test_asc006_reports_the_task_loops_that_carry_an_address_in_the_ttir(task_loops_in_ttir):
    """A block pointer made before the task loop and moved with `tl.advance` is an `iter_args`
    value of the task loop, as `p += step` is; one made at the task's offsets, or made per task
    and advanced in an inner loop, is not; an offset tile carries a `tensor<..xi32>`, which the
    linalg IR makes an integer offset carried by the loop, as it makes the pointer's."""
    source = BLOCK_ADVANCE.read_text()
    findings = lint_source(source, str(BLOCK_ADVANCE), ASC006).findings
    lines = source.splitlines()
    reported = set()
    for finding in findings:
        rows = [row for row, line in enumerate(lines[: finding.location.row], 1) if line.startswith("def ")]
        reported.add(lines[rows[-1] - 1].split("(")[0].removeprefix("def "))
    loops = {key.removesuffix(":i32"): line for key, line in task_loops_in_ttir.items() if key.endswith(":i32")}
    assert len(loops) == 8 and all(line.startswith("scf.") for line in loops.values()), loops
    carried = {name for name, line in loops.items() if re.search(r"(iter_args\(|scf\.while \().*!tt\.ptr<", line)}
    expected = {
        "copy_task_kernel",
        "copy_range_kernel",
        "copy_while_kernel",
        "copy_trips_kernel",
        "copy_parallel_kernel",
    }
    assert carried == expected
    assert reported == expected | {"copy_offsets_kernel"}
    for name in ("copy_task_kernel", "copy_offsets_kernel"):
        assert re.search(r"iter_args\(.*-> \((i32|i64|index)\)", task_loops_in_ttir[f"{name}:i32:linalg"]), name
    assert "!tt.ptr<tensor<16xf32>>" in loops["copy_task_kernel"]
    assert "iter_args" not in loops["copy_rebound_kernel"] and "iter_args" not in loops["row_sum_rebound_kernel"]
    assert re.search(r"iter_args\(.*-> \(tensor<16xi32>\)", loops["copy_offsets_kernel"])


@needs_compiler
def test_a_block_pointer_rebuilt_per_task_fails_where_the_advance_compiles(task_loops_in_ttir):
    """The reason ASC006 offers no fix for a block pointer: with an int64 task count the task
    index is int64, and `tl.make_block_ptr` at the task's offsets does not compile, where the
    walk by `tl.advance` does."""
    assert task_loops_in_ttir["copy_task_kernel:i64"].startswith("scf.for")
    assert "Block pointers only support 32 bit" in task_loops_in_ttir["copy_rebound_kernel:i64"]
    findings = lint_source(BLOCK_ADVANCE.read_text(), str(BLOCK_ADVANCE), ASC006).findings
    assert {f.fix for f in findings if f.message.startswith("block pointer")} == {None}
    assert {f.no_fix_reason for f in findings if f.message.startswith("block pointer")} == {
        "a block pointer is not rebuilt automatically: offsets computed from the task index are int64 when the "
        "task count is, and `tl.make_block_ptr` takes int32 offsets only"
    }
