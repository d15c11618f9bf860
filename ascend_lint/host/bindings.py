"""Which bindings of a name reach a point of host code, read off the syntax: the names a node
reads, the statements that may rebind a name, the one plain binding reaching a launch in
straight-line code, the assignments written after a point, the names rebound between two
points, and what each name of `a, b = value` gets. The host index's own record of bindings is
`facts.HostFacts.bindings`."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import pairwise
from operator import itemgetter
from typing import NamedTuple, get_args

import libcst as cst

from ..imports import dotted_name, folded_int, int_literal, statement_blocks
from ..kernels import subscript_key
from ..nodes import (
    child_nodes,
    names_read,
    statements_of,
    suite_lines,
    target_names,
    updated_value,
    variables_read,
    walk,
)
from .guards import tested_walrus
from .params import is_name
from .records import Binder, Launch
from .shapes import indexed

_BINDER_TYPES = frozenset(get_args(Binder))


def names_read_shrinking(node: cst.CSTNode) -> set[str]:
    """The variables `node` reads only where a larger value makes it no larger, so that an upper
    bound of `node` is none of theirs: a divisor (`M` of `x.numel() // M`, `n / M`,
    `triton.cdiv(n, M)`), what is subtracted (`b` of `a - b`), either side of a `%`."""
    shrinking: set[int] = set()
    for sub in walk(node):
        taken: list[cst.BaseExpression] = []
        if isinstance(sub, cst.BinaryOperation) and isinstance(sub.operator, cst.Modulo):
            taken = [sub]
        elif isinstance(sub, cst.BinaryOperation) and isinstance(
            sub.operator, cst.FloorDivide | cst.Divide | cst.Subtract
        ):
            taken = [sub.right]
        elif isinstance(sub, cst.Call) and (dotted_name(sub.func) or "").rsplit(".", 1)[-1] == "cdiv":
            taken = [arg.value for arg in sub.args[1:]]
        shrinking.update(id(name) for value in taken for name in variables_read(value))
    return names_read(node) - names_read(node, skipped=shrinking)


def shrinks(value: cst.BaseExpression, name: str) -> bool:
    """`value`, bound to `name`, is at most its earlier value, sizes being non-negative as
    `names_read_shrinking` takes them: `name` itself, or `name` divided, shifted right, taken
    modulo or reduced by a value (`n // 2`, `n >> 1`, `n % m`, `n - pad`; not `n - -1`), `min(...)` of one, or
    `int(...)` of one."""
    if isinstance(value, cst.Name):
        return value.value == name
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, SHRINKING_OPERATORS):
        return not is_negative(value.right) and shrinks(value.left, name)
    if isinstance(value, cst.Call) and dotted_name(value.func) in ("min", "int"):
        return any(not arg.star and shrinks(arg.value, name) for arg in value.args)
    return False


def _shrunk(binder: cst.CSTNode, assigned: dict[cst.CSTNode, cst.BaseExpression]) -> frozenset[str]:
    """The name a binding node binds to a value that `shrinks` it (`n //= 2`, `n = min(n, m)`,
    `(n := n >> 1)`); `assigned` holds the value of each assignment's target."""
    target = getattr(binder, "target", None)
    if not isinstance(target, cst.Name):
        return frozenset()
    if isinstance(binder, cst.AugAssign):
        kept = isinstance(binder.operator, _SHRINKING_UPDATES) and not is_negative(binder.value)
    elif isinstance(binder, cst.AssignTarget | cst.AnnAssign | cst.NamedExpr):
        value = assigned.get(binder) if isinstance(binder, cst.AssignTarget) else binder.value
        kept = value is not None and shrinks(value, target.value)
    else:
        kept = False
    return frozenset({target.value}) if kept else frozenset()


def is_negative(value: cst.BaseExpression) -> bool:
    """`value` is a negated value or integer literal arithmetic below zero (`-1`, `0 - 4`)."""
    folded = folded_int(value)
    return (isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)) or (
        folded is not None and folded < 0
    )


SHRINKING_OPERATORS = (cst.FloorDivide, cst.Divide, cst.RightShift, cst.Modulo, cst.Subtract)
_SHRINKING_UPDATES = (
    cst.FloorDivideAssign,
    cst.DivideAssign,
    cst.RightShiftAssign,
    cst.ModuloAssign,
    cst.SubtractAssign,
)


def updates_name(value: cst.BaseExpression, name: str) -> bool:
    """`value`, bound to `name`, computes it from its earlier value (`min(n, m)`, `n + pad`,
    `n * d` of `n *= d`)."""
    return isinstance(value, (cst.Call, cst.BinaryOperation)) and any(
        type(node) is cst.Name and node.value == name for node in walk(value)
    )


def reaching_binding(name: str, launch: Launch, order: WrittenOrder) -> cst.BaseExpression | cst.FunctionDef | None:
    """The one binding of `name` that reaches the launch's grid: the nearest statement before
    the one writing `kernel[grid]` (the launch's own, or its stored launcher's assignment) that
    binds `name`, in its block (each of the statements a line joins with `;` on its own,
    `statements_of`) or, when that has none, in the blocks around it before the
    compound statement holding it (a launch under `if`, `with` or `try`), when it is a plain
    `name = value` / `name: T = value` / `(name := value)` (its value) or an undecorated `def
    name(...)` (the function) (straight-line code: every later binding follows the launch,
    every earlier one is overwritten). None when the launch's statement binds `name`, when a
    compound statement around it binds it outside the launch's block (`with ... as name`, the
    other arm of an `if`, a `try` body before its handler) or is a loop binding it anywhere (a
    later binding reaches the next trip), when no earlier statement binds it, or when the
    nearest one binds it otherwise (inside an `if`, a loop, `name += ...`): then several may
    reach it. An update in place (`grid += (B,)`) is its updated value (`grid + (B,)`), whose
    `grid` is the binding before it (`binding_updated`); an append (`grid.append(n)`: the list
    bound before it, with its axes appended, `HostIndex._appended_grids`) is passed over."""
    return _nearest_binding(name, order.enclosing_statements(launch.written_at), order, lambda s: adds_only(s, name))


class Addition(NamedTuple):
    """What a statement adds to a list (`list_addition`)."""

    where: int | None  # the index (None: at the end)
    elements: tuple[cst.BaseElement, ...]
    stored: bool = False  # the one element replaces the item at `where` (`grid[1] = v`)


_LIST_ADDERS = {"append": 1, "extend": 1, "insert": 2}  # the methods adding to a list, by their arguments


