"""Host tests read as guards of sizes, shared by the rules that ask what a test bounds (ASC010's
launch sizes, ASC013's capped tiles): the cases a test holds in, through `not`, `and`, `or` and
names bound to a test; the orderings it makes in every case; the statements that run before a
call, whose early exits and `assert`s hold at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import product
from math import prod

import libcst as cst

from ..nodes import NAMES_FOLLOWED, child_nodes, ordered_sides, statements_of, suite_lines, walk, written_items
from .shapes import indexed

MAX_CASES = 64  # the cases a test is split into (`holding_cases`); past it, the test is one part

Part = tuple[cst.BaseExpression, bool]  # a test that is no `not`, `and` nor `or`, and whether it holds
BoundTest = Callable[[cst.Name], cst.BaseExpression | None]  # the test a name stands for (`HostIndex.test_bound`)
Written = Callable[[cst.BaseExpression], list[cst.BaseExpression] | None]  # the items a value is written with


def holding_cases(test: cst.BaseExpression, holds: bool, bound_test: BoundTest | None = None) -> list[tuple[Part, ...]]:
    """The cases in which `test` holds (or fails, as `holds` says), each the parts that hold or
    fail together: an `and` holding (an `or` failing) is one case of all its parts, an `and`
    failing (an `or` holding) a case for each; `not` turns a part, and a name `bound_test` reads
    as a test is that test (`ok = m == 2 and n == 4`, then `if ok:`). Past MAX_CASES cases (an
    `and` of `or`s makes their product) the test is one case of itself as one part: it orders
    nothing, and the rules read it as any test that is no comparison."""
    for _ in range(NAMES_FOLLOWED):
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, holds = test.expression, not holds
        bound = bound_test(test) if bound_test is not None and isinstance(test, cst.Name) else None
        if bound is None:
            break
        test = bound
    if not isinstance(test, cst.BooleanOperation):
        return [((test, holds),)]
    parts = [holding_cases(part, holds, bound_test) for part in _operands(test, type(test.operator))]
    if isinstance(test.operator, cst.And) == holds:
        count = prod(len(cases) for cases in parts)
        if count <= MAX_CASES:
            return [tuple(part for case in cases for part in case) for cases in product(*parts)]
    else:
        count = sum(len(cases) for cases in parts)
        if count <= MAX_CASES:
            return [case for cases in parts for case in cases]
    return [((test, holds),)]


def _operands(test: cst.BaseExpression, operator: type[cst.BaseBooleanOp]) -> list[cst.BaseExpression]:
    """The parts of `a and b and c` (parsed as `(a and b) and c`) for `cst.And`, of `or`s for `cst.Or`."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, operator):
        return [*_operands(test.left, operator), *_operands(test.right, operator)]
    return [test]


def links(test: cst.Comparison) -> Iterator[tuple[cst.BaseExpression, cst.BaseCompOp, cst.BaseExpression]]:
    """Each comparison of a chain with its two sides (`0 < K`, then `K <= 256` of `0 < K <= 256`);
    a side binding a name compares that name, which holds its value from there on (`n` of `(n :=
    pick()) in (64, 128)`, as of `n = pick()` then `n in (64, 128)`)."""
    left = test.left
    for target in test.comparisons:
        yield _named(left), target.operator, _named(target.comparator)
        left = target.comparator


def _named(side: cst.BaseExpression) -> cst.BaseExpression:
    """The name a side binds (`n` of `(n := pick())`), else the side."""
    return side.target if isinstance(side, cst.NamedExpr) and isinstance(side.target, cst.Name) else side


