"""Apply fixes to files: safe ones with `--fix`, unsafe ones too with `--unsafe-fixes`.

One pass per file: every applicable fix that does not overlap one taken before it (in source
order) is applied at once, then the file is re-linted once to verify it. Fixes are planned
whole (the ASC002 fix rewrites a `.to(...)` chain in one edit), so one pass leaves nothing a
second would fix except fixes that share text with a taken one (lines several fixes insert
at one place are all inserted, in source order). Those stay reported, counted in
`FileResult.fix_again`, and the summary says to run again. Time is linear in the file: one lint, one edit pass, one `ast` parse, one re-lint.

A file is fixed where it was linted (in the `--jobs` worker), with the `DocumentMemory` of its
check: the re-lint re-parses only the top-level statements the fixes touched and recomputes
the facts only of the kernels they changed, and reports what a lint from scratch of the fixed
text reports (tested on the fixtures). A cached result has no memory: its re-lint starts from
scratch. The memory goes with the file's task, so no tree outlives its file.

The result must be valid for CPython (and libcst), and every name the edits read must resolve
(`names.py`); otherwise the file is left untouched and an error is reported. Only changed files
are written, atomically (a temporary file in the same folder, then `os.replace`), keeping the
file's permissions, encoding (the one `source.detect_encoding` read it in) and line endings.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import os
import re
import warnings
from bisect import bisect_left
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from types import CodeType
from typing import TYPE_CHECKING

from . import source as sources
from .atomic import write_atomically
from .budget import FileTimeout, time_budget, timeout_message
from .changed_lines import ChangedLines, lines_of, touches
from .config import Settings, real_path
from .engine import (
    DocumentMemory,
    lint_data,
    lint_file,
    lint_source,
    map_files,
    planned_files,
    relative_display,
)
from .model import Diagnostic, Edit, FileResult, Finding, Fix, LineIndex, Position
from .names import name_reads, unresolved

if TYPE_CHECKING:
    from .cache import Cache
    from .engine import Progress


@dataclass
class FixedFile:
    """One file's text before and after fixing."""

    filename: str
    original: str
    fixed: str

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


def fix_paths(
    paths: Iterable[str],
    settings: Settings,
    *,
    unsafe: bool,
    write: bool,
    jobs: int = 1,
    cache: Cache | None = None,
    progress: Progress | None = None,
    changed: ChangedLines | None = None,
) -> FixOutcome:
    """Lint and fix files and folders (the files `lint_paths` lints, in its order); the fixes
    are written when `write`. A cached result with nothing to fix is used as it is; a file
    with fixes to make goes to `fix_file` (in a worker when `jobs` > 1), which looks it up again.
    With `changed` (`--diff-base`, `--diff-file`) only the fixes of findings on changed lines
    are applied, each whole (it may rewrite other lines: `fix_result`)."""

    def lines(filename: str) -> Collection[int] | None:
        return None if changed is None else lines_of(changed, filename)

    slots = [
        slot.filename
        if isinstance(slot, FileResult) and _fixable(slot.findings, unsafe, lines(slot.filename))
        else slot
        for slot in planned_files(paths, settings, cache)
    ]
    files = [slot for slot in slots if isinstance(slot, str)]
    task = partial(fix_file, settings=settings, cache=cache, unsafe=unsafe, write=write, changed=changed)
    done = iter(map_files(task, files, jobs, progress))
    outcome = FixOutcome([], [])
    for slot in slots:
        result, fixed = (slot, None) if isinstance(slot, FileResult) else next(done)
        outcome.results.append(result)
        if fixed is not None:
            outcome.fixed.append(fixed)
    return outcome


def fix_file(
    filename: str,
    settings: Settings,
    cache: Cache | None,
    *,
    unsafe: bool,
    write: bool,
    changed: ChangedLines | None = None,
) -> tuple[FileResult, FixedFile | None]:
    """Lint one file (or take its cached result, checked against the content) and fix it: the
    re-linted result and the change; the change is written when `write`."""
    result = cache.lookup(filename) if cache is not None else None
    memory = None
    if result is None:
        memory = DocumentMemory.empty()
        result = lint_file(filename, settings, cache, memory)
    lines = None if changed is None else lines_of(changed, filename)
    fixed_result, fixed = fix_result(result, settings, unsafe=unsafe, memory=memory, lines=lines)
    if fixed is not None and write:
        error = write_fixed(fixed)
        if error is not None:
            return dataclasses.replace(result, error=error), None
    return fixed_result, fixed


