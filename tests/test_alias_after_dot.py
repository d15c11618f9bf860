"""ASC003: a name the clobbered tile is bound to after the dot (probe 13's `m_alias_after`,
`z_swap`, `f_elif_test`) is read where its reads are. The binding reads no data, so it is no
finding: one per read of the name, at the read (`Flow.tile_reads_after`), none when the name is
never read or rebound first."""

from __future__ import annotations

import pytest
from conftest import lint_and_fix, snippet_source

KERNEL = """
@triton.jit
def k(p_a, p_b, p_o, n, T: tl.constexpr):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = tl.dot(b_a, b_b)
    tl.store(p_o, b_o)
    {body}
"""


@pytest.mark.parametrize(
    ("body", "reads"),
    [
        # m_alias_after: the alias's read, not its binding
        ("b_keep = b_a\n    tl.store(p_o, b_keep)", [(8, 19, "b_keep")]),
        # z_swap: `b_b` holds the clobbered tile after the swap, `b_a` the intact one
        ("b_a, b_b = b_b, b_a\n    tl.store(p_o, b_b)\n    tl.store(p_o, b_a)", [(8, 19, "b_b")]),
        # f_elif_test: the name `:=` binds in a test compared with `is not None`
        (
            "if n > 0:\n        tl.store(p_o, b_b)\n    elif (b_t := b_a) is not None:\n        tl.store(p_o, b_t)",
            [(10, 23, "b_t")],
        ),
        # chained, bound to two names at once, bound to itself, swapped back
        ("b_x = b_a\n    b_y = b_x\n    tl.store(p_o, b_y)", [(9, 19, "b_y")]),
        ("b_x = b_y = b_a\n    tl.store(p_o, b_x + b_y)", [(8, 19, "b_x"), (8, 25, "b_y")]),
        ("b_a = b_a\n    tl.store(p_o, b_a)", [(8, 19, "b_a")]),
        ("b_a, b_b = b_b, b_a\n    b_a, b_b = b_b, b_a\n    tl.store(p_o, b_a + b_b)", [(9, 19, "b_a")]),
        # bound on one path of a runtime `if`, read after it; read in a loop; as a dot's left operand
        ("if n > 0:\n        b_x = b_a\n    else:\n        b_x = b_b\n    tl.store(p_o, b_x)", [(11, 19, "b_x")]),
        ("b_x = b_a\n    for i in range(n):\n        tl.store(p_o + i, b_x)", [(9, 27, "b_x")]),
        ("b_x = b_a\n    tl.store(p_o, tl.dot(b_x, b_b))", [(8, 26, "b_x")]),
        # a choice on a constexpr is the clobbered tile where `T` holds
        (
            "b_x = b_a if T else b_b\n    if T:\n        tl.store(p_o, b_x)\n    else:\n        tl.store(p_o, b_x)",
            [(9, 23, "b_x")],
        ),
        # unpacked from a tuple or list written out, also from a choice between two on a constexpr
        ("[b_x, b_y] = [b_b, b_a]\n    tl.store(p_o, b_x)\n    tl.store(p_o, b_y)", [(9, 19, "b_y")]),
        (
            "b_x, b_y = (b_a, b_b) if T else (b_b, b_a)\n    tl.store(p_o, b_x)\n    tl.store(p_o, b_y)",
            [(8, 19, "b_x"), (9, 19, "b_y")],
        ),
        ("b_x = (b_y := b_a)\n    tl.store(p_o, b_x + b_y)", [(8, 19, "b_x"), (8, 25, "b_y")]),
        # a starred target collects the tile with the items beside it: its reads are the reads
        ("b_x, *rest = b_b, b_a, b_a\n    tl.store(p_o, b_x + rest[0])", [(8, 25, "rest")]),
        ("*rest, b_x = b_a, b_b\n    tl.store(p_o, b_x)\n    tl.store(p_o, rest[0])", [(9, 19, "rest")]),
        ("b_x, *rest, b_y = b_b, b_a\n    tl.store(p_o, b_y)", [(8, 19, "b_y")]),
        # a tuple kept whole holds the tile: building it is the read
        ("t = (b_a, b_b)\n    tl.store(p_o, t[1])", [(7, 10, "b_a")]),
        # the value `:=` binds is also read by the addition: both are reads
        ("tl.store(p_o, b_o + (b_x := b_a))\n    tl.store(p_o, b_x)", [(7, 33, "b_a"), (8, 19, "b_x")]),
        # never read, rebound before its read, only its metadata read; `is not None` reads no data
        ("b_x = b_a", []),
        ("b_x, *rest = b_b, b_a, b_a\n    tl.store(p_o, b_x)", []),
        ("b_x = b_a\n    b_x = tl.load(p_b)\n    tl.store(p_o, b_x)", []),
        ("b_x = b_a\n    tl.store(p_o, b_o.to(b_x.dtype))", []),
        ("if b_a is not None:\n        tl.store(p_o, b_b)", []),
    ],
)
def test_a_name_bound_after_the_dot_is_reported_at_its_reads(
    lint, body: str, reads: list[tuple[int, int, str]]
) -> None:
    source, offset = snippet_source(KERNEL.format(body=body))
    findings = lint(source, select=["ASC003"])
    assert [(f.location.row - offset, f.location.column, f.message.split("`")[1]) for f in findings] == reads
    for finding in findings:
        assert finding.related[0].location.row - offset == 5


