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
