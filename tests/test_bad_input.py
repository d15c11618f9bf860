"""Files that cannot be linted, through the real CLI: one clear diagnostic each on stderr (path,
and row:col where known), exit code 2, no traceback — and the good file next to them is still
linted. The engine's contract (ascend_lint/source.py): refused up front, CPython's syntax error,
valid Python libcst cannot parse, an internal error (a bug: traceback with --verbose), a file
over its time budget.

All the bad files sit in one `triton_ascend/` folder with a good kernel and are linted in one
run; each test checks its own file's diagnostic.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO

from ascend_lint import engine, source
from ascend_lint.cli import main
from ascend_lint.config import Settings
from ascend_lint.fixes import Replace
from ascend_lint.kernels import Kernel
from ascend_lint.model import Position
from ascend_lint.rule import ModuleContext, Report
from ascend_lint.rules.dot_lhs_reuse import DotLhsReuse
from ascend_lint.rules.launch_num_warps import LaunchNumWarps

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
# CPython accepts it; libcst's tokenizer counts the form feed as indentation and finds no block.
# (in a kernel ASC002 reads: a file no rule needs is only compiled, and CPython accepts it)
LIBCST_CANNOT = HEAD + "@triton.jit\ndef k(x):\n    if x:\n\f        y = x.to(tl.int64)\n    z = 2\n"
# libcst accepts it; CPython does not (the verdict is CPython's).
CPYTHON_REJECTS = HEAD + "z = (yield)\n"

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
    "bom_cookie.py": (b"\xef\xbb\xbf# coding: latin-1\n" + HEAD.encode(), "bom_cookie.py:1:1", "iso-8859-1 with bom"),
    "unknown_encoding.py": (b"# coding: klingon\n" + HEAD.encode(), "unknown_encoding.py:1:1", "unknown encoding"),
    "libcst_cannot.py": (LIBCST_CANNOT.encode(), "libcst_cannot.py", "valid python that libcst cannot parse"),
    "cpython_rejects.py": (
        CPYTHON_REJECTS.encode(),
        f"cpython_rejects.py:{python_error_position(CPYTHON_REJECTS)}",
        "outside function",
    ),
}


def check(
    root: Path, *paths: str, prefix: Sequence[str] = (), environment: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess:
    """The command, importing this checkout's ascend_lint whatever the working directory (after
    `prefix`, a command that runs it: `unprivileged`'s). Its output must be UTF-8."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "ascend_lint", "check", *(paths or ["."])],
        cwd=root,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
            **(environment or {}),
        },
        input=stdin,
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


# Valid files whose strings and comments hold brackets the code does not: counted as text, the
# first opened a 60,000-character "expression" and the second nested 300 deep; neither is.
STRAY_OPENER = GOOD.replace("def copy(", 'SHAPE_ERROR = "expected (B, T"\n' + "x = 1\n" * 10_000 + "# )\ndef copy(")
QUOTED_NESTING = GOOD.replace("def copy(", "PARENS = '" + "(" * 300 + "'\ndef copy(")


@pytest.mark.parametrize("text", [STRAY_OPENER, QUOTED_NESTING], ids=["stray-opener", "quoted-nesting"])
def test_brackets_in_strings_and_comments_do_not_refuse_a_file(tmp_path: Path, text: str) -> None:
    root = new_project(tmp_path)
    (root / "triton_ascend" / "good.py").write_text(text, encoding="utf-8")
    done = check(root)
    assert (done.returncode, done.stderr) == (1, "")
    assert "ASC001" in done.stdout


def test_an_expression_too_large_is_still_refused_when_its_strings_hold_brackets() -> None:
    text = "x = (\n" + '    "(", ")",\n' * 4000 + ")\n"
    with pytest.raises(source.SourceError) as refused:
        source._check_shape(text)
    assert str(refused.value) == (
        f"expression too large to analyse (one bracketed expression spans {len(text) - 6} characters; limit 50000)"
    )
    assert refused.value.location == Position(1, 5)


def test_nonexistent_path(bad_run) -> None:
    assert_diagnostic(bad_run, "triton_ascend/missing.py", "no such file")


