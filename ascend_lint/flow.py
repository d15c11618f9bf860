"""The facts rules share about one kernel body, built in a single walk.

The walk turns the body into *events* in evaluation order — a name read, a name definition
(by `=`, `+=`, a loop target, or an assignment expression `(r := v)`, after `v`'s events and
before the rest of the expression reads `r`), a call — linked into a control-flow graph (branches, loops with back-edges, break/continue,
return). On top of that:

- value flags per expression, where it stands: is it a constexpr, a specialisable int, a
  program id, a loop index, loaded data, another runtime value. A name's flags come from the
  definitions reaching the read along paths whose constexpr test outcomes agree, one variant
  per combination of outcomes (`if IS_VARLEN:` ... `else:` gives two); a definition picked at
  run time (under a runtime `if`, in a runtime loop, carried round one) makes it runtime;
- def-use queries along control-flow paths: the reads a program point reaches before the
  name is redefined, and the definitions that reach a point;
- path conditions: events inside `if` arms remember the arm, so reads on an arm exclusive
  with another (the other arm, or an `if` on the same constexpr test) are infeasible;
- loops, with the 1-D core-grid task loops marked (a `for` over `range` / `tl.range`, a
  counting `while`, or a `for` counting trips whose body binds `task = pid + i *
  num_programs`); the index of such a `for` over the tasks is a task index (a flattened
  program id, the TASK flag; a `while` loop's index and a trip counter's `task` already
  carry the program id).

Measured on triton-ascend 3.2 (docs/specialisation.md): Triton's front end holds every name
assigned in the kernel body as a tensor, even `c = 4` or `c = BT * 2` (so `c.to(...)`
compiles); only `tl.constexpr` parameters, specialised ints, literals, `x: tl.constexpr = ...`
and `tl.static_range` indices stay Python values. Such assigned constants are still known at
compile time (they fold), which is what `is_constexpr` asks; `is_python_constexpr` asks the
front end's question.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import Any, TypeAlias, TypeGuard

import libcst as cst

from .arithmetic import ceiling_division
from .imports import ImportMap, int_literal, literal_truth, number_literal, str_literal
from .nodes import (
    NAMES_FOLLOWED,
    child_nodes,
    each_once,
    flat_code,
    one_line,
    replaced,
    suite_lines,
    updated_value,
    walk,
)

# Value flags: a bit set describing where a value can come from.
CONST = 1  # literal, constexpr parameter, dtype, tl.static_range index
SPEC = 2  # unannotated int parameter Triton-Ascend may specialise into a constexpr (when 1)
PID = 4  # tl.program_id / tl.num_programs: runtime (measured: never folds on triton-ascend 3.2)
LOOP = 8  # index of a tl.range / range loop
LOADED = 16  # data read from memory
TENSOR = 32  # tensors and other call results computed at run time
SCALAR = 64  # a runtime scalar parameter: annotated (tl.int32...) or in do_not_specialize
ARG = 128  # an unannotated parameter of a device function: whatever the calling kernel passes
PHI = 256  # chosen at run time between definitions (a runtime `if`, a loop): an int32 scalar
BOXED = 512  # assigned in the kernel body: a tensor to the front end, even when its value folds
WIDE = 2048  # int64 (`.to(tl.int64)`, `tl.cast(x, tl.int64)`, `T: tl.int64`): arithmetic on it is int64
NARROW = 4096  # cast to int32 or narrower (`.to(tl.int32)`): int32 unless an int64 operand joins it
TASK = 8192  # index of a 1-D core-grid `for` task loop (`range(pid, n, num_core)`): a flattened program id
# cast to uint32: arithmetic with int32 stays uint32 (Triton promotes to the unsigned type of the
# same width), which a block pointer refuses as it does int64
UNSIGNED = 16384
WIDTHS = WIDE | NARROW | UNSIGNED  # integer width facts; a comparison (a bool) has none
RUNTIME_ALWAYS = PID | LOOP | LOADED | TENSOR | SCALAR | ARG | PHI
INDEX = PID | LOOP | SCALAR | PHI  # runtime int32 scalars
PROGRAMS = PID | TASK  # a program id, or a task loop's index (a flattened one)
FOLDABLE = CONST | SPEC
MULTIPLYING = (cst.Multiply, cst.LeftShift)  # `i << 6` multiplies `i` by 64

READ, DEF, CALL, POINT = "read", "def", "call", "point"
_MAX_BINDING_HOPS = 8  # `A: tl.constexpr = B` chains followed when reading a constexpr binding

Assumptions: TypeAlias = frozenset[tuple[str, bool]]  # (constexpr test key, outcome) pairs
Variant: TypeAlias = tuple[int, Assumptions]
Choices: TypeAlias = tuple[tuple[cst.IfExp, bool], ...]  # conditional expressions, each with an arm (True: the body)
Arms: TypeAlias = tuple[
    tuple["Branch | cst.IfExp", bool], ...
]  # `if` statements and conditional expressions, each with an arm
PointerArguments: TypeAlias = Callable[[cst.Call], Iterable[cst.BaseExpression]]
ReturnedArgument: TypeAlias = Callable[[cst.Call], cst.BaseExpression | None]
Decide: TypeAlias = Callable[["Flow"], "Assumptions"]
NOTHING: Assumptions = frozenset()
CONSTANT: list[Variant] = [(CONST, NOTHING)]

NARROW_INTS = frozenset({"int32", "int16", "int8", "uint32", "uint16", "uint8"})
WIDE_INTS = frozenset({"int64", "uint64"})
_METADATA_ATTRS = frozenset({"dtype", "shape", "type", "ndim", "numel"})
_LEAVES = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis)
_CONSTANT_LEAVES = frozenset({*_LEAVES, cst.FormattedString, cst.ConcatenatedString})
HINT_FNS = ("multiple_of", "max_contiguous", "max_constancy")  # compiler hints: each returns its argument
_PURE_SCALAR_FNS = frozenset({"cdiv", "minimum", "maximum", "cast", *HINT_FNS})
_PY_PURE_FNS = frozenset({"min", "max", "abs", "int"})
_LOAD_FNS = ("load", "atomic_add", "atomic_max", "atomic_min", "atomic_cas", "atomic_xchg")
MEMORY_FNS = (*_LOAD_FNS, "store", "make_block_ptr")
# (argument position, keyword) of the `tl.make_block_ptr` arguments Triton takes only as int32
# (and an advance's offsets: `Flow.advance_parts`)
BLOCK_INT32_ARGUMENTS = ((3, "offsets"), (4, "block_shape"))
DMA_FNS = ("load", "store")
_BOUND_NAMES = ("arg1", "arg2", "step")  # tl.range's keywords for its bounds and step, in order
_MAX_KEYS = 4  # constexpr tests combined per value before falling back to one variant
_MAX_VARIANTS = 16
_MAX_STEP_CHOICES = 3  # constexpr conditional expressions an advance's step is split on (`Flow.advance_arms`)
_MAX_ORIGIN_STEPS = 256  # alias definitions walked back to find where a value was computed
_MAX_DEPTH = 150  # nested def-use lookups before falling back to the coarse facts
_NO_HIT = 1 << 30


@dataclass(eq=False)
class Event:
    index: int
    kind: str  # READ, DEF, CALL or POINT
    node: cst.CSTNode  # READ: the Name; CALL: the Call; DEF: the Name, Param or AugAssign; POINT: the If/loop
    name: str | None = None
    conds: tuple[tuple[Branch, bool], ...] = ()  # the enclosing `if` arms: (branch, True for the body arm)
    # the conditional expressions whose arms hold the node: (`a if c else b`, True for `a`)
    choices: Choices = ()
    loops: tuple[Loop, ...] = ()  # the enclosing loops, outermost first
    metadata: bool = False  # a read of `.dtype` / `.shape`: not a data read
    value: cst.BaseExpression | None = None  # for definitions: the assigned expression
    value_flags: int | None = None  # for definitions with no expression (parameters, loop indices)
    boxed: bool = False  # a definition by assignment (a tensor to Triton's front end)
    statement: cst.CSTNode | None = None  # the innermost statement holding `node` (the kernel body for parameters)
    succ: list[Event] = field(default_factory=list)
    pred: list[Event] = field(default_factory=list)

    @property
    def call(self) -> cst.Call:
        """The call of a CALL event."""
        if not isinstance(self.node, cst.Call):
            raise TypeError(f"a {self.kind} event has no call")
        return self.node


@dataclass(eq=False)
class Branch:
    """An `if` statement: where its test ends and which events each arm spans."""

    node: cst.If
    point: Event
    body: range
    orelse: range
    flow: Flow
    _constexpr: bool | None = None
    _computing: bool = False

    @property
    def test_is_constexpr(self) -> bool:
        """The test is known at compile time in every specialisation (so only one arm runs;
        a test that depends on itself round a loop counts as runtime)."""
        if self._constexpr is None:
            self._constexpr = False  # while computing: a self-dependent test is runtime
            self._computing = True
            try:
                self._constexpr = self.flow.is_constexpr(self.node.test)
            finally:
                self._computing = False
        elif self._computing:
            self.flow.stand_in_tests += 1
        return self._constexpr

    @cached_property
    def test_is_python_constexpr(self) -> bool:
        """Triton's front end compiles only one arm (a Python-level `if`)."""
        return self.flow.is_python_constexpr(self.node.test)

    @cached_property
    def key(self) -> tuple[str, bool]:
        """(normalised test code, polarity of the body arm), with what it says kept (`Implications`)."""
        return self.flow.implications.key(self.node.test)

    @property
    def test_events(self) -> range:
        """The events of the test, evaluated right before the arms (up to `point`)."""
        events, start = self.flow.events, self.point.index
        while start > 0 and events[start - 1].statement is self.node:
            start -= 1
        return range(start, self.point.index)

    def constexpr_facts(self, arm: bool) -> tuple[_Fact, ...]:
        """What taking the arm (True: the body) says of the constexprs the test reads
        (`implied_facts`), for a test that also reads runtime values: `not USE_X and n > 0`
        holding says `USE_X` is false, in every trip of a loop."""
        return implied_facts(self.node.test, arm, self.flow.is_constexpr)


def test_key(test: cst.BaseExpression) -> tuple[str, bool]:
    """An `if`'s or a conditional expression's test as (normalised code without leading
    `not`s and the brackets around them: `if (FLAG):` and `if not(FLAG):` test `FLAG`,
    polarity of the arm taken when it holds). The code is read without whitespace, line breaks
    or comments (`nodes.one_line`): a test written over several lines with a comment in it is
    the test written on one line."""
    tested, polarity = _tested(test)
    return "".join(one_line(tested).split()), polarity


_Bound: TypeAlias = tuple[float, bool]  # an interval's end and whether it is in the interval
_INFINITY = float("inf")


@dataclass(frozen=True)
class _Values:
    """The values a test outcome leaves one name: numbers in any of `intervals` (each (low,
    high); `True` and `False` are 1 and 0), `None` when `none`, other values (a string, a tuple,
    a dtype) that are false (`""`) when `falsy`, true when `truthy`. Comparing `None` or another
    value with a number by order raises, so those outcomes leave only numbers."""

    intervals: tuple[tuple[_Bound, _Bound], ...]
    none: bool = False
    falsy: bool = False
    truthy: bool = False

    def meets(self, values: _Values) -> bool:
        """Some value is in both."""
        return (
            (self.none and values.none)
            or (self.falsy and values.falsy)
            or (self.truthy and values.truthy)
            or any(_overlap(a, b) is not None for a in self.intervals for b in values.intervals)
        )

    def __and__(self, values: _Values) -> _Values:
        meet = (_overlap(a, b) for a in self.intervals for b in values.intervals)
        return _Values(
            tuple(i for i in meet if i is not None),
            self.none and values.none,
            self.falsy and values.falsy,
            self.truthy and values.truthy,
        )

    def __or__(self, values: _Values) -> _Values:
        return _Values(
            self.intervals + values.intervals,
            self.none or values.none,
            self.falsy or values.falsy,
            self.truthy or values.truthy,
        )


def _overlap(a: tuple[_Bound, _Bound], b: tuple[_Bound, _Bound]) -> tuple[_Bound, _Bound] | None:
    """The interval in both, None when they share no number."""
    low = max(a[0], b[0], key=lambda end: (end[0], not end[1]))  # at a tie, an open end is the higher
    high = min(a[1], b[1], key=lambda end: end)  # at a tie, an open end (False) is the lower
    if low[0] < high[0] or (low[0] == high[0] and low[1] and high[1]):
        return low, high
    return None


def _point(value: float) -> tuple[_Bound, _Bound]:
    return (value, True), (value, True)


def _below(value: float, closed: bool) -> tuple[_Bound, _Bound]:
    return (-_INFINITY, False), (value, closed)


def _above(value: float, closed: bool) -> tuple[_Bound, _Bound]:
    return (value, closed), (_INFINITY, False)


def _all_but(points: Iterable[float]) -> tuple[tuple[_Bound, _Bound], ...]:
    """The numbers other than `points`."""
    ends = sorted(set(points))
    lows = [(-_INFINITY, False), *((p, False) for p in ends)]
    highs = [*((p, False) for p in ends), (_INFINITY, False)]
    return tuple(zip(lows, highs, strict=True))


_NUMBERS = _Values(_all_but(()))
_ANY = _Values(_all_but(()), none=True, falsy=True, truthy=True)
_TRUTH = (_Values((_point(0),), none=True, falsy=True), _Values(_all_but((0,)), truthy=True))  # failing, holding
# (relation, constant) -> the values that fail it, and those that pass it
_ORDERS: dict[type[cst.BaseCompOp], Callable[[float], tuple[_Values, _Values]]] = {
    cst.LessThan: lambda c: (_Values((_above(c, True),)), _Values((_below(c, False),))),
    cst.LessThanEqual: lambda c: (_Values((_above(c, False),)), _Values((_below(c, True),))),
    cst.GreaterThan: lambda c: (_Values((_below(c, True),)), _Values((_above(c, False),))),
    cst.GreaterThanEqual: lambda c: (_Values((_below(c, False),)), _Values((_above(c, True),))),
}
_FLIPPED: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.LessThan: cst.GreaterThan,
    cst.LessThanEqual: cst.GreaterThanEqual,
    cst.GreaterThan: cst.LessThan,
    cst.GreaterThanEqual: cst.LessThanEqual,
}
_Fact: TypeAlias = tuple[str, _Values]  # a name and the values a test outcome leaves it


class Implications:
    """What each test key's outcome says of the names it reads (`_implied`), failing then
    holding, for the tests of one flow keyed so far: how `contradicts` sees two tests exclude
    each other. Each flow keeps its own, so no module's tests reach another's. A key's facts
    are worked out when `contradicts` is first asked (and those of tests keyed since at the
    next ask), so a flow that never asks pays nothing."""

    def __init__(self, held: Callable[[cst.BaseExpression], cst.BaseExpression | None] = lambda test: None) -> None:
        self._implied: dict[str, tuple[tuple[_Fact, ...], tuple[_Fact, ...]]] = {}
        self._unread: dict[str, list[cst.BaseExpression]] = {}  # by key, the tests keyed and not yet read (`facts`)
        # the test with the names it reads replaced by the tests they hold (`Flow.held_by_names`)
        self._held = held

    def key(self, test: cst.BaseExpression) -> tuple[str, bool]:
        """`test_key`, keeping the test for what it says."""
        key, polarity = test_key(test)
        self._unread.setdefault(key, []).append(_tested(test)[0])
        return key, polarity

    def facts(self, key: str, outcome: bool) -> tuple[_Fact, ...]:
        """What the outcome of the tests keyed `key` says; nothing when two of them read alike
        once spaces go but say different things."""
        for tested in self._unread.pop(key, ()):
            implied = (implied_facts(tested, False), implied_facts(tested, True))
            held = self._held(tested)
            if (
                held is not None and held is not tested
            ):  # `B` after `B: tl.constexpr = A and X`: also what `A and X` says
                implied = (implied[0] + implied_facts(held, False), implied[1] + implied_facts(held, True))
            if self._implied.setdefault(key, implied) != implied:
                self._implied[key] = ((), ())
        return self._implied.get(key, ((), ()))[outcome]

    def contradicts(self, assumed: Assumptions, key: str, outcome: bool) -> bool:
        """`assumed` holds the other outcome of the test `key`, or an outcome of another test
        that no value of the names both read passes together with this one: `MODE == 0` and
        `MODE == 1` both holding, `MODE < 1` beside `MODE >= 1`, `MODE in (0, 1)` beside `MODE
        == 2`, `USE_A and MODE == 0` holding beside `not USE_A` (`implied_facts`)."""
        if (key, not outcome) in assumed:
            return True
        mine = self.facts(key, outcome)
        return bool(mine) and conflicting(mine, self.held_facts(assumed))

    def held_facts(self, assumed: Assumptions) -> tuple[_Fact, ...]:
        """What the outcomes `assumed` say together."""
        return tuple(fact for held in assumed for fact in self.facts(*held))

    def consistent(self, a: Assumptions, b: Assumptions) -> bool:
        """No test outcome assumed in `a` that `b` contradicts (`contradicts`: the other outcome
        of the same test, or one of a test excluding it)."""
        return not any(self.contradicts(b, key, outcome) for key, outcome in a)


def conflicting(facts: tuple[_Fact, ...], others: tuple[_Fact, ...]) -> bool:
    """Some name of `facts` has no value both one of them and one of `others` leave it."""
    return any(name == other and not values.meets(more) for name, values in facts for other, more in others)


def implied_facts(
    test: cst.BaseExpression, outcome: bool, known: Callable[[cst.Name], bool] = lambda name: True
) -> tuple[_Fact, ...]:
    """What a test's outcome says of the `known` names it reads: the values it leaves each, from
    a bare `FLAG` (its truth), a comparison with constants (`MODE == 0`, `x is None`, `BT > 32`,
    `0 < MODE <= 2`, `MODE in (0, 1)`, `MODE not in (2,)`), `A and B` holding (what `A` and `B`
    holding say; `A or B` failing, what both failing say) and `A or B` holding when each says
    something of one name, the same (`MODE == 0 or MODE == 2`); nothing for other tests."""
    test, polarity = _tested(test)
    outcome = outcome == polarity
    if isinstance(test, cst.Name):
        return ((test.value, _TRUTH[outcome]),) if literal_truth(test) is None and known(test) else ()
    if isinstance(test, cst.BooleanOperation):
        left, right = implied_facts(test.left, outcome, known), implied_facts(test.right, outcome, known)
        if outcome == isinstance(test.operator, cst.And):
            return left + right
        if len(left) == len(right) == 1 and left[0][0] == right[0][0]:  # either holds: one name, either's values
            return ((left[0][0], left[0][1] | right[0][1]),)
        return ()
    if not isinstance(test, cst.Comparison):
        return ()
    facts: dict[str, _Values] = {}
    for subject, target in _links(test):  # `0 < MODE <= 2`: every link holds
        fact = _compared(subject, target.operator, target.comparator, known)
        if fact is None:
            return ()
        name, passing = fact
        facts[name] = facts.get(name, _ANY) & passing[1]
    if outcome:
        return tuple(facts.items())
    if len(facts) != 1:  # failing, some link fails: says something of one name only
        return ()
    failing = [_compared(s, t.operator, t.comparator, known) for s, t in _links(test)]
    return ((next(iter(facts)), _any_of(fact[1][0] for fact in failing if fact is not None)),)


def _links(test: cst.Comparison) -> Iterator[tuple[cst.BaseExpression, cst.ComparisonTarget]]:
    subject = test.left
    for target in test.comparisons:
        yield subject, target
        subject = target.comparator


def _any_of(values: Iterable[_Values]) -> _Values:
    result = _Values(())
    for more in values:
        result = result | more
    return result


def _compared(
    left: cst.BaseExpression,
    operator: cst.BaseCompOp,
    right: cst.BaseExpression,
    known: Callable[[cst.Name], bool],
) -> tuple[str, tuple[_Values, _Values]] | None:
    """(name, (values failing, values holding)) of a comparison of a `known` name with a
    constant, either side (`0 < MODE` as `MODE > 0`); None for anything else."""
    kind = type(operator)
    for name, constant, flip in ((left, right, False), (right, left, True)):
        if not isinstance(name, cst.Name) or literal_truth(name) is not None or not known(name):
            continue
        kind_here = _FLIPPED.get(kind, kind) if flip else kind
        values = _constant_values(constant, kind_here, flip)
        if values is not None:
            return name.value, values
    return None


