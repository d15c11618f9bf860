"""ASC010 on how a grid is written and what its sizes are read from: each snippet marks the
launches that must be reported with `# expect`; every other launch must stay silent."""

from __future__ import annotations

import pytest
from conftest import expected_rows, found_rows, snippet_source

KERNEL = """
import torch
import triton
import triton.language as tl


@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)
"""

# `.item()` of a cumulative count's last value: the tokens of a varlen batch, as large as the data
TOTALS = """
def tokens(x, cu_seqlens, BT=64):
    H = x.shape[2]
    total = cu_seqlens[-1].item()
    grid = (triton.cdiv(total, BT), H)
    k[grid](x, total, BT=BT)  # expect

def tokens_as_int(x, cu_seqlens, BT=64):
    H = x.shape[2]
    total = int(cu_seqlens[-1].item())
    k[(triton.cdiv(total, BT), H)](x, total, BT=BT)  # expect

def splits(x, split_offsets, BT=64):
    NS = split_offsets[-1].item()
    k[(NS, x.shape[0])](x, NS, BT=BT)  # expect

def capped(x, cu_seqlens, BT=64):
    total = min(cu_seqlens[-1].item(), 4096)
    k[(triton.cdiv(total, BT), x.shape[2])](x, total, BT=BT)

def first(x, cu_seqlens, BT=64):
    start = cu_seqlens[0].item()
    k[(start, x.shape[2])](x, start, BT=BT)

def alone(x, cu_seqlens, BT=64):
    total = cu_seqlens[-1].item()
    k[(triton.cdiv(total, BT), 4)](x, total, BT=BT)
"""

# a grid built from parts: tuples concatenated, a tuple unpacked into one, a comprehension over
# sequences the function writes; its axes are read as written in one tuple
BUILT = """
def concatenated(x, BT=64):
    B, T, H = x.shape
    grid = (B * T,) + (H,)
    k[grid](x, T, BT=BT)  # expect

def unpacked(x, BT=64):
    B, T, H = x.shape
    lead = (B, triton.cdiv(T, BT))
    k[(*lead, H)](x, T, BT=BT)  # expect

def generated(x, BT=64):
    B, T, H = x.shape
    grid = tuple(triton.cdiv(s, b) for s, b in zip((T, B * H), (BT, 1)))
    k[grid](x, T, BT=BT)  # expect

def listed(x, BT=64):
    B, T, H = x.shape
    k[[triton.cdiv(s, BT) for s in (T, B * H)]](x, T, BT=BT)  # expect

def concatenated_bounded(x, BT=64):
    B, T, H = x.shape
    k[(triton.cdiv(T, BT),) + (min(H, 16),)](x, T, BT=BT)

def unpacked_bounded(x, BT=64):
    B, T, H = x.shape
    lead = (4, 8)
    k[(*lead, triton.cdiv(T, BT))](x, T, BT=BT)

def generated_bounded(x, BT=64):
    B, T, H = x.shape
    k[tuple(min(s, 64) for s in (T, B * H))](x, T, BT=BT)

def generated_unknown(x, sizes, BT=64):
    k[tuple(triton.cdiv(s, BT) for s in sizes)](x, 1, BT=BT)

def filtered(x, BT=64):
    B, T, H = x.shape
    k[tuple(s for s in (T, B * H) if s > 1)](x, T, BT=BT)
"""

# a grid function with some of its parameters bound by `functools.partial`: the tuple it returns
# for them, its first parameter left for the launcher's `meta`
PARTIAL = """
import functools
from functools import partial
from functools import partial as bind


def _grid(meta, n, bh):
    return (triton.cdiv(n, meta["BT"]), bh)

def _rows(n, bh, meta):
    return (triton.cdiv(n, meta["BT"]), bh)

def inline(x, BT=64):
    B, T, H = x.shape
    k[functools.partial(_grid, n=T, bh=B * H)](x, T, BT=BT)  # expect

def named(x, BT=64):
    B, T, H = x.shape
    grid = partial(_grid, n=T, bh=B * H)
    k[grid](x, T, BT=BT)  # expect

def bounded(x, BT=64):
    B, T, H = x.shape
    k[partial(_grid, n=T, bh=min(B * H, 4))](x, T, BT=BT)

def positional(x, BT=64):
    k[partial(_rows, x.shape[1], x.shape[0])](x, x.shape[1], BT=BT)  # expect

def positional_bounded(x, BT=64):
    k[partial(_rows, x.shape[1], 8)](x, x.shape[1], BT=BT)

def renamed(x, BT=64):
    B, T, H = x.shape
    k[bind(_grid, n=T, bh=B * H)](x, T, BT=BT)  # expect

def unbound(x, BT=64):  # binds no function: no grid
    grid = functools.partial()
    k[grid](x, 1, BT=BT)
"""

# a grid an attribute of `self` holds, stored by a method of the class (read where it is
# stored), or a method of the class returning it (`meta` its parameter after `self`)
HELD = """
class Stored:
    def forward(self, x, BT=64):
        B, T, H = x.shape
        self.grid = lambda meta: (triton.cdiv(T, meta["BT"]), B * H)
        k[self.grid](x, T, BT=BT)  # expect

class Initialised:
    def __init__(self, x):
        B, T, H = x.shape
        self.grid = (triton.cdiv(T, 64), B * H)

    def forward(self, x):
        k[self.grid](x, x.shape[1], BT=64)  # expect

class Method:
    def _grid(self, meta):
        return (triton.cdiv(self.x.shape[1], meta["BT"]), self.x.shape[0] * self.x.shape[2])

    def forward(self, x, BT=64):
        self.x = x
        k[self._grid](x, x.shape[1], BT=BT)  # expect

class Bounded:
    def forward(self, x, BT=64):
        B, T, H = x.shape
        self.grid = lambda meta: (triton.cdiv(T, meta["BT"]), min(B * H, 4))
        k[self.grid](x, T, BT=BT)

class Other:
    def forward(self, x, BT=64):  # `self.grid` is stored by another class only
        k[self.grid](x, x.shape[1], BT=BT)

class Settings:
    def _grid(self, meta):  # attributes the module does not size
        return (triton.cdiv(self.T, meta["BT"]), self.BH)

    def forward(self, x, BT=64):
        B, T, H = x.shape
        self.T, self.BH = T, B * H
        k[self._grid](x, T, BT=BT)
"""

