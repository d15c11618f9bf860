"""`check --jobs N`: the same output, in the same order, as one process; progress on a terminal."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO

from ascend_lint.cli import ProgressLine


def ascend_lint(*args: str, cwd: Path, **options) -> subprocess.CompletedProcess:
    """The real CLI in a new process, importing this checkout."""
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--target-all", *args]
    return subprocess.run(command, cwd=cwd, env=environment, **options)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The fixtures, plus files that fail to lint, so errors must keep their place too."""
    root = tmp_path / "tree"
    shutil.copytree(FIXTURES, root)
    (root / "triton_ascend" / "broken.py").write_text("def f(:\n", encoding="utf-8")
    (root / "runtime" / "latin1.py").write_bytes(b"x = 'caf\xe9'\n")
    return root


@pytest.mark.parametrize("output_format", ["full", "json"])
def test_parallel_output_is_identical_to_one_process(tree: Path, output_format: str):
    runs = [
        ascend_lint(
            "--no-cache",
            f"--jobs={jobs}",
            f"--output-format={output_format}",
            ".",
            "missing.py",
            cwd=tree,
            capture_output=True,
            text=True,
        )
        for jobs in (1, 2, 3)
    ]
    assert runs[0].returncode == 2  # the syntax error, the bad encoding and the missing path
    assert "broken.py:1:7: error" in runs[0].stderr
    assert runs[0].stdout.count("ASC00") > 50
    for run in runs[1:]:
        assert (run.returncode, run.stdout, run.stderr) == (runs[0].returncode, runs[0].stdout, runs[0].stderr)


def test_parallel_fixes_are_identical_to_one_process(tmp_path: Path, tree: Path):
    """Each file is fixed in the worker that linted it: the same files written, the same report."""
    trees = [tree]
    for jobs in (2, 3):
        trees.append(tmp_path / f"tree{jobs}")
        shutil.copytree(tree, trees[-1])
    fix = ("--no-cache", "--fix", "--unsafe-fixes", "--show-fixes", "--output-format=full", ".")
    runs = [
        ascend_lint(f"--jobs={jobs}", *fix, cwd=root, capture_output=True, text=True)
        for jobs, root in zip((1, 2, 3), trees, strict=True)
    ]
    assert runs[0].returncode == 2  # the syntax error and the bad encoding
    assert "Fixed " in runs[0].stdout and runs[0].stdout.count("ASC00") > 20
    for run in runs[1:]:
        assert (run.returncode, run.stdout, run.stderr) == (runs[0].returncode, runs[0].stdout, runs[0].stderr)
    written = [{path.relative_to(root): path.read_bytes() for path in sorted(root.rglob("*.py"))} for root in trees]
    assert written[0] != {path.relative_to(FIXTURES): path.read_bytes() for path in sorted(FIXTURES.rglob("*.py"))}
    assert written[1] == written[0] and written[2] == written[0]


def test_jobs_must_be_positive(tree: Path):
    run = ascend_lint("--jobs=0", ".", cwd=tree, capture_output=True, text=True)
    assert run.returncode == 2
    assert "--jobs: must be at least 1" in run.stderr


def test_progress_line_on_a_terminal_only(tree: Path):
    files = len(list(tree.rglob("*.py")))
    assert files >= ProgressLine.FROM_FILES
    controller, terminal = pty.openpty()
    try:
        run = ascend_lint("--no-cache", "--jobs=2", ".", cwd=tree, stdout=subprocess.PIPE, stderr=terminal)
        os.close(terminal)
        shown = b""
        while chunk := _read(controller):
            shown += chunk
    finally:
        os.close(controller)
    assert run.returncode == 2
    assert f"\rascend-lint: {files}/{files} files".encode() in shown
    assert b"\r\x1b[K" in shown  # the line is cleared before the report
    piped = ascend_lint("--no-cache", "--jobs=2", ".", cwd=tree, capture_output=True, text=True)
    assert "\r" not in piped.stderr


def _read(descriptor: int) -> bytes:
    try:
        return os.read(descriptor, 65536)
    except OSError:  # the terminal's other end is closed
        return b""
