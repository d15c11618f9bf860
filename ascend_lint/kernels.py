"""Finding Triton kernels in a module and what their decorators say about specialisation."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import libcst as cst

from .flow import ARG, CONST, SCALAR, SPEC, Branch, Decide, Event, Flow, build_flow, call_argument, cast_parts
from .imports import TRITON, ImportMap, dotted_name, int_literal, str_literal, walk_statements
from .nodes import child_nodes, walk
from .package import content_hash, file_hash, module_files
from .prefilter import Words
from .source import SourceError, compile_python, decode, parse, read_source

if TYPE_CHECKING:
    from .inline import Inlined
    from .tiles import TileModel

_Copy = TypeVar("_Copy")


@dataclass
class Param:
    name: str
    annotation: str | None  # "constexpr", another annotation's code, or None
    node: cst.Param

    @property
    def is_constexpr(self) -> bool:
        return self.annotation == "constexpr"


@dataclass
class ReturnedInto:
    """`Kernel.returned_into`'s answers to one question by function, kept across its calls;
    `cyclic` once a walk came back to a function still being worked out (one calling itself
    back, which passes nothing on): what that walk found depends on where it started."""

    found: dict[Kernel, dict[cst.BaseExpression, str]] = field(default_factory=dict)
    pending: set[Kernel] = field(default_factory=set)
    cyclic: bool = False


@dataclass(eq=False)
class Kernel:
    """A `@triton.jit` function, or a function the module wraps in `triton.jit` by a call
    (`_k = triton.jit(_impl)`), with the facts its signature and decorators give."""

    node: cst.FunctionDef
    imports: ImportMap
    params: list[Param]
    do_not_specialize: frozenset[str]
    # the decorators applied, outermost first: written above the `def`, or the calls wrapping
    # the function (`triton.autotune(...)(triton.jit(fn))` gives `triton.autotune(...)`,
    # `triton.jit(fn)`), then its own decorators
    decorators: tuple[cst.BaseExpression, ...] = ()
    # the name a call-form kernel is bound to (`_k` in `_k = triton.jit(_impl)`): the name
    # host code launches (`_k[grid](...)`) and other kernels call
    bound_name: str | None = None
    # constexpr names provided by @triton.heuristics / autotune configs, with the value the
    # heuristic returns (a lambda's body, a module function's one `return`; None for autotune keys)
    provided_constexprs: dict[str, cst.BaseExpression | None] = field(default_factory=dict)
    # a `@triton.jit` function other kernels call (it returns a value, or the module calls it
    # by name): Triton inlines it there, its arguments coming from the caller
    is_device_function: bool = False
    # a device function the module's host code launches too (ModuleContext asks the host for
    # the device functions only: `mark_launched`): a kernel with its own launches and
    # specialisations, though other kernels also call it inline (a fused variant)
    is_launched: bool = False
    # the module's kernels, where calls of device functions resolve (set by find_kernels)
    module_kernels: list[Kernel] = field(default_factory=list, repr=False)
    # the device functions the module imports from its package, where calls of names it does not
    # define resolve (set by find_kernels; None for a module read for them: one hop)
    imported: ImportedFunctions | None = field(default=None, repr=False)
    # the constexpr parameters the module's launches pass one constant for (`mark_launch_constants`)
    launch_constants: dict[str, cst.BaseExpression] = field(default_factory=dict, init=False, repr=False)
    # the module's constants and how its flows decide constexpr tests by them (`mark_module_constants`)
    module_constants: Mapping[str, object] = field(default_factory=dict, init=False, repr=False)
    decide: Decide | None = field(default=None, init=False, repr=False)
    _working_out: set[str] = field(default_factory=set, init=False, repr=False)  # facts of recursive calls
    # what `device_functions_called` and `calls_in_module` found, for this lint's module (`join_module`)
    _called: dict[cst.Call, list[Kernel]] = field(default_factory=dict, init=False, repr=False)
    _callers: list[tuple[Kernel, cst.Call]] | None = field(default=None, init=False, repr=False)

    @property
    def name(self) -> str:
        return self.bound_name or self.node.name.value

    @property
    def takes_launch_values(self) -> bool:
        """Whether the kernel gets the values its launches pass: no decorator but `jit` (an
        autotuner, heuristics or another wrapper, a library's tuner, may choose constexprs)."""
        return all(self.imports.is_triton(_callee(d), "jit") or _spelled_jit(_callee(d)) for d in self.decorators)

    def param_flags(self, param: Param, called: bool = True) -> int:
        """Where a parameter's value comes from: a constexpr, an int Triton may specialise
        (unannotated, or annotated Python's `int`, which triton-ascend specialises alike), a
        runtime scalar (annotated `tl.int32`, `float`..., or in `do_not_specialize`), or for
        a device function no launch runs what its calls pass (`passed_flags`; when not
        `called`, or when they are not known, whatever a caller passes). Triton binds a device
        function's parameters from the values passed, whatever the annotation: one annotated
        `tl.constexpr` that a call passes a tensor for is a tensor there."""
        if param.name in self.provided_constexprs:
            return CONST
        if param.is_constexpr:
            passed = self.passed_flags.get(param.name, ARG) if called else ARG
            return passed & ~ARG if passed & ~(CONST | ARG) else CONST
        if (param.annotation not in (None, "int")) or param.name in self.do_not_specialize:
            return SCALAR
        if not self.is_device_function or self.is_launched:
            return SPEC
        return self.passed_flags.get(param.name, ARG) if called else ARG

    def mark_launched(self, launched: bool) -> None:
        """Records whether the module's host code launches the function (`is_launched`); a
        kept kernel (KernelMemory) drops the facts it computed under the other verdict, which
        read its parameters otherwise, and so do the device functions of the module, which
        read what their callers pass (`passed_flags`)."""
        if launched != self.is_launched:
            self.is_launched = launched
            for kernel in {self, *self.module_kernels}:
                for fact in _FACTS:
                    kernel.__dict__.pop(fact, None)

    def mark_launch_constants(self, constants: dict[str, cst.BaseExpression]) -> None:
        """Records the constexpr parameters every launch of the module passes one constant for, a
        dtype or a literal (`IDX=tl.int64`, or a default `IDX: tl.constexpr = tl.int64` no
        launch overrides: `HostIndex.launch_constants`), read as the kernel's flow binds them
        (`Flow.bound`: `x.to(IDX)` is int64); facts computed with others are dropped, as are the
        module's device functions' (they read what their callers pass)."""
        if _codes(constants) != _codes(self.launch_constants):
            self.launch_constants = constants
            for kernel in {self, *self.module_kernels}:
                for fact in _FACTS:
                    kernel.__dict__.pop(fact, None)

    def mark_module_constants(self, constants: Mapping[str, object], decide: Decide) -> None:
        """Records the module's constants (`ModuleContext.module_constants`) and how the kernel's
        flows decide its constexpr tests by them (`Flow.decided`: an arm of `if IS_VARLEN:`
        after `IS_VARLEN = tl.constexpr(True)` or `IS_VARLEN: tl.constexpr = False` that no
        specialisation compiles defines nothing); facts computed with other constants are
        dropped, as are the module's device functions' (they read what their callers pass)."""
        self.decide = decide
        if constants != self.module_constants:
            self.module_constants = constants
            for kernel in {self, *self.module_kernels}:
                for fact in _FACTS:
                    kernel.__dict__.pop(fact, None)

    @cached_property
    def dtype_params(self) -> frozenset[str]:
        """The constexpr parameters the body casts to (`x.to(IDX)`, `tl.cast(x, IDX)`): those
        whose launched constant the flow reads (`mark_launch_constants`)."""
        constexprs = {p.name for p in self.params if p.is_constexpr}
        if not constexprs:
            return frozenset()
        return frozenset(
            dtype.value
            for node in walk(self.node.body)
            if type(node) is cst.Call
            and (parts := cast_parts(node, self.imports)) is not None
            and isinstance(dtype := parts[1], cst.Name)
            and dtype.value in constexprs
        )

    @cached_property
    def flow(self) -> Flow:
        """The kernel body's events, control flow and value facts (built on first use); for a
        device function, with its parameters as its calls pass them (`passed_flags`)."""
        if not self.passed_flags:
            return self.declared_flow
        return self.flow_of(self.node.body)

    @cached_property
    def declared_flow(self) -> Flow:
        """The flow of the body with a device function's parameters as whatever a caller passes:
        what it does with its parameters (`pointer_params`, `offset_params`) and where it is
        called (`calls_in_module`) whoever calls it."""
        return self.flow_of(self.node.body, called=False)

    def flow_of(self, body: cst.BaseSuite, called: bool = True) -> Flow:
        """The flow of `body` run with the kernel's parameters (its own body, or that body with
        the device functions it calls inlined: `ascend_lint.inline`)."""
        params = [(p.name, p.node, self.param_flags(p, called)) for p in self.params]
        constants = {**self.launch_constants, **(self.passed_constants if called else {})}
        return build_flow(
            body, params, self.imports, self._pointer_arguments, constants, self._returned_argument, self.decide
        )

    @property
    def passed_flags(self) -> dict[str, int]:
        """For a device function no launch runs: the flags of what its calls in the module's
        other jit functions pass for each unannotated parameter, joined over the calls (`pid`,
        a specialisable size, a constexpr: Triton inlines the function with its caller's
        values, and the literal default of a parameter a call leaves out); nothing when it has
        no such call, and `ARG` for a parameter a call passes nothing for (no literal default)
        or through `*args`."""
        return self._passed[0]

    @property
    def passed_constants(self) -> dict[str, cst.BaseExpression]:
        """For a device function no launch runs: the parameters every call in the module passes
        one constant for, a literal or a dtype (`_tail(x, tl.int64)`, or the caller's
        `IDX: tl.constexpr = tl.int64` passed as `IDX`), with it."""
        return self._passed[1]

    @cached_property
    def _passed(self) -> tuple[dict[str, int], dict[str, cst.BaseExpression]]:
        """`passed_flags` and `passed_constants`, read at each call. A caller whose own flow is
        being worked out (a recursive call) is read as declared."""
        if not self.is_device_function or self.is_launched:
            return {}, {}
        calls = self.calls_in_module()
        if not calls:
            return {}, {}
        flags: dict[str, int] = {}
        # parameter -> the constants passed for it by their code; None once a call passes another value
        constants: dict[str, dict[str, cst.BaseExpression] | None] = {p.name: {} for p in self.params}
        self._working_out.add("passed_flags")
        try:
            for caller, call in calls:
                flow = caller.declared_flow if "passed_flags" in caller._working_out else caller.flow
                starred = any(arg.star for arg in call.args)
                for position, param in enumerate(self.params):
                    argument = None if starred else call_argument(call, position, param.name)
                    default = param.node.default
                    if argument is None and not starred and default is not None and is_constant(default, flow.imports):
                        argument = default  # left out: Triton inlines the literal default, a constexpr
                    passed = ARG if argument is None else flow.flags(argument)
                    flags[param.name] = flags.get(param.name, 0) | passed
                    value = None if argument is None else flow.bound(argument)
                    seen = constants[param.name]
                    if seen is not None and value is not None and is_constant(value, flow.imports):
                        seen.setdefault(cst.Module([]).code_for_node(value), value)
                    else:
                        constants[param.name] = None
        finally:
            self._working_out.discard("passed_flags")
        return flags, {name: next(iter(seen.values())) for name, seen in constants.items() if seen and len(seen) == 1}

    def callers_passing_on(self, param: str) -> list[tuple[Kernel, str]]:
        """For a device function no launch runs: the caller's parameter each of its calls in the
        module passes on unchanged for `param` (`_body(q, o, cu_seqlens)` in a kernel taking
        `cu_seqlens`), with the caller; none when there is no call, or when a call passes
        anything else (a value the caller computes, a default, `*args`)."""
        position = next((i for i, p in enumerate(self.params) if p.name == param), None)
        if position is None or not self.passed_flags:
            return []
        found = []
        for caller, call in self.calls_in_module():
            argument = None if any(arg.star for arg in call.args) else call_argument(call, position, param)
            if not isinstance(argument, cst.Name):
                return []
            reaching = caller.declared_flow.reaching(argument)
            if not reaching or any(not isinstance(d.node, cst.Param) for d in reaching):
                return []
            found.append((caller, argument.value))
        return found

    def branches_in_callers(self, node: cst.If) -> list[tuple[Kernel, Branch]] | None:
        """For a device function no launch runs: the copies of its `if` `node` in the inlined
        body of each function at the top of the module's call chains reaching it (`_chains`:
        the kernels; a device function calling it through another one is looked through), with
        that function. There a test holds what the chain passes, in each of the top function's
        own specialisations: a tail flag a kernel splits on `TAIL_MODE` folds in its modes 0 and
        1, as the function's own flow, which joins every call's values (`passed_flags`), cannot
        say. None when it has no calls, a chain is recursive, or a top function's inlined body
        holds fewer copies than chains lead from it (a call left as a call)."""
        return self._copies_in_callers(
            lambda inlined: [branch for branch in inlined.flow.branches if inlined.written(branch.node) is node]
        )

    def choices_in_callers(self, node: cst.IfExp) -> list[tuple[Kernel, tuple[Flow, cst.IfExp]]] | None:
        """The copies of its conditional expression `node`, as `branches_in_callers` finds
        those of an `if`, each with the top function and the inlined flow holding it."""
        return self._copies_in_callers(
            lambda inlined: [
                (inlined.flow, choice)
                for choice in inlined.flow.conditional_expressions
                if inlined.written(choice) is node
            ]
        )

    def _copies_in_callers(self, copies_in: Callable[[Inlined], list[_Copy]]) -> list[tuple[Kernel, _Copy]] | None:
        """What `copies_in` finds of a node of this device function in the inlined body of each
        function at the top of the chains calling it, with that function
        (`branches_in_callers`); None as there."""
        if not self.passed_flags:
            return None
        chains = self._chains(frozenset({id(self)}))
        if not chains:
            return None
        found: list[tuple[Kernel, _Copy]] = []
        for top, count in chains.values():
            copies = copies_in(top.inlined)
            if len(copies) < count:
                return None
            found += [(top, copy) for copy in copies]
        return found

    def _chains(self, seen: frozenset[int]) -> dict[int, tuple[Kernel, int]] | None:
        """The functions of the module at the top of the call chains reaching this one (called by
        none of the module's jit functions), each with how many chains lead from it; `seen`: the
        functions on the chain so far (None when one calls itself back)."""
        found: dict[int, tuple[Kernel, int]] = {}
        for caller, _ in self.calls_in_module():
            if id(caller) in seen:
                return None
            above = caller._chains(seen | {id(caller)}) if caller.calls_in_module() else {id(caller): (caller, 1)}
            if above is None:
                return None
            for key, (top, count) in above.items():
                found[key] = (top, found[key][1] + count if key in found else count)
        return found

    @cached_property
    def pointer_params(self) -> frozenset[str]:
        """The parameters the function uses as pointers, itself or through the device functions
        it passes them to (Flow.pointer_names)."""
        names = self.declared_flow.pointer_names
        return frozenset(param.name for param in self.params if param.name in names)

    @cached_property
    def offset_params(self) -> frozenset[str]:
        """The parameters the function adds to a pointer as an offset term, itself (`x + base +
        o`) or through the device functions it passes them to."""
        names = {term.value for term in self.offset_terms(self.declared_flow) if isinstance(term, cst.Name)}
        return frozenset(param.name for param in self.params if param.name in names)

    def offset_terms(self, flow: Flow) -> list[cst.BaseExpression]:
        """The terms `flow` (the function's, or its declared one) adds to pointers as offsets:
        in its addresses (`Flow.offset_terms`), and the arguments it passes to a device function
        that does (`offset_arguments`)."""
        terms = [term for address in flow.addresses for term in flow.offset_terms(address)]
        return terms + [argument for event in flow.calls for argument in self.offset_arguments(event.call)]

    def returned_into(
        self,
        sinks: Callable[[Kernel], Mapping[cst.CSTNode, str]],
        counting: Callable[[Kernel], Callable[[Kernel, cst.Call], bool]] | None = None,
        done: ReturnedInto | None = None,
    ) -> dict[cst.BaseExpression, str]:
        """For a device function no launch runs: the values its `return` statements give that a
        call of it in the module (one `counting` of the function counts: all without it) passes
        into one of the caller's `sinks` (its value, or the item a name is unpacked from: `off, n
        = _off(...)`), through the sums, products and names `Flow.value_reaches` follows, each
        with what the sink says of it. A caller that is a device function itself passes the value
        on where it returns it into its own callers' sinks (`_off` returning `_base(b, H, V) + i_h
        * V` read in `v + _off(bos, i_h, H, V)`), however long the chain: each function is
        worked out once per question (`done`, which a caller may keep across its questions of
        one module; one calling itself back passes nothing on), and `sinks` is asked once per
        caller. Not cached here: it depends on the callers, which change with the module."""
        if not self.is_device_function or self.is_launched:
            return {}
        done = ReturnedInto() if done is None else done
        if self in done.pending:
            done.cyclic = True
            return {}
        if self in done.found:
            return done.found[self]
        done.pending.add(self)
        try:
            done.found[self] = self._returned_into(sinks, counting, done)
        finally:
            done.pending.discard(self)
        return done.found[self]

    def _returned_into(
        self,
        sinks: Callable[[Kernel], Mapping[cst.CSTNode, str]],
        counting: Callable[[Kernel], Callable[[Kernel, cst.Call], bool]] | None,
        done: ReturnedInto,
    ) -> dict[cst.BaseExpression, str]:
        counted = counting(self) if counting is not None else None
        found: dict[cst.BaseExpression, str] = {}
        targets: dict[int, Mapping[cst.CSTNode, str]] = {}
        bound: dict[int, dict[int, list[Event]]] = {}  # per caller: the definitions by the id of their value
        for caller, call in self.calls_in_module():
            if counted is not None and not counted(caller, call):
                continue
            flow = caller.flow
            if id(caller) not in targets:
                passed_on = caller.returned_into(sinks, counting, done)
                targets[id(caller)] = {**sinks(caller)} | dict(passed_on.items())
                by_value: dict[int, list[Event]] = {}
                for d in (d for events in flow.defs.values() for d in events if d.value is not None):
                    by_value.setdefault(id(d.value), []).append(d)
                bound[id(caller)] = by_value
            bindings = bound[id(caller)].get(id(call), [])
            results = [
                (unpacked_index(d.node, flow), [read.node for read in flow.reads_after(d, d.name)])
                for d in bindings
                if isinstance(d.node, cst.Name) and d.name is not None
            ]
            for index, starts in results if bindings else [(None, [call])]:
                reached = flow.value_reaches(starts, targets[id(caller)])
                if reached is not None:
                    found.update(dict.fromkeys(returned_values(self.node, index), reached[1]))
        return found

    @cached_property
    def block_offset_params(self) -> frozenset[str]:
        """The parameters whose value reaches an int32 block-pointer argument (`block_offsets`),
        in the function itself or through the device functions it passes them to."""
        flow, sinks = self.declared_flow, self.block_offsets(self.declared_flow)
        found = set()
        for param in self.params:
            entry = [d for d in flow.defs.get(param.name, ()) if isinstance(d.node, cst.Param)]
            reads = [read.node for d in entry for read in flow.reads_after(d, param.name)]
            if flow.value_reaches(reads, sinks) is not None:
                found.add(param.name)
        return frozenset(found)

    def block_offsets(self, flow: Flow) -> dict[cst.CSTNode, str]:
        """The values a block pointer takes as int32 in `flow` (the kernel's, or its declared
        one): `Flow.block_offsets`, and the arguments of calls to device functions of the module
        whose parameter reaches one (`block_offset_params`), each with what takes it ("an offset
        of `tl.advance`", "passed to `_blk`, which uses it as a block-pointer offset")."""
        found: dict[cst.CSTNode, str] = {part: f"an offset of `{f}`" for part, f in flow.block_offsets.items()}
        for event in flow.calls:
            used = f"passed to `{dotted_name(event.call.func)}`, which uses it as a block-pointer offset"
            found.update((argument, used) for argument in self._arguments_used_as(event.call, "block_offset_params"))
        return found

    def offset_arguments(self, call: cst.Call) -> list[cst.BaseExpression]:
        """The arguments of `call` a device function of the module it may run adds to a pointer
        as an offset (`_load_rows(x, q_base, ...)` doing `tl.load(x + base + ...)`)."""
        return self._arguments_used_as(call, "offset_params")

    def _pointer_arguments(self, call: cst.Call) -> list[cst.BaseExpression]:
        """The arguments of `call` a device function of the module it may run uses as pointers."""
        return self._arguments_used_as(call, "pointer_params")

    def _returned_argument(self, call: cst.Call) -> cst.BaseExpression | None:
        """The argument of `call` that every device function it may run returns as it is
        (`def ident(x): return x`; Triton inlines the function, so the result is that value)."""
        helpers = self.device_functions_called(call)
        if not helpers or any(arg.star for arg in call.args):
            return None
        returned = {helper.returned_param for helper in helpers}
        if len(returned) != 1 or None in returned:
            return None
        (param,) = returned
        assert param is not None
        return call_argument(call, *param)

    @cached_property
    def returned_param(self) -> tuple[int, str] | None:
        """The parameter (position, name) every `return` of the function gives as it is, never
        rebound in the body (`def ident(x): return x`), else None."""
        names = {value.value if isinstance(value, cst.Name) else None for value in returned_values(self.node, None)}
        for position, param in enumerate(self.params):
            if names == {param.name} and len(self.declared_flow.defs.get(param.name, ())) == 1:
                return position, param.name
        return None

    def _arguments_used_as(self, call: cst.Call, fact: str) -> list[cst.BaseExpression]:
        """The arguments of `call` bound to parameters in the `fact` (`pointer_params`,
        `offset_params`) of a device function of the module it may run; none from a function
        whose `fact` is being worked out (a recursive call)."""
        if any(arg.star for arg in call.args):
            return []  # the positions are not known
        found = []
        self._working_out.add(fact)
        try:
            for helper in self.device_functions_called(call):
                if fact in helper._working_out:
                    continue
                params: frozenset[str] = getattr(helper, fact)
                for position, param in enumerate(helper.params):
                    argument = call_argument(call, position, param.name)
                    if argument is not None and param.name in params:
                        found.append(argument)
        finally:
            self._working_out.discard(fact)
        return found

    def join_module(self, kernels: list[Kernel], imported: ImportedFunctions | None) -> None:
        """Sets the module's kernels and imported functions for this lint, and forgets the calls
        resolved among an earlier lint's (a kept kernel: KernelMemory)."""
        self.module_kernels, self.imported = kernels, imported
        self._called, self._callers = {}, None

    def calls_in_module(self) -> list[tuple[Kernel, cst.Call]]:
        """The calls of this device function in the module's other jit functions, each with the
        function making it (`device_functions_called`). Found for all the module's functions
        at once, in one pass over its calls: n helpers on a chain each asking read n calls."""
        if self._callers is None:
            module = self.module_kernels
            joined = [kernel for kernel in module if kernel.module_kernels is module]
            for kernel in joined:
                kernel._callers = []
            joined_ids = {id(kernel) for kernel in joined}
            for caller in module:
                for event in caller.declared_flow.calls:
                    for callee in dict.fromkeys(caller.device_functions_called(event.call)):
                        if callee is not caller and id(callee) in joined_ids and callee._callers is not None:
                            callee._callers.append((caller, event.call))
        return self._callers or []  # one of them (`join_module`), but for a function never joined

    def device_functions_called(self, call: cst.Call) -> list[Kernel]:
        """The device functions the function's call `name(...)` may run (Triton inlines them):
        each one the module defines under that name, several when exclusive module-level `if`
        arms define it; else, for a name the module imports (`from .micro_kernel import
        name`) or a function of a module of the package it imports (`helpers.name(...)` after
        `from . import helpers`, `import pkg.helpers as helpers` or `import pkg.helpers`), the
        one that module defines (`ImportedFunctions.jit_functions`). None when the function
        binds the name (or the module's name) itself. Resolved once per call."""
        found = self._called.get(call)
        if found is None:
            found = self._called[call] = self._resolve_call(call)
        return found

    def _resolve_call(self, call: cst.Call) -> list[Kernel]:
        reference = dotted_name(call.func)
        if reference is None or reference.split(".")[0] in self.declared_flow.defs:
            return []
        if "." not in reference:
            defined = [kernel for kernel in self.module_kernels if kernel.name == reference]
            if defined:
                return [kernel for kernel in defined if kernel.is_device_function]
        return [] if self.imported is None else self.imported.jit_functions(reference)

    def unread_import(self, call: cst.Call) -> str | None:
        """The name of the function the call runs (`safe_dot` of `safe_dot(...)` and of
        `op.safe_dot(...)`) when the module imports it, or the module holding it, from a
        module that is not Triton's and that no file of the package holds (`from
        fla.ops.utils.op import safe_dot` with fla not installed and not in the tree): a device
        function whose body the lint cannot read, so only its name tells what it does. None for
        a call `device_functions_called` resolves, a name the function binds, one the module
        defines, and one of a module the lint reads (its body says what it does)."""
        reference = dotted_name(call.func)
        if reference is None or self.device_functions_called(call):
            return None
        head = reference.split(".")[0]
        if head in self.declared_flow.defs or self.imports.resolve(call.func) is not None:
            return None
        if head not in self.imports.imported_from and head not in self.imports.imported_modules:
            return None
        if self.imported is not None and self.imported.module_file(reference) is not None:
            return None
        return reference.rsplit(".", 1)[-1]

    @cached_property
    def inlined(self) -> Inlined:
        """The flow of the body with the device functions it calls inlined, as Triton compiles
        it (`ascend_lint.inline`): what the tile model plans, and where a rule sees through a
        helper's result (`p_g = _pointers(g, ...)` is `g + ...`)."""
        from .inline import Inlined, inline_device_functions

        found = inline_device_functions(self) if self.calls_device_functions else None
        if found is None:
            return Inlined(self.flow, {}, self.node)
        body, origins, sites, helpers = found
        return Inlined(self.flow_of(body), origins, self.node, sites, helpers)

    @cached_property
    def calls_device_functions(self) -> bool:
        """The kernel calls a device function of its module (`inlined` may inline it)."""
        return any(self.device_functions_called(event.call) for event in self.flow.calls)

    def at_call(self, call: cst.Call) -> tuple[Flow, cst.Call]:
        """The flow to read a call of the kernel's own body with, and the call there: the
        inlined body's (`inlined`: `i_n, i_h = _head(H)` are program ids there) when the kernel
        calls a device function, with the call as written or, when a helper's call inside it
        was inlined, its copy reading the helper's result (`_row_off(i_bh, T).to(tl.int64)` is
        `ret·_row_off.to(tl.int64)`, the product `_row_off` returns); else the kernel's flow."""
        inlined = self.inlined
        flow = inlined.flow
        if call in flow.call_events:
            return flow, call
        copy = inlined.copy_of(call)
        if isinstance(copy, cst.Call) and copy in flow.call_events:
            return flow, copy
        return self.flow, call

    @cached_property
    def tiles(self) -> TileModel:
        """The kernel's tile values and where the compiler puts them (built on first use)."""
        from .tiles import build_tiles

        return build_tiles(self)

    @cached_property
    def optional_pointer_flags(self) -> dict[str, set[str]]:
        """Pointer params a heuristic tests against None -> the constexpr flags it sets."""
        flags: dict[str, set[str]] = {}
        for flag, returned in self.provided_constexprs.items():
            if returned is None:
                continue
            for pointer in _none_tested_args(returned):
                flags.setdefault(pointer, set()).add(flag)
        return flags


def _codes(constants: dict[str, cst.BaseExpression]) -> dict[str, str]:
    return {name: cst.Module([]).code_for_node(value) for name, value in constants.items()}


def is_constant(value: cst.BaseExpression, imports: ImportMap) -> bool:
    """A literal (`64`, `True`, `"int64"`) or a name of Triton's (`tl.int64`)."""
    if isinstance(value, cst.Integer | cst.Float | cst.SimpleString):
        return True
    if isinstance(value, cst.Name) and value.value in ("True", "False", "None"):
        return True
    return isinstance(value, cst.Attribute) and imports.resolve(value) is not None


MAX_CALLERS_DEEP = 3  # device functions calling device functions, followed to a kernel (`calls_in_module`)
_FACTS = tuple(name for name, value in vars(Kernel).items() if isinstance(value, cached_property))


def find_kernels(
    module: cst.Module,
    imports: ImportMap,
    memory: KernelMemory | None = None,
    imported: ImportedFunctions | None = None,
) -> list[Kernel]:
    """Functions decorated with `triton.jit` wherever they are defined: module level, under
    module-level `if`/`try`/`with`, in classes, inside factory functions; then the kernels
    the module makes by calls (`_bound_kernels`). With a `memory`, a kernel it holds is
    returned instead of its new copy (see KernelMemory); `imported` finds the device functions
    the module imports."""
    kernels = []
    called: set[str] | None = None
    literals = _module_literals(module)
    decorated = (_as_kernel(fn, [d.decorator for d in fn.decorators], imports, literals) for fn in imports.functions)
    bound = _bound_kernels(module, imports, literals) if _calls_a_decorator(imports) else ()
    for kernel in (*decorated, *bound):
        if kernel is not None:
            if called is None:
                called = _called_names(imports.source)
            kernel.is_device_function = _returns_value(kernel.node) or kernel.name in called
            kernels.append(kernel)
    if memory is not None:
        kernels = memory.recall(kernels, imports, imported)
    for kernel in kernels:
        kernel.join_module(kernels, imported)
    return kernels


_DECORATOR_NAMES = ("jit", "autotune", "heuristics")


def _calls_a_decorator(imports: ImportMap) -> bool:
    """Whether the text calls `jit`, `autotune` or `heuristics` (by those names or names
    imported as them) on a line that is no decorator: what a kernel made by a call needs."""
    names = {*_DECORATOR_NAMES}
    names.update(
        local.rsplit(".", 1)[-1]
        for local, full in imports.aliases.items()
        if full.startswith("triton.") and full.rsplit(".", 1)[-1] in _DECORATOR_NAMES
    )
    source = imports.source
    for match in re.finditer(rf"\b(?:{'|'.join(sorted(names))})[ \t]*\(", source):
        line = source[source.rfind("\n", 0, match.start()) + 1 : match.start()]
        if not line.lstrip().startswith("@"):
            return True
    return False


def _bound_kernels(
    module: cst.Module, imports: ImportMap, literals: dict[str, cst.BaseExpression]
) -> Iterator[Kernel | None]:
    """The kernels made by calls and bound to a name, anywhere in the module:
    `_k = triton.jit(_impl)`, `triton.jit(do_not_specialize=_SIZES)(_impl)`,
    `triton.autotune(configs=...)(triton.jit(_impl))`, `triton.heuristics({...})(k)` around
    a decorated kernel `k` or around an earlier such name. Each binding is a kernel of its
    own (a function bound twice with different `do_not_specialize` lists is two kernels)."""
    functions: dict[str, cst.FunctionDef] = {}
    wrapped: dict[str, tuple[cst.FunctionDef, tuple[cst.BaseExpression, ...]]] = {}
    for statement in walk_statements(module.body):
        if isinstance(statement, cst.FunctionDef):
            functions[statement.name.value] = statement
            continue
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if not (isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)):
                continue
            found = _unwrapped(small.value, functions, wrapped, imports)
            if found is None:
                continue
            for target in small.targets:
                if isinstance(target.target, cst.Name):
                    wrapped[target.target.value] = found
                    yield _as_kernel(*found, imports, literals, bound_name=target.target.value)


