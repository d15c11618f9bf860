"""What a `@triton.jit` device function returns is read as Triton inlines it (ASC006, ASC007):
an int64 `bos` a helper returns used as a block-pointer offset, a pointer a helper advances in
a task loop. Reported once, at the kernel's code; a helper of another module of the package is
read the same way."""

from __future__ import annotations

from pathlib import Path

from conftest import settings

from ascend_lint.engine import lint_file

HELPERS = """
import triton
import triton.language as tl


@triton.jit
def bounds(cu_seqlens, i_n):
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    eos = tl.load(cu_seqlens + i_n + 1).to(tl.int64)
    return bos, eos


@triton.jit
def step(p, d):
    return p + d
"""

KERNELS = """
import triton
import triton.language as tl

from . import helpers
from .helpers import bounds, step


@triton.jit
def k_bounds(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos, eos = bounds(cu_seqlens, i_n)
    p = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))
    b2, e2 = helpers.bounds(cu_seqlens, i_n)
    q = tl.make_block_ptr(x, (T, D), (D, 1), (b2 + i_t * BT, 0), (BT, D), (1, 0))
    tl.store(p, tl.load(q))


@triton.jit
def k_step(x, y, n, D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p_x = x + pid * D
    for t in range(pid, n, nprog):
        tl.store(y + t * D + tl.arange(0, D), tl.load(p_x + tl.arange(0, D)))
        p_x = step(p_x, nprog * D)
"""


def findings(path: Path, select: list[str]) -> list[tuple[str, int, int]]:
    result = lint_file(str(path), settings(select=select))
    assert result.error is None
    return sorted((f.code, f.location.row, f.location.column) for f in result.findings)


def test_a_helper_of_another_module_is_read_as_inlined(tmp_path: Path) -> None:
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "helpers.py").write_text(HELPERS, encoding="utf-8")
    kernels = folder / "kernels.py"
    kernels.write_text(KERNELS, encoding="utf-8")
    assert findings(kernels, ["ASC006", "ASC007"]) == [
        ("ASC006", 26, 15),  # at the call of `step`
        ("ASC007", 13, 47),
        ("ASC007", 15, 47),
    ]
    result = lint_file(str(kernels), settings(select=["ASC006"]))
    [finding] = result.findings
    assert finding.fix is None and "device function `step`" in (finding.no_fix_reason or "")
    assert [r.message for r in finding.related] == ["task loop"]  # another file's code: not related
    assert findings(folder / "helpers.py", ["ASC006", "ASC007"]) == []


SAME_MODULE = """
import triton
import triton.language as tl


@triton.jit
def _step(p, d):
    return p + d


@triton.jit
def _rows(x, T, D: tl.constexpr, row, BT: tl.constexpr):
    p = tl.make_block_ptr(x, (T, D), (D, 1), (row, 0), (BT, D), (1, 0))
    return tl.load(p, boundary_check=(0, 1))


@triton.jit
def k(x, y, cu_seqlens, n, T, D: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p_x = x + pid * D
    p_y = y + pid * D
    for t in range(pid, n, nprog):
        tl.store(p_y + tl.arange(0, D), tl.load(p_x + tl.arange(0, D)))
        p_x = _step(p_x, nprog * D)
        p_y += nprog * D
    bos = tl.load(cu_seqlens + pid).to(tl.int64)
    b = _rows(x, T, D, bos, BT)
    tl.store(y + tl.arange(0, BT)[:, None] * D + tl.arange(0, D)[None, :], b)


@triton.jit
def _first(cu_seqlens, i_n):
    return tl.load(cu_seqlens + i_n).to(tl.int64)


@triton.jit
def k2(x, y, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    bos = _first(cu_seqlens, pid)
    b = _rows(x, T, D, bos, BT)
    tl.store(y + tl.arange(0, BT)[:, None] * D + tl.arange(0, D)[None, :], b)
"""


def test_each_finding_once_at_the_kernels_code_with_the_helper_related(tmp_path: Path) -> None:
    path = tmp_path / "k.py"
    path.write_text(SAME_MODULE, encoding="utf-8")
    result = lint_file(str(path), settings(select=["ASC006", "ASC007"]))
    assert result.error is None
    got = sorted((f.code, f.location.row, [(r.location.row, r.message) for r in f.related]) for f in result.findings)
    assert got == [
        ("ASC006", 25, [(23, "task loop"), (8, "advanced in `_step`")]),  # the call
        ("ASC006", 26, [(23, "task loop")]),  # the kernel's own advance, once
        ("ASC007", 13, []),  # in `_rows`, with the int64 its call passes: not again at the call
        ("ASC007", 41, []),  # an int64 `_first` returns, passed to `_rows`: at the call
    ]
    fixes = {f.location.row: (f.fix is not None) for f in result.findings if f.code == "ASC006"}
    assert fixes == {25: False, 26: True}  # the kernel's own walk keeps its closed-form fix
