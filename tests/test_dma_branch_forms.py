"""ASC005 judges a tail test the same however it is written: a device function called in the
`if` (or `elif`) test as bound to a local first, a runtime `if` in the arm a constexpr mode
picks as `elif MODE == 2 and test:`, and `if test: ...; return` followed by the other DMA path
as the `if` / `else` it is to Triton. ASC012 reads a number in the `except` (or `else`) of a
query as its fallback, and a number `min(...)` caps a value with as a capacity. Each snippet
marks the rows that must be reported with `# expect`."""

from __future__ import annotations

import pytest

from tests.conftest import expected_rows, found_rows, snippet_source

_MASKED = "tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)"
_BLOCK = "tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))"
_POINTER = "p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))"

_TILE_UPDATE = """
@triton.jit
def k(x, lse, o, T, D: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    rows = i_t * BT + tl.arange(0, BT)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    if i_t == tl.cdiv(T, BT) - 1:{mark}
        b = tl.load(p_x, boundary_check=(0, 1))
        b = b - tl.load(lse + rows, mask=rows < T, other=0.0)[:, None]
    else:
        b = {other}
    tl.store(tl.make_block_ptr(o, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0)), b, boundary_check=(0, 1))
"""

ASC005_CASES = {
    "helper_in_test_split": f"""
@triton.jit
def _is_tail(i_t, NT, TAIL_MODE: tl.constexpr):
    return (i_t == NT - 1) if TAIL_MODE == 2 else (TAIL_MODE == 1)


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    if _is_tail(i_t, NT, TAIL_MODE):
        {_MASKED}
    else:
        {_BLOCK}
""",
    "helper_in_test_returns_per_mode": f"""
@triton.jit
def _is_tail(i_t, NT, TAIL_MODE: tl.constexpr):
    if TAIL_MODE == 0:
        return False
    elif TAIL_MODE == 1:
        return True
    else:
        return i_t == NT - 1


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    if _is_tail(i_t, NT, TAIL_MODE):
        {_MASKED}
    else:
        {_BLOCK}
""",
    "helper_in_test_runtime": f"""
@triton.jit
def _is_last(i_t, NT):
    return i_t == NT - 1


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    if _is_last(i_t, NT):  # expect
        {_MASKED}
    else:
        {_BLOCK}
""",
    "helper_in_elif_test_runtime": f"""
@triton.jit
def _is_last(i_t, NT):
    return i_t == NT - 1


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    if i_t >= NT:
        pass
    elif _is_last(i_t, NT) | (i_t == 0):  # expect
        {_MASKED}
    else:
        {_BLOCK}
""",
    "nested_in_mode_else": f"""
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    if TAIL_MODE == 0:
        {_BLOCK}
    elif TAIL_MODE == 1:
        {_MASKED}
    else:
        if i_t == NT - 1:
            {_MASKED}
        else:
            {_BLOCK}
""",
    # a feature flag around the runtime choice, no DMA in its other arm: wherever the store is
    # compiled, its path is chosen at run time (fla's causal_conv1d `if HAS_RESIDUAL: if is_tail:`)
    "nested_in_feature_flag": f"""
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, HAS_Y: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    if HAS_Y:
        if i_t == NT - 1:  # expect
            {_MASKED}
        else:
            {_BLOCK}
""",
    "nested_choice_in_mode_arm": f"""
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    b = tl.load(p) if TAIL_MODE == 0 else (tl.load(x + o, mask=o < T) if i_t == NT - 1 else tl.load(p))
    tl.store(y + o, b, mask=o < T)
""",
    # ASC004's nesting fix of `if USE_H0 and i_t * BT < W:` (probe a4_25): the runtime test
    # left is compiled with `USE_H0` only, as before the fix
    "asc004_nesting_fix": """
@triton.jit
def k(x, h0, y, T, W: tl.constexpr, BT: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_H0:
        p_h0 = tl.make_block_ptr(h0, (T,), (1,), (0,), (BT,), (0,))
    if not USE_H0:
        b = tl.load(x + i_t + tl.arange(0, BT))
    elif i_t * BT < W:
        b = tl.load(p_h0, boundary_check=(0,))
    else:
        b = tl.load(x + i_t + tl.arange(0, BT))
    tl.store(y + i_t + tl.arange(0, BT), b)
""",
    "early_return": f"""
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    if i_t == NT - 1:  # expect
        {_MASKED}
        return
    {_POINTER}
    {_BLOCK}
""",
    "early_return_in_else": f"""
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    {_POINTER}
    if i_t < NT - 1:  # expect
        tl.store(y + o, tl.load(x + o))
    else:
        {_MASKED}
        return
    {_BLOCK}
""",
    # an early exit storing through another pointer than the rest of the kernel's other path
    # (vllm-ascend's msa_m3 `if chunk_start >= chunk_end: <block store of lse>; return`)
    "early_return_other_pointer": """
@triton.jit
def k(x, y, z, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    if i_t >= NT:
        tl.store(tl.make_block_ptr(z, (T,), (1,), (0,), (BT,), (0,)), tl.zeros((BT,), tl.float32))
        return
    tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
    tl.store(tl.make_block_ptr(z, (T,), (1,), (0,), (BT,), (0,)), tl.zeros((BT,), tl.float32))
""",
    # no arm returns: the code after the `if` runs after both arms
    "no_return": f"""
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    if i_t == NT - 1:
        {_MASKED}
    {_POINTER}
    {_BLOCK}
""",
    "early_return_split": f"""
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    if TAIL_MODE == 1:
        {_MASKED}
        return
    {_POINTER}
    {_BLOCK}
""",
    # an `if` / `else` is read as the early return is: the empty sequence's scalar `-inf` is
    # other data than the blocks the other arm moves, so no path is chosen
    "else_other_data": """
@triton.jit
def k(x, o, lse, cu_seqlens, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos, eos = tl.load(cu_seqlens + i_n), tl.load(cu_seqlens + i_n + 1)
    if eos == bos:
        tl.store(lse + i_n, float("-inf"))
    else:
        p_x = tl.make_block_ptr(x + bos * D, (eos - bos, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
        p_o = tl.make_block_ptr(o + bos * D, (eos - bos, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
        tl.store(p_o, tl.load(p_x, boundary_check=(0, 1)) * 2, boundary_check=(0, 1))
""",
    # one tile loaded both ways, from two tensors: its path is chosen at run time
    "else_one_tile_two_tensors": """
@triton.jit
def k(h0, h, idx, y, T, K: tl.constexpr, BK: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    o_k = tl.arange(0, BK)
    if i_t == 0:  # expect
        slot = tl.load(idx + i_n)
        b_h = tl.load(h0 + slot * K + o_k, mask=o_k < K, other=0.0)
    else:
        p_h = tl.make_block_ptr(h + (i_n * T + i_t - 1) * K, (K,), (1,), (0,), (BK,), (0,))
        b_h = tl.load(p_h, boundary_check=(0,))
    tl.store(y + (i_n * T + i_t) * K + o_k, b_h, mask=o_k < K)
""",
    # probe 17: the tile `b` goes by block pointer on both paths; the masked load in one arm reads
    # another tensor (`lse`), which the other arm does not move at all
    "tile_update_from_another_tensor": _TILE_UPDATE.format(mark="", other="tl.load(p_x)"),
    "tile_masked_on_the_other_path": _TILE_UPDATE.format(
        mark="  # expect", other="tl.load(x + rows[:, None] * D + tl.arange(0, D)[None, :], mask=rows[:, None] < T)"
    ),
    # probe 17: an `if` / `elif` / `else` chain is one choice, reported once, at its `if`
    "elif_chain_once": """
@triton.jit
def k(x, o, T, D: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    offs = (i_t * BT + tl.arange(0, BT))[:, None] * D + tl.arange(0, D)[None, :]
    if i_t == 0:  # expect
        b = tl.load(x + offs, mask=offs < T * D, other=0.0) * 2
    elif i_t == tl.cdiv(T, BT) - 1:
        b = tl.load(x + offs, mask=offs < T * D, other=0.0)
    else:
        b = tl.load(tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0)))
    tl.store(o + offs, b, mask=offs < T * D)
""",
}