def make_unreadable(path: Path) -> list[str]:
    """chmod 000, and the prefix of a command that this blocks (`check`'s `prefix`): none for a
    user whom permissions bind; as root (or with CAP_DAC_OVERRIDE), which reads through chmod
    000, `setpriv` dropping the capabilities that bypass permissions, where it can."""
    path.chmod(0)
    probe = [sys.executable, "-c", "import os, sys; p = sys.argv[1]; os.listdir(p) if os.path.isdir(p) else open(p)"]
    for prefix in ([], ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]):
        if prefix and shutil.which(prefix[0]) is None:
            continue
        if b"PermissionError" in subprocess.run([*prefix, *probe, str(path)], capture_output=True).stderr:
            return prefix
    path.chmod(0o755)
    pytest.skip("running with privileges that bypass file permissions: chmod 000 does not block reads")


def test_unreadable_directory(tmp_path: Path) -> None:
    root = new_project(tmp_path)
    locked = root / "triton_ascend" / "locked"
    locked.mkdir()
    (locked / "kernel.py").write_text(GOOD, encoding="utf-8")
    prefix = make_unreadable(locked)
    try:
        done = check(root, prefix=prefix)
    finally:
        locked.chmod(0o755)
    assert done.returncode == 2 and GOOD_FINDING in done.stdout
    assert_diagnostic(done, "triton_ascend/locked", "cannot read directory")
    assert len(done.stderr.splitlines()) == 1


def test_unreadable_file(tmp_path: Path) -> None:
    root = new_project(tmp_path)
    locked = root / "triton_ascend" / "locked.py"
    locked.write_text(GOOD, encoding="utf-8")
    prefix = make_unreadable(locked)
    try:
        done = check(root, prefix=prefix)
    finally:
        locked.chmod(0o644)
    assert done.returncode == 2 and GOOD_FINDING in done.stdout
    assert_diagnostic(done, "triton_ascend/locked.py", "cannot read file")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="needs FIFOs and /dev/zero")
def test_fifos_and_devices_named_py_get_a_diagnostic_in_a_folder_and_in_a_package(tmp_path: Path) -> None:
    """A FIFO would block the read, `/dev/zero` never end it: read as files, both hung the run,
    linted or read as a module of the linted module's package."""
    root = new_project(tmp_path)
    package = root / "triton_ascend"
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "ops.py").write_text(
        "from .good import copy_kernel\nfrom .pipe import helper\n\n\ndef run(x, y):\n"
        "    copy_kernel[(1,)](x, y, BLOCK=64)\n",
        encoding="utf-8",
    )
    os.mkfifo(package / "pipe.py")
    (package / "zero.py").symlink_to("/dev/zero")
    done = subprocess.run(
        [sys.executable, "-m", "ascend_lint", "check", "--no-cache", "."],
        cwd=root,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and GOOD_FINDING in done.stdout
    assert_diagnostic(done, "triton_ascend/pipe.py", "not a regular file")
    assert_diagnostic(done, "triton_ascend/zero.py", "not a regular file")
    assert len(done.stderr.splitlines()) == 2, done.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="sparse files and RLIMIT_AS as on Linux")
def test_a_file_over_the_limit_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    """A 4 GB file (sparse: no disk) under a 2 GB address-space limit: read whole, it ran out
    of memory; refused with its size after reading one byte past the limit."""
    resource = pytest.importorskip("resource")
    root = new_project(tmp_path)
    with open(root / "triton_ascend" / "huge.py", "wb") as handle:
        handle.truncate(4 * 1024**3)
    limit = 2 * 1024**3

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "ascend_lint", "check", "--no-cache", "--jobs", "1", "."],
        cwd=root,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit_memory,
    )
    assert done.returncode == 2 and GOOD_FINDING in done.stdout, done.stderr
    assert_diagnostic(done, "triton_ascend/huge.py", f"too large to lint ({4 * 1024**3} bytes")


# ---- found by hand probes after fuzz run 15 (docs/robustness.md) ----


