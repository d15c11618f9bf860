"""The facts rules share about one kernel body, built in a single walk.

The walk turns the body into *events* in evaluation order — a name read, a name definition,
a call — linked into a control-flow graph (branches, loops with back-edges, break/continue,
return). On top of that:

- value flags per expression: is it a constexpr, a specialisable int, a program id, a loop
  index, loaded data, another runtime value (flow-insensitive, fixpoint over definitions);
- def-use queries along control-flow paths: the reads a program point reaches before the
  name is redefined, and the definitions that reach a point (constant propagation);
- path conditions: events inside `if` arms remember the arm, so reads on an arm exclusive
  with another (the other arm, or an `if` on the same constexpr test) are infeasible;
- loops, with the 1-D core-grid task loops marked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import libcst as cst

if TYPE_CHECKING:  # kernels.py builds a Kernel's flow on demand: a runtime import would be a circle
    from .kernels import Kernel, Param

# Value flags: a bit set describing where a value can come from.
CONST = 1  # literal, constexpr parameter, dtype, tl.static_range index
SPEC = 2  # unannotated scalar parameter Triton-Ascend may specialise into a constexpr
PID = 4  # tl.program_id / tl.num_programs: runtime (measured: never folds on triton-ascend 3.2)
LOOP = 8  # index of a tl.range / range loop
LOADED = 16  # data read from memory
TENSOR = 32  # tensors and other call results computed at run time
SCALAR = 64  # a runtime scalar parameter: annotated (tl.int32...) or in do_not_specialize
RUNTIME_ALWAYS = PID | LOOP | LOADED | TENSOR | SCALAR
FOLDABLE = CONST | SPEC

READ, DEF, CALL, POINT = "read", "def", "call", "point"

_METADATA_ATTRS = frozenset({"dtype", "shape", "type", "ndim", "numel"})
_LEAVES = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis)
_CONSTANT_LEAVES = frozenset({*_LEAVES, cst.FormattedString, cst.ConcatenatedString})
_PURE_SCALAR_FNS = frozenset({"cdiv", "minimum", "maximum", "cast", "multiple_of", "max_contiguous"})
_PY_PURE_FNS = frozenset({"min", "max", "abs", "int"})
_LOAD_FNS = ("load", "atomic_add", "atomic_max", "atomic_min", "atomic_cas", "atomic_xchg")
MEMORY_FNS = (*_LOAD_FNS, "store", "make_block_ptr")
DMA_FNS = ("load", "store")


@dataclass(eq=False)
class Event:
    index: int
    kind: str  # READ, DEF, CALL or POINT
    node: cst.CSTNode  # READ: the Name; CALL: the Call; DEF: the Name, Param or AugAssign; POINT: the If/loop
    name: str | None = None
    conds: tuple[tuple[Branch, bool], ...] = ()  # the enclosing `if` arms: (branch, True for the body arm)
    loops: tuple[Loop, ...] = ()  # the enclosing loops, outermost first
    metadata: bool = False  # a read of `.dtype` / `.shape`: not a data read
    value: cst.BaseExpression | None = None  # for definitions: the assigned expression
    value_flags: int | None = None  # for definitions with no expression (parameters, loop indices)
    statement: cst.CSTNode | None = None  # the innermost statement holding `node` (the kernel for parameters)
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

    @cached_property
    def test_is_constexpr(self) -> bool:
        return self.flow.flags(self.node.test) == CONST

    @cached_property
    def key(self) -> tuple[str, bool]:
        """(normalised test code, polarity of the body arm)."""
        test, polarity = self.node.test, True
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, polarity = test.expression, not polarity
        return "".join(cst.Module([]).code_for_node(test).split()), polarity


@dataclass(eq=False)
class Loop:
    node: cst.For | cst.While
    header: Event  # where each trip starts: entered from before the loop and from its back-edges
    body: range
    kind: str  # "static_range", "range" (tl.range / range), "iter", "while"
    is_task_loop: bool = False


class Flow:
    def __init__(self, kernel: Kernel):
        self.kernel = kernel
        self.events: list[Event] = []
        self.defs: dict[str, list[Event]] = {}
        self.calls: list[Event] = []
        self.branches: list[Branch] = []
        self.loops: list[Loop] = []
        self.name_flags: dict[str, int] = {}
        self.flags_memo: dict[cst.BaseExpression, int] | None = None  # set once name_flags is final

    # ---- value facts -------------------------------------------------------------------
    def flags(self, node: cst.BaseExpression) -> int:
        """Where the value of `node` can come from (flow-insensitive)."""
        memo = self.flags_memo
        if memo is None:
            return self._flags(node)
        if node not in memo:  # each sub-expression once: a `.to` chain of n links costs O(n)
            memo[node] = self._flags(node)
        return memo[node]

    def _flags(self, node: cst.BaseExpression) -> int:
        if type(node) is cst.Name:
            if node.value in ("True", "False", "None"):
                return CONST
            # Names the kernel never defines are globals: Triton only admits constexpr ones.
            return self.name_flags.get(node.value, CONST)
        if type(node) in _CONSTANT_LEAVES:
            return CONST
        if type(node) is cst.Attribute:
            if node.attr.value in _METADATA_ATTRS or self.kernel.imports.resolve(node):
                return CONST
            return self.flags(node.value)
        if type(node) is cst.Call:
            return self._call_flags(node)
        if type(node) is cst.Subscript:
            result = self.flags(node.value)
            for element in node.slice:
                if isinstance(element.slice, cst.Index):
                    result |= self.flags(element.slice.value)
            return result
        if type(node) is cst.BinaryOperation or type(node) is cst.BooleanOperation:
            return self.flags(node.left) | self.flags(node.right)
        if type(node) is cst.UnaryOperation:
            return self.flags(node.expression)
        if type(node) is cst.Comparison:
            result = self.flags(node.left)
            for target in node.comparisons:
                result |= self.flags(target.comparator)
            return result
        if type(node) is cst.Tuple or type(node) is cst.List:
            result = 0
            for item in node.elements:
                result |= self.flags(item.value)
            return result
        if type(node) is cst.Lambda:
            return TENSOR
        result = 0
        for child in node.children:
            if isinstance(child, cst.BaseExpression):
                result |= self.flags(child)
            elif isinstance(child, (cst.ComparisonTarget, cst.Element, cst.Arg)):
                result |= self.flags(child.comparator if isinstance(child, cst.ComparisonTarget) else child.value)
        return result

    def _call_flags(self, node: cst.Call) -> int:
        imports = self.kernel.imports
        func = node.func
        args = 0
        for arg in node.args:
            args |= self.flags(arg.value)
        if imports.is_tl(func, "program_id", "num_programs"):
            return PID
        if imports.is_tl(func, *_LOAD_FNS):
            return LOADED
        if imports.is_tl(func, "constexpr"):
            return CONST
        if self._is_pure_call(node):
            return args or CONST
        if isinstance(func, cst.Attribute) and func.attr.value == "to" and not imports.resolve(func):
            return self.flags(func.value)
        return TENSOR | (args & ~CONST)

    def _is_pure_call(self, node: cst.Call) -> bool:
        """Scalar helpers whose result is only as runtime as their arguments (cdiv, min...)."""
        imports, func = self.kernel.imports, node.func
        return (
            imports.is_tl(func, *_PURE_SCALAR_FNS)
            or imports.is_triton(func, "cdiv")
            or (isinstance(func, cst.Name) and func.value in _PY_PURE_FNS)
        )

    def is_constexpr(self, node: cst.BaseExpression) -> bool:
        return self.flags(node) == CONST

    def is_specialisable(self, node: cst.BaseExpression) -> bool:
        """Compile-time in some specialisation: constexprs and specialisable ints only."""
        flags = self.flags(node)
        return bool(flags & SPEC) and not flags & ~FOLDABLE

    def runtime_everywhere(self, node: cst.BaseExpression, at: Event) -> bool:
        """Whether `node` stays a runtime value under every constexpr specialisation.

        Names are followed to the definitions reaching `at`: a name that some reaching
        definition sets to a constexpr (e.g. under `if TAIL_MODE == 0: t = False`) folds in
        that specialisation.
        """
        if isinstance(node, cst.Name):
            defs = self.reaching_defs(at, node.value)
            if defs:
                return all(self.def_flags(d) & RUNTIME_ALWAYS for d in defs)
            return bool(self.flags(node) & RUNTIME_ALWAYS)
        if isinstance(node, cst.Call) and not self._is_pure_call(node):
            return bool(self.flags(node) & RUNTIME_ALWAYS)
        if isinstance(node, cst.Call):
            return any(self.runtime_everywhere(arg.value, at) for arg in node.args)
        if isinstance(node, cst.Attribute):
            return self.flags(node) != CONST and self.runtime_everywhere(node.value, at)
        if isinstance(node, cst.Subscript):
            indices = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
            return any(self.runtime_everywhere(part, at) for part in (node.value, *indices))
        return any(self.runtime_everywhere(child, at) for child in _operands(node))

    def def_flags(self, event: Event) -> int:
        if event.value is None:  # parameters and loop indices carry their flags
            return event.value_flags or 0
        return self.flags(event.value)

    # ---- def-use along control-flow paths ----------------------------------------------
    def feasible_together(self, a: Event, b: Event) -> bool:
        """False when a and b sit on arms of `if`s on the same constexpr test with opposite
        outcomes (including the two arms of one `if`)."""
        if not a.conds or not b.conds:
            return True
        outcomes = {}
        for branch, arm in a.conds:
            if branch.test_is_constexpr:
                key, polarity = branch.key
                outcomes[key] = polarity == arm
        for branch, arm in b.conds:
            if branch.test_is_constexpr:
                key, polarity = branch.key
                if outcomes.get(key, polarity == arm) != (polarity == arm):
                    return False
        return True

    def reads_after(self, start: Event, name: str) -> list[Event]:
        """Data reads of `name` reachable from `start` before any redefinition of it, along
        paths whose constexpr branch outcomes agree with those at `start`."""
        return [e for e in self._nearest(start, name, forward=True) if e.kind == READ and not e.metadata]

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
        a definition of it, along paths feasible together with `start`, in program order."""
        found, seen = [], set()
        stack = list(start.succ if forward else start.pred)
        while stack:
            event = stack.pop()
            if event.index in seen or not self.feasible_together(start, event):
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
        """`p` for `p`, `p + off - x`, `tl.make_block_ptr(p + off, ...)`, `tl.advance(p, ...)`."""
        imports = self.kernel.imports
        while node is not None:
            if isinstance(node, cst.Name):
                return node.value
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)):
                node = node.left
            elif isinstance(node, cst.Call) and imports.is_tl(node.func, "make_block_ptr", "advance"):
                node = pointer_arg(node)
            else:
                return None
        return None

    @cached_property
    def pointer_names(self) -> frozenset[str]:
        """Names used as the base of a memory access, followed back through definitions."""
        names = {base for e in self.calls_to(*MEMORY_FNS) if (base := self.pointer_base(pointer_arg(e.call)))}
        pending = list(names)
        while pending:
            for definition in self.defs.get(pending.pop(), ()):
                base = self.pointer_base(definition.value)
                if base and base not in names:
                    names.add(base)
                    pending.append(base)
        return frozenset(names)

    def is_block_pointer(self, node: cst.BaseExpression | None) -> bool:
        """A `tl.make_block_ptr` / `tl.advance` value, directly or through a name."""
        imports = self.kernel.imports
        if isinstance(node, cst.Call):
            return imports.is_tl(node.func, "make_block_ptr", "advance")
        if isinstance(node, cst.Name):
            return any(
                isinstance(d.value, cst.Call) and imports.is_tl(d.value.func, "make_block_ptr", "advance")
                for d in self.defs.get(node.value, ())
            )
        return False

    # ---- navigation -------------------------------------------------------------------
    def events_in(self, span: range, kind: str | None = None) -> Iterator[Event]:
        for event in self.events[span.start : span.stop]:
            if kind is None or event.kind == kind:
                yield event

    def calls_to(self, *names: str) -> Iterator[Event]:
        """Call events of `tl.<name>` in evaluation order."""
        imports = self.kernel.imports
        return (e for e in self.calls if imports.is_tl(e.call.func, *names))

    def loop_of(self, event: Event, predicate: Callable[[Loop], bool] = lambda loop: True) -> Loop | None:
        """The innermost enclosing loop satisfying `predicate`."""
        for loop in reversed(event.loops):
            if predicate(loop):
                return loop
        return None