# a grid a method of the class makes: a property's value, a static or class method's return
# for the call's arguments, read where the call is
METHODS = """
import functools


class Property:
    def __init__(self, x):
        self.x = x

    @property
    def grid(self):
        return (self.x.shape[0], self.x.shape[1])

    def forward(self, BT=64):
        k[self.grid](self.x, 1, BT=BT)  # expect

class Cached:
    def __init__(self, x):
        self.x = x

    @functools.cached_property
    def grid(self):
        return (self.x.shape[0] * self.x.shape[1],)

    def forward(self, BT=64):
        k[self.grid](self.x, 1, BT=BT)  # expect

class BoundedProperty:
    def __init__(self, x):
        self.x = x

    @property
    def grid(self):
        return (self.x.shape[0], 8)

    def forward(self, BT=64):
        k[self.grid](self.x, 1, BT=BT)

class Static:
    @staticmethod
    def _grid(n, bh):
        return (triton.cdiv(n, 64), bh)

    def forward(self, x, BT=64):
        B, T, H = x.shape
        k[Static._grid(T, B * H)](x, T, BT=BT)  # expect

    def through_self(self, x, BT=64):
        B, T, H = x.shape
        k[self._grid(T, B * H)](x, T, BT=BT)  # expect

    def bounded(self, x, BT=64):
        B, T, H = x.shape
        k[Static._grid(T, 8)](x, T, BT=BT)

class Classed:
    @classmethod
    def _grid(cls, n, bh):
        return (triton.cdiv(n, 64), bh)

    def forward(self, x, BT=64):
        B, T, H = x.shape
        k[self._grid(T, B * H)](x, T, BT=BT)  # expect

    @classmethod
    def run(cls, x, BT=64):
        B, T, H = x.shape
        k[cls._grid(T, H)](x, T, BT=BT)  # expect

    def bounded(self, x, BT=64):
        B, T, H = x.shape
        k[Classed._grid(T, 4)](x, T, BT=BT)

class Elsewhere:
    def forward(self, x, BT=64):  # `_grid` of another class: not this one's
        B, T, H = x.shape
        k[self._grid(T, B * H)](x, T, BT=BT)

class Overridden:
    def _rows(self, n, bh):
        return (triton.cdiv(n, 64), bh)

    def forward(self, x, BT=64):  # a class deriving from it defines `_rows`: which one runs is unknown
        B, T, H = x.shape
        k[self._rows(T, B * H)](x, T, BT=BT)

class Narrower(Overridden):
    def _rows(self, n, bh):
        return (triton.cdiv(n, 64), 1)
"""

# a partial of a partial is one partial: the inner arguments, then the outer ones
PARTIALS = """
from functools import partial


def _grid(meta, n, bh):
    return (triton.cdiv(n, meta["BT"]), bh)

def nested(x, BT=64):
    B, T, H = x.shape
    k[partial(partial(_grid, n=T), bh=B * H)](x, T, BT=BT)  # expect

def named(x, BT=64):
    B, T, H = x.shape
    rows = partial(_grid, n=T)
    k[partial(rows, bh=B * H)](x, T, BT=BT)  # expect

def replaced(x, BT=64):  # the outer keyword replaces the inner one
    B, T, H = x.shape
    k[partial(partial(_grid, n=T, bh=B * H), bh=4)](x, T, BT=BT)

def bounded(x, BT=64):
    B, T, H = x.shape
    k[partial(partial(_grid, n=T), bh=min(H, 4))](x, T, BT=BT)
"""

# a tensor's extents unpacked into a grid launch their product, as `math.prod` of them does
STARRED = """
def leading(x, H=8):
    grid = (*x.shape[:-1], H)
    k[grid](x, 1, BT=64)  # expect

def first_two(x):
    k[(*x.shape[:2],)](x, 1, BT=64)  # expect

def of_a_name(x):
    shape = x.shape
    k[(*shape[:2], 4)](x, 1, BT=64)  # expect

def one_extent(x):
    k[(*x.shape[:1], 4)](x, 1, BT=64)

def last_extent(x):
    k[(*x.shape[-1:], 8)](x, 1, BT=64)

def unknown(x, dims):
    k[(*dims, 8)](x, 1, BT=64)
"""

# updates in place read one after another, however many
CHAINED = """
def four_updates(x):
    B, T, H, D = x.shape
    grid = ()
    grid += (1,)
    grid += (2,)
    grid += (B,)
    grid += (T,)
    k[grid](x, T, BT=64)  # expect

def five_concatenations(x):
    B, T, H, D = x.shape
    grid = (1,)
    grid = grid + (2,)
    grid = grid + (3,)
    grid = grid + (B,)
    grid = grid + (H,)
    grid = grid + (4,)
    k[grid](x, T, BT=64)  # expect

def bounded(x):
    B, T, H, D = x.shape
    grid = (1,)
    grid += (2,)
    grid += (3,)
    grid += (4,)
    grid += (T,)
    k[grid](x, T, BT=64)
"""

# a host loop over written items launches each item's grid
ITEMS = """
def counts(x):
    for n in (1, 100000):
        k[(n, 8)](x, n, BT=64)  # expect

def beside_a_size(x):
    B = x.shape[0]
    for n in [1, 40000]:
        grid = (n, B)
        k[grid](x, n, BT=64)  # expect

def two_loops(x):
    for n in (1, 300):
        for m in (2, 300):
            k[(n, m)](x, n, BT=64)  # expect

def small(x):
    for n in (1, 64):
        k[(n, 8)](x, n, BT=64)

def small_beside_a_size(x):
    B = x.shape[0]
    for n in (1, 64):
        k[(n, B)](x, n, BT=64)

def written_before(x):  # the grid reads the `n` bound before the loop
    n = 4
    grid = (n, 8)
    for n in (1, 100000):
        k[grid](x, n, BT=64)

def rebound(x):  # the body rebinds `n`: not one item per trip
    for n in (1, 100000):
        n = min(n, 64)
        k[(n, 8)](x, n, BT=64)
"""

# a grid function's `meta["BT"]` is what the launch passes for `BT`, by keyword or position, when
# no autotuner or heuristics may choose it: a block of the sizes over the core count bounds it
LAUNCH_VALUES = """
import math

def _cores():
    return triton.runtime.driver.active.utils.get_device_properties(0)["num_vectorcore"]

@triton.heuristics({"BT": lambda args: 64})
@triton.jit
def chosen(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def by_keyword(x):
    a, b = x.shape
    n = a * b
    blk = triton.cdiv(n, _cores())
    k[lambda meta: (triton.cdiv(n, meta["BT"]),)](x, n, BT=blk)

def by_position(x, layers):
    a, b = x.shape
    n = a * b
    BT = math.ceil(n / _cores())

    def grid(meta):
        return (triton.cdiv(n, meta["BT"]), layers)

    k[grid](x, n, BT)

def got(x, layers):
    a, b = x.shape
    n = a * b
    k[lambda meta: (triton.cdiv(n, meta.get("BT", 1)), layers)](x, n, BT=triton.cdiv(n, _cores()))

def got_fixed_block(x):
    B, T, H = x.shape
    k[lambda meta: (triton.cdiv(T, meta.get("BT", 1)), H)](x, T, BT=64)  # expect

def fixed_block(x):
    a, b = x.shape
    n = a * b
    k[lambda meta: (triton.cdiv(n, meta["BT"]),)](x, n, BT=1024)  # expect

def sizes_read_back(x):
    B, T, H = x.shape
    k[lambda meta: (triton.cdiv(meta["T"], meta["BT"]), H)](x, T, BT=64)  # expect

def chosen_by_heuristics(x):
    a, b = x.shape
    n = a * b
    chosen[lambda meta: (triton.cdiv(n, meta["BT"]),)](x, n, BT=triton.cdiv(n, _cores()))  # expect
"""

