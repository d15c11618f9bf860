"""Changed-lines mode for review bots: keep only findings on lines a change added or modified.

The changed lines come from a unified diff, either `git diff -U0 REV` (`--diff-base REV`) or a
diff file (`--diff-file PATH`, `-` for stdin). Paths are resolved to absolute paths on both
sides, so a diff made at the repository root matches findings reported relative to any
directory.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
import subprocess
import sys
from collections.abc import Collection, Mapping
from pathlib import Path

from ascend_lint.config import ConfigError, real_path
from ascend_lint.model import FileResult, Finding

ChangedLines = Mapping[Path, Collection[int]]
# The lines of a file that did not exist before: all of them.
EVERY_LINE = range(1, sys.maxsize)

HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class ChangedLinesError(ConfigError):
    """The changed lines could not be determined (not a git repository, unknown revision,
    unreadable diff file): a usage error."""


def changed_lines(*, diff_base: str | None = None, diff_file: str | None = None) -> ChangedLines:
    """The lines changed since ``diff_base`` or added by ``diff_file``."""
    if diff_base:
        return changed_lines_from_git(diff_base)
    assert diff_file is not None, "either diff_base or diff_file"
    return changed_lines_from_diff(read_diff(diff_file))


def lines_of(changed: ChangedLines, filename: str) -> Collection[int]:
    """The changed lines of one file (none when the change leaves it alone)."""
    return changed.get(real_path(filename), ())


def changed_lines_from_diff(text: str, root: Path | str = ".") -> ChangedLines:
    """Line numbers (1-based, new side) added or modified per file, paths resolved from ``root``.

    Works with any context size; only `+` lines count. Deleted files and pure deletions
    contribute no line.
    """
    changed: dict[Path, set[int]] = {}
    lines: set[int] = set()
    old_left = new_left = row = 0
    for line in text.split("\n"):
        if old_left > 0 or new_left > 0:  # inside a hunk body, where `+++ ` may be content
            tag = line[:1]
            if tag == "+":
                lines.add(row)
                row, new_left = row + 1, new_left - 1
            elif tag == "-":
                old_left -= 1
            elif tag in (" ", ""):  # context (some tools strip the blank of an empty one)
                row, new_left, old_left = row + 1, new_left - 1, old_left - 1
        elif line.startswith("+++ "):
            path = _new_path(line[4:])
            lines = set() if path is None else changed.setdefault(real_path(Path(root, path)), set())
        elif match := HUNK.match(line):
            old_left, row, new_left = _count(match[1]), int(match[2]), _count(match[3])
    return changed


def _count(group: str | None) -> int:
    return 1 if group is None else int(group)


def _new_path(header: str) -> str | None:
    """The path in a `+++` header: `b/` prefix dropped, git's C-style quoting undone."""
    name = header.split("\t")[0].rstrip("\r")
    if name.startswith('"'):
        raw = codecs.escape_decode(name[1:-1].encode("utf-8", "surrogateescape"))[0]
        name = raw.decode("utf-8", "surrogateescape")
    if name == "/dev/null":
        return None
    return name[2:] if name.startswith("b/") else name


