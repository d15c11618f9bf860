"""A name a launching function binds more than once holds, at a launch, the value of the one
binding reaching it in straight-line code (`bindings.binding_reaching`, read by
`HostIndex.origins`): ASC009 judges the core count that reaches the grid, not the first the
function assigns, and ASC010 sizes the value that reaches it. Module-level names keep the
"every value" rule of `_global_core_count`. A key named by a constant (`props[KEY]` with `KEY =
"num_aicore"`) is that string (`HostIndex._key_named`)."""

from __future__ import annotations

import pytest
from conftest import snippet_source

KERNELS = """
import triton
import triton.language as tl


@triton.jit
def mm_kernel(a, b, c, BM: tl.constexpr):
    o = tl.arange(0, BM)
    tile = tl.dot(tl.load(a + o[:, None] * BM + o[None, :]), tl.load(b + o[:, None] * BM + o[None, :]))
    tl.store(c + o[:, None] * BM + o[None, :], tile)


@triton.jit
def vec_kernel(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)
"""


def rows(lint, code: str, rule: str = "ASC009") -> list[int]:
    """The rows of the rule's findings for `code` written after the kernels, counted from its
    first line (after the blank one it starts with) as 1."""
    source, offset = snippet_source(KERNELS + code)
    first = offset + KERNELS.count("\n")
    return sorted(f.location.row - first for f in lint(source, select=[rule]))


def test_the_count_a_name_is_rebound_to_before_the_launch_decides(lint) -> None:
    """The cube count feeds the matmul, then the name is rebound to the vector count for the
    vector kernel: only the second value reaches the second launch."""
    code = """
def run(a, b, c, x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    num_core = props["num_aicore"]
    mm_kernel[(num_core,)](a, b, c, BM=16)
    num_core = props["num_vectorcore"]
    vec_kernel[(num_core,)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == []


@pytest.mark.parametrize("later", ["40", "x.shape[0]", 'props["num_vectorcore"]'])
def test_a_count_overwritten_before_the_launch_is_not_its_grid(lint, later: str) -> None:
    code = f"""
