"""ASC001 fixes that would change code beyond the knob they remove, and so are declined (or made
otherwise): a dict entry another launch binds to its kernel's parameter, a named
`triton.Config` whose knob host code reads, a config list whose length or order host code
measures through the calls of the function returning it, and lists built from other lists,
which a merge cannot see whole. Issue 11: a fix must never be wrong."""

from __future__ import annotations

from pathlib import Path

import libcst
from conftest import knob_rows, lint_and_fix, settings

from ascend_lint.engine import lint_file
from ascend_lint.model import Finding

HEADER = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl


@triton.jit
def k(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
"""
FIRST = HEADER.count("\n") + 1  # the row of the first line after the header


def _lint(source: str) -> tuple[list[Finding], str | None]:
    findings, fixed = lint_and_fix(HEADER + source, "k_npu.py", select=["ASC001"])
    if fixed is not None:
        libcst.parse_module(fixed)
        _, refixed = lint_and_fix(fixed, "k_npu.py", select=["ASC001"])
        assert refixed is None, "the fix is not idempotent"
    return findings, fixed


def _rows(findings: list[Finding]) -> list[tuple[int, str, str | None]]:
    return knob_rows(findings, FIRST)


def test_a_dict_entry_another_launch_binds_to_its_kernels_parameter_keeps_its_finding_but_no_fix() -> None:
    findings, fixed = _lint(
        """
@triton.jit
def staged(x, n, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    for i in tl.range(0, n, BLOCK, num_stages=num_stages):
        tl.store(x + i + tl.arange(0, BLOCK), 0.0)
KW = {"BLOCK": 64, "num_stages": 2, "num_warps": 8}
def run(x):
    k[(1,)](x, **KW)
    staged[(1,)](x, x.numel(), **KW)
"""
    )
    rows = _rows(findings)
    assert [row[:2] for row in rows] == [(5, "num_stages"), (5, "num_warps")]
    assert rows[0][2] is not None and "staged" in rows[0][2] and "parameter" in rows[0][2]
    assert rows[1][2] is None  # `num_warps` goes; `num_stages`, which `staged` takes, stays
    assert fixed is not None and 'KW = {"BLOCK": 64, "num_stages": 2}' in fixed


def test_a_named_config_whose_knob_host_code_reads_keeps_its_finding_but_no_fix() -> None:
    findings, fixed = _lint(
        """
CFG = triton.Config({"BLOCK": 64}, num_warps=8, num_stages=2)
OTHER = triton.Config({"BLOCK": 128}, num_warps=8)
@triton.autotune(configs=[CFG, OTHER], key=[])
@triton.jit
def tuned(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
def run(x):
    big = CFG.num_warps > 4
    tuned[(1,)](x)
    return big
"""
    )
    rows = _rows(findings)
    assert [row[:2] for row in rows] == [(1, "num_warps"), (1, "num_stages"), (2, "num_warps")]
    assert rows[0][2] is not None and "`CFG.num_warps`" in rows[0][2]
    assert rows[1][2] is None and rows[2][2] is None  # what no code reads goes
    assert fixed is not None
    assert 'CFG = triton.Config({"BLOCK": 64}, num_warps=8)' in fixed
    assert 'OTHER = triton.Config({"BLOCK": 128})' in fixed


def test_a_config_list_a_function_returns_keeps_its_length_when_its_calls_are_measured_or_indexed() -> None:
    measured = """
def get_configs():
    return [triton.Config({"BLOCK": b}, num_warps=w) for b in [64, 128] for w in [4, 8]]
N_CONFIGS = len(get_configs())
FALLBACK = get_configs()[3]
@triton.autotune(configs=get_configs(), key=[])
@triton.jit
def tuned(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
"""
    findings, fixed = _lint(measured)
    [(row, knob, reason)] = _rows(findings)
    assert (row, knob) == (2, "num_warps") and reason is not None and "`w`" in reason
    assert fixed is None  # no merge moving what `get_configs()[3]` reads, and no copies left
    # used only as configs: merged
    findings, fixed = _lint(measured.replace("N_CONFIGS = len(get_configs())\nFALLBACK = get_configs()[3]\n", ""))
    assert fixed is not None and 'return [triton.Config({"BLOCK": b}) for b in [64, 128]]' in fixed


def test_a_config_list_a_function_returns_merges_when_a_name_bound_to_its_call_is_used_only_as_configs() -> None:
    bound = """
def get_configs():
    return [triton.Config({"BLOCK": b}, num_warps=w) for b in [64, 128] for w in [4, 8]]
CONFIGS = get_configs()
@triton.autotune(configs=CONFIGS, key=[])
@triton.jit
def tuned(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
"""
    findings, fixed = _lint(bound)
    [(row, knob, reason)] = _rows(findings)
    assert (row, knob, reason) == (2, "num_warps", None)
    assert fixed is not None and 'return [triton.Config({"BLOCK": b}) for b in [64, 128]]' in fixed
    assert "CONFIGS = get_configs()\n" in fixed
    # the name measured or indexed, or bound again to something read otherwise: the list keeps its length
    for use in ("N_CONFIGS = len(CONFIGS)\n", "FALLBACK = CONFIGS[3]\n", "ALL = CONFIGS\nN = len(ALL)\n"):
        findings, fixed = _lint(bound.replace("@triton.autotune", use + "@triton.autotune"))
        [(row, knob, reason)] = _rows(findings)
        assert (row, knob) == (2, "num_warps") and reason is not None and "`w`" in reason, use
        assert fixed is None, use


def test_a_merged_comprehension_keeps_each_kept_clauses_own_comment() -> None:
    def fixed_configs(clauses: str) -> str:
        _, fixed = _lint(
            "@triton.autotune(\n    configs=[\n        triton.Config({'BLOCK': b}, num_warps=w)\n"
            + clauses
            + "    ],\n    key=[],\n)\n@triton.jit\ndef tuned(x, BLOCK: tl.constexpr):\n"
            "    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
        )
        assert fixed is not None
        return fixed[fixed.index("configs=[") : fixed.index("key=[]")]

    # the dropped clause goes with its comment; the kept one keeps its own
    assert fixed_configs("        for b in [64, 128]  # tiles\n        for w in [4, 8]  # warps\n") == (
        "configs=[\n        triton.Config({'BLOCK': b})\n        for b in [64, 128]  # tiles\n    ],\n    "
    )
    assert fixed_configs("        for w in [4, 8]  # warps\n        for b in [64, 128]  # tiles\n") == (
        "configs=[\n        triton.Config({'BLOCK': b})\n        for b in [64, 128]  # tiles\n    ],\n    "
    )
    # two clauses on one line: the line's comment stays with the line
    assert fixed_configs("        for b in [64, 128] for w in [4, 8]  # sweep\n") == (
        "configs=[\n        triton.Config({'BLOCK': b})\n        for b in [64, 128]  # sweep\n    ],\n    "
    )
    assert fixed_configs("        for w in [4, 8] for b in [64, 128]  # sweep\n") == (
        "configs=[\n        triton.Config({'BLOCK': b})\n        for b in [64, 128]  # sweep\n    ],\n    "
    )


def test_configs_the_merge_cannot_see_together_get_no_fix_that_would_make_them_alike() -> None:
    spaces = {
        "concatenated": "BASE = [triton.Config({'BLOCK': 64})]\nSPACE = BASE + [triton.Config({'BLOCK': 64}, num_warps=8)]\n",
        "starred": "BASE = [triton.Config({'BLOCK': 64})]\nSPACE = [*BASE, triton.Config({'BLOCK': 64}, num_warps=8)]\n",
        "added to": "SPACE = [triton.Config({'BLOCK': 64}, num_warps=4)]\nSPACE += [triton.Config({'BLOCK': 64}, num_warps=8)]\n",
        "a tuple": "SPACE = (triton.Config({'BLOCK': 64}, num_warps=4), triton.Config({'BLOCK': 64}, num_warps=8))\n",
        # a list merged whole leaves a copy of a config outside it
        "merged beside": "BASE = [triton.Config({'BLOCK': 64})]\nSPACE = BASE + [\n"
        "    triton.Config({'BLOCK': 64}, num_warps=4),\n    triton.Config({'BLOCK': 64}, num_warps=8),\n]\n",
    }
    for name, space in spaces.items():
        findings, fixed = _lint(
            space + "@triton.autotune(configs=SPACE, key=[])\n@triton.jit\ndef tuned(x, BLOCK: tl.constexpr):\n"
            "    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
        )
        assert findings, name
        assert all(f.fix is None and "would be the same" in f.no_fix_reason for f in findings), name
        assert fixed is None, name
    # configs left different keep their fix
    findings, fixed = _lint(
        "BASE = [triton.Config({'BLOCK': 128})]\n"
        "@triton.autotune(configs=BASE + [triton.Config({'BLOCK': 64}, num_warps=8)], key=[])\n"
        "@triton.jit\ndef tuned(x, BLOCK: tl.constexpr):\n    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
    )
    assert fixed is not None and "BASE + [triton.Config({'BLOCK': 64})]" in fixed


def test_a_list_concatenated_with_others_is_merged_on_its_own() -> None:
    """`[Config(..., num_warps=4), Config(..., num_warps=8)] + CFG`: the two configs are in one
    list, which the fix merges (the other part is another list, with no config alike); and two
    configs of one list the fix leaves unmerged (the list's length is read) are not said to be
    in different lists."""
    kernel = "@triton.jit\ndef tuned(x, BLOCK: tl.constexpr):\n    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
    findings, fixed = _lint(
        "CFG = [triton.Config({'BLOCK': 128})]\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=4),"
        " triton.Config({'BLOCK': 64}, num_warps=8)] + CFG, key=[])\n" + kernel
    )
    assert len(findings) == 2 and all(f.fix is not None for f in findings), [f.no_fix_reason for f in findings]
    assert fixed is not None and "configs=[triton.Config({'BLOCK': 64})] + CFG," in fixed
    findings, fixed = _lint(
        "SPACE = [triton.Config({'BLOCK': 64}, num_warps=4), triton.Config({'BLOCK': 64}, num_warps=8)]\n"
        "SIZE = len(SPACE)\n@triton.autotune(configs=SPACE, key=[])\n" + kernel
    )
    assert len(findings) == 2 and fixed is None
    assert all(f.no_fix_reason is not None and "not in one list" not in f.no_fix_reason for f in findings)


def test_a_knob_read_from_a_loop_that_returns_on_its_first_trip_keeps_its_fix() -> None:
    """A loop whose body returns (or breaks) on every path never starts a second trip: the
    config it builds cannot repeat, so the knob its name feeds keeps its fix; a loop whose body
    may go on (`continue`, an `if` without `else`) may build copies, and declines it."""
    kernel = "@triton.jit\ndef tuned(x, BLOCK: tl.constexpr):\n    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
    once = (
        "def get_configs():\n    out = []\n    for nw in (2, 4, 8):\n"
        "        out.append(triton.Config({'BLOCK': 64}, num_warps=nw))\n        return out\n"
        "@triton.autotune(configs=get_configs(), key=[])\n" + kernel
    )
    findings, fixed = _lint(once)
    assert len(findings) == 1 and findings[0].fix is not None, findings[0].no_fix_reason
    assert fixed is not None and "out.append(triton.Config({'BLOCK': 64}))" in fixed
    findings, fixed = _lint(once.replace("        return out\n", "        if nw > 2:\n            return out\n"))
    assert len(findings) == 1 and findings[0].fix is None
    assert findings[0].no_fix_reason is not None and "more than once" in findings[0].no_fix_reason


def test_configs_of_exclusive_arms_or_returns_are_spaces_of_their_own_and_keep_their_fixes() -> None:
    """Configs bound to one name in the arms of an `if` (or returned by a helper's separate
    `return`s) never reach one autotuner together: alike once the knobs go, each arm keeps its fix."""
    kernel = "@triton.jit\ndef tuned(x, BLOCK: tl.constexpr):\n    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
    arms = (
        "if BIG:\n    SPACE = [triton.Config({'BLOCK': 64}, num_warps=8)]\n"
        "else:\n    SPACE = [triton.Config({'BLOCK': 64}, num_warps=4)]\n"
    )
    returns = (
        "def get_space():\n    if BIG:\n        return [triton.Config({'BLOCK': 64}, num_warps=8)]\n"
        "    return [triton.Config({'BLOCK': 64}, num_warps=4)]\n"
    )
    bound = (
        "def get_space():\n    if BIG:\n        space = [triton.Config({'BLOCK': 64}, num_warps=8)]\n"
        "    else:\n        space = [triton.Config({'BLOCK': 64}, num_warps=4)]\n    return space\n"
    )
    npu = (
        "if IS_NPU:\n    SPACE = [triton.Config({'BLOCK': 64}, num_warps=4)]\n"
        "else:\n    SPACE = [triton.Config({'BLOCK': 64}, num_warps=8), triton.Config({'BLOCK': 128}, num_warps=8)]\n"
    )
    cases = {
        "if arms": (arms, "SPACE", 2),
        "returns": (returns, "get_space()", 2),
        "bound in arms": (bound, "get_space()", 2),
        "an NPU arm": (npu, "SPACE", 1),
    }
    for name, (space, configs, fixes) in cases.items():
        findings, fixed = _lint(f"BIG = False\n{space}@triton.autotune(configs={configs}, key=[])\n{kernel}")
        assert len(findings) == fixes, name
        assert all(f.fix is not None for f in findings), (name, [f.no_fix_reason for f in findings])
        assert fixed is not None and fixed.count("[triton.Config({'BLOCK': 64})]") == fixes, name
    # an arm's configs still meet a config added to the choice: alike there, no fix
    findings, fixed = _lint(
        f"BIG = False\n{arms}@triton.autotune(configs=SPACE + [triton.Config({{'BLOCK': 64}}, num_warps=2)], key=[])\n{kernel}"
    )
    assert len(findings) == 3 and all(f.fix is None and "would be the same" in f.no_fix_reason for f in findings)
    assert fixed is None


def test_a_knob_whose_value_calls_what_may_act_keeps_its_finding_but_no_fix() -> None:
    findings, fixed = _lint(
        """
_CALLS = [0]
def _next_warps():
    _CALLS[0] += 1
    return 8
def get_num_warps(block):
    num_warps = 4
    if block >= 2048:
        num_warps = 8
    return num_warps
def run(x, n, timer):
    k[(1,)](x, BLOCK=64, num_warps=_next_warps())
    k[(1,)](x, BLOCK=64, num_warps=timer.warps())
    k[(1,)](x, BLOCK=64, num_warps=get_num_warps(n))
    k[(1,)](x, BLOCK=64, num_warps=min(8, triton.next_power_of_2(n) // 256))
"""
    )
    rows = _rows(findings)
    assert [row[:2] for row in rows] == [(11, "num_warps"), (12, "num_warps"), (13, "num_warps"), (14, "num_warps")]
    assert rows[0][2] is not None and "`_next_warps()`" in rows[0][2]
    assert rows[1][2] is not None and "`timer.warps()`" in rows[1][2]
    assert rows[2][2] is None and rows[3][2] is None  # calls computing a value only
    assert fixed is not None
    assert "k[(1,)](x, BLOCK=64)\n    k[(1,)](x, BLOCK=64)\n" in fixed


def test_a_knob_whose_value_iterates_what_may_be_an_iterator_keeps_its_finding_but_no_fix() -> None:
    """`sum(1 for _ in parts) or 4` uses `parts` up when it is an iterator (a generator, a
    file): without the knob the next reader of `parts` would see its items again. The same for
    a function of the module looping over its parameter. A loop over a literal or a `range`
    consumes nothing: the fix stays."""
    findings, fixed = _lint(
        """
def _count(items):
    n = 0
    for _ in items:
        n += 1
    return n
def run(x, parts, n):
    k[(1,)](x, BLOCK=64, num_warps=sum(1 for _ in parts) or 4)
    k[(1,)](x, BLOCK=64, num_warps=_count(parts))
    k[(1,)](x, BLOCK=64, num_warps=max(w for w in (2, 4) if w * 32 <= n))
    k[(1,)](x, BLOCK=64, num_warps=sum(1 for _ in range(n)) or 4)
"""
    )
    rows = _rows(findings)
    assert [row[:2] for row in rows] == [(7, "num_warps"), (8, "num_warps"), (9, "num_warps"), (10, "num_warps")]
    assert rows[0][2] is not None and "iterates over `parts`" in rows[0][2]
    assert rows[1][2] is not None and "`_count(parts)`" in rows[1][2]
    assert rows[2][2] is None and rows[3][2] is None
    assert fixed is not None and "k[(1,)](x, BLOCK=64)\n    k[(1,)](x, BLOCK=64)\n" in fixed


def test_a_function_imported_from_the_package_is_read_there_for_whether_it_only_computes(tmp_path: Path) -> None:
    """`num_warps=warps_for(n)` after `from .utils import warps_for`: the function is read in
    its module, as one of the module's own would be; one that only computes keeps the fix, one
    that acts (counts its calls) declines it, and so does a name the package does not define."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "utils.py").write_text(
        "CALLS = []\n\n\ndef warps_for(n):\n    return 8 if n > 4096 else 4\n\n\n"
        "def counted_warps(n):\n    CALLS.append(n)\n    return 4\n",
        encoding="utf-8",
    )
    ops = tmp_path / "pkg" / "ops.py"
    ops.write_text(
        HEADER + "from .utils import counted_warps, warps_for\nfrom .missing import other_warps\n\n\n"
        "def run(x, n):\n    k[(1,)](x, BLOCK=64, num_warps=warps_for(n))\n"
        "    k[(1,)](x, BLOCK=64, num_warps=counted_warps(n))\n    k[(1,)](x, BLOCK=64, num_warps=other_warps(n))\n",
        encoding="utf-8",
    )
    findings = lint_file(str(ops), settings(select=["ASC001"])).findings
    assert [f.no_fix_reason is None for f in findings] == [True, False, False]


def test_a_knob_read_from_a_mapping_keeps_its_fix_and_one_extending_a_callers_list_has_none() -> None:
    findings, fixed = _lint(
        """
def _warps(seen, n):
    seen += [n]
    return 8
def run(x, config):
    k[(1,)](x, BLOCK=64, num_warps=config.get("num_warps", 4))
    k[(1,)](x, BLOCK=64, num_warps=_warps([], 4))
"""
    )
    rows = _rows(findings)
    assert [row[:2] for row in rows] == [(5, "num_warps"), (6, "num_warps")]
    assert rows[0][2] is None  # a mapping's `get` only reads it
    assert rows[1][2] is not None and "`_warps([], 4)`" in rows[1][2]  # `seen += [n]` extends the caller's list
    assert fixed is not None and "k[(1,)](x, BLOCK=64)\n    k[(1,)](x, BLOCK=64, num_warps=_warps([], 4))\n" in fixed
