"""A launch's grid read from a dict (`kernel[cfg["grid"]](...)` with `cfg = {"grid": (n,)}`,
`dict(grid=...)`, an item stored into it) is the entry the dict gives that key
(`HostIndex.grids`, through `dict_sources`): ASC009 reads its axes as any grid's."""

from __future__ import annotations

import pytest
from conftest import snippet_source

KERNEL = """
import triton
import triton.language as tl


@triton.jit
def norm_kernel(x, y, n, BD: tl.constexpr):
    tl.store(y + tl.arange(0, BD), tl.load(x + tl.arange(0, BD)) * 2.0)


def run(x, y, n):
    cores = triton.runtime.driver.active.utils.get_device_properties(0)["{key}"]
    {bind}
    norm_kernel[cfg["grid"]](x, y, n, BD=64)
"""


@pytest.mark.parametrize(
    "bind",
    [
        'cfg = {"grid": (cores,), "BD": 64}',
        "cfg = dict(grid=(cores, 1), BD=64)",
        'cfg = {}\n    cfg["grid"] = (cores,)',
    ],
)
def test_a_grid_in_a_dict_entry_is_read(lint, bind: str) -> None:
    source, offset = snippet_source(KERNEL.format(key="num_aicore", bind=bind))
    [finding] = lint(source, select=["ASC009"])
    assert finding.location.row - offset == KERNEL.count("\n") - 1 + bind.count("\n")


def test_the_vector_count_in_a_dict_entry_is_not_reported(lint) -> None:
    source, _ = snippet_source(KERNEL.format(key="num_vectorcore", bind='cfg = {"grid": (cores,)}'))
    assert lint(source, select=["ASC009"]) == []


@pytest.mark.parametrize(
    ("bind", "found"),
    [
        ('cfg = {"grid": (cores,)}\n    cfg["grid"] = (vectors,)', False),
        ('cfg = {"grid": (vectors,)}\n    cfg["grid"] = (cores,)', True),
        ('cfg = {"grid": (cores,)}\n    cfg["BD"] = 64', True),
        ('cfg = {"grid": (cores,)}\n    cfg.update(grid=(vectors,))', False),
        ('cfg = {"grid": (cores,)}\n    cfg.setdefault("grid", (vectors,))', False),
        ('cfg = {**extra, "grid": (cores,)}', False),
        # the path with `n <= 4` keeps `(cores,)`, as a name bound so does (each arm's entry)
        ('cfg = {"grid": (cores,)}\n    if n > 4:\n        cfg["grid"] = (vectors,)', True),
        ('cfg = {"grid": (vectors,)}\n    if n > 4:\n        cfg["grid"] = (vectors,)', False),
        ('cfg = {"grid": (vectors,)}\n    for _ in range(n):\n        cfg["grid"] = (cores,)', False),
    ],
)
def test_the_entry_written_last_before_the_launch_is_read(lint, bind: str, found: bool) -> None:
    """Only the entry written last before the launch in straight-line code is the grid, or after
    an `if` the entry each path through it leaves; a change that may give it another value there
    (`update`, `setdefault`, a splat, a store in a loop) leaves it unknown."""
    body = KERNEL.replace("(x, y, n):", "(x, y, n, extra=None):").replace(
        '["{key}"]',
        '["num_aicore"]\n    vectors = triton.runtime.driver.active.utils.get_device_properties(0)["num_vectorcore"]',
    )
    source, _ = snippet_source(body.format(bind=bind))
    assert bool(lint(source, select=["ASC009"])) is found


ROWS = """
import triton
import triton.language as tl


@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)


def run(x):
    B, n = x.shape
    {bind}
    k[cfg["grid"]](x, n, BT=64)
"""


@pytest.mark.parametrize(
    ("bind", "found"),
    [
        ('cfg = {"grid": (n, B)}\n    cfg["grid"] = (1024,)', False),
        ('cfg = {"grid": (1024,)}\n    cfg["grid"] = (n, B)', True),
    ],
)
def test_asc010_reads_the_grid_entry_written_last(lint, bind: str, found: bool) -> None:
    source, _ = snippet_source(ROWS.format(bind=bind))
    assert bool(lint(source, select=["ASC010"])) is found
