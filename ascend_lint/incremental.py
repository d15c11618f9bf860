"""Parse a document that changes a little at a time, re-parsing only the statements that changed.

The editor server keeps one `IncrementalParser` per open document, and `--fix` one per file
from its check to the re-lint of the fixed text (both in an `engine.DocumentMemory`). The
text is cut into runs of top-level statements (CPython's parser finds their lines, about a
tenth of libcst's cost); each run is parsed with libcst on its own and remembered by its
text, so after an edit only the runs whose text changed are parsed again, and the module is
assembled from the rest.

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
from itertools import pairwise

import libcst as cst

from . import source as sources

_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+$")
_GAP_LINE = re.compile(r"(?:#[^\r\n]*)?(?:\r\n?|\n)")  # empty, or a comment at column 0


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

    def parse(self, text: str) -> cst.Module:
        with sources.built_old():  # as `source.parse`: the runs are trees, collections would walk them
            return self._parse(text)

    def _parse(self, text: str) -> cst.Module:
        cuts = statement_runs(text)
        if cuts is None or len(cuts) < 2:
            self._runs = {}
            return sources.parse(text)
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
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = _LINE.findall(text)
    cuts, previous_end = [0], 0
    for node in tree.body:
        start = min([node.lineno] + [decorator.lineno for decorator in getattr(node, "decorator_list", ())])
        gap = lines[previous_end : start - 1]
        if previous_end and start > previous_end and all(_GAP_LINE.fullmatch(line) for line in gap):
            cuts.append(previous_end)
        previous_end = node.end_lineno or start
    cuts.append(len(lines))
    return ["".join(lines[a:b]) for a, b in pairwise(cuts)]


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