def fix_data(
    data: bytes, filename: str, settings: Settings, *, unsafe: bool, lines: Collection[int] | None = None
) -> tuple[FileResult, FixedFile | None]:
    """Lint a buffer (stdin) and fix it in memory: the re-linted result and the change."""
    memory = DocumentMemory.empty()
    result = lint_data(data, filename, settings, memory)
    return fix_result(result, settings, unsafe=unsafe, memory=memory, lines=lines)


def fix_result(
    result: FileResult,
    settings: Settings,
    *,
    unsafe: bool,
    memory: DocumentMemory | None = None,
    lines: Collection[int] | None = None,
) -> tuple[FileResult, FixedFile | None]:
    """Fix one linted file in memory: the re-linted result and the change (None if unchanged).
    `memory` is the one `result` was linted with, if any: the re-lint then keeps what the
    fixes did not change. With `lines`, only the fixes of findings touching those rows are
    applied, each whole: its edits on other rows are made too, and the findings it repairs
    there count as fixed."""
    try:
        with time_budget(settings.timeout_per_file):
            return _fix_once(result, settings, unsafe, memory, lines)
    except FileTimeout:
        return _rejected(result, timeout_message("fix", settings.timeout_per_file) + "; file left unchanged")


def _fix_once(
    result: FileResult, settings: Settings, unsafe: bool, memory: DocumentMemory | None, lines: Collection[int] | None
) -> tuple[FileResult, FixedFile | None]:
    fixes = [finding.fix for finding in _fixable(result.findings, unsafe, lines) if finding.fix is not None]
    if result.error is not None or result.source is None or not fixes:
        return result, None
    from .fixes import edited  # libcst: loaded for a file with fixes to make, not for every file

    chosen = _non_overlapping(fixes)
    # dict: a fix applied with a larger one shares its edits, made once; lines two fixes insert
    # at one place go in the order of the fixes' places (`_placement`)
    ordered = sorted(chosen, key=_placement)
    text, spans = edited(result.source, list(dict.fromkeys(edit for fix in ordered for edit in fix.edits)))
    if text == result.source:
        return result, None
    codes = ", ".join(sorted({f.code for f in result.findings if f.fix in chosen}))
    try:
        code = compiled_fix(result.source, text, spans)
    except FixRefused as refusal:
        return _rejected(result, f"fixes for {codes} would {refusal}; file left unchanged")
    current = lint_source(text, result.filename, settings, memory=memory, compiled=code)
    if current.error is not None:
        reason = current.error.message
        return _rejected(result, f"the fixed file could not be linted ({reason}); file left unchanged")
    # a fix is applied whole, as ruff applies one: with `lines`, a fix chosen for a finding on
    # them also repairs the findings elsewhere that it shares or rewrites (ASC003's one fix
    # renames every read after the dot), and those count as fixed too (ruff counts a finding
    # whose edits an applied fix made): what the fixes repaired is counted over the whole file
    current.fixed = _fix_counts(result.findings, unsafe) - _fix_counts(current.findings, unsafe)
    again = _fixable(current.findings, unsafe, None if lines is None else _rows_after(lines, result.source, text))
    current.fix_again = Counter(f.fix.applicability for f in again if f.fix is not None)
    return current, FixedFile(result.filename, result.source, text)


def changed_after_fixes(changed: ChangedLines, fixed: Iterable[FixedFile]) -> ChangedLines:
    """`changed` with each fixed file's rows as rows of its fixed text, the rows the fixes
    wrote among them: the changed lines of what a `--fix` run leaves (its findings' rows)."""
    moved = dict(changed)
    for file in fixed:
        path = real_path(file.filename)
        if path in moved:
            moved[path] = _rows_after(moved[path], file.original, file.fixed)
    return moved


def _rows_after(lines: Collection[int], before: str, after: str) -> set[int]:
    """`lines`, rows of `before`, as rows of `after`, with the rows the fixes wrote."""
    matcher = difflib.SequenceMatcher(None, _lines(before), _lines(after), autojunk=False)
    rows: set[int] = set()
    for tag, first, last, new_first, new_last in matcher.get_opcodes():
        if tag == "equal":
            rows.update(new_first + k + 1 for k in range(last - first) if first + k + 1 in lines)
        else:
            rows.update(range(new_first + 1, new_last + 1))
    return rows


