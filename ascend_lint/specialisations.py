"""The constexpr values a module makes visible for a kernel, one set per configuration.

A configuration binds constexpr names to literal values, from (later sources override
earlier ones):

- module-level names bound once to a literal (`BLOCK = 64`, `RCP_LN2 = tl.constexpr(1.44)`),
  which a kernel reads as globals, and constexpr parameter defaults;
- `triton.heuristics` entries whose lambda returns a literal;
- a launch `kernel[grid](..., BT=64)` in host code: keyword (or positional) arguments that are
  literals, or names bound once to a literal in the launching function, the module, or a
  parameter default of the launching function (`BT = chunk_size` with `chunk_size: int = 64`);
- each `triton.Config({...})` of an autotune decorator (`configs=` of `triton.autotune` or of a
  wrapper taking the same keyword), including comprehensions over literal lists and `range`s.

Names no source binds stay unbound: the kernel's tiles that depend on them have no size here.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from .imports import ImportMap, number_literal, str_literal

if TYPE_CHECKING:  # kernels.py builds a Kernel's tiles on demand: a runtime import would be a circle
    from .host import Launch
    from .kernels import Kernel
    from .rule import HostIndex

Value = int | float | bool
Lookup = Callable[[str], "Value | None"]
Scope = cst.FunctionDef | None

_MAX_CONFIGS = 64  # a comprehension over a large literal space is cut here
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
}
_COMPARE: dict[type[cst.CSTNode], Callable[[Any, Any], bool]] = {
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
}


# Triton passes integers up to 64 bits; a larger constant is no launch's value (and its digits
# could overflow a float or exceed Python's limit on printing an int)
_LARGEST = 2**64
_SHIFT_LIMIT = 128  # `2 ** n` or `1 << n` past this is beyond _LARGEST, and costly to compute


def _number(value: object) -> Value | None:
    if isinstance(value, int):
        return value if -_LARGEST < value < _LARGEST else None
    return value if isinstance(value, float) else None


def evaluate(node: cst.BaseExpression, lookup: Lookup, imports: ImportMap | None = None) -> Value | None:
    """The value of a constant expression over literals and names `lookup` knows, else None.

    Handles arithmetic, comparisons, `and`/`or`/`not`, conditional expressions, `min`/`max`,
    `triton.cdiv`, `triton.next_power_of_2` and `tl.constexpr(...)`.
    """
    if type(node) is cst.Integer or type(node) is cst.Float:
        return _number(number_literal(node))
    if isinstance(node, cst.Name):
        return node.value == "True" if node.value in ("True", "False") else lookup(node.value)
    if isinstance(node, cst.UnaryOperation):
        value = evaluate(node.expression, lookup, imports)
        if value is None:
            return None
        if isinstance(node.operator, cst.Not):
            return not value
        return -value if isinstance(node.operator, cst.Minus) else value
    if isinstance(node, cst.BinaryOperation):
        operate = _BINARY.get(type(node.operator))
        left, right = evaluate(node.left, lookup, imports), evaluate(node.right, lookup, imports)
        if operate is None or left is None or right is None:
            return None
        if operate in (operator.pow, operator.lshift) and isinstance(right, int) and right > _SHIFT_LIMIT:
            return None
        try:
            return _number(operate(left, right))
        except (ArithmeticError, ValueError, TypeError):
            return None
    if isinstance(node, cst.BooleanOperation):
        left = evaluate(node.left, lookup, imports)
        if left is None or bool(left) != isinstance(node.operator, cst.And):
            return left
        return evaluate(node.right, lookup, imports)
    if isinstance(node, cst.Comparison):
        return _compare(node, lookup, imports)
    if isinstance(node, cst.IfExp):
        test = evaluate(node.test, lookup, imports)
        return None if test is None else evaluate(node.body if test else node.orelse, lookup, imports)
    if isinstance(node, cst.Call):
        return _call(node, lookup, imports)
    return None


def _compare(node: cst.Comparison, lookup: Lookup, imports: ImportMap | None) -> Value | None:
    left = evaluate(node.left, lookup, imports)
    for target in node.comparisons:
        right = evaluate(target.comparator, lookup, imports)
        operate = _COMPARE.get(type(target.operator))
        if left is None or right is None or operate is None:
            return None
        if not operate(left, right):
            return False
        left = right
    return True


def _call(node: cst.Call, lookup: Lookup, imports: ImportMap | None) -> Value | None:
    args = [evaluate(a.value, lookup, imports) for a in node.args if a.keyword is None and not a.star]
    values = [a for a in args if a is not None]
    if not args or len(values) != len(args):
        return None
    name = node.func.value if isinstance(node.func, cst.Name) else None
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


@dataclass(frozen=True)
class Configuration:
    """One set of constexpr values for a kernel, and where the module states it."""

    values: Mapping[str, Value]
    label: str  # e.g. "autotune config {'BK': 128}; launch at line 345 (BT=64, BV=128)"
    node: cst.CSTNode | None = None  # the triton.Config or launch that sets the values
    sources: tuple[cst.CSTNode, ...] = field(default=())
    within: cst.FunctionDef | None = None  # the function holding `node` when it is a launch


def configurations(kernel: Kernel, constants: Mapping[str, Value], host: HostIndex) -> list[Configuration]:
    """Every configuration the module makes visible for `kernel` (at least one: the defaults);
    `constants` are the module's (`module_constants`, computed once for all its kernels)."""
    imports = kernel.imports
    base: dict[str, Value] = dict(constants)
    constexprs = {p.name for p in kernel.params if p.is_constexpr} | set(kernel.provided_constexprs)
    for param in kernel.params:
        default = param.node.default
        if default is not None and param.name in constexprs:
            value = evaluate(default, base.get, imports)
            if value is not None:
                base[param.name] = value
    base.update(_heuristic_literals(kernel, imports, base))
    launches: list[tuple[dict[str, Value], Launch | None]] = [*_launches(kernel, host, imports, base, constexprs)]
    tuned: list[tuple[dict[str, Value], cst.Call | None]] = [*_autotune_configs(kernel, imports, base)]
    found = []
    for (launch_values, launch), (config_values, config) in itertools.product(
        launches or [({}, None)], tuned or [({}, None)]
    ):
        values = {**base, **launch_values, **config_values}
        parts = []
        if config is not None:
            parts.append(f"autotune config {_describe(config_values)}")
        if launch is not None and launch_values:
            parts.append(f"launch with {_describe(launch_values)}")
        call = launch.call if launch is not None else None
        found.append(
            Configuration(
                values=values,
                label="; ".join(parts) or "defaults",
                node=config if config is not None else call,
                sources=tuple(n for n in (config, call) if n is not None),
                within=launch.scope if config is None and launch is not None else None,
            )
        )
        if len(found) >= _MAX_CONFIGS:
            break
    return found


