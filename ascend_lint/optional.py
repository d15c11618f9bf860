"""Which pointer parameters of a kernel may be passed as None, and what shows it.

Evidence, strongest first:
- host side, in the same module: a launch passes None for it (literally, through a parameter
  defaulting to None or annotated `Optional`, through `x if c else None`), or passes its flag
  as `FLAG=p is not None` / `FLAG=bool(p)`;
- kernel side: a `@triton.heuristics` lambda or an `if p is (not) None:` tests it against
  None; a use sits under one outcome of a pure-constexpr test (`if USE_H0:`) and no use under
  the other;
- flag correlation only: every use sits under tests that mention one constexpr flag that
  switches something on (the body of `if FLAG or runtime:`, `FLAG == 1`; not a size's test,
  `BK > 32`), and never on both arms of such a test. That makes the pointer
  probably optional, not certainly: a rule says so and claims no compile failure;
- for a device function, what shows it for the parameter of the caller each call passes on
  unchanged (`Kernel.callers_passing_on`): `_halo(h0, ...)` in a kernel whose launch passes
  `h0=None`.

A test's constexpr flag (`is_flag`) is an operand the front end decides that reads a name
(`USE_H0`, `MODE == 1`, `USE_H0 == True`; `not FLAG` is `FLAG` negated), or a name every
definition reaching it binds such a flag (`f = USE_H0`: a tensor to the front end, the
author's flag all the same).

A pointer every launch in the module passes as a value that cannot be None is not optional on
the kernel-side guard or correlation evidence alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst as cst

from .fixes import contains
from .flow import READ, Branch, Event, Flow, combines_conditions, test_key, test_text, without_negation
from .host import HostIndex
from .kernels import MAX_CALLERS_DEEP, Kernel
from .nodes import NAMES_FOLLOWED, one_line, walk

_MAX_ALIAS_READS = 256  # reads followed through aliases of one parameter
_LITERALS = frozenset({"True", "False", "None"})


@dataclass(frozen=True)
class OptionalPointer:
    name: str
    evidence: str  # what shows it, for a message ("the launch at line {related_line} passes `h0=None`")
    certain: bool  # False when only the flag correlation says so
    where: cst.CSTNode | None = None  # the evidence's node (a launch), reported as a related location
    # (test key, outcome) of the pure-constexpr `if`s it is only used under one outcome of:
    # a use inside one of those is compiled only when the pointer is there
    guards: frozenset[tuple[str, bool]] = frozenset()
    # the constexpr flags a heuristic or a launch sets from whether it is None (`USE_H0=h0 is
    # not None`): when there are some, only a test of one of them says the pointer is there
    tied: frozenset[str] = frozenset()

    def guarded_by(self, test: cst.BaseExpression, key: tuple[str, bool], arm: bool, flow: Flow) -> bool:
        """An arm (`arm`) of a pure-constexpr `if` or conditional expression on `test` (keyed
        `key`: `test_key`) around a use compiles the use only when the pointer is there: the
        pointer is only ever used under that outcome (`guards`) and, when flags are tied to it,
        that outcome holds one of them (`if USE_H0:`, `if USE_H0 == True:`, `if USE_H0 and
        USE_G:`) or the pointer's own test (`if h0 is not None:`, folded when `h0` is None), not
        an unrelated flag (`if USE_X:` around a mixed test of `USE_H0`, which a launch ties to `h0`);
        read through a name the body binds as a constexpr (`HAS: tl.constexpr = USE_H0`), not one
        bound plainly (`HAS = USE_H0` is a tensor to the front end, so `if HAS:` is no guard)."""
        tested, polarity = key
        if (tested, polarity == arm) not in self.guards:
            return False
        return not self.tied or bool(_implied_names(test, arm, flow) & (self.tied | {self.name}))


def optional_pointers(kernel: Kernel, host: HostIndex, hops: int = 0) -> dict[str, OptionalPointer]:
    """The kernel's pointer parameters that may be None, each with its strongest evidence, read
    with the device functions it calls inlined (`Kernel.inlined`: a pointer used only under the
    `if USE_H0:` of a helper it is passed to is guarded so). For a device function, a caller's
    evidence for the parameter it passes on (`_from_callers`, `hops` callers up) is stronger
    than a correlation of the function's own."""
    flow = kernel.inlined.flow
    found = {}
    for param in kernel.params:
        name = param.name
        if param.is_constexpr or name in kernel.provided_constexprs:
            continue
        reads = _uses(flow, name)
        guards = _guards(reads, flow)
        pointer = _in_kernel(kernel, name, flow) or _in_host(kernel, host, name, reads, flow)
        conditional = _conditional_pointer(name, reads, flow)
        if pointer is None and conditional and not host.always_passes_a_tensor(kernel, name):
            pointer = _from_guards(name, reads, guards, flow)
        if (pointer is None or not pointer.certain) and conditional:
            pointer = _from_callers(kernel, host, name, hops) or pointer
        if pointer is not None:
            tied = pointer.tied | _tied_flags(kernel, host, name)
            found[name] = replace(pointer, guards=frozenset(guards), tied=tied)
    return found


