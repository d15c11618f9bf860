"""The tiles of one kernel: their shapes, element widths, users, and where the compiler puts them.

Built once per kernel on first use (`kernel.tiles`), from the statements, events and
control-flow graph of the flow of its body with the device functions it calls inlined
(`ascend_lint.inline`); `ascend_lint.ub_plan` turns it into a UB peak per configuration.

- **Values**: every tile-valued expression of the body (loads, `tl.zeros`/`tl.full`/
  `tl.arange`, arithmetic, `tl.where`, comparisons, reductions, scans, `tl.dot`, `tl.trans`,
  `tl.gather`, casts, views), with its shape in terms of the kernel's constexpr names, its element width
  and its users. A read of a variable links to the definitions that reach it.
- **Placement** follows what bishengir's memory planner does (triton-ascend 3.2, measured with
  `--enable-memory-display`; docs/ub-estimate.md):
  - a kernel with `tl.dot` runs on a cube core (L1/L0 buffers) and two vector cores (a UB
    each): tiles that only feed dots, and dot results that are only accumulated or stored, take
    no UB; the vector work tied to a dot is split between the two vector cores (half a tile each),
    unless the kernel splits it by hand (a `parallel(..., bind_sub_block=True)` loop);
  - dot results cast or stored, also an accumulator read after its loop, stay on the cube core
    (its fixpipe casts them on the way out);
  - values used only as addresses or masks of a load/store become DMA parameters, not buffers;
  - an address computed with `//` or `%` makes a discrete access, a loop over the elements: the
    arithmetic, comparisons, casts and broadcasts of its address and stored value are computed
    in that loop one element at a time (no tile), the tiles they read stay live as long as they do;
  - a strided DMA (the tile's last dimension does not have stride 1 in memory) puts every
    element in its own 32-byte block, a layout 1-D elementwise work on it keeps; a column-major
    block is instead kept transposed unless it meets a row-major tile of its shape; a tile
    that only feeds dots is in UB only while such a DMA gathers it (`gathers`), then compacted
    to its element width for the cube core: a step the configuration fixes other than 1 (the
    gather's 32-byte blocks are its scratch, `gather_scratch`), a runtime stride outside the
    dense evaluation (1 when the tensor is contiguous), or any stride of a column-major
    address (not a block pointer's, which the cube core takes by DMA);
  - a vector carried round a runtime loop and broadcast to 2-D in it (`b_z[None, :] + b_s`,
    then `b_z += ...`) puts every element of it, and of the tiles computed with it in the loop,
    in its own 32-byte block, whatever the strides;
  - vector arithmetic on 16-bit floats runs in fp32; `&`/`|` of masks on 16-bit lanes;
  - a scalar operand of a float comparison or of a float `tl.maximum`/`tl.minimum`/`tl.clamp` is
    splatted into a full tile, hoisted out of loops (`splats`; `tl.where` and arithmetic take
    scalars as they are).
  - transcendental math (`tanh`, `tl.sigmoid`, `erf`, `sin`, `pow`, a scalar over a tile, ...)
    holds fp32 temporaries of its shape while it runs (`MATH_TEMPORARIES`, `temporaries`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeGuard

import libcst as cst

from .arithmetic import is_one
from .flow import CONST, DEF, READ, Event, Flow, Loop
from .imports import number_literal
from .inline import is_result
from .nodes import each_once
from .specialisations import Lookup, evaluate
from .specialisations import Value as ConstValue

if TYPE_CHECKING:  # kernels.py builds a Kernel's tiles on demand: a runtime import would be a circle
    from .kernels import Kernel

DEFAULT_POINTER_BITS = 16  # loads whose element type the kernel does not state: bf16/fp16
STRIDED_BYTES = 32  # a strided DMA puts every element in its own 32-byte block
PADDED_ROW = 64  # a column-major block converted for a dot: each row of its buffers at least this
ALIGN = 32  # UB buffers start on 32-byte boundaries

DTYPE_BITS = {
    "float64": 64, "int64": 64, "uint64": 64,
    "float32": 32, "int32": 32, "uint32": 32, "tf32": 32,
    "float16": 16, "bfloat16": 16, "int16": 16, "uint16": 16,
    "int8": 8, "uint8": 8, "float8e4nv": 8, "float8e5": 8, "float8e4b15": 8,
    "int1": 8,
}  # fmt: skip
_INT_DTYPES = frozenset(n for n in DTYPE_BITS if "int" in n)

# What made a value: decides where it lives and whether its result can take an operand's buffer.
LOAD, FULL, ARANGE, DOT = "load", "full", "arange", "dot"
CAST, TRANS, VIEW = "cast", "trans", "view"
ELEMENTWISE, WHERE, COMPARE, REDUCE, SCAN = "elementwise", "where", "compare", "reduce", "scan"
GATHER = "gather"  # `tl.gather(src, index, axis)`: a tile of the index's shape, in its own buffer
STAGE = "stage"  # the staging buffer of a strided store
MOVES = (CAST, TRANS, VIEW)
VECTOR = (ELEMENTWISE, WHERE, COMPARE, REDUCE, SCAN, GATHER)
IN_PLACE = (ELEMENTWISE, CAST)

# How a user uses a value.
DATA, ADDRESS, DOT_OPERAND, ACCUMULATOR, STORED = "data", "address", "dot", "acc", "store"
ELEMENT = "element"  # read element by element in a discrete access's loop (its address, or the value it stores)

_LOAD_FNS = frozenset({"load", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg", "atomic_cas"})
_STORE_FNS = frozenset({"store", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg", "atomic_cas"})
_POINTER_FNS = frozenset({"make_block_ptr", "advance", "make_tensor_descriptor"})
_DESCRIPTOR_FNS = frozenset({"_experimental_descriptor_load", "_experimental_descriptor_store"})
_REDUCTIONS = frozenset({"sum", "max", "min", "argmax", "argmin", "reduce", "xor_sum", "prod"})
_KEEP_DIMS_AT = {"sum": 2, "xor_sum": 2, "max": 4, "min": 4}  # keep_dims's position; argmax, reduce...: 3
_SCANS = frozenset({"cumsum", "cumprod", "associative_scan", "sort", "flip"})
# Transcendental and special math: fp32 temporaries of the operation's shape the compiler's
# expansion holds while it runs, (needed, laid out): `needed` when UB is short (what an overflow
# `requires`), `laid out` when there is room. Measured with bishengir-compile (Ascend910B3,
# `bench/calibrate_ub.py`'s harness, docs/ub-estimate.md "Transcendental math"): one op per kernel,
# `z = op(x)` on a [BLOCK] tile, fp32 and bf16-cast-to-fp32, BLOCK 8192-32768, and 2-D [32|128, 256];
# e.g. fp32 BLOCK=32768 (x 128 KiB): tanh `requires` 256 KiB, erf 384 KiB, sin 640 KiB, exp 128 KiB.
# Spellings are one name: `tl.x`, `tl.math.x`, `libdevice.x` (`triton.language.extra.*`), `x.exp()`.
# Not listed, measured without temporaries: exp, exp2, log, log10, log1p, expm1, sqrt, sqrt_rn,
# abs, tile / tile (`/`, `tl.fdiv`, `div_rn`), `tl.where` over them.
MATH_TEMPORARIES: dict[str, tuple[int, int]] = {
    "sigmoid": (1, 1),  # 1 / (1 + exp(-x)): the splatted 1 (none when a tile multiplies the result)
    "tanh": (1, 1),
    "sinh": (1, 1),
    "cosh": (1, 1),
    "log2": (1, 1),
    "rsqrt": (1, 1),
    "reciprocal": (1, 1),  # as `1.0 / x` (a reciprocal)
    "erf": (2, 3),
    "sin": (4, 5),
    "cos": (4, 5),
    "tan": (5, 5),
    "atan": (5, 5),
    "pow": (1, 1),  # `pow(x, 3.0)`; `pow(x, y)` of two tiles: POW_TILES
}
POW_TILES = (7, 7)
RECIPROCAL_TEMPORARIES = (1, 1)  # `1.0 / x`, `tl.fdiv(1.0, x)`: the numerator splatted into a tile
_RECIPROCALS = frozenset({"sigmoid", "reciprocal"})
_DIVISIONS = frozenset({"fdiv", "div_rn", "div_rz"})
# measured: a float tl.maximum/tl.minimum (propagate_nan NONE, the default) is a NaN-aware select
# that lays out two fp32 temporaries and its result in a buffer of its own while there is room
# (tl.clamp: both selects); with propagate_nan=ALL it is a plain vector max/min
_EXTREMA = {"maximum": ("x", "y"), "minimum": ("x", "y"), "clamp": ("x", "min", "max")}
_EXTREMUM_EXPANDED = {"maximum": 3, "minimum": 3, "clamp": 5}
_NO_TILE = frozenset(
    {
        "program_id",
        "num_programs",
        "cdiv",
        "static_print",
        "static_assert",
        "device_print",
        "constexpr",
        "range",
        "static_range",
        "parallel",
        "compile_hint",
    }
)

# Operators by exact type (libcst's classes have no subclasses; a failing isinstance on them is slow)
_ADDING = frozenset({cst.Add, cst.AddAssign})
_ADDITIVE = _ADDING | {cst.Subtract, cst.SubtractAssign}
_SCALING = frozenset({cst.Multiply, cst.Divide, cst.MultiplyAssign, cst.DivideAssign})

Shape = tuple[cst.BaseExpression, ...]
DimSize = Callable[[cst.BaseExpression], ConstValue | None]
_ONE = cst.Integer("1")


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
MASK_LOGIC = Width(16, integer=True)
INDEX = Width(32, integer=True)
WIDE_INDEX = Width(64, integer=True)
FP32 = Width(32)


def _arith(*widths: Width) -> Width:
    """The width of arithmetic over `widths`, holding their distinct leaves (pointer element
    types and fixed widths), not their arithmetic: resolving takes the widest leaf either way
    (16-bit floats promoted once, at any level, give the same result: the promotion is
    monotone), and `a = a + a` repeated would otherwise nest 2^n leaves."""
    if widths and all(w is MASK for w in widths):
        return MASK_LOGIC
    leaves = dict.fromkeys(leaf for width in widths for leaf in (width.of or (width,)))
    return Width(of=tuple(leaves), integer=all(w.integer for w in widths))


@dataclass(frozen=True)
class Splat:
    """A scalar operand splatted into a full tile of its operation's shape (`1.0` in `x > 1.0`
    or `tl.maximum(x, 1.0)`): the compiler hoists it out of loops and makes one per scalar."""

    scalar: str  # its code: equal scalars of one shape and width share a tile
    width: Width
    hoisted: bool  # reads nothing the body defines: made at the kernel's entry


@dataclass(eq=False)
class TileValue:
    """A tile-valued expression: what made it, its shape and width, who uses it, where it lives."""

    kind: str
    node: cst.CSTNode
    shape: Shape
    width: Width
    operands: list[tuple[Operand, str]] = field(default_factory=list)
    loop: Loop | None = None  # the innermost runtime loop around it
    unrolled: tuple[Loop, ...] = ()  # the tl.static_range loops around it
    users: list[tuple[TileValue | None, str]] = field(default_factory=list)  # None: a DMA
    # the uses of the reads it reaches round a loop's back edge (`p += BK`, read by the next
    # trip's `tl.load(p)`, which was built before it and does not list it)
    next_trip_users: list[tuple[TileValue | None, str]] = field(default_factory=list)
    ub: bool = False  # lives in the unified buffer
    split: bool = False  # tied to a dot: each of the two vector cores holds half of it
    per_core: bool = False  # in a loop whose trips run one per vector core: the kernel split it by hand
    strided: bool = False  # every element in its own 32-byte block (a strided DMA)
    step: cst.BaseExpression | None = None  # ... whose last-axis stride is this expression
    blocked: bool = False  # every element in its own 32-byte block whatever the strides
    column: bool = False  # loaded from a column-major block
    blocked_dma: bool = False  # loaded through a block pointer (one DMA whatever its strides)
    selected: bool = False  # gathered element by element, then masked into a second tile (`tl.where`)
    zero: bool = False  # `tl.zeros`
    across_rows: bool = False  # a reduction along a leading axis
    carries: tuple[TileValue, ...] = ()  # computed element by element from these tiles' elements
    expanded: int = 0  # fp32 temporaries laid out only when there is room (a float `tl.maximum`: 3)
    temporaries: int = 0  # fp32 temporaries needed while it runs (MATH_TEMPORARIES: `tanh` 1, `erf` 2)
    reciprocal: bool = False  # a scalar over a tile (`tl.sigmoid`, `1.0 / x`): its temporary is the splatted
    # scalar, which a tile multiplying the result makes unnecessary (`x * tl.sigmoid(x)` is `x / (1 + exp(-x))`)
    splats: tuple[Splat, ...] = ()  # its scalar operands, each splatted into a tile of its shape
    select: bool = False  # a float tl.maximum/tl.minimum (a discrete access's loop computes it element by element)
    scalar_data: int = 0  # a `tl.where`'s scalar data operands (`0.0` in `tl.where(m, x, 0.0)`)
    gathers: tuple[TileValue, ...] = ()  # in UB only for these strided loads' gathers (for the cube core)
    # in UB only for these casts of a dot operand, which the vector cores run when they change
    # the element width (a cast to the width it has is no operation); not multi-buffered
    conversions: tuple[TileValue, ...] = ()
    # ... of a column-major block: transposed through one more buffer of the load's size, every
    # row of these buffers padded to `PADDED_ROW` bytes
    transposed: bool = False

    def elements(self, lookup: Lookup, dim_size: DimSize | None = None) -> int | None:
        """The element count in a configuration (None when it leaves a dimension unknown);
        `dim_size` evaluates a dimension in it, when the caller remembers them (ub_plan does)."""
        total = 1
        for dim in self.shape:
            size = dim_size(dim) if dim_size is not None else evaluate(dim, lookup)
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                return None
            total *= size
        return total

    def bytes(
        self,
        lookup: Lookup,
        pointer_bits: Mapping[str, int],
        multi_buffer: bool = True,
        dense: bool = False,
        dim_size: DimSize | None = None,
    ) -> int:
        """UB bytes for one configuration (0 when not in UB; one 32-byte block, the least a buffer
        takes, when the configuration leaves its size open); `dense` counts a strided tile at its
        element width, and none held only for gathers a runtime stride decides."""
        gathered = not self.gathers or any(load.gathering(lookup, dense) for load in self.gathers)
        converted = not self.conversions or any(cast.converts(pointer_bits) for cast in self.conversions)
        if not (self.ub and gathered and converted):
            return 0
        count = self.elements(lookup, dim_size)
        if count is None:
            return ALIGN  # measured: a one-element fp32 tile beside a full UB asks for 32 bytes more
        # a load gathered for the cube core is compacted to its element width for it, whole (its
        # 32-byte blocks are the gather's scratch: `gather_scratch`)
        compacted = self.kind == LOAD and bool(self.gathers)
        strided = self.spread(lookup, dense) and not compacted
        size = count * (STRIDED_BYTES * 8 if strided else self.width.resolve(pointer_bits)) // 8
        row = dim_size(self.shape[-1]) if dim_size is not None and self.shape else None
        if self.transposed and not strided and isinstance(row, int) and row > 0 and count % row == 0:
            size = count // row * max(size // (count // row), PADDED_ROW)  # [1024, 4] bf16: 64 KiB (measured)
        if self.split and not strided and not compacted:  # a strided DMA is not split between the cores
            size //= 2
        size = -(-size // ALIGN) * ALIGN
        if multi_buffer and self.kind == LOAD and self.loop is not None and not strided and not self.conversions:
            size *= 2  # auto multi-buffer: the next trip's load overlaps this trip's compute
        return size

    def converts(self, pointer_bits: Mapping[str, int]) -> bool:
        """A cast that changes the element width of what it starts from in this configuration
        (a cast back to the width a chain of casts started with folds away: `x.to(tl.float32)
        .to(x.dtype)` is `x`)."""
        bits = self.width.resolve(pointer_bits)
        return any(s.width.resolve(pointer_bits) != bits for s in origins(self))

    def spread(self, lookup: Lookup, dense: bool) -> bool:
        """Every element in its own 32-byte block. `dense` keeps only the layouts the
        configuration proves: a strided DMA whose stride evaluates to a constant other than 1
        (`(1, HV * BT)`), not one a runtime stride argument decides (`stride_d`, 1 when contiguous)."""
        if self.blocked or (self.strided and not dense):
            return True
        step = evaluate(self.step, lookup) if self.strided and not self.column and self.step is not None else None
        return isinstance(step, int) and not isinstance(step, bool) and step != 1

    def gathering(self, lookup: Lookup, dense: bool) -> bool:
        """A strided load's DMA is a gather in this configuration: its step evaluates to a number
        other than 1 (a step of 1 is contiguous), or is a runtime stride (1 when the tensor is
        contiguous, so the `dense` evaluation assumes it is; not so a column-major block's, whose
        rows are the stride apart, gathered whatever it is: measured)."""
        step = evaluate(self.step, lookup) if self.step is not None else None
        if isinstance(step, int) and not isinstance(step, bool):
            return step != 1
        return not dense or self.column

    def gather_scratch(self, lookup: Lookup, dim_size: DimSize | None = None) -> int:
        """The UB a load gathered for the cube core needs while it is gathered, besides the tile:
        with a step the configuration fixes, every element in its own 32-byte block, then
        compacted into the tile (measured: `requires` 34 bytes per bf16 element); with a runtime
        step, none (the compiler gathers straight into the tile at its element width)."""
        step = evaluate(self.step, lookup) if self.kind == LOAD and self.gathers and self.step is not None else None
        if not isinstance(step, int) or isinstance(step, bool) or step == 1:
            return 0
        return (self.elements(lookup, dim_size) or 0) * STRIDED_BYTES

    def shape_text(self) -> str:
        return "[" + ", ".join(_code(d) for d in self.shape) + "]"


@dataclass(eq=False)
class Read:
    """A read of a named tile, with the definitions that may reach it."""

    name: str
    event: Event
    values: tuple[TileValue, ...]
    uses: list[tuple[TileValue | None, str]] = field(default_factory=list)  # (user, role), as in `users`

    @property
    def shape(self) -> Shape:
        return self.values[0].shape

    @property
    def width(self) -> Width:
        return self.values[0].width


Operand = TileValue | Read


@dataclass(frozen=True)
class BlockPointer:
    block_shape: Shape
    base: str | None  # the pointer parameter it starts from
    step: cst.BaseExpression | None = None  # the last dimension's stride when not 1 (a strided DMA)
    column: bool = False  # ... because the block is column-major (first dimension stride 1)


Result = TileValue | Read | BlockPointer | None
Argument = tuple[str | None, cst.BaseExpression, Result]  # a call's: keyword ("*"/"**": unpacked), value, result


@dataclass(eq=False)
class Statement:
    node: cst.BaseSmallStatement
    span: range  # its events in the flow
    ops: list[TileValue]  # the values it computes, in evaluation order
    reads: list[Read]
    defines: dict[str, TileValue | None]  # name -> the tile it now holds (None: not a tile)


def sources(operand: Operand) -> tuple[TileValue, ...]:
    """The values an operand may be: itself, or the definitions reaching a read."""
    return operand.values if isinstance(operand, Read) else (operand,)


class TileModel:
    """The tile values of one kernel and where the compiler puts them."""

    def __init__(self, kernel: Kernel, flow: Flow) -> None:
        self.kernel = kernel
        self.flow = flow
        self.values: list[TileValue] = []
        self.statements: list[Statement] = []
        self.has_dot = False
        self.defs: dict[int, TileValue | BlockPointer | None] = {}  # DEF event index -> its value
        self.peaks: dict[tuple[object, ...], object] = {}  # ub_plan's results, per configuration
        self.reaching = ReachingDefinitions(flow, frozenset())  # every arm compiled
        self.liveness: dict[frozenset[int], object] = {}  # ub_plan's, per set of arms not compiled
        self._constants: dict[str, cst.BaseExpression | None] = {}  # local constants asked for so far
        _Builder(self).build()
        _place(self)

    @property
    def tiles(self) -> Iterator[tuple[str, TileValue]]:
        """(variable, tile) for every named tile definition."""
        for statement in self.statements:
            for name, value in statement.defines.items():
                if value is not None:
                    yield name, value

    def reaching_defs(self, point: Event, name: str) -> list[Event]:
        """The definitions of `name` reaching `point` along any path (bit sets computed once;
        each configuration filters out the arms it does not compile)."""
        return self.reaching.at(point.index, name)

    def lookup(self, values: Mapping[str, ConstValue]) -> Lookup:
        """Constexpr values of a configuration, and of the kernel's own constants (`NK = K // BK`)."""

        def find(name: str, depth: int = 0) -> ConstValue | None:
            if name in values:
                return values[name]
            expression = self.local_constant(name)
            if expression is None or depth > 8:
                return None
            return evaluate(expression, lambda n: find(n, depth + 1), self.kernel.imports)

        return find

    def local_constant(self, name: str) -> cst.BaseExpression | None:
        """The constant expression a name of the body is bound to once (`NK = K // BK`), or None.
        Worked out for the names a configuration asks about, not for every name of the body:
        whether a value is constant is a flow query that can cost much."""
        if name not in self._constants:
            defs = self.flow.defs.get(name, ())
            value = defs[0].value if len(defs) == 1 else None
            self._constants[name] = value if value is not None and self.flow.flags(value) == CONST else None
        return self._constants[name]