def pointer_arg(call: cst.Call) -> cst.BaseExpression | None:
    """The pointer operand of a memory call: first positional, or `pointer=` / `base=`."""
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value in ("pointer", "base"):
            return arg.value
    return None


def _operands(node: cst.BaseExpression) -> Iterable[cst.BaseExpression]:
    if isinstance(node, (cst.BinaryOperation, cst.BooleanOperation)):
        return (node.left, node.right)
    if isinstance(node, cst.UnaryOperation):
        return (node.expression,)
    if isinstance(node, cst.Comparison):
        return (node.left, *(t.comparator for t in node.comparisons))
    if isinstance(node, cst.IfExp):
        return (node.test, node.body, node.orelse)
    if isinstance(node, (cst.Tuple, cst.List)):
        return tuple(e.value for e in node.elements)
    return ()


class _Builder:
    """Walks a kernel body once, emitting events and control-flow edges."""

    def __init__(self, flow: Flow):
        self.flow = flow
        self.frontier: list[Event] = []
        self.conds: tuple[tuple[Branch, bool], ...] = ()
        self.loops: tuple[Loop, ...] = ()
        self.loop_headers: list[Event] = []
        self.loop_exits: list[list[Event]] = []
        self.skip_reads = {*flow.kernel.imports.aliases, "True", "False", "None"}
        self.current_statement: cst.CSTNode = flow.kernel.node

    def emit(self, kind: str, node: cst.CSTNode, **extra: Any) -> Event:
        event = Event(
            len(self.flow.events),
            kind,
            node,
            conds=self.conds,
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
                self.small_statement(small)
        elif type(node) is cst.If:
            self.if_statement(node)
        elif type(node) is cst.For:
            self.for_statement(node)
        elif type(node) is cst.While:
            self.while_statement(node)
        elif type(node) is cst.With:
            for item in node.items:
                self.expr(item.item)
            self.block(node.body.body)
        elif type(node) is cst.Try:
            self.block(node.body.body)
            for handler in node.handlers:
                self.block(handler.body.body)
            for part in (node.orelse, node.finalbody):
                if part is not None:
                    self.block(part.body.body)

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
                self.assign_target(node.target, node.value)
        elif type(node) is cst.AugAssign:
            target = node.target
            self.expr(target)
            self.expr(node.value)
            if isinstance(target, cst.Name):
                self.emit(DEF, node, name=target.value, value=cst.BinaryOperation(target, cst.Add(), node.value))
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

    def assign_target(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.emit(DEF, target, name=target.value, value=value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            values = (
                [e.value for e in value.elements]
                if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements)
                else [value] * len(target.elements)
            )
            for element, element_value in zip(target.elements, values, strict=False):
                self.assign_target(element.value, element_value)
        elif isinstance(target, cst.StarredElement):
            self.assign_target(target.value, value)
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
        self.block(node.body.body)
        branch.body = range(start, len(self.flow.events))
        after_body = self.frontier
        self.frontier = [point]
        start = len(self.flow.events)
        self.conds = (*outer, (branch, False))
        self.emit(POINT, node)  # the else arm's entry, so an absent else is still an arm
        if isinstance(node.orelse, cst.Else):
            self.block(node.orelse.body.body)
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
            self.block(node.orelse.body.body)

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
        self.block(node.body.body)
        self.link(self.frontier, header)
        loop.body = range(start, len(self.flow.events))
        self.loops = outer
        self.loop_headers.pop()
        self.frontier = exit_from_test + self.loop_exits.pop()

    def loop_kind(self, iterable: cst.BaseExpression) -> str:
        if isinstance(iterable, cst.Call):
            imports = self.flow.kernel.imports
            if imports.is_tl(iterable.func, "static_range"):
                return "static_range"
            if imports.is_tl(iterable.func, "range") or (
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
            for arg in node.args:
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
        else:
            for child in node.children:
                if isinstance(child, cst.BaseExpression):
                    self.expr(child)
                elif isinstance(child, (cst.Element, cst.Arg)):
                    self.expr(child.value)


def build_flow(kernel: Kernel) -> Flow:
    flow = Flow(kernel)
    builder = _Builder(flow)
    for param in kernel.params:
        builder.emit(DEF, param.node, name=param.name, value_flags=_param_flags(kernel, param))
    builder.block(kernel.node.body.body)
    _compute_name_flags(flow)
    flow.flags_memo = {}
    for loop in flow.loops:
        loop.is_task_loop = _is_task_loop(flow, loop)
    return flow


def _param_flags(kernel: Kernel, param: Param) -> int:
    if param.is_constexpr or param.name in kernel.provided_constexprs:
        return CONST
    if param.annotation is not None or param.name in kernel.do_not_specialize:
        return SCALAR
    return SPEC


def _compute_name_flags(flow: Flow) -> None:
    """Union of the flags of every definition of each name, to a fixpoint."""
    changed = True
    while changed:
        changed = False
        for name, defs in flow.defs.items():
            flags = 0
            for event in defs:
                flags |= flow.def_flags(event)
            if flags != flow.name_flags.get(name):
                flow.name_flags[name] = flags
                changed = True


def _is_task_loop(flow: Flow, loop: Loop) -> bool:
    """`for t in tl.range(start, stop, step)` with a start derived from tl.program_id."""
    node = loop.node
    if loop.kind != "range" or not isinstance(node, cst.For) or not isinstance(node.iter, cst.Call):
        return False
    args = [a.value for a in node.iter.args if a.keyword is None]
    return len(args) == 3 and bool(flow.flags(args[0]) & PID)
