"""The fuzzer's budget in CI (well under a minute): mutated fixture kernels and packages and
grammar-generated Python keep every property of tests/fuzzing.py. Long campaigns: `bench/fuzz.py --count N`."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from fuzzing import (
    SEEDS,
    TEXT_MUTATIONS,
    check,
    check_package,
    expected_fix_refusal,
    generated,
    mutants,
    package_mutants,
    to_bytes,
)
from hypothesis import HealthCheck, given, settings

from ascend_lint import engine, fixer, fixes, positions
from ascend_lint.config import Settings
from ascend_lint.rules.dot_lhs_reuse import DotLhsReuse

REPO = Path(__file__).resolve().parent.parent
CI_BUDGET = settings(
    max_examples=30, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


@CI_BUDGET
@given(mutants())
def test_mutated_kernels_keep_every_property(data: bytes) -> None:
    assert check(data, budget=60).problems == []


@settings(CI_BUDGET, max_examples=15)
@given(generated())
def test_generated_python_keeps_every_property(data: bytes) -> None:
    assert check(data, budget=60).problems == []


@settings(CI_BUDGET, max_examples=20)
@given(package_mutants())
def test_mutated_packages_keep_every_property_in_every_module(files: dict[str, bytes]) -> None:
    assert {
        name: outcome.problems for name, outcome in check_package(files, budget=60).items() if outcome.problems
    } == {}


def test_mutants_through_the_command_line(tmp_path: Path) -> None:
    """A few mutants through the real `ascend-lint check --fix --unsafe-fixes`: an exit status in
    {0, 1, 2}, no traceback, and a written file still compiles."""
    rng = random.Random(11)
    folder = tmp_path / "triton_ascend"
    folder.mkdir()
    originals = {}
    for number in range(8):
        text = rng.choice(SEEDS).read_text(encoding="utf-8")
        for mutation in rng.sample(TEXT_MUTATIONS, 2):
            text = mutation(text, rng)
        originals[number] = to_bytes(text, rng.choice(("none", "bom")), rng)
        (folder / f"mutant{number}.py").write_bytes(originals[number])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--fix", "--unsafe-fixes", "."]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1, 2)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    for number, before in originals.items():
        after = (folder / f"mutant{number}.py").read_bytes()
        if after != before:
            compile(after, f"mutant{number}.py", "exec")
            assert after.startswith(b"\xef\xbb\xbf") == before.startswith(b"\xef\xbb\xbf")


def test_a_campaign_saves_its_slowest_input_for_replay(tmp_path: Path) -> None:
    """`bench/fuzz.py` keeps the input of its slowest file (CPU seconds), so a slow case seen in
    a long campaign can be replayed and profiled instead of only counted."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "bench/fuzz.py", "--count", "3", "--seed", "7", "--save", str(tmp_path)]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (slowest,) = tmp_path.glob("slowest-mutants-*.py.bin")
    assert "s of CPU for " in done.stdout and str(slowest) in done.stdout
    replayed = subprocess.run(
        [sys.executable, "bench/fuzz.py", "--replay", str(slowest)], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert replayed.returncode == 0 and "s of CPU for" in replayed.stdout, replayed.stdout + replayed.stderr


# ---- what campaigns found (bench/fuzz.py), kept ----------------------------------------------

JIT = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, B, N):\n"
GUARD = """import triton
import triton.language as tl


@triton.heuristics({"HAS_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, y, HAS_H0: tl.constexpr):
    i_t = tl.program_id(0)
"""
SEQUENCE = (
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
    "def k(x, y, cu_seqlens, H: tl.constexpr):\n    bos = tl.load(cu_seqlens).to(tl.int32)\n"
)
BLOCK = (
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, BLOCK: tl.constexpr):\n"
    "    tl.store(x + tl.arange(0, BLOCK), 0.0)\n\n\n"
)
# A fix that re-renders code holding another fix's code (which then overlaps it): a second
# `--fix` changed the file again until the inner replacement went into the outer one.
FOUND = {
    "chain_in_a_chain": (  # a duplicated `.to` token
        JIT + "    n = B.to(tl.int64).to.to(tl.int32)\n",
        JIT + "    n = tl.cast(B, tl.int64).to.to(tl.int32)\n",  # the rest is no longer a constexpr
    ),
    "chain_in_an_index_cast": (
        JIT + "    i_b = tl.program_id(0)\n    base = (i_b * N.to(tl.int32)).to(tl.int64)\n",
        JIT + "    i_b = tl.program_id(0)\n    base = tl.cast(i_b, tl.int64) * tl.cast(N, tl.int32)\n",
    ),
    "chain_in_a_nested_if": (  # ASC004 now declines this `if` (the pointer is used in both arms)
        GUARD
        + "    if HAS_H0 and i_t == 0:\n        b_h = tl.load(h0.to(tl.int64).to(tl.int64))\n"
        + "    else:\n        b_h = tl.load(x)\n    tl.store(y, b_h)\n",
        GUARD
        + "    if HAS_H0 and i_t == 0:\n        b_h = tl.load(tl.cast(h0, tl.int64).to(tl.int64))\n"
        + "    else:\n        b_h = tl.load(x)\n    tl.store(y, b_h)\n",
    ),
    "text_fix_in_a_nested_if": (  # ASC008's fix is text (`tl.cast(bos, tl.int64)`), not a node
        SEQUENCE + "    if x and N:\n        tl.store(y + bos * H, tl.load(x))\n",
        SEQUENCE + "    if N:\n        if x:\n            tl.store(y + tl.cast(bos, tl.int64) * H, tl.load(x))\n",
    ),
    "two_fixes_in_a_nested_if": (  # only one of them went in
        SEQUENCE + "    if x and N:\n        tl.store(y + bos * H, tl.load(x + bos * H))\n",
        SEQUENCE
        + "    if N:\n        if x:\n"
        + "            tl.store(y + tl.cast(bos, tl.int64) * H, tl.load(x + tl.cast(bos, tl.int64) * H))\n",
    ),
    # Run 12: the lhs of two dots is a name the kernel never assigns (a global, which Triton
    # reads as a constexpr): ASC003's copy `(b_q + 0.0).to(b_q.dtype)` is then a `.to` of a
    # constexpr, which ASC002 rewrote in a second --fix. No tile to copy: the fix declines.
    "dot_of_a_name_the_kernel_never_assigns": (
        JIT + "    b_o = tl.dot(b_q, tl.load(x))\n    b_a = tl.dot(b_q, tl.load(x + N))\n    tl.store(x, b_o + b_a)\n",
        None,
    ),
    # A constexpr no launch can pass, as a host default: ASC013 printed its UB estimate (an int
    # division overflowing a float, then an int over Python's 4,300 printable digits); the same
    # cause made `2 ** 2 ** 40` run until the time budget and `int(1e400)` an internal error.
    # Nothing to fix: linted without findings.
    **{
        f"unpassable_constexpr_{name}": (
            BLOCK + f"def launch(x, block: int = {value}):\n    k[(1,)](x, BLOCK=block)\n",
            None,
        )
        for name, value in (
            ("hex_literal", "0x" + "f" * 4000),
            ("power", "2 ** 100000"),
            ("power_tower", "2 ** 2 ** 40"),
            ("int_of_infinity", "int(1e400)"),
        )
    },
    # Run 21: ASC003's copy of a dot operand that is a parameter of a device function no call
    # shows, `(ds + 0.0).to(ds.dtype)`, which ASC002 then flagged (it assumed `ds` an int,
    # though the dot and the `.dtype` read show a tensor) and a second `--fix` rewrote.
    "copy_of_a_parameter_no_call_shows": (
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def grads(ds, q, v, o, offs, FLAG: tl.constexpr = True):\n"
        "    if FLAG:\n        tl.store(o + offs, tl.dot(ds, v))\n"
        "    tl.store(o + offs, tl.dot(tl.trans(ds), q))\n",
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def grads(ds, q, v, o, offs, FLAG: tl.constexpr = True):\n"
        "    if FLAG:\n        ds_c = (ds + 0.0).to(ds.dtype)\n        tl.store(o + offs, tl.dot(ds_c, v))\n"
        "    tl.store(o + offs, tl.dot(tl.trans(ds), q))\n",
    ),
    # Run 21 again: the same copy of a parameter a call passes a constexpr for (a global of the
    # caller): ASC002 rightly flagged it, and a second `--fix` rewrote it. No tile to copy.
    "dot_of_a_constexpr_a_call_passes": (
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def grads(ds, q, o, offs):\n    tl.store(o + offs, tl.dot(ds, q) + ds)\n\n\n@triton.jit\n"
        "def k(q_ptr, o):\n    offs = tl.arange(0, 16)\n    grads(ds, tl.load(q_ptr + offs), o, offs)\n",
        None,
    ),
    # Run 21: an integer literal past a float's range compared with a tile (a splat): ASC013's
    # tile model read the literal's value as a float (an internal error).
    "integer_past_a_floats_range_in_a_splat": (
        "import triton\nimport triton.language as tl\n\n\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 128})], key=['N'])\n"
        "@triton.jit\ndef k(x, N, BLOCK: tl.constexpr):\n    t = tl.load(x + tl.arange(0, BLOCK))\n"
        f"    tl.store(x + tl.arange(0, BLOCK), tl.where(t >= 0x{'f' * 300}, t, -0x{'f' * 300}))\n",
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_what_campaigns_found(name: str) -> None:
    text, fixed = FOUND[name]
    outcome = check(text.encode(), budget=20)
    assert outcome.problems == [] and outcome.refused is None and outcome.fixed == (fixed is not None)
    settings = Settings(root=REPO, target_all=True)
    _, change = fixer.fix_result(engine.lint_source(text, "triton_ascend/k.py", settings), settings, unsafe=True)
    assert (change.fixed if change else None) == fixed


TWO_CLOBBERING_DOTS = (
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, w, o, BT: tl.constexpr):\n"
    "    tile = tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :]\n    b_x = tl.load(x + tile)\n"
    "    if FLAG:\n        b_o = tl.dot(b_x, tl.load(w + tile))\n    b_o = tl.dot(b_x, tl.load(w + tile))\n"
    "    tl.store(o + tile, b_o + b_x)\n"
)


def test_a_read_clobbered_by_two_dots_is_fixed_in_one_pass() -> None:
    """Run 8: the last read's finding carried only the first dot's fix (that dot consumes a
    copy, the second dot still clobbers the tile), so a second --fix copied again."""
    assert check(TWO_CLOBBERING_DOTS.encode(), budget=20).problems == []


# ---- the properties can fail ------------------------------------------------------------------

KERNEL = (
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, y):\n"
    "    a = tl.load(x)\n    c = tl.dot(a, a)\n    tl.store(y, a + c)\n"
)


