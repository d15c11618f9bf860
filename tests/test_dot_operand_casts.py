"""A cast of a `tl.dot` operand runs on the vector cores, in UB (ASC013's tile model), and an
`assert NAME in {...}` before a launch gives the values it may pass.

The figures are what triton-ascend 3.2's memory planner reported for the kernels of
`fixtures/triton_ascend/asc013_dot_operand_cast.py` (`bench/calibrate_ub.py`'s harness,
`bishengir-compile --enable-memory-display`, Ascend910B3): the planned peak where the kernel
fits, what the `ub overflow` requires where it does not (docs/ub-estimate.md, "Casts of dot
operands").
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from ascend_lint.imports import ImportMap
from ascend_lint.kernels import find_kernels
from ascend_lint.rule import ModuleContext
from ascend_lint.ub_plan import peak

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "triton_ascend"
CASTS = FIXTURES / "asc013_dot_operand_cast.py"
ASSERTS = FIXTURES / "asc013_asserted_values.py"


def context_of(path: Path) -> ModuleContext:
    source = path.read_text(encoding="utf-8")
    module = cst.parse_module(source)
    imports = ImportMap(module)
    return ModuleContext(str(path), source, module, imports, find_kernels(module, imports))


def kernel(path: Path, name: str):
    return next(k for k in context_of(path).kernels if k.name == name)


BF16 = {"a_ptr": 2, "b_ptr": 2, "c_ptr": 4}
# (kernel, constexprs, pointer bytes, the compiler's figure, whether it overflows)
MEASURED = {
    "bf16 -> fp32 of both operands, fits": ("cast_dot", {"K": 4096, "BM": 64, "BK": 256}, BF16, 61440, False),
    "bf16 -> fp32, overflows on the lhs's source and result halves": (
        "cast_dot",
        {"K": 4096, "BM": 128, "BK": 1024},
        BF16,
        393216,
        True,
    ),
    "fp16 -> fp32, one cast's buffers at a time": (
        "cast_dot",
        {"K": 4096, "BM": 128, "BK": 512},
        {"a_ptr": 2, "b_ptr": 2, "c_ptr": 4},
        196608,
        False,
    ),
    "fp32 -> bf16 narrows in place": (
        "same_width",
        {"K": 4096, "BM": 64, "BK": 256},
        {"a_ptr": 4, "b_ptr": 2, "c_ptr": 4},
        32768,
        False,
    ),
    "a column-major [BLOCK_D, 4] block: transposed, rows padded": (
        "narrow_t",
        {"D": 16384, "BLOCK_D": 1024},
        {"x_ptr": 2, "gy_ptr": 2, "out_ptr": 4},
        110592,
        False,
    ),
    "a column-major block, overflowing": (
        "narrow_t",
        {"D": 16384, "BLOCK_D": 4096},
        {"x_ptr": 2, "gy_ptr": 2, "out_ptr": 4},
        262144,
        True,
    ),
}


@pytest.mark.parametrize("case", sorted(MEASURED))
def test_a_cast_of_a_dot_operand_is_planned_as_the_compiler_does(case):
    name, values, pointers, compiler, overflows = MEASURED[case]
    estimate = peak(kernel(CASTS, name).tiles, values, pointers, dense=True)
    figure = estimate.bytes if overflows else estimate.planned
    assert abs(figure - compiler) <= 0.1 * compiler, f"estimate {figure} vs the compiler's {compiler}"
    assert (estimate.bytes > 196608) == overflows


@pytest.mark.parametrize(
    ("name", "pointers"),
    [("same_width", BF16), ("cast_dot", {"a_ptr": 4, "b_ptr": 4, "c_ptr": 4})],
)
def test_a_cast_to_the_width_a_tile_has_takes_no_ub(name, pointers):
    """`.to(tl.bfloat16)` of a bf16 load, `.to(tl.float32)` of an fp32 one: no conversion (the
    compiler plans no UB for either at BM=128, BK=1024)."""
    assert peak(kernel(CASTS, name).tiles, {"K": 4096, "BM": 128, "BK": 1024}, pointers, dense=True).bytes == 0


def test_a_cast_back_to_the_starting_width_folds_away():
    """`b_A.to(tl.float32)` then `.to(b_dw.dtype)` into a dot (fla's `prepare_wy_repr_bwd_kv_npu`)
    is the bf16 load again: nothing converted, no UB."""
    source = """
import triton
import triton.language as tl


@triton.jit
def k(a, w, o, BT: tl.constexpr):
    p = tl.make_block_ptr(a, (BT, BT), (BT, 1), (0, 0), (BT, BT), (1, 0))
    q = tl.make_block_ptr(w, (BT, BT), (BT, 1), (0, 0), (BT, BT), (1, 0))
    b_a = tl.load(p).to(tl.float32)
    b_w = tl.load(q)
    r = tl.dot(b_a.to(b_w.dtype), b_w)
    tl.store(o + tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :], r)
