"""ASC003 / ASC006 value-replay cases: the fixtures, their hand-written fixes, findings for them.

Shared by ``test_runtime_interpret.py`` and ``test_runtime_npu.py``.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from ascend_lint.model import Edit, Finding, Fix, Position

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "runtime" / "triton_ascend"

# Each bug: its kernel, the output the clobbered read corrupts, and a hand-written fix — a
# pristine `+ 0.0` copy taken before the first lhs dot, with the later reads rewritten to it.
BUGS = {
    "asc003_wrapped_cast.py": (
        "attend_and_scale_kernel",
        "a_scaled",
        [
            (
                "    b_o = tl.dot(b_a.to(b_v.dtype), b_v)\n",
                "    b_a_c = b_a + 0.0\n    b_o = tl.dot(b_a.to(b_v.dtype), b_v)\n",
            ),
            ("b_a * 0.5", "b_a_c * 0.5"),
        ],
    ),
    "asc003_wrapped_trans.py": (
        "gram_project_kernel",
        "o",
        [
            (
                "    b_kv = tl.dot(tl.trans(b_k), b_v)\n",
                "    b_k_c = b_k + 0.0\n    b_kv = tl.dot(tl.trans(b_k), b_v)\n",
            ),
            ("tl.dot(b_k, b_kv)", "tl.dot(b_k_c, b_kv)"),
        ],
    ),
    "asc003_negated_dot.py": (
        "commutator_kernel",
        "o",
        [
            ("    b_o = -tl.dot(b_x, b_w)\n", "    b_x_c = b_x + 0.0\n    b_o = -tl.dot(b_x, b_w)\n"),
            ("tl.dot(b_w, b_x)", "tl.dot(b_w, b_x_c)"),
        ],
    ),
    "asc003_nested_dot.py": (
        "chain_product_kernel",
        "a_copy",
        [
            (
                "    b_o = tl.dot(tl.dot(b_a, b_b), b_c)\n",
                "    b_a_c = b_a + 0.0\n    b_o = tl.dot(tl.dot(b_a, b_b), b_c)\n",
            ),
            ("tl.store(a_copy + tile, b_a)", "tl.store(a_copy + tile, b_a_c)"),
        ],
    ),
    "asc003_loop_carried.py": (
        "query_key_sum_kernel",
        "o",
        [
            ("        b_o += tl.dot(b_q, b_k)\n", "        b_q_c = b_q + 0.0\n        b_o += tl.dot(b_q_c, b_k)\n"),
        ],
    ),
    "asc003_post_dot_copy.py": (
        "two_projections_kernel",
        "o",
        [
            (
                "    b_o = tl.dot(b_x, tl.load(w1 + tile))\n",
                "    b_x_c = b_x + 0.0\n    b_o = tl.dot(b_x, tl.load(w1 + tile))\n",
            ),
            ("b_x_copy = b_x + 0.0", "b_x_copy = b_x_c + 0.0"),
        ],
    ),
}

# The documented safe patterns, with the line a looser rule would flag.
SAFE = {
    "asc003_safe_copy_before_dot.py": ("two_projections_kernel", "tl.dot(b_x_copy,"),
    "asc003_safe_same_tile.py": ("gram_kernel", "b_kk = tl.dot(b_k, tl.trans(b_k))"),
    "asc003_safe_dtype_read.py": ("attend_plus_bias_kernel", ".to(b_a.dtype)"),
    "asc003_safe_gm_reload.py": ("project_residual_kernel", "b_o + b_x"),
}


def row_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def hand_fixed(source: str, replacements: list[tuple[str, str]]) -> str:
    for old, new in replacements:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


def line_edits(before: str, after: str) -> tuple[Edit, ...]:
    """``after`` as whole-line edits of ``before`` (the shape of a linter fix)."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    blocks = difflib.SequenceMatcher(a=old, b=new).get_opcodes()
    return tuple(
        Edit(Position(i1 + 1, 1), Position(i2 + 1, 1), "".join(new[j1:j2]))
        for tag, i1, i2, j1, j2 in blocks
        if tag != "equal"
    )


def finding(fixture: str, kernel: str, read: str, fix: Fix | None = None) -> Finding:
    path = FIXTURES / fixture
    source = path.read_text()
    row = row_of(source, read)
    line = source.splitlines()[row - 1]
    return Finding(  # spanning the statement on the read's row: its reads are the finding's
        "ASC003",
        "dot-lhs-reuse",
        "tile read after it was the lhs of tl.dot",
        str(path),
        Position(row, len(line) - len(line.lstrip()) + 1),
        Position(row, len(line) + 1),
        kernel=kernel,
        fix=fix,
    )


def fixed_finding(fixture: str) -> Finding:
    """The finding on a bug fixture, carrying its hand-written fix as whole-line edits."""
    kernel, _, replacements = BUGS[fixture]
    source = (FIXTURES / fixture).read_text()
    edits = line_edits(source, hand_fixed(source, replacements))
    fix = Fix("unsafe", "copy the tile with `+ 0.0` before the first lhs dot", edits)
    return finding(fixture, kernel, replacements[-1][0].strip().splitlines()[0], fix)
