"""ASC013: a block size the host chooses by a test of another launch argument goes with the
values of that argument the test lets through (`BM = 256 if D <= 64 else 16` beside `D=D`), in
the conditional expression, the `if`/`else` and the `elif` forms; names bound in one arm go
together; tests against module constants decide; a capability test (`if check_shared_mem():`)
chooses both arms. One call up too: the caller of a launching helper choosing `BM` by `D`
(`_launch(x, D, 256 if D <= 64 else 16)`) passes 256 only with the `D`s its test lets through."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.imports import ImportMap
from ascend_lint.kernels import find_kernels
from ascend_lint.rule import ModuleContext

KERNEL = """
import torch
import triton
import triton.language as tl
from fla.utils import check_shared_mem, is_arch_xyz

_MAX_D = 64

@triton.jit
def k(x, y, S, D: tl.constexpr, BM: tl.constexpr):
    i = tl.program_id(0)
    p = tl.make_block_ptr(x, (S, D), (D, 1), (i * BM, 0), (BM, D), (1, 0))
    b = tl.load(p, boundary_check=(0, 1)).to(tl.float32)
    b = tl.exp(b) * b + 1.0
    q = tl.make_block_ptr(y, (S, D), (D, 1), (i * BM, 0), (BM, D), (1, 0))
    tl.store(q, b.to(q.dtype.element_ty), boundary_check=(0, 1))
"""
ASSERTED = "    B, S, D = x.shape\n    assert D in {64, 128, 256}\n"


def pairs(host: str) -> set[tuple[int, int]]:
    """The (D, BM) pairs of the kernel's configurations."""
    source = KERNEL + textwrap.dedent(host)
    module = cst.parse_module(source)
    imports = ImportMap(module, source)
    kernels = find_kernels(module, imports)
    context = ModuleContext("choices.py", source, module, imports, kernels)
    return {
        (int(c.values["D"]), int(c.values["BM"]))
        for c in context.configurations(kernels[0])
        if "D" in c.values and "BM" in c.values
    }


def rows(host: str) -> list[int]:
    source = KERNEL + textwrap.dedent(host)
    result = lint_source(source, "choices.py", settings(select=["ASC013"]))
    return [finding.location.row - KERNEL.count("\n") for finding in result.findings]


TIED = {(64, 256), (128, 16), (256, 16)}


@pytest.mark.parametrize(
    "choice",
    [
        "    BM = 256 if D <= 64 else 16\n",
        "    BM = 256 if D <= _MAX_D else 16\n",
        "    if D <= 64:\n        BM = 256\n    else:\n        BM = 16\n",
        "    if D > 64:\n        BM = 16\n    else:\n        BM = 256\n",
        "    if D <= _MAX_D:\n        BM = 256\n    else:\n        BM = 16\n",
        "    if D in (64,):\n        BM = 256\n    elif D <= 128:\n        BM = 16\n    else:\n        BM = 16\n",
        "    if D <= 64:\n        BM = 256\n    else:\n        BM = triton.next_power_of_2(S)\n",
    ],
)
def test_a_block_chosen_by_a_test_of_another_argument_goes_with_the_values_it_lets_through(choice: str) -> None:
    host = "def f(x, y):\n" + ASSERTED + choice + "    k[(S,)](x, y, S, D=D, BM=BM)\n"
    assert pairs(host) <= TIED
    assert (64, 256) in pairs(host)
    assert rows(host) == []


def test_an_elif_chain_ties_each_arm_to_its_values() -> None:
    host = (
        "def f(x, y):\n" + ASSERTED + "    if D <= 64:\n        BM = 256\n    elif D <= 128:\n        BM = 64\n"
        "    else:\n        BM = 128\n    k[(S,)](x, y, S, D=D, BM=BM)\n"
    )
    assert pairs(host) == {(64, 256), (128, 64), (256, 128)}
    assert rows(host) == [10]  # 128 x 256 fp32, twice: 256 KiB


def test_a_name_passed_under_another_name_is_tied_too() -> None:
    host = """
    def f(x, y):
        B, S, HEAD = x.shape
        assert HEAD in {64, 128, 256}
        BM = 256 if HEAD <= 64 else 16
        k[(S,)](x, y, S, D=HEAD, BM=BM)
    """
    assert pairs(host) == TIED