"""
    module = cst.parse_module(source)
    [found] = find_kernels(module, ImportMap(module))
    assert peak(found.tiles, {"BT": 128}, {"a": 2, "w": 2, "o": 4}, dense=True).bytes == 0
    assert peak(found.tiles, {"BT": 128}, {"a": 4, "w": 2, "o": 4}, dense=True).bytes > 0  # fp32 -> bf16


def test_an_asserted_launch_value_gives_one_configuration_per_literal():
    context = context_of(ASSERTS)
    [found] = context.kernels
    values: dict[str, list[object]] = {}
    labels: dict[str, list[str]] = {}
    for configuration in context.configurations(found):
        if configuration.within is not None:
            function = configuration.within.name.value
            values.setdefault(function, []).append(configuration.values.get("D_HEAD"))
            labels.setdefault(function, []).append(configuration.label)
    assert sorted(values["bwd"]) == [16, 32, 64, 128, 256]
    assert sorted(values["bwd_small"]) == [16, 32, 64]
    assert values["bwd_checked_elsewhere"] == [None]  # the assert is in an `if` the launch is not in
    # `D` is bound again after the assert, from itself: `next_power_of_2(D // 4)` with `D` at most 256
    assert values["bwd_rebound"] == [64]
    assert all("(`D_HEAD` one of the values asserted at line {related_line})" in label for label in labels["bwd"])


def launch_values_of(function: str) -> list[tuple[object, object]]:
    """(BLOCK_M, D_HEAD) of each configuration of the fixture's kernel launched by `function`
    alone (the other functions' launches left out: equal values count once per module)."""
    module = cst.parse_module(ASSERTS.read_text(encoding="utf-8"))
    kept = [
        statement
        for statement in module.body
        if not isinstance(statement, cst.FunctionDef) or statement.name.value in ("_bwd_preprocess", function)
    ]
    source = module.with_changes(body=kept).code
    parsed = cst.parse_module(source)
    imports = ImportMap(parsed)
    context = ModuleContext("guards.py", source, parsed, imports, find_kernels(parsed, imports))
    [found] = context.kernels
    return sorted(
        ((c.values.get("BLOCK_M"), c.values.get("D_HEAD")) for c in context.configurations(found) if c.within),
        key=str,
    )


@pytest.mark.parametrize(
    ("function", "expected"),
    [
        # `if D <= 64:` / `else:` around the launches: BLOCK_M=256 only with D_HEAD of at most 64
        ("bwd_branch_le", [(256, 16), (256, 32), (256, 64), (32, 128), (32, 256)]),
        # `if D in (16, 64):`, then `elif not D > 64 and S > 0:` (256 fails it: no value reaches it)
        ("bwd_branch_in", [(256, 16), (256, 64), (512, None)]),
        ("bwd_early_return", [(256, 64)]),  # `if D > 64: return None` before the launch
        ("bwd_chosen", [(256, 64), (32, 256)]),  # the literals of an `if`/`else`, pruned alike
        ("bwd_inline_choice", [(16, 256), (256, 64)]),  # `BLOCK_M=256 if D <= 64 else 16`
    ],
)
def test_an_if_around_or_before_the_launch_keeps_the_values_reaching_it(
    function: str, expected: list[tuple[object, object]]
) -> None:
    assert launch_values_of(function) == expected