# a trip whose item the tests at the launch exclude does not launch
ITEMS_EXCLUDED = """
def guarded(x):
    for n in (1, 100000):
        if n <= 65535:
            k[(n, 8)](x, n, BT=64)

def broken(x):
    for n in (1, 100000):
        if n > 65535:
            break
        k[(n, 8)](x, n, BT=64)

def skipped(x):
    for n in (1, 100000):
        if n > 65535:
            continue
        k[(n, 8)](x, n, BT=64)

def asserted(x):
    for n in (1, 100000):
        assert n < 65536
        k[(n, 8)](x, n, BT=64)

def in_the_else(x):
    for n in (1, 100000):
        if n <= 65535:
            k[(n, 8)](x, n, BT=64)
        else:
            k[(n, 8)](x, n, BT=64)  # expect

def guarded_too_high(x):
    for n in (1, 100000):
        if n <= 200000:
            k[(n, 8)](x, n, BT=64)  # expect

def other_name_tested(x, m):
    for n in (1, 100000):
        if m <= 65535:
            k[(n, 8)](x, n, BT=64)  # expect

def skipped_by_equality(x):
    for n in (1, 100000):
        if n == 100000:
            continue
        k[(n, 8)](x, n, BT=64)

def skipped_by_membership(x):
    for n in (1, 100000, 200000):
        if n in (100000, 200000):
            continue
        k[(n, 8)](x, n, BT=64)

def kept_by_inequality(x):
    for n in (1, 100000):
        if n != 1:
            continue
        k[(n, 8)](x, n, BT=64)

def guarded_by_equality(x):
    for n in (1, 100000):
        if n == 1 or n not in (100000,):
            k[(n, 8)](x, n, BT=64)

def skipped_by_another_item(x):
    for n in (1, 100000):
        if n == 1:
            continue
        k[(n, 8)](x, n, BT=64)  # expect

def skipped_by_a_membership_missing_it(x):
    for n in (1, 100000):
        if n in (1, 2):
            continue
        k[(n, 8)](x, n, BT=64)  # expect

def under_an_empty_membership(x):  # `n in ()` never holds
    for n in (1, 100000):
        if n in ():
            k[(n, 8)](x, n, BT=64)
"""

# a trip that leaves the loop for good (`break`, `return`, a failed `assert`) ends the later trips:
# 30000 * 3 is over the limit but never launched after 70000 broke out
ITEMS_STOPPED = """
def broken_earlier(x):
    for n in (1, 70000, 30000):
        if n > 65535:
            break
        k[(n * 3,)](x, n, BT=64)

def returned_earlier(x):
    for n in (1, 70000, 30000):
        if n > 65535:
            return
        k[(n * 3,)](x, n, BT=64)

def asserted_earlier(x):
    for n in (1, 70000, 30000):
        assert n < 65536
        k[(n * 3,)](x, n, BT=64)

def broken_in_the_else(x):
    for n in (1, 70000, 30000):
        if n <= 65535:
            pass
        else:
            break
        k[(n * 3,)](x, n, BT=64)

def returned_from_an_inner_loop(x):
    for m in (2, 1):
        for n in (40000, 30000):
            if n * m > 65535:
                return
            k[(n * 3, m)](x, n, BT=64)

def continued_earlier(x):
    for n in (1, 70000, 30000):
        if n > 65535:
            continue
        k[(n * 3,)](x, n, BT=64)  # expect

def broken_after_the_launch(x):
    for n in (1, 70000, 30000):
        k[(n * 3,)](x, n, BT=64)  # expect
        if n > 65535:
            break

def broken_out_of_an_inner_loop(x):  # the break ends the trips of `n`, not of `m`
    for m in (2, 1):
        for n in (40000, 30000):
            if n * m > 65535:
                break
            k[(n * 3, m)](x, n, BT=64)  # expect

def broken_out_of_a_loop_inside(x):  # the break ends the trips of `j` only
    for n in (1, 70000, 30000):
        for j in range(2):
            if n > 65535:
                break
            k[(n * 3,)](x, n, BT=64)  # expect

def broken_then_continued(x):  # the `if` leaves by `continue` first: the trip after runs
    for n in (1, 70000, 30000):
        if n > 65535:
            if x is None:
                continue
            break
        k[(n * 3,)](x, n, BT=64)  # expect

def continued_before_the_check(x):  # the 70000 trip never reaches the break: 30000 launches
    for n in (1, 70000, 30000):
        if n == 70000:
            continue
        if n > 65535:
            break
        k[(n * 3,)](x, n, BT=64)  # expect

def continued_after_the_check(x):  # the 70000 trip breaks before its `continue`
    for n in (1, 70000, 30000):
        if n > 65535:
            break
        if n == 1:
            continue
        k[(n * 3,)](x, n, BT=64)
"""


# an axis read from an entry of a dict the function writes is read as a name bound to its value
ENTRIES = """
def sizes(x):
    cfg = {"n": x.shape[0], "h": x.shape[1]}
    grid = (cfg["n"], cfg["h"])
    k[grid](x, 1, BT=64)  # expect

def called(x):
    cfg = dict(n=x.shape[0] * x.shape[1])
    k[(cfg["n"],)](x, 1, BT=64)  # expect

def in_a_loop(x):
    kw = {"n": x.shape[0], "h": x.shape[1]}
    for i in range(3):
        k[(kw["n"], kw["h"])](x, i, BT=64)  # expect

def known(x):
    cfg = {"n": 100000}
    k[(cfg["n"],)](x, 1, BT=64)  # expect

def bounded(x):
    cfg = {"n": x.shape[0], "h": x.shape[1]}
    if cfg["n"] * cfg["h"] > 65535:
        raise ValueError("too many programs")
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def small(x):
    cfg = {"n": triton.cdiv(x.shape[0], 64), "h": 4}
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def rebound_between(x):
    n = x.shape[0]
    cfg = {"n": n, "h": x.shape[1]}
    n = 4
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def passed_in(x, cfg):
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def _shrink(c):
    c["n"] = 4

def adjusted(x, obj):
    cfg = {"n": x.shape[0] * x.shape[1]}
    obj.tune(cfg)
    k[(cfg["n"],)](x, 1, BT=64)

def helper_stores(x):
    cfg = {"n": x.shape[0] * x.shape[1]}
    _shrink(cfg)
    k[(cfg["n"],)](x, 1, BT=64)

def aliased(x):
    cfg = {"n": x.shape[0] * x.shape[1]}
    alias = cfg
    alias["n"] = 4
    k[(cfg["n"],)](x, 1, BT=64)

def passed_after(x):
    cfg = {"n": x.shape[0] * x.shape[1]}
    k[(cfg["n"],)](x, 1, BT=64)  # expect
    _shrink(cfg)
"""


# a tensor's count of elements however written: `x.numel()`, its alias `x.nelement()`, `torch.numel(x)`
COUNTS = """
def rows_numel(x):
    k[(x.numel() // x.shape[-1], x.shape[0])](x, 1, BT=64)  # expect

def rows_nelement(x):
    k[(x.nelement() // x.shape[-1], x.shape[0])](x, 1, BT=64)  # expect

def rows_torch_numel(x):
    k[(torch.numel(x) // x.shape[-1], x.shape[0])](x, 1, BT=64)  # expect

def blocks_nelement(x, y):
    k[(triton.cdiv(x.nelement(), 1024), y.shape[0])](x, 1, BT=1024)  # expect

def other_numel(x, y):
    k[(np.numel(x) // x.shape[-1], x.shape[0])](x, 1, BT=64)
"""