def list_addition(statement: cst.CSTNode, name: str) -> Addition | None:
    """What `name.append(v)`, `name.extend(vs)` or `name.insert(i, v)`, as a statement of its
    own, adds to the list `name`: where (the index `insert` is passed, an int literal; None,
    at the end, for the others and for an index no literal: the axes launched are the same) and
    the elements (`v`; those of a tuple or list `extend` is passed as written, else `*vs`); or
    what `name[i] = v` stores there (`i` an int literal, `-1` too: `v` replaces that item). None
    for another statement."""
    if isinstance(statement, cst.Assign):
        target = statement.targets[0].target if len(statement.targets) == 1 else None
        if not (isinstance(target, cst.Subscript) and is_name(target.value, name)):
            return None
        index = returned_index(target)
        return None if index is None else Addition(index, (cst.Element(statement.value),), stored=True)
    call = statement.value if isinstance(statement, cst.Expr) else None
    if not (
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Attribute)
        and isinstance(call.func.value, cst.Name)
        and call.func.value.value == name
        and len(call.args) == _LIST_ADDERS.get(call.func.attr.value)
        and all(arg.keyword is None and not arg.star for arg in call.args)
    ):
        return None
    *where, added = (arg.value for arg in call.args)
    if call.func.attr.value != "extend":
        return Addition(int_literal(where[0]) if where else None, (cst.Element(added),))
    if isinstance(added, (cst.Tuple, cst.List)):
        return Addition(None, tuple(added.elements))
    return Addition(None, (cst.StarredElement(added),))


def with_additions(elements: Sequence[cst.BaseElement], additions: Sequence[Addition]) -> list[cst.BaseElement]:
    """The elements of a list written as `elements` after `additions`, in order (an item stored
    past the end, which raises, changes nothing)."""
    listed = list(elements)
    for where, added, stored in additions:
        if where is None:
            listed.extend(added)
        elif stored:
            if -len(listed) <= where < len(listed):
                listed[where] = added[0]
        else:
            listed[where:where] = added  # `list.insert`: past the end at the end, negative from it
    return listed


def adds_only(statement: cst.CSTNode, name: str) -> bool:
    """Every change of `name` the statement may make (`binding_nodes`) is an addition to it as
    a list (`list_addition`: the call of `.append(v)`, the target of `name[1] = v`), and it makes one."""
    additions = {
        id(node.value if isinstance(node, cst.Expr) else node.targets[0])
        for node in walk(statement)
        if isinstance(node, cst.Expr | cst.Assign) and list_addition(node, name)
    }
    return bool(additions) and all(id(node) in additions for node in binding_nodes(statement, name))


def list_paths(
    statements: Sequence[cst.CSTNode],
    name: str,
    order: WrittenOrder,
    picks_variant: Callable[[cst.BaseExpression], bool],
    truth: Callable[[cst.BaseExpression], bool | None],
    limit: int,
    nested: bool = False,
    breaking: bool = False,
) -> tuple[list[tuple[Addition, ...]], bool] | None:
    """The additions each path through `statements` makes to the list `name` (`list_addition`),
    in order, and whether every test choosing among the paths picks a variant (`picks_variant`:
    it orders no size, so each path may run whatever the sizes). An `if` adding to it (an
    `elif` too) gives each arm's paths (an arm ending in `return` or `raise`, none: that path
    leaves; with `breaking`, one ending in `break` too: a loop's trip that breaks runs no next
    one; a missing `else`, none added), a `for` loop its body's or none (its body read as run
    once or not at all, as a name updated in one is; a `while` loop so too, its test choosing), a
    `with` block its body's; no path runs an arm whose test `truth` knows fails or follows one
    it knows holds (`if False:`, `flag = False` then `if flag:`), nor the body of a loop over
    what it knows is empty (`for _ in range(0):`). Up to a statement changing the list otherwise (a rebinding, where
    the list read is no longer this one); None when that is in a block (`nested`), for another
    statement adding to it (a `try`, a loop's `else`, a nested function). Past `limit` paths,
    the first `limit` when every test picks a variant (each may run) and the statements are
    no block's, else one path: the additions `statements` make themselves, outside any
    compound statement (every path makes them: each launches at least their grid)."""
    paths: list[tuple[Addition, ...]] = [()]
    made: list[Addition] = []  # the additions every path makes
    variant = True
    cut = False
    for statement in statements:
        added = list_addition(statement, name)
        if added is not None:
            paths = [(*path, added) for path in paths]
            made.append(added)
            continue
        if not order.rebinds(statement, name):
            continue
        if not adds_only(statement, name):
            if nested:
                return None
            break
        branches = _added_branches(statement, name, order, picks_variant, truth, limit, breaking)
        if branches is None:
            return None
        choices, chosen_by_variant = branches
        variant = variant and chosen_by_variant
        paths = [(*path, *choice) for path in paths for choice in choices]
        if len(paths) > limit:
            paths, cut = paths[:limit], True
    if cut and (nested or not variant):
        return [tuple(made)], False
    return paths, variant


ListPaths = tuple[list[tuple[Addition, ...]], bool] | None  # what `list_paths` finds


def paths_into(
    nesting: Sequence[tuple[Sequence[cst.CSTNode], int]],
    start: int,
    paths_of: Callable[[Sequence[cst.CSTNode], bool, bool], ListPaths],
    order: WrittenOrder,
    picks_variant: Callable[[cst.BaseExpression], bool],
    limit: int,
) -> ListPaths:
    """`paths_of` (`list_paths` of a list, in a block or not, breaking or not) the statements of the block
    `nesting[0]` from `start` to the one holding a read of the list, then of those before the read in each block of
    `nesting` (`WrittenOrder.enclosing_statements` of the read, from that block on) holding it
    in an `if` arm, a loop's body or a `with` or `try` body: every path into the read. A loop
    holding it also runs its whole body once before on a later trip, on the paths through it
    that do not `break` (an arm ending in `break` leads to no later trip), not when it runs
    once (`_runs_once`: its body always breaks, returns or raises). The descent stops, its
    paths so far each a part of one into the read, at another block, at an `if` or `while` under a test that orders values (the bound it sets on the
    sizes added there is not read), where such statements change the list otherwise, or past
    `limit` paths."""
    lines, index = nesting[0]
    found = paths_of(lines[start:index], False, False)
    if found is None:
        return None
    paths, variant = found
    for (outer, place), (lines, index) in pairwise(nesting):
        holder = outer[place]
        tests = (
            if_arms(holder)[0] if isinstance(holder, cst.If) else [holder.test] if isinstance(holder, cst.While) else []
        )
        if not all(map(picks_variant, tests)) or not any(
            order.statements(block) is lines for block in _blocks_holding(holder)
        ):
            break
        inner = paths_of(lines[:index], True, False)
        if inner is None:
            break
        choices, chosen_by_variant = inner
        if isinstance(holder, cst.For | cst.While) and not _runs_once(holder, order):
            trip = paths_of(order.statements(holder.body), True, True)
            if trip is None:
                break
            choices = [*choices, *((*done, *choice) for done in trip[0] for choice in choices)]
            chosen_by_variant = chosen_by_variant and trip[1]
        if len(paths) * len(choices) > limit:
            break
        paths = [(*path, *choice) for path in paths for choice in choices]
        variant = variant and chosen_by_variant
    return paths, variant


