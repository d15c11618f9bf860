"""`arithmetic.folded_logic`: `and`, `or` and `not` over values a callback knows or not (None),
the one three-valued fold `specialisations.evaluate`, `HostIndex.known_truth` and the host tests
of `specialisations` share."""

from __future__ import annotations

import libcst as cst
import pytest

from ascend_lint.arithmetic import folded_logic
from ascend_lint.imports import int_literal, literal_truth


def _fold(code: str) -> tuple[object, list[str]]:
    """The fold of `code` with literals known and names unknown, and the leaves it asked of."""
    asked: list[str] = []

    def leaf(node: cst.BaseExpression) -> int | bool | None:
        asked.append(cst.Module([]).code_for_node(node))
        value = int_literal(node) if isinstance(node, cst.Integer) else literal_truth(node)
        return value

    return folded_logic(cst.parse_expression(code), leaf), asked


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # an unknown side: the other decides only when it is the outcome either way
        ("x and False", False),
        ("x or True", True),
        ("not x", None),
        ("x and True", None),
        ("x or False", None),
        ("True and x", None),
        ("False or x", None),
        # values as Python gives them: the side that decides, or the last one
        ("0 or 5", 5),
        ("5 and 0", 0),
        ("2 and 3", 3),
        ("not 0", True),
        ("not 7", False),
        ("x or 5", None),  # truthy either way, but which value is not known
        # nested, either way round
        ("not (x and False)", True),
        ("x and False or True", True),
        ("(x or True) and not x", None),
        ("x or (False or True)", True),
    ],
)
def test_three_valued(code: str, expected: object) -> None:
    assert _fold(code)[0] == expected
    assert type(_fold(code)[0]) is type(expected)


@pytest.mark.parametrize(
    ("code", "asked"),
    [
        ("False and x", ["False"]),  # the right side is never asked
        ("True or x", ["True"]),
        ("0 or x", ["0", "x"]),
        ("x and False", ["x", "False"]),
        ("x", ["x"]),
    ],
)
def test_a_side_deciding_the_outcome_short_circuits(code: str, asked: list[str]) -> None:
    assert _fold(code)[1] == asked
