"""Changed-lines mode against a real git repository with two commits."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from kernel_samples import BAD_KERNEL, BAD_PATH, ascend_lint, git, line_of

from ascend_lint.changed_lines import (
    ChangedLinesError,
    changed_lines_from_diff,
    changed_lines_from_git,
    filter_results,
)
from ascend_lint.model import Diagnostic, FileResult, Finding, Position, Related

ORIGINAL = [f"line {n}" for n in range(1, 11)]
# Second commit: line 3 modified, two lines inserted after line 7, line 9 deleted.
CHANGED = [*ORIGINAL[:2], "line 3 changed", *ORIGINAL[3:7], "new a", "new b", "line 8", *ORIGINAL[9:]]
NON_ASCII_NAME = "ké rnel.py"


def write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Commit 1 holds `pkg/k.py` and `gone.py`; commit 2 edits `k.py`, adds a file with a
    non-ASCII name and deletes `gone.py`."""
    git(tmp_path, "init", "-q")
    write_lines(tmp_path / "pkg" / "k.py", ORIGINAL)
    write_lines(tmp_path / "gone.py", ["x = 1"])
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "one")
    write_lines(tmp_path / "pkg" / "k.py", CHANGED)
    write_lines(tmp_path / NON_ASCII_NAME, ["a", "b"])
    (tmp_path / "gone.py").unlink()
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "two")
    return tmp_path


def test_git_reports_added_and_modified_lines(repo: Path) -> None:
    changed = changed_lines_from_git("HEAD~1", repo)
    assert changed == {
        (repo / "pkg" / "k.py").resolve(): {3, 8, 9},
        (repo / NON_ASCII_NAME).resolve(): {1, 2},
    }


def test_git_counts_uncommitted_and_untracked_changes(repo: Path) -> None:
    write_lines(repo / "pkg" / "k.py", [*CHANGED, "appended"])
    write_lines(repo / "pkg" / "untracked.py", ["u1", "u2", "u3"])
    changed = changed_lines_from_git("HEAD", repo / "pkg")
    assert changed.keys() == {(repo / "pkg" / "k.py").resolve(), (repo / "pkg" / "untracked.py").resolve()}
    assert set(changed[(repo / "pkg" / "k.py").resolve()]) == {len(CHANGED) + 1}
    assert all(row in changed[(repo / "pkg" / "untracked.py").resolve()] for row in (1, 3, 10_000))


def test_diff_file_with_context_matches_git(repo: Path) -> None:
    with_context = git(repo, "diff", "-U3", "HEAD~1", "HEAD")
    assert changed_lines_from_diff(with_context, repo) == changed_lines_from_git("HEAD~1", repo)


def test_content_that_looks_like_a_header_is_content(tmp_path: Path) -> None:
    diff = "\n".join(
        [
            "--- a/k.py",
            "+++ b/k.py",
            "@@ -1,0 +2,2 @@",
            "+++ not a header",
            "+@@ -1 +1 @@ nor a hunk",
            "\\ No newline at end of file",
        ]
    )
    assert changed_lines_from_diff(diff, tmp_path) == {(tmp_path / "k.py").resolve(): {2, 3}}


def test_unknown_revision_is_a_clear_error(repo: Path) -> None:
    with pytest.raises(ChangedLinesError, match="no-such-rev"):
        changed_lines_from_git("no-such-rev", repo)


def finding(filename: str, row: int, related_row: int | None = None) -> Finding:
    related = ()
    if related_row is not None:
        related = (Related(filename, Position(related_row, 5), Position(related_row, 11), "tl.dot here"),)
    return Finding(
        code="ASC003",
        name="dot-lhs-reuse",
        message="tile read after tl.dot",
        filename=filename,
        location=Position(row, 5),
        end_location=Position(row, 9),
        related=related,
    )


def test_filter_keeps_findings_touching_changed_lines(tmp_path: Path) -> None:
    changed_file, other_file = str(tmp_path / "a.py"), str(tmp_path / "b.py")
    on_changed, off_changed = finding(changed_file, 3), finding(changed_file, 5)
    via_related = finding(changed_file, 7, related_row=4)
    results = [
        FileResult(changed_file, "", [on_changed, off_changed, via_related]),
        FileResult(other_file, "", [finding(other_file, 3)], Diagnostic(other_file, "broken")),
    ]
    filtered = filter_results(results, {Path(changed_file).resolve(): {3, 4}})
    assert filtered[0].findings == [on_changed, via_related]
    assert filtered[1].findings == [] and filtered[1].error is None


