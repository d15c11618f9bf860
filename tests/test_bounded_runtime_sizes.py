"""ASC013 reads a launch's block sized by a runtime size (`triton.next_power_of_2(n)`, no `min`)
at the largest value a test bounding the size where the launch runs leaves it (FlagGems'
`_ascend/ops/topk.py`: `if n <= 32768:` around the launch, 388 KiB of UB at 32768 by the
compiler): the configuration a `min(32768, ...)` cap makes. A test that does not hold at the
launch (another arm, after it, in a loop before it, of another name, of a name rebound since)
caps nothing, and a bound the kernel fits under stays silent. A `min(...)` capping the size is
read at such a test's bound when it is tighter than the cap (fla's `l2norm_fwd_kernel` under `if
D <= 512:`: 768 KiB at BT=128 by the compiler). Each snippet marks the lines that
must be reported with `# flagged`; every other launch must stay silent."""

from __future__ import annotations

import textwrap

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

HEADER = """
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < N, other=-1e30).to(tl.float32)
    cf = cols.to(tl.float32)
    i = tl.argmax(x, axis=0)
    x = tl.where(cf == i.to(tl.float32), -1e30, x)
    tl.store(y_ptr + cols, x, mask=cols < N)
"""

# a launch under `test`, the block the power of two at or above `n`
UNDER = """
def launch(x, y, m):
    n = x.shape[-1]
    if {test}:
        k[(40,)](x, y, n, triton.next_power_of_2(n)){mark}
"""

