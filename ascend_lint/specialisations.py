"""The constexpr values a module makes visible for a kernel, one set per configuration.

A configuration binds constexpr names to literal values, from (later sources override
earlier ones):

- module-level names bound once to a literal (`BLOCK = 64`, `RCP_LN2 = tl.constexpr(1.44)`),
  which a kernel reads as globals (unless a parameter of its name hides them), and constexpr
  parameter defaults;
- `triton.heuristics` entries whose lambda (or function of the module) returns a literal;
- a launch `kernel[grid](..., BT=64)` in host code: keyword (or positional) arguments that are
  literals, or names bound to a literal in the launching function, the module, or a
  parameter default of the launching function (`BT = chunk_size` with `chunk_size: int = 64`);
  a conditional expression whose test has no value gives each arm's value (`BLOCK = 131072 if
  n > 1 << 20 else 1024`: both, `possible_values`), not that of an arm running only on another
  platform, and none when an arm has no value or the test calls a function (a device's choice:
  `check_shared_mem()`); a name the function binds to a different literal in each arm of an `if` gives one set per
  value, but for an arm running only on another platform (`HostIndex.bound_on_ascend`), and so does each arm binding a literal when other arms bind a value known only at run
  time (`BLOCK = 2048` in one arm, `BLOCK = triton.next_power_of_2(n)` in the other: the
  literal is what the launch passes when its arm runs); a name no binding gives a value (`B, H,
  S, D = o.shape`) that an `assert D in {64, 128}` (or `assert D == 64`, also beside `and`) before the launch (on its path, with no
  binding of the name between) restricts gives one set per asserted literal; of these values
  of a name, only those an `if` around the launch (or one before it whose arm leaves) testing
  the name lets through count (`_may_reach`: `if D <= 64:` around it rules out 128, and `if D <=
  _MAX_D:` with a module constant `_MAX_D = 64` too); the values of the names a launch passes
  bare go together only as the launching function binds them (`_consistent`): `BM = 256 if D
  <= 64 else 16`, or `if D <= 64: BM = 256` / `elif` / `else`, gives 256 only with the `D`s its
  test lets through, and names bound in one arm (or by conditional expressions with one test)
  go together, as do the parameters one call of the launching function passes, also as the
  function making the call binds or tests them (`_one_call_passes`, `_tied_at`); a test the linter cannot decide (`if check_shared_mem():`, a device's choice)
  lets both arms through;
- each `triton.Config({...})` (or `triton.Config(dict(BT=64))`, or a name holding one such
  table that nothing changes: `triton.Config(_BIG)`, also one by one from a literal list of
  them, `[triton.Config(c) for c in (_SMALL, _BIG)]`, or from a name bound to such a list that
  nothing changes) of an autotune decorator
  (`configs=` of `triton.autotune` or of a wrapper taking the same keyword), written inline, in
  a name of the module (`configs=CONFIGS`) or returned by a function of it
  (`configs=get_configs()`), including comprehensions over literal lists, `range`s and names
  bound to a literal list (`for bt in BT_LIST`), and the configs `for` loops append to a list
  (`configs.append(triton.Config(...))`, `.extend(...)`, `configs += [...]`: read as a comprehension, the loops'
  `if`s and `if t: continue` guards its tests); a loop whose names the table does not read
  (`for num_warps in NUM_WARPS`) sets nothing.

What runs only on another platform than Ascend (`HostIndex.on_other_platform`) configures
nothing: a `triton.Config` stated there (`if IS_NPU: return [...]`, then the other list), a
launch there; a kernel every launch of which in the module is there has no configuration
(`HostIndex.launched_only_on_other_platform`, as for ASC001). An autotuner's early prune that
only filters its configs by their tables (`[c for c in configs if c.kwargs["BLOCK"] <= N]`)
drops those its tests reject (`_early_prune`).

Names, helpers and lists are followed at most `ORIGIN_HOPS` steps, and a comprehension gives at
most `_MAX_CONFIGS` distinct configs.

Names no source binds stay unbound: the kernel's tiles that depend on them have no size here.
"""

from __future__ import annotations

import itertools
import operator
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import libcst as cst

from .arithmetic import comparison_holds, folded_logic
from .flow import Assumptions, Flow, call_argument
from .host.dicts import only_read_by
from .host.guards import orderings, tested_walrus
from .host.records import BoundedSizes
from .imports import ImportMap, dotted_name, number_literal, root_name, statement_blocks, str_literal
from .nodes import (
    ORIGIN_HOPS,
    arms_around,
    child_nodes,
    flat_code,
    names_read,
    never_falls_through,
    only_small_statement,
    suite_lines,
    variables_read,
    walk,
    written_items,
)

if TYPE_CHECKING:  # kernels.py builds a Kernel's tiles on demand: a runtime import would be a circle
    from .host import CallSite, Launch
    from .kernels import Kernel
    from .rule import HostIndex

Value = int | float | bool
Lookup = Callable[[str], "Value | None"]
# the arm taken by each conditional expression whose test has no value (a bool), and the values
# assumed of calls: True for a `min(...)` read at its cap, the bound a test gives one, an element
# size (`possible_values`)
Assumed = Mapping[cst.BaseExpression, "Value"]
Scope = cst.FunctionDef | None
Tests = list[tuple[cst.BaseExpression, bool]]  # `if` tests around a host node, with whether each holds


@dataclass(frozen=True)
class Arm:
    """An assignment binding a launch value on some paths only, and the `if` tests around it."""

    statement: cst.CSTNode
    tests: Tests


Arms = dict[str, Arm]  # a launch value's name -> the arm binding it

_MAX_CONFIGS = 64  # a comprehension over a large literal space is cut here
_MAX_BINDINGS = 16 * _MAX_CONFIGS  # configs read, and comprehension items tried, to find them
_CALLERS_UP = 1  # callers read for a test bounding a size a `min(...)` caps
_TIED_UP = 1  # calls of a launching function up which the values they pass are tied (`_one_call_passes`)
_BINARY: dict[type[cst.CSTNode], Callable[[Any, Any], Any]] = {
    cst.Add: operator.add,
    cst.Subtract: operator.sub,
    cst.Multiply: operator.mul,
    cst.FloorDivide: operator.floordiv,
    cst.Divide: operator.truediv,
    cst.Modulo: operator.mod,
    cst.Power: operator.pow,
    cst.LeftShift: operator.lshift,
    cst.RightShift: operator.rshift,
    cst.BitOr: operator.or_,
    cst.BitAnd: operator.and_,
    cst.BitXor: operator.xor,
}

# Triton passes integers up to 64 bits; a larger constant is no launch's value (and its digits
# could overflow a float or exceed Python's limit on printing an int)
_LARGEST = 2**64
_SHIFT_LIMIT = 128  # `2 ** n` or `1 << n` past this is beyond _LARGEST, and costly to compute


def _number(value: object) -> Value | None:
    if isinstance(value, int):
        return value if -_LARGEST < value < _LARGEST else None
    return value if isinstance(value, float) else None


def evaluate(
    node: cst.BaseExpression, lookup: Lookup, imports: ImportMap | None = None, assumed: Assumed | None = None
) -> Value | None:
    """The value of a constant expression over literals and names `lookup` knows (`Class.NAME`
    looked up so, dotted), else None.

    Handles arithmetic (bitwise `|`, `&`, `^` too), comparisons, `and`/`or`/`not`, conditional expressions, `min`/`max`,
    `triton.cdiv`, `triton.next_power_of_2` and `tl.constexpr(...)`. A conditional expression
    whose test has no value takes the arm `assumed` gives it, if any (`possible_values`).
    """
    if type(node) is cst.Integer or type(node) is cst.Float:
        return _number(number_literal(node))
    if isinstance(node, cst.Name):
        return node.value == "True" if node.value in ("True", "False") else lookup(node.value)
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        return lookup(f"{node.value.value}.{node.attr.value}")  # a class attribute (`module_constants`)
    if isinstance(node, cst.BooleanOperation) or (
        isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not)
    ):  # `x or True` and `x and False` fold all the same (the compiler folds both)
        return folded_logic(node, partial(evaluate, lookup=lookup, imports=imports, assumed=assumed))
    if isinstance(node, cst.UnaryOperation):
        value = evaluate(node.expression, lookup, imports, assumed)
        if value is None:
            return None
        return -value if isinstance(node.operator, cst.Minus) else value
    if isinstance(node, cst.BinaryOperation):
        operate = _BINARY.get(type(node.operator))
        left, right = evaluate(node.left, lookup, imports, assumed), evaluate(node.right, lookup, imports, assumed)
        if operate is None or left is None or right is None:
            return None
        if operate in (operator.pow, operator.lshift) and isinstance(right, int) and right > _SHIFT_LIMIT:
            return None
        try:
            return _number(operate(left, right))
        except (ArithmeticError, ValueError, TypeError):
            return None
    if isinstance(node, cst.Comparison):
        return comparison_holds(node, partial(evaluate, lookup=lookup, imports=imports, assumed=assumed))
    if isinstance(node, cst.IfExp):
        test = evaluate(node.test, lookup, imports, assumed)
        if test is None and assumed is not None:
            test = assumed.get(node)
        return None if test is None else evaluate(node.body if test else node.orelse, lookup, imports, assumed)
    if isinstance(node, cst.Call):
        return _call(node, lookup, imports, assumed)
    return None


