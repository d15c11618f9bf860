"""``confirm`` reads a file's rows as CPython and the linter count them: a form feed or a ``\\x1c``
(which ``str.splitlines`` takes for line breaks) must not shift the rows it looks up. No
compiler needed: the matching and the memory text work on captured data."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_lint.model import Finding, Position
from ascend_lint.runtime_check.capture.launches import Capture, KernelRef, Launch
from ascend_lint.runtime_check.jobs import match, unlaunched
from ascend_lint.runtime_check.report import memory_text

# in a comment: one row for CPython, two for `str.splitlines`
SEPARATORS = ["\f", "\x1c", "\v", "\u2028"]
HELPER_CALLED_BY_A_KERNEL = """\
import triton
import triton.language as tl

# {separator} a comment
@triton.jit
def helper(x):
    return x + 1


@triton.jit
def kernel(x):
    y = helper(x)
"""


def launch_of(kernel: KernelRef) -> Launch:
    return Launch(kernel, {"x": "*fp32"}, {}, {}, {}, [], {"x": "tensor"})


@pytest.mark.parametrize("separator", SEPARATORS, ids=repr)
def test_a_finding_in_a_helper_gets_the_launches_of_the_kernel_calling_it(tmp_path: Path, separator: str):
    path = tmp_path / "kernels.py"
    source = HELPER_CALLED_BY_A_KERNEL.format(separator=separator)
    path.write_text(source, encoding="utf-8", newline="")
    kernel = KernelRef(str(path.resolve()), "kernels", "kernel")
    capture = Capture("workload.py", [launch_of(kernel)])
    finding = Finding("ASC999", "dummy", "in the helper", str(path), Position(7, 12), Position(7, 17))
    assert match(finding, source, capture) == (kernel, [launch_of(kernel)])


@pytest.mark.parametrize("separator", SEPARATORS, ids=repr)
def test_the_memory_view_quotes_the_buffers_own_line(tmp_path: Path, separator: str):
    path = tmp_path / "kernels.py"
    path.write_text(f"# {separator} a comment\nimport triton\nb_q = tl.load(q)\n", encoding="utf-8", newline="")
    buffer = {"file": str(path), "line": 3, "bytes": 4096, "buffers": 1}
    plan = {"kernel": "kernel", "file": str(path), "scopes": [{"scope": "UB", "capacity_bytes": 0, "peak_bytes": 4096}]}
    plan["scopes"][0]["largest_buffers"] = [buffer]
    assert memory_text(plan).splitlines()[-1].endswith("kernels.py:3  b_q = tl.load(q)")


TWO_KERNELS = """\
import triton
import triton.language as tl


@triton.jit
def launched(x):
    pass


@triton.autotune(configs=[triton.Config({}, num_warps=8)], key=[])
@triton.jit
def tuned(x):
    pass


def host(x):
    launched[(1,)](x, num_warps=4)
"""


def test_a_finding_in_a_kernel_never_launched_gets_no_other_kernels_launches(tmp_path: Path):
    """Not even one passing the finding's option from the same file."""
    path = tmp_path / "kernels.py"
    path.write_text(TWO_KERNELS, encoding="utf-8")
    kernel = KernelRef(str(path.resolve()), "kernels", "launched")
    launch = Launch(
        kernel, {"x": "*fp32"}, {}, {}, {"num_warps": 4}, [], {"x": "tensor"}, call_site=[str(path.resolve()), 18]
    )
    capture = Capture("workload.py", [launch])
    finding = Finding(
        "ASC001",
        "launch-num-warps",
        "in a config",
        str(path),
        Position(10, 46),
        Position(10, 57),
        facts={"option": "num_warps"},
    )
    assert match(finding, TWO_KERNELS, capture) == (None, [])
    assert unlaunched(finding, TWO_KERNELS) == "tuned"
    in_host = Finding(
        "ASC001",
        "launch-num-warps",
        "in a launch",
        str(path),
        Position(18, 24),
        Position(18, 35),
        facts={"option": "num_warps"},
    )
    assert match(in_host, TWO_KERNELS, capture) == (kernel, [launch])
    assert unlaunched(in_host, TWO_KERNELS) is None
