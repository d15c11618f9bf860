"""``ascend-lint confirm --backend compile``: the real Ascend compiler on the runtime fixtures.

Every test runs the linter, captures the fixture workload's launches and compiles kernel
variants with triton-ascend + bishengir-compile (no NPU needed), in worker subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path

import pytest

from ascend_lint.runtime_check.toolchain import missing_reason

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}"),
]

from ascend_lint.cli import main  # noqa: E402
from ascend_lint.model import Finding, Position  # noqa: E402
from ascend_lint.rule import Evidence  # noqa: E402
from ascend_lint.runtime_check import backends  # noqa: E402
from ascend_lint.runtime_check.capture.launches import KernelRef  # noqa: E402
from ascend_lint.runtime_check.capture.recorder import capture_launches  # noqa: E402
from ascend_lint.runtime_check.capture.workload import Workload  # noqa: E402
from ascend_lint.runtime_check.device import DEFAULT_MODEL  # noqa: E402
from ascend_lint.runtime_check.jobs import ReplayJob, match  # noqa: E402
from ascend_lint.runtime_check.replay_child import replay_in_subprocess  # noqa: E402
from ascend_lint.runtime_check.verdicts import Verdict  # noqa: E402

RUNTIME = Path(__file__).resolve().parent.parent / "fixtures" / "runtime"
KERNELS = RUNTIME / "triton_ascend"
TIMEOUT = 180.0


def row_of(path: Path, fragment: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if fragment in line)


def confirm(kernels: str, workload: str, *extra: str) -> tuple[int, dict]:
    """Run ``ascend-lint confirm`` on one fixture module; the exit code and the JSON report."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            [
                "confirm",
                str(KERNELS / kernels),
                "--workload",
                str(RUNTIME / workload),
                "--backend",
                "compile",
                "--isolated",
                "--output-format",
                "json",
                "--timeout",
                str(TIMEOUT),
                *extra,
            ]
        )
    return code, json.loads(out.getvalue())


def by_row(report: dict, code: str) -> dict[int, dict]:
    return {f["location"]["row"]: f for f in report["findings"] if f["code"] == code}


@pytest.fixture(scope="module")
def asc001():
    return confirm("asc001_launch_options.py", "workload_asc001.py")


@pytest.fixture(scope="module")
def asc002():
    return confirm("asc002_index_casts.py", "workload_asc002.py")


@pytest.fixture(scope="module")
def asc004():
    return confirm("asc004_optional_state.py", "workload_asc004.py")


@pytest.fixture(scope="module")
def asc005():
    return confirm("asc005_tail_dma.py", "workload_asc005.py", "--memory")


def test_num_warps_has_no_effect_on_the_compiled_kernel(asc001):
    exit_code, report = asc001
    path = KERNELS / "asc001_launch_options.py"
    findings = by_row(report, "ASC001")
    launch = row_of(path, "num_warps=4, num_stages=2")
    configs = {row_of(path, '{"BLOCK": 64}'), row_of(path, '{"BLOCK": 128}')}
    assert {launch} | configs <= set(findings)
    for row in {launch} | configs:
        assert findings[row]["verdict"] == "CONFIRMED", findings[row]["evidence"]
        assert "byte-identical" in findings[row]["evidence"]
    assert "DO NOT tune args" in findings[launch]["evidence"]
    assert exit_code == 1


def test_configs_of_a_kernel_never_launched_are_not_judged_by_another_kernels_launch():
    """The workload launches scale_kernel with num_warps=4, never tuned_scale_kernel: its
    autotune configs' num_warps have no launch of their own to be compiled with."""
    _, report = confirm("asc001_launch_options.py", "workload_asc001_untuned.py")
    path = KERNELS / "asc001_launch_options.py"
    findings = by_row(report, "ASC001")
    for row in (row_of(path, '{"BLOCK": 64}'), row_of(path, '{"BLOCK": 128}')):
        assert findings[row]["verdict"] == "INCONCLUSIVE", findings[row]["evidence"]
        assert findings[row]["evidence"] == "the workload never launched tuned_scale_kernel"
    launch = findings[row_of(path, "num_warps=4, num_stages=2")]
    assert launch["verdict"] == "CONFIRMED" and "byte-identical" in launch["evidence"]


@pytest.fixture(scope="module")
def asc002_pruned():
    return confirm("asc002_pruned_branch.py", "workload_asc002_pruned.py")