def tested_walrus(
    statement: cst.CSTNode, name: str, binds: Callable[[Sequence[cst.CSTNode], str], bool]
) -> cst.NamedExpr | None:
    """The `(name := value)` an `if` statement's test always runs (the test itself, the left side
    of its comparison, the first operand of its `and` / `or`, under `not`: `if (n := pick()) in
    (64, 128):`), when the test binds `name` nowhere else and nothing in its arms binds it
    (`binds(arms, name)`, as the caller reads a binding): the name holds that value in the arms
    and past the `if`, as after `n = pick()` before it. None otherwise."""
    if not isinstance(statement, cst.If):
        return None
    test = statement.test
    while True:
        if isinstance(test, cst.BooleanOperation):
            test = test.left
        elif isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        elif isinstance(test, cst.Comparison):
            test = test.left
        else:
            break
    if not (isinstance(test, cst.NamedExpr) and isinstance(test.target, cst.Name) and test.target.value == name):
        return None
    binding = [
        node
        for node in walk(statement.test)
        if isinstance(node, cst.NamedExpr) and isinstance(node.target, cst.Name) and node.target.value == name
    ]
    arms = [statement.body, *([statement.orelse] if statement.orelse is not None else [])]
    return test if binding == [test] and not binds(arms, name) else None


def orderings(
    test: cst.BaseExpression, holds: bool, written: Written = written_items
) -> Iterator[tuple[cst.BaseExpression, tuple[cst.BaseExpression, ...]]]:
    """The (lesser, greaters) pairs a test orders in every case where it `holds` (or fails),
    the lesser at most the largest of the greaters: `D <= 512` holding and `N > BLOCK` failing
    order `D` below 512 and `N` below `BLOCK`, each part of `a and b` holding or of `a or b`
    failing (`holding_cases`), each comparison of a chain holding; `==` holding (`!=` failing)
    orders both ways; `in` holding (`not in` failing) orders below the items of what `written`
    reads written out (`_memberships`). A floor (`n > 0`, `n == 0` failing) orders the size
    below nothing."""
    first, *others = holding_cases(test, holds)
    for part, part_holds in first:
        if not all(any(part is each and part_holds == each_holds for each, each_holds in case) for case in others):
            continue
        if not (isinstance(part, cst.Comparison) and (part_holds or len(part.comparisons) == 1)):
            continue
        for left, operator, right in links(part):
            sides = ordered_sides(left, operator, right, part_holds)
            if sides is not None:
                yield sides[0], (sides[1],)
            elif isinstance(operator, cst.Equal if part_holds else cst.NotEqual):
                yield from ((left, (right,)), (right, (left,)))
            elif isinstance(operator, cst.In if part_holds else cst.NotIn):
                yield from _memberships(left, written(right) or [])


def _memberships(
    member: cst.BaseExpression, allowed: Sequence[cst.BaseExpression]
) -> Iterator[tuple[cst.BaseExpression, tuple[cst.BaseExpression, ...]]]:
    """What `member in allowed` orders: `member` below the allowed values, or, each of them a
    tuple written out as long as the others, each item of `member` below those at its place
    (`shape in {(1024, 128), (2048, 64)}`: `shape[0]` below 1024 and 2048, `shape[1]` below 128
    and 64; `(M, N) in ...`: `M` and `N`). Nothing when some are tuples and some not."""
    rows = [written_items(each) if isinstance(each, cst.Tuple) else None for each in allowed]
    if not rows:
        return
    if not any(rows):
        yield member, tuple(allowed)
        return
    tuples = [row for row in rows if row is not None]
    width = len(tuples[0])
    if len(tuples) != len(rows) or any(len(row) != width for row in tuples):
        return
    items = written_items(member) if isinstance(member, cst.Tuple) else None
    for position in range(width):
        item = indexed(member, position) if items is None or len(items) != width else items[position]
        yield item, tuple(row[position] for row in tuples)


def loop_stops(loop: cst.For) -> dict[tuple[int, bool], bool]:
    """The checks in a loop's body (`checks_in`: a test by id, with whether it holds past the
    check) that end its trips for good where they fail, each with whether they end the loops
    around it too: an `assert`, or an `if` whose body (its test failing past it) or `else` (its
    test holding) leaves first by a `break` of this loop (not of a loop inside it), a `return` or a
    `raise` (`for n in (1, 70000, 30000): if n > 65535: break` runs no trip after 70000). Not in a
    function or class of its own, nor after a `continue` of this loop (`if n == 70000:
    continue` first: the trip it skips never reaches the check, and the trips after it run)."""
    found: dict[tuple[int, bool], bool] = {}
    _add_stops(loop.body, False, found, False)
    return found


