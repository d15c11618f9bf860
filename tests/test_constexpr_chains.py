"""Tests on names the body binds to a constexpr test (`A: tl.constexpr = F`, `B: tl.constexpr =
A and X`, `B = A and X`) say what the test they hold says (`Implications`): `if not A:` excludes
`if F:`. Before, a test was read by its text alone, so ASC002 took a cast under `if not A:` for
one compiled with `F` true and reported the product bound under `if F:`, "wraps in int32 (when
`F` is true)": a flag that cannot hold there."""

from __future__ import annotations

import libcst as cst
import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.imports import ImportMap
from ascend_lint.kernels import find_kernels

CHAIN = """
import triton
import triton.language as tl


@triton.jit
def k(x, cu, T, F: tl.constexpr, X: tl.constexpr):
    i_b = tl.program_id(0)
    A: tl.constexpr = F
    {binding}
    if {made}:
        bos = i_b * T
    else:
        bos = tl.load(cu + i_b)
    if {around}:
        tl.store(x + bos.to(tl.int64), 1.0)
"""


def asc002(binding: str, made: str, around: str) -> list[str]:
    source = CHAIN.format(binding=binding, made=made, around=around)
    result = lint_source(source, "k.py", settings(select=["ASC002"]))
    assert result.error is None
    return [finding.message for finding in result.findings]


@pytest.mark.parametrize(
    ("binding", "made", "around"),
    [
        ("B: tl.constexpr = A", "F", "not A"),
        ("B: tl.constexpr = A", "A", "not F"),
        ("B: tl.constexpr = A and X", "B", "not A"),
        ("B: tl.constexpr = A and X", "B", "not X"),
        ("B = A and X", "B", "not F"),
        ("B: tl.constexpr = not A", "B", "F"),
    ],
)
def test_a_product_bound_under_a_test_the_casts_test_excludes_is_not_cast(binding: str, made: str, around: str) -> None:
    assert asc002(binding, made, around) == []


@pytest.mark.parametrize(
    ("binding", "made", "around", "when"),
    [
        ("B: tl.constexpr = A", "F", "B", ""),  # `B` holding says `F` does: no other case is compiled
        ("B: tl.constexpr = A and X", "F", "X", " (when `F` is true)"),
        ("B: tl.constexpr = A or X", "B", "not F", " (when `B` is true)"),  # with `F` false, when `X` holds
    ],
)
def test_a_product_the_casts_test_allows_is_reported_with_what_decides_it(
    binding: str, made: str, around: str, when: str
) -> None:
    (message,) = asc002(binding, made, around)
    assert message.startswith(f"cast after multiply wraps in int32{when}: ")


def test_a_name_bound_to_a_flag_is_read_as_the_flag() -> None:
    source = CHAIN.format(binding="B: tl.constexpr = A and X", made="F", around="B")
    module = cst.parse_module(source)
    (kernel,) = find_kernels(module, ImportMap(module, source))
    flow = kernel.flow
    keys = {branch.key[0] for branch in flow.branches}
    assert keys == {"F", "B"}
    implications = flow.implications
    assert implications.contradicts(frozenset({("F", False)}), "B", True)
    assert implications.contradicts(frozenset({("B", True)}), "F", False)
    assert not implications.contradicts(frozenset({("B", False)}), "F", True)