def _describe(values: Mapping[str, Value]) -> str:
    return "{" + ", ".join(f"{k}={v!r}" for k, v in values.items()) + "}"


def module_constants(module: cst.Module, imports: ImportMap) -> dict[str, Value]:
    """Module-level names assigned exactly once, to a constant expression of earlier ones."""
    values: dict[str, Value] = {}
    seen: set[str] = set()
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            target, value = _single_assignment(small)
            if target is None:
                continue
            result = evaluate(value, values.get, imports) if value is not None else None
            if target in seen or result is None:
                values.pop(target, None)
            else:
                values[target] = result
            seen.add(target)
    return values


def _single_assignment(small: cst.BaseSmallStatement) -> tuple[str | None, cst.BaseExpression | None]:
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
        return small.target.value, small.value
    return None, None


def _heuristic_literals(kernel: Kernel, imports: ImportMap, known: Mapping[str, Value]) -> dict[str, Value]:
    values: dict[str, Value] = {}
    for name, fn in kernel.provided_constexprs.items():
        if fn is not None:
            value = evaluate(fn.body, known.get, imports)
            if value is not None:
                values[name] = value
    return values


def _launches(
    kernel: Kernel, host: HostIndex, imports: ImportMap, known: Mapping[str, Value], constexprs: set[str]
) -> Iterator[tuple[dict[str, Value], Launch]]:
    """Literal constexpr arguments of each `kernel[grid](...)` launch, one set per launch."""
    names = [p.name for p in kernel.params]
    seen: list[dict[str, Value]] = []
    for launch in host.launches_of(kernel):  # `kernel[grid](...)`, `mod.kernel[grid](...)`: the first only
        call, scope, func = launch.call, launch.scope, launch.call.func
        if not (isinstance(func, cst.Subscript) and isinstance(func.value, cst.Name)):
            continue
        values: dict[str, Value] = {}
        for position, arg in enumerate(call.args):
            if arg.star:
                break
            name = arg.keyword.value if arg.keyword is not None else names[position] if position < len(names) else None
            if name not in constexprs:
                continue
            value = evaluate(arg.value, _host_lookup(scope, host, imports, known), imports)
            if value is not None:
                values[name] = value
        if values not in seen:
            seen.append(values)
            yield values, launch