def test_a_compile_error_on_another_line_is_no_evidence(asc002_pruned):
    """MODE == 1 prunes the `MODE == 0` arm: its `.to` is never compiled (the reason given, not
    the error the compile stops at, which is the other arm's); a `.to` after the line the compile
    stops at was never reached."""
    _, report = asc002_pruned
    path = KERNELS / "asc002_pruned_branch.py"
    pruned, compiled = row_of(path, "not compiled when MODE == 1"), row_of(path, "fails when eps == 1")
    findings = by_row(report, "ASC002")
    assert findings[pruned]["verdict"] == "INCONCLUSIVE", findings[pruned]["evidence"]
    assert findings[pruned]["evidence"].startswith(f"line {pruned} was not compiled for the launched specialisation")
    assert "MODE = 1" in findings[pruned]["evidence"], findings[pruned]["evidence"]
    assert findings[compiled]["verdict"] == "CONFIRMED", findings[compiled]["evidence"]
    assert f"(line {compiled}); the fixed variant compiles" in findings[compiled]["evidence"]
    stops, after = row_of(path, "the compile stops here"), row_of(path, "never reached")
    assert findings[stops]["verdict"] == "CONFIRMED", findings[stops]["evidence"]
    assert findings[after]["verdict"] == "INCONCLUSIVE", findings[after]["evidence"]
    assert f"fails at line {stops}, not at the finding's line {after}" in findings[after]["evidence"]


def test_a_compile_error_in_a_helper_has_the_helpers_line(asc002_pruned):
    _, report = asc002_pruned
    row = row_of(KERNELS / "asc002_pruned_branch.py", "return eps.to(tl.float32)")
    finding = by_row(report, "ASC002")[row]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert f"has no attribute 'to' (line {row})" in finding["evidence"]


def test_to_on_constexpr_fails_to_compile(asc002):
    _, report = asc002
    row = row_of(KERNELS / "asc002_index_casts.py", "def constexpr_offset_kernel") + 2
    finding = by_row(report, "ASC002")[row]
    assert finding["verdict"] == "CONFIRMED"
    assert "AttributeError" in finding["evidence"] and "has no attribute 'to'" in finding["evidence"]


def test_int64_block_pointer_offset_fails_to_compile():
    exit_code, report = confirm("asc007_block_ptr_offsets.py", "workload_asc007.py")
    path = KERNELS / "asc007_block_ptr_offsets.py"
    (finding,) = report["findings"]  # the fixed kernel is not flagged
    assert finding["location"]["row"] == row_of(path, "(bos + i_t * BT, 0)")
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "Block pointers only support 32 bit" in finding["evidence"]
    assert exit_code == 1


def test_int32_sequence_offset_is_multiplied_in_i32():
    # the launch picks its kernel through a name: ASC010 reports its (sequences, heads) grid
    exit_code, report = confirm("asc008_int32_offsets.py", "workload_asc008.py", "--select", "ASC008")
    path = KERNELS / "asc008_int32_offsets.py"
    findings = report["findings"]  # the store and the load of the int32 kernel, not the int64 one
    assert {f["location"]["row"] for f in findings} == {row_of(path, "((bos + i_t) * H + i_h) * D")}
    for finding in findings:
        assert finding["verdict"] == "CONFIRMED", finding["evidence"]
        evidence = finding["evidence"]
        assert "arith.muli" in evidence.split("fixed variant")[0] and ": i32" in evidence.split("fixed variant")[0]
        assert "the fixed variant multiplies in i64" in evidence and ": i64" in evidence
    assert exit_code == 1


def test_int64_sequence_offset_is_refuted():
    outcome = _replay_as_a_looser_rule_would(
        "ASC008", "asc008_int32_offsets.py", "workload_asc008.py", "(i_h + (bos + i_t) * H) * D"
    )
    assert outcome.verdict is Verdict.REFUTED, outcome.evidence
    assert "no i32 multiply" in outcome.evidence


