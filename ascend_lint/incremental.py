"""Parse a document that changes a little at a time, re-parsing only the statements that changed.

The editor server keeps one `IncrementalParser` per open document, and `--fix` one per file
from its check to the re-lint of the fixed text (both in an `engine.DocumentMemory`). The
text is cut into runs of top-level statements (CPython's parser finds their lines, about a
tenth of libcst's cost); each run is parsed with libcst on its own and remembered by its
text, so after an edit only the runs whose text changed are parsed again, and the module is
assembled from the rest. Cutting an edited text needs no whole CPython parse either: the runs
of the previous text found again in place are kept, and CPython parses only the stretches
between them (`runs_around_edits`; a whole parse when a stretch cannot stand alone).

The assembled module is the tree `libcst.parse_module` builds for the whole text, node for
node (tested on the fixtures and real corpora). That holds because a cut is made only where
libcst's ownership of the lines is unambiguous: between two top-level statements on different
lines with nothing in between but empty lines and comments at column 0 (which libcst gives
to the next statement), and every run must agree with the first on the default indentation
and line ending (nodes that match the default store none). Anything else — a syntax error, an
indented comment after a block, mixed line endings — is parsed whole, as before.
"""

from __future__ import annotations

import ast
import re
from functools import cached_property
from itertools import accumulate, pairwise
from typing import NamedTuple

import libcst as cst

from . import source as sources

_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+$")
_GAP_LINE = re.compile(r"(?:#[^\r\n]*)?(?:\r\n?|\n)")  # empty, or a comment at column 0
_LOOKAHEAD = 8  # after an edit, the next of this many previous runs found in the text is where it ends


class _Run:
    """One run of statements parsed alone."""

    def __init__(self, text: str):
        module = sources.parse(text)
        self.module = module
        # None when the run has no indented block: its default indentation is then unused
        has_block = any(_has_indented_block(statement) for statement in module.body)
        self.default_indent = module.default_indent if has_block else None

    @cached_property
    def continued_body(self) -> list[cst.SimpleStatementLine | cst.BaseCompoundStatement]:
        """The statements as they stand after earlier ones: the lines libcst gave to the
        header of the run's own module belong to its first statement."""
        body = list(self.module.body)
        if body and self.module.header:
            body[0] = body[0].with_changes(leading_lines=(*self.module.header, *body[0].leading_lines))
        return body


class IncrementalParser:
    """`parse(text)` equal to `source.parse(text)`, reusing the runs of the previous texts."""

    def __init__(self) -> None:
        self._runs: dict[str, list[_Run]] = {}  # a run's text -> its runs, one per occurrence
        self._texts: list[str] = []  # the texts of the last parse's runs, in order

    def parse(self, text: str) -> cst.Module:
        with sources.built_old():  # as `source.parse`: the runs are trees, collections would walk them
            return self._parse(text)

    def _parse(self, text: str) -> cst.Module:
        cuts = runs_around_edits(self._texts, text) or statement_runs(text)
        if cuts is None or len(cuts) < 2:
            self._runs, self._texts = {}, []
            return sources.parse(text)
        self._texts = cuts
        runs: dict[str, list[_Run]] = {}
        parsed = []
        for run_text in cuts:
            # a text met again in this parse gets a run of its own: every node stands once in the tree
            known = self._runs.get(run_text, [])
            occurrence = runs.setdefault(run_text, [])
            run = known[len(occurrence)] if len(occurrence) < len(known) else _Run(run_text)
            occurrence.append(run)
            parsed.append(run)
        self._runs = runs  # forget runs that are gone, so memory follows the document
        indents = {run.default_indent for run in parsed if run.default_indent is not None}
        if len(indents) > 1 or len({run.module.default_newline for run in parsed}) > 1:
            return sources.parse(text)
        first, last = parsed[0].module, parsed[-1].module
        return cst.Module(
            body=[*first.body, *(statement for run in parsed[1:] for statement in run.continued_body)],
            header=first.header,
            footer=last.footer,
            encoding=first.encoding,
            default_indent=indents.pop() if indents else "    ",
            default_newline=first.default_newline,
            has_trailing_newline=last.has_trailing_newline,
        )


def statement_runs(text: str) -> list[str] | None:
    """The text cut before top-level statements where the cut is unambiguous, or None when
    CPython's parser rejects the text (libcst's parse then reports the error)."""
    found = _cut(text)
    return None if found is None else found.runs


