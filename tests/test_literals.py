"""Literal values read without `ast.literal_eval`: the same values as it gives, on generated
spellings, and no garbage left for the collector."""

from __future__ import annotations

import ast
import gc

import libcst as cst
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ascend_lint.imports import number_literal, str_literal
from ascend_lint.specialisations import evaluate


def _digit_groups(alphabet: str) -> st.SearchStrategy[str]:
    """Digits with single underscores between some of them: `1_000`, `ff_ff`, `0`."""
    return st.lists(st.text(alphabet, min_size=1, max_size=5), min_size=1, max_size=5).map("_".join)


_DECIMAL = st.one_of(
    st.lists(st.text("0", min_size=1, max_size=3), min_size=1, max_size=3).map("_".join),  # `0`, `00`, `0_0`
    st.tuples(st.sampled_from("123456789"), st.sampled_from(["", "_"]), _digit_groups("0123456789")).map("".join),
    st.sampled_from("123456789"),
)
_BASED = st.one_of(
    *(
        st.tuples(st.just("0"), st.sampled_from(letters), st.sampled_from(["", "_"]), _digit_groups(digits)).map(
            "".join
        )
        for letters, digits in (("xX", "0123456789abcdefABCDEF"), ("oO", "01234567"), ("bB", "01"))
    )
)
_DIGITS = _digit_groups("0123456789")
_EXPONENT = st.tuples(st.sampled_from("eE"), st.sampled_from(["", "+", "-"]), _DIGITS).map("".join)
_POINT = st.one_of(
    st.tuples(st.one_of(st.just(""), _DIGITS), st.just("."), _DIGITS).map("".join),  # `.5`, `1.5`
    _DIGITS.map(lambda digits: digits + "."),  # `1.`
)
_FLOAT = st.one_of(_POINT, st.tuples(st.one_of(_POINT, _DIGITS), _EXPONENT).map("".join))


@given(st.one_of(st.tuples(st.one_of(_DECIMAL, _BASED), st.just(int)), st.tuples(_FLOAT, st.just(float))))
def test_number_literals_have_the_value_literal_eval_gives(case: tuple[str, type]) -> None:
    spelling, kind = case
    node = cst.parse_expression(spelling)
    assert isinstance(node, cst.Integer if kind is int else cst.Float)
    value = number_literal(node)
    assert type(value) is kind
    assert value == ast.literal_eval(spelling)


@pytest.mark.filterwarnings("ignore:invalid escape sequence")  # `'\\B'`: kept as written
@given(
    st.sampled_from(["", "r", "R", "u", "U", "b", "rb"]),
    st.sampled_from(["'", '"', "'''", '"""']),
    st.text(st.sampled_from(["a", "B", "_", " ", "\\", "n", "x", "'", '"', "\n", "\r", "\t", "é"]), max_size=12),
)
def test_string_literals_have_the_value_literal_eval_gives(prefix: str, quote: str, body: str) -> None:
    spelling = prefix + quote + body + quote
    try:
        expected = ast.literal_eval(spelling)
        node = cst.parse_expression(spelling)
    except (SyntaxError, ValueError, cst.ParserSyntaxError):
        assume(False)
        raise
    assume(isinstance(node, cst.SimpleString))  # not `'''''' ''`, two strings side by side
    assert isinstance(node, cst.SimpleString)
    assert str_literal(node) == (expected if isinstance(expected, str) else None)


def test_evaluating_literals_leaves_no_garbage_for_the_collector() -> None:
    """`ast.literal_eval` leaves a reference cycle per call; the engine frees trees by refcounts."""
    expression = cst.parse_expression("{'BLOCK': 0x_40 * 2 + 1_000 // 3 + int(1.5e2)}")
    assert isinstance(expression, cst.Dict)
    keys = [
        e.key for e in expression.elements if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
    ]
    values = [element.value for element in expression.elements]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        found = [
            (str_literal(key), evaluate(value, lambda name: None)) for key, value in zip(keys, values, strict=True)
        ]
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()
    assert found == [("BLOCK", 0x40 * 2 + 1000 // 3 + 150)]