def _call(node: cst.Call, lookup: Lookup, imports: ImportMap | None, assumed: Assumed | None) -> Value | None:
    args = [evaluate(a.value, lookup, imports, assumed) for a in node.args if a.keyword is None and not a.star]
    values = [a for a in args if a is not None]
    name = node.func.value if isinstance(node.func, cst.Name) else None
    taken = assumed.get(node) if assumed is not None else None
    if name == "min" and values and taken is True:
        return min(values)  # at its cap: the operands with no value are at least that large
    if taken is not None and type(taken) is not bool:
        return taken  # `x.element_size()`, a `min(...)` at the bound a test gives it
    if not args or len(values) != len(args):
        return None
    if name in ("min", "max") and len(values) >= 2:
        return min(values) if name == "min" else max(values)
    if name == "int":
        try:
            return _number(int(values[0]))
        except (OverflowError, ValueError):  # `int(inf)`, `int(nan)`
            return None
    if imports is None:
        return None
    if imports.is_triton(node.func, "next_power_of_2"):
        n = int(values[0])
        return 1 if n <= 1 else 1 << (n - 1).bit_length()
    if imports.is_triton(node.func, "cdiv") or imports.is_tl(node.func, "cdiv"):
        return -(-int(values[0]) // int(values[1])) if len(values) == 2 and values[1] else None
    if imports.is_tl(node.func, "constexpr"):
        return values[0]
    return None


def possible_values(
    node: cst.BaseExpression,
    lookup: Lookup,
    imports: ImportMap | None = None,
    excluded: Callable[[cst.IfExp, bool], bool] = lambda choice, arm: False,
    bound: Bound = lambda name: (),
    assumed: Assumed | None = None,
) -> list[Value | None]:
    """The values a host expression may have (`evaluate`), one for each way the conditional
    expressions in it whose tests have no value may go: `131072 if n > 1 << 20 else 1024` has
    both, and so does `min(4096 if fp32 else 8192, BLOCK)` each of its, as nested ones do; None
    for a way giving no value, and no way taking an arm `excluded` leaves out (an arm run only on
    another platform: `2048 if is_hopper() else 262144` is 262144). A test that queries the
    device (`_queries_device`, through the names `bound` gives) of a choice with both arms left
    makes the value unknown (None). One way (`evaluate`'s value) past `_MAX_CHOICES` such
    expressions. Calls `assumed` gives a value take it, a `min(...)` given True the value of its
    operands that have one (`min(4096, triton.next_power_of_2(n))` is 4096, the largest it may
    be)."""
    assumed = dict(assumed or {})
    choices = [choice for choice in walk(node) if type(choice) is cst.IfExp]
    open_choices = [choice for choice in choices if evaluate(choice.test, lookup, imports) is None]
    if not open_choices or len(open_choices) > _MAX_CHOICES:
        return [evaluate(node, lookup, imports, assumed)]
    ways = {choice: [arm for arm in (True, False) if not excluded(choice, arm)] for choice in open_choices}
    if any(len(arms) == 2 and _queries_device(choice.test, imports, bound) for choice, arms in ways.items()):
        return [None]  # `64 if check_shared_mem("hopper") else 32`: a device's choice, not a workload's
    found: list[Value | None] = []
    for arms in itertools.product(*ways.values()):
        value = evaluate(node, lookup, imports, {**assumed, **dict(zip(open_choices, arms, strict=True))})
        if value not in found:
            found.append(value)
    return found


_MAX_CHOICES = 4  # conditional expressions of one value whose ways are tried together (16 ways)
_DATA_FUNCTIONS = frozenset({"len", "min", "max", "int", "abs", "bool", "float", "isinstance", "tuple", "list"})


Bound = Callable[[str], Sequence[cst.BaseExpression]]  # the values host code binds a name to


def _queries_device(test: cst.BaseExpression, imports: ImportMap | None, bound: Bound, hops: int = 0) -> bool:
    """The test calls a function (not a method of a value, `x.numel()`, nor a builtin or
    `triton.cdiv`-like arithmetic): `check_shared_mem(...)`, `is_hopper()`,
    `torch.cuda.get_device_capability()`, which may answer per device, one way on Ascend (fla's
    `check_shared_mem` is False there: the NPU driver reports `max_shared_mem` 1); or names a
    value `bound` to such a call (`LARGE_SMEM = check_shared_mem()`, then `if LARGE_SMEM`)."""
    if any(type(node) is cst.Call and _is_function(node.func, imports) for node in walk(test)):
        return True
    return hops < ORIGIN_HOPS and any(
        _queries_device(value, imports, bound, hops + 1) for name in variables_read(test) for value in bound(name.value)
    )


def _is_function(func: cst.BaseExpression, imports: ImportMap | None) -> bool:
    """A called function (not a method of a value), other than a builtin or `triton.cdiv`-like
    arithmetic (`_queries_device`)."""
    if isinstance(func, cst.Name):
        return func.value not in _DATA_FUNCTIONS
    if imports is None:
        return True
    arithmetic = any(imports.is_triton(func, name) for name in ("cdiv", "next_power_of_2"))
    return root_name(func) in imports.imported and not arithmetic


@dataclass(frozen=True)
class Configuration:
    """One set of constexpr values for a kernel, and where the module states it."""

    values: Mapping[str, Value]
    label: str  # e.g. "autotune config {'BK': 128}; launch at line 345 (BT=64, BV=128)"
    node: cst.CSTNode | None = None  # the triton.Config or launch that sets the values
    sources: tuple[cst.CSTNode, ...] = field(default=())
    within: cst.FunctionDef | None = None  # the function holding `node` when it is a launch
    # the assignments, one arm each, that bind launch values other arms leave to run time; the
    # label names the first one's line as `{related_line}`: a report relates them first
    arms: tuple[cst.CSTNode, ...] = field(default=())
    tuned: Mapping[str, Value] = field(default_factory=dict)  # the autotune config's own values


def configurations(kernel: Kernel, constants: Mapping[str, Value], host: HostIndex) -> list[Configuration]:
    """Every configuration the module makes visible for `kernel` on Ascend (at least one: the
    defaults; none when every launch of the module runs only on another platform,
    `HostIndex.launched_only_on_other_platform`); `constants` are the module's
    (`module_constants`, computed once for all its kernels)."""
    if host.launched_only_on_other_platform(kernel):
        return []
    imports = kernel.imports
    constexprs = {p.name for p in kernel.params if p.is_constexpr} | set(kernel.provided_constexprs)
    base = _defaults(kernel, constants, constexprs)
    provided = {name: value for name, value in base.items() if name in kernel.provided_constexprs}
    sites = tuple(dict.fromkeys(launch.args_launch for launch in host.launches_passing(kernel)))
    names = _HostNames(host, imports, {**constants, **base}, assume_largest=True, launches=sites)
    launches: list[tuple[dict[str, Value], Launch | None, Arms]] = [*_launches(kernel, names, constexprs)]
    tuned: list[tuple[dict[str, Value], cst.BaseExpression | None]] = [*_autotune_configs(kernel, names)]
    unconfigured = ""  # `_unconfigured_label`, worked out for the first configuration it labels
    found = []
    for (launch_values, launch, arms), (config_values, config) in itertools.product(
        launches or [({}, None, {})], tuned or [({}, None)]
    ):
        values = {**base, **launch_values, **config_values}
        parts = []
        if config is not None:
            parts.append(f"autotune config {_describe(config_values)}")
        if launch is not None and launch_values:
            parts.append(f"launch with {_describe(launch_values)}{_describe_arms(arms)}")
        if not parts and not provided and not unconfigured:
            unconfigured = _unconfigured_label(kernel, base, constants)
        call = launch.call if launch is not None else None
        found.append(
            Configuration(
                values=values,
                label="; ".join(parts) or (f"heuristics {_describe(provided)}" if provided else unconfigured),
                node=config if config is not None else launch.arguments_at if launch is not None else None,
                sources=tuple(n for n in (config, call) if n is not None),
                within=launch.scope if config is None and launch is not None else None,
                arms=tuple(arm.statement for arm in arms.values()),
                tuned=config_values,
            )
        )
        if len(found) >= _MAX_CONFIGS:
            break
    return found


def _unconfigured_label(kernel: Kernel, base: Mapping[str, Value], constants: Mapping[str, Value]) -> str:
    """What sets the values of a configuration no launch nor autotune config states: the
    constexpr defaults, and the module's constants the body reads as variables (`module
    constants {BLOCK=4096}`; not a parameter's name, a keyword, `f(BLOCK=...)`, nor an
    attribute, `cfg.BLOCK`)."""
    local = {*kernel.flow.constexpr_bindings, *_assigned(kernel.flow), *(param.name for param in kernel.params)}
    shown = {name for name in constants if name in base and name not in local}
    # the walk of the body only when a module constant may be read
    read_names = names_read(kernel.node.body) if shown else set()
    read = {name: value for name, value in base.items() if name in shown and name in read_names}  # in written order
    if not read:
        return "defaults"
    has_defaults = any(param.node.default is not None and param.is_constexpr for param in kernel.params)
    return ("defaults and " if has_defaults else "") + f"module constants {_describe(read)}"


def _defaults(kernel: Kernel, constants: Mapping[str, Value], constexprs: set[str]) -> dict[str, Value]:
    """The module's constants but those a parameter of the kernel hides (`BLOCK = 131072` beside
    `def k(x, BLOCK: tl.constexpr)`: the kernel reads what it is passed), the names the body
    binds as constexprs to constants of those (`Flow.constexpr_bindings`), the constexpr
    parameter defaults and the heuristics' literals."""
    fixed = _fixed_values(kernel, constants)
    params = {param.name for param in kernel.params}
    base = {name: value for name, value in fixed.items() if name not in params}
    for param in kernel.params:
        default = param.node.default
        if default is not None and param.name in constexprs:
            value = evaluate(default, fixed.get, kernel.imports)
            if value is not None:
                base[param.name] = value
    base.update(_heuristic_literals(kernel, kernel.imports, {**fixed, **base}))
    return base


def _fixed_values(kernel: Kernel, constants: Mapping[str, Value]) -> dict[str, Value]:
    """The values every specialisation of the kernel has: the module's constants and the names its
    body binds as constexprs to constants of those (`BLOCK: tl.constexpr = 65536`), which shadow them."""
    values = dict(constants)
    lookup = _outside(set(), constants, kernel.flow)
    for name in kernel.flow.constexpr_bindings:
        value = lookup(name)
        if value is None:
            values.pop(name, None)
        else:
            values[name] = value
    return values


def call_configurations(
    helper: Kernel,
    constants: Mapping[str, Value],
    written: Callable[[str], int],
    of_caller: Callable[[Kernel], list[Configuration] | None],
) -> list[Configuration] | None:
    """The specialisations the module's calls give a device function (Triton compiles one per set
    of constexpr arguments): one per call and per specialisation of its caller, binding each
    constexpr parameter the call passes, by keyword or position, a constant (a literal, a module
    constant, or a constexpr parameter of a calling device function whose own calls all fix it:
    `of_caller`), its default when the call omits it, nothing when it passes anything else (a
    kernel's constexpr parameters included: another module may launch it). None when those
    calls may not be all the function's specialisations: it is no device function of the
    module or one its host code launches too, the module never calls it, a call spreads
    `*args` / `**kwargs`, the calls give more than `_MAX_CONFIGS`, or its name is written
    anywhere else (`written`, `names_written`: passed around, exported, called through another
    name; another module importing it writes the name there, which is not seen)."""
    if not helper.is_device_function or helper.is_launched or helper.bound_name is not None:
        return None
    calls = helper.calls_in_module()
    if not calls or written(helper.name) != len(calls) + 1 or any(arg.star for _, call in calls for arg in call.args):
        return None
    constexprs = {p.name for p in helper.params if p.is_constexpr}
    base = _defaults(helper, constants, constexprs)
    found: list[Configuration] = []
    for caller, call in calls:
        outers = of_caller(caller)
        fixed = {p.name for p in caller.params if p.is_constexpr} if outers is not None else set()
        local = {p.name for p in caller.params if p.name not in fixed} | _assigned(caller.flow)
        for outer in outers if outers is not None else [Configuration(values=constants, label="module constants")]:
            values, passed = _passed(helper, call, _outside(local, outer.values, caller.flow), base, constexprs)
            if all(known.values != values for known in found):
                found.append(
                    Configuration(
                        values=values,
                        label=f"call in `{caller.name}`" + (f" with {_describe(passed)}" if passed else ""),
                        node=call,
                        within=caller.node,
                    )
                )
            if len(found) > _MAX_CONFIGS:
                return None  # too many to tell them apart: not narrowed
    return found


def _passed(
    helper: Kernel, call: cst.Call, lookup: Lookup, base: Mapping[str, Value], constexprs: set[str]
) -> tuple[dict[str, Value], dict[str, Value]]:
    """The values a call gives the device function's constexpr parameters (`base`, with each one
    it passes evaluated by `lookup`: a value not known drops the base's), and those it passes."""
    values, passed = dict(base), {}
    for position, param in enumerate(helper.params):
        argument = call_argument(call, position, param.name) if param.name in constexprs else None
        if argument is None:
            continue
        value = evaluate(argument, lookup, helper.imports)
        if value is None:
            values.pop(param.name, None)
        else:
            values[param.name] = passed[param.name] = value
    return values, passed


def passed_values(
    helper: Kernel, call: cst.Call, caller: Kernel, values: Mapping[str, Value], constants: Mapping[str, Value]
) -> dict[str, Value]:
    """The constexpr values `call`, in `caller`, gives the device function `helper` in the
    caller's specialisation with `values` (a launch's `launch_values`, or its own call's): what
    each constexpr parameter is passed, a literal, a module constant (`constants`, the helper's
    module's) or an expression of the values the caller has (`_body(x, USE_DOT)` in a kernel
    launched with `USE_DOT=False`), or its default when the call omits it; none for one passed
    anything else."""
    constexprs = {p.name for p in helper.params if p.is_constexpr}
    local = {p.name for p in caller.params if p.name not in values} | _assigned(caller.flow)
    lookup = _outside(local, values, caller.flow)
    return _passed(helper, call, lookup, _defaults(helper, constants, constexprs), constexprs)[0]


def literal_arguments(helper: Kernel, call: cst.Call) -> dict[str, Value]:
    """The constexpr values `call` gives the device function `helper` in every specialisation
    of its caller: each constexpr parameter it passes a literal (by keyword or position) or
    omits with a literal default (`GUARD=True`, `SWAP: tl.constexpr = False`)."""
    found: dict[str, Value] = {}
    for position, param in enumerate(helper.params):
        if param.is_constexpr:
            argument = call_argument(call, position, param.name)
            written = param.node.default if argument is None else argument
            value = None if written is None else evaluate(written, lambda _: None, helper.imports)
            if value is not None:
                found[param.name] = value
    return found


def names_written(module: cst.Module) -> Counter[str]:
    """How many times the module's code writes each name, or a string holding just a name
    (`__all__ = ["f"]`); comments and docstrings aside."""
    found: Counter[str] = Counter()
    stack: list[cst.CSTNode] = [module]  # in any order: counts
    while stack:
        node = stack.pop()
        if type(node) is cst.Name:  # both node types are final: no `isinstance` (see nodes.child_nodes)
            found[node.value] += 1
        elif type(node) is cst.SimpleString:
            text = str_literal(node)
            if text is not None and text.isidentifier():
                found[text] += 1
        else:  # neither holds code
            stack.extend(child_nodes(node))
    return found


def decided_outcomes(flow: Flow, values: Mapping[str, Value]) -> Assumptions:
    """The outcomes (flow's normalised test, whether it holds) of the constexpr tests of a
    kernel's body (its `flow`), of `if`s and of conditional expressions (`x if FLAG else y`),
    that `values` decide: the arms a specialisation with them never compiles. A name the body
    assigns is not decided by them, but one it binds as a constexpr is
    (`Flow.constexpr_bindings`: `USE_DOT: tl.constexpr = False`, or an expression of `values`)."""
    lookup = _outside(_assigned(flow), values, flow)
    tests = [(branch.node.test, branch.key) for branch in flow.branches if branch.test_is_constexpr]
    tests += [
        (choice.test, flow.choice_key(choice))
        for choice in flow.conditional_expressions
        if flow.is_constexpr(choice.test)
    ]
    outcomes = set()
    for test, (key, polarity) in tests:
        outcome = evaluate(test, lookup, flow.imports)
        if outcome is not None:
            outcomes.add((key, polarity == bool(outcome)))
    return frozenset(outcomes)


def launch_values(kernel: Kernel, launch: Launch, constants: Mapping[str, Value], host: HostIndex) -> dict[str, Value]:
    """The constexpr values one launch of the kernel fixes (their test outcomes:
    `decided_outcomes`): the value each constexpr parameter is passed (a literal, or a host name
    with one known value), or its default when the launch leaves it out, beside the module's
    constants its parameters do not hide. A parameter passed anything else, provided by
    heuristics or autotune configs, or perhaps passed in a splat has none."""
    names = _HostNames(host, kernel.imports, constants)
    splats = any(arg.star for arg in launch.args)
    params = {p.name for p in kernel.params}
    values = {name: value for name, value in constants.items() if name not in params}
    for param in kernel.params:
        if not param.is_constexpr or param.name in kernel.provided_constexprs:
            continue
        passed = host.argument(launch, kernel, param.name)
        if passed is not None:
            value = evaluate(passed.value, names.lookup(passed.scope), kernel.imports)
        elif param.node.default is not None and not splats:
            value = evaluate(param.node.default, values.get, kernel.imports)
        else:
            value = None
        if value is not None:
            values[param.name] = value
    return values


def _outside(local: set[str], values: Mapping[str, Value], flow: Flow) -> Lookup:
    """The values of names other than the `local` ones, and of the names the body binds as
    constexprs (`Flow.constexpr_bindings`), evaluated with those."""
    bindings = flow.constexpr_bindings

    def find(name: str, depth: int = 0) -> Value | None:
        if name in bindings:
            if depth > _MAX_BINDING_DEPTH:
                return None
            return evaluate(bindings[name], lambda n: find(n, depth + 1), flow.imports)
        return None if name in local else values.get(name)

    return find


_MAX_BINDING_DEPTH = 8  # constexpr bindings reading constexpr bindings, followed


def _assigned(flow: Flow) -> set[str]:
    """The names the body binds (not only as parameters)."""
    return {name for name, defs in flow.defs.items() if any(type(d.node) is not cst.Param for d in defs)}


def _describe(values: Mapping[str, Value]) -> str:
    return "{" + ", ".join(f"{k}={v!r}" for k, v in values.items()) + "}"


def _describe_arms(arms: Arms) -> str:
    """Where launch values bound in one arm come from: ` (`BLOCK` as bound at line 24; ...)`."""
    if not arms:
        return ""
    names = ", ".join(f"`{name}`" for name in arms)
    statements = [arm.statement for arm in arms.values()]
    if all(isinstance(statement, cst.Assert) for statement in statements):
        if len(arms) == 1:
            return f" ({names} one of the values asserted at line {{related_line}})"
        # `assert D == 64 and BM == 256`, or one assert for each
        first = "" if len({id(statement) for statement in statements}) == 1 else ", the first"
        return f" ({names} values asserted{first} at line {{related_line}})"
    if len(arms) == 1:
        return f" (`{next(iter(arms))}` as bound at line {{related_line}}; its other bindings are not constants)"
    return f" ({names} as bound in one arm each, the first at line {{related_line}}; their other bindings are not constants)"


def module_constants(module: cst.Module, imports: ImportMap) -> dict[str, Value]:
    """Module-level names assigned exactly once, to a constant expression of earlier ones, and
    the attributes of each class defined once at module level, from nothing but `object`
    (`Class.NAME`, `_class_constants`), that no code assigns (`Class.NAME = ...`)."""
    values: dict[str, Value] = {}
    seen: set[str] = set()
    classes: dict[str, dict[str, Value]] = {}
    for statement in module.body:
        if isinstance(statement, cst.ClassDef):
            name = statement.name.value
            plain = all(isinstance(base.value, cst.Name) and base.value.value == "object" for base in statement.bases)
            if name in seen or statement.keywords or not plain:  # an enum's members are no numbers
                classes[name] = {}
            else:
                classes[name] = _class_constants(statement, values, imports)
            seen.add(name)
            continue
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            target, value = _single_assignment(small)
            if target is None:
                continue
            result = evaluate(value, values.get, imports) if value is not None else None
            if target in seen or result is None:
                values.pop(target, None)
                classes.pop(target, None)
            else:
                values[target] = result
            seen.add(target)
    if any(classes.values()):  # the walk of the whole module only when a class has constants
        stored = _attributes_stored(module)
        for name, attributes in classes.items():
            values.update({f"{name}.{attr}": value for attr, value in attributes.items() if (name, attr) not in stored})
    return values


def _class_constants(node: cst.ClassDef, known: Mapping[str, Value], imports: ImportMap) -> dict[str, Value]:
    """The names a class body binds exactly once, to a constant expression of its earlier names
    or `known` ones: the class's own namespace, no module names. A name a compound statement of
    the body writes (a method's name, an `if` arm) is no constant."""
    values: dict[str, Value] = {}
    seen: set[str] = set()
    for statement in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
        if not isinstance(statement, cst.SimpleStatementLine):
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                written = {statement.name.value}
            else:
                written = {name.value for name in walk(statement) if type(name) is cst.Name}
            for name in written:
                values.pop(name, None)
            seen |= written
            continue
        for small in statement.body:
            target, value = _single_assignment(small)
            if isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
                target, value = small.target.value, None
            if target is None:
                continue
            result = evaluate(value, {**known, **values}.get, imports) if value is not None else None
            if target in seen or result is None:
                values.pop(target, None)
            else:
                values[target] = result
            seen.add(target)
    return values


def _attributes_stored(module: cst.Module) -> set[tuple[str, str]]:
    """`(Class, NAME)` for each `Class.NAME = ...` (or augmented) anywhere in the module."""
    stored = set()
    for node in walk(module):
        if type(node) is cst.Assign:
            targets = [target.target for target in node.targets]
        elif type(node) is cst.AugAssign or type(node) is cst.AnnAssign:
            targets = [node.target]
        else:
            continue
        for target in targets:
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                stored.add((target.value.value, target.attr.value))
    return stored


def _single_assignment(small: cst.BaseSmallStatement) -> tuple[str | None, cst.BaseExpression | None]:
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
        return small.target.value, small.value
    return None, None


def _heuristic_literals(kernel: Kernel, imports: ImportMap, known: Mapping[str, Value]) -> dict[str, Value]:
    values: dict[str, Value] = {}
    for name, returned in kernel.provided_constexprs.items():
        if returned is not None:
            value = evaluate(returned, known.get, imports)
            if value is not None:
                values[name] = value
    return values


def _launches(
    kernel: Kernel, names: _HostNames, constexprs: set[str]
) -> Iterator[tuple[dict[str, Value], Launch, Arms]]:
    """Literal constexpr arguments of each `kernel[grid](...)` launch not running only on another
    platform (`HostIndex.on_other_platform`): one set per launch, and
    one per value of a name the launching function binds to a different literal on each path
    (or to a literal on some paths, `_HostNames.arm_values`)."""
    params = [p.name for p in kernel.params]
    seen: list[dict[str, Value]] = []
    arange_ends: set[str] | None = None  # `_arange_ends`, a walk of the body: once, when a launch passes a name

    def spans() -> set[str]:
        nonlocal arange_ends
        if arange_ends is None:
            arange_ends = _arange_ends(kernel)
        return arange_ends

    # `kernel[grid](...)` (also stored: `launcher = kernel[grid]`, `launcher(...)`; through a name
    # bound only to kernels: `fn = k_32 if BT == 32 else k_64`; `Ops.kernel[grid]`, `table["k"][grid]`;
    # `mod.kernel[grid]` where `mod` is a module of the package defining it), not the launch of a
    # kernel of the same name an imported module defines.
    # A launch given its grid only by its helper's calls is the helper's, where its arguments are.
    launches = [
        launch for launch in names.host.launches_passing(kernel) if not names.host.on_other_platform(launch.call)
    ]
    for launch in dict.fromkeys(launch.args_launch for launch in launches):
        if not _launches_this(launch, kernel, names):
            continue
        # by position or keyword, also as `**kw` entries (`kw = {"BLOCK": 64}`, maybe a caller's)
        arguments = {name: names.host.argument(launch, kernel, name) for name in params if name in constexprs}
        passed = {
            name: (argument.value, argument.scope) for name, argument in arguments.items() if argument is not None
        }
        choices: dict[str, list[tuple[Value, Arm | None]]] = {}
        outer = names.lookup(launch.scope)
        powers_of_two = {
            value.value for name, (value, _) in passed.items() if isinstance(value, cst.Name) and name in spans()
        }
        for name, (value, scope) in passed.items():
            alternatives: list[tuple[Value, Arm | None]] = [(known, None) for known in names.alternatives(value, scope)]
            # read at most (a `min`'s cap or bound, a test's bound) for a block `tl.arange` spans
            spanned = name in spans() or (isinstance(value, cst.Name) and value.value in powers_of_two)
            at_most = spanned and isinstance(scope, cst.FunctionDef) and names.made_with_min(value, scope)
            if not alternatives and scope is launch.scope:
                if isinstance(value, cst.Name):
                    alternatives = (
                        [*names.arm_values(value.value, launch)]
                        or [*names.callers_arm_values(value.value, launch)]
                        or [*names.asserted_values(value.value, launch)]
                    )
                if not alternatives:  # `BLOCK=n`, `BLOCK=1 << n` under `assert n <= 14`
                    alternatives, at_most = names.tested_bound(value, launch), spanned
            if at_most:  # only a power of two compiles: the largest up to the bound (12500: 8192)
                alternatives = [(_power_of_two_at_most(known), arm) for known, arm in alternatives]
            if isinstance(value, cst.Name) and scope is launch.scope and alternatives:
                tests = _tests_reaching(value.value, launch, names)
                alternatives = [
                    (known, arm)
                    for known, arm in alternatives
                    if _may_reach(_holding(value.value, known, outer), tests, names.imports)
                ]
            if alternatives:
                choices[name] = alternatives
        for combination in itertools.islice(itertools.product(*choices.values()), _MAX_CONFIGS):
            values = {name: value for name, (value, _) in zip(choices, combination, strict=True)}
            arms = {name: arm for name, (_, arm) in zip(choices, combination, strict=True) if arm is not None}
            if any(_apart(a.tests, b.tests) for a, b in itertools.combinations(arms.values(), 2)):
                continue  # values of arms that never run together
            if not _consistent(values, passed, launch, names, arms, spans=spans()):
                continue  # `BLOCK_M=256 if D <= 64 else 16, D_HEAD=D`: not 256 with D 128
            if values not in seen:
                seen.append(values)
                yield values, launch, arms


def _power_of_two_at_most(value: Value) -> Value:
    """The largest power of two up to a positive int `value` (12500: 8192); `value` otherwise."""
    return 1 << (value.bit_length() - 1) if type(value) is int and value > 0 else value


def _arange_ends(kernel: Kernel) -> set[str]:
    """The parameters the kernel spans a `tl.arange(0, P)` with: powers of two."""
    return {
        arg.value.value
        for node in walk(kernel.node.body)
        if type(node) is cst.Call and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "arange"
        for arg in node.args[1:2]
        if isinstance(arg.value, cst.Name)
    }


def _consistent(
    values: Mapping[str, Value],
    passed: Mapping[str, tuple[cst.BaseExpression, Scope]],
    launch: CallSite,
    names: _HostNames,
    arms: Arms,
    up: int = _TIED_UP,
    spans: Collection[str] = frozenset(),
) -> bool:
    """Whether the values of a launch's arguments may go together: a name passed bare for two
    parameters has one value; an argument computed from names the launch passes bare
    (`BLOCK_M=256 if D <= 64 else 16` beside `D_HEAD=D`) has, with their values, the value it
    is given (or, for a block the kernel `spans` a `tl.arange` with, the largest power of two up
    to it: `min(n, 65536)` with `n` 20000 is read at 16384), or none known; and so do the names passed bare that the launching function binds
    so (`BLOCK_M = 256 if D <= 64 else 16`), or under `if` tests (`_bound_to`): each value
    needs an assignment those values let through, and the assignments of all of them must be
    able to run together (`if check_shared_mem(): BM, BD = 256, 64` / `else: BM, BD = 16, 256`
    never passes 256 with 256; `elif` chains too); and some call of the launching function may
    pass them together (`_one_call_passes`, `up` calls up). `launch` may be such a call, the
    values those of the parameters it passes."""
    held: dict[str, Value] = {}
    for name, (argument, scope) in passed.items():
        bare = isinstance(argument, cst.Name) and scope is launch.scope and name in values
        if bare and held.setdefault(cst.ensure_type(argument, cst.Name).value, values[name]) != values[name]:
            return False  # `D_HEAD=D, D_V=D` with two values of `D`
    if not held:
        return True
    outer = names.lookup(launch.scope)

    def lookup(name: str) -> Value | None:
        return held[name] if name in held else outer(name)

    paths: list[list[_Path]] = []
    for name, (argument, scope) in passed.items():
        if name not in values or scope is not launch.scope:
            continue
        if isinstance(argument, cst.Name):
            found = _bound_to(argument.value, values[name], arms.get(name), launch, names, lookup, held)
            if found is not None and not found:
                return False  # `if D <= 64: BLOCK_M = 256`, passed with `D` 128
            if found is not None:
                paths.append(found)
            continue
        if not any(isinstance(node, cst.Name) and node.value in held for node in walk(argument)):
            continue
        value = evaluate(argument, lookup, names.imports)
        if value is not None and values[name] not in (value, _power_of_two_at_most(value) if name in spans else value):
            return False
    if not _one_call_passes(held, launch, names, up):
        return False  # `_launch(x, 64, 256)` and `_launch(x, 256, 16)`: not 256 with 256
    combinations = itertools.islice(itertools.product(*paths), _MAX_BINDINGS)
    return any(all(not _keyed_apart(a, b) for a, b in itertools.combinations(c, 2)) for c in combinations)


def _one_call_passes(held: Mapping[str, Value], launch: CallSite, names: _HostNames, up: int) -> bool:
    """Whether one call of the launching function may pass the values `held` gives its
    parameters the launch passes bare (and the function does not bind): each call passes its
    arguments together (`_launch(x, 64, 256)` then `_launch(x, 256, 16)` never launches 256
    with 256), and, `up` calls up, as its own function ties them (`_consistent` at the call:
    `_launch(x, D, 256 if D <= 64 else 16)`, `BM` bound under `if D <= 64:` before
    `_launch(x, D, BM)`, or the call under `if D <= 64:`, `_tests_reaching`, never passes 256
    with `D` 128). A call passing a parameter what has no constant value, or spreading
    arguments, may pass anything."""
    scope = launch.scope
    if scope is None:
        return True
    params = {
        param.name.value: param
        for param in (*scope.params.params, *scope.params.kwonly_params)
        if param.name.value in held and (param.name.value, scope) not in names.host.bindings
    }
    if len(params) < 2:
        return True
    sites = names.host.callers_of(scope)
    if not sites:
        return True
    for site in sites:
        if any(arg.star for arg in site.call.args):
            return True
        passed: dict[str, tuple[cst.BaseExpression, Scope]] = {}
        for name, param in params.items():
            argument = site.passes(scope, name)
            if argument is None:
                default = None if param.default is None else evaluate(param.default, names.known.get, names.imports)
                if default is not None and default != held[name]:
                    break
                continue
            found = names.alternatives(argument, site.scope, 1)
            if found and held[name] not in found:
                break
            passed[name] = (argument, site.scope)
        else:
            if up == 0 or _tied_at(site, {name: held[name] for name in passed}, passed, names, up - 1):
                return True
    return False


def _tied_at(
    site: CallSite,
    values: Mapping[str, Value],
    passed: Mapping[str, tuple[cst.BaseExpression, Scope]],
    names: _HostNames,
    up: int,
) -> bool:
    """Whether a call of the launching function, passing `passed` for its parameters, may pass
    them the `values`: the tests around it (or before it, leaving) reading the names it passes
    bare let their values through (`_tests_reaching`), and its function binds and computes
    what it passes as those values allow (`_consistent`)."""
    outer = names.lookup(site.scope)
    bare = {argument.value: values[name] for name, (argument, _) in passed.items() if isinstance(argument, cst.Name)}

    def lookup(name: str) -> Value | None:
        return bare[name] if name in bare else outer(name)

    for name in bare:
        if not _may_reach(lookup, _tests_reaching(name, site, names), names.imports):
            return False
    return _consistent(values, passed, site, names, {}, up)


_Path = dict[str, bool]  # the tests an assignment runs under, by their code, with whether each holds


def _keyed_apart(path: _Path, other: _Path) -> bool:
    """Some test holds on one path and fails on the other (`_apart`, by the tests' code)."""
    return any(path.get(test, holds) != holds for test, holds in other.items())


def _bound_to(
    name: str,
    value: Value,
    arm: Arm | None,
    launch: CallSite,
    names: _HostNames,
    lookup: Lookup,
    held: Mapping[str, Value],
) -> list[_Path] | None:
    """The paths on which the launching function binds `name` to `value` where the names the
    launch passes bare have the values `held` gives them: through its assignments (the `arm`
    it was read from, if any), not in an arm the launch is not in, and the arms of their
    conditional expressions, whose `if` tests (`arms_around`, `_may_reach`) those values do
    not reject and whose value they do not make another (`256 if D <= 64 else 16` is 16 with
    `D` 128); each path with the tests it runs under (those reading no name bound again at or
    after the outermost `if` around the assignment: the value tested is the one then). None
    (any path) when another statement binds the name (a `for` target, a nested function), or
    a name the tests or value read that `held` gives is bound again so (its value at the
    launch may not be the one tested)."""
    suite = names.suite_of(launch)
    bound = names.host.bindings.get((name, launch.scope), [])
    if suite is None or not bound:
        return None
    statements = [(expression, names.host.binders.get(expression)) for expression in bound]
    binders = {statement for _, statement in statements}
    if not set(suite.binders(name)) <= binders:
        return None  # bound otherwise too: `for BLOCK in ...`
    if arm is not None:
        if arm.statement not in binders:
            return None  # asserted, or bound where a caller is
        statements = [(expression, statement) for expression, statement in statements if statement is arm.statement]
    found: list[_Path] = []
    for expression, statement in statements:
        if statement is None:
            return None
        blocks = names.host.bound_under.get(expression, ())
        around = arms_around(statement, blocks)
        if _apart(around, launch.arms):
            continue  # never reaches the launch
        positions = [suite.position(node) for node in (statement, *(b for b in blocks if isinstance(b, cst.If)))]
        known = [position for position in positions if position is not None]
        if len(known) != len(positions):
            return None
        first = min(known)

        def rebound(test: cst.CSTNode, among: Collection[str], first: int = first) -> bool:
            """A name of `among` the test reads is bound at or after `first`."""
            read = {n.value for n in walk(test) if type(n) is cst.Name and n.value in among}
            positions = [suite.position(binder) for read_name in read for binder in suite.binders(read_name)]
            return any(position is None or position >= first for position in positions)

        if rebound(expression, held.keys()) or any(rebound(test, held.keys()) for test, _ in around):
            return None  # `if D <= 64: BLOCK_M = 256; D = 128`: not the `D` the launch passes
        for leaf, chosen in _arms_of(expression):
            tests = around + chosen
            if not _may_reach(lookup, tests, names.imports):
                continue
            result = evaluate(leaf, lookup, names.imports)
            if result is None or result == value:
                everything = suite.names_bound()
                found.append({flat_code(t): holds for t, holds in tests if not rebound(t, everything)})
    return found


def _arms_of(expression: cst.BaseExpression) -> list[tuple[cst.BaseExpression, Tests]]:
    """The values a conditional expression may take, each with the tests deciding it: `a if t
    else b if u else c` is `a` (t holds), `b` (t fails, u holds) and `c`; an expression of
    another kind is itself."""
    if not isinstance(expression, cst.IfExp):
        return [(expression, [])]
    return [
        *((leaf, [(expression.test, True), *tests]) for leaf, tests in _arms_of(expression.body)),
        *((leaf, [(expression.test, False), *tests]) for leaf, tests in _arms_of(expression.orelse)),
    ]


def _tests_reaching(name: str, launch: CallSite, names: _HostNames) -> Tests:
    """The host tests reading `name` that decide whether the launch runs, with the outcome each
    has there: an `if` around it (nothing in the `if` binding the name), or one before it on
    its path whose arm leaves (`if D > 64: return`, `_left_before`)."""
    suite = names.suite_of(launch)
    if suite is None:
        return []
    tests = [
        (_test_reading(block, name, suite), suite.holds(block.body, launch.call))
        for block in launch.blocks
        if isinstance(block, cst.If)
        and (not suite.binds_anywhere([block], name) or tested_walrus(block, name, suite.binds_anywhere) is not None)
    ]
    tests += _left_before(suite.body, launch.call, name, suite)[1]
    return [
        (_on_ascend(test, launch.scope, names.host), holds)
        for test, holds in tests
        if any(isinstance(n, cst.Name) and n.value == name for n in walk(test))
    ]


def _test_reading(statement: cst.If, name: str, suite: _Suite) -> cst.BaseExpression:
    """The test of an `if` as it tests `name`: a `(name := value)` it binds the name by
    (`guards.tested_walrus`) read as the name, which holds that value past it (`n in (64, 128)` of
    `(n := pick()) in (64, 128)`)."""
    walrus = tested_walrus(statement, name, suite.binds_anywhere)
    if walrus is None:
        return statement.test
    read = statement.test.deep_replace(walrus, walrus.target)
    return read if isinstance(read, cst.BaseExpression) else statement.test


def _on_ascend(test: cst.BaseExpression, scope: Scope, host: HostIndex) -> cst.BaseExpression:
    """The test with the platform tests among the operands of its `and` / `or` written as what
    they are on Ascend (`HostIndex.platform_outcome`): `if IS_NPU and BLOCK > 8192: continue`
    skips 65536 on Ascend."""
    if not isinstance(test, cst.BooleanOperation):
        return test
    sides = []
    for side in (test.left, test.right):
        outcome = host.platform_outcome(side, scope)
        sides.append(_on_ascend(side, scope, host) if outcome is None else cst.Name(str(outcome)))
    return test.with_changes(left=sides[0], right=sides[1])


def _holding(name: str, value: Value, outer: Lookup) -> Lookup:
    """`outer`'s values, with `name` holding `value`."""
    return lambda read: value if read == name else outer(read)


def _may_reach(lookup: Lookup, tests: Tests, imports: ImportMap) -> bool:
    """Whether code under `tests` may run with the names holding the values `lookup` gives:
    none of the tests goes against them (`if D <= 64:` around a launch passing `D` rules out
    128 there, its `else` rules out 64; `if D <= _MAX_D:` with the module's `_MAX_D = 64`
    too)."""
    for test, holds in tests:
        outcome = _test_outcome(test, lookup, imports)
        if outcome is not None and outcome != holds:
            return False
    return True


def _left_before(block: Sequence[cst.BaseStatement], launch: cst.Call, name: str, suite: _Suite) -> tuple[bool, Tests]:
    """Whether the launch is in `block`, and the tests reading `name` of the `if`s before it on
    its path (in `block` and the blocks around the launch) one arm of which leaves (`return`,
    `raise`, `continue`, `break`), with whether each holds past it: False when its body leaves,
    True when its `else` does; none from before a binding of `name` on the path. `suite` is the
    block of host code around them all, read once (`_Suite.exits_before`)."""
    place = suite.line_holding(block, launch)
    if place is None:
        return False, []
    statement = block[place]
    tests = suite.exits_before(block, place, name)
    if isinstance(statement, cst.SimpleStatementLine):
        return True, tests
    if suite.binds_anywhere(_header(statement), name):
        tests = []
    for inner in statement_blocks(statement):
        on_path, found = _left_before(inner, launch, name, suite)
        if on_path:
            return True, tests + found
    return True, []


def _test_outcome(test: cst.BaseExpression, lookup: Lookup, imports: ImportMap) -> bool | None:
    """Whether a host test holds (`evaluate`: `x in (16, 32)` / `x not in {...}` against literals
    too), inside `not`, `and` and `or` (`folded_logic` of the truth of each other part: `x or
    16` holds); None when unknown."""

    def holds(part: cst.BaseExpression) -> bool | None:
        outcome = evaluate(part, lookup, imports)
        return None if outcome is None else bool(outcome)

    return folded_logic(test, holds)


def _launches_this(launch: Launch, kernel: Kernel, names: _HostNames) -> bool:
    """Whether a launch of the kernel's name is one of this kernel: a launch through an
    imported name (`mod.kernel[grid]`) is when the import resolves to it."""
    held = launch.held
    if isinstance(held, cst.Name) or root_name(held) not in names.imports.imported:
        return True
    reference = dotted_name(held)
    return reference is not None and kernel in names.host.imported_kernels(reference, launch.scope)


@dataclass(frozen=True)
class _HostNames:
    """The values host names hold: what the host code binds them to in a scope (or the
    functions around it, or the module), else a parameter default of the scope, else `known`."""

    host: HostIndex
    imports: ImportMap
    known: Mapping[str, Value]
    assume_largest: bool = False  # read calls at the largest tiles they permit (`assumed`)
    launches: Sequence[CallSite] = ()  # the kernel's, where a test bounding a capped size must hold
    # `_passed` by parameter, function and hops (worked out once: functions sharing a name and
    # calling themselves reach a parameter through many paths)
    passed_memo: dict[tuple[str, cst.FunctionDef, int], list[Value]] = field(default_factory=dict, compare=False)
    # the blocks of host code `asserted_values` and `_tests_reaching` read, each read once (`_Suite`)
    suites: dict[cst.CSTNode, _Suite] = field(default_factory=dict, compare=False)
    # `bound` by name, scope and `extended`: each launch asks about the names it passes
    bound_memo: dict[tuple[str, Scope, bool], list[cst.BaseExpression] | None] = field(
        default_factory=dict, compare=False
    )
    # `assumed`, `_capped_at` and `_runtime_size` by node, scope and hops, each worked out once: a line of
    # updates (`n = min(n, 1024)`, `HostIndex.updated_in_line`) nests each cap in the next. Past
    # `ORIGIN_HOPS` no name is read, so every count of hops beyond it reads the same
    assumed_memo: dict[tuple[cst.BaseExpression, Scope, int], dict[cst.BaseExpression, Value]] = field(
        default_factory=dict, compare=False
    )
    capped_memo: dict[tuple[cst.Call, Scope, int], Value | None] = field(default_factory=dict, compare=False)
    runtime_memo: dict[tuple[cst.BaseExpression, Scope, int], bool] = field(default_factory=dict, compare=False)
    # `_binds_min` by name, scope and whether the functions around it count
    min_memo: dict[tuple[str, Scope, bool], bool] = field(default_factory=dict, compare=False)
    # `_runs_in`'s launches, by function: each of n launches' sizes asks about all of them
    runs_memo: dict[Scope, list[CallSite]] = field(default_factory=dict, compare=False)
    # `while_around`'s loops by the ids of the nodes in their bodies, by function
    whiles_memo: dict[cst.FunctionDef, dict[int, cst.While]] = field(default_factory=dict, compare=False)
    # `_upper_bound`'s reads of a test at all those launches (`_kept_at`, `_carried_at`), by the test's
    # names or size, where it holds and the launches' ids: each of n launches' sizes asks again
    kept_memo: dict[tuple[BoundedSizes, cst.CSTNode, tuple[int, ...]], bool] = field(
        default_factory=dict, compare=False
    )
    carried_memo: dict[tuple[cst.Name, int, cst.CSTNode, tuple[int, ...]], int | None] = field(
        default_factory=dict, compare=False
    )

    def lookup(self, scope: Scope, hops: int = 0) -> Lookup:
        """A name's value when it has exactly one."""
        return lambda name: _only(self.values(name, scope, hops))

    def alternatives(self, node: cst.BaseExpression, scope: Scope, hops: int = 0) -> list[Value]:
        """The values an expression may hold: those of a name (`values`), else its one value."""
        if isinstance(node, cst.Name) and node.value not in ("True", "False"):
            return self.values(node.value, scope, hops)
        found = self.possible_read(node, scope, hops)
        return [] if None in found else [value for value in found if value is not None]

    def possible_read(self, node: cst.BaseExpression, scope: Scope, hops: int) -> list[Value | None]:
        """`possible` values of a host expression, or of the tuple elements it reads (`_TILE[1]`,
        `_tiles()[1]`: `HostIndex.elements_read`), None for an element not known, of the values a
        class attribute it reads holds (`self.BLOCK`: `HostIndex.attribute_values`, each read one hop
        on and none past `ORIGIN_HOPS`: `self.BLOCK = min(self.BLOCK, 1024)` reads itself), or of
        what the module's function it calls returns for its arguments (`_block(n)` of a `def
        _block(n): return 4096 if n > 1024 else 1024`: both, `HostIndex.returned_for`)."""
        read: Sequence[tuple[cst.BaseExpression | None, Scope]] = []
        attribute = isinstance(node, cst.Attribute)
        if isinstance(node, cst.Subscript):  # `f(...)[i]`: nothing when `f` chooses by device
            called = node.value if isinstance(node.value, cst.Call) else None
            read = (
                []
                if called is not None and self._chooses_by_device(called, scope)
                else self.host.elements_read(node, scope)
            )
        elif isinstance(node, cst.Call) and not self._chooses_by_device(node, scope):
            read = [(made, scope) for made in self.host.returned_for(node, scope)]
        elif isinstance(node, cst.Attribute) and hops <= ORIGIN_HOPS:  # `self.BLOCK` of a class attribute
            read = self.host.attribute_values(node, scope)
        found: list[Value | None] = []
        for element, where in read or [(node, scope)]:
            for value in [None] if element is None else self.possible(element, where, hops + attribute):
                if value not in found:
                    found.append(value)
        return found

    def _chooses_by_device(self, call: cst.Call, scope: Scope) -> bool:
        """The module's function `call` names in `scope` (`HostIndex.called_function`, the one
        whose returns are read) has an `if` testing a device query (`_queries_device`) that is
        no platform test (`HostIndex.platform_outcome`: `if is_npu(): return 1024`, of a `def
        is_npu(): return torch.npu.is_available()`, leaves the returns Ascend runs) nor has an
        arm only on another platform: `if check_shared_mem(): return 128` / `return 64` is a
        device's choice, as it is in a conditional expression (fla's `check_shared_mem` is
        False on Ascend)."""
        function = self.host.called_function(call, scope)
        if function is not None:
            bound = self.bound_values(function)
            for node in walk(function):
                if (
                    type(node) is cst.If
                    and _queries_device(node.test, self.imports, bound)
                    and self.host.platform_outcome(node.test, function) is None
                ):
                    arms = [node.body, *([node.orelse.body] if node.orelse is not None else [])]
                    if not any(self.host.on_other_platform(suite_lines(arm)[0]) for arm in arms):
                        return True
        return False

    def possible(self, node: cst.BaseExpression, scope: Scope, hops: int) -> list[Value | None]:
        """`possible_values` of a host expression, with the names of `scope`, leaving out the arms
        of its conditional expressions that run only on another platform (`BLOCK = 4096 if
        x.device.type == "npu" else 65536`: 4096)."""
        on_other = self.host.on_other_platform

        def excluded(choice: cst.IfExp, arm: bool) -> bool:
            return on_other(choice.body if arm else choice.orelse) and not on_other(choice)

        lookup, bound = self.lookup(scope, hops), self.bound_values(scope)
        return possible_values(node, lookup, self.imports, excluded, bound, self.assumed(node, scope, hops))

    def assumed(self, node: cst.BaseExpression, scope: Scope, hops: int) -> dict[cst.BaseExpression, Value]:
        """With `assume_largest`, the calls in `node` read at the largest tiles they permit: a `min(...)`
        capping a runtime size (an operand no name of which has a value, `triton.next_power_of_2(
        group_size)` with `group_size` from a tensor's shape, and that queries no device) at its
        cap (True): the size may grow past it, so a tile sized by it must fit at the cap; such a
        size no `min` caps (`_sizes_by_runtime`) at the bound a test where the kernel runs gives it
        (`_upper_bound`: `triton.next_power_of_2(n)` under `if n <= 32768:` is 32768); and
        `x.element_size()` at the bytes of the dtype the host shows for `x`, else 2 (the 16-bit
        elements the estimate assumes: `65536 // x.element_size()` is 32768)."""
        key = (node, scope, min(hops, ORIGIN_HOPS + 1))
        if key not in self.assumed_memo:
            self.assumed_memo[key] = self._assumed(node, scope, hops) if self.assume_largest else {}
        return self.assumed_memo[key]

    def _assumed(self, node: cst.BaseExpression, scope: Scope, hops: int) -> dict[cst.BaseExpression, Value]:
        found: dict[cst.BaseExpression, Value] = {}
        calls = [call for call in walk(node) if type(call) is cst.Call]
        capped = {id(each) for call in calls if _named(call.func, "min") for arg in call.args for each in walk(arg)}
        for call in calls:
            func = call.func
            if _named(func, "min"):
                sizes = [
                    arg.value for arg in call.args if not arg.keyword and self._runtime_size(arg.value, scope, hops)
                ]
                read_at = self._capped_at(call, sizes, scope, hops) if sizes else None
                if read_at is not None:
                    found[call] = read_at
            elif isinstance(func, cst.Attribute) and func.attr.value == "element_size" and not call.args:
                found[call] = self.host.element_bytes(func.value, scope) or 2
            elif (
                id(call) not in capped
                and hops <= ORIGIN_HOPS  # a test's bound may read a size so bounded in turn
                and self._sizes_by_runtime(call, scope, hops)
                and scope is not None
            ):
                at = self._runs_in(scope, call)
                bound = self._upper_bound(_binds_node(self.host, call, scope), [call], at, hops, exact=True)
                if bound is not None:
                    found[call] = bound
        return found

    def _sizes_by_runtime(self, call: cst.Call, scope: Scope, hops: int) -> bool:
        """`triton.next_power_of_2(n)` or `triton.cdiv(n, ...)` of a runtime size (`_runtime_size`):
        a size growing with it, which a test bounding `n` at the launch bounds (`assumed`)."""
        imports, func = self.imports, call.func
        grows = (
            imports.is_triton(func, "next_power_of_2") or imports.is_triton(func, "cdiv") or imports.is_tl(func, "cdiv")
        )
        return grows and bool(call.args) and self._runtime_size(call.args[0].value, scope, hops)

    def _capped_at(self, cap: cst.Call, sizes: list[cst.BaseExpression], scope: Scope, hops: int) -> Value | None:
        """What a `min(...)` capping the runtime `sizes` is read at: its cap (True), unless they are
        bounded from above, below the cap, where it runs; then the bound they reach there
        (`if n <= 32768:` around `min(triton.next_power_of_2(n), 65536)`: 32768), None when the
        bound is of a name merely behind them. Bounded: a test holding where the kernel runs in
        `scope` (`_runs_in`, `HostIndex.tests_at`: not one after the launch or in another arm)
        orders a name or extent they read (through the values bound to their names: `if
        x.shape[-1] <= 512:` or `if 2 * D <= 1024:` with `D = x.shape[-1]`) below values all
        under the cap's (`alternatives` of operands with no size `_sizes_by_runtime` reads; not
        what reads a name bound to the cap: `if N > BLOCK: raise` with `BLOCK = min(...)`, or
        `BLOCK = CAP` after `CAP = min(...)`, keeps N up to the cap, as `if N > 65536 //
        x.element_size(): raise` does a cap of as much); or every call of `scope` in the module
        (one caller up: `_upper_bound`) so bounds what it passes for a parameter they read. A
        floor (`if n > 0:`, `if n == 0: return`) bounds nothing, nor does an equality with what
        has no value (`assert w.shape == (N,)`). Module-level code is not read (None)."""
        key = (cap, scope, min(hops, ORIGIN_HOPS + 1))
        if key not in self.capped_memo:
            self.capped_memo[key] = None if scope is None else self._cap_read_at(cap, sizes, scope, hops)
        return self.capped_memo[key]

    def _cap_read_at(
        self, cap: cst.Call, sizes: list[cst.BaseExpression], scope: cst.FunctionDef, hops: int
    ) -> Value | None:
        caps = [
            max(values)
            for arg in cap.args
            if not any(type(call) is cst.Call and self._sizes_by_runtime(call, scope, hops) for call in walk(arg.value))
            and (values := self.alternatives(arg.value, scope, hops + 1))
        ]
        if not caps:
            return None  # no cap to read
        capped, at = _binds_node(self.host, cap, scope), self._runs_in(scope, cap)
        bound = self._upper_bound(capped, sizes, at, hops)
        if bound is None or not bound < min(caps):
            return True
        return self._upper_bound(capped, sizes, at, hops, exact=True)

    def _runs_in(self, scope: cst.FunctionDef, cap: cst.Call) -> list[CallSite]:
        """Where the kernel runs in `scope`, sized by `cap` written there: its launches there, else
        the calls there of a function launching it (`_launch(x, BLOCK)` after `BLOCK = min(...)`,
        through `ORIGIN_HOPS` callers), else the cap itself (a helper returning it)."""
        host = self.host
        found = self.runs_memo.get(scope)
        if found is None:
            sites, reached = list(self.launches), {launch.scope for launch in self.launches}
            for _ in range(ORIGIN_HOPS):
                callers = [site for function in reached if function is not None for site in host.callers_of(function)]
                sites += callers
                reached = {site.scope for site in callers} - reached
            found = self.runs_memo[scope] = [site for site in dict.fromkeys(sites) if site.scope is scope]
        return found or [site for site in host.calls_of.get("min", ()) if site.call is cap]

    def _upper_bound(
        self,
        capped: Callable[[str], bool],
        sizes: list[cst.BaseExpression],
        at: Sequence[CallSite],
        hops: int,
        exact: bool = False,
        up: int = _CALLERS_UP,
        through: Callable[[Value], Value | None] = lambda reached: reached,
    ) -> Value | None:
        """How far the `sizes` reach at the calls `at` (all in one function), at most: the least
        bound a test holding there (`HostIndex.tests_at`) orders them under, but for what reads a
        name `capped` says is bound to the cap (`if N > BLOCK: raise` with `BLOCK = min(...)`) or
        one rebound before the calls to a value it leaves unbounded (`n = n * 64`:
        `HostIndex.bounded_at`); else, when every call of that function (`up` callers up) so
        bounds what it passes for a parameter they read (`HostIndex.bounded_by_callers`), the
        largest the callers' bounds let them reach; None when nothing bounds them. A caller's
        bound of what it passes is how far the callee's `sizes` reach with the parameter at most
        that (`through`: `triton.next_power_of_2(n)` reaches 65536 for a caller's `n <= 40000`).
        `exact` reads only the bounds `HostIndex.at_most` carries to the sizes (`_reached`), not one
        of a name merely behind them (`n` of `triton.cdiv(x.numel() // n, 40)`)."""
        host, scope = self.host, at[0].scope if at else None
        if scope is None:
            return None
        modules = self.imports.imported | self.imports.local_names
        names = set().union(*(host.names_behind(size, scope, beside_extents=True) for size in sizes)) - modules
        extents = set().union(*(host.extents_read(size, scope, behind=True) for size in sizes))
        least: Value | None = None
        for test, holds, since in host.tests_at(at):
            for lesser, greaters in orderings(test, holds, partial(host.written_out, scope=scope)):
                ordered = BoundedSizes(frozenset(host.names_growing(lesser, scope) & names))
                if not (ordered or host.extents_growing(lesser, scope) & extents):
                    continue
                # a name rebound between the test and a call to what it leaves unbounded (an
                # extent is never rebound: no call asked, however many launches share the test)
                if ordered.names and not self._kept_at(ordered, since, at, scope):
                    continue
                if any(
                    capped(name) for greater in greaters for name in host.names_behind(greater, scope, chained=True)
                ):
                    continue
                held = [self.alternatives(greater, scope, hops + 1) for greater in greaters]
                bound = max(itertools.chain.from_iterable(held)) if all(held) else None
                if type(bound) is int:  # `2 * n <= 65536`: `n` at most 32768
                    lesser, bound = host.tested_part(lesser, bound, scope)
                if type(bound) is int and isinstance(lesser, cst.Name):  # carried through a rebinding (`n = n * 64`)
                    bound = self._carried_at(lesser, bound, since, at, scope)
                    if bound is None:
                        continue
                reached = None if bound is None else self._reached(bound, lesser, sizes, scope, exact)
                reached = None if reached is None else through(reached)
                if reached is not None:
                    least = reached if least is None else min(least, reached)
        if least is not None or up == 0:
            return least
        params = names & {param.name.value for param in (*scope.params.params, *scope.params.kwonly_params)}
        reach: dict[str, Value] = {}  # the largest each parameter's callers let the sizes reach

        def bounded(site: CallSite, passed: dict[str, cst.BaseExpression]) -> set[str]:
            found = set()
            for name, value in passed.items():
                bound = self._upper_bound(lambda _: False, [value], [site], hops + 1, exact, up - 1, reached_from(name))
                if bound is not None:
                    reach[name] = max(reach.get(name, bound), bound)
                    found.add(name)
            return found

        def reached_from(param: str) -> Callable[[Value], Value | None]:
            def reach_through(reached: Value) -> Value | None:
                value = self._reached(reached, cst.Name(param), sizes, scope, exact)
                return None if value is None else through(value)

            return reach_through

        return min((reach[name] for name in host.bounded_by_callers(scope, params, bounded)), default=None)

    def _kept_at(self, ordered: BoundedSizes, since: cst.CSTNode, at: Sequence[CallSite], scope: Scope) -> bool:
        """A test at `since` bounding `ordered` still bounds them at every call `at`
        (`HostIndex.bounded_at`), worked out once per test, names and calls (`kept_memo`)."""
        key = (ordered, since, tuple(map(id, at)))
        kept = self.kept_memo.get(key)
        if kept is None:
            host = self.host
            kept = self.kept_memo[key] = all(
                host.bounded_at(ordered, since, site.call, scope) == ordered for site in at
            )
        return kept

    def _carried_at(
        self, tested: cst.Name, bound: int, since: cst.CSTNode, at: Sequence[CallSite], scope: Scope
    ) -> int | None:
        """How far `tested`, at most `bound` after `since`, reaches at the calls `at`
        (`HostIndex.bound_since`), the largest, None when one is unknown; once per test and calls
        (`carried_memo`)."""
        key = (tested, bound, since, tuple(map(id, at)))
        if key not in self.carried_memo:
            carried = [self.host.bound_since((tested, bound), since, site.call, scope) for site in at]
            self.carried_memo[key] = None if None in carried else max(each[1] for each in carried if each is not None)
        return self.carried_memo[key]

    def _reached(
        self, bound: Value, lesser: cst.BaseExpression, sizes: list[cst.BaseExpression], scope: Scope, exact: bool
    ) -> Value | None:
        """How far the capped `sizes` reach where `lesser` is at most `bound`: the least of what
        those made of it reach (`HostIndex.at_most`: `triton.next_power_of_2(n)` reaches
        65536 for `n <= 40000`), else `bound` itself, or None when `exact`."""
        if type(bound) is not int:
            return None if exact else bound
        reached = (self.host.at_most(size, scope, guarded=(lesser, bound)) for size in sizes)
        return min((each for each in reached if each is not None), default=None if exact else bound)

    def _runtime_size(self, node: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """No name in `node` has a value (`values`), and it queries no device (`_queries_device`)."""
        key = (node, scope, min(hops, ORIGIN_HOPS + 1))
        if key not in self.runtime_memo:
            self.runtime_memo[key] = self._reads_only_runtime(node, scope, hops)
        return self.runtime_memo[key]

    def _reads_only_runtime(self, node: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        names = [n.value for n in variables_read(node)]
        return (
            bool(names)
            and not _queries_device(node, self.imports, self.bound_values(scope))
            and not any(self.values(name, scope, hops + 1) for name in names)
        )

    def bound_values(self, scope: Scope) -> Bound:
        """The values the host code binds a name to where `scope` reads it (`bound`)."""
        return lambda name: self.bound(name, scope) or ()

    def values(self, name: str, scope: Scope, hops: int = 0) -> list[Value]:
        """Every value `name` may hold in `scope`, one per binding (see `bound`), an element of a
        tuple read through (`_, BLOCK = _TILE`: `HostIndex.elements_read`); none when one of them
        is not a constant."""
        if hops > ORIGIN_HOPS:
            return []
        owner = name.partition(".")[0]
        if owner != name and (self.bound(owner, scope) is not None or self._is_param(owner, scope)):
            return []  # `Cfg.BLOCK` of a local `Cfg`, not of the module's class
        bound = self.bound(name, scope)
        if bound is not None:
            values: list[Value] = []
            for expression in bound:
                found = self.possible_read(expression, scope, hops + 1)
                if None in found:
                    return []
                values += [value for value in found if value is not None and value not in values]
            return values
        if scope is not None:
            for param in (*scope.params.params, *scope.params.kwonly_params):
                if param.name.value == name:
                    default = None if param.default is None else evaluate(param.default, self.known.get, self.imports)
                    return self._passed(param, scope, default, hops) or ([] if default is None else [default])
        value = self.known.get(name)
        return [] if value is None else [value]

    def _passed(self, param: cst.Param, scope: cst.FunctionDef, default: Value | None, hops: int) -> list[Value]:
        """The values the module's calls of `scope` pass for a parameter (`_launch(x, BLOCK)`
        after `BLOCK = 65536`), its default where a call omits it; none when a call passes what
        is no constant, or no call is seen."""
        key = (param.name.value, scope, hops)
        if key not in self.passed_memo:
            self.passed_memo[key] = self._passed_at_calls(param, scope, default, hops)
        return self.passed_memo[key]

    def _passed_at_calls(
        self, param: cst.Param, scope: cst.FunctionDef, default: Value | None, hops: int
    ) -> list[Value]:
        values: list[Value] = []
        for site in self.host.callers_of(scope):
            argument = site.passes(scope, param.name.value)
            if argument is None and any(arg.star for arg in site.call.args):
                return []  # spread in: unknown
            found = self.alternatives(argument, site.scope, hops + 1) if argument is not None else [default]
            if not found or found == [None]:
                return []
            values += [value for value in found if value is not None and value not in values]
        return values

    def _is_param(self, name: str, scope: Scope) -> bool:
        """Whether `name` is a parameter of `scope` or of a function around it."""
        while scope is not None:
            if any(param.name.value == name for param in (*scope.params.params, *scope.params.kwonly_params)):
                return True
            scope = self.host.enclosing.get(scope)
        return False

    def callers_arm_values(self, name: str, launch: Launch) -> Iterator[tuple[Value, Arm | None]]:
        """For a parameter of the launching function, what the module's calls of it pass: the
        constants of a name each binds on some of its paths (`arm_values` at the call:
        `_launch(x, BLOCK)` after `if n > 65536: BLOCK = 44032`), and any constant a call
        passes; nothing from a call passing what is neither."""
        scope = launch.scope
        if scope is None or (name, scope) in self.host.bindings:
            return
        if not any(param.name.value == name for param in (*scope.params.params, *scope.params.kwonly_params)):
            return
        seen: list[Value] = []
        for site in self.host.callers_of(scope):
            argument = site.passes(scope, name)
            if argument is None:
                continue
            found: list[tuple[Value, Arm | None]] = [
                (value, None) for value in self.alternatives(argument, site.scope, 1)
            ]
            if not found and isinstance(argument, cst.Name):
                found = [*self.arm_values(argument.value, site)]
            for value, arm in found:
                if value not in seen:
                    seen.append(value)
                    yield value, arm

    def arm_values(self, name: str, launch: CallSite) -> Iterator[tuple[Value, Arm]]:
        """The constants the function of a launch (or of a call passing `name` on to one) binds
        `name` to on some of its paths, with the assignment, when its other bindings are not
        constants: each binding that may reach the call (before it, not in an `if` arm the call
        is not in or one that returns before it, not on another platform's path) in a function
        binding `name` once per path (`bound`). None when a binding reads `name` (`BLOCK =
        min(BLOCK, n)`: a start value refined at run time is no configuration)."""
        scope = launch.scope
        bound = self.host.bindings.get((name, scope), [])
        if scope is None or len(bound) < 2 or not self.bound(name, scope):
            return
        if any(isinstance(n, cst.Name) and n.value == name for value in bound for n in walk(value)):
            return
        order = self.host.written_order(scope)
        seen: list[Value] = []
        for value in bound:
            statement = self.host.binders.get(value)
            if statement is None or not order.written_before(statement, launch.call):
                continue
            blocks = self.host.bound_under.get(value, ())
            tests = arms_around(statement, blocks)
            if _apart(tests, launch.arms) or not self.host.reaches_on_ascend(value):
                continue
            if any(_exits_before(statement, block, launch.call) for block in blocks if isinstance(block, cst.If)):
                continue
            constant = evaluate(value, self.lookup(scope, 1), self.imports)
            if constant is not None and constant not in seen:
                seen.append(constant)
                yield constant, Arm(statement, tests)

    def asserted_values(self, name: str, launch: CallSite) -> Iterator[tuple[Value, Arm]]:
        """The literals an `assert name in {16, 32, 64}` (a set, tuple or list of constants; also
        `assert name == 64`, and either beside `and`: `_asserted_items`) allows, when the assert runs before the launch on its path (a statement of a block around
        the launch, not inside an `if` before it) and nothing binds the name between."""
        suite = self.suite_of(launch)
        if suite is None:
            return
        on_path, found = _asserted_before(suite.body, launch.call, name, None, suite)
        if not on_path or found is None:
            return
        statement, items = found
        seen: list[Value] = []
        for item in items:
            constant = evaluate(item, self.lookup(launch.scope, 1), self.imports)
            if constant is None:
                return
            if constant not in seen:
                seen.append(constant)
        for constant in seen:
            yield constant, Arm(statement, [])

    def tested_bound(self, size: cst.BaseExpression, launch: CallSite) -> list[tuple[Value, Arm | None]]:
        """A runtime size passed bare or written in the launch (`BLOCK=n`, `BLOCK=1 << n`,
        `_runtime_size`) read at the bound a test where the launch runs gives it (`_upper_bound`:
        `if n <= 8192:`, as `triton.next_power_of_2(n)` is, or through a name bound to it); none
        when no test bounds it, or it is made with a `min` (`BD = min(CAP,
        triton.next_power_of_2(D))` under `if D <= 512:`): a test only lowers the cap such a
        value is read at (`assumed`), it makes no value of one left unread; nor is a test
        ordering it below such a value read (`if D > BD: raise`: `D` is no more read at the cap
        than `BD` is where the test holds)."""
        scope = launch.scope
        if scope is None or not self.assume_largest or not self._runtime_size(size, scope, 0):
            return []
        if self.made_with_min(size, scope):
            return []
        bound = self._upper_bound(self._holds_min(scope), [size], [launch], 0, exact=True)
        return [] if bound is None else [(bound, None)]

    def _holds_min(self, scope: cst.FunctionDef) -> Callable[[str], bool]:
        """Whether a name of `scope` is bound to what calls `min` (`BD = min(...)`)."""
        return lambda name: self._binds_min(name, scope, around=False)

    def _binds_min(self, name: str, scope: Scope, around: bool) -> bool:
        """Whether `scope` binds `name` to what calls `min`, or, when `around`, the functions
        around it or the module do when it binds none (`HostIndex.values_of`): worked out once
        per name, each of n launches asking about every binding of the names it passes."""
        key = (name, scope, around)
        if key not in self.min_memo:
            values = self.host.values_of(name, scope) if around else self.host.bindings.get((name, scope), ())
            self.min_memo[key] = any(_calls_min(value) for value in values)
        return self.min_memo[key]

    def made_with_min(self, node: cst.BaseExpression, scope: cst.FunctionDef, up: int = _CALLERS_UP) -> bool:
        """`node`, or a value bound to a name behind it in `scope`, or what a call of `scope`
        (`up` callers up) passes for a parameter behind it, calls `min`: what it is read at is
        a cap or a bound (`assumed`), the most it may be."""
        host = self.host
        behind = names_read(node) | host.names_behind(node, scope, chained=True)
        if _calls_min(node) or any(self._binds_min(name, scope, around=True) for name in behind):
            return True
        params = behind & {param.name.value for param in (*scope.params.params, *scope.params.kwonly_params)}
        return up > 0 and any(
            passed is not None and site.scope is not None and self.made_with_min(passed, site.scope, up - 1)
            for site in host.callers_of(scope)
            for passed in (site.passes(scope, param) for param in params)
        )

    def suite_of(self, launch: CallSite) -> _Suite | None:
        """The block of host code a launch is in (its function's body, or the module), read
        once; None for a function written on one line."""
        block = launch.scope.body if launch.scope is not None else self.host.module
        if not isinstance(block, (cst.IndentedBlock, cst.Module)):
            return None
        suite = self.suites.get(block)
        if suite is None:
            suite = self.suites[block] = _Suite(block)
        return suite

    def bound(self, name: str, scope: Scope, extended: bool = False) -> list[cst.BaseExpression] | None:
        """The values the host code binds `name` to where `scope` reads it, None when it binds
        none, but for those bound only on another platform (`HostIndex.bound_on_ascend`), and,
        when `extended`, those of `name += xs`: the list it holds extended (`extensions`), as
        `name.extend(xs)` extends it. Several are alternatives only when each is on its own
        path, in a function that assigns the name at most once in each of its statement lists
        (the arms of an `if`/`else`) and never augments it; otherwise the name is unknown
        (empty), as is a module name a function rebinds (`global USE` in it,
        `HostIndex.rebound_global`): whatever it is set to, when. Read once per name, scope and
        `extended`: a name rebound before every launch is asked about at each."""
        key = (name, scope, extended)
        if key not in self.bound_memo:
            self.bound_memo[key] = self._bound(name, scope, extended)
        return self.bound_memo[key]

    def _bound(self, name: str, scope: Scope, extended: bool) -> list[cst.BaseExpression] | None:
        if self.host.rebound_global(name, scope):
            return []
        where = self._assigning_scope(name, scope)
        if (name, where) not in self.host.bindings:
            return None
        found = [value for value in self.host.bound_on_ascend(name, where) if not (extended and self._extends(value))]
        if len(found) == 1 or (
            found
            and where is not None
            and not self.host.updates_itself(name, where)
            and _assigned_once_per_path(name, where, extended)
        ):
            return found
        updated = None if extended else self.host.updated_in_line(name, where)
        return [] if updated is None else [updated]

    def extensions(self, name: str, scope: Scope) -> list[tuple[cst.AugAssign, tuple[cst.For | cst.If, ...]]]:
        """The `name += xs` statements of the function binding `name` that `scope` reads (the
        module when none does), with the blocks around each."""
        where = self._assigning_scope(name, scope)
        found = []
        for value in self.host.bound_on_ascend(name, where):
            statement = self.host.binders.get(value)
            if isinstance(statement, cst.AugAssign) and self._extends(value):
                found.append((statement, self.host.bound_under.get(value, ())))
        return found

    def _extends(self, value: cst.BaseExpression) -> bool:
        """`value` is bound by `name += xs`."""
        statement = self.host.binders.get(value)
        return isinstance(statement, cst.AugAssign) and isinstance(statement.operator, cst.AddAssign)

    def while_around(self, node: cst.CSTNode, scope: cst.FunctionDef) -> cst.While | None:
        """The innermost `while` loop of `scope` whose body holds `node`."""
        found = self.whiles_memo.get(scope)
        if found is None:
            found = self.whiles_memo[scope] = {
                id(inner): loop for loop in walk(scope.body) if isinstance(loop, cst.While) for inner in walk(loop.body)
            }
        return found.get(id(node))

    def _assigning_scope(self, name: str, scope: Scope) -> Scope:
        """The function assigning `name` that `scope` reads (the module when none does): past a
        function taking it as a parameter, unlike `HostIndex`'s binding scope, whose parameters
        `values` reads apart (`_passed`)."""
        while scope is not None and (name, scope) not in self.host.bindings:
            scope = self.host.enclosing.get(scope)
        return scope


_Asserted = tuple[cst.Assert, Sequence[cst.BaseExpression]] | None


def _asserted_before(
    block: Sequence[cst.BaseStatement], launch: cst.CSTNode, name: str, asserted: _Asserted, suite: _Suite
) -> tuple[bool, _Asserted]:
    """Whether the launch is in `block`, and the last `assert name in (...)` among the
    statements of `block` and of the blocks around the launch before it, with its items (None
    when a binding of `name` follows it, or none is found). `suite` is the block of host code
    around them all, read once: each block's lines before the launch are a lookup
    (`_Suite.asserted_before`), not a walk per launch."""
    place = suite.line_holding(block, launch)
    if place is None:
        return False, None
    asserted = suite.asserted_before(block, place, name, asserted)
    statement = block[place]
    if isinstance(statement, cst.SimpleStatementLine):
        for small in statement.body:
            if suite.holds(small, launch):
                return True, asserted
            asserted = _after(small, name, asserted, suite)
        return True, asserted
    if suite.binds_anywhere(_header(statement), name):
        asserted = None
    for inner in statement_blocks(statement):
        on_path, found = _asserted_before(inner, launch, name, asserted, suite)
        if on_path:
            return True, found
    return True, None


# what `_Suite.asserted_before` keeps for lines that leave what is asserted before them as it is
_UNCHANGED: _Asserted = (cst.Assert(test=cst.Name("_")), ())


def _after(small: cst.BaseSmallStatement, name: str, asserted: _Asserted, suite: _Suite) -> _Asserted:
    """What is asserted of `name` after a simple statement."""
    if isinstance(small, cst.Assert):
        items = _asserted_items(small.test, name)
        return (small, items) if items is not None else asserted
    return None if suite.binds_anywhere([small], name) else asserted


def _asserted_items(test: cst.BaseExpression, name: str) -> Sequence[cst.BaseExpression] | None:
    """The values an assert's test allows `name`: the items of `name in (16, 32, 64)` (a set,
    tuple or list written out), the int of `name == 64` (either side), also as an operand of
    `and` (`D in (64, 128) and T > 0`); else None."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        left = _asserted_items(test.left, name)
        return left if left is not None else _asserted_items(test.right, name)
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    operator, other = test.comparisons[0].operator, test.comparisons[0].comparator
    named = isinstance(test.left, cst.Name) and test.left.value == name
    if isinstance(operator, cst.In):
        return written_items(other) if named else None
    if not isinstance(operator, cst.Equal):
        return None
    if not named:  # `64 == D`
        named, other = isinstance(other, cst.Name) and other.value == name, test.left
    return [other] if named and isinstance(other, cst.Integer) else None


def _header(statement: cst.BaseStatement) -> list[cst.CSTNode]:
    """The parts of a compound statement outside its blocks that may bind a name (a `for`
    target, a `with ... as`, a walrus in a test)."""
    return [
        part
        for field_name in ("target", "iter", "test", "items", "subject")
        if isinstance(part := getattr(statement, field_name, None), cst.CSTNode)
    ] + [item for item in getattr(statement, "items", ()) if isinstance(item, cst.CSTNode)]


class _Suite:
    """A block of host code read once (a function's body, or the module), so that each launch
    and name `asserted_values` and `_tests_reaching` ask about costs a lookup, not a walk of the
    block: the node holding each node, and the nodes that bind each name (an assignment,
    `for`/`with` target, walrus, `del`, import or nested definition naming it)."""

    def __init__(self, root: cst.IndentedBlock | cst.Module) -> None:
        self.body: Sequence[cst.BaseStatement] = root.body
        self._parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self._binders: dict[str, list[cst.CSTNode]] = {}
        self._holding: dict[str, set[cst.CSTNode]] = {}  # by name: the nodes holding a binder of it
        self._positions: dict[cst.CSTNode, int] = {}  # in source order
        self._lines: dict[cst.CSTNode, int] = {}  # each line's index in its block's
        self._bound_lines: dict[str, dict[cst.CSTNode, list[int]]] = {}  # `exits_before`'s, by name and block
        self._exits: dict[cst.CSTNode, dict[str, list[tuple[int, cst.BaseExpression, bool]]]] = {}  # and by block
        self._asserted: dict[tuple[cst.CSTNode, str], list[_Asserted]] = {}  # `asserted_before`, by block and name
        for node in walk(root):
            self._positions[node] = len(self._positions)
            for child in child_nodes(node):
                self._parents.setdefault(child, node)
            for bound in _names_bound(node):
                self._binders.setdefault(bound, []).append(node)
            if type(node) is cst.IndentedBlock or type(node) is cst.Module:
                self._lines.update((line, index) for index, line in enumerate(node.body))

    def holds(self, root: cst.CSTNode, node: cst.CSTNode) -> bool:
        """`node` is `root` or below it."""
        current: cst.CSTNode | None = node
        while current is not None:
            if current is root:
                return True
            current = self._parents.get(current)
        return False

    def position(self, node: cst.CSTNode) -> int | None:
        """Where `node` is in the block, in source order (an enclosing node before those in it);
        None for a node elsewhere."""
        return self._positions.get(node)

    def binders(self, name: str) -> Sequence[cst.CSTNode]:
        """The nodes binding `name` in the block (`_names_bound`)."""
        return self._binders.get(name, ())

    def names_bound(self) -> Collection[str]:
        """The names something in the block binds."""
        return self._binders.keys()

    def binds_anywhere(self, roots: Sequence[cst.CSTNode], name: str) -> bool:
        """Some assignment, `for`/`with` target, walrus, `del`, import or nested definition in
        one of `roots` binds `name`."""
        return any(root in self._holding_binders(name) for root in roots)

    def _holding_binders(self, name: str) -> set[cst.CSTNode]:
        """The nodes holding a node that binds `name` (`binds_anywhere`), worked out once."""
        holding = self._holding.get(name)
        if holding is None:
            holding = self._holding[name] = set()
            for binder in self._binders.get(name, ()):
                current: cst.CSTNode | None = binder
                while current is not None and current not in holding:
                    holding.add(current)
                    current = self._parents.get(current)
        return holding

    def line_holding(self, lines: Sequence[cst.CSTNode], node: cst.CSTNode) -> int | None:
        """The index of the line of `lines` (a block's) holding `node`; None when none does."""
        current: cst.CSTNode | None = node
        while current is not None:
            index = self._lines.get(current)
            if index is not None and index < len(lines) and lines[index] is current:
                return index
            current = self._parents.get(current)
        return None

    def asserted_before(
        self, lines: Sequence[cst.BaseStatement], place: int, name: str, asserted: _Asserted
    ) -> _Asserted:
        """What is asserted of `name` after the lines of `lines` (a block's) before the one at
        `place` (`_after`, a binding of it in a compound statement forgetting it), `asserted`
        before them; worked out once per block and name."""
        key = (self._parents[lines[place]], name)
        states = self._asserted.get(key)
        if states is None:
            states = self._asserted[key] = [_UNCHANGED]
            for line in lines:
                state = states[-1]
                if isinstance(line, cst.SimpleStatementLine):
                    for small in line.body:
                        state = _after(small, name, state, self)
                elif self.binds_anywhere([line], name):
                    state = None
                states.append(state)
        return asserted if states[place] is _UNCHANGED else states[place]

    def exits_before(self, lines: Sequence[cst.CSTNode], place: int, name: str) -> Tests:
        """The tests reading `name` of the `if`s among `lines` (a block's) before the one at
        `place`, and after the last line binding `name` (`binds_anywhere`), one arm of which
        leaves (`never_falls_through`), with whether each holds past it: False when its body
        leaves, True when its `else` does."""
        block = self._parents[lines[place]]
        by_block = self._bound_lines.get(name)
        if by_block is None:
            by_block = self._bound_lines[name] = {}
            for node in self._holding_binders(name):
                if node in self._lines:
                    by_block.setdefault(self._parents[node], []).append(self._lines[node])
            for indices in by_block.values():
                indices.sort()
        bound = by_block.get(block, [])
        last = bound[bisect_left(bound, place) - 1] if bisect_left(bound, place) else -1
        exits = self._exits_of(block).get(name, ())
        found = [(test, holds) for index, test, holds in exits if last < index < place]
        binder = lines[last] if last >= 0 else None  # `if (n := pick()) not in (64, 128): return`
        if isinstance(binder, cst.If) and tested_walrus(binder, name, self.binds_anywhere) is not None:
            found[:0] = [(_test_reading(binder, name, self), holds) for index, _, holds in exits if index == last]
        return found

    def _exits_of(self, block: cst.CSTNode) -> dict[str, list[tuple[int, cst.BaseExpression, bool]]]:
        """The `if`s of the block one arm of which leaves (`exits_before`), by the names their
        tests read, each with its index and whether its test holds past it; worked out once."""
        found = self._exits.get(block)
        if found is None:
            found = self._exits[block] = {}
            for index, statement in enumerate(getattr(block, "body", ())):
                if not isinstance(statement, cst.If):
                    continue
                if never_falls_through(statement.body):
                    holds = False
                elif isinstance(statement.orelse, cst.Else) and never_falls_through(statement.orelse.body):
                    holds = True
                else:
                    continue
                for read in {n.value for n in walk(statement.test) if isinstance(n, cst.Name)}:
                    found.setdefault(read, []).append((index, statement.test, holds))
        return found


# the field of a node that names what it binds (`_names_bound`), by the node's exact type: a
# `_Suite` asks every node of a block, and a failing `isinstance` of a libcst class is a Python call
_BINDING_FIELDS: dict[type[cst.CSTNode], str] = {
    **dict.fromkeys((cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.Del), "target"),
    **dict.fromkeys((cst.AsName, cst.FunctionDef, cst.ClassDef), "name"),
}


def _names_bound(node: cst.CSTNode) -> set[str]:
    """The names `node` itself binds: as an assignment, `for`/`with` target, walrus, `del`,
    import alias or definition."""
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif (field := _BINDING_FIELDS.get(type(node))) is not None:
        targets = [getattr(node, field)]
    else:
        return set()
    return {n.value for t in targets for n in walk(t) if type(n) is cst.Name}


def _apart(tests: Tests, others: Tests) -> bool:
    """Some `if` holds around one node and fails around the other: they never run together."""
    holding = dict(tests)
    return any(holding.get(test, holds) != holds for test, holds in others)


def _exits_before(statement: cst.CSTNode, block: cst.If, launch: cst.Call) -> bool:
    """The arm of `block` holding `statement` leaves (`return`, `raise`, ...) without the launch."""
    arm = block.body if any(node is statement for node in walk(block.body)) else block.orelse
    arm = arm.body if isinstance(arm, cst.Else) else arm
    if not isinstance(arm, cst.BaseSuite) or any(node is launch for node in walk(arm)):
        return False
    return never_falls_through(arm)


def _calls_min(value: cst.BaseExpression) -> bool:
    """`value` calls `min` (`min(n, 1024)`, `2 * min(n, 64)`)."""
    return any(type(call) is cst.Call and _named(call.func, "min") for call in walk(value))


def _named(func: cst.BaseExpression, name: str) -> bool:
    """`func` is the plain name `name` (`min`)."""
    return isinstance(func, cst.Name) and func.value == name


def _binds_node(host: HostIndex, node: cst.CSTNode, scope: Scope) -> Callable[[str], bool]:
    """Whether a name of `scope` is bound to what holds `node` (`BLOCK = min(...)`)."""
    return lambda name: any(each is node for value in host.bindings.get((name, scope), ()) for each in walk(value))


def _only(values: list[Value]) -> Value | None:
    return values[0] if len(values) == 1 else None


def _assigned_once_per_path(name: str, function: cst.FunctionDef, extended: bool = False) -> bool:
    """No statement list of `function` (outside nested functions and classes) assigns `name`
    twice (a `for` loop over it counting as one) or augments it (`name += ...`; but for `+=`
    when `extended`: a list extended)."""
    blocks: list[Sequence[cst.BaseStatement]] = [*statement_blocks(function)]
    while blocks:
        assigned = 0
        for statement in blocks.pop():
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.AugAssign) and _binds(small.target, name):
                        if not (extended and isinstance(small.operator, cst.AddAssign)):
                            return False
                        continue
                    targets = small.targets if isinstance(small, cst.Assign) else ()
                    if isinstance(small, cst.AnnAssign) and small.value is not None:
                        targets = (cst.AssignTarget(small.target),)
                    assigned += any(_binds(t.target, name) for t in targets)
            elif not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                assigned += isinstance(statement, cst.For) and _binds(statement.target, name)
                blocks.extend(statement_blocks(statement))
        if assigned > 1:
            return False
    return True


def _binds(target: cst.BaseExpression, name: str) -> bool:
    if isinstance(target, cst.Name):
        return target.value == name
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds(element.value, name) for element in target.elements)
    return False


Table = tuple[dict[str, Value], cst.BaseExpression]  # a config, and the `triton.Config` (or name) stating it
Item = Value | tuple[Value, ...]


def _autotune_configs(kernel: Kernel, names: _HostNames) -> Iterator[Table]:
    """(values, triton.Config call) for each distinct config of the kernel's autotune decorator,
    written inline or in a name or function of the module (`configs=CONFIGS`,
    `configs=get_configs()`)."""
    seen: list[Table] = []
    for call in kernel.decorators:
        if not isinstance(call, cst.Call):
            continue
        configs = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "configs"), None)
        if configs is None and names.imports.is_triton(call.func, "autotune") and call.args:
            configs = call.args[0].value
        if configs is None:
            continue
        scope = next((s for c, s in names.host.calls if c is call), None)  # a kernel made in a factory
        tables = [*itertools.islice(_config_tables(configs, names, scope, {}), _MAX_BINDINGS)]
        kept = _early_prune(call, names)
        if kept is not None and len(tables) > 1:  # Triton prunes a list of one config no more
            tables = [table for table in tables if kept(table[0])]
        for table in tables:
            if table not in seen:
                seen.append(table)
                yield table
            if len(seen) >= _MAX_CONFIGS:
                return


def _early_prune(decorator: cst.Call, names: _HostNames) -> Callable[[Mapping[str, Value]], bool] | None:
    """Whether the autotuner's early prune keeps a config (its table's values), when the
    decorator's `prune_configs_by={"early_config_prune": f}` names a function of the module, or
    is a lambda, that only filters its configs by their tables (`return [c for c in configs if
    c.kwargs["BLOCK"] <= UB_ELEMS]`): a config is dropped when its values and the module's
    constants make a test false. None for any other prune (one reading the launch's arguments
    keeps every config: its tests have no value)."""
    by = next(
        (a.value for a in decorator.args if a.keyword is not None and a.keyword.value == "prune_configs_by"), None
    )
    elements = by.elements if isinstance(by, cst.Dict) else ()
    pruner = next(
        (e.value for e in elements if isinstance(e, cst.DictElement) and str_literal(e.key) == "early_config_prune"),
        None,
    )
    scope: Scope = None
    if isinstance(pruner, cst.Lambda):
        params, returned = pruner.params, pruner.body
    elif isinstance(pruner, cst.Name) and len(names.host.functions.get(pruner.value, ())) == 1:
        [scope] = names.host.functions[pruner.value]
        lines = [line for line in suite_lines(scope.body) if not _is_docstring(line)]
        small = lines[0].body[0] if len(lines) == 1 and isinstance(lines[0], cst.SimpleStatementLine) else None
        if names.host.enclosing.get(scope) is not None or not isinstance(small, cst.Return) or small.value is None:
            return None
        params, returned = scope.params, small.value
    else:
        return None
    return _filter_by_table(returned, params, names, scope)


def _filter_by_table(
    returned: cst.BaseExpression, params: cst.Parameters, names: _HostNames, scope: Scope
) -> Callable[[Mapping[str, Value]], bool] | None:
    """The test of `[c for c in configs if ...]` over the prune's first parameter, its config's
    table read as `c.kwargs["NAME"]`; None for another expression."""
    if not isinstance(returned, cst.ListComp) or not params.params:
        return None
    clause = returned.for_in
    target, elt = clause.target, returned.elt
    if clause.inner_for_in is not None or clause.asynchronous is not None or not clause.ifs:
        return None
    if not (isinstance(target, cst.Name) and isinstance(elt, cst.Name) and elt.value == target.value):
        return None
    if not (isinstance(clause.iter, cst.Name) and clause.iter.value == params.params[0].name.value):
        return None
    read = _TableReads(target.value)
    tests = [written for test in clause.ifs if isinstance(written := test.test.visit(read), cst.BaseExpression)]
    if read.unreadable or len(tests) != len(clause.ifs):
        return None
    own = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    own |= {p.name.value for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)}
    outside = names.lookup(scope)

    def kept(values: Mapping[str, Value]) -> bool:
        def lookup(name: str) -> Value | None:
            head, dot, key = name.partition(".")
            if head == target.value:
                return values.get(key) if dot else None
            return None if head in own else outside(name)

        outcomes = [evaluate(test, lookup, names.imports) for test in tests]
        return not any(outcome is not None and not outcome for outcome in outcomes)

    return kept