def build_tiles(kernel: Kernel) -> TileModel:
    """The kernel's tile model, from its body with the device functions it calls inlined (Triton
    inlines them: their tiles are planned at the call site, with the caller's constexprs)."""
    inlined = kernel.inlined
    model = TileModel(kernel, inlined.flow)
    if not inlined.origins:
        return model
    for value in model.values:  # a node of the inlined body reports where it was written
        value.node = inlined.written(value.node)
    for statement in model.statements:
        source = inlined.written(statement.node)
        statement.node = source if isinstance(source, cst.BaseSmallStatement) else statement.node
    return model


# ---- building: one walk over the flow's statements --------------------------------------------


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
        self.reaching = model.reaching
        self.tile_defs = 0  # the definitions (bits of `reaching`) built so far that hold a tile or block pointer
        self.results: dict[int, Result] = {}  # id(expression node) -> what it evaluated to
        self.ops: list[TileValue] = []
        self.reads: list[Read] = []
        self.loop: Loop | None = None
        self.unrolled: tuple[Loop, ...] = ()
        self.per_core = False

    def build(self) -> None:
        for node, span in self.flow.statements:
            if not span:
                continue
            self.ops, self.reads = [], []
            loops = self.flow.events[span.start].loops
            runtime = [loop for loop in loops if loop.kind != "static_range"]
            self.loop = runtime[-1] if runtime else None
            self.unrolled = tuple(loop for loop in loops if loop.kind == "static_range")
            self.per_core = any(_one_trip_per_vector_core(loop) for loop in runtime)
            defines = self.statement(node)
            self.model.statements.append(Statement(node, span, self.ops, self.reads, defines))
        self.link_back_edges()

    def link_back_edges(self) -> None:
        """Give each definition that reaches a read round a loop's back edge (built after the
        read, so not among its values) the read's uses as its next trip's users."""
        for statement in self.model.statements:
            for read in statement.reads:
                reaching = self.reaching.mask(read.event.index, read.name) & self.tile_defs
                for event in self.reaching.definitions(reaching):
                    value = self.model.defs.get(event.index)
                    if isinstance(value, TileValue) and value not in read.values:
                        value.next_trip_users.extend(read.uses)

    def statement(self, node: cst.BaseSmallStatement) -> dict[str, TileValue | None]:
        defines: dict[str, TileValue | None] = {}
        if isinstance(node, cst.Expr):
            self.expr(node.value)
        elif isinstance(node, cst.Assign):
            result = self.expr(node.value)
            for target in node.targets:
                self.bind(target.target, node.value, result, defines)
        elif isinstance(node, cst.AnnAssign) and node.value is not None:
            self.bind(node.target, node.value, self.expr(node.value), defines)
        elif isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            left, right = self.expr(node.target), self.expr(node.value)
            self.define(node, node.target.value, self.binary(node, left, right, node.value, node.operator), defines)
        elif isinstance(node, cst.Return) and node.value is not None:
            self.expr(node.value)
        return defines

    def bind(
        self,
        target: cst.BaseExpression,
        value: cst.BaseExpression | None,
        result: Result,
        defines: dict[str, TileValue | None],
    ) -> None:
        if isinstance(target, cst.Name):
            self.define(target, target.value, result, defines)
        elif isinstance(target, (cst.Tuple, cst.List)):
            paired = isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements)
            for index, element in enumerate(target.elements):
                part = value.elements[index].value if paired and isinstance(value, (cst.Tuple, cst.List)) else None
                self.bind(element.value, None, self.results.get(id(part)) if part else None, defines)

    def define(self, node: cst.CSTNode, name: str, result: Result, defines: dict[str, TileValue | None]) -> None:
        if isinstance(result, Read):  # `a = b`: the same tile under another name
            result = result.values[0]
        event = self.events_by_node.get(id(node))
        if event is not None:
            self.model.defs[event.index] = result
            bit = self.reaching.bit.get(event.index, 0)
            holds = isinstance(result, (TileValue, BlockPointer))
            self.tile_defs = self.tile_defs | bit if holds else self.tile_defs & ~bit
        defines[name] = result if isinstance(result, TileValue) else None

    def new(
        self,
        kind: str,
        node: cst.CSTNode,
        shape: Shape,
        width: Width,
        operands: list[tuple[Operand, str]] | None = None,
    ) -> TileValue:
        value = TileValue(kind, node, shape, width, operands or [], self.loop, self.unrolled)
        value.per_core = self.per_core
        for operand, role in value.operands:
            self.use(operand, value, role)
        self.ops.append(value)
        self.model.values.append(value)
        return value

    def use(self, operand: Operand, user: TileValue | None, role: str) -> None:
        if isinstance(operand, Read):
            operand.uses.append((user, role))
        for source in sources(operand):
            source.users.append((user, role))

    # ---- expressions ---------------------------------------------------------------------
    def expr(self, node: cst.BaseExpression) -> Result:
        """The tile (value or read), block pointer, or None (not a tile) `node` evaluates to."""
        result = self._expr(node)
        self.results[id(node)] = result
        return result

    def _expr(self, node: cst.BaseExpression) -> Result:
        # by exact type: libcst's node classes have no subclasses, and a failing isinstance on
        # them (ABCMeta) costs a Python-level check, ten of them for a literal
        if type(node) is cst.Name:
            return self.read(node)
        if type(node) is cst.Attribute:
            if node.attr.value == "T":
                source = self.expr(node.value)
                return (
                    self.new(TRANS, node, _transposed(source), source.width, [(source, DATA)])
                    if _tile(source)
                    else None
                )
            if not self.imports.resolve(node) and node.attr.value not in ("dtype", "shape"):
                self.expr(node.value)
            return None
        if type(node) is cst.Call:
            return self.call(node)
        if type(node) is cst.BinaryOperation:
            return self.binary(node, self.expr(node.left), self.expr(node.right), node.right, node.operator)
        if type(node) is cst.BooleanOperation:
            return self.elementwise(node, [self.expr(node.left), self.expr(node.right)])
        if type(node) is cst.UnaryOperation:
            return self.elementwise(node, [self.expr(node.expression)])
        if type(node) is cst.Comparison:
            parts = [self.expr(node.left), *(self.expr(c.comparator) for c in node.comparisons)]
            tiles = [p for p in parts if _tile(p)]
            if not tiles:
                return None
            compare = self.new(COMPARE, node, _broadcast(tiles), MASK, [(p, DATA) for p in tiles])
            lanes = _arith(*(p.width for p in tiles))
            if not lanes.integer:  # `x > 1.0`: the scalar is splatted (integer indices: not measured to)
                nodes = [node.left, *(c.comparator for c in node.comparisons)]
                compare.splats = self.splats([n for n, p in zip(nodes, parts, strict=True) if not _tile(p)], lanes)
            return compare
        if type(node) is cst.Subscript:
            return self.subscript(node)
        if type(node) is cst.IfExp:
            self.expr(node.test)
            return self.elementwise(node, [self.expr(node.body), self.expr(node.orelse)])
        if type(node) is cst.Tuple or type(node) is cst.List:
            for element in node.elements:
                self.expr(element.value)
        return None

    def read(self, node: cst.Name) -> Result:
        event = self.events_by_node.get(id(node))
        if event is None or event.kind != READ:
            return None
        reaching = self.reaching.mask(event.index, node.value) & self.tile_defs  # most reads are of scalars
        if not reaching:
            return None
        defs = [self.model.defs.get(d.index) for d in self.reaching.definitions(reaching)]
        pointer = next((d for d in defs if isinstance(d, BlockPointer)), None)
        if pointer is not None:
            return pointer
        values = tuple(d for d in defs if isinstance(d, TileValue))
        if not values:
            return None
        read = Read(node.value, event, values)
        self.reads.append(read)
        return read

    def subscript(self, node: cst.Subscript) -> Result:
        source = self.expr(node.value)
        if not _tile(source):
            for element in node.slice:
                if isinstance(element.slice, cst.Index):
                    self.expr(element.slice.value)
            return None
        dims = list(source.shape)
        shape: list[cst.BaseExpression] = []
        for element in node.slice:
            inner = element.slice
            if isinstance(inner, cst.Index) and isinstance(inner.value, cst.Name) and inner.value.value == "None":
                shape.append(_ONE)
            elif dims:
                dim = dims.pop(0)  # a slice keeps the dimension, an integer index drops it
                if isinstance(inner, cst.Slice):
                    shape.append(dim)
        return self.new(VIEW, node, (*shape, *dims), source.width, [(source, DATA)])

    def binary(
        self, node: cst.CSTNode, left: Result, right: Result, right_node: cst.BaseExpression, operator: cst.CSTNode
    ) -> Result:
        adding = type(operator) in _ADDING
        # acc + tl.dot(a, b): the dot accumulates, also on a `tl.zeros` tile (`acc += tl.dot(a, b)`
        # is `acc = tl.dot(a, b, acc)` to the compiler: one plan, measured), so this comes first
        for dot, other in ((left, right), (right, left)) if adding else ():
            if isinstance(dot, TileValue) and dot.kind == DOT and len(dot.operands) == 2 and _tile(other):
                dot.operands.append((other, ACCUMULATOR))
                self.use(other, dot, ACCUMULATOR)
                return dot
        additive = type(operator) in _ADDITIVE
        if _tile(left) and (_identity(operator, right_node) or (additive and _zeros_like(right, left))):
            return left  # `x + 0.0`, `x * 1.0`, `x + tl.zeros(...)`: folded by the compiler
        if adding and _tile(right) and _zeros_like(left, right):
            return right
        value = self.elementwise(node, [left, right])
        if value is not None and type(operator) is cst.Divide and not _tile(left):
            _reciprocal(value)  # `1.0 / x`: the numerator is splatted into a tile
        left_node = node.left if type(node) is cst.BinaryOperation else getattr(node, "target", None)
        # integer widths never depend on pointers; lanes already int64 need no flow query
        if value is not None and value.width.integer and value.width.resolve({}) < WIDE_INDEX.bits:
            for part, part_node in ((left, left_node), (right, right_node)):
                if not _tile(part) and part_node is not None and self.flow.wide_everywhere(part_node):
                    value.width = WIDE_INDEX  # `i_n * B + tl.arange(0, B)`, `i_n` an int64: int64 lanes
        return value

    def elementwise(self, node: cst.CSTNode, parts: list[Result]) -> TileValue | None:
        tiles = [p for p in parts if _tile(p)]
        if not tiles:
            return None
        return self.new(
            ELEMENTWISE, node, _broadcast(tiles), _arith(*(p.width for p in tiles)), [(p, DATA) for p in tiles]
        )

    def splats(self, scalars: list[cst.BaseExpression], width: Width) -> tuple[Splat, ...]:
        """The splats of an operation's scalar operands, computed at `width`."""
        return tuple(Splat(_scalar_text(s), width, self.invariant(s)) for s in scalars)

    def invariant(self, node: cst.BaseExpression) -> bool:
        """A literal, or a name the body never assigns (a parameter, a module constant)."""
        if type(node) is cst.UnaryOperation:
            node = node.expression
        if type(node) is cst.Name:
            return node.value not in self.flow.defs
        return type(node) in (cst.Integer, cst.Float)

    # ---- calls -----------------------------------------------------------------------------
    def call(self, node: cst.Call) -> Result:
        """A call, its arguments evaluated once, in order. A tensor method on a tile (`x.reshape(s)`,
        `x.to(t)`, `x.sum(1)`) is the triton.language function with the tile first (`tl.reshape(x,
        s)`, `tl.cast(x, t)`, `tl.sum(x, 1)`); `p.advance(o)` on a block pointer is `tl.advance(p, o)`."""
        func = node.func
        name = self.tl_name(func)
        args: list[Argument] = []
        descriptor_method = None  # `desc.load(offsets)`, `desc.store(offsets, value)`: a block pointer's DMA
        if name is None and type(func) is cst.Attribute and not self.imports.resolve(func):
            receiver = self.expr(func.value)
            args.append((None, func.value, receiver))
            method = self.imports.method_name(func)
            if isinstance(receiver, BlockPointer) and func.attr.value in ("load", "store"):
                descriptor_method = func.attr.value
            elif _tile(receiver) or (isinstance(receiver, BlockPointer) and method == "advance"):
                name = method
        args += [(_keyword(arg), arg.value, self.expr(arg.value)) for arg in node.args]
        if descriptor_method is not None:
            return self.memory(node, descriptor_method, _without_offsets(args, 1))
        if name in _DESCRIPTOR_FNS:  # `tl._experimental_descriptor_load(desc, offsets, shape, dtype)`
            return self.descriptor_access(node, name, args)
        if name is None:  # a function not inlined (`ascend_lint.inline`): elementwise over its tiles
            return self.elementwise(node, [result for _, _, result in args])
        if name in _LOAD_FNS or name in _STORE_FNS:
            return self.memory(node, name, args)
        if name in _POINTER_FNS:
            return self.block_pointer(node, name, args)
        return _LanguageCall(self, node, name, args).value()

    def descriptor_access(self, node: cst.Call, name: str, args: list[Argument]) -> Result:
        """`tl._experimental_descriptor_load(desc, offsets, shape, dtype)` and
        `tl._experimental_descriptor_store(desc, value, offsets)`: the DMA of a block pointer
        of that shape (the descriptor is built on the host)."""
        call = _LanguageCall(self, node, name, args)
        desc, _ = call.arg(0, "desc_pointer")
        if desc is None:
            return None
        if name == "_experimental_descriptor_store":
            return self.memory(node, "store", [(None, desc, BlockPointer((), None)), *_without_offsets(args, 2)[1:]])
        shape, _ = call.arg(2, "shape")
        dtype, _ = call.arg(3, "dtype")
        load = self.new(LOAD, node, _literal_shape(shape), self.dtype_width(dtype))
        load.blocked_dma = True
        return load

    def tl_name(self, func: cst.BaseExpression) -> str | None:
        full = self.imports.resolve(func)
        return full.rsplit(".", 1)[-1] if full is not None and full.startswith("triton.language") else None

    def shape_of(self, node: cst.BaseExpression | None) -> Shape:
        """A shape argument: a literal list or tuple, or `x.shape` of a tile."""
        if isinstance(node, cst.Attribute) and node.attr.value == "shape" and isinstance(node.value, cst.Name):
            source = self.reaching_value(node.value)
            return source.shape if source is not None else ()
        return _literal_shape(node)

    def memory(self, node: cst.Call, name: str, args: list[Argument]) -> Result:
        """`tl.load` / `tl.store` / atomics: the loaded tile, its DMA's layout, staging buffers."""
        pointer_node: cst.BaseExpression | None = None
        pointer: Result = None
        stored: Result = None
        masks: list[Operand] = []  # mask, `other`, atomics' operands
        for index, (keyword, value, part) in enumerate(args):
            if keyword == "pointer" or (index == 0 and keyword is None):  # by keyword, anywhere
                pointer_node, pointer = value, part
            elif name in _STORE_FNS and keyword in (None, "value", "val") and stored is None:
                stored = part
            elif _tile(part):
                masks.append(part)
        if pointer_node is None:
            return None
        through_block = isinstance(pointer, BlockPointer)
        # an address computed with `//` or `%` makes a discrete access: a loop over the elements
        discrete = _tile(pointer) and _non_affine(pointer)
        role = ELEMENT if discrete else ADDRESS
        if isinstance(pointer, BlockPointer):
            shape, base, step, column = pointer.block_shape, pointer.base, pointer.step, pointer.column
        else:
            shape = pointer.shape if _tile(pointer) else ()
            base = self.pointer_param(pointer_node)
            step = self.strided_offsets(pointer_node) if shape and not discrete else None
            column = step is not None and self.unit_first_axis(pointer_node)
            if _tile(pointer):
                self.use(pointer, None, role)
        strided = step is not None
        if _tile(stored):
            self.use(stored, None, ELEMENT if discrete else STORED)
            if strided and shape:  # a strided store goes through a staging buffer
                stage = self.new(STAGE, node, shape, stored.width, [(stored, DATA)])
                stage.strided, stage.step, stage.column = True, step, column
        if name == "store" or not shape:
            for part in masks:
                self.use(part, None, role)
            return None
        load = self.new(LOAD, node, shape, Width(pointer=base) if base else Width(DEFAULT_POINTER_BITS))
        load.strided, load.step, load.column, load.blocked_dma = strided, step, column, through_block
        for part in masks:  # a discrete load selects its elements with the mask tile afterwards
            self.use(part, load if discrete else None, DATA if discrete else ADDRESS)
        load.selected = discrete and bool(masks)
        return load

    def strided_offsets(self, node: cst.BaseExpression, depth: int = 0) -> cst.BaseExpression | None:
        """The step (`H` in `o * H`) when an address steps along its last axis by something
        other than 1, following names to the expressions that define them; None otherwise."""
        terms = [node]
        while terms:
            term = terms.pop()
            if isinstance(term, cst.Name) and depth < 4:
                read = self.results.get(id(term))
                for v in read.values if isinstance(read, Read) else ():
                    step = self.strided_offsets(v.node, depth + 1) if isinstance(v.node, cst.BaseExpression) else None
                    if step is not None:
                        return step
            elif isinstance(term, cst.BinaryOperation) and isinstance(term.operator, (cst.Add, cst.Subtract)):
                terms.extend((term.left, term.right))
            elif isinstance(term, cst.BinaryOperation) and isinstance(term.operator, cst.Multiply):
                for varying, factor in ((term.left, term.right), (term.right, term.left)):
                    steps = self.results.get(id(varying))
                    if (
                        _tile(steps)
                        and steps.shape
                        and not is_one(steps.shape[-1])
                        and not _tile(self.results.get(id(factor)))
                        and not is_one(factor)
                    ):
                        return factor
        return None

    def unit_first_axis(self, node: cst.BaseExpression, depth: int = 0) -> bool:
        """An address adds a column of offsets as they are (`o_k[:, None]` in `w + o_k[:, None] +
        o_n[None, :] * K`): stride 1 down its first axis, a column-major tile as a block pointer
        with strides `(1, K)` is; following names as `strided_offsets` does."""
        terms = [node]
        while terms:
            term = terms.pop()
            if isinstance(term, cst.BinaryOperation) and isinstance(term.operator, (cst.Add, cst.Subtract)):
                terms.extend((term.left, term.right))
                continue
            read = self.results.get(id(term))
            if isinstance(term, cst.BinaryOperation):  # a product (`o_m[:, None] * K`) steps by its factor
                continue
            if isinstance(term, cst.Name) and isinstance(read, Read) and depth < 4:
                if any(
                    isinstance(v.node, cst.BaseExpression) and self.unit_first_axis(v.node, depth + 1)
                    for v in read.values
                ):
                    return True
            elif _tile(read) and len(read.shape) == 2 and is_one(read.shape[1]) and not is_one(read.shape[0]):
                return True
        return False

    def block_pointer(self, node: cst.Call, name: str, args: list[Argument]) -> Result:
        for _, _, part in args:
            if _tile(part):
                self.use(part, None, ADDRESS)
        if not args:
            return None
        if name == "advance":
            source = args[0][2]
            return source if isinstance(source, BlockPointer) else None
        block_shape: Shape = ()
        strides: Shape = ()
        for index, (keyword, value, _) in enumerate(args):
            if keyword == "block_shape" or (
                keyword is None and index == (3 if name == "make_tensor_descriptor" else 4)
            ):
                block_shape = _literal_shape(value)
            elif keyword == "strides" or (keyword is None and index == 2):
                strides = _literal_shape(value)
        # UB tiles are row-major whatever `order` says: a last dimension without stride 1 is strided.
        step = strides[-1] if strides and not is_one(strides[-1]) else None
        column = step is not None and len(strides) > 1 and is_one(strides[0])
        return BlockPointer(block_shape, self.pointer_param(args[0][1]), step, column)

    def pointer_param(self, node: cst.BaseExpression | None) -> str | None:
        """The pointer parameter an address starts from (`q` for `q_ptr + o`)."""
        seen = set()
        name = self.flow.pointer_base(node)
        while name is not None and name not in self.params and name not in seen:
            seen.add(name)
            defs = self.flow.defs.get(name, ())
            name = self.flow.pointer_base(defs[0].value) if defs else None
        return name

    def dtype_width(self, node: cst.BaseExpression | None) -> Width:
        """The width of a dtype expression: `tl.float32`, `x.dtype`, `p.dtype.element_ty`."""
        if node is None:
            return FP32
        full = self.imports.resolve(node)
        name = full.rsplit(".", 1)[-1] if full else None
        if name in DTYPE_BITS:
            return Width(DTYPE_BITS[name], integer=name in _INT_DTYPES)
        if isinstance(node, cst.Attribute) and node.attr.value in ("dtype", "element_ty"):
            inner = node.value
            if isinstance(inner, cst.Attribute) and inner.attr.value == "dtype":
                inner = inner.value  # p.dtype.element_ty
            base = self.pointer_param(inner) if node.attr.value == "element_ty" else None
            if base is not None:  # the pointee of an address tile, not the address's own width
                return Width(pointer=base)
            source = self.results.get(id(inner))
            if source is None and isinstance(inner, cst.Name):
                source = self.reaching_value(inner)
            if _tile(source):
                return source.width
            base = self.pointer_param(inner)
            if base is not None:
                return Width(pointer=base)
        return Width(DEFAULT_POINTER_BITS) if isinstance(node, cst.Name) else FP32

    def reaching_value(self, node: cst.Name) -> TileValue | None:
        event = self.events_by_node.get(id(node))
        for definition in self.reaching.at(event.index, node.value) if event else ():
            value = self.model.defs.get(definition.index)
            if isinstance(value, TileValue):
                return value
        return None


