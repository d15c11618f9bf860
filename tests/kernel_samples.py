"""Kernels and helpers shared by the integration tests (pre-commit, flake8, review formats)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


def line_of(text: str, fragment: str) -> int:
    """The 1-based number of the first line of ``text`` containing ``fragment``."""
    return next(n for n, line in enumerate(text.splitlines(), start=1) if fragment in line)


# ASC003: b_a stored after it was tl.dot's lhs, with a non-ASCII name earlier on that line;
# ASC001: num_warps in the launch.
BAD_KERNEL = """\
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, α_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tile = offs[:, None] * BLOCK + offs[None, :]
    b_a = tl.load(a_ptr + tile)
    b_b = tl.load(b_ptr + tile)
    b_c = tl.dot(b_a, b_b)
    tl.store(c_ptr + tile, b_c)
    tl.store(α_ptr + tile, b_a)


def matmul(a, b, α):
    c = torch.empty_like(a)
    matmul_kernel[(1,)](a, b, c, α, BLOCK=16, num_warps=4)
    return c
"""
BAD_FINDINGS = {("ASC003", line_of(BAD_KERNEL, "tl.store(α_ptr")), ("ASC001", line_of(BAD_KERNEL, "num_warps"))}
DOT_LINE = line_of(BAD_KERNEL, "tl.dot(")

GOOD_KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tile = offs[:, None] * BLOCK + offs[None, :]
    b_c = tl.dot(tl.load(a_ptr + tile), tl.load(b_ptr + tile))
    tl.store(c_ptr + tile, b_c)


def matmul(a, b, c):
    matmul_kernel[(1,)](a, b, c, BLOCK=16)
"""

# ASC013 on the Ascend 910B only: about 224 KiB of UB at BLOCK=16384 (over 192 KiB, under the
# Ascend 950's 248 KiB). The real compiler agrees: `ub overflow` for Ascend910B3, compiled for
# Ascend950PR_9599 (docs/ub-estimate.md, "The capacity"). BLOCK=32768 is over both.
UB_KERNEL = """\
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 16384})], key=["n"])
@triton.jit
def silu_bwd(dy, x, dx, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for b in range(pid, tl.cdiv(n, BLOCK), tl.num_programs(0)):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        g = tl.load(dy + offs, mask=m, other=0.0)
        xf = tl.load(x + offs, mask=m, other=0.0).to(tl.float32)
        s = tl.sigmoid(xf)
        sn = tl.sigmoid(-xf)
        tl.store(dx + offs, g * (s + xf * s * sn).to(g.dtype), mask=m)
"""
UB_LINE = line_of(UB_KERNEL, "triton.Config")

BAD_PATH = "pkg/ops/triton_ascend/matmul.py"
GOOD_PATH = "pkg/ops/triton_ascend/clean.py"
# The same code as BAD_KERNEL, but a CUDA kernel: outside the Ascend target paths.
CUDA_PATH = "pkg/ops/cuda/matmul.py"


def write_project(root: Path) -> None:
    """A project with a bad and a good Ascend kernel and a CUDA kernel, and a pyproject."""
    for relative, text in [(BAD_PATH, BAD_KERNEL), (GOOD_PATH, GOOD_KERNEL), (CUDA_PATH, BAD_KERNEL)]:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text('[project]\nname = "pkg"\n', encoding="utf-8")


GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` with a fixed identity and no user or system configuration."""
    env = {**os.environ, **GIT_ENV}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def copy_checkout(destination: Path) -> Path:
    """A one-commit git repository holding this checkout's files, uncommitted work included
    (symbolic links stay links)."""
    checkout = Path(__file__).resolve().parents[1]
    listed = git(checkout, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source, target = checkout / name, destination / name
        if source.is_symlink() or source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        elif source.is_file():
            shutil.copy2(source, target)
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "commit", "-qm", "checkout under test")
    return destination


def ascend_lint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run the installed `ascend-lint` console script."""
    script = Path(sys.executable).with_name("ascend-lint")
    return subprocess.run([str(script), *args], cwd=cwd, input=stdin, capture_output=True, text=True, encoding="utf-8")


def cli_json(*paths: str, cwd: Path) -> list[dict]:
    """Findings as `ascend-lint check --output-format json` reports them."""
    done = ascend_lint("check", "--output-format", "json", *paths, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)
