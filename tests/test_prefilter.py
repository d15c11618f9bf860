"""Prefilters skip rules on files that lack a token every finding needs; they must lose nothing.

The corpus tests lint every fixture and the whole fla-core tree (`--target-all`) with and
without prefilters and compare the findings. Files where no rule is skipped take the same code
path both ways, so only files where the prefilter skipped a rule are linted twice.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO
from fla_corpus import fla_root
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_lint.config import Settings
from ascend_lint.engine import lint_source
from ascend_lint.prefilter import PACKAGE_IMPORT, Words
from ascend_lint.registry import all_rules, rule_by_selector

KERNEL_HEAD = """import triton
import triton.language as tl


@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
"""


def codes(source: str, filename: str = "k.py", **options) -> list[tuple[int, str]]:
    result = lint_source(source, filename, Settings(root=REPO, target_all=True), **options)
    assert result.error is None, result.error
    return [(f.location.row, f.code) for f in result.findings]


def test_line_break_after_the_operator_keeps_the_asc004_finding():
    # the former text prefilter (" or " / " and ") skipped ASC004 on exactly this layout
    source = KERNEL_HEAD + "    if (USE_INITIAL_STATE and\n            i_t * BT < W):\n        b_h = tl.load(h0)\n"
    assert codes(source) == [(9, "ASC004")]


def test_tokens_in_strings_comments_and_escapes_count():
    asc001 = rule_by_selector("ASC001")
    assert not asc001.may_report(Words("kernel[grid](x, BLOCK=64)\n"))
    assert asc001.may_report(Words("# num_warps=4 is for CUDA\n"))
    assert not asc001.may_report(Words("num_warps_total = 4\n"))  # a longer word is another token
    # a string escape can spell the key ASC001 compares, so it lets every rule through
    escaped = 'LAUNCH = {"num\\x5fwarps": 4}\n\ndef launch(x):\n    kernel[(1,)](x, **LAUNCH)\n'
    assert asc001.may_report(Words(escaped))
    assert codes(escaped) == [(1, "ASC001")]
    # `triton.Config({...}, 4, 2)` writes both knobs with neither word
    positional = "import triton\n\nCONFIGS = [triton.Config({'BLOCK': 64}, 4, 2)]\n"
    assert codes(positional, "k_npu.py") == [(3, "ASC001"), (3, "ASC001")]


def test_kernel_rules_need_jit_and_their_own_tokens():
    dot = rule_by_selector("ASC003")
    task_loop = rule_by_selector("ASC006")
    assert dot.required_tokens() == (("dot", PACKAGE_IMPORT), ("jit",))
    assert rule_by_selector("ASC001").required_tokens() == (("Config", "num_stages", "num_warps"),)
    assert not dot.may_report(Words("b = tl.dot(a, w)\n"))  # no kernel without `jit`
    assert dot.may_report(Words("@triton.jit\ndef k(a, w):\n    b = tl.dot(a, w)\n"))
    assert not task_loop.may_report(Words("@triton.jit\ndef k(n):\n    for t in tl.range(0, n, 2):\n        pass\n"))


def test_an_import_of_another_module_lets_asc003_through_without_dot():
    """The dot may be in a device function of a module the file imports (`from .micro_kernel
    import f`, `import pkg.helpers as h` then `h.f(...)`)."""
    dot = rule_by_selector("ASC003")
    kernel = "@triton.jit\ndef k(a, w):\n    b = mm(a, w)\n"
    assert not dot.may_report(Words("import triton\n" + kernel))
    assert dot.may_report(Words("from .micro_kernel import mm\n" + kernel))
    assert dot.may_report(Words("if True:\n    from pkg.ops import mm\n" + kernel))
    assert dot.may_report(Words("if True: from . import helpers\n" + kernel))
    assert not dot.may_report(Words("from triton.language import math\n" + kernel))
    assert not dot.may_report(Words("import triton.language as tl, triton\n" + kernel))
    for imported in ("import pkg.helpers as h", "import pkg.helpers", "import triton, pkg.helpers as h"):
        assert dot.may_report(Words(f"{imported}\n" + kernel.replace("mm(", "h.mm("))), imported
    assert dot.may_report(Words("import triton as t, \\\n    helpers\n" + kernel))


def test_a_launch_of_an_imported_name_lets_asc010_through_without_jit():
    grid = rule_by_selector("ASC010")
    imported = "from .kernels import k\n\ndef run(x):\n    B, H = x.shape\n    k[(B, H)](x)\n"
    assert grid.may_report(Words(imported))
    assert grid.may_report(Words(imported.replace("k[(B, H)](x)", "k[(B, H)] \\\n        (x)")))
    assert grid.may_report(
        Words(imported.replace("k[", "kernels.k[").replace("from .kernels import k", "import kernels"))
    )
    assert codes(imported) == codes(imported, prefilter=False) == [(5, "ASC010")]
    # a subscript called on a name the module does not import: a list of layers, a dict of handlers
    assert not grid.may_report(Words("def run(x, layers):\n    n = x.shape[0]\n    return layers[n](x)\n"))
    assert not grid.may_report(Words("import torch\n\ndef run(x):\n    n = len(x)\n    return x[n]\n"))
    # brackets in a one-line string or a comment do not close the subscript; a `](` elsewhere
    # after a subscript of an imported name is no launch of it
    stored = 'import os\n\ndef run(x):\n    os.environ["N"] = str(len(x))\n    return f()[0](x)\n'
    assert not grid.may_report(Words(stored))
    assert grid.may_report(Words(imported.replace("k[(B, H)]", 'k[(B, H["]"])  # ]\n        ]')))
    # a star import binds names no import statement lists (Triton's binds no kernel)
    assert grid.may_report(Words(imported.replace("import k", "import *")))
    assert grid.may_report(Words(imported.replace("from .kernels import k", "from pkg.kernels \\\n    import *")))
    assert not grid.may_report(Words(imported.replace("from .kernels import k", "from triton.language import *")))
    # a choice written in the launch (`(k if c else other)[grid](...)`): a name in the parentheses
    for choice in ("(k if c else other)", "(other if flag(x) else k)", "(\n        k if c else other\n    )"):
        chosen = imported.replace("(x):", "(x, c, other):").replace("k[", f"{choice}[")
        assert grid.may_report(Words(chosen)), choice
        assert codes(chosen) == codes(chosen, prefilter=False) == [(5, "ASC010")]
    assert not grid.may_report(Words(imported.replace("k[", "(first if c else other)[")))


def test_an_alias_of_imported_kernels_over_several_lines_lets_asc010_through_without_jit():
    """`fn = k_32 if BT == 32 else k_64`, then `fn[grid](...)`: the assignment is a statement,
    which may follow a `;`, name an annotation, or go on over lines in brackets (whatever
    brackets its strings and comments hold) or after a backslash."""
    grid = rule_by_selector("ASC010")
    one_line = (
        "from .kernels import k_32, k_64\n\ndef run(x, BT=32):\n    B, T = x.shape\n"
        "    fn = k_32 if BT == 32 else k_64\n    fn[(T, B)](x, BT=BT)\n"
    )
    alias = "    fn = k_32 if BT == 32 else k_64\n"
    for layout in (
        "    fn = (\n        k_32 if BT == 32 else k_64\n    )\n",
        "    fn = \\\n        k_32 if BT == 32 else k_64\n",
        "    fn = \\\r\n        k_32 if BT == 32 else k_64\n",
        "    n = 1; fn = k_32 if BT == 32 else k_64\n",
        "    if BT: fn = k_32 if BT == 32 else k_64\n",
        "    fn = (  # the kernel for BT\n        k_32 if BT == 32 else k_64\n    )\n",
        '    fn = pick(")",\n        k_32 if BT == 32 else k_64)\n',  # a bracket in a string
        "    fn = pick(  # )\n        k_32 if BT == 32 else k_64)\n",  # in a comment
        "    fn: Callable = k_32 if BT == 32 else k_64\n",
        "    fn: dict[int, Callable] = {32: k_32, 64: k_64}[BT]\n",
    ):
        assert grid.may_report(Words(one_line.replace(alias, layout))), layout
    # the value ends with its statement: a name of the next one is not the alias's
    other = one_line.replace(alias, "    fn = (\n        BT\n    )\n    g = k_32\n")
    assert not grid.may_report(Words(other))


def test_an_alias_of_imported_kernels_in_brackets_is_linted(tmp_path: Path):
    kernel = "\n\n@triton.jit\ndef {}(x, BT: tl.constexpr):\n    tl.store(x + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)\n"
    head = "import triton\nimport triton.language as tl\n"
    (tmp_path / "kernels.py").write_text(head + kernel.format("k_32") + kernel.format("k_64"))
    ops = tmp_path / "ops.py"
    settings = Settings(root=tmp_path, target_all=True)
    for alias in ("fn = (\n        k_32 if BT == 32 else k_64\n    )", "fn: Any = k_32 if BT == 32 else k_64"):
        ops.write_text(
            "from typing import Any\n\nfrom .kernels import k_32, k_64\n\ndef run(x, BT=32):\n"
            f"    B, T, H = x.shape\n    {alias}\n    fn[(T, B * H)](x, BT=BT)\n"
        )
        launch_row = ops.read_text().count("\n")
        findings = lint_source(ops.read_text(), str(ops), settings).findings
        assert [(f.location.row, f.code) for f in findings] == [(launch_row, "ASC010")], alias


def test_asc012_needs_a_name_its_check_accepts():
    hard_coded_ub = rule_by_selector("ASC012")
    assert not hard_coded_ub.may_report(Words("UB_ALIGN = 32\n_FALLBACK_UB_BITS = 65536 * 8\nsub = 1\n"))
    assert hard_coded_ub.may_report(Words("tile = f(ub_size)\n"))
    # `maxUB` has a `ub` part although no word boundary precedes it
    assert codes("maxUB = 196608\n") == codes("maxUB = 196608\n", prefilter=False) == [(1, "ASC012")]
    # `UNIFIED_BUFFER_SIZE` holds no `ub`: the prefilter finds it from `unified`
    spelled_out = "UNIFIED_BUFFER_SIZE = 1572864\n"
    assert codes(spelled_out) == codes(spelled_out, prefilter=False) == [(1, "ASC012")]
    assert not hard_coded_ub.may_report(Words("unified_rows = 65536\nGpuBuffer = 1\n"))
    # a share kept back is the capacity when the value is the capacity less a margin
    margin = "UB_SAFE_MARGIN = int(192 * 1024 * 0.9)\n"
    assert codes(margin) == codes(margin, prefilter=False) == [(1, "ASC012")]


def _skipped_rules(path: Path, settings: Settings) -> tuple[str, list[str]]:
    source = path.read_text(encoding="utf-8")
    words = Words(source)
    return source, [rule.CODE for rule in all_rules() if not rule.may_report(words)]


def _compare(path: Path, settings: Settings) -> tuple[str, list, list] | None:
    """Findings with and without prefilters, for a file where the prefilter skipped a rule."""
    source, skipped = _skipped_rules(path, settings)
    if not skipped:
        return None
    with_prefilter = lint_source(source, str(path), settings)
    without = lint_source(source, str(path), settings, prefilter=False)
    return str(path), with_prefilter.findings, without.findings


def _assert_prefilters_lose_nothing(paths: list[Path], settings: Settings) -> int:
    with ProcessPoolExecutor(2) as pool:
        compared = [c for c in pool.map(_compare, paths, [settings] * len(paths), chunksize=8) if c]
    for filename, with_prefilter, without in compared:
        assert with_prefilter == without, filename
    return len(compared)


def test_asc008_needs_a_word_of_a_narrow_integer_dtype_as_the_host_or_kernel_spells_it():
    int32 = rule_by_selector("ASC008")
    kernel = KERNEL_HEAD.replace("h0, W,", "q, cu_seqlens, W,") + (
        "    bos = tl.load(cu_seqlens + i_t)\n    tl.store(q + bos * W + tl.arange(0, BT), 0.0)\n"
    )
    launch = "\n\ndef run(q, lens):\n    k[(len(lens),)](q, {}, q.shape[1], 16)\n"
    assert not int32.may_report(Words(kernel + launch.format("lens.cumsum(0)")))
    for spelling in ("lens.cumsum(0).int()", "torch.cumsum(lens, 0, dtype=torch.int)", "lens.short()"):
        source = "import torch\n" + kernel + launch.format(spelling)
        assert int32.may_report(Words(source)), spelling
        assert codes(source) == codes(source, prefilter=False) == [(11, "ASC008")], spelling


def test_prefilters_lose_nothing_on_the_fixtures():
    paths = sorted(FIXTURES.rglob("*.py"))
    assert _assert_prefilters_lose_nothing(paths, Settings(root=REPO, target_all=True)) > 0


@pytest.mark.network
def test_prefilters_lose_nothing_on_the_fla_tree():
    root = fla_root()
    paths = sorted((root / "fla").rglob("*.py"))
    compared = _assert_prefilters_lose_nothing(paths, Settings(root=root, target_all=True))
    assert compared > len(paths) // 2  # most of the tree has files a prefilter acts on


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"ubUB_x1 .(\n²éµ٣", "unified", "UNIFIED", "Unifie"]), max_size=30).map("".join))
def test_asc012_finds_the_words_a_regex_of_every_word_holding_ub_or_unified_finds(text: str) -> None:
    # `_words_with_ub_or_unified` widens each `ub` / `unified` to its word instead of retrying
    # the regex from every character; the words found (Unicode letters and digits included)
    # are the same
    from ascend_lint.rules.hard_coded_ub import _words_with_ub_or_unified

    holding = r"\w*(?:[uU][bB]|[uU][nN][iI][fF][iI][eE][dD])\w*"
    assert list(_words_with_ub_or_unified(text)) == re.findall(holding, text)


def test_a_comment_banner_after_a_closing_bracket_is_read_in_linear_time():
    """xtuner's configs (`...]`, a blank line, a line of 70 `#`) had the launch search backtrack
    through every way to split the banner: the lint of one 7 KB file never ended. Run apart,
    so that a regression fails on the timeout instead of hanging the suite."""
    banner = "x = a[0]\n\n" + "#" * 70 + "\n#  PART 2  " + "#" * 40 + "\n"
    check = (
        "from ascend_lint.prefilter import Words, LAUNCH\n"
        f"assert not Words({banner!r} * 200).has(LAUNCH)\n"
        "assert Words('from k import f\\nf[g]  ' + '#' * 70 + '\\\\n(x)').has(LAUNCH) is False\n"
        "assert Words('from k import f\\nf[g]  ' + '#' * 70 + '\\n  (x)').has(LAUNCH)\n"
    )
    subprocess.run([sys.executable, "-c", check], cwd=REPO, check=True, timeout=60)


@pytest.mark.parametrize(
    ("tokens", "hint"),
    [
        ('("make_block_ptr",)', "one group of alternatives is (('make_block_ptr',),)"),
        ('("make_block_ptr", "advance")', "one group of alternatives is (('make_block_ptr', 'advance'),)"),
        ('(("make_block_ptr",), ())', "got (('make_block_ptr',), ())"),
        ('[("int64",)]', "got [('int64',)]"),
        ('(("to", ".to"),)', "'.to' is not a word"),
        ('(("tl.dot",),)', "'tl.dot' is not a word"),
    ],
)
def test_the_registry_refuses_required_tokens_not_grouped(tmp_path, monkeypatch, tokens, hint) -> None:
    """`REQUIRES_TOKENS = ("make_block_ptr",)` would be read a character at a time (one group
    per letter: the rule would almost never run, silently); the registry refuses it by name."""
    from ascend_lint.registry import rules_in

    package = tmp_path / "malformed_rules"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    rule = f"from ascend_lint.rule import Rule\n\n\nclass Dummy(Rule):\n    CODE = 'ASC999'\n    REQUIRES_TOKENS = {tokens}\n"
    (package / "dummy.py").write_text(rule, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "malformed_rules", raising=False)
    monkeypatch.delitem(sys.modules, "malformed_rules.dummy", raising=False)
    import malformed_rules

    with pytest.raises(
        TypeError, match=re.escape("malformed_rules.dummy.Dummy (ASC999): REQUIRES_TOKENS must be")
    ) as refused:
        rules_in(malformed_rules)
    assert hint in str(refused.value)
    assert all(isinstance(group, tuple) and group for rule in all_rules() for group in rule.REQUIRES_TOKENS)