def _host_lookup(scope: Scope, host: HostIndex, imports: ImportMap, known: Mapping[str, Value]) -> Lookup:
    return lambda name: _host_value(name, scope, host, imports, known)


def _host_value(
    name: str, scope: Scope, host: HostIndex, imports: ImportMap, known: Mapping[str, Value], depth: int = 0
) -> Value | None:
    """A host name's value: its single binding in the scope (or module), else a parameter default."""
    if depth > 4:
        return None
    bound = host.values_of(name, scope)
    if len(bound) == 1:
        return evaluate(bound[0], lambda n: _host_value(n, scope, host, imports, known, depth + 1), imports)
    if bound:
        return None
    if scope is not None:
        for param in (*scope.params.params, *scope.params.kwonly_params):
            if param.name.value == name and param.default is not None:
                return evaluate(param.default, known.get, imports)
    return known.get(name)


Table = tuple[dict[str, Value], cst.Call]


def _autotune_configs(kernel: Kernel, imports: ImportMap, known: Mapping[str, Value]) -> Iterator[Table]:
    """(values, triton.Config call) for each config of the kernel's autotune decorator."""
    for decorator in kernel.node.decorators:
        call = decorator.decorator
        if not isinstance(call, cst.Call):
            continue
        configs = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "configs"), None)
        if configs is None and imports.is_triton(call.func, "autotune") and call.args:
            configs = call.args[0].value
        if configs is not None:
            yield from _config_tables(configs, imports, dict(known))


def _config_tables(node: cst.BaseExpression, imports: ImportMap, scope: dict[str, Value]) -> Iterator[Table]:
    if isinstance(node, cst.Call) and imports.is_triton(node.func, "Config") and node.args:
        table = node.args[0].value
        if isinstance(table, cst.Dict):
            values: dict[str, Value] = {}
            for entry in table.elements:
                if isinstance(entry, cst.DictElement) and isinstance(entry.key, cst.SimpleString):
                    value = evaluate(entry.value, scope.get, imports)
                    key = str_literal(entry.key)
                    if value is not None and key is not None:
                        values[key] = value
            yield values, node
    elif isinstance(node, (cst.List, cst.Tuple)):
        for element in node.elements:
            yield from _config_tables(element.value, imports, scope)
    elif isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        for bindings in itertools.islice(_comprehension_bindings(node.for_in, imports, scope), _MAX_CONFIGS):
            yield from _config_tables(node.elt, imports, {**scope, **bindings})


def _comprehension_bindings(
    clause: cst.CompFor | None, imports: ImportMap, scope: dict[str, Value]
) -> Iterator[dict[str, Value]]:
    """Every binding of the comprehension's loop names over literal iterables, with `if`s applied."""
    if clause is None:
        yield {}
        return
    items = _literal_items(clause.iter, imports, scope)
    if items is None or not isinstance(clause.target, cst.Name):
        return
    for item in items:
        inner = {**scope, clause.target.value: item}
        if all(evaluate(test.test, inner.get, imports) for test in clause.ifs):
            for rest in _comprehension_bindings(clause.inner_for_in, imports, inner):
                yield {clause.target.value: item, **rest}


def _literal_items(node: cst.BaseExpression, imports: ImportMap, scope: dict[str, Value]) -> list[Value] | None:
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        items = [evaluate(e.value, scope.get, imports) for e in node.elements]
        known = [i for i in items if i is not None]
        return known if len(known) == len(items) else None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range":
        bounds = [evaluate(a.value, scope.get, imports) for a in node.args]
        integers = [b for b in bounds if isinstance(b, int)]
        if integers and len(integers) == len(bounds):
            return [*range(*integers)][:_MAX_CONFIGS]
    return None
