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
def k(v, cu_seqlens, BT: tl.constexpr, V: tl.constexpr, WIDE: tl.constexpr, A: tl.constexpr):
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


CHOSEN = "j = bos // BT if WIDE else bos // (2 * BT)"
STORE = "tl.store(v + {offset} + tl.arange(0, V), tl.zeros([V], dtype=tl.float32))"


def _rows(lines: str) -> list[int]:
    body = "\n".join("    " + line for line in lines.format(chosen=CHOSEN, store=STORE).splitlines())
    source = KERNEL.split("    tl.store")[0].format(lines=body)
    return [f.location.row - 8 for f in lint_source(source, "k.py", settings(select=["ASC008"])).findings]


@pytest.mark.parametrize(
    ("lines", "rows"),
    [
        # the arm the product's specialisation compiles, as with `if WIDE: j = bos // BT` / `else: ...`
        ("{chosen}\nif WIDE:\n    " + STORE.format(offset="j * BT"), []),
        ("{chosen}\nif not WIDE:\n    " + STORE.format(offset="j * (2 * BT)"), []),
        ("{chosen}\nif not WIDE:\n    " + STORE.format(offset="j * BT"), [3]),  # half the offset: flagged
        ("{chosen}\n" + STORE.format(offset="j * BT"), [2]),  # twice the offset when `WIDE` is false
        ("{chosen}\nk = j\nif WIDE:\n    " + STORE.format(offset="k * BT"), []),  # through a name
        ("{chosen}\noff = j * BT\nif WIDE:\n    " + STORE.format(offset="off"), [2]),  # the product outside
        # an arm another test picks: both may be compiled under `if WIDE:`
        ("j = bos // BT if A else bos // (2 * BT)\nif WIDE:\n    " + STORE.format(offset="j * BT"), [3]),
        ("j = bos // BT if bos > 4 else bos // (2 * BT)\nif WIDE:\n    " + STORE.format(offset="j * BT"), [3]),
        ("j = ({chosen_inner}) if A else bos // BT\nif WIDE:\n    " + STORE.format(offset="j * BT"), []),
        ("j = ({chosen_inner}) if A else bos // BT\nif A:\n    " + STORE.format(offset="j * BT"), [3]),
    ],
)
def test_a_chunk_index_chosen_in_an_expression_divides_per_arm(lines: str, rows: list[int]) -> None:
    assert _rows(lines.replace("{chosen_inner}", CHOSEN.removeprefix("j = "))) == rows
