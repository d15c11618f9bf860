"""The ASC003 fix is right by value: the linter's own fix, run in triton-ascend's interpreter.

For each buggy fixture kernel in `fixtures/runtime/triton_ascend/asc003_*.py`, the fixed module
must give exactly the original's outputs under standard `tl.dot` semantics (`+ 0.0` copies
change no value), and keep giving them when every dot clobbers its left operand as on the NPU
(where the original's outputs change: the emulation has teeth).
"""

from __future__ import annotations

import pytest

pytest.importorskip("triton", reason="needs the runtime extra (triton-ascend)")
pytest.importorskip("torch", reason="needs the runtime extra (torch)")
np = pytest.importorskip("numpy", reason="needs the runtime extra (numpy)")

from conftest import FIXTURES, settings  # noqa: E402

from ascend_lint.engine import lint_source  # noqa: E402
from ascend_lint.fixer import fix_result  # noqa: E402
from ascend_lint.runtime_check.value.interpret import run_source  # noqa: E402

pytestmark = pytest.mark.runtime

ASC003 = settings(select=["ASC003"])
KERNELS = sorted((FIXTURES / "runtime" / "triton_ascend").glob("asc003_*.py"))
BUGGY = [path for path in KERNELS if lint_source(path.read_text(), str(path), ASC003).findings]


def outputs(source: str, *, emulate: bool) -> list[dict[str, np.ndarray]]:
    return [launch.outputs for launch in run_source(source, emulate=emulate)]


def same(a: list[dict[str, np.ndarray]], b: list[dict[str, np.ndarray]]) -> bool:
    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(np.array_equal(x[k], y[k], equal_nan=True) for k in x)
        for x, y in zip(a, b, strict=False)
    )


def test_every_buggy_fixture_is_covered():
    assert len(BUGGY) >= 6, [p.name for p in BUGGY]


@pytest.mark.parametrize("path", BUGGY, ids=lambda p: p.name)
def test_fixed_kernel_keeps_standard_values_and_survives_the_clobber(path):
    source = path.read_text()
    result, fixed = fix_result(lint_source(source, str(path), ASC003), ASC003, unsafe=True)
    assert fixed is not None and not result.findings, result.findings

    reference = outputs(source, emulate=False)
    assert reference, "the workload launched nothing"
    assert not same(outputs(source, emulate=True), reference), "the emulated clobber changed nothing"
    assert same(outputs(fixed.fixed, emulate=False), reference)
    assert same(outputs(fixed.fixed, emulate=True), reference)