def _runs_once(loop: cst.For | cst.While, order: WrittenOrder) -> bool:
    """The loop runs its body at most once: a statement of the body (or of a block there
    whose statements all run or end the loop: a `with` block, a `finally` block, a `try` body with
    no `except`) breaks, or its last statement returns or raises, or it iterates a literal of one item
    (`for _ in (0,):`) or a `range` of at most one (`range(1)`)."""
    lines = order.statements(loop.body)
    if lines and isinstance(lines[-1], cst.Return | cst.Raise):
        return True
    while lines:
        if any(isinstance(line, cst.Break) for line in lines):
            return True
        lines = [line for each in lines for block in _run_through(each) for line in order.statements(block)]
    items = loop.iter if isinstance(loop, cst.For) else None
    if isinstance(items, cst.List | cst.Tuple):
        return len(items.elements) == 1 and not isinstance(items.elements[0], cst.StarredElement)
    if not (isinstance(items, cst.Call) and dotted_name(items.func) == "range" and 1 <= len(items.args) <= 3):
        return False
    bounds = [
        bound for arg in items.args if not (arg.keyword or arg.star) and (bound := folded_int(arg.value)) is not None
    ]
    return len(bounds) == len(items.args) and bounds[2:] != [0] and len(range(*bounds)) <= 1


def _run_through(statement: cst.CSTNode) -> list[cst.BaseSuite]:
    """The blocks of a compound statement each of whose statements runs once it runs, unless an
    exception leaves the statement (and a loop around it): a `with` block, a `try` body with no
    `except` to catch one, a `finally` block."""
    if isinstance(statement, cst.With):
        return [statement.body]
    if isinstance(statement, cst.Try):
        return [
            *(() if statement.handlers else (statement.body,)),
            *(() if statement.finalbody is None else (statement.finalbody.body,)),
        ]
    return []


def _blocks_holding(statement: cst.CSTNode) -> list[cst.BaseSuite]:
    """The blocks of a compound statement whose statements all ran before a statement of
    theirs runs: the arms of an `if`, a loop's body, a `with` or `try` body."""
    if isinstance(statement, cst.If):
        return [block for block in if_arms(statement)[1] if block is not None]
    if isinstance(statement, cst.For | cst.While | cst.With | cst.Try):
        return [statement.body]
    return []


def if_arms(statement: cst.If) -> tuple[list[cst.BaseExpression], list[cst.BaseSuite | None]]:
    """The tests of an `if` and its `elif` arms, and their blocks then the `else` block (None
    when it has none)."""
    tests: list[cst.BaseExpression] = []
    blocks: list[cst.BaseSuite | None] = []
    arm: cst.If | cst.Else | None = statement
    while isinstance(arm, cst.If):
        tests.append(arm.test)
        blocks.append(arm.body)
        arm = arm.orelse
    blocks.append(arm.body if isinstance(arm, cst.Else) else None)
    return tests, blocks


def _added_branches(
    statement: cst.CSTNode,
    name: str,
    order: WrittenOrder,
    picks_variant: Callable[[cst.BaseExpression], bool],
    truth: Callable[[cst.BaseExpression], bool | None],
    limit: int,
    breaking: bool = False,
) -> tuple[list[tuple[Addition, ...]], bool] | None:
    """`list_paths` of the blocks of one compound statement adding to the list `name` that may
    run (`_blocks_run`; a `try`'s, `_try_paths`); with `breaking`, no block ending in `break` (a
    `break` in a loop's body here leaves that loop, not the one `breaking` is for)."""
    if isinstance(statement, cst.Try):
        run: tuple[list[Sequence[cst.CSTNode]], list[cst.BaseExpression]] | None = _try_paths(statement, order)
    else:
        arms = _blocks_run(statement, truth)
        run = None if arms is None else ([order.statements(b) if b is not None else [] for b in arms[0]], arms[1])
    if run is None:
        return None
    blocks, tests = run
    choices: list[tuple[Addition, ...]] = []
    variant = all(picks_variant(test) for test in tests)
    breaking = breaking and not isinstance(statement, cst.For | cst.While)
    leaving = (cst.Return, cst.Raise, cst.Break) if breaking else (cst.Return, cst.Raise)
    for lines in blocks:
        if lines and isinstance(lines[-1], leaving):
            continue
        found = list_paths(lines, name, order, picks_variant, truth, limit, nested=True, breaking=breaking)
        if found is None:
            return None
        choices += found[0]
        variant = variant and found[1]
    return choices, variant


def _try_paths(statement: cst.Try, order: WrittenOrder) -> tuple[list[Sequence[cst.CSTNode]], list[cst.BaseExpression]]:
    """The statements each path through a `try` runs: its body then its `else` block, or a
    handler's (an exception raised before the body added anything), each then its `finally`
    block, which no test chooses (a handler ending in `return` or `raise` leaves, its `finally`
    block run on the way out)."""
    final = order.statements(statement.finalbody.body) if statement.finalbody is not None else []
    body = [*order.statements(statement.body), *(order.statements(statement.orelse.body) if statement.orelse else [])]
    handlers = [order.statements(handler.body) for handler in statement.handlers]
    leaving = (cst.Return, cst.Raise)
    return [
        [*lines, *final] if not (lines and isinstance(lines[-1], leaving)) else lines for lines in (body, *handlers)
    ], []


def _blocks_run(
    statement: cst.CSTNode, truth: Callable[[cst.BaseExpression], bool | None]
) -> tuple[list[cst.BaseSuite | None], list[cst.BaseExpression]] | None:
    """The blocks of an `if`, a loop (None: its body not run) or a `with` one run may run, and
    the tests choosing among them: no arm whose test `truth` knows fails, none after one whose
    test it knows holds (its test then chooses nothing), no body of a loop over what it knows
    is empty or while a test it knows fails. None for another statement."""
    if isinstance(statement, cst.If):
        tests, arms = if_arms(statement)
        blocks: list[cst.BaseSuite | None] = []
        choosing: list[cst.BaseExpression] = []
        for test, block in zip(tests, arms[:-1], strict=True):
            held = truth(test)
            if held is True:
                return [*blocks, block], choosing
            if held is None:
                blocks.append(block)
                choosing.append(test)
        return [*blocks, arms[-1]], choosing
    if isinstance(statement, cst.For | cst.While) and statement.orelse is None:
        test = statement.iter if isinstance(statement, cst.For) else statement.test
        if truth(test) is False:
            return [None], []
        return [None, statement.body], [statement.test] if isinstance(statement, cst.While) else []
    if isinstance(statement, cst.With):
        return [statement.body], []
    return None


def never_runs(
    node: cst.CSTNode,
    around: Sequence[cst.For | cst.If],
    order: WrittenOrder,
    truth: Callable[[cst.BaseExpression], bool | None],
) -> bool:
    """An arm or loop body of one of the statements `around` holding `node` (of the function
    `order` is of) is one no run runs (`_blocks_run`): `n = a * b` under `if False:`, under `if
    flag:` after `flag = False`, in `for _ in range(0):`."""
    path = set(order.holders(node))
    for statement in around:
        run = _blocks_run(statement, truth)
        arms = if_arms(statement)[1] if isinstance(statement, cst.If) else [statement.body]
        if run is not None and any(arm in path and arm not in run[0] for arm in arms):
            return True
    return False