def _tied_flags(kernel: Kernel, host: HostIndex, name: str) -> frozenset[str]:
    """The constexpr flags a heuristic sets from `args["p"] is (not) None` or a launch passes as
    `FLAG=p is not None` (`HostIndex.flag_tied_to`)."""
    tied = set(kernel.optional_pointer_flags.get(name, ()))
    for param in kernel.params:
        flag = param.is_constexpr or param.name in kernel.provided_constexprs
        if flag and param.name not in tied and host.flag_tied_to(kernel, param.name, name) is not None:
            tied.add(param.name)
    return frozenset(tied)


def _from_callers(kernel: Kernel, host: HostIndex, name: str, hops: int) -> OptionalPointer | None:
    """For a device function: the certain evidence of the first caller passing on its own
    parameter for `name` (`Kernel.callers_passing_on`), said as `k` passing it, with the flags
    tied to it there that the calls pass on as the function's own flags."""
    if not kernel.is_device_function or hops >= MAX_CALLERS_DEEP:
        return None
    for caller, passed in kernel.callers_passing_on(name):
        theirs = optional_pointers(caller, host, hops + 1).get(passed)
        if theirs is None or not theirs.certain:
            continue
        tied = frozenset(
            param.name
            for param in kernel.params
            if param.is_constexpr and _passed_on(kernel, caller, param.name) in theirs.tied
        )
        evidence = f"`{caller.name}` passes it `{passed}`: {theirs.evidence}"
        return OptionalPointer(name, evidence, True, theirs.where, tied=tied)
    return None


def _passed_on(kernel: Kernel, caller: Kernel, param: str) -> str | None:
    """The parameter of `caller` its calls of `kernel` pass on unchanged for `param`."""
    names = {theirs for other, theirs in kernel.callers_passing_on(param) if other is caller}
    return names.pop() if len(names) == 1 else None


def _uses(flow: Flow, name: str) -> list[Event]:
    """The data reads of a parameter, with a plain alias of it (`state = h0`: no use, `None` is
    bound as it is) standing for its own reads in its place (`Flow.passed_on`), a few hops."""
    pending = [e for e in flow.events if e.kind == READ and e.name == name and not e.metadata]
    found: dict[int, Event] = {}
    seen: set[int] = set()
    while pending:
        read = pending.pop()
        if read.index in seen:
            continue
        seen.add(read.index)
        aliased = flow.passed_on(read) if len(seen) <= _MAX_ALIAS_READS else None
        if aliased is None:
            found[read.index] = read
        else:
            pending += aliased
    return [found[index] for index in sorted(found)]


def _conditional_pointer(name: str, reads: list[Event], flow: Flow) -> bool:
    """A pointer parameter every use of which depends on a constexpr: under a pure-constexpr
    test or a test with a constexpr flag in it. A use under runtime tests only is compiled in
    every specialisation, so no launch could pass None."""
    return bool(reads) and name in flow.pointer_names and all(_depends_on_a_flag(e, flow) for e in reads)


def _depends_on_a_flag(read: Event, flow: Flow) -> bool:
    """Under an `if` or a conditional expression whose test is pure-constexpr or has a constexpr
    flag among its operands (`tl.load(h0) if (USE_H0 and i_t < W) else 0.0`), or in an `if`'s
    test where Python evaluates it only with a flag on (`read_after_a_flag`)."""
    return (
        any(
            branch.test_is_python_constexpr or any(is_flag(o, flow) for o in tested_operands(branch.node.test, flow))
            for branch, _ in read.conds
        )
        or any(
            flow.is_python_constexpr(choice.test) or any(is_flag(o, flow) for o in tested_operands(choice.test, flow))
            for choice, _ in read.choices
        )
        or read_after_a_flag(read, flow)
    )