@pytest.mark.parametrize("name", sorted(ASC005_CASES))
def test_asc005_forms(name: str) -> None:
    source, _ = snippet_source(ASC005_CASES[name])
    assert found_rows(source, select=["ASC005"]) == expected_rows(source, "ASC005")


def test_asc005_helper_in_test_ends_at_the_call(lint) -> None:
    """The finding's range ends where the test's call does, as written."""
    source, _ = snippet_source(ASC005_CASES["helper_in_test_runtime"])
    (finding,) = lint(source, select=["ASC005"])
    line = source.splitlines()[finding.location.row - 1]
    assert line[finding.end_location.column - 1 - len("_is_last(i_t, NT)") : finding.end_location.column - 1] == (
        "_is_last(i_t, NT)"
    )


ASC012_CASES = {
    "try_except_module": """
try:
    from tbe.common.platform import get_soc_spec

    UB_SIZE = get_soc_spec("UB_SIZE")
except ImportError:
    UB_SIZE = 196608
""",
    "try_else": """
try:
    from tbe.common.platform import get_soc_spec
except ImportError:
    UB_SIZE = 196608
else:
    UB_SIZE = get_soc_spec("UB_SIZE")
""",
    "if_else_query": """
from tbe.common.platform import get_soc_spec

HAS_TBE = True
if HAS_TBE:
    UB_SIZE = get_soc_spec("UB_SIZE")
else:
    UB_SIZE = 196608
""",
    "try_except_numbers": """
try:
    UB_SIZE = 253952 if IS_950 else 196608  # expect
except NameError:
    UB_SIZE = 196608  # expect
""",
    "min_caps": """
import os
from tbe.common.platform import get_soc_spec

UB_SIZE = min(196608, int(os.environ["ASCEND_UB"]))  # expect
UB_BYTES = min(196608, get_soc_spec("UB_SIZE"))  # expect


def pick(n, d):
    ub_bytes = min(192 * 1024, n * d * 4)  # expect
    return ub_bytes


def clamped():
    ub = get_soc_spec("UB_SIZE")
    if ub > 196608:
        ub = 196608  # expect
    return ub


def floor(d):
    ub_size = max(196608, d)
    ub_tile = min(65536, d)
    return ub_size, ub_tile
""",
}


@pytest.mark.parametrize("name", sorted(ASC012_CASES))
def test_asc012_forms(name: str) -> None:
    source, _ = snippet_source(ASC012_CASES[name])
    assert found_rows(source, select=["ASC012"]) == expected_rows(source, "ASC012")
