"""Linting grows linearly with the code, counted in Python calls (not timed): each shape of long
code is linted at n and 2n repetitions, and the second costs about twice the first. A scan per
statement of the statements after it, or a width nesting its operands' widths, shows as a ratio
of 3 to 4 (quadratic) or past 100 (exponential); the fuzzer's short mutants do not reach it."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

HEAD = """import triton
import triton.language as tl

"""


def python_calls(source: str) -> int:
    """The Python function calls `lint_source` makes on `source` (no error allowed)."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        result = lint_source(source, "snippet.py", settings())
    finally:
        sys.setprofile(None)
    assert result.error is None, result.error
    return calls


def kernel(body: str) -> str:
    return (
        HEAD + "@triton.jit\ndef k(x, n, BT: tl.constexpr):\n    o = tl.program_id(0) * BT + tl.arange(0, BT)\n"
        "    acc = tl.load(x + o, mask=o < n)\n" + body + "    tl.store(x + o, acc)\n\n"
        "def run(x):\n    k[(4,)](x, 8, BT=64)\n"
    )


SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "a tile doubled in place (`acc = acc + acc`)": (lambda n: kernel("    acc = acc + acc\n" * n), 8),
    "a tile squared through names (`b = a * a`)": (
        lambda n: kernel("".join(f"    a{i} = acc * acc\n    acc = a{i} + a{i}\n" for i in range(n))),
        5,
    ),
    "an accumulation of many loads": (
        lambda n: kernel(
            "".join(f"    t{i} = tl.load(x + o + {i}, mask=o < n)\n    acc = acc + t{i}\n" for i in range(n))
        ),
        80,
    ),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_twice_the_code_costs_about_twice_the_calls(shape: str) -> None:
    make, n = SHAPES[shape]
    once, twice = python_calls(make(n)), python_calls(make(2 * n))
    assert twice / once < 2.3, (once, twice)