def _constant_values(
    constant: cst.BaseExpression, kind: type[cst.BaseCompOp], flipped: bool
) -> tuple[_Values, _Values] | None:
    """(failing, holding) values of a name compared with `constant` by `kind`."""
    if kind in (cst.In, cst.NotIn):
        if flipped or not isinstance(constant, cst.Tuple | cst.List | cst.Set):
            return None
        members = [_constant(e.value) if isinstance(e, cst.Element) else None for e in constant.elements]
        if any(member is None for member in members):
            return None
        points = [m[0] for m in members if m is not None and m[0] is not None]
        has_none = any(m is not None and m[0] is None for m in members)
        inside = _Values(tuple(_point(p) for p in points), none=has_none)
        outside = _Values(_all_but(points), none=not has_none, falsy=True, truthy=True)
        return (outside, inside) if kind is cst.In else (inside, outside)
    known = _constant(constant)
    if known is None:
        return None
    [value] = known
    if kind in _ORDERS:
        return _ORDERS[kind](value) if value is not None else None
    if value is None:
        equal, unequal = _Values((), none=True), _Values(_all_but(()), falsy=True, truthy=True)
    else:
        equal, unequal = _Values((_point(value),)), _Values(_all_but((value,)), none=True, falsy=True, truthy=True)
    if kind is cst.Is:  # `x is True`: 1 passes as `x == True` does, and a failing one says nothing
        return (_ANY if value is not None else unequal), equal
    if kind is cst.IsNot:
        return equal, (_ANY if value is not None else unequal)
    if kind is cst.Equal:
        return unequal, equal
    return (equal, unequal) if kind is cst.NotEqual else None