# a list grid built by `.append` / `.extend` before the launch: the axes appended on every path
APPENDED = """
def appended(x):
    grid = []
    grid.append(x.shape[0])
    grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)  # expect

def appended_list(x):
    grid = [triton.cdiv(x.shape[0], 64)]
    grid.append(x.shape[1])
    k[grid](x, 1, BT=64)  # expect

def extended(x):
    grid = [x.shape[0]]
    grid.extend((x.shape[1], 2))
    k[grid](x, 1, BT=64)  # expect

def appended_after_the_launch(x):
    grid = [x.shape[0]]
    k[grid](x, 1, BT=64)
    grid.append(x.shape[1])

def appended_bounded(x):
    grid = [x.shape[0]]
    grid.append(4)
    k[tuple(grid)](x, 1, BT=64)

def appended_then_rebound(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    grid = [x.shape[0]]
    k[grid](x, 1, BT=64)

def appended_under_a_test(x, flag):
    grid = [x.shape[0]]
    if flag:
        grid.append(x.shape[1])
    grid.append(2)
    k[grid](x, 1, BT=64)  # expect

def appended_then_counted(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    assert len(grid) == 2 and grid[0] > 0
    k[tuple(grid)](x, 1, BT=64)  # expect
"""

# a list grid added to on several paths (under an `if`, in a loop, `.insert`, `.extend` of a
# name): each path's grid; one a test picking a variant leads to may run whatever the sizes
APPENDED_PATHS = """
def batched(x, is_batched):
    n, B = x.shape[0], x.shape[1]
    grid = [triton.cdiv(n, 64)]
    if is_batched:
        grid.append(B)
    k[tuple(grid)](x, 1, BT=64)  # expect

def batched_small(x, is_batched):
    grid = [triton.cdiv(x.shape[0], 64)]
    if is_batched:
        grid.append(4)
    k[tuple(grid)](x, 1, BT=64)

def arms(x, mode):
    grid = [x.shape[0]]
    if mode == "rows":
        grid.append(4)
    elif mode == "heads":
        grid.extend((x.shape[2], 2))
    else:
        grid.append(8)
    k[grid](x, 1, BT=64)  # expect

def arm_leaving(x, flag):
    grid = [x.shape[0]]
    if flag:
        grid.append(x.shape[1])
        return None
    k[grid](x, 1, BT=64)

def ordered(x):
    grid = [x.shape[0]]
    if x.shape[1] <= 16:
        grid.append(x.shape[1])
    k[grid](x, 1, BT=64)

def ordered_either_way(x):
    grid = [x.shape[0]]
    if x.shape[1] > 16:
        grid.append(4)
    else:
        grid.append(x.shape[1])
    k[grid](x, 1, BT=64)

def looped(x):
    grid = [x.shape[0]]
    for d in x.shape[1:]:
        grid.append(d)
    k[tuple(grid)](x, 1, BT=64)  # expect

def looped_small(x):
    grid = [x.shape[0]]
    for _ in range(2):
        grid.append(2)
    k[tuple(grid)](x, 1, BT=64)

def tested_in_a_loop(x, flags):
    grid = [x.shape[0]]
    for flag in flags:
        if flag:
            grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)  # expect

def inserted(x):
    grid = [x.shape[0]]
    grid.insert(0, x.shape[1])
    k[tuple(grid)](x, 1, BT=64)  # expect

def inserted_small(x, where):
    grid = [4]
    grid.insert(where, x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def extended_by_a_name(x):
    grid = [x.shape[0]]
    rest = (x.shape[1], 2)
    grid.extend(rest)
    k[tuple(grid)](x, 1, BT=64)  # expect

def extended_by_a_shape(x, y):
    grid = [triton.cdiv(x.shape[0], 64)]
    grid.extend(y.shape[:-1])
    k[tuple(grid)](x, 1, BT=64)  # expect

def extended_unknown(x, rest):
    grid = [x.shape[0]]
    grid.extend(rest)
    k[tuple(grid)](x, 1, BT=64)

def extended_unknown_beside_sizes(x, rest):
    grid = [x.shape[0], x.shape[1]]
    grid.extend(rest)
    k[tuple(grid)](x, 1, BT=64)  # expect

def appended_in_a_try(x):
    grid = [x.shape[0]]
    try:
        grid.append(x.shape[1])
    except IndexError:
        grid.append(1)
    k[tuple(grid)](x, 1, BT=64)  # expect

def appended_in_the_launching_arm(x, flag):
    grid = [x.shape[0]]
    if flag:
        grid.insert(0, x.shape[1])
        k[grid](x, 1, BT=64)  # expect

def appended_small_in_the_launching_block(x):
    grid = [x.shape[0]]
    with torch.no_grad():
        grid.extend((4, 2))
        k[tuple(grid)](x, 1, BT=64)

def appended_after_the_launching_arm(x, flag):
    grid = [x.shape[0]]
    if flag:
        k[tuple(grid)](x, 1, BT=64)
        grid.append(x.shape[1])

def appended_in_an_ordered_launching_arm(x):
    grid = [x.shape[0]]
    if x.shape[1] <= 16:
        grid.append(x.shape[1])
        k[tuple(grid)](x, 1, BT=64)

def appended_after_the_launch_in_a_loop(x, dims):
    grid = [x.shape[0]]
    for _ in dims:
        k[tuple(grid)](x, 1, BT=64)  # expect
        grid.append(x.shape[1])

def appended_in_a_loop_that_returns(x, dims):
    grid = []
    for _ in dims:
        grid.append(x.shape[1])
        k[tuple(grid)](x, 1, BT=64)
        return

def appended_in_a_loop_that_raises(x, dims):
    grid = []
    for _ in dims:
        grid.append(x.shape[1])
        k[tuple(grid)](x, 1, BT=64)
        raise ValueError(dims)

def appended_in_a_loop_over_one_item(x):
    grid = []
    for _ in (0,):
        grid.append(x.shape[1])
        k[tuple(grid)](x, 1, BT=64)

def appended_in_a_loop_of_one_trip(x):
    grid = []
    for _ in range(1):
        grid.append(x.shape[1])
        k[tuple(grid)](x, 1, BT=64)

def appended_in_a_loop_over_two_items(x):
    grid = []
    for _ in (0, 1):
        grid.append(x.shape[1])
        k[tuple(grid)](x, 1, BT=64)  # expect

def appended_small_after_the_launch_in_a_loop(x, dims):
    grid = [x.shape[0]]
    for _ in dims:
        k[tuple(grid)](x, 1, BT=64)
        grid.append(2)

def appended_then_breaking(x, dims):
    grid = [x.shape[0]]
    for _ in dims:
        k[tuple(grid)](x, 1, BT=64)
        if dims:
            grid.append(x.shape[1])
            break

def appended_before_a_break(x, dims):
    grid = [x.shape[0]]
    for d in dims:
        k[tuple(grid)](x, 1, BT=64)  # expect
        grid.append(x.shape[1])
        if d == 0:
            break

def appended_unless_breaking(x, dims):
    grid = [x.shape[0]]
    for d in dims:
        k[tuple(grid)](x, 1, BT=64)  # expect
        if d:
            break
        grid.append(x.shape[1])

def appended_then_always_breaking(x, dims):
    grid = [x.shape[0]]
    for _ in dims:
        k[tuple(grid)](x, 1, BT=64)
        grid.append(x.shape[1])
        break

def appended_then_breaking_in_a_block(x, dims):
    grid = [x.shape[0]]
    for _ in dims:
        k[tuple(grid)](x, 1, BT=64)
        grid.append(x.shape[1])
        with torch.no_grad():
            break

def appended_in_an_inner_loop_breaking(x, dims):
    grid = [x.shape[0]]
    for _ in dims:
        k[tuple(grid)](x, 1, BT=64)  # expect
        for e in dims:
            if e:
                grid.append(x.shape[1])
                break

def appended_in_a_loop_then_launched(x, dims):
    grid = [x.shape[0]]
    for d in dims:
        if d:
            grid.append(x.shape[1])
        with torch.no_grad():
            k[tuple(grid)](x, 1, BT=64)  # expect

def popped_under_a_test(x, flag):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    if flag:
        grid.pop()
    k[tuple(grid)](x, 1, BT=64)

def item_stored_under_a_test(x, flag):
    grid = [x.shape[0], 4]
    if flag:
        grid[1] = x.shape[2]
    k[tuple(grid)](x, 1, BT=64)  # expect

def item_stored_from_the_end_under_a_test(x, flag):
    grid = [x.shape[0]]
    grid.append(4)
    if flag:
        grid[-1] = x.shape[2]
    k[tuple(grid)](x, 1, BT=64)  # expect

def item_stored_small_under_a_test(x, flag):
    grid = [x.shape[0], 4]
    if flag:
        grid[1] = 8
    k[tuple(grid)](x, 1, BT=64)

def item_stored_over_a_size(x):
    grid = [x.shape[0], x.shape[1]]
    grid[1] = 4
    k[tuple(grid)](x, 1, BT=64)

def item_stored_under_an_ordering(x):
    grid = [x.shape[0], 4]
    if x.shape[2] <= 16:
        grid[1] = x.shape[2]
    k[tuple(grid)](x, 1, BT=64)

def item_stored_at_an_index_unknown(x, flag, i):
    grid = [x.shape[0], 4]
    if flag:
        grid[i] = x.shape[2]
    k[tuple(grid)](x, 1, BT=64)
"""


