"""A platform test host code imports from another module of the package is read there
(`OtherPlatformPaths._definition`, through `kernels.ImportedFunctions.definition`): a predicate
or a flag true only on another platform whatever its name, and a predicate named for another
platform that answers for the NPU after all (`torch.cuda.is_available()` under torch_npu's
`transfer_to_npu`)."""

from __future__ import annotations

from pathlib import Path

from conftest import settings

from ascend_lint.engine import lint_file

UTILS = """
import torch
from vllm.platforms import current_platform


def use_tuned_configs():
    return current_platform.is_cuda()


def is_cuda():
    return torch.cuda.is_available()


def is_hopper():
    return torch.cuda.get_device_capability()[0] == 9


GPU_CONFIGS = current_platform.is_rocm()
"""

OPS = """
import triton
import triton.language as tl
from {module} import use_tuned_configs, is_cuda, is_hopper, GPU_CONFIGS


def configs():
    if use_tuned_configs():
        return [triton.Config({{"BLOCK": 512}}, num_warps=8)]
    if GPU_CONFIGS:
        return [triton.Config({{"BLOCK": 512}}, num_warps=8)]
    if is_hopper():
        return [triton.Config({{"BLOCK": 512}}, num_warps=8)]
    if is_cuda():
        return [triton.Config({{"BLOCK": 256}}, num_warps=4)]  # answers for the NPU: reported
    return [triton.Config({{"BLOCK": 128}})]


@triton.autotune(configs=configs(), key=["n"])
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)
"""


def knob_rows(tmp_path: Path, module: str, utils: str | None) -> list[int]:
    (tmp_path / "pkg").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    if utils is not None:
        (tmp_path / "pkg" / "utils.py").write_text(utils, encoding="utf-8")
    ops = tmp_path / "pkg" / "ops.py"
    ops.write_text(OPS.format(module=module), encoding="utf-8")
    return [f.location.row for f in lint_file(str(ops), settings(select=["ASC001"])).findings]


def test_imported_platform_tests_are_read_where_defined(tmp_path: Path) -> None:
    for folder, module in (("relative", ".utils"), ("absolute", "pkg.utils")):
        assert knob_rows(tmp_path / folder, module, UTILS) == [15]


def test_without_the_module_only_the_names_say_where_code_runs(tmp_path: Path) -> None:
    """`is_cuda()` and `is_hopper()` are named for NVIDIA; nothing is known of the others."""
    assert knob_rows(tmp_path, ".utils", None) == [9, 11]
