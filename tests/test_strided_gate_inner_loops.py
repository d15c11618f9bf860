"""ASC011: a load in a loop nested in the time loop, whose own index steps the address by one
(`for i_h in range(0, HV): tl.load(g + i_t * HV + i_h)`), reads consecutive elements: the inner
loop walks the heads of one time step, the outer one the next row; not a strided load. A loop
around the time loop stepping by one does not make it contiguous."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(g, o, T, HV: tl.constexpr, K: tl.constexpr, BK: tl.constexpr):
    i_b = tl.program_id(0)
{body}
"""


def _rows(body: str) -> list[int]:
    source = KERNEL.format(body="\n".join("    " + line for line in body.splitlines()))
    return [f.location.row for f in lint_source(source, "k.py", settings(select=["ASC011"])).findings]


@pytest.mark.parametrize(
    ("body", "reported"),
    [
        # the heads of one time step, one after the other
        ("for i_t in range(0, T):\n    for i_h in range(0, HV):\n        b_g = tl.load(g + i_t * HV + i_h)", False),
        (
            "for i_t in range(0, T):\n    for i_h in tl.static_range(0, HV):\n        b_g = tl.load(g + i_t * HV + i_h)",
            False,
        ),
        (
            "for i_t in range(0, T):\n    for i_h in tl.range(0, HV):\n        b_g = tl.load(g + (i_b * T + i_t) * HV + i_h)",
            False,
        ),
        # a pointer the time loop advances by the head count, read at the inner loop's index
        (
            "p_g = g + i_b * T * HV\nfor _ in range(0, T):\n    for i_h in range(0, HV):\n        b_g = tl.load(p_g + i_h)\n    p_g += HV",
            False,
        ),
        # the inner loop does not move the address: still one element per time step, `HV` apart
        ("for i_t in range(0, T):\n    for i_k in range(0, K, BK):\n        b_g = tl.load(g + i_t * HV + i_b)", True),
        # the inner loop steps the address by the head count too
        ("for i_t in range(0, T):\n    for i_h in range(0, HV):\n        b_g = tl.load(g + i_t * HV + i_h * HV)", True),
        # the loop stepping by one is around the time loop, not in it: each inner trip is strided
        ("for i_h in range(0, HV):\n    for i_t in range(0, T):\n        b_g = tl.load(g + i_t * HV + i_h)", True),
    ],
)
def test_inner_loop_stepping_by_one(body: str, reported: bool) -> None:
    rows = _rows(body)
    load_row = next(i for i, line in enumerate(KERNEL.format(body=body).splitlines(), 1) if "tl.load" in line)
    assert rows == ([load_row] if reported else [])
