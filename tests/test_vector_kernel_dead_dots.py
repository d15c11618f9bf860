"""ASC009 judges a kernel by what a launch compiles: a `tl.dot` (or a device function running
one) only in an `if` arm the launch's constexpr values leave out (`specialisations.
launch_values`), or the values a device function's call passes it (`specialisations.
passed_values`), makes no cube kernel of it on that launch."""

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

# a device function whose dot a constexpr leaves out: read with the values its call passes it,
# a literal or the launch's own value passed on (as Triton compiles the call)
DEVICE = (
    KERNEL
    + """

@triton.jit
def _mix(b, w_ptr, USE_DOT: tl.constexpr, BD: tl.constexpr):
    if USE_DOT:
        b = _project(b, w_ptr, BD)
    return b


@triton.jit
def scale_kernel(x, y, BD: tl.constexpr):
    o = tl.arange(0, BD)
    tl.store(y + o, _mix(tl.load(x + o), x, False, BD))


@triton.jit
def project_kernel(x, w, y, BD: tl.constexpr):
    o = tl.arange(0, BD)
    tl.store(y + o, _mix(tl.load(x + o), w, USE_DOT=True, BD=BD))


@triton.jit
def either_kernel(x, w, y, USE_DOT: tl.constexpr, BD: tl.constexpr):
    o = tl.arange(0, BD)
    tl.store(y + o, _mix(tl.load(x + o), w, not not USE_DOT, BD))
"""
)


def findings(lint, launch: str, code: str = KERNEL) -> list[str]:
    source, _ = snippet_source(code + f"\n\ndef run(x, w, y, flag, kw):\n    {launch}\n")
    return [f.message for f in lint(source, select=["ASC009"])]


@pytest.mark.parametrize(
    ("code", "launch"),
    [
        (KERNEL, "k[(CORES,)](x, w, y, USE_DOT=False)"),
        (KERNEL, "k[(CORES,)](x, w, y)"),  # the defaults
        (KERNEL, "k[(CORES,)](x, w, y, NO_DOT)"),  # a module constant
        (KERNEL, "use = False\n    k[(CORES,)](x, w, y, USE_DOT=use, THROUGH_HELPER=use)"),
        (DEVICE, "either_kernel[(CORES,)](x, w, y, USE_DOT=False, BD=16)"),  # the launch's `False`, passed on
    ],
)
def test_a_dot_the_launch_never_compiles_leaves_a_vector_kernel(lint, code: str, launch: str) -> None:
    [message] = findings(lint, launch, code)
    assert "has no `tl.dot` compiled for this launch" in message


def test_a_device_functions_dot_its_call_never_compiles_is_no_dot(lint) -> None:
    # the call passes `False`: no launch compiles the dot
    [message] = findings(lint, "scale_kernel[(CORES,)](x, y, BD=16)", DEVICE)
    assert "has no `tl.dot` but" in message


@pytest.mark.parametrize(
    ("code", "launch"),
    [
        (KERNEL, "k[(CORES,)](x, w, y, USE_DOT=True)"),
        (KERNEL, "k[(CORES,)](x, w, y, THROUGH_HELPER=True)"),
        (KERNEL, "k[(CORES,)](x, w, y, USE_DOT=flag)"),  # not known: the dot may be compiled
        (KERNEL, "k[(CORES,)](x, w, y, **kw)"),  # perhaps passed in the splat
        (DEVICE, "project_kernel[(CORES,)](x, w, y, BD=16)"),
        (DEVICE, "either_kernel[(CORES,)](x, w, y, USE_DOT=True, BD=16)"),
        (DEVICE, "either_kernel[(CORES,)](x, w, y, USE_DOT=flag, BD=16)"),
    ],
)
def test_a_dot_the_launch_may_compile_makes_a_cube_kernel(lint, code: str, launch: str) -> None:
    assert findings(lint, launch, code) == []


def test_a_module_name_a_function_rebinds_has_no_one_value(lint) -> None:
    # `enable()` may turn the dot on before the launch: `USE` is not the `False` first bound
    rebound = "\n\nUSE = False\n\n\ndef enable():\n    global USE\n    USE = True\n"
    source, _ = snippet_source(KERNEL + rebound + "\n\ndef run(x, w, y):\n    k[(CORES,)](x, w, y, USE_DOT=USE)\n")
    assert lint(source, select=["ASC009"]) == []