@pytest.fixture
def kernel_repo(tmp_path: Path) -> Path:
    """Commit 1: the bad kernel without `num_warps` (one ASC003); commit 2 adds `num_warps`."""
    git(tmp_path, "init", "-q")
    kernel = tmp_path / BAD_PATH
    kernel.parent.mkdir(parents=True)
    kernel.write_text(BAD_KERNEL.replace(", num_warps=4", ""), encoding="utf-8")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "kernel")
    kernel.write_text(BAD_KERNEL, encoding="utf-8")
    git(tmp_path, "commit", "-qam", "num_warps")
    return tmp_path


def reported(done) -> set[tuple[str, int]]:
    assert done.returncode in (0, 1), done.stderr
    return {(f["code"], f["location"]["row"]) for f in json.loads(done.stdout)}


def test_cli_diff_base_reports_only_the_new_finding(kernel_repo: Path) -> None:
    everything = reported(ascend_lint("check", "--output-format", "json", cwd=kernel_repo))
    assert {code for code, _ in everything} == {"ASC001", "ASC003"}
    since = ascend_lint("check", "--output-format", "json", "--diff-base", "HEAD~1", cwd=kernel_repo)
    assert reported(since) == {("ASC001", line_of(BAD_KERNEL, "num_warps"))}


def test_cli_diff_file_from_stdin(kernel_repo: Path) -> None:
    diff = git(kernel_repo, "diff", "HEAD~1", "HEAD")
    done = ascend_lint("check", "--output-format", "json", "--diff-file", "-", "pkg", cwd=kernel_repo, stdin=diff)
    assert reported(done) == {("ASC001", line_of(BAD_KERNEL, "num_warps"))}


@pytest.mark.parametrize("diff_file", ["-", "/dev/stdin"])
@pytest.mark.parametrize("stdin_args", [("-",), ("--stdin-filename", "pkg/triton_ascend/k.py")])
def test_cli_diff_file_from_stdin_cannot_go_with_stdin_as_a_file(kernel_repo: Path, stdin_args, diff_file) -> None:
    """Both would read stdin: the diff took it all, the file read empty, and the run said "All
    checks passed" (exit 0)."""
    done = ascend_lint("check", "--diff-file", diff_file, *stdin_args, cwd=kernel_repo, stdin=BAD_KERNEL)
    assert done.returncode == 2
    assert "--diff-file - cannot be used with stdin" in done.stderr


def test_cli_diff_file_whose_paths_match_no_linted_file_warns(kernel_repo: Path) -> None:
    """A diff made at the repository root, given from a subfolder, matches nothing: said, not
    silently "All checks passed"."""
    diff = git(kernel_repo, "diff", "HEAD~1", "HEAD")
    at_root = ascend_lint("check", "--output-format", "json", "--diff-file", "-", "pkg", cwd=kernel_repo, stdin=diff)
    assert "warning" not in at_root.stderr
    below = ascend_lint(
        "check", "--output-format", "json", "--diff-file", "-", ".", cwd=kernel_repo / "pkg", stdin=diff
    )
    assert reported(below) == set()
    assert "warning: no file of the diff was linted" in below.stderr


def test_cli_unknown_revision_is_a_usage_error(kernel_repo: Path) -> None:
    done = ascend_lint("check", "--diff-base", "no-such-rev", cwd=kernel_repo)
    assert done.returncode == 2
    assert "no-such-rev" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("mode", ["--fix", "--diff"])