def _unwrapped(
    node: cst.BaseExpression,
    functions: dict[str, cst.FunctionDef],
    wrapped: dict[str, tuple[cst.FunctionDef, tuple[cst.BaseExpression, ...]]],
    imports: ImportMap,
) -> tuple[cst.FunctionDef, tuple[cst.BaseExpression, ...]] | None:
    """The function a chain of decorator calls wraps, with the decorators outermost first; None
    when a call in the chain is no `jit` / `autotune` / `heuristics` or the innermost argument
    names no function of the module (nor a name bound to such a chain before)."""
    decorators: list[cst.BaseExpression] = []
    while isinstance(node, cst.Call):
        positional = [arg.value for arg in node.args if arg.keyword is None]
        if len(positional) != 1 or any(arg.star for arg in node.args):
            return None
        if _is_bare_jit(node.func, imports):
            decorators.append(node)  # `triton.jit(fn, do_not_specialize=...)`: the call holds jit's keywords
        elif isinstance(node.func, cst.Call) and (
            _is_bare_jit(node.func.func, imports)
            or imports.is_triton(node.func.func, "autotune")
            or imports.is_triton(node.func.func, "heuristics")
        ):
            decorators.append(node.func)
        else:
            return None
        node = positional[0]
    if not isinstance(node, cst.Name):
        return None
    if node.value in wrapped:
        function, inner = wrapped[node.value]
        return function, (*decorators, *inner)
    defined = functions.get(node.value)
    if defined is None:
        return None
    return defined, (*decorators, *(decorator.decorator for decorator in defined.decorators))