# a list grid added to in a `try` (its body with `else`, each handler not leaving, each then
# `finally`: the paths) or in a `while` loop counting its items (a test picking a variant): each
# function adds `4` in its `try` body, then the clauses given; or loops while the test holds
TRIED = {
    "in_a_handler": ("    except IndexError:\n        grid.append(x.shape[1])\n", True),
    "in_the_else": ("    except IndexError:\n        pass\n    else:\n        grid.append(x.shape[1])\n", True),
    "in_the_finally": ("    finally:\n        grid.append(x.shape[1])\n", True),
    "small_or_leaving": (
        "    except IndexError:\n        grid.append(2)\n    except ValueError:\n"
        "        grid.append(x.shape[1])\n        raise\n    finally:\n        grid.append(8)\n",
        False,
    ),
}
WHILE_COUNTING = {
    "short": ("len(grid) < 2", "x.shape[1]", True),
    "short_small": ("len(grid) < 3", "2", False),
    "while_a_size_is_small": ("len(grid) < x.shape[1]", "x.shape[1]", False),
}
APPENDED_TRIED = "".join(
    f"\ndef tried_{name}(x):\n    grid = [x.shape[0]]\n    try:\n        grid.append(4)\n{clauses}"
    f"    k[tuple(grid)](x, 1, BT=64){'  # expect' if reported else ''}\n"
    for name, (clauses, reported) in TRIED.items()
) + "".join(
    f"\ndef counted_{name}(x):\n    grid = [x.shape[0]]\n    while {test}:\n        grid.append({added})\n"
    f"    k[tuple(grid)](x, 1, BT=64){'  # expect' if reported else ''}\n"
    for name, (test, added, reported) in WHILE_COUNTING.items()
)


def _many_ifs(head: str, test: str, added: str, mark: str = "") -> str:
    """A function binding `grid = [head]`, then adding `added` under each of 70 `if`s (`test`
    formatted with the `if`'s place), launching `k[tuple(grid)]`: more paths than are read."""
    ifs = "".join(f"    if {test.format(i)}:\n        grid.append({added})\n" for i in range(70))
    return f"    grid = [{head}]\n{ifs}    k[tuple(grid)](x, 1, BT=64){mark}\n"


# a list grid added to under more `if`s than there are paths read: when every test picks a
# variant, the paths read may each run; else the additions every path makes
APPENDED_MANY_PATHS = (
    "\ndef sized_on_every_path(x, flags):\n"
    + _many_ifs("x.shape[0] * x.shape[1]", "flags[{}]", "2", "  # expect")
    + "\ndef small_on_every_path(x, mode):\n"
    + "    grid = [triton.cdiv(x.shape[0], 64)]\n    if mode == -1:\n        grid.append(4)\n"
    + "".join(f"    elif mode == {i}:\n        grid.append(2)\n" for i in range(70))
    + "    k[tuple(grid)](x, 1, BT=64)\n"
    + "\ndef sized_on_a_variant_path(x, flags):\n"
    + _many_ifs("x.shape[0]", "flags[{}]", "x.shape[1]", "  # expect")
    + "\ndef sized_on_an_ordered_path(x):\n"
    + _many_ifs("x.shape[0]", "x.shape[2] > {}", "x.shape[1]")
    + "\ndef ordered_sized_on_every_path(x):\n"
    + _many_ifs("x.shape[0] * x.shape[1]", "x.shape[2] > {}", "2", "  # expect")
    + "\ndef sized_in_nested_ifs(x, flags):\n"
    + "    grid = [x.shape[0]]\n"
    + "    if x.shape[2] > 16:\n"
    + "".join(f"        if flags[{i}]:\n            grid.append(x.shape[1])\n" for i in range(70))
    + "    else:\n"
    + "        raise ValueError(x.shape)\n"
    + "    k[tuple(grid)](x, 1, BT=64)\n"
)

# a list grid added to in an arm whose test is known, or in a loop over what is known empty:
# no path runs the arm a test known to fail picks, nor those after one known to hold, nor the body
APPENDED_DEAD = """
def never(x):
    grid = [x.shape[0]]
    if False:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def never_by_a_flag(x):
    grid = [x.shape[0]]
    flag = False
    if flag:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def never_by_a_count(x):
    mode = 0
    grid = [x.shape[0]]
    if mode == 1 or not 1:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def always(x):
    grid = [x.shape[0]]
    if True:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)  # expect

def after_one_holding(x, flag):
    grid = [x.shape[0]]
    if 1:
        grid.append(4)
    elif flag:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def else_of_one_failing(x):
    grid = [x.shape[0]]
    if None:
        grid.append(4)
    else:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)  # expect

def over_nothing(x):
    grid = [x.shape[0]]
    for _ in []:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def over_an_empty_tuple(x):
    grid = [x.shape[0]]
    for _ in ():
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def over_an_empty_range(x):
    n = 0
    grid = [x.shape[0]]
    for _ in range(n):
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def while_failing(x):
    grid = [x.shape[0]]
    while 0:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def over_one(x):
    grid = [x.shape[0]]
    for _ in range(1):
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)  # expect

def over_a_list_filled(x):
    dims = []
    dims.append(1)
    grid = [x.shape[0]]
    for _ in dims:
        grid.append(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)  # expect
"""