def test_a_range_off_a_token_boundary_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = positions.Layout.range

    def shifted(layout: positions.Layout, node):  # the bug the form feed used to cause
        start, end = real(layout, node)
        return positions.Position(start.row, start.column + 1), positions.Position(end.row, end.column + 1)

    monkeypatch.setattr(positions.Layout, "range", shifted)
    assert any("not on token boundaries" in problem for problem in check(KERNEL.encode(), budget=60).problems)


class CopyNeverMade(DotLhsReuse):
    """ASC003 whose fix reads the copy but never makes it."""

    def check_kernel(self, kernel, context):
        import dataclasses

        for report in super().check_kernel(kernel, context):
            if report.fix is not None:
                reads = tuple(c for c in report.fix.changes if not hasattr(c, "code"))
                report = dataclasses.replace(report, fix=dataclasses.replace(report.fix, changes=reads))
            yield report


def test_an_undefined_name_is_caught_when_the_fixer_lets_it_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "all_rules", lambda: (CopyNeverMade,))
    assert check(KERNEL.encode(), budget=60).fix_refused is not None  # the fixer refuses it...
    monkeypatch.setattr(fixer, "compiled_fix", lambda original, fixed, spans: compile(fixed, "<fixed>", "exec"))
    problems = check(KERNEL.encode(), budget=60).problems  # ...and without that check, the oracle sees it
    assert any("introduced undefined names: ['a_c']" in problem for problem in problems)