def _is_bare_jit(callee: cst.BaseExpression, imports: ImportMap) -> bool:
    """`triton.jit` (any name resolving to it) or a name spelled `jit` / `<anything>.jit`;
    `_as_kernel` asks the latter's function to use `triton.language`."""
    return imports.is_triton(callee, "jit") or _spelled_jit(callee)


_MAX_REEXPORTS = 3  # modules importing a jit function from another one, followed to its definition


class ImportedFunctions:
    """What a module imports from another module of its package, read from disk: the
    `@triton.jit` functions (`from .micro_kernel import micro_kernel_fwd`, `from pkg.ops.utils
    import safe_dot`), and the module defining a host name (`definition`); a relative import
    from the module's folder, an absolute one from the package's outermost folder of that name
    (`package.module_files`). A name the module neither binds nor imports by name comes from the
    last of its star imports (`from .kernels import *`) that exports it (`exports`).

    One hop: the imported module's kernels are found as in a file of their own, every one a
    device function (a kernel calls it), and calls there resolve among its own functions only,
    never through its imports; a name a module only imports is found where it comes from
    (`jit_functions`: a re-export). A module that is missing, unreadable, undecodable or not valid
    Python adds nothing. Each module file is read into an `ImportedModule` once per process
    while its bytes stay the same (`_imported_module`); `read` records the hash of every file
    looked at (None when it could not be read), which the result of the importing file depends
    on (the cache, the editor server's kept kernels)."""

    def __init__(
        self,
        folder: Path,
        imports: ImportMap,
        triton_modules: Sequence[str] = (),
        read: dict[str, str | None] | None = None,
        file: Path | None = None,
    ):
        self.folder = folder
        self.file = file  # the importing module's own file (in `folder`), which it may import too
        self.imports = imports
        self.triton_modules = tuple(triton_modules)
        self.read = {} if read is None else read
        # each kernel `jit_functions` handed out -> the file of the module defining it (re-exports followed)
        self.defined_in: dict[Kernel, Path] = {}
        self._modules: dict[str, ImportedModule | None] = {}
        self._exports: dict[str, frozenset[str]] = {}

    def jit_functions(self, reference: str, hops: int = 0) -> list[Kernel]:
        """The `@triton.jit` functions a dotted name is (`f`, `helpers.f`: see `definition`): a
        device function a kernel calls, a kernel host code launches; those of its module named
        as it is there, from the first file the module is found in. A module that imports the
        name from another module of the package re-exports it (`from .op import exp` in
        `utils/__init__.py`, then `from .utils import exp`): followed, `_MAX_REEXPORTS` deep."""
        found = self._located(reference)
        if found is None:
            return []
        path, module, name = found
        kernels = [kernel for kernel in module.kernels if kernel.name == name]
        self.defined_in.update(dict.fromkeys(kernels, path))
        if kernels or hops >= _MAX_REEXPORTS or module.tree is None:
            return kernels
        onward = ImportedFunctions(path.parent, module.tree[1], self.triton_modules, self.read, path)
        onward.defined_in = self.defined_in
        return onward.jit_functions(name, hops + 1)

    def definition(self, reference: str) -> tuple[ImportedModule, str] | None:
        """The module of the package a dotted name of host code comes from, and its name
        there: `f` after `from .utils import f`; `utils.f` after `from . import utils` or
        `from pkg import utils`; `u.f` after `import pkg.utils as u`; `pkg.utils.f` after
        `import pkg.utils`. None for a name no import of the package's modules binds."""
        found = self._located(reference)
        return None if found is None else found[1:]

    def module_file(self, reference: str) -> tuple[Path, ImportedModule] | None:
        """The file and module of the package a dotted name of host code comes from
        (`definition`), the module read but not parsed."""
        found = self._located(reference)
        return None if found is None else found[:2]

    def _located(self, reference: str) -> tuple[Path, ImportedModule, str] | None:
        """`definition`, with the file the module is read from."""
        found = self._origin(reference)
        if found is None:
            return None
        module, name = found
        first = self._first_file(module)
        return None if first is None else (*first, name)

    def own_name(self, reference: str) -> str | None:
        """The name a dotted name of host code has in the importing module itself, when an
        import names that module (`k` for `a` after `from .this_module import k as a`, where
        Python finds `.this_module` at the importing file): the module is not read again."""
        found = self._origin(reference)
        if found is None or self.file is None:
            return None
        for path in module_files(self.folder, found[0]):
            if path == self.file:
                return found[1]
            if os.path.isfile(path):
                return None  # Python imports that file
        return None

    def _origin(self, reference: str) -> tuple[str, str] | None:
        """The module a dotted name of host code comes from and its name there (`definition`)."""
        head, *middle = reference.split(".")
        origin = self.imports.imported_from.get(head)
        if not middle:
            return origin if origin is not None else self._star_origin(head)
        if origin is not None:
            base, name = origin
            module = f"{base}{name}" if base.endswith(".") else f"{base}.{name}"
        elif head in self.imports.imported_modules:
            module = self.imports.imported_modules[head]
        else:
            return None
        *inner, name = middle
        return module + "".join(f".{part}" for part in inner), name

    def _star_origin(self, name: str) -> tuple[str, str] | None:
        """The module a name no statement of the module binds comes from through its star
        imports (`from .kernels import *`): the last one whose module exports it (`exports`)."""
        if not self.imports.star_imports or name in self.imports.module_names or name in self.imports.local_names:
            return None
        for module in reversed(self.imports.star_imports):
            if name in self.exports(module):
                return module, name
        return None

    def star_imported_triton(self) -> dict[str, str]:
        """The Triton names the module's star imports bind (`from .triton_utils import *`, where
        that module imports `triton` and `triton.language as tl`): each name the module does not
        bind itself, from the last star import exporting it (`exports`), with the meaning the
        module it is read from gives it (its own imports and bindings: one hop)."""
        found: dict[str, str] = {}
        for module in self.imports.star_imports:
            meanings = self._triton_bindings(module)
            for name in self.exports(module):
                if name in meanings:
                    found[name] = meanings[name]
                else:
                    found.pop(name, None)  # a later star import binds it to something else
        return {name: full for name, full in found.items() if name not in self.imports.module_names}

    def _triton_bindings(self, module: str) -> dict[str, str]:
        """The module-level names of `module` (its first file) that mean Triton, with what they mean."""
        first = self._first_file(module)
        tree = None if first is None else first[1].tree
        if tree is None:
            return {}
        imports = tree[1]
        return {name: full for name, full in imports.aliases.items() if name in imports.module_names}

    def exports(self, module: str, hops: int = 0) -> frozenset[str]:
        """The names `from <module> import *` binds, the module read from its first file: its
        `__all__` when a literal list, else its public module-level names and those of its own
        star imports (followed `_MAX_REEXPORTS` deep); none for a module that cannot be read.
        Worked out once per module."""
        if module not in self._exports:
            self._exports[module] = self._read_exports(module, hops)
        return self._exports[module]

    def _read_exports(self, module: str, hops: int) -> frozenset[str]:
        first = self._first_file(module)
        tree = None if first is None else first[1].tree
        if first is None or tree is None:
            return frozenset()
        path, imports = first[0], tree[1]
        if imports.all_names is not None:
            return imports.all_names
        names = {name for name in imports.module_names if not name.startswith("_")}
        if hops < _MAX_REEXPORTS and imports.star_imports:
            onward = ImportedFunctions(path.parent, imports, self.triton_modules, self.read, path)
            for inner in imports.star_imports:
                names |= onward.exports(inner, hops + 1)
        return frozenset(names)

    def unchanged(self, read: dict[str, str | None]) -> bool:
        """Whether the files another lint read still hold what they held (recorded as read
        again: facts kept from that lint depend on them)."""
        current = {path: file_hash(Path(path)) for path in read}
        self.read.update(current)
        return current == read

    def _first_file(self, module: str) -> tuple[Path, ImportedModule] | None:
        """The first file of `module` that can be read, where Python looks first
        (`module_files`), with the module it holds."""
        for path in module_files(self.folder, module):
            read = self._module_at(str(path))
            if read is not None:
                return path, read
        return None

    def _module_at(self, path: str) -> ImportedModule | None:
        """The module file at `path` (read once per lint); None when it cannot be read."""
        if path not in self._modules:
            try:
                data = read_source(path)
            except (OSError, SourceError):
                self.read[path] = self._modules[path] = None
            else:
                self.read[path] = digest = content_hash(data)
                self._modules[path] = imported_module(path, digest, data, self.triton_modules)
        return self._modules[path]


