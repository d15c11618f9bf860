"""ASC010 reads the guards, floors and switches host code writes around a launch: a bound tested
in a caller before it calls the launching function, `torch._check`, an `if` whose `else` exits,
floors written `n != 0` / `n == 0` / `n or 1` (no cap), and a class-based context manager setting
`TRITON_ALL_BLOCKS_PARALLEL` in `__enter__`. Each snippet marks the lines that must be reported
with `# flagged`; every other launch must stay silent."""

from __future__ import annotations

import textwrap

import pytest

HEADER = textwrap.dedent(
    """
    import contextlib
    import os

    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(x, T, BT: tl.constexpr):
        tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)
    """
)

CALLERS = """
def _guarded(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # bounded by the caller's early exit

def spatial(x):
    B, spatial_dim = x.shape
    if spatial_dim >= 65536:
        raise ValueError("spatial_dim must fit one grid axis")
    _guarded(x, B, spatial_dim)

def _asserted(x, B, n, BT=64):
    k[(triton.cdiv(n, BT), B)](x, n, BT=BT)

def asserted(x):
    B, n = x.shape
    assert n < 65536
    _asserted(x, B, n)

def _in_arm(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)

def in_arm(x):
    B, n = x.shape
    if n <= 65535:
        _in_arm(x, B, n)
    else:
        run_chunked(x)

def _product(x, BH, T, BT=64):
    k[(T, BH)](x, T, BT=BT)

def product(x):
    B, T, H = x.shape
    if B * H > 4096:
        raise ValueError
    _product(x, B * H, T)

def _chain(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # two callers up

def _middle(x, B, n):
    _chain(x, B, n)

def chain(x):
    B, n = x.shape
    if n > 65535:
        return None
    _middle(x, B, n)

def _one_unguarded(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged: one caller does not test

def tested(x):
    B, n = x.shape
    if n > 65535:
        raise ValueError
    _one_unguarded(x, B, n)

def untested(x):
    B, n = x.shape
    _one_unguarded(x, B, n)

def _whole_tensor(x, BT=64):
    B, n = x.shape
    k[(n, B)](x, n, BT=BT)  # flagged: the caller passes the tensor, not the size

def whole_tensor(x):
    if x.shape[1] > 65535:
        raise ValueError
    _whole_tensor(x)

def _after(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged: tested after the call

def after(x):
    B, n = x.shape
    _after(x, B, n)
    if n > 65535:
        raise ValueError

def _floored(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged: a lower bound

def floored(x):
    B, n = x.shape
    if n < 16:
        raise ValueError
    _floored(x, B, n)

def _one_of_three(x, B, H, T, BT=64):
    k[(T, B * H)](x, T, BT=BT)  # flagged: `B * H` still grows

def one_of_three(x):
    B, T, H = x.shape
    if T > 4096:
        raise ValueError
    _one_of_three(x, B, H, T)

def _against_a_size(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged: ordered against another runtime size

def against_a_size(x, y):
    B, n = x.shape
    if n > y.shape[0]:
        raise ValueError
    _against_a_size(x, B, n)
"""

CHECKS = """
def checked(x, BT=64):
    B, T = x.shape
    torch._check(T < 65536, lambda: "T too long")
    k[(T, B)](x, T, BT=BT)

def checked_product(x, BT=64):
    B, T, H = x.shape
    torch._check(triton.cdiv(T, BT) * B * H <= 65535)
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def else_raises(x, BT=64):
    B, T = x.shape
    if T < 65536:
        grid = (T, B)
    else:
        raise ValueError("T too long")
    k[grid](x, T, BT=BT)

def checked_low(x, BT=64):
    B, T = x.shape
    torch._check(T > 0)
    k[(T, B)](x, T, BT=BT)  # flagged: a lower bound

def else_returns_low(x, BT=64):
    B, T = x.shape
    if T > 16:
        pass
    else:
        return None
    k[(T, B)](x, T, BT=BT)  # flagged: a lower bound
"""