FORM_FEED_GUARD = GUARD.replace("    i_t", "\f    i_t") + (
    "    if HAS_H0 and i_t == 0:\n\f        b_h = tl.load(h0)\n    else:\n\f        b_h = tl.zeros([4], dtype=tl.float32)\n"
    "    tl.store(y, b_h)\n"
)


def test_a_fixed_file_libcst_cannot_parse_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Campaign seed 101: ASC004's new lines indented without the form feed that opens their
    block's first line; libcst could not tokenize the fixed file, so the fix was refused."""
    assert check(FORM_FEED_GUARD.encode(), budget=60).problems == []
    real = fixes.render
    monkeypatch.setattr(fixes, "render", lambda module, old, new, indent: real(module, old, new, indent.lstrip("\f")))
    outcome = check(FORM_FEED_GUARD.encode(), budget=60)
    assert outcome.fix_refused is not None and not expected_fix_refusal(outcome.fix_refused)
    assert any(
        "the fixed file could not be linted (valid Python that libcst cannot parse" in p for p in outcome.problems
    )


def test_a_fixed_file_over_a_limit_of_any_input_is_refused_not_a_violation() -> None:
    """ASC002's `tl.cast(B, tl.int64)` makes a 4,997-character line longer than the 5,000 any
    input may have: the fix is refused (rare, a campaign saves it), no property is broken."""
    text = JIT.replace("def k(x, B, N)", "def k(x, B: tl.constexpr)") + "    n = B.to(tl.int64)  # " + "x" * 4970 + "\n"
    outcome = check(text.encode(), budget=60)
    assert outcome.fix_refused is not None and "line too long to analyse (5002 characters" in outcome.fix_refused
    assert not expected_fix_refusal(outcome.fix_refused) and outcome.problems == []