def _constant(node: cst.BaseExpression) -> tuple[float | None] | None:
    """The value of a number literal (also negated), `True`, `False` or `None` (1 and 0 for the
    bools, as Python compares them), in a 1-tuple; None for anything else."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and not node.lpar:
        inner = _constant(node.expression)
        return None if inner is None or inner[0] is None else (-inner[0],)
    if isinstance(node, cst.Integer | cst.Float):
        try:
            return (number_literal(node),)
        except ValueError:  # `010`
            return None
    named: dict[str, float | None] = {"True": 1, "False": 0, "None": None}
    return (named[node.value],) if isinstance(node, cst.Name) and node.value in named else None


def _with_parts(test: cst.BaseExpression, parts: list[cst.BaseExpression]) -> cst.BaseExpression:
    """`not`, `and` / `or` or a comparison with its operands replaced (`Flow.held_by_names`)."""
    if isinstance(test, cst.UnaryOperation):
        return test.with_changes(expression=parts[0])
    if isinstance(test, cst.BooleanOperation):
        return test.with_changes(left=parts[0], right=parts[1])
    assert isinstance(test, cst.Comparison)
    targets = [t.with_changes(comparator=p) for t, p in zip(test.comparisons, parts[1:], strict=True)]
    return test.with_changes(left=parts[0], comparisons=targets)


def test_text(test: cst.BaseExpression) -> str:
    """The test `test_key` keys, as written on one line with its whitespace normalised and its
    comments dropped (`cu is not None`, `MODE == 2`, also from a test written over several
    lines with a comment in it): how a message names it."""
    return " ".join(one_line(_tested(test)[0]).split())


def _tested(test: cst.BaseExpression) -> tuple[cst.BaseExpression, bool]:
    polarity = True
    while test.lpar or (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)):
        if test.lpar:
            test = test.with_changes(lpar=(), rpar=())
        else:
            assert isinstance(test, cst.UnaryOperation)
            test, polarity = test.expression, not polarity
    return test, polarity


@dataclass(eq=False)
class Loop:
    node: cst.For | cst.While
    header: Event  # where each trip starts: entered from before the loop and from its back-edges
    body: range
    kind: str  # "static_range", "range" (tl.range / range / triton-ascend's parallel), "iter", "while"
    is_task_loop: bool = False


_State: TypeAlias = tuple[Event, Assumptions, Loop | None]  # a walk's state: where, outcomes passed, loop gone round
# (arms, outcomes held, loop gone round) -> the outcomes held past the arms
_ArriveMemo: TypeAlias = dict[tuple[int, Assumptions, Loop | None], Assumptions | None]


@dataclass
class _Reached:
    """The definitions a read reaches (each with the loop it comes round, or None), and the
    tests whose outcomes the paths to them record."""

    pairs: list[tuple[Event, Loop | None]]
    keys: frozenset[str]

    @property
    def definitions(self) -> list[Event]:
        return list(dict.fromkeys(definition for definition, _ in self.pairs))

    @property
    def outside_loops(self) -> list[Event]:
        """The definitions reached without going round a loop."""
        return [definition for definition, carrier in self.pairs if carrier is None]


class Flow:
    def __init__(
        self,
        imports: ImportMap,
        body: cst.BaseSuite,
        pointer_arguments: PointerArguments = lambda call: (),
        passed_constants: Mapping[str, cst.BaseExpression] | None = None,
        returned_argument: ReturnedArgument = lambda call: None,
    ):
        self.imports = imports
        self.body = body
        # a device function's parameters every call passes one constant for (`Kernel.passed_constants`)
        self.passed_constants = passed_constants or {}
        # the arguments of a call that the device function it runs uses as pointers
        self.pointer_arguments = pointer_arguments
        # the argument of a call that the device function it runs returns as it is (`ident(x)`: `x`)
        self.returned_argument = returned_argument
        # the constexpr test outcomes every specialisation of the body has (`build_flow`'s
        # `decide`): an arm they rule out is never compiled, so its definitions reach no read
        self.decided: Assumptions = NOTHING
        self.events: list[Event] = []
        self.defs: dict[str, list[Event]] = {}
        self.calls: list[Event] = []
        self.read_events: dict[cst.Name, Event] = {}
        self.branches: list[Branch] = []
        self.loops: list[Loop] = []
        # Each simple statement of the body, in program order, with the events it emitted.
        self.statements: list[tuple[cst.BaseSmallStatement, range]] = []
        self._memo: dict[cst.BaseExpression | Event, list[Variant]] = {}  # of reads, definitions, expressions
        self._active: dict[cst.BaseExpression | Event, int] = {}  # values being computed -> their depth
        self._lowest_hit = _NO_HIT  # the shallowest value being computed that was asked for again
        # (read name, tests tracked) -> the results each state of a backward walk leads to (`_reach_from`)
        self._reach_cache: dict[tuple[str, frozenset[str]], dict[_State, frozenset[_State]]] = {}
        self._walking: set[tuple[str, frozenset[str]]] = set()  # the keys of `_reach_cache` being walked
        self._test_keys: dict[cst.BaseExpression, tuple[str, bool]] = {}  # of decided tests (`_decided`)
        self._held_tests: dict[cst.BaseExpression, list[Event]] = {}  # `held_test`'s answers
        self._nearest_found: dict[tuple[int, str, bool], list[Event]] = {}  # `_nearest`'s answers
        # `value_is_read`'s answers, by the expression and the arm of `alongside` (`id` of its `conds`)
        self._values_read: dict[tuple[cst.BaseExpression, int | None], bool] = {}
        self.stand_in_tests = 0  # how often a test was asked while its outcome was being worked out

    @cached_property
    def implications(self) -> Implications:
        """What the tests keyed so far say (`Branch.key`, `_test_keys`), made on first use."""
        return Implications(self.held_by_names)

    def held_by_names(self, test: cst.BaseExpression, hops: int = _MAX_BINDING_HOPS) -> cst.BaseExpression | None:
        """The test with each name it reads that the body binds once to a test (a name, `not`,
        `and` / `or`, a comparison: `A: tl.constexpr = F`, `B = A and X`) replaced by that
        test, a few hops, down to names bound nowhere but as parameters; None when it reads no
        such name, or a name bound twice (its value depends on where it is read)."""
        if hops <= 0:
            return None
        if isinstance(test, cst.Name):
            definitions = self.defs.get(test.value, ())
            if len(definitions) != 1:
                return None if definitions else test
            value = definitions[0].value
            if value is None:  # a parameter
                return test
            if not isinstance(value, (cst.Name, cst.UnaryOperation, cst.BooleanOperation, cst.Comparison)):
                return None
            return self.held_by_names(value, hops - 1) or value
        parts: list[cst.BaseExpression]
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            parts = [test.expression]
        elif isinstance(test, cst.BooleanOperation):
            parts = [test.left, test.right]
        elif isinstance(test, cst.Comparison):
            parts = [test.left, *(target.comparator for target in test.comparisons)]
        else:
            return test if literal_truth(test) is not None or isinstance(test, (cst.Integer, cst.Float)) else None
        held = [self.held_by_names(part, hops) for part in parts]
        if any(h is None for h in held):
            return None
        if all(h is p for h, p in zip(held, parts, strict=True)):
            return test
        return _with_parts(test, [h for h in held if h is not None])

    def decide_tests(self, outcomes: Assumptions) -> None:
        """Records the constexpr test outcomes every specialisation of the body has (`decided`),
        forgetting what was worked out before without them."""
        if outcomes:
            self.decided = outcomes
            self._memo.clear()
            self._reach_cache.clear()
            self._held_tests.clear()
            self._nearest_found.clear()
            self._values_read.clear()

    # ---- value facts -------------------------------------------------------------------
    def flags(self, node: cst.BaseExpression, spec: Assumptions | None = None) -> int:
        """Where the value of `node` can come from, where it stands in the kernel: in the
        specialisation `spec` (constexpr test outcomes), or in any when `spec` is None."""
        result = 0
        for flags, assumed in self.variants(node):
            if spec is None or self.implications.consistent(assumed, spec):
                result |= flags
        return result

    def variants(self, node: cst.BaseExpression) -> list[Variant]:
        """(flags, constexpr test outcomes) for each specialisation the value depends on."""
        return self._memoised(node, lambda: self._evaluate(node, self.variants, self._name_variants))

    def _memoised(self, key: cst.BaseExpression | Event, compute: Callable[[], list[Variant]]) -> list[Variant]:
        """`compute()`, remembered. Definitions carried round a loop take the coarse facts, so
        a value depends on itself only through the test of an `if` guarding such a definition;
        asked for again while it is being computed, it is nothing yet, and the values computed
        from that placeholder are not remembered (they are recomputed when asked)."""
        memo = self._memo.get(key)
        if memo is not None:
            return memo
        if key in self._active:
            self._lowest_hit = min(self._lowest_hit, self._active[key])
            return [(0, NOTHING)]
        depth = len(self._active)
        if depth > _MAX_DEPTH:  # a very long def-use chain: the coarse facts
            return [(self._coarse_of(key), NOTHING)]
        self._active[key] = depth
        outer, self._lowest_hit = self._lowest_hit, _NO_HIT
        try:
            value = compute()
        finally:
            del self._active[key]
        hit, self._lowest_hit = self._lowest_hit, outer
        if hit >= depth:
            self._memo[key] = value
        else:
            self._lowest_hit = min(outer, hit)
        return value

    def specialisations(self, node: cst.BaseExpression) -> list[Assumptions]:
        """The constexpr test outcomes under which `node`'s flags differ (at least one)."""
        return [assumed for _, assumed in self.variants(node)]

    def is_constexpr(self, node: cst.BaseExpression) -> bool:
        """Known at compile time in every specialisation (also when held as a tensor)."""
        return self.flags(node) & ~BOXED == CONST

    def constexpr_choices(self, event: Event) -> list[tuple[cst.IfExp, bool]]:
        """The conditional expressions around the event whose test the front end decides
        (`tl.load(h0) if USE_H0 else 0.0`: only that arm is compiled), with the event's arm."""
        return [(choice, arm) for choice, arm in event.choices if self.is_python_constexpr(choice.test)]

    def is_python_constexpr(self, node: cst.BaseExpression, spec: Assumptions | None = None) -> bool:
        """A Python value while Triton's front end compiles the kernel: `tl.constexpr`
        parameters, literals, `tl.static_range` indices and expressions of those, not names
        assigned in the body (measured: those are tensors)."""
        return self.flags(node, spec) == CONST

    def is_specialisable(self, node: cst.BaseExpression, spec: Assumptions | None = None) -> bool:
        """A Python value in some specialisation: constexprs and specialisable ints only."""
        flags = self.flags(node, spec)
        return bool(flags & SPEC) and not flags & ~FOLDABLE

    def runtime_everywhere(self, node: cst.BaseExpression) -> bool:
        """Whether `node` stays a runtime value under every constexpr specialisation (a name
        set to a constant under `if TAIL_MODE == 0: t = False` folds in that one)."""
        return all(flags & RUNTIME_ALWAYS for flags, _ in self.variants(node))

    def constexpr_arms_around(self, node: cst.If | cst.IfExp) -> list[tuple[Branch | cst.IfExp, bool]]:
        """The `if` arms and conditional-expression arms around the `if` or conditional
        expression `node` that a constexpr test picks (an `if` in the `else` of `if TAIL_MODE ==
        0:` is compiled in the other modes only), each with the arm (True: the body)."""
        event = next(
            (b.point for b in self.branches if b.node is node)
            if isinstance(node, cst.If)
            else (e for e in self.events if any(choice is node for choice, _ in e.choices))
        )
        choices = event.choices
        if isinstance(node, cst.IfExp):  # those around it, not its own
            choices = choices[: next(i for i, (choice, _) in enumerate(choices) if choice is node)]
        arms: list[tuple[Branch | cst.IfExp, bool]] = [(b, arm) for b, arm in event.conds if b.test_is_constexpr]
        return arms + [(choice, arm) for choice, arm in choices if self.is_constexpr(choice.test)]

    def wide_everywhere(self, node: cst.BaseExpression) -> bool:
        """An int64 value under every constexpr specialisation: cast to int64, an int64
        parameter, a loop index with an int64 bound, or arithmetic with one of those."""
        return all(flags & WIDE for flags, _ in self.variants(node))

    def constant_int(self, node: cst.BaseExpression, spec: Assumptions | None = None) -> int | None:
        """The value of an int literal, or of a name every definition reaching it (in the
        specialisation `spec`) sets to the same int literal (`i_n = 0`), else None."""
        if isinstance(node, cst.Integer):
            return int_literal(node)
        values = {int_literal(value) for value in self.values_reaching(node, spec)}
        return values.pop() if len(values) == 1 else None

    def is_quotient_times_divisor(self, node: cst.BinaryOperation, spec: Assumptions | None = None) -> bool:
        """`q * c` or `c * q` where every definition of `q` reaching it (in `spec`) is `x // c`
        (`i_n * H` after `i_n, i_h = i_nh // H, i_nh % H`): no larger than `x`, so the multiply
        cannot overflow where `x` does not."""
        return self._dividends(node, spec) is not None

    def is_remainder(self, node: cst.BaseExpression) -> bool:
        """`x % c`, or the same written out, `x - (x // c) * c` (`x - q * c` for `q = x // c`):
        below `c`, whatever `x` is."""
        if not isinstance(node, cst.BinaryOperation):
            return False
        if isinstance(node.operator, cst.Modulo):
            return True
        dividends = self._dividends(node.right) if isinstance(node.operator, cst.Subtract) else None
        return dividends is not None and all(self._same_value(x, node.left) for x in dividends)

    def _dividends(self, node: cst.BaseExpression, spec: Assumptions | None = None) -> list[cst.BaseExpression] | None:
        """For `q * c` or `c * q` where every definition of `q` reaching it (in `spec`) is `x //
        c`: each such `x`; else None."""
        if not isinstance(node, cst.BinaryOperation) or not isinstance(node.operator, cst.Multiply):
            return None
        for quotient, divisor in ((node.left, node.right), (node.right, node.left)):
            values = [quotient] if isinstance(quotient, cst.BinaryOperation) else self.values_reaching(quotient, spec)
            if values and all(
                isinstance(value, cst.BinaryOperation)
                and isinstance(value.operator, cst.FloorDivide)
                and self._same_value(value.right, divisor)
                for value in values
            ):
                return [value.left for value in values if isinstance(value, cst.BinaryOperation)]
        return None

    def _same_value(self, a: cst.BaseExpression, b: cst.BaseExpression) -> bool:
        """Equal int literals, reads of one name reached by the same definitions, or one
        operation on such operands (`2 * BT` and `(2 * BT)`)."""
        if isinstance(a, cst.Integer) and isinstance(b, cst.Integer):
            return int_literal(a) == int_literal(b)
        if isinstance(a, cst.Name) and isinstance(b, cst.Name) and a.value == b.value:
            reaching = self.reaching(a)
            return bool(reaching) and reaching == self.reaching(b)
        if isinstance(a, cst.BinaryOperation) and isinstance(b, cst.BinaryOperation):
            return (
                type(a.operator) is type(b.operator)
                and self._same_value(a.left, b.left)
                and self._same_value(a.right, b.right)
            )
        return False

    # ---- int32 multiplies made before an int64 cast ------------------------------------
    def cast_parts(self, call: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
        return cast_parts(call, self.imports)

    def index_multiplies_widened(self, cast: cst.Call) -> dict[Assumptions, cst.BinaryOperation | None]:
        """For an int64 cast, per specialisation its receiver depends on, the int32 multiply
        over a runtime index the receiver computes before the cast widens it
        (`(i_b * T).to(tl.int64)`; see `index_arithmetic_multiply`). A multiply made before
        the receiver (in a definition it reads) counts unless the cast's result is scaled
        again (`scaled_after`). Empty for other casts."""
        parts = self.cast_parts(cast)
        if parts is None or not self.is_wide_int(parts[1]):
            return {}
        receiver = parts[0]
        specs = self.specialisations(receiver)
        multiplies = {spec: self.index_arithmetic_multiply(receiver, spec, True) for spec in specs}
        made_before = any(m is not None and not any(sub is m for sub in walk(receiver)) for m in multiplies.values())
        if made_before and self.scaled_after(cast):  # asked only then: it follows the cast's uses
            multiplies = {spec: self.index_arithmetic_multiply(receiver, spec, False) for spec in specs}
        return multiplies

    def scaled_after(self, cast: cst.Call) -> bool:
        """The cast's result reaches a multiply (`MULTIPLYING`: also a shift left, `r.to(tl.int64) << 7`,
        in place too, `r *= K`, `r <<= 7`): directly (`i_t.to(tl.int64) * K`), through sums and
        differences (`(b.to(tl.int64) * HW + p.to(tl.int64)) * C`), a tile's broadcast
        (`row[:, None] * stride`), the calls keeping its value (`tl.where(m, row, 0)`,
        `tl.multiple_of(row, B)`, `row if c else 0`: `value_kept_from`) and the names assigned any of these (`row = r.to(tl.int64) + base`
        or `row += base`, then `x + row * stride`): an index widened before its stride, so a product
        it was made from earlier is a position bounded by a dimension (`i_t * BT`, `pid * row_chunk`,
        a tile `pid * BLOCK + tl.arange(0, BLOCK)` within one image), not the element offset that
        wraps."""
        pending: list[cst.CSTNode] = [cast]
        for node in each_once(pending):
            parent = self.parents.get(node)
            if isinstance(parent, cst.NamedExpr):
                pending.append(parent)  # `(row := v)` is `v` where written, and `row` after (below)
            elif isinstance(parent, cst.BinaryOperation | cst.AugAssign):
                operation = updated_value(parent) if isinstance(parent, cst.AugAssign) else parent
                if isinstance(operation.operator, MULTIPLYING) and (
                    operation.left is node or not isinstance(operation.operator, cst.LeftShift)
                ):
                    return True  # `r * K`, `K * r`, `r << 7`, `r *= K`, `r <<= 7`; not `1 << r`
                if isinstance(operation.operator, cst.Add | cst.Subtract):
                    pending.append(parent)  # the index offset
                    continue
            elif isinstance(parent, cst.Subscript) and parent.value is node:
                pending.append(parent)  # the index broadcast (`row[:, None]`)
                continue
            elif isinstance(parent, cst.IfExp) and parent.test is not node:
                pending.append(parent)  # an arm of a choice (`row if c else 0`)
                continue
            elif isinstance(parent, cst.Arg):
                call = self.parents.get(parent)
                if isinstance(call, cst.Call) and any(node is kept for kept in self.value_kept_from(call)):
                    pending.append(call)  # a choice or a hint keeping it (`tl.where(m, row, 0)`)
                    continue
            for name, definitions in self.defs.items():  # the value bound to a name: its reads
                for definition in definitions:
                    if definition.value is node or definition.node is node:
                        pending += [read.node for read in self.reads_after(definition, name)]
        return False

    @cached_property
    def block_offsets(self) -> dict[cst.BaseExpression, str]:
        """The values block pointers take as int32 (`BLOCK_INT32_ARGUMENTS`: each part of a
        `tl.make_block_ptr` `offsets` / `block_shape`, of a `tl.advance` `offsets`), each with
        its function (`tl.make_block_ptr`). Its `shape` and `strides` are not among them: Triton
        widens those to int64 itself."""
        found: dict[cst.BaseExpression, str] = {}
        for event in self.calls:
            call = event.call
            if self.imports.is_tl(call.func, "make_block_ptr"):
                written = [call_argument(call, position, keyword) for position, keyword in BLOCK_INT32_ARGUMENTS]
                function = "tl.make_block_ptr"
            else:
                advance = self.advance_parts(call)
                written = [] if advance is None else [advance[1]]
                function = "tl.advance"
            for value in written:
                if value is None:
                    continue
                parts = [e.value for e in value.elements] if isinstance(value, cst.Tuple | cst.List) else [value]
                found.update((part, function) for part in parts)
        return found

    def value_reaches(
        self, starts: Iterable[cst.CSTNode], sinks: Mapping[cst.CSTNode, str]
    ) -> tuple[cst.CSTNode, str] | None:
        """The first of `sinks` (expressions of the body, each with a description) holding the
        integer value of one of `starts`, width included, else None: the expression itself, the
        sums, differences, products and negations of it, its casts (but to a narrower integer,
        which gives the value a width of its own: `row.to(tl.int32)`), broadcasts, the calls
        keeping it (`value_kept_from`: `tl.where(m, row, 0)`), a choice's arms (`row if c else 0`), and the names assigned any of
        these (`row = bos * H + i_h`, also `row += ...`; their reads in turn)."""
        pending = list(starts)
        for node in each_once(pending):
            if node in sinks:
                return node, sinks[node]
            parent = self.parents.get(node)
            if isinstance(parent, cst.BinaryOperation | cst.UnaryOperation):
                pending.append(parent)
                continue
            if isinstance(parent, cst.NamedExpr):
                pending.append(parent)  # `(row := v)` is `v` where written, and `row` after (below)
            if isinstance(parent, cst.Subscript) and parent.value is node and axes_view_of(parent) is node:
                pending.append(parent)  # a broadcast (`row[:, None]`)
                continue
            if isinstance(parent, cst.IfExp) and parent.test is not node:
                pending.append(parent)  # an arm of a choice (`row if c else 0`)
                continue
            if isinstance(parent, cst.Attribute | cst.Arg):
                call = self.parents.get(parent)
                if isinstance(call, cst.Call):
                    parts = self.cast_parts(call)
                    if parts is not None and parts[0] is node:
                        if not self.is_narrow_int(parts[1]):
                            pending.append(call)  # a cast: int64, or to a dtype the flow cannot tell
                        continue
                    if isinstance(parent, cst.Arg) and any(node is kept for kept in self.value_kept_from(call)):
                        pending.append(call)
                    continue  # else an argument of another call (a sink, or a value of its own)
            definition = self._definition_at.get(parent) if isinstance(parent, cst.AugAssign) else None
            definitions = [definition] if definition is not None else self._bound_to.get(node, [])
            for bound in definitions:
                if bound.name is not None:
                    pending += [read.node for read in self.reads_after(bound, bound.name)]
        return None

    @cached_property
    def _bound_to(self) -> dict[cst.CSTNode, list[Event]]:
        """The definitions taking the value of an expression as theirs (`x = node`, an element
        of `a, b = node, y`), by that expression."""
        found: dict[cst.CSTNode, list[Event]] = {}
        for definition in self._definition_at.values():
            if definition.kind == DEF and definition.value is not None:
                found.setdefault(definition.value, []).append(definition)
        return found

    def value_kept_from(self, node: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
        """The operands whose integer value, width included, `node` keeps: the tile of a
        broadcast (`x[:, None]`, `x[None, :]`), the bounds of a clamp (`tl.minimum(a, b)`,
        `tl.maximum(a, b)`), the values of a choice (`tl.where(c, a, b)`: `a`, `b`), the value a
        compiler hint passes on (`tl.multiple_of(a, n)`, `tl.max_contiguous(a, n)`), the arms of
        a conditional expression (`a if c else b`: `arms`), the value an assignment expression
        binds (`(r := a)`: `a`); none for other nodes."""
        if isinstance(node, cst.NamedExpr):
            return (node.value,)
        viewed = axes_view_of(node)
        if viewed is not None:
            return (viewed,)
        if isinstance(node, cst.IfExp):
            return tuple(self.arms(node))
        if isinstance(node, cst.Call) and self.imports.is_tl(node.func, *HINT_FNS):
            return tuple(arg.value for arg in node.args[:1] if arg.keyword is None)
        if isinstance(node, cst.Call) and self.imports.is_tl(node.func, "minimum", "maximum"):
            return _arguments(node, (0, "x"), (1, "y"))
        if isinstance(node, cst.Call) and self.imports.is_tl(node.func, "where"):
            return _arguments(node, (1, "x"), (2, "y"))
        return ()

    def arms(self, node: cst.IfExp, spec: Assumptions | None = None) -> list[cst.BaseExpression]:
        """The values a conditional expression may be, in the specialisation `spec` (or in any):
        the arm its test picks there when every specialisation decides the test (the front end
        folds `a if IS_VARLEN else b` as it does an `if IS_VARLEN:`, `_decided`), both arms
        when the test is runtime (an `scf.if` yielding either) or `spec` leaves it open; a
        nested choice gives its own arms."""
        decided = self._decided(node.test, self.variants)
        picked = (
            [node.body, node.orelse]
            if decided is None
            else [
                node.body if outcome else node.orelse
                for outcome, assumed, _ in decided
                if spec is None or self.implications.consistent(assumed, spec)
            ]
        )
        return [value for arm in picked for value in (self.arms(arm, spec) if isinstance(arm, cst.IfExp) else [arm])]

    def index_arithmetic_multiply(
        self, node: cst.BaseExpression, spec: Assumptions, follow: bool
    ) -> cst.BinaryOperation | None:
        """The int32 multiply over a runtime index (program id, loop index, a do_not_specialize /
        typed size, a value chosen at run time) that `node` computes (see
        `int32_index_multiply`), neither of its operands read from memory or computed from a
        tensor (`_computed_from_data`): what else the value adds or chooses does not matter,
        `(pid * T + tl.load(idx)).to(tl.int64)` has wrapped in `pid * T` already, but a loaded
        value's product (`tl.load(idx) * T`, `i_c * BT` with `i_c` loaded) is no index
        arithmetic (ASC008 judges loaded offsets); an offset tile (`pid * BLOCK + tl.arange(0, BLOCK)`) is such
        arithmetic too when its multiply is over a program id or a task loop's index (a flattened
        program id: `task * BLOCK + tl.arange(0, BLOCK)`): a loop index's block
        (`i_d * BD + tl.arange(0, BD)` for `i_d` in `range(tl.cdiv(D, BD))`) stays within one
        dimension, and the cast before its stride is the right place."""
        multiply = self.int32_index_multiply(node, spec, follow, over_data=False)
        if multiply is not None and self.flags(node, spec) & TENSOR and not self.flags(multiply, spec) & PROGRAMS:
            return None
        return multiply

    def _computed_from_data(
        self, node: cst.BaseExpression, spec: Assumptions, seen: tuple[cst.CSTNode, ...] = ()
    ) -> bool:
        """`node`'s value, in `spec`, reads memory or a tensor computed at run time other than the
        index vector `tl.arange(...)`, directly or in the definitions reaching the names it reads."""
        flags = self.flags(node, spec)
        if not flags & (LOADED | TENSOR):
            return False
        if flags & LOADED:
            return True
        if isinstance(node, cst.Call):
            return not self.imports.is_tl(node.func, "arange")
        if isinstance(node, cst.BinaryOperation):
            parts: list[cst.BaseExpression | None] = [node.left, node.right]
        elif isinstance(node, cst.UnaryOperation):
            parts = [node.expression]
        elif isinstance(node, cst.NamedExpr):
            parts = [node.value]
        elif isinstance(node, cst.IfExp):
            parts = list(self.arms(node, spec))
        elif isinstance(node, cst.Name):
            parts = [value for value in self.values_reaching(node, spec) if value not in seen] or [None]
        else:
            return True
        return any(part is None or self._computed_from_data(part, spec, (*seen, part)) for part in parts)

    def int32_index_multiply(
        self,
        node: cst.BaseExpression,
        spec: Assumptions,
        follow: bool = True,
        seen: tuple[cst.CSTNode, ...] = (),
        over_data: bool = True,
    ) -> cst.BinaryOperation | None:
        """A multiply in int32 over an index or an unannotated size (`B * T`: an int32 whenever it
        is not 1, the value Triton specialises) (an int64 operand makes it an int64 multiply; a factor
        known to be 0 or 1 cannot wrap, nor a quotient times its divisor, nor the divisor of a
        quotient; a remainder is below its divisor, so of its dividend only a multiply written there
        counts, `i_b * T % B`, not one made for a name it reads, `offs % stride`) written in `node`'s
        arithmetic, or with `follow` also made in the definitions reaching the names it reads (in
        `spec`) or in the arguments of `tl.minimum` / `tl.maximum` / `tl.cdiv` and the values
        `tl.where` chooses between. Without `over_data`, a multiply with an operand computed
        from data (`_computed_from_data`: `tl.load(x) * pid`) is passed over. A shift left
        multiplies too (`pid << LOG`; by 1 when shifted by 0). A broadcast (`offs[:, None]`) and
        an int32 cast (`(i_b * T).to(tl.int32)`) keep the value their operand computes."""
        if isinstance(node, cst.BinaryOperation):
            shifted = isinstance(node.operator, cst.LeftShift)
            if (
                isinstance(node.operator, MULTIPLYING)
                and self.flags(node, spec) & (INDEX | SPEC)
                and not (self.flags(node.left, spec) | self.flags(node.right, spec)) & WIDE
                and self.constant_int(node.left, spec) not in (0, 1)
                and self.constant_int(node.right, spec) not in ((0,) if shifted else (0, 1))
                and (shifted or not self.is_quotient_times_divisor(node, spec))
                and (over_data or not any(self._computed_from_data(side, spec) for side in (node.left, node.right)))
            ):
                return node
            if isinstance(node.operator, cst.Modulo):
                # a remainder is below its divisor, but a multiply written in its dividend wraps
                # before the `%` (`i_b * T % B`); one made for a name it reads (`offs % stride`)
                # is the name's own
                found = self.int32_index_multiply(node.left, spec, False, (*seen, node.left), over_data)
                if found is not None:
                    return found
            # a quotient is the size of its dividend (`pid // (NV * NT)`: the divisor's product
            # is below the grid)
            parts: list[cst.BaseExpression] = (
                [node.right]
                if isinstance(node.operator, cst.Modulo)
                else [node.left]
                if isinstance(node.operator, cst.FloorDivide)
                else [node.left, node.right]
            )
        elif isinstance(node, cst.UnaryOperation):
            parts = [node.expression]
        elif isinstance(node, cst.NamedExpr):  # `(r := i_b * T)`: the value it binds
            parts = [node.value]
        elif isinstance(node, cst.IfExp):  # the arms `spec` compiles (`arms`)
            parts = self.arms(node, spec)
        elif (viewed := axes_view_of(node)) is not None:  # a broadcast keeps each value
            parts = [viewed]
        elif isinstance(node, cst.Call) and (cast := self.cast_parts(node)) and self._type_name(cast[1]) == "int32":
            parts = [cast[0]]  # `(i_b * T).to(tl.int32)` keeps the wrapped value
        elif not follow:
            return None
        elif isinstance(node, cst.Name):
            parts = [value for value in self.values_reaching(node, spec) if value is not None and value not in seen]
        elif isinstance(node, cst.Call) and self.imports.is_tl(node.func, "minimum", "maximum", "cdiv"):
            parts = [arg.value for arg in node.args]
        elif isinstance(node, cst.Call) and self.imports.is_tl(node.func, "where"):
            parts = list(self.value_kept_from(node))  # the values chosen, not the test
        else:
            return None
        for part in parts:
            found = self.int32_index_multiply(part, spec, follow, (*seen, part), over_data)
            if found is not None:
                return found
        return None

    def values_reaching(self, node: cst.BaseExpression, spec: Assumptions | None) -> list[cst.BaseExpression | None]:
        """The values of the definitions reaching a read of a name (in the specialisation
        `spec`, or in any); None for a definition with no expression (a parameter)."""
        event = self.read_events.get(node) if isinstance(node, cst.Name) else None
        if event is None:
            return []
        if self._tracks_many(event):
            reached = self._reached(event, spec or NOTHING).definitions
        else:
            reached = [
                d for d, assumed, _ in self._reach(event) if spec is None or self.implications.consistent(assumed, spec)
            ]
        return [definition.value for definition in reached]

    def reaching(self, node: cst.Name) -> list[Event]:
        """The definitions reaching a read of the kernel body (none for other names), in
        program order."""
        use = self.read_events.get(node)
        if use is None:
            return []
        if self._tracks_many(use):
            return self._reached(use).definitions
        return list(dict.fromkeys(definition for definition, _, _ in self._reach(use)))

    def held_test(self, test: cst.BaseExpression) -> list[Event]:
        """The assignments a test reads its condition through: for a name of the body (or `not
        name`), the definitions reaching the read, when each assigns it a combination of tests
        (`and` / `or`, `&` / `|`: `need_state = USE_H0 or in_halo`, then `if need_state:`);
        else none (a parameter, a loop index, an augmented assignment, a value carried round a
        loop, another value)."""
        held = self._held_tests.get(test)
        if held is None:
            held = self._held_tests[test] = self._held_test(test)
        return held

    def _held_test(self, test: cst.BaseExpression) -> list[Event]:
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        use = self.read_events.get(test) if isinstance(test, cst.Name) else None
        if use is None:
            return []
        pairs = self._reached(use).pairs if self._tracks_many(use) else [(d, c) for d, _, c in self._reach(use)]
        if not pairs or any(carrier is not None for _, carrier in pairs):
            return []
        definitions = list(dict.fromkeys(definition for definition, _ in pairs))
        if any(not isinstance(d.node, cst.Name) or not _combines_tests(d.value) for d in definitions):
            return []
        return definitions

    def def_flags(self, event: Event) -> int:
        """Where a definition's value comes from, in any specialisation."""
        return _union(self._def_variants(event))

    def _evaluate(
        self,
        node: cst.BaseExpression,
        part: Callable[[cst.BaseExpression], list[Variant]],
        name: Callable[[cst.Name], list[Variant]],
    ) -> list[Variant]:
        """The variants of an expression from those of its parts (`part`) and names (`name`)."""
        if type(node) is cst.Name:
            return CONSTANT if node.value in ("True", "False", "None") else name(node)
        if type(node) in _CONSTANT_LEAVES:
            return CONSTANT
        if type(node) is cst.Attribute:
            if node.attr.value in _METADATA_ATTRS or self.imports.resolve(node):
                return CONSTANT
            return part(node.value)
        if type(node) is cst.Call:
            return self._call_variants(node, part)
        if type(node) is cst.Lambda:
            return [(TENSOR, NOTHING)]
        if type(node) is cst.NamedExpr:  # `(r := v)` is the value of `v`
            return part(node.value)
        if type(node) is cst.IfExp:
            return self._choice_variants(node, part)
        if type(node) is cst.BooleanOperation:
            return self._short_circuit_variants(node, part)
        if type(node) is cst.Comparison:
            if isinstance(node.comparisons[0].operator, (cst.Is, cst.IsNot)):
                return CONSTANT  # Triton evaluates `is` / `is not` while compiling (`p is None`)
            return [
                (flags & ~WIDTHS, assumed)
                for flags, assumed in _combine(self.implications, [part(sub) for sub in _value_parts(node)])
            ]
        return _combine(self.implications, [part(sub) for sub in _value_parts(node)])

    def _decided(
        self, test: cst.BaseExpression, part: Callable[[cst.BaseExpression], list[Variant]]
    ) -> list[tuple[bool, Assumptions, int]] | None:
        """(outcome, the test outcome assumed, flags) for each value of a test every
        specialisation decides: a literal, or a compile-time constant keyed as an `if` test is
        (`test_key`); None for a test that is runtime in some specialisation."""
        truth = literal_truth(test)
        if truth is not None:
            return [(truth, NOTHING, CONST)]
        flags = _union(part(test))
        if flags & ~BOXED != CONST:
            return None
        key, polarity = self._test_keys.get(test) or self._test_keys.setdefault(test, self.implications.key(test))
        return [(outcome, frozenset({(key, polarity == outcome)}), flags) for outcome in (True, False)]

    def _choice_variants(self, node: cst.IfExp, part: Callable[[cst.BaseExpression], list[Variant]]) -> list[Variant]:
        """A conditional expression: the arm's value in each specialisation deciding its test
        (`(i_t == NT - 1) if TAIL_MODE == 2 else (TAIL_MODE == 1)` is a constant in modes 0
        and 1); else the union of its parts."""
        outcomes = self._decided(node.test, part)
        if outcomes is None:
            return _combine(self.implications, [part(node.test), part(node.body), part(node.orelse)])
        return _split(self.implications, outcomes, part(node.body), part(node.orelse))

    def _short_circuit_variants(
        self, node: cst.BooleanOperation, part: Callable[[cst.BaseExpression], list[Variant]]
    ) -> list[Variant]:
        """`and` / `or` with an operand every specialisation decides, folded in each: `False and
        x` and `True or x` are that constant, `True and x` and `False or x` are `x` (either
        operand order: the compiler folds `x or True` too). A folded constant over a runtime
        operand is still a tensor to Triton's front end (it builds `x.logical_or(True)`), so it
        is BOXED; a test of constants alone keeps the union of its parts."""
        parts = [part(node.left), part(node.right)]
        absorbing = isinstance(node.operator, cst.Or)
        for decided, other in ((node.left, 1), (node.right, 0)):
            if all(flags & ~BOXED == CONST for flags, _ in parts[other]):
                continue  # the other operand is a constant too: nothing to fold
            outcomes = self._decided(decided, part)
            if outcomes is not None:
                constant = [(BOXED, NOTHING)]
                return _split(
                    self.implications, outcomes, *((constant, parts[other]) if absorbing else (parts[other], constant))
                )
        return _combine(self.implications, parts)

    def _call_variants(self, node: cst.Call, part: Callable[[cst.BaseExpression], list[Variant]]) -> list[Variant]:
        imports, func = self.imports, node.func
        if imports.is_tl(func, "program_id", "num_programs"):
            return [(PID, NOTHING)]
        if imports.is_tl(func, *_LOAD_FNS):
            return [(LOADED, NOTHING)]
        if imports.is_tl(func, "constexpr"):
            return CONSTANT
        if isinstance(func, cst.Attribute) and imports.method_name(func) == "cast":  # `x.to(t)`, `x.cast(t)`
            return self._cast(part(func.value), node.args[0].value if node.args else None)
        if imports.is_tl(func, "where"):  # a tensor, int64 when a value it chooses is (type promotion)
            chosen = _combine(self.implications, [part(value) for value in _arguments(node, (1, "x"), (2, "y"))])
            return [(TENSOR | flags & WIDE, assumed) for flags, assumed in chosen]
        if imports.is_tl(func, "full", "zeros"):  # a tensor of its dtype: `tl.full([], 0, tl.int64)`
            dtype = call_argument(node, 2, "dtype") if imports.is_tl(func, "full") else call_argument(node, 1, "dtype")
            return self._cast([(TENSOR, NOTHING)], dtype)
        if not self._is_pure_call(node):
            # a tensor whatever its arguments: no rule asks more of it, and not following
            # them keeps tile computations (`tl.dot`, `tl.where`...) out of the analysis
            return [(TENSOR, NOTHING)]
        args = _combine(self.implications, [part(arg.value) for arg in node.args])
        cast = self.cast_parts(node) if imports.is_tl(func, "cast") else None
        if cast is not None:
            return self._cast(args, cast[1])
        return args if node.args else CONSTANT

    def _cast(self, variants: list[Variant], dtype: cst.BaseExpression | None) -> list[Variant]:
        """A value cast to `dtype`: wide when that is int64, narrow when a smaller int, neither
        when another type."""
        if dtype is None:
            return variants
        name = self._type_name(dtype)
        width = WIDE if name in WIDE_INTS else NARROW if name in NARROW_INTS else 0
        if name == "uint32":
            width |= UNSIGNED
        return [((flags & ~WIDTHS) | width, assumed) for flags, assumed in variants]

    def is_wide_int(self, dtype: cst.BaseExpression) -> bool:
        """A 64-bit integer type: `tl.int64` or `tl.uint64` (any alias, or a name bound to it:
        `bound`), or its name as a string. Either makes the arithmetic on the value 64-bit, and
        a cast to either comes too late for a multiply that wrapped in int32 before it."""
        return self._type_name(dtype) in WIDE_INTS

    def is_narrow_int(self, dtype: cst.BaseExpression) -> bool:
        """`tl.int32` or a smaller integer type (any alias, or a name the body binds to it), or
        its name as a string."""
        return self._type_name(dtype) in NARROW_INTS

    def _type_name(self, dtype: cst.BaseExpression, hops: int = 0) -> str:
        """The last part of the type `dtype` names (`int64` of `tl.int64`, any alias, a name
        bound to it, its name as a string, a name of the body every definition reaching it
        binds to that type: `i64 = tl.int64`, which Triton keeps a dtype), else ""."""
        dtype = self.bound(dtype)
        full = self.imports.resolve(dtype)
        if full is not None:
            return full.rsplit(".", 1)[-1]
        held = self.values_reaching(dtype, None) if hops < _MAX_BINDING_HOPS else []
        if held and all(value is not None for value in held):
            names = {self._type_name(value, hops + 1) for value in held if value is not None}
            return names.pop() if len(names) == 1 else ""
        return str_literal(dtype) or ""

    def _is_pure_call(self, node: cst.Call) -> bool:
        """Scalar helpers whose result is only as runtime as their arguments (cdiv, min...)."""
        imports, func = self.imports, node.func
        return (
            imports.is_tl(func, *_PURE_SCALAR_FNS)
            or imports.is_triton(func, "cdiv")
            or (isinstance(func, cst.Name) and func.value in _PY_PURE_FNS)
        )

    def _name_variants(self, node: cst.Name) -> list[Variant]:
        use = self.read_events.get(node)
        if use is None:  # not a read of this kernel's body (a synthetic name): the coarse facts
            return [(self.name_flags.get(node.value, CONST), NOTHING)]
        return self._memoised(use, lambda: self._read_variants(use))

    def _def_variants(self, event: Event) -> list[Variant]:
        if event.value_flags is not None:
            bounds = self._index_bounds(event)
            if not bounds:
                return [(event.value_flags, NOTHING)]
            widths = _combine(self.implications, [self.variants(bound) for bound in bounds])
            return [(event.value_flags | flags & WIDE, assumed) for flags, assumed in widths]
        value, boxed = event.value, BOXED if event.boxed else 0
        if value is None:  # a definition with neither flags nor a value: nothing known
            return [(0, NOTHING)]
        return self._memoised(event, lambda: [(flags | boxed, a) for flags, a in self.variants(value)])

    def index_start(self, event: Event) -> cst.BaseExpression | None:
        """The value the index a `range` / `tl.range` loop defines (`event`) takes on its first
        trip, when written: `bos` of `for t in range(bos, eos)`, which the index then counts on
        from (`t` is `bos + k`); None for a loop with one bound (it starts at 0), another
        loop's index or another definition."""
        loop = event.loops[-1] if event.loops else None
        if event.value_flags is None or not event.value_flags & LOOP or loop is None:
            return None
        if not isinstance(loop.node, cst.For) or loop.node.target is not event.node:
            return None
        bounds = range_bounds(loop)
        return bounds[0] if bounds is not None and len(bounds) > 1 else None

    def _index_bounds(self, event: Event) -> list[cst.BaseExpression]:
        """The bounds and step of the `tl.range` / `range` loop whose index `event` defines (none
        for other definitions, such as a device function's parameter a caller passes a loop
        index for): Triton gives the index the widest of their int types (code_generator's
        `iv_type`), so an int64 bound makes it int64."""
        if not event.value_flags or not event.value_flags & LOOP or not event.loops:
            return []
        return list(range_bounds(event.loops[-1]) or ())

    def _read_variants(self, use: Event) -> list[Variant]:
        """A name's flags where it is read, from the definitions reaching the read."""
        if self._tracks_many(use):
            many = self._read_union(use)
            if many is not None:
                return many
        reach = self._reach(use)
        if not reach:  # a global (Triton admits only constexpr ones), or read before any definition
            return CONSTANT if use.name not in self.defs else [(self.name_flags[use.name], NOTHING)]
        found = []
        for definition, assumed, carrier in reach:
            chosen = PHI if self._chosen_at_run_time(definition, use, carrier) else 0
            if carrier is not None:  # round a loop, where its value may depend on this very read
                found.append((self._coarse_def(definition, self.name_flags) | chosen, assumed))
                continue
            for flags, also in self._def_variants(definition):
                if self.implications.consistent(assumed, also):
                    found.append((flags | chosen, assumed | also))
        return _normalise(found)

    def _read_union(self, use: Event) -> list[Variant] | None:
        """`_read_variants` when its answer is the union of every variant's flags (more than
        `_MAX_KEYS` tests are involved), worked out without listing every combination of
        outcomes of the paths; None when fewer tests are involved."""
        reached = self._reached(use)
        if not reached.pairs:
            return None
        keys, union = set(reached.keys), 0
        seeded: dict[Assumptions, list[Event]] = {}
        for definition, carrier in reached.pairs:
            chosen = PHI if self._chosen_at_run_time(definition, use, carrier) else 0
            if carrier is not None:
                union |= self._coarse_def(definition, self.name_flags) | chosen
                continue
            for flags, also in self._def_variants(definition):
                if also and also not in seeded:
                    seeded[also] = self._reached(use, also).outside_loops
                if not also or definition in seeded[also]:
                    union |= flags | chosen
                    keys.update(key for key, _ in also)
        return [(union, NOTHING)] if len(keys) > _MAX_KEYS else None

    def _tracks_many(self, use: Event) -> bool:
        """Whether a walk from `use` tracks more than `_MAX_KEYS` tests, where `_reached`
        answers without listing the paths' combinations of outcomes (`_reach`)."""
        defs = self.defs.get(use.name or "", [])
        if len(defs) < 2 or not self._walks_down:
            return False
        tracked = self._guard_keys(defs, use.index)
        start = self._read_outcomes(use) or NOTHING
        return len(tracked | {key for key, _ in start}) > _MAX_KEYS

    def _reached(self, use: Event, seed: Assumptions = NOTHING) -> _Reached:
        """What `_reach(use)` finds, keeping its results consistent with `seed`, without each
        result's combination of outcomes: the (definition, loop it comes round) pairs, and
        the tests whose outcomes those results record.

        `_reach` tells paths apart by every tracked outcome they passed, so n tests in a row
        give 2^n paths. Here a path forgets an outcome once no event left to walk tests its
        key (`_live_keys`): only those can end a path, so the same pairs are reached. A result
        records a test when a walk state leading to it passed the test."""
        name = use.name
        start = self._read_outcomes(use)
        if start is None or not self.implications.consistent(start, seed):
            return _Reached([], frozenset())
        tracked = self._guard_keys(self.defs.get(name or "", []), use.index) | {key for key, _ in start}
        live, run_end = self._live_keys, self._run_end
        memo: _ArriveMemo = {}
        parents: dict[_State, list[_State]] = {}  # each state reached -> the states it was reached from
        found: dict[tuple[Event, Loop | None], None] = {}
        results: list[_State] = []
        stack: list[_State] = []

        def step_back(event: Event, assumed: Assumptions, carrier: Loop | None, parent: _State | None) -> None:
            for pred, around in self._steps_back(event, carrier):
                keep = live[pred.index] if around is None else live[pred.index] & self._fixed_round[around.header.index]
                state = (pred, frozenset(p for p in assumed if p[0] in keep), around)
                if state not in parents:
                    parents[state] = []
                    stack.append(state)
                if parent is not None:
                    parents[state].append(parent)

        step_back(use, start | {p for p in seed if p[0] in tracked}, None, None)
        while stack:
            state = stack.pop()
            event, _, carrier = state
            assumed = self._arrive(state, tracked, memo)
            if assumed is None:
                continue
            if event.kind == DEF and event.name == name:
                found.setdefault((event, carrier))
                results.append(state)
                continue
            step_back(run_end[event.index], assumed, carrier, state)
        keys = {key for key, _ in start}
        leading, pending = set(results), list(results)  # the states some result is reached through
        while pending:
            state = pending.pop()
            if state[2] is None and state[0].conds:
                keys.update(self._tested(state[0].conds, tracked))
            for parent in parents[state]:
                if parent not in leading:
                    leading.add(parent)
                    pending.append(parent)
        return _Reached(sorted(found, key=lambda pair: pair[0].index), frozenset(keys))

    def _tested(self, conds: tuple[tuple[Branch, bool], ...], tracked: frozenset[str]) -> Iterator[str]:
        """The keys of the tracked constexpr tests of the `if` arms `conds` (what `_outcomes`
        records)."""
        return (branch.key[0] for branch, _ in conds if branch.key[0] in tracked and branch.test_is_constexpr)

    @cached_property
    def _live_keys(self) -> list[frozenset[str]]:
        """For each event, the keys of the tests of its `if` arms and of every earlier event's:
        all a backward walk from it can still test (`_walks_down`)."""
        live: list[frozenset[str]] = []
        keys: frozenset[str] = frozenset()
        for event in self.events:
            new = {branch.key[0] for branch, _ in event.conds} - keys
            if new:
                keys = keys | new
            live.append(keys)
        return live

    @cached_property
    def _walks_down(self) -> bool:
        """Every step back from an event goes to an earlier one, except from a loop header
        round the loop (to the body's last event, whose live keys cover the rest of the walk)."""
        headers = self._loop_at_header
        return all(
            pred.index < event.index for event in self.events if event.index not in headers for pred in event.pred
        )

    def _reach(self, use: Event) -> list[tuple[Event, Assumptions, Loop | None]]:
        """(definition, test outcomes on the path, the loop it comes round) for each definition
        of the read name reaching `use`. Outcomes are tracked for the constexpr tests that
        guard a definition of the name and for the read's own; round a loop (past its
        back-edge, inside its body) only for the tests the loop cannot change (`_fixed_round`)."""
        name = use.name
        start = self._read_outcomes(use)
        if start is None:
            return []
        defs = self.defs.get(name or "", [])
        tracked = self._guard_keys(defs, use.index) | {key for key, _ in start}
        if len(defs) == 1 and defs[0].index < use.index and self._fixed_in_shared_loops(defs[0], use, tracked):
            assumed = self._outcomes(defs[0].conds, tracked, start)
            return [(defs[0], assumed, None)] if assumed is not None else []
        roots = [(pred, start, around) for pred, around in self._steps_back(use, None)]
        found = self._reach_from(roots, name or "", tracked)
        return sorted(found, key=_reach_order)

    def _reach_from(self, roots: list[_State], name: str, tracked: frozenset[str]) -> frozenset[_State]:
        """The (definition of `name`, outcomes, loop come round) results a backward walk finds
        from the states `roots`, tracking the tests `tracked`.

        Every read of a name shares the walk's states: what each state leads to is remembered
        per (name, tracked tests), so the reads of a name walk its live range once, not once
        each. States lead to each other in cycles round loops: they are completed a strongly
        connected component at a time (Tarjan), whose states all lead to the same results.
        A state completed after a test stood in for its outcome while it was being worked out
        (as a runtime one) is not remembered past the walk."""
        key = (name, tracked)
        if key in self._walking:  # asked again while working out a test it passes: kept apart
            return self._walk_states(roots, name, tracked, {})
        self._walking.add(key)
        try:
            return self._walk_states(roots, name, tracked, self._reach_cache.setdefault(key, {}))
        finally:
            self._walking.discard(key)

    def _walk_states(
        self, roots: list[_State], name: str, tracked: frozenset[str], results: dict[_State, frozenset[_State]]
    ) -> frozenset[_State]:
        """`_reach_from` with `results` the results known of states (added to)."""
        stand_ins, doubtful = self.stand_in_tests, []
        memo: _ArriveMemo = {}
        span_end, defs = self._span_end, self.defs.get(name, [])
        indices = [definition.index for definition in defs]
        order: dict[_State, int] = {}  # states of this walk not yet completed -> visit number
        low: dict[_State, int] = {}
        own: dict[_State, _State] = {}  # the result a state is itself (a definition of the name)
        successors: dict[_State, list[_State]] = {}
        component: list[_State] = []

        def visit(state: _State) -> Iterator[_State]:
            order[state] = low[state] = len(low)
            component.append(state)
            steps: list[_State] = []
            successors[state] = steps
            assumed = self._arrive(state, tracked, memo)
            if assumed is None:
                return iter(steps)
            event, _, carrier = state
            if event.kind == DEF and event.name == name:
                own[state] = (event, assumed, carrier)
                return iter(steps)
            end = span_end[event.index]
            at = bisect_left(indices, event.index)  # the nearest definition in the span, if any
            if at and indices[at - 1] >= end.index:
                steps.append((defs[at - 1], assumed, carrier))
            elif end is not event:  # the walk down the span reaches nothing its end does not
                steps.append((end, assumed, carrier))
            else:
                steps.extend((pred, assumed, around) for pred, around in self._steps_back(end, carrier))
            return reversed(steps)  # last first, as the stack-based walk went

        def complete(head: _State) -> None:
            members = []
            while True:
                member = component.pop()
                members.append(member)
                if member is head:
                    break
            inside = set(members)
            parts = [results[step] for member in members for step in successors[member] if step not in inside]
            mine = [own[member] for member in members if member in own]
            reached = parts[0] if len(parts) == 1 and not mine else frozenset(mine).union(*parts)
            for member in members:
                results[member] = reached
                del order[member], successors[member]
            if self.stand_in_tests != stand_ins:
                doubtful.extend(members)

        for root in roots:
            if root in results:
                continue
            path = [(root, visit(root))]
            while path:
                state, pending = path[-1]
                step = next(pending, None)
                if step is None:
                    path.pop()
                    if path:
                        parent = path[-1][0]
                        low[parent] = min(low[parent], low[state])
                    if low[state] == order[state]:
                        complete(state)
                elif step in results:
                    continue
                elif step not in order:
                    path.append((step, visit(step)))
                else:  # on the current component stack
                    low[state] = min(low[state], order[step])
        found = frozenset(result for root in roots for result in results[root])
        for state in doubtful:
            del results[state]
        return found

    def _steps_back(self, event: Event, carrier: Loop | None) -> Iterator[tuple[Event, Loop | None]]:
        """`event`'s predecessors, each with the loop a backward walk has come round once it
        steps there: a step from a loop header to a later event goes round the loop."""
        loop = self._loop_at_header.get(event.index) if carrier is None else None
        for pred in event.pred:
            yield pred, loop if loop is not None and pred.index >= event.index else carrier

    def _arrive(self, state: _State, tracked: frozenset[str], memo: _ArriveMemo) -> Assumptions | None:
        """The outcomes a backward walk holds once it has stepped onto `state`'s event (its `if`
        arms add theirs); None where the path ends: arms contradicting the outcomes, or an
        event before the loop the walk came round (reached without going round it). Events
        of one arm share `conds`: `memo` keeps each (arms, outcomes) pair's answer."""
        event, assumed, carrier = state
        if carrier is not None:
            if event.index not in carrier.body:
                return None
            tracked = tracked & self._fixed_round[carrier.header.index]
        if not event.conds:
            return assumed
        key = (id(event.conds), assumed, carrier)
        if key not in memo:
            memo[key] = self._outcomes(event.conds, tracked, assumed)
        return memo[key]

    def _fixed_in_shared_loops(self, definition: Event, use: Event, keys: frozenset[str]) -> bool:
        """Whether the tests `keys` keep their outcomes round every loop holding both events
        (else a definition in one arm may reach the other arm on a later trip)."""
        fixed = self._fixed_round
        return all(keys <= fixed[loop.header.index] for loop in definition.loops if loop in use.loops)

    @cached_property
    def _fixed_round(self) -> dict[int, frozenset[str]]:
        """For each loop (by its header's index), the keys of the tests whose outcome is the
        same on every trip: tests reading no name the loop defines, its index included (a
        constexpr test on a `tl.static_range` index changes from trip to trip)."""
        read_by_key: dict[str, set[str]] = {}
        for branch in self.branches:
            names = read_by_key.setdefault(branch.key[0], set())
            names.update(node.value for node in walk(branch.node.test) if isinstance(node, cst.Name))
        fixed = {}
        for loop in self.loops:
            defined = {event.name for event in self.events_in(loop.body, DEF)}
            fixed[loop.header.index] = frozenset(key for key, names in read_by_key.items() if not names & defined)
        return fixed

    @cached_property
    def _run_end(self) -> list[Event]:
        """For each event, the earliest event a backward walk reaches from it through a run of
        events that are each the only predecessor of the next, emitted just before it, under
        the same `if` arms and loops, and define nothing: such a walk only carries its state
        down the run, so a walk may go straight to the run's end (the state it reaches there
        stands for the run's: whenever it was seen at one of them, it was seen at the end)."""
        return self._straight_back(through_definitions=False)

    @cached_property
    def _span_end(self) -> list[Event]:
        """`_run_end` through definitions: a walk for one name goes straight to the end of the
        span, or to the nearest definition of the name in it (indices in a span are
        consecutive)."""
        return self._straight_back(through_definitions=True)

    def _straight_back(self, through_definitions: bool) -> list[Event]:
        """For each event, the earliest event reached from it through events that are each the
        only predecessor of the next, emitted just before it, under the same `if` arms and
        loops (and, unless `through_definitions`, define nothing)."""
        ends: list[Event] = []
        for event in self.events:
            pred = event.pred[0] if len(event.pred) == 1 else None
            passable = (
                pred is not None
                and pred.index == event.index - 1
                and (through_definitions or pred.kind != DEF)
                and pred.conds == event.conds
                and pred.loops == event.loops
            )
            ends.append(ends[pred.index] if passable and pred is not None else event)
        return ends

    @cached_property
    def _loop_at_header(self) -> dict[int, Loop]:
        return {loop.header.index: loop for loop in self.loops}

    def _read_outcomes(self, use: Event) -> Assumptions | None:
        """The constexpr test outcomes under which `use` is compiled: those of its `if` arms
        (`_outcomes`) and of the conditional expressions whose arm holds it (`x.to(tl.int64) if
        IS_VARLEN else x` reads `x` in the arm compiled where `IS_VARLEN` is false only, as
        `if IS_VARLEN:` would); None when they contradict."""
        assumed = self._outcomes(use.conds, None, NOTHING)
        for choice, arm in use.choices:
            if assumed is None:
                return None
            if not self.is_constexpr(choice.test):
                continue
            key, polarity = self.choice_key(choice)
            outcome = polarity == arm
            if self.implications.contradicts(assumed, key, outcome):
                return None
            assumed = assumed | {(key, outcome)}
        return assumed

    def _outcomes(
        self, conds: tuple[tuple[Branch, bool], ...], tracked: frozenset[str] | None, assumed: Assumptions
    ) -> Assumptions | None:
        """`assumed` plus the constexpr test outcomes the `if` arms `conds` require (for the
        test keys in `tracked`, or all when None); None when they contradict, or when an arm
        is one a literal test never takes (`if False:`, as a device function's `if FLAG:` reads
        inlined with the `False` its call passes) or no specialisation compiles (`decided`)."""
        decided = self.decided
        for branch, arm in conds:
            truth = literal_truth(branch.node.test)
            if truth is not None and truth != arm:
                return None
            key, polarity = branch.key
            if decided and branch.test_is_constexpr and self.implications.contradicts(decided, key, polarity == arm):
                return None
            if (tracked is not None and key not in tracked) or not branch.test_is_constexpr:
                continue
            outcome = polarity == arm
            if self.implications.contradicts(assumed, key, outcome):
                return None
            if (key, outcome) not in assumed:
                assumed = assumed | {(key, outcome)}
        return assumed

    @staticmethod
    def _guard_keys(defs: list[Event], before: int) -> frozenset[str]:
        """Keys of the constexpr tests guarding the definitions made before `before`."""
        return frozenset(
            branch.key[0]
            for definition in defs
            if definition.index < before
            for branch, _ in definition.conds
            if branch.test_is_constexpr
        )

    @staticmethod
    def _chosen_at_run_time(definition: Event, use: Event, carrier: Loop | None) -> bool:
        """Whether run-time control flow picks this definition at the read: it comes round a
        runtime loop, sits in a runtime loop the read is after, or under a runtime test the
        read is not under (Triton makes these `scf.for` / `scf.if` results)."""
        if carrier is not None and carrier.kind != "static_range":
            return True
        if any(loop.kind != "static_range" and loop not in use.loops for loop in definition.loops):
            return True
        return any(not branch.test_is_constexpr and (branch, arm) not in use.conds for branch, arm in definition.conds)

    def mark_task_indices(self) -> None:
        """Flag the index of each `for` task loop TASK, once the task loops are known. Finding
        them worked out flags without TASK, so those are forgotten; TASK joins only indices
        already flagged LOOP (runtime), so no other answer given meanwhile changes."""
        indices = [
            event
            for loop in self.loops
            if loop.is_task_loop and len(range_bounds(loop) or ()) == 3  # not a trip counter (`_counts_task_trips`)
            for event in self.events_in(loop.body, DEF)
            if event.loops[-1] is loop and event.value_flags is not None and event.value_flags & LOOP
        ]
        for event in indices:
            event.value_flags = (event.value_flags or 0) | TASK
        if indices:
            self._memo.clear()
            self.__dict__.pop("name_flags", None)  # the cached coarse facts

    # ---- coarse facts: one set of flags per name, whatever the path ---------------------
    def _coarse_of(self, key: cst.BaseExpression | Event) -> int:
        """The coarse flags of an expression, a definition or a read."""
        if not isinstance(key, Event):
            return self._coarse(key, self.name_flags)
        if key.kind == DEF:
            return self._coarse_def(key, self.name_flags)
        return self.name_flags.get(key.name or "", CONST)

    @cached_property
    def name_flags(self) -> dict[str, int]:
        """Union of the flags of every definition of each name, to a fixpoint: the facts for
        values carried round loops and for names that are not reads of the body. Flags only
        grow, so a name is worked out again only when a name its definitions read has grown."""
        table: dict[str, int] = {}
        readers: dict[str, dict[str, None]] = {}  # name -> the names whose definitions read it (ordered sets)
        pending = dict.fromkeys(self.defs)  # names to work out, in order
        while pending:
            name = next(iter(pending))
            del pending[name]
            read: dict[str, None] = {}
            union = 0
            for event in self.defs[name]:
                union |= self._coarse_def(event, table, read)
            for source in read:
                readers.setdefault(source, {})[name] = None
            if union != table.get(name):
                table[name] = union
                pending.update(readers.get(name, {}))
        return table

    def _coarse_def(self, event: Event, table: dict[str, int], read: dict[str, None] | None = None) -> int:
        if event.value_flags is not None:
            bounds = self._index_bounds(event)
            return event.value_flags | WIDE & _union([(self._coarse(bound, table, read), NOTHING) for bound in bounds])
        if event.value is None:
            return 0
        return self._coarse(event.value, table, read) | (BOXED if event.boxed else 0)

    def _coarse(self, node: cst.BaseExpression, table: dict[str, int], read: dict[str, None] | None = None) -> int:
        """Flow-insensitive flags: a name stands for the union of all its definitions (the
        names looked up in `table` are added to `read`)."""

        def part(sub: cst.BaseExpression) -> list[Variant]:
            return self._evaluate(sub, part, name)

        def name(node: cst.Name) -> list[Variant]:
            if read is not None:
                read[node.value] = None
            return [(table.get(node.value, CONST if node.value not in self.defs else 0), NOTHING)]

        return _union(part(node))

    # ---- def-use along control-flow paths ----------------------------------------------
    def feasible_together(self, a: Event, b: Event) -> bool:
        """False when a and b sit on arms of `if`s whose outcomes exclude each other
        (`Implications.contradicts`: the same constexpr test with opposite outcomes, including
        the two arms of one `if`, or tests no value of a constexpr passes together, `MODE < 1`
        and `MODE >= 1`), also the arm of a test mixing a constexpr with runtime values, which
        runs only where its constexpr part allows (`not USE_X and n > 0`: where `USE_X` is
        false; `Branch.constexpr_facts`)."""
        if not a.conds or not b.conds:
            return True
        implications = self.implications
        held, mixed = self._path_outcomes(a)
        if any(
            implications.contradicts(held, branch.key[0], branch.key[1] == arm)
            for branch, arm in b.conds
            if branch.test_is_constexpr
        ):
            return False
        b_held, b_mixed = self._path_outcomes(b)
        return not (
            conflicting(mixed, implications.held_facts(b_held) + b_mixed)
            or conflicting(b_mixed, implications.held_facts(held))
        )

    def _path_outcomes(self, event: Event) -> tuple[Assumptions, tuple[_Fact, ...]]:
        """The outcomes of the constexpr tests of the arms around `event`, and what the runtime
        tests of the others say of constexprs (`Branch.constexpr_facts`)."""
        outcomes: dict[str, bool] = {}
        mixed: tuple[_Fact, ...] = ()
        for branch, arm in event.conds:
            if branch.test_is_constexpr:
                key, polarity = branch.key
                outcomes[key] = polarity == arm
            else:
                mixed += branch.constexpr_facts(arm)
        return frozenset(outcomes.items()), mixed

    def compiled_under(self, event: Event, outcomes: Assumptions) -> bool:
        """Whether a specialisation with these constexpr test outcomes compiles the `if` arms
        and the arms of the conditional expressions around `event`
        (`specialisations.decided_outcomes`): the front end folds a choice whose test it decides
        (`x if FLAG else y`) and compiles only the arm chosen."""
        return all(self.arm_compiled_under(branch, arm, outcomes) for branch, arm in event.conds) and all(
            self.choice_compiled_under(choice, arm, outcomes) for choice, arm in event.choices
        )

    def choice_compiled_under(self, choice: cst.IfExp, arm: bool, outcomes: Assumptions) -> bool:
        """Whether a specialisation with these constexpr test outcomes compiles the arm of the
        conditional expression `choice` (True: its body, the value before `if`)."""
        if not outcomes:
            return True
        key, polarity = self.choice_key(choice)
        return not self.implications.contradicts(outcomes, key, polarity == arm) or not self.is_constexpr(choice.test)

    def test_text(self, key: str) -> str:
        """The test a specialisation's key names (`test_key`: `cuisnotNone`), as written in the
        body (`test_text`: `cu is not None`): how a message says when."""
        tests = [*(branch.node.test for branch in self.branches), *self._test_keys]
        return next((test_text(test) for test in tests if test_key(test)[0] == key), key)

    def outcomes_text(self, outcomes: Assumptions) -> str:
        """How a message says when: `` `IS_VARLEN` is false and `cu is not None` is true``."""
        return " and ".join(f"`{self.test_text(key)}` is {str(outcome).lower()}" for key, outcome in sorted(outcomes))

    def choice_key(self, choice: cst.IfExp) -> tuple[str, bool]:
        """A conditional expression's test keyed as an `if` test is (`test_key`)."""
        return self._test_keys.get(choice.test) or self._test_keys.setdefault(
            choice.test, self.implications.key(choice.test)
        )

    @cached_property
    def conditional_expressions(self) -> list[cst.IfExp]:
        """The conditional expressions (`x if c else y`) around the body's events, outermost first."""
        return list(dict.fromkeys(choice for event in self.events for choice, _ in event.choices))

    def arm_compiled_under(self, branch: Branch, arm: bool, outcomes: Assumptions) -> bool:
        """Whether a specialisation with these constexpr test outcomes compiles the arm of
        `branch` (True: its body)."""
        return not (
            branch.test_is_constexpr and self.implications.contradicts(outcomes, branch.key[0], branch.key[1] == arm)
        )

    def reads_after(self, start: Event, name: str) -> list[Event]:
        """Data reads of `name` reachable from `start` before any redefinition of it, along
        paths whose constexpr branch outcomes agree with those at `start`."""
        return [e for e in self._nearest(start, name, forward=True) if e.kind == READ and not e.metadata]

    def passed_on(self, read: Event) -> list[Event] | None:
        """For a read that is the whole value an assignment binds to a plain name (`state =
        h0`: the same value under another name, not a use of it), the data reads of that name
        the binding reaches (`reads_after`); None for any other read."""
        bindings = [d for d in self._bound_to.get(read.node, []) if isinstance(d.node, cst.Name) and d.name]
        if len(bindings) != 1 or bindings[0].value is not read.node:
            return None
        binding = bindings[0]
        assert binding.name is not None
        return self.reads_after(binding, binding.name)

    def reads_consumed_after(self, start: Event, name: str) -> list[Event]:
        """Data reads of `name` evaluated before `start` in its statement by an operation that
        holds `start`'s node, so runs after it: in `x = x + tl.dot(x, y)` the addition reads
        `x` once the dot has run."""
        found = []
        for event in reversed(self.events[: start.index]):
            if event.statement is not start.statement:
                break
            if event.kind == READ and event.name == name and not event.metadata:
                consumer = self._consumer(event.node)
                if consumer is not None and consumer is not start.node and self._holds(consumer, start.node):
                    found.append(event)
        return found[::-1]

    def _consumer(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The innermost operation taking `node` as an operand (`x + y` for `x`, the call for an
        argument or for `x.to(...)`), or None."""
        parent = self.parents.get(node)
        while parent is not None and not isinstance(parent, _OPERATIONS):
            parent = self.parents.get(parent)
        return parent

    def _holds(self, outer: cst.CSTNode, node: cst.CSTNode | None) -> bool:
        while node is not None and node is not outer:
            node = self.parents.get(node)
        return node is outer

    def tile_reads_after(
        self, start: Event, name: str, assumed: Assumptions = NOTHING
    ) -> list[tuple[Event, Assumptions, Event]]:
        """The data reads after `start` of the value `name` holds there, of `name` and of its
        aliases (`_alias_reads_after`), each with the constexpr test outcomes under which it
        reads that value, consistent with `assumed`, and the read carrying the value to it
        round a loop: the first read on the way that comes before `start` (the name a
        loop-carried clobber carries into the next trip), else the read itself. A read binding
        the value as it is to other names (`_bound_as_is`: `b = a`, `a, b = b, a`, `b = a if T
        else c`, `(b := a)`) stands for their reads after the binding, in turn: it is no read
        itself unless the value is also used otherwise (`tl.store(p, (b := a))`)."""
        reads = [(read, assumed) for read in self.reads_after(start, name) if self.compiled_under(read, assumed)]
        pending: list[tuple[Event, Assumptions, Event | None]] = [
            (read, held, None) for read, held in reads + self._alias_reads_after(start, name, assumed)
        ]
        found: dict[tuple[int, Assumptions], tuple[Event, Event]] = {}
        followed: set[tuple[int, Assumptions]] = set()
        while pending:
            read, held, carrier = pending.pop()
            carrier = carrier or (read if read.index < start.index else None)
            bindings, used = self._bound_as_is(read)
            if used:
                found.setdefault((read.index, held), (read, carrier or read))
            for binding, chosen in bindings:
                joined = held | chosen
                if (binding.index, joined) in followed or not self.implications.consistent(joined, joined):
                    continue
                followed.add((binding.index, joined))
                assert binding.name is not None
                pending.extend(
                    (later, joined, carrier)
                    for later in self.reads_after(binding, binding.name)
                    if self.feasible_together(start, later) and self.compiled_under(later, joined)
                )
        ordered = sorted(found, key=lambda key: (key[0], sorted(key[1])))
        return [(found[key][0], key[1], found[key][1]) for key in ordered]

    def _bound_as_is(self, read: Event) -> tuple[list[tuple[Event, Assumptions]], bool]:
        """The definitions binding the value `read` reads, as it is, to a name (`b = a`, `x = y =
        a`, `(b := a)`, `b = ident(a)` (a device function returning it), paired in `a, b = b, a` or
        collected by `*rest`, also `x, y = (a, b) if T else (b, a)`, through
        the arms of a choice `b = a if T else c` with the test outcome choosing it where the
        front end folds the choice), and whether the value is also used otherwise, a data read:
        not when it is only bound, discarded or compared with `is` (`(b := a) is not None`)."""
        node: cst.CSTNode = read.node
        held, bindings = NOTHING, []
        position, count = None, 0  # the item of a tuple or list written out holding the value, of `count`
        while True:
            parent = self.parents.get(node)
            if isinstance(parent, cst.IfExp) and node is not parent.test:
                if self.is_constexpr(parent.test):
                    key, polarity = self.choice_key(parent)
                    held = held | {(key, polarity == (node is parent.body))}
            elif isinstance(parent, cst.NamedExpr) and node is parent.value and position is None:
                bindings.append((self._definition_at[parent.target], held))
            elif isinstance(parent, cst.Arg) and isinstance(call := self.parents.get(parent), cst.Call):
                if self.returned_argument(call) is not node:
                    break
                node = call  # `ident(a)`: a device function giving the value back as it is
                continue
            elif isinstance(parent, cst.Element) and position is None:
                items = self.parents.get(parent)
                if not isinstance(items, (cst.Tuple, cst.List)):
                    return bindings, True
                position = next(i for i, element in enumerate(items.elements) if element is parent)
                count = len(items.elements)
                node = items
                continue
            else:
                break
            node = parent
        if position is None and (
            isinstance(parent, cst.Expr)
            or (
                isinstance(parent, cst.Comparison)
                and all(isinstance(target.operator, (cst.Is, cst.IsNot)) for target in parent.comparisons)
            )
        ):
            return bindings, False
        if not (isinstance(parent, cst.Assign | cst.AnnAssign) and parent.value is node):
            return bindings, True
        targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
        names = [target if position is None else _unpacked_item(target, count, position) for target in targets]
        bound = [self._definition_at[name] for name in names if isinstance(name, cst.Name)]
        return bindings + [(definition, held) for definition in bound], len(bound) < len(targets)

    def _alias_reads_after(
        self, start: Event, name: str, assumed: Assumptions = NOTHING
    ) -> list[tuple[Event, Assumptions]]:
        """Data reads reachable from `start` of the other names that hold the value `name`
        holds there, bound to it by plain name-to-name assignments (`b_keep = b_a`, chained, or
        `a, b = x, y`), views of it, or a choice of such (`b_l = b_at if T else b_a`): an alias
        is the same value, not a copy. Each read comes with the constexpr test outcomes under
        which it is that value (`_origin_choices`: where `T` holds `b_l` is `b_at`, not `b_a`;
        a choice made at run time may pick either, assuming nothing), consistent with `assumed`
        and with the arms around `start` and the read. Each name is followed until it is
        redefined, along paths whose constexpr branch outcomes agree with those at `start`."""
        others = self._alias_groups.get(name, set()) - {name}
        if not others:
            return []
        origins = self._origin_choices(self.reaching_defs(start, name), assumed)
        found: dict[tuple[int, Assumptions], Event] = {}
        for other in sorted(others):
            for read in self.reads_after(start, other):
                defs = [d for d in self.reaching_defs(read, other) if self.feasible_together(start, d)]
                for index, held in self._origin_choices(defs, assumed):
                    for origin, where in origins:
                        joined = held | where
                        if (
                            origin == index
                            and self.implications.consistent(held, where)
                            and self.compiled_under(read, joined)
                            and self.compiled_under(start, joined)
                        ):
                            found.setdefault((read.index, joined), read)
        return [(found[key], key[1]) for key in sorted(found, key=lambda key: (key[0], sorted(key[1])))]

    def value_is_read(self, node: cst.BaseExpression, alongside: Event | None = None) -> bool:
        """Whether the value of `node`, an expression of the body, is read: used otherwise than
        bound through pure arithmetic to a name (`x = node * s`, `x += node`, `x = node.to(t)`),
        or bound so to a name whose value is read in turn. With `alongside`, only reads feasible
        together with it count (its constexpr specialisations). A bare expression statement
        discards the value; passed to a call, stored, returned, tested or unpacked, it is read.
        Asked once per expression and arm of `alongside` (its `conds`, which decide feasibility)."""
        key = (node, None if alongside is None else id(alongside.conds))
        known = self._values_read.get(key)
        if known is None:
            known = self._values_read[key] = self._value_is_read(node, alongside)
        return known

    def _value_is_read(self, node: cst.BaseExpression, alongside: Event | None) -> bool:
        pending: list[cst.CSTNode] = [node]
        followed: set[int] = set()
        while pending:
            bindings = self._bindings(pending.pop())
            if bindings is None:
                return True
            for binding in bindings:
                if binding.index not in followed and binding.name is not None:
                    followed.add(binding.index)
                    pending.extend(
                        read.node
                        for read in self.reads_after(binding, binding.name)
                        if alongside is None or self.feasible_together(read, alongside)
                    )
        return False

    def _bindings(self, node: cst.CSTNode) -> list[Event] | None:
        """The definitions the value of `node` flows into through pure arithmetic only (none when
        a bare expression statement discards it), or None when anything else uses it."""
        child, parent = node, self.parents.get(node)
        while isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation, cst.Attribute)):
            if isinstance(parent, cst.Attribute):  # `x.to(t)`: a cast, its receiver's value
                call = self.parents.get(parent)
                if not (
                    isinstance(call, cst.Call) and call.func is parent and self.imports.method_name(parent) == "cast"
                ):
                    return None
                parent = call
            child, parent = parent, self.parents.get(parent)
        if isinstance(parent, cst.Expr):
            return []
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and parent.value is child:
            target: cst.CSTNode = parent.targets[0].target
        elif isinstance(parent, cst.AnnAssign) and parent.value is child:
            target = parent.target
        elif isinstance(parent, cst.AugAssign):
            target = parent  # `x += v`: the definition is the augmented assignment, reading `x` and `v`
        else:
            return None
        definition = self._definition_at.get(target)
        return [definition] if definition is not None else None

    def binding(self, node: cst.NamedExpr) -> Event | None:
        """The definition an assignment expression makes (`(bos := v)`: of `bos`, valued `v`)."""
        return self._definition_at.get(node.target)

    @cached_property
    def _definition_at(self) -> dict[cst.CSTNode, Event]:
        """Each definition by the node it is at (a target name, an augmented assignment)."""
        return {definition.node: definition for definitions in self.defs.values() for definition in definitions}

    def value_origins(self, name: cst.Name) -> list[tuple[Event, Assumptions]]:
        """The definitions whose value a read of `name` holds: through aliases and views
        (`a2 = a.to(t)`, `b = a`, `b = x if T else y`) back to those computing it, a
        parameter's included, each with the constexpr test outcomes under which it is that one
        (`_origin_choices`)."""
        return [(self.events[index], held) for index, held in self._origin_choices(self.reaching(name))]

    def _origin_choices(self, defs: list[Event], assumed: Assumptions = NOTHING) -> list[tuple[int, Assumptions]]:
        """The definitions whose value `defs` hold, through aliases back to the one computing
        it, each with the constexpr test outcomes (beyond `assumed`) under which it is that one:
        those of a choice the front end folds (`view_choices`), and of the `if` arms an alias is
        bound in when their test is decided (`if T: b = x` then `else: b = y` is `x` where `T`
        holds, as `b = x if T else y` is). An alias chosen at run time may be either."""
        origins: dict[tuple[int, Assumptions], None] = {}
        seen: set[tuple[int, Assumptions]] = set()
        pending = [(definition, NOTHING) for definition in defs]
        while pending:
            definition, held = pending.pop()
            if (definition.index, held) in seen:
                continue
            seen.add((definition.index, held))
            sources = self._alias_choices(definition)
            if not sources:
                origins[(definition.index, held)] = None
                continue
            arms = self.decided_arms(definition)
            for source, where in sources:
                joined = held | where | arms
                if (
                    self.implications.consistent(joined, joined)
                    and self.implications.consistent(joined, assumed)
                    and len(seen) < _MAX_ORIGIN_STEPS
                ):
                    pending.extend((d, joined) for d in self.reaching_defs(self.read_events[source], source.value))
        return sorted(origins, key=lambda origin: (origin[0], sorted(origin[1])))

    def _origins(self, defs: list[Event]) -> set[int]:
        """The definitions whose value `defs` hold, in some specialisation (`_origin_choices`)."""
        return {index for index, _ in self._origin_choices(defs)}

    def decided_arms(self, event: Event) -> Assumptions:
        """The constexpr test outcomes of the `if` arms and conditional expressions around
        `event` whose test every specialisation decides: where it is compiled."""
        outcomes = [(branch.key[0], branch.key[1] == arm) for branch, arm in event.conds if branch.test_is_constexpr]
        for choice, arm in event.choices:
            if self.is_constexpr(choice.test):
                key, polarity = self.choice_key(choice)
                outcomes.append((key, polarity == arm))
        return frozenset(outcomes)

    def _alias_choices(self, definition: Event) -> list[tuple[cst.Name, Assumptions]]:
        """The names a definition binds its target to when it is an alias, each with the
        constexpr test outcomes under which it is that one (`view_choices`): the name itself or
        a view of it (`a = x`, `a = x.to(t)`, `a = tl.trans(x)`, `a = x if T else y`, `(a :=
        tl.trans(x))`, or such a value paired with `a` in `a, b = x, y`; unpacking `a, b = x` is
        not one)."""
        target, value = definition.node, definition.value
        if not (isinstance(target, cst.Name) and value is not None):
            return []
        sources = [(source, held) for source, held in self.view_choices(value) if source in self.read_events]
        if not sources:
            return []
        named = self.parents.get(target)
        if isinstance(named, cst.NamedExpr) and named.value is value:  # `(a := x.to(t))`
            return sources
        for small in getattr(definition.statement, "body", ()):
            if isinstance(small, cst.Assign):
                targets = [assigned.target for assigned in small.targets]
            elif isinstance(small, cst.AnnAssign):
                targets = [small.target]
            else:
                continue
            if any(_bound_value(assigned, small.value, target) is value for assigned in targets):
                return sources
        return []

    def view_source(self, node: cst.BaseExpression) -> cst.Name | None:
        """The named tile `node` is, seen through casts, transposes (`tl.trans(x)`, `x.trans()`,
        `x.T`), reshapes and views (`x[None, :]`, `tl.expand_dims(x, 0)`), minus, parentheses
        and a choice between views of one tile: the same tile in the unified buffer, not a copy
        (`x + 0.0` is one); the name `:=` binds to a value that is no view of a tile (`(b_a :=
        tl.load(p))` is the tile `b_a`). None when `node` is no such view of a name (`view_choices` sees
        through a choice between two tiles)."""
        while True:
            if isinstance(node, cst.Name):
                return node
            if isinstance(node, cst.IfExp):  # `p.to(tl.float8e5) if FP8 else p.to(v.dtype)`: `p` either way
                body, orelse = self.view_source(node.body), self.view_source(node.orelse)
                return body if body is not None and orelse is not None and body.value == orelse.value else None
            if (
                isinstance(node, cst.NamedExpr)
                and isinstance(node.target, cst.Name)
                and not self.view_choices(node.value)
            ):
                return node.target  # `(b_a := tl.load(p))`: a new tile, which `b_a` names
            viewed = self._viewed(node)
            if viewed is None:
                return None
            node = viewed

    def view_names(self, node: cst.BaseExpression) -> list[cst.Name]:
        """The names through which `node`, a view of one tile (`view_source`), reads it: one, or
        one per arm of a choice between views of that tile (`p.to(a) if FP8 else p.to(b)`).
        Empty when `node` is no view of one tile."""
        while True:
            if isinstance(node, cst.Name):
                return [node]
            if isinstance(node, cst.IfExp):
                if self.view_source(node) is None:
                    return []
                return [*self.view_names(node.body), *self.view_names(node.orelse)]
            viewed = self._viewed(node)
            if viewed is None:
                return []
            node = viewed

    def view_choices(self, node: cst.BaseExpression) -> list[tuple[cst.Name, Assumptions]]:
        """The named tiles `node` may be (`view_source`), each with the constexpr test outcomes
        under which it is that one. Triton's front end folds a choice whose test it decides
        (`_decided`: `b_at if TRANSPOSED else b_a` compiles as `b_at` where `TRANSPOSED` holds,
        as `b_a` where not); one made at run time is an `scf.if` yielding the chosen tile as it
        is, no copy, so it may be either, assuming nothing. An arm that is no view (`x + 0.0`, a
        copy) adds no tile. Empty when `node` is no view of a name in any arm."""
        source = self.view_source(node)
        if source is not None:
            return [(source, NOTHING)]
        while not isinstance(node, cst.IfExp):
            viewed = self._viewed(node)
            if viewed is None:
                return []
            node = viewed
        arms = self.view_choices(node.body), self.view_choices(node.orelse)
        decided = self._decided(node.test, self.variants)
        if decided is None:
            return [*arms[0], *arms[1]]
        return [
            (tile, held | assumed)
            for outcome, assumed, _ in decided
            for tile, held in arms[0 if outcome else 1]
            if self.implications.consistent(held, assumed)
        ]

    def _viewed(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """The expression a view (`view_source`) other than a choice wraps, one level down; None
        for anything else."""
        viewed = axes_view_of(node)
        if viewed is not None:
            return viewed
        if type(node) is cst.NamedExpr:  # `(b_t := tl.trans(b))`: the value it binds
            return node.value
        if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
            return node.expression
        if type(node) is cst.Attribute and node.attr.value == "T" and self.imports.resolve(node) is None:
            return node.value
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and self.imports.method_name(node.func) in _VIEWS
        ):
            return node.func.value  # `x.to(...)`, `x.trans()`: the tile's own method
        if isinstance(node, cst.Call) and self.imports.is_tl(node.func, *_VIEWS) and node.args:
            return node.args[0].value
        if isinstance(node, cst.Call):  # `ident(x)`: a device function returning its parameter, inlined
            return self.returned_argument(node)
        return None

    @cached_property
    def _alias_groups(self) -> dict[str, set[str]]:
        """Each name bound by or to an alias -> the names linked to it by aliases."""
        groups: dict[str, set[str]] = {}
        for name, definitions in self.defs.items():
            for definition in definitions:
                for source, _ in self._alias_choices(definition):
                    group = groups.get(name, {name}) | groups.get(source.value, {source.value})
                    for member in group:
                        groups[member] = group
        return groups

    def written(self, node: cst.CSTNode) -> cst.CSTNode:
        """The source node to report for `node`: itself, or the augmented assignment `x *= D`
        for the `x * D` the flow takes as its value (built here, it is in no tree)."""
        return self._augmented.get(node, node)

    @cached_property
    def _augmented(self) -> dict[cst.CSTNode, cst.CSTNode]:
        return {
            definition.value: definition.node
            for definitions in self.defs.values()
            for definition in definitions
            if type(definition.node) is cst.AugAssign and definition.value is not None
        }

    def reaching_defs(self, point: Event, name: str) -> list[Event]:
        """Definitions of `name` that reach `point` along some feasible control-flow path."""
        return [e for e in self._nearest(point, name, forward=False) if e.kind == DEF]

    def defs_entering(self, loop: Loop, name: str) -> list[Event]:
        """Definitions of `name` that reach `loop` from outside it (not along its back-edges)."""
        found: dict[int, Event] = {}
        for entry in loop.header.pred:
            if entry.index in loop.body:
                continue
            own = entry.kind == DEF and entry.name == name
            for definition in [entry] if own else self.reaching_defs(entry, name):
                found[definition.index] = definition
        return [found[index] for index in sorted(found)]

    def runs_every_trip(self, loop: Loop, event: Event) -> bool:
        """Whether every path through one trip of `loop` that comes back to its header passes
        `event` (no `continue` or branch skips it)."""
        stack = [e for e in loop.header.succ if e.index in loop.body]
        seen: set[int] = set()
        while stack:
            current = stack.pop()
            if current is loop.header:
                return False
            if current is event or current.index in seen or current.index not in loop.body:
                continue
            seen.add(current.index)
            stack.extend(current.succ)
        return True

    def _nearest(self, start: Event, name: str, *, forward: bool) -> list[Event]:
        """Events naming `name` reachable from `start` (forwards or backwards) without crossing
        a definition of it, along paths feasible together with `start`, in program order. Walked
        once per start, name and direction."""
        key = (start.index, name, forward)
        known = self._nearest_found.get(key)
        if known is None:
            known = self._nearest_found[key] = self._walk_nearest(start, name, forward)
        return known

    def _walk_nearest(self, start: Event, name: str, forward: bool) -> list[Event]:
        found, seen = [], set()
        feasible: dict[int, bool] = {}  # by `id(event.conds)`: events of one arm share it
        stack = list(start.succ if forward else start.pred)
        while stack:
            event = stack.pop()
            if event.index in seen:
                continue
            arm = id(event.conds)
            if arm not in feasible:
                feasible[arm] = self.feasible_together(start, event)
            if not feasible[arm]:
                continue
            seen.add(event.index)
            if event.name == name:
                found.append(event)
                if event.kind == DEF:
                    continue
            stack.extend(event.succ if forward else event.pred)
        return sorted(found, key=lambda e: e.index)

    # ---- pointers ----------------------------------------------------------------------
    def pointer_base(self, node: cst.BaseExpression | None) -> str | None:
        """`p` for `p`, `p + off - x`, `tl.make_block_ptr(p + off, ...)`, `tl.advance(p, ...)`,
        `(q := p + off)`."""
        name = self._base_name(node)
        return name.value if name is not None else None

    def _base_name(self, node: cst.BaseExpression | None) -> cst.Name | None:
        imports = self.imports
        while node is not None:
            if isinstance(node, cst.Name):
                return node
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
                node = self._pointer_term(node)
            elif isinstance(node, cst.Call) and imports.is_tl(node.func, "make_block_ptr"):
                node = pointer_arg(node)
            elif isinstance(node, cst.Call) and (advance := self.advance_parts(node)) is not None:
                node = advance[0]
            elif isinstance(node, cst.NamedExpr):  # `(p := p + d) + offs`: the address it binds
                node = node.value
            else:
                return None
        return None

    def _pointer_term(self, node: cst.BinaryOperation) -> cst.BaseExpression:
        """The term of a sum (`a + b - c`) an address goes on in: the first, unless an index is
        added to a pointer after it (`tl.load(i_n + cu_seqlens)`, `off * K + k + tl.arange(0,
        K)`): a first term on no name that may hold a pointer, then one added that is such a name."""
        terms = _sum_terms(node)
        first = terms[0][0]
        base = self._base_name(first)
        if base is not None and self._may_point(base.value):
            return first
        later = (term for term, added in terms[1:] if added and isinstance(term, cst.Name))
        return next((term for term in later if self._may_point(term.value)), first)

    def _may_point(self, name: str) -> bool:
        """Whether a name may hold a pointer: a parameter as the host passes it (an unannotated
        one of a kernel or a device function), or a value computed from one."""
        return bool(self.name_flags.get(name, 0) & (SPEC | ARG))

    def offset_terms(self, address: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
        """The terms added to the base pointer: `a` and `b` in `p + a - b` and `a + p - b` (also
        in a block pointer's base)."""
        node: cst.BaseExpression | None = address
        while node is not None:
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
                pointer = self._pointer_term(node)
                yield from (term for term, _ in reversed(_sum_terms(node)) if term is not pointer)
                node = pointer
            elif isinstance(node, cst.Call) and node.args:
                node = pointer_arg(node)
            else:
                node = None

    def pointer_root(self, node: cst.BaseExpression | None) -> str | None:
        """`pointer_base`, followed through a local name every definition reaching it binds to
        an address on one base (`p_cu = cu_seqlens + i_n`, then `tl.load(p_cu + 1)`: `cu_seqlens`);
        a name bound to no address, or to addresses on different bases, stays itself."""
        return self._root(node, frozenset())

    def _root(self, node: cst.BaseExpression | None, followed: frozenset[Event]) -> str | None:
        name = self._base_name(node)
        if name is None:
            return None
        base, roots = name.value, set()
        for definition in self.reaching(name):
            if definition in followed:
                continue  # `p = p + BT` in a loop: its other definitions decide
            root = base if definition.value is None else self._root(definition.value, followed | {definition})
            if root is None:
                return base
            roots.add(root)
        return roots.pop() if len(roots) == 1 else base

    def loaded_from(self, node: cst.Name) -> frozenset[str]:
        """The pointers (`pointer_root`) every definition reaching a read of a local name binds
        a value loaded through: `b_h0 = tl.load(p_h0)` (`p_h0` on `h0`: `h0`), `.to(...)` of or
        arithmetic on such a value, directly or through a name holding one (`b_s = b_h0 * 2`,
        `b_h0 += tl.load(h0 + o)`). Empty when some definition binds no such value (`b_h0 =
        tl.zeros(...)` in the other arm), for a parameter, and for no name of the body."""
        return self._loaded(node, frozenset())

    def _loaded(self, node: cst.Name, followed: frozenset[Event]) -> frozenset[str]:
        common: frozenset[str] | None = None
        for definition in self.reaching(node):
            if definition in followed:
                continue  # `b = b * g` round a loop: its other definitions decide
            if definition.value is None:
                return frozenset()
            roots = self._loads_in(definition.value, followed | {definition})
            common = roots if common is None else common & roots
            if not common:
                return frozenset()
        return common or frozenset()

    def _loads_in(self, value: cst.BaseExpression, followed: frozenset[Event]) -> frozenset[str]:
        """The pointers a value's loads go through, read through `.to(...)`, unary and binary
        operations and the names it reads (`_loaded`)."""
        if isinstance(value, cst.Name):
            return self._loaded(value, followed) if value in self.read_events else frozenset()
        if isinstance(value, cst.BinaryOperation):
            return self._loads_in(value.left, followed) | self._loads_in(value.right, followed)
        if isinstance(value, cst.UnaryOperation):
            return self._loads_in(value.expression, followed)
        if not isinstance(value, cst.Call):
            return frozenset()
        if self.imports.is_tl(value.func, "load"):
            root = self.pointer_root(pointer_arg(value))
            return frozenset((root,)) if root is not None else frozenset()
        if isinstance(value.func, cst.Attribute) and self.imports.method_name(value.func) == "cast":
            return self._loads_in(value.func.value, followed)
        return frozenset()

    @cached_property
    def pointer_names(self) -> frozenset[str]:
        """Names used as the base of a memory access, or passed as an argument a device function
        uses as a pointer (`_load_tile(k, ...)` building `tl.make_block_ptr(tensor, ...)` from
        its `tensor`), followed back through definitions."""
        addresses = [pointer_arg(e.call) for e in self.calls_to(*MEMORY_FNS)]
        addresses += [argument for e in self.calls for argument in self.pointer_arguments(e.call)]
        names = {base for address in addresses if (base := self.pointer_base(address))}
        pending = list(names)
        while pending:
            for definition in self.defs.get(pending.pop(), ()):
                base = self.pointer_base(definition.value)
                if base and base not in names:
                    names.add(base)
                    pending.append(base)
        return frozenset(names)

    @cached_property
    def tensor_names(self) -> frozenset[str]:
        """Names the code shows hold tensors, never a specialised int (a constexpr has no
        `.dtype` and is no dot operand): pointers (`pointer_names`), names whose `.dtype` /
        `.shape` it reads, and the operands of `tl.dot`, also under `tl.trans`."""
        operands = [
            call_argument(e.call, position, keyword)
            for e in self.calls_to("dot")
            for position, keyword in ((0, "input"), (1, "other"))
        ]
        names = set()
        for operand in operands:
            while isinstance(operand, cst.Call) and self.imports.is_tl(operand.func, "trans"):
                operand = call_argument(operand, 0, "input")
            if isinstance(operand, cst.Name):
                names.add(operand.value)
        names |= {e.name for e in self.events if e.kind == READ and e.metadata and e.name}
        return self.pointer_names | names

    @cached_property
    def addresses(self) -> list[cst.BaseExpression]:
        """Pointer expressions: memory calls' pointer operands and values assigned to pointer
        names."""
        found = [pointer for e in self.calls_to(*MEMORY_FNS) if (pointer := pointer_arg(e.call)) is not None]
        for name in self.pointer_names:
            found += [event.value for event in self.defs.get(name, ()) if event.kind == DEF and event.value is not None]
        return found

    def is_block_pointer(self, node: cst.BaseExpression | None, hops: int = 0) -> bool:
        """A `tl.make_block_ptr` / `tl.advance` / `p.advance` value, directly or through a name,
        also a name of such a name, a few hops: `p_x = p` and the copy of an inlined helper's result
        (`p_x = ret·f` after `ret·f = tl.make_block_ptr(...)`, `p_x, p_y = ret0·f, ret1·f`)."""
        if isinstance(node, cst.Call):
            return self.imports.is_tl(node.func, "make_block_ptr") or self.advance_parts(node) is not None
        if isinstance(node, cst.Name) and hops < NAMES_FOLLOWED:
            return any(
                d.value is not None and self.is_block_pointer(d.value, hops + 1) for d in self.defs.get(node.value, ())
            )
        return False

    def sequences(self, node: cst.BaseExpression | None, hops: int = 0) -> list[list[cst.BaseExpression]] | None:
        """The items of each tuple or list literal a value may be: written there (`(H,)`), or
        bound to a name every definition reaching it binds one (`strides = (H,)`, one per arm of
        an `if`), a name of such a name too, a few hops (a block pointer's `strides` or `shape`
        named before the call); None when some value is no literal written out."""
        if isinstance(node, (cst.Tuple, cst.List)):
            return [[element.value for element in node.elements]]
        if not isinstance(node, cst.Name) or hops >= NAMES_FOLLOWED:
            return None
        reaching = self.reaching(node)
        found: list[list[cst.BaseExpression]] = []
        for definition in reaching:
            items = self.sequences(definition.value, hops + 1)
            if items is None:
                return None
            found += items
        return found or None

    def advance_step(self, definition: Event) -> cst.BaseExpression | None:
        """`step` for a definition advancing its own name, a pointer or an index: `p += step`,
        `p -= step`, `p = p + step`, `p = p - step`, `p = step + p` (the flow takes `p += step`
        as `p + step`), also under compiler hints, which return their argument (`p =
        tl.multiple_of(p + step, 16)`: `unhinted`), and through a copy (`advance_copied`: the
        inlined `p_x = _step(p_x, d)`, `p_x = ret·_step` after `ret·_step = p_x + d`)."""
        step = _step_of(definition.name, self.unhinted(definition.value))
        if step is not None:
            return step
        source = self.advance_copied(definition)
        return None if source is None else _step_of(definition.name, self.unhinted(source.value))

    def unhinted(self, node: cst.BaseExpression | None) -> cst.BaseExpression | None:
        """The value compiler hints around `node` pass on: `p + d` of `tl.max_contiguous(
        tl.multiple_of(p + d, 16), 16)` (`HINT_FNS` return their argument); `node` itself
        when it is no hint."""
        while isinstance(node, cst.Call) and self.imports.is_tl(node.func, *HINT_FNS):
            value = call_argument(node, 0, "input")
            if value is None:
                break
            node = value
        return node

    def advance_arms(self, definition: Event) -> list[tuple[cst.BaseExpression, Arms]]:
        """The step of an advance (`Flow.advance_step`) as each specialisation compiles it, with the
        constexpr `if` arms and conditional expressions it picks an arm of, outermost first: `p
        += HV * (V if HEADWISE else 1)` steps `HV * V` with `HEADWISE` and `HV * 1` without, as
        `if HEADWISE: p += HV * V` / `else: p += HV` does. The names in the step are read
        through their bindings, names of names too (`_chosen_values`): `step = HV * (V if
        HEADWISE else 1); p += step`, `if HEADWISE: step = HV * V` / `else: step = HV`, and `s
        = V if HEADWISE else 1; step = HV * s` are the same two arms. Arms the advance's own
        `if`s rule out are left out; a step with no such choice, or more than
        `_MAX_STEP_CHOICES`, is itself."""
        step = self.advance_step(definition)
        if step is None:
            return []
        found = []
        for value, bound in self._chosen_values(step, definition, NAMES_FOLLOWED):
            arms = self._choice_arms(value, bound, _MAX_STEP_CHOICES)
            if arms is None:
                return [(step, ())]
            found += [(v, taken) for v, taken in arms if self.compiled_under(definition, self.choice_outcomes(taken))]
        return found

    def _chosen_values(
        self, value: cst.BaseExpression, reader: Event, hops: int
    ) -> list[tuple[cst.BaseExpression, Arms]]:
        """`value`, read by `reader`, with each name in it that holds a constexpr choice
        (`_name_choices`) replaced by the values bound to it, parenthesised, each with the
        constexpr `if` arms it is bound in; names `hops` deep at most. Other names stay
        (`stride = HV` is read as `stride`), and so does all of `value` when the arms of two names
        would make more than `2 ** _MAX_STEP_CHOICES` values."""
        found: list[tuple[cst.BaseExpression, Arms]] = [(value, ())]
        names = [n for n in walk(value) if type(n) is cst.Name] if hops else []
        for name in names:
            choices = self._name_choices(name, reader, hops - 1)
            if choices is None:
                continue
            found = [
                (_bound_in(v, name, bound), (*arms, *own))
                for v, arms in found
                for bound, own in choices
                if self.implications.consistent(self.choice_outcomes(arms), self.choice_outcomes(own))
            ]
            if len(found) > 2**_MAX_STEP_CHOICES:
                return [(value, ())]
        return found

    def _name_choices(self, name: cst.Name, reader: Event, hops: int) -> list[tuple[cst.BaseExpression, Arms]] | None:
        """The values a name read by `reader` holds when they hold a constexpr choice, each with
        the constexpr `if` arms around its binding that are not around `reader`: its one
        binding reaching the read when that holds a constexpr conditional expression (`s = V
        if A else 1`), also through the names it reads (`_chosen_values`), or one per arm of
        constexpr `if`s (`if A: s = V` / `else: s = 1`; a binding before an `if A:` rebinding
        it, `s = 1`, is the other arm's). None for a name bound otherwise (a runtime `if`, one
        binding with no choice, a loop-carried or self-reading binding)."""
        reaching = self.reaching(name)
        if not reaching or any(d.value is None or d.name == reader.name for d in reaching):
            return None
        if len(reaching) == 1:
            (binding,) = reaching
            assert binding.value is not None
            values = self._chosen_values(binding.value, binding, hops)
            held = any(type(n) is cst.IfExp and self.is_constexpr(n.test) for v, _ in values for n in walk(v))
            return values if held or any(arms for _, arms in values) else None
        owns = [tuple(arm for arm in d.conds if arm not in reader.conds) for d in reaching]
        if not all(branch.test_is_constexpr for own in owns for branch, _ in own):
            return None
        if len(owns) == 2 and sorted(len(own) for own in owns) == [0, 1]:
            ((branch, arm),) = owns[0] or owns[1]
            owns = [own or ((branch, not arm),) for own in owns]
        if not all(owns):
            return None
        found = []
        for binding, own in zip(reaching, owns, strict=True):
            assert binding.value is not None
            found += [
                (v, (*own, *arms))
                for v, arms in self._chosen_values(binding.value, binding, hops)
                if self.implications.consistent(self.choice_outcomes(own), self.choice_outcomes(arms))
            ]
        return found

    def _choice_arms(
        self, value: cst.BaseExpression, taken: Arms, budget: int
    ) -> list[tuple[cst.BaseExpression, Arms]] | None:
        """`value` with each arm of its first constexpr conditional expression in place of it,
        recursively (an arm the choices `taken` already decide is the only one); None past
        `budget` choices."""
        choice = next((n for n in walk(value) if type(n) is cst.IfExp and self.is_constexpr(n.test)), None)
        if choice is None:
            return [(value, taken)]
        key, polarity = self.choice_key(choice)
        decided = {outcome for known, outcome in self.choice_outcomes(taken) if known == key}
        if not decided and budget == 0:
            return None
        found: list[tuple[cst.BaseExpression, Arms]] = []
        for arm in (True, False) if not decided else (decided.pop() == polarity,):
            picked = choice.body if arm else choice.orelse
            if choice.lpar and not picked.lpar and not isinstance(picked, cst.Name):
                picked = picked.with_changes(lpar=choice.lpar, rpar=choice.rpar)  # `HV * (V + 1)`
            changed = replaced(value, choice, picked)
            assert isinstance(changed, cst.BaseExpression)
            inner = self._choice_arms(changed, (*taken, (choice, arm)), budget - (not decided))
            if inner is None:
                return None
            found += inner
        return found

    def choice_outcomes(self, choices: Arms) -> Assumptions:
        """The constexpr test outcomes (`test_key`) under which the arms `choices` are compiled."""
        outcomes = set()
        for choice, arm in choices:
            key, polarity = choice.key if isinstance(choice, Branch) else self.choice_key(choice)
            outcomes.add((key, polarity == arm))
        return frozenset(outcomes)

    def advance_copied(self, definition: Event) -> Event | None:
        """For `p = t`, the last definition of `t` reaching it when each advances the `p`
        reaching this definition (`t = p + d`, `t = tl.advance(p, o)`): a device function's result copied
        back, as the inlined `p_x = _step(p_x, d)` is (`p_x = ret·_step` after `ret·_step =
        p_x + d`). Triton inlines the function: the same advance of `p` as written in place."""
        value, name = definition.value, definition.name
        if name is None or not isinstance(value, cst.Name) or value.value == name:
            return None
        sources = self.reaching(value)  # each arm's `return` of a helper returning in an `if`
        at_definition = set(self.reaching_defs(definition, name))
        if not sources or not at_definition:
            return None
        for source in sources:
            value = self.unhinted(source.value)
            advanced = _step_of(name, value) is not None or self._block_step(name, value) is not None
            read = _advanced_name(name, value)
            if not advanced or read is None or set(self.reaching(read)) != at_definition:
                return None
        return sources[-1]

    def block_advance(self, definition: Event) -> cst.BaseExpression | None:
        """`offsets` for a definition moving its own block pointer: `p = tl.advance(p, offsets)`
        (any alias of triton.language, `base=` / `offsets=` by keyword) or the tensor method
        `p = p.advance(offsets)`, also through a copy (`advance_copied`: `p = _adv(p, o)` of a
        device function returning `tl.advance(p, o)`); None for any other definition (`p =
        tl.advance(q, o)` binds `p` from `q`). The loop-carried block pointer of `scf.for` in
        the TTIR, as `p += step` is a loop-carried pointer."""
        step = self._block_step(definition.name, definition.value)
        if step is not None:
            return step
        source = self.advance_copied(definition)
        return None if source is None else self._block_step(definition.name, source.value)

    def _block_step(self, name: str | None, value: cst.BaseExpression | None) -> cst.BaseExpression | None:
        """`offsets` of `tl.advance(name, offsets)` / `name.advance(offsets)`."""
        parts = self.advance_parts(value) if isinstance(value, cst.Call) else None
        if parts is not None and isinstance(parts[0], cst.Name) and parts[0].value == name:
            return parts[1]
        return None

    def advance_parts(self, call: cst.Call) -> tuple[cst.BaseExpression | None, cst.BaseExpression | None] | None:
        """(block pointer, offsets) of a block pointer's advance: `tl.advance(p, offsets)` (any
        alias of triton.language, `base=` / `offsets=` by keyword) or the tensor method
        `p.advance(offsets)`; None for another call."""
        if self.imports.is_tl(call.func, "advance"):
            return call_argument(call, 0, "base"), call_argument(call, 1, "offsets")
        if isinstance(call.func, cst.Attribute) and self.imports.method_name(call.func) == "advance":
            return call.func.value, call_argument(call, 0, "offsets")
        return None

    @cached_property
    def call_events(self) -> dict[cst.Call, Event]:
        """Each call of the body -> its event."""
        return {event.call: event for event in self.calls}

    @cached_property
    def constexpr_bindings(self) -> dict[str, cst.BaseExpression]:
        """The names the body binds once, as `NAME: tl.constexpr = value`, in the order written:
        Python values to Triton's front end, so a test or a size reading one is folded
        (inductor's kernels write their tile sizes and index dtype so: `XBLOCK: tl.constexpr =
        1024`, `INDEX_DTYPE: tl.constexpr = tl.int64`)."""
        return {
            name: definitions[0].value
            for name, definitions in self.defs.items()
            if len(definitions) == 1 and definitions[0].value is not None and not definitions[0].boxed
        }

    def bound(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """What a name the body binds as a constexpr holds (`constexpr_bindings`), or a parameter
        it never rebinds that every call passes one constant for (`passed_constants`), a few
        hops; else the node."""
        for _ in range(_MAX_BINDING_HOPS):
            if not isinstance(node, cst.Name):
                break
            if node.value in self.constexpr_bindings:
                node = self.constexpr_bindings[node.value]
            elif node.value in self.passed_constants and len(self.defs.get(node.value, ())) == 1:
                node = self.passed_constants[node.value]
            else:
                break
        return node

    # ---- navigation -------------------------------------------------------------------
    @cached_property
    def parents(self) -> dict[cst.CSTNode, cst.CSTNode]:
        """Each node of the body -> the node holding it (built on first use)."""
        found: dict[cst.CSTNode, cst.CSTNode] = {}
        stack: list[cst.CSTNode] = [self.body]
        while stack:
            node = stack.pop()
            for child in child_nodes(node):
                found[child] = node
                stack.append(child)
        return found

    def only_after_arm(self, branch: Branch, arm: bool) -> list[Event]:
        """The events after the `if` that run only after its `arm` (True: the body) because the
        other arm ends in a `return`: the code after `if is_tail: ...; return` is that `if`'s
        `else` arm to Triton (it compiles both). Nothing for an `if` in a loop, where Triton
        takes no `return`."""
        orelse = branch.node.orelse
        returning = branch.node.body if not arm else orelse.body if isinstance(orelse, cst.Else) else None
        end = branch.orelse.stop
        if branch.point.loops or returning is None or not _ends_in_return(returning):
            return []
        start = branch.body if arm else branch.orelse
        pending = [s for e in self.events_in(start) for s in e.succ if s.index >= end]
        seen: dict[int, Event] = {}
        while pending:
            event = pending.pop()
            if event.index not in seen:
                seen[event.index] = event
                pending.extend(event.succ)
        return [seen[index] for index in sorted(seen)]

    def events_in(self, span: range, kind: str | None = None) -> Iterator[Event]:
        for event in self.events[span.start : span.stop]:
            if kind is None or event.kind == kind:
                yield event

    def calls_to(self, *names: str) -> Iterator[Event]:
        """Call events of `tl.<name>` in evaluation order."""
        imports = self.imports
        return (e for e in self.calls if imports.is_tl(e.call.func, *names))


def _ends_in_return(suite: cst.BaseSuite) -> bool:
    """The suite's last statement is a `return`."""
    last = suite_lines(suite)[-1]
    return isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and isinstance(
        last.body[-1], cst.Return
    )


def pointer_arg(call: cst.Call) -> cst.BaseExpression | None:
    """The pointer operand of a memory call: first positional, or `pointer=` / `base=`."""
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value in ("pointer", "base"):
            return arg.value
    return None


def _sum_terms(node: cst.BaseExpression) -> list[tuple[cst.BaseExpression, bool]]:
    """The terms of a chain of `+` and `-` (`a + b - c`), first to last, each with whether it is
    added."""
    terms = []
    while isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
        terms.append((node.right, isinstance(node.operator, cst.Add)))
        node = node.left
    terms.append((node, True))
    return terms[::-1]


def _arguments(call: cst.Call, *wanted: tuple[int, str]) -> tuple[cst.BaseExpression, ...]:
    """The arguments at these (position, keyword) places that the call passes (`call_argument`)."""
    found = (call_argument(call, position, keyword) for position, keyword in wanted)
    return tuple(argument for argument in found if argument is not None)


def call_argument(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    """The argument at `position` (counting positional arguments) or written `keyword=`."""
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    if position < len(positional):
        return positional[position]
    return next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == keyword), None)


def _step_of(name: str | None, value: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """`step` of `name + step`, `name - step`, `step + name`."""
    if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract))):
        return None
    if isinstance(value.left, cst.Name) and value.left.value == name:
        return value.right
    if isinstance(value.operator, cst.Add) and isinstance(value.right, cst.Name) and value.right.value == name:
        return value.left
    return None


def _advanced_name(name: str | None, value: cst.BaseExpression | None) -> cst.Name | None:
    """The read of `name` an advance of it makes (`p` of `p + d`, `d + p`, `tl.advance(p, o)`,
    `p.advance(o)`)."""
    candidates: list[cst.BaseExpression | None] = []
    if isinstance(value, cst.BinaryOperation):
        candidates = [value.left, value.right]
    elif isinstance(value, cst.Call):
        candidates = [call_argument(value, 0, "base")]
        if isinstance(value.func, cst.Attribute):
            candidates.append(value.func.value)
    return next((c for c in candidates if isinstance(c, cst.Name) and c.value == name), None)


def _items(value: cst.BaseExpression, count: int) -> list[cst.BaseExpression] | None:
    """The value each of `count` names unpacking `value` is bound to, when it is a tuple or list
    of `count` items written out, or a conditional expression choosing between such (`bos, eos
    = (a, b) if IS_VARLEN else (x, y)` binds `bos` to `a if IS_VARLEN else x`, a choice on the
    same test); else None."""
    if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == count:
        return [e.value for e in value.elements]
    if isinstance(value, cst.IfExp):
        body, orelse = _items(value.body, count), _items(value.orelse, count)
        if body is None or orelse is None:
            return None
        return [cst.IfExp(test=value.test, body=b, orelse=o) for b, o in zip(body, orelse, strict=True)]
    return None


def _unpacked_item(target: cst.BaseExpression, count: int, position: int) -> cst.BaseExpression | None:
    """The part of `target` that unpacking `count` items binds the item at `position` to
    (`b` for item 1 in `a, b = x, y`; `rest` for items 1 and 2 in `a, *rest = x, y, z`, the
    list the starred name collects them in), or None when `target` unpacks no `count` items."""
    if not isinstance(target, (cst.Tuple, cst.List)):
        return None
    elements = target.elements
    starred = [index for index, e in enumerate(elements) if isinstance(e, cst.StarredElement)]
    if not starred:
        return elements[position].value if len(elements) == count else None
    if len(starred) > 1 or count < len(elements) - 1:  # two starred targets are a `SyntaxError`
        return None
    star = starred[0]
    after = len(elements) - star - 1  # the targets after the starred one take the last items
    if position < star:
        return elements[position].value
    if position >= count - after:
        return elements[position - count + len(elements)].value
    return elements[star].value


def _bound_value(
    target: cst.BaseExpression, value: cst.BaseExpression | None, name: cst.Name
) -> cst.BaseExpression | None:
    """The expression assigning `value` to `target` binds `name` to, or None when `name` is
    not in `target` or is unpacked from a value (`a, b = x`) or starred."""
    if target is name:
        return value
    if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))):
        return None
    if len(target.elements) != len(value.elements):
        return None
    for part, part_value in zip(target.elements, value.elements, strict=True):
        if not isinstance(part, cst.StarredElement) and not isinstance(part_value, cst.StarredElement):
            found = _bound_value(part.value, part_value.value, name)
            if found is not None:
                return found
    return None