# a helper bound to a lambda returns its body, as a `def` does (`HostIndex.returns`)
LAMBDA_HELPERS = """
def _rows():
    return 4096

_rows_lambda = lambda: 4096

def by_a_def(x):
    k[(x.shape[0] * x.shape[1] // _rows(),)](x, 1, BT=64)  # expect

def by_a_lambda(x):
    k[(x.shape[0] * x.shape[1] // _rows_lambda(),)](x, 1, BT=64)  # expect

def by_an_unknown(x, rows):
    k[(x.shape[0] * x.shape[1] // rows(),)](x, 1, BT=64)

def grid_by_a_local_lambda(x):
    make = lambda a, b: (a, b)
    k[make(x.shape[0], x.shape[1])](x, 1, BT=64)  # expect

def grid_by_a_local_lambda_bounded(x):
    make = lambda a, b: (a, min(b, 16))
    k[make(x.shape[0], x.shape[1])](x, 1, BT=64)

def grid_by_a_nested_function(x):
    def make(a, b):
        return (a, b)

    k[make(x.shape[0], x.shape[1])](x, 1, BT=64)  # expect

def block_by_a_local_lambda(x):
    pick = lambda n: min(n, 16)
    k[(x.shape[0], pick(x.shape[1]))](x, 1, BT=64)

def grid_by_an_attribute_lambda(self, x):
    self.make = lambda a, b: (a, b)
    k[make(x.shape[0], x.shape[1])](x, 1, BT=64)
"""

# a name rebound in an arm known never to run keeps the value bound before it
REBOUND_DEAD = "".join(
    f"\ndef {name}(x, c):\n    B, T, H = x.shape\n    n = H\n    {opening}:\n        n = B * T\n"
    f"    k[(n,)](x, 1, BT=64){expect}\n"
    for name, opening, expect in (
        ("never", "if False", ""),
        ("never_by_a_flag", "flag = False\n    if flag", ""),
        ("never_in_an_empty_loop", "for _ in range(0)", ""),
        ("maybe", "if c", "  # expect"),
        ("always", "if True", "  # expect"),
    )
)

# names (or a dict's entries) bound together in the arms of an `if` picking a variant: sized
# together on each arm's path, the grid reported when some path's grid multiplies two sizes
BOUND_TOGETHER = """
def names_per_arm(x, flag):
    if flag:
        n, h = x.shape[0], 4
    else:
        n, h = 4, x.shape[1]
    k[(n, h)](x, 1, BT=64)

def names_in_one_arm(x, flag):
    if flag:
        n, h = x.shape[0], x.shape[1]
    else:
        n, h = 4, 4
    k[(n, h)](x, 1, BT=64)  # expect

def names_per_elif_arm(x, mode):
    n, h = 4, 4
    if mode == "rows":
        n = x.shape[0]
    elif mode == "heads":
        h = x.shape[1]
    k[(n, h)](x, 1, BT=64)

def names_arm_leaving(x, flag):
    n, h = 4, 4
    if flag:
        n, h = x.shape[0], x.shape[1]
        return None
    k[(n, h)](x, 1, BT=64)

def names_tested_after(x, flag):
    if flag:
        n, h = x.shape[0], x.shape[1]
    else:
        n, h = 4, 4
    assert n <= 64
    k[(n, h)](x, 1, BT=64)

def launched_in_the_arm(x, flag):
    if flag:
        n, h = x.shape[0], x.shape[1]
        k[(n, h)](x, 1, BT=64)  # expect
        return x
    return None

def entries_per_arm(x, flag):
    if flag:
        cfg = {"n": x.shape[0], "h": 4}
    else:
        cfg = {"n": 4, "h": x.shape[1]}
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def entries_in_one_arm(x, flag):
    if flag:
        cfg = {"n": x.shape[0], "h": x.shape[1]}
    else:
        cfg = {"n": 4, "h": 4}
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)  # expect

def names_per_try_arm(x):
    try:
        n, h = x.shape[0], 4
    except AttributeError:
        n, h = 4, x.shape[1]
    k[(n * h,)](x, 1, BT=64)

def names_in_the_try_body(x):
    try:
        n, h = x.shape[0], x.shape[1]
    except AttributeError:
        n, h = 4, 4
    k[(n * h,)](x, 1, BT=64)  # expect

def names_in_a_handler(x):
    try:
        n, h = 4, 4
    except AttributeError:
        n, h = x.shape[0], x.shape[1]
    k[(n * h,)](x, 1, BT=64)  # expect

def names_per_try_else(x):
    n, h = 4, 4
    try:
        check(x)
    except AttributeError:
        n = x.shape[0]
    else:
        h = x.shape[1]
    k[(n * h,)](x, 1, BT=64)

def names_handler_binding_one(x):
    n, h = 4, 4
    try:
        n = x.shape[0]
        h = 2
    except AttributeError:
        h = x.shape[1]
    k[(n * h,)](x, 1, BT=64)  # expect

def names_handler_raising(x):
    n, h = 4, 4
    try:
        n, h = x.shape[0], 4
    except AttributeError:
        n, h = x.shape[0], x.shape[1]
        raise
    k[(n * h,)](x, 1, BT=64)

def names_bound_finally(x):
    try:
        n, h = x.shape[0], 4
    except AttributeError:
        n, h = 4, x.shape[1]
    finally:
        h = x.shape[1]
    k[(n * h,)](x, 1, BT=64)  # expect

def entries_per_try_arm(x):
    try:
        cfg = {"n": x.shape[0], "h": 4}
    except AttributeError:
        cfg = {"n": 4, "h": x.shape[1]}
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)
"""

# a list grid appended to, then changed otherwise before the launch: not what was appended
APPENDED_CHANGED = """
def popped(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    grid.pop()
    k[tuple(grid)](x, 1, BT=64)

def item_deleted(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    del grid[1]
    k[tuple(grid)](x, 1, BT=64)

def item_stored(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    grid[1] = 4
    k[tuple(grid)](x, 1, BT=64)

def removed(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    grid.remove(x.shape[1])
    k[tuple(grid)](x, 1, BT=64)

def cleared(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    grid.clear()
    grid.append(4)
    k[tuple(grid)](x, 1, BT=64)

def slice_stored(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    grid[:] = [4]
    k[tuple(grid)](x, 1, BT=64)

def alias_popped(x):
    grid = [x.shape[0]]
    alias = grid
    grid.append(x.shape[1])
    alias.pop()
    k[tuple(grid)](x, 1, BT=64)

def passed_to_a_helper(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    shrink(grid)
    k[tuple(grid)](x, 1, BT=64)

def shrink(g):
    g.pop()

def literal_popped(x):
    grid = [x.shape[0], x.shape[1]]
    grid.pop()
    grid.append(4)
    k[tuple(grid)](x, 1, BT=64)
"""