class _TableReads(cst.CSTTransformer):
    """Writes `c.kwargs["NAME"]` as `c.NAME`, a name `evaluate` looks up; `unreadable` when a
    key is no identifier."""

    def __init__(self, config: str) -> None:
        super().__init__()
        self.config = config
        self.unreadable = False

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        held = updated.value
        if not (
            isinstance(held, cst.Attribute)
            and held.attr.value == "kwargs"
            and isinstance(held.value, cst.Name)
            and held.value.value == self.config
        ):
            return updated
        index = updated.slice[0].slice if len(updated.slice) == 1 else None
        key = str_literal(index.value) if isinstance(index, cst.Index) else None
        if key is None or not key.isidentifier():
            self.unreadable = True
            return updated
        return cst.Attribute(cst.Name(self.config), cst.Name(key))


def _is_docstring(line: cst.CSTNode) -> bool:
    return (
        isinstance(line, cst.SimpleStatementLine)
        and len(line.body) == 1
        and isinstance(line.body[0], cst.Expr)
        and isinstance(line.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )


def _config_tables(
    node: cst.BaseExpression, names: _HostNames, scope: Scope, loop: dict[str, Item], hops: int = 0
) -> Iterator[Table]:
    """The configs `node` holds: `triton.Config` calls, lists and tuples of them (`*OTHER`
    included), comprehensions (`loop` binds their names), and, at most `ORIGIN_HOPS` steps away,
    what a name of the scope or module is bound to and what a function of the module returns
    where Ascend runs it (not a return only another platform runs: `HostIndex.on_other_platform`)."""
    imports = names.imports
    if isinstance(node, cst.Call) and imports.is_triton(node.func, "Config"):
        if names.host.on_other_platform(node):  # none stated for another platform
            return
        table = _config_table(node)
        if table is not None:
            yield _table_values(table, _loop_lookup(loop, names, scope), imports), node
        elif (named := _named_table(node, names, scope)) is not None:
            entries, where = named
            yield _table_values(entries, names.lookup(where), imports), node
    elif isinstance(node, (cst.List, cst.Tuple)):
        for element in node.elements:
            yield from _config_tables(element.value, names, scope, loop, hops)
    elif isinstance(node, (cst.ListComp, cst.GeneratorExp)) and (iterated := _tables_iterated(node, names, scope)):
        if not names.host.on_other_platform(node):
            spread = _table_argument(cst.ensure_type(node.elt, cst.Call)) is None  # `triton.Config(**spec)`
            yield from _iterated_tables(iterated, names, scope, spread)
    elif isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        tried = itertools.count()  # items tried, over all the comprehension's loops
        for bindings in _comprehension_bindings(node, node.for_in, names, scope, loop, tried):
            yield from _config_tables(node.elt, names, scope, {**loop, **bindings}, hops)
    elif hops >= ORIGIN_HOPS:
        return
    elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):  # `CONFIGS + [...]`
        yield from _config_tables(node.left, names, scope, loop, hops + 1)
        yield from _config_tables(node.right, names, scope, loop, hops + 1)
    elif isinstance(node, cst.Name) and (bound := names.bound(node.value, scope, extended=True)) is not None:
        host = names.host
        additions = [
            *(
                (site.call.args[0].value, site.call, site.blocks, scope)
                for site in host.list_additions(node.value, scope)
            ),
            *((statement.value, statement, blocks, scope) for statement, blocks in names.extensions(node.value, scope)),
            *(
                (site.call.args[0].value, site.call, site.blocks, function)
                for param, function in host.lists_filled(node.value, scope)  # `_fill(configs)`
                for site in host.list_additions(param, function)
            ),
        ]
        added = [
            (_looped(value, addition, blocks, names, where), where)
            for value, addition, blocks, where in additions
            if _may_run(addition, blocks, names, where)
        ]
        for value, where in (*((value, scope) for value in bound), *(added if bound else ())):
            if value is not None:
                yield from _config_tables(value, names, where, {}, hops + 1)
    elif isinstance(node, cst.Name | cst.Attribute):  # imported from a module of the package
        found = names.host.imported_definition(node, scope, ("Config",))
        if found is not None:
            host, imports, name = found
            for values, _ in _config_tables(cst.Name(name), _HostNames(host, imports, {}), None, {}, hops + 1):
                yield values, node  # stated there, reported here
    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
        for returned, function in names.host.returns.get(node.func.value, ()):
            if not names.host.on_other_platform(returned):  # `return CUDA_CONFIGS` after `if is_npu(): return ...`
                yield from _config_tables(returned, names, function, {}, hops + 1)