def _fix_counts(findings: list[Finding], unsafe: bool) -> Counter[tuple[str, str]]:
    return Counter((f.code, f.fix.message) for f in _fixable(findings, unsafe) if f.fix is not None)


def _fixable(findings: list[Finding], unsafe: bool, lines: Collection[int] | None = None) -> list[Finding]:
    """The findings whose fix this run applies (of those touching `lines`, when given)."""
    wanted = ("safe", "unsafe") if unsafe else ("safe",)
    chosen = [f for f in findings if f.fix is not None and f.fix.applicability in wanted]
    return chosen if lines is None else [f for f in chosen if touches(f, lines)]


def _non_overlapping(fixes: list[Fix]) -> set[Fix]:
    """Fixes in source order, skipping any that touches text an earlier one edits; of fixes that
    start at one place the widest comes first (it rewrites the others' text as a whole). A fix
    whose edits are all part of another fix is applied with it (two findings on one tile can
    share the copy one dot needs, the later finding needing another dot's copy too)."""
    unique = set(fixes)
    containing: dict[Edit, list[Fix]] = {}
    for fix in unique:
        for edit in fix.edits:
            containing.setdefault(edit, []).append(fix)
    outermost = [fix for fix in unique if not _inside_another(fix, containing)]
    chosen: set[Fix] = set()
    taken: list[Edit] = []
    for fix in sorted(outermost, key=_order):
        if not any(_overlap(edit, other) for edit in fix.edits for other in taken):
            chosen.add(fix)
            taken.extend(fix.edits)
    made = set(taken)
    return chosen | {fix for fix in unique if made.issuperset(fix.edits)}


def _inside_another(fix: Fix, containing: dict[Edit, list[Fix]]) -> bool:
    """Whether a larger fix makes every edit of `fix`, or rewrites the text of those it does
    not make (a plan composed with the plans nested in it: `fixes.with_nested`)."""
    edits = set(fix.edits)
    candidates = {other for edit in fix.edits for other in containing.get(edit, ()) if other is not fix}
    return any(
        edits < set(other.edits)
        or (not edits <= set(other.edits) and all(edit in other.edits or _within(edit, other) for edit in fix.edits))
        for other in candidates
    )


def _within(edit: Edit, fix: Fix) -> bool:
    """Whether one of the fix's edits replaces text that holds the edit's (an insertion: not
    at its edges)."""
    if edit.start == edit.end:
        return any(other.start < edit.start < other.end for other in fix.edits)
    return any(
        other.start <= edit.start and edit.end <= other.end and (edit.start, edit.end) != (other.start, other.end)
        for other in fix.edits
    )


def _order(fix: Fix) -> list[tuple[Position, tuple[int, int], bool, str]]:
    """Source order, the widest first; of fixes rewriting the same text, an unsafe one first: a
    rule offers the safe part of an unsafe rewrite alone for `--fix` (ASC001 removes `num_warps`
    and keeps a `num_stages=1`), and with `--unsafe-fixes` the whole rewrite is made."""
    return [(e.start, _reversed(e.end), fix.applicability == "safe", e.content) for e in fix.edits]


def _reversed(position: Position) -> tuple[int, int]:
    return -position.row, -position.column


def _placement(fix: Fix) -> tuple[list[tuple[Position, tuple[int, int]]], list[str]]:
    """Where a fix edits, then what it writes: of two fixes inserting lines at one place (the
    copies two left operands of one statement need), the one whose next edit comes first in the
    source goes first, ties broken by the text (so the order never depends on a set's)."""
    return [(e.start, _reversed(e.end)) for e in fix.edits], [e.content for e in fix.edits]


def _overlap(a: Edit, b: Edit) -> bool:
    """Edits that share text. Insertions at one place do not overlap: both are made, in the
    order of their fixes (`_placement`), so one pass inserts every line a place needs. An
    insertion where a replacement starts or ends is not an overlap: it goes before or after."""
    return a.start < b.end and b.start < a.end


class FixRefused(Exception):
    """The fixed text is worse than the original; the message says how ("produce invalid code ...")."""


def compiled_fix(original: str, fixed: str, spans: list[tuple[int, int]]) -> CodeType:
    """CPython's compiled module of the fixed text, unless it is worse than the original
    (`FixRefused`): a syntax error, or names the edits read (in `spans`) that resolve nowhere
    although they did, or did not occur, in the original."""
    with sources.collection_paused():  # the `ast` trees hold no cycles: collections would only walk them
        return _compiled_fix(original, fixed, spans)