class ImportedModule:
    """A module file of the package another module imports from: its text and words, and,
    parsed on first use (CPython deciding what is a syntax error), its syntax tree and Triton
    names, and its kernels, all device functions. Undecodable or invalid bytes hold no tree."""

    def __init__(self, data: bytes, triton_modules: tuple[str, ...]):
        try:
            self.text: str | None = decode(data)
        except SourceError:
            self.text = None
        self.triton_modules = triton_modules

    @cached_property
    def words(self) -> Words:
        """The words of the text (what may be worth a parse: `prefilter.Words`)."""
        return Words(self.text or "")

    @cached_property
    def tree(self) -> tuple[cst.Module, ImportMap] | None:
        if self.text is None:
            return None
        try:
            compile_python(self.text)  # CPython decides what is a syntax error
            module = parse(self.text)
        except (SourceError, RecursionError):
            return None
        return module, ImportMap(module, self.text, self.triton_modules)

    @cached_property
    def kernels(self) -> list[Kernel]:
        if self.tree is None:
            return []
        try:
            kernels = find_kernels(*self.tree)
        except RecursionError:
            return []
        for kernel in kernels:
            kernel.is_device_function = True
        return kernels


# path -> (content hash, triton-modules setting, the module): read once per content
_IMPORTED_MODULES: dict[str, tuple[str, tuple[str, ...], ImportedModule]] = {}