def _may_run(node: cst.CSTNode, blocks: Sequence[cst.CSTNode], names: _HostNames, scope: Scope) -> bool:
    """The `if`s around `node` outside the loops among `blocks` (the host walk's, outermost
    first) may let it run with the values the host gives the names their tests read
    (`_may_reach`): not `if big:` in a helper every call of which passes `big=False`."""
    outside = list(itertools.takewhile(lambda block: isinstance(block, cst.If), blocks))
    return _may_reach(names.lookup(scope), arms_around(node, outside), names.imports)


def _looped(
    value: cst.BaseExpression, addition: cst.CSTNode, blocks: Sequence[cst.CSTNode], names: _HostNames, scope: Scope
) -> cst.BaseExpression | None:
    """What `configs.append(x)` (or `.extend(xs)`, `configs += xs`: the `addition`) adds: `x`,
    as a comprehension over the `for` loops among the `blocks` around it, with the `if`s inside
    them and their `if t: continue` guards as its tests, or over the trips of a `while` loop
    holding it when they are known (`_while_looped`: the loop under no `for` loop, nor an `if`
    inside it); None when the `for` loops
    leave otherwise (`break`, `return`, another `continue`)."""
    around = names.while_around(addition, scope) if isinstance(scope, cst.FunctionDef) else None
    inside = set() if around is None else set(map(id, walk(around)))
    if (
        around is not None
        and isinstance(scope, cst.FunctionDef)
        and all(isinstance(block, cst.If) and id(block) not in inside for block in blocks)
    ):  # an `if` around the loop picks a path, as for other bindings
        trips = _while_looped(value, addition, around, names, scope)
        if trips is not None:
            return trips
    clauses: list[tuple[cst.For, list[cst.BaseExpression]]] = []
    guards = 0
    arms = iter(arms_around(addition, blocks))
    for block in blocks:
        if isinstance(block, cst.For):
            skipped = [test for statement in block.body.body if (test := _skip_test(statement)) is not None]
            clauses.append((block, [cst.UnaryOperation(cst.Not(), test) for test in skipped]))
            guards += len(skipped)
        else:
            test, holds = next(arms)
            if clauses:  # (outside the loops an `if` picks a path, as for other bindings)
                clauses[-1][1].append(test if holds else cst.UnaryOperation(cst.Not(), test))
    leaving = (cst.Continue, cst.Break, cst.Return, cst.Raise)
    if clauses and sum(isinstance(node, leaving) for node in walk(clauses[0][0].body)) != guards:
        return None
    clause = None
    for loop, tests in reversed(clauses):
        clause = cst.CompFor(loop.target, loop.iter, [cst.CompIf(test) for test in tests], clause)
    return value if clause is None else cst.ListComp(value, clause)