class _LanguageCall:
    """A `tl.<name>(...)` call that computes a tile (or not)."""

    def __init__(
        self,
        builder: _Builder,
        node: cst.Call,
        name: str,
        args: list[Argument],
    ) -> None:
        self.builder, self.node, self.name = builder, node, name
        self.results = [result for _, _, result in args]
        self.positional = [(value, result) for keyword, value, result in args if keyword is None]
        self.keywords = {keyword: (value, result) for keyword, value, result in args if keyword is not None}

    def arg(self, index: int, keyword: str) -> tuple[cst.BaseExpression | None, Result]:
        if keyword in self.keywords:
            return self.keywords[keyword]
        return self.positional[index] if index < len(self.positional) else (None, None)

    def new(
        self, kind: str, shape: Shape, width: Width, operands: list[tuple[Operand, str]] | None = None
    ) -> TileValue:
        return self.builder.new(kind, self.node, shape, width, operands)

    def dimensions(self) -> Shape:
        """The sizes or axes after the tile, given as one sequence (`(a, b)`, `[a, b]`, `y.shape`)
        or one by one (`a, b`, as Triton's `*shape` and `*dims` also take them)."""
        nodes = [value for value, _ in self.positional[1:]]
        if len(nodes) == 1 and (
            isinstance(nodes[0], (cst.List, cst.Tuple))
            or (isinstance(nodes[0], cst.Attribute) and nodes[0].attr.value == "shape")
        ):
            return self.builder.shape_of(nodes[0])
        return tuple(nodes)

    def value(self) -> Result:
        name, builder = self.name, self.builder
        _, source = self.arg(0, "input")
        if name in ("zeros", "full"):
            dtype_node, _ = self.arg(1 if name == "zeros" else 2, "dtype")
            full = self.new(FULL, builder.shape_of(self.arg(0, "shape")[0]), builder.dtype_width(dtype_node))
            full.zero = name == "zeros"
            return full
        if name == "arange":
            (start, _), (end, _) = self.arg(0, "start"), self.arg(1, "end")
            if end is None:
                return None
            size = end if _is_zero(start) else cst.BinaryOperation(end, cst.Subtract(), start or _ONE)
            return self.new(ARANGE, (size,), INDEX)
        if name == "dot":
            return self.dot(source)
        if name == "where":
            return self.where()
        if name in _NO_TILE:
            return None
        if name in ("multiple_of", "max_contiguous"):
            return source
        if name in _EXTREMA:
            return self.extremum()
        if not _tile(source):
            value = builder.elementwise(self.node, self.results)
            if value is not None and name in _DIVISIONS and not _tile(self.arg(0, "x")[1]):  # `tl.fdiv(1.0, x)`
                _reciprocal(value)
            return value
        return self.from_tile(source)

    def from_tile(self, source: Operand) -> TileValue | None:
        """Calls whose first argument is a tile."""
        name = self.name
        data: list[tuple[Operand, str]] = [(source, DATA)]
        if name in ("zeros_like", "full_like", "rand", "randn"):
            return self.new(FULL, source.shape, source.width)
        if name in ("trans", "permute"):
            return self.new(TRANS, _permuted(source.shape, self.dimensions()), source.width, data)
        if name in ("reshape", "view", "broadcast_to"):
            shape = self.dimensions() or source.shape
            return self.new(ELEMENTWISE if name == "broadcast_to" else VIEW, shape, source.width, data)
        if name == "expand_dims":
            return self.new(VIEW, _expanded(source.shape, self.arg(1, "axis")[0] or _ONE), source.width, data)
        if name == "ravel":
            return self.new(VIEW, (_product(source.shape),) if source.shape else (), source.width, data)
        if name == "cast":
            return self.new(CAST, source.shape, self.builder.dtype_width(self.arg(1, "dtype")[0]), data)
        if name in _REDUCTIONS:
            axis_node = self.arg(1, "axis")[0]
            keep_node = self.arg(_KEEP_DIMS_AT.get(name, 3), "keep_dims")[0]
            width = INDEX if name.startswith("arg") else _arith(source.width)
            reduce = self.new(REDUCE, _reduced(source.shape, axis_node, keep_node), width, data)
            axis = evaluate(axis_node, lambda n: None) if axis_node is not None else None
            rank = len(source.shape)
            reduce.across_rows = rank < 2 or not isinstance(axis, int) or axis % rank != rank - 1
            return reduce
        if name in _SCANS:
            return self.new(SCAN, source.shape, _arith(source.width), data)
        if name == "gather":  # measured: 16-bit floats are gathered in fp32 lanes
            index = self.arg(1, "index")[1]
            if _tile(index):
                return self.new(GATHER, index.shape, _arith(source.width), [*data, (index, DATA)])
        if name == "extract_slice":
            return self.new(TRANS, _literal_shape(self.arg(2, "sizes")[0]) or source.shape, source.width, data)
        if name == "insert_slice":
            sub = self.arg(1, "sub")[1]
            return self.new(ELEMENTWISE, source.shape, source.width, data + ([(sub, DATA)] if _tile(sub) else []))
        value = self.builder.elementwise(self.node, self.results)
        if value is not None and name in MATH_TEMPORARIES:
            tiled_exponent = name == "pow" and _tile(self.arg(1, "arg1")[1])
            value.temporaries, laid_out = POW_TILES if tiled_exponent else MATH_TEMPORARIES[name]
            value.expanded = laid_out - value.temporaries
            value.reciprocal = name in _RECIPROCALS
        return value

    def extremum(self) -> TileValue | None:
        """`tl.maximum`, `tl.minimum`, `tl.clamp`: on floats, a select with fp32 temporaries, its
        scalar operands splatted (measured; integer ones take neither, nor does
        `propagate_nan=tl.PropagateNan.ALL`, a plain vector max/min in place)."""
        value = self.builder.elementwise(self.node, self.results)
        keywords = _EXTREMA[self.name]
        propagate_nan = self.arg(len(keywords), "propagate_nan")[0]
        if value is None or value.width.integer or (propagate_nan is not None and _code(propagate_nan).endswith("ALL")):
            return value
        value.expanded, value.select = _EXTREMUM_EXPANDED[self.name], True
        operands = [self.arg(index, keyword) for index, keyword in enumerate(keywords)]
        scalars = [node for node, result in operands if node is not None and not _tile(result)]
        value.splats = self.builder.splats(scalars, value.width)
        return value

    def dot(self, a: Result) -> TileValue | None:
        b, acc = self.arg(1, "other")[1], self.arg(2, "acc")[1]
        if not (_tile(a) and _tile(b)):
            return None
        self.builder.model.has_dot = True
        operands: list[tuple[Operand, str]] = [(a, DOT_OPERAND), (b, DOT_OPERAND)]
        if _tile(acc):
            operands.append((acc, ACCUMULATOR))
        return self.new(DOT, (*a.shape[:-1], *b.shape[-1:]), FP32, operands)

    def where(self) -> TileValue | None:
        parts = [self.arg(i, k)[1] for i, k in enumerate(("condition", "x", "y"))]
        tiles = [p for p in parts if _tile(p)]
        if not tiles:
            return None
        data = [p for p in parts[1:] if _tile(p)]
        width = _arith(*(p.width for p in data)) if data else FP32
        value = self.new(WHERE, _broadcast(tiles), width, [(p, DATA) for p in tiles])
        value.scalar_data = 2 - len(data)
        return value