@pytest.mark.parametrize(
    "choice",
    [
        "    if is_arch_xyz():\n        BM, D2 = 256, 64\n    else:\n        BM, D2 = 16, 256\n",
        "    if check_shared_mem():\n        BM = 256\n        D2 = 64\n    else:\n        BM = 16\n        D2 = 256\n",
        "    if S > 4096:\n        BM, D2 = 256, 64\n    elif S > 1024:\n        BM, D2 = 64, 128\n"
        "    else:\n        BM, D2 = 16, 256\n",
        "    BM = 256 if S > 4096 else 16\n    D2 = 64 if S > 4096 else 256\n",
    ],
)
def test_values_bound_in_one_arm_go_together(choice: str) -> None:
    host = "def f(x, y):\n    B, S, D = x.shape\n" + choice + "    k[(S,)](x, y, S, D=D2, BM=BM)\n"
    assert (256, 256) not in pairs(host)
    assert (64, 256) in pairs(host)
    assert rows(host) == []


@pytest.mark.parametrize(
    "guard",
    [
        "    if D <= _MAX_D:\n        k[(S,)](x, y, S, D=D, BM=256)\n",
        "    if D > _MAX_D:\n        return\n    k[(S,)](x, y, S, D=D, BM=256)\n",
    ],
)
def test_a_test_against_a_module_constant_decides_the_launch(guard: str) -> None:
    host = "def f(x, y):\n" + ASSERTED + guard
    assert pairs(host) == {(64, 256)}
    assert rows(host) == []


@pytest.mark.parametrize(
    "test",
    ['check_shared_mem("ampere", x.device.index)', "is_arch_xyz()", "big"],
)
def test_a_capability_test_chooses_both_arms(test: str) -> None:
    host = (
        "def f(x, y):\n" + ASSERTED + "    big = check_shared_mem()\n"
        f"    if {test}:\n        BM = 256\n    else:\n        BM = 16\n    k[(S,)](x, y, S, D=D, BM=BM)\n"
    )
    assert pairs(host) == {(d, bm) for d in (64, 128, 256) for bm in (16, 256)}
    assert rows(host) == [9]


def test_a_capability_test_beside_a_data_test_keeps_what_the_data_allows() -> None:
    host = (
        "def f(x, y):\n" + ASSERTED + "    if D <= 64:\n        BM = 16\n    elif is_arch_xyz():\n"
        "        BM = 256\n    else:\n        BM = 16\n    k[(S,)](x, y, S, D=D, BM=BM)\n"
    )
    assert pairs(host) == {(64, 16), (128, 16), (256, 16), (128, 256), (256, 256)}
    host = (
        "def f(x, y):\n" + ASSERTED + "    if is_arch_xyz() and D <= 64:\n        BM = 256\n    else:\n"
        "        BM = 16\n    k[(S,)](x, y, S, D=D, BM=BM)\n"
    )
    assert pairs(host) == TIED | {(64, 16)}  # 16 with 64 on another device


def test_a_name_bound_again_after_the_test_is_not_tied() -> None:
    """The test read `D` before the arm bound it again: 256 goes with the `D` bound there."""
    host = (
        "def f(x, y):\n" + ASSERTED + "    if D <= 64:\n        BM = 256\n        D = 256\n    else:\n"
        "        BM = 16\n    k[(S,)](x, y, S, D=D, BM=BM)\n"
    )
    assert (256, 256) in pairs(host)
    assert rows(host) == [9]


def test_the_arguments_of_one_call_of_the_launching_function_go_together() -> None:
    host = """
    def _launch(x, y, D, BM=16):
        S = x.shape[1]
        k[(S,)](x, y, S, D=D, BM=BM)
    def f(x, y):
        _launch(x, y, 64, 256)
        _launch(x, y, 256, 16)
        _launch(x, y, 128)
    """
    assert pairs(host) == {(64, 256), (256, 16), (128, 16)}
    assert rows(host) == []