def imported_module(path: str, digest: str, data: bytes, triton_modules: tuple[str, ...]) -> ImportedModule:
    """The module a file with these bytes holds, kept while they stay the same."""
    known = _IMPORTED_MODULES.get(path)
    if known is not None and known[:2] == (digest, triton_modules):
        return known[2]
    found = ImportedModule(data, triton_modules)
    _IMPORTED_MODULES[path] = (digest, triton_modules, found)
    return found


class KernelMemory:
    """The kernels of a document's previous lint (the editor server keeps one per document).

    A kernel is the same kernel when its function is the same node (the incremental parser
    keeps the nodes of the statements an edit did not touch: the same text), the module's
    Triton names and device functions are the same and so is the device-function verdict:
    everything a Kernel's facts (flow, tiles, UB peaks per configuration) are computed from
    (its pointers come through the device functions it calls). Such a kernel keeps the facts
    it has computed; module-level facts (launches, configurations) are not kept.
    """

    def __init__(self) -> None:
        self._kernels: dict[tuple[cst.FunctionDef, str], Kernel] = {}
        self._names: dict[str, str] | None = None
        self._device_functions: list[tuple[str, cst.FunctionDef]] = []
        self._imported_from: dict[str, tuple[str, str]] = {}
        self._imported_modules: dict[str, str] = {}
        self._star_imports: list[str] = []
        self._imported_read: dict[str, str | None] = {}

    def recall(self, kernels: list[Kernel], imports: ImportMap, imported: ImportedFunctions | None) -> list[Kernel]:
        names = imports.meaning()
        device_functions = [(kernel.name, kernel.node) for kernel in kernels if kernel.is_device_function]
        same_module = (
            names == self._names
            and device_functions == self._device_functions
            and self._imported_from == imports.imported_from
            and self._imported_modules == imports.imported_modules
            and self._star_imports == imports.star_imports
            and (imported is None or imported.unchanged(self._imported_read))  # the imported functions' files
        )
        recalled = []
        for kernel in kernels:
            known = self._kernels.get((kernel.node, kernel.name)) if same_module else None
            same = (
                known is not None
                and known.is_device_function == kernel.is_device_function
                and known.do_not_specialize == kernel.do_not_specialize  # a module-level list may change
                and known.decorators == kernel.decorators  # the calls around a call-form kernel may change
                and known.provided_constexprs == kernel.provided_constexprs  # so may a module-level table
            )
            recalled.append(known if same and known is not None else kernel)
        self._kernels = {(kernel.node, kernel.name): kernel for kernel in recalled}  # only the current ones
        self._names, self._device_functions = names, device_functions
        self._imported_from = dict(imports.imported_from)
        self._imported_modules = dict(imports.imported_modules)
        self._star_imports = list(imports.star_imports)
        self._imported_read = imported.read if imported is not None else {}  # filled as this lint reads
        return recalled

    def forget(self) -> None:
        self._kernels, self._names, self._device_functions = {}, None, []
        self._imported_from, self._imported_modules, self._imported_read = {}, {}, {}
        self._star_imports = []


