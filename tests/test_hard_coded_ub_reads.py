"""ASC012 reads the value reaching the uses and what `ub` means: a default a later device query
may replace before any read is the query's fallback; `ub` beside a lower bound, after what it
bounds, or holding no whole number of UB blocks is an upper bound; a capacity written in a
module constant's KiB, as a float, or with a size word fused to `ub` is one."""

from __future__ import annotations

import textwrap

import pytest
from conftest import settings

from ascend_lint.engine import lint_source


def _values(source: str) -> list[object]:
    found = lint_source(textwrap.dedent(source), "ub.py", settings(select=["ASC012"])).findings
    return [f.facts["value"] for f in found]


@pytest.mark.parametrize(
    "source",
    [
        # a default, then a query under a test
        """
        UB_SIZE = 196608
        if HAS_TBE:
            UB_SIZE = get_soc_spec("UB_SIZE")
        """,
        # a default, then a query that may raise, a function defined in between
        """
        def ub_bytes():
            ub = 192 * 1024

            def unused():
                return ub

            try:
                ub = int(get_soc_spec("UB_SIZE"))
            except Exception:
                pass
            return ub
        """,
        # a default one arm sets, then the query after the `if`
        """
        if IS_950:
            UB_SIZE = 253952
        else:
            UB_SIZE = 196608
        try:
            from npu_info import UB_SIZE
        except ImportError:
            pass
        """,
    ],
)
def test_a_default_a_later_query_replaces_is_its_fallback(source: str) -> None:
    assert _values(source) == []


@pytest.mark.parametrize(
    ("source", "values"),
    [
        # read before the query replaces it
        (
            """
            UB_SIZE = 196608
            ROWS = UB_SIZE // 4096
            if HAS_TBE:
                UB_SIZE = get_soc_spec("UB_SIZE")
            """,
            [196608],
        ),
        # replaced by a statement reading it: a cap, a halving
        (
            """
            def pick(n):
                ub = 192 * 1024
                if ub > n:
                    ub = n
                return ub
            """,
            [196608],
        ),
        # replaced only by another number: each is a capacity
        (
            """
            UB_SIZE = 196608
            if IS_950:
                UB_SIZE = 253952
            """,
            [196608, 253952],
        ),
    ],
)
def test_a_default_read_first_or_replaced_by_a_number_is_a_capacity(source: str, values: list[int]) -> None:
    assert sorted(_values(source), key=repr) == values


@pytest.mark.parametrize(
    "source",
    [
        "lb, ub = 0, 1 << 18",
        "x_lb, x_ub = 0, 65536",
        "lo, ub = 16, 1 << 16",
        "def f(t):\n    lb = 0\n    ub = 131072  # largest T we test\n    return range(lb, ub)",
        "def f(x, lb=0, ub=65536):\n    return x",
        "def f(x):\n    return search(x, low=0, ub=65536)",
        "SEQ_UB = 65536",
        "T_UB = 32768",
        "idx_ub = 131072",
        "GRID_UB = 65535",
        "UB_SIZE = 196607",
    ],
)
def test_ub_as_an_upper_bound_is_no_capacity(source: str) -> None:
    assert _values(source) == []


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("KiB = 1024\nUB_SIZE = 192 * KiB", 196608),
        ("from typing import Final\nKB: Final = 1 << 10\nUB_BYTES_950 = 248 * KB", 253952),
        ("_KB = 1024\n\ndef ub_bytes():\n    return 192 * _KB", 196608),
        ("UBSIZE = 196608", 196608),
        ("ubbytes = 196608", 196608),
        ("UB_FLOAT = 192.0 * 1024", 196608),
        ("SOC_UB = 196608", 196608),
        ("ub = 196608\nlbl = 0", 196608),
        # a lambda returns its number as a `def` does; `|`, `&`, `^` fold as `<<` does
        ("get_ub_size = lambda: 196608", 196608),
        ("def plan(n):\n    get_ub_size = lambda: 192 * 1024\n    return n", 196608),
        ("KiB = 1024\nub_bytes = lambda soc=None: 192 * KiB", 196608),
        # also one in a class body, stored as an attribute, or a parameter's default
        ("class Plat:\n    get_ub_size = lambda self: 196608", 196608),
        ("class Plat:\n    def __init__(self):\n        self.ub_capacity = lambda: 196608", 196608),
        ("def tile(n, get_ub_size=lambda: 196608):\n    return get_ub_size() // n", 196608),
        ("UB_SIZE = 1 << 17 | 1 << 16", 196608),
        ("UB_BYTES = 0x3FFFF & 0x30000", 196608),
        ("UB_BYTES = 0x30000 ^ 0", 196608),
    ],
)
def test_a_capacity_in_a_unit_constant_a_float_or_a_fused_name_is_flagged(source: str, value: int) -> None:
    assert _values(source) == [value]
