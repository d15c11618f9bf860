"""Which rules can report anything in a file, decided on its words before it is parsed.

A rule declares the tokens every one of its findings needs (`Rule.REQUIRES_TOKENS`): groups
of alternatives, one of each group must occur. A token occurs when the text holds it as a
whole word — an identifier or keyword, or a word inside a string or comment (a superset of
the file's NAME tokens, so the condition stays necessary, and it never depends on line breaks
or spacing). A string escape that could spell a letter (`"num\\x5fwarps"`, a backslash-newline
inside a string) counts as every token, because rules compare string values too.

A kernel rule also needs a kernel, and `find_kernels` only knows kernels decorated with a name
resolving to `<triton>.jit`: no kernel without the word `jit`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

KERNEL_TOKENS: tuple[str, ...] = ("jit",)

# Escapes that can produce an ASCII letter or `_` in a string value (hex 41-7f, octal 101-177,
# \N{...}), and backslash-newline, which joins a string across lines.
_SPELLING_ESCAPE = re.compile(
    r"\\(?:x[4-7][0-9a-fA-F]|u00[4-7][0-9a-fA-F]|U0000[4-7][0-9a-fA-F]|N\{|1[0-7][0-7]|\r?\n)"
)


@lru_cache(maxsize=64)
def _whole_word(token: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(token)}(?!\w)")


class Words:
    """The words of one file's text, looked up on demand (each lookup is a C-level search)."""

    def __init__(self, text: str):
        self.text = text
        self._escapes = _SPELLING_ESCAPE.search(text) is not None
        self._found: dict[str, bool] = {}

    def has(self, token: str) -> bool:
        found = self._found.get(token)
        if found is None:
            found = self._escapes or (token in self.text and _whole_word(token).search(self.text) is not None)
            self._found[token] = found
        return found

    def satisfies(self, groups: Iterable[tuple[str, ...]]) -> bool:
        """Whether every group has one of its tokens in the text."""
        return all(any(self.has(token) for token in group) for group in groups)
