"""Issue 11's eight reproducers, each a file of a few lines, through the real `ascend-lint` command:
never a traceback or an internal error, CPython's verdict on syntax, fixes in one pass, linear
work on big files, and positions that stay right after a form feed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import libcst
import pytest
from conftest import FIXTURES, REPO, settings

from ascend_lint import positions, source
from ascend_lint.engine import lint_source

CLI = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--target-all"]
HEAD = "import triton\nimport triton.language as tl\n\n\n"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The command, importing this checkout's ascend_lint whatever the working directory."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8", timeout=300
    )
    return done


def cpython_error(data: bytes | str) -> SyntaxError:
    """CPython's own verdict (the oracle)."""
    try:
        compile(data, "<oracle>", "exec")
    except SyntaxError as error:
        return error
    raise AssertionError("CPython accepts the text")


def assert_no_crash(done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.returncode in (0, 1, 2)


# ---- 1. a BOM and a latin-1 cookie: refused as CPython refuses it, also by --fix ---------------

BOM_LATIN1 = (
    b"\xef\xbb\xbf# coding: latin-1\n" + (HEAD + "@triton.jit\ndef k(x, B):\n    n = B.to(tl.int64)\n").encode()
)


def test_bom_with_a_latin1_cookie_is_refused_with_cpythons_message_and_fix_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "bom.py").write_bytes(BOM_LATIN1)
    good = HEAD + "@triton.jit\ndef k(x, B):\n    n = B.to(tl.int64)\n"
    (tmp_path / "good.py").write_text(good)
    done = run("--fix", "bom.py", "good.py", cwd=tmp_path)
    assert_no_crash(done)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"bom.py:1:1: error: SyntaxError: {cpython_error(BOM_LATIN1).msg}"]
    assert "iso-8859-1 with BOM" in done.stderr
    assert (tmp_path / "bom.py").read_bytes() == BOM_LATIN1
    assert (tmp_path / "good.py").read_text() == good.replace("B.to(tl.int64)", "tl.cast(B, tl.int64)")


# ---- 2. valid Python that crashed kernels.py; CPython's syntax errors libcst disagrees on -------

KERNELS_PY = {
    "bytes_annotation.py": HEAD + '@triton.jit\ndef k(x: b"c", B):\n    n = B.to(tl.int64)\n',
    "hex_do_not_specialize.py": HEAD + "@triton.jit(do_not_specialize=[0x0])\ndef k(x, B):\n    n = B.to(tl.int64)\n",
    # a form feed inside a line's indentation (CPython counts columns from it): libcst writes
    # the block's indentation on every line, positions.py matched it as text (LayoutError)
    "form_feed_in_the_blocks_indentation.py": HEAD
    + "@triton.jit\ndef k(x, B):\n    \f    i = 0\n    n = B.to(tl.int64)\n",
    "form_feed_in_a_lines_indentation.py": HEAD
    + "@triton.jit\ndef k(x, B):\n    i = 0\n    \f    n = B.to(tl.int64)\n",
    "tab_and_form_feed.py": HEAD + "@triton.jit\ndef k(x, B):\n    i = 0\n\t\f    n = B.to(tl.int64)\n",
}


@pytest.mark.parametrize("name", sorted(KERNELS_PY))
def test_valid_kernels_are_linted_without_internal_error(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(KERNELS_PY[name])
    done = run(name, cwd=tmp_path)
    assert_no_crash(done)
    assert done.returncode == 1 and "ASC002" in done.stdout, done.stdout + done.stderr


# Invalid for CPython, but libcst parses them (the key) or raises its own validation error.
CPYTHON_REJECTS = {
    "non_ascii_bytes_key.py": HEAD
    + '@triton.heuristics({"HAS": lambda args: args[b"\u00e9"] is None})\n'
    + "@triton.jit\ndef k(x, h0, HAS: tl.constexpr):\n    n = x.to(tl.int64)\n",
    "bytes_and_str.py": HEAD + '@triton.jit\ndef k(x, B):\n    n = B.to(tl.int64)\n\nx = b"a" "b"\n',
    "repeated_keyword.py": HEAD + "@triton.jit\ndef k(x, B):\n    n = B.to(tl.int64)\n    f(a=1, a=2)\n",
}


@pytest.mark.parametrize("name", sorted(CPYTHON_REJECTS))
def test_syntax_errors_are_cpythons_even_where_libcst_disagrees(tmp_path: Path, name: str) -> None:
    text = CPYTHON_REJECTS[name]
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = run(name, cwd=tmp_path)
    assert_no_crash(done)
    error = cpython_error(text)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"{name}:{error.lineno}:{error.offset}: error: SyntaxError: {error.msg}"]


