"""``ascend-lint confirm`` for ASC013 on the compile backend: the real compiler's UB plan.

The fixture's autotune list has one configuration the static estimate puts over the UB and one
it does not; the replay compiles the kernel with each configuration's constexprs on the
workload's captured launch. Each file is compiled for a model of its `target-soc` family:
``asc013_soc_ub.py`` overflows the Ascend 910B and fits the Ascend 950.
"""

from __future__ import annotations

import pytest
from test_runtime_compile import KERNELS, _replay_as_a_looser_rule_would, by_row, confirm, row_of

from ascend_lint.model import Finding, Position
from ascend_lint.runtime_check.device import DEFAULT_MODEL
from ascend_lint.runtime_check.report import ConfirmReport, render_text
from ascend_lint.runtime_check.targets import CompileTarget, compile_target
from ascend_lint.runtime_check.toolchain import missing_reason, target_missing
from ascend_lint.runtime_check.verdicts import Outcome, Verdict
from ascend_lint.socs import SOCS

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}"),
]


def test_overflowing_configuration_is_confirmed_by_the_compilers_message():
    _, report = confirm("asc013_autotune_ub.py", "workload_asc013.py", "--select", "ASC013")
    findings = by_row(report, "ASC013")
    row = row_of(KERNELS / "asc013_autotune_ub.py", '{"BD": 1024}')
    assert set(findings) == {row}
    finding = findings[row]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "ub overflow, requires" in finding["evidence"] and "BD = 1024" in finding["evidence"]
    requires = int(finding["evidence"].split("requires ")[1].split()[0]) // 8
    estimate = float(finding["message"].split("needs about ")[1].split(" KiB")[0]) * 1024
    assert abs(estimate - requires) <= 0.25 * requires  # the calibration's tolerance


def test_a_compile_option_in_the_configuration_is_passed_as_an_option():
    """`triton.Config({"BLOCK": 65536, "multibuffer": True})`: the autotuner passes both keys to
    the JIT, which reads `multibuffer` (no parameter of the kernel) as a compile option."""
    _, report = confirm("asc013_compile_option_config.py", "workload_asc013_compile_option.py", "--select", "ASC013")
    (finding,) = report["findings"]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "with BLOCK = 65536, option multibuffer = True the compiler rejects" in finding["evidence"]
    assert "ub overflow, requires" in finding["evidence"]
    (compiled,) = finding["variants"]
    assert "multibuffer" not in compiled["launch"]  # an option, not one of the kernel's arguments


def test_configuration_that_fits_is_refuted_with_the_planned_ub():
    outcome = _replay_as_a_looser_rule_would(
        "ASC013",
        "asc013_autotune_ub.py",
        "workload_asc013.py",
        'triton.Config({"BD": 128})',
        configuration=("BD=128",),
        estimate_bytes=200000,
    )
    assert outcome.verdict is Verdict.REFUTED, outcome.evidence
    assert "the compiler plans" in outcome.evidence and "of 192 KiB of UB" in outcome.evidence


A2 = {"soc": "ascend910b", "model": "Ascend910B3", "ub_bytes": 196608}
A5 = {"soc": "ascend950", "model": "Ascend950PR_9599", "ub_bytes": 253952}


def test_the_default_soc_is_the_910b_where_the_plan_overflows():
    code, report = confirm("asc013_soc_ub.py", "workload_asc013_soc.py", "--select", "ASC013")
    (finding,) = report["findings"]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert finding["target"] == A2
    assert "for Ascend910B3: ub overflow, requires" in finding["evidence"]
    assert "while 1572864 bits available" in finding["evidence"]  # the 910B's 192 KiB
    assert code == 1


