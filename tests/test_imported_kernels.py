"""A kernel another module of the package defines is estimated where this module launches it
(ASC013 on `from .kernels import k`, then `k[grid](x, BLOCK_N=4096)`): from the kernel as its
file writes it and the values the launch passes, reported at the launch."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import settings

from ascend_lint.engine import lint_file

KERNELS = """
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(X, Y, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    offs = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(X + offs, mask=cols[None, :] < n_cols, other=0.0).to(tl.float32)
    tl.store(Y + offs, 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)), mask=cols[None, :] < n_cols)
"""

OPS = """
import torch
import triton

from .kernels import gelu_kernel


def gelu(x):
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    gelu_kernel[(triton.cdiv(n_rows, {rows}),)](x, y, n_cols, BLOCK_M={rows}, BLOCK_N=4096)
    return y
"""


def estimates(tmp_path: Path, rows: int) -> list[tuple[str, int, str]]:
    folder = tmp_path / "triton_ascend"
    folder.mkdir(exist_ok=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "kernels.py").write_text(KERNELS, encoding="utf-8")
    ops = folder / "ops.py"
    ops.write_text(OPS.format(rows=rows), encoding="utf-8")
    result = lint_file(str(ops), settings(select=["ASC013"]))
    assert result.error is None
    return [(f.code, f.location.row, f.message) for f in result.findings]


def test_a_kernel_of_another_module_is_estimated_at_its_launch(tmp_path: Path) -> None:
    [(code, row, message)] = estimates(tmp_path, rows=64)
    assert (code, row) == ("ASC013", 11)
    assert "`gelu_kernel` needs about 4096 KiB" in message and "BLOCK_M=64, BLOCK_N=4096" in message
    assert estimates(tmp_path, rows=2) == []  # [2, 4096] tiles fit


def test_the_autotune_configs_of_an_imported_kernel_are_estimated_once_at_each_launch(tmp_path: Path) -> None:
    """The kernel's file tunes `BLOCK_M`, the launch passes `BLOCK_N`: one finding at the launch,
    for the largest config, counting the other overflowing ones."""
    configs = "[triton.Config({'BLOCK_M': 16}), triton.Config({'BLOCK_M': 32}), triton.Config({'BLOCK_M': 1})]"
    tuned = KERNELS.replace("@triton.jit", f"@triton.autotune(configs={configs}, key=['n_cols'])\n@triton.jit")
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    (folder / "kernels.py").write_text(tuned, encoding="utf-8")
    ops = folder / "ops.py"
    ops.write_text(OPS.format(rows=64).replace("BLOCK_M=64, ", ""), encoding="utf-8")
    [finding] = lint_file(str(ops), settings(select=["ASC013"])).findings
    assert finding.location.row == 11
    assert (
        "autotune config {BLOCK_M=32}" in finding.message and "(and 1 other autotune config of it)" in finding.message
    )


CHOSEN = """
import torch
import triton

from .kernels import merge_32, merge_64


def merge(A, BT=64):
    B, T, H, _ = A.shape
    NT = triton.cdiv(T, BT)
    merge_fn = merge_32 if BT == 32 else merge_64
    merge_fn[NT, B * H](A, T, H, BT=BT)
"""

MERGE_KERNELS = """
import triton
import triton.language as tl


@triton.jit
def merge_32(A, T, H, BT: tl.constexpr):
    tl.store(A + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)


@triton.jit
def merge_64(A, T, H, BT: tl.constexpr):
    tl.store(A + tl.program_id(0) * BT + tl.arange(0, BT), 1.0)
