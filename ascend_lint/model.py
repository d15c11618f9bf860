"""The data every part of ascend-lint exchanges: findings, fixes, file results.

Positions are 1-based rows and 1-based columns counted in Unicode code points; a range's end
is exclusive (ruff's convention). Reporters convert to their format's own units.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

Applicability = Literal["safe", "unsafe"]
# A structured fact a rule knows about its finding (``"optional_pointers": ("h0",)``), for
# tools that act on findings (``ascend-lint confirm``) without re-parsing the source.
Fact: TypeAlias = str | int | bool | tuple[str, ...]


@dataclass(frozen=True, order=True)
class Position:
    row: int
    column: int


# Line breaks as CPython and libcst count rows: \r\n, \r or \n (never \f, \v or \x1c).
NEWLINE = re.compile(r"\r\n?|\n")


class LineIndex:
    """Rows and columns of a text: 1-based rows ending at \\r\\n, \\r or \\n; columns in code points."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0, *(match.end() for match in NEWLINE.finditer(text))]

    def position(self, offset: int) -> Position:
        row = bisect_right(self.starts, offset)
        return Position(row, offset - self.starts[row - 1] + 1)

    def offset(self, position: Position) -> int:
        return self.starts[position.row - 1] + position.column - 1

    def lines(self) -> list[str]:
        """The text of each row, without its line break."""
        return NEWLINE.split(self.text)


@dataclass(frozen=True)
class Edit:
    """Replace the text between ``start`` and ``end`` with ``content``."""

    start: Position
    end: Position
    content: str


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Related:
    """A second location that explains a finding (the clobbering dot, a DMA arm)."""

    filename: str
    location: Position
    end_location: Position
    message: str


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    message: str
    filename: str
    location: Position
    end_location: Position
    kernel: str | None = None
    related: tuple[Related, ...] = ()
    fix: Fix | None = None
    facts: Mapping[str, Fact] = field(default_factory=dict, hash=False)
    no_fix_reason: str | None = None  # why the rule offers no fix, when it says
    # the last row of the lines continued from the one the finding starts on (by a backslash, or
    # a string going on to the next line), when it starts on such a row
    continued_to: int | None = None

    @property
    def noqa_row(self) -> int:
        """The row whose ``# noqa`` comment suppresses this finding: its own, or the last of the
        lines continued from it by a backslash or a multi-line string (no comment can follow a
        backslash or end a row inside a string; ruff reads the `# noqa` there too)."""
        return self.continued_to or self.location.row


@dataclass(frozen=True)
class Diagnostic:
    """A file that could not be linted (syntax error, unreadable, not UTF-8...), or a warning
    about one that was (`FileResult.warnings`: a suppression comment that cannot be read)."""

    filename: str
    message: str
    location: Position | None = None
    detail: str | None = None  # an internal error's traceback, printed with --verbose
    transient: bool = False  # an internal error or a timeout: never cached

    def where(self, filename: str) -> str:
        """`filename:row:column`, or the file's name alone when the message has no location."""
        if self.location is None:
            return filename
        return f"{filename}:{self.location.row}:{self.location.column}"


@dataclass
class FileResult:
    filename: str
    source: str | None = None
    findings: list[Finding] = field(default_factory=list)
    error: Diagnostic | None = None
    checked: bool = True  # False for files skipped as not Ascend kernel code
    skip_reason: str | None = None  # why it was skipped (`config.SKIP_*`)
    # after `--fix`: the findings its applied fixes repaired, per (code, fix message)
    fixed: Counter[tuple[str, str]] = field(default_factory=Counter)
    # after `--fix`: the findings left with a fix this run applies, per applicability (their fix
    # shares text with one applied, so the next run applies it)
    fix_again: Counter[Applicability] = field(default_factory=Counter)
    # the other files the findings depend on (modules whose device functions or core-count
    # helpers the file imports), and its targeting (the modules of the package it imports, when
    # one may make it Ascend code: `ascend_imports`), path -> content hash, None when it could not be read
    imported_files: dict[str, str | None] = field(default_factory=dict)
    # what the user should know about the file's suppression comments: a directive that
    # cannot be read (it is ignored), an unknown code in one (ruff's warnings)
    warnings: list[Diagnostic] = field(default_factory=list)