def test_cli_fixes_only_the_findings_on_changed_lines(kernel_repo: Path, mode: str) -> None:
    """`--fix` / `--diff` repair what the report shows: the new `num_warps`, not the older
    ASC003 (whose unsafe fix is asked for too) on a line the change leaves alone."""
    kernel = kernel_repo / BAD_PATH
    done = ascend_lint("check", mode, "--unsafe-fixes", "--diff-base", "HEAD~1", cwd=kernel_repo)
    assert done.returncode in (0, 1), done.stderr
    fixed = kernel.read_text(encoding="utf-8") if mode == "--fix" else None
    if mode == "--diff":
        changed = [line for line in done.stdout.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        assert changed == [f"-{line}" for line in BAD_KERNEL.splitlines() if "num_warps" in line] + [
            f"+{line.replace(', num_warps=4', '')}" for line in BAD_KERNEL.splitlines() if "num_warps" in line
        ]
        assert kernel.read_text(encoding="utf-8") == BAD_KERNEL
    else:
        assert fixed == BAD_KERNEL.replace(", num_warps=4", "")
        assert git(kernel_repo, "diff", "HEAD~1", "--stat").strip() == ""  # back to the first commit


def test_cli_fixes_the_stdin_buffer_on_its_changed_lines_only(kernel_repo: Path) -> None:
    diff = git(kernel_repo, "diff", "HEAD~1", "HEAD")
    diff_file = kernel_repo / "change.diff"
    diff_file.write_text(diff, encoding="utf-8")
    args = ("check", "--fix", "--unsafe-fixes", "--diff-file", str(diff_file), "--stdin-filename", BAD_PATH, "-")
    done = ascend_lint(*args, cwd=kernel_repo, stdin=BAD_KERNEL)
    assert done.stdout == BAD_KERNEL.replace(", num_warps=4", ""), done.stderr


# A second read of `b_a` after the dot: one fix (a copy before the dot, both reads renamed)
# repairs both findings. The change rewrites the second read only.
STORE_A = "    tl.store(α_ptr + tile, b_a)\n"
SHARED_FIX_KERNEL = BAD_KERNEL.replace(STORE_A, STORE_A + "    tl.store(α_ptr + tile, b_b)\n")
SHARED_FIX_CHANGED = SHARED_FIX_KERNEL.replace("(α_ptr + tile, b_b)", "(α_ptr + tile, b_a * 2)")
# The change adds a read of the clobbered `b_a` (its unsafe fix inserts a copy line above) and
# makes the launch's grid able to pass 65535 programs (ASC010: no fix), below the inserted line.
GRID_KERNEL = BAD_KERNEL.replace(STORE_A, "")
GRID_CHANGED = BAD_KERNEL.replace("matmul_kernel[(1,)]", "matmul_kernel[(a.shape[0], a.shape[1] * b.shape[0])]")


def two_commit_repo(root: Path, before: str, after: str) -> Path:
    git(root, "init", "-q")
    kernel = root / BAD_PATH
    kernel.parent.mkdir(parents=True)
    kernel.write_text(before, encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "-qm", "before")
    kernel.write_text(after, encoding="utf-8")
    git(root, "commit", "-qam", "after")
    return kernel


def test_cli_applies_a_fix_whole_and_counts_every_finding_it_repairs(tmp_path: Path) -> None:
    """The finding on the changed line has the fix that also renames the read on an untouched
    line: the fix is applied whole (ruff applies a fix as one), and the summary and
    `--show-fixes` count both findings it repaired instead of hiding the rewritten line."""
    kernel = two_commit_repo(tmp_path, SHARED_FIX_KERNEL, SHARED_FIX_CHANGED)
    report = ascend_lint("check", "--output-format", "json", "--diff-base", "HEAD~1", cwd=tmp_path)
    assert reported(report) == {("ASC003", line_of(SHARED_FIX_CHANGED, "b_a * 2"))}
    done = ascend_lint("check", "--fix", "--unsafe-fixes", "--show-fixes", "--diff-base", "HEAD~1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    fixed = kernel.read_text(encoding="utf-8")
    assert "tl.store(α_ptr + tile, b_a_c)" in fixed and "tl.store(α_ptr + tile, b_a_c * 2)" in fixed
    assert "2 × ASC003" in done.stdout
    assert "Found 2 findings (2 fixed, 0 remaining)" in done.stdout


@pytest.mark.parametrize("source", ["--diff-base", "--diff-file", "stdin"])
def test_cli_fix_reports_what_is_left_on_the_changed_lines_the_fixes_moved(tmp_path: Path, source: str) -> None:
    """The copy the ASC003 fix inserts moves the ASC010 launch a row down: it is still on a
    changed line, so it is reported and the run fails, from a diff file and for stdin too."""
    repo = tmp_path / "repo"
    repo.mkdir()
    kernel = two_commit_repo(repo, GRID_KERNEL, GRID_CHANGED)
    diff_file = tmp_path / "change.diff"
    diff_file.write_text(git(repo, "diff", "HEAD~1", "HEAD"), encoding="utf-8")
    changed = ("--diff-base", "HEAD~1") if source == "--diff-base" else ("--diff-file", str(diff_file))
    args = ["check", "--fix", "--unsafe-fixes", "--output-format", "json", *changed]
    if source == "stdin":
        done = ascend_lint(*args, "--stdin-filename", BAD_PATH, "-", cwd=repo, stdin=GRID_CHANGED)
        fixed, remaining = done.stdout, json.loads(done.stderr)
    else:
        done = ascend_lint(*args, cwd=repo)
        fixed, remaining = kernel.read_text(encoding="utf-8"), json.loads(done.stdout)
    assert "b_a_c = " in fixed and "num_warps" not in fixed
    assert {(f["code"], f["location"]["row"]) for f in remaining} == {("ASC010", line_of(fixed, "matmul_kernel[("))}
    assert done.returncode == 1


def test_cli_diff_base_counts_a_renamed_file_as_renamed(kernel_repo: Path) -> None:
    """`git mv` of a kernel is no new code, whatever `diff.renames` says in the user's config."""
    git(kernel_repo, "config", "diff.renames", "false")
    git(kernel_repo, "mv", BAD_PATH, BAD_PATH.replace("matmul", "renamed"))
    git(kernel_repo, "commit", "-qm", "rename")
    since = ascend_lint("check", "--output-format", "json", "--diff-base", "HEAD~1", cwd=kernel_repo)
    assert reported(since) == set()


def clone(origin: Path, destination: Path, *options: str) -> Path:
    git(destination.parent, "clone", "-q", *options, f"file://{origin}", str(destination))
    return destination


SINGLE_BRANCH = ["--single-branch", "--branch=feature"]


@pytest.mark.parametrize(
    ("options", "base", "fetch"),
    [
        # a pull request's checkout: one commit, whose first parent is the base
        (["--depth=1"], "HEAD^1", "git fetch --deepen=1"),
        (["--depth=1"], "HEAD~1", "git fetch --deepen=1"),
        # a branch's checkout: the base branch was not fetched
        (["--depth=1", *SINGLE_BRANCH], "origin/main", "git fetch --depth=1 origin main:refs/remotes/origin/main"),
        (["--depth=1", *SINGLE_BRANCH], "origin/dev", "git fetch --depth=1 origin dev:refs/remotes/origin/dev"),
        (["--depth=1", *SINGLE_BRANCH], "dev", "git fetch --depth=1 origin dev:refs/heads/dev"),
        # a whole clone of one branch: fetching the base keeps it whole
        (SINGLE_BRANCH, "origin/dev", "git fetch origin dev:refs/remotes/origin/dev"),
    ],
)
def test_cli_diff_base_missing_from_a_ci_clone_says_how_to_fetch_it(
    tmp_path: Path, options: list[str], base: str, fetch: str
) -> None:
    """The hint's `git fetch` is for the base asked for, and running it makes the base resolve."""
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "--initial-branch=main")
    kernel = origin / BAD_PATH
    kernel.parent.mkdir(parents=True)
    kernel.write_text(BAD_KERNEL.replace(", num_warps=4", ""), encoding="utf-8")
    git(origin, "add", ".")
    git(origin, "commit", "-qm", "kernel")
    git(origin, "branch", "dev")
    git(origin, "checkout", "-qb", "feature")
    kernel.write_text(BAD_KERNEL, encoding="utf-8")
    git(origin, "commit", "-qam", "num_warps")
    checkout = clone(origin, tmp_path / "checkout", *options)
    done = ascend_lint("check", "--diff-base", base, cwd=checkout)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"bad revision '{base}'" in done.stderr and "Use '--'" not in done.stderr
    shallow = "--depth=1" in options
    if base.startswith("HEAD"):
        assert f"hint: this shallow clone lacks the history `{base}` needs" in done.stderr
    else:
        assert f"hint: this {'shallow ' * shallow}clone has no commit `{base}`" in done.stderr
    assert "fetch-depth: 2" in done.stderr
    hinted = re.findall(r"`(git fetch [^`]*)`", done.stderr)
    assert hinted[0] == fetch, done.stderr
    git(checkout, *shlex.split(fetch)[1:], "-q")
    after = ascend_lint("check", "--output-format", "json", "--diff-base", base, cwd=checkout)
    assert reported(after) == {("ASC001", line_of(BAD_KERNEL, "num_warps"))}