def _while_looped(
    value: cst.BaseExpression, addition: cst.CSTNode, loop: cst.While, names: _HostNames, scope: cst.FunctionDef
) -> cst.BaseExpression | None:
    """`x` of `configs.append(x)` written in the body of a `while` loop, as a comprehension over
    the values its variable takes on the trips (`while b <= 4096:` with `b = 64` run before the
    loop, `_lines_before`, and one update `b *= 2` in its body, read before or after the update as the body orders
    them); None when the trips are not known that way, the loop may leave otherwise (`break`,
    `return`, `raise`, `continue`, an `else`), or `x` reads another name the loop binds."""
    test, lines = loop.test, list(suite_lines(loop.body))
    variable = test.left if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 else None
    leaving = (cst.Break, cst.Continue, cst.Return, cst.Raise)
    if not isinstance(variable, cst.Name) or loop.orelse is not None or any(isinstance(n, leaving) for n in walk(loop)):
        return None
    name, host = variable.value, names.host
    if names_read(value) & {bound for node in walk(loop.body) for bound in _names_bound(node)} - {name}:
        return None
    inside = set(map(id, walk(loop.body)))
    values = host.bindings.get((name, scope), [])
    updates = [each for each in values if id(host.binders.get(each)) in inside]  # `b *= 2` binds `b * 2`
    starts = [each for each in values if id(host.binders.get(each)) not in inside]
    if len(updates) != 1 or len(starts) != 1:
        return None
    [update], [start] = updates, starts
    places = [_line_of(lines, node) for node in (addition, host.binders.get(update))]
    before = _lines_before(loop, scope.body)
    if None in places or before is None or _line_of(before, host.binders.get(start)) is None:
        return None
    taken = _while_trips(loop, name, start, update, names, scope)
    if taken is None:
        return None
    updated_first = places[1] < places[0]  # type: ignore[operator]
    items = taken[1:] if updated_first else taken[:-1]
    iterated = cst.List([cst.Element(cst.Integer(str(item))) for item in items])
    return cst.ListComp(value, cst.CompFor(cst.Name(name), iterated))


