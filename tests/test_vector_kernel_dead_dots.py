"""ASC009 judges a kernel by what a launch compiles: a `tl.dot` (or a device function running
one) only in an `if` arm the launch's constexpr values leave out (`specialisations.
launch_outcomes`) makes no cube kernel of it on that launch."""

from __future__ import annotations

import pytest
from conftest import snippet_source

KERNEL = """
import triton
import triton.language as tl

CORES = triton.runtime.driver.active.utils.get_device_properties(0)["num_aicore"]
NO_DOT = False


@triton.jit
def _project(b, w_ptr, BD: tl.constexpr):
    o = tl.arange(0, BD)
    return tl.dot(b, tl.load(w_ptr + o[:, None] * BD + o[None, :]))


@triton.jit
def k(x, w, y, USE_DOT: tl.constexpr = False, THROUGH_HELPER: tl.constexpr = False, BD: tl.constexpr = 16):
    o = tl.arange(0, BD)
    b = tl.load(x + o[:, None] * BD + o[None, :])
    if USE_DOT:
        b = tl.dot(b, tl.load(w + o[:, None] * BD + o[None, :]))
    elif THROUGH_HELPER:
        b = _project(b, w, BD)
    tl.store(y + o[:, None] * BD + o[None, :], b)
"""


def findings(lint, launch: str) -> list[str]:
    source, _ = snippet_source(KERNEL + f"\n\ndef run(x, w, y, flag, kw):\n    {launch}\n")
    return [f.message for f in lint(source, select=["ASC009"])]


@pytest.mark.parametrize(
    "launch",
    [
        "k[(CORES,)](x, w, y, USE_DOT=False)",
        "k[(CORES,)](x, w, y)",  # the defaults
        "k[(CORES,)](x, w, y, NO_DOT)",  # a module constant
        "use = False\n    k[(CORES,)](x, w, y, USE_DOT=use, THROUGH_HELPER=use)",
    ],
)
def test_a_dot_the_launch_never_compiles_leaves_a_vector_kernel(lint, launch: str) -> None:
    [message] = findings(lint, launch)
    assert "has no `tl.dot` compiled for this launch" in message


@pytest.mark.parametrize(
    "launch",
    [
        "k[(CORES,)](x, w, y, USE_DOT=True)",
        "k[(CORES,)](x, w, y, THROUGH_HELPER=True)",
        "k[(CORES,)](x, w, y, USE_DOT=flag)",  # not known: the dot may be compiled
        "k[(CORES,)](x, w, y, **kw)",  # perhaps passed in the splat
    ],
)
def test_a_dot_the_launch_may_compile_makes_a_cube_kernel(lint, launch: str) -> None:
    assert findings(lint, launch) == []


def test_a_module_name_a_function_rebinds_has_no_one_value(lint) -> None:
    # `enable()` may turn the dot on before the launch: `USE` is not the `False` first bound
    rebound = "\n\nUSE = False\n\n\ndef enable():\n    global USE\n    USE = True\n"
    source, _ = snippet_source(KERNEL + rebound + "\n\ndef run(x, w, y):\n    k[(CORES,)](x, w, y, USE_DOT=USE)\n")
    assert lint(source, select=["ASC009"]) == []
