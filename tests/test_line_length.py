"""The line-length limit of `source.compile_python` (its shape check) finds the rows the engine counts: rows end
at \\n, \\r\\n or \\r (a form feed or vertical tab is part of its row), on generated texts."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ascend_lint import source
from ascend_lint.model import Position

_LENGTHS = st.one_of(st.integers(0, 12), st.sampled_from([4990, 4999, 5000, 5001, 5002, 7000]))
_LINES = st.lists(
    st.tuples(_LENGTHS, st.sampled_from(["x", " ", "\f", "\v", "é"]), st.sampled_from(["\n", "\r\n", "\r", "\f"])),
    max_size=8,
)


def _first_long_row(text: str) -> tuple[int, int] | None:
    """The definition: the first row, split at the engine's line breaks, over the limit, and its length."""
    for row, line in enumerate(re.split(r"\r\n?|\n", text), 1):
        if len(line) > source.MAX_LINE_CHARS:
            return row, len(line)
    return None


@given(_LINES, st.booleans())
def test_the_first_row_over_the_limit_is_reported_with_its_length(
    lines: list[tuple[int, str, str]], ends: bool
) -> None:
    text = "".join(char * length + newline for length, char, newline in lines)
    if not ends and lines:
        text = text.removesuffix(lines[-1][2])
    expected = _first_long_row(text)
    try:
        source._check_shape(text)
    except source.SourceError as error:
        assert expected is not None
        row, length = expected
        assert str(error) == f"line too long to analyse ({length} characters; limit {source.MAX_LINE_CHARS})"
        assert error.location == Position(row, 1)
    else:
        assert expected is None
