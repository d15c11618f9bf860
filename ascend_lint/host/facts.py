"""The one walk over a module's host code (`HostFacts.walk`): calls, bindings, returns,
launches, dict and attribute stores, environment variables and dtype asserts, each with the
function and the loops and tests around it (a call also with the comprehensions and lambdas
around it); and what an editor's re-lint keeps of it per
top-level statement (`HostMemory`). The host index (`index.HostIndex`) is built on it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from typing import TypeVar, cast

import libcst as cst

from ..imports import dotted_name, str_literal
from ..kernels import subscript_key
from ..nodes import (
    child_nodes,
    flat_code,
    leaves_block,
    names_read,
    never_falls_through,
    only_small_statement,
    statements_of,
    target_names,
    updated_value,
    walk,
    written_items,
)
from .bindings import declared_global, rebinds, unpacked_into
from .dicts import maps_a_key_to_a_callable
from .dtypes import TensorDtype, dtypes_asserted
from .params import all_params
from .records import Binder, CallSite, ItemStore, Launch, Loop, Scope
from .shapes import indexed, is_shape

_Key = TypeVar("_Key")
_Found = TypeVar("_Found")
_LEAVES = (cst.Name, cst.Integer, cst.Float, cst.SimpleString, cst.Imaginary, cst.Ellipsis)
# the node types `HostFacts.walk` notes something of (one set lookup for every other node it meets)
_NOTED = frozenset(
    {
        cst.ClassDef,
        cst.FunctionDef,
        cst.Return,
        cst.Call,
        cst.IndentedBlock,
        cst.If,
        cst.Assign,
        cst.AnnAssign,
        cst.NamedExpr,
        cst.Assert,
        cst.AugAssign,
        cst.For,
        cst.Dict,
        cst.Global,
        cst.Nonlocal,
        cst.Lambda,
        cst.ListComp,
        cst.SetComp,
        cst.GeneratorExp,
        cst.DictComp,
        cst.ImportFrom,
        cst.Import,
        cst.WithItem,
        cst.ExceptHandler,
    }
)
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})
_PARTIAL = frozenset({"functools.partial"})
# torch's wrappers of a Triton kernel for `torch.compile` (`capture_triton` is the older name):
# `wrap_triton(kernel)[grid](...)` launches `kernel` on `grid` (`unwrapped`)
_KERNEL_WRAPPERS = frozenset(
    {
        f"{module}.{name}"
        for module in ("torch.library", "torch._library.triton", "torch._higher_order_ops.triton_kernel_wrap")
        for name in ("wrap_triton", "capture_triton")
    }
)


class HostFacts:
    """Calls, bindings, returns and launches outside kernels found by walking host code, with
    their enclosing function."""

    def __init__(self) -> None:
        self.calls: list[tuple[cst.Call, Scope]] = []
        # a call -> the loops around it (`records.Loop`: `for` statements, comprehensions, lambdas),
        # outermost first, also those around the functions it is in; only calls some loop is around
        self.loops_around: dict[cst.Call, tuple[Loop, ...]] = {}
        # `n = v`, `n: int = v`, `(n := v)`, `n *= d` (as `n = n * d`), `for d in x.shape` (as `d = x.shape[0]`),
        # `for d in dims` / `for d in dims[:-2]` (as `d = dims[0]`: `named_items`),
        # `if n > cap: n = cap` (as `n = min(n, cap)`; right after `n = v`, that one as `n = min(v, cap)`)
        self.bindings: dict[tuple[str, Scope], list[cst.BaseExpression]] = {}
        # names a function binds by a `for`, `with ... as` or `except ... as` target, whatever
        # `bindings` keeps of them: each is local to the function (`HostIndex._binding_scope`)
        self.targets_bound: set[tuple[str, cst.FunctionDef]] = set()
        # the items `for d in dims:` (or over a slice of `dims`) binds, each with its name and function:
        # the index keeps one as an extent when `dims` holds a tensor's shape, else drops it
        self.named_items: list[tuple[str, Scope, cst.Subscript]] = []
        # a bound value -> its assignment
        self.binders: dict[cst.BaseExpression, Binder] = {}
        # a value bound to a name -> the `for` loops and `if` statements of its function around it
        self.bound_under: dict[cst.BaseExpression, tuple[cst.For | cst.If, ...]] = {}
        self.item_stores: dict[tuple[str, Scope], list[ItemStore]] = {}
        self.attribute_stores: dict[str, list[tuple[cst.BaseExpression, Scope]]] = {}
        # by name, what each function returns; a lambda given a name as the `def` it stands for (`f =
        # lambda n: v` as `def f(n): return v`, one of `lambdas`; also in a class body, stored as an
        # attribute, `self.f = lambda n: v`, or a parameter's default, `f=lambda n: v`): every reader
        # of returns reads it
        self.returns: dict[str, list[tuple[cst.BaseExpression, cst.FunctionDef]]] = {}
        self.lambdas: set[cst.FunctionDef] = set()  # the `def`s made for lambdas
        # those made for lambdas bound to a plain name (`make = lambda a, b: (a, b)`), by name: what
        # a call of the name in their function may call (`HostIndex._visible_functions`)
        self.named_lambdas: dict[str, list[cst.FunctionDef]] = {}
        self.functions: dict[str, list[cst.FunctionDef]] = {}
        self.globals_declared: dict[str, list[cst.FunctionDef]] = {}  # `global n` in a function: n -> the functions
        self.nonlocals_declared: dict[str, list[cst.FunctionDef]] = {}  # `nonlocal n` in a function: n -> the functions
        self.calls_of: dict[str, list[CallSite]] = {}  # plain `f(...)` calls by name
        # `obj.f(...)` calls by `f`, with `obj` (`self`, `cls`, a class's name)
        self.attribute_calls: dict[str, list[tuple[str, CallSite]]] = {}
        self.class_of: dict[cst.FunctionDef, cst.ClassDef] = {}  # a method -> the class whose body defines it
        self.classes: dict[str, list[cst.ClassDef]] = {}  # every class, by name
        self.launches: dict[str, list[Launch]] = {}  # by the launched name's last part, or its key
        self.environment: dict[str, list[tuple[cst.BaseExpression, Scope]]] = {}  # `os.environ["X"] = v`: X -> v
        self.enclosing: dict[cst.FunctionDef, Scope] = {}  # a nested function -> the one holding it
        self.defined_under: dict[cst.FunctionDef, tuple[cst.For | cst.If, ...]] = {}  # its blocks there
        self.functions_met: list[tuple[cst.FunctionDef, bool]] = []  # each with whether it was a kernel
        self.dicts: list[tuple[cst.Dict, Scope]] = []  # every dict literal
        self.keyed_callables: list[tuple[cst.Dict, Scope]] = []  # dicts mapping a string to a lambda or a name
        # `launcher = kernel[grid]`, `value = table[key]`, `launcher = functools.partial(kernel[grid], ...)`
        # and `launcher = f(kernel[grid], ...)` (`launcher_candidate`; which `f` is `functools.partial`
        # is known once every import is: `bound_launcher`): by name, the value with the blocks around it
        self.launchers_bound: dict[
            tuple[str, Scope], list[tuple[cst.BaseExpression, tuple[cst.For | cst.If, ...]]]
        ] = {}
        # how code names `functools.partial` after its imports: `partial` / `bind` (`from functools
        # import partial as bind`), `functools.partial` / `ft.partial` (`import functools as ft`)
        self.partial_names: set[str] = set()
        # how code names torch's wrappers of a kernel (`_KERNEL_WRAPPERS`) after its imports:
        # `torch.library.wrap_triton`, `wrap_triton` / `w` (`from torch.library import wrap_triton as w`)
        self.wrapper_names: set[str] = set()
        # `w(kernel)[grid](...)`, `w` a call of one argument: a launch of `kernel` when `w` is one
        # of torch's wrappers (known once every import is: `HostIndex._add_wrapped_launches`)
        self.wrapped_launches: list[Launch] = []
        # calls of what a call returns (`functools.partial(kernel[grid], ...)(x)`, `_launcher()(x)`)
        self.result_calls: list[CallSite] = []
        # `assert t.dtype == torch.int32` in a function's own body (under no `if` or loop), also
        # `torch._assert(...)` and `if t.dtype != torch.int32: raise ...`: (t, function) -> dtypes
        self.dtype_asserts: dict[tuple[str, Scope], list[TensorDtype]] = {}
        # clamps met in the walk (`_clamp`): `if n > cap: n = cap` -> its `n = cap` and `cap`, with
        # the `n = v` right before it, if any, whose value they cap; that `n = v` -> `cap`
        self._clamps: dict[cst.If, tuple[cst.Assign, cst.BaseExpression, cst.Assign | None]] = {}
        self._capped: dict[cst.Assign, cst.BaseExpression] = {}

    def merge(self, other: HostFacts) -> None:
        """Adds what `other` found after what this found (as if one walk had found both)."""
        self.calls.extend(other.calls)
        self.loops_around.update(other.loops_around)
        _extend(self.bindings, other.bindings)
        self.targets_bound |= other.targets_bound
        self.named_items.extend(other.named_items)
        self.binders.update(other.binders)
        self.bound_under.update(other.bound_under)
        _extend(self.item_stores, other.item_stores)
        _extend(self.attribute_stores, other.attribute_stores)
        _extend(self.returns, other.returns)
        self.lambdas |= other.lambdas
        _extend(self.named_lambdas, other.named_lambdas)
        _extend(self.functions, other.functions)
        _extend(self.globals_declared, other.globals_declared)
        _extend(self.nonlocals_declared, other.nonlocals_declared)
        _extend(self.calls_of, other.calls_of)
        _extend(self.attribute_calls, other.attribute_calls)
        self.class_of.update(other.class_of)
        _extend(self.classes, other.classes)
        _extend(self.launches, other.launches)
        _extend(self.environment, other.environment)
        self.enclosing.update(other.enclosing)
        self.defined_under.update(other.defined_under)
        self.dicts.extend(other.dicts)
        self.keyed_callables.extend(other.keyed_callables)
        _extend(self.launchers_bound, other.launchers_bound)
        self.partial_names |= other.partial_names
        self.wrapper_names |= other.wrapper_names
        self.wrapped_launches.extend(other.wrapped_launches)
        self.result_calls.extend(other.result_calls)
        _extend(self.dtype_asserts, other.dtype_asserts)

    def walk(self, top: cst.CSTNode, kernel_defs: set[cst.FunctionDef]) -> None:
        """Adds what the host code in `top` holds (a kernel's decorators, not its body)."""
        # each node with its function, the blocks of that function around it, the class whose
        # body (outside methods) it is in, whose assignments bind class attributes, no names, and
        # the loops around it (`loops_around`)
        stack: list[tuple[cst.CSTNode, Scope, tuple[cst.For | cst.If, ...], cst.ClassDef | None, tuple[Loop, ...]]]
        stack = [(top, None, (), None, ())]
        while stack:
            node, scope, blocks, in_class, loops = stack.pop()
            if type(node) in _LEAVES:
                continue
            if type(node) in _NOTED:  # the others only lead to their children
                binds = in_class is None
                if type(node) is cst.ClassDef:
                    in_class = node
                    self.classes.setdefault(node.name.value, []).append(node)
                elif type(node) is cst.FunctionDef:
                    if in_class is not None:
                        self.class_of[node] = in_class
                    in_class = None
                    for param in all_params(node):  # `def tile(n, get_ub=lambda: 196608)`
                        if type(param.default) is cst.Lambda:
                            self._bind_lambda(param.name.value, param.default, scope, blocks)
                    self.functions_met.append((node, node in kernel_defs))
                    if node in kernel_defs:  # launches and configs live in decorators, never in the body
                        stack.extend((decorator, scope, blocks, None, loops) for decorator in node.decorators)
                        continue
                    self.functions.setdefault(node.name.value, []).append(node)
                    self.returns.setdefault(node.name.value, [])
                    self.enclosing[node] = scope
                    self.defined_under[node] = blocks
                    scope, blocks = node, ()
                elif type(node) is cst.Return and scope is not None and node.value is not None:
                    self.returns[scope.name.value].append((node.value, scope))
                elif type(node) is cst.Call:
                    self._call(node, scope, blocks)
                    if loops:
                        self.loops_around[node] = loops
                elif type(node) is cst.IndentedBlock and binds:
                    self._note_clamps(statements_of(node.body))
                elif type(node) is cst.If and node in self._clamps:
                    self._bind_clamp(node, scope, blocks)
                    continue  # its test and its one assignment hold no call, no binding of their own
                elif type(node) is cst.Assign and binds:
                    value = node.value if node not in self._capped else _min_of(node.value, self._capped[node])
                    for target in node.targets:
                        self._bind(node, target.target, value, scope, blocks)
                        variable = _environ_item(target.target)
                        if variable is not None:
                            self.environment.setdefault(variable, []).append((node.value, scope))
                elif type(node) is cst.AnnAssign and node.value is not None and binds:
                    self._bind(node, node.target, node.value, scope, blocks)  # `n: int = v`
                elif type(node) is cst.NamedExpr and binds:  # `(n := v)`; in an `if` test, before its arms
                    self._bind(node, node.target, node.value, scope, _test_outside(node, blocks))
                elif (type(node) is cst.Assign or type(node) is cst.AnnAssign) and not binds:
                    self._class_attribute(node, scope, blocks)
                elif type(node) is cst.Assert and scope is not None and not blocks:
                    self._add_dtype_asserts(node, node.test, True, scope)
                elif type(node) is cst.AugAssign and binds:  # `n *= d` binds `n` to `n * d`
                    self._bind(node, node.target, updated_value(node), scope, blocks)
                elif isinstance(node, cst.WithItem | cst.ExceptHandler):  # `with f() as g:`, `except E as e:`
                    named = node.asname if isinstance(node, cst.WithItem) else node.name
                    if named is not None and scope is not None and binds:
                        self.targets_bound.update((name, scope) for name in target_names(named.name))
                elif type(node) is cst.For or type(node) is cst.If:
                    if type(node) is cst.For and scope is not None and binds:
                        self.targets_bound.update((name, scope) for name in target_names(node.target))
                    if type(node) is cst.If and scope is not None and not blocks and never_falls_through(node.body):
                        self._add_dtype_asserts(node, node.test, False, scope)  # its test fails after it
                    if type(node) is cst.For and type(node.target) is cst.Name and is_shape(node.iter):
                        # `for d in x.shape[:dim]:` binds `d` to an extent of `x` (which one is unknown)
                        self.bindings.setdefault((node.target.value, scope), []).append(indexed(node.iter, 0))
                    elif type(node) is cst.For and type(node.target) is cst.Name and _iterates_a_name(node):
                        # `for d in dims:` binds `d` to an item of `dims`, an extent when `dims` holds a shape
                        named_item = indexed(node.iter, 0)
                        self.bindings.setdefault((node.target.value, scope), []).append(named_item)
                        self.named_items.append((node.target.value, scope, named_item))
                    elif type(node) is cst.For and type(node.target) is cst.Name and loops_over_items(node):
                        # `for BLOCK in (1024, 65536):` binds `BLOCK` to each item, one per trip
                        for item in written_items(node.iter) or ():
                            self.bindings.setdefault((node.target.value, scope), []).append(item)
                            self.bound_under[item] = blocks
                    blocks = (*blocks, node)
                    if type(node) is cst.For:  # its body and `else` run in the loop, its iterable before it
                        inner = (*loops, node)
                        if node.orelse is not None:
                            stack.append((node.orelse, scope, blocks, in_class, inner))
                        stack.append((node.body, scope, blocks, in_class, inner))
                        stack.append((node.iter, scope, blocks, in_class, loops))
                        stack.append((node.target, scope, blocks, in_class, (*loops, None)))  # popped first
                        continue
                elif type(node) is cst.Dict:
                    self.dicts.append((node, scope))
                    if any(map(maps_a_key_to_a_callable, node.elements)):
                        self.keyed_callables.append((node, scope))
                elif type(node) is cst.ImportFrom or type(node) is cst.Import:
                    self.partial_names.update(imported_as(node, _PARTIAL))
                    self.wrapper_names.update(imported_as(node, _KERNEL_WRAPPERS))
                elif type(node) is cst.Global and scope is not None:
                    for name in declared_global(node):
                        self.globals_declared.setdefault(name, []).append(scope)
                elif type(node) is cst.Nonlocal and scope is not None:
                    for declared in node.names:
                        self.nonlocals_declared.setdefault(declared.name.value, []).append(scope)
                elif type(node) is cst.Lambda:  # its body runs in the loop, its parameters' defaults once
                    stack.append((node.body, scope, blocks, in_class, (*loops, node)))
                    stack.append((node.params, scope, blocks, in_class, (*loops, None)))  # popped first
                    continue
                elif type(node) in _COMPREHENSIONS:  # every part of it runs in the loop
                    loops = (*loops, cast(Loop, node))
            children = _reachable(child_nodes(node)) if type(node) is cst.IndentedBlock else child_nodes(node)
            children.reverse()
            stack.extend((child, scope, blocks, in_class, loops) for child in children)

    def _call(self, node: cst.Call, scope: Scope, blocks: tuple[cst.For | cst.If, ...]) -> None:
        self.calls.append((node, scope))
        func = node.func
        callee = (dotted_name(func) or "").split(".")
        if (callee[-1] == "putenv" or callee[-2:] == ["environ", "setdefault"]) and len(node.args) == 2:
            variable = str_literal(node.args[0].value)  # `os.putenv(name, value)`, `os.environ.setdefault(...)`
            if variable is not None:
                self.environment.setdefault(variable, []).append((node.args[1].value, scope))
        patched = _patches_environ(node, callee)
        if callee[-2:] == ["environ", "update"] or patched:
            # `os.environ.update(X=v)`, `os.environ.update({"X": v})`, `mock.patch.dict(os.environ, {"X": v})`
            for variable, value in _updated_entries(node):
                if not (patched and variable == "clear"):  # `patch.dict(os.environ, {...}, clear=True)`
                    self.environment.setdefault(variable, []).append((value, scope))
        if callee == ["torch", "_assert"] and node.args and scope is not None and not blocks:
            self._add_dtype_asserts(node, node.args[0].value, True, scope)
        if isinstance(func, cst.Name):
            self.calls_of.setdefault(func.value, []).append(CallSite(node, scope, blocks))
        elif isinstance(func, cst.Call):
            self.result_calls.append(CallSite(node, scope, blocks))
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            site = CallSite(node, scope, blocks)
            self.attribute_calls.setdefault(func.attr.value, []).append((func.value.value, site))
        grid = run_grid(node)
        if (isinstance(func, cst.Attribute) and grid is not None) or isinstance(func, cst.Subscript):
            # `kernel[grid](...)`, `kernel.run(..., grid=g, warmup=False)` (the launch `kernel[g](...)`
            # makes); `(k_a if fast else k_b)[grid](...)`: a launch of each kernel it may pick
            launch = Launch(node, scope, blocks, run_grid=grid)
            if wrapped(func.value) is not None:  # `wrap_triton(kernel)[grid](...)`
                self.wrapped_launches.append(launch)
            self.add_launch(launch, func.value)

    def add_launch(self, launch: Launch, held: cst.BaseExpression) -> None:
        """Files `launch` under each name it goes by (`launched_name` of `held`, what it
        launches): one per kernel it may launch, of a choice (`(k_a if fast else k_b)[grid]`)
        each arm naming one."""
        for launched in dict.fromkeys(map(launched_name, choices([held]))):
            if launched:
                self.launches.setdefault(launched, []).append(launch)

    def _note_clamps(self, statements: Sequence[cst.CSTNode]) -> None:
        """Records the clamps among `statements` (`_clamp`), each with the assignment of its name
        right before it (`n = v`, the last statement of the line before), whose value it caps:
        `n = min(v, cap)`."""
        for before, statement in zip([None, *statements], statements, strict=False):
            clamp = _clamp(statement) if isinstance(statement, cst.If) else None
            if clamp is None or not isinstance(statement, cst.If):
                continue
            assignment, name, cap = clamp
            earlier = _assignment_of(before, name) if before is not None else None
            self._clamps[statement] = (assignment, cap, earlier)
            if earlier is not None:
                self._capped[earlier] = cap

    def _bind_clamp(self, clamp: cst.If, scope: Scope, blocks: tuple[cst.For | cst.If, ...]) -> None:
        """A clamp (`if n > cap: n = cap`) binds `n` to `min(n, cap)` where the `if` is, whether or
        not its test holds: an update of `n`, unless the statement before it assigns `n` (then that
        assignment binds `min(v, cap)`, `_note_clamps`)."""
        assignment, cap, earlier = self._clamps[clamp]
        target = assignment.targets[0].target
        if earlier is None and isinstance(target, cst.Name):
            self._bind(assignment, target, _min_of(target, cap), scope, blocks)

    def _add_dtype_asserts(self, node: cst.CSTNode, test: cst.BaseExpression, holds: bool, scope: Scope) -> None:
        """Records the dtypes the `test` of the check `node` requires, holding or failing."""
        for name, dtype in dtypes_asserted(test, holds):
            self.dtype_asserts.setdefault((name, scope), []).append(TensorDtype(dtype, node))

    def _bind(
        self,
        statement: Binder,
        target: cst.BaseExpression,
        value: cst.BaseExpression,
        scope: Scope,
        blocks: tuple[cst.For | cst.If, ...],
    ) -> None:
        if isinstance(target, cst.Name):
            self.bindings.setdefault((target.value, scope), []).append(value)
            self.binders[value] = statement
            self.bound_under[value] = blocks
            if type(value) is cst.Lambda:
                made = self._bind_lambda(target.value, value, scope, blocks)
                self.named_lambdas.setdefault(target.value, []).append(made)
            if launcher_candidate(value) is not None:
                self.launchers_bound.setdefault((target.value, scope), []).append((value, blocks))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element, part in zip(target.elements, unpacked_into(target.elements, value), strict=True):
                if part is not None:
                    self._bind(statement, element.value, part, scope, blocks)
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and len(target.slice) == 1:
            index = target.slice[0].slice
            key = str_literal(index.value) if isinstance(index, cst.Index) else None
            if key is not None and isinstance(statement, cst.Assign):
                store = ItemStore(statement, target, key, value)
                self.item_stores.setdefault((target.value.value, scope), []).append(store)
        elif isinstance(target, cst.Attribute):
            dotted = dotted_name(target)
            if dotted:
                self.attribute_stores.setdefault(dotted, []).append((value, scope))
                if type(value) is cst.Lambda:  # `self.get_ub = lambda: 196608`
                    self._bind_lambda(target.attr.value, value, scope, blocks)

    def _bind_lambda(
        self, name: str, made: cst.Lambda, scope: Scope, blocks: tuple[cst.For | cst.If, ...]
    ) -> cst.FunctionDef:
        """`name = lambda n: v` as the `def name(n): return v` it stands for: a function (not of
        `functions`: no statement defines it) returning `v`, whose other names are read in `scope`,
        where the lambda is written; returned. Also a lambda a class body binds, stored as an attribute
        (`name` its last part) or a parameter's default."""
        function = cst.FunctionDef(
            cst.Name(name), made.params, cst.IndentedBlock([cst.SimpleStatementLine([cst.Return(made.body)])])
        )
        self.lambdas.add(function)
        self.returns.setdefault(name, []).append((made.body, function))
        self.enclosing[function] = scope
        self.defined_under[function] = blocks
        return function

    def _class_attribute(
        self, statement: cst.Assign | cst.AnnAssign, scope: Scope, blocks: tuple[cst.For | cst.If, ...]
    ) -> None:
        """`_kernel = my_kernel` in a class body: the value instances read as `self._kernel`
        until they store one of their own. A lambda (`get_ub = lambda self: 196608`) is also the
        method it stands for (`_bind_lambda`; the class is in `scope`, under `blocks`)."""
        targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
        for target in targets:
            if isinstance(target, cst.Name) and statement.value is not None:
                self.attribute_stores.setdefault(f"self.{target.value}", []).append((statement.value, None))
                if type(statement.value) is cst.Lambda:
                    self._bind_lambda(target.value, statement.value, scope, blocks)


def _test_outside(node: cst.CSTNode, blocks: tuple[cst.For | cst.If, ...]) -> tuple[cst.For | cst.If, ...]:
    """The blocks around `node` (the host walk's), without the innermost `if` when its test
    holds `node`: a test runs before either arm (`if (n := pick()) in (64, 128):` binds `n`
    outside both)."""
    last = blocks[-1] if blocks else None
    if isinstance(last, cst.If) and any(sub is node for sub in walk(last.test)):
        return blocks[:-1]
    return blocks


def _clamp(statement: cst.If) -> tuple[cst.Assign, str, cst.BaseExpression] | None:
    """`if n > cap: n = cap` (also `n >= cap`, `cap < n`, `cap <= n`), with no `else` and that one
    assignment, `cap` a value of no call nor of `n` (a literal, a constant's name, their
    arithmetic): a test capping `n` only when it is large, so `n = min(n, cap)`. Its assignment,
    `n` and `cap`; None for anything else (`if n < 16: n = 16` raises a small `n`, `if T < 16:
    BT = 16` tests another name)."""
    if statement.orelse is not None:
        return None
    assignment = only_small_statement(statement.body)
    test = statement.test
    if (
        not isinstance(assignment, cst.Assign)
        or len(assignment.targets) != 1
        or not isinstance(assignment.targets[0].target, cst.Name)
        or not isinstance(test, cst.Comparison)
        or len(test.comparisons) != 1
    ):
        return None
    name, cap = assignment.targets[0].target.value, assignment.value
    operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
    if isinstance(operator, (cst.GreaterThan, cst.GreaterThanEqual)):
        tested, bound = test.left, right
    elif isinstance(operator, (cst.LessThan, cst.LessThanEqual)):
        tested, bound = right, test.left
    else:
        return None
    if (
        not isinstance(tested, cst.Name)
        or tested.value != name
        or flat_code(bound) != flat_code(cap)
        or name in names_read(cap)
        or any(isinstance(node, (cst.Call, cst.NamedExpr, cst.Lambda)) for node in walk(cap))
    ):
        return None
    return assignment, name, cap


def _assignment_of(statement: cst.CSTNode, name: str) -> cst.Assign | None:
    """The statement when it is `name = value`."""
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        target = statement.targets[0].target
        return statement if isinstance(target, cst.Name) and target.value == name else None
    return None


def _min_of(value: cst.BaseExpression, cap: cst.BaseExpression) -> cst.Call:
    """`min(value, cap)`, made of the two nodes as written (no node of it is new but the call)."""
    return cst.Call(func=cst.Name("min"), args=[cst.Arg(value), cst.Arg(cap)])


def choices(values: Sequence[cst.BaseExpression]) -> list[cst.BaseExpression]:
    """The values, each conditional expression among them (`a if c else b`, nested ones too)
    replaced by its arms."""
    found: list[cst.BaseExpression] = []
    for value in values:
        found += choices([value.body, value.orelse]) if isinstance(value, cst.IfExp) else [value]
    return found


def _reachable(statements: list[cst.CSTNode]) -> list[cst.CSTNode]:
    """A block's statements up to the first `raise` / `return` / `break` / `continue` it runs
    unconditionally: those after it never run (a launch left after `raise NotImplementedError`)."""
    for index, statement in enumerate(statements):
        if leaves_block(statement):
            return statements[: index + 1]
    return statements


def launched_name(held: cst.BaseExpression) -> str | None:
    """The name a launch goes by: the last part of `kernel` / `mod.kernel`, the key of `table["kernel"]`."""
    dotted = dotted_name(held)
    if dotted:
        return dotted.rsplit(".", 1)[-1]
    return subscript_key(held) if isinstance(held, cst.Subscript) and isinstance(held.value, cst.Name) else None


def run_grid(call: cst.Call) -> cst.Arg | None:
    """The `grid=` keyword of a `kernel.run(*args, grid=g, warmup=False)` call, Triton's
    `JITFunction.run` (and `Autotuner.run`, `Heuristics.run`), which `kernel[g](*args)` calls:
    a launch on `g`. None for any other call, and for `warmup=True`, which compiles and does
    not launch."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "run":
        return None
    keywords = {arg.keyword.value: arg for arg in call.args if arg.keyword is not None}
    warmup = keywords.get("warmup")
    if warmup is not None and not (isinstance(warmup.value, cst.Name) and warmup.value.value == "False"):
        return None
    return keywords.get("grid")


def launcher_candidate(value: cst.BaseExpression) -> cst.Subscript | None:
    """`kernel[grid]` when a launcher may hold it: `kernel[grid]` itself, or a call given it
    first (`functools.partial(kernel[grid], *args, **kwargs)`, `bind(kernel[grid], ...)`:
    `bound_launcher` tells which call is a partial)."""
    if isinstance(value, cst.Subscript):
        return value
    first = value.args[0] if isinstance(value, cst.Call) and value.args else None
    if first is None or first.keyword is not None or first.star or not isinstance(first.value, cst.Subscript):
        return None
    return first.value


def bound_launcher(value: cst.BaseExpression, partial_names: AbstractSet[str] = frozenset()) -> cst.Subscript | None:
    """`kernel[grid]` when a launcher holds it: `kernel[grid]` itself, or
    `functools.partial(kernel[grid], *args, **kwargs)` (written as the module's imports name
    `functools.partial`: `partial_names`, `HostFacts.partial_names`), whose arguments go before
    those of its calls (`Launch.partial`)."""
    if isinstance(value, cst.Call) and not is_partial(value.func, partial_names):
        return None
    return launcher_candidate(value)


def is_partial(func: cst.BaseExpression, partial_names: AbstractSet[str] = frozenset()) -> bool:
    """Whether `func` names `functools.partial` as the module's imports spell it
    (`partial_names`: `HostFacts.partial_names`): `partial` or `bind` after `from functools
    import partial` / `partial as bind`, `functools.partial` / `ft.partial` after `import
    functools` / `import functools as ft`. Not another module's `partial` (`from mylib import
    partial`), which may do anything with its arguments."""
    return (dotted_name(func) or "") in partial_names


def imported_as(node: cst.ImportFrom | cst.Import, qualified: AbstractSet[str]) -> Iterator[str]:
    """How code names the `qualified` functions after an import: `bind` after `from functools
    import partial as bind`, `ft.partial` after `import functools as ft`,
    `torch.library.wrap_triton` after `import torch`, `library.wrap_triton` after `from torch
    import library`."""
    if isinstance(node, cst.Import):
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            local = alias.asname.name if alias.asname is not None else None
            if isinstance(local, cst.Name):  # `import a.b as c` binds `c` to `a.b`
                bound, reached = local.value, full
            else:  # `import a.b` binds `a`
                bound = reached = full.split(".")[0]
            yield from (bound + name[len(reached) :] for name in qualified if name.startswith(f"{reached}."))
        return
    if node.relative or node.module is None:
        return
    module = dotted_name(node.module)
    if isinstance(node.names, cst.ImportStar):
        yield from (name.rsplit(".", 1)[-1] for name in qualified if name.rsplit(".", 1)[0] == module)
        return
    for alias in node.names:
        imported = f"{module}.{dotted_name(alias.name)}"
        named = alias.asname.name if alias.asname is not None else alias.name
        if isinstance(named, cst.Name):
            yield from (
                named.value + name[len(imported) :]
                for name in qualified
                if name == imported or name.startswith(f"{imported}.")
            )


def wrapped(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """`kernel` of a call of one positional argument, `w(kernel)`, naming the kernel as a launch
    does (`launched_name`), or a choice between kernels (`w(k_a if fast else k_b)`, each arm
    naming one: `choices`): what a launch `w(kernel)[grid](...)` launches when `w` is one of
    torch's wrappers (`_KERNEL_WRAPPERS`); None for any other value."""
    if not isinstance(value, cst.Call) or len(value.args) != 1:
        return None
    [arg] = value.args
    if arg.keyword is not None or arg.star or not all(launched_name(arm) for arm in choices([arg.value])):
        return None
    return arg.value


def unwrapped(value: cst.BaseExpression, wrapper_names: AbstractSet[str]) -> cst.BaseExpression:
    """`kernel` for `torch.library.wrap_triton(kernel)` (one of torch's wrappers, spelled as the
    module's imports name it: `wrapper_names`, `HostFacts.wrapper_names`): for `torch.compile`,
    the same kernel, launched the same way; else the value."""
    kernel = wrapped(value)
    if kernel is None or (dotted_name(cst.ensure_type(value, cst.Call).func) or "") not in wrapper_names:
        return value
    return kernel


def past_fn(held: cst.BaseExpression) -> cst.BaseExpression:
    """`kernel` for `kernel.fn` / `kernel.fn.fn` (the JIT function under an autotuner or
    heuristics), else `held`."""
    while isinstance(held, cst.Attribute) and held.attr.value == "fn":
        held = held.value
    return held


def launched_value(launch: Launch, launched: str) -> cst.BaseExpression:
    """What a launch of `launched` subscripts: `kernel` of `kernel[grid]`, and of
    `kernel.fn[grid]` when it is a launch of `kernel` (`_add_jit_function_launches`); of a
    choice between kernels (`(k_a if fast else k_b)[grid]`), the arm naming `launched`."""
    held = launch.held
    if isinstance(held, cst.IfExp):
        held = next(arm for arm in choices([held]) if launched_name(arm) == launched)
    return held if launched == "fn" else past_fn(held)


def _environ_item(target: cst.BaseExpression) -> str | None:
    """`X` for an assignment target `os.environ["X"]` (`environ["X"]` after `from os import environ`)."""
    if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
        return None
    index = target.slice[0].slice
    environ = (dotted_name(target.value) or "").rsplit(".", 1)[-1] == "environ"
    return str_literal(index.value) if environ and isinstance(index, cst.Index) else None


def _patches_environ(call: cst.Call, callee: list[str]) -> bool:
    """`mock.patch.dict(os.environ, ...)` (`patch.dict("os.environ", ...)`): a call setting
    variables for the `with` block or the function it decorates."""
    if callee[-2:] != ["patch", "dict"] or not call.args or call.args[0].keyword is not None:
        return False
    patched = call.args[0].value
    return (str_literal(patched) or dotted_name(patched) or "").rsplit(".", 1)[-1] == "environ"


def _updated_entries(call: cst.Call) -> Iterator[tuple[str, cst.BaseExpression]]:
    """The variables `os.environ.update(X=v)` / `os.environ.update({"X": v})` sets, with their values."""
    for arg in call.args:
        if arg.keyword is not None:
            yield arg.keyword.value, arg.value
        elif isinstance(arg.value, cst.Dict) and not arg.star:
            for element in arg.value.elements:
                key = str_literal(element.key) if isinstance(element, cst.DictElement) else None
                if key is not None:
                    yield key, element.value


def _extend(mine: dict[_Key, list[_Found]], theirs: dict[_Key, list[_Found]]) -> None:
    for key, found in theirs.items():
        mine.setdefault(key, []).extend(found)


class HostMemory:
    """The host facts of each top-level statement of a document's previous lint (the editor
    server and `--fix` keep one per document, in `engine.DocumentMemory`). A statement that is
    the same node again (the incremental parser keeps the statements an edit did not touch)
    with the same of its functions being kernels is not walked again."""

    def __init__(self) -> None:
        self._facts: dict[cst.BaseStatement, HostFacts] = {}

    def recall(self, module: cst.Module, kernel_defs: set[cst.FunctionDef]) -> list[HostFacts]:
        """The facts of each statement of `module`, in order; the others are forgotten."""
        kept: dict[cst.BaseStatement, HostFacts] = {}
        for statement in module.body:
            facts = self._facts.get(statement)
            if facts is None or any((function in kernel_defs) != was for function, was in facts.functions_met):
                facts = HostFacts()
                facts.walk(statement, kernel_defs)
            kept[statement] = facts
        self._facts = kept
        return list(kept.values())


def _iterates_a_name(loop: cst.For) -> bool:
    """`for d in dims:` or `for d in dims[:-2]:` (a slice, no item) over a name other than `d`."""
    iterated = loop.iter
    if (
        isinstance(iterated, cst.Subscript)
        and len(iterated.slice) == 1
        and isinstance(iterated.slice[0].slice, cst.Slice)
    ):
        iterated = iterated.value
    return isinstance(iterated, cst.Name) and iterated.value != cst.ensure_type(loop.target, cst.Name).value


def loops_over_items(loop: cst.For) -> bool:
    """`for name in (1024, 65536):` over items written out (`written_items`), its body and
    `else` never rebinding `name`: each trip reads one item. Every rule sees these bindings;
    ASC013 reads each item as a launch value, ASC010 each as a grid's axis (`for n in (1,
    100000): k[(n, 8)]` launches `(100000, 8)`: `HostIndex.item_trips`)."""
    name = cst.ensure_type(loop.target, cst.Name).value
    return (
        written_items(loop.iter) is not None
        and not rebinds(loop.body, name)
        and not (loop.orelse is not None and rebinds(loop.orelse, name))
    )
