"""ASC008: a chunk index times its own divisor is the chunk's start, no larger than the offset;
the divisor is the one of the definition reaching the product, with the value it has there,
compared as a product of values however it is written (`BT * 2`, `2 * BT`, `C = BT`)."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(v, cu_seqlens, BT: tl.constexpr, V: tl.constexpr, WIDE: tl.constexpr):
    bos = tl.load(cu_seqlens + tl.program_id(0)).to(tl.int32)
    C = BT
{lines}
    tl.store(v + {offset} + tl.arange(0, V), tl.zeros([V], dtype=tl.float32))
"""


def _codes(lines: str, offset: str) -> list[str]:
    source = KERNEL.format(lines="\n".join("    " + line for line in lines.splitlines()), offset=offset)
    return [f.code for f in lint_source(source, "k.py", settings(select=["ASC008"])).findings]


@pytest.mark.parametrize(
    ("lines", "offset", "found"),
    [
        # the divisor written as an expression, the same at the product
        ("i_c = bos // (2 * BT)", "i_c * (2 * BT)", False),
        ("i_c = bos // (2 * BT)", "i_c * 2 * BT * V", True),
        # one arm divides by `2 * BT`: `i_c * (2 * BT)` is twice the offset in the other
        ("if WIDE:\n    i_c = bos // (2 * BT)\nelse:\n    i_c = bos // BT", "i_c * (2 * BT)", True),
        ("if WIDE:\n    i_c = bos // (2 * BT)\nelse:\n    i_c = bos // (BT * 2)", "i_c * (2 * BT)", False),
        # divisor and factor compared as products of the values read: order, grouping, names
        ("i_c = bos // (BT * 2)", "i_c * (2 * BT)", False),
        ("i_c = bos // (2 * BT)", "i_c * 2 * BT", False),
        ("i_c = bos // (2 * BT)", "2 * i_c * BT", False),
        ("i_c = bos // BT", "i_c * C", False),
        ("D = 2 * BT\ni_c = bos // D", "i_c * BT * 2", False),
        ("i_c = bos // (2 * BT)", "i_c * 2 * BT * 2", True),
        ("i_c = bos // BT", "i_c * 2 * BT", True),
        ("if WIDE:\n    i_c = bos // (2 * BT)\nelse:\n    i_c = bos // (2 * BT)", "i_c * (2 * BT)", False),
        # the divisor's name rebound between the division and the product
        ("i_c = bos // C\nC = 2 * BT", "i_c * C", True),
        ("if WIDE:\n    i_c = bos // C\n    C = 2 * BT\nelse:\n    i_c = bos // C", "i_c * C", True),
        ("if WIDE:\n    C = 2 * BT\ni_c = bos // C", "i_c * C", False),
    ],
)
def test_a_chunk_start_is_its_divisor_where_the_product_reads_it(lines: str, offset: str, found: bool) -> None:
    assert bool(_codes(lines, offset)) is found