def read_after_a_flag(read: Event, flow: Flow) -> bool:
    """A read in an `if`'s test that Python evaluates only with a constexpr flag on (`is_flag`):
    in the right operand of `FLAG and ...` or `not FLAG or ...` (`if HAS_H0 and tl.load(h0) > 0:`),
    also deeper (`FLAG and (i_t > 0 and tl.load(h0) > 0)`) or after an `and` chain holding the
    flag. Not after `FLAG or ...` (evaluated with the flag off) nor `(FLAG or R) and ...`. The
    front end evaluates every operand all the same (no short-circuit), so the read compiles with
    the flag off too."""
    statement = read.statement
    if not isinstance(statement, cst.If):
        return False
    test: cst.BaseExpression = statement.test
    while True:
        test = without_negation(test)
        if isinstance(test, cst.NamedExpr):
            test = test.value
            continue
        if not isinstance(test, cst.BooleanOperation):
            return False
        if contains(test.left, read.node):
            test = test.left
            continue
        if _flag_on_when(test.left, isinstance(test.operator, cst.And), flow):
            return True
        test = test.right


def _flag_on_when(operand: cst.BaseExpression, holds: bool, flow: Flow) -> bool:
    """The operand's truth (`holds`) says a constexpr flag is on: `FLAG` holding, `not FLAG`
    failing, either side of `a and b` holding or of `a or b` failing."""
    while isinstance(operand, cst.UnaryOperation) and isinstance(operand.operator, cst.Not):
        operand, holds = operand.expression, not holds
    if isinstance(operand, cst.BooleanOperation):
        both = isinstance(operand.operator, cst.And) == holds
        return both and (_flag_on_when(operand.left, holds, flow) or _flag_on_when(operand.right, holds, flow))
    return holds and is_flag(operand, flow)


def _in_kernel(kernel: Kernel, name: str, flow: Flow) -> OptionalPointer | None:
    """A heuristic or the kernel itself testing the parameter against None."""
    flags = sorted(kernel.optional_pointer_flags.get(name, ()))
    if flags:
        return OptionalPointer(name, f'the `{flags[0]}` heuristic tests `args["{name}"]` against None', True)
    for branch in flow.branches:
        if _tests_none(branch.node.test, name):
            return OptionalPointer(name, f"the kernel tests `{_test_code(branch.node.test)}`", True)
    return None


def _in_host(kernel: Kernel, host: HostIndex, name: str, reads: list[Event], flow: Flow) -> OptionalPointer | None:
    """A launch passing None (of the module, or of another one for a kernel only others launch:
    `HostIndex.passed_values`), or the flag as `FLAG=p is not None`, for a pointer
    the kernel does not use unconditionally (else no launch with None could compile)."""
    if not _conditional_pointer(name, reads, flow):
        return None
    passed = host.none_passed(kernel, name)
    if passed is not None:
        return OptionalPointer(name, f"{passed.where} {passed.why}", True, passed.related)
    for param in kernel.params:
        if param.is_constexpr or param.name in kernel.provided_constexprs:
            tied = host.flag_tied_to(kernel, param.name, name)
            if tied is not None:
                return OptionalPointer(name, f"{tied.where} {tied.why}", True, tied.related)
    return None


def _from_guards(
    name: str, reads: list[Event], guards: dict[tuple[str, bool], cst.If | cst.IfExp], flow: Flow
) -> OptionalPointer | None:
    """A pure-constexpr guard elsewhere, or (weaker) the correlation with one flag."""
    if guards:
        guard = next(iter(guards.values()))
        test = _test_code(guard.test)
        shown = f"if {test}:" if isinstance(guard, cst.If) else f"... if {test} else ..."
        return OptionalPointer(name, f"it is guarded by `{shown}` elsewhere", True)
    flag = _correlated_flag(reads, flow)
    if flag is not None:
        return OptionalPointer(name, f"`{name}` is used only under tests of `{flag}`", False)
    return None


def _tests_none(test: cst.BaseExpression, name: str) -> bool:
    """`p is None` / `p is not None` (also inside `and` / `or` / `not`)."""
    if isinstance(test, cst.UnaryOperation):
        return _tests_none(test.expression, name)
    if isinstance(test, cst.BooleanOperation):
        return _tests_none(test.left, name) or _tests_none(test.right, name)
    return isinstance(test, cst.Comparison) and _none_compared(test) == name


def _none_compared(test: cst.Comparison) -> str | None:
    """The name `p is None` / `p is not None` / `p == None` compares with None."""
    if not isinstance(test.left, cst.Name):
        return None
    if any(isinstance(t.comparator, cst.Name) and t.comparator.value == "None" for t in test.comparisons):
        return test.left.value
    return None


def tests_against_none(read: Event, flow: Flow) -> bool:
    """A read that only compares the name with None (`h0 is not None`): the front end folds the
    comparison to a constant, so the read compiles with the pointer None too (no use of it)."""
    test = flow.parents.get(read.node)
    return isinstance(test, cst.Comparison) and test.left is read.node and _none_compared(test) is not None


