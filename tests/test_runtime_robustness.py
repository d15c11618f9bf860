"""``confirm`` with a workload having a bad day: it raises, hangs, exits, aborts, floods its
output or launches a kernel thousands of times. Every finding still gets a verdict — INCONCLUSIVE
with the reason when the workload gave nothing to replay —, the run ends within its timeouts,
and no temporary file is left behind.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
import time
from pathlib import Path

import pytest

from ascend_lint.runtime_check.toolchain import missing_reason

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}"),
]

KERNELS = Path(__file__).resolve().parent.parent / "fixtures" / "runtime" / "triton_ascend" / "asc002_index_casts.py"
TIMEOUT = 60

OPTIONS = ["--backend", "compile", "--isolated", "--output-format", "json", "--timeout", str(TIMEOUT), "--jobs", "2"]
WORKLOADS = {
    "raises": ("raise ValueError('the workload broke')", "ValueError: the workload broke"),
    "exits": ("import sys; sys.exit(3)", "SystemExit: 3"),
    "exits at once": ("import os; os._exit(7)", "exited with code 7 without a result"),
    "aborts": ("import os; os.abort()", "killed by signal SIGABRT"),
    "hangs": ("import time; time.sleep(10 * 60)", f"timed out after {TIMEOUT} s"),
}


def run_confirm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> tuple[int, dict, float]:
    """``confirm`` on the ASC002 fixture with ``workload()`` running ``body``; its own TMPDIR."""
    from ascend_lint.cli import main

    workload = tmp_path / "workload.py"
    workload.write_text(
        f"import sys\nsys.path.insert(0, {str(KERNELS.parent.parent)!r})\n\n\ndef workload():\n    {body}\n"
    )
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["confirm", str(KERNELS), "--workload", str(workload), *OPTIONS])
    seconds = time.perf_counter() - start
    assert list(scratch.iterdir()) == [], "temporary files left behind"
    return code, json.loads(out.getvalue()), seconds


@pytest.mark.parametrize("case", sorted(WORKLOADS))
def test_a_failing_workload_leaves_every_finding_inconclusive_with_the_reason(case, tmp_path, monkeypatch):
    body, reason = WORKLOADS[case]

    code, report, seconds = run_confirm(tmp_path, monkeypatch, body)

    findings = report["findings"]
    assert code == 2 and findings
    for finding in findings:
        assert finding["verdict"] == "INCONCLUSIVE"
        assert finding["evidence"].startswith("the workload never launched "), finding["evidence"]
        assert reason in finding["evidence"], finding["evidence"]
    assert seconds < TIMEOUT + 60


ALL_KERNELS = """
    import torch
    from triton_ascend.asc002_index_casts import copy_row, copy_row_runtime, double_packed, double_varlen

    def launch_all():
        x = torch.randn(8, 32)
        copy_row(x, 2)
        copy_row_runtime(x, 3)
        double_packed(x, 2)
        double_varlen(x, torch.tensor([0, 3, 8], dtype=torch.int32))
"""
FLOOD = """
    import os
    print("x" * (8 << 20))
    os.write(2, b"y" * (8 << 20))
    launch_all()
"""
REPEATED = """
    for _ in range(1000):
        launch_all()
"""


@pytest.mark.parametrize("body", [FLOOD, REPEATED], ids=["prints megabytes", "launches thousands of times"])
def test_a_noisy_or_busy_workload_still_gets_verdicts(body, tmp_path, monkeypatch):
    code, report, seconds = run_confirm(tmp_path, monkeypatch, (ALL_KERNELS + body).strip())

    verdicts = {f["verdict"] for f in report["findings"]}
    assert code == 1 and verdicts <= {"CONFIRMED", "REFUTED"}, report["findings"]
    assert seconds < 10 * TIMEOUT
