"""Reading and parsing one file, turning every way it can fail into a Diagnostic."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from typing import TYPE_CHECKING

from .model import Diagnostic, Position

if TYPE_CHECKING:
    import libcst as cst

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_LINE_CHARS = 5000
MAX_BRACKET_DEPTH = 200  # CPython's own limit ("too many nested parentheses")
MAX_BRACKET_SPAN = 50_000

_BRACKETS = re.compile(r"[()\[\]{}]")
_OPENERS = frozenset("([{")


class SourceError(Exception):
    """The file cannot be linted; carries the diagnostic to show."""

    def __init__(self, message: str, location: Position | None = None):
        super().__init__(message)
        self.location = location


def decode(data: bytes) -> str:
    """Decode file bytes honouring a PEP 263 coding cookie and a UTF-8 BOM."""
    if len(data) > MAX_FILE_BYTES:
        raise SourceError(f"file too large to lint ({len(data)} bytes; limit {MAX_FILE_BYTES})")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "unknown encoding" in str(exc):
            raise SourceError(f"cannot decode the file: {exc}") from None
        encoding = "utf-8"  # undecodable first lines: the decode below names the bad byte
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        row = data.count(b"\n", 0, exc.start) + 1
        raise SourceError(
            f"file is not valid {encoding}: byte 0x{data[exc.start]:02x} at offset {exc.start}",
            Position(row, exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1),
        ) from None
    return text.removeprefix("\ufeff")


def _check_shape(text: str) -> None:
    """Refuse inputs that would crash or stall the parser, with the reason."""
    nul = text.find("\0")
    if nul >= 0:
        raise SourceError("source contains NUL bytes", _position_of(text, nul))
    depth = 0
    group_start = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in _OPENERS:
            if depth == 0:
                group_start = match.start()
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                raise SourceError(
                    f"too many nested parentheses (more than {MAX_BRACKET_DEPTH})",
                    _position_of(text, match.start()),
                )
        elif depth:
            depth -= 1
            if depth == 0 and match.start() - group_start > MAX_BRACKET_SPAN:
                raise SourceError(
                    f"expression too large to analyse (one bracketed expression spans "
                    f"{match.start() - group_start} characters; limit {MAX_BRACKET_SPAN})",
                    _position_of(text, group_start),
                )
    lines = text.splitlines()
    if lines and max(map(len, lines)) > MAX_LINE_CHARS:
        row, line = next((r, line) for r, line in enumerate(lines, 1) if len(line) > MAX_LINE_CHARS)
        raise SourceError(
            f"line too long to analyse ({len(line)} characters; limit {MAX_LINE_CHARS})",
            Position(row, 1),
        )


def _position_of(text: str, offset: int) -> Position:
    row = text.count("\n", 0, offset) + 1
    return Position(row, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def parse(text: str) -> cst.Module:
    import libcst as cst  # loaded on the first file that is parsed: cached runs never pay for it

    _check_shape(text)
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise _syntax_error(text) or SourceError(
            f"SyntaxError: {exc.message.strip().splitlines()[0] if exc.message else 'invalid syntax'}",
            Position(exc.raw_line, exc.raw_column + 1),
        ) from None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None


def check_syntax(text: str) -> None:
    """Validate a file no rule needs to analyse, at the cost of CPython's parser only."""
    _check_shape(text)
    error = _syntax_error(text)
    if error is not None:
        raise error


def _syntax_error(text: str) -> SourceError | None:
    """CPython's own report (its positions are exact; libcst's are often off by a line)."""
    try:
        compile(text, "<source>", "exec", ast.PyCF_ONLY_AST)
    except SyntaxError as exc:
        row = exc.lineno or 1
        return SourceError(f"SyntaxError: {exc.msg}", Position(row, exc.offset or 1))
    except (RecursionError, MemoryError):
        return SourceError("too deeply nested to parse")
    except ValueError as exc:  # e.g. NUL bytes, already excluded by _check_shape
        return SourceError(f"SyntaxError: {exc}")
    return None


def diagnostic(filename: str, error: SourceError) -> Diagnostic:
    return Diagnostic(filename=filename, message=str(error), location=error.location)