# ---- 3. a 160-link `.to` chain: fixed whole, in one pass ----------------------------------------


def test_a_long_to_chain_is_fixed_in_one_pass(tmp_path: Path) -> None:
    links = 160
    (tmp_path / "chain.py").write_text(HEAD + "@triton.jit\ndef k(x, B):\n    n = B" + ".to(tl.int64)" * links + "\n")
    done = run("--fix", "--show-fixes", "chain.py", cwd=tmp_path)
    assert_no_crash(done)
    assert done.returncode == 0, done.stderr
    # only the first link reads the constexpr (the others read an int64 tensor): one finding, one fix
    assert done.stdout.startswith("Fixed 1 finding:\n- chain.py:\n    1 × ASC002 (Use `tl.cast`)\n")
    fixed = (tmp_path / "chain.py").read_text()
    assert fixed.endswith("    n = tl.cast(B, tl.int64)" + ".to(tl.int64)" * (links - 1) + "\n")


# ---- 4. big files: parsed in pieces, positions computed only where findings are ---------------


LAST_KERNEL = """

@triton.jit
def scaled(x, y, B):
    n = B.to(tl.int64)
    tl.store(y, tl.load(x) * n)


def launch(x, y, B):
    scaled[(1,)](x, y, B, num_warps=4)
"""


def test_a_big_file_is_parsed_in_pieces_and_positioned_only_where_findings_are(monkeypatch) -> None:
    """What made big files slow, measured as work rather than time: libcst's parse slows down
    per line as a file grows, and the positions of findings in the last function came from
    generating the code of the whole module."""
    text = (FIXTURES / "triton_ascend" / "clean_kernels.py").read_text() * 20 + LAST_KERNEL
    whole = lint_source(text, "big.py", settings(timeout_per_file=None))
    parsed, generated = [], []
    real_parse, real_add = libcst.parse_module, positions._AlignedState.add_token
    monkeypatch.setattr(libcst, "parse_module", lambda text: parsed.append(len(text)) or real_parse(text))
    monkeypatch.setattr(source, "PIECE_CHARS", 8 * 1024)
    monkeypatch.setattr(
        positions._AlignedState, "add_token", lambda state, value: generated.append(value) or real_add(state, value)
    )
    pieces = lint_source(text, "big.py", settings())
    assert pieces.error is None and pieces.findings == whole.findings
    assert [f.code for f in pieces.findings] == ["ASC002", "ASC001"]
    assert len(parsed) > 10 and max(parsed) < len(text) / 5
    assert sum(map(len, generated)) <= len(LAST_KERNEL)


def runner_class(count: int, method: str) -> str:
    """A host module holding one class of `count` methods written as `method` (`{i}`: its number)."""
    return "import math\n\n\nclass Runner:\n    scale = 2\n" + "".join(method.format(i=i) for i in range(count))


METHOD = "\n    def method_{i}(self, x, n):\n        total = 0\n        for j in range(n):\n            total += x[j] * {i}\n        return total\n"
METHOD_LAYOUTS = {
    "plain": METHOD,
    "decorated, a comment before": "\n    # method {i}\n    @staticmethod\n    def method_{i}(x):\n        return x\n",
    "section comments": METHOD + "\n    # ---- section {i} ----\n    # (continued)\n",
    "blank lines holding spaces": METHOD.replace("\n    def", "    \n  \n    def"),
    "CRLF": METHOD,
    "tabs": METHOD,
    "form feed": METHOD.replace("\n    def", "\n\f\n    def"),
    "nested class": "\n    class Inner{i}:\n        def method(self):\n            return {i}\n",
    "a string spelling a method": '\n    def method_{i}(self):\n        return """\n\n    def fake_{i}(self):\n"""\n',
    "a comment closing every method": METHOD + "        # end of method_{i}\n",
    "statements after the class": METHOD,
}
PARSED_WHOLE = ("a string spelling a method", "a comment closing every method")