def _reciprocal(value: TileValue) -> None:
    """A scalar divided by a tile (`1.0 / x`, `tl.fdiv(1.0, x)`): measured, one more fp32 tile."""
    value.temporaries, laid_out = RECIPROCAL_TEMPORARIES
    value.expanded, value.reciprocal = laid_out - value.temporaries, True


def _keyword(arg: cst.Arg) -> str | None:
    """An argument's keyword; `*` or `**` for an unpacked one (never taken for a position)."""
    return arg.keyword.value if arg.keyword is not None else arg.star or None


def _without_offsets(args: list[Argument], position: int) -> list[Argument]:
    """A descriptor access's arguments but its offsets (`offsets=` or the one at `position`),
    which address the block and hold no tile."""
    positional = [i for i, (keyword, _, _) in enumerate(args) if keyword is None]
    dropped = positional[position] if len(positional) > position else None
    return [a for i, a in enumerate(args) if i != dropped and a[0] != "offsets"]


def _tile(result: Result) -> TypeGuard[TileValue | Read]:
    return isinstance(result, (TileValue, Read))


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def differs(a: Shape, b: Shape) -> bool:
    return len(a) != len(b) or any(x is not y and _text(x) != _text(y) for x, y in zip(a, b, strict=False))


def _text(node: cst.BaseExpression) -> str:
    """The code of a dimension: a bare name or integer is its own text (no code generation)."""
    if isinstance(node, (cst.Name, cst.Integer)) and not node.lpar and not node.rpar:
        return node.value
    return _code(node)