CASES = {
    "at_most_the_bound": UNDER.format(test="n <= 32768", mark="  # flagged"),
    "below_the_bound": UNDER.format(test="n < 32768", mark="  # flagged"),
    "bound_first": UNDER.format(test="32768 >= n", mark="  # flagged"),
    "one_part_of_an_and": UNDER.format(test="n > 0 and n <= 32768", mark="  # flagged"),
    "bound_the_plan_fits": UNDER.format(test="n <= 4096", mark=""),
    "bound_of_another_name": UNDER.format(test="m <= 32768", mark=""),
    "floor_only": UNDER.format(test="n >= 32768", mark=""),
    "asserted": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 32768
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "raised_over_it": """
def launch(x, y):
    n = x.shape[-1]
    if n > 32768:
        raise ValueError("too long")
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "returned_over_it": """
def launch(x, y):
    n = x.shape[-1]
    if n > 32768:
        return
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "through_a_name_bound_to_the_block": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        BLOCK = triton.next_power_of_2(n)
        k[(40,)](x, y, n, BLOCK=BLOCK)  # flagged
""",
    "in_the_callers_test": """
def _launch(x, y, n):
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged

def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        _launch(x, y, n)
""",
    "in_the_other_arm": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        pass
    else:
        k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "in_an_elif_past_it": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        return
    elif n > 0:
        k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "after_the_launch": """
def launch(x, y):
    n = x.shape[-1]
    k[(40,)](x, y, n, triton.next_power_of_2(n))
    assert n <= 32768
""",
    "in_a_loop_before_the_launch": """
def launch(x, y):
    n = x.shape[-1]
    for _ in range(3):
        if n > 32768:
            raise ValueError("too long")
        n = n * 2
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "rebound_past_the_test": """
def launch(x, y):
    n = x.shape[-1]
    if n > 32768:
        raise ValueError("too long")
    n = n * x.shape[0]
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    # the size passed bare is read at the bound as its power of two is (`_HostNames.tested_bound`)
    "passed_bare": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        k[(40,)](x, y, n, n)  # flagged
""",
    "passed_bare_through_a_name": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 32768
    BLOCK = n
    k[(40,)](x, y, n, BLOCK=BLOCK)  # flagged
""",
    "passed_bare_by_a_caller_testing_it": """
def _launch(x, y, n):
    k[(40,)](x, y, n, BLOCK=n)  # flagged

def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        _launch(x, y, n)
""",
    "passed_bare_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 4096:
        k[(40,)](x, y, n, n)
""",
    # a block `tl.arange` spans is a power of two: 8192 at most under 12500, 128 KiB here
    "passed_bare_at_a_bound_no_power_of_two": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 12500:
        k[(40,)](x, y, n, n)
""",
    "passed_bare_at_a_bound_over_its_power_of_two": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 20000:
        k[(40,)](x, y, n, n)  # flagged
""",
    "passed_bare_untested": """
def launch(x, y):
    n = x.shape[-1]
    k[(40,)](x, y, n, n)
""",
    # a `min` under a test tighter than its cap is read at the test's bound, 32768, not its cap
    "min_under_a_tighter_test": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        k[(40,)](x, y, n, BLOCK=min(triton.next_power_of_2(n), 65536))  # flagged
""",
    "min_made_before_a_tighter_test": """
def launch(x, y):
    n = x.shape[-1]
    BLOCK = min(65536, triton.next_power_of_2(n))
    if n <= 32768:
        k[(40,)](x, y, n, BLOCK=BLOCK)  # flagged
""",
    "min_under_a_test_the_plan_fits": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 4096:
        k[(40,)](x, y, n, BLOCK=min(triton.next_power_of_2(n), 65536))
""",
    "min_of_a_size_merely_made_with_the_tested_one": """
def launch(x, y):
    n = x.shape[-1]
    rows = x.numel() // n
    if n <= 32768:
        k[(40,)](x, y, n, BLOCK=min(triton.next_power_of_2(rows), 65536))
""",
    # nor is a bare size read at a name bound to a `min` a test orders it under (vLLM-Ascend's
    # `l2norm_fwd_persistent_kernel`: `if D > BD: raise`, `N=D`)
    "passed_bare_under_a_capped_name": """
def launch(x, y):
    n = x.shape[-1]
    BD = min(32768, triton.next_power_of_2(n))
    if n > BD:
        raise ValueError("too long")
    k[(40,)](x, y, n, n)
""",
    # a rebinding made of the tested size carries its bound: 1024 * 64 (`HostIndex.bound_since`)
    "scaled_past_the_test": """
def launch(x, y):
    n = x.shape[-1]
    if n > 1024:
        raise ValueError("too long")
    n = n * 64
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    # 16383, whose power of two is 16384: 256 KiB
    "lessened_past_the_test": """
def launch(x, y):
    n = x.shape[-1]
    if n > 16384:
        raise ValueError("too long")
    n = n - 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "shifted_past_the_test": """
def launch(x, y):
    n = x.shape[-1]
    if n > 1024:
        raise ValueError("too long")
    n = n << 4
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "lessened_past_the_test_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    if n > 8193:
        raise ValueError("too long")
    n = n - 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "scaled_past_the_test_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    if n > 1024:
        raise ValueError("too long")
    n = n * 2
    BLOCK = triton.next_power_of_2(n)
    k[(40,)](x, y, n, BLOCK=BLOCK)
""",
    # an update in place is the rebinding it spells (`n += 1` is `n = n + 1`): 16385, 32768
    "raised_in_place_past_the_test": """
def launch(x, y):
    n = x.shape[-1]
    if n > 16384:
        raise ValueError("too long")
    n += 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "scaled_in_place_past_the_test": """
def launch(x, y):
    n = x.shape[-1]
    if n > 16384:
        raise ValueError("too long")
    n *= 2
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "shifted_in_place_past_the_test": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 1024
    n <<= 4
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "scaled_in_place_by_a_size": """
def launch(x, y):
    n = x.shape[-1]
    if n > 1024:
        raise ValueError("too long")
    n *= x.shape[0]
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    # 8192 at most, not the 8193 tested: 128 KiB
    "lessened_in_place_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    if n > 8193:
        raise ValueError("too long")
    n -= 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "halved_in_place_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    if n > 16384:
        raise ValueError("too long")
    n //= 2
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    # what only shrinks it keeps the bound, whatever it takes away (none when `pad` is 0), and
    # what grows it after grows from that bound: 8193 here
    "lessened_by_a_size_then_raised": """
def launch(x, y, pad):
    n = x.shape[-1]
    assert n <= 8192
    n -= pad
    n += 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "lessened_by_a_size_then_scaled": """
def launch(x, y, pad):
    n = x.shape[-1]
    assert n <= 8192
    n -= pad
    n *= 4
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "divided_by_a_size_then_shifted": """
def launch(x, y, d):
    n = x.shape[-1]
    assert n <= 8192
    n //= d
    n <<= 2
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "shifted_by_a_size_then_raised": """
def launch(x, y, s):
    n = x.shape[-1]
    assert n <= 8192
    n >>= s
    n += 8192
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "raised_then_lessened_then_doubled": """
def launch(x, y, pad):
    n = x.shape[-1]
    assert n <= 8192
    n += 1
    n -= pad
    n *= 2
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    # at most 63 whatever the test leaves `n`, 64512 scaled
    "remainder_then_scaled": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 1048576
    n %= 64
    n *= 1024
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "remainder_then_scaled_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 1048576
    n %= 64
    n *= 64
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "remainder_by_a_size_then_raised": """
def launch(x, y, m):
    n = x.shape[-1]
    assert n <= 8192
    n %= m
    n += 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    # 4097 at most, not 8193: a shift or halving is read exactly
    "shifted_then_raised_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 8192
    n >>= 1
    n += 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "shifted_then_doubled_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 8192
    n = n >> 1
    n = n * 2
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "halved_then_raised_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 8193
    n //= 2
    n += 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    "shifted_then_scaled_past_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 8192
    n >>= 1
    n *= 4
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "lessened_in_place_by_a_size": """
def launch(x, y, pad):
    n = x.shape[-1]
    if n > 32768:
        raise ValueError("too long")
    n -= pad
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "lessened_by_a_size": """
def launch(x, y, pad):
    n = x.shape[-1]
    if n > 32768:
        raise ValueError("too long")
    n = n - pad
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    # a line of rebindings, each made of the one before: 8192 rounded up, then doubled
    "rounded_then_doubled": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 8192
    n = triton.next_power_of_2(n)
    n <<= 1
    k[(40,)](x, y, n, n)  # flagged
""",
    "raised_then_rounded": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 16384
    n = n + 1
    n = triton.next_power_of_2(n)
    k[(40,)](x, y, n, n)  # flagged
""",
    "rounded_then_doubled_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 2048
    n = triton.next_power_of_2(n)
    n <<= 1
    k[(40,)](x, y, n, n)
""",
    "lessened_after_a_product_by_a_size": """
def launch(x, y):
    n = x.shape[-1]
    assert n <= 1024
    n = n * x.shape[0]
    n -= 1
    k[(40,)](x, y, n, triton.next_power_of_2(n))
""",
    # a test of the size scaled, shifted or offset by a known int bounds the size: 32768, 16384
    "min_under_a_test_of_twice_the_size": """
def launch(x, y):
    n = x.shape[-1]
    assert 2 * n <= 65536
    k[(40,)](x, y, n, BLOCK=min(triton.next_power_of_2(n), 65536))  # flagged
""",
    "min_under_a_test_of_twice_the_extent": """
def launch(x, y):
    n = x.shape[-1]
    if x.shape[-1] * 2 > 65536:
        raise ValueError("too long")
    k[(40,)](x, y, n, BLOCK=min(triton.next_power_of_2(n), 65536))  # flagged
""",
    "under_a_test_of_the_size_plus_one": """
def launch(x, y):
    n = x.shape[-1]
    if n + 1 > 32769:
        raise ValueError("too long")
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "under_a_test_of_the_size_shifted": """
def launch(x, y):
    n = x.shape[-1]
    assert n << 2 <= 65536
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "under_a_test_of_half_the_size": """
def launch(x, y):
    n = x.shape[-1]
    assert n // 2 <= 8191
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "passed_bare_under_a_test_of_four_times_the_size": """
def launch(x, y):
    n = x.shape[-1]
    if n * 4 <= 65536:
        k[(40,)](x, y, n, n)  # flagged
""",
    "min_under_a_test_of_twice_the_size_within_the_plan": """
def launch(x, y):
    n = x.shape[-1]
    assert 2 * n <= 16384
    k[(40,)](x, y, n, BLOCK=min(triton.next_power_of_2(n), 65536))
""",
    # a `min` passed for a block `tl.arange` spans compiles only at a power of two: read at the
    # largest up to its cap or bound (12500: 8192, 128 KiB; 20000: 16384, 256 KiB)
    "min_of_the_size_under_a_bound_no_power_of_two": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 12500:
        k[(40,)](x, y, n, BLOCK=min(n, 65536))
""",
    "min_of_the_size_under_a_bound_over_its_power_of_two": """
def launch(x, y):
    n = x.shape[-1]
    if n <= 20000:
        k[(40,)](x, y, n, BLOCK=min(n, 65536))  # flagged
""",
    "min_named_before_a_bound_no_power_of_two": """
def launch(x, y):
    n = x.shape[-1]
    BLOCK = min(n, 65536)
    if n <= 12500:
        k[(40,)](x, y, n, BLOCK=BLOCK)
""",
    "min_capped_at_no_power_of_two": """
def launch(x, y):
    n = x.shape[-1]
    k[(40,)](x, y, n, BLOCK=min(n, 12500))
""",
    "min_capped_over_a_power_of_two": """
def launch(x, y):
    n = x.shape[-1]
    k[(40,)](x, y, n, BLOCK=min(n, 20000))  # flagged
""",
    # a power of two written in the launch reads as through a name bound to it: 1 << 14
    "shifted_in_the_launch": """
def launch(x, y, n):
    assert n <= 14
    k[(40,)](x, y, 1 << n, BLOCK=1 << n)  # flagged
""",
    "raised_to_a_power_in_the_launch": """
def launch(x, y, n):
    if n > 14:
        raise ValueError("too wide")
    k[(40,)](x, y, 2 ** n, BLOCK=2 ** n)  # flagged
""",
    "raised_to_a_power_through_a_name": """
def launch(x, y, n):
    assert n <= 14
    b = 2 ** n
    k[(40,)](x, y, b, BLOCK=b)  # flagged
""",
    "shifted_in_the_launch_within_the_plan": """
def launch(x, y, n):
    assert n <= 12
    k[(40,)](x, y, 1 << n, BLOCK=1 << n)
""",
    "shifted_in_the_launch_after_the_test": """
def launch(x, y, n):
    if n <= 14:
        k[(40,)](x, y, 1 << n, BLOCK=1 << n)  # flagged
    k[(40,)](x, y, 1 << n, BLOCK=1 << n)
""",
    # a membership test bounds each item of a shape at the largest allowed at its place
    "shape_copy_outside_the_allowed_shapes_raises": """
def launch(x, y):
    shape = tuple(x.shape)
    if shape not in {(1024, 128), (32768, 64)}:
        raise ValueError("unsupported")
    k[(40,)](x, y, x.shape[0], triton.next_power_of_2(x.shape[0]))  # flagged
""",
    "shape_copy_unpacked_after_its_membership_test": """
def launch(x, y):
    shape = tuple(x.shape)
    if shape not in {(1024, 128), (32768, 64)}:
        raise ValueError("unsupported")
    M, N = shape
    k[(40,)](x, y, M, triton.next_power_of_2(M))  # flagged
""",
    "shape_in_allowed_shapes_within_the_plan": """
def launch(x, y):
    shape = tuple(x.shape)
    if shape not in {(1024, 128), (2048, 64)}:
        raise ValueError("unsupported")
    k[(40,)](x, y, x.shape[0], triton.next_power_of_2(x.shape[0]))
""",
    "shape_item_at_the_other_place_within_the_plan": """
def launch(x, y):
    shape = x.shape
    assert shape in [(1024, 32768), (2048, 64)]
    k[(40,)](x, y, x.shape[0], triton.next_power_of_2(x.shape[0]))
""",
    "unpacked_sizes_in_allowed_pairs": """
def launch(x, y):
    M, N = x.shape
    if (M, N) not in ((1024, 128), (32768, 64)):
        raise ValueError("unsupported")
    k[(40,)](x, y, M, triton.next_power_of_2(M))  # flagged
""",
    "size_in_allowed_sizes": """
def launch(x, y):
    n = x.shape[0]
    if n not in (1024, 32768):
        raise ValueError("unsupported")
    k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "shape_in_a_module_set_of_shapes": """
SUPPORTED = {(1024, 128), (32768, 64)}

def launch(x, y):
    shape = tuple(x.shape)
    if shape in SUPPORTED:
        k[(40,)](x, y, shape[0], triton.next_power_of_2(shape[0]))  # flagged
    k[(40,)](x, y, shape[0], triton.next_power_of_2(shape[0]))
""",
    # a set the code may add to bounds nothing: the `min` is read at its cap
    "shape_in_a_module_set_changed_elsewhere": """
SUPPORTED = {(1024, 128), (2048, 64)}

def grow():
    SUPPORTED.add((65536, 1))

def launch(x, y):
    shape = tuple(x.shape)
    if shape in SUPPORTED:
        k[(40,)](x, y, shape[0], min(triton.next_power_of_2(shape[0]), 65536))  # flagged
""",
    "shape_in_a_module_set_under_the_cap": """
SUPPORTED = {(1024, 128), (2048, 64)}

def launch(x, y):
    shape = tuple(x.shape)
    if shape in SUPPORTED:
        k[(40,)](x, y, shape[0], min(triton.next_power_of_2(shape[0]), 65536))
""",
    "shapes_of_several_lengths_bound_nothing": """
def launch(x, y):
    shape = tuple(x.shape)
    if shape in {(1024,), (2048, 64)}:
        k[(40,)](x, y, shape[0], min(triton.next_power_of_2(shape[0]), 65536))  # flagged
""",
    "membership_of_a_dict_bounds_nothing": """
KERNELS = {1024: "small", 2048: "large"}

def launch(x, y):
    n = x.shape[0]
    if n not in KERNELS:
        raise ValueError(n)
    k[(40,)](x, y, n, min(triton.next_power_of_2(n), 65536))  # flagged
""",
    # a name a test binds by `:=` is tested as `n = x.shape[0]` before the test would be
    "bound_by_the_membership_test": """
def launch(x, y):
    if (n := x.shape[0]) in (1024, 32768):
        k[(40,)](x, y, n, triton.next_power_of_2(n))  # flagged
""",
    "bound_by_the_test_under_the_plan": """
def launch(x, y):
    if (n := x.shape[0]) <= 2048:
        k[(40,)](x, y, n, min(triton.next_power_of_2(n), 65536))
""",
    "bound_by_a_leaving_membership_test": """
def launch(x, y):
    if (n := x.shape[0]) not in (64, 128):
        raise ValueError(n)
    k[(40,)](x, y, n, min(triton.next_power_of_2(n), 65536))
""",
    "values_bound_by_the_membership_test": """
def pick(wide):
    return 65536 if wide else 64

def launch(x, y, wide):
    if (n := pick(wide)) in (64, 128):
        k[(40,)](x, y, 16, n)
    if (m := pick(wide)) not in (64, 128):
        return
    k[(40,)](x, y, 16, m)
    if (b := pick(wide)) in (64, 65536):
        k[(40,)](x, y, 16, b)  # flagged
""",
    "of_a_size_merely_made_with_it": """
def launch(x, y):
    n = x.shape[-1]
    rows = x.numel() // n
    if n <= 32768:
        k[(40,)](x, y, n, triton.next_power_of_2(rows))
""",
}


def flagged_lines(source: str) -> list[int]:
    return [number for number, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("# flagged")]


@pytest.mark.parametrize("case", sorted(CASES))
def test_asc013_reads_a_runtime_block_at_the_bound_tested_where_it_launches(case: str) -> None:
    source = textwrap.dedent(HEADER) + CASES[case]
    result = lint_source(source, "ascend/bounded.py", settings(select=["ASC013"]))
    assert [finding.location.row for finding in result.findings] == flagged_lines(source)


def test_asc013_reads_a_rebound_size_at_its_scaled_bound() -> None:
    """Not at the bound tested before the rebinding: 16384 doubled is 32768."""
    source = (
        textwrap.dedent(HEADER)
        + """
def launch(x, y):
    n = x.shape[-1]
    if n > 16384:
        raise ValueError("too long")
    n = n * 2
    k[(40,)](x, y, n, BLOCK=triton.next_power_of_2(n))
"""
    )
    [finding] = lint_source(source, "ascend/bounded.py", settings(select=["ASC013"])).findings
    assert "BLOCK=32768}" in finding.message


def test_asc013_reads_a_min_at_a_tighter_test_bound() -> None:
    """Not at the cap, 65536: the test keeps the size at most 32768."""
    source = textwrap.dedent(HEADER) + CASES["min_under_a_tighter_test"]
    [finding] = lint_source(source, "ascend/bounded.py", settings(select=["ASC013"])).findings
    assert "BLOCK=32768}" in finding.message


@pytest.mark.parametrize(
    ("case", "read"),
    [
        ("raised_in_place_past_the_test", "{N=16385, BLOCK=32768}"),
        ("scaled_in_place_past_the_test", "{N=32768, BLOCK=32768}"),
        ("shifted_in_place_past_the_test", "{N=16384, BLOCK=16384}"),
        ("rounded_then_doubled", "{N=16384, BLOCK=16384}"),
        ("raised_then_rounded", "{N=32768, BLOCK=32768}"),
        ("shifted_then_scaled_past_the_plan", "{N=16384, BLOCK=16384}"),
        ("lessened_by_a_size_then_raised", "{N=8193, BLOCK=16384}"),
        ("lessened_by_a_size_then_scaled", "{N=32768, BLOCK=32768}"),
        ("divided_by_a_size_then_shifted", "{N=32768, BLOCK=32768}"),
        ("shifted_by_a_size_then_raised", "{N=16384, BLOCK=16384}"),
        ("raised_then_lessened_then_doubled", "{N=16386, BLOCK=32768}"),
        ("remainder_then_scaled", "{N=64512, BLOCK=65536}"),
        ("remainder_by_a_size_then_raised", "{N=8193, BLOCK=16384}"),
    ],
)
def test_asc013_reads_a_size_rebound_in_place_or_in_a_line_at_its_carried_bound(case: str, read: str) -> None:
    """`n += 1` carries the test's bound as `n = n + 1` does, and a line of rebindings carries it
    through each in turn, whatever the order of what shrinks and grows it (`n -= pad; n += 1`)."""
    source = textwrap.dedent(HEADER) + CASES[case]
    [finding] = lint_source(source, "ascend/bounded.py", settings(select=["ASC013"])).findings
    assert read in finding.message


@pytest.mark.parametrize(
    ("case", "read"),
    [
        ("min_under_a_test_of_twice_the_size", "{N=32768, BLOCK=32768}"),
        ("min_under_a_test_of_twice_the_extent", "{N=32768, BLOCK=32768}"),
        ("under_a_test_of_the_size_plus_one", "{N=32768, BLOCK=32768}"),
        ("under_a_test_of_the_size_shifted", "{N=16384, BLOCK=16384}"),
        ("under_a_test_of_half_the_size", "{N=16383, BLOCK=16384}"),
    ],
)
def test_asc013_reads_a_size_at_the_bound_a_test_of_it_scaled_gives(case: str, read: str) -> None:
    """`2 * n <= 65536` bounds `n` at 32768, not the `min`'s cap, 65536 (`HostIndex.tested_part`)."""
    source = textwrap.dedent(HEADER) + CASES[case]
    [finding] = lint_source(source, "ascend/bounded.py", settings(select=["ASC013"])).findings
    assert read in finding.message


@pytest.mark.parametrize(
    ("case", "read"),
    [
        ("min_of_the_size_under_a_bound_over_its_power_of_two", "BLOCK=16384}"),
        ("min_capped_over_a_power_of_two", "{BLOCK=16384}"),
    ],
)
def test_asc013_reads_a_min_spanned_by_an_arange_at_a_power_of_two(case: str, read: str) -> None:
    """Not at 20000: no launch passing it for `tl.arange(0, BLOCK)` compiles."""
    source = textwrap.dedent(HEADER) + CASES[case]
    [finding] = lint_source(source, "ascend/bounded.py", settings(select=["ASC013"])).findings
    assert read in finding.message