def _lines_before(statement: cst.CSTNode, block: cst.BaseSuite) -> list[cst.CSTNode] | None:
    """The lines that run before `statement` on its way down from `block`: those before it in
    each block holding it (the arm of an `if`, the body of a `with`); None when it is in none
    of them (in a loop's body, a `try`, a function of its own)."""
    lines = list(suite_lines(block))
    for place, line in enumerate(lines):
        if line is statement:
            return lines[:place]
        for arm in _arms(line):
            found = _lines_before(statement, arm)
            if found is not None:
                return lines[:place] + found
    return None


def _arms(line: cst.CSTNode) -> list[cst.BaseSuite]:
    """The blocks of an `if` (its `elif`s' and `else` too) or the body of a `with`."""
    if isinstance(line, cst.With):
        return [line.body]
    if not isinstance(line, cst.If):
        return []
    orelse = line.orelse
    return [line.body, *(_arms(orelse) if isinstance(orelse, cst.If) else [] if orelse is None else [orelse.body])]


def _line_of(lines: Sequence[cst.CSTNode], statement: cst.CSTNode | None) -> int | None:
    """Where among `lines` the small statement `statement` (or the call an `Expr` of them holds)
    is written, at their own level."""
    for place, line in enumerate(lines):
        smalls = line.body if isinstance(line, cst.SimpleStatementLine) else ()
        if any(small is statement or (isinstance(small, cst.Expr) and small.value is statement) for small in smalls):
            return place
    return None