def _guards(reads: list[Event], flow: Flow) -> dict[tuple[str, bool], cst.If | cst.IfExp]:
    """The pure-constexpr `if`s and conditional expressions (as the front end sees them) some
    read is under one outcome of, with no read under the other (`if MODE: ... else: ...` both
    using it is no guard), each with its first such test."""
    outcomes: dict[str, dict[bool, cst.If | cst.IfExp]] = {}
    for read in reads:
        arms: list[tuple[cst.If | cst.IfExp, bool]] = [
            (b.node, arm) for b, arm in read.conds if b.test_is_python_constexpr
        ]
        arms += flow.constexpr_choices(read)
        for node, arm in arms:
            if not _reads_a_name(node.test):  # `if True:` guards nothing
                continue
            key, polarity = test_key(node.test)
            outcomes.setdefault(key, {}).setdefault(polarity == arm, node)
    return {(key, outcome): node for key, seen in outcomes.items() if len(seen) == 1 for outcome, node in seen.items()}


def _correlated_flag(reads: list[Event], flow: Flow) -> str | None:
    """A constexpr flag that switches something on (`is_flag` and `_switch`: `USE_H0`,
    `USE_H0 == 1`; not a size `BK > 32` or `BK % 2 == 0`), keyed as a test of it alone would be: `MODE==1`; a name
    holding one by the flag it holds) that every read's enclosing tests mention (of `if`s and
    conditional expressions), with no test mentioning it holding reads in both of its arms,
    and reads under neither both of its values where tests of the flag alone hold them (`if
    MODE:` and a later `if not MODE:` are its two arms); as written (`MODE == 1`)."""
    common: set[str] | None = None
    arms: dict[Branch | cst.IfExp, set[bool]] = {}  # a test's `if` / conditional expression -> arms holding reads
    mentions: dict[Branch | cst.IfExp, set[str]] = {}
    values: dict[str, set[bool]] = {}  # a flag tested alone -> its values some read is under
    shown: dict[str, str] = {}  # a flag's key -> as written
    for read in reads:
        mentioned: set[str] = set()
        tests: list[tuple[Branch | cst.IfExp, bool, list[cst.BaseExpression], tuple[str, bool]]] = [
            (branch, arm, tested_operands(branch.node.test, flow), branch.key) for branch, arm in read.conds
        ]
        tests += [
            (choice, arm, tested_operands(choice.test, flow), flow.choice_key(choice)) for choice, arm in read.choices
        ]
        for node, arm, operands, (tested, polarity) in tests:
            flags = {o: held for o in operands if (held := held_flag(o, flow)) is not None and _switch(held)}
            if flags:
                keys = {test_key(held)[0] for held in flags.values()}
                for held in flags.values():
                    shown.setdefault(test_key(held)[0], test_text(held))
                mentioned |= keys
                mentions[node] = keys | {test_key(o)[0] for o in operands if o not in flags}
                arms.setdefault(node, set()).add(arm)
                values.setdefault(tested, set()).add(polarity == arm)
        common = mentioned if common is None else common & mentioned
    for flag in sorted(common or ()):
        holding = [node for node in arms if flag in mentions[node]]
        if all(len(arms[node]) == 1 for node in holding) and len(values.get(flag, ())) < 2:
            return shown[flag]
    return None


def is_flag(operand: cst.BaseExpression, flow: Flow) -> bool:
    """A constexpr flag among a test's operands (`_flag`)."""
    return held_flag(operand, flow) is not None


def held_flag(operand: cst.BaseExpression, flow: Flow, hops: int = 0) -> cst.BaseExpression | None:
    """The constexpr flag an operand of a test is or holds: the operand, when the front end
    decides it and it reads a name (`USE_H0`, `MODE == 1`, `(USE_H0 == True)`; not a literal);
    for a name every definition reaching it binds to a flag (`f = USE_H0`, `f, r = USE_H0,
    i_t < W`: `Flow.reaching`, a few hops), the flag they bind when they agree, else the name.
    None for a runtime operand."""
    if flow.is_python_constexpr(operand):
        return operand if _reads_a_name(operand) else None
    if not isinstance(operand, cst.Name) or hops >= NAMES_FOLLOWED or not flow.is_constexpr(operand):
        return None
    definitions = flow.reaching(operand)
    held = [
        held_flag(d.value, flow, hops + 1) if isinstance(d.node, cst.Name) and d.value is not None else None
        for d in definitions
    ]
    if not held or any(flag is None for flag in held):
        return None
    keys = {test_key(flag)[0] for flag in held if flag is not None}
    return held[0] if len(keys) == 1 else operand