def _add_stops(node: cst.CSTNode, inner: bool, found: dict[tuple[int, bool], bool], skipped: bool) -> bool:
    """`loop_stops` of the statements in `node`; `inner`: in a loop inside the one asked about;
    `skipped`: a `continue` of this loop is written before `node`. Whether one is written
    before the end of `node`."""
    if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.BaseExpression):
        return skipped
    if isinstance(node, cst.Continue):
        return skipped or not inner
    if isinstance(node, cst.Assert) and not skipped:
        found[(id(node.test), True)] = True
    if isinstance(node, cst.If) and not skipped:
        arms = [(node.body, False)] + ([(node.orelse.body, True)] if isinstance(node.orelse, cst.Else) else [])
        for arm, holds in arms:
            leaving = _first_leaving(arm)
            if isinstance(leaving, cst.Return | cst.Raise) or (isinstance(leaving, cst.Break) and not inner):
                found[(id(node.test), holds)] = not isinstance(leaving, cst.Break)
    for child in child_nodes(node):
        skipped = _add_stops(
            child, inner or (isinstance(node, cst.For | cst.While) and child is node.body), found, skipped
        )
    return skipped


def _first_leaving(suite: cst.BaseSuite) -> cst.BaseSmallStatement | None:
    """The `return`, `raise`, `continue` or `break` a suite leaves by when its simple lines lead to
    it; None when a compound statement comes first (it may leave another way)."""
    for line in suite_lines(suite):
        if not isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite):
            return None
        for small in line.body:
            if isinstance(small, cst.Return | cst.Raise | cst.Continue | cst.Break):
                return small
    return None


class Unrolled:
    """A block's statements (`statements_of` its lines) and the statements they run, each
    `with` block's unrolled (`_with_unrolled`), read once: what runs before each of many calls in
    the block is a stretch of them (`run_before`)."""

    def __init__(self, block: cst.BaseSuite) -> None:
        self.statements = statements_of(suite_lines(block))
        self.places: dict[cst.CSTNode, int] = {statement: index for index, statement in enumerate(self.statements)}
        self.run: list[cst.CSTNode] = []
        self.starts: list[int] = []  # where each statement's own start among `run`
        for statement in self.statements:
            self.starts.append(len(self.run))
            self.run.extend(_with_unrolled(statement))


def run_before(
    block: cst.BaseSuite, holders: Sequence[cst.CSTNode], unrolled: Callable[[cst.BaseSuite], Unrolled]
) -> Iterator[tuple[Unrolled, int]]:
    """The statements that run before the node `holders` lead to (the node, then the nodes
    holding it) on every path to it (`assert n <= 65535; k[(n,)](...)` checks before the
    launch): those before it in each block around it, from `block` in (its arm of an `if`, a
    `with`, `try` or loop body: a block runs from its start), and those of a `with` block
    before it. Not a sibling arm's, nor a loop's before it (it may run no times). Each block
    (`unrolled`, read once) comes with how many of its `run` statements come first; a block not
    holding the node, with all of them."""
    path = set(holders)
    while True:
        statements = unrolled(block)
        statement = next((node for node in holders if node in statements.places), None)
        if statement is None:
            yield statements, len(statements.run)
            return
        yield statements, statements.starts[statements.places[statement]]
        inner = _block_holding(statement, path)
        if inner is None:
            return
        block = inner


def _block_holding(parent: cst.CSTNode, path: set[cst.CSTNode]) -> cst.BaseSuite | None:
    """The block of a compound statement holding the node `path` (the nodes holding it) leads
    to: its arm, through an `else`, an `elif`, an `except`; but in a function or class of its
    own."""
    if isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.BaseSmallStatement)):
        return None
    for child in child_nodes(parent):
        if child in path:
            return child if isinstance(child, cst.BaseSuite) else _block_holding(child, path)
    return None


def _with_unrolled(statement: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The statement, or the statements of a `with` block, which runs its body once."""
    if isinstance(statement, cst.With):
        for inner in statements_of(suite_lines(statement.body)):
            yield from _with_unrolled(inner)
    else:
        yield statement