def _compiled_fix(original: str, fixed: str, spans: list[tuple[int, int]]) -> CodeType:
    try:
        with warnings.catch_warnings():  # warnings: not ours to report
            warnings.simplefilter("ignore")
            tree = ast.parse(fixed)
            code = compile(tree, "<fixed>", "exec", dont_inherit=True)  # errors the compiler finds: `f(a=1, a=2)`
    except SyntaxError as exc:
        raise FixRefused(f"produce invalid code (SyntaxError: {exc.msg} at line {exc.lineno})") from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise FixRefused(f"produce code that cannot be compiled ({type(exc).__name__})") from None
    index = LineIndex(fixed)
    rows = sorted(
        {row for start, end in spans for row in range(index.position(start).row, index.position(end).row + 1)}
    )
    missing = set(unresolved(_scopes_of(tree, index, rows), list(_reads_within(tree, index, spans, rows))))
    if missing:
        before = ast.parse(original)
        missing -= set(unresolved(before, list(name_reads(before))))
    if missing:
        raise FixRefused(f"read undefined names ({', '.join(sorted(missing))})")
    return code


def _reads_within(
    tree: ast.Module, index: LineIndex, spans: list[tuple[int, int]], rows: list[int]
) -> Iterator[ast.Name]:
    """The names read inside the spans (offsets of the text, on `rows`), looked for only in the
    top-level statements on those rows (a big file's other statements are not walked)."""
    edited = [statement for statement in tree.body if _on_rows(statement, rows)]
    text = index.text
    for read in (read for statement in edited for read in name_reads(statement)):
        if _on_rows(read, rows):
            start = index.starts[read.lineno - 1]
            before = text[start : start + read.col_offset].encode("utf-8")[: read.col_offset]  # ast counts bytes
            offset = start + len(before.decode("utf-8", "ignore"))
            if any(begin <= offset < end for begin, end in spans):
                yield read


def _scopes_of(tree: ast.Module, index: LineIndex, rows: list[int]) -> ast.Module:
    """`tree` as far as it decides where the names read on `rows` resolve: a top-level function
    on none of those rows and with no `global` on its rows keeps its signature but not its body,
    which binds names only in scopes of its own (a big file's other functions are not walked)."""
    kept = sorted({*rows, *(index.position(match.start()).row for match in _GLOBAL.finditer(index.text))})
    body = [
        ast.FunctionDef(**{**vars(statement), "body": [ast.Pass()]})
        if isinstance(statement, ast.FunctionDef) and not _on_rows(statement, kept)
        else statement
        for statement in tree.body
    ]
    return ast.Module(body=body, type_ignores=tree.type_ignores)


def _on_rows(node: ast.stmt | ast.expr, rows: list[int]) -> bool:
    """Whether any of the (sorted) rows is one of the node's."""
    span = _rows_of(node)
    at = bisect_left(rows, span.start)
    return at < len(rows) and rows[at] < span.stop


def _rows_of(node: ast.stmt | ast.expr) -> range:
    """The rows of a statement (its decorators included) or an expression."""
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(decorator.lineno for decorator in decorators)])
    return range(first, (node.end_lineno or node.lineno) + 1)


_GLOBAL = re.compile(r"\bglobal\b")


def _rejected(result: FileResult, message: str) -> tuple[FileResult, None]:
    return dataclasses.replace(result, error=Diagnostic(result.filename, message)), None


def write_fixed(fixed: FixedFile) -> Diagnostic | None:
    """Write the fixed text over the file, in its encoding; an error if that cannot be done safely."""
    if fixed.filename == "-":
        return None
    path = os.path.realpath(fixed.filename)
    try:
        data = sources.read_source(path)
        if sources.decode(data) != fixed.original:
            return Diagnostic(fixed.filename, "the file changed while it was being fixed; left unchanged")
        write_atomically(path, fixed.fixed.encode(sources.detect_encoding(data)), durable=True)
    except (OSError, UnicodeError, sources.SourceError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Diagnostic(fixed.filename, f"cannot write the fixes: {reason}")
    return None


def _lines(text: str) -> list[str]:
    """Lines with their endings, split only at \\n (so a \\r stays part of its line)."""
    pieces = text.split("\n")
    return [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