def _returns_value(fn: cst.FunctionDef) -> bool:
    """`return <value>` in the function (a launched kernel returns nothing)."""
    for statement in walk_statements(fn.body.body if isinstance(fn.body, cst.IndentedBlock) else []):
        if isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(small, cst.Return) and small.value is not None for small in statement.body
        ):
            return True
    return isinstance(fn.body, cst.SimpleStatementSuite) and any(
        isinstance(small, cst.Return) and small.value is not None for small in fn.body.body
    )


_CALLED = re.compile(r"(?<![\w.])(?<!def )([^\W\d]\w*)[ \t]*\(")


def _called_names(source: str) -> set[str]:
    """The names the module calls as `name(...)`: host code launches kernels (`name[grid](...)`);
    a plain call is another kernel calling a device function."""
    return set(_CALLED.findall(source))


def _as_kernel(
    fn: cst.FunctionDef,
    decorators: Sequence[cst.BaseExpression],
    imports: ImportMap,
    literals: dict[str, cst.BaseExpression],
    bound_name: str | None = None,
) -> Kernel | None:
    """The kernel `fn` is under `decorators` (outermost first), when one of them is `jit`."""
    jit_decorator = None
    for decorator in decorators:
        callee = _callee(decorator)
        if imports.is_triton(callee, "jit") or (_spelled_jit(callee) and _uses_triton_language(fn, imports)):
            jit_decorator = decorator
            prefix = dotted_name(callee.value) if isinstance(callee, cst.Attribute) else None
            if prefix and imports.resolve_dotted(prefix) is None:
                imports.add(prefix, TRITON)  # `@pkg.jit` on a Triton body: `pkg` is Triton
    if jit_decorator is None:
        return None
    provided: dict[str, cst.BaseExpression | None] = {}
    for target in decorators:
        if not isinstance(target, cst.Call):
            continue
        if imports.is_triton(target.func, "heuristics"):
            provided.update(_heuristics(target, literals))
        elif imports.is_triton(target.func, "autotune"):
            provided.update(dict.fromkeys(_autotune_keys(target, imports)))
    params = [_param(p) for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)]
    return Kernel(
        node=fn,
        imports=imports,
        params=params,
        do_not_specialize=_do_not_specialize(jit_decorator, params, literals),
        decorators=tuple(decorators),
        bound_name=bound_name,
        provided_constexprs=provided,
    )


