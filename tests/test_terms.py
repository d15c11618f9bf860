"""Offsets as sums of products (`ascend_lint.terms`): what ASC006's closed form compares."""

from __future__ import annotations

import libcst as cst
import pytest
from test_flow import kernel_of

from ascend_lint.terms import MAX_PRODUCTS, Terms, TooComplex, added, divided, multiplied, scaled

KERNEL = """
@triton.jit
def k(x, T, D, n):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    twice = n
    twice = n + 1
"""


@pytest.fixture
def terms() -> Terms:
    return Terms(kernel_of(KERNEL).flow)


def of(terms: Terms, code: str):
    return terms.of(cst.parse_expression(code))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("x + core_id * T * D", "D * T * core_id + x"),
        ("(T - 1) * D", "T * D - D"),
        ("-(a - b) * 2", "2 * b - a - a"),
        ("num_core * D", "tl.num_programs(0) * D"),  # a name bound only to the grid call
        ("i_b // 4 * T", "T * (i_b//4)"),  # other expressions are atoms, whatever the spacing
    ],
)
def test_equal_sums(terms, left, right):
    assert of(terms, left) == of(terms, right)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("num_core * D", "n * D"),  # a parameter is not the grid size
        ("twice * D", "(n + 1) * D"),  # a name with several definitions is an atom
        ("core_id * D", "core_id * D + 0 * x + 1"),
    ],
)
def test_different_sums(terms, left, right):
    assert of(terms, left) != of(terms, right)


def test_division_by_a_product(terms):
    advance = of(terms, "num_core * T * D")
    assert divided(advance, of(terms, "tl.num_programs(0)")) == of(terms, "T * D")
    assert divided(of(terms, "-D"), of(terms, "-1")) == of(terms, "D")
    assert divided(of(terms, "3 * D"), of(terms, "2")) is None
    assert divided(advance, of(terms, "n")) is None
    assert divided(advance, of(terms, "num_core + 1")) is None


def test_render_keeps_first_seen_order_and_signs(terms):
    index = of(terms, "task_id")
    stride = of(terms, "T * D")
    rest = added(of(terms, "bos * D - D + o_d"), {})
    # factors in the order their atoms were first seen: `D` (in the stride) before `bos`
    closed = added(multiplied(index, stride), rest)
    assert terms.render(closed, first="x") == "x + task_id * T * D + D * bos - D + o_d"
    assert terms.render(scaled(of(terms, "2 * (a // b)"), -1)) == "-2 * (a // b)"
    assert terms.render({}) == "0"


def test_too_many_products(terms):
    wide = " + ".join(f"a{i}" for i in range(MAX_PRODUCTS))
    with pytest.raises(TooComplex):
        of(terms, f"({wide}) * (b + c)")