def _scalar_text(node: cst.BaseExpression) -> str:
    """A scalar's code, a number literal by its value (`0` and `0.` make one splat; an integer
    past a float's range by its code)."""
    negative = type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus
    number = node.expression if negative and isinstance(node, cst.UnaryOperation) else node
    if type(number) is cst.Integer or type(number) is cst.Float:
        try:
            value = float(number_literal(number))
        except OverflowError:
            return _text(node)
        return repr(-value if negative else value)
    return _text(node)


def _is_zero(node: cst.BaseExpression | None) -> bool:
    return node is None or (isinstance(node, cst.Integer) and number_literal(node) == 0)


def _identity(operator: cst.CSTNode, operand: cst.BaseExpression) -> bool:
    """`+ 0`, `- 0`, `* 1`, `/ 1` (also augmented): the value passes through."""
    if not isinstance(operand, (cst.Integer, cst.Float)):
        return False
    value = number_literal(operand)
    if type(operator) in _ADDITIVE:
        return value == 0
    return type(operator) in _SCALING and value == 1


def _zeros_like(operand: Result, other: Result) -> bool:
    """A `tl.zeros` tile no larger than `other`."""
    if not (_tile(operand) and _tile(other)):
        return False
    values = sources(operand)
    return all(v.kind == FULL and v.zero for v in values) and (
        not values[0].shape or not differs(values[0].shape, other.shape)
    )


