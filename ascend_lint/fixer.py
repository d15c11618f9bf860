"""Apply fixes to files: safe ones with `--fix`, unsafe ones too with `--unsafe-fixes`.

Per file, a pass applies every applicable fix that does not overlap one taken before it, then
re-lints the new text; passes repeat until no applicable fix is left. The result must parse
(libcst, and `compile()` when the original compiled): otherwise the file is left untouched and
an error is reported. Only changed files are written, atomically (a temporary file in the same
folder, then `os.replace`), keeping the file's permissions, encoding and line endings.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import io
import os
import stat
import tempfile
import tokenize
import warnings
from collections import Counter
from dataclasses import dataclass, field

from . import source as sources
from .config import Settings
from .engine import lint_source, relative_display
from .fixes import apply_edits
from .model import Diagnostic, Edit, FileResult, Finding, Fix, Position

MAX_PASSES = 20


@dataclass
class FixedFile:
    """One file's text before and after fixing, and how many findings each fix repaired."""

    filename: str
    original: str
    fixed: str
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)  # (code, fix message) -> findings

    def diff(self) -> str:
        name = relative_display(self.filename)
        lines = difflib.unified_diff(_lines(self.original), _lines(self.fixed), name, name)
        return "".join(line if line.endswith("\n") else f"{line}\n\\ No newline at end of file\n" for line in lines)


@dataclass
class FixOutcome:
    results: list[FileResult]  # re-linted after fixing: the findings that remain
    fixed: list[FixedFile]  # files whose text changed

    @property
    def diff(self) -> str:
        return "".join(file.diff() for file in self.fixed)

    def describe(self) -> str:
        """The `--show-fixes` listing: per file, each fix with the number of findings it
        repaired; then each finding left, with why it was not fixed."""
        from .reporters.text import not_fixed

        out = []
        total = sum(sum(file.counts.values()) for file in self.fixed)
        if total:
            out.append(f"Fixed {total} finding{'s' * (total != 1)}:")
        for file in self.fixed:
            out.append(f"- {relative_display(file.filename)}:")
            for (code, message), count in sorted(file.counts.items()):
                out.append(f"    {count} × {code} ({message})")
        left = [finding for result in self.results for finding in result.findings]
        out += not_fixed(left, f"Not fixed: {len(left)} finding{'s' * (len(left) != 1)}:")
        return "".join(f"{line}\n" for line in out)


def apply_fixes(results: list[FileResult], settings: Settings, *, unsafe: bool, write: bool) -> FixOutcome:
    outcome = FixOutcome([], [])
    for result in results:
        fixed_result, fixed = fix_result(result, settings, unsafe=unsafe)
        if fixed is not None and write:
            error = write_fixed(fixed)
            if error is not None:
                fixed_result, fixed = dataclasses.replace(result, error=error), None
        outcome.results.append(fixed_result)
        if fixed is not None:
            outcome.fixed.append(fixed)
    return outcome


def fix_result(result: FileResult, settings: Settings, *, unsafe: bool) -> tuple[FileResult, FixedFile | None]:
    """Fix one linted file in memory: the re-linted result and the change (None if unchanged)."""
    if result.error is not None or result.source is None or not _applicable(result.findings, unsafe):
        return result, None
    fixed = FixedFile(result.filename, result.source, result.source)
    current = result
    for _ in range(MAX_PASSES):
        fixes = _applicable(current.findings, unsafe)
        chosen = _non_overlapping(fixes)
        text = apply_edits(fixed.fixed, [edit for fix in chosen for edit in fix.edits])
        if not fixes or text == fixed.fixed:
            return current, fixed if fixed.fixed != fixed.original else None
        applied = {fix.edits for fix in chosen}
        repaired = [(f.code, f.fix) for f in current.findings if f.fix is not None and f.fix.edits in applied]
        problem = syntax_problem(fixed.original, text, result.filename)
        if problem is not None:
            codes = ", ".join(sorted({code for code, _ in repaired}))
            return _rejected(result, f"fixes for {codes} would produce invalid code ({problem}); file left unchanged")
        fixed.counts.update((code, fix.message) for code, fix in repaired)
        fixed.fixed = text
        current = lint_source(text, result.filename, settings)
        if current.error is not None:
            reason = current.error.message
            return _rejected(result, f"the fixed file could not be linted ({reason}); file left unchanged")
    return _rejected(result, f"fixes did not settle after {MAX_PASSES} passes; file left unchanged")


def _applicable(findings: list[Finding], unsafe: bool) -> list[Fix]:
    wanted = ("safe", "unsafe") if unsafe else ("safe",)
    return [f.fix for f in findings if f.fix is not None and f.fix.applicability in wanted]


def _non_overlapping(fixes: list[Fix]) -> set[Fix]:
    """Fixes in source order, skipping any that touches text an earlier one edits."""
    chosen: set[Fix] = set()
    taken: list[Edit] = []
    for fix in sorted(set(fixes), key=lambda f: [(e.start, e.end, e.content) for e in f.edits]):
        if not any(_overlap(edit, other) for edit in fix.edits for other in taken):
            chosen.add(fix)
            taken.extend(fix.edits)
    return chosen


def _overlap(a: Edit, b: Edit) -> bool:
    """Edits that share text, or insert at the same place (their order would be arbitrary)."""
    return a.start == b.start or (a.start < b.end and b.start < a.end)


def syntax_problem(original: str, fixed: str, filename: str) -> str | None:
    """Why `fixed` is not valid Python where `original` was, or None."""
    try:
        sources.parse(fixed)
    except sources.SourceError as exc:
        return _located(str(exc), exc.location)
    error = _compile_error(fixed, filename)
    if error is not None and _compile_error(original, filename) is None:
        return error
    return None


def _compile_error(text: str, filename: str) -> str | None:
    try:
        with warnings.catch_warnings():  # e.g. invalid escape sequences: not ours to report
            warnings.simplefilter("ignore")
            compile(text, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return f"{type(exc).__name__}: {getattr(exc, 'msg', exc)} at line {getattr(exc, 'lineno', '?')}"
    return None


def _located(message: str, location: Position | None) -> str:
    return f"{message} at line {location.row}" if location is not None else message


def _rejected(result: FileResult, message: str) -> tuple[FileResult, None]:
    return dataclasses.replace(result, error=Diagnostic(result.filename, message)), None


def write_fixed(fixed: FixedFile) -> Diagnostic | None:
    """Write the fixed text over the file, in its encoding; an error if that cannot be done safely."""
    if fixed.filename == "-":
        return None
    path = os.path.realpath(fixed.filename)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        if sources.decode(data) != fixed.original:
            return Diagnostic(fixed.filename, "the file changed while it was being fixed; left unchanged")
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        replace_atomically(path, fixed.fixed.encode(encoding))
    except (OSError, UnicodeError, sources.SourceError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Diagnostic(fixed.filename, f"cannot write the fixes: {reason}")
    return None


def replace_atomically(path: str, data: bytes) -> None:
    """Replace the file at `path` with `data` in one rename, keeping its permission bits."""
    directory, name = os.path.split(path)
    mode = stat.S_IMODE(os.stat(path).st_mode)
    descriptor, temporary = tempfile.mkstemp(dir=directory or ".", prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _lines(text: str) -> list[str]:
    """Lines with their endings, split only at \\n (so a \\r stays part of its line)."""
    pieces = text.split("\n")
    return [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
