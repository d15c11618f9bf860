"""The tiles of one kernel and the unified buffer (UB) they need, as the compiler plans it.

Built once per kernel, on first use (`kernel.tiles`), from the flow's statements, events and
control-flow graph:

- **values**: every tile-valued expression of the body (loads, `tl.zeros`/`tl.full`/
  `tl.arange`, arithmetic, `tl.where`, comparisons, reductions, `tl.dot`, `tl.trans`, casts),
  with its shape in terms of the kernel's constexpr names and its element width;
- **where each value lives**, following what bishengir's memory planner does (measured with
  triton-ascend 3.2, `--enable-memory-display`; docs/ub-estimate.md):
  - a kernel with `tl.dot` is split between the cube core (L1/L0 buffers) and two vector cores
    (UB each): tiles that only feed dots, and dot results only stored or accumulated, take no
    UB; vector work on a dot's operands or results is split between the two vector cores
    (half the tile each);
  - values used only as addresses or masks of a load/store become DMA parameters, not buffers;
  - vector arithmetic on 16-bit floats runs in fp32;
  - an elementwise result reuses an operand that dies there (in place); `tl.where`,
    `tl.trans` and loads get their own buffer; a load inside a runtime loop is double
    buffered; a reduction needs half its input as scratch; comparisons give bit masks, and a
    mask broadcast by `tl.where` is widened to 16 bits;
- **liveness** along the control flow (loops, both arms of runtime branches, only the taken
  arm of a constexpr branch under a given configuration);
- **the peak**: per configuration, the most UB live at one statement, with the tiles that make
  it up. The two arms of a runtime branch get disjoint buffers (their peaks add) while that
  fits the UB; once it does not, the planner overlaps them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import libcst as cst

from .flow import CONST, DEF, READ, Event, Flow, Loop
from .kernels import Kernel
from .specialisations import Value as ConstValue
from .specialisations import evaluate

UB_CAPACITY_BYTES = 196608  # Ascend 910B (A2/A3): "ub overflow, requires N bits while 1572864 bits available"
DEFAULT_POINTER_BITS = 16  # loads whose element type the kernel does not state: bf16/fp16

DTYPE_BITS = {
    "float64": 64, "int64": 64, "uint64": 64,
    "float32": 32, "int32": 32, "uint32": 32, "tf32": 32,
    "float16": 16, "bfloat16": 16, "int16": 16, "uint16": 16,
    "int8": 8, "uint8": 8, "float8e4nv": 8, "float8e5": 8, "float8e4b15": 8,
    "int1": 8,
}  # fmt: skip
_INT_DTYPES = frozenset(n for n in DTYPE_BITS if "int" in n)

# What kind of operation made a value; decides where it lives and whether it can be in place.
LOAD, FULL, ARANGE = "load", "full", "arange"
DOT = "dot"
CAST, TRANS, VIEW = "cast", "trans", "view"
ELEMENTWISE, WHERE, COMPARE, REDUCE, SCAN, BROADCAST = "elementwise", "where", "compare", "reduce", "scan", "broadcast"
STAGE = "stage"  # staging buffer of a strided store
_SOURCES = (LOAD, FULL, ARANGE)
_MOVES = (CAST, TRANS, VIEW)
_VECTOR = (ELEMENTWISE, WHERE, COMPARE, REDUCE, SCAN, BROADCAST)
_IN_PLACE = (ELEMENTWISE, CAST)

# How a value is used by its user.
DATA, ADDRESS, DOT_OPERAND, ACCUMULATOR, STORED = "data", "address", "dot", "acc", "store"

_REDUCTIONS = frozenset({"sum", "max", "min", "argmax", "argmin", "reduce", "xor_sum", "prod"})
_SCANS = frozenset({"cumsum", "cumprod", "associative_scan", "sort", "flip"})
_POINTER_FNS = frozenset({"make_block_ptr", "advance", "make_tensor_descriptor"})
_STORE_FNS = frozenset({"store", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg", "atomic_cas"})
_SCALAR_ONLY = frozenset({"program_id", "num_programs", "cdiv", "static_print", "static_assert", "device_print"})

Shape = tuple[cst.BaseExpression, ...]
_ALIGN = 32  # UB buffers start on 32-byte boundaries
_ONE = cst.Integer("1")


# ---- widths ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Width:
    """Element width in bits: fixed, a pointer parameter's element type, or an arithmetic result."""

    bits: int = 32
    pointer: str | None = None  # the element type of this pointer parameter
    of: tuple[Width, ...] = ()  # arithmetic over these: the widest, 16-bit floats computed in fp32
    integer: bool = False

    def resolve(self, pointer_bits: Mapping[str, int]) -> int:
        if self.pointer is not None:
            return pointer_bits.get(self.pointer, DEFAULT_POINTER_BITS)
        if self.of:
            widest = max(w.resolve(pointer_bits) for w in self.of)
            return widest if self.integer or widest != 16 else 32
        return self.bits


MASK = Width(1, integer=True)
_STRIDED_BYTES = 32  # strided DMA: every element in its own 32-byte block
_MASK_LOGIC = Width(16, integer=True)  # `&`/`|` of masks: the vector unit works on 16-bit lanes
INDEX = Width(32, integer=True)
FP32 = Width(32)


def _arith(*widths: Width) -> Width:
    return Width(of=widths, integer=all(w.integer for w in widths))


# ---- values ------------------------------------------------------------------------------


