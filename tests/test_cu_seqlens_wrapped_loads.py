"""ASC008: an int32 sequence offset behind a compiler hint (`tl.multiple_of(tl.load(cu_seqlens +
i_n).to(tl.int32), 16)`: the hint returns its argument) is one all the same; an offset
multiplied in place and then again (`row *= H`, then `row * D`) is reported once, at the first
product."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(q, cu_seqlens, stride_t, H: tl.constexpr, D: tl.constexpr):
    i_n = tl.program_id(0)
{lines}
"""


def rows(lines: str) -> list[int]:
    source = KERNEL.format(lines="\n".join("    " + line for line in lines.splitlines()))
    result = lint_source(source, "k.py", settings(select=["ASC008"]))
    assert result.error is None
    body = source.splitlines()
    return [
        body.index("    " + line) - body.index("    i_n = tl.program_id(0)")
        for line in lines.splitlines()
        if any(f.location.row == body.index("    " + line) + 1 for f in result.findings)
    ]


LOAD = "tl.load(cu_seqlens + i_n).to(tl.int32)"


@pytest.mark.parametrize(
    "bound",
    [f"tl.multiple_of({LOAD}, 16)", f"tl.max_contiguous(tl.multiple_of({LOAD}, 16), 16)"],
)
def test_an_offset_behind_a_compiler_hint(bound: str) -> None:
    assert rows(f"bos = {bound}\ntl.store(q + bos * stride_t, 1.0)") == [2]


def test_an_offset_multiplied_in_place_then_again_is_reported_once() -> None:
    """`row *= H` wraps first; `row * D` scales the wrapped product, which the same fix (an
    int64 load, or a cast before `*= H`) widens: one cause, one finding."""
    assert rows(f"row = {LOAD}\nrow *= H\nx = row * D\ntl.store(q + x, 1.0)") == [2]
