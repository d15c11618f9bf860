"""QA review (round 23): a local flag named for another platform whose value holds on the NPU
is no other-platform test (ASC001), the NPU's arm of a vendor choice is kept (ASC013), a device
choice made through a name stays unknown (ASC013), and a named config table the module changes
is not read (ASC013)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.host import HostIndex
from ascend_lint.imports import ImportMap
from ascend_lint.kernels import find_kernels

KERNEL = """
import torch
import triton
import triton.language as tl
from fla.utils import check_shared_mem, is_hopper

@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(x + o, (tl.exp(a) * a + 1.0).to(x.dtype.element_ty), mask=o < n)
"""


def on_other(host: str) -> list[bool]:
    source = KERNEL + textwrap.dedent(host)
    module = cst.parse_module(source)
    index = HostIndex(module, find_kernels(module, ImportMap(module, source)))
    return [index.on_other_platform(launch.call) for launch in index.launches["k"]]


@pytest.mark.parametrize(
    "value",
    [
        'x.device.type in ("cuda", "npu")',
        "x.is_cuda and x.numel() > 0",
        "x.is_cuda or x.is_npu",
        "torch.cuda.is_available() and x.is_cuda",
    ],
)
def test_a_local_flag_named_for_cuda_is_what_its_value_says(value: str) -> None:
    assert on_other(f"def f(x):\n    is_cuda = {value}\n    if is_cuda:\n        k[(1,)](x, 1, BLOCK=64)\n") == [False]


@pytest.mark.parametrize(
    "value",
    [
        "torch.version.hip is not None",
        "bool(torch.version.hip)",
        'triton.runtime.driver.active.get_current_target().backend == "cuda"',
        '"cuda" in str(x.device)',
    ],
)
def test_a_flag_whose_value_names_no_npu_test_is_decided_by_its_name(value: str) -> None:
    """QA (late): once any definition was on hand its value decided, and these values, tests the
    analysis cannot read, made `is_rocm` / `IS_NVIDIA` hold on the NPU (fla's
    `IS_NVIDIA = device_platform == 'cuda'` imported from `fla.utils.hardware`)."""
    for name in ("is_rocm", "IS_NVIDIA"):
        host = f"def f(x):\n    {name} = {value}\n    if {name}:\n        k[(1,)](x, 1, BLOCK=64)\n"
        assert on_other(host) == [True], name


def test_a_flag_named_for_another_platform_still_holds_only_there() -> None:
    """Without a definition on hand (imported from outside), by its name; with one comparing
    a backend with another vendor's name, by its value."""
    assert on_other(
        """
        from fla.utils import IS_NVIDIA_HOPPER
        IS_INTEL = device_platform == "xpu"
        def f(x):
            if IS_NVIDIA_HOPPER:
                k[(1,)](x, 1, BLOCK=64)
            if IS_INTEL:
                k[(1,)](x, 1, BLOCK=64)
            is_cuda = x.device.type == "cuda"
            if is_cuda:
                k[(1,)](x, 1, BLOCK=64)
        """
    ) == [True, True, True]


def asc013_rows(host: str) -> list[int]:
    source = KERNEL + textwrap.dedent(host)
    result = lint_source(source, "choices.py", settings(select=["ASC013"]))
    offset = KERNEL.count("\n")
    return [finding.location.row - offset for finding in result.findings]


def test_the_npu_arm_of_a_vendor_call_choice_is_kept() -> None:
    assert asc013_rows(
        """
        def f(x):
            BLOCK = 2048 if is_hopper() else 262144
            k[(1,)](x, 1, BLOCK=BLOCK)
        """
    ) == [4]


def test_a_device_choice_through_a_name_stays_unknown() -> None:
    assert asc013_rows(
        """
        LARGE_SMEM = check_shared_mem()
        def f(x):
            BLOCK = 524288 if LARGE_SMEM else 2048
            k[(1,)](x, 1, BLOCK=BLOCK)
        def g(x):
            big = check_shared_mem("hopper", x.device.index)
            BLOCK = 131072 if big else 2048
            k[(1,)](x, 1, BLOCK=BLOCK)
        def h(x):
            if check_shared_mem("hopper"):
                BLOCK = 1048576
            else:
                BLOCK = 2048
            k[(1,)](x, 1, BLOCK=BLOCK)
        def i(x):
            if is_hopper():
                BLOCK = 2048
            else:
                BLOCK = 131072
            k[(1,)](x, 1, BLOCK=BLOCK)
        """
    ) == [15, 21]  # the statement form (h) is still read arm by arm, as before (see the report)


def test_a_named_table_the_module_changes_is_not_read() -> None:
    source = textwrap.dedent(
        """
        import triton
        import triton.language as tl
        _A = {"BLOCK": 131072}
        _D = {"BLOCK": 131072}
        _D.update(BLOCK=2048)
        _E = {"BLOCK": 131072}
        def _shrink(table):
            table["BLOCK"] = 2048
        _shrink(_E)
        _F = {"BLOCK": 131072}
        _F["BLOCK"] = 2048
        """
    )
    for name in ("A", "D", "E", "F"):
        source += textwrap.dedent(
            f"""
            @triton.autotune(configs=[triton.Config(_{name})], key=["n"])
            @triton.jit
            def k_{name}(x, n, BLOCK: tl.constexpr):
                o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
                a = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
                tl.store(x + o, (tl.exp(a) * a + 1.0).to(x.dtype.element_ty), mask=o < n)
            """
        )
    result = lint_source(source, "tables.py", settings(select=["ASC013"]))
    assert [finding.message.split("`")[1] for finding in result.findings] == ["k_A"]


@pytest.mark.parametrize("name", ["CUDA_CONFIGS", "_CUDA_CONFIGS"])
def test_a_config_list_a_helper_returns_only_off_the_npu_configures_nothing(name: str) -> None:
    """Public or private, the list returned after `if is_npu(): return NPU_CONFIGS` is not
    what the kernel is tuned over on Ascend (plat22: the public one was estimated)."""
    assert (
        asc013_rows(
            f"""
        def is_npu():
            return hasattr(torch, "npu") and torch.npu.is_available()

        NPU_CONFIGS = [triton.Config({{"BLOCK": 1024}})]
        {name} = [triton.Config({{"BLOCK": 262144}})]

        def get_configs():
            if is_npu():
                return NPU_CONFIGS
            return {name}

        @triton.autotune(configs=get_configs(), key=["n"])
        @triton.jit
        def tuned(x, n, BLOCK: tl.constexpr):
            o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(x + o, tl.exp(tl.load(x + o, mask=o < n).to(tl.float32)), mask=o < n)

        def f(x):
            tuned[(1,)](x, x.numel())
        """
        )
        == []
    )
