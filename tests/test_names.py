"""The fixer's last check: which names a piece of code reads that nothing binds (names.py)."""

from __future__ import annotations

import ast
import textwrap

import pytest
from conftest import FIXTURES

from ascend_lint.names import name_reads, unresolved


def undefined(code: str) -> list[str]:
    tree = ast.parse(textwrap.dedent(code))
    return sorted(unresolved(tree, list(name_reads(tree))))


@pytest.mark.parametrize(
    ("code", "names"),
    [
        ("import os\nx = os.sep + len('a')\n", []),
        ("def f(a, /, b, *c, d=1, **e) -> int:\n    return a + b + d + len(c) + len(e)\n", []),
        ("def f():\n    return g\ndef g():\n    pass\n", []),  # module names are found wherever bound
        ("def f():\n    x = x + 1\n", ["x"]),  # read before it is bound
        ("def f():\n    for i in range(3):\n        print(c)\n        c = i\n", ["c"]),  # the first iteration fails
        ("def f(n):\n    return [y for y in range(n) if y] + [k for k in n]\n", []),
        ("def f(n):\n    if (k := n):\n        return k\n    return [j for i in n if (j := i)], j\n", []),
        ("x = 1\nclass C:\n    y = x\n    def m(self):\n        return y\n", ["y"]),  # class scopes do not nest
        ("def f():\n    global G\n    G = 1\ndef g():\n    return G\n", []),
        ("def f():\n    def g():\n        return v\n    v = 1\n", []),  # a closure sees the final binding
        ("try:\n    pass\nexcept OSError as e:\n    print(e, E)\n", ["E"]),
        ("from x import *\nprint(anything)\n", []),  # star imports: every name may exist
        ("def f(x: T) -> U:\n    pass\n", ["T", "U"]),  # annotations are read in the enclosing scope
        ("match p:\n    case [a, *rest] | {'k': a, **rest}:\n        print(a, rest)\n", ["p"]),
    ],
)
def test_unresolved_names(code: str, names: list[str]) -> None:
    assert undefined(code) == names


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.py")), ids=lambda p: p.name)
def test_every_read_of_a_fixture_is_resolved(path) -> None:
    """Every name a fixture kernel reads is bound (and every read is seen: none is left out)."""
    assert set(undefined(path.read_text(encoding="utf-8"))) <= {"__builtins__"}
