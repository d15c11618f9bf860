"""
## What it does
Flags a unified-buffer (UB) capacity written as a number: a name whose parts include `ub` or
`ubuf`, or spell out `unified_buffer` (`UB_SIZE`, `UNIFIED_BUFFER_SIZE`), assigned integer
literal arithmetic of at least 16 KiB (`196608`, `192 * 1024`), in host or kernel code, a
class attribute, a default, a per-SoC table (`_SOC_UB = {"Ascend910B": 196608}`) or choice
(`253952 if IS_950 else 196608`), a keyword argument or dict key so named (`ub_bytes=196608`),
or the return of a function so named.

Not flagged: a device query's fallback (`get_soc_spec("UB_SIZE") or 196608`, a default a
later query replaces), names for a fallback, an alignment, a piece of the buffer (`UB_TILE`)
or a floor on it, `ub` as an upper bound (`lb, ub`, `SEQ_UB`), smaller values. Part of the
`perf` group.

## Why is this bad?
Tiles sized from a fixed 192 KiB are right for one chip only: the capacity is a property of
the SoC (192 KiB = 1572864 bits on Ascend910B, the figure the compiler's `ub overflow, requires
... bits while 1572864 bits available!` reports there; 248 KiB = 2031616 bits on the Ascend
950), and a kernel tuned against a literal
either overflows UB (a compile error, one configuration at a time) or leaves buffer unused on
another part. This is advice: nothing fails on the chip the number was written for, and the
compiler has no evidence to give about a host constant.

## Example
```python
_UB_BYTES = 196608
BT = min(64, _UB_BYTES // (BK * 4 * 3))
```

## Use instead
```python
from tbe.common.platform import get_soc_spec

ub_bytes = get_soc_spec("UB_SIZE")  # CANN's query, in bytes
```
or the package's UB manager (fla-core `fla.utils.ascend_ub_manager`, liger-kernel
`liger_kernel.ops.backends._ascend.ub_manager`), which ask the same query and honour
`ASCEND_UB_CAPACITY_BITS`. triton-ascend's `get_device_properties` reports core counts, not
the UB size.

## Fix safety
No automatic fix: where the query lives (and its fallback) is the project's choice; leaving
the finding unfixed is safe on the chip the number was measured on.

## Details
### Names, values and places recognised
Flags a unified-buffer (UB) capacity written as a number: a name whose parts include `ub`
or `ubuf`, or spell out `unified_buffer` (`UB_SIZE`, `_UB_BYTES`, `ASCEND_UB_CAPACITY_BITS`,
`UBUF_SIZE`, `UNIFIED_BUFFER_SIZE`; a size word fused to it, `UBSIZE`, `ubbytes`, counts as
two parts), assigned integer literal arithmetic of at least 16 KiB, a whole number of 32-byte
UB blocks (`196608`, `192 * 1024`, the compiler's bits in bytes `1572864 // 8`; also over a
module constant of one KiB, `KiB = 1024` then `192 * KiB`, and with whole float literals,
`192.0 * 1024`; a `_KB` / `_KIB` name counts in KiB, a `_BITS` one in bits, and a
name without a unit holding a capacity the compiler reports in bits, `1572864`, in bits; a
count of elements, `UB_ELEMS_FP16 = 98304` or `max_ub_elems_fp32()` returning `196608 // 4`,
in the size of the dtype the name gives, and without one a literal division's dividend in
bytes), in host or kernel code (also a class attribute: `UB_SIZE = 196608` in a class body, a
dataclass field's default, `self.ub_size = ...`) or as a parameter's default (`def pick(n,
ub_bytes=192 * 1024)`),
also when the value divides it into units (`ub_size = 85 * 1024 // x.element_size()`) or
scales it by a safety margin (`int(192 * 1024 * 0.8)`), and when a module constant wraps it
for kernels to read (`_UB_BYTES = tl.constexpr(192 * 1024)`); a number scaled into one in
place by the statement right after it in the same block (`ub_bytes = 192` then `ub_bytes *=
1024`, or `ub_size = 3` then `ub_size <<= 16`, reported at the `*=` / `<<=`). Not another
augmented assignment: a sum is usage (`ub_bytes = 0` then `ub_bytes += 32 * 1024`), a scaling
in a loop grows a request (`while ub_bytes < need: ub_bytes *= 2`), and a capacity halved in
place (`ub_size //= 2`) is reported once, where it is written.

### Tables, choices, keywords, fields, environment variables and functions
- a table under such a name, each value (the finding names its key): `_SOC_UB =
  {"Ascend910B": 196608, "Ascend950": 253952}`, `UB_CAPACITY = {"910b": 192 * 1024}`,
  `dict(ascend910b=196608)`; a value whose key says it is a piece of the buffer (`{"tile":
  65536}`) is not;
- a per-SoC choice: each number a conditional expression chooses between (`UB_SIZE = 253952 if
  IS_950 else 196608`, `return 253952 if soc.startswith("Ascend950") else 196608` in a function
  named like a capacity), reported at the number, as the same values assigned in an `if` /
  `else` are; only when every arm is a number: `get_soc_spec("UB_SIZE") if HAS_TBE else
  196608` chooses the number as the query's fallback, as after an `or`;
- a keyword argument or a dict literal's string key named like a capacity, in host code,
  whatever the callee or the dict is called (`plan(d, ub_bytes=196608)`, a launch's
  `UB_SIZE=196608`, `HW = {"ub_size": 196608, "num_cores": 24}`): the number reaches the
  code that sizes tiles as surely as a parameter's default does; a key naming a piece or a
  fallback (`{"ub_tile": 65536}`, `default_ub=...`) is not one;
- a dataclass field's default given by `field` (`ub_bits: int = field(default=1572864)`,
  `field(default_factory=lambda: 196608)`; also attrs' `attr.ib` / `attrs.field` and
  pydantic's `Field`);
- the default of an environment variable (`int(os.environ.get("ASCEND_UB_BYTES", 196608))`,
  `os.getenv("ASCEND_UB_CAPACITY_BITS", "1572864")`, a string of digits too; also divided or
  scaled by a literal, reported at the default with the value the arithmetic makes of it:
  `int(os.getenv("ASCEND_UB_CAPACITY_BITS", "1572864")) // 8` is 192 KiB), also given
  after an `or` when each read before it is false wherever its variable is unset: no default,
  or `None`, `""`, `0` (`int(os.getenv("ASCEND_UB_BYTES") or 196608)`), or read as an `int`
  with a default of zero (`int(os.getenv("X", "0")) or 196608`, `int(os.environ.get("X", 0))
  or 196608`): an override is not a device query, the number is the capacity wherever the
  variable is unset;
- a cap: a number `min(...)` bounds the value with (`min(196608, int(os.environ["ASCEND_UB"]))`,
  `ub_bytes = min(192 * 1024, n * d * 4)`, also a query capped, `min(196608,
  get_soc_spec("UB_SIZE"))`, and `if ub > 196608: ub = 196608`): the value is never more than
  that number, on any SoC; a floor (`max(196608, d)`) is not a capacity;
- what a function named like a capacity returns (`def get_ub_size(): return 196608`, a stub
  that never asks the device, also a lambda bound to a name, `get_ub_size = lambda: 196608`, the
  `def` it stands for, or written in a class body, stored as an attribute or given as a
  parameter's default, `self.ub_capacity = lambda: 196608`), when every return of it is a number: one that also returns
  what it queried (`try: return get_soc_spec("UB_SIZE")` / `except ...: return 196608`)
  returns the number as a fallback.

### Not flagged
Names that say they are a fallback
or a default (`_FALLBACK_UB_CAPACITY_BITS`, used when the query fails), an alignment, a
piece of the buffer (`UB_BLOCK_SIZE`, `UB_TILE`, `UB_CHUNK`, a table `UB_TILES`: a tile size;
`UB_HALF`, `UB_PER_BUFFER`, `ub_per_stage`, `UB_BYTES_PER_Q_ELEMENT`, `UB_SIZE_PER_BLOCK`:
what each of something takes, a block being a tile in Triton; but after `per` a part naming a
core, a device, a chip, a SoC, an NPU, a card, a program or a vector unit names each one's
whole buffer: `UB_BYTES_PER_CORE`, `UB_BYTES_PER_AI_CORE`, `UB_SIZE_PER_VECTORCORE`,
`UB_SIZE_PER_CUBE_CORE`), a share of it kept back (`UB_RESERVED_BYTES`, `ub_reserve`,
`UB_OVERHEAD`, `UB_MARGIN`, `UB_PADDING`, `UB_SCRATCH`, an offset `UB_Q_OFFSET`), a floor on it
(`UB_SIZE_MIN`, vllm-ascend's `_MIN_UB_SIZE_BYTES`)
or what a kernel needs of it (`UB_USAGE_PER_KERNEL`, `ub_bytes_needed()`, `UB_PEAK`,
`ub_footprint`) and smaller values (`UB_ALIGN = 32`) are not flagged. Nor is `ub` as an upper
bound: a name bound in the same scope (an assignment's, a function's parameters, a call's
keywords, a dict's keys) that is it with `lb`, `lo`, `low` or `lower` for its `ub` (`lb, ub =
0, 1 << 20`, `x_lb, x_ub = 0, 65536`, `lo, ub = 16, 1 << 16`, `lb = 0` then `ub = 131072`),
or `ub` right after a part naming what it bounds, no buffer (`SEQ_UB`, `T_UB`, `GRID_UB`,
`idx_ub`, `LEN_UB`, `ROW_UB`); nor a number that is not a whole number of 32-byte UB blocks
(`GRID_UB = 65535`, `2147483647`): no UB holds it. Nor is a fallback after a device query: a dict's default (`specs.get("UB_SIZE", 196608)`), an `or` after the query
(`get_soc_spec("UB_SIZE") or 196608`, `os.getenv("X") or get_soc_spec("UB_SIZE") or 196608`),
an environment variable defaulting to the query, a number bound in the `except` of a `try` (or
the other arm of an `if`) binding the name to the query (`try: UB_SIZE =
get_soc_spec("UB_SIZE")` / `except ImportError: UB_SIZE = 196608`), or stored in an attribute
the other part stores the query in (`self.ub_size`, `cfg.ub_size`, in the same function), or
bound to a name a later statement may bind to anything but a number before any statement
reads it (`UB_SIZE = 196608` then `if HAS_TBE: UB_SIZE = get_soc_spec("UB_SIZE")`, `ub = 192 *
1024` then `try: ub = get_soc_spec("UB_SIZE")` / `except Exception: pass`; a function or
class defined in between is passed over): the value reaching the uses is the query's. A
default read first (`rows = n // ub` before the `try`) is flagged, and so is one a statement
reading it replaces (`if ub > n: ub = n`). A budget or a limit (`UB_BUDGET = 160 *
1024`, `UB_LIMIT`) is the capacity less a margin, flagged; so is a name taking a piece away
(the piece after `minus`, `less`, `net`, `no`, `without`, `excl`, `exclude`, `excluding`,
`after` or `with`: `UB_SIZE_MINUS_RESERVED`, `UB_SIZE_NO_OVERHEAD`, `UB_BYTES_EXCL_PADDING`,
`UB_AVAILABLE_AFTER_RESERVE`), a bound on offsets (`UB_OFFSET_LIMIT`, also `max`, `end`,
`bound`), and a name for a share kept back whose value is a SoC's whole buffer (192 or 248 KiB
in the name's unit) less something (`192 * 1024 - 16 * 1024`) or scaled by a share over a half
(`UB_SAFE_MARGIN = int(192 * 1024 * 0.9)`; `int(192 * 1024 * 0.1)` is the margin itself).
Part of the `perf` group.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from fractions import Fraction
from itertools import pairwise

import libcst as cst

from ascend_lint.host import Scope, all_params, reads, rebinds, statement_before, statements_after
from ascend_lint.imports import ImportMap, dotted_name, folded_int, number_literal, str_literal
from ascend_lint.nodes import one_line, suite_lines, walk
from ascend_lint.prefilter import Words
from ascend_lint.rule import Kernel, ModuleContext, Report, Rule
from ascend_lint.socs import SOCS

MESSAGE = (
    "hard-coded UB capacity: {stated} ({size}) sizes tiles for one SoC; query it "
    '(`tbe.common.platform.get_soc_spec("UB_SIZE")`, or the package\'s UB manager)'
)
MIN_CAPACITY_BYTES = 16 * 1024
MAX_CAPACITY_BYTES = 1 << 30  # no on-chip buffer is that large: a bigger number is a sentinel or a mask
UB_ALIGNMENT = 32  # bytes: a capacity is a whole number of UB blocks, so `65535` bounds something else
KIB = 1024
# where a name that may be a capacity's holds `ub` (`ubuf` too) or spells out `unified`
_UB_OR_UNIFIED = re.compile(r"[uU](?:[bB]|[nN][iI][fF][iI][eE][dD])")
_WORD = re.compile(r"\w+")
_NAME_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
# `ub` and a size word written as one part (`UBSIZE`, `ubbytes`): two parts
_FUSED_UB = re.compile(r"(ub|ubuf)(size|bytes|cap|capacity|bits|kb|kib|limit|budget)")
_UB_PARTS = {"ub", "ubuf"}
_NOT_THE_CAPACITY = {"fallback", "default", "align", "alignment", "block", "tile", "chunk"}
# what a kernel needs or takes of the buffer, not what it holds (`UB_USAGE`, `ub_bytes_needed`)
_NOT_THE_CAPACITY |= {"usage", "used", "need", "needed", "required", "footprint", "peak"}
# a share of it taken apart, or a floor on it, not its size (`UB_HALF`, `UB_SIZE_MIN`)
_NOT_THE_CAPACITY |= {"half", "quarter", "slice", "portion", "share", "min", "minimum", "floor"}
# a share of it kept back (`UB_RESERVED_BYTES`, `UB_OVERHEAD`): not its size, unless the value is
# the capacity less it (`UB_MARGIN = int(192 * 1024 * 0.9)`); not a budget or a limit: the capacity
# less a margin
_KEPT_BACK = {"reserve", "reserved", "resv", "rsv", "reservation", "overhead", "margin", "slack"}
_KEPT_BACK |= {"headroom", "pad", "padding", "guard", "spare", "extra", "scratch", "offset"}
_KEPT_BACK |= {part + "s" for part in _KEPT_BACK}
_NOT_THE_CAPACITY |= {part + "s" for part in _NOT_THE_CAPACITY}  # `UB_TILES`: a table of tile sizes
_NOT_THE_CAPACITY |= _KEPT_BACK
# words after which a piece is what the name takes away from the capacity, not what it is
# (`UB_SIZE_MINUS_RESERVED`, `UB_SIZE_NO_OVERHEAD`, `UB_AVAILABLE_AFTER_RESERVE`, `UB_BYTES_EXCL_PADDING`)
_TAKING_AWAY = {"minus", "less", "net", "no", "without", "excl", "exclude", "excluding", "after", "with"}
# what bounds offsets into the buffer is its size (`UB_OFFSET_LIMIT`), not an offset (`UB_Q_OFFSET`)
_OFFSET_BOUNDS = {"limit", "max", "maximum", "end", "bound"}
# what follows `per` in a name for the buffer of each core (`UB_BYTES_PER_CORE`, `UB_SIZE_PER_AI_CORE`,
# `UB_SIZE_PER_VECTORCORE`: the capacity), not a piece of it (`UB_PER_BUFFER`, `ub_per_stage`,
# `UB_BYTES_PER_Q_ELEMENT`): a part holding one of these; not `block`, a tile in Triton (`UB_BLOCK_SIZE`)
_HOLDER_STEMS = ("core", "aiv", "aic", "device", "chip", "soc", "npu", "card", "program")
_HOLDERS = {"vec", "vector"}
# the callables declaring a field whose default is a keyword's value: `dataclasses.field`,
# `attrs.field`, `attr.ib`, pydantic's `Field` (also its first argument)
_FIELD_CALLS = {"field", "Field", "ib", "attrib"}
# `ub` as an upper bound: beside a lower bound bound with it (`lb, ub = 0, 1 << 20`, `x_lb` and
# `x_ub`), or after a part naming what it bounds, no buffer (`SEQ_UB`, `T_UB`, `GRID_UB`, `idx_ub`)
_LOWER_BOUNDS = ("lb", "lo", "low", "lower")
_BOUNDED = {"seq", "seqlen", "t", "len", "length", "grid", "idx", "index", "row", "rows", "col", "cols"}
_BOUNDED |= {"x", "y", "n", "i", "j", "batch", "token", "tokens", "step", "steps", "iter", "iters", "range"}
_KIB_UNITS = {"kb", "kib"}
_BYTE_UNITS = {"b", "byte", "bytes"}
_ELEMENT_UNITS = {"elem", "elems", "element", "elements", "numel", "nelem", "nelems"}
# an element's size by the dtype a name gives (`max_ub_elems_fp32`; `FP16` splits into `fp`, `16`)
_DTYPE_BYTES = dict.fromkeys(("fp64", "f64", "float64", "int64", "i64"), 8)  # not `double`: a double buffer
_DTYPE_BYTES |= dict.fromkeys(("fp32", "f32", "float32", "float", "int32", "i32", "uint32"), 4)
_DTYPE_BYTES |= dict.fromkeys(("fp16", "f16", "float16", "half", "bf16", "bfloat16", "int16", "i16"), 2)
_DTYPE_BYTES |= dict.fromkeys(("fp8", "int8", "i8", "uint8", "u8"), 1)
# the capacities as the compiler's overflow report gives them (`... while 1572864 bits available`)
_CAPACITIES_IN_BITS = {soc.ub_bytes * 8 for soc in SOCS.values()}
_SOC_CAPACITIES = {soc.ub_bytes for soc in SOCS.values()}


class HardCodedUb(Rule):
    CODE = "ASC012"
    NAME = "hard-coded-ub"
    SUMMARY = "A UB capacity written as a number instead of queried from the device"
    NO_FIX = "where the device query lives, and its fallback, is the project's choice"
    NO_CONFIRM = "performance advice: a hard-coded capacity sizes tiles for one chip without failing on it, so no replay fails or differs"
    GROUP = "perf"

    VALID = (
        """