def _while_trips(
    loop: cst.While,
    name: str,
    start: cst.BaseExpression,
    update: cst.BaseExpression,
    names: _HostNames,
    scope: Scope,
) -> list[int] | None:
    """The values `name` takes from `start` through its `update` up to the first at which the
    loop's test fails (the last); None when one is no int at least 0 or the test has none, or
    the loop runs more than `_MAX_CONFIGS` trips."""
    outer = names.lookup(scope)

    def holding(current: int) -> Lookup:
        return lambda each: current if each == name else outer(each)

    current = evaluate(start, outer, names.imports)
    values: list[int] = []
    while type(current) is int and current >= 0 and len(values) <= _MAX_CONFIGS:
        values.append(current)
        held = evaluate(loop.test, holding(current), names.imports)
        if held is None:
            return None
        if not held:
            return values
        current = evaluate(update, holding(current), names.imports)
    return None


def _skip_test(statement: cst.CSTNode) -> cst.BaseExpression | None:
    """`t` of `if t: continue`."""
    if not isinstance(statement, cst.If) or statement.orelse is not None:
        return None
    return statement.test if isinstance(only_small_statement(statement.body), cst.Continue) else None


Entries = list[tuple[str | None, cst.BaseExpression]]  # a table's keys (None: not a string) and values