class _Cut(NamedTuple):
    """A text's runs and how it begins and ends, for a stretch of a text between runs."""

    runs: list[str]
    statements: int
    opens: bool  # its first statement comes after empty lines and comments at column 0 only
    tail: str | None  # the lines after its last statement (all), when all are empty or comments at column 0


def _cut(text: str) -> _Cut | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = _LINE.findall(text)
    cuts, previous_end, opens = [0], 0, False
    for node in tree.body:
        start = min([node.lineno] + [decorator.lineno for decorator in getattr(node, "decorator_list", ())])
        gap = lines[previous_end : start - 1]
        clean = all(_GAP_LINE.fullmatch(line) for line in gap)
        if previous_end and start > previous_end and clean:
            cuts.append(previous_end)
        opens = opens or (not previous_end and clean)
        previous_end = node.end_lineno or start
    cuts.append(len(lines))
    tail = lines[previous_end:]
    return _Cut(
        ["".join(lines[a:b]) for a, b in pairwise(cuts)],
        len(tree.body),
        opens,
        "".join(tail) if all(_GAP_LINE.fullmatch(line) for line in tail) else None,
    )


def runs_around_edits(previous: list[str], text: str) -> list[str] | None:
    """`statement_runs` of `text` when it is an edit of the text of the `previous` runs: runs
    found again whole, on whole lines, are kept, and only the stretches between them are parsed
    by CPython; None when a stretch cannot stand between runs.

    A run other than the first starts with empty lines and comments at column 0 and then a
    statement, and one other than the last ends with the line its last statement ends on: both
    may stand anywhere; the first only at the start, the last only at the end."""
    if len(previous) < 2:
        return None
    line_starts = set(accumulate(map(len, _LINE.findall(text)), initial=0))  # the end of the text too
    runs: list[str] = []
    cursor, index = 0, 0
    opening = ""  # the lines of an edited stretch that open the next run
    while cursor < len(text):
        found = _next_run(previous, index, text, cursor, line_starts)
        end = len(text) if found is None else found[1]
        if end > cursor:
            left = _add_stretch(runs, text[cursor:end], first=cursor == 0, last=found is None)
            if left is None:
                return None
            opening = left
        if found is None:
            break
        which, at = found
        runs.append(opening + previous[which])
        cursor, index, opening = at + len(previous[which]), which + 1, ""
    return runs


def _add_stretch(runs: list[str], stretch: str, *, first: bool, last: bool) -> str | None:
    """Adds the runs of an edited stretch of the text to `runs`; returns the lines it leaves to
    open the next run (the empty lines and comments after its last statement), or None when
    the stretch cannot stand there."""
    cut = _cut(stretch)
    if cut is None:
        return None
    if not cut.statements:  # empty lines and comments: the last run's end, or the next one's opening
        if last and runs:
            runs[-1] += stretch
            return ""
        return stretch if not last and (first or cut.tail is not None) else None
    if not (first or cut.opens):
        return None
    if last:
        runs.extend(cut.runs)
        return ""
    if cut.tail is None:
        return None
    runs.extend([*cut.runs[:-1], cut.runs[-1][: len(cut.runs[-1]) - len(cut.tail)]])
    return cut.tail


def _next_run(previous: list[str], index: int, text: str, cursor: int, line_starts: set[int]) -> tuple[int, int] | None:
    """(which, where): the first in the text from `cursor` of the next few previous runs from
    `index`, on whole lines and in a place it may stand."""
    found = None
    for which in range(index, min(index + _LOOKAHEAD, len(previous))):
        run = previous[which]
        at = text.find(run, cursor)
        while at >= 0 and not (
            at in line_starts
            and at + len(run) in line_starts
            and (which > 0 or at == 0)
            and (which < len(previous) - 1 or at + len(run) == len(text))
        ):
            at = text.find(run, at + 1)
        if at >= 0 and (found is None or at < found[1]):
            found = (which, at)
            if at == cursor:
                break
    return found


def _has_indented_block(statement: cst.CSTNode) -> bool:
    """Whether the statement opens an indented block (its own, an else, a handler...)."""
    parts = [getattr(statement, "body", None), getattr(statement, "finalbody", None)]
    orelse = getattr(statement, "orelse", None)
    if isinstance(orelse, cst.If):
        return _has_indented_block(orelse) or isinstance(parts[0], cst.IndentedBlock)
    parts.append(orelse)
    parts.extend(getattr(statement, "handlers", ()))
    parts.extend(getattr(statement, "cases", ()))
    return any(
        isinstance(part, cst.IndentedBlock) or isinstance(getattr(part, "body", None), cst.IndentedBlock)
        for part in parts
    )