"""


def test_a_local_name_choosing_between_imported_kernels_launches_each(tmp_path: Path) -> None:
    """`merge_fn = merge_32 if BT == 32 else merge_64` of imported kernels, then `merge_fn[NT,
    B * H](...)`: a launch of each (ASC010 reads its grid), also past the prefilter, which sees
    no subscript of an imported name; and so is the choice written inline."""
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    (folder / "kernels.py").write_text(MERGE_KERNELS, encoding="utf-8")
    ops = folder / "ops.py"
    ops.write_text(CHOSEN, encoding="utf-8")
    [finding] = lint_file(str(ops), settings(select=["ASC010"])).findings
    assert (finding.location.row, finding.code) == (12, "ASC010") and "`(NT, B * H)`" in finding.message
    ops.write_text(CHOSEN.replace("else merge_64", "else print"), encoding="utf-8")
    assert lint_file(str(ops), settings(select=["ASC010"])).findings == []  # not only kernels: not a launch
    inline = "    (merge_32 if BT == 32 else merge_64)[NT, B * H](A, T, H, BT=BT)\n"
    ops.write_text(CHOSEN.split("    merge_fn =")[0] + inline, encoding="utf-8")
    [finding] = lint_file(str(ops), settings(select=["ASC010"])).findings
    assert finding.location.row == 11 and "`(NT, B * H)`" in finding.message


def test_a_kernel_launched_through_its_module_is_estimated_at_the_launch(tmp_path: Path) -> None:
    """`from . import kernels as K`, then `K.gelu_kernel[grid](...)`: the launch of the kernel
    `kernels.py` defines, as `gelu_kernel[grid](...)` after `from .kernels import gelu_kernel`."""
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "kernels.py").write_text(KERNELS, encoding="utf-8")
    ops = folder / "ops.py"
    ops.write_text(
        OPS.format(rows=64)
        .replace("from .kernels import gelu_kernel", "from . import kernels as K")
        .replace("    gelu_kernel[", "    K.gelu_kernel["),
        encoding="utf-8",
    )
    [finding] = lint_file(str(ops), settings(select=["ASC013"])).findings
    assert finding.location.row == 11 and "`gelu_kernel` needs about 4096 KiB" in finding.message


def test_a_launch_through_a_module_outside_the_package_is_not_one_of_a_kernel_of_the_same_name(tmp_path: Path) -> None:
    """`other.gelu_kernel[grid](...)` with `other` a module the package does not hold launches
    that module's kernel, not the one this module defines under the same name."""
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    ops = folder / "ops.py"
    ops.write_text(
        KERNELS
        + "\n\nimport external_kernels as other\n\n\ndef gelu(x, y):\n"
        + "    n_rows, n_cols = x.shape\n"
        + "    other.gelu_kernel[(n_rows,)](x, y, n_cols, BLOCK_M=64, BLOCK_N=4096)\n"
        + "    gelu_kernel[(n_rows,)](x, y, n_cols, BLOCK_M=1, BLOCK_N=1024)\n",
        encoding="utf-8",
    )
    result = lint_file(str(ops), settings(select=["ASC013"]))
    assert result.error is None and result.findings == []


CONFIGS = """
import triton

BLOCKS = (1024, {largest})
CONFIGS = [triton.Config({{"BN": bn}}) for bn in BLOCKS]
"""

TUNED = """
import triton
import triton.language as tl

{imports}


@triton.autotune(configs={configs}, key=["n"])
@triton.jit
def scale_kernel(x, n, BN: tl.constexpr):
    offs = tl.program_id(0) * BN + tl.arange(0, BN)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)
"""


def tuned_estimates(tmp_path: Path, imports: str, configs: str, largest: int) -> list[tuple[int, int, str]]:
    folder = tmp_path / "triton_ascend"
    folder.mkdir(exist_ok=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "tuning.py").write_text(CONFIGS.format(largest=largest), encoding="utf-8")
    kernels = folder / "kernels.py"
    kernels.write_text(TUNED.format(imports=imports, configs=configs), encoding="utf-8")
    result = lint_file(str(kernels), settings(select=["ASC013"]))
    assert result.error is None
    return [(f.location.row, f.location.column, f.message) for f in result.findings]


def test_autotune_configs_another_module_states_are_estimated_at_the_name_the_decorator_reads(tmp_path: Path) -> None:
    """`configs=CONFIGS` after `from .tuning import CONFIGS` (or `configs=tuning.CONFIGS`):
    the configs `tuning.py` builds, with its own names, reported at the name here."""
    for imports, configs in (("from .tuning import CONFIGS", "CONFIGS"), ("from . import tuning", "tuning.CONFIGS")):
        [(row, column, message)] = tuned_estimates(tmp_path, imports, configs, largest=65536)
        assert (row, column) == (8, 26) and "`scale_kernel` needs about 384 KiB" in message, (configs, message)
        assert "autotune config {BN=65536}" in message
        assert tuned_estimates(tmp_path, imports, configs, largest=2048) == []  # the module read again