def test_the_launcher_refuses_the_grids_asc010_reports(tmp_path):
    """ASC010's limit, from triton-ascend's own launcher: 65535 programs pass its grid check
    (and reach the simulated driver, which launches nothing), 65536 are refused; ASC010 reports
    exactly the launches of the probe that the launcher refuses. The probe leaves no temporary
    files (its toolchain folder holds a compiler wrapper and a Triton cache)."""
    import subprocess

    repo = RUNTIME.parent.parent
    env = {**os.environ, "PYTHONPATH": str(repo), "TMPDIR": str(tmp_path)}
    script = RUNTIME / "grid_limit_probe.py"
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=repo
    )
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines() if not line.startswith(" "))
    refused = {name for name, text in said.items() if text.startswith("RuntimeError: grid should be less than 65536!")}
    assert set(said) == {"at_the_limit", "one_over", "one_axis_over", "one_axis_at_the_limit"}, done.stderr
    assert refused == {"one_over", "one_axis_over"}, done.stdout + done.stderr
    assert not list(tmp_path.iterdir()), list(tmp_path.iterdir())

    out = io.StringIO()
    options = ["--isolated", "--no-cache", "--target-all", "--select=ASC010", "--output-format=json"]
    with contextlib.redirect_stdout(out):
        main(["check", *options, str(script)])
    lines = script.read_text().splitlines()
    reported = set()
    for finding in json.loads(out.getvalue()):
        above = lines[: finding["location"]["row"]]
        reported.add(next(line for line in reversed(above) if line.startswith("def "))[4:].split("(")[0])
    assert reported == refused


def test_specialisable_int_refuted_when_the_workload_never_passes_1(asc002):
    _, report = asc002
    row = row_of(KERNELS / "asc002_index_casts.py", "def batch_offset_kernel") + 2
    finding = by_row(report, "ASC002")[row]
    assert finding["verdict"] == "REFUTED", finding["evidence"]
    assert "B is i32 = 3" in finding["evidence"]


def test_specialisable_int_confirmed_when_the_workload_passes_1():
    _, report = confirm("asc002_index_casts.py", "workload_asc002_row1.py")
    row = row_of(KERNELS / "asc002_index_casts.py", "def batch_offset_kernel") + 2
    finding = by_row(report, "ASC002")[row]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "'constexpr' object has no attribute 'to'" in finding["evidence"]


def test_cast_after_multiply_multiplies_in_i32(asc002):
    _, report = asc002
    path = KERNELS / "asc002_index_casts.py"
    finding = by_row(report, "ASC002")[row_of(path, "bos = (i_b * T).to(tl.int64)")]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    evidence = finding["evidence"]
    assert "arith.muli" in evidence and ": i32" in evidence and "arith.extsi" in evidence
    if "fixed variant" in evidence and "no automatic fix" not in evidence:
        assert "multiplies in i64" in evidence
    loaded = {row_of(path, "tl.load(cu_seqlens + i_n)"), row_of(path, "(eos - bos).to(tl.int32)")}
    assert not loaded & set(by_row(report, "ASC002"))


def test_offset_tile_cast_after_multiply_multiplies_in_i32():
    exit_code, report = confirm("asc002_offset_tiles.py", "workload_asc002_tiles.py", "--select", "ASC002")
    path = KERNELS / "asc002_offset_tiles.py"
    (finding,) = report["findings"]  # not the pointer casts
    assert finding["location"]["row"] == row_of(path, "(pid * BLOCK + tl.arange(0, BLOCK)).to(tl.int64)")
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    evidence = finding["evidence"]
    assert "arith.muli" in evidence and ": i32" in evidence and "tensor<64xi32> to tensor<64xi64>" in evidence
    assert "the fixed variant multiplies in i64" in evidence
    assert exit_code == 1


def test_cast_of_a_receiver_over_several_lines_is_judged_on_the_to_line():
    """The finding is on the `.to(` line, where `# noqa` goes and where Triton 3.2 locates the
    cast (its `arith.extsi`; the multiply keeps its own line) when the dtype is written there:
    the replay finds the extension there. At the call's first line (`o = (`) it found none and
    refuted the finding. A dtype on a line of its own is where the cast is."""
    exit_code, report = confirm("asc002_multiline_receiver.py", "workload_asc002_multiline.py", "--select", "ASC002")
    path = KERNELS / "asc002_multiline_receiver.py"
    finding, dtype_below = report["findings"]
    row = row_of(path, ").to(tl.int64) * D")
    assert finding["location"]["row"] == row
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert f"then extends to i64 (line {row})" in finding["evidence"]
    assert "the fixed variant multiplies in i64" in finding["evidence"]
    # the dtype on a line of its own: Triton 3.2 locates the cast at its last argument, the dtype's
    # line, not the `.to(` line the finding is on (where the replay found no cast: REFUTED)
    to_row = row_of(path, "o = (i_b * T + i_t).to(")
    assert dtype_below["location"]["row"] == to_row
    assert dtype_below["verdict"] == "CONFIRMED", dtype_below["evidence"]
    assert f"then extends to i64 (line {to_row + 1})" in dtype_below["evidence"]
    assert "the fixed variant multiplies in i64" in dtype_below["evidence"]
    assert exit_code == 1