@pytest.mark.parametrize("options", [[], ["--isolated"], ["--force-exclude"], ["--output-format", "json"]])
def test_a_symlink_loop_gets_the_os_error_and_the_other_files_are_linted(tmp_path: Path, options: list[str]) -> None:
    """`a.py -> b.py -> a.py` in a linted folder ended the run with a traceback (RuntimeError
    from `Path.resolve()` while matching `exclude`), linting nothing; so did a file named below
    a folder that is a loop (while showing its path). Each now gets the OS's error, as when
    named (ruff: E902 for each)."""
    root = new_project(tmp_path)
    package = root / "triton_ascend"
    (package / "a.py").symlink_to("b.py")
    (package / "b.py").symlink_to("a.py")
    (package / "loop").symlink_to("loop")
    done = check(root, *options, ".", "triton_ascend/loop/c.py")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    shown = done.stderr.splitlines()
    if options[:1] == ["--output-format"]:
        assert {e["filename"] for e in json.loads(done.stdout) if e["code"] == "ASC001"} == {"triton_ascend/good.py"}
    else:
        assert GOOD_FINDING in done.stdout
    for path in ("triton_ascend/a.py", "triton_ascend/b.py", "triton_ascend/loop/c.py"):
        assert f"{path}: error: cannot read file: Too many levels of symbolic links" in shown, done.stderr
    assert len(shown) == 3, done.stderr


@pytest.mark.parametrize("options", [["--show-files"], ["--add-noqa"]])
def test_a_symlink_loop_does_not_stop_listing_or_baselining_the_other_files(tmp_path: Path, options) -> None:
    root = new_project(tmp_path)
    (root / "triton_ascend" / "a.py").symlink_to("b.py")
    (root / "triton_ascend" / "b.py").symlink_to("a.py")
    done = check(root, *options)
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
    error = "error: cannot read file: Too many levels of symbolic links"
    if options == ["--show-files"]:
        assert done.stdout.splitlines() == [
            f"triton_ascend/a.py  ({error})",
            f"triton_ascend/b.py  ({error})",
            "triton_ascend/good.py",
        ]
    else:
        loops = [f"triton_ascend/a.py: {error}", f"triton_ascend/b.py: {error}"]
        assert done.stderr.splitlines() == [*loops, "Added 1 noqa directive."]
        assert "# noqa: ASC001" in (root / "triton_ascend" / "good.py").read_text()


def test_a_path_the_os_will_not_look_at_gets_the_os_error(tmp_path: Path) -> None:
    """A file in a folder that cannot be searched (mode 000), named directly: "no such file or
    directory" (`os.path.exists` is False on any error), and without `--isolated` the search for
    its configuration ended the run with a PermissionError traceback; a module of the package
    importing from that folder was an internal error (`Path.is_file` raises on EACCES)."""
    root = new_project(tmp_path)
    package = root / "triton_ascend"
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "ops.py").write_text(
        "from .locked.kernel import copy_kernel\n\n\ndef run(x, y):\n    copy_kernel[(1,)](x, y, BLOCK=64)\n",
        encoding="utf-8",
    )
    locked = package / "locked"
    locked.mkdir()
    (locked / "__init__.py").write_text("", encoding="utf-8")
    (locked / "kernel.py").write_text(GOOD, encoding="utf-8")
    prefix = make_unreadable(locked)
    named = ["triton_ascend/locked/kernel.py", "triton_ascend/good.py", "triton_ascend/ops.py"]
    try:
        runs = [check(root, *named, prefix=prefix), check(root, "--isolated", *named, prefix=prefix)]
    finally:
        locked.chmod(0o755)
    for done in runs:
        assert done.returncode == 2 and GOOD_FINDING in done.stdout, done.stderr
        assert done.stderr.splitlines() == [
            "triton_ascend/locked/kernel.py: error: cannot read file: Permission denied"
        ]