@pytest.mark.parametrize(
    ("kernels_head", "ops_import", "found"),
    [
        ("", "from .kernels import *", True),  # the public names of the module
        ("__all__ = ['gelu_kernel']\n", "from .kernels import *", True),
        ("__all__ = ('other',)\n", "from .kernels import *", False),  # a literal `__all__` lists the names
        ("", "from .kernels import *\ngelu_kernel = None", False),  # the module binds the name itself
        ("", "from .reexports import *", True),  # a module star-importing the kernels' one
        ("", "from .missing import *", False),
    ],
)
def test_a_kernel_star_imported_is_estimated_at_its_launch(
    tmp_path: Path, kernels_head: str, ops_import: str, found: bool
) -> None:
    """`from .kernels import *`, then `gelu_kernel[grid](...)`: the kernel the module exports
    (`__all__`, else its public names) is launched as `from .kernels import gelu_kernel` would
    launch it; past the prefilter too, which sees no import listing the name."""
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    (folder / "kernels.py").write_text(kernels_head + KERNELS, encoding="utf-8")
    (folder / "reexports.py").write_text("from .kernels import *\n", encoding="utf-8")
    ops = folder / "ops.py"
    ops.write_text(OPS.format(rows=64).replace("from .kernels import gelu_kernel", ops_import), encoding="utf-8")
    codes = [f.code for f in lint_file(str(ops), settings(select=["ASC013"])).findings]
    assert codes == (["ASC013"] if found else [])


@pytest.mark.parametrize(
    ("utils", "found"),
    [
        ("import triton\nimport triton.language as tl\n", True),
        ("triton = tl = None\n", False),  # no Triton there
        ("import triton\nimport triton.language as tl\n__all__ = ['helper']\n", False),  # exports neither
    ],
)
def test_triton_names_a_star_import_binds_mean_triton(tmp_path: Path, utils: str, found: bool) -> None:
    """`from .triton_utils import *` where that module imports `triton` and `triton.language as
    tl`: `@triton.jit` and `tl` mean Triton in the importing module, as they do there."""
    folder = tmp_path / "mypkg"
    folder.mkdir()
    (folder / "triton_utils.py").write_text(utils, encoding="utf-8")
    ops = folder / "ops.py"
    ops.write_text(
        "from .triton_utils import *\n\n\n@triton.jit\ndef k(q, o, T, task_num, num_core, BT: tl.constexpr):\n"
        "    core_id = tl.program_id(0)\n    for task_id in tl.range(core_id, task_num, num_core):\n"
        "        q += task_id * T\n        tl.store(o + task_id * T + tl.arange(0, BT), tl.load(q + tl.arange(0, BT)))\n",
        encoding="utf-8",
    )
    codes = [f.code for f in lint_file(str(ops), settings(select=["ASC006"])).findings]
    assert codes == (["ASC006"] if found else [])


@pytest.mark.parametrize(
    ("imports", "launched"),
    [
        ("from .kernels import gelu_kernel", "torch.library.wrap_triton(gelu_kernel)"),
        ("from .kernels import gelu_kernel\nfrom torch.library import wrap_triton", "wrap_triton(gelu_kernel)"),
        ("from . import kernels as K", "torch.library.wrap_triton(K.gelu_kernel)"),
    ],
)
def test_an_imported_kernel_wrapped_by_torch_is_estimated_at_the_launch(
    tmp_path: Path, imports: str, launched: str
) -> None:
    """`torch.library.wrap_triton(gelu_kernel)[grid](...)` launches the kernel `kernels.py`
    defines, as `gelu_kernel[grid](...)` does, also past the prefilter."""
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "kernels.py").write_text(KERNELS, encoding="utf-8")
    ops = folder / "ops.py"
    source = OPS.format(rows=64).replace("from .kernels import gelu_kernel", imports)
    ops.write_text(source.replace("    gelu_kernel[", f"    {launched}["), encoding="utf-8")
    [finding] = lint_file(str(ops), settings(select=["ASC013"])).findings
    assert finding.location.row == 10 + imports.count("\n") + 1
    assert "`gelu_kernel` needs about 4096 KiB" in finding.message