def run(x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    cores = props["num_aicore"]
    cores = {later}
    grid = (cores,)
    vec_kernel[grid](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == []


def test_the_cube_count_rebound_after_the_vector_count_is_reported(lint) -> None:
    """The vector count read first no longer hides the cube count reaching the later launch."""
    code = """
def run(x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    cores = props["num_vectorcore"]
    vec_kernel[(cores,)](x, y, x.numel(), BLOCK=1024)
    cores = props["num_aicore"]
    vec_kernel[(cores,)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == [6]


@pytest.mark.parametrize(
    "rebinding",
    [
        "    if x.numel() < 4096:\n        cores = 8",  # may run or not: either value may reach
        "    cores = min(cores, x.shape[0])",  # an update reads the count that reached it
        "    for cores in (cores,):\n        pass",  # a loop target: no plain binding
    ],
)
def test_a_binding_that_may_keep_the_count_still_reports(lint, rebinding: str) -> None:
    code = f"""
def run(x, y):
    cores = triton.runtime.driver.active.utils.get_device_properties(0)["num_aicore"]
{rebinding}
    vec_kernel[(cores,)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == [4 + rebinding.count("\n")]


@pytest.mark.parametrize(
    "choice",
    [
        # the vector count in the first arm, the cube count in the other
        '    if x.numel() > 4096:\n        cores = props["num_vectorcore"]\n    else:\n        cores = props["num_aicore"]',
        '    cores = props["num_vectorcore"] if x.numel() > 4096 else props["num_aicore"]',
    ],
)
def test_the_cube_count_of_either_arm_reports_whatever_the_order(lint, choice: str) -> None:
    """Several bindings may reach the launch: any of them may be the count, so the cube count
    reports whichever arm gives it."""
    code = f"""
def run(x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
{choice}
    vec_kernel[(cores,)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == [4 + choice.count("\n")]


def test_the_cube_count_bound_later_in_a_loop_reaches_the_next_trip(lint) -> None:
    code = """
def run(x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    cores = props["num_vectorcore"]
    for _ in range(3):
        vec_kernel[(cores,)](x, y, x.numel(), BLOCK=1024)
        cores = props["num_aicore"]
"""
    assert rows(lint, code) == [5]


def test_a_module_level_count_keeps_every_value(lint) -> None:
    """A module-level name read in a function is not followed by the function's flow."""
    code = """
CORES = triton.runtime.driver.active.utils.get_device_properties(0)["num_aicore"]

def run(x, y):
    vec_kernel[(CORES,)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == [4]


def test_a_grid_sized_after_the_count_is_rebound_is_sized(lint) -> None:
    """ASC010 reads the same origins: the core count no longer bounds a grid whose name was
    rebound to a size before the launch."""
    code = """
def run(x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    blocks = props["num_aicore"]
    vec_kernel[(blocks,)](x, y, x.numel(), BLOCK=1024)
    blocks = x.shape[0] * x.shape[1]
    vec_kernel[(blocks,)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code, "ASC010") == [6]


@pytest.mark.parametrize(
    ("binding", "read"),
    [
        ('KEY = "num_aicore"', "props[KEY]"),
        ('KEY = "num_aicore"', "props.get(KEY)"),
        ('CUBE, VECTOR = "num_aicore", "num_vectorcore"', "props[CUBE]"),
    ],
)
def test_a_key_named_by_a_module_constant(lint, binding: str, read: str) -> None:
    code = f"""
{binding}

def run(x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    vec_kernel[({read},)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == [5]


@pytest.mark.parametrize(
    "binding",
    [
        'KEY = "num_vectorcore"',
        'KEY = "num_aicore"\nKEY = "num_vectorcore"',  # bound twice at module level: not one key
        'KEY = "num_aicore"\n\ndef use_vector():\n    global KEY\n    KEY = "num_vectorcore"',
    ],
)
def test_a_key_name_that_may_be_another_count_is_not_the_cube_count(lint, binding: str) -> None:
    code = f"""
{binding}

def run(x, y, KEY="num_vectorcore"):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    vec_kernel[(props[KEY],)](x, y, x.numel(), BLOCK=1024)

def run_module_key(x, y):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    vec_kernel[(props[KEY],)](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == []


@pytest.mark.parametrize(
    ("axes", "found"),
    [
        ("cores, H", []),  # a head count: H programs per AI core
        ("cores, x.shape[0]", []),
        ("cores, heads", []),  # a parameter: as many programs per AI core
        ("cores, 1", [5]),
        ("ONE, cores", [5]),  # a name bound to 1 is 1
        ("cores, 2", []),
    ],
)
def test_other_axes_launch_one_program_per_ai_core_only_when_known_to_be_1(lint, axes: str, found: list[int]) -> None:
    code = f"""
def run(x, y, heads):
    cores = triton.runtime.driver.active.utils.get_device_properties(x.device)["num_aicore"]
    B, H = x.shape
    ONE = 1
    vec_kernel[({axes})](x, y, x.numel(), BLOCK=1024)
"""
    assert rows(lint, code) == found


@pytest.mark.parametrize(
    ("loop", "reported"),
    [
        ("for m in (1, 2):", True),  # the first trip launches `(cores, 1)`
        ("for m in (2, 1):", True),  # the last does
        ("for m in (2, 4):", False),  # every trip a program per vector core or more
        ("for m in (1, 2):\n        if m < 2:\n            continue", False),  # the `(cores, 1)` trip launches nothing
        ("for m in (2, 1):\n        if m < 2:\n            break", False),
        ("for m in (1, 2):\n        if m == 1:\n            continue", False),  # equality and membership tests
        ("for m in (1, 2):\n        if m in (1,):\n            continue", False),
        ("for m in (1, 2):\n        if m != 2:\n            continue", False),
        ("for m in (1, 2):\n        if m == 2:\n            continue", True),
        ("for m in (1, 2):\n        if m not in (1,):\n            continue", True),
    ],
)
def test_a_trip_of_a_loop_over_items_launching_one_program_per_ai_core(lint, loop: str, reported: bool) -> None:
    """A grid in loops over written items is read in each trip that launches (`item_trips`)."""
    code = f"""
def run(x, y):
    cores = triton.runtime.driver.active.utils.get_device_properties(x.device)["num_aicore"]
    {loop}
        vec_kernel[(cores, m)](x, y, x.numel(), BLOCK=1024)
"""
    launch = code.rstrip("\n").count("\n")  # the last line
    assert rows(lint, code) == ([launch] if reported else [])
