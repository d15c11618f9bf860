"""Which rules can report anything in a file, decided on its words before it is parsed.

A rule declares the tokens every one of its findings needs (`Rule.REQUIRES_TOKENS`): groups
of alternatives, one of each group must occur. A token occurs when the text holds it as a
whole word — an identifier or keyword, or a word inside a string or comment (a superset of
the file's NAME tokens, so the condition stays necessary, and it never depends on line breaks
or spacing). A string escape that could spell a letter (`"num\\x5fwarps"`, a backslash-newline
inside a string) counts as every token, because rules compare string values too.

A kernel rule also needs a kernel, and `find_kernels` only knows functions decorated with, or
wrapped by a call of, a name resolving to `<triton>.jit`: no kernel without the word `jit`. A launch of a kernel the file
imports (`from .kernels import k`, then `k[grid](...)`) is no word: `LAUNCH` holds when the text
has a `]` followed by a `(` (only spaces, line breaks, comments or backslashes between them, as
between any tokens `] (`) closing a subscript of a name an import statement lists, or of a name
a statement assigns a value naming one (`fn = k_32 if BT == 32 else k_64`, also annotated,
after a `;`, in brackets or after a backslash over several lines), or of any name when the text
star-imports a module other than Triton's (`from .kernels import *`). A call of a
device function another module defines (`from .micro_kernel import f`, then `f(...)` in a
kernel; `from . import helpers` or `import pkg.helpers as helpers`, then `helpers.f(...)`)
brings that function's words, which this file need not hold: `PACKAGE_IMPORT` holds when the
text has a `from <module> import` or an `import <modules>` naming a module other than Triton's
(anywhere: a superset of the import statements).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from functools import lru_cache

KERNEL_TOKENS: tuple[str, ...] = ("jit",)
LAUNCH = "]("  # not a word: a launch of an imported name (`_launches_imported`)
PACKAGE_IMPORT = "import <module>"  # not a word: an import of a module other than Triton's
_FROM_OTHER_MODULE = re.compile(r"(?<![\w.])from\s+(?!triton\b)[\w.]+\s+import\b")
# `import a.b as c, d`: a listed module other than Triton's (after any number of listed ones)
_IMPORT_OTHER_MODULE = re.compile(r"(?<![\w.])import[\s\\]+(?:[\w.]+(?:\s+as\s+\w+)?[\s\\]*,[\s\\]*)*(?!triton\b)\w")
_FROM_CLAUSE_END = re.compile(r"(?<![\w.])from\s+[\w.]+\s+\Z")  # what `from x import` has before `import`
# a comment is one item to the end of its line: `#[^\r\n]*` alone could split a run of `#`
# in exponentially many ways before failing (a `]` and then a `#####` banner took hours)
LAUNCH_TEXT = re.compile(r"\](?:\s|\\|#[^\r\n]*(?![^\r\n]))*\(")

# Escapes that can produce an ASCII letter or `_` in a string value (hex 41-7f, octal 101-177,
# \N{...}), and backslash-newline, which joins a string across lines.
_SPELLING_ESCAPE = re.compile(
    r"\\(?:x[4-7][0-9a-fA-F]|u00[4-7][0-9a-fA-F]|U0000[4-7][0-9a-fA-F]|N\{|1[0-7][0-7]|\r?\n)"
)


@lru_cache(maxsize=64)
def _whole_word(token: str) -> re.Pattern[str]:
    """The token with no word character either side, the one before it looked behind for once
    the token matched: a pattern opening with a literal is searched for by that literal, one
    opening with a lookbehind is tried at every offset (about six times slower)."""
    escaped = re.escape(token)
    return re.compile(rf"{escaped}(?!\w)(?<!\w{escaped})")


class Words:
    """The words of one file's text, looked up on demand (each lookup is a C-level search)."""

    def __init__(self, text: str):
        self.text = text
        self._escapes = _SPELLING_ESCAPE.search(text) is not None
        self._found: dict[str, bool] = {}

    def has(self, token: str) -> bool:
        found = self._found.get(token)
        if found is None:
            if token == LAUNCH:  # syntax, which no escape in a string can spell
                found = LAUNCH_TEXT.search(self.text) is not None and _launches_imported(self.text)
            elif token == PACKAGE_IMPORT:
                found = _imports_other_module(self.text)
            else:
                found = self._escapes or (token in self.text and _whole_word(token).search(self.text) is not None)
            self._found[token] = found
        return found

    def satisfies(self, groups: Iterable[tuple[str, ...]]) -> bool:
        """Whether every group has one of its tokens in the text."""
        return all(any(self.has(token) for token in group) for group in groups)


def _imports_other_module(text: str) -> bool:
    """Whether the text may import a module other than Triton's: a `from <module> import` of
    one, or an `import` not ending a `from` clause (whose list names no modules) listing one."""
    if _FROM_OTHER_MODULE.search(text) is not None:
        return True
    return any(
        _FROM_CLAUSE_END.search(text, max(0, match.start() - 200), match.start()) is None
        for match in _IMPORT_OTHER_MODULE.finditer(text)
    )


