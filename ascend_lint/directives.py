"""Suppression comments: `# noqa` on a line, `# ascend-lint: disable-file` for a whole file.

Only comments count, as in ruff: CPython's tokenizer finds them (`Comments`), so the text of a
string or docstring (`print("# noqa")`, a docstring quoting the directive) suppresses nothing.
The tokenizer runs only for a text that holds a directive's words, at most once per lint, and
the same pass gives the backslash-continued rows (where a finding's `# noqa` goes).

`# noqa` is read as ruff's lexer reads it (crates/ruff_linter/src/noqa.rs): the first `#`
followed by `noqa` (any case) in the comment; then nothing, another `#` or whitespace and text
other than `:` make it bare (every code); `:` (spaces allowed before it) opens a list of codes,
each uppercase letters then digits (`ASC001`), separated by commas or whitespace, and the list
ends at the first word that is no code (a trailing remark). A list without a code (`# noqa:`,
`# noqa: ASC`, `# noqa: asc001`, `# noqa: ASC-001`), a code with other characters joined to
it (`# noqa: ASC001x`) or `noqa` joined to other characters (`# noqa-free`) make the directive
invalid: it suppresses nothing and is reported as a warning. Codes match exactly (no prefixes).

`# ascend-lint: disable-file` takes the same list after `=` or `:`, spaces allowed around
either (`disable-file=ASC001`, `disable-file = ASC001, ASC002`, `disable-file: ASC001`); bare
(nothing, or another `#`, after it) it disables every rule. Anything else after it
(`disable-file ASC001`) makes it invalid: a warning, and nothing is disabled — never the
whole file by mistake. As ruff's `lex_file_exemption` reads `# ruff: noqa`, the keyword is read
in any case (`# ascend-lint: DISABLE-FILE`) and the tool's name only in lowercase; where ruff
passes over `# RUFF: noqa` in silence, `# ASCEND-LINT: disable-file` is invalid (a warning).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from .model import LineIndex

NOQA_EXAMPLE = "`# noqa: ASC001, ASC002`"
DISABLE_FILE = "# ascend-lint: disable-file"
DISABLE_FILE_EXAMPLE = "`# ascend-lint: disable-file=ASC001, ASC002`"
# the words a directive needs: a text without them has none, and is not tokenized for them
NOQA_WORD = re.compile(r"noqa", re.IGNORECASE)
DISABLE_FILE_WORD = re.compile(r"ascend-lint", re.IGNORECASE)
_NOQA_START = re.compile(r"#\s*noqa", re.IGNORECASE)
_DISABLE_FILE_START = re.compile(r"#\s*ascend-lint\s*:\s*(?i:disable-file)")
# the tool's name in another case: refused, as ruff refuses `# RUFF: noqa`, but said
_DISABLE_FILE_MISCASED = re.compile(r"#\s*ascend-lint\s*:\s*disable-file", re.IGNORECASE)
# tokens after which the next token starts a line of its own (`Comments.continued`)
_LINE_ENDS = frozenset(
    {tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}
)
# the tokens opening and closing an f-string (t-string) in Python 3.12 and later, where it is
# several tokens (before, one STRING token)
_STRING_OPENS = frozenset(
    getattr(tokenize, name) for name in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, name)
)
_STRING_CLOSES = frozenset(
    getattr(tokenize, name) for name in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, name)
)


class InvalidDirective(ValueError):
    """A directive that cannot be read (its message says what was expected); it is ignored.
    `start` is the offset of its `#` in the comment."""

    start = 0


@dataclass(frozen=True)
class Directive:
    """A suppression comment: the codes it lists, None for every code (bare); `start` and `end`
    are its offsets in the comment (from its `#` to after the last code, or after `noqa` /
    `disable-file` when bare), `warnings` what it holds that is read past (`,,`, `ASC001ASC002`)."""

    codes: tuple[str, ...] | None
    start: int
    end: int
    warnings: tuple[str, ...] = ()

    def suppresses(self, code: str) -> bool:
        return self.codes is None or code in self.codes


def noqa_directive(comment: str) -> Directive | None:
    """The `# noqa` directive in a comment's text, None when it holds none; raises
    `InvalidDirective` for one that cannot be read."""
    return _directive(comment, _NOQA_START, ":", NOQA_EXAMPLE, bare_after_space=True)


def disable_file_directive(comment: str) -> Directive | None:
    """The `# ascend-lint: disable-file` directive in a comment's text, None when it holds
    none; raises `InvalidDirective` for one that cannot be read."""
    directive = _directive(comment, _DISABLE_FILE_START, "=:", DISABLE_FILE_EXAMPLE, bare_after_space=False)
    miscased = _DISABLE_FILE_MISCASED.search(comment) if directive is None else None
    if miscased is not None:
        invalid = InvalidDirective(f"expected `ascend-lint` in lowercase (e.g., {DISABLE_FILE_EXAMPLE})")
        invalid.start = miscased.start()
        raise invalid
    return directive


def _directive(
    comment: str, start: re.Pattern[str], separators: str, example: str, *, bare_after_space: bool
) -> Directive | None:
    """ruff's `lex_inline_noqa` / `lex_file_exemption`: the first `#` of the comment that
    `start` matches at, then bare or a list of codes after one of `separators`."""
    found = None
    at = comment.find("#")
    while at >= 0 and found is None:
        found = start.match(comment, at)
        at = comment.find("#", at + 1)
    if found is None:
        return None
    at = found.end()
    if at == len(comment) or comment[at] == "#":
        return Directive(None, found.start(), at)
    if comment[at].isspace():
        rest = comment[at:].lstrip()
        if not rest or rest[0] == "#" or (bare_after_space and rest[0] not in separators):
            return Directive(None, found.start(), at)
        at = len(comment) - len(rest)
    try:
        if comment[at] not in separators:
            spelled = " or ".join(f"`{separator}`" for separator in separators)
            raise InvalidDirective(f"expected {spelled} followed by a comma-separated list of codes (e.g., {example})")
        codes, end, warnings = _codes(comment, at + 1, example)
    except InvalidDirective as exc:
        exc.start = found.start()
        raise
    return Directive(codes, found.start(), end, warnings)


def _codes(text: str, at: int, example: str) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
    """The codes listed from `at` on, the offset after the last one, and warnings (ruff's
    `lex_codes`: the list ends at the first word that is no code)."""
    codes: list[str] = []
    warnings: list[str] = []
    end, joined = at, False
    while at < len(text):
        while at < len(text) and text[at].isspace():
            at += 1
        if at < len(text) and text[at] == ",":
            warnings.append("expected rule code between commas")
            at += 1
            continue
        letters = at
        while at < len(text) and "A" <= text[at] <= "Z":
            at += 1
        digits = at
        while at < len(text) and "0" <= text[at] <= "9":
            at += 1
        if letters == digits or digits == at:  # no code here: the list ended
            if joined:
                raise InvalidDirective(_LETTERS_THEN_DIGITS)
            break
        codes.append(text[letters:at])
        end = at
        after = text[at] if at < len(text) else ""
        joined = "A" <= after <= "Z"
        if joined:
            warnings.append("expected comma or space delimiter between codes")
        elif after == ",":
            at += 1
        elif after and not after.isspace() and after != "#":
            raise InvalidDirective(_LETTERS_THEN_DIGITS)
    if not codes:
        raise InvalidDirective(f"expected a comma-separated list of codes (e.g., {example})")
    return tuple(codes), end, tuple(warnings)


_LETTERS_THEN_DIGITS = "expected code to consist of uppercase letters followed by digits only (e.g. `ASC001`)"


class Comments:
    """The comments of a text, by row, and its rows a backslash continues, from one pass of
    CPython's tokenizer made when first asked (rows end at `\\r\\n`, `\\r` or `\\n`, as CPython's
    do). Where the tokenizer stops on an error (a file CPython does not compile), the comments
    before it are kept."""

    def __init__(self, source: str):
        self.source = source
        self._comments: dict[int, tuple[int, str]] | None = None
        self._continued: set[int] = set()
        self._in_string: set[int] = set()

    @property
    def comments(self) -> dict[int, tuple[int, str]]:
        """Row -> (0-based column of the comment's `#`, its text)."""
        if self._comments is None:
            self._scan()
        assert self._comments is not None
        return self._comments

    @property
    def continued(self) -> set[int]:
        """The rows a backslash ends outside strings and comments (the statement goes on)."""
        if self._comments is None:
            self._scan()
        return self._continued

    @property
    def in_string(self) -> set[int]:
        """The rows that end inside a string (a multi-line string, or one a backslash
        continues): no comment can end them; a finding there reads its `# noqa` on the string's
        last row, as ruff's `noqa_line_for` maps it."""
        if self._comments is None:
            self._scan()
        return self._in_string

    def _scan(self) -> None:
        self._comments = {}
        previous = None
        opened: list[int] = []  # the rows of the f-strings open (3.12 and later: nested ones too)
        try:  # universal newlines: rows end where CPython's do (`\r` too)
            for token in tokenize.generate_tokens(io.StringIO(self.source, newline=None).readline):
                if token.type == tokenize.COMMENT:
                    self._comments[token.start[0]] = (token.start[1], token.string)
                elif token.type == tokenize.STRING:
                    self._in_string.update(range(token.start[0], token.end[0]))
                elif token.type in _STRING_OPENS:
                    opened.append(token.start[0])
                elif token.type in _STRING_CLOSES and opened:
                    self._in_string.update(range(opened.pop(), token.end[0]))
                if previous is not None and token.start[0] > previous.end[0] and previous.type not in _LINE_ENDS:
                    self._continued.update(range(previous.end[0], token.start[0]))  # no line break token between
                previous = token
        except (tokenize.TokenError, SyntaxError):
            pass

    def continued_to(self, rows: AbstractSet[int]) -> dict[int, int]:
        """Each of `rows` that a backslash continues (outside strings and comments, as the
        tokenizer reads it) or that ends inside a string (a multi-line one), with the last row of
        the lines continued from it: where its `# noqa` goes (ruff's `noqa_line_for`: a comment
        cannot end a row a string goes on from). The text is tokenized only when a row's line
        ends with a backslash or holds a triple quote."""
        lines = LineIndex(self.source).lines()
        if not any(_may_continue(lines[row - 1]) for row in rows if row <= len(lines)):
            return {}
        continued = self.continued | self.in_string
        ends: dict[int, int] = {}
        for row in sorted(continued, reverse=True):
            ends[row] = ends.get(row + 1, row + 1)
        return {row: ends[row] for row in rows if row in ends}

    def noqa(self) -> dict[int, Directive | InvalidDirective]:
        """Each row whose comment holds a `# noqa` directive, with it (or why it cannot be read)."""
        return self._directives(NOQA_WORD, noqa_directive)

    def disable_file(self) -> dict[int, Directive | InvalidDirective]:
        """Each row whose comment holds a `# ascend-lint: disable-file` directive, with it (or
        why it cannot be read)."""
        return self._directives(DISABLE_FILE_WORD, disable_file_directive)

    def _directives(
        self, word: re.Pattern[str], read: Callable[[str], Directive | None]
    ) -> dict[int, Directive | InvalidDirective]:
        found: dict[int, Directive | InvalidDirective] = {}
        for row, (_, text) in self.comments.items():
            if word.search(text) is None:
                continue
            try:
                directive = read(text)
            except InvalidDirective as exc:
                found[row] = exc
                continue
            if directive is not None:
                found[row] = directive
        return found


def noqa_edit(comments: Comments, lines: Sequence[str], row: int, codes: Iterable[str]) -> NoqaEdit | None:
    """The edit that makes `row`'s `# noqa` suppress `codes`, as ruff's `--add-noqa` writes it
    (shared by `check --add-noqa` and the editor's "Disable ... for this line"): `  # noqa: CODES`
    at the end of the line (after its comment, if any; trailing blanks replaced), or the codes
    merged into the list of its `# noqa: ...`, sorted and deduplicated, its trailing text kept;
    before a `# noqa` that cannot be read (which suppresses nothing). None when nothing is to be
    added (a bare `# noqa`, every code listed) or no comment can end the row (a backslash or a
    string continues it). `lines` are the text's rows without their line breaks."""
    wanted = sorted(set(codes))
    if not wanted or not 1 <= row <= len(lines) or row in comments.continued or row in comments.in_string:
        return None
    line = lines[row - 1]
    end = len(line.rstrip(_BLANKS))
    if row not in comments.comments and line[:end].endswith("\\"):
        return None  # a continuation the tokenizer did not reach (a comment's own backslash is none)
    if row in comments.comments:
        column, comment = comments.comments[row]
        try:
            existing = noqa_directive(comment)
        except InvalidDirective as invalid:
            at = column + invalid.start
            return NoqaEdit(row, at, at, f"# noqa: {', '.join(wanted)}  ")
        if existing is not None:
            if existing.codes is None or set(wanted) <= set(existing.codes):
                return None
            merged = ", ".join(sorted({*existing.codes, *wanted}))
            return NoqaEdit(row, column + existing.start, column + existing.end, f"# noqa: {merged}")
    return NoqaEdit(row, end, len(line), f"  # noqa: {', '.join(wanted)}")


@dataclass(frozen=True)
class NoqaEdit:
    """Replace columns `start` to `end` (0-based, in code points, end exclusive) of `row` with `text`."""

    row: int
    start: int
    end: int
    text: str


_BLANKS = " \t\f"


def _may_continue(line: str) -> bool:
    return line.endswith("\\") or '"""' in line or "'''" in line
