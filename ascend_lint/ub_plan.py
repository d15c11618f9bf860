"""The unified buffer (UB) a kernel needs for one constexpr configuration, from its tile model.

For a configuration (and, optionally, the element bytes of pointer parameters), `peak` folds
the constexpr branches it decides, follows the rest of the control flow, and simulates each
statement with what is live around it:

- **liveness** along the flow's events: a tile holds UB from its definition to its last read
  (loops carry it round), at its largest reaching definition's size; a tile a loop refills by
  a copy at the end of the trip (`a_cur = a_nxt`, a prefetch) holds it from the top of the trip
  to the copy;
- **in place**: an elementwise result or cast takes the buffer of an operand that dies there;
  `tl.where`, `tl.trans`, loads and comparisons get their own (a result takes a buffer only
  if one copy of it is large enough), but a comparison's mask goes into its scalar's splat, or
  into a dying operand's buffer of 32-bit lanes, and a `tl.where` holds 32-byte blocks for its
  operands and a full tile for each data operand it broadcasts; a reduction needs its input's fp32 partials as scratch;
  comparing broadcast integer tiles widens both to full int32 tiles; arithmetic mixing a 16-bit
  float tile with an fp32 one holds an fp32 copy of it; `tl.gather` gets its own buffer and
  an int32 index tile while it runs; transcendental math (`tanh`, `erf`, `sin`, `tl.sigmoid`,
  `1.0 / x`, ...) holds the fp32 temporaries of its expansion (`tiles.MATH_TEMPORARIES`: in
  `bytes` and `planned`, a few more in `planned` only); a float `tl.maximum`/`tl.minimum` lays out
  two and its own result (which dead buffers can hold when space is short: in `planned`, not in
  `bytes`);
- **splats**: a scalar operand of a float comparison or of a float `tl.maximum`/`tl.minimum` is a full
  tile, one per scalar, shape and width, held from the kernel's entry (from its first use for a
  scalar the body computes) to its last use, or to the end of the outermost loop around it;
- **both arms of a runtime branch** get disjoint buffers (their peaks add) while that fits;
  once it does not, the planner overlaps them;
- **multi-buffering**: a load inside a runtime loop is double buffered, and dot results the
  vector cores use in the same loop trip land in a 4-slot ring held for the whole loop
  (arithmetic of a result's shape that is its only use, `tl.dot(q, k) * scale`, and arithmetic
  on that, runs in its slot while one slot holds it); a `tl.static_range` body is laid out once
  per trip.

Two figures come out (measured against bishengir's plans; docs/ub-estimate.md):
`bytes`, what the compiler needs: the largest statement without multi-buffering (which the
planner drops when space runs out); and `planned`, what it plans when everything fits: every
buffer at its own address, as the planner spreads buffers over fresh space while there is room.
`planned` takes a second, multi-buffered simulation (of the statements whose sizes
multi-buffering changes), run when it is first read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from .flow import CONST, DEF, READ, Branch, Event, Loop
from .socs import DEFAULT_SOC
from .specialisations import Lookup, evaluate
from .specialisations import Value as ConstValue
from .tiles import (
    ADDRESS,
    ALIGN,
    CAST,
    COMPARE,
    DOT,
    ELEMENTWISE,
    GATHER,
    IN_PLACE,
    LOAD,
    MASK,
    REDUCE,
    STRIDED_BYTES,
    VIEW,
    WHERE,
    ReachingDefinitions,
    Read,
    Splat,
    Statement,
    TileModel,
    TileValue,
    differs,
    sources,
)

UB_CAPACITY_BYTES = DEFAULT_SOC.ub_bytes  # the default `target-soc`'s (ascend_lint.socs)
LANDING_SLOTS = 4  # bishengir's default workspace multi-buffering
WHERE_OPERAND_BYTES = 32  # measured: a `tl.where` holds 32 B while it runs, 32 B more per scalar data operand


@dataclass
class Contributor:
    """One tile held in UB at the peak."""

    name: str | None  # the variable (or `splat of 1.0`), or None for a temporary of the peak statement
    value: TileValue
    bytes: int


@dataclass
class Peak:
    bytes: int  # what the compiler needs at the peak statement (no multi-buffering)
    layout: int  # every buffer at its own address, as this simulation lays them out
    statement: cst.BaseSmallStatement | None
    contributors: list[Contributor]
    unsized: list[TileValue] = field(default_factory=list)  # sizes this configuration leaves open (one 32-byte block)
    arms_overlapped: bool = False  # runtime-branch arms had to share buffers to fit
    buffered: Callable[[], Peak] | None = field(default=None, repr=False)  # the multi-buffered simulation
    capacity: int = UB_CAPACITY_BYTES  # the UB the simulation planned into

    @cached_property
    def planned(self) -> int:
        """What the compiler plans: every buffer, multi-buffered, at its own address while that
        fits. Simulated on first use (ASC013 reads only `bytes`)."""
        buffered = self.buffered() if self.buffered is not None else self
        if buffered.layout > self.capacity:  # the planner retries, reusing more each time
            return buffered.bytes if buffered.bytes <= self.capacity else self.bytes
        return buffered.layout

    def top(self, count: int = 3) -> list[Contributor]:
        return sorted(self.contributors, key=lambda c: c.bytes, reverse=True)[:count]


def peak(
    model: TileModel,
    values: Mapping[str, ConstValue],
    pointer_bytes: Mapping[str, int] | None = None,
    dense: bool = False,
    capacity: int = UB_CAPACITY_BYTES,
) -> Peak:
    """The UB peak of one configuration: constexpr values, and element bytes of pointer params
    (unstated ones count as 16-bit). `dense` counts strided tiles at their element width (a
    lower bound: whether an address is strided depends on runtime strides). `capacity` is the
    SoC's UB, which decides when the planner makes buffers share addresses. Computed once per
    model, configuration and capacity."""
    pointer_bits = {name: size * 8 for name, size in (pointer_bytes or {}).items()}
    key = (tuple(sorted(values.items(), key=repr)), tuple(sorted(pointer_bits.items())), dense, capacity)
    found = model.peaks.get(key)
    if isinstance(found, Peak):
        return found
    lookup = model.lookup(values)
    paths = _Paths(model, lookup)
    measures = _Measures(model, lookup, pointer_bits, dense)
    unbuffered = _Evaluation(paths, measures, capacity, multi_buffer=False)
    needed = unbuffered.peak()
    needed.buffered = lambda: _Evaluation(paths, measures, capacity, multi_buffer=True, reuse=unbuffered).peak()
    model.peaks[key] = needed
    return needed


def _liveness(model: TileModel, names: dict[str, int], dead: frozenset[int]) -> tuple[list[int], list[int]]:
    """Live-in and live-out bit sets of tile names per event (data reads only)."""
    events = model.flow.events
    live_in, live_out = [0] * len(events), [0] * len(events)
    use, kill = [0] * len(events), [0] * len(events)
    for event in events:
        bit = names.get(event.name or "", 0)
        if event.index in dead or not bit:
            continue
        if event.kind == READ and not event.metadata:
            use[event.index] = bit
        elif event.kind == DEF:
            kill[event.index] = bit
    succs = [[following.index for following in event.succ] for event in events]  # an index is a position
    changed = True
    while changed:
        changed = False
        for i in range(len(events) - 1, -1, -1):
            outgoing = 0
            for following in succs[i]:
                outgoing |= live_in[following]
            incoming = use[i] | (outgoing & ~kill[i])
            if outgoing != live_out[i] or incoming != live_in[i]:
                live_out[i], live_in[i] = outgoing, incoming
                changed = True
    return live_in, live_out


def _hold_copied_carries(
    model: TileModel, names: dict[str, int], dead: frozenset[int], live_in: list[int], live_out: list[int]
) -> None:
    """A tile carried round a runtime loop and handed its next value by a copy at the end of the
    trip (`a_cur = a_nxt`, a prefetch): the loop's iteration argument keeps its own buffer from
    the top of the trip to the copy, after its last read too (measured: the planner holds the
    `a_cur` buffer for the whole loop and copies `a_nxt` into it at the trip's end)."""
    events = model.flow.events
    for statement in model.statements:
        node = statement.node
        start = statement.span.start
        if start in dead or not isinstance(node, cst.Assign) or not isinstance(node.value, cst.Name):
            continue
        loops = [loop for loop in events[start].loops if loop.kind != "static_range"]
        if not loops:
            continue
        loop = loops[-1]
        for target in node.targets:
            name = target.target.value if isinstance(target.target, cst.Name) else None
            bit = names.get(name or "", 0)
            if not bit or statement.defines.get(name or "") is None or not live_in[loop.header.index] & bit:
                continue
            for index in loop.body:
                if index >= start:
                    break
                if index not in dead:
                    live_in[index] |= bit
                    live_out[index] |= bit


Held = dict[object, Contributor]  # name or value (or (value, "widened")) -> what it holds
StatementPeak = tuple[int, list[Contributor]]  # (bytes, what is held then)


class _Liveness:
    """Liveness and reaching definitions of the tile names when the arms `dead` are not
    compiled: shared by every configuration that folds the same arms."""

    def __init__(self, model: TileModel, dead: frozenset[int]) -> None:
        self.model = model
        # the names that ever hold a tile (bit i: ordered[i]); scalars and pointers hold no UB
        self.ordered = sorted(
            {name for s in model.statements for name, value in s.defines.items() if value is not None}
        )
        self.names = {name: 1 << i for i, name in enumerate(self.ordered)}
        self.named = {id(v): name for s in model.statements for name, v in s.defines.items() if v is not None}
        self.live_in, self.live_out = _liveness(model, self.names, dead)
        _hold_copied_carries(model, self.names, dead, self.live_in, self.live_out)
        self.reaching = ReachingDefinitions(model.flow, dead) if dead else model.reaching
        self.entries: dict[int, list[tuple[str, int]]] = {}  # statement index -> its live names
        self.tiles: dict[int, tuple[TileValue, ...]] = {}  # definitions bit set -> their tiles

    def entry(self, index: int) -> list[tuple[str, int]]:
        """The names live into a statement (in name order), each with the bit set of its
        definitions reaching the statement's first read of it (or its start)."""
        found = self.entries.get(index)
        if found is None:
            statement = self.model.statements[index]
            first_reads: dict[str, int] = {}
            for read in statement.reads:
                first_reads.setdefault(read.name, read.event.index)
            found = self.entries[index] = []
            live = self.live_in[statement.span.start]
            while live:  # the live names, lowest bit (first in name order) first
                lowest = live & -live
                live ^= lowest
                name = self.ordered[lowest.bit_length() - 1]
                found.append((name, self.reaching.mask(first_reads.get(name, statement.span.start), name)))
        return found

    def carried(self, definitions: int) -> tuple[TileValue, ...]:
        """The tiles that values these definitions compute element by element read from."""
        return tuple(tile for value in self.tiles_of(definitions) for tile in value.carries)

    def tiles_of(self, definitions: int) -> tuple[TileValue, ...]:
        """The tiles a bit set of definitions assigns, earliest first."""
        found = self.tiles.get(definitions)
        if found is None:
            values = (self.model.defs.get(d.index) for d in self.reaching.definitions(definitions))
            found = self.tiles[definitions] = tuple(v for v in values if isinstance(v, TileValue))
        return found


class _Paths:
    """What a configuration makes of the kernel's control flow, whatever the buffer sizes: the
    arms it never compiles, the branches left to run time, liveness, reaching definitions."""

    def __init__(self, model: TileModel, lookup: Lookup) -> None:
        self.model = model
        self.flow = model.flow
        self.lookup = lookup
        self.dead, self.runtime_branches = self.fold_branches()
        liveness = model.liveness.get(self.dead)
        if not isinstance(liveness, _Liveness):
            liveness = model.liveness[self.dead] = _Liveness(model, self.dead)
        self.liveness = liveness

    # ---- constexpr branches ------------------------------------------------------------
    def fold_branches(self) -> tuple[frozenset[int], list[Branch]]:
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

    def propagated(self, point: Event, dead: set[int], depth: int = 0) -> Lookup:
        """A configuration value, or the one constant every live definition reaching `point`
        assigns (`if MODE == 0: t = False` ... `if t:` folds in mode 0)."""

        def find(name: str) -> ConstValue | None:
            value = self.lookup(name)
            if value is not None or depth > 4:
                return value
            found = {
                evaluate(d.value, self.propagated(d, dead, depth + 1), self.model.kernel.imports)
                for d in self.model.reaching_defs(point, name)
                if d.index not in dead and d.value is not None
            }
            return found.pop() if len(found) == 1 else None

        return find


class _Measures:
    """Sizes in one configuration, with or without multi-buffering: elements, bytes, scratch
    and copies of each value, each computed once."""

    def __init__(self, model: TileModel, lookup: Lookup, pointer_bits: Mapping[str, int], dense: bool) -> None:
        self.lookup = lookup
        self.pointer_bits = pointer_bits
        self.dense = dense
        self.dims: dict[int, ConstValue | None] = {}  # id(dimension expression) -> its value
        self.counts: dict[TileValue, int | None] = {}
        self.sizes: dict[tuple[TileValue, bool], int] = {}
        self.scratches: dict[TileValue, int] = {}
        self.trips: dict[int, int] = {}
        self.streamed: dict[TileValue, None] = {}  # in program order: an operand before its users
        self.model = model
        self.splat_users: Counter[tuple[str, str]] | None = None  # (scalar, shape) -> the operations splatting it
        for value in model.values:
            if self.lands(value):
                self.streamed[value] = None

    def lands(self, value: TileValue) -> bool:
        """A dot result landed for the vector cores (`_streamed`), or arithmetic of its shape that is
        the only use of one landed before it and that one copy of its slot holds (`tl.dot(q, k) *
        scale`, and `* RCP_LN2` on that): computed in the slot, as an elementwise result takes a
        dying operand's buffer when it is large enough (a product laid out a 32-byte block per
        element does not fit a dense landing, and takes its own buffer)."""
        if value.kind == DOT:
            return _streamed(value)
        return any(
            operand in self.streamed and self.bytes(value, False) <= self.bytes(operand, False)
            for operand, _ in value.operands
            if _landed_in_place(operand, value)
        ) and _streamed(value)

    def dim(self, node: cst.BaseExpression) -> ConstValue | None:
        """A dimension's value (tiles share their dimensions' expressions)."""
        key = id(node)
        if key not in self.dims:
            self.dims[key] = evaluate(node, self.lookup)
        return self.dims[key]

    def elements(self, value: TileValue) -> int | None:
        if value not in self.counts:
            self.counts[value] = value.elements(self.lookup, self.dim)
        return self.counts[value]

    def bytes(self, value: TileValue, multi_buffer: bool) -> int:
        size = self.sizes.get((value, multi_buffer))
        if size is None:
            size = self.sizes[value, multi_buffer] = value.bytes(
                self.lookup, self.pointer_bits, multi_buffer, self.dense, self.dim
            )
        return size

    def copies(self, value: TileValue) -> int:
        """How many times the value's buffer is laid out: once per trip of unrolled loops."""
        count = 1
        for loop in value.unrolled:
            if id(loop) not in self.trips:
                self.trips[id(loop)] = _static_trips(loop, self.lookup)
            count *= self.trips[id(loop)]
        return count

    def scratch(self, op: TileValue) -> int:
        """Temporary UB an operation needs besides its result."""
        found = self.scratches.get(op)
        if found is None:
            found = self.scratches[op] = self._scratch(op)
        return found

    def _scratch(self, op: TileValue) -> int:
        halve = 2 if op.split else 1
        if not op.ub:
            return 0
        if op.kind == REDUCE:  # fp32 partials (and an fp32 copy of a 16-bit input)
            inputs = sources(op.operands[0][0])
            count = max((self.elements(v) or 0 for v in inputs), default=0)
            if any(v.spread(self.lookup, self.dense) for v in inputs):
                return count * STRIDED_BYTES // halve
            scratch = count * 4 if op.across_rows else count * 2
            if max(v.width.resolve(self.pointer_bits) for v in inputs) == 16 and not inputs[0].width.integer:
                scratch += count * 4
            return scratch // halve
        if op.kind == LOAD and op.gathers:  # gathered in 32-byte blocks, then compacted for the cube core
            return op.gather_scratch(self.lookup, self.dim) if self.bytes(op, multi_buffer=False) else 0
        if op.selected:  # the gathered elements, until the mask has selected them into the result
            return self.bytes(op, multi_buffer=False)
        count = self.elements(op) or 0
        if op.kind == COMPARE:  # broadcast integer operands are widened to full int32 tiles
            widened = sum(
                1
                for operand, _ in op.operands
                if operand.width.integer and operand.width is not MASK and differs(operand.shape, op.shape)
            )
            return widened * count * 4 // halve
        if op.kind == WHERE:
            return self.where_scratch(op, count * 2 // halve)
        if op.kind == GATHER:  # an int32 tile of the index's shape while it runs
            return count * 4 // halve
        if op.kind == CAST:
            return self.int8_scratch(op, count) // halve
        temporaries = _temporaries(op)  # transcendental math's fp32 temporaries (tiles.MATH_TEMPORARIES)
        scratch = temporaries * count * 4
        if temporaries and self.narrow(op):  # measured: `tl.erf(x)` of a bf16 tile needs what `tl.erf(x.to(fp32))`
            scratch -= count * 2  # does: the 16-bit buffer is free once converted, and the model holds it
        if op.kind == ELEMENTWISE and self.widens(op):  # `bf16 tile + fp32 tile`: an fp32 copy of the first
            scratch += count * 4
        return scratch // halve

    def where_scratch(self, op: TileValue, widened: int) -> int:
        """A `tl.where`'s: a 32-byte block for its operands and one per scalar, a broadcast mask
        widened (`widened` bytes), and each data operand broadcast to its shape made a full tile
        of its width, unless the mask compares broadcast integer tiles, whose widened copies the
        select reads (measured: `tl.where(x > z, r[:, None], c[None, :])` holds both full int32
        tiles, `tl.where(r[:, None] >= c[None, :], r[:, None], c[None, :])` none more)."""
        split = len(op.operands) - (2 - op.scalar_data)  # 1 when the condition is a tile
        conditions, data = op.operands[:split], op.operands[split:]
        scratch = WHERE_OPERAND_BYTES * (1 + op.scalar_data)
        if any(differs(condition.shape, op.shape) for condition, _ in conditions):
            scratch += widened
        if not any(v.kind == COMPARE and self.scratch(v) for condition, _ in conditions for v in sources(condition)):
            full = self.bytes(op, multi_buffer=False)
            scratch += full * sum(1 for operand, _ in data if differs(operand.shape, op.shape))
        return scratch

    def in_splat(self, compare: TileValue) -> bool:
        """A comparison with a scalar writes its mask into the scalar's splat when nothing else
        uses that splat (measured: `tl.where(x > 1.0, x, z)` plans no mask buffer; followed by
        `tl.maximum(y, 1.0)`, a packed one, the splat kept for the maximum)."""
        if not compare.splats or self.scratch(compare):
            return False
        if self.splat_users is None:
            self.splat_users = Counter(
                (splat.scalar, value.shape_text()) for value in self.model.values for splat in value.splats
            )
        return all(self.splat_users[splat.scalar, compare.shape_text()] == 1 for splat in compare.splats)

    def int8_scratch(self, op: TileValue, count: int) -> int:
        """A float tile cast to int8 converts through int32 (measured, `requires N bits`): two
        int32 per element while the cast runs, and the int8 result beside a 32-bit source
        (`x.to(tl.int8)` of a [16384] fp32 tile: 212992 B, the tile and 147456 B) or an fp32 copy
        of a 16-bit one (fp16: 229376 B, the tile and 196608 B); a 2-D tile of fewer than 32
        rows is padded to 32 of them, through an int32 copy as padded (a [16, 512] fp32 tile:
        229376 B, the tile and 196608 B)."""
        source = op.operands[0][0] if op.operands else None
        if source is None or source.width.integer or not op.width.integer or op.width.resolve(self.pointer_bits) != 8:
            return 0
        rows = self.dim(op.shape[-2]) if len(op.shape) >= 2 else None
        if isinstance(rows, int) and not isinstance(rows, bool) and 0 < rows < 32:
            return count * 32 // rows * 12
        return count * (9 if source.width.resolve(self.pointer_bits) == 32 else 12)

    def splat(self, op: TileValue, splat: Splat) -> int:
        """The bytes of a scalar splatted to the operation's shape."""
        size = (self.elements(op) or 0) * splat.width.resolve(self.pointer_bits) // 8 // (2 if op.split else 1)
        return -(-size // ALIGN) * ALIGN

    def narrow(self, op: TileValue) -> bool:
        """A full-size 16-bit float operand, computed on in fp32."""
        return any(
            operand.width.resolve(self.pointer_bits) == 16 and not differs(operand.shape, op.shape)
            for operand, _ in op.operands
            if not operand.width.integer
        )

    def widens(self, op: TileValue) -> bool:
        """Arithmetic mixing a full-size 16-bit float tile with a 32-bit float one."""
        widths = [
            (operand.width.resolve(self.pointer_bits), differs(operand.shape, op.shape))
            for operand, _ in op.operands
            if not operand.width.integer
        ]
        return any(bits == 16 and not broadcast for bits, broadcast in widths) and any(bits == 32 for bits, _ in widths)


class _Evaluation:
    """One simulation of the kernel's statements, with or without multi-buffering; `reuse`, a
    simulation of the same configuration whose statement results hold where no size differs."""

    def __init__(
        self,
        paths: _Paths,
        measures: _Measures,
        capacity: int,
        multi_buffer: bool,
        reuse: _Evaluation | None = None,
    ) -> None:
        self.model = paths.model
        self.capacity = capacity
        self.liveness = paths.liveness
        self.measures = measures
        self.dead, self.runtime_branches = paths.dead, paths.runtime_branches
        self.names = paths.liveness.names
        self.live_in, self.live_out = paths.liveness.live_in, paths.liveness.live_out
        self.multi_buffer = multi_buffer
        self.reuse = reuse
        self.unsized: list[TileValue] = []
        self.layout = 0  # every buffer at its own address (in-place results share)
        self.layouts: dict[int, int] = {}  # statement index -> its buffers in the layout
        self.statement_peaks: dict[int, StatementPeak] = {}
        self.sizes: dict[TileValue, int] = {}  # bytes per value (the first request notes it if unsized)
        self.held: dict[int, tuple[int, TileValue | None]] = {}  # reaching definitions -> largest
        self.holdings: dict[tuple[str, int], Contributor | None] = {}  # (name, reaching definitions) -> held

    # ---- sizes -----------------------------------------------------------------------------
    def size(self, value: TileValue, streamed: bool = False) -> int:
        bytes_ = self.sizes.get(value)
        if bytes_ is None:
            if value.ub and self.measures.elements(value) is None:
                self.unsized.append(value)
            in_splat = value.kind == COMPARE and self.measures.in_splat(value)
            bytes_ = self.sizes[value] = 0 if in_splat else self.measures.bytes(value, self.multi_buffer)
        if value in self.measures.streamed and not streamed:
            return 0  # held for the whole loop: counted by `add_landing_rings`
        return bytes_

    def held_by(self, definitions: int) -> tuple[int, TileValue | None]:
        """Bytes a name holds where these of its definitions reach: the largest one's."""
        found = self.held.get(definitions)
        if found is None:
            best, best_value = 0, None
            for value in self.liveness.tiles_of(definitions):
                if _streamed_to_cube(value):  # copied out to the cube core as soon as it is made
                    continue
                if best_value is None or self.size(value) > best:
                    best, best_value = self.size(value), value
            found = self.held[definitions] = best, best_value
        return found

    def holding(self, name: str, definitions: int) -> Contributor | None:
        """What a live name holds in UB where these of its definitions reach (None: nothing);
        one record shared by the statements it is live across."""
        key = (name, definitions)
        if key not in self.holdings:
            size, value = self.held_by(definitions)
            self.holdings[key] = Contributor(name, value, size) if value is not None and size else None
        return self.holdings[key]

    def fits_in(self, size: int, donor: Contributor) -> bool:
        """Whether a result of `size` bytes can take the donor's buffer: one copy of it (the
        second copy of a double-buffered load belongs to the next loop trip)."""
        one_copy = self.measures.bytes(donor.value, multi_buffer=False)
        return min(donor.bytes, one_copy or donor.bytes) >= size

    # ---- one statement ---------------------------------------------------------------------
    def statement_peak(self, index: int, statement: Statement) -> StatementPeak:
        """The most UB held while the statement runs, and what is held then (taken from `reuse`
        when multi-buffering changes no size the statement holds or computes)."""
        found = self.statement_peaks.get(index)
        if found is None and self.reuse is not None and not self.grows(index, statement, self.reuse):
            found, self.layouts[index] = self.reuse.statement_peak(index, statement), self.reuse.layouts[index]
        if found is None:
            found = self.simulate(index, statement)
        self.statement_peaks[index] = found
        return found

    def grows(self, index: int, statement: Statement, other: _Evaluation) -> bool:
        """Whether a size the statement holds or computes differs from the other simulation's."""
        return any(self.size(op) != other.size(op) for op in statement.ops) or any(
            self.held_by(definitions) != other.held_by(definitions) for _, definitions in self.liveness.entry(index)
        )

    def simulate(self, index: int, statement: Statement) -> StatementPeak:
        measures = self.measures
        exit_ = self.live_out[statement.span.stop - 1]
        last_use: dict[str, TileValue] = {}  # the operation that reads each name last
        for op in statement.ops:
            for operand, _ in op.operands:
                if isinstance(operand, Read):
                    last_use[operand.name] = op
        held: Held = {}
        entry = self.liveness.entry(index)
        for name, definitions in entry:
            holding = self.holding(name, definitions)
            if holding is not None:
                held[name] = holding
        holding_values = {id(c.value) for c in held.values()}
        for name, definitions in entry:  # a name computed element by element holds the tiles it reads
            for tile in self.liveness.carried(definitions):
                size = self.size(tile)
                if size and id(tile) not in holding_values:
                    holding_values.add(id(tile))
                    held[tile] = Contributor(self.liveness.named.get(id(tile), name), tile, size)
        total = sum(c.bytes for c in held.values())
        best, snapshot = total, list(held.values())
        results = {id(v): name for name, v in statement.defines.items() if v is not None}
        layout = 0
        for op in statement.ops:
            size, extra, copies = self.size(op), measures.scratch(op), measures.copies(op)
            dying = self.dying_operands(op, statement, last_use, exit_)
            donor = None
            if (op.kind in IN_PLACE and not (op.kind == CAST and (op.blocked or op.transposed))) or op.kind == VIEW:
                donor = next((key for key in dying if key in held and self.fits_in(size, held[key])), None)
            elif op.kind == COMPARE and size and not extra:  # the mask, in 32-bit lanes, in a dying operand's buffer
                lanes = (measures.elements(op) or 0) * 4 // (2 if op.split else 1)
                donor = next((key for key in dying if key in held and self.fits_in(lanes, held[key])), None)
            # the temporaries an operation expands into take fresh space while there is room and
            # a dead buffer when there is not: counted in the plan, not in what is needed
            layout += (extra + op.expanded * (measures.elements(op) or 0) * 4 // (2 if op.split else 1)) * copies
            if op.transposed and op.kind != CAST:  # the column-major block's transposed copy
                layout += size * copies
            if op.kind == COMPARE and extra:  # the widened operands stay until the mask is used
                held[(op, "widened")] = Contributor(None, op, extra)
                total, extra = total + extra, 0
            if donor is not None:
                held[op] = Contributor(results.get(id(op)), op, held.pop(donor).bytes)
                dying.remove(donor)
            elif op.kind != VIEW and size:
                held[op] = Contributor(results.get(id(op)), op, size)
                total += size
                layout += size * copies
            if total + extra > best:
                best, snapshot = total + extra, list(held.values())
            if _streamed_to_cube(op):
                dying.append(op)
            for key in dying:
                for part in (key, (key, "widened")):
                    freed = held.pop(part, None)
                    total -= freed.bytes if freed is not None else 0
        self.layouts[index] = layout
        return best, snapshot

    def dying_operands(
        self, op: TileValue, statement: Statement, last_use: dict[str, TileValue], exit_: int
    ) -> list[object]:
        """The operands whose buffers are free after `op`: temporaries, and names read for the
        last time (not live after the statement, or redefined by it)."""
        dying: list[object] = []
        for operand, _ in op.operands:
            if isinstance(operand, TileValue):
                if len(operand.users) == 1:
                    dying.append(operand)
            elif (
                last_use.get(operand.name) is op
                and operand.name not in dying
                and (not exit_ & self.names.get(operand.name, 0) or operand.name in statement.defines)
            ):
                dying.append(operand.name)
        return dying

    # ---- the kernel ------------------------------------------------------------------------
    def peak(self) -> Peak:
        per_statement = {
            index: self.statement_peak(index, statement)
            for index, statement in enumerate(self.model.statements)
            if statement.span.start not in self.dead
        }
        if not per_statement:
            return Peak(0, 0, None, [], self.unsized, capacity=self.capacity)
        self.layout = sum(self.layouts.values())
        self.add_landing_rings(per_statement)
        extra = self.other_arms(per_statement)
        self.add_splats(per_statement)  # after the arms: a splat held across a branch is in neither arm's own peak
        best = max(per_statement, key=lambda i: per_statement[i][0])
        alone = per_statement[best][0]
        summed = max(per_statement, key=lambda i: per_statement[i][0] + extra.get(i, 0))
        together = per_statement[summed][0] + extra.get(summed, 0)
        overlapped = together > self.capacity and together > alone
        chosen, total = (best, alone) if overlapped or together <= alone else (summed, together)
        return Peak(
            total,
            self.layout,
            self.model.statements[chosen].node,
            per_statement[chosen][1],
            self.unsized,
            overlapped,
            capacity=self.capacity,
        )

    def add_landing_rings(self, per_statement: dict[int, StatementPeak]) -> None:
        """Dot results streamed to the vector cores inside a loop land in a ring of slots (sized
        for the largest) that the planner holds for the whole loop."""
        rings: dict[int, tuple[Loop, TileValue, int]] = {}
        for value in self.measures.streamed:
            size = self.size(value, streamed=True)
            if value.loop is not None and size > rings.get(id(value.loop), (value.loop, value, 0))[2]:
                rings[id(value.loop)] = (value.loop, value, size)
        for loop, value, size in rings.values():
            size *= LANDING_SLOTS if self.multi_buffer else 1
            self.layout += size
            for index, (bytes_, contributors) in per_statement.items():
                if self.model.statements[index].span.start in loop.body:
                    per_statement[index] = (bytes_ + size, [*contributors, Contributor(None, value, size)])

    def add_splats(self, per_statement: dict[int, StatementPeak]) -> None:
        """Scalars splatted into full tiles, held from the kernel's entry (from the first use
        when the body computes the scalar) to the last use, or to the end of the outermost loop
        around either: the compiler hoists them out of loops (measured)."""
        spans: dict[tuple[str, str, int], tuple[int, int, TileValue]] = {}
        loop_spans: dict[int, tuple[int, int]] | None = None
        for index in per_statement:
            for op in self.model.statements[index].ops:
                for splat in op.splats if op.ub else ():
                    if loop_spans is None:
                        loop_spans = self.outermost_loop_spans()
                    size = self.measures.splat(op, splat)
                    if not size:  # a size this configuration leaves open
                        continue
                    first, last = loop_spans.get(index, (index, index))
                    key = (splat.scalar, op.shape_text(), size)
                    start, end, _ = spans.get(key, (0 if splat.hoisted else first, last, op))
                    spans[key] = (min(start, first), max(end, last), op)
        for (scalar, _, size), (start, end, op) in spans.items():
            self.layout += size
            for index, (bytes_, contributors) in per_statement.items():
                if start <= index <= end:
                    per_statement[index] = (bytes_ + size, [*contributors, Contributor(f"splat of {scalar}", op, size)])

    def outermost_loop_spans(self) -> dict[int, tuple[int, int]]:
        """For each statement inside a runtime loop, the first and last statement of the
        outermost one."""
        statements = self.model.statements
        outermost: dict[int, Loop] = {}
        for index, statement in enumerate(statements):
            loops = [loop for loop in self.model.flow.events[statement.span.start].loops if loop.kind != "static_range"]
            if loops:
                outermost[index] = loops[0]
        bounds: dict[int, tuple[int, int]] = {}
        for index, loop in outermost.items():
            first, last = bounds.get(id(loop), (index, index))
            bounds[id(loop)] = (min(first, index), max(last, index))
        return {index: bounds[id(loop)] for index, loop in outermost.items()}

    def other_arms(self, per_statement: dict[int, StatementPeak]) -> dict[int, int]:
        """For a statement inside a runtime branch: the other arm's own peak, which the planner
        keeps in separate buffers."""
        extra: dict[int, int] = {}
        starts = {self.model.statements[i].span.start: i for i in per_statement}
        for branch in self.runtime_branches:
            outer = self.live_in[branch.point.index]
            arms = []
            for span in (branch.body, branch.orelse):
                inside = [i for start, i in starts.items() if start in span]
                own = 0
                for i in inside:
                    bytes_, contributors = per_statement[i]
                    around = sum(c.bytes for c in contributors if c.name and outer & self.names.get(c.name, 0))
                    own = max(own, bytes_ - around)
                arms.append((inside, own))
            for side, (inside, _) in enumerate(arms):
                for i in inside:
                    extra[i] = extra.get(i, 0) + arms[1 - side][1]
        return extra


def _streamed_to_cube(value: TileValue) -> bool:
    """A cast of a dot operand the vector cores make: copied out to the cube core as soon as it
    is made (measured: two such casts of a [128, 512] and a [512, 64] fp16 tile fit in 192 KiB,
    the planner holding only one cast's source and result at a time)."""
    return value.conversions[:1] == (value,)


def _temporaries(op: TileValue) -> int:
    """The fp32 temporaries an operation needs while it runs: its math expansion's
    (`tiles.MATH_TEMPORARIES`), none for a reciprocal that a tile multiplies (measured:
    `x * tl.sigmoid(x)` needs 2 tiles of x's shape, as `x / (1 + tl.exp(-x))`; `tl.sigmoid(x)`
    alone needs 2 as well, its result in x's buffer and the splatted 1 in the other), nor for one
    whose users a discrete access computes element by element (the division goes with them)."""
    if op.reciprocal and op.users and all(_multiplied(user, op) or _by_element(user) for user, _ in op.users):
        return 0
    return op.temporaries


def _by_element(user: TileValue | None) -> bool:
    return user is not None and not user.ub and user.kind in (ELEMENTWISE, CAST)


def _multiplied(user: TileValue | None, op: TileValue) -> bool:
    """`user` multiplies `op` by another tile (`x * s`, `s * x`, `x *= s`) that takes the division.
    Of two reciprocals multiplied, only the right one folds (measured: `tl.sigmoid(x) *
    tl.sigmoid(y)` needs 3 tiles of their shape, one splatted 1)."""
    node = user.node if user is not None else None
    if isinstance(node, cst.BinaryOperation):
        operator: cst.CSTNode = node.operator
    elif isinstance(node, cst.AugAssign):
        operator = node.operator
    else:
        return False
    if user is None or type(operator) not in (cst.Multiply, cst.MultiplyAssign) or len(user.operands) != 2:
        return False
    (left, _), (right, _) = user.operands
    if op in sources(right):
        return True
    return op in sources(left) and not any(value.reciprocal for value in sources(right))


def _static_trips(loop: Loop, lookup: Lookup) -> int:
    """The trip count of `for i in tl.static_range(...)` (1 when not a constant)."""
    call = loop.node.iter if isinstance(loop.node, cst.For) else None
    if not isinstance(call, cst.Call):
        return 1
    bounds = [evaluate(a.value, lookup) for a in call.args if a.keyword is None]
    if not bounds or not all(isinstance(b, int) for b in bounds):
        return 1
    start, stop, step = (
        (0, bounds[0], 1) if len(bounds) == 1 else (bounds[0], bounds[1], bounds[2] if len(bounds) > 2 else 1)
    )
    return max(1, len(range(int(start or 0), int(stop or 0), int(step or 1))))


def _streamed(value: TileValue) -> bool:
    """A dot result, or arithmetic, the vector cores use only in the runtime loop trip that made
    it: one that lands in the loop's ring when it is a dot result or computed in one's slot
    (`_Measures.lands`; measured: a causal flash-attention step plans alike with the scale and
    without it)."""
    if not value.ub or value.loop is None or value.kind not in (DOT, ELEMENTWISE):
        return False
    users = [u for u, role in value.users if u is not None and role != ADDRESS and u.ub]
    return bool(users) and all(u.loop is value.loop for u in users)


def _landed_in_place(operand: object, op: TileValue) -> bool:
    """`operand`, a tile of `op`'s shape, has `op` for its only use."""
    return isinstance(operand, TileValue) and len(operand.users) == 1 and not differs(operand.shape, op.shape)