@dataclass(eq=False)
class TileValue:
    """A tile-valued expression: what it is, its shape and width, and who uses it."""

    kind: str
    node: cst.CSTNode
    shape: Shape
    width: Width
    operands: list[tuple[Operand, str]] = field(default_factory=list)
    in_runtime_loop: bool = False
    loop: Loop | None = None  # the innermost runtime loop around it
    unrolled: tuple[Loop, ...] = ()  # the tl.static_range loops around it
    users: list[tuple[TileValue | None, str]] = field(default_factory=list)
    ub: bool = False  # lives in the unified buffer
    strided: bool = False  # a strided DMA's buffer: every element in its own 32-byte block
    across_rows: bool = False  # a reduction along a leading axis
    column: bool = False  # loaded from a column-major block
    zero: bool = False  # tl.zeros
    split: bool = False  # vector work tied to a dot: each of the two vector cores holds half

    def elements(self, lookup) -> int | None:
        total = 1
        for dim in self.shape:
            size = evaluate(dim, lookup)
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                return None
            total *= size
        return total

    def bytes(self, lookup, pointer_bits: Mapping[str, int], multi_buffer: bool = True) -> int:
        if not self.ub:
            return 0
        count = self.elements(lookup)
        if count is None:
            return 0
        size = count * (_STRIDED_BYTES * 8 if self.strided else self.width.resolve(pointer_bits)) // 8
        if self.split and not self.strided:  # a strided DMA is not split between the cores
            size //= 2
        size = -(-size // _ALIGN) * _ALIGN
        if multi_buffer and self.kind == LOAD and self.in_runtime_loop and not self.strided:
            size *= 2  # auto multi-buffer: the next trip's load overlaps this trip's compute
        return size

    def shape_text(self) -> str:
        code = cst.Module([]).code_for_node
        return "[" + ", ".join(code(d) for d in self.shape) + "]"


@dataclass(eq=False)
class Read:
    """A read of a named tile: the definitions that may reach it."""

    name: str
    event: Event
    values: tuple[TileValue, ...]

    @property
    def shape(self) -> Shape | None:
        return next((v.shape for v in self.values), None)

    @property
    def width(self) -> Width:
        return next((v.width for v in self.values), FP32)


Operand = TileValue | Read


@dataclass(frozen=True)
class BlockPointer:
    block_shape: Shape
    base: str | None
    strided: bool = False  # the tile's last dimension does not have stride 1 in memory
    column: bool = False  # ... because the block is column-major (its first dimension has stride 1)


@dataclass(eq=False)
class Statement:
    node: cst.BaseSmallStatement
    span: range
    ops: list[TileValue]
    reads: list[Read]
    defines: dict[str, TileValue | None]  # name -> the tile it now holds (None: not a tile)


@dataclass
class Contributor:
    """One tile held in UB at the peak."""

    name: str | None  # the variable, or None for a temporary of the peak statement
    value: TileValue
    bytes: int


@dataclass
class Peak:
    bytes: int  # the estimate: what the planner needs at the peak statement (reusing dead buffers)
    planned: int  # what it plans when that fits: every buffer its own address (fresh space first)
    statement: cst.BaseSmallStatement | None
    contributors: list[Contributor]
    unsized: list[TileValue]  # tiles whose size this configuration leaves unknown (counted as 0)
    arms_overlapped: bool = False  # runtime-branch arms had to share buffers to fit

    def top(self, count: int = 3) -> list[Contributor]:
        return sorted(self.contributors, key=lambda c: c.bytes, reverse=True)[:count]


# ---- the model ---------------------------------------------------------------------------


class TileModel:
    """The tile values of one kernel, where they live, and the UB peak per configuration."""

    def __init__(self, kernel: Kernel, flow: Flow) -> None:
        self.kernel = kernel
        self.flow = flow
        self.values: list[TileValue] = []
        self.statements: list[Statement] = []
        self.has_dot = False
        self._defs: dict[int, TileValue | BlockPointer | None] = {}  # DEF event index -> value
        self._local_constants = _local_constants(flow)
        _Builder(self).build()
        _place(self)
        self._cache: dict[tuple, Peak] = {}

    @property
    def tiles(self) -> Iterator[tuple[str, TileValue]]:
        """(variable, tile) for every named tile definition."""
        for statement in self.statements:
            for name, value in statement.defines.items():
                if value is not None:
                    yield name, value

    def lookup(self, values: Mapping[str, ConstValue]):
        def find(name: str, depth: int = 0) -> ConstValue | None:
            if name in values:
                return values[name]
            expression = self._local_constants.get(name)
            if expression is None or depth > 8:
                return None
            return evaluate(expression, lambda n: find(n, depth + 1), self.kernel.imports)

        return find

    def peak(self, values: Mapping[str, ConstValue], pointer_bytes: Mapping[str, int] | None = None) -> Peak:
        """The UB peak for one configuration (constexpr values; element bytes of pointer params)."""
        pointer_bits = {k: v * 8 for k, v in (pointer_bytes or {}).items()}
        key = (tuple(sorted(values.items(), key=repr)), tuple(sorted(pointer_bits.items())))
        if key not in self._cache:
            lookup = self.lookup(values)
            buffered = _Evaluation(self, lookup, pointer_bits, multi_buffer=True).peak()
            needed = _Evaluation(self, lookup, pointer_bits, multi_buffer=False).peak()
            # The planner multi-buffers and spreads buffers over fresh space while that fits;
            # when it does not, it retries without, down to what the live tiles need.
            if buffered.planned > UB_CAPACITY_BYTES:
                buffered.planned = buffered.bytes if buffered.bytes <= UB_CAPACITY_BYTES else needed.bytes
            needed.planned = buffered.planned
            self._cache[key] = needed
        return self._cache[key]


def _local_constants(flow: Flow) -> dict[str, cst.BaseExpression]:
    """Names the kernel assigns once, to a constexpr expression (`NK = K // BK`)."""
    found = {}
    for name, defs in flow.defs.items():
        if len(defs) == 1 and defs[0].value is not None and flow.flags(defs[0].value) == CONST:
            found[name] = defs[0].value
    return found


# ---- building: one walk over the statements ----------------------------------------------


class _Builder:
    def __init__(self, model: TileModel) -> None:
        self.model = model
        self.flow = model.flow
        self.imports = model.kernel.imports
        self.params = {p.name for p in model.kernel.params}
        self.events_by_node: dict[int, Event] = {}
        for event in self.flow.events:
            if event.kind in (READ, DEF) and event.node is not None:
                self.events_by_node.setdefault(id(event.node), event)
        self.reaching = _Reaching(self.flow, dead=frozenset())
        self._results: dict[int, object] = {}
        self.ops: list[TileValue] = []
        self.reads: list[Read] = []
        self.in_runtime_loop = False
        self.loop: Loop | None = None
        self.unrolled: tuple[Loop, ...] = ()

    def build(self) -> None:
        for node, span in self.flow.statements:
            if not span:
                continue
            self.ops, self.reads = [], []
            first = self.flow.events[span.start]
            runtime_loops = [loop for loop in first.loops if loop.kind != "static_range"]
            self.in_runtime_loop = bool(runtime_loops)
            self.loop = runtime_loops[-1] if runtime_loops else None
            self.unrolled = tuple(loop for loop in first.loops if loop.kind == "static_range")
            defines = self.statement(node)
            self.model.statements.append(Statement(node, span, self.ops, self.reads, defines))

    def statement(self, node: cst.BaseSmallStatement) -> dict[str, TileValue | None]:
        defines: dict[str, TileValue | None] = {}
        if isinstance(node, cst.Expr):
            self.expr(node.value)
        elif isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
            result = self.expr(node.value)
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            for target in targets:
                self.bind(target, node.value, result, defines)
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            left = self.expr(node.target)
            right = self.expr(node.value)
            result = self.binary(node, left, right, node.operator)
            self.define(node, node.target.value, result, defines)
        elif isinstance(node, cst.Return) and node.value is not None:
            self.expr(node.value)
        return defines

    def bind(self, target, value_node, result, defines) -> None:
        if isinstance(target, cst.Name):
            self.define(target, target.value, result, defines)
        elif isinstance(target, (cst.Tuple, cst.List)):
            parts = (
                [self.expr_cached(e.value) for e in value_node.elements]
                if isinstance(value_node, (cst.Tuple, cst.List)) and len(value_node.elements) == len(target.elements)
                else [None] * len(target.elements)
            )
            for element, part in zip(target.elements, parts, strict=True):
                self.bind(element.value, None, part, defines)

    def expr_cached(self, node):
        return self._results.get(id(node))

    def define(self, node, name: str, result, defines) -> None:
        event = self.events_by_node.get(id(node))
        if isinstance(result, Read):  # `a = b`: the same tile under another name
            result = result.values[0] if result.values else None
        value = result if isinstance(result, (TileValue, BlockPointer)) else None
        if event is not None:
            self.model._defs[event.index] = value
        defines[name] = value if isinstance(value, TileValue) else None

    # ---- expressions -------------------------------------------------------------------
    def new(self, kind: str, node, shape: Shape, width: Width, operands=()) -> TileValue:
        value = TileValue(kind, node, shape, width, list(operands), self.in_runtime_loop, self.loop, self.unrolled)
        for operand, role in value.operands:
            self.use(operand, value, role)
        self.ops.append(value)
        self.model.values.append(value)
        return value

    def use(self, operand: Operand, user: TileValue | None, role: str) -> None:
        targets = operand.values if isinstance(operand, Read) else (operand,)
        for target in targets:
            target.users.append((user, role))

    def expr(self, node: cst.BaseExpression):
        """The tile (TileValue / Read), block pointer, or None (scalar) `node` evaluates to."""
        result = self._expr(node)
        self._results[id(node)] = result
        return result

    def _expr(self, node: cst.BaseExpression):
        t = type(node)
        if t is cst.Name:
            return self.read(node)
        if t is cst.Attribute:
            if node.attr.value == "T":
                source = self.expr(node.value)
                return self.trans(node, source) if _is_tile(source) else None
            if not self.imports.resolve(node) and node.attr.value not in ("dtype", "shape"):
                self.expr(node.value)
            return None
        if t is cst.Call:
            return self.call(node)
        if t is cst.BinaryOperation:
            return self.binary(node, self.expr(node.left), self.expr(node.right), node.operator)
        if t is cst.BooleanOperation:
            return self.elementwise(node, [self.expr(node.left), self.expr(node.right)])
        if t is cst.UnaryOperation:
            source = self.expr(node.expression)
            return self.elementwise(node, [source]) if _is_tile(source) else None
        if t is cst.Comparison:
            parts = [self.expr(node.left), *(self.expr(c.comparator) for c in node.comparisons)]
            tiles = [p for p in parts if _is_tile(p)]
            if not tiles:
                return None
            return self.new(COMPARE, node, _broadcast(tiles), MASK, [(p, DATA) for p in tiles])
        if t is cst.Subscript:
            return self.subscript(node)
        if t is cst.IfExp:
            self.expr(node.test)
            return self.elementwise(node, [self.expr(node.body), self.expr(node.orelse)])
        if t in (cst.Tuple, cst.List):
            for element in node.elements:
                self.expr(element.value)
            return None
        return None

    def read(self, node: cst.Name):
        event = self.events_by_node.get(id(node))
        if event is None or event.kind != READ:
            return None
        defs = [self.model._defs.get(d.index) for d in self.reaching.at(event.index, node.value)]
        pointers = [d for d in defs if isinstance(d, BlockPointer)]
        if pointers:
            return pointers[0]
        values = tuple(d for d in defs if isinstance(d, TileValue))
        if not values:
            return None
        read = Read(node.value, event, values)
        self.reads.append(read)
        return read

    def subscript(self, node: cst.Subscript):
        source = self.expr(node.value)
        if not _is_tile(source):
            for element in node.slice:
                if isinstance(element.slice, cst.Index):
                    self.expr(element.slice.value)
            return None
        dims = list(source.shape or ())
        shape: list[cst.BaseExpression] = []
        for element in node.slice:
            inner = element.slice
            if isinstance(inner, cst.Index) and isinstance(inner.value, cst.Name) and inner.value.value == "None":
                shape.append(_ONE)
            elif isinstance(inner, cst.Slice):
                if dims:
                    shape.append(dims.pop(0))
            elif dims:
                dims.pop(0)  # an integer index drops the dimension
        shape.extend(dims)
        return self.new(VIEW, node, tuple(shape), source.width, [(source, DATA)])

    def binary(self, node, left, right, operator):
        right_node = node.value if isinstance(node, cst.AugAssign) else node.right
        if _is_tile(left) and (_identity(operator, right_node) or _is_zeros(right, left, operator)):
            return left  # `x + 0.0`, `x * 1.0`, `x + tl.zeros(...)`: folded by the compiler
        if _is_tile(right) and isinstance(operator, (cst.Add, cst.AddAssign)) and _is_zeros(left, right, operator):
            return right
        if isinstance(operator, (cst.Add, cst.AddAssign)):
            for dot, other in ((left, right), (right, left)):
                if isinstance(dot, TileValue) and dot.kind == DOT and len(dot.operands) == 2 and _is_tile(other):
                    dot.operands.append((other, ACCUMULATOR))  # acc + tl.dot(a, b): folded into the dot
                    self.use(other, dot, ACCUMULATOR)
                    return dot
        return self.elementwise(node, [left, right])

    def elementwise(self, node, parts, kind: str = ELEMENTWISE):
        tiles = [p for p in parts if _is_tile(p)]
        if not tiles:
            return None
        width = _arith(*(p.width for p in tiles))
        if all(p.width is MASK for p in tiles):
            width = _MASK_LOGIC
        value = self.new(kind, node, _broadcast(tiles), width, [(p, DATA) for p in tiles])
        return value

    def trans(self, node, source, order=None):
        shape = tuple(reversed(source.shape or ()))
        return self.new(TRANS, node, shape, source.width, [(source, DATA)])

    # ---- calls -------------------------------------------------------------------------
    def call(self, node: cst.Call):
        func = node.func
        name = self.tl_name(func)
        if name is None and isinstance(func, cst.Attribute) and not self.imports.resolve(func):
            receiver = self.expr(func.value)
            args = [self.expr(a.value) for a in node.args]
            if func.attr.value == "to" and _is_tile(receiver):
                return self.new(CAST, node, receiver.shape, self.dtype_width(node.args[0].value), [(receiver, DATA)])
            return self.elementwise(node, [receiver, *args])
        if (
            name in ("load", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg", "atomic_cas")
            or name in _STORE_FNS
        ):
            return self.memory(node, name)
        if name in _POINTER_FNS:
            return self.block_pointer(node, name)
        args = {}
        positional = []
        for arg in node.args:
            result = self.expr(arg.value)
            if arg.keyword is not None:
                args[arg.keyword.value] = (arg.value, result)
            else:
                positional.append((arg.value, result))
        if name is None:  # a @triton.jit helper or another function: elementwise over its tiles
            return self.elementwise(node, [r for _, r in positional] + [r for _, r in args.values()])
        return self.language_call(node, name, positional, args)

    def shape_of(self, node) -> Shape:
        """A shape argument: a literal list/tuple, or `x.shape` of a tile."""
        if isinstance(node, cst.Attribute) and node.attr.value == "shape" and isinstance(node.value, cst.Name):
            source = self.read_width(node.value)
            return source.shape if source is not None else ()
        return _shape_literal(node)

    def tl_name(self, func) -> str | None:
        full = self.imports.resolve(func)
        if full is None or not full.startswith("triton.language"):
            return None
        return full.rsplit(".", 1)[-1]

    def language_call(self, node, name: str, positional, keywords):
        def arg(index: int, keyword: str):
            if keyword in keywords:
                return keywords[keyword]
            return positional[index] if index < len(positional) else (None, None)

        if name in ("zeros", "full"):
            shape_node, _ = arg(0, "shape")
            dtype_node, _ = arg(1 if name == "zeros" else 2, "dtype")
            full = self.new(FULL, node, self.shape_of(shape_node), self.dtype_width(dtype_node))
            full.zero = name == "zeros"
            return full
        if name in ("zeros_like", "full_like", "rand", "randn"):
            _, source = arg(0, "input")
            return self.new(FULL, node, source.shape, source.width) if _is_tile(source) else None
        if name == "arange":
            (start, _), (end, _) = arg(0, "start"), arg(1, "end")
            if end is None:
                return None
            size = end if _is_zero(start) else cst.BinaryOperation(end, cst.Subtract(), start)
            return self.new(ARANGE, node, (size,), INDEX)
        if name == "dot":
            (_, a), (_, b) = arg(0, "input"), arg(1, "other")
            _, acc = arg(2, "acc")
            if not (_is_tile(a) and _is_tile(b)):
                return None
            self.model.has_dot = True
            a_shape, b_shape = a.shape or (), b.shape or ()
            shape = (*a_shape[:-1], *b_shape[-1:])
            operands = [(a, DOT_OPERAND), (b, DOT_OPERAND)] + ([(acc, ACCUMULATOR)] if _is_tile(acc) else [])
            return self.new(DOT, node, shape, FP32, operands)
        if name in ("trans", "permute"):
            _, source = arg(0, "input")
            return self.trans(node, source) if _is_tile(source) else None
        if name in ("reshape", "view", "broadcast_to"):
            _, source = arg(0, "input")
            shape_node, _ = arg(1, "shape")
            if not _is_tile(source):
                return None
            kind = BROADCAST if name == "broadcast_to" else VIEW
            return self.new(kind, node, _shape_literal(shape_node) or source.shape, source.width, [(source, DATA)])
        if name == "expand_dims":
            _, source = arg(0, "input")
            axis_node, _ = arg(1, "axis")
            if not _is_tile(source) or not isinstance(axis_node, cst.Integer):
                return None
            dims = list(source.shape or ())
            dims.insert(int(axis_node.value), _ONE)
            return self.new(VIEW, node, tuple(dims), source.width, [(source, DATA)])
        if name == "cast":
            _, source = arg(0, "input")
            dtype_node, _ = arg(1, "dtype")
            return (
                self.new(CAST, node, source.shape, self.dtype_width(dtype_node), [(source, DATA)])
                if _is_tile(source)
                else None
            )
        if name == "where":
            parts = [arg(i, k)[1] for i, k in enumerate(("condition", "x", "y"))]
            tiles = [p for p in parts if _is_tile(p)]
            if not tiles:
                return None
            data = [p for p in parts[1:] if _is_tile(p)]
            width = _arith(*(p.width for p in data)) if data else FP32
            return self.new(WHERE, node, _broadcast(tiles), width, [(p, DATA) for p in tiles])
        if name in _REDUCTIONS:
            _, source = arg(0, "input")
            axis_node, _ = arg(1, "axis")
            keep_node, _ = arg(3, "keep_dims")
            if not _is_tile(source):
                return None
            shape = _reduced(source.shape or (), axis_node, keep_node)
            width = INDEX if name.startswith("arg") else _arith(source.width)
            reduce = self.new(REDUCE, node, shape, width, [(source, DATA)])
            axis = evaluate(axis_node, lambda n: None) if axis_node is not None else None
            rank = len(source.shape or ())
            reduce.across_rows = rank < 2 or not isinstance(axis, int) or axis % rank != rank - 1
            return reduce
        if name in _SCANS:
            _, source = arg(0, "input")
            if not _is_tile(source):
                return None
            return self.new(SCAN, node, source.shape, _arith(source.width), [(source, DATA)])
        if name == "extract_slice":
            _, source = arg(0, "ful")
            sizes_node, _ = arg(2, "sizes")
            if not _is_tile(source):
                return None
            return self.new(TRANS, node, _shape_literal(sizes_node) or source.shape, source.width, [(source, DATA)])
        if name == "insert_slice":
            (_, full), (_, sub) = arg(0, "ful"), arg(1, "sub")
            tiles = [p for p in (full, sub) if _is_tile(p)]
            if not _is_tile(full):
                return None
            return self.new(ELEMENTWISE, node, full.shape, full.width, [(p, DATA) for p in tiles])
        if name in _SCALAR_ONLY or name in ("multiple_of", "max_contiguous", "constexpr", "static_range", "range"):
            _, source = arg(0, "input")
            return source if name in ("multiple_of", "max_contiguous") else None
        return self.elementwise(node, [r for _, r in positional] + [r for _, r in keywords.values()])

    def memory(self, node: cst.Call, name: str):
        pointer_node = None
        value = None
        for index, arg in enumerate(node.args):
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword in (None, "pointer") and pointer_node is None and index == 0:
                pointer_node = arg.value
                pointer = self.expr(arg.value)
            elif keyword in (None, "value", "val") and name in _STORE_FNS and value is None:
                value = (arg.value, self.expr(arg.value))
            else:
                part = self.expr(arg.value)
                if _is_tile(part):
                    self.use(part, None, ADDRESS)
        if pointer_node is None:
            return None
        column = False
        if isinstance(pointer, BlockPointer):
            shape, base, strided, column = pointer.block_shape, pointer.base, pointer.strided, pointer.column
        else:
            shape = pointer.shape if _is_tile(pointer) else ()
            base = self.pointer_param(pointer_node)
            strided = bool(shape) and self.strided_offsets(pointer_node)
            if _is_tile(pointer):
                self.use(pointer, None, ADDRESS)
        if name in _STORE_FNS and value is not None:
            if _is_tile(value[1]):
                self.use(value[1], None, STORED)
                if strided and shape:  # a strided store goes through a 32-byte-per-element staging buffer
                    stage = self.new(STAGE, node, shape, value[1].width, [(value[1], DATA)])
                    stage.strided, stage.column = True, column
            if name == "store":
                return None
        if not shape:
            return None
        load = self.new(LOAD, node, shape, Width(pointer=base) if base else Width(DEFAULT_POINTER_BITS))
        load.strided, load.column = strided, column
        return load

    def strided_offsets(self, pointer_node, depth: int = 0) -> bool:
        """Whether an address expression steps along its last axis by something other than 1
        (following a name to the expressions that define it)."""
        terms = [pointer_node]
        while terms:
            term = terms.pop()
            if isinstance(term, cst.Name) and depth < 4:
                read = self._results.get(id(term))
                if isinstance(read, Read) and any(self.strided_offsets(v.node, depth + 1) for v in read.values):
                    return True
                continue
            if isinstance(term, cst.BinaryOperation) and isinstance(term.operator, (cst.Add, cst.Subtract)):
                terms.extend((term.left, term.right))
                continue
            if not (isinstance(term, cst.BinaryOperation) and isinstance(term.operator, cst.Multiply)):
                continue
            for varying, factor in ((term.left, term.right), (term.right, term.left)):
                shape = getattr(self._results.get(id(varying)), "shape", None)
                factor_shape = getattr(self._results.get(id(factor)), "shape", None)
                if shape and not _is_one(shape[-1]) and not factor_shape and not _is_one_literal(factor):
                    return True
        return False

    def block_pointer(self, node: cst.Call, name: str):
        for arg in node.args:
            part = self.expr(arg.value)
            if _is_tile(part):
                self.use(part, None, ADDRESS)
        if name == "advance":
            first = node.args[0].value if node.args else None
            source = self._results.get(id(first)) if first is not None else None
            return source if isinstance(source, BlockPointer) else None
        block_shape = None
        for index, arg in enumerate(node.args):
            if (arg.keyword is None and index == 4) or (arg.keyword is not None and arg.keyword.value == "block_shape"):
                block_shape = _shape_literal(arg.value)
        base_node = node.args[0].value if node.args else None
        return BlockPointer(block_shape or (), self.pointer_param(base_node), *_block_strides(node))

    def pointer_param(self, node) -> str | None:
        """The pointer parameter an address expression starts from (`q` for `q_ptr + o`)."""
        seen = set()
        name = self.flow.pointer_base(node)
        while name is not None and name not in self.params and name not in seen:
            seen.add(name)
            defs = self.flow.defs.get(name, ())
            name = self.flow.pointer_base(defs[0].value) if defs and defs[0].value is not None else None
        return name

    def dtype_width(self, node) -> Width:
        """The width of a dtype expression: `tl.float32`, `x.dtype`, `p.dtype.element_ty`."""
        if node is None:
            return FP32
        full = self.imports.resolve(node)
        if full is not None:
            name = full.rsplit(".", 1)[-1]
            if name in DTYPE_BITS:
                return Width(DTYPE_BITS[name], integer=name in _INT_DTYPES)
        if isinstance(node, cst.Attribute) and node.attr.value in ("dtype", "element_ty"):
            inner = node.value
            if isinstance(inner, cst.Attribute) and inner.attr.value == "dtype":
                inner = inner.value  # p.dtype.element_ty
            source = self._results.get(id(inner))
            if source is None and isinstance(inner, cst.Name):
                source = self.read_width(inner)
            if isinstance(source, (TileValue, Read)):
                return source.width
            base = self.pointer_param(inner)
            if base is not None:
                return Width(pointer=base)
        if isinstance(node, cst.Name):
            return Width(DEFAULT_POINTER_BITS)  # a dtype parameter: unknown, as a load's
        return FP32

    def read_width(self, node: cst.Name):
        event = self.events_by_node.get(id(node))
        if event is None:
            return None
        for definition in self.reaching.at(event.index, node.value):
            value = self.model._defs.get(definition.index)
            if isinstance(value, TileValue):
                return value
        return None


def _is_tile(value) -> bool:
    return isinstance(value, (TileValue, Read)) and value.shape is not None


def _is_zeros(operand, other, operator) -> bool:
    """A `tl.zeros` tile no larger than `other`, added or subtracted."""
    values = operand.values if isinstance(operand, Read) else (operand,) if isinstance(operand, TileValue) else ()
    return (
        isinstance(operator, (cst.Add, cst.Subtract, cst.AddAssign, cst.SubtractAssign))
        and bool(values)
        and all(v.kind == FULL and v.zero for v in values)
        and (not values[0].shape or not _differs(values[0].shape, other.shape or ()))
    )


def _identity(operator, operand) -> bool:
    """`+ 0`, `- 0`, `* 1`, `/ 1` (also augmented): the value passes through unchanged."""
    if not isinstance(operand, (cst.Integer, cst.Float)):
        return False
    value = operand.evaluated_value
    if isinstance(operator, (cst.Add, cst.Subtract, cst.AddAssign, cst.SubtractAssign)):
        return value == 0
    return isinstance(operator, (cst.Multiply, cst.Divide, cst.MultiplyAssign, cst.DivideAssign)) and value == 1


def _is_one_literal(node) -> bool:
    return isinstance(node, cst.Integer) and node.evaluated_value == 1


def _block_strides(call: cst.Call) -> tuple[bool, bool]:
    """`tl.make_block_ptr(base, shape, strides, ...)`: (strided, column-major). UB tiles are
    row-major whatever `order` says: a tile whose last dimension does not have stride 1 is a
    strided DMA."""
    strides = None
    for index, arg in enumerate(call.args):
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == "strides" or (keyword is None and index == 2):
            strides = _shape_literal(arg.value)
    if not strides or _is_one_literal(strides[-1]):
        return False, False
    return True, len(strides) > 1 and _is_one_literal(strides[0])


def _is_zero(node) -> bool:
    return node is None or (isinstance(node, cst.Integer) and node.evaluated_value == 0)


def _shape_literal(node) -> Shape:
    if isinstance(node, (cst.List, cst.Tuple)):
        return tuple(e.value for e in node.elements)
    return ()


def _is_one(dim: cst.BaseExpression) -> bool:
    return isinstance(dim, cst.Integer) and dim.evaluated_value == 1


def _broadcast(parts) -> Shape:
    """Numpy-style broadcast of the operands' shapes (symbolic: a literal 1 yields)."""
    shapes = [p.shape for p in parts if p.shape]
    if not shapes:
        return ()
    rank = max(len(s) for s in shapes)
    result = []
    for axis in range(rank):
        dims = [s[axis - rank + len(s)] for s in shapes if axis - rank + len(s) >= 0]
        result.append(next((d for d in dims if not _is_one(d)), dims[0]))
    return tuple(result)


def _reduced(shape: Shape, axis_node, keep_node) -> Shape:
    keep = isinstance(keep_node, cst.Name) and keep_node.value == "True"
    if axis_node is None or (isinstance(axis_node, cst.Name) and axis_node.value == "None"):
        return (_ONE,) * len(shape) if keep else ()
    if not isinstance(axis_node, (cst.Integer, cst.UnaryOperation)):
        return shape[1:]
    axis = evaluate(axis_node, lambda n: None)
    if not isinstance(axis, int) or not shape:
        return shape[1:]
    axis %= len(shape)
    return tuple(_ONE if i == axis else d for i, d in enumerate(shape) if keep or i != axis)


# ---- placement: UB or not, split between the two vector cores or not -----------------------


def _place(model: TileModel) -> None:
    """Mark the values that live in UB, and those split between the two vector cores."""
    values = model.values
    gathered = _non_affine_addresses(values)
    addresses = _address_only(values, gathered)
    for value in gathered:
        value.ub = True
    changed = True
    while changed:
        changed = False
        for value in values:
            if not value.ub and value not in addresses and _needs_ub(value):
                value.ub = changed = True
    _spread_strided_layout(values)
    if model.has_dot:
        _mark_split(values)


def _spread_strided_layout(values: list[TileValue]) -> None:
    """A strided DMA's tile keeps its layout (one element per 32-byte block) through the
    elementwise work done on it, and the full-size tiles combined with it are laid out the same
    way. A column-major block is kept transposed (normal size) unless it meets a row-major
    tile of its shape (a dot result, a row-major load) in elementwise work."""
    for value in values:
        if value.column:
            value.strided = _meets_row_major(value, set())
    changed = True
    while changed:
        changed = False
        for value in values:
            if not value.ub or value.kind not in (ELEMENTWISE, CAST, WHERE):
                continue
            full = [
                v
                for operand, role in value.operands
                if role == DATA
                for v in (operand.values if isinstance(operand, Read) else (operand,))
                if v.ub and not _differs(v.shape, value.shape)
            ]
            if not any(v.strided for v in full) and not value.strided:
                continue
            if _SPREAD == "none" or (_SPREAD == "1d" and len(value.shape) != 1):
                continue
            for v in [value, *full]:
                if not v.strided and v.kind in (ELEMENTWISE, CAST, WHERE, DOT, FULL, LOAD):
                    v.strided = changed = True


_SPREAD = "1d"


def _origin_column(value: TileValue, depth: int = 0) -> bool:
    """Computed only from column-major loads (and layout-free broadcasts)."""
    if value.kind == LOAD:
        return value.column
    full = [
        v
        for operand, _ in value.operands
        for v in (operand.values if isinstance(operand, Read) else (operand,))
        if not _differs(v.shape, value.shape)
    ]
    return bool(full) and depth < 16 and all(_origin_column(v, depth + 1) for v in full)


def _row_major(value: TileValue, seen: set[int]) -> bool:
    """Computed from a dot result or a row-major load of the same shape."""
    if value.kind == DOT or (value.kind == LOAD and not value.column):
        return True
    seen.add(id(value))
    return value.kind in (ELEMENTWISE, CAST, WHERE, VIEW) and any(
        id(v) not in seen and not _differs(v.shape, value.shape) and _row_major(v, seen)
        for operand, _ in value.operands
        for v in (operand.values if isinstance(operand, Read) else (operand,))
    )


def _meets_row_major(value: TileValue, seen: set[int]) -> bool:
    seen.add(id(value))
    for user, role in value.users:
        if user is None or role != DATA or id(user) in seen or user.kind not in (ELEMENTWISE, CAST, WHERE):
            continue
        for operand, _ in user.operands:
            for other in operand.values if isinstance(operand, Read) else (operand,):
                if other is not value and not _differs(other.shape, user.shape) and _row_major(other, set()):
                    return True
        if _meets_row_major(user, seen):
            return True
    return False


def _address_only(values: list[TileValue], gathered: set[TileValue]) -> set[TileValue]:
    """Values whose every use ends in the address or mask of a DMA (offsets, bounds checks):
    the compiler turns them into DMA parameters, with no buffer — unless the address is not
    affine (`//`, `%` of a tile), which it computes element by element in UB."""
    found: set[TileValue] = set()
    changed = True
    while changed:
        changed = False
        for value in reversed(values):
            if value in found or not value.users or value in gathered:
                continue
            if all(
                role == ADDRESS or (user is not None and role == DATA and user in found) for user, role in value.users
            ):
                found.add(value)
                changed = True
    return found


def _non_affine_addresses(values: list[TileValue]) -> set[TileValue]:
    """The values of every DMA address (or mask) computed with `//` or `%` on a tile."""
    found: set[TileValue] = set()
    for root in values:
        if not any(user is None and role == ADDRESS for user, role in root.users):
            continue
        closure, stack = [], [root]
        while stack:
            value = stack.pop()
            if value in closure:
                continue
            closure.append(value)
            for operand, _ in value.operands:
                stack.extend(operand.values if isinstance(operand, Read) else (operand,))
        if any(
            isinstance(v.node, cst.BinaryOperation) and isinstance(v.node.operator, (cst.FloorDivide, cst.Modulo))
            for v in closure
        ):
            found.update(closure)
    return found


def _needs_ub(value: TileValue) -> bool:
    if value.kind == STAGE:  # unless the cube core stores the tile, or it is kept transposed
        source = value.operands[0][0]
        sources = source.values if isinstance(source, Read) else (source,)
        if value.column and all(_origin_column(v) for v in sources):
            return False
        return not all(_on_cube(v) for v in sources)
    data_users = [(u, r) for u, r in value.users if r != ADDRESS]
    if not data_users:
        return False  # only an address or mask of a DMA, or never used
    if value.kind == LOAD and value.strided and not value.column:
        return True  # a gather: the vector cores collect it, even for the cube core
    if value.kind in _VECTOR:
        return True
    if value.kind in _MOVES and any(isinstance(o, TileValue) and o.ub for o, _ in value.operands):
        return True
    if value.kind in _MOVES and any(_read_in_ub(o) for o, _ in value.operands):
        return True
    for user, role in data_users:
        if role == DATA and user is not None and user.ub:
            return True
        if role == STORED and not _on_cube(value):
            return True
    return False


def _on_cube(value: TileValue) -> bool:
    """A dot result (through casts/views), or a tile that initialises a dot's accumulator."""
    return _origin(value).kind == DOT or any(role == ACCUMULATOR for _, role in value.users)


def _read_in_ub(operand: Operand) -> bool:
    return isinstance(operand, Read) and any(v.ub for v in operand.values)


def _origin(value: TileValue) -> TileValue:
    """The value a chain of casts, views and transposes starts from."""
    seen = 0
    while value.kind in _MOVES and value.operands and seen < 64:
        operand = value.operands[0][0]
        value = operand if isinstance(operand, TileValue) else (operand.values[0] if operand.values else value)
        seen += 1
    return value


def _mark_split(values: list[TileValue]) -> None:
    """In a kernel with tl.dot, UB values connected to a dot are split between two vector cores."""
    parent: dict[int, int] = {}

    def find(key: int) -> int:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def join(a: TileValue, b: TileValue) -> None:
        parent[find(id(a))] = find(id(b))

    for value in values:
        if not (value.ub or value.kind == DOT):
            continue
        for operand, role in value.operands:
            for source in operand.values if isinstance(operand, Read) else (operand,):
                if source.ub and role != ADDRESS:
                    join(value, source)
    dots = {find(id(v)) for v in values if v.kind == DOT}
    for value in values:
        if value.ub and find(id(value)) in dots:
            value.split = True


# ---- dataflow over the flow's events ------------------------------------------------------


class _Reaching:
    """Which DEF events reach each event (dead events neither define nor pass anything on)."""

    def __init__(self, flow: Flow, dead: frozenset[int]) -> None:
        self.defs = [e for e in flow.events if e.kind == DEF and e.index not in dead]
        self.bit = {e.index: 1 << i for i, e in enumerate(self.defs)}
        self.by_name: dict[str, int] = {}
        for e in self.defs:
            self.by_name[e.name] = self.by_name.get(e.name, 0) | self.bit[e.index]
        out = [0] * len(flow.events)
        self.incoming = [0] * len(flow.events)
        changed = True
        while changed:
            changed = False
            for event in flow.events:
                incoming = 0
                for p in event.pred:
                    incoming |= out[p.index]
                self.incoming[event.index] = incoming
                own = self.bit.get(event.index)
                result = (incoming & ~self.by_name[event.name]) | own if own else incoming
                if result != out[event.index]:
                    out[event.index] = result
                    changed = True

    def at(self, event_index: int, name: str) -> list[Event]:
        """The definitions of `name` reaching the entry of an event."""
        mask = self.incoming[event_index] & self.by_name.get(name, 0)
        return [d for d in self.defs if self.bit[d.index] & mask] if mask else []


def _liveness(flow: Flow, names: dict[str, int], dead: frozenset[int]) -> tuple[list[int], list[int]]:
    """Live-in and live-out name bit sets per event (data reads only; dead events are skipped)."""
    count = len(flow.events)
    live_in, live_out = [0] * count, [0] * count
    use, kill = [0] * count, [0] * count
    for event in flow.events:
        if event.index in dead or event.name not in names:
            continue
        if event.kind == READ and not event.metadata:
            use[event.index] = names[event.name]
        elif event.kind == DEF:
            kill[event.index] = names[event.name]
    changed = True
    while changed:
        changed = False
        for event in reversed(flow.events):
            i = event.index
            outgoing = 0
            for s in event.succ:
                outgoing |= live_in[s.index]
            incoming = use[i] | (outgoing & ~kill[i])
            if outgoing != live_out[i] or incoming != live_in[i]:
                live_out[i], live_in[i] = outgoing, incoming
                changed = True
    return live_in, live_out


# ---- evaluation for one configuration -----------------------------------------------------


class _Evaluation:
    def __init__(self, model: TileModel, lookup, pointer_bits: Mapping[str, int], multi_buffer: bool) -> None:
        self.model = model
        self.multi_buffer = multi_buffer
        self.flow = model.flow
        self.lookup = lookup
        self.pointer_bits = pointer_bits
        self.dead, self.runtime_branches = self.fold_branches()
        names = sorted({name for s in model.statements for name in s.defines})
        self.names = {name: 1 << i for i, name in enumerate(names)}
        self.live_in, self.live_out = _liveness(self.flow, self.names, self.dead)
        self.reaching = _Reaching(self.flow, self.dead)
        self.unsized: list[TileValue] = []
        self.pinned = {v for v in model.values if _streamed(v)}
        self.layout = 0  # every buffer at its own address (in-place results share)
        self._trips: dict[int, int] = {}

    def fold_branches(self):
        """Events in arms this configuration never compiles; the branches decided at run time."""
        dead: set[int] = set()
        runtime = []
        for branch in self.flow.branches:  # outer branches first
            if branch.point.index in dead:
                continue
            outcome = evaluate(branch.node.test, self.propagated(branch.point, dead), self.model.kernel.imports)
            if outcome is not None:
                dead.update(branch.orelse if outcome else branch.body)
            elif self.flow.flags(branch.node.test) != CONST:  # runtime (or a specialisable int left open)
                runtime.append(branch)
        return frozenset(dead), [b for b in runtime if b.point.index not in dead]

    def propagated(self, point: Event, dead: set[int], depth: int = 0):
        """Constant propagation at `point`: a configuration value, or the one constant every
        live definition reaching `point` assigns (`if MODE == 0: t = False` ... `if t:`)."""

        def find(name: str) -> ConstValue | None:
            value = self.lookup(name)
            if value is not None or depth > 4:
                return value
            found = set()
            for definition in self.flow.reaching_defs(point, name):
                if definition.index in dead or definition.value is None:
                    continue
                found.add(
                    evaluate(definition.value, self.propagated(definition, dead, depth + 1), self.model.kernel.imports)
                )
            return found.pop() if len(found) == 1 else None

        return find

    def size(self, value: TileValue, pinned: bool = False) -> int:
        if value.ub and value.elements(self.lookup) is None and value not in self.unsized:
            self.unsized.append(value)
        if value in self.pinned and not pinned:
            return 0  # held for the whole loop: counted by `pinned_extras`
        return value.bytes(self.lookup, self.pointer_bits, self.multi_buffer)

    def held(self, name: str, event_index: int) -> tuple[int, TileValue | None]:
        """Bytes of the tile `name` holds at an event (the largest definition reaching it)."""
        best, best_value = 0, None
        for definition in self.reaching.at(event_index, name):
            value = self.model._defs.get(definition.index)
            if isinstance(value, TileValue):
                size = self.size(value)
                if size > best or best_value is None:
                    best, best_value = size, value
        return best, best_value

    def statement_bytes(self, statement: Statement) -> tuple[int, list[Contributor], int]:
        """(peak bytes while the statement runs, what is held then, bytes live through it)."""
        first, last = statement.span.start, statement.span.stop - 1
        entry, exit_ = self.live_in[first], self.live_out[last]
        held: dict[object, Contributor] = {}
        read_names = {r.name for r in statement.reads}
        last_use: dict[str, TileValue] = {}  # the operation that reads each name last
        for op in statement.ops:
            for operand, _ in op.operands:
                if isinstance(operand, Read):
                    last_use[operand.name] = op
        through_bytes = 0
        for name, bit in self.names.items():
            if not entry & bit:
                continue
            size, value = self._entry_size(name, statement)
            if value is None or size == 0:
                continue
            held[name] = Contributor(name, value, size)
            survives = exit_ & bit and name not in statement.defines and True
            if survives or name not in read_names:
                through_bytes += size
        total = sum(c.bytes for c in held.values())
        peak, snapshot = total, list(held.values())
        results = {id(v): name for name, v in statement.defines.items() if v is not None}
        for op in statement.ops:
            size = self.size(op)
            dying = self._dying_operands(op, statement, last_use, exit_)
            donor = None
            if op.kind in _IN_PLACE or op.kind == VIEW:
                donor = next(
                    (key for key in dying if key in held and held[key].bytes >= size and _donates(held[key].value)),
                    None,
                )
            extra = self._scratch(op)
            copies = self.copies(op)
            self.layout += extra * copies
            if op.kind == COMPARE and extra:  # the widened operands stay until the mask is used
                held[(op, "widened")] = Contributor(None, op, extra)
                total += extra
                extra = 0
            if donor is not None:
                held[op] = Contributor(results.get(id(op)), op, held.pop(donor).bytes)
                dying.remove(donor)
            elif op.kind == VIEW:
                size = 0
            elif size:
                held[op] = Contributor(results.get(id(op)), op, size)
                total += size
                self.layout += size * copies
            if total + extra > peak:
                peak, snapshot = total + extra, list(held.values())
            for key in dying:
                for part in (key, (key, "widened")):
                    freed = held.pop(part, None)
                    if freed is not None:
                        total -= freed.bytes
        return peak, snapshot, through_bytes

    def copies(self, value: TileValue) -> int:
        """How many times the value's buffer is laid out: once per unrolled trip."""
        count = 1
        for loop in value.unrolled:
            trips = self._trips.get(id(loop))
            if trips is None:
                trips = self._trips[id(loop)] = _static_trips(loop, self.lookup)
            count *= trips
        return count

    def _entry_size(self, name: str, statement: Statement) -> tuple[int, TileValue | None]:
        """What `name` holds when the statement starts (at its first read in it, if any)."""
        read = next((r for r in statement.reads if r.name == name), None)
        return self.held(name, read.event.index if read else statement.span.start)

    def _dying_operands(self, op: TileValue, statement: Statement, last_use: dict[str, TileValue], exit_: int) -> list:
        dying = []
        for operand, _ in op.operands:
            if isinstance(operand, TileValue):
                if len(operand.users) == 1:
                    dying.append(operand)
            elif last_use.get(operand.name) is op and operand.name not in dying:
                bit = self.names.get(operand.name, 0)
                if not exit_ & bit or operand.name in statement.defines:
                    dying.append(operand.name)
        return dying

    def _scratch(self, op: TileValue) -> int:
        """Temporary UB an operation needs beyond its result."""
        if not op.ub:
            return 0
        if op.kind == REDUCE:  # an fp32 copy of a 16-bit input, and the partial results
            source = op.operands[0][0]
            values = source.values if isinstance(source, Read) else (source,)
            count = max((v.elements(self.lookup) or 0 for v in values), default=0)
            bits = max((v.width.resolve(self.pointer_bits) for v in values), default=32)
            scratch = count * 4 if op.across_rows else count * 2
            if any(v.strided for v in values):
                scratch = count * _STRIDED_BYTES
            elif bits == 16 and not source.width.integer:
                scratch += count * 4
            return scratch // (2 if op.split else 1)
        if op.kind == COMPARE:  # integer operands broadcast to the full shape first
            count = op.elements(self.lookup) or 0
            widened = sum(
                1
                for operand, _ in op.operands
                if operand.width.integer and operand.width is not MASK and _differs(operand.shape or (), op.shape)
            )
            return widened * count * 4 // (2 if op.split else 1)
        if op.kind == WHERE:
            condition = op.operands[0][0]
            if len(condition.shape or ()) and condition.shape != op.shape and _differs(condition.shape, op.shape):
                count = op.elements(self.lookup) or 0
                return count * 2 // (2 if op.split else 1)
        return 0

    def peak(self) -> Peak:
        per_statement: dict[int, tuple[int, list[Contributor], int]] = {}
        for index, statement in enumerate(self.model.statements):
            if statement.span.start in self.dead:
                continue
            per_statement[index] = self.statement_bytes(statement)
        if not per_statement:
            return Peak(0, 0, None, [], self.unsized)
        self.add_pinned(per_statement)
        best = max(per_statement, key=lambda i: per_statement[i][0])
        minimal = per_statement[best][0]
        arm_extra = self.arm_extras(per_statement)
        summed = max(per_statement, key=lambda i: per_statement[i][0] + arm_extra.get(i, 0))
        summed_bytes = per_statement[summed][0] + arm_extra.get(summed, 0)
        overlapped = summed_bytes > UB_CAPACITY_BYTES
        chosen, total = (best, minimal) if overlapped or summed_bytes <= minimal else (summed, summed_bytes)
        return Peak(
            bytes=total,
            planned=self.layout,
            statement=self.model.statements[chosen].node,
            contributors=per_statement[chosen][1],
            unsized=self.unsized,
            arms_overlapped=overlapped and summed_bytes > minimal,
        )

    def add_pinned(self, per_statement) -> None:
        """Dot results streamed to the vector cores inside a loop land in a ring of
        `_LANDING_SLOTS` slots (sized for the largest) that the planner keeps for the whole loop."""
        rings: dict[int, tuple[Loop, TileValue, int]] = {}
        for value in self.pinned:
            size = self.size(value, pinned=True)
            if size and value.loop is not None and size > rings.get(id(value.loop), (None, None, 0))[2]:
                rings[id(value.loop)] = (value.loop, value, size)
        for loop, value, size in rings.values():
            size *= _LANDING_SLOTS if self.multi_buffer else 1
            self.layout += size
            for index, (peak, contributors, through) in per_statement.items():
                if self.model.statements[index].span.start in loop.body:
                    per_statement[index] = (
                        peak + size,
                        [*contributors, Contributor(None, value, size)],
                        through + size,
                    )

    def arm_extras(self, per_statement) -> dict[int, int]:
        """For statements inside runtime branches: the other arm's own peak, which the planner
        keeps in separate buffers."""
        extras: dict[int, int] = {}
        by_event = {self.model.statements[i].span.start: i for i in per_statement}
        for branch in self.runtime_branches:
            outer = self.live_in[branch.point.index]
            arms = (branch.body, branch.orelse)
            local = []
            for arm in arms:
                inside = [i for start, i in by_event.items() if start in arm]
                best = 0
                for i in inside:
                    statement_peak, contributors, _ = per_statement[i]
                    outer_bytes = sum(c.bytes for c in contributors if c.name and outer & self.names.get(c.name, 0))
                    best = max(best, statement_peak - outer_bytes)
                local.append((inside, best))
            for side, (inside, _) in enumerate(local):
                other = local[1 - side][1]
                for i in inside:
                    extras[i] = extras.get(i, 0) + other
        return extras


_LANDING_SLOTS = 4  # bishengir's default workspace multi-buffering


def _static_trips(loop: Loop, lookup) -> int:
    """The trip count of `for i in tl.static_range(...)` (1 when not a constant)."""
    call = loop.node.iter if isinstance(loop.node, cst.For) else None
    if not isinstance(call, cst.Call):
        return 1
    bounds = [evaluate(a.value, lookup) for a in call.args if a.keyword is None]
    if not bounds or any(not isinstance(b, int) for b in bounds):
        return 1
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds[:2], bounds[2] if len(bounds) > 2 else 1)
    return max(1, len(range(start, stop, step or 1)))


def _streamed(value: TileValue) -> bool:
    """A dot result the vector cores use in the same runtime loop iteration that made it."""
    if value.kind != DOT or not value.ub or value.loop is None:
        return False
    vector_users = [u for u, role in value.users if u is not None and role != ADDRESS and u.ub]
    return bool(vector_users) and all(u.loop is value.loop for u in vector_users)


def _donates(value: TileValue) -> bool:
    """Whether a vector result may take over this buffer: not one a DMA fills (a load)."""
    return value.kind != LOAD or not _DMA_BUFFERS_KEPT


_DMA_BUFFERS_KEPT = False


def _differs(a: Shape, b: Shape) -> bool:
    code = cst.Module([]).code_for_node
    return [code(d) for d in a] != [code(d) for d in b]


def build_tiles(kernel: Kernel) -> TileModel:
    return TileModel(kernel, kernel.flow)