def test_optional_pointer_none_fails_to_compile(asc004):
    _, report = asc004
    row = row_of(KERNELS / "asc004_optional_state.py", "if USE_INITIAL_STATE and i_t == 0:")
    finding = by_row(report, "ASC004")[row]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "'NoneType' object has no attribute 'type'" in finding["evidence"]
    assert "h0 = None" in finding["evidence"]
    nested = row_of(KERNELS / "asc004_optional_state.py", "if not USE_INITIAL_STATE:")
    assert not {nested, nested + 2} & set(by_row(report, "ASC004"))


def test_runtime_dma_branch_keeps_both_arms_in_ub(asc005):
    _, report = asc005
    row = row_of(KERNELS / "asc005_tail_dma.py", "if i_t == NT - 1:")
    finding = by_row(report, "ASC005")[row]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    peaks = {v["variant"].split(" (")[0]: v["memory"][0]["peak_bytes"] for v in finding["variants"]}
    assert peaks == {"original": 16384, "masked arm alone": 8192, "block_ptr arm alone": 8192}
    assert "original 16 KiB = masked arm 8 KiB + block_ptr arm 8 KiB" in finding["evidence"]


def test_runtime_dma_choice_keeps_both_arms_in_ub(asc005):
    """A conditional expression choosing the DMA path is an `scf.if` as the statement is: the
    compile replaces it by each arm alone, as it does an `if`'s arms."""
    _, report = asc005
    row = row_of(KERNELS / "asc005_tail_dma.py", "b_x = (") + 1  # the expression, not its parentheses
    finding = by_row(report, "ASC005")[row]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    peaks = {v["variant"].split(" (")[0]: v["memory"][0]["peak_bytes"] for v in finding["variants"]}
    assert peaks == {"original": 16384, "masked arm alone": 8192, "block_ptr arm alone": 8192}
    assert "original 16 KiB = masked arm 8 KiB + block_ptr arm 8 KiB" in finding["evidence"]


def test_memory_view_lists_each_captured_kernel(asc005):
    _, report = asc005
    plans = {(p["kernel"], p["launch"].count("TAIL_MODE: constexpr = 1")) for p in report["memory"]}
    assert ("scale_rows_runtime_tail_kernel", 0) in plans
    assert ("scale_rows_split_tail_kernel", 1) in plans
    runtime_tail = next(p for p in report["memory"] if p["kernel"] == "scale_rows_runtime_tail_kernel")
    ub = runtime_tail["scopes"][0]
    assert (ub["scope"], ub["peak_bytes"], ub["capacity_bytes"]) == ("UB", 16384, 196608)
    assert all(b["file"].endswith("asc005_tail_dma.py") and b["line"] for b in ub["largest_buffers"])


def _replay_as_a_looser_rule_would(code: str, module: str, workload: str, fragment: str, **facts):
    """Replay a finding the shipped rule does not report but a looser one would."""
    path = KERNELS / module
    row = row_of(path, fragment)
    column = path.read_text().splitlines()[row - 1].index(fragment.strip()) + 1
    finding = Finding(
        code, "looser", "looser rule", str(path), Position(row, column), Position(row, column + 2), facts=facts
    )
    spec = Workload(file=str(RUNTIME / workload))
    capture = capture_launches(spec, DEFAULT_MODEL, TIMEOUT)
    kernel, launches = match(finding, path.read_text(), capture)
    plan = backends.plan("compile", finding)
    job = ReplayJob(finding, "compile", plan.evidence, spec, kernel, launches)
    return replay_in_subprocess(job, TIMEOUT)


def test_nested_optional_pointer_guard_is_refuted():
    outcome = _replay_as_a_looser_rule_would(
        "ASC004",
        "asc004_optional_state.py",
        "workload_asc004.py",
        "elif i_t == 0:",
        optional_pointers=("h0",),
        flags=("USE_INITIAL_STATE",),
    )
    assert outcome.verdict is Verdict.REFUTED, outcome.evidence
    assert "h0 = None" in outcome.evidence


def test_constexpr_tail_mode_split_is_refuted():
    outcome = _replay_as_a_looser_rule_would(
        "ASC005", "asc005_tail_dma.py", "workload_asc005.py", "if is_tail:", dma_arms=("masked", "block_ptr")
    )
    assert outcome.verdict is Verdict.REFUTED, outcome.evidence
    assert "do not hold UB together" in outcome.evidence