def _literal_shape(node: cst.BaseExpression | None) -> Shape:
    return tuple(e.value for e in node.elements) if isinstance(node, (cst.List, cst.Tuple)) else ()


def _transposed(source: Operand) -> Shape:
    return tuple(reversed(source.shape))


def _permuted(shape: Shape, dims: Shape) -> Shape:
    """`shape` with its axes in the order `dims` gives; reversed when no order is known
    (`tl.trans(x)` of a 2-D tile swaps its axes)."""
    order = [evaluate(dim, _unknown) for dim in dims]
    axes = [axis for axis in order if type(axis) is int]
    if len(axes) != len(order) or sorted(axes) != list(range(len(shape))):
        return tuple(reversed(shape))
    return tuple(shape[axis] for axis in axes)


def _expanded(shape: Shape, axis: cst.BaseExpression) -> Shape:
    """`shape` with a 1 inserted at each axis (`tl.expand_dims`: an int or a sequence, counted in
    the result; an unknown one taken as 0)."""
    nodes = [e.value for e in axis.elements] if isinstance(axis, (cst.List, cst.Tuple)) else [axis]
    rank = len(shape) + len(nodes)
    axes = [evaluate(node, _unknown) for node in nodes]
    dims = list(shape)
    for index in sorted(a % rank if type(a) is int and -rank <= a < rank else 0 for a in axes):
        dims.insert(index, _ONE)
    return tuple(dims)