def _reach_order(result: _State) -> tuple[int, int, list[tuple[str, bool]]]:
    """`_reach`'s results in program order of their definitions, then in a fixed order."""
    definition, assumed, carrier = result
    return definition.index, -1 if carrier is None else carrier.header.index, sorted(assumed)


def _bound_in(value: cst.BaseExpression, name: cst.Name, bound: cst.BaseExpression) -> cst.BaseExpression:
    """`value` with `name`, a node below it, replaced by the value `bound` to it, as one operand:
    in parentheses unless a name or already so (`HV * s` with `s = V + 1` reads `HV * (V + 1)`)."""
    if not bound.lpar and not isinstance(bound, cst.Name):
        bound = bound.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    changed = replaced(value, name, bound)
    assert isinstance(changed, cst.BaseExpression)
    return changed


def _combines_tests(value: cst.BaseExpression | None) -> bool:
    """`a and b`, `a or b`, or `combines_conditions`, negated or not."""
    if value is None:
        return False
    value = without_negation(value)
    return isinstance(value, cst.BooleanOperation) or combines_conditions(value)


def without_negation(test: cst.BaseExpression) -> cst.BaseExpression:
    """The test with any leading `not` / `~` taken off."""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, (cst.Not, cst.BitInvert)):
        test = test.expression
    return test


