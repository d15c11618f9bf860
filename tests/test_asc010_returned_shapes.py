"""ASC010 reads a shape a helper of the module returns as the inline unpacking reads it (`b, h, d =
_check(x)` with `return x.shape`, `tuple(x.shape)`, `x.size()`, a slice, or a name bound to a tuple
or a shape), and a test of the passed tensor's extents, in the helper before it returns (also
through its own names: `b, h, d = x.shape`, `assert b * h <= 4096`, or a shape tuple pinned by `if
shape not in SUPPORTED: raise`) or in the caller, bounds it as it bounds `b, h, d = x.shape`. Each snippet marks the launches that must be
reported with `# flagged`; every other launch must stay silent."""

from __future__ import annotations

import textwrap

import pytest

HEADER = textwrap.dedent(
    """
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def k(x, D: tl.constexpr):
        i = tl.program_id(0) * tl.num_programs(1) + tl.program_id(1)
        tl.store(x + i * D + tl.arange(0, D), 0.0)
    """
)

RETURNED = """
def _shape(x):
    assert x.is_contiguous()
    return x.shape

def _copied(x):
    return tuple(x.shape)

def _listed(x):
    return list(x.shape)

def _sized(x):
    return x.size()

def _sliced(x):
    return x.shape[:3]

def _named(x):
    b, h, d = x.shape
    shape = (b, h, d)
    return shape

def _bare(x):
    b, h, d = x.shape
    out = b, h, d
    return out

def _held(x):
    s = x.shape
    return s

def shape(x):
    b, h, d = _shape(x)
    k[(b, h)](x, D=d)  # flagged

def copied(x):
    b, h, d = _copied(x)
    k[(b, h)](x, D=d)  # flagged

def listed(x):
    b, h, d = _listed(x)
    k[(b, h)](x, D=d)  # flagged

def sized(x):
    b, h, d = _sized(x)
    k[(b, h)](x, D=d)  # flagged

def sliced(x):
    b, h, d = _sliced(x)
    k[(b, h)](x, D=d)  # flagged

def named(x):
    b, h, d = _named(x)
    k[(b, h)](x, D=d)  # flagged

def bare(x):
    b, h, d = _bare(x)
    k[(b, h)](x, D=d)  # flagged

def held(x):
    b, h, d = _held(x)
    k[(b, h)](x, D=d)  # flagged

def indexed(x):
    k[(_shape(x)[0], _shape(x)[1])](x, D=64)  # flagged
"""

GUARDED = """
def _pinned(x):
    if x.shape[0] not in (1, 2):
        raise ValueError("batch 1 or 2")
    return x.shape

def _capped(x):
    assert x.shape[0] * x.shape[1] <= 4096
    return tuple(x.shape)

def _unguarded(x):
    return x.shape

def _local(x):
    b, h, d = x.shape
    assert b * h <= 4096
    return b, h, d

SHAPE_1 = (1, 8, 128)
SHAPE_2 = (2, 16, 256)
SUPPORTED = (SHAPE_1, SHAPE_2)

def _supported(x):
    b, h, d = x.shape
    shape = (b, h, d)
    if shape not in SUPPORTED:
        raise ValueError("unsupported shape")
    return shape

def _unsupported(x):
    b, h, d = x.shape
    shape = (b, h, d)
    if shape not in (SHAPE_1, (b, h, 256)):
        raise ValueError("unsupported shape")
    return shape

def pinned(x):
    b, h, d = _pinned(x)
    k[(b, h)](x, D=d)

def capped(x):
    b, h, d = _capped(x)
    k[(b, h)](x, D=d)

def in_caller(y):
    if y.shape[1] > 1024:
        raise ValueError("too many heads")
    b, h, d = _unguarded(y)
    k[(b, h)](y, D=d)

def local(x):
    b, h, d = _local(x)
    k[(b, h)](x, D=d)

def supported(x):
    b, h, d = _supported(x)
    k[(b, h)](x, D=d)

def supported_inline(x):
    b, h, d = x.shape
    shape = (b, h, d)
    if shape not in SUPPORTED:
        raise ValueError("unsupported shape")
    k[(b, h)](x, D=d)

def one_row_unbounded(x):
    b, h, d = _unsupported(x)
    k[(b, h)](x, D=d)  # flagged: `b` and `h` may be any size

def other_extent(y):
    if y.shape[2] > 1024:
        raise ValueError("head dim")
    b, h, d = _unguarded(y)
    k[(b, h)](y, D=d)  # flagged: the test bounds `d`, not the grid
"""


@pytest.mark.parametrize("body", [RETURNED, GUARDED], ids=["returned", "guarded"])
def test_asc010_reads_a_shape_a_helper_returns(lint, body: str) -> None:
    source = HEADER + body
    expected = [row for row, line in enumerate(source.splitlines(), start=1) if "# flagged" in line]
    found = sorted(f.location.row for f in lint(source, select=["ASC010"]))
    assert found == expected, "\n".join(
        f"{row}: {source.splitlines()[row - 1]}" for row in sorted(set(found) ^ set(expected))
    )