def test_a_file_the_config_puts_on_the_950_is_compiled_for_it_and_fits(tmp_path):
    config = tmp_path / "ascend-lint.toml"
    config.write_text('[per-file-target-soc]\n"asc013_soc_ub.py" = "ascend950"\n')
    code, report = confirm("asc013_soc_ub.py", "workload_asc013_soc.py", "--select", "ASC013", "--config", str(config))
    (finding,) = report["findings"]
    assert "over the 248 KiB the Ascend 950 has" in finding["message"]  # flagged on the 950 too
    assert finding["verdict"] == "REFUTED", finding["evidence"]
    assert finding["target"] == A5
    (compiled,) = finding["variants"]
    (ub,) = compiled["memory"]
    assert (ub["scope"], ub["capacity_bytes"]) == ("UB", A5["ub_bytes"])
    assert 0 < ub["peak_bytes"] <= A5["ub_bytes"]  # `UB size = N bits`: the 950 writes no report
    assert (
        f"for Ascend950PR_9599: the compiler plans {ub['peak_bytes'] // 1024} KiB of 248 KiB of UB"
        in (finding["evidence"])
    )
    assert code == 0


def test_the_text_report_names_the_chip_of_each_verdict():
    finding = Finding("ASC013", "ub-overflow-estimate", "m", "k.py", Position(3, 1), Position(3, 2))
    outcome = Outcome(finding, Verdict.REFUTED, "compile", "fits", target=A5)
    report = render_text(ConfirmReport("w", "compile", [outcome]))
    assert "k.py:3:1: ASC013 REFUTED [compile on Ascend950PR_9599 (ascend950, UB 248 KiB), 0.0 s] m" in report


def test_a_soc_whose_compiler_is_not_installed_says_so():
    absent = CompileTarget(SOCS["ascend950"], "Ascend950PR_9599", compiler="bishengir-compile-a9")
    assert target_missing(absent) == (
        "cannot compile for Ascend950PR_9599 (ascend950, UB 248 KiB) here: `bishengir-compile-a9` not found "
        "(package ascendnpu-ir); install the runtime extra (pip install 'ascend-lint[runtime]'); it replaces "
        "upstream `triton` with triton-ascend in that environment"
    )
    assert target_missing(CompileTarget(SOCS["ascend950"], "Ascend950PR_9599", compiler="bishengir-compile-a5")) is None


@pytest.mark.parametrize(
    ("soc", "device", "model"),
    [
        ("ascend910b", "Ascend910B3", "Ascend910B3"),  # the defaults: what confirm always compiled for
        ("ascend910b", "Ascend910B2", "Ascend910B2"),  # --device picks the model within the family
        ("ascend910b", "Ascend910_9392", "Ascend910B3"),  # ... and only there
        ("ascend910_93", "Ascend910B3", "Ascend910_9392"),
        ("ascend950", "Ascend910B3", "Ascend950PR_9599"),
    ],
)
def test_each_soc_family_compiles_for_one_of_its_models(soc, device, model):
    target = compile_target(soc, device)
    assert (target.soc, target.model) == (SOCS[soc], model)
    assert dict(target.options).get("compile_on_910_95", False) is (soc == "ascend950")


def test_every_soc_family_has_a_compile_target():
    assert {soc: compile_target(soc, DEFAULT_MODEL).soc for soc in SOCS} == SOCS


def test_sized_tiles_at_the_capacity_and_one_left_open_overflow():
    """The tiles a configuration sizes fill the 192 KiB exactly; the gathered row, sized by the
    host, is counted at one 32-byte block, and the compiler needs its 544 B more."""
    _, report = confirm("asc013_gather_source.py", "workload_asc013_capacity.py", "--select", "ASC013")
    row = row_of(KERNELS / "asc013_gather_source.py", "rab_time_forward_kernel[grid](")
    findings = by_row(report, "ASC013")
    assert set(findings) == {row}
    finding = findings[row]
    assert finding["verdict"] == "CONFIRMED", finding["evidence"]
    assert "ub overflow, requires 1577216 bits while 1572864 bits available" in finding["evidence"]
    assert "inp_val [inp_row_stride], whose size the configuration leaves open" in finding["message"]


def test_tiles_exactly_at_the_capacity_compile():
    """Two fp32 tiles of 24576 elements: 196608 B, the whole UB, which the compiler plans."""
    outcome = _replay_as_a_looser_rule_would(
        "ASC013",
        "asc013_gather_source.py",
        "workload_asc013_capacity.py",
        "BLOCK=24576",
        configuration=("BLOCK=24576",),
        estimate_bytes=196608,
    )
    assert outcome.verdict is Verdict.REFUTED, outcome.evidence
    assert "the compiler plans 192 KiB of 192 KiB of UB" in outcome.evidence