def combines_conditions(test: cst.BaseExpression) -> TypeGuard[cst.BinaryOperation]:
    """`a & b` / `a | b` with no integer literal as an operand (that is a bit mask), and `a * b`
    of a test and a test or a name (`USE_H0 * (i_t * BT < W)`: a product of truth values is
    their `and`); a test is a comparison, `and` / `or`, `not`, or such a combination.
    A product of other values is arithmetic (`i_t * BT`, `(i_t < W) * 2`)."""
    if not isinstance(test, cst.BinaryOperation):
        return False
    sides = (test.left, test.right)
    if isinstance(test.operator, (cst.BitAnd, cst.BitOr)):
        return not any(isinstance(side, cst.Integer) for side in sides)
    if not isinstance(test.operator, cst.Multiply):
        return False
    tests = [_is_a_test(side) for side in sides]
    return any(tests) and all(
        found or isinstance(without_negation(side), cst.Name) for found, side in zip(tests, sides, strict=True)
    )


def _is_a_test(node: cst.BaseExpression) -> bool:
    """A truth value: a comparison, `and` / `or`, `not ...`, or a combination of such."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return True
    node = without_negation(node)
    return isinstance(node, (cst.Comparison, cst.BooleanOperation)) or combines_conditions(node)


def _split(
    implications: Implications,
    outcomes: list[tuple[bool, Assumptions, int]],
    if_true: list[Variant],
    if_false: list[Variant],
) -> list[Variant]:
    """The variants of a value chosen by a decided test (`Flow._decided`): for each outcome,
    those of the value it chooses consistent with it, with the test's flags."""
    found = [
        (flags | test_flags, assumed | also)
        for outcome, assumed, test_flags in outcomes
        for flags, also in (if_true if outcome else if_false)
        if implications.consistent(assumed, also)
    ]
    return _normalise(found) if len(found) > 1 else found