def _reads_a_name(test: cst.BaseExpression) -> bool:
    return any(isinstance(node, cst.Name) and node.value not in _LITERALS for node in walk(test))


def _switch(flag: cst.BaseExpression) -> bool:
    """A flag (`held_flag`) that reads as switching something on or off, so a pointer used
    only under it looks optional: a name (`USE_H0`) or a name compared with a boolean literal
    (`_compared_flag`: `USE_H0 == True`, `MODE != 0`). An ordering (`BK > 32`) or arithmetic
    (`BK % 2 == 0`) is a size's test, not a switch."""
    return isinstance(flag, cst.Name) or _compared_flag(flag) is not None


def _compared_flag(test: cst.BaseExpression) -> cst.Name | None:
    """The name of `FLAG == True` / `FLAG != 0` / `1 == FLAG` / `FLAG is False`: compared for
    (in)equality, alone, with `True`, `False`, `0` or `1`."""
    test = test.with_changes(lpar=(), rpar=())
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    (target,) = test.comparisons
    if not isinstance(target.operator, (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)):
        return None
    for name, literal in ((test.left, target.comparator), (target.comparator, test.left)):
        if isinstance(name, cst.Name) and name.value not in _LITERALS and _is_boolean_literal(literal):
            return name
    return None


def _is_boolean_literal(node: cst.BaseExpression) -> bool:
    return (isinstance(node, cst.Name) and node.value in ("True", "False")) or (
        isinstance(node, cst.Integer) and node.value in ("0", "1")
    )


def _present_pointer(test: cst.BaseExpression, arm: bool) -> str | None:
    """The pointer `p is not None` says is there when it holds (`p is None` when it does not)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    name = _none_compared(test)
    operator = test.comparisons[0].operator
    if name is None or not isinstance(operator, (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual)):
        return None
    return name if arm == isinstance(operator, (cst.IsNot, cst.NotEqual)) else None


def _implied_names(test: cst.BaseExpression, arm: bool, flow: Flow) -> set[str]:
    """The names a test's outcome `arm` settles: `FLAG` / `not FLAG` / `FLAG == True` /
    `FLAG != 0` (`_compared_flag`) either way, a pointer `p` when `p is not None` holds or `p is
    None` does not (`_present_pointer`), each operand of `a and b` when it holds, of `a or b`
    when it does not; a name the body binds as a constexpr (`HAS: tl.constexpr = USE_H0`:
    `Flow.bound`) settles what its value does too."""
    while test.lpar or (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)):
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, arm = test.expression, not arm
        else:
            test = test.with_changes(lpar=(), rpar=())
    if isinstance(test, cst.Name):
        bound = flow.bound(test)
        return {test.value} | (_implied_names(bound, arm, flow) if bound is not test else set())
    compared = _compared_flag(test)
    if compared is not None:
        return {compared.value}
    present = _present_pointer(test, arm)
    if present is not None:
        return {present}
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And if arm else cst.Or):
        return _implied_names(test.left, arm, flow) | _implied_names(test.right, arm, flow)
    return set()


def tested_operands(test: cst.BaseExpression, flow: Flow) -> list[cst.BaseExpression]:
    """The operands of an `if`'s or a conditional expression's test (`bool_operands`), read
    through a name the test holds a combined test in (`need = USE_H0 or in_halo`, then `if
    need:` or `x if need else y`: `Flow.held_test`), the operands of each assignment reaching it."""
    held = flow.held_test(test)
    if held:
        return [o for definition in held if definition.value is not None for o in bool_operands(definition.value)]
    return bool_operands(test)


def bool_operands(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """Leaves of a test's tree of connectives, with `not` and `~` stripped: `and` / `or`, and
    `&` / `|` / `*` combining conditions (`USE_H0 & (i_t > 0)`, `USE_H0 * (i_t > 0)`; with a
    tensor operand Triton's front end takes it as a tensor, so the `if` is a runtime one:
    `combines_conditions`). A bit mask (`i & 1`) is one
    leaf; a walrus is the test it binds (`(need := USE_H0 and in_halo)`)."""
    test = without_negation(test)
    if isinstance(test, cst.NamedExpr):
        return bool_operands(test.value)
    if isinstance(test, cst.BooleanOperation) or combines_conditions(test):
        return bool_operands(test.left) + bool_operands(test.right)
    return [test]


def _test_code(test: cst.BaseExpression) -> str:
    return one_line(test.with_changes(lpar=(), rpar=()))