def read_diff(path: str) -> str:
    """The text of a diff file, `-` meaning standard input; undecodable bytes are kept."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise ChangedLinesError(f"cannot read diff file {path}: {error.strerror}") from error
    return data.decode("utf-8", "surrogateescape")


def changed_lines_from_git(rev: str, cwd: Path | str = ".") -> ChangedLines:
    """Lines changed since ``rev`` in the repository holding ``cwd``: `git diff REV` against
    the working tree (or any other `git diff` revision form, e.g. `origin/main...`), plus
    untracked files, which are entirely new.
    """
    top = Path(_git(cwd, "rev-parse", "--show-toplevel").strip())
    # Whatever the user's configuration says: `a/`, `b/` prefixes (diff.noprefix), renames
    # detected (diff.renames: a renamed file's lines are not all new), `--` after the revision
    # (a file named like it is no revision).
    options = ["-U0", "--no-color", "--no-ext-diff", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/"]
    try:
        diff = _git(top, "diff", *options, rev, "--")
    except ChangedLinesError as error:
        raise ChangedLinesError(f"{error}{_fetch_hint(top, rev)}") from error
    changed = changed_lines_from_diff(diff, top)
    untracked = _git(top, "ls-files", "-z", "--others", "--exclude-standard")
    return {**changed, **{real_path(top / name): EVERY_LINE for name in untracked.split("\0") if name}}


def _fetch_hint(top: Path, rev: str) -> str:
    """What to do when `git diff REV` failed: CI checkouts (actions/checkout) are shallow and
    single-branch, so the base is often missing."""
    try:
        shallow = _git(top, "rev-parse", "--is-shallow-repository").strip() == "true"
    except ChangedLinesError:
        return ""
    unknown = [name for name in _revisions(rev) if not _is_commit(top, name)]
    if unknown:
        return _missing_hint(top, unknown[0], shallow)
    if shallow and "..." in rev:
        return (
            "\nhint: this clone is shallow, so the merge base `...` needs may be missing: deepen"
            f" it (`git fetch --deepen=50 origin`) or check out more history ({CHECKOUT})."
        )
    return ""


CHECKOUT = "actions/checkout's `fetch-depth: 2` for a pull request's `HEAD^1`, `fetch-depth: 0` for `origin/main...`"
# `NAME~3^2`: a revision and the ancestry steps after it (`~N` is N, `^N` one)
ANCESTRY = re.compile(r"(.*?)((?:[~^][0-9]*)*)")
# what a ref name cannot hold (git check-ref-format), or a revision form that is not a ref
NOT_A_REF = re.compile(r"[\x00-\x20~^:?*\[\\\x7f]|\.\.|@\{|^@$|^[-/.]|[/.]$|\.lock$")


def _missing_hint(top: Path, name: str, shallow: bool) -> str:
    """The hint for a revision this clone lacks: deepen the history when it is an ancestor of
    a commit the clone has (`HEAD~3`), else the `git fetch` that gives it under its own name."""
    match = ANCESTRY.fullmatch(name)
    base, suffix = (match[1], match[2]) if match else (name, "")
    steps = sum(int(step[1:] or 1) if step[0] == "~" else 1 for step in re.findall(r"[~^][0-9]*", suffix))
    if base and steps and _is_commit(top, base):
        if not shallow:  # the whole history is here: the ancestor does not exist
            return ""
        return (
            f"\nhint: this shallow clone lacks the history `{name}` needs: deepen it"
            f" (`git fetch --deepen={steps}`, or `git fetch --unshallow` for all of it) or check"
            f" out more history ({CHECKOUT})."
        )
    if not base or re.fullmatch(r"[A-Z_]*HEAD", base):  # no commit yet, or nothing fetched
        return ""
    where = "this shallow clone" if shallow else "this clone"
    fetch = _fetch_command(top, base, steps + 1 if shallow else None)
    how = f" (`{fetch}`)" if fetch else ""
    return (
        f"\nhint: {where} has no commit `{name}`. If it is on the remote, fetch it first{how},"
        f" or check out more history ({CHECKOUT})."
    )


def _fetch_command(top: Path, name: str, depth: int | None) -> str | None:
    """The `git fetch` that makes revision ``name`` resolve: a remote-tracking branch
    (`origin/dev`) into itself, a full commit hash by itself, any other name as a local branch;
    ``depth`` commits of it in a shallow clone (a whole clone stays whole)."""
    try:
        remotes = _git(top, "remote").split()
    except ChangedLinesError:
        remotes = []
    default = "origin" if "origin" in remotes or not remotes else remotes[0]
    fetch = "git fetch" if depth is None else f"git fetch --depth={depth}"
    if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", name):
        return f"{fetch} {default} {name}"
    if NOT_A_REF.search(name):
        return None
    tracking = name.removeprefix("refs/remotes/")
    for remote in sorted(remotes, key=len, reverse=True):
        if tracking.startswith(f"{remote}/"):
            return f"{fetch} {remote} {tracking[len(remote) + 1 :]}:refs/remotes/{tracking}"
    if name.startswith("refs/"):
        return f"{fetch} {default} {name}:{name}"
    return f"{fetch} {default} {name}:refs/heads/{name}"


def _is_commit(top: Path, name: str) -> bool:
    try:
        _git(top, "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
    except ChangedLinesError:
        return False
    return True


def _revisions(rev: str) -> list[str]:
    """The revisions a `git diff` revision argument names: `A...B` and `A..B` name two
    (an empty side is `HEAD`)."""
    for separator in ("...", ".."):
        if separator in rev:
            return [side or "HEAD" for side in rev.split(separator, 1)]
    return [rev]


def _git(cwd: Path | str, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    except FileNotFoundError as error:
        raise ChangedLinesError("git is not installed") from error
    if done.returncode:
        # git's first line says what failed (the rest of "ambiguous argument" is about paths)
        reason = (done.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[0]
        raise ChangedLinesError(f"`git {' '.join(args)}` failed: {reason}")
    return done.stdout.decode("utf-8", "surrogateescape")


def filter_results(results: list[FileResult], changed: ChangedLines) -> list[FileResult]:
    """The results with only the findings that touch a changed line; a file outside the
    change keeps no finding and no error.

    A finding touches a changed line when its own range or one of its related locations
    covers one: a new `tl.dot` that clobbers a tile read on an untouched line is news.
    """
    filtered = []
    for result in results:
        path = real_path(result.filename)
        lines = lines_of(changed, result.filename)
        findings = [finding for finding in result.findings if touches(finding, lines)]
        error = result.error if path in changed else None
        filtered.append(dataclasses.replace(result, findings=findings, error=error))
    return filtered


def touches(finding: Finding, lines: Collection[int]) -> bool:
    spans = [(finding.location.row, finding.end_location.row)]
    spans += [(related.location.row, related.end_location.row) for related in finding.related]
    return any(row in lines for first, last in spans for row in range(first, last + 1))