FLOORS = """
def not_zero(x, BT=64):
    n, T = x.shape
    B = n if n != 0 else 1
    k[(B, T)](x, T, BT=BT)  # flagged

def zero_fails(x, BT=64):
    n, T = x.shape
    B = 1 if n == 0 else n
    k[(B, T)](x, T, BT=BT)  # flagged

def rows_or_one(x, BT=64):
    n, T = x.shape
    k[(n or 1, T)](x, T, BT=BT)  # flagged

def leading(x, BT=64):
    dims = x.shape[:-1]
    B = math.prod(dims) if len(dims) != 0 else 1
    k[(B, x.shape[-1])](x, x.shape[-1], BT=BT)  # flagged

def pinned(x, BT=64):
    n, T = x.shape
    B = n if n == 24 else 1  # `n` is 24 where its arm runs: one size left
    k[(B, T)](x, T, BT=BT)

def capped(x, BT=64):
    n, T = x.shape
    B = n if n < 4096 else 4096
    k[(B, T)](x, T, BT=BT)

def bounded_or(x, cap, BT=64):
    n, T = x.shape
    k[(4096 or n, T)](x, T, BT=BT)
"""

MANAGERS = """
class AllBlocksParallel:
    def __enter__(self):
        self._previous = os.environ.get("TRITON_ALL_BLOCKS_PARALLEL")
        os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"
        return self

    def __exit__(self, *exc):
        os.environ.pop("TRITON_ALL_BLOCKS_PARALLEL", None)
        return False

class LiftedOnExit:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"
        return False

@contextlib.contextmanager
def _lifted():
    os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"
    yield

def entered(x, BT=64):
    B, T, H = x.shape
    with AllBlocksParallel():
        k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def entered_as(x, BT=64):
    B, T, H = x.shape
    with AllBlocksParallel() as lifted:
        if x.is_contiguous():
            k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def entered_by_name(x, BT=64):
    B, T, H = x.shape
    manager = AllBlocksParallel()
    with manager:
        k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def nested_deeper(x, BT=64):
    B, T, H = x.shape
    with _lifted():
        with torch.no_grad():
            for _ in range(2):
                k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def _launch(x, BT=64):
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def forward(x):
    with AllBlocksParallel():
        if x.numel():
            _launch(x)

def on_exit(x, BT=64):
    B, T, H = x.shape
    with LiftedOnExit():
        k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # flagged: set only when the block ends

def after_the_block(x, BT=64):
    B, T, H = x.shape
    with AllBlocksParallel():
        pass
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # flagged: outside the block
"""

# a test of a value the grid's sizes only divide (or are subtracted from) bounds none of them:
# `K == 1` with `K = x.numel() // M // N` says nothing of how large `M` is (FlagGems' cumsum)
SHRINKING = """
def quotient(x):
    M, N = x.shape[0], x.shape[1]
    K = x.numel() // M // N
    if K == 1:
        k[(M, N)](x, N, BT=64)  # flagged: K is the rows left over

def _rows(x, M, N, BT=64):
    k[(M, triton.cdiv(N, BT))](x, N, BT=BT)  # flagged: the caller's test reads M only as a divisor

def by_dim(x, dim):
    M = 1
    for i in range(dim):
        M *= x.shape[i]
    N = x.shape[dim]
    K = x.numel() // M // N
    if K == 1:
        _rows(x, M, N)

def remainder(x):
    M, N = x.shape[0], x.shape[1]
    left = x.numel() - M
    if left > 0:
        k[(M, N)](x, N, BT=64)  # flagged: what is left of any count bounds nothing

def aligned(x):
    M, N = x.shape[0], x.shape[1]
    r = M % 64
    if r == 0:
        k[(M, N)](x, N, BT=64)  # flagged: alignment bounds nothing

def product(x):
    M, N = x.shape[0], x.shape[1]
    total = M * N
    if total <= 65535:
        k[(M, N)](x, N, BT=64)
"""