def test_an_alias_bound_after_the_dot_in_a_loop_is_carried_into_the_next_trip(lint) -> None:
    """Bound at the end of a trip and read at the start of the next, the alias holds the tile
    that trip's dot clobbered: a loop-carried clobber, reported at the dot."""
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_o, n):
    b_b = tl.load(p_b)
    b_prev = tl.zeros((16, 16), dtype=tl.float16)
    for i in range(n):
        tl.store(p_o + i, b_prev)
        b_a = tl.load(p_a + i)
        b_o = tl.dot(b_a, b_b)
        b_prev = b_a
        tl.store(p_o, b_o)
"""
    )
    (finding,) = lint(source, select=["ASC003"])
    assert finding.location.row - offset == 8
    assert "its alias `b_prev` (not a copy) is read on the next trip" in finding.message
    assert [r.location.row - offset for r in finding.related] == [6]


def test_a_name_bound_on_each_trip_from_the_clobbered_tile_names_the_carrier(lint) -> None:
    """`y = x` at the top of each trip binds the tile the previous trip's dot clobbered: the
    binding reads nothing, the dot reads it through `y`, and the message names `x`, which
    carries it into the next trip."""
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_o, n):
    x = tl.load(p_a)
    b = tl.load(p_b)
    acc = tl.zeros((16, 16), dtype=tl.float32)
    for i in range(n):
        y = x
        acc = tl.dot(y, b, acc)
    tl.store(p_o, acc)
"""
    )
    (finding,) = lint(source, select=["ASC003"])
    assert finding.location.row - offset == 8
    assert "`y` is the left operand of this `tl.dot` in a loop and its alias `x` (not a copy)" in finding.message
    assert [(r.location.row - offset, r.location.column) for r in finding.related] == [(7, 13)]


def test_tiles_swapped_in_a_loop_read_the_clobbered_one_at_the_dot(lint) -> None:
    """`a, b = b, a` after the dot: the next trip's dot reads the clobbered tile as its right
    operand (then its left): one loop-carried finding at the dot, none at the swap."""
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_o, n):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    acc = tl.zeros((16, 16), dtype=tl.float32)
    for i in range(n):
        acc = tl.dot(b_a, b_b, acc)
        b_a, b_b = b_b, b_a
    tl.store(p_o, acc)
"""
    )
    (finding,) = lint(source, select=["ASC003"])
    assert (finding.location.row - offset, finding.facts) == (7, {"tile": "b_a", "loop_carried": True})


@pytest.mark.parametrize("test", ["if tl.sum(b_a) > 0:", "if n > 0:\n        pass\n    elif tl.sum(b_a) > 0:"])
def test_a_read_in_an_if_test_gets_the_copy(test: str) -> None:
    """A read of the clobbered tile in an `if` or `elif` test is rewritten to the copy (it
    stopped the linter with a TypeError)."""
    source, _ = snippet_source(KERNEL.format(body=f"{test}\n        tl.store(p_o, b_b)"))
    (finding,), fixed = lint_and_fix(source, "snippet.py", unsafe=True, select=["ASC003"])
    assert finding.message.startswith("`b_a` is read after it was the left operand")
    assert fixed is not None
    assert "    b_a_c = (b_a + 0.0).to(b_a.dtype)\n    b_o = tl.dot(b_a, b_b)\n" in fixed
    assert test.replace("b_a", "b_a_c") in fixed


HELPERS = """
@triton.jit
def ident(x):
    return x


@triton.jit
def copied(x):
    x = x + 0.0
    return x
"""


@pytest.mark.parametrize(
    ("body", "reads"),
    [
        # bound after the dot through a device function returning its parameter: reads of `b_y`
        ("b_y = ident(b_a)\n    tl.store(p_o, b_y)", [(8, 19, "b_y")]),
        ("b_y = ident(x=b_a)\n    tl.store(p_o, ident(b_y) + 1.0)", [(8, 25, "b_y")]),
        ("b_y = ident(b_a)", []),
        # a function returning a copy it makes reads the tile: the argument is the read
        ("b_y = copied(b_a)\n    tl.store(p_o, b_y)", [(7, 18, "b_a")]),
    ],
)
def test_a_device_function_returning_its_parameter_binds_the_tile_as_it_is(
    lint, body: str, reads: list[tuple[int, int, str]]
) -> None:
    """`b_y = ident(b_a)` is `b_y = b_a` once Triton inlines `ident` (asc003a's open case)."""
    source, _ = snippet_source(HELPERS + KERNEL.format(body=body))
    offset = source.splitlines().index("def k(p_a, p_b, p_o, n, T: tl.constexpr):") - 1
    findings = lint(source, select=["ASC003"])
    assert [(f.location.row - offset, f.location.column, f.message.split("`")[1]) for f in findings] == reads


def test_a_name_a_device_function_returns_the_tile_to_before_the_dot_is_an_alias(lint) -> None:
    """`b_y = ident(b_a)` before `tl.dot(b_a, ...)`: `b_y` is the tile the dot clobbers."""
    kernel = KERNEL.format(body="tl.store(p_o, b_o + b_y)").replace(
        "b_o = tl.dot", "b_y = ident(b_a)\n    b_o = tl.dot"
    )
    source, _ = snippet_source(HELPERS + kernel)
    (finding,) = lint(source, select=["ASC003"])
    assert source.splitlines()[finding.location.row - 1].strip() == "tl.store(p_o, b_o + b_y)"
    assert finding.message.startswith("`b_y` is read after `b_a`") and finding.fix is not None