# a test around the launch, or an `assert` before it, bounding an item appended to a list grid
# bounds that axis; a list filled a bounded number of times has a bounded length (`len(items)`)
APPENDED_GUARDED = """
def tested_around(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    if x.shape[1] <= 16:
        k[tuple(grid)](x, 1, BT=64)

def asserted_before(x):
    B = x.shape[1]
    grid = [x.shape[0]]
    grid.append(B)
    assert B <= 16
    k[tuple(grid)](x, 1, BT=64)

def rebound_after(x):
    B = x.shape[1]
    grid = [x.shape[0]]
    grid.append(B)
    B = x.shape[2]  # the test bounds the new value, not the one appended
    assert B <= 16
    k[tuple(grid)](x, 1, BT=64)  # expect

def transposed_after(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    x = x.transpose(0, 1)
    if x.shape[1] <= 16:
        k[tuple(grid)](x, 1, BT=64)  # expect

def tested_elsewhere(x):
    grid = [x.shape[0]]
    grid.append(x.shape[1])
    if x.shape[2] <= 16:
        k[tuple(grid)](x, 1, BT=64)  # expect

def item_read_back(x):
    grid = []
    grid.append(x.shape[0])
    grid.append(x.shape[1])
    assert grid[0] <= 4096
    k[tuple(grid)](x, 1, BT=64)

def item_read_back_around(x):
    grid = [x.shape[0]]
    grid.extend((x.shape[1],))
    if grid[-1] <= 16:
        k[tuple(grid)](x, 1, BT=64)

def item_read_back_of_three(x):
    grid = []
    grid.append(x.shape[0])
    grid.extend((x.shape[1], x.shape[2]))
    assert grid[0] <= 4096
    k[tuple(grid)](x, 1, BT=64)  # expect

def literal_item_read_back_of_three(x):
    grid = [x.shape[0], x.shape[1], x.shape[2]]
    assert grid[-1] <= 4096
    k[tuple(grid)](x, 1, BT=64)  # expect

def item_read_back_differing_by_path(x, flag):
    grid = [x.shape[0]]
    if flag:
        grid.append(x.shape[1])
    else:
        grid.append(x.shape[2])
    assert grid[1] <= 16  # bounds the item each path appends
    k[tuple(grid)](x, 1, BT=64)

def filled_under_a_cap(x, n):
    items = []
    for i in range(min(n, 1024)):
        items.append(i)
    k[(len(items), x.shape[0])](x, 1, BT=64)

def filled_twice(x, a, b):
    items = []
    items.append(a)
    items.extend((b, b))
    k[(len(items), x.shape[0])](x, 1, BT=64)

def filled_over_written_items(x, a, b):
    items = [a]
    for t in (a, b):
        for _ in range(4):
            items.insert(0, t)
    k[(len(items), x.shape[0])](x, 1, BT=64)

def filled_anew_each_trip(x, xs):
    for t in xs:
        items = []
        items.append(t)
        k[(len(items), x.shape[0])](x, 1, BT=64)

def filled_from_a_sequence(x, xs):
    items = []
    for t in xs:
        items.append(t)
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def filled_over_a_size(x, n):
    items = []
    for i in range(n, x.shape[1]):
        items.append(i)
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def extended_by_a_sequence(x, xs):
    items = [1]
    items.extend(xs)
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def filled_while(x, xs):
    items = []
    while xs:
        items.append(xs.pop())
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def stored_while(x, xs):
    items = [1, 2]
    while xs:
        items[0] = xs.pop()
    k[(len(items), x.shape[0])](x, 1, BT=64)

def filled_by_a_nested_function(x, xs):
    items = []

    def add(t):
        items.append(t)

    for t in xs:
        add(t)
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def filled_by_a_bound_method(x, xs):
    items = []
    add = items.append
    for t in xs:
        add(t)
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def filled_by_map(x, xs):
    items = []
    list(map(items.append, xs))
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def filled_then_passed(x, xs):
    items = []
    items.append(1)
    more(items, xs)
    k[(len(items), x.shape[0])](x, 1, BT=64)  # expect

def more(items, xs):
    items.extend(xs)

def counted(x):
    grid = (x.shape[0], x.shape[1])
    assert len(grid) == 2  # its length, not its items
    k[grid](x, 1, BT=64)  # expect
"""

# a name a nested function rebinds under `nonlocal` may hold what that function stores there,
# a value unknown where the name is read: neither the known int nor the product bound before
NONLOCAL = """
def fixed_then_shrunk(x):
    rows = 100000

    def shrink():
        nonlocal rows
        rows = 1024

    shrink()
    k[(rows, 4)](x, 1, BT=64)

def sized_then_capped(x):
    n = x.shape[0] * x.shape[1]

    def cap():
        nonlocal n
        n = min(n, 4096)

    cap()
    k[(n,)](x, 1, BT=64)

def sized_then_looped(x, parts):
    n = x.shape[0] * x.shape[1]

    def split():
        nonlocal n
        for n in parts:
            pass

    split()
    k[(n,)](x, 1, BT=64)

def fixed_and_read(x):
    rows = 100000

    def show():
        print(rows)

    show()
    k[(rows, 4)](x, 1, BT=64)  # expect

def another_name_rebound(x):
    n = x.shape[0] * x.shape[1]
    m = 1

    def cap():
        nonlocal m
        m = 4

    cap()
    k[(n,)](x, 1, BT=64)  # expect

def a_local_of_its_own(x):
    n = x.shape[0] * x.shape[1]

    def cap():
        n = 4
        return n

    cap()
    k[(n,)](x, 1, BT=64)  # expect
"""

# a module-level flag bound once to a literal is trusted as that constant (a store from another
# module is not seen); one the module binds again, or a function rebinds under `global`, is not
MODULE_FLAGS = """
import os

DEBUG = False
VERBOSE = False
TUNED = False
if os.environ.get("TUNED"):
    TUNED = True

def enable():
    global VERBOSE
    VERBOSE = True

def debug_rows(x):
    n = x.shape[0]
    if DEBUG:
        n = x.shape[0] * x.shape[1]
    k[(n,)](x, 1, BT=64)
""" + "".join(
    f"\ndef {flag.lower()}_only(x):\n    grid = [x.shape[0]]\n    if {flag}:\n        grid.append(x.shape[1])\n"
    f"    k[tuple(grid)](x, 1, BT=64){expect}\n"
    for flag, expect in (("DEBUG", ""), ("VERBOSE", "  # expect"), ("TUNED", "  # expect"))
)

# a grid stored on an autograd context: read in the same function or in `backward`
CONTEXT = """
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.grid = (x.shape[0], x.shape[1])
        k[ctx.grid](x, 1, BT=64)  # expect
        return x

    @staticmethod
    def backward(ctx, do):
        k[ctx.grid](do, 1, BT=64)  # expect
        return do


class Small(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.grid = (x.shape[0], 4)
        k[ctx.grid](x, 1, BT=64)
        return x

    @staticmethod
    def backward(ctx, do):
        k[ctx.grid](do, 1, BT=64)
        return do


class Other(torch.autograd.Function):
    @staticmethod
    def backward(ctx, do):
        k[ctx.grid](do, 1, BT=64)
        return do
"""


