"""``ascend-lint confirm`` for ASC013 on the compile backend: the real compiler's UB plan.

The fixture's autotune list has one configuration the static estimate puts over the UB and one
it does not; the replay compiles the kernel with each configuration's constexprs on the
workload's captured launch.
"""

from __future__ import annotations

import pytest
from test_runtime_compile import KERNELS, _replay_as_a_looser_rule_would, by_row, confirm, row_of

from ascend_lint.runtime_check.toolchain import missing_reason
from ascend_lint.runtime_check.verdicts import Verdict

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