NOT_UTF8 = os.fsdecode(b"k\xff.py")  # `k\udcff.py`: how Python holds the name
SHOWN = "k\ufffd.py"  # as ruff shows it


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 (macOS refuses one)")
def test_a_file_name_that_is_not_utf8_is_linted_and_shown_as_ruff_shows_it(tmp_path: Path) -> None:
    """`k\xff.py` in a package was an internal error (UnicodeEncodeError: the search for its
    kernels' launches in the package encoded its name), with the cache a traceback (the entry's
    JSON), and its name was printed raw on stdout (an error with a strict stdout, `\udcff` in
    JSON) and as `k\udcff.py` on stderr. Every format now shows U+FFFD for the byte, as ruff,
    and stdout stays UTF-8 (PYTHONIOENCODING=utf-8: strict, as in a UTF-8 locale)."""
    root = new_project(tmp_path)
    package = root / "triton_ascend"
    (package / "__init__.py").write_text("", encoding="utf-8")
    kernels = (FIXTURES / "triton_ascend" / "asc002_constexpr_to.py").read_text(encoding="utf-8")
    (package / NOT_UTF8).write_text(kernels, encoding="utf-8")
    (package / os.fsdecode(b"bad\xfe.py")).write_text(PLAIN_SYNTAX, encoding="utf-8")
    strict = {"PYTHONIOENCODING": "utf-8"}
    error = f"triton_ascend/bad\ufffd.py:{python_error_position(PLAIN_SYNTAX)}: error: SyntaxError"
    # the first run writes the cache, the others read it
    for options in (["--no-cache"], [], ["--output-format", "concise"]):
        done = check(root, *options, environment=strict)
        assert done.returncode == 2 and f"triton_ascend/{SHOWN}:28:13: ASC002" in done.stdout, done.stderr
        assert GOOD_FINDING in done.stdout
        assert [line for line in done.stderr.splitlines() if "error" in line] == [error + ": invalid syntax"]
    found = json.loads(check(root, "--output-format", "json", environment=strict).stdout)
    assert {entry["filename"] for entry in found} == {
        f"triton_ascend/{SHOWN}",
        "triton_ascend/bad\ufffd.py",
        "triton_ascend/good.py",
    }
    sarif = check(root, "--output-format", "sarif", environment=strict).stdout
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in json.loads(sarif)["runs"][0]["results"]
        for location in result["locations"]
    }
    assert (package / SHOWN).as_uri() in uris and (package / SHOWN).as_uri().endswith("k%EF%BF%BD.py")
    github = check(root, "--output-format", "github", environment=strict).stdout
    assert f"file={package / SHOWN},line=28,col=13," in github
    stdin = check(
        root, "--stdin-filename", os.fsdecode(b"triton_ascend/s\xfe.py"), "-", environment=strict, stdin=kernels
    )
    assert stdin.returncode == 1 and "triton_ascend/s\ufffd.py:28:13: ASC002" in stdin.stdout, stdin.stderr
    assert stdin.stderr == ""


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # an editor's document may hold what no file can: JSON carries a lone surrogate
        (HEAD + 'x = "\ud800"\n', Position(HEAD_ROWS + 1, 6), "text cannot be encoded as utf-8: lone surrogate U+D800"),
        (
            HEAD + "x = 1  # \udcff\n",
            Position(HEAD_ROWS + 1, 10),
            "text cannot be encoded as utf-8: lone surrogate U+DCFF",
        ),
        # the size limit of a file, on the text's UTF-8 (é is two bytes)
        (HEAD + "# " + "é" * (3 * 1024 * 1024) + "\n", None, "file too large to lint ({size} bytes; limit 5242880)"),
        (HEAD + "x = 1\n" * (1024 * 1024), None, "file too large to lint ({size} bytes; limit 5242880)"),
    ],
    ids=["surrogate-in-string", "surrogate-in-comment", "large-non-ascii", "large-ascii"],
)
def test_a_text_no_file_can_hold_is_refused_as_the_file_would_be(
    tmp_path: Path, text: str, where: Position | None, message: str
) -> None:
    """`lint_source` is the editor server's and the flake8 plugin's way in: a lone surrogate was
    an internal error (UnicodeEncodeError from `compile`), and a text over the 5 MB a file may
    hold was linted (6.6 MB in 10.6 s, in the editor)."""
    result = engine.lint_source(text, str(tmp_path / "triton_ascend" / "k.py"), Settings(root=tmp_path))
    assert result.error is not None and not result.findings
    assert (result.error.message, result.error.location) == (
        message.format(size=len(text.encode("utf-8", "surrogatepass"))),
        where,
    )


# ---- internal errors and time budgets (in process: a test double of a rule stands in for a bug) ----


class Buggy(LaunchNumWarps):
    """ASC001 with a bug: it raises on files that launch a kernel named `buggy_kernel`, and on
    files that launch `slow_kernel` it computes forever."""

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        if "buggy_kernel[" in context.source:
            raise KeyError("a bug")
        while "slow_kernel[" in context.source:
            pass
        yield from super().check_module(context)


