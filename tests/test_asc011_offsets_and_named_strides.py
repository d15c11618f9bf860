"""ASC011 reads a gate stepped along T however the step is carried: an integer offset the time
loop advances by the head count and adds to the gate's pointer (`o_g += HV`, `tl.load(g +
o_g)`), also in a task loop, reads one element `HV` apart per step as `p_g += HV` does; and a
block pointer's strides bound to a name first (`strides = (H,)`) are its strides."""

from __future__ import annotations

from conftest import expected_rows, found_rows, snippet_source

OFFSETS = """
@triton.jit
def k(g, beta, o, T, HV: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    o_g = i_n * T * HV + i_hv
    o_beta = i_n * T * HV + i_hv
    b = 0.0
    for _ in range(0, T):
        b += tl.load(g + o_g)  # expect
        p_beta = beta + o_beta
        b += tl.load(p_beta)  # expect
        o_g += HV
        o_beta = o_beta + HV
    tl.store(o + i_n, b)


@triton.jit
def k_tasks(g, o, T, NTASK, HV: tl.constexpr):
    pid = tl.program_id(0)
    for task in range(pid, NTASK, tl.num_programs(0)):
        i_n, i_hv = task // HV, task % HV
        o_g = i_n * T * HV + i_hv
        b = 0.0
        for _ in range(0, T):
            b += tl.load(g + o_g)  # expect
            o_g += HV
        tl.store(o + task, b)
"""

# not a stride along T: the offset stepped by one (the fix applied), by a head's size, or the
# gate's pointer stepped by one beside an offset stepped by HV that the load does not read
NOT_STRIDED = """
@triton.jit
def k(g, g_t, v, o, T, HV: tl.constexpr, K: tl.constexpr, G_T_CONTIG: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    o_g = (i_n * HV + i_hv) * T
    o_v = i_n * T * HV * K + i_hv * K
    o_h = i_n * T * HV + i_hv
    b = 0.0
    for _ in range(0, T):
        b += tl.load(g_t + o_g)
        b += tl.sum(tl.load(v + o_v + tl.arange(0, K)))
        if G_T_CONTIG:
            o_g += 1
        else:
            o_g += HV
        o_v += HV * K
        o_h += HV
    tl.store(o + o_h, b)
"""

NAMED_STRIDES = """
@triton.jit
def k(g, beta, o, cu_seqlens, T, H: tl.constexpr, BT: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    strides = (H,)
    p_g = tl.make_block_ptr(g + bos * H + i_h, (T,), strides, (i_t * BT,), (BT,), (0,))
    b_g = tl.load(p_g, boundary_check=(0,))  # expect
    contiguous = (1,)
    p_beta = tl.make_block_ptr(beta + (bos + i_h) * T, (T,), contiguous, (i_t * BT,), (BT,), (0,))
    b_beta = tl.load(p_beta, boundary_check=(0,))
    tl.store(o + bos + i_t * BT + tl.arange(0, BT), b_g * b_beta)


@triton.jit
def k_split(g, o, T, H: tl.constexpr, BT: tl.constexpr, G_T_CONTIG: tl.constexpr):
    i_t, i_h = tl.program_id(0), tl.program_id(1)
    if G_T_CONTIG:  # the fix applied: its other arm the fallback for `H == 1`
        base, strides = g + i_h * T, (1,)
    else:
        base, strides = g + i_h, (H,)
    p_g = tl.make_block_ptr(base, (T,), strides, (i_t * BT,), (BT,), (0,))
    tl.store(o + i_t * BT + tl.arange(0, BT), tl.load(p_g, boundary_check=(0,)))
"""


def _check(code: str) -> None:
    source, _ = snippet_source(code)
    assert found_rows(source, select=["ASC011"]) == expected_rows(source, "ASC011")


def test_an_offset_the_time_loop_advances_by_the_head_count_strides_the_load() -> None:
    _check(OFFSETS)


def test_an_offset_stepped_by_one_or_unread_is_no_stride_along_t() -> None:
    source, _ = snippet_source(NOT_STRIDED)
    assert found_rows(source, select=["ASC011"]) == set()


def test_a_block_pointers_strides_bound_to_a_name_are_its_strides() -> None:
    _check(NAMED_STRIDES)
