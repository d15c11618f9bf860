"""`FLAG * (runtime test)` is a conjunction of conditions to ASC004 as `FLAG and (...)` is: a
constexpr times a tensor is a tensor, so the `if` is a runtime one and compiles its arm with the
flag False (probe 17: `AttributeError` with `h0=None`). Arithmetic (`i_t * BT`) is no test."""

from __future__ import annotations

import libcst as cst
import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.flow import combines_conditions
from ascend_lint.optional import bool_operands

KERNEL = """import triton
import triton.language as tl


@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    offs = tl.arange(0, BT)
    b = tl.load(x + i_t * BT + offs)
{body}    tl.store(o + i_t * BT + offs, b)


def run(x, o, W):
    k[(4,)](x, None, o, W, USE_H0=False, BT=16)
"""
PRODUCT = "    if USE_H0 * (i_t * BT < W):\n        b += tl.load(h0 + offs)\n"
MIXED = "    if USE_H0 and i_t * BT < W:\n        b += tl.load(h0 + offs + 1)\n"


@pytest.mark.parametrize(
    ("test", "combines"),
    [
        ("USE_H0 * (i_t * BT < W)", True),
        ("(i_t > 0) * USE_H0", True),
        ("(i_t > 0) * (not USE_H0)", True),
        ("i_t * BT", False),  # arithmetic
        ("(i_t < W) * 2", False),
        ("b * c", False),
    ],
)
def test_a_product_of_tests_combines_conditions(test: str, combines: bool) -> None:
    node = cst.parse_expression(test)
    assert combines_conditions(node) is combines
    assert len(bool_operands(node)) == (2 if combines else 1)


def test_a_product_of_a_flag_and_a_runtime_test_is_a_mix() -> None:
    source = KERNEL.format(body=PRODUCT)
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert finding.code == "ASC004" and finding.location.row == 10
    assert "`if USE_H0 * (i_t * BT < W)` mixes a constexpr flag" in finding.message
    assert finding.fix is None and "`*`" in (finding.no_fix_reason or "")


def test_a_use_under_a_product_mix_leaves_the_pointer_optional() -> None:
    """The use under `USE_H0 * (...)` depends on the flag: it does not make `h0` always used,
    which hid the later `and` mix's finding."""
    source = KERNEL.format(body=PRODUCT + MIXED)
    rows = [finding.location.row for finding in lint_source(source, "k.py", settings()).findings]
    assert rows == [10, 12]