def test_sarif_results_carry_the_verdict():
    _, report = confirm("asc004_optional_state.py", "workload_asc004.py", "--output-format", "sarif")
    results = report["runs"][0]["results"]
    assert results and all(r["properties"]["verdict"] in {"CONFIRMED", "REFUTED", "INCONCLUSIVE"} for r in results)
    assert {r["properties"]["backend"] for r in results} == {"compile"}
    assert all(r["properties"]["target"]["model"] == DEFAULT_MODEL for r in results)  # the chip compiled for


def _bare_job(kernel=None) -> ReplayJob:
    path = KERNELS / "asc002_index_casts.py"
    finding = Finding("ASC002", "x", "m", str(path), Position(11, 12), Position(11, 14))
    workload = Workload(file=str(RUNTIME / "workload_asc002.py"))
    return ReplayJob(finding, "compile", Evidence.INDEX_CAST_IR, workload, kernel)


def test_runtime_only_rules_are_inconclusive_on_the_compile_backend():
    finding = Finding("ASC003", "dot-lhs-reuse", "m", "k.py", Position(1, 1), Position(1, 2))
    plan = backends.plan("compile", finding)
    assert plan.evidence is None
    assert plan.reason.startswith("needs an NPU or the interpreter: tl.dot clobbering its lhs"), plan.reason
    assert "--backend npu or interpret" in plan.reason


def test_hung_replay_becomes_inconclusive():
    outcome = replay_in_subprocess(_bare_job(), timeout=0.05)
    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "timed out after 0.05 s" in outcome.evidence


def test_failing_replay_becomes_inconclusive():
    missing = KernelRef(str(KERNELS / "no_such_module.py"), "no_such_module", "kernel")
    outcome = replay_in_subprocess(_bare_job(kernel=missing), TIMEOUT)
    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "FileNotFoundError" in outcome.evidence


def test_upstream_triton_is_reported_clearly(tmp_path, monkeypatch):
    stub = tmp_path / "triton"
    (stub / "backends").mkdir(parents=True)
    (stub / "__init__.py").write_text('__version__ = "3.6.0"\n')
    (stub / "backends" / "__init__.py").write_text('backends = {"nvidia": None}\n')
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    outcome = replay_in_subprocess(_bare_job(), TIMEOUT)
    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "has no Ascend backend" in outcome.evidence and "triton-ascend" in outcome.evidence


_COMPILE_SCALE_KERNEL = """
import importlib.util, sys
from pathlib import Path
from ascend_lint.runtime_check import toolchain
chain = toolchain.activate(Path(sys.argv[1]))
import triton
from triton.compiler import ASTSource
spec = importlib.util.spec_from_file_location("kernels", sys.argv[2])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
source = ASTSource(module.scale_kernel, signature={"x": "*fp32", "y": "*fp32", "n": "i32"}, constants={"BLOCK": 256})
compiled = triton.compile(source, target=chain.target(), options=chain.options())
Path(sys.argv[1], "kernel.ttadapter").write_text(compiled.asm["ttadapter"])
"""


def test_compiles_are_compared_without_their_source_locations(tmp_path):
    """Two compiles of one kernel with the same options can number their `#loc` aliases
    differently (seen on a kernel of 16 scalar loads): ASC001's evidence compared the raw text
    and refuted findings whose knob changed nothing. The real compiler's linalg, its aliases
    renumbered as such a compile numbers them, is the same IR; an op changed is not."""
    import subprocess

    from ascend_lint.runtime_check.compile.ir import without_locations

    kernels = KERNELS / "asc001_launch_options.py"
    done = subprocess.run(
        [sys.executable, "-c", _COMPILE_SCALE_KERNEL, str(tmp_path), str(kernels)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    linalg = (tmp_path / "kernel.ttadapter").read_text()
    aliases = sorted({int(n) for n in re.findall(r"#loc(\d+)", linalg)})
    location = re.compile(r"(?<![\w.#])loc\(")  # not `memref.alloc(`
    assert len(aliases) > 2 and location.search(linalg)
    swapped = dict(zip(aliases, reversed(aliases), strict=True))
    renumbered = re.sub(r"#loc(\d+)", lambda m: f"#loc{swapped[int(m[1])]}", linalg)
    assert renumbered != linalg
    assert without_locations(renumbered) == without_locations(linalg)
    assert not location.search(without_locations(linalg))
    op = re.search(r"arith\.\w+", linalg)
    assert op is not None
    changed = linalg.replace(op[0], "arith.remsi", 1)
    assert without_locations(changed) != without_locations(linalg)
