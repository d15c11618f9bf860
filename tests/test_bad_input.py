"""Files that cannot be linted, through the real CLI: one clear diagnostic each on stderr (path,
and row:col where known), exit code 2, no traceback — and the good file next to them is still
linted.

All the bad files sit in one `triton_ascend/` folder with a good kernel and are linted in one
run; each test checks its own file's diagnostic.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# A kernel module with one finding (ASC001).
GOOD = """\
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x, y, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o))

def copy(x, y):
    copy_kernel[(1,)](x, y, BLOCK=1024, num_warps=4)
"""
GOOD_FINDING = "triton_ascend/good.py:11:41: ASC001"
# The start of a kernel module: enough for every rule's text pre-filter to let the file through.
HEAD = GOOD.split("def copy(")[0]
HEAD_ROWS = HEAD.count("\n")


def python_error_position(text: str) -> str:
    """Where CPython's own parser places the syntax error (the oracle): `row:col`."""
    try:
        compile(text, "bad.py", "exec")
    except SyntaxError as error:
        return f"{error.lineno}:{error.offset}"
    raise AssertionError("the text is valid Python")


SYNTAX = HEAD + "def launch(x, y):\n    z = = x\n    copy_kernel[(1,)](x, z, BLOCK=64)\n"
# No rule's trigger words: the file must still be parsed and its error reported.
PLAIN_SYNTAX = "def helper(:\n    pass\n"
NUL = HEAD + "x = 1\ny = \0\n"
DEEP = HEAD + "x = " + "(" * 300 + "1" + ")" * 300 + "\n"
LONG_LINE = "x = [" + "1, " * 3340 + "]"

# file name -> (content, expected `path[:row:col]` (`*`: any number), words in the message)
CASES = {
    "syntax.py": (SYNTAX.encode(), f"syntax.py:{python_error_position(SYNTAX)}", "syntax"),
    "plain_syntax.py": (PLAIN_SYNTAX.encode(), f"plain_syntax.py:{python_error_position(PLAIN_SYNTAX)}", "syntax"),
    "nul.py": (NUL.encode(), f"nul.py:{HEAD_ROWS + 2}:5", "nul"),
    "latin1.py": (HEAD.encode() + b"# caf\xe9 au lait\n", f"latin1.py:{HEAD_ROWS + 1}:*", "not valid utf-8"),
    # the parenthesis past CPython's nesting limit of 200
    "deep.py": (DEEP.encode(), f"deep.py:{HEAD_ROWS + 1}:{len('x = ') + 201}", "nested parentheses"),
    "big.py": ((HEAD + "x = 1\n" * (6 * 1024 * 1024 // 6)).encode(), "big.py", "too large"),
    "long_line.py": ((HEAD + LONG_LINE + "\n").encode(), f"long_line.py:{HEAD_ROWS + 1}:1", "line too long"),
}


def check(root: Path, *paths: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ascend_lint", "check", *(paths or ["."])],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )


def new_project(root: Path) -> Path:
    (root / "triton_ascend").mkdir()
    (root / "triton_ascend" / "good.py").write_text(GOOD, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def bad_run(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess:
    root = new_project(tmp_path_factory.mktemp("bad"))
    for name, (data, _, _) in CASES.items():
        (root / "triton_ascend" / name).write_bytes(data)
    # valid Python, like every empty __init__.py: not an error
    (root / "triton_ascend" / "__init__.py").write_bytes(b"")
    return check(root, ".", "triton_ascend/missing.py")


def diagnostics_for(done: subprocess.CompletedProcess, path: str) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith(f"{path}:")]


def assert_diagnostic(done: subprocess.CompletedProcess, where: str, words: str) -> None:
    """Exactly one line for the file: `where: error: ...words...`."""
    path = where.split(":")[0]
    (line,) = diagnostics_for(done, path)
    assert re.match(re.escape(where).replace(r"\*", r"\d+") + ": error: ", line), line
    assert words in line.lower(), line


def test_the_good_file_alone_has_its_finding(tmp_path: Path) -> None:
    done = check(new_project(tmp_path))
    assert (done.returncode, done.stderr) == (1, "")
    assert GOOD_FINDING in done.stdout


def test_bad_files_exit_2_without_traceback_and_the_good_file_is_linted(bad_run) -> None:
    assert bad_run.returncode == 2
    assert "Traceback" not in bad_run.stderr and "internal error" not in bad_run.stderr
    assert GOOD_FINDING in bad_run.stdout
    # nothing on stderr but the diagnostics of the bad files (checked one by one below)
    paths = [f"triton_ascend/{name}" for name in (*CASES, "missing.py")]
    for line in bad_run.stderr.splitlines():
        assert any(line.startswith(f"{path}:") for path in paths), line


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_clear_diagnostic(bad_run, name: str) -> None:
    _, where, words = CASES[name]
    assert_diagnostic(bad_run, f"triton_ascend/{where}", words)


def test_empty_file_is_valid_python_and_not_an_error(bad_run) -> None:
    assert diagnostics_for(bad_run, "triton_ascend/__init__.py") == []


def test_nonexistent_path(bad_run) -> None:
    assert_diagnostic(bad_run, "triton_ascend/missing.py", "no such file")


def make_unreadable(path: Path) -> None:
    path.chmod(0)
    if os.access(path, os.R_OK):  # root (or CAP_DAC_OVERRIDE) reads through chmod 000
        path.chmod(0o755)
        pytest.skip("running with privileges that bypass file permissions: chmod 000 does not block reads")


def test_unreadable_directory(tmp_path: Path) -> None:
    root = new_project(tmp_path)
    locked = root / "triton_ascend" / "locked"
    locked.mkdir()
    (locked / "kernel.py").write_text(GOOD, encoding="utf-8")
    make_unreadable(locked)
    try:
        done = check(root)
    finally:
        locked.chmod(0o755)
    assert done.returncode == 2 and GOOD_FINDING in done.stdout
    assert_diagnostic(done, "triton_ascend/locked", "cannot read directory")
    assert len(done.stderr.splitlines()) == 1


def test_unreadable_file(tmp_path: Path) -> None:
    root = new_project(tmp_path)
    locked = root / "triton_ascend" / "locked.py"
    locked.write_text(GOOD, encoding="utf-8")
    make_unreadable(locked)
    try:
        done = check(root)
    finally:
        locked.chmod(0o644)
    assert done.returncode == 2 and GOOD_FINDING in done.stdout
    assert_diagnostic(done, "triton_ascend/locked.py", "cannot read file")
    assert len(done.stderr.splitlines()) == 1