def _callee(decorator: cst.BaseExpression) -> cst.BaseExpression:
    return decorator.func if isinstance(decorator, cst.Call) else decorator


def _spelled_jit(callee: cst.BaseExpression) -> bool:
    """`@<anything>.jit` or a bare `@jit`."""
    if isinstance(callee, cst.Attribute):
        return callee.attr.value == "jit"
    return isinstance(callee, cst.Name) and callee.value == "jit"


def _uses_triton_language(fn: cst.FunctionDef, imports: ImportMap) -> bool:
    """Whether the function reads like a Triton kernel: a `tl.constexpr` parameter or a call
    of a `triton.language` function in its body."""
    for param in fn.params.params:
        if param.annotation is not None and _is_language(param.annotation.annotation, imports):
            return True
    return any(isinstance(node, cst.Call) and _is_language(node.func, imports) for node in walk(fn.body))


def _is_language(node: cst.BaseExpression, imports: ImportMap) -> bool:
    full = imports.resolve(node)
    return full is not None and full.startswith("triton.language.")


def _param(node: cst.Param) -> Param:
    annotation = None
    if node.annotation is not None:
        expr = node.annotation.annotation
        text = str_literal(expr)
        if text is None:  # the code without its layout: `tl.⏎ constexpr` is `tl.constexpr`
            text = "".join(cst.Module([]).code_for_node(expr).split())
        annotation = "constexpr" if text.split(".")[-1] == "constexpr" else text
    return Param(node.name.value, annotation, node)