@pytest.mark.parametrize("layout", METHOD_LAYOUTS)
def test_a_big_class_is_parsed_in_parts_into_the_tree_of_the_whole(monkeypatch, layout: str) -> None:
    """A piece that is mostly one class (vllm-ascend's model runner: 237 KB) is parsed in parts
    cut before its methods, and the tree is the one libcst builds from the whole text, whatever
    the layout; where the parts cannot be joined into it, the piece is parsed whole."""
    text = runner_class(1200, METHOD_LAYOUTS[layout])
    text = {
        "CRLF": text.replace("\n", "\r\n"),
        "tabs": text.replace("    ", "\t"),
        "statements after the class": text + "\n\nRUNNER = Runner()\nif __name__ == '__main__':\n    print(RUNNER)\n",
    }.get(layout, text)
    whole = libcst.parse_module(text)
    parsed: list[int] = []
    real_parse = libcst.parse_module
    monkeypatch.setattr(libcst, "parse_module", lambda text: parsed.append(len(text)) or real_parse(text))
    assert source.parse(text).deep_equals(whole)
    if layout in PARSED_WHOLE:  # a cut inside a string, or only after comments
        assert max(parsed) == len(text)
    else:
        assert len(parsed) > 5 and max(parsed) < len(text) / 4


# ---- 5. a form feed at the start of an indented line ---------------------------------------------

FORM_FEED = (
    HEAD + "@triton.jit\ndef k(p_A, p_B, p_Ao):\n    b_A = tl.load(p_A)\n    b_B = tl.load(p_B)\n"
    "    b_C = tl.dot(b_A, b_B)\n    tl.store(p_B, b_C)\n\f    tl.store(p_Ao, b_A)\n"
)
LAST = FORM_FEED.count("\n")


def test_form_feed_positions_text_output_and_noqa(tmp_path: Path) -> None:
    (tmp_path / "ff.py").write_text(FORM_FEED)
    done = run("ff.py", cwd=tmp_path)
    assert_no_crash(done)
    column = FORM_FEED.split("\n")[-2].index("b_A)") + 1
    assert done.stdout.startswith(f"ff.py:{LAST}:{column}: ASC003 ")
    assert f"  {LAST} | \f    tl.store(p_Ao, b_A)\n" in done.stdout
    assert f"     | {' ' * (column - 1)}^^^\n" in done.stdout
    (tmp_path / "ff.py").write_text(FORM_FEED.replace("b_A)\n", "b_A)  # noqa: ASC003\n"))
    assert run("ff.py", cwd=tmp_path).returncode == 0


def test_form_feed_fix_reads_the_copy_and_keeps_the_form_feed(tmp_path: Path) -> None:
    (tmp_path / "ff.py").write_text(FORM_FEED)
    done = run("--fix", "--unsafe-fixes", "ff.py", cwd=tmp_path)
    assert_no_crash(done)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "ff.py").read_text() == FORM_FEED.replace(
        "    b_C = tl.dot", "    b_A_c = (b_A + 0.0).to(b_A.dtype)\n    b_C = tl.dot"
    ).replace("\f    tl.store(p_Ao, b_A)", "\f    tl.store(p_Ao, b_A_c)")


def test_a_number_too_large_for_a_float_is_no_ub_capacity() -> None:
    """Found by the fuzzer in CI: ASC012 divided a 4,000-digit literal into KiB as a float."""
    huge = "0x" + "f" * 4000
    for name in ("UNIFIED_BUFFER_SIZE", "UB_CAPACITY_BITS", "UB_SIZE_KB"):
        result = lint_source(f"{name} = {huge}\n", "triton_ascend/k.py", settings())
        assert (result.error, result.findings) == (None, [])
    assert [f.code for f in lint_source("UB_SIZE_KB = 192\n", "triton_ascend/k.py", settings()).findings] == ["ASC012"]