def _config_table(config: cst.Call) -> Entries | None:
    """The (key, value) entries of a `triton.Config`'s table: `{"BLOCK": 64}` or
    `dict(BLOCK=64)`, first or as `kwargs=`."""
    return _entries(_table_argument(config))


def _table_argument(config: cst.Call) -> cst.BaseExpression | None:
    """The table a `triton.Config` is given: its first argument, or `kwargs=`, also as the
    `"kwargs"` entry of a dict literal splatted in (`triton.Config(**{"kwargs": {...}})`)."""
    given = next(
        (a.value for a in config.args if not a.star and (a.keyword is None or a.keyword.value == "kwargs")), None
    )
    spread = _spread_spec(config)
    if given is None and isinstance(spread, cst.Dict):
        return _spec_table(_entries(spread))
    return given


def _spread_spec(config: cst.Call) -> cst.BaseExpression | None:
    """`spec` of `triton.Config(**spec)`."""
    return next((a.value for a in config.args if a.star == "**"), None)


def _spec_table(spec: Entries | None) -> cst.BaseExpression | None:
    """The `"kwargs"` entry of the entries of a dict splatted into `triton.Config`."""
    return next((value for key, value in spec or () if key == "kwargs"), None)


def _named_table(config: cst.Call, names: _HostNames, scope: Scope) -> tuple[Entries, Scope] | None:
    """The entries of a `triton.Config`'s table given by name (`triton.Config(_BIG)` after
    `_BIG = {"BLOCK": 131072}`), or the table of a dict splatted in by name
    (`triton.Config(**SPEC)`: `_spec_entries`), with the scope binding it (`_entries_of_name`)."""
    table = _table_argument(config)
    if table is not None:
        return _entries_of_name(table, names, scope)
    spec = _spread_spec(config)
    return None if spec is None else _spec_entries(spec, names, scope)


def _spec_entries(spec: cst.BaseExpression, names: _HostNames, scope: Scope) -> tuple[Entries, Scope] | None:
    """The entries of the table a dict splatted into `triton.Config` holds as `"kwargs"` (the
    dict written or named: `_entries_of_name`), that table written or named, with the scope
    binding it."""
    found = (_entries(spec), scope) if isinstance(spec, cst.Dict) else _entries_of_name(spec, names, scope)
    table = None if found is None else _spec_table(found[0])
    if found is None or table is None:
        return None
    entries = _entries(table)
    return (entries, found[1]) if entries is not None else _entries_of_name(table, names, found[1])


def _tables_iterated(
    comprehension: cst.ListComp | cst.GeneratorExp, names: _HostNames, scope: Scope
) -> list[cst.BaseExpression]:
    """The tables of `[triton.Config(c, ...) for c in (_SMALL, _BIG)]`: the items of a literal
    list or tuple (or of a name bound to one that nothing changes, `HostIndex.changed_anywhere`:
    no `_TABLES.pop()`, `_TABLES[1] = ...` nor `_filter(_TABLES)`) that a comprehension with one
    loop and no `if` hands to `triton.Config` whole; empty for any other comprehension."""
    clause, elt = comprehension.for_in, comprehension.elt
    if clause.ifs or clause.inner_for_in is not None or not isinstance(clause.target, cst.Name):
        return []
    if not (isinstance(elt, cst.Call) and names.imports.is_triton(elt.func, "Config")):
        return []
    table = _table_argument(elt) or _spread_spec(elt)
    if not (isinstance(table, cst.Name) and table.value == clause.target.value):
        return []
    iterated = clause.iter
    if isinstance(iterated, cst.Name):
        if names.host.changed_anywhere(iterated.value, scope, lambda call: _only_reads(call, names)):
            return []  # `_TABLES.pop()`, `_TABLES[1] = {...}`, `_filter(_TABLES)`: not the list built
        bound = names.bound(iterated.value, scope) or []
        iterated = bound[0] if len(bound) == 1 else iterated
    return [e.value for e in iterated.elements] if isinstance(iterated, (cst.List, cst.Tuple)) else []


def _iterated_tables(
    tables: list[cst.BaseExpression], names: _HostNames, scope: Scope, spread: bool
) -> Iterator[Table]:
    """The configs of the tables a comprehension hands to `triton.Config` one by one, or of the
    dicts it splats in (`spread`: `for s in SPECS` of `triton.Config(**s)`, `_spec_entries`),
    each reported at its item (`_BIG` of `for c in (_SMALL, _BIG)`)."""
    for table in tables:
        entries = None if spread else _entries(table)
        if spread:
            found = _spec_entries(table, names, scope)
        else:
            found = (entries, scope) if entries is not None else _entries_of_name(table, names, scope)
        if found is not None:
            yield _table_values(found[0], names.lookup(found[1]), names.imports), table


def _entries_of_name(table: cst.BaseExpression, names: _HostNames, scope: Scope) -> tuple[Entries, Scope] | None:
    """The one dict a table's name may hold (`HostIndex.dict_sources`) and the scope binding
    it; None when it may hold several, or the code changes it anywhere in the module
    (`HostIndex.changed_anywhere`: `_D.update(BLOCK=2048)` or `_shrink(_D)` at module level
    too; passing it to `triton.Config` or a builtin reading it changes nothing)."""
    if not isinstance(table, cst.Name):
        return None
    host = names.host
    if host.changed_anywhere(table.value, scope, lambda call: _only_reads(call, names)):
        return None
    sources = [*itertools.islice(host.dict_sources(table, scope), 2)]
    if len(sources) != 1:
        return None
    [(source, where)] = sources
    entries = _entries(source) if isinstance(source, cst.BaseExpression) else None
    return None if entries is None else (entries, where)


def _only_reads(call: cst.Call, names: _HostNames) -> bool:
    """A call that only reads a table (or a list of them) passed to it: `triton.Config`, or a
    builtin only reading it (`only_read_by`)."""
    return names.imports.is_triton(call.func, "Config") or only_read_by(call)


def _entries(table: cst.BaseExpression | None) -> Entries | None:
    """The entries of a dict literal or `dict(...)` call, None for anything else."""
    if isinstance(table, cst.Dict):
        return [(str_literal(e.key), e.value) for e in table.elements if isinstance(e, cst.DictElement)]
    if isinstance(table, cst.Call) and isinstance(table.func, cst.Name) and table.func.value == "dict":
        return [(a.keyword.value if a.keyword is not None else None, a.value) for a in table.args if not a.star]
    return None


def _table_values(table: Entries, lookup: Lookup, imports: ImportMap) -> dict[str, Value]:
    values: dict[str, Value] = {}
    for key, entry in table:
        value = evaluate(entry, lookup, imports)
        if key is not None and value is not None:
            values[key] = value
    return values


def _loop_lookup(loop: dict[str, Item], names: _HostNames, scope: Scope) -> Lookup:
    """A comprehension's loop names (a scalar each), else the host names of the scope."""
    host = names.lookup(scope)
    return lambda name: _scalar(loop[name]) if name in loop else host(name)


def _scalar(item: Item) -> Value | None:
    return None if isinstance(item, tuple) else item


def _comprehension_bindings(
    comprehension: cst.ListComp | cst.GeneratorExp,
    clause: cst.CompFor | None,
    names: _HostNames,
    scope: Scope,
    loop: dict[str, Item],
    tried: Iterator[int],
) -> Iterator[dict[str, Item]]:
    """Every binding of the comprehension's loop names over constant iterables, with `if`s
    applied, until `_MAX_BINDINGS` items are tried. A loop whose names the comprehension never
    reads (`for num_warps in NUM_WARPS` around a table without it) binds nothing, whatever it
    iterates (its `if`s still apply)."""
    if clause is None:
        yield {}
        return
    targets = _target_names(clause.target)
    if targets is not None and not targets & _names_read(comprehension, clause):
        if _holds(clause, loop, names, scope):
            yield from _comprehension_bindings(comprehension, clause.inner_for_in, names, scope, loop, tried)
        return
    items = _iterable_items(clause.iter, names, scope, _loop_lookup(loop, names, scope))
    if items is None or targets is None:
        return
    for item in items:
        bound = _unpack(targets, clause.target, item)
        if next(tried) >= _MAX_BINDINGS:
            return
        if bound is None:
            continue
        inner = {**loop, **bound}
        if _holds(clause, inner, names, scope):
            for rest in _comprehension_bindings(comprehension, clause.inner_for_in, names, scope, inner, tried):
                yield {**bound, **rest}


def _holds(clause: cst.CompFor, loop: dict[str, Item], names: _HostNames, scope: Scope) -> bool:
    """Whether every `if` of the clause holds with the loop names bound so."""
    return all(evaluate(test.test, _loop_lookup(loop, names, scope), names.imports) for test in clause.ifs)


def _target_names(target: cst.BaseExpression) -> set[str] | None:
    """The names a loop target binds: `x`, or `a, b` (None for other targets)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple) and all(isinstance(e.value, cst.Name) for e in target.elements):
        return {cst.ensure_type(e.value, cst.Name).value for e in target.elements}
    return None


def _unpack(targets: set[str], target: cst.BaseExpression, item: Item) -> dict[str, Item] | None:
    if isinstance(target, cst.Name):
        return {target.value: item}
    if isinstance(target, cst.Tuple) and isinstance(item, tuple) and len(item) == len(target.elements) == len(targets):
        return {cst.ensure_type(e.value, cst.Name).value: part for e, part in zip(target.elements, item, strict=True)}
    return None


def _names_read(comprehension: cst.ListComp | cst.GeneratorExp, clause: cst.CompFor) -> set[str]:
    """The names read by the comprehension's element (by the table of a `triton.Config`, not
    by its `num_warps=`...) and by the tests and iterables of `clause` and the loops inside it."""
    elt = comprehension.elt
    table = _config_table(elt) if isinstance(elt, cst.Call) else None
    parts = [value for _, value in table] if table is not None else [elt]
    read = {n.value for part in parts for n in walk(part) if isinstance(n, cst.Name)}
    inner: cst.CompFor | None = clause
    while inner is not None:
        parts = [test.test for test in inner.ifs] + ([inner.iter] if inner is not clause else [])
        read |= {n.value for part in parts for n in walk(part) if isinstance(n, cst.Name)}
        inner = inner.inner_for_in
    return read


def _iterable_items(
    node: cst.BaseExpression, names: _HostNames, scope: Scope, lookup: Lookup, hops: int = 0
) -> list[Item] | None:
    """The items of a constant iterable: a literal list, tuple or set (of constants or tuples
    of them), a `range` of constants, `itertools.product` of iterables of constants, or a name
    of the scope or module bound to one (the items of each binding when it has several, at
    most `ORIGIN_HOPS` names away)."""
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        elements = [_item(e.value, lookup, names.imports) for e in node.elements]
        constant = [i for i in elements if i is not None]
        return constant if len(constant) == len(elements) else None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range":
        bounds = [evaluate(a.value, lookup, names.imports) for a in node.args]
        integers = [b for b in bounds if isinstance(b, int)]
        if integers and len(integers) == len(bounds):
            return [*range(*integers)][:_MAX_CONFIGS]
    if isinstance(node, cst.Call) and _is_product(node.func, names.imports) and hops < ORIGIN_HOPS:
        if any(arg.keyword or arg.star for arg in node.args):
            return None  # `repeat=`, `*lists`
        factors: list[list[Value]] = []
        for arg in node.args:
            items = _iterable_items(arg.value, names, scope, lookup, hops + 1)
            if items is None or any(isinstance(item, tuple) for item in items):
                return None
            factors.append([item for item in items if not isinstance(item, tuple)])
        return [*itertools.islice(itertools.product(*factors), _MAX_CONFIGS)]
    if isinstance(node, cst.Name) and hops < ORIGIN_HOPS:
        bound = names.bound(node.value, scope)
        if not bound:
            return None
        found: list[Item] = []
        for value in bound:
            items = _iterable_items(value, names, scope, names.lookup(scope), hops + 1)
            if items is None:
                return None
            found.extend(item for item in items if item not in found)
        return found
    return None


def _is_product(func: cst.BaseExpression, imports: ImportMap) -> bool:
    """`itertools.product`, also imported by name (`from itertools import product`)."""
    head, _, rest = (dotted_name(func) or "").partition(".")
    if rest:
        return rest == "product" and imports.imported_modules.get(head) == "itertools"
    return imports.imported_from.get(head) == ("itertools", "product")


def _item(node: cst.BaseExpression, lookup: Lookup, imports: ImportMap) -> Item | None:
    if isinstance(node, cst.Tuple):
        parts = [evaluate(e.value, lookup, imports) for e in node.elements]
        known = [p for p in parts if p is not None]
        return tuple(known) if len(known) == len(parts) else None
    return evaluate(node, lookup, imports)