def _product(shape: Shape) -> cst.BaseExpression:
    """The element count of a non-empty shape, as an expression (`tl.ravel`)."""
    product = shape[0]
    for dim in shape[1:]:
        product = cst.BinaryOperation(_atom(product), cst.Multiply(), _atom(dim))
    return product


def _atom(node: cst.BaseExpression) -> cst.BaseExpression:
    """`node`, parenthesised unless it is a name, an integer or a product (for code that reads right)."""
    if type(node) in (cst.Name, cst.Integer) or node.lpar:
        return node
    if type(node) is cst.BinaryOperation and type(node.operator) is cst.Multiply:
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _unknown(name: str) -> ConstValue | None:
    return None


def _broadcast(parts: list[Operand]) -> Shape:
    """Numpy-style broadcast of the operands' shapes (symbolic: a literal 1 yields)."""
    shapes = [p.shape for p in parts if p.shape]
    if not shapes:
        return ()
    rank = max(len(s) for s in shapes)
    result = []
    for axis in range(rank):
        dims = [s[axis - rank + len(s)] for s in shapes if axis - rank + len(s) >= 0]
        result.append(next((d for d in dims if not is_one(d)), dims[0]))
    return tuple(result)


def _reduced(shape: Shape, axis_node: cst.BaseExpression | None, keep_node: cst.BaseExpression | None) -> Shape:
    keep = isinstance(keep_node, cst.Name) and keep_node.value == "True"
    axis = evaluate(axis_node, lambda n: None) if axis_node is not None else None
    if axis is None and (axis_node is None or (isinstance(axis_node, cst.Name) and axis_node.value == "None")):
        return (_ONE,) * len(shape) if keep else ()
    if not isinstance(axis, int) or not shape:
        return shape[1:]
    axis %= len(shape)
    return tuple(_ONE if i == axis else d for i, d in enumerate(shape) if keep or i != axis)


# ---- placement: UB or not, split between the vector cores or not ------------------------------


def _place(model: TileModel) -> None:
    values = model.values
    _drop_unused(model)
    per_element = _per_element(values)
    addresses = _address_only(values)
    _fill_ub(values, addresses | per_element, per_element, gathers=False)
    elsewhere = [value for value in values if not value.ub]
    _fill_ub(values, addresses | per_element, per_element, gathers=False, conversions=True)
    converted = [value for value in elsewhere if value.ub]
    for value in reversed(converted):  # a cast before its source: the source takes its casts'
        value.conversions = (
            (value,)
            if _converts_for_dot(value)
            else tuple(
                {
                    c: None
                    for user, _ in (*value.users, *value.next_trip_users)
                    if user in converted
                    for c in user.conversions
                }
            )
        )
        if value.kind == LOAD and value.column:  # and its casts
            for v in (value, *(user for user, _ in value.users if user in value.conversions)):
                v.transposed = True
    elsewhere = [value for value in elsewhere if not value.ub]
    _fill_ub(values, addresses | per_element, per_element, gathers=True, conversions=True)
    for value in elsewhere:
        if value.ub:  # in UB only for gathers: there while one of its strided loads gathers
            value.gathers = tuple(v for v in origins(value) if v.kind == LOAD and v.strided)
    for value in values:
        if value in per_element:
            value.carries = _carried(value, per_element)
    _lay_out_strided(values)
    _lay_out_carried_broadcasts(model)
    if model.has_dot:
        _mark_split(values)


def _drop_unused(model: TileModel) -> None:
    """Forget the uses by an inlined helper's result no read reaches, and by what only it used
    (the compiler removes them): `if IS_LINEAR: return offs` then `return offs // D * s + offs %
    D` leaves two results, and a read of a name assigned one (`x_off = ret·f`) takes the first."""
    unused = {
        id(value)
        for statement in model.statements
        for name, value in statement.defines.items()
        if value is not None and is_result(name) and not value.users and not value.next_trip_users
    }
    changed = bool(unused)
    while changed:
        changed = False
        for value in model.values:
            used = [(user, role) for user, role in value.users if user is None or id(user) not in unused]
            if len(used) != len(value.users):
                value.users = used
                if not used and not value.next_trip_users and value.kind != STAGE:
                    unused.add(id(value))
                    changed = True


_BUBBLING = frozenset(
    {cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.BitAnd, cst.BitOr}
    | {cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign}
    | {cst.FloorDivideAssign, cst.ModuloAssign, cst.BitAndAssign, cst.BitOrAssign}
)


def _per_element(values: list[TileValue]) -> set[TileValue]:
    """Values only read element by element in discrete accesses' loops, through operations the
    compiler computes there one element at a time (triton-ascend's BubbleUpOperation moves the
    element extraction through integer and float arithmetic, comparisons, casts, broadcasts and
    ranges): they need no tile. `tl.where`, `tl.exp`, reductions and loads do not move."""
    found: set[TileValue] = set()
    changed = True
    while changed:
        changed = False
        for value in reversed(values):
            if value in found or not value.users or not _bubbles(value):
                continue
            if all(role in (ELEMENT, ADDRESS) or user in found for user, role in value.users):
                found.add(value)
                changed = True
    return found


def _bubbles(value: TileValue) -> bool:
    """An operation the compiler can compute one element at a time inside a discrete access's loop."""
    node = value.node
    if value.kind in (COMPARE, CAST, ARANGE, FULL) or value.select:
        return True  # measured for tl.minimum: fla's discrete logsigmoid_fwd_kernel plans no tile for it
    if value.kind == VIEW:
        return type(node) is cst.Subscript  # `x[:, None]`: expand_dims
    if value.kind != ELEMENTWISE:
        return False
    if type(node) is cst.BinaryOperation or type(node) is cst.AugAssign:
        return type(node.operator) in _BUBBLING
    return type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus


def _carried(value: TileValue, per_element: set[TileValue]) -> tuple[TileValue, ...]:
    """The tiles a value computed element by element reads its elements from."""
    found: dict[TileValue, None] = {}
    pending = [value]
    for current in each_once(pending, id):
        for operand, role in current.operands:
            for source in sources(operand):
                if source in per_element:
                    pending.append(source)
                elif source.ub and role != ADDRESS:
                    found[source] = None
    return tuple(found)


def _non_affine(address: Operand) -> bool:
    """An address computed with `//` or `%` on a tile: no DMA takes it, the compiler loops over
    the elements (a discrete access)."""
    pending = list(sources(address))
    for value in each_once(pending, id):
        node = value.node
        if (type(node) is cst.BinaryOperation or type(node) is cst.AugAssign) and type(node.operator) in _NON_AFFINE:
            return True
        pending.extend(s for operand, _ in value.operands for s in sources(operand))
    return False


_NON_AFFINE = frozenset({cst.FloorDivide, cst.Modulo, cst.FloorDivideAssign, cst.ModuloAssign})


def _address_only(values: list[TileValue]) -> set[TileValue]:
    """Values whose every use ends in the address or mask of a DMA: DMA parameters, no buffer.
    A pointer tile advanced in place round a loop (`p += BK`, read by the next trip's
    `tl.load(p)`) is its own next trip's operand: the largest set closed under the condition
    keeps such a cycle of address arithmetic (measured: the compiler plans no UB for it)."""
    found = {value for value in values if value.users or value.next_trip_users}
    changed = True
    while changed:
        changed = False
        for value in reversed(values):
            if value in found and not all(
                role == ADDRESS or (user in found and role == DATA)
                for user, role in (*value.users, *value.next_trip_users)
            ):
                found.discard(value)
                changed = True
    return found


def _fill_ub(
    values: list[TileValue],
    outside: set[TileValue],
    per_element: set[TileValue],
    gathers: bool,
    conversions: bool = False,
) -> None:
    """Put in UB every value that needs it (`outside` never does), until nothing changes."""
    changed = True
    while changed:
        changed = False
        for value in values:
            if not value.ub and value not in outside and _needs_ub(value, per_element, gathers, conversions):
                value.ub = changed = True


def _needs_ub(value: TileValue, per_element: set[TileValue], gathers: bool, conversions: bool = False) -> bool:
    """Whether a value lives in UB, given what is there already; `gathers`: also a strided load
    the cube core cannot take by DMA; `conversions`: also a cast of a dot operand."""
    if value.kind == STAGE:  # unless the cube core stores the tile, or it is kept transposed
        stored = sources(value.operands[0][0])
        if value.column and all(_from_column_loads(v) for v in stored):
            return False
        return not all(_on_cube(v) for v in stored)
    data_users = [(user, role) for user, role in (*value.users, *value.next_trip_users) if role != ADDRESS]
    if not data_users:
        return False
    if gathers and value.kind == LOAD and value.strided and not value.blocked_dma:
        return True  # a gather: the vector cores collect it, even for the cube core (a block pointer's DMA need not)
    if value.kind in VECTOR:
        return True
    if any(role == ELEMENT or user in per_element for user, role in data_users):
        return True  # read element by element, but not computed that way: a tile to read from
    if value.kind in MOVES and any(s.ub for operand, _ in value.operands for s in sources(operand)):
        return True
    if conversions and _converts_for_dot(value):
        return True  # measured: the vector cores convert it, holding its source and result (half each)
    for user, role in data_users:
        if (role == DATA and user is not None and user.ub) or (role == STORED and not _on_cube(value)):
            return True
    return False