_IMPORTED = re.compile(r"\bimport\s+(\([^)]*\)|(?:[^\r\n\\]|\\\r?\n)*)")  # what an import statement lists
_WORD = re.compile(r"\w+")
_STAR_IMPORT = re.compile(r"(?<![\w.])from\s+(?!triton\b)[\w.]+[\s\\]+import[\s\\]*\*")  # of a module not Triton's
_SUBSCRIPT_HEAD = re.compile(r"(?<![\w.])(\w+)(?:\s*\.\s*\w+)*\s*\[")  # a subscript and the name it starts from
_PARENTHESIZED_SUBSCRIPT = re.compile(r"\)\s*\[")
# the strings a line closes and its comment (what is left of a string the line opens stays)
_LINE_STRINGS = re.compile(r"""'(?:[^'\\\r\n]|\\.)*'|"(?:[^"\\\r\n]|\\.)*"|#[^\r\n]*""")
# `name = <the rest of the line>` (`name: <annotation> = ...` too), the name starting a line or
# after a `;` or a one-line suite's `:`
_ASSIGNED = re.compile(r"(?m)(?:^|[;:])[ \t]*(\w+)[ \t]*(?::[^=;\r\n]*)?=(?!=)(?=([^\r\n]*))")


def subscript_called(text: str, names: AbstractSet[str]) -> bool:
    """Whether a subscript of one of the names (or of an attribute of one: `kernels.k[grid]`) may
    be called (`k[grid](...)`); a subscript whose brackets hold a string or comment counts. One
    pass over the text's subscripts, whatever the number of names."""
    for match in _SUBSCRIPT_HEAD.finditer(text):
        if match[1] in names:
            closing = _closing_bracket(text, match.end())
            if closing is None or LAUNCH_TEXT.match(text, closing):
                return True
    return False


def _launches_imported(text: str) -> bool:
    """Whether a subscript of an imported name may be called (`k[grid](...)`, `kernels.k[grid]
    (...)`, `fn[grid](...)` after `fn = k if c else other`, `(k if c else other)[grid](...)`
    when the parentheses hold one): the names are every word an import statement lists (a
    superset of those it binds) and every name a statement assigns a value naming one, and a
    subscript whose brackets hold a string or comment counts as called."""
    if _STAR_IMPORT.search(text) is not None:  # binds names no import statement lists
        return True
    names = {word for listed in _IMPORTED.finditer(text) for word in _WORD.findall(listed[1])}
    if not names:
        return False
    names |= {  # and the names a statement assigns a value naming one (`fn = k_32 if BT == 32 else k_64`)
        bound[1] for bound in _ASSIGNED.finditer(text) if not names.isdisjoint(_WORD.findall(_assigned(text, bound)))
    }
    subscripted = re.compile(rf"(?<![\w.])(?:{'|'.join(map(re.escape, names))})(?:\s*\.\s*\w+)*\s*\[")
    for match in subscripted.finditer(text):
        closing = _closing_bracket(text, match.end())
        if closing is None or LAUNCH_TEXT.match(text, closing):
            return True
    for match in _PARENTHESIZED_SUBSCRIPT.finditer(text):  # `(k_32 if c else other)[grid](...)`
        closing = _closing_bracket(text, match.end())
        if closing is None or LAUNCH_TEXT.match(text, closing):
            opening = _opening_parenthesis(text, match.start())
            if opening is None or not names.isdisjoint(_WORD.findall(text, opening, match.start())):
                return True
    return False


def _assigned(text: str, bound: re.Match[str]) -> str:
    """The text of the value `bound` assigns: the rest of its line, or to the end of its
    statement when the line goes on (a bracket left open, a backslash at its end; brackets in
    strings and comments do not count), or of the text when unsure where the statement ends (a
    triple-quoted string)."""
    rest = bound[2]
    code = _LINE_STRINGS.sub("", rest)
    closed = "'" not in code and '"' not in code  # no string goes on past the line
    if closed and sum(map(code.count, "([{")) <= sum(map(code.count, ")]}")) and not code.rstrip().endswith("\\"):
        return rest
    depth = 0
    for offset, char in _code_characters(text, bound.end()):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif char in ";\r\n" and depth == 0:
            return text[bound.end() : offset]
    return text[bound.end() :]


def _opening_parenthesis(text: str, closing: int) -> int | None:
    """The offset of the `(` the `)` at `closing` closes; None when unsure (a string or a
    comment between them, or no such parenthesis)."""
    depth = 0
    for offset in range(closing, -1, -1):
        char = text[offset]
        if char in "\"'#":
            return None
        depth += (char in ")]}") - (char in "([{")
        if depth == 0:
            return offset
    return None


def _closing_bracket(text: str, start: int) -> int | None:
    """The offset of the `]` closing the subscript opened just before `start`, skipping the
    brackets of one-line strings and comments; None when unsure (a triple-quoted string)."""
    depth = 1
    for offset, char in _code_characters(text, start):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return offset if char == "]" else None
    return None


def _code_characters(text: str, offset: int) -> Iterator[tuple[int, str]]:
    """The characters of code from `offset` on, with their offsets: past one-line strings,
    comments (the line break ending one is code) and line continuations (a backslash and what
    it escapes). They end at the end of the text, or where what is code is unsure (a
    triple-quoted string, a string left open)."""
    while offset < len(text):
        char = text[offset]
        if char == "\\":
            offset += 2 + text.startswith("\r\n", offset + 1)
            continue
        if char == "#":
            offset = text.find("\n", offset)
            if offset < 0:
                return
            continue
        if char in "\"'":
            end = _string_end(text, offset)
            if end is None:
                return
            offset = end + 1
            continue
        yield offset, char
        offset += 1


def _string_end(text: str, start: int) -> int | None:
    """The offset of the quote closing the one-line string opened at `start`."""
    quote = text[start]
    if text.startswith(quote * 3, start):
        return None
    offset = start + 1
    while offset < len(text) and text[offset] not in (quote, "\n"):
        offset += 2 if text[offset] == "\\" else 1
    return offset if offset < len(text) and text[offset] == quote else None