# a bound holds for the value tested: a name rebound after the test to a value it leaves
# unbounded (`n = n * M`) is no longer bounded at the launch (or the call passing it on); one
# rebound only to smaller values (`n //= 2`, `n = min(n, M)`, `n -= 1`) keeps it, also on each
# trip of a loop; a name copied from a bounded one before it is rebound (`m = n`) stays bounded;
# a name or tensor a `for` or `with` rebinds after the test is another value, unbounded
REBOUND = """
def _in_the_arm(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged: the caller multiplies `n` after its test

def in_the_arm(x):
    B, n, M = x.shape
    if n <= 1024:
        n = n * M
        _in_the_arm(x, B, n)

def _after_the_exit(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged

def after_the_exit(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    n = n * M
    _after_the_exit(x, B, n)

def in_one_function(x):
    B, n, M = x.shape
    assert n <= 1024
    n = n * M
    k[(n, B)](x, n, BT=64)  # flagged

def _rebound_inside(x, B, n, BT=64):
    n = n * x.shape[2]
    k[(n, B)](x, n, BT=BT)  # flagged: the launching function multiplies what its caller bounds

def rebound_inside(x):
    B, n = x.shape[:2]
    if n > 1024:
        raise ValueError
    _rebound_inside(x, B, n)

def doubled(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    n = 2 * n
    k[(n, B)](x, n, BT=64)

def multiplied_in_place(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    n *= M
    k[(n, B)](x, n, BT=64)  # flagged

def multiplied_in_an_arm(x, big):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    if big:
        n = n * M
    k[(n, B)](x, n, BT=64)  # flagged

def multiplied_in_the_test(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    if (n := n * M) > 0:
        k[(n, B)](x, n, BT=64)  # flagged

def multiplied_after_each_launch(x, steps):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    for _ in range(steps):
        k[(n, B)](x, n, BT=64)  # flagged: the next trip launches `n * M`
        n = n * M

def _multiplied_inside(x, B, n, BT=64):
    n *= x.shape[2]
    k[(n, B)](x, n, BT=BT)  # flagged

def multiplied_inside(x):
    B, n = x.shape[:2]
    if n > 1024:
        raise ValueError
    _multiplied_inside(x, B, n)

def _as_int(x, B, n, BT=64):
    n = int(n)
    k[(n, B)](x, n, BT=BT)

def as_int(x):
    B, n = x.shape[:2]
    if n > 1024:
        raise ValueError
    _as_int(x, B, n)

def halved_in_place(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    n //= 2
    k[(n, B)](x, n, BT=64)

def halved_after_each_launch(x, steps):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    for _ in range(steps):
        k[(n, B)](x, n, BT=64)
        n = n // 2

def shifted_in_the_test(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    if (n := n >> 1) > 0:
        k[(n, B)](x, n, BT=64)

def capped_in_an_arm(x, small):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    if small:
        n = min(n, M)
    k[(n, B)](x, n, BT=64)

def counted_down(x, steps):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    for _ in range(steps):
        k[(n, B)](x, n, BT=64)
        n -= 1

def counted_up(x, steps):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    for _ in range(steps):
        k[(n, B)](x, n, BT=64)  # flagged: subtracting a negative adds
        n -= -1

def doubled_after_each_launch(x, steps):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    for _ in range(steps):
        k[(n, B)](x, n, BT=64)  # flagged: the next trip launches `2 * n`
        n = 2 * n

def copied_before(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    m = n
    n = n * M
    k[(m, B)](x, m, BT=64)

def copied_after(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    n = n * M
    m = n
    k[(m, B)](x, m, BT=64)  # flagged: `m` copies the product

def multiplied_copy(x):
    B, n, M = x.shape
    if n > 1024:
        raise ValueError
    m = n * M
    n = 1
    k[(m, B)](x, m, BT=64)  # flagged

def rebound_before(x):
    B, n, M = x.shape
    n = n * M
    if n > 1024:
        raise ValueError
    k[(n, B)](x, n, BT=64)

def loop_target_after(x, y):
    B, n = x.shape
    assert n <= 1024
    for n, _ in [y.shape]:
        pass
    k[(n, B)](x, n, BT=64)  # flagged: the loop rebinds `n`

def extent_then_loop_target(x, y):
    B, n = x.shape
    if x.shape[1] > 1024:
        raise ValueError
    for n, _ in [y.shape]:
        pass
    k[(n, B)](x, n, BT=64)  # flagged: the test read `x.shape[1]`, not what the loop binds

def entered_as(x, ctx):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    with ctx(x) as n:
        k[(n, B)](x, n, BT=64)  # flagged: the `with` rebinds `n`

def tensor_looped(x, ys):
    B = x.shape[1]
    if x.shape[0] > 1024:
        raise ValueError
    for x in ys:
        pass
    k[(x.shape[0], B)](x, 1, BT=64)  # flagged: `x` is another tensor

def tensor_entered(x, ctx):
    B = x.shape[1]
    if x.shape[0] > 1024:
        raise ValueError
    with ctx() as x:
        k[(x.shape[0], B)](x, 1, BT=64)  # flagged

def grid_rebound_before_the_test(x):
    B = x.shape[1]
    grid = (x.shape[0], B)
    B = x.shape[2]
    assert B <= 16  # bounds the new `B`, not the grid's: a known miss (`_size_guard`)
    k[grid](x, 1, BT=64)

def grid_tested(x):
    B = x.shape[1]
    grid = (x.shape[0], B)
    assert B <= 16
    k[grid](x, 1, BT=64)

def grid_item_tested_then_a_name_rebound(x):
    B, T = x.shape
    grid = (B * T,)
    assert grid[0] <= 65535  # the tuple's item is what the launch gets, whatever `T` holds later
    T = T - 1
    k[grid](x, T, BT=64)

def grid_tested_before_an_exit_then_a_name_rebound(x):
    B, T = x.shape
    grid = (B * T,)
    if grid[0] >= 65536:
        return
    T = T - 1
    k[grid](x, T, BT=64)
"""