@pytest.fixture
def buggy_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = new_project(tmp_path)
    (root / "triton_ascend" / "buggy.py").write_text(GOOD.replace("copy_kernel", "buggy_kernel"))
    (root / "triton_ascend" / "slow.py").write_text(GOOD.replace("copy_kernel", "slow_kernel"))
    monkeypatch.setattr(engine, "all_rules", lambda: (Buggy,))
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("verbose", [False, True])
def test_an_internal_error_is_reported_with_its_traceback_on_request(buggy_project, capsys, verbose) -> None:
    status = main(["check", "--timeout-per-file", "1", *(["--verbose"] * verbose), "triton_ascend"])
    out, err = capsys.readouterr()
    assert status == 2 and GOOD_FINDING in out
    assert "triton_ascend/buggy.py: error: internal error (KeyError: 'a bug'); please report it" in err
    assert ("Traceback (most recent call last)" in err) is verbose
    assert ('raise KeyError("a bug")' in err) is verbose


def test_a_file_over_its_time_budget_gets_a_diagnostic_and_the_run_goes_on(buggy_project, capsys) -> None:
    status = main(["check", "--timeout-per-file", "0.5", "triton_ascend/slow.py", "triton_ascend/good.py"])
    out, err = capsys.readouterr()
    assert status == 2 and GOOD_FINDING in out
    assert err.splitlines() == [
        "triton_ascend/slow.py: error: took longer than 0.5 s of CPU time to lint (--timeout-per-file); skipped"
    ]


class UndefinedCopy(DotLhsReuse):
    """ASC003 whose fix reads a copy it never makes (what the form-feed bug once wrote)."""

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        for report in super().check_kernel(kernel, context):
            if report.fix is not None:
                reads = [c for c in report.fix.changes if isinstance(c, Replace)]
                report = dataclasses.replace(report, fix=dataclasses.replace(report.fix, changes=tuple(reads)))
            yield report


def test_a_fix_reading_an_undefined_name_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    path = tmp_path / "kernel.py"
    kernel = HEAD.replace(
        "tl.store(y + o, tl.load(x + o))", "a = tl.load(x + o)\n    c = tl.dot(a, a)\n    tl.store(y, a + c)"
    )
    path.write_text(kernel)
    monkeypatch.setattr(engine, "all_rules", lambda: (UndefinedCopy,))
    status = main(["check", "--isolated", "--target-all", "--fix", "--unsafe-fixes", str(path)])
    err = capsys.readouterr().err
    assert status == 2
    assert "fixes for ASC003 would read undefined names (a_c); file left unchanged" in err
    assert path.read_text() == kernel


def test_a_parse_skips_libcsts_node_checks_and_builds_the_same_tree(monkeypatch) -> None:
    import libcst as cst

    checked: list[cst.CSTNode] = []
    monkeypatch.setattr(cst.Name, "_validate", lambda node: checked.append(node))
    for path in sorted(FIXTURES.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        try:
            source.compile_python(text)
        except source.SourceError:
            continue
        if not text.strip():  # an empty package `__init__.py`: no node to check
            continue
        tree = source.parse(text)
        assert not checked  # no node was checked while the parser built it
        assert tree.deep_equals(cst.parse_module(text))
        assert checked  # outside a parse libcst checks nodes again
        checked.clear()


def test_a_parse_builds_the_commonest_nodes_through_their_slots_with_libcsts_signatures() -> None:
    import inspect

    import libcst as cst

    own = {name: vars(getattr(cst, name))["__init__"] for name in source._BUILT_MOST}
    with source._nodes_unchecked():
        direct = {name: vars(getattr(cst, name))["__init__"] for name in source._BUILT_MOST}
        inside = [cst.Name("x"), cst.Call(cst.Name("f"), [cst.Arg(cst.Integer("1"))]), cst.Comma()]
    assert all(direct[name] is not own[name] for name in own)  # every listed class is built directly
    for name, initialiser in direct.items():  # same parameters, so positional or keyword calls alike
        assert list(inspect.signature(initialiser).parameters) == list(inspect.signature(own[name]).parameters)
    assert all(vars(getattr(cst, name))["__init__"] is own[name] for name in own)  # restored
    outside = [cst.Name("x"), cst.Call(cst.Name("f"), [cst.Arg(cst.Integer("1"))]), cst.Comma()]
    assert all(a.deep_equals(b) for a, b in zip(inside, outside, strict=True))  # defaults and factories
    with source._nodes_unchecked():
        first, second = cst.Comma(), cst.Comma()
    assert first.whitespace_before is not second.whitespace_before  # each node its factory's own value