import os
from tbe.common.platform import get_soc_spec

_FALLBACK_UB_CAPACITY_BITS = 65536 * 8
UB_ALIGN = 32
_SMEM_BUDGET = 192 * 1024
ub_bytes = get_soc_spec("UB_SIZE")
SUB_BLOCK = 32768
ub_rows = ub_bytes // 4096
UB_BLOCK_SIZE = 16384
unified_rows = 65536
UB_NO_LIMIT = 0xFFFFFFFFFFFFFFFF  # a sentinel: no on-chip buffer is that large
UNIFIED_BUFFER_SIZE_BITS = 1 << 4000  # (the fuzzer's: too large for a float)

def pick_block(n, ub_bytes=None):
    return min(n, (ub_bytes or get_soc_spec("UB_SIZE")) // 12)
""",
        # fallbacks after a device query; a table of tile sizes; an override defaulting to the query
        """
import os
from tbe.common.platform import get_soc_spec

UB_TILES = {"small": 65536, "large": 131072}
UB_USAGE_PER_KERNEL = {"rms_norm": 65536}
UB_PEAK = 131072
UB_PLAN = {"ub_block": 32768}
ub_bytes = int(os.environ.get("ASCEND_UB_BYTES", get_soc_spec("UB_SIZE")))
UB_SIZE = get_soc_spec("UB_SIZE") or 196608

def get_ub_size():
    try:
        return get_soc_spec("UB_SIZE")
    except ImportError:
        return 196608

def ub_bytes_needed():
    return 65536

def ub_bytes_of(specs):
    ub_size = specs.get("UB_SIZE", 196608)
    return ub_size
""",
        # a share of the buffer kept back, taken apart or a floor on it; an `or` after a query too
        """
import os
from tbe.common.platform import get_soc_spec

UB_RESERVED_BYTES = 16 * 1024
ub_reserve = 32 * 1024
UB_PER_BUFFER = 64 * 1024
UB_BYTES_PER_Q_ELEMENT = 20480
UB_HALF = 96 * 1024
UB_OVERHEAD = 20 * 1024
UB_SIZE_MIN = 16 * 1024
UB_MARGIN = 24 * 1024
UB_TABLE = dict(reserved=32768, per_stage=65536)
UB_ENV = int(os.getenv("ASCEND_UB_BYTES") or get_soc_spec("UB_SIZE") or 196608)
""",
        # a sum of usage or a growing loop, not a scaling right after the number; a share kept
        # back of the capacity; pieces per block (a tile) and per stage of each core; an offset
        """
import os

def grow(need):
    ub_bytes = 8192
    while ub_bytes < need:
        ub_bytes *= 2
    return ub_bytes

def accumulate(bt, d):
    ub_bytes = 0
    ub_bytes += 32 * 1024  # q tile, double-buffered
    ub_bytes += bt * d * 4
    return ub_bytes

UB_OVERHEAD = int(192 * 1024 * 0.1)
UB_SIZE_PER_BLOCK = 196608
UB_PER_STAGE_PER_CORE = 65536
UB_Q_OFFSET = 65536
UB_USABLE_MIN = 128 * 1024
UB_ENV = os.getenv("ASCEND_UB_BYTES", "0") or 196608
""",
        # a number chosen as the query's fallback; keys and keywords naming a piece or a fallback
        """
from tbe.common.platform import get_soc_spec

HAS_TBE = True
UB_SIZE = get_soc_spec("UB_SIZE") if HAS_TBE else 196608
try:
    from tbe.common.platform import get_soc_spec as soc_spec

    UB_BYTES = soc_spec("UB_SIZE")
except ImportError:
    UB_BYTES = 196608
if HAS_TBE:
    UB_CAPACITY = get_soc_spec("UB_SIZE")
else:
    UB_CAPACITY = 192 * 1024
PLAN = {"ub_tile": 65536, "num_cores": 24}

def pick(d):
    return plan(d, ub_block=32768, fallback_ub_bytes=196608)

class Planner:
    def __init__(self):
        try:
            self.ub_bytes = get_soc_spec("UB_SIZE")
        except RuntimeError:
            self.ub_bytes = 196608

def configure(cfg):
    if HAS_TBE:
        cfg.ub_size = get_soc_spec("UB_SIZE")
    else:
        cfg.ub_size = 192 * 1024
""",
        # a default a later query may replace before any read: the query's fallback
        """
from tbe.common.platform import get_soc_spec

HAS_TBE = True
UB_SIZE = 196608
if HAS_TBE:
    UB_SIZE = get_soc_spec("UB_SIZE")

def ub_bytes():
    ub = 192 * 1024
    try:
        ub = get_soc_spec("UB_SIZE")
    except Exception:
        pass
    return ub
""",
        # `ub` as an upper bound: beside a lower bound, after what it bounds, or no whole number
        # of UB blocks
        """
SEQ_UB = 65536
T_UB = 32768
GRID_UB = 65535
x_lb, x_ub = 0, 65536

def pick_block(n):
    lo, ub = 16, 1 << 16
    return min(n, ub) + lo

def ranges(t):
    lb = 0
    ub = 131072  # largest T we test
    return [x for x in range(lb, ub, 4096) if x < t]

def bisect(x):
    return search(x, lb=0, ub=1 << 18)
""",
    )
    INVALID = (
        """
_UB_BYTES = 196608  # expect
ASCEND_UB_CAPACITY_BITS = 1572864  # expect

def tile(BK):
    ub_size: int = 192 * 1024  # expect
    return min(64, ub_size // (BK * 12))

def rows(x):
    ub_elements = 85 * 1024 // x.element_size()  # expect
    return ub_elements // x.shape[-1]

@triton.jit
def k(x, BT: tl.constexpr):
    UB_LIMIT: tl.constexpr = 192 * 1024  # expect
    tl.store(x + tl.arange(0, BT), 0.0)
""",
        # other spellings of the name; a margin taken off the capacity; a parameter's default
        """
UNIFIED_BUFFER_SIZE = 1572864  # expect
UBUF_SIZE = 196608  # expect
UB_SIZE_KB = 192  # expect
__910B_UB_MAX_SIZE__ = 192 * 2**10  # expect
UB_BUDGET = int(192 * 1024 * 0.8)  # expect
_UB_BYTES = tl.constexpr(192 * 1024)  # expect
UB_CAPACITY = triton.language.constexpr(196608)  # expect
ub_budget = 192 * 1024 * 0.85  # expect
_UB_BYTES = 1572864 // 8  # expect
UB_SIZE = 1572864 >> 3  # expect

def pick_block(n, ub_bytes=192 * 1024):  # expect
    return min(n, ub_bytes // 12)


class AscendHw:
    UB_SIZE = 196608  # expect


@dataclasses.dataclass(frozen=True)
class TileBudget:
    ub_bytes: int = 192 * 1024  # expect

    def __post_init__(self):
        self.ub_size_kb = 192  # expect

    def refresh(self):
        try:
            self.ub_size_kb = get_soc_spec("UB_SIZE") // 1024
        except RuntimeError:
            self.ub_size_kb = 248  # the query's fallback
""",
        # a table per SoC; an environment variable's default; a stub of the query; a field's default
        """
import os
from dataclasses import dataclass, field

_SOC_UB = {
    "Ascend910B": 196608,  # expect
    "Ascend950": 248 * 1024,  # expect
}
UB_BYTES = int(os.environ.get("ASCEND_UB_BYTES", 196608))  # expect
UB_BITS = int(os.getenv("ASCEND_UB_CAPACITY_BITS", "1572864"))  # expect

def get_ub_size():
    return 196608  # expect

get_ub_bytes = lambda: 196608  # expect
UB_SIZE_BITS = 1 << 20 | 1 << 19  # expect

def max_ub_elems_fp32():
    return 196608 // 4  # expect

UB_ELEMS_FP16 = 12288  # expect


@dataclass
class Hw:
    ub_bits: int = field(default=1572864)  # expect
    ub_bytes: int = field(default_factory=lambda: 192 * 1024)  # expect
""",
        # an environment variable with an `or` fallback; a table from `dict(...)`; scaled in place;
        # the buffer of each core; elements of `half`; a capacity halved in place is reported once
        """
import os

UB_BYTES = int(os.getenv("ASCEND_UB_BYTES") or 196608)  # expect
UB_BITS = int(os.environ.get("ASCEND_UB_CAPACITY_BITS", None) or "1572864")  # expect
_SOC_UB = dict(
    ascend910b=196608,  # expect
    ascend950=248 * 1024,  # expect
)
UB_BYTES_PER_CORE = 196608  # expect
UB_ELEMS_HALF = 98304  # expect

def pick(n):
    ub_bytes = 192
    ub_bytes *= 1024  # expect
    return min(n, ub_bytes // 12)

def pick_half(n):
    ub_size = 192 * 1024  # expect
    ub_size //= 2
    return min(n, ub_size // 12)
""",
        # the capacity less a share kept back, by name or by value; offsets' bound; the buffer of
        # each core named in two words; an override whose unset value is zero; scaled by a shift
        """
import os

UB_SIZE_MINUS_RESERVED = 192 * 1024 - 16 * 1024  # expect
UB_SIZE_NO_OVERHEAD = 180 * 1024  # expect
UB_AVAILABLE_AFTER_RESERVE = 176 * 1024  # expect
UB_BYTES_EXCL_PADDING = 188 * 1024  # expect
UB_SAFE_MARGIN = int(192 * 1024 * 0.9)  # expect
UB_OFFSET_LIMIT = 196608  # expect
UB_BYTES_PER_AI_CORE = 196608  # expect
UB_SIZE_PER_VECTORCORE = 196608  # expect
UB_SIZE_PER_CUBE_CORE = 196608  # expect
UB_ENV = int(os.getenv("ASCEND_UB_BYTES", "0")) or 196608  # expect
UB_ENV_BYTES = int(os.environ.get("ASCEND_UB_BYTES", 0)) or 196608  # expect

def pick(n):
    ub_size = 3
    ub_size <<= 16  # expect
    return min(n, ub_size // 12)
""",
        # a per-SoC choice; an environment variable's default divided; a keyword; a dict key
        """
import os

IS_950 = os.getenv("SOC") == "Ascend950"
UB_SIZE = (
    253952  # expect
    if IS_950
    else 196608  # expect
)
UB = int(os.getenv("ASCEND_UB_CAPACITY_BITS", "1572864")) // 8  # expect
HW = {"ub_size": 196608, "num_cores": 24}  # expect

def get_ub_size(soc):
    return (
        253952  # expect
        if soc.startswith("Ascend950")
        else 196608  # expect
    )

def pick_block(d):
    return plan(d, ub_bytes=196608)  # expect
""",
        # a capacity in a module constant's unit, or as a float; a size word fused to `ub`; a
        # default read before the query replaces it
        """
from typing import Final
from tbe.common.platform import get_soc_spec

KiB = 1024
KB: Final = 1 << 10
UB_SIZE = 192 * KiB  # expect
UB_BYTES_950 = 248 * KB  # expect
UBSIZE = 196608  # expect
UB_FLOAT = 192.0 * 1024  # expect

def ub_bytes(n):
    ub = 192 * 1024  # expect
    rows = n // ub
    try:
        ub = get_soc_spec("UB_SIZE")
    except RuntimeError:
        pass
    return rows, ub
""",
        # a cap on the value, on a query too
        """
import os
from tbe.common.platform import get_soc_spec

UB_SIZE = min(196608, int(os.environ["ASCEND_UB"]))  # expect
UB_BYTES = min(196608, get_soc_spec("UB_SIZE"))  # expect

def pick(n, d):
    ub_bytes = min(192 * 1024, n * d * 4)  # expect
    return ub_bytes
""",
    )

    @classmethod
    def may_report(cls, words: Words) -> bool:
        """A word the finding's name test accepts (`_UB_BYTES`, `ub_size`, not `UB_ALIGN`):
        a name is its source text, so every reported name occurs as such a word."""
        return any(_is_capacity_name(word, less_a_margin=True) for word in _words_with_ub_or_unified(words.text))

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        reported: set[cst.CSTNode] = set()
        for report in self._check_named(context):
            reported.add(report.node)
            yield report
        for report in self._check_keyed(context):
            if report.node not in reported:  # not again as a table's entry (`_SOC_UB = dict(ub_size=...)`)
                yield report

    def _check_named(self, context: ModuleContext) -> Iterator[Report]:
        """The capacities bound to a name for one, stored in an attribute, given as a
        parameter's default or returned by a function so named."""
        host = context.host
        fallbacks = _query_fallbacks(context) | _replaced_defaults(context)
        beside = _names_by_scope(context)
        for (name, scope), values in host.bindings.items():
            if _has_lower_bound(name, beside.get(scope, ())):
                continue
            for earlier, value in zip([None, *values], values, strict=False):
                if value not in fallbacks:
                    yield from self._check(name, value, context, scope)
                if earlier is not None and isinstance(host.binders.get(value), cst.AugAssign):
                    yield from self._check_scaled(name, earlier, value, context, scope)
        for stored, values_in in host.attribute_stores.items():  # `UB_SIZE = ...` in a class, `self.ub_size = ...`
            for value, scope in values_in:
                if value not in fallbacks:
                    yield from self._check(stored.rsplit(".", 1)[-1], value, context, scope)
        functions = [function for defined in host.functions.values() for function in defined]
        for function in functions + [kernel.node for kernel in context.kernels]:
            for param in all_params(function):
                if param.default is not None and not _has_lower_bound(param.name.value, beside.get(function, ())):
                    yield from self._check(param.name.value, param.default, context)
        for name, returned in host.returns.items():
            yield from self._check_returns(name, returned, context)

    def _check_keyed(self, context: ModuleContext) -> Iterator[Report]:
        """The capacities host code passes under a name for one: a keyword argument
        (`plan(d, ub_bytes=196608)`, a launch's `UB_SIZE=196608`) or a dict literal's string key
        (`HW = {"ub_size": 196608}`, whatever the dict's name)."""
        code = one_line
        # each with the keys beside it (`search(lb=0, ub=65536)`: an upper bound)
        keyed: list[tuple[str, cst.BaseExpression, str, cst.FunctionDef | None, list[str]]] = []
        for call, scope in context.host.calls:
            keywords = [arg.keyword.value for arg in call.args if arg.keyword is not None]
            for arg in call.args:
                if arg.keyword is not None:
                    stated = f"`{arg.keyword.value}={code(arg.value)}`"
                    keyed.append((arg.keyword.value, arg.value, stated, scope, keywords))
        for table, scope in context.host.dicts:
            entries = [
                (key, element)
                for element in table.elements
                if isinstance(element, cst.DictElement) and (key := str_literal(element.key)) is not None
            ]
            keys = [key for key, _ in entries]
            for key, element in entries:
                stated = f"`{code(element.key)}: {code(element.value)}`"
                keyed.append((key, element.value, stated, scope, keys))
        for name, value, stated, scope, beside in keyed:
            if _is_capacity_name(name, _less_a_margin(name, value, context.imports)) and not _has_lower_bound(
                name, beside
            ):
                yield from self._report(name, value, stated, context, scope)

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        beside = {*kernel.flow.defs, *(param.name for param in kernel.params)}
        for name, events in kernel.flow.defs.items():
            if _has_lower_bound(name, beside):
                continue
            for event in events:
                if event.value is not None and isinstance(event.node, cst.Name):
                    yield from self._check(name, event.value, context)

    def _check(
        self, name: str, value: cst.BaseExpression, context: ModuleContext, within: cst.FunctionDef | None = None
    ) -> Iterator[Report]:
        """The capacity `name = value` states, if any, or each one a table of them under that
        name does (`_SOC_UB = {"Ascend910B": 196608}`); `within`: the host function holding it."""
        if not _is_capacity_name(name, _less_a_margin(name, value, context.imports)):
            return
        entries = _table_entries(value)
        if entries is not None:
            for key, key_code, entry in entries:
                if key is None or not _names_a_piece(_parts(key)):  # not `"tile": 65536`
                    stated = f"`{name}[{key_code}] = {one_line(entry)}`"
                    yield from self._report(name, entry, stated, context, within)
            return
        stated = f"`{name} = {one_line(value)}`"
        yield from self._report(name, value, stated, context, within)

    def _check_scaled(
        self,
        name: str,
        earlier: cst.BaseExpression,
        value: cst.BaseExpression,
        context: ModuleContext,
        within: cst.FunctionDef | None,
    ) -> Iterator[Report]:
        """The capacity a scaling in place (`*=`, `<<=`) makes of the number bound by the
        statement right before it in the same block (`ub_bytes = 192` then `ub_bytes *= 1024`):
        `value` is the engine's `ub_bytes * 1024` for it, reported at the statement. Not a sum
        (`ub_bytes = 0` then `ub_bytes += 32 * 1024`: usage), not a scaling elsewhere (in a
        loop growing it: `while ub_bytes < need: ub_bytes *= 2`), not when that number already
        is one (reported there)."""
        statement = context.host.binders[value]
        lines = context.module.body if within is None else suite_lines(within.body)
        if (
            not isinstance(value, cst.BinaryOperation)
            or not isinstance(statement, cst.AugAssign)
            or not isinstance(statement.operator, (cst.MultiplyAssign, cst.LeftShiftAssign))
            or statement_before(statement, lines) is not context.host.binders.get(earlier)
            or not _is_capacity_name(name)
            or folded_int(earlier) is None
            or any(self._report(name, earlier, "", context, within))
        ):
            return
        stated = f"`{one_line(statement)}` after `{name} = {one_line(earlier)}`"
        for report in self._report(name, value.with_changes(left=earlier), stated, context, within):
            yield replace(report, node=statement)

    def _check_returns(
        self, name: str, returned: list[tuple[cst.BaseExpression, cst.FunctionDef]], context: ModuleContext
    ) -> Iterator[Report]:
        """The capacity a function named for one returns as a number (`def get_ub_size():
        return 196608`: a stub that never asks the device), when every return of it does: a
        function also returning what it queried returns a number as a fallback."""
        if not _is_capacity_name(name):
            return
        by_function: dict[cst.FunctionDef, list[cst.BaseExpression]] = {}
        for value, function in returned:
            by_function.setdefault(function, []).append(value)
        for function, values in by_function.items():
            if all(_capacity(arm, context) is not None for value in values for arm in _arms(value, context.imports)):
                for value in values:
                    stated = f"`{name}()` returns `{one_line(value)}`"
                    yield from self._report(name, value, stated, context, function)

    def _report(
        self,
        name: str,
        value: cst.BaseExpression,
        stated: str,
        context: ModuleContext,
        within: cst.FunctionDef | None,
    ) -> Iterator[Report]:
        """The finding for the capacity `value` states, under `name`, when it is one; one for each
        arm of a conditional expression choosing between numbers (`253952 if IS_950 else 196608`),
        as for the assignments of an `if` / `else`."""
        arms = _arms(value, context.imports)
        if len(arms) > 1:
            if all(_capacity(arm, context) is not None for arm in arms):
                for arm in arms:
                    yield from self._report(name, arm, stated, context, within)
            return
        found = _capacity(value, context)
        if found is None:
            return
        capacity, number, into_units = found
        # what a division into units divides is bytes (`196608 // torch.float32.itemsize`)
        per_unit = Fraction(1) if into_units else _bytes_per_unit(name, number)
        divided = _divided_by_literal(capacity) if per_unit is None else None
        if divided is not None:  # `UB_ELEMS = 196608 // 4`: bytes into elements of 4 bytes
            capacity, number, per_unit = divided, folded_int(divided) or 0, Fraction(1)
        # elements of a size the name does not give: at least a byte each, stated as elements
        size = number * (per_unit or 1)
        if not MIN_CAPACITY_BYTES <= size <= MAX_CAPACITY_BYTES or (per_unit is not None and size % UB_ALIGNMENT):
            return
        stated_size = f"{number} elements" if per_unit is None else f"{float(size / 1024):g} KiB"
        yield Report(
            capacity,
            MESSAGE.format(stated=stated, size=stated_size),
            facts={"name": name, "value": number},
            within=within,
        )


def _query_fallbacks(context: ModuleContext) -> set[cst.BaseExpression]:
    """The numbers bound to a name (or stored in an attribute: `self.ub_size`, `cfg.ub_size`) in
    one part of an `if` / `else` or a `try` / `except` whose other part binds it to something
    else (`try: UB_SIZE = get_soc_spec("UB_SIZE")` / `except ImportError: UB_SIZE = 196608`):
    the query's fallback, as the number of `get_soc_spec("UB_SIZE") if HAS_TBE else 196608` is,
    and a function's `return 196608` after `return get_soc_spec("UB_SIZE")`."""
    host = context.host
    bound: dict[cst.CSTNode, list[tuple[tuple[str, Scope], cst.BaseExpression]]] = {}
    for key, values in host.bindings.items():
        for value in values:
            if _is_capacity_name(key[0]) and value in host.binders:
                bound.setdefault(host.binders[value], []).append((key, value))
    stored = [
        ((dotted, scope), value)
        for dotted, values_in in host.attribute_stores.items()
        if _is_capacity_name(dotted.rsplit(".", 1)[-1])
        for value, scope in values_in
    ]
    if stored:
        assignments = {
            node.value: node
            for node in walk(context.module)
            if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None
        }
        for key, value in stored:
            if value in assignments:
                bound.setdefault(assignments[value], []).append((key, value))
    found: set[cst.BaseExpression] = set()
    for node in walk(context.module) if bound else ():
        parts: list[list[cst.CSTNode]] = []
        if isinstance(node, cst.Try):
            parts = [[node.body, *([node.orelse] if node.orelse else [])]]
            parts.extend([handler] for handler in node.handlers)
        elif isinstance(node, cst.If) and node.orelse is not None:
            parts = [[node.body], [node.orelse]]
        # per part, the (name, scope) and value of each binding in it
        by_part = [
            [pair for holder in part for statement in walk(holder) for pair in bound.get(statement, ())]
            for part in parts
        ]
        for index, pairs in enumerate(by_part):
            queried = {
                key
                for other, others in enumerate(by_part)
                if other != index
                for key, v in others
                if not _states_numbers(v, context)
            }
            found.update(value for key, value in pairs if key in queried and _states_numbers(value, context))
    return found


def _names_by_scope(context: ModuleContext) -> dict[Scope, set[str]]:
    """The names host code binds in each scope, with each function's parameters."""
    found: dict[Scope, set[str]] = {}
    for name, scope in context.host.bindings:
        found.setdefault(scope, set()).add(name)
    for defined in context.host.functions.values():
        for function in defined:
            found.setdefault(function, set()).update(param.name.value for param in all_params(function))
    for kernel in context.kernels:
        found.setdefault(kernel.node, set()).update(param.name for param in kernel.params)
    return found


def _replaced_defaults(context: ModuleContext) -> set[cst.BaseExpression]:
    """The numbers bound to a name that a later statement may bind to something else before
    any reads it (`UB_SIZE = 196608` then `if HAS_TBE: UB_SIZE = get_soc_spec("UB_SIZE")`, or
    `try: ub = get_soc_spec("UB_SIZE")` / `except Exception: pass`): the query's fallback, as
    in `get_soc_spec("UB_SIZE") or 196608`. Not when that statement reads the name (`if ub >
    n: ub = n`, `ub = ub // 2`) or binds it to a number; a function or class defined in between
    is passed over (its names are its own, a method reads the name when called)."""
    host = context.host
    found: set[cst.BaseExpression] = set()
    for (name, scope), values in host.bindings.items():
        if not _is_capacity_name(name):
            continue
        numbers = [value for value in values if value in host.binders and _states_numbers(value, context)]
        lines = context.module.body if scope is None else suite_lines(scope.body)
        for value in numbers:
            for statement in statements_after(host.binders[value], lines):
                if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                    continue
                read = reads(statement, name)
                if read or rebinds(statement, name):
                    inside = set(walk(statement))
                    rebound = [other for other in values if host.binders.get(other) in inside]
                    if not read and not any(_states_numbers(other, context) for other in rebound):
                        found.add(value)
                    break
    return found


def _states_numbers(value: cst.BaseExpression, context: ModuleContext) -> bool:
    """Every value `value` may be is a number (`196608`, `253952 if IS_950 else 196608`)."""
    return all(_capacity(arm, context) is not None for arm in _arms(value, context.imports))


def _table_entries(value: cst.BaseExpression) -> list[tuple[str | None, str, cst.BaseExpression]] | None:
    """A table's entries, each with its key (None when not a string) and the key's code: a
    dict literal's (`{"Ascend910B": 196608}`) or a `dict(...)` call's keywords
    (`dict(ascend910b=196608)`); None for any other value."""
    if isinstance(value, cst.Dict):
        return [
            (str_literal(element.key), one_line(element.key), element.value)
            for element in value.elements
            if isinstance(element, cst.DictElement)
        ]
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict":
        return [(arg.keyword.value, f'"{arg.keyword.value}"', arg.value) for arg in value.args if arg.keyword]
    return None


def _arms(value: cst.BaseExpression, imports: ImportMap) -> list[cst.BaseExpression]:
    """The values a conditional expression chooses between (`253952 if IS_950 else 196608`,
    nested too, in `int(...)` or a module-level constexpr too), else the value itself."""
    chosen = _unwrapped(value, imports)
    if isinstance(chosen, cst.IfExp):
        return _arms(chosen.body, imports) + _arms(chosen.orelse, imports)
    return [value]


def _unwrapped(value: cst.BaseExpression, imports: ImportMap) -> cst.BaseExpression:
    """The value inside a module-level constexpr (`tl.constexpr(192 * 1024)`) and then an
    `int(...)` (`int(192 * 1024 * 0.8)`)."""
    if isinstance(value, cst.Call) and imports.is_tl(value.func, "constexpr") and len(value.args) == 1:
        value = value.args[0].value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "int":
        value = value.args[0].value if len(value.args) == 1 else value
    return value


def _capacity(value: cst.BaseExpression, context: ModuleContext) -> tuple[cst.BaseExpression, int, bool] | None:
    """The integer literal arithmetic that states the capacity, with its value: the whole value,
    what a division into units divides (`85 * 1024 // x.element_size()`: bytes into elements),
    or what a safety margin scales (`int(192 * 1024 * 0.8)`, `192 * 1024 * 0.85`), in a
    module-level constexpr too (`tl.constexpr(192 * 1024)`), a field's default
    (`field(default=196608)`, `field(default_factory=lambda: 196608)`), or the default of an
    environment variable (`int(os.environ.get("ASCEND_UB_BYTES", 196608))`, also as a string:
    `os.getenv("X", "1572864")`, or after an `or`: `os.getenv("X") or 196608`): the number on
    every machine that does not set it. Numbers fold with `_units`: `192 * KiB`, `192.0 * 1024`."""
    imports, units = context.imports, _units(context)
    value = _unwrapped(value, imports)
    if isinstance(value, cst.Call):
        capped = _cap(value, context)
        if capped is not None:
            return capped
        default = _field_default(value)
        if default is not None:
            value = default
    default = _environment_default(value) if isinstance(value, cst.Call) else _unset_environment_fallback(value)
    if default is not None:
        digits = str_literal(default)
        if digits is not None and digits.isascii() and digits.isdecimal():
            return default, int(digits), False
        value = default
    into_units = False
    if isinstance(value, cst.BinaryOperation):
        if isinstance(value.operator, (cst.FloorDivide, cst.Divide)) and folded_int(value.right) is None:
            value, into_units = value.left, True
        elif isinstance(value.operator, cst.Multiply):
            for scaled, factor in ((value.left, value.right), (value.right, value.left)):
                if _is_margin(factor) and folded_int(scaled, units) is not None:
                    value = scaled
                    break
    number = folded_int(value, units)
    if number is None:  # `int(os.getenv("ASCEND_UB_CAPACITY_BITS", "1572864")) // 8`
        return _default_in_arithmetic(value, imports, into_units)
    return value, number, into_units


def _units(context: ModuleContext) -> Callable[[cst.BaseExpression], int | None]:
    """What folds in a capacity beside integer literals (`folded_int`'s `operand`): a float
    literal of a whole number (`192.0 * 1024`), a module constant of one KiB (`KiB = 1024`,
    `KB: Final = 1 << 10`, then `192 * KiB`)."""
    constants = context.module_constants

    def unit(node: cst.BaseExpression) -> int | None:
        if isinstance(node, cst.Float):
            number = float(number_literal(node))
            return int(number) if number.is_integer() else None
        if isinstance(node, cst.Name) and type(constants.get(node.value)) is int and constants[node.value] == KIB:
            return KIB
        return None

    return unit


def _cap(call: cst.Call, context: ModuleContext) -> tuple[cst.BaseExpression, int, bool] | None:
    """The capacity a `min(...)` caps its other operands with (`min(196608, n * d * 4)`,
    `min(196608, get_soc_spec("UB_SIZE"))`): never more than that number, on any SoC; the
    smallest when it has several. None for another call."""
    if dotted_name(call.func) != "min" or len(call.args) < 2 or any(arg.star or arg.keyword for arg in call.args):
        return None
    stated = [found for arg in call.args if (found := _capacity(arg.value, context)) is not None]
    return min(stated, key=lambda found: found[1], default=None)


def _default_in_arithmetic(
    value: cst.BaseExpression, imports: ImportMap, into_units: bool
) -> tuple[cst.BaseExpression, int, bool] | None:
    """The capacity integer literal arithmetic makes of an environment variable's default
    (`int(os.getenv("ASCEND_UB_CAPACITY_BITS", "1572864")) // 8`,
    `int(os.environ.get("ASCEND_UB_BYTES", 196608)) // 2`): the default, with the value of
    the arithmetic on it."""
    read = value
    while isinstance(read, cst.BinaryOperation):  # down to the one operand that is not a literal
        if folded_int(read.right) is not None:
            read = read.left
        elif folded_int(read.left) is not None:
            read = read.right
        else:
            return None
    if read is value:
        return None
    inner = _unwrapped(read, imports)
    default = _environment_default(inner) if isinstance(inner, cst.Call) else _unset_environment_fallback(inner)
    if default is None:
        return None
    digits = str_literal(default)
    number = int(digits) if digits is not None and digits.isascii() and digits.isdecimal() else folded_int(default)
    if number is None:
        return None
    substituted = value.deep_replace(read, cst.Integer(str(number)))
    folded = folded_int(substituted) if isinstance(substituted, cst.BaseExpression) else None
    return None if folded is None else (default, folded, into_units)


def _field_default(call: cst.Call) -> cst.BaseExpression | None:
    """The default a field declaration gives (`field(default=v)`, `field(default_factory=lambda:
    v)`, pydantic's `Field(v)`), else None."""
    callee = (dotted_name(call.func) or "").rsplit(".", 1)[-1]
    if callee not in _FIELD_CALLS:
        return None
    for arg in call.args:
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == "default" or (keyword is None and callee == "Field" and arg is call.args[0]):
            return arg.value
        if keyword == "default_factory" and isinstance(arg.value, cst.Lambda) and not arg.value.params.params:
            return arg.value.body
    return None


def _is_environment_read(call: cst.Call) -> bool:
    """`os.getenv(name[, default])`, `os.environ.get(name[, default])`."""
    callee = (dotted_name(call.func) or "").split(".")
    return (callee[-1:] == ["getenv"] or callee[-2:] == ["environ", "get"]) and 1 <= len(call.args) <= 2


def _environment_default(call: cst.Call) -> cst.BaseExpression | None:
    """The default of an environment variable read with one (`os.environ.get(name, v)`,
    `os.getenv(name, v)`), else None."""
    return call.args[1].value if _is_environment_read(call) and len(call.args) == 2 else None


def _unset_environment_fallback(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """What an `or` falls back to when all before it read environment variables whose value is
    false wherever they are unset (`os.getenv("ASCEND_UB_BYTES") or 196608`,
    `int(os.getenv("X", "0")) or 196608`, `_reads_unset_environment`): the number there, as
    with a default. Not after a device query (`get_soc_spec("UB_SIZE") or 196608`): that number
    is the query's fallback."""
    operands: list[cst.BaseExpression] = []
    while isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
        operands.insert(0, value.right)  # `a or b or c` is `(a or b) or c`
        value = value.left
    if not operands or not all(map(_reads_unset_environment, [value, *operands[:-1]])):
        return None
    return operands[-1]


def _reads_unset_environment(value: cst.BaseExpression) -> bool:
    """An environment variable read that is false wherever it is unset: with no default or a
    false one (`os.getenv(name)`, `os.environ.get(name, None)`, `""`, `0`), or read as an
    `int` with a default of zero (`int(os.getenv(name, "0"))`, `int(os.environ.get(name, 0))`;
    `int` of no default or of `""` raises instead)."""
    as_int = False
    if isinstance(value, cst.Call) and dotted_name(value.func) == "int" and len(value.args) == 1:
        value, as_int = value.args[0].value, True
    if not isinstance(value, cst.Call) or not _is_environment_read(value):
        return False
    default = _environment_default(value)
    if default is None:
        return not as_int
    if as_int:
        digits = str_literal(default)
        return (
            folded_int(default) == 0 if digits is None else digits.isascii() and digits.isdecimal() and not int(digits)
        )
    if isinstance(default, cst.Name) and default.value == "None":
        return True
    return str_literal(default) == "" or folded_int(default) == 0


def _less_a_margin(name: str, value: cst.BaseExpression, imports: ImportMap) -> bool:
    """The value is a SoC's whole buffer less a margin: that capacity, in the name's unit, less
    something (`192 * 1024 - 16 * 1024`) or scaled by a share over a half
    (`int(192 * 1024 * 0.9)`; a half or less is a piece of it)."""
    value = _unwrapped(value, imports)
    if not isinstance(value, cst.BinaryOperation):
        return False
    whole: cst.BaseExpression | None = None
    if isinstance(value.operator, cst.Subtract):
        whole = value.left
        while isinstance(whole, cst.BinaryOperation) and isinstance(whole.operator, cst.Subtract):
            whole = whole.left  # `192 * 1024 - a - b`
    elif isinstance(value.operator, cst.Multiply):
        for scaled, factor in ((value.left, value.right), (value.right, value.left)):
            if _is_margin(factor, over=0.5):
                whole = scaled
    number = folded_int(whole) if whole is not None else None
    per_unit = _bytes_per_unit(name, number) if number is not None else None
    return number is not None and per_unit is not None and number * per_unit in _SOC_CAPACITIES


def _is_margin(factor: cst.BaseExpression, over: float = 0) -> bool:
    """A float literal of at most 1 (and more than `over`): the share of the capacity a kernel
    lets itself use."""
    return isinstance(factor, cst.Float) and over < number_literal(factor) <= 1


def _bytes_per_unit(name: str, number: int) -> Fraction | None:
    """What one unit of the value is, in bytes, by the name's unit part; without one, bits
    when the number is a capacity in bits (`UNIFIED_BUFFER_SIZE = 1572864`: 192 KiB, not
    1.5 MiB), else bytes. A count of elements (`max_ub_elems_fp32`) is in the size of the
    dtype the name gives, None when it gives none. Exact, so that any integer literal
    compares without overflowing a float."""
    parts = _parts(name)
    if _ELEMENT_UNITS.intersection(parts):
        for word in parts + [first + second for first, second in pairwise(parts)]:
            if word in _DTYPE_BYTES:
                return Fraction(_DTYPE_BYTES[word])
        return None
    if any(part in _KIB_UNITS for part in parts):
        return Fraction(1024)
    if "bits" in parts or (number in _CAPACITIES_IN_BITS and not _BYTE_UNITS.intersection(parts)):
        return Fraction(1, 8)
    return Fraction(1)


def _divided_by_literal(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """What `196608 // 4` divides by a literal, when it is a number: bytes turned into elements
    of that size; else None."""
    if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.FloorDivide)):
        return None
    return value.left if folded_int(value.left) is not None and folded_int(value.right) is not None else None


def _parts(name: str) -> list[str]:
    """A name's words, lower case (`maxUbBytes`: `max`, `ub`, `bytes`; `UBSIZE`: `ub`, `size`)."""
    parts: list[str] = []
    for part in _NAME_PARTS.findall(name):
        fused = _FUSED_UB.fullmatch(part.lower())
        parts.extend(fused.groups() if fused else [part.lower()])
    return parts


def _words_with_ub_or_unified(text: str) -> Iterator[str]:
    """Every word (`\\w+`) of `text` holding `ub` or `unified` in any case: found from each
    of them by a C-level search, then widened to its word (a regex `\\w*ub\\w*` retries from
    every character of every word: 17x slower on vllm-ascend and fla)."""
    end = 0
    for match in _UB_OR_UNIFIED.finditer(text):
        start = match.start()
        if start < end:  # a second `ub` / `unified` of the word just yielded
            continue
        while start and (text[start - 1].isalnum() or text[start - 1] == "_"):  # what `\\w` matches
            start -= 1
        word = _WORD.match(text, start)
        if word is not None:  # always: `ub` itself is a word
            end = word.end()
            yield word.group()


def _is_capacity_name(name: str, less_a_margin: bool = False) -> bool:
    """A name with a `ub` / `ubuf` part or the parts `unified` `buffer` in a row, that does
    not say it is a fallback, a default, an alignment or a piece of the buffer; with
    `less_a_margin` (its value is a capacity less a margin), a share kept back does not make it
    a piece."""
    parts = _parts(name)
    names_the_buffer = any(part in _UB_PARTS for part in parts) or any(
        pair == ("unified", "buffer") for pair in pairwise(parts)
    )
    bounds_a_quantity = any(part == "ub" and before in _BOUNDED for before, part in pairwise(parts))
    return names_the_buffer and not bounds_a_quantity and not _names_a_piece(parts, less_a_margin)


def _has_lower_bound(name: str, beside: Iterable[str]) -> bool:
    """`name` is an upper bound: a name in `beside` (bound in the same scope, statement or call)
    is it with its `ub` a lower bound's (`lb, ub = 0, 1 << 20`; `x_lb` for `x_ub`; `lo`)."""
    parts = _parts(name)
    if "ub" not in parts:
        return False
    lower = {tuple(word if part == "ub" else part for part in parts) for word in _LOWER_BOUNDS}
    return any(tuple(_parts(other)) in lower for other in beside)


def _names_a_piece(parts: list[str], less_a_margin: bool = False) -> bool:
    """Whether a name's parts (a table's key's) say it is not the capacity: a fallback, a
    default, an alignment, a piece of the buffer or a floor on it (`_NOT_THE_CAPACITY`), or
    what each of something takes of it (`UB_PER_BUFFER`; not `UB_PER_CORE`: each core's buffer).
    Not a piece: one after a word taking it away (`UB_SIZE_MINUS_RESERVED`: the capacity less
    it), an offset something after bounds (`UB_OFFSET_LIMIT`), `half` in a count of elements
    (their dtype: `UB_ELEMS_HALF`), and with `less_a_margin` a share kept back (`_KEPT_BACK`)."""
    pieces = set()
    for index, part in enumerate(parts):
        if part not in _NOT_THE_CAPACITY or _TAKING_AWAY.intersection(parts[:index]):
            continue
        if part in {"offset", "offsets"} and _OFFSET_BOUNDS.intersection(parts[index + 1 :]):
            continue
        pieces.add(part)
    if pieces == {"half"} and _ELEMENT_UNITS.intersection(parts):
        pieces = set()
    if less_a_margin:
        pieces -= _KEPT_BACK
    return bool(pieces) or any(
        part == "per" and not any(map(_holds_a_buffer, _phrase_after(parts, index))) for index, part in enumerate(parts)
    )


def _phrase_after(parts: list[str], index: int) -> list[str]:
    """The parts after `parts[index]` up to the next `per` (`UB_PER_STAGE_PER_CORE`: `stage`)."""
    after = parts[index + 1 :]
    return after[: after.index("per")] if "per" in after else after


def _holds_a_buffer(part: str) -> bool:
    """A part naming what holds a whole buffer: a core (`aicore`, `subcore`, `aiv`), a device,
    a chip, a SoC, an NPU, a card, a program (a vector core runs one at a time), a vector unit."""
    return part in _HOLDERS or any(stem in part for stem in _HOLDER_STEMS)
