"""ASC008: which pointer names hold cumulative boundaries (`cu_seqlens`, `B_Start_Loc`: in any
case) and which hold lengths (`cache_seqlens`), and a remainder written out (`t - (t // P) *
P`) is a position inside a page, as `t % P` is."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(out, {pointer}, stride, P: tl.constexpr, D: tl.constexpr):
    i_b = tl.program_id(0)
    pos = tl.load({pointer} + i_b).to(tl.int32)
{lines}
    tl.store(out + {offset} * stride + tl.arange(0, D), tl.zeros([D], dtype=tl.float32))
"""


def _found(pointer: str, offset: str, lines: str = "") -> bool:
    source = KERNEL.format(
        pointer=pointer, lines="\n".join("    " + line for line in lines.splitlines()), offset=offset
    )
    return bool(lint_source(source, "k.py", settings(select=["ASC008"])).findings)


@pytest.mark.parametrize(
    ("pointer", "found"),
    [
        ("cu_seqlens", True),
        ("cu_seqlens_k_ptr", True),
        ("input_cu_seqlens", True),
        ("cum_seqlens_q", True),
        ("b_start_loc", True),
        ("mCuSeqlensQ", True),
        ("B_Start_Loc", True),
        ("Query_Start_Loc_ptr", True),
        # lengths per sequence, not cumulative offsets
        ("cache_seqlens", False),
        ("cache_seqlens_ptr", False),
        ("seqlens_k", False),
        ("suffix_seqlens_ptr", False),
    ],
)
def test_boundary_names_in_any_case_and_lengths_are_not_boundaries(pointer: str, found: bool) -> None:
    assert _found(pointer, "pos") is found


@pytest.mark.parametrize(
    ("lines", "offset", "found"),
    [
        ("t = pos + tl.arange(0, D)\nr = t - (t // P) * P", "r", False),
        ("t = pos + tl.arange(0, D)\npage = t // P\nr = t - page * P", "r", False),
        ("t = pos + tl.arange(0, D)\npage = t // P\nr = t - P * page", "(tl.load(out + page) * P + r)", False),
        ("t = pos + tl.arange(0, D)\nr = t % P", "r", False),
        # not a remainder: another divisor
        ("t = pos + tl.arange(0, D)\npage = t // P\nr = t - page * D", "r", True),
    ],
)
def test_a_remainder_written_out_is_a_position_inside_the_page(lines: str, offset: str, found: bool) -> None:
    assert _found("cu_seqlens", offset, lines) is found