# a launching function the module reads other than by calling it (a table of ops, a callback)
# may be called with anything: its callers' tests bound nothing
ESCAPING = """
def _in_a_table(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged

def tabled(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _in_a_table(x, B, n)

OPS = {"launch": _in_a_table}

def _passed_on(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged

def passes(x, register):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _passed_on(x, B, n)
    register(_passed_on)

def _only_called(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)

def calls(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _only_called(x, B, n)

def register(fn):
    return fn

@register
def _registered(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged

def registers(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _registered(x, B, n)

@torch.library.custom_op("ops::launch", mutates_args=())
def _custom_op(x: torch.Tensor, B: int, n: int) -> None:
    k[(n, B)](x, n, BT=64)  # flagged

def custom(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _custom_op(x, B, n)

def _exported(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)  # flagged

def exports(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _exported(x, B, n)

__all__ = ["_exported", "exports"]
"""

# reading an attribute of the launching function's name, comparing it or asking `callable` of
# it hands the function to no one: its callers' tests still bound its sizes
HANDED_TO_NOBODY = """
def _named(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)

def named(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _named(x, B, n)
    print(_named.__name__)

def _documented(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)

def documented(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _documented(x, B, n)

_documented.__doc__ = "launch k"

def _compared(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)

def compared(x, f):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    _compared(x, B, n)
    return f is _compared

def _checked(x, B, n, BT=64):
    k[(n, B)](x, n, BT=BT)

def checked_callable(x):
    B, n = x.shape
    if n > 1024:
        raise ValueError
    assert callable(_checked)
    _checked(x, B, n)
"""


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(SHRINKING, id="divisors-bound-nothing"),
        pytest.param(REBOUND, id="bounds-of-names-rebound-after-the-test"),
        pytest.param(ESCAPING, id="callers-of-an-escaping-function-bound-nothing"),
        pytest.param(HANDED_TO_NOBODY, id="callers-of-a-function-only-inspected-bound-it"),
        pytest.param(CALLERS, id="bounds-tested-in-callers"),
        pytest.param(CHECKS, id="torch-check-and-else-exits"),
        pytest.param(FLOORS, id="floors-cap-nothing"),
        pytest.param(MANAGERS, id="class-context-managers"),
    ],
)
def test_asc010_reads_guards_floors_and_switches_as_host_code_writes_them(lint, body: str) -> None:
    source = HEADER + "import math\n" + body
    expected = [row for row, line in enumerate(source.splitlines(), 1) if "# flagged" in line]
    found = sorted(f.location.row for f in lint(source, select=["ASC010"]))
    assert found == expected, "\n".join(
        f"{row}: {source.splitlines()[row - 1]}" for row in sorted(set(found) ^ set(expected))
    )


def test_asc010_reports_a_returned_launcher_at_the_call_passing_large_sizes(lint) -> None:
    """A launcher a function returns (`def _launcher(n, B): return k[(n, B)]`) is checked at each
    call making one (a call passing small sizes hides no later one), and the finding relates
    the call whose sizes grow."""
    source = (
        HEADER
        + """
def _launcher(n, B):
    return k[(n, B)]

def small(x, BT=64):
    B, n = x.shape
    _launcher(64, 8)(x, n, BT=BT)

def large(x, BT=64):
    B, n = x.shape
    _launcher(n, B)(x, n, BT=BT)
"""
    )
    rows = source.splitlines()
    (finding,) = lint(source, select=["ASC010"])
    assert rows[finding.location.row - 1].strip() == "return k[(n, B)]"
    [related] = finding.related
    assert rows[related.location.row - 1].strip() == "_launcher(n, B)(x, n, BT=BT)"
