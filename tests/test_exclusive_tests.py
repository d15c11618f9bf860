"""Constexpr tests that cannot hold together exclude each other's arms (`Implications.contradicts`):
equality with different constants, `!=` against `==`, a conjunction against a test excluding
one of its parts, `is None` against `is not None`, order comparisons and `in` leaving a
constexpr values no other test passes (probe 13: `MODE < 1` against `MODE >= 1`), and the
constexpr part of a test mixed with runtime values (`not USE_A and pid > 0` against
`USE_A`); read by ASC003 (reads after a dot)."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(A, B, o, N: tl.constexpr, MODE: tl.constexpr, USE_A: tl.constexpr):
    r = tl.arange(0, N)
    p = r[:, None] * N + r[None, :]
    b_a = tl.load(A + p)
    b_o = tl.zeros([N, N], dtype=tl.float32)
    if {dot}:
        b_o = tl.dot(b_a, tl.load(B + p))
    if {read}:
        b_o += b_a
    tl.store(o + p, b_o)
"""


@pytest.mark.parametrize(
    ("dot", "read", "found"),
    [
        ("MODE == 0", "MODE == 1", False),
        ("MODE != 0", "MODE == 0", False),
        ("MODE == 0", "not MODE != 0", True),
        ("USE_A and MODE == 0", "not USE_A", False),
        ("USE_A and MODE == 0", "MODE == 2", False),
        ("0 == MODE", "MODE == 2", False),
        ("MODE == 0", "MODE", False),
        ("not MODE", "MODE == 1", False),
        ("USE_A is None", "USE_A is not None", False),
        ("USE_A is None", "USE_A", False),
        # tests that can hold together
        ("MODE == 0", "MODE != 1", True),
        ("MODE == 0", "MODE == 0", True),
        ("USE_A or MODE == 0", "not USE_A", True),
        ("MODE == 0", "USE_A", True),
        ("MODE == 1", "MODE", True),
        ("MODE != 0", "MODE != 1", True),
    ],
)
def test_reads_under_a_test_excluding_the_dots_are_not_after_it(dot: str, read: str, found: bool) -> None:
    source = KERNEL.format(dot=dot, read=read)
    assert bool(lint_source(source, "k.py", settings(select=["ASC003"])).findings) is found


@pytest.mark.parametrize(
    ("dot", "read", "found"),
    [
        ("MODE < 1", "MODE >= 1", False),
        ("N > 32", "N <= 32", False),
        ("MODE > 0", "MODE == 0", False),
        ("0 < MODE", "MODE == 0", False),
        ("MODE in (0, 1)", "MODE == 2", False),
        ("MODE not in (0, 1)", "MODE == 1", False),
        ("0 < MODE <= 2", "MODE == 3", False),
        ("MODE == 0 or MODE == 2", "MODE == 1", False),
        ("MODE > -1", "MODE == -1", False),
        ("USE_A is None", "USE_A in (0, 1)", False),
        ("USE_A", "not USE_A and tl.program_id(0) > 0", False),
        ("MODE < 1 and tl.program_id(0) == 0", "MODE >= 1", False),
        # tests some value passes together
        ("MODE >= 1", "MODE == 2", True),
        ("MODE > 0", "MODE < 1", True),  # a float constexpr, 0.5
        ("N > 32", "N >= 32", True),
        ("MODE in (0, 1)", "MODE == 1", True),
        ("MODE not in (0, 1)", "MODE == 2", True),
        ("0 < MODE <= 2", "MODE == 2", True),
        ("MODE == 0 or MODE == 2", "MODE == 2", True),
        ("USE_A is True", "USE_A == 1", True),
        ("USE_A or tl.program_id(0) > 0", "not USE_A", True),
        ("tl.program_id(0) > 0", "tl.program_id(0) <= 0", True),  # runtime tests say nothing
    ],
)
def test_order_membership_and_mixed_tests_exclude_by_the_values_they_leave(dot: str, read: str, found: bool) -> None:
    source = KERNEL.format(dot=dot, read=read)
    assert bool(lint_source(source, "k.py", settings(select=["ASC003"])).findings) is found


RUNTIME_NAME = """\
import triton
import triton.language as tl


@triton.jit
def k(A, B, o, n, N: tl.constexpr):
    r = tl.arange(0, N)
    p = r[:, None] * N + r[None, :]
    b_a = tl.load(A + p)
    b_o = tl.zeros([N, N], dtype=tl.float32)
    if n > 0:
        b_o = tl.dot(b_a, tl.load(B + p))
    n = n - 1
    if n <= 0:
        b_o += b_a
    tl.store(o + p, b_o)
"""


def test_a_runtime_name_tested_twice_may_change_between_the_tests() -> None:
    """`n > 0` then `n <= 0` both hold for `n = 1` once it is decremented: only what tests
    say of constexprs excludes arms."""
    [finding] = lint_source(RUNTIME_NAME, "k.py", settings(select=["ASC003"])).findings
    assert finding.location.row == 15


def test_a_test_another_module_keys_alike_leaves_the_exclusions_alone() -> None:
    """A test of one module reading as another module's once spaces go (`USE_AandMODE == 0`,
    `USE_A and MODE == 0`) changes nothing of what the other's tests exclude: the facts the
    tests give are each kernel's own (`Flow.implications`), not shared by all modules linted in one
    process (the language server, a worker of the pool)."""
    other = KERNEL.replace("USE_A: tl.constexpr", "USE_AandMODE: tl.constexpr")
    lint_source(other.format(dot="USE_AandMODE == 0", read="N == 0"), "other.py", settings(select=["ASC003"]))
    source = KERNEL.format(dot="USE_A and MODE == 0", read="not USE_A")
    assert not lint_source(source, "k.py", settings(select=["ASC003"])).findings