# a dict bound on several paths (each arm's entry, the one before an `if` for an arm binding none)
# or filled one entry at a time, read by the grid or a grid lambda (`meta["BLOCK"]`)
DICT_PATHS = """
def entries_counted(x):
    cfg = {"n": x.shape[0], "h": x.shape[1]}
    print(len(cfg), tuple(cfg))
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)  # expect

def entries_tuned(x):
    cfg = {"n": x.shape[0], "h": x.shape[1]}
    tune(cfg)
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def arms(x, y, flag):
    if flag:
        cfg = {"n": x.shape[0], "h": x.shape[1]}
    else:
        cfg = {"n": y.shape[0], "h": y.shape[1]}
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)  # expect

def elif_arms(x, y, flag):
    cfg = {"n": x.shape[0], "h": 2}
    if flag:
        cfg = {"n": 4, "h": x.shape[1]}
    elif y is None:
        cfg = {"n": 4, "h": 4}
    else:
        cfg["h"] = x.shape[1]
    k[lambda meta: (cfg["n"], cfg["h"])](x, 1, BT=64)  # expect

def try_arms(x, y):
    try:
        cfg = {"n": x.shape[0], "h": x.shape[1]}
    except AttributeError:
        cfg = {"n": y.shape[0], "h": y.shape[1]}
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)  # expect

def try_arms_small(x):
    try:
        cfg = {"n": 4, "h": x.shape[1]}
    except AttributeError:
        cfg = {"n": 8, "h": x.shape[1]}
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def try_else_stored(x):
    cfg = {"n": 4, "h": x.shape[1]}
    try:
        n = x.shape[0]
    except IndexError:
        pass
    else:
        cfg["n"] = n
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)  # expect

def try_handler_leaving(x):
    cfg = {"n": 4, "h": x.shape[1]}
    try:
        cfg = {"n": 8, "h": x.shape[1]}
    except KeyError:
        cfg["n"] = x.shape[0]
        raise
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def try_handler_keeping(x):
    cfg = {"n": x.shape[0], "h": x.shape[1]}
    try:
        cfg = {"n": 4, "h": x.shape[1]}
    except KeyError:
        pass
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)  # expect

def try_finally_stored(x):
    cfg = {"n": x.shape[0], "h": x.shape[1]}
    try:
        cfg["h"] = x.shape[1]
    finally:
        cfg["n"] = 4
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def arms_small(x, flag):
    if flag:
        cfg = {"n": 4, "h": x.shape[1]}
    else:
        cfg = {"n": 8, "h": x.shape[1]}
    k[lambda meta: (cfg["n"], cfg["h"])](x, 1, BT=64)

def arm_leaving(x, flag):
    cfg = {"n": 4, "h": x.shape[1]}
    if flag:
        cfg = {"n": x.shape[0], "h": x.shape[1]}
        return None
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def arm_before_the_test(x, flag):
    cfg = {"n": 4, "h": x.shape[1]}
    if flag:
        cfg["n"] = 8
    k[(cfg["n"], cfg["h"])](x, 1, BT=64)

def stored_block_covers(x):
    meta = {}
    meta["BLOCK"] = triton.next_power_of_2(x.shape[1])
    grid = lambda m: (x.shape[0], triton.cdiv(x.shape[1], meta["BLOCK"]))
    k[grid](x, 1, BT=64)

def block_covers(x):
    meta = {"BLOCK": triton.next_power_of_2(x.shape[1])}
    grid = lambda m: (x.shape[0], triton.cdiv(x.shape[1], meta["BLOCK"]))
    k[grid](x, 1, BT=64)

def arms_blocks_cover(x, flag):
    if flag:
        meta = {"BLOCK": triton.next_power_of_2(x.shape[1])}
    else:
        meta = {"BLOCK": max(1024, triton.next_power_of_2(x.shape[1]))}
    grid = lambda m: (x.shape[0], triton.cdiv(x.shape[1], meta["BLOCK"]))
    k[grid](x, 1, BT=64)

def arms_blocks_small(x, flag):
    if flag:
        meta = {"BLOCK": 64}
    else:
        meta = {"BLOCK": 128}
    grid = lambda m: (x.shape[0], triton.cdiv(x.shape[1], meta["BLOCK"]))
    k[grid](x, 1, BT=64)  # expect

def stored_for_a_grid_function(x):
    cfg = {}
    cfg["n"] = x.shape[0]
    cfg["h"] = x.shape[1]

    def grid(meta):
        return (cfg["n"], cfg["h"])

    k[grid](x, 1, BT=64)  # expect

def stored_after_the_grid_function(x):
    cfg = {"n": x.shape[0], "h": x.shape[1]}

    def grid(meta):
        return (cfg["n"], cfg["h"])

    cfg["h"] = 4
    k[grid](x, 1, BT=64)

def block_rebound_after(x):
    meta = {"BLOCK": triton.next_power_of_2(x.shape[1])}
    meta["BLOCK"] = 64
    grid = lambda m: (x.shape[0], triton.cdiv(x.shape[1], meta["BLOCK"]))
    k[grid](x, 1, BT=64)  # expect
"""


@pytest.mark.parametrize(
    "snippet",
    [
        TOTALS,
        BUILT,
        PARTIAL,
        HELD,
        METHODS,
        PARTIALS,
        STARRED,
        CHAINED,
        ITEMS,
        LAUNCH_VALUES,
        ITEMS_EXCLUDED,
        ITEMS_STOPPED,
        ENTRIES,
        COUNTS,
        APPENDED,
        APPENDED_PATHS,
        APPENDED_MANY_PATHS,
        APPENDED_TRIED,
        APPENDED_DEAD,
        REBOUND_DEAD,
        LAMBDA_HELPERS,
        BOUND_TOGETHER,
        APPENDED_CHANGED,
        APPENDED_GUARDED,
        NONLOCAL,
        MODULE_FLAGS,
        CONTEXT,
        DICT_PATHS,
    ],
    ids=[
        "item_totals",
        "built",
        "partial",
        "held",
        "methods",
        "partials",
        "starred",
        "chained",
        "items",
        "launch_values",
        "excluded",
        "stopped",
        "entries",
        "counts",
        "appended",
        "appended_paths",
        "appended_many_paths",
        "appended_tried",
        "appended_dead",
        "rebound_dead",
        "lambda_helpers",
        "bound_together",
        "appended_changed",
        "appended_guarded",
        "nonlocal",
        "module_flags",
        "context",
        "dict_paths",
    ],
)
def test_grids_are_reported_where_marked(snippet: str) -> None:
    source, _ = snippet_source(KERNEL + snippet)
    assert found_rows(source, select=["ASC010"]) == expected_rows(source, "ASC010")


def test_a_loop_that_returns_is_reported_at_its_one_trip(lint) -> None:
    """A loop body that ends in `return` runs once: the grid is the first trip's, not a later one's."""
    source, _ = snippet_source(
        KERNEL
        + "def once(x, dims):\n    B, H = x.shape\n    grid = [H]\n    for _ in dims:\n"
        + "        grid.append(B)\n        k[tuple(grid)](x, 1, BT=64)\n        return\n"
    )
    (report,) = lint(source, select=["ASC010"])
    assert "grows as H * B >" in report.message


def test_a_loop_that_breaks_in_a_try_runs_once(lint) -> None:
    """A loop body that ends in a `try` that always breaks (`try: break finally: ...`) runs once: no later trip
    launches what the first one appended."""
    source, _ = snippet_source(
        KERNEL
        + "def once(x, dims):\n    grid = [x.shape[0]]\n    for _ in dims:\n        k[tuple(grid)](x, 1, BT=64)\n"
        + "        grid.append(x.shape[1])\n        try:\n            break\n        finally:\n            pass\n"
    )
    assert lint(source, select=["ASC010"]) == []


def test_a_capped_item_is_reported_at_the_trip_over_the_limit(lint) -> None:
    """`min(1, 65535)` is 1, not a cap: the trip over the limit is the one the message shows."""
    source, _ = snippet_source(
        KERNEL + "def capped(x):\n    for n in (1, 100000):\n        k[(min(n, 65535), 8)](x, n, BT=64)\n"
    )
    (report,) = lint(source, select=["ASC010"])
    assert "min(100000, 65535) * 8 = 524280 > 65535" in report.message