def _converts_for_dot(value: TileValue) -> bool:
    """A cast of a dot operand (`tl.dot(a.to(tl.float32), b)`, also through a transpose or
    view) that the cube core cannot do: not of a dot result, which its fixpipe casts."""
    return value.kind == CAST and _feeds_dot(value, 0) and not _on_cube(value)


def _feeds_dot(value: TileValue, depth: int) -> bool:
    return any(
        role == DOT_OPERAND
        or (
            user is not None
            and role == DATA
            and user.kind in (TRANS, VIEW)
            and depth < 8
            and _feeds_dot(user, depth + 1)
        )
        for user, role in (*value.users, *value.next_trip_users)
    )


def _on_cube(value: TileValue) -> bool:
    """A dot result (through casts/views), or a tile that initialises a dot's accumulator; an
    accumulator read after its loop is both (`acc = tl.zeros(...)`, then `acc = tl.dot(a, b, acc)`)."""
    if any(role == ACCUMULATOR for _, role in value.users):
        return True
    starts = origins(value)
    return any(v.kind == DOT for v in starts) and all(
        v.kind == DOT or any(role == ACCUMULATOR for _, role in v.users) for v in starts
    )


def origins(value: TileValue) -> list[TileValue]:
    """The values a chain of casts, views and transposes starts from (every definition reaching
    a read on the way)."""
    found: list[TileValue] = []
    pending, seen = [value], set[int]()
    while pending and len(seen) < 64:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current.kind in MOVES and current.operands:
            pending.extend(sources(current.operands[0][0]))
        else:
            found.append(current)
    return found


def _same_shape_operands(value: TileValue) -> list[TileValue]:
    return [s for operand, _ in value.operands for s in sources(operand) if not differs(s.shape, value.shape)]


def _lay_out_strided(values: list[TileValue]) -> None:
    """Strided layouts: a column-major block is kept transposed (normal size) unless it meets
    a row-major tile of its shape; 1-D elementwise work on a strided tile keeps its layout."""
    for value in values:
        if value.column:
            value.strided = _meets_row_major(value, set())
    changed = True
    while changed:
        changed = False
        for value in values:
            if not value.ub or value.kind not in (ELEMENTWISE, CAST, WHERE) or len(value.shape) != 1:
                continue
            full = [v for v in _same_shape_operands(value) if v.ub]
            layout = next((v for v in (value, *full) if v.strided), None)
            if layout is not None:
                for v in (value, *full):
                    if not v.strided and v.kind in (ELEMENTWISE, CAST, WHERE, DOT, FULL, LOAD):
                        v.strided, v.step = True, layout.step
                        changed = True


_BLOCKED_KINDS = (ELEMENTWISE, CAST, WHERE, LOAD, FULL, REDUCE, SCAN, VIEW)


def _lay_out_carried_broadcasts(model: TileModel) -> None:
    """A vector carried round a runtime loop and broadcast in it (`b_z[None, :]`): it, and the
    UB tiles of the loop computed with it (loads, casts, elementwise work, reductions), take a
    32-byte block per element (measured: fla's `chunk_global_cumsum_vector_kernel_npu`)."""
    for seed in [v for v in model.values if _broadcasts_carried_vector(v, model)]:
        pending = [seed]
        while pending:
            value = pending.pop()
            if value.blocked:
                continue
            value.blocked = True
            neighbours = [s for operand, role in value.operands if role == DATA for s in sources(operand)]
            neighbours += [user for user, role in value.users if user is not None and role == DATA]
            pending.extend(v for v in neighbours if v.ub and v.kind in _BLOCKED_KINDS and _inside(v, seed.loop))


def _inside(value: TileValue, loop: Loop | None) -> bool:
    """Whether the value is computed in `loop` or before it (not in a loop of its own)."""
    return value.loop is loop or value.loop is None


def _broadcasts_carried_vector(value: TileValue, model: TileModel) -> bool:
    """`x[None, :]` (or `x[:, None]`) inside a runtime loop, `x` a vector defined before the
    loop and accumulated later in it (`x += ...`): the update reaches the read round the loop."""
    if value.kind != VIEW or not value.ub or value.loop is None or len(value.shape) != 2 or not value.operands:
        return False
    operand = value.operands[0][0]
    if not isinstance(operand, Read) or len(operand.shape) != 1:
        return False
    defs = model.reaching_defs(operand.event, operand.name)
    inside = [d for d in defs if any(loop is value.loop for loop in d.loops)]
    return (
        len(inside) < len(defs)
        and bool(inside)
        and all(isinstance(d.node, cst.AugAssign) and d.index > operand.event.index for d in inside)
    )


def _from_column_loads(value: TileValue, depth: int = 0) -> bool:
    if value.kind == LOAD:
        return value.column
    full = _same_shape_operands(value)
    return bool(full) and depth < 16 and all(_from_column_loads(v, depth + 1) for v in full)


def _row_major(value: TileValue, seen: set[int]) -> bool:
    """Computed from a dot result or a row-major load of the same shape."""
    if value.kind == DOT or (value.kind == LOAD and not value.column):
        return True
    seen.add(id(value))
    return value.kind in (ELEMENTWISE, CAST, WHERE, VIEW) and any(
        id(v) not in seen and _row_major(v, seen) for v in _same_shape_operands(value)
    )


def _meets_row_major(value: TileValue, seen: set[int]) -> bool:
    seen.add(id(value))
    for user, role in value.users:
        if user is None or role != DATA or id(user) in seen or user.kind not in (ELEMENTWISE, CAST, WHERE):
            continue
        if any(other is not value and _row_major(other, set()) for other in _same_shape_operands(user)):
            return True
        if _meets_row_major(user, seen):
            return True
    return False


def _one_trip_per_vector_core(loop: Loop) -> bool:
    """`for s in tl.parallel(0, 2, bind_sub_block=True)`: each trip runs on its own vector core."""
    node = loop.node
    return (
        type(node) is cst.For
        and type(node.iter) is cst.Call
        and any(
            arg.keyword is not None
            and arg.keyword.value == "bind_sub_block"
            and type(arg.value) is cst.Name
            and arg.value.value == "True"
            for arg in node.iter.args
        )
    )


def _mark_split(values: list[TileValue]) -> None:
    """In a kernel with tl.dot, the UB values connected to a dot are split between two vector cores,
    unless the kernel gives each core its own trip of a loop (measured: a [64, 128] fp32 slice of a
    [128, 128] accumulator is a 32 KiB buffer on each core)."""
    parent: dict[int, int] = {}

    def find(key: int) -> int:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for value in values:
        if value.ub or value.kind == DOT:
            for operand, role in value.operands:
                for source in sources(operand):
                    if source.ub and role != ADDRESS:
                        parent[find(id(value))] = find(id(source))
    dots = {find(id(v)) for v in values if v.kind == DOT}
    for value in values:
        value.split = value.ub and not value.per_core and find(id(value)) in dots


# ---- reaching definitions over the flow's events ----------------------------------------------


class ReachingDefinitions:
    """Which DEF events reach each event (bit sets); `dead` events neither define nor pass on."""

    def __init__(self, flow: Flow, dead: frozenset[int]) -> None:
        self.defs = [e for e in flow.events if e.kind == DEF and e.index not in dead]
        self.bit = {e.index: 1 << i for i, e in enumerate(self.defs)}
        self.by_name: dict[str, int] = {}
        for event in self.defs:
            name = event.name or ""
            self.by_name[name] = self.by_name.get(name, 0) | self.bit[event.index]
        events = flow.events  # an event's index is its position
        preds = [[previous.index for previous in event.pred] for event in events]
        owns = [self.bit.get(event.index, 0) for event in events]
        kills = [~self.by_name[event.name or ""] if own else 0 for event, own in zip(events, owns, strict=True)]
        out = [0] * len(events)
        self.incoming = [0] * len(events)
        changed = True
        while changed:
            changed = False
            for index, pred in enumerate(preds):
                incoming = 0
                for previous in pred:
                    incoming |= out[previous]
                self.incoming[index] = incoming
                own = owns[index]
                result = (incoming & kills[index]) | own if own else incoming
                if result != out[index]:
                    out[index] = result
                    changed = True

    def at(self, event_index: int, name: str) -> list[Event]:
        """The definitions of `name` reaching the entry of an event."""
        return self.definitions(self.mask(event_index, name))

    def mask(self, event_index: int, name: str) -> int:
        """The bit set of the definitions of `name` reaching the entry of an event."""
        return self.incoming[event_index] & self.by_name.get(name, 0)

    def definitions(self, mask: int) -> list[Event]:
        """The definitions of a bit set, earliest first."""
        found = []
        while mask:  # the set bits, lowest (earliest definition) first
            lowest = mask & -mask
            found.append(self.defs[lowest.bit_length() - 1])
            mask ^= lowest
        return found