def test_a_call_passing_what_has_no_constant_may_pass_anything() -> None:
    host = """
    def _launch(x, y, D, BM):
        S = x.shape[1]
        k[(S,)](x, y, S, D=D, BM=BM)
    def f(x, y, bm):
        _launch(x, y, 64, 256)
        _launch(x, y, 256, 16)
        if bm > 1:
            BM = 256
        else:
            BM = triton.next_power_of_2(bm)
        _launch(x, y, 256, BM)
    """
    assert (256, 256) in pairs(host)


LAUNCHER = """
def _launch(x, y, D, BM):
    S = x.shape[1]
    k[(S,)](x, y, S, D=D, BM=BM)
def heads(x, y):
    f(x, y, 64)
    f(x, y, 256)
"""


@pytest.mark.parametrize(
    "caller",
    [
        "def f(x, y, D):\n    _launch(x, y, D, 256 if D <= 64 else 16)\n",
        "def f(x, y, D):\n    BM = 256 if D <= _MAX_D else 16\n    _launch(x, y, D, BM)\n",
        "def f(x, y, D):\n    if D <= 64:\n        BM = 256\n    else:\n        BM = 16\n    _launch(x, y, D, BM)\n",
        "def f(x, y, D):\n    if D <= 64:\n        _launch(x, y, D, 256)\n    else:\n        _launch(x, y, D, 16)\n",
        "def f(x, y, D):\n    if D > 64:\n        return _launch(x, y, D, 16)\n    _launch(x, y, D, 256)\n",
        "def f(x, y, wide):\n    D = 256 if wide else 64\n    BM = 256 if D <= 64 else 16\n    _launch(x, y, D, BM)\n",
    ],
)
def test_a_block_the_caller_of_a_launching_helper_chooses_by_a_test_goes_with_what_it_lets_through(
    caller: str,
) -> None:
    """One call up: `f` chooses `BM` by `D` and passes both to `_launch`, which launches with
    them; its calls pass `D` 64 and 256. Crossing every value gave `{D=256, BM=256}`, 256 KiB."""
    assert pairs(LAUNCHER + caller) == {(64, 256), (256, 16)}
    assert rows(LAUNCHER + caller) == []


def test_a_caller_passing_a_block_its_test_does_not_tie_still_overflows() -> None:
    caller = (
        "def f(x, y, D):\n    if D <= 64:\n        BM = 16\n    else:\n        BM = 256\n    _launch(x, y, D, BM)\n"
    )
    assert pairs(LAUNCHER + caller) == {(64, 16), (256, 256)}
    assert rows(LAUNCHER + caller) == [4]  # the launch in `_launch`: 256 x 256 with D 256


@pytest.mark.parametrize(
    ("asserted", "values"),
    [
        ("assert D in {64, 128, 256}", {64, 128, 256}),
        ("assert D in (64, 128)", {64, 128}),
        ("assert D == 256", {256}),
        ("assert 256 == D", {256}),
        ("assert D in (64, 128) and S > 0", {64, 128}),
        ("assert S > 0 and D == 128", {128}),
        ("assert D <= 256", {256}),  # a size passed bare is read at the bound it is asserted under
        ("assert D == S", set()),
    ],
)
def test_an_assert_gives_the_values_it_allows(asserted: str, values: set[int]) -> None:
    host = f"""
    def launch(x, y):
        B, S, D = x.shape
        {asserted}
        k[(triton.cdiv(S, 16),)](x, y, S, D=D, BM=16)
    """
    assert {d for d, _ in pairs(host)} == values


@pytest.mark.parametrize(
    ("asserts", "said", "notes"),
    [
        ("assert D == 256 and BM == 256", "(`D`, `BM` values asserted at line 9)", 1),
        ("assert D == 256\n        assert BM in (128, 256)", "(`D`, `BM` values asserted, the first at line 9)", 2),
    ],
)
def test_launch_values_asserted_are_said_so(asserts: str, said: str, notes: int) -> None:
    host = f"""
    def launch(x, y):
        B, S, D = x.shape
        BM = x.shape[0]
        {asserts}
        k[(triton.cdiv(S, BM),)](x, y, S, D=D, BM=BM)
    """
    source = KERNEL + textwrap.dedent(host)
    (finding, *_) = lint_source(source, "choices.py", settings(select=["ASC013"])).findings
    assert said.replace("line 9", f"line {KERNEL.count(chr(10)) + 5}") in finding.message
    assert sum("asserted here" in note.message for note in finding.related) == notes
