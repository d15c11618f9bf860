"""What triton-ascend 3.2 specialises and what its front end holds as a constexpr, measured
with the real compiler (docs/specialisation.md), and ASC002 agreeing with it case by case.

One subprocess runs the JIT's own specialisation and compiles each case with the compile-only
toolchain of `ascend_lint.runtime_check` (no NPU); the test compares with what the linter says.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import REPO, settings

from ascend_lint.engine import lint_source
from ascend_lint.runtime_check.toolchain import missing_reason

pytestmark = [
    pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}"),
]

CASES = """
import triton
import triton.language as tl


@triton.jit
def scalars(x, a, b, c, d, e, f, g):
    tl.store(x, a + b + c + d + e + f + g)


@triton.jit
def param_to(x, n):
    tl.store(x, n.to(tl.int64))


@triton.jit
def int_annotated_to(x, n: int):
    tl.store(x, n.to(tl.int64))


@triton.jit
def i32_annotated_to(x, n: tl.int32):
    tl.store(x, n.to(tl.int64))


@triton.jit
def constexpr_expression_to(x, BT: tl.constexpr):
    tl.store(x, (BT * 2).to(tl.int64))


@triton.jit
def assigned_to(x, BT: tl.constexpr):
    c = BT * 2
    tl.store(x, c.to(tl.int64))


@triton.jit
def assigned_literal_to(x):
    c = 4
    tl.store(x, c.to(tl.int64))


@triton.jit
def tuple_assigned_to(x, BT: tl.constexpr):
    a, b = BT, 2
    tl.store(x, a.to(tl.int64) + b)


@triton.jit
def annotated_constexpr_to(x, BT: tl.constexpr):
    c: tl.constexpr = BT * 2
    tl.store(x, c.to(tl.int64))


@triton.jit
def static_index_to(x):
    for i in tl.static_range(2):
        tl.store(x + i, i.to(tl.int64))


@triton.jit
def pointer_casts(x, p, address):
    q = p.to(tl.pointer_type(tl.uint8))
    r = address.to(tl.int64).to(tl.pointer_type(tl.float32))
    tl.store(r, tl.load(q).to(tl.float32))


@triton.jit
def alias_guard(x, h0, USE_H0: tl.constexpr):
    use = USE_H0
    if use:
        tl.store(x, tl.load(h0))


@triton.jit
def param_guard(x, h0, USE_H0: tl.constexpr):
    if USE_H0:
        tl.store(x, tl.load(h0))


@triton.jit
def or_guard(x, h0, n, USE_H0: tl.constexpr):
    if USE_H0 or n > 3:
        tl.store(x, tl.load(h0))
"""

MEASURE = """
import json, sys, tempfile
from pathlib import Path
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from ascend_lint.runtime_check import toolchain
toolchain.activate(Path(tempfile.mkdtemp()))
import torch
from triton.runtime.jit import JITFunction
import cases

seen = {}
def stop(**hook):
    seen.update(hook["compile"])
    return True

JITFunction.cache_hook = stop
x = torch.zeros(4)
cases.scalars.run(x, 1, 0, 16, -1, 1.0, 0.0, True, grid=(1,), warmup=True)
specialised = {"signature": seen["signature"], "constants": sorted(seen["constants"])}
JITFunction.cache_hook = None

outcomes = {}
for name, args, kwargs in [
    ("param_to=1", (x, 1), {}), ("param_to=0", (x, 0), {}), ("param_to=3", (x, 3), {}),
    ("param_to=1.0", (x, 1.0), {}), ("param_to=True", (x, True), {}),
    ("int_annotated_to=1", (x, 1), {}), ("i32_annotated_to=1", (x, 1), {}),
    ("constexpr_expression_to", (x,), {"BT": 4}), ("assigned_to", (x,), {"BT": 4}),
    ("assigned_literal_to", (x,), {}), ("tuple_assigned_to", (x,), {"BT": 4}),
    ("annotated_constexpr_to", (x,), {"BT": 4}), ("or_guard", (x, None, 5), {"USE_H0": False}),
    ("static_index_to", (x,), {}), ("alias_guard", (x, None), {"USE_H0": False}),
    ("param_guard", (x, None), {"USE_H0": False}), ("pointer_casts", (x, x, x.data_ptr()), {}),
]:
    kernel = getattr(cases, name.split("=")[0])
    try:
        kernel.warmup(*args, grid=(1,), **kwargs)
        outcomes[name] = None
    except Exception as exc:
        while exc.__cause__ is not None:
            exc = exc.__cause__
        outcomes[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps({"specialised": specialised, "outcomes": outcomes}))
"""


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("specialisation")
    (folder / "cases.py").write_text(CASES, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(REPO), str(folder)], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_only_ints_equal_to_1_are_specialised(measured: dict) -> None:
    # scalars(x, a=1, b=0, c=16, d=-1, e=1.0, f=0.0, g=True)
    assert measured["specialised"]["constants"] == ["a"]
    signature = measured["specialised"]["signature"]
    assert [signature[name] for name in "bcdefg"] == ["i32", "i32", "i32", "fp32", "fp32", "i1"]


def test_to_fails_on_python_values_only(measured: dict) -> None:
    failing = {name for name, error in measured["outcomes"].items() if error}
    assert failing == {
        "param_to=1",
        "int_annotated_to=1",  # an annotation does not stop the specialisation of a 1
        "i32_annotated_to=1",
        "constexpr_expression_to",
        "annotated_constexpr_to",
        "static_index_to",
        "alias_guard",  # an assigned flag is a tensor: both arms compile, `None` fails
        "or_guard",  # a constexpr OR-ed with a runtime test: both arms compile
    }
    for name in failing - {"alias_guard", "or_guard"}:
        assert "'constexpr' object has no attribute 'to'" in measured["outcomes"][name]


def test_asc002_reports_exactly_the_kernels_whose_to_fails(measured: dict) -> None:
    result = lint_source(textwrap.dedent(CASES), str(Path("cases.py")), settings())
    reported = {f.kernel for f in result.findings if f.code == "ASC002"}
    failing = {name.split("=")[0] for name, error in measured["outcomes"].items() if error and "to'" in error}
    # `param_to` fails for 1 only: the linter cannot see the value and reports it (an int is assumed);
    # the contract keeps a parameter annotated `tl.int32` / `tl.int64` a runtime value (RULES.md)
    assert reported == failing - {"i32_annotated_to"}


def test_launch_values_passed_through_functions_sharing_a_name_are_worked_out_once(monkeypatch) -> None:
    """Copies of a module in one file: every launcher is a caller of each copy of the functions
    it calls, so following a parameter to what the calls pass walked every path (each copy
    more multiplied the work: 12 copies took over 270 s). Counted as work: the parameters whose
    calls are read grow with the square of the copies (each copy's calls of each copy), not
    with their powers."""
    from ascend_lint import specialisations

    kernels = (REPO / "fixtures" / "triton_ascend" / "clean_kernels.py").read_text(encoding="utf-8")
    real = specialisations._HostNames._passed_at_calls
    read: list[int] = []

    def counted(names: specialisations._HostNames, *args: object) -> list:
        read.append(1)
        return real(names, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(specialisations._HostNames, "_passed_at_calls", counted)
    counts = []
    for copies in (2, 4, 8):
        read.clear()
        assert lint_source(kernels * copies, "copies.py", settings(timeout_per_file=None)).error is None
        counts.append(len(read))
    assert counts[0] > 0 and counts[2] <= 20 * counts[0], counts  # 4x the copies: 16x at most