def binding_updated(name: cst.Name, order: WrittenOrder) -> cst.BaseExpression | None:
    """The value of the one binding of `name` reaching a statement of `function` that binds it
    from its own value, read there (`grid` of `grid = grid + (B,)` or of `grid += (B,)`), as
    `reaching_binding` reads a launch's: the statement is read before it binds. None when `name`
    is read elsewhere, or when no one binding reaches the statement."""
    nesting = order.enclosing_statements(name)
    updating = nesting[-1][0][nesting[-1][1]] if nesting else None
    if not isinstance(updating, cst.Assign | cst.AugAssign) or not rebinds(updating, name.value):
        return None
    if any(isinstance(sub, cst.Lambda) and any(inner is name for inner in walk(sub)) for sub in walk(updating)):
        return None
    found = _nearest_binding(name.value, nesting, order, lambda statement: statement is updating)
    return found if isinstance(found, cst.BaseExpression) else None


def binding_reaching(name: str, node: cst.CSTNode, order: WrittenOrder) -> cst.BaseExpression | None:
    """The value of the one binding of `name` reaching `node`, read in the function's own code:
    as `reaching_binding` finds the one reaching a launch's grid (`num_core = props["num_aicore"]`
    then `num_core = props["num_vectorcore"]`: only the second reaches a launch after both; `n
    += 1` binds `n + 1`, as `n = n + 1` does).
    None when `node` is read later than where it is written: in a function, class or lambda
    defined in the function (it runs when called); and when `reaching_binding` finds none.
    Read once per name and node (`WrittenOrder.reaching`): each launch after n tests of a name
    asks about each test."""
    key = (name, node)
    if key not in order.reaching:
        order.reaching[key] = _binding_reaching(name, node, order)
    return order.reaching[key]


def _binding_reaching(name: str, node: cst.CSTNode, order: WrittenOrder) -> cst.BaseExpression | None:
    nesting = order.enclosing_statements(node)
    if any(isinstance(block[index], cst.FunctionDef | cst.ClassDef) for block, index in nesting[:-1]):
        return None
    lambdas = [sub for sub in walk(nesting[-1][0][nesting[-1][1]]) if isinstance(sub, cst.Lambda)] if nesting else []
    if any(sub is node for lambda_ in lambdas for sub in walk(lambda_)):
        return None
    found = _nearest_binding(name, nesting, order)
    return found if isinstance(found, cst.BaseExpression) else None


def loop_leaves(name: str, node: cst.CSTNode, order: WrittenOrder) -> list[cst.BaseExpression] | None:
    """The values `name` may hold at `node` when the nearest statement before it changing
    `name` is a loop not holding `node` (`for d in shape: n *= d; n = min(n, 100)`) whose body
    ends binding it plainly (its last statement changing `name`, under no `if`) and leaves it
    by no `break` or `continue`: the value reaching the loop (no trip: `binding_read_by`) and
    that last binding's (every trip). None otherwise, or when no one binding reaches the loop."""
    nesting = order.enclosing_statements(node)
    loop = order.last_writer(name, nesting)
    if (
        not isinstance(loop, cst.For | cst.While)
        or loop.orelse is not None
        or any(block[index] is loop for block, index in nesting)
        or any(isinstance(sub, cst.Break | cst.Continue) for sub in walk(loop.body))
    ):
        return None
    last = next((s for s in reversed(order.statements(loop.body)) if order.rebinds(s, name)), None)
    ending = None if last is None else plain_binding(last, name)
    before = binding_read_by(name, loop, order)
    if not isinstance(ending, cst.BaseExpression) or before is None:
        return None
    return [before, ending]


def tested_binding(name: str, test: cst.CSTNode, order: WrittenOrder) -> cst.BaseExpression | None:
    """The value of the binding of `name` an `if` test reads: `(name := value)` of the test
    itself (`bound_by_test`: `(n := pick()) in (64, 128)` tests what `n` holds in the arms), else
    the binding reaching the test (`binding_reaching`)."""
    nesting = order.enclosing_statements(test)
    holding = nesting[-1][0][nesting[-1][1]] if nesting else None
    bound = bound_by_test(holding, name) if isinstance(holding, cst.If) and holding.test is test else None
    return bound if bound is not None else binding_reaching(name, test, order)


def binding_read_by(name: str, binder: cst.CSTNode, order: WrittenOrder) -> cst.BaseExpression | None:
    """`binding_reaching` the value a statement rebinding `name` reads (`n` of `n = n * 2`): the
    one before that statement."""
    nesting = order.enclosing_statements(binder)
    holding = nesting[-1][0][nesting[-1][1]] if nesting else None
    found = _nearest_binding(name, nesting, order, passed_over=lambda statement: statement is holding)
    return found if isinstance(found, cst.BaseExpression) else None


def _nearest_binding(
    name: str,
    nesting: list[tuple[Sequence[cst.CSTNode], int]],
    order: WrittenOrder,
    passed_over: Callable[[cst.CSTNode], bool] = lambda statement: False,
) -> cst.BaseExpression | cst.FunctionDef | None:
    """`reaching_binding` of the point the statements of `nesting` hold (`WrittenOrder.enclosing_statements`):
    the value of the nearest statement before it that changes `name` (`WrittenOrder.last_writer`), when that
    is a plain binding or an update in place (its updated value, `WrittenOrder.updated_value`) and not the
    statement holding the point or a compound around it."""
    writer = order.last_writer(name, nesting, passed_over)
    if writer is None or (nesting and writer is nesting[-1][0][nesting[-1][1]]):
        return None
    if any(writer is block[index] for block, index in nesting):  # an `if` whose arm holds the point
        return bound_by_test(writer, name)
    if isinstance(writer, cst.AugAssign):
        return (
            order.updated_value(writer) if isinstance(writer.target, cst.Name) and writer.target.value == name else None
        )
    return plain_binding(writer, name)


def entry_writer(name: str, key: str, node: cst.CSTNode, order: WrittenOrder) -> cst.CSTNode | None:
    """The statement of the function (`order`) that last changes the entry `key` of the dict `name` before
    `node`, in straight-line code as `reaching_binding` reads it: the nearest one binding `name`
    or changing it (`cfg = {...}`, `cfg["grid"] = ...`, `cfg.update(...)`, an `if` or loop that
    may), passing over stores under other keys (`cfg["BT"] = 64`); the statement holding `node`
    or a compound one around it when that binds `name` outside the block holding `node`. None
    when no statement before `node` binds `name` (a parameter, a name of an outer function)."""
    return order.last_writer(name, order.enclosing_statements(node), lambda s: stores_other_keys(s, name, key))


