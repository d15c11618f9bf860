"""Transcendental math holds fp32 temporaries in UB while it runs (`tiles.MATH_TEMPORARIES`).

Each case is one operation in a kernel of its own, `z = EXPR` on [B] tiles, compiled with
bishengir-compile (Ascend910B3, `bench/calibrate_ub.py`'s harness, docs/ub-estimate.md
"Transcendental math"): what the compiler needs (`ub overflow, requires N bits`, an overflow) or
plans (a fit) is the expected figure, for the estimate ASC013 reports (`bytes`) and the plan
(`planned`) respectively.
"""

from __future__ import annotations

import libcst as cst
import pytest
from test_tiles import code, kernel_of

from ascend_lint.ub_plan import peak

KERNEL = """
import triton
import triton.language as tl
import triton.language.extra.ascend.libdevice as libdevice

@triton.jit
def k(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o)CAST
    y = tl.load(y_ptr + o)CAST
    z = EXPR
    tl.store(out_ptr + o, z.to(out_ptr.dtype.element_ty))
"""

FP32 = {"x_ptr": 4, "y_ptr": 4, "out_ptr": 4}
BF16 = {"x_ptr": 2, "y_ptr": 2, "out_ptr": 2}

# (expression, pointer bytes, BLOCK, the compiler's figure, whether it overflows)
MEASURED = {
    "exp: in place, no temporary": ("tl.exp(x)", FP32, 32768, 131072, False),
    "tl.math.exp": ("tl.math.exp(x)", FP32, 32768, 131072, False),
    "log1p": ("libdevice.log1p(x)", FP32, 32768, 131072, False),
    "tanh: one": ("libdevice.tanh(x)", FP32, 32768, 262144, True),
    "tanh of a bf16 load cast to fp32": ("libdevice.tanh(x)", BF16, 32768, 262144, True),
    "sigmoid: one": ("tl.sigmoid(x)", FP32, 32768, 262144, True),
    "rsqrt: one": ("tl.rsqrt(x)", FP32, 32768, 262144, True),
    "log2: one": ("tl.log2(x)", FP32, 32768, 262144, True),
    "tl.math.log2": ("tl.math.log2(x)", FP32, 32768, 262144, True),
    "erf: two": ("tl.erf(x)", FP32, 32768, 393216, True),
    "erf: three when there is room": ("tl.erf(x)", FP32, 8192, 131072, False),
    "erf of a bf16 load fits at exactly the UB": ("tl.erf(x)", BF16, 16384, 196608, False),
    "sin: four": ("tl.sin(x)", FP32, 32768, 655360, True),
    "cos: four": ("tl.cos(x)", FP32, 32768, 655360, True),
    "sin: five when there is room": ("tl.sin(x)", FP32, 8192, 196608, False),
    "tan: five": ("libdevice.tan(x)", FP32, 32768, 786432, True),
    "pow of two tiles: seven": ("libdevice.pow(x, y)", FP32, 32768, 1179680, True),
    "pow with a scalar exponent: one": ("libdevice.pow(x, 3.0)", FP32, 32768, 262144, True),
    "a scalar over a tile: the splatted scalar": ("1.0 / x", FP32, 32768, 262144, True),
    "tl.fdiv of a scalar over a tile": ("tl.fdiv(1.0, x)", FP32, 32768, 262144, True),
    "a tile over a tile: none": ("x / y", FP32, 32768, 262144, True),
    "a tile over a scalar: none": ("x / 3.0", FP32, 32768, 131104, False),
    "x * sigmoid(x) is x / (1 + exp(-x)): none": ("x * tl.sigmoid(x)", FP32, 32768, 262144, True),
    "sigmoid(x) * sigmoid(y): one of the two folds": ("tl.sigmoid(x) * tl.sigmoid(y)", FP32, 32768, 393216, True),
    "tanh(x) * sigmoid(x)": ("libdevice.tanh(x) * tl.sigmoid(x)", FP32, 32768, 393216, True),
    "tanh(x) * sigmoid(x) when there is room": ("libdevice.tanh(x) * tl.sigmoid(x)", FP32, 16384, 196608, False),
    "erf(x) * y": ("tl.erf(x) * y", FP32, 32768, 524288, True),
}


def kernel(expression: str, pointer_bytes: dict[str, int]):
    cast = ".to(tl.float32)" if pointer_bytes is BF16 else ""
    source = KERNEL.replace("CAST", cast).replace("EXPR", expression)
    if "y" not in expression.replace("libdevice", ""):
        source = source.replace(f"    y = tl.load(y_ptr + o){cast}\n", "")
    return kernel_of(source)


@pytest.mark.parametrize("case", list(MEASURED), ids=list(MEASURED))
def test_math_temporaries_match_the_compiler(case: str) -> None:
    expression, pointer_bytes, block, compiler, overflow = MEASURED[case]
    result = peak(kernel(expression, pointer_bytes).tiles, {"BLOCK": block}, pointer_bytes, dense=True)
    estimate = result.bytes if overflow else result.planned
    assert abs(estimate - compiler) <= 64, (estimate, compiler)  # a scalar's 32-byte buffer at most
    assert (result.bytes > 196608) == overflow


def test_the_temporaries_are_on_the_math_call() -> None:
    values = kernel("libdevice.tanh(x) * tl.erf(x)", FP32).tiles.values
    calls = {code(v.node.func): v.temporaries for v in values if isinstance(v.node, cst.Call)}
    assert (calls["libdevice.tanh"], calls["tl.erf"], calls["tl.load"]) == (1, 2, 0)
