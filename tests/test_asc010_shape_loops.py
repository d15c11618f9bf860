"""ASC010 on a product of a tensor's extents built by a loop (`for d in shape: n *= d`) over a
name bound to the shape first (or to shapes broadcast: `torch.broadcast_shapes`, each item of
which is no one tensor's extent: a test on the first shape's bounds none), as FlagGems' Ascend
`cholesky_solve` does, also a name bound to shapes on several paths (the arms of an `if`, a
`try` and its `except`: any of them): each snippet marks
the launches that must be reported with `# expect`; every other launch must stay silent."""

from __future__ import annotations

from conftest import expected_rows, found_rows, snippet_source

SNIPPET = """
import math
import torch
import triton
import triton.language as tl


@triton.jit
def k(x, N: tl.constexpr):
    pass


def written_inline(B):
    batch_size = 1
    for d in B.shape[:-2]:
        batch_size *= d
    k[(batch_size, triton.cdiv(B.shape[-1], 16))](B, N=4)  # expect

def named_slice(B):
    batch_shape = B.shape[:-2]
    batch_size = 1
    for d in batch_shape:
        batch_size *= d
    nrhs = B.shape[-1]
    k[(batch_size, triton.cdiv(nrhs, 16))](B, N=4)  # expect

def named_shape_sliced(B):
    B_shape = B.shape
    batch_size = 1
    for d in B_shape[:-2]:
        batch_size *= d
    k[(batch_size, triton.cdiv(B.shape[-1], 16))](B, N=4)  # expect

def named_copy(x):
    dims = list(x.size()[:-1])
    rows = 1
    for d in dims:
        rows = rows * d
    k[(rows, x.shape[-1])](x, N=4)  # expect

def one_extent_an_axis(x):
    lead = x.shape[:-1]
    for d in lead:
        k[(d, triton.cdiv(x.shape[-1], 16))](x, N=4)  # expect

def broadcast_batch(B, L):
    batch_shape = torch.broadcast_shapes(B.shape[:-2], L.shape[:-2])
    batch_size = 1
    for d in batch_shape:
        batch_size *= d
    k[(batch_size, triton.cdiv(B.shape[-1], 16))](B, N=4)  # expect

def broadcast_whole(a, b):
    rows = 1
    for d in torch.broadcast_shapes(a.shape, b.shape):
        rows *= d
    k[(rows, a.shape[-1])](a, N=4)  # expect

def broadcast_named_whole(a, b):
    shape = torch.broadcast_shapes(a.shape, b.shape)
    rows = 1
    for d in shape[:-1]:
        rows *= d
    k[(rows, shape[-1])](a, N=4)  # expect

def broadcast_item_first_bounded(a, b):
    assert a.shape[0] <= 64 and a.shape[1] <= 64
    shape = torch.broadcast_shapes(a.shape, b.shape)
    k[(shape[0], shape[1])](a, N=4)  # expect

def broadcast_item_inline_first_bounded(a, b):
    assert a.shape[0] <= 64
    k[(torch.broadcast_shapes(a.shape, b.shape)[0], a.shape[1])](a, N=4)  # expect

def broadcast_unpacked_first_bounded(a, b):
    assert a.shape[0] <= 64
    B, T = torch.broadcast_shapes(a.shape, b.shape)
    k[(B, T)](a, N=4)  # expect

def broadcast_items_bounded(a, b):
    shape = torch.broadcast_shapes(a.shape, b.shape)
    assert shape[0] <= 64
    k[(shape[0], shape[1])](a, N=4)

def broadcast_items_bounded_on_both_shapes(a, b):
    assert a.shape[0] <= 64 and b.shape[0] <= 64
    shape = torch.broadcast_shapes(a.shape, b.shape)
    k[(shape[0], shape[1])](a, N=4)

def broadcast_unpacked_bounded_in_two_asserts(a, b):
    assert a.shape[0] <= 64
    assert b.shape[0] <= 64
    B, T = torch.broadcast_shapes(a.shape, b.shape)
    k[(B, T)](a, N=4)

def broadcast_last_items_bounded(a, b):
    if a.shape[-1] > 64 or b.shape[-1] > 64:
        raise ValueError
    shape = torch.broadcast_shapes(a.shape, b.shape)
    k[(shape[-1], shape[-2])](a, N=4)

def broadcast_second_items_bounded(a, b):
    assert a.shape[1] <= 64 and b.shape[1] <= 64
    shape = torch.broadcast_shapes(a.shape, b.shape)
    k[(shape[1], shape[2])](a, N=4)  # expect

def broadcast_leading_items_bounded(a, b):
    assert a.shape[0] <= 64 and b.shape[0] <= 64 and a.shape[1] <= 64 and b.shape[1] <= 64
    shape = torch.broadcast_shapes(a.shape, b.shape)
    k[(shape[1], shape[2])](a, N=4)

def broadcast_slices_bounded(B, L):
    assert B.shape[0] <= 8 and L.shape[0] <= 8
    batch = torch.broadcast_shapes(B.shape[:-2], L.shape[:-2])
    k[(batch[0], B.shape[-1])](B, N=4)

def broadcast_one_shape_bounded(a, b):
    assert a.shape[-1] <= 64
    shape = torch.broadcast_shapes(a.shape, b.shape)
    k[(shape[-1], shape[-2])](a, N=4)  # expect

def broadcast_or_first_in_try(B, L):
    try:
        batch_shape = torch.broadcast_shapes(B.shape[:-2], L.shape[:-2])
    except RuntimeError:
        batch_shape = B.shape[:-2]
    batch_size = 1
    for d in batch_shape:
        batch_size *= d
    k[(batch_size, triton.cdiv(B.shape[-1], 16))](B, N=4)  # expect

def shape_of_either_arm(x, y, flag):
    if flag:
        lead = x.shape[:-1]
    else:
        lead = y.shape[:-1]
    rows = 1
    for d in lead:
        rows *= d
    k[(rows, x.shape[-1])](x, N=4)  # expect

def product_of_either_arm(x, y, flag):
    if flag:
        lead = x.shape[:-1]
    else:
        lead = y.shape[:-1]
    k[(math.prod(lead), x.shape[-1])](x, N=4)  # expect

def extents_of_either_arm(x, y, flag):
    if flag:
        shape = x.shape
    else:
        shape = y.shape
    k[(*shape[:-1], x.shape[-1])](x, N=4)  # expect

def item_of_either_arm_one_bounded(x, y, flag):
    assert x.shape[0] <= 64
    if flag:
        shape = x.shape
    else:
        shape = y.shape
    k[(shape[0], shape[1])](x, N=4)  # expect

def shape_or_sizes_unpacked(x, flag):
    if flag:
        shape = x.shape
    else:
        shape = (2, 4)
    B, T = shape
    k[(B, T)](x, N=4)  # expect

def item_of_shape_or_sizes(x, flag):
    if flag:
        shape = x.shape
    else:
        shape = (2, 4)
    k[(shape[0], shape[1])](x, N=4)  # expect

def item_of_sizes_rebound_after_the_arms(x, flag):
    if flag:
        shape = x.shape
    else:
        shape = (2, 4)
    shape = (1, 1)
    k[(shape[0], shape[1])](x, N=4)

def item_of_sizes_bound_to_a_shape_after_the_launch(x):
    shape = (2, 4)
    k[(shape[0], shape[1])](x, N=4)
    shape = x.shape
    return shape

def sizes_of_either_arm(x, flag):
    if flag:
        shape = (2, 4)
    else:
        shape = (8, 16)
    B, T = shape
    k[(B, T)](x, N=4)

def either_arm_then_rebound(x, y, flag):
    if flag:
        lead = x.shape[:-1]
    else:
        lead = y.shape[:-1]
    lead = [2, 4]
    rows = 1
    for d in lead:
        rows *= d
    k[(rows, x.shape[-1])](x, N=4)

def either_arm_then_changed(x, y, flag):
    if flag:
        lead = list(x.shape[:-1])
    else:
        lead = list(y.shape[:-1])
    lead[0] = 1
    k[(math.prod(lead[:1]), 8)](x, N=4)

def broadcast_with_ints(B):
    batch_shape = torch.broadcast_shapes(B.shape[:-2], (2, 4))
    batch_size = 1
    for d in batch_shape:
        batch_size *= d
    k[(batch_size, 8)](B, N=4)

def small_ints(B):
    dims = [2, 4]
    batch_size = 1
    for d in dims:
        batch_size *= d
    k[(batch_size, triton.cdiv(B.shape[-1], 16))](B, N=4)

def passed_in(B, dims):
    batch_size = 1
    for d in dims:
        batch_size *= d
    k[(batch_size, triton.cdiv(B.shape[-1], 16))](B, N=4)

def rebound(B):
    dims = B.shape[:-2]
    dims = [2, 4]
    batch_size = 1
    for d in dims:
        batch_size *= d
    k[(batch_size, triton.cdiv(B.shape[-1], 16))](B, N=4)

def named_rebound_after(B):
    shape = B.shape[:-2]
    n = 1
    for d in shape:
        n *= d
    n = 4
    k[(n, triton.cdiv(B.shape[-1], 16))](B, N=4)

def named_capped_in_the_loop(B):
    shape = B.shape[:-2]
    n = 1
    for d in shape:
        n *= d
        n = min(n, 100)
    k[(n, triton.cdiv(B.shape[-1], 16))](B, N=4)

def inline_rebound_after(B):
    n = 1
    for d in B.shape[:-2]:
        n *= d
    n = 4
    k[(n, triton.cdiv(B.shape[-1], 16))](B, N=4)

def inline_capped_in_the_loop(B):
    n = 1
    for d in B.shape[:-2]:
        n *= d
        n = min(n, 100)
    k[(n, triton.cdiv(B.shape[-1], 16))](B, N=4)

def capped_then_grown(B):
    n = 1
    for d in B.shape[:-2]:
        n = min(n, 100)
        n *= d
    k[(n, triton.cdiv(B.shape[-1], 16))](B, N=4)  # expect

def cap_skipped(B, flag):
    n = 1
    for d in B.shape[:-2]:
        n *= d
        if flag:
            continue
        n = min(n, 100)
    k[(n, triton.cdiv(B.shape[-1], 16))](B, N=4)  # expect

def rebound_to_an_extent(B):
    n = 1
    for d in B.shape[:-2]:
        n *= d
    n = B.shape[0]
    k[(n, triton.cdiv(B.shape[-1], 16))](B, N=4)  # expect
"""


def test_loop_products_over_named_shapes_are_reported_where_marked() -> None:
    source, _ = snippet_source(SNIPPET)
    assert found_rows(source, select=["ASC010"]) == expected_rows(source, "ASC010")