def stored_entry(statement: cst.CSTNode, name: str, key: str) -> cst.BaseExpression | None:
    """`value` when the statement is `name[key] = value` (`key` a string literal)."""
    if isinstance(statement, cst.Assign) and any(_stored_key(t.target, name) == key for t in statement.targets):
        return statement.value
    return None


def stores_other_keys(statement: cst.CSTNode, name: str, key: str) -> bool:
    """The statement is an assignment whose targets store into `name` only under string keys
    other than `key` (`cfg["BT"] = 64`)."""
    if not isinstance(statement, cst.Assign):
        return False
    keys = [_stored_key(t.target, name) for t in statement.targets if rebinds(t, name)]
    return all(stored is not None and stored != key for stored in keys)


def _stored_key(target: cst.BaseExpression, name: str) -> str | None:
    """`"grid"` of a target `name["grid"]`."""
    if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value == name:
        return subscript_key(target)
    return None


class WrittenOrder:
    """A function's body in the order it is written (`walk`'s), read once: each node's place,
    the node holding it, where the nodes under it end and whether a loop of the function holds
    it, the assignments (`Binder`) and the binding nodes (`binding_nodes`, with the names they
    bind) in that order, and the statement lists of its blocks. Answers `assignments_after`,
    `names_rebound_between`, `holders`, `enclosing_statements` and `last_writer` by lookup,
    however many launches ask (`HostIndex` keeps one per function)."""

    def __init__(
        self, function: cst.FunctionDef, updates: Mapping[cst.AugAssign, cst.BaseExpression] | None = None
    ) -> None:
        self._updates = updates or {}  # the host index's values of updates in place (`updated_value`)
        self._places: dict[cst.CSTNode, tuple[int, bool]] = {}  # the first visit's, as a walk stops there
        self._parents: dict[cst.CSTNode, cst.CSTNode] = {}  # the first visit's
        self._body = function.body
        self._binders: list[tuple[int, cst.CSTNode]] = []
        self._bindings: list[tuple[int, frozenset[str], frozenset[str]]] = []  # names bound, those only shrunk
        self._named: dict[str, list[tuple[int, cst.CSTNode]]] = {}  # the binding nodes of each name
        self._whiles: list[tuple[int, cst.While]] = []
        self._blocks: dict[cst.CSTNode, list[cst.CSTNode]] = {}  # `_statements`, by block
        self._indexes: dict[int, dict[cst.CSTNode, int]] = {}  # by the id of a list of `_blocks`
        self.reaching: dict[tuple[str, cst.CSTNode], cst.BaseExpression | None] = {}  # `binding_reaching`'s
        # by node, the binding nodes written before it and the place of the block holding it: two
        # nodes of one block with none written between see the same bindings (`HostIndex.bounded_at`)
        self.segments: dict[cst.CSTNode, tuple[int, int]] = {}
        assigned: dict[cst.CSTNode, cst.BaseExpression] = {}
        holding: list[int] = []  # by place, the place of the node holding it
        # types compared exactly (not `isinstance`: see `HostIndex.name_uses`)
        stack: list[tuple[cst.CSTNode, bool, int, int]] = [(function.body, False, -1, -1)]
        place = 0
        while stack:
            node, in_loop, holder, block = stack.pop()
            self._places.setdefault(node, (place, in_loop))
            self.segments.setdefault(node, (len(self._bindings), block))
            holding.append(holder)
            kind = type(node)
            if kind in _BINDER_TYPES:
                self._binders.append((place, node))
            if type(node) is cst.Assign:
                assigned.update((target, node.value) for target in node.targets)
            if kind in _BINDING_TYPES:
                names = {sub.value for target in _targets(node) for sub in walk(target) if type(sub) is cst.Name}
                if names:
                    self._bindings.append((place, frozenset(names), _shrunk(node, assigned)))
                    for name in names:
                        self._named.setdefault(name, []).append((place, node))
            if type(node) is cst.While:
                self._whiles.append((place, node))
            in_loop = in_loop or kind is cst.For or kind is cst.While
            if kind is cst.IndentedBlock or kind is cst.SimpleStatementSuite:
                block = place
            children = child_nodes(node)
            for child in children:
                self._parents.setdefault(child, node)
            stack.extend((child, in_loop, place, block) for child in reversed(children))
            place += 1
        self._ends = list(range(1, place + 1))  # by place, the place past the nodes under it
        for inner in range(place - 1, 0, -1):
            self._ends[holding[inner]] = max(self._ends[holding[inner]], self._ends[inner])

    def updated_value(self, statement: cst.AugAssign) -> cst.BaseExpression:
        """The value an update in place binds its target to (`n + 1` of `n += 1`): the one the
        host index records (`HostFacts.bindings`, whose binder it finds), or one made anew."""
        return self._updates.get(statement) or updated_value(statement)

    def written_before(self, first: cst.CSTNode, then: cst.CSTNode) -> bool:
        """The function's body holds `first`, written no later than `then` (which it holds)."""
        place, later = self._places.get(first), self._places.get(then)
        return place is not None and later is not None and place[0] <= later[0]

    def loops_before(self, node: cst.CSTNode) -> list[cst.While]:
        """The `while` loops among the lines of the function's body before the one holding
        `node` (all of them when none holds it)."""
        found = self._places.get(node)
        whiles = self._whiles[: bisect_left(self._whiles, found[0], key=_place)] if found else self._whiles
        return [
            loop
            for place, loop in whiles
            if self._parents.get(loop) is self._body and (found is None or self._ends[place] <= found[0])
        ]

    def rebinds(self, statement: cst.CSTNode, name: str) -> bool:
        """`rebinds`, by lookup for a statement of the function."""
        found = self._places.get(statement)
        if found is None:
            return rebinds(statement, name)
        return self._binds_within(name, found[0], self._ends[found[0]])

    def _binds_within(self, name: str, start: int, end: int) -> bool:
        """A binding node of `name` is at a place from `start` up to `end`."""
        named = self._named.get(name, [])
        first = bisect_left(named, start, key=_place)
        return first < len(named) and named[first][0] < end

    def enclosing_statements(self, node: cst.CSTNode) -> list[tuple[Sequence[cst.CSTNode], int]]:
        """The statement lists holding `node` (`statements_of` the lines of each block, the
        blocks `statement_blocks` gives), outermost first, with the index of the statement
        holding it in each; none when the function's body does not hold it."""
        holders = self.holders(node)
        path = set(holders)
        nesting: list[tuple[Sequence[cst.CSTNode], int]] = []
        block: cst.CSTNode | None = self._body if holders else None
        while block is not None:
            statements = self.statements(block)
            places = self._indexes[id(statements)]
            statement = next((holder for holder in holders if holder in places), None)
            if statement is None:
                break
            nesting.append((statements, places[statement]))
            block = None
            if isinstance(statement, cst.BaseCompoundStatement):
                # a block's lines are held by the block; a one-line suite's are made anew (`statement_blocks`)
                held = (self._parents.get(lines[0], statement.body) for lines in statement_blocks(statement))
                block = next((inner for inner in held if inner in path), None)
        return nesting

    def statements(self, block: cst.CSTNode) -> list[cst.CSTNode]:
        """`statements_of` the lines of a block (`suite_lines`), read once, with their indexes."""
        found = self._blocks.get(block)
        if found is None:
            assert isinstance(block, cst.BaseSuite)
            found = self._blocks[block] = list(statements_of(suite_lines(block)))
            self._indexes[id(found)] = {statement: index for index, statement in enumerate(found)}
        return found

    def last_writer(
        self,
        name: str,
        nesting: list[tuple[Sequence[cst.CSTNode], int]],
        passed_over: Callable[[cst.CSTNode], bool] = lambda statement: False,
    ) -> cst.CSTNode | None:
        """The nearest statement before the point the statements of `nesting`
        (`enclosing_statements`) hold that may change `name` in straight-line code, but those
        `passed_over`: the statement holding the point, or a compound one around it, when that
        binds `name` outside the block holding the point; None when no statement before it
        does."""
        holding = nesting[-1][0][nesting[-1][1]] if nesting else None
        if holding is not None and self.rebinds(holding, name) and not passed_over(holding):
            return holding
        inner: Sequence[cst.CSTNode] | None = None
        for block, index in reversed(nesting):
            if inner is not None and self._binds_outside(block[index], inner, name):
                return block[index]
            writer = self._last_in(name, block, index, passed_over)
            if writer is not None:
                return writer
            inner = block
        return None

    def _last_in(
        self, name: str, block: Sequence[cst.CSTNode], index: int, passed_over: Callable[[cst.CSTNode], bool]
    ) -> cst.CSTNode | None:
        """The last statement of `block` (of `enclosing_statements`) before the one at `index`
        that may change `name`, but those `passed_over`."""
        if not index:
            return None
        named, places = self._named.get(name, []), self._indexes[id(block)]
        start, end = self._places[block[0]][0], self._places[block[index]][0]
        last = bisect_left(named, end, key=_place)
        while last and named[last - 1][0] >= start:
            statement = next((holder for holder in self.holders(named[last - 1][1]) if holder in places), None)
            if statement is not None and not passed_over(statement):
                return statement
            last = last - 1 if statement is None else bisect_left(named, self._places[statement][0], key=_place)
        return None

    def _binds_outside(self, compound: cst.CSTNode, inner: Sequence[cst.CSTNode], name: str) -> bool:
        """The compound statement may bind `name` other than in its block `inner` (of
        `enclosing_statements`): in its header or another of its blocks, or anywhere when it is a
        loop."""
        if isinstance(compound, cst.For | cst.While):
            return self.rebinds(compound, name)
        start = self._places[compound][0]
        first, last = self._places[inner[0]][0], self._ends[self._places[inner[-1]][0]]
        return self._binds_within(name, start, first) or self._binds_within(name, last, self._ends[start])

    def holders(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """`node` and the nodes of the function's body holding it, innermost first, up to the
        body; none when the body does not hold it."""
        found = [node]
        while found[-1] in self._parents:
            found.append(self._parents[found[-1]])
        return found if found[-1] is self._body else []

    def assignments_after(self, point: cst.CSTNode) -> frozenset[int]:
        """The ids of the assignments of the function written after `point` (not the one holding it). With
        no loop of the function around `point`, code runs in the order it is written, so none
        of them runs before `point` and none of the values they bind reaches it. None with a
        loop around it (a later assignment may run on an earlier trip), nor when the function
        does not hold `point`."""
        found = self._places.get(point)
        if found is None or found[1]:
            return frozenset()
        first = bisect_left(self._binders, found[0], key=_place)
        return frozenset(map(id, map(itemgetter(1), self._binders[first:])))  # no Python call per assignment

    def names_rebound_between(self, start: cst.CSTNode, end: cst.CSTNode, growing: bool = False) -> set[str] | None:
        """The names (`binding_nodes`) that the code of the function written from `start`
        (itself included) up to `end` may rebind or change (with `growing`, to a value that does
        not only `shrinks` them: not `n //= 2`): with no loop of the function around
        either, code runs in the order it is written, so these are all that may run between the
        two. None when a loop holds one of them (a later statement may run between them on
        another trip), or the function's body does not hold both, `start` first."""
        if not self.runs_before(start, end):
            return None
        lower, upper = (
            bisect_left(self._bindings, self._places[start][0], key=_place),
            bisect_left(self._bindings, self._places[end][0], key=_place),
        )
        return _rebound(self._bindings[lower:upper], growing)

    def runs_before(self, start: cst.CSTNode, end: cst.CSTNode) -> bool:
        """The function's body holds both, `start` written first and no loop of the function
        around either: `start` runs before `end`, every time `end` runs."""
        first, last = self._places.get(start), self._places.get(end)
        return first is not None and last is not None and first[0] < last[0] and not first[1] and not last[1]

    def names_rebound_from(self, start: cst.CSTNode, growing: bool = False) -> set[str] | None:
        """The names (`binding_nodes`) that the code of the function written from `start`
        (itself included) on may rebind or change (with `growing`, as `names_rebound_between`):
        all a loop may run after `start` on another trip. None when the function's body does
        not hold `start`."""
        first = self._places.get(start)
        if first is None:
            return None
        return _rebound(self._bindings[bisect_left(self._bindings, first[0], key=_place) :], growing)


def _rebound(bindings: Sequence[tuple[int, frozenset[str], frozenset[str]]], growing: bool) -> set[str]:
    """The names `bindings` (of a `WrittenOrder`) bind; with `growing`, those some binding
    binds to a value that does not only shrink it."""
    return set().union(*(names - shrunk if growing else names for _, names, shrunk in bindings))


def _place(entry: tuple[int, object] | tuple[int, object, object]) -> int:
    """Where an entry of a `WrittenOrder` list is, in the order written."""
    return entry[0]


def plain_binding(statement: cst.CSTNode, name: str) -> cst.BaseExpression | cst.FunctionDef | None:
    """`value` when the statement is `name = value`, `name: T = value` or `(name := value)`;
    the function when it is `def name(...)` with no decorator (which could bind something else
    to the name)."""
    if isinstance(statement, cst.FunctionDef):
        return statement if statement.name.value == name and not statement.decorators else None
    target: cst.BaseExpression | None = None
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0].target, statement.value
    elif isinstance(statement, cst.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    elif isinstance(statement, cst.Expr) and isinstance(statement.value, cst.NamedExpr):
        target, value = statement.value.target, statement.value.value
    elif isinstance(statement, cst.If):
        return bound_by_test(statement, name)
    if isinstance(target, cst.Name) and target.value == name:
        return value
    return None


def bound_by_test(statement: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """`value` when the statement is an `if` whose test always binds `name` by `(name := value)`
    and nothing in its arms may change `name` (`guards.tested_walrus`, `rebinds`): what the name
    holds in its arms and after it, as after `n = pick()` before the `if`."""
    walrus = tested_walrus(statement, name, _rebound_in)
    return None if walrus is None else walrus.value


def _rebound_in(roots: Sequence[cst.CSTNode], name: str) -> bool:
    """One of `roots` may rebind or change `name` (`rebinds`)."""
    return any(rebinds(root, name) for root in roots)


def _enclosing_statements(node: cst.CSTNode, lines: Sequence[cst.CSTNode]) -> list[tuple[Sequence[cst.CSTNode], int]]:
    """The statement lists holding `node` (`statements_of` the lines of each block), outermost
    first, with the index of the statement holding it in each."""
    block = statements_of(lines)
    for index, statement in enumerate(block):
        if any(sub is node for sub in walk(statement)):
            for inner in statement_blocks(statement) if isinstance(statement, cst.BaseCompoundStatement) else ():
                found = _enclosing_statements(node, inner)
                if found:
                    return [(block, index), *found]
            return [(block, index)]
    return []


def while_counters(node: cst.CSTNode, order: WrittenOrder) -> list[tuple[cst.While, frozenset[str]]]:
    """The `while` loops of the function (`order`) whose body holds `node`, outermost first,
    each with its counters: the names its test reads that its body only steps by a chunk
    (`start` of `while start < n:` ... `start += CH`; not `it += 1`, one more trip, nor `n =
    triton.cdiv(n, 64)`); a loop with none may run any number of trips over the same values."""
    holders = order.holders(node)
    return [
        (loop, frozenset(name for name in names_read(loop.test) if _stepped(loop.body, name)))
        for inner, loop in reversed(list(pairwise(holders)))
        if isinstance(loop, cst.While) and inner is loop.body
    ]


def _stepped(body: cst.CSTNode, name: str) -> bool:
    """`body` rebinds `name` only by adding a step other than 1 to it (`start += CH`)."""
    binders = list(binding_nodes(body, name))
    return bool(binders) and all(
        isinstance(binder, cst.AugAssign)
        and isinstance(binder.operator, cst.AddAssign)
        and int_literal(binder.value) != 1
        for binder in binders
    )


def statement_before(node: cst.CSTNode, lines: Sequence[cst.CSTNode]) -> cst.CSTNode | None:
    """The statement right before the small statement holding `node`, in its block within
    `lines` (`statements_of` the block's lines: `a = 1; a *= 2` is two statements). None when
    that one comes first in its block (in the body of a `while`, `with` or `try` too: the
    statement before the block is not before it in it) or `lines` hold `node` in no small
    statement they reach."""
    nesting = _enclosing_statements(node, lines)
    if not nesting:
        return None
    block, index = nesting[-1]
    return block[index - 1] if index and not isinstance(block[index], cst.BaseCompoundStatement) else None


def statements_after(node: cst.CSTNode, lines: Sequence[cst.CSTNode]) -> list[cst.CSTNode]:
    """The statements that run after the one holding `node` (`statements_of` each block within
    `lines`): those after it in its block, then those after the block's compound statement in
    the block holding that, outwards. Empty when `lines` hold `node` in no statement."""
    return [
        statement for block, index in reversed(_enclosing_statements(node, lines)) for statement in block[index + 1 :]
    ]


def reads(statement: cst.CSTNode, name: str) -> bool:
    """The statement reads `name`: not as the name an assignment, `for`, `with ... as`, `except
    ... as` or an import binds (`UB = q()`, `a, UB = q()`); `UB += 1`, `UB.append(x)` and
    `UB[k] = v` read it."""
    bound: set[int] = set()
    for node in walk(statement):
        for target in [] if isinstance(node, cst.AugAssign | cst.Call) else _targets(node):
            elements = (
                [element.value for element in target.elements] if isinstance(target, cst.Tuple | cst.List) else []
            )
            bound.update(id(sub) for sub in [target, *elements] if isinstance(sub, cst.Name))
    return name in names_read(statement, bound)


def rebinds(statement: cst.CSTNode, name: str) -> bool:
    """The statement may rebind or change `name` (`binding_nodes`)."""
    return next(binding_nodes(statement, name), None) is not None


RECORDED_BINDERS = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.NamedExpr)  # `HostIndex.bindings`


def declared_global(node: cst.CSTNode) -> list[str]:
    """The names a `global` statement declares (none for other nodes)."""
    return [item.name.value for item in node.names] if isinstance(node, cst.Global) else []


def binding_nodes(statement: cst.CSTNode, name: str) -> Iterator[cst.CSTNode]:
    """The nodes of the statement that may rebind or change `name`: an assignment, `for`,
    `with ... as`, `except ... as`, `del`, import, `def`, `match` capture or `:=` target naming
    it, or a method called on it (`grid.append(...)`)."""
    for node in walk(statement):
        if any(isinstance(sub, cst.Name) and sub.value == name for target in _targets(node) for sub in walk(target)):
            yield node


def rebound_names(node: cst.CSTNode) -> list[str]:
    """The names `node` binds anew (`target_names` of its targets: `self` of `self = other`, `for
    self in ops:`), not those it changes in place (`self.X = v`, `self.f()`)."""
    if type(node) is cst.Call:
        return []
    return [
        name for target in _targets(node) if isinstance(target, cst.BaseExpression) for name in target_names(target)
    ]


def starred_target(binder: cst.CSTNode, name: str) -> bool:
    """`binder` binds `name` to the rest of an unpacking (`M, *N = values`), a list whose value
    the index does not record."""
    return isinstance(binder, cst.AssignTarget) and any(
        isinstance(node, cst.StarredElement) and isinstance(node.value, cst.Name) and node.value.value == name
        for node in walk(binder.target)
    )


def binders_by_name(root: cst.CSTNode) -> dict[str, list[cst.CSTNode]]:
    """Every name the nodes under `root` may rebind or change, with those nodes: what
    `binding_nodes` gives for each name, and the `global` statements naming it, in one walk."""
    binders: dict[str, list[cst.CSTNode]] = {}
    for node in walk(root):
        if type(node) not in _BINDING_TYPES:
            continue
        if isinstance(node, cst.Global):
            names = set(declared_global(node))
        else:
            names = {sub.value for target in _targets(node) for sub in walk(target) if type(sub) is cst.Name}
        for name in names:
            binders.setdefault(name, []).append(node)
    return binders


# the node types `_targets` finds targets in (one set lookup for every other node)
_BINDING_TYPES = frozenset(
    {
        cst.AssignTarget,
        cst.AugAssign,
        cst.AnnAssign,
        cst.NamedExpr,
        cst.For,
        cst.CompFor,
        cst.MatchAs,
        cst.MatchStar,
        cst.MatchMapping,
        cst.WithItem,
        cst.ImportAlias,
        cst.ExceptHandler,
        cst.Del,
        cst.FunctionDef,
        cst.ClassDef,
        cst.Call,
        cst.Global,  # `binders_by_name` only
    }
)


def _targets(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The parts of `node` whose names it may rebind or change (`binding_nodes`)."""
    if type(node) is cst.Call:  # the commonest first: each failing `isinstance` below is a Python call
        return [node.func.value] if isinstance(node.func, cst.Attribute) else []
    if isinstance(node, cst.AssignTarget | cst.AugAssign | cst.AnnAssign | cst.NamedExpr | cst.For | cst.CompFor):
        return [node.target]
    if isinstance(node, cst.MatchAs | cst.MatchStar) and node.name is not None:
        return [node.name]
    if isinstance(node, cst.MatchMapping) and node.rest is not None:
        return [node.rest]
    if isinstance(node, cst.WithItem | cst.ImportAlias) and node.asname is not None:
        return [node.asname.name]
    if isinstance(node, cst.ExceptHandler) and node.name is not None:
        return [node.name.name]
    if isinstance(node, cst.ImportAlias | cst.Del):
        return [node.name if isinstance(node, cst.ImportAlias) else node.target]
    if isinstance(node, cst.FunctionDef | cst.ClassDef):
        return [node.name]
    return []


def _unpacked(value: cst.BaseExpression, count: int) -> list[cst.BaseExpression | None]:
    """What each of `count` names gets from `a, b = value`: the tuple's elements, each arm's
    own of a conditional (`BM, BN = (1, 256) if m <= 16 else (8, 1024)` binds `BM` to `1 if m
    <= 16 else 8`), or `value[i]` for another value (`B, T, H = q.shape` binds `T` to
    `q.shape[1]`). One starred element takes the names the others leave (`B, T, H, K, V =
    *k.shape, v.shape[-1]` binds `K` to `k.shape[3]`); with more, the positions are unknown and
    nothing is bound."""
    if isinstance(value, cst.IfExp):
        arms = zip(_unpacked(value.body, count), _unpacked(value.orelse, count), strict=True)
        return [
            value.with_changes(body=body, orelse=orelse) if body is not None and orelse is not None else None
            for body, orelse in arms
        ]
    if not isinstance(value, (cst.Tuple, cst.List)):
        return [indexed(value, i) for i in range(count)]
    elements = value.elements
    starred = [i for i, element in enumerate(elements) if isinstance(element, cst.StarredElement)]
    if not starred and len(elements) == count:
        return [element.value for element in elements]
    if len(starred) != 1 or count < len(elements) - 1:
        return [None] * count
    star = starred[0]
    spread = [indexed(elements[star].value, i) for i in range(count - len(elements) + 1)]
    return [*(e.value for e in elements[:star]), *spread, *(e.value for e in elements[star + 1 :])]


def returned_index(value: cst.Subscript) -> int | None:
    """`i` of `value[i]`, an integer literal, or a negated one (`value[-1]`)."""
    [position, *more] = value.slice
    if not isinstance(position.slice, cst.Index) or more:
        return None
    index = position.slice.value
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus):
        negated = int_literal(index.expression)
        return None if negated is None else -negated
    return int_literal(index)


def tuple_element(value: cst.Tuple, index: int) -> cst.BaseExpression | None:
    """The element `value[index]` reads (`(8, 131072)[-1]` the 131072): `element_at`."""
    return element_at(value.elements, index)


def element_at(elements: Sequence[cst.BaseElement], index: int) -> cst.BaseExpression | None:
    """The value of the element at `index` of a tuple or list of `elements`; None out of range,
    or where a starred element lies before it (after it, for a negative `index`)."""
    starred = [i for i, element in enumerate(elements) if isinstance(element, cst.StarredElement)]
    position = index if index >= 0 else len(elements) + index
    if not 0 <= position < len(elements) or (
        starred and (position >= starred[0] if index >= 0 else position <= starred[-1])
    ):
        return None
    return elements[position].value


def unpacked_into(targets: Sequence[cst.BaseElement], value: cst.BaseExpression) -> list[cst.BaseExpression | None]:
    """What each target of `a, b = value` gets (`_unpacked`); with a starred target (`*batch, D =
    x.shape`, `B, T, *_ = x.shape`), a value that is no tuple or list gives the names before it
    `value[i]`, those after it `value[-j]` and the starred one the slice between
    (`x.shape[:-1]`); a tuple or list, nothing. `map(int, x.shape)` unpacks as `x.shape`."""
    value = _without_int_map(value)
    starred = [i for i, target in enumerate(targets) if isinstance(target, cst.StarredElement)]
    if not starred:
        return _unpacked(value, len(targets))
    if len(starred) > 1 or isinstance(value, cst.Tuple | cst.List | cst.IfExp):
        return [None] * len(targets)
    star, after = starred[0], len(targets) - starred[0] - 1
    return [
        *(indexed(value, i) for i in range(star)),
        _slice(value, star, after),
        *(indexed(value, i - after) for i in range(after)),
    ]


def _without_int_map(value: cst.BaseExpression) -> cst.BaseExpression:
    """`x.shape` for `map(int, x.shape)` (the same sizes, as Python ints), else `value`."""
    if (
        isinstance(value, cst.Call)
        and is_name(value.func, "map")
        and len(value.args) == 2
        and is_name(value.args[0].value, "int")
        and not any(arg.keyword or arg.star for arg in value.args)
    ):
        return value.args[1].value
    return value


def _slice(value: cst.BaseExpression, start: int, left_after: int) -> cst.Subscript:
    """`value[start:-left_after]` (`value[start:]` when none is left after)."""
    lower = cst.Integer(str(start)) if start else None
    upper = cst.UnaryOperation(cst.Minus(), cst.Integer(str(left_after))) if left_after else None
    return cst.Subscript(value, [cst.SubscriptElement(cst.Slice(lower, upper))])


def comprehension_variables(comprehension: cst.GeneratorExp | cst.ListComp) -> set[str]:
    """The names the `for` clauses of a comprehension bind."""
    variables: set[str] = set()
    clause: cst.CompFor | None = comprehension.for_in
    while clause is not None:
        variables |= names_read(clause.target)
        clause = clause.inner_for_in
    return variables


def swaps_in_for_none(function: cst.FunctionDef, name: str, flags: set[str]) -> bool:
    """Whether `function` binds `name` to a value naming no `None`, in its own code, outside any
    `if` or in one whose test reads `name` or one of `flags` (`if not use_h0: h0 = x`, `if h0 is
    None: h0 = dummy`): a stand-in swapped in where the pointer was None, so what the function
    passes for it later is never None."""

    def swapped(node: cst.CSTNode, guards: tuple[set[str], ...]) -> bool:
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda) and node is not function:
            return False
        if isinstance(node, cst.Assign) and any(
            isinstance(target.target, cst.Name) and target.target.value == name for target in node.targets
        ):
            no_none = not any(isinstance(each, cst.Name) and each.value == "None" for each in walk(node.value))
            if no_none and (not guards or guards[-1] & (flags | {name})):
                return True
        if isinstance(node, cst.If):
            inner = (*guards, names_read(node.test))
            return swapped(node.body, inner) or (node.orelse is not None and swapped(node.orelse, inner))
        return any(swapped(child, guards) for child in child_nodes(node))

    return swapped(function.body, ())
