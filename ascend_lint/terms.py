"""Integer expressions as sums of products, to compare offsets up to the order of `+` and `*`.

`x + core_id * T * BD` and `BD * core_id * T + x` have the same `Sum`: a mapping from products
(sorted tuples of atom keys) to integer coefficients, with `*` distributed over `+` / `-` and
integer literals folded into the coefficients. Everything else is an atom keyed by its code
(`i_b // 4`, `o_d`, a call; a walrus is the value it binds); `tl.program_id(a)` / `tl.num_programs(a)` and a name bound only
to one of them share a key. Each atom keeps the first node it was read from, to render sums.
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from .flow import Flow
from .imports import number_literal
from .nodes import one_line

Product = tuple[str, ...]
Sum = dict[Product, int]

MAX_PRODUCTS = 64  # distributing deeper nests would only make offsets nobody writes
_GRID_FNS = ("program_id", "num_programs")
_PLAIN_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer)


class TooComplex(Exception):
    """The sum would have more than MAX_PRODUCTS products."""


class Terms:
    """Normalises a kernel's integer expressions into sums; one per kernel."""

    def __init__(self, flow: Flow):
        self.flow = flow
        self.atoms: dict[str, cst.BaseExpression] = {}  # key -> the first node it stood for
        self.rank: dict[str, int] = {}  # key -> when it was first seen: factors render in that order

    def of(self, node: cst.BaseExpression) -> Sum:
        """`node` as a sum (raises TooComplex); an assignment expression is the value it binds
        (`(o_t := i_t * BT + tl.arange(0, BT)) * H`)."""
        return self._sum(node, None)

    def at(self, node: cst.BaseExpression) -> Sum:
        """`node` as a sum of the values its names hold where it is read (raises TooComplex): a
        name one definition reaches stands for that definition's value (`C` after `C = 2 * BT`
        is `2 * BT`), another is an atom of the definitions reaching it, so a name rebound
        between two reads is two atoms. Equal sums are one value, however written."""
        return self._sum(node, frozenset())

    def _sum(self, node: cst.BaseExpression, resolving: frozenset[str] | None) -> Sum:
        """`of` (`resolving` None) or `at` (`resolving`: the names being followed)."""
        if type(node) is cst.NamedExpr:  # node types are final: no `isinstance` (see `nodes._NodeTypes`)
            return self._sum(node.value, resolving)
        if type(node) is cst.Integer:
            return _constant(number_literal(node))
        if type(node) is cst.UnaryOperation and isinstance(node.operator, (cst.Minus, cst.Plus)):
            inner = self._sum(node.expression, resolving)
            return scaled(inner, -1) if isinstance(node.operator, cst.Minus) else inner
        if type(node) is cst.BinaryOperation and isinstance(node.operator, (cst.Add, cst.Subtract, cst.Multiply)):
            left, right = self._sum(node.left, resolving), self._sum(node.right, resolving)
            if isinstance(node.operator, cst.Multiply):
                return multiplied(left, right)
            return added(left, right if isinstance(node.operator, cst.Add) else scaled(right, -1))
        key = self._key(node)
        if resolving is not None and isinstance(node, cst.Name):
            reaching = self.flow.reaching(node)
            value = reaching[0].value if len(reaching) == 1 else None
            if value is not None and node.value not in resolving:
                return self._sum(value, resolving | {node.value})
            key += "@" + ",".join(str(definition.index) for definition in reaching)
        if key not in self.atoms:
            self.atoms[key] = node
            self.rank[key] = len(self.rank)
        return {(key,): 1}

    def _key(self, node: cst.BaseExpression) -> str:
        if isinstance(node, cst.Name):
            defs = self.flow.defs.get(node.value, ())
            if len(defs) == 1 and isinstance(defs[0].value, cst.Call) and self._grid_call(defs[0].value):
                return self._key(defs[0].value)
            return node.value
        if isinstance(node, cst.Call) and self._grid_call(node):
            return f"{self.flow.imports.resolve(node.func)}({_key_code(node.args[0].value)})"
        return _key_code(node)

    def _grid_call(self, call: cst.Call) -> bool:
        return len(call.args) == 1 and self.flow.imports.is_tl(call.func, *_GRID_FNS)

    def render(self, terms: Sum, first: str | None = None, widened: Mapping[str, str] | None = None) -> str:
        """`first` (code) followed by the products of `terms` as `+ a * b` / `- 2 * c`, in order;
        an atom of `widened` multiplied by anything is written as its text there (`task_id`
        as `tl.cast(task_id, tl.int64)`: the product is then made in int64)."""
        pieces = [] if first is None else [first]
        for product, coefficient in terms.items():
            magnitude = abs(coefficient)
            multiplies = len(product) + (magnitude != 1) > 1
            factors = [
                (widened or {}).get(key, self.factor(key)) if multiplies else self.factor(key)
                for key in sorted(product, key=self.rank.__getitem__)
            ]
            if magnitude != 1 or not factors:
                factors.insert(0, str(magnitude))
            sign = "-" if coefficient < 0 else "+"
            text = " * ".join(factors)
            pieces.append(f"{sign} {text}" if pieces else (f"-{text}" if sign == "-" else text))
        return " ".join(pieces) if pieces else "0"

    def factor(self, key: str) -> str:
        """An atom's code, parenthesised unless it binds tighter than `*`."""
        node = self.atoms[key]
        text = one_line(node)
        return text if isinstance(node, _PLAIN_ATOMS) or node.lpar else f"({text})"


def _constant(value: int) -> Sum:
    return {(): value} if value else {}


def _key_code(node: cst.CSTNode) -> str:
    """The code without whitespace and outer parentheses: `(i_b//4)` and `i_b // 4` are one atom."""
    if getattr(node, "lpar", None):
        node = node.with_changes(lpar=(), rpar=())
    return "".join(one_line(node).split())


def added(a: Sum, b: Sum) -> Sum:
    total = dict(a)
    for product, coefficient in b.items():
        total[product] = total.get(product, 0) + coefficient
        if not total[product]:
            del total[product]
    return _bounded(total)


def scaled(a: Sum, factor: int) -> Sum:
    return {product: coefficient * factor for product, coefficient in a.items()} if factor else {}


def multiplied(a: Sum, b: Sum) -> Sum:
    total: Sum = {}
    for left, x in a.items():
        for right, y in b.items():
            total = added(total, {tuple(sorted(left + right)): x * y})
    return total


def divided(a: Sum, by: Sum) -> Sum | None:
    """`a / by` when `by` is one product that divides every product of `a`, else None."""
    if len(by) != 1:
        return None
    ((divisor, scale),) = by.items()
    quotient: Sum = {}
    for product, coefficient in a.items():
        rest = list(product)
        for key in divisor:
            if key not in rest:
                return None
            rest.remove(key)
        if coefficient % scale:
            return None
        quotient[tuple(rest)] = coefficient // scale
    return quotient


def _bounded(terms: Sum) -> Sum:
    if len(terms) > MAX_PRODUCTS:
        raise TooComplex
    return terms
