"""``confirm`` on real packages, installed from the package index: fla-core 0.6.0, liger-kernel 0.8.5.

Each package's public Ascend op is called on CPU tensors by a small workload (fla's is the one
from issue 12, unchanged: no stub of torch.npu or the driver in it); every finding in a kernel
the workload launched must get CONFIRMED or REFUTED on the backend that decides its rule.
Skipped with the reason when the package index cannot be reached.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fla_corpus import CACHE

from ascend_lint.runtime_check.toolchain import missing_reason

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.network,
    pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}"),
]

PACKAGES = ("fla-core==0.6.0", "liger-kernel==0.8.5", "einops")

FLA_WORKLOAD = """
import torch


def workload():
    from fla.ops.common.backends.triton_ascend.chunk_delta_h import chunk_gated_delta_rule_bwd_dhu_npu
    B, T, H, K, V = 1, 128, 2, 128, 64
    q, k, w = (torch.randn(B, T, H, K) for _ in range(3))
    do, dv, g = torch.randn(B, T, H, V), torch.randn(B, T, H, V), torch.randn(B, T, H)
    chunk_gated_delta_rule_bwd_dhu_npu(q, k, w, do, dv, g=g, scale=0.1, state_v_first=True)
"""

LIGER_WORKLOAD = """
import torch


def workload():
    from liger_kernel.ops.backends._ascend.ops.rms_norm import rms_norm_forward

    x, w = torch.randn(8, 64), torch.randn(64)
    rms_norm_forward(x, w, 1e-6, 0.0, "llama")
"""


@pytest.fixture(scope="module")
def site() -> Path:
    """The packages, installed (without dependencies) into a folder of their own, once per machine."""
    target = CACHE / "confirm-packages"
    if (target / "fla").is_dir() and (target / "liger_kernel").is_dir() and (target / "einops").is_dir():
        return target
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), *PACKAGES]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        pytest.skip("package index unreachable: pip install timed out")
    if done.returncode != 0:
        pytest.skip(f"package index unreachable: pip install failed: {done.stderr.strip()[-300:]}")
    return target


def confirm(site: Path, tmp_path: Path, workload: str, paths: list[str], *options: str) -> dict:
    (tmp_path / "workload.py").write_text(workload)
    command = [sys.executable, "-m", "ascend_lint", "confirm", *paths, "--workload", str(tmp_path / "workload.py")]
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [*command, "--isolated", "--output-format", "json", "--jobs", "2", *options],
        capture_output=True,
        text=True,
        env=env,
        timeout=1200,
    )
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


REAL_READS = ("b_dh1 *= bg_last_exp", "b_dh2 *= bg_last_exp")


def test_fla_chunk_delta_h_gets_a_verdict_for_every_finding(site, tmp_path):
    kernels = site / "fla" / "ops" / "common" / "backends" / "triton_ascend" / "chunk_delta_h.py"

    report = confirm(site, tmp_path, FLA_WORKLOAD, [str(kernels)])

    findings = report["findings"]
    assert len(findings) == 12 and {f["code"] for f in findings} == {"ASC003"}
    assert {f["backend"] for f in findings} == {"interpret"}
    by_row: dict[int, list[dict]] = {}
    for finding in findings:
        by_row.setdefault(finding["location"]["row"], []).append(finding)
    source = kernels.read_text().splitlines()
    verdicts = {row: {f["verdict"] for f in found} for row, found in by_row.items()}
    # the reads of b_dh1 / b_dh2 the `*=` under USE_G makes (g is given): the clobbered tiles
    confirmed = {row for row, found in verdicts.items() if found == {"CONFIRMED"}}
    assert confirmed == {row for row in by_row if source[row - 1].strip() in REAL_READS} and len(confirmed) == 2
    # gk is None: the USE_GK lines never run, and are no evidence either way (they were CONFIRMED
    # from another read's output difference)
    gk_reads = [row for row in by_row if source[row - 1].strip().startswith(("b_dh1 *= exp2", "b_dh2 *= exp2"))]
    assert len(gk_reads) == 2
    for row in gk_reads:
        assert verdicts[row] == {"INCONCLUSIVE"} and all("never ran" in f["evidence"] for f in by_row[row])
    # a dot this workload never runs (b_dh3 / b_dh4 exist for K > 128 only) is no evidence either way
    unreached = [f for f in findings if "never runs" in f["evidence"]]
    assert unreached and all(f["verdict"] == "INCONCLUSIVE" for f in unreached)
    # the accumulator reads of the next dots read the tiles the `*=` made anew: not the clobbered ones
    refuted = {row for row, found in verdicts.items() if found == {"REFUTED"}}
    assert refuted == {
        row for row in by_row if source[row - 1].strip().startswith(("b_dh1 = tl.dot(", "b_dh2 = tl.dot("))
    }
    assert len(refuted) == 2


def test_liger_rms_norm_touched_kernels_get_a_verdict(site, tmp_path):
    kernels = site / "liger_kernel" / "ops" / "backends" / "_ascend" / "ops" / "rms_norm.py"

    report = confirm(site, tmp_path, LIGER_WORKLOAD, [str(kernels)], "--target-all")

    findings = report["findings"]
    touched = [
        f for f in findings if not f["evidence"].startswith(("the workload never launched", "the workload launched no"))
    ]
    assert touched, [f["evidence"] for f in findings]
    # a line the launch's casting_mode compiles out (rms_norm's `casting_mode == NONE` arm) is no evidence
    pruned = [f for f in touched if "was not compiled for the launched specialisation" in f["evidence"]]
    assert all(f["verdict"] == "INCONCLUSIVE" for f in pruned)
    decided = [f for f in touched if f not in pruned]
    assert decided, [f["evidence"] for f in findings]
    assert {(f["verdict"], f["backend"]) for f in decided} <= {("CONFIRMED", "compile"), ("REFUTED", "compile")}, [
        f["evidence"] for f in decided
    ]