def _union(variants: list[Variant]) -> int:
    result = 0
    for flags, _ in variants:
        result |= flags
    return result


def _combine(implications: Implications, parts: list[list[Variant]]) -> list[Variant]:
    """The variants of a value made of parts: flags united, outcomes consistent."""
    result: list[Variant] = [(0, NOTHING)]
    for part in parts:
        if len(part) == 1 and len(result) == 1 and not part[0][1] and not result[0][1]:
            result = [(result[0][0] | part[0][0], NOTHING)]
            continue
        result = [(f1 | f2, a1 | a2) for f1, a1 in result for f2, a2 in part if implications.consistent(a1, a2)]
        if len(result) > _MAX_VARIANTS:
            result = [(_union(result), NOTHING)]
    return _normalise(result) if len(result) > 1 else result


def _normalise(variants: list[Variant]) -> list[Variant]:
    """One variant per combination of the test outcomes involved, with the flags of every
    variant that holds in it united (variants valid together are one value); combinations
    with equal flags merged. Past `_MAX_KEYS` tests, one variant with all the flags."""
    keys = sorted({key for _, assumed in variants for key, _ in assumed})
    if not keys or len(keys) > _MAX_KEYS:
        return [(_union(variants), NOTHING)]
    merged: dict[int, Assumptions] = {}
    for outcomes in product((True, False), repeat=len(keys)):
        spec = frozenset(zip(keys, outcomes, strict=True))
        holding = [flags for flags, assumed in variants if assumed <= spec]
        if holding:
            flags = 0
            for value in holding:
                flags |= value
            merged[flags] = merged[flags] & spec if flags in merged else spec
    return list(merged.items())


