"""The simulated Ascend device: what host code sees in a replay process, and only there.

Each check runs in a fresh Python process (the device is installed for the rest of a process).
The figures are checked against the real compiler: the UB the device reports is the capacity
bishengir-compile plans against for that target.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="needs the runtime extra (triton-ascend)")
pytest.importorskip("torch", reason="needs the runtime extra (torch)")

from ascend_lint.runtime_check.device import DEFAULT_MODEL, MODELS
from ascend_lint.runtime_check.toolchain import missing_reason

pytestmark = pytest.mark.runtime

REPO = Path(__file__).resolve().parent.parent
RUNTIME = REPO / "fixtures" / "runtime"

HOST_CODE = """
import json, sys
sys.path.insert(0, {repo!r})
from ascend_lint.runtime_check import device
device.install({model!r})

import torch, triton
import torch_npu  # the simulated module: torch_npu is not importable here
from tbe.common.platform import get_soc_spec

driver = triton.runtime.driver.active
target = driver.get_current_target()
npu = getattr(torch, "npu")
x = torch.randn(4, 8, device="npu")
print(json.dumps({{
    "target": [target.backend, target.arch],
    "device": driver.get_current_device(),
    "properties": driver.utils.get_device_properties(npu.current_device()),
    "torch_npu": [npu.is_available(), npu.device_count(), npu.get_device_name(0)],
    "cores": [npu.get_device_properties(0).cube_core_num, npu.get_device_properties(0).vector_core_num],
    "ub": get_soc_spec("UB_SIZE"),
    "devices": [
        str(torch.device("npu", 0)),
        x.device.type,
        torch.zeros(2, device=torch.device("npu:0")).device.type,
        x.to("npu").device.type,
        x.npu().device.type,
        torch.empty_like(x, device="npu").device.type,
    ],
    "synchronised": npu.synchronize() is None and npu.current_stream().query(),
    "torch_npu_is_torch_npu": torch_npu.npu is npu,
}}))
"""


def host_view(model: str) -> dict:
    code = HOST_CODE.format(repo=str(REPO), model=model)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("model", [DEFAULT_MODEL, "Ascend910B2"])
def test_host_code_sees_the_model(model):
    figures = MODELS[model]

    seen = host_view(model)

    assert seen["target"] == ["npu", model]
    assert seen["device"] == 0
    assert seen["properties"] == {
        "max_shared_mem": 1,
        "num_aicore": figures.aicore,
        "num_vectorcore": figures.vectorcore,
    }
    assert seen["torch_npu"] == [True, 1, model]
    assert seen["cores"] == [figures.aicore, figures.vectorcore]
    assert seen["ub"] == figures.ub
    assert seen["devices"] == ["npu:0", "cpu", "cpu", "cpu", "cpu", "cpu"]
    assert seen["synchronised"] is True and seen["torch_npu_is_torch_npu"] is True


OVERFLOW_KERNEL = """
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x, y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs) * 2.0)


def workload():
    x = torch.randn(65536, device="npu")
    copy_kernel[(1,)](x, torch.empty_like(x), BLOCK=65536)
"""


@pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}")
def test_the_device_ub_is_the_compilers_capacity(tmp_path):
    """A tile that overflows UB: the compiler's available bits are the simulated model's UB size."""
    from ascend_lint.cli import main

    kernel = tmp_path / "overflow_kernel.py"
    kernel.write_text(OVERFLOW_KERNEL)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["confirm", str(kernel), "--workload", str(kernel), "--memory", "--target-all", "--isolated"])

    assert f"while {MODELS[DEFAULT_MODEL].ub * 8} bits available" in out.getvalue(), out.getvalue()


def test_a_real_npu_is_used_as_it_is(monkeypatch):
    """With torch_npu seeing a device, nothing is simulated (checked here by saying one is)."""
    from ascend_lint.runtime_check import device

    monkeypatch.setattr(device, "real_npu_present", lambda: True)
    assert device.install(DEFAULT_MODEL) is None
    assert not device._installed


@pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}")
def test_pytest_workload_through_a_device_querying_host_wrapper():
    """``--pytest``: the package's own test calls a kernel whose host code sizes the grid from
    the device and allocates on ``device="npu"``; both findings get their verdict."""
    import torch

    from ascend_lint.cli import main

    folder = RUNTIME / "pytest_workload"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            [
                "confirm",
                str(folder),
                "--pytest",
                str(folder / "test_core_grid_gram.py"),
                "--isolated",
                "--output-format",
                "json",
                "--jobs",
                "2",
            ]
        )
    report = json.loads(out.getvalue())
    verdicts = {(f["code"], f["backend"]): f["verdict"] for f in report["findings"]}

    assert code == 1
    assert verdicts == {("ASC002", "compile"): "CONFIRMED", ("ASC003", "interpret"): "CONFIRMED"}, report
    test = f"{folder.relative_to(REPO).as_posix()}/test_core_grid_gram.py::test_gram_rows_small"
    assert report["tests"] == {test: {"gram_rows_kernel": 1}}
    assert not hasattr(torch, "npu") and "torch_npu" not in sys.modules  # nothing leaked here
