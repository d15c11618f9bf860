"""ASC001's fix of `num_stages`: released triton-ascend (3.2.0) never reads it, but upstream
main's `linalg_to_bin_enable_npu_compile_910_95` / `_A2_A3` pass
`--enable-auto-multi-buffer=False` for `num_stages == 1`. Removing a `num_stages` that may be 1
(the literal 1, or a value not written as an integer literal) is therefore an unsafe fix; any
other literal keeps the safe one. A fix removing several knobs is as weak as its weakest part,
and `--fix` alone still removes the `num_warps` beside a `num_stages=1`."""

from __future__ import annotations

from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result

HEADER = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl


@triton.jit
def k(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
"""

CONFIG = settings(select=["ASC001"])


def _fixes(body: str) -> list[tuple[int, str, str | None]]:
    """(row, the finding's knob, its fix's applicability) for each finding."""
    findings = lint_source(HEADER + body, "k.py", CONFIG).findings
    return [
        (f.location.row - HEADER.count("\n"), f.message.split("`")[1], f.fix and f.fix.applicability) for f in findings
    ]


def _fixed(body: str, unsafe: bool) -> tuple[str, list[str]]:
    result, fixed = fix_result(lint_source(HEADER + body, "k.py", CONFIG), CONFIG, unsafe=unsafe)
    text = fixed.fixed if fixed is not None else HEADER + body
    return text[len(HEADER) :], [f.message.split("`")[1] for f in result.findings]


def test_removing_num_stages_1_is_unsafe_and_says_why():
    body = "def run(x):\n    k[(1,)](x, BLOCK=64, num_stages=1)\n"
    findings = lint_source(HEADER + body, "k.py", CONFIG).findings
    assert [(f.fix.applicability, f.fix.message) for f in findings if f.fix] == [
        (
            "unsafe",
            "Remove `num_stages` (no effect on triton-ascend 3.2, but newer triton-ascend reads"
            " `num_stages=1` as automatic multi-buffering off: write `multibuffer=False` if that is meant)",
        )
    ]
    assert _fixed(body, unsafe=False) == (body, ["num_stages"])
    assert _fixed(body, unsafe=True) == ("def run(x):\n    k[(1,)](x, BLOCK=64)\n", [])


def test_num_stages_the_rule_cannot_read_is_unsafe_other_literals_safe():
    body = (
        "def run(x, stages):\n"
        "    k[(1,)](x, BLOCK=64, num_stages=stages)\n"
        "    k[(1,)](x, BLOCK=64, num_stages=2)\n"
        "    k[(1,)](x, BLOCK=64, num_stages=3)\n"
        "    k[(1,)](x, BLOCK=64, num_stages=stages + 1)\n"
    )
    assert _fixes(body) == [
        (2, "num_stages", "unsafe"),
        (3, "num_stages", "safe"),
        (4, "num_stages", "safe"),
        (5, "num_stages", "unsafe"),
    ]


def test_num_stages_2_keeps_its_safe_fix():
    body = "def run(x):\n    k[(1,)](x, BLOCK=64, num_warps=4, num_stages=2)\n"
    assert _fixed(body, unsafe=False) == ("def run(x):\n    k[(1,)](x, BLOCK=64)\n", [])


def test_plain_fix_removes_num_warps_beside_num_stages_1_in_a_config():
    body = (
        "@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=4, num_stages=1)], key=[])\n"
        "@triton.jit\n"
        "def t(x, BLOCK: tl.constexpr):\n"
        "    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
    )
    assert _fixes(body) == [(1, "num_warps", "safe"), (1, "num_stages", "unsafe")]
    text, left = _fixed(body, unsafe=False)
    assert text == body.replace("num_warps=4, ", "") and left == ["num_stages"]
    # with unsafe fixes both go in one pass, whichever order the keywords are in
    text, left = _fixed(body, unsafe=True)
    assert text == body.replace(", num_warps=4, num_stages=1", "") and left == []
    swapped = body.replace("num_warps=4, num_stages=1", "num_stages=1, num_warps=4")
    text, left = _fixed(swapped, unsafe=True)
    assert text == body.replace(", num_warps=4, num_stages=1", "") and left == []


def test_dict_entries_and_updates_split_the_same_way():
    body = (
        "def run(x, even):\n"
        "    kw = {'BLOCK': 64, 'num_warps': 4, 'num_stages': 1}\n"
        "    kw.update({'EVEN': even, 'num_warps': 8, 'num_stages': 1})\n"
        "    k[(1,)](x, **kw)\n"
    )
    text, left = _fixed(body, unsafe=False)
    assert text == body.replace("'num_warps': 4, ", "").replace("'num_warps': 8, ", "")
    assert left == ["num_stages", "num_stages"]
    text, left = _fixed(body, unsafe=True)
    assert text == body.replace(", 'num_warps': 4, 'num_stages': 1", "").replace(
        ", 'num_warps': 8, 'num_stages': 1", ""
    )
    assert left == []


def test_a_comprehension_name_over_literals_none_1_keeps_the_safe_fix():
    body = (
        "a = [triton.Config({}, num_warps=4, num_stages=s) for s in [2, 3, 4]]\n"
        "b = [triton.Config({}, num_stages=s) for s in [1, 2]]\n"
        "c = [triton.Config({}, num_stages=s) for s in STAGES]\n"
        "e = [triton.Config({}, num_stages=s) for s in [2, n]]\n"
        "def f(s):\n"
        "    return [triton.Config({'BT': t}, num_stages=s) for t in [16, 32] for s in [2, 3]]\n"
    )
    assert [(row, applicability) for row, knob, applicability in _fixes(body) if knob == "num_stages"] == [
        (1, "safe"),
        (2, "unsafe"),
        (3, None),  # a clause the merge keeps, its knob kept (no fix)
        (4, "unsafe"),  # an element that is no integer literal
        (6, "safe"),  # a comprehension clause over literals hides the parameter
    ]


def test_a_config_merge_removing_num_stages_1_is_unsafe_as_a_whole():
    body = (
        "configs = [\n"
        "    triton.Config({'BT': 32}, num_warps=2, num_stages=1),\n"
        "    triton.Config({'BT': 32}, num_warps=4, num_stages=1),\n"
        "]\n"
        "loops = [triton.Config({'BT': bt}, num_stages=s) for bt in (32, 64) for s in (1, 2)]\n"
        "safe = [triton.Config({'BT': bt}, num_stages=s) for bt in (32, 64) for s in (2, 3)]\n"
    )
    assert {(row, applicability) for row, _, applicability in _fixes(body)} == {
        (2, "unsafe"),
        (3, "unsafe"),
        (5, "unsafe"),  # a comprehension name that may be 1
        (6, "safe"),  # one that is never 1
    }
    text, _ = _fixed(body, unsafe=True)
    assert text == (
        "configs = [\n"
        "    triton.Config({'BT': 32}),\n"
        "]\n"
        "loops = [triton.Config({'BT': bt}) for bt in (32, 64)]\n"
        "safe = [triton.Config({'BT': bt}) for bt in (32, 64)]\n"
    )