_VIEWS = ("trans", "permute", "reshape", "view", "cast", "expand_dims")
"""The `triton.language` functions (and tensor methods) returning their first operand's tile viewed
or cast: `Flow.view_source`."""


def axes_view_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` for a subscript only adding axes or keeping whole ones (`x[None, :]`, `x[:, None]`):
    a view of the same tile; else None."""
    if type(node) is cst.Subscript and all(_is_broadcast_axis(element.slice) for element in node.slice):
        return node.value
    return None


def _is_broadcast_axis(axis: cst.BaseSlice) -> bool:
    """`None` (a new axis) or `:` (the whole axis) in a tile's subscript."""
    if isinstance(axis, cst.Slice):
        return axis.lower is None and axis.upper is None and axis.step is None
    return isinstance(axis, cst.Index) and isinstance(axis.value, cst.Name) and axis.value.value == "None"


def _value_parts(node: cst.BaseExpression) -> Iterable[cst.BaseExpression]:
    """The sub-expressions whose values make up `node`'s."""
    if isinstance(node, (cst.BinaryOperation, cst.BooleanOperation)):
        return (node.left, node.right)
    if isinstance(node, cst.UnaryOperation):
        return (node.expression,)
    if isinstance(node, cst.Comparison):
        return (node.left, *(t.comparator for t in node.comparisons))
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return tuple(e.value for e in node.elements)
    if isinstance(node, cst.Subscript):
        return (node.value, *(e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)))
    parts = []
    for child in child_nodes(node):
        if isinstance(child, (cst.Arg, cst.Element)):
            parts.append(child.value)
        elif isinstance(child, cst.BaseExpression):
            parts.append(child)
    return parts


class _Builder:
    """Walks a kernel body once, emitting events and control-flow edges."""

    def __init__(self, flow: Flow):
        self.flow = flow
        self.frontier: list[Event] = []
        self.conds: tuple[tuple[Branch, bool], ...] = ()
        self.choices: tuple[tuple[cst.IfExp, bool], ...] = ()
        self.loops: tuple[Loop, ...] = ()
        self.loop_headers: list[Event] = []
        self.loop_exits: list[list[Event]] = []
        self.skip_reads = {*flow.imports.local_names, "True", "False", "None"}
        self.current_statement: cst.CSTNode = flow.body

    def emit(self, kind: str, node: cst.CSTNode, **extra: Any) -> Event:
        event = Event(
            len(self.flow.events),
            kind,
            node,
            conds=self.conds,
            choices=self.choices,
            loops=self.loops,
            statement=self.current_statement,
            **extra,
        )
        for previous in self.frontier:
            previous.succ.append(event)
            event.pred.append(previous)
        self.frontier = [event]
        self.flow.events.append(event)
        if kind == DEF and event.name is not None:
            self.flow.defs.setdefault(event.name, []).append(event)
        elif kind == CALL:
            self.flow.calls.append(event)
        elif kind == READ and not event.metadata and isinstance(node, cst.Name):
            self.flow.read_events[node] = event
        return event

    def link(self, sources: list[Event], target: Event) -> None:
        for source in sources:
            source.succ.append(target)
            target.pred.append(source)

    # ---- statements --------------------------------------------------------------------
    def block(self, body: Iterable[cst.CSTNode]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: cst.CSTNode) -> None:
        outer, self.current_statement = self.current_statement, node
        self._statement(node)
        self.current_statement = outer

    def _statement(self, node: cst.CSTNode) -> None:
        if type(node) is cst.SimpleStatementLine or type(node) is cst.SimpleStatementSuite:
            for small in node.body:
                start = len(self.flow.events)
                self.small_statement(small)
                self.flow.statements.append((small, range(start, len(self.flow.events))))
        elif type(node) is cst.If:
            self.if_statement(node)
        elif type(node) is cst.For:
            self.for_statement(node)
        elif type(node) is cst.While:
            self.while_statement(node)
        elif type(node) is cst.With:
            for item in node.items:
                self.expr(item.item)
            self.block(suite_lines(node.body))
        elif type(node) is cst.Try:
            self.block(suite_lines(node.body))
            for handler in node.handlers:
                self.block(suite_lines(handler.body))
            for part in (node.orelse, node.finalbody):
                if part is not None:
                    self.block(suite_lines(part.body))

    def small_statement(self, node: cst.BaseSmallStatement) -> None:
        if type(node) is cst.Expr:
            self.expr(node.value)
        elif type(node) is cst.Assign:
            self.expr(node.value)
            for assigned in node.targets:
                self.assign_target(assigned.target, node.value)
        elif type(node) is cst.AnnAssign:
            if node.value is not None:
                self.expr(node.value)
                # `x: tl.constexpr = ...` stays a Python value; other assignments box it
                boxed = not self.flow.imports.is_tl(node.annotation.annotation, "constexpr")
                self.assign_target(node.target, node.value, boxed=boxed)
        elif type(node) is cst.AugAssign:
            target = node.target
            self.expr(target)
            self.expr(node.value)
            if isinstance(target, cst.Name):  # `x *= D` defines `x` as `x * D`
                value = updated_value(node)
                self.emit(DEF, node, name=target.value, value=value, boxed=True)
        elif type(node) is cst.Return:
            if node.value is not None:
                self.expr(node.value)
            self.frontier = []
        elif type(node) is cst.Assert:
            self.expr(node.test)
        elif type(node) is cst.Break:
            if self.loop_exits:
                self.loop_exits[-1].extend(self.frontier)
            self.frontier = []
        elif type(node) is cst.Continue:
            if self.loop_headers:
                self.link(self.frontier, self.loop_headers[-1])
            self.frontier = []

    def assign_target(self, target: cst.BaseExpression, value: cst.BaseExpression, boxed: bool = True) -> None:
        if isinstance(target, cst.Name):
            self.emit(DEF, target, name=target.value, value=value, boxed=boxed)
        elif isinstance(target, (cst.Tuple, cst.List)):
            values = _items(value, len(target.elements)) or [value] * len(target.elements)
            for element, element_value in zip(target.elements, values, strict=False):
                self.assign_target(element.value, element_value, boxed)
        elif isinstance(target, cst.StarredElement):
            self.assign_target(target.value, value, boxed)
        else:  # x[i] = v, x.a = v: a use of x
            self.expr(target)

    def if_statement(self, node: cst.If) -> None:
        self.expr(node.test)
        point = self.emit(POINT, node)
        branch = Branch(node, point, range(0), range(0), self.flow)
        self.flow.branches.append(branch)
        outer = self.conds
        start = len(self.flow.events)
        self.conds = (*outer, (branch, True))
        self.block(suite_lines(node.body))
        branch.body = range(start, len(self.flow.events))
        after_body = self.frontier
        self.frontier = [point]
        start = len(self.flow.events)
        self.conds = (*outer, (branch, False))
        self.emit(POINT, node)  # the else arm's entry, so an absent else is still an arm
        if isinstance(node.orelse, cst.Else):
            self.block(suite_lines(node.orelse.body))
        elif isinstance(node.orelse, cst.If):
            self.statement(node.orelse)  # an `elif` is a statement of its own
        branch.orelse = range(start, len(self.flow.events))
        self.conds = outer
        self.frontier = after_body + self.frontier

    def for_statement(self, node: cst.For) -> None:
        self.expr(node.iter)
        kind = self.loop_kind(node.iter)
        index_flags = CONST if kind == "static_range" else LOOP
        self.loop(node, kind, lambda: self.define_loop_target(node.target, index_flags))
        if node.orelse is not None:
            self.block(suite_lines(node.orelse.body))

    def define_loop_target(self, target: cst.BaseExpression, flags: int) -> None:
        if isinstance(target, cst.Name):
            self.emit(DEF, target, name=target.value, value_flags=flags)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self.define_loop_target(element.value, flags)

    def while_statement(self, node: cst.While) -> None:
        self.loop(node, "while", lambda: self.expr(node.test))

    def loop(self, node: cst.For | cst.While, kind: str, enter: Callable[[], None]) -> None:
        header = self.emit(POINT, node)
        loop = Loop(node, header, range(0), kind)
        self.flow.loops.append(loop)
        self.loop_headers.append(header)
        self.loop_exits.append([])
        outer = self.loops
        self.loops = (*outer, loop)
        start = len(self.flow.events)
        enter()
        exit_from_test = list(self.frontier) if kind == "while" else [header]
        self.block(suite_lines(node.body))
        self.link(self.frontier, header)
        loop.body = range(start, len(self.flow.events))
        self.loops = outer
        self.loop_headers.pop()
        self.frontier = exit_from_test + self.loop_exits.pop()

    def loop_kind(self, iterable: cst.BaseExpression) -> str:
        if isinstance(iterable, cst.Call):
            imports = self.flow.imports
            if imports.is_tl(iterable.func, "static_range"):
                return "static_range"
            if imports.is_tl(iterable.func, "range", "parallel") or (
                isinstance(iterable.func, cst.Name) and iterable.func.value == "range"
            ):
                return "range"
        return "iter"

    # ---- expressions, in evaluation order ----------------------------------------------
    def expr(self, node: cst.BaseExpression) -> None:
        if type(node) is cst.Name:
            if node.value not in self.skip_reads:
                self.emit(READ, node, name=node.value)
        elif type(node) is cst.Attribute:
            value = node.value
            if node.attr.value in _METADATA_ATTRS and type(value) is cst.Name:
                self.emit(READ, value, name=value.value, metadata=True)
            else:
                self.expr(value)
        elif type(node) is cst.Call:
            func = node.func
            if type(func) is cst.Attribute:
                self.expr(func.value)
            elif type(func) is not cst.Name:
                self.expr(func)
            hint = self.flow.imports.is_tl(func, "compile_hint")  # annotates its tile, reads no data
            for arg in node.args:
                if hint and type(arg.value) is cst.Name:
                    self.emit(READ, arg.value, name=arg.value.value, metadata=True)
                else:
                    self.expr(arg.value)
            self.emit(CALL, node)
        elif type(node) in _LEAVES or type(node) is cst.Lambda:
            return
        elif type(node) is cst.BinaryOperation or type(node) is cst.BooleanOperation:
            self.expr(node.left)
            self.expr(node.right)
        elif type(node) is cst.Comparison:
            self.expr(node.left)
            for target in node.comparisons:
                self.expr(target.comparator)
        elif type(node) is cst.UnaryOperation:
            self.expr(node.expression)
        elif type(node) is cst.Subscript:
            self.expr(node.value)
            for element in node.slice:
                inner = element.slice
                if isinstance(inner, cst.Index):
                    self.expr(inner.value)
                elif isinstance(inner, cst.Slice):
                    for part in (inner.lower, inner.upper, inner.step):
                        if part is not None:
                            self.expr(part)
        elif type(node) is cst.Tuple or type(node) is cst.List:
            for item in node.elements:
                self.expr(item.value)
        elif type(node) is cst.NamedExpr:  # `(r := v)`: `v` is evaluated, then bound to `r`
            self.expr(node.value)
            self.assign_target(node.target, node.value)
        elif type(node) is cst.IfExp:  # in the order written: `body if test else orelse`
            outer = self.choices
            self.choices = (*outer, (node, True))
            self.expr(node.body)
            self.choices = outer
            self.expr(node.test)
            self.choices = (*outer, (node, False))
            self.expr(node.orelse)
            self.choices = outer
        else:
            for child in child_nodes(node):
                if isinstance(child, cst.BaseExpression):
                    self.expr(child)
                elif isinstance(child, (cst.Element, cst.Arg)):
                    self.expr(child.value)


def cast_parts(call: cst.Call, imports: ImportMap) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """The value and the dtype of a cast: `x.to(t)` (a tensor method) or `tl.cast(x, t)`."""
    func = call.func
    if isinstance(func, cst.Attribute) and imports.method_name(func) == "cast" and call.args:
        dtype = call_argument(call, 0, "dtype")
        return (func.value, dtype) if dtype is not None else None
    if imports.is_tl(func, "cast"):  # by position or keyword (`tl.cast(input=x, dtype=t)`)
        value, dtype = call_argument(call, 0, "input"), call_argument(call, 1, "dtype")
        return (value, dtype) if value is not None and dtype is not None else None
    return None


def build_flow(
    body: cst.BaseSuite,
    params: list[tuple[str, cst.Param, int]],
    imports: ImportMap,
    pointer_arguments: PointerArguments = lambda call: (),
    passed_constants: Mapping[str, cst.BaseExpression] | None = None,
    returned_argument: ReturnedArgument = lambda call: None,
    decide: Decide | None = None,
) -> Flow:
    """The flow of a kernel body whose parameters (name, node, value flags) are given;
    `pointer_arguments` gives the arguments of a call its device function uses as pointers,
    `passed_constants` the constants its calls pass for parameters (`Flow.bound`),
    `returned_argument` the argument a call's device function returns as it is, `decide` the
    constexpr test outcomes every specialisation of the body has (`Flow.decided`: worked out
    once the flow is built, before any rule reads it)."""
    flow = Flow(imports, body, pointer_arguments, passed_constants, returned_argument)
    builder = _Builder(flow)
    for name, node, flags in params:
        if node.annotation is not None and flow.is_wide_int(node.annotation.annotation):
            flags |= WIDE  # `T: tl.int64`: an i64 argument, so arithmetic on it is int64
        builder.emit(DEF, node, name=name, value_flags=flags)
    builder.block(suite_lines(body))
    for loop in flow.loops:
        loop.is_task_loop = _is_task_loop(flow, loop)
    flow.mark_task_indices()
    if decide is not None:
        flow.decide_tests(decide(flow))
    return flow


def _is_task_loop(flow: Flow, loop: Loop) -> bool:
    """`for t in tl.range(start, stop, step)` (or `range`) spreading tasks over the programs,
    or the same loop written with `while` (`while_index`) or counting trips
    (`_counts_task_trips`)."""
    if loop.kind == "while":
        index = while_index(flow, loop)
        if index is None:
            return False
        entering = flow.defs_entering(loop, index.name)
        return bool(entering) and all(
            definition.value is not None and _spreads_tasks(flow, definition.value, index.step)
            for definition in entering
        )
    bounds = range_bounds(loop)
    if bounds is not None and len(bounds) == 3:
        return _spreads_tasks(flow, bounds[0], bounds[2])
    return bounds is not None and _counts_task_trips(flow, loop, bounds)


def _counts_task_trips(flow: Flow, loop: Loop, bounds: tuple[cst.BaseExpression, ...]) -> bool:
    """`for i in range(n)` (or `range(0, n)`) whose own body binds `task = start + i * step`
    (either order), `range(start, ..., step)` a task loop and `step` the number of programs:
    `tl.num_programs` (FlagGems' `global_pid = pid + j * ctas_num`), or a runtime value `n`
    divides by rounding up (`range(tl.cdiv(task_num - pid, num_core))` with `num_core` a
    parameter)."""
    target = loop.node.target if isinstance(loop.node, cst.For) else None
    if not isinstance(target, cst.Name) or (len(bounds) == 2 and int_literal(bounds[0]) != 0):
        return False
    for event in flow.events_in(loop.body, DEF):
        value = event.value
        if event.loops[-1] is not loop or not (
            isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)
        ):
            continue
        for start, term in ((value.left, value.right), (value.right, value.left)):
            step = _factor_beside(term, target.value)
            if step is not None and _counts_programs(flow, step, bounds[-1]) and _spreads_tasks(flow, start, step):
                return True
    return False


def _counts_programs(flow: Flow, step: cst.BaseExpression, trips: cst.BaseExpression) -> bool:
    """`step` is the number of programs of a loop running `trips` times: `tl.num_programs`, or
    a runtime value the trip count divides by rounding up."""
    if _is_program_id(flow, step, "num_programs"):
        return True
    ceiling = ceiling_division(trips)
    return ceiling is not None and not flow.is_constexpr(step) and flat_code(ceiling[1]) == flat_code(step)


def _factor_beside(node: cst.BaseExpression, name: str) -> cst.BaseExpression | None:
    """`x` of `name * x` or `x * name`."""
    if not isinstance(node, cst.BinaryOperation) or not isinstance(node.operator, cst.Multiply):
        return None
    for mine, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(mine, cst.Name) and mine.value == name:
            return other
    return None


def _spreads_tasks(flow: Flow, start: cst.BaseExpression, step: cst.BaseExpression) -> bool:
    """A loop from `start` by `step` spreads tasks over the programs when the start is a
    program id (`core_id = tl.program_id(0)`), or derived from one with a step that is not a
    compile-time constant (`range(pid * 256, n, num_ctas * 256)`, `range(n - 1 - pid, -1,
    -num_programs)`) or that strides over the programs (`_strides_programs`: `range(pid *
    BLOCK, n, NUM_CORE * BLOCK)`). A loop whose start is computed from a program id and whose
    step is a constexpr tile (`tl.range(i_k * BK, K, BK)`, `range(i_t * BT - BS, -BS, -BS)`)
    walks one program's blocks."""
    if not flow.flags(start) & PID:
        return False
    return _is_program_id(flow, start) or not flow.is_constexpr(step) or _strides_programs(flow, start, step)


def _strides_programs(flow: Flow, start: cst.BaseExpression, step: cst.BaseExpression) -> bool:
    """`start` is a program id times `A` plus an offset that reads none (`pid * BLOCK`, `pid *
    2 + sub`, through names), and `step` is `A` times a kernel parameter that is no factor of
    `A` (`NUM_CORE * BLOCK`, `G * 2`): each program takes every `C`-th block from its own, `C`
    the count of programs. `A` alone (`tl.range(i_s * BS, T, BS)`), `A` times a literal or
    times itself (`BS * BS`) is no count."""
    multiplier = _program_multiplier(flow, start)
    if multiplier is None:
        return False
    if isinstance(step, cst.UnaryOperation) and isinstance(step.operator, cst.Minus):
        step = step.expression
    remaining = [flat_code(factor) for factor in _product_factors(flow, step)]
    for factor in multiplier:
        if flat_code(factor) not in remaining:
            return False
        remaining.remove(flat_code(factor))
    multiplied = {flat_code(factor) for factor in multiplier}
    return any(
        code not in multiplied and _is_parameter(flow, factor)
        for factor in _product_factors(flow, step)
        if (code := flat_code(factor)) in remaining
    )


def _program_multiplier(flow: Flow, start: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The factors `A` of `pid * A` in a start that adds to it only terms reading no program id
    (`pid * 2 + sub`: `[2]`; `pid`: none), through names bound once; None for another start."""
    with_pid = [term for term, _ in _sum_terms(_one_value(flow, start)) if flow.flags(term) & PID]
    if len(with_pid) != 1:
        return None
    factors = _product_factors(flow, with_pid[0])
    ids = [factor for factor in factors if _is_program_id(flow, factor)]
    if len(ids) != 1 or any(flow.flags(factor) & PID for factor in factors if factor is not ids[0]):
        return None
    return [factor for factor in factors if factor is not ids[0]]


def _product_factors(flow: Flow, node: cst.BaseExpression, hops: int = 0) -> list[cst.BaseExpression]:
    """The operands a product multiplies (`NUM_CORE * BLOCK`), through names bound once to one
    (`stride = NUM_CORE * BLOCK`)."""
    value = _one_value(flow, node) if hops < NAMES_FOLLOWED else node
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return [*_product_factors(flow, value.left, hops + 1), *_product_factors(flow, value.right, hops + 1)]
    return [node]


def _one_value(flow: Flow, node: cst.BaseExpression) -> cst.BaseExpression:
    """The one value every definition reaching a read of a name binds (`vp` of `vp = pid * 2
    + sub`), else the node itself."""
    values = flow.values_reaching(node, None) if isinstance(node, cst.Name) else []
    first = values[0] if values else None
    return node if first is None or any(value is not first for value in values) else first


def _is_parameter(flow: Flow, node: cst.BaseExpression) -> bool:
    """A kernel parameter, read where no assignment of the body reaches it."""
    definitions = flow.reaching(node) if isinstance(node, cst.Name) else []
    return bool(definitions) and all(isinstance(definition.node, cst.Param) for definition in definitions)


@dataclass(frozen=True)
class WhileIndex:
    """The index of a counting `while` loop: the name its test compares, and what a statement
    of the loop's own body advances it by every trip."""

    name: str
    step: cst.BaseExpression  # `n` of `i += n`, `i -= n`, `i = i + n`


def while_index(flow: Flow, loop: Loop) -> WhileIndex | None:
    """`i` of `while i < n:` (`i <= n`, `n > i`, `i >= 0`...) when the loop's body sets `i`
    once, advancing it (`i += step`, `i -= step`, `i = i + step`) on every trip and not in an
    inner loop: the loop counts like `for i in range(start, n, step)`."""
    test = loop.node.test if isinstance(loop.node, cst.While) else None
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    if not isinstance(
        test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
    ):
        return None
    for side in (test.left, test.comparisons[0].comparator):
        if not isinstance(side, cst.Name):
            continue
        sets = [d for d in flow.defs.get(side.value, ()) if d.index in loop.body]
        if len(sets) != 1:
            continue
        (advance,) = sets
        step = flow.advance_step(advance)
        if step is not None and advance.loops[-1] is loop and flow.runs_every_trip(loop, advance):
            return WhileIndex(side.value, step)
    return None


def range_bounds(loop: Loop, unrolled: bool = False) -> tuple[cst.BaseExpression, ...] | None:
    """The bounds and step of a `tl.range` / `range` loop in order (with `unrolled`, of a
    `tl.static_range` loop too), written by position or by keywords (`tl.range(core_id,
    task_num, step=num_core)`); None for other loops or when a bound's place is not known
    (`*args`)."""
    node = loop.node
    kinds = ("range", "static_range") if unrolled else ("range",)
    if loop.kind not in kinds or not isinstance(node, cst.For) or not isinstance(node.iter, cst.Call):
        return None
    given: dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(node.iter.args):
        if arg.star:
            return None
        keyword = _BOUND_NAMES[position] if arg.keyword is None and position < 3 else getattr(arg.keyword, "value", "")
        if keyword in _BOUND_NAMES:
            given[keyword] = arg.value
    if set(given) != set(_BOUND_NAMES[: len(given)]):  # `tl.range(arg2=n)`: no start given
        return None
    return tuple(given[name] for name in _BOUND_NAMES[: len(given)])


def _is_program_id(flow: Flow, node: cst.BaseExpression, function: str = "program_id", hops: int = 0) -> bool:
    """`tl.program_id(axis)` (or the `function` given, `num_programs`), or a name every
    definition reaching it binds to one."""
    if isinstance(node, cst.Call):
        return flow.imports.language_name(node.func) == function
    if not isinstance(node, cst.Name) or hops >= NAMES_FOLLOWED:
        return False
    values = flow.values_reaching(node, None)
    return bool(values) and all(
        value is not None and _is_program_id(flow, value, function, hops + 1) for value in values
    )


_OPERATIONS = (
    cst.BinaryOperation,
    cst.UnaryOperation,
    cst.BooleanOperation,
    cst.Comparison,
    cst.Call,
    cst.Subscript,
    cst.IfExp,
)