def keyword_value(call: cst.Call, name: str) -> cst.BaseExpression | None:
    """The value of keyword argument `name` in the call, if written."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    return None


def _do_not_specialize(
    decorator: cst.BaseExpression, params: list[Param], literals: dict[str, cst.BaseExpression]
) -> frozenset[str]:
    """The parameters `do_not_specialize=` lists, by name or position: written out, or a
    module-level list it names (`do_not_specialize=_SIZES`), or a sum of those."""
    if not isinstance(decorator, cst.Call):
        return frozenset()
    listed = keyword_value(decorator, "do_not_specialize")
    names = set()
    for element in _listed(listed, literals):
        name = str_literal(element)
        index = int_literal(element)
        if name is not None:
            names.add(name)
        elif index is not None and 0 <= index < len(params):
            names.add(params[index].name)
    return frozenset(names)


def _listed(node: cst.BaseExpression | None, literals: dict[str, cst.BaseExpression]) -> list[cst.BaseExpression]:
    """The elements of a list or tuple literal, of a module-level one a name is bound to, or of
    a sum of those (`_SIZES + ["sx"]`); none for anything else."""
    if isinstance(node, (cst.List, cst.Tuple)):
        return [element.value for element in node.elements]
    if isinstance(node, cst.Name) and node.value in literals:
        return _listed(literals[node.value], literals)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return [*_listed(node.left, literals), *_listed(node.right, literals)]
    return []


def _module_literals(module: cst.Module) -> dict[str, cst.BaseExpression]:
    """Module-level names bound exactly once, to a list, tuple or dict literal
    (`do_not_specialize=_SIZES`, `triton.heuristics(_HEURISTICS)`), or by a `def` whose body
    is one `return`, to the value it returns (a heuristic: `{"BLOCK": heur_block}`)."""
    found: dict[str, cst.BaseExpression] = {}
    bound: set[str] = set()
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            returned = _returned(statement)
            if statement.name.value in bound or returned is None:
                found.pop(statement.name.value, None)
            else:
                found[statement.name.value] = returned
            bound.add(statement.name.value)
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                targets = [target.target for target in small.targets]
            elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                targets = [small.target]
            else:
                continue
            for target in targets:
                if isinstance(target, cst.Name):
                    if target.value in bound or not isinstance(small.value, (cst.List, cst.Tuple, cst.Dict)):
                        found.pop(target.value, None)
                    else:
                        found[target.value] = small.value
                    bound.add(target.value)
    return found


def unpacked_index(target: cst.CSTNode, flow: Flow) -> int | None:
    """The position of `target` in the tuple a value is unpacked into (`bos` of `bos, T =
    f(...)`: 0); None when the name is bound to the whole value."""
    element = flow.parents.get(target)
    tuple_ = flow.parents.get(element) if isinstance(element, cst.Element) else None
    if not isinstance(tuple_, cst.Tuple | cst.List):
        return None
    return next(i for i, each in enumerate(tuple_.elements) if each is element)


def returned_values(function: cst.FunctionDef, index: int | None) -> list[cst.BaseExpression]:
    """What the function's `return` statements (not those of functions nested in it) give at
    `index` of the tuple they return (the whole value for None)."""
    found: list[cst.BaseExpression] = []
    pending: list[cst.CSTNode] = [function.body]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.Return) and node.value is not None:
            value = node.value
            if index is None:
                found.append(value)
            elif isinstance(value, cst.Tuple) and index < len(value.elements):
                found.append(value.elements[index].value)
        elif not isinstance(node, cst.FunctionDef | cst.Lambda | cst.ClassDef):
            pending.extend(child_nodes(node))
    return found


def _returned(fn: cst.FunctionDef) -> cst.BaseExpression | None:
    """The value a function returns when its body is one `return`."""
    body = fn.body.body
    line = body[0] if len(body) == 1 else None
    small = line.body if isinstance(line, cst.SimpleStatementLine) else [line]
    return small[0].value if len(small) == 1 and isinstance(small[0], cst.Return) else None


def _heuristics(call: cst.Call, literals: dict[str, cst.BaseExpression]) -> dict[str, cst.BaseExpression | None]:
    """The constexprs `triton.heuristics` provides, from its dict written out or named, with
    the value each heuristic returns: a lambda's body, or a module function's (`literals`)."""
    table = call.args[0].value if call.args else None
    if isinstance(table, cst.Name):
        table = literals.get(table.value)
    if not isinstance(table, cst.Dict):
        return {}
    provided: dict[str, cst.BaseExpression | None] = {}
    for element in table.elements:
        if not isinstance(element, cst.DictElement) or (key := str_literal(element.key)) is None:
            continue
        if isinstance(element.value, cst.Lambda):
            provided[key] = element.value.body
        else:
            provided[key] = literals.get(element.value.value) if isinstance(element.value, cst.Name) else None
    return provided


def _autotune_keys(call: cst.Call, imports: ImportMap) -> set[str]:
    """Keys of the `triton.Config({...})` dicts written inline in `configs=`."""
    configs = keyword_value(call, "configs") or (call.args[0].value if call.args else None)
    keys: set[str] = set()
    stack = [configs] if configs is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and imports.is_triton(node.func, "Config") and node.args:
            table = node.args[0].value
            if isinstance(table, cst.Dict):
                for element in table.elements:
                    key = str_literal(element.key) if isinstance(element, cst.DictElement) else None
                    if key is not None:
                        keys.add(key)
        elif isinstance(node, (cst.List, cst.Tuple)):
            stack.extend(e.value for e in node.elements)
        elif isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            stack.append(node.elt)
    return keys


def _none_tested_args(returned: cst.BaseExpression) -> set[str]:
    """`args['h0']` names compared with None in what a heuristic returns."""
    found = set()
    for node in walk(returned):
        if isinstance(node, cst.Comparison) and any(
            isinstance(t.comparator, cst.Name) and t.comparator.value == "None" for t in node.comparisons
        ):
            key = subscript_key(node.left)
            if key is not None:
                found.add(key)
    return found


def subscript_key(node: cst.BaseExpression) -> str | None:
    """`"h0"` for `args["h0"]`."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return str_literal(node.slice[0].slice.value)
    return None
