"""ASC011: a head count under its common names (`NUM_HEADS`, `num_kv_heads`, `H_V`, `n_head`,
`heads`, in any case but `H`'s) strides a load as `HV` does; a head's size or stride (`HD`,
`head_dim`, `HEAD_SIZE`, `head_stride`) does not."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(g, o, cu_seqlens, T, {name}: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    p_g = g + bos * {name} + i_hv
    b_s = 0.0
    for _ in range(0, T):
        b_s += tl.load(p_g).to(tl.float32)
        p_g += {name}
    tl.store(o + i_n * {name} + i_hv, b_s)
"""


def _rows(name: str) -> list[int]:
    source = KERNEL.format(name=name)
    return [f.location.row for f in lint_source(source, "k.py", settings(select=["ASC011"])).findings]


@pytest.mark.parametrize(
    "name",
    [
        *("NUM_HEADS", "N_HEADS", "NHEADS", "num_v_heads", "num_kv_heads", "num_head", "n_head", "heads"),
        *("H_V", "NUM_HEADS_V", "Hv", "nh", "kv_heads", "nheads_kv"),
    ],
)
def test_a_head_count_by_a_common_name_strides_the_load(name: str) -> None:
    assert _rows(name) == [12]


@pytest.mark.parametrize("name", ["HD", "head_dim", "HEAD_DIM", "HEAD_SIZE", "head_stride", "h", "head", "BH"])
def test_a_head_size_or_stride_does_not(name: str) -> None:
    assert _rows(name) == []
