"""
## What it does
Estimates the peak unified buffer (UB) a kernel needs for each constexpr configuration the
module makes visible (`triton.autotune` configs, literal constexpr arguments of launches,
`triton.heuristics`, constexpr defaults, module constants), and flags configurations over the
UB of the SoC the file targets (`target-soc`: 192 KiB on the Ascend 910B, the default). The
estimate sums the tiles live where the most are live, as the compiler's memory planner does;
tiles that only feed `tl.dot` take no UB unless cast or gathered. The finding names the configuration and the tiles
that make up the peak.

Not flagged: an estimate at the UB or under (exactly 192 KiB compiles). A tile the
configuration leaves unsized counts as 32 bytes, a constexpr arm it does not compile as
nothing.

## Why is this bad?
The compiler rejects the kernel when the configuration is compiled, one configuration at a
time, and only then: `ub overflow, requires 2097152 bits while 1572864 bits available!`
(1572864 bits = 192 KiB; a vector add at BLOCK=32768). In an autotune list the failing
configuration surfaces on the first workload that selects it, often on someone else's
shapes. The seeds' guidance is to enumerate the peak live tiles and keep a 0.75-0.85 safety
margin; this rule does that arithmetic for every visible configuration.

## Example
```python
@triton.autotune(
    configs=[
        triton.Config({"BD": 128}),
        triton.Config({"BD": 1024}),  # needs ~516 KiB of UB
    ],
    key=["D"],
)
@triton.jit
def rms_norm_kernel(x, y, T, D, BT: tl.constexpr = 64, BD: tl.constexpr = 128):
    i_t = tl.program_id(0)
    ...  # loads a [BT, BD] block of x, normalises it in fp32
```

## Use instead
Drop or shrink the configurations over budget, or split the live set: loop over `D` in
slabs, keep fewer fp32 copies (cast once, reuse), move independent outputs to a second
kernel. Size tiles from the device query (`triton.runtime.driver.active.utils.
get_device_properties(...)`, fla's `fla.utils.ascend_ub_manager`) with a safety margin.

## Fix safety
No fix: which configuration to drop, or how to split the kernel, is a design choice, and the
estimate is an estimate (`ascend-lint confirm` compiles the configuration to check it).

## Details
### The UB of each SoC
Estimates, for each constexpr configuration the module makes visible, the peak unified buffer
(UB) a kernel needs, and flags configurations over the UB of the SoC the file targets (the
`target-soc` setting: 192 KiB on the Ascend 910B, the default, and the 910_93; 248 KiB on the
Ascend 950, 216 KiB there for a kernel compiled as mixed SIMD+SIMT, which the rule does not
tell apart).

### Where configurations come from
Configurations come from `triton.autotune` configs, written inline, in a module-level
name (`configs=CONFIGS`) or returned by a function of the module (`configs=get_configs()`),
including comprehensions over literal lists, names bound to one or their
`itertools.product`, the configs `for` loops
append to a list (`configs.append(triton.Config(...))`, `configs += [...]`, with the loops' `if`s and `if ...:
continue` guards; not one under an `if` every call of the function decides against, `if big:` in a
helper each call of which passes `big=False`), `triton.Config(dict(BLOCK=...))` and a table given by name
(`triton.Config(_BIG)` after `_BIG = {"BLOCK": 131072}`, when the name holds that one dict
and nothing in the module changes it: no `_BIG.update(...)`, `_BIG["BLOCK"] = ...`, `|=`, nor
passing it to a function), also one by one from a literal list of such tables
(`[triton.Config(c) for c in (_SMALL, _BIG)]`, reported at the table that overflows; also from
a name bound to such a list when nothing in the module changes the list: not after
`_TABLES.pop()`, `_TABLES[1] = {...}` or `_filter(_TABLES)`); literal constexpr arguments of `kernel[grid](...)` launches in the same module (also of
`kernel.run(..., grid=g, warmup=False)`, of the kernel wrapped by torch for `torch.compile`,
`torch.library.wrap_triton(kernel)[grid](...)` (also `capture_triton`, any import's name for
them, a name bound to the wrapped kernel), and those a `functools.partial(kernel[grid], BLOCK=4096)`
binds, reported at the partial, and those the calls of a helper forwarding its `**kw` into a
launch pass, reported at the call: `launch(x, BLOCK=65536)` of `def launch(x, **kw):
k[grid](x, x.numel(), **kw)`; not when the helper changes its `kw` (`kw["BLOCK"] = ...`,
`kw.update(...)`, `kw.pop(...)`), and a value the helper's launch writes itself, `k[grid](x,
x.numel(), BLOCK=65536, **kw)`, is reported at that launch)
(by keyword or position, also after a splat of unknown length when no parameter has a default:
`k[grid](x, y, *x.stride(), 1024)` passes the last parameter 1024, and after a splat of a
tensor's strides or shape whose rank the function shows: `B, D = x.shape`, or `x` allocated
with two sizes; names bound to a literal, also to an element of a tuple literal (`_, BLOCK =
_TILE` after `_TILE = (8, 131072)`, `*_, BLOCK = _TILE`, `_TILE[1]`, `_TILE[-1]`, nested:
`(BM, (BN, BK)) = _CFG`) or of the tuples a function of the module
returns (`_, BLOCK = _tiles(n)`: each return's, read as `BLOCK=_block(n)` is below),
what a function of the module returns for the arguments a call passes (`BLOCK=_block(n)` of a
`def _block(n): return 4096 if n > 1024 else 1024`: both, as the conditional expression; not a
return, nor an arm, only another platform takes, `if is_npu(): return 1024` (also through a
predicate of the module, `def on_device(): return hasattr(torch, "npu")`) giving 1024 only;
none when the function tests a device query, `if check_shared_mem(): return 128`, a device's
choice; the function the name calls where it is called, not a method nor another function's
nested function of that name, and the method of the class `self._block(n)` calls in one of
its methods, when no other class of the module defines one so named), each item a host loop over items
written out gives the name (`for BLOCK in (1024, 65536):`, when its body does not rebind it;
not one an `if ...: continue` skips on Ascend, `if IS_NPU and BLOCK > 8192: continue`),
host function defaults; each arm of a conditional expression whose test has no value gives
one configuration (`BLOCK = 131072 if n > 1 << 20 else 1024`: both; also nested, inside
`min(...)` or `triton.next_power_of_2(...)`, or written in the launch), not an arm that runs on
another platform only (`4096 if x.device.type == "npu" else 65536`: 4096; `2048 if is_hopper()
else 262144`: 262144), and none when an arm is no constant or the test calls a function, or
names a value bound to such a call (`64 if check_shared_mem() else 32`, `LARGE_SMEM =
check_shared_mem()` then `64 if LARGE_SMEM else 32`: a device's choice); a name bound to a different literal in
each arm of an `if` gives one configuration per value (not that of an arm that runs on another
platform only: `if IS_NPU: BLOCK = 1024` / `else: BLOCK = 131072` gives 1024, as the
conditional expression does, and so does `BLOCK = 131072` then `if IS_NPU: BLOCK = 1024`, the
NPU's arm rebinding the name before anything reads it, also in an `elif` or the `else` of `if
not IS_NPU:`), and so does a literal bound in one arm
when another computes the value at run time: the literal is what the launch passes when its
arm runs, and the finding names that assignment's line; likewise where a call passes such a
name to the function launching with its parameter: `_launch(x, BLOCK)`; a name with no value
otherwise, `B, H, S, D = o.shape`, that an `assert D in {16, 32, 64, 128}` of literals before
the launch restricts gives one configuration per literal (`assert D == 64` one; either also
beside `and`: `assert D in (64, 128) and T > 0`; a bound such as `assert D <= 256` is no
configuration), when the assert is on the launch's
path, not inside an `if` before it, and nothing binds the name between; of the values such a
name, an asserted one or one an `if`/`else` binds to literals, may hold, only those reaching the
launch count: an `if` around it testing the name against literals or module constants (`if D
<= 64:` keeps 16, 32 and 64 of `assert D in {16, 32, 64, 128, 256}`, its `else` the others; `if
D <= _MAX_D:` after `_MAX_D = 64` alike; `==`, `!=`, `in`, `not`, `and` too), or one before it
whose arm leaves (`if D > 64: return`), rules out the values it rejects; a block size chosen by a
test of another name the launch passes goes only with the values of it that test lets through
(`BM = 256 if D <= 64 else 16`, or `if D <= 64: BM = 256` with its `elif`s and `else`, beside
`D=D`: 256 only with D 64), and names bound in one arm go together (`if check_shared_mem():
BM, BD = 256, 64` / `else: BM, BD = 16, 256` never passes 256 with 256), unless the function
binds a name the test reads again after it, as do the arguments of one call of the launching
function (`_launch(x, 64, 256)` and `_launch(x, 256, 16)`: not 256 with 256), also as the
function making that call chooses them (`_launch(x, D, 256 if D <= 64 else 16)`, `BM` bound
under `if D <= 64:` before `_launch(x, D, BM)`, or the call under `if D <= 64:`: 256 only with
D 64, one call up); a capability test of an `if` statement (`if
check_shared_mem():`) leaves both arms, each a configuration); `triton.heuristics` entries (lambdas
or functions of the module) with literal results, constexpr parameter defaults, module-level constants (not one a
parameter of the kernel is named like: the kernel reads what it is passed) and the names the kernel
body binds as constexprs (`BLOCK: tl.constexpr = 65536`, as inductor writes them).

A `min(...)` capping a runtime size gives its cap: `BLOCK = min(65536, triton.next_power_of_2(n))`
passes 65536 once `n` reaches it, and a cap is the author's UB guard, which protects only when
the tiles fit at the cap. The runtime size is an operand no name of which has a value (`n =
x.numel()`, a tensor's shape) and that queries no device (`min(65536, get_ub_size() // 8)` gives
nothing); a name with values (`size = 4096 if wide else 2048`) is not one, and `min(65536,
size)` is each of its values. A size bounded from above where the launch runs is read at that
bound when it stays under the cap (`if n <= 32768:` around `min(triton.next_power_of_2(n),
65536)` passes 32768; fla's `l2norm_fwd_kernel` at `BD=512` under `if D <= 512:`, 768 KiB of UB
at BT=128 by the compiler; nothing when what the cap's operand makes of it has no bound
`HostIndex.at_most` follows). Bounded from above there: by a test of the launching function holding at each of its launches
(an `if` around it, holding in its body and failing in its `else`; an `assert`, an early exit
failing or a checking helper of the module, `_check(n)`, on every path to it: not one after the
launch, in another arm or in a loop before it; not an `if` or a conditional expression choosing
something else, `num_warps = 4 if n <= 1024 else 8`) ordering the size, a name or an
extent its value reads (not a tensor's stride or dtype) below values all under the cap (`if D <=
512:` choosing the kernel, `if x.shape[-1] <= 512:` or `if 2 * D <= 1024:` with `D =
x.shape[-1]`), or such a test in every caller of the launching function (one up), holding at
its call, for what it passes (a call in the `else` of `if D <= 512:` passes sizes over 512). A
cap written in a caller of the launching function is read where it calls it. A name rebound
between the test and the launch to what the test leaves unbounded (`assert n <= 1024`, then `n =
x.numel()`) is not bounded by it.
What the cap's operand makes of a name or extent so bounded is what is under the cap: `if n >
40000: raise` leaves `triton.next_power_of_2(n)` up to 65536, the cap of `min(65536,
triton.next_power_of_2(n))`, which the launch then passes, and `triton.cdiv(n, 64)` up to 625
(the power of two at or above, a division by an int rounding up or down, `min`, `max`, `+`,
`*` and `int` of what grows with the bounded size are followed), also where a caller's test
bounds what it passes for `n`. A floor (`if n > 0:`, `if n == 0: return`, `assert n >= 1`), a bound at or over the cap
(`if N > 65536 // x.element_size(): raise` beside that cap), `N % D == 0`, `D is None`, `w.shape
== (N,)`, and `if D > BD: raise` after `BD = min(...)` (or `BD: int = min(...)`, or `CAP =
min(...)` then `BD = CAP`) do not bound it.
A runtime size passed with no cap, `triton.next_power_of_2(n)` or `triton.cdiv(n, ...)` of a
size with no value (directly or through a name bound to it), is read the same way at the bound
such a test gives it: `if n <= 32768:` (or `n < 32768`, `assert n <= 32768`, `if n > 32768:
raise`) around a launch passing `triton.next_power_of_2(n)` passes 32768, as `min(32768, ...)`
would (FlagGems' `topk`: 388 KiB of UB there by the compiler); with no such test it gives nothing.
So is the size passed bare (`if n <= 8192: k[grid](x, n, BLOCK=n)`, or `BLOCK = n` first): at
the bound, or the largest power of two up to it when the launch passes it for the block of a
`tl.arange` too (8192; also under `n <= 12500`), when no `min` makes it (there, or in what a caller passes for it: `BD =
min(CAP, triton.next_power_of_2(D))` under `if D <= 512:` is the `min`'s value, read as above). A bound carries through a rebinding made of the
tested name: `if n > 1024: raise`, `n = n * 64`, `triton.next_power_of_2(n)` is read at 65536
(not 1024), `n = n - 1` under `n <= 16384` at 16383 (its power of two 16384), `n = n << 4`
at 16 times the bound, an update in place as the rebinding it spells (`n += 1` as `n = n + 1`,
`n *= 64`, `n <<= 4`, `n //= 2` and `n >>= 1` exactly), a line of them through each in turn (`n =
triton.next_power_of_2(n)` then `n <<= 1`; `n >>= 1` then `n += 1` under `n <= 8192` at 4097);
what only shrinks it by an unknown amount (`n -= pad`, `n //= d`, `n >>= s`, `n %= m`) keeps the
bound, and what grows it after grows from that bound, in any order (`n -= pad` then `n += 1`
under `n <= 8192` at 8193; `n %= 64` leaves at most 63 whatever the bound; `n *= m` or `n = n *
m` leaves it unbounded). A membership test bounds a size at the largest value it allows (`if n
not in (1024, 32768): raise`: 32768), and a test of a shape among shapes written out each of its
items at the largest at its place (`shape = tuple(x.shape)`, `if shape not in {(1024, 128),
(32768, 64)}: raise`: `x.shape[0]` at 32768, `x.shape[1]` at 128; also `(M, N) in ...` and `if
shape in SUPPORTED:` with a module set no code changes). A test binding the name it tests, `if (n
:= x.shape[0]) in (1024, 32768):` (also `<=`, `not in` with an arm leaving, the values a function
returns), tests it as `n = x.shape[0]` before the `if` would. A test of the size scaled, shifted or offset by
a known int bounds the size itself: `assert 2 * n <= 65536` reads `n` (and a `min` of it) at
32768, `n + 1 > 32769` at 32768, `n << 2 <= 65536` at 16384. A value made with a `min`
passed for a block the kernel spans a `tl.arange` with compiles only at a power of two: it is
read at the largest one up to its cap or bound (`min(n, 12500)`: 8192; `min(n, 65536)` under
`n <= 20000`: 16384), as a size passed bare is.
In every launch value ASC013 reads, not only in a cap, `x.element_size()` is the element size
of the dtype the host shows for `x`, else 2 (the 16-bit elements the estimate assumes):
`BLOCK = 131072 // x.element_size()` passes 65536 for a tensor of unknown dtype.

An autotuner's `prune_configs_by={"early_config_prune": _prune}` whose function (of the
module, or a lambda) only filters its configs by their tables, `return [c for c in configs if
c.kwargs["BLOCK"] <= UB_ELEMS]`, drops the configs its tests, with the module's constants,
reject (Triton never compiles them; a list of one config it does not prune). A prune doing
anything else, or testing the launch's arguments (`nargs["N"]`), keeps every config.

### The finding
The finding
names the configuration and the tiles that make up the peak, each with its line, and the
element types it took for their pointers (shown by the host, or 16-bit assumed). An autotune
config that overflows with several launches' values is reported once, at the config, for the
largest estimate, and the message counts the other launches; so is a comprehension stating
several configs that overflow (`[triton.Config({"BD": bd}) for bd in [256, 2048]]`), counting
the other configs.

### Kernels other modules define
A kernel another module of the
package defines is estimated where this module launches it (`from .kernels import k`, then
`k[grid](x, BLOCK=4096)`), for the values those launches pass (with its autotune configs: once
per launch, for the largest), from that module's code.

### How the peak is estimated
The estimate sums the tiles live at the statement where the most are live, following what the
compiler's memory planner does (measured on triton-ascend 3.2 with
`--enable-memory-display`; see docs/ub-estimate.md): fp32 accumulators and dot results the
vector core works on, transpose copies, masks, reduction scratch, double-buffered loads in
loops, both arms of a runtime branch while they fit. Tiles that only feed `tl.dot` (or dot
results that are only accumulated, cast or stored, also an accumulator read after its loop)
live in the cube core's L1/L0C and take no UB; vector work on a dot's operands or results is
split between the two vector cores. A dot result the vector cores use in its loop trip lands in
a ring of slots held for the whole loop; arithmetic of its shape that is its only use runs in
its slot (`tl.dot(q, k) * scale`, and `* RCP_LN2` on that), unless one slot cannot hold it: a
product laid out a 32-byte block per element (below) takes its own buffer. So is a cast of a dot operand (`tl.dot(a.to(tl.float32),
b)`): the vector cores convert it, each holding half of the source and half of the result,
one cast at a time (a cast to the width the tile has folds away); a column-major block so cast
(strides `(1, D)`) is transposed through one more buffer, its rows padded to 64 bytes. An address computed with `//` or `%` is loaded and stored
element by element, and the arithmetic, comparisons and casts of what is stored there are
computed in that loop: only the loaded tiles, masks and what cannot move (`tl.where`,
`tl.exp`, reductions) are tiles. A comparison writes its mask into the splat of its scalar
(`x > 0.0`), else into the buffer of a tile operand it reads last (`x > z`, `z` dead after);
a `tl.where` takes a buffer of its own, 32 bytes more (and 32 per scalar operand, `0.0` in
`tl.where(m, x, 0.0)`), and a full tile of its width for each data operand it broadcasts
(`tl.where(m, r[:, None], 0)`).

### Element types
A load through a pointer parameter takes the element type
every launch in the module passes for it, where the host code shows it (`torch.empty(n,
dtype=torch.float32)`, `x.float()`, `x.to(torch.int8)`, `torch.empty_like(t)` of such a `t`,
an `assert x.dtype == ...`, what the launcher's callers pass); loads of unstated element type
(a tensor the launcher receives from outside the module, launches that disagree; for a
kernel only other modules of the package launch, their launches say) count as 16-bit (bf16/fp16), and so do 8-bit ones (int8,
bool, fp8): the compiler widens those for arithmetic (an int8 `a + b` of [32768] plans 640
KiB), which the estimate does not model. A float tile cast to int8 (`(v / s[:, None]).to(tl.int8)`,
a quantisation) converts through int32: while the cast runs it needs two int32 per element
and the int8 result besides the source (an fp32 copy besides a 16-bit one), and a 2-D tile of
fewer than 32 rows is padded to 32 rows through an int32 copy (measured: a [16, 512] fp32 tile
so cast `requires 1835008 bits`, 229376 B).

### UB only
The rule estimates UB only: a dot accumulator too large for L0C (a [256, 256] fp32
accumulator is 256 KiB, L0C 128 KiB on 910B) also fails to compile, with `cc overflow`, and is
not reported.

### Strided tiles
A tile whose address steps along its last axis by a stride the configuration fixes (a block
pointer with strides `(H,)`, `o * H` with `H` a constexpr other than 1) takes 32 bytes per
element in UB (a strided DMA; measured), unless the address adds a column of offsets with
stride 1 (`w + o_k[:, None] + o_n[None, :] * K`): that tile is column-major, kept transposed at
its element width as a block pointer with strides `(1, K)` is; and so does a vector carried round a loop, broadcast
in it and accumulated after (`b_z[None, :] + ...`, then `b_z += ...`), with the loop's tiles
computed from it.
A tile that only feeds `tl.dot`, loaded strided or column-major by address arithmetic, is
gathered into UB by the vector cores and compacted there, whole, to its element width for the
cube core (through a block pointer the cube core takes it by DMA: no UB). With a step the
configuration fixes the gather first puts every element in its own 32-byte block: a [256, 256]
bf16 column-major tile at `K = 5120` asks for its 2 MiB of blocks and the 128 KiB tile
(`requires 17825792 bits`); with a runtime step it gathers straight into the tile (a [1024, 128]
fp16 column-major tile: `requires 2097152 bits`).

### Not flagged
Not flagged: a configuration leaving some tile size unknown (e.g. a block size the host
computes, other than by a cap on a runtime size) counts only the tiles it sizes; it is flagged
only when those alone overflow.

What runs only on another platform than Ascend (the paths ASC001 lists: `if IS_NPU: return
[...]` then the other list, also one a module-level name holds, public or private, `return
CUDA_CONFIGS` of a helper the decorator calls, the `else` of an NPU test, `if torch.cuda.is_available() and not
IS_NPU:`, `current_platform.is_cuda()`, `is_hopper()`, ...) configures nothing: a `triton.Config` stated
there, a launch there; a kernel every launch of which in the module is there has no
configuration. The configs of the NPU's arm, and of paths run everywhere, are estimated.

Arms
of a constexpr branch that a configuration does not compile are not counted.

A configuration is over the UB when its estimate is more than the UB, not when it equals it:
measured, two fp32 tiles of 24576 elements (196608 B) compile, and 8 elements more per tile
overflow (`requires 1573376 bits`). The compiler adds no margin of its own on the kernels
measured at 94-100 % (a gather, int64 index tiles, a `tl.range` loop): where the model sizes
every tile it asks for what the estimate says, to the byte. A tile of a size the
configuration leaves open is counted at 32 bytes: triton-ascend's rab_time kernel at
`COL_BLOCK_SIZE = 8 * 1024` fills 196608 B with its sized tiles, and its gathered weight row of
`inp_row_stride` elements (from the host) asks for 32 B more at 1 element and 544 B at 129
(`ub overflow, requires 1577216 bits while 1572864 bits available`).

A name rebound
in the same block, or bound more than once at module level, has no known value, but for a
line of updates in a function, each computed from the one before, under no `if` or loop,
with no read of the name between (`n = min(n, 1024)` then `n = n * 64` passes `min(n, 1024) *
64`, 65536 at the cap; `BLOCK = 65536` then `BLOCK = min(BLOCK, ...)` the cap, 65536); an
update in each arm of an `if`/`else` is one step of such a line, read as both (`if wide: n =
min(n, 65536)` / `else: n = min(n, 1024)`: 65536 and 1024), not one in a lone `if` or an
`elif` chain, nor when the launch is in an arm; nor does a literal another arm refines (`BLOCK = 4096`,
then `if ...: BLOCK = min(BLOCK, n)`), nor one in an arm that returns before the launch, that
the launch is not in, or that runs on another platform only (after `x.device.type == "npu"`
fails); literals of two names combine only when they can be bound on one path; a list chosen by a runtime test (`[64, 128] if
check_shared_mem() else [32, 64]`, a device's choice) gives no configuration, nor does a
list a platform test chooses so (`NPU_CONFIGS if IS_NPU else CUDA_CONFIGS`: neither list is
estimated, where an `if` statement choosing them has the NPU's estimated).

A stride known
only at run time (`o * stride_d`) or a column-major block may make a strided DMA too, but
whether it does depends on the launch (a contiguous tensor has stride 1, and a column-major
block next to a row-major tile measured at its element width), so the rule counts such tiles
at their element width, and a tile that only feeds `tl.dot` not at all (with a stride other
than 1 the vector cores would gather it into UB for the cube core), unless it is column-major
(its columns are the runtime stride apart, a row length, never 1: counted at its element
width, as measured): the figure it reports is a lower bound there, and runtime strides of 1
never make a finding.

### Calibration
Calibrated on the fixture corpus and fla-core 0.6.0's Ascend kernels against the compiler's
plan (`bench/calibrate_ub.py`); docs/ub-estimate.md states how close the estimate is and
which overflows it misses.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ascend_lint.host import Scope, TensorDtype
from ascend_lint.kernels import Kernel
from ascend_lint.nodes import one_line
from ascend_lint.prefilter import KERNEL_TOKENS, LAUNCH
from ascend_lint.rule import Confirm, Evidence, ModuleContext, Report, Rule
from ascend_lint.specialisations import Configuration, Lookup, evaluate
from ascend_lint.tiles import DEFAULT_POINTER_BITS
from ascend_lint.ub_plan import Contributor, Peak, peak

# 8-bit elements (int8, uint8, bool, fp8) count as 16-bit, as unknown ones do: the compiler widens
# them for arithmetic and the estimate does not model that (measured with triton-ascend 3.2: int8
# `a + b` of [32768] plans 640 KiB, `tl.maximum(a, b)` 256 KiB; a copy of two int8 [65536]
# loads 128 KiB, its loads at 1 byte an element)
_LEAST_COUNTED_BYTES = DEFAULT_POINTER_BITS // 8


def _kib(n_bytes: int) -> str:
    return f"{n_bytes / 1024:.0f} KiB" if n_bytes >= 10240 else f"{n_bytes / 1024:.1f} KiB"


def _kib_over(n_bytes: int, limit: int) -> str:
    """`n_bytes` in KiB, with the decimals (up to three) that tell it from `limit` when they round alike."""
    text, decimals = _kib(n_bytes), 0
    while decimals < 3 and f"{n_bytes / 1024:.{decimals}f}" == f"{limit / 1024:.{decimals}f}":
        decimals += 1
        text = f"{n_bytes / 1024:.{decimals}f} KiB"
    return text


class UbOverflowEstimate(Rule):
    CODE = "ASC013"
    NAME = "ub-overflow-estimate"
    SUMMARY = "A visible constexpr configuration needs more UB than the device has (static estimate)"
    NO_FIX = "which configuration to drop, or how to split the kernel, is a design choice (`ascend-lint confirm --memory` measures the estimate)"
    # a kernel's constexprs, or the launch of a kernel the module imports
    REQUIRES_TOKENS = (("constexpr", LAUNCH), (*KERNEL_TOKENS, LAUNCH))
    CONFIRM = Confirm({"compile": Evidence.UB_PLAN}, "the UB plan and its overflow are the compiler's")
    # the figure is a static estimate: within ±25% of the compiler's plan for about 60% of the
    # calibration's configurations (docs/ub-estimate.md), so a configuration near the capacity
    # may fit (fla's `powglu_fwdbwd_kernel` at B=4096: 193 KiB estimated, 184 KiB planned)
    PRECISION = "medium"

    VALID = (
        # a column-major weight tile loaded through a block pointer with strides (1, IN_DIM)
        # feeding only `tl.dot` is taken by the cube core by DMA (the compiler plans no UB)
        """
@triton.autotune(configs=[triton.Config({"BM": 128, "BN": 256, "BK": 256})], key=["M"])
@triton.jit
def k(out, x, w, M, IN_DIM: tl.constexpr, OUT_DIM: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, IN_DIM, BK):
        offs_k = k0 + tl.arange(0, BK)
        b_x = tl.load(x + rows[:, None] * IN_DIM + offs_k[None, :], mask=rows[:, None] < M, other=0.0)
        p_w = tl.make_block_ptr(w, (IN_DIM, OUT_DIM), (1, IN_DIM), (k0, tl.program_id(1) * BN), (BK, BN), (0, 1))
        acc = tl.dot(b_x, tl.load(p_w), acc)
    tl.store(out + rows[:, None] * OUT_DIM + cols[None, :], acc, mask=rows[:, None] < M)


def proj(x, w, out):
    k[(triton.cdiv(x.shape[0], 128), 2)](out, x, w, x.shape[0], IN_DIM=5120, OUT_DIM=512)
""",
        # after a splat of unknown length, a defaulted parameter leaves the trailing argument's
        # parameter unknown (`*x.stride()` may fill `BLOCK` too)
        """
@triton.jit
def k(x, y, s0, s1, BLOCK: tl.constexpr = 1024):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o * s1, tl.load(x + o * s1) * 2.0)

def run(x):
    k[(1,)](x, torch.empty_like(x), *x.stride(), 131072)
""",
        # a launch's constexpr that is its function's parameter, a call passing what is no
        # constant: its default is the value known
        """
@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)

def _launch(x, n, block=1024):
    scale_kernel[(triton.cdiv(n, block),)](x, n, BLOCK=block)

def scale(x, block):
    _launch(x, x.numel())
    _launch(x, x.numel(), block)
""",
        # every configuration fits (~40 KiB at BD=128)
        """
@triton.autotune(configs=[triton.Config({"BD": 64}), triton.Config({"BD": 128})], key=["D"])
@triton.jit
def k(x, y, T, D, BT: tl.constexpr = 64, BD: tl.constexpr = 64):
    i_t = tl.program_id(0)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    b_x = tl.load(p_x, boundary_check=(0, 1)).to(tl.float32)
    b_y = b_x * tl.rsqrt(tl.sum(b_x * b_x, axis=1) / D + 1e-6)[:, None]
    p_y = tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    tl.store(p_y, b_y.to(p_y.dtype.element_ty), boundary_check=(0, 1))
""",
        # tiles that only feed tl.dot live in the cube core's L1, not in UB
        """
@triton.jit
def k(a, b, c, M, N, K, BM: tl.constexpr = 128, BN: tl.constexpr = 256, BK: tl.constexpr = 256):
    p_a = tl.make_block_ptr(a, (M, K), (K, 1), (0, 0), (BM, BK), (1, 0))
    p_b = tl.make_block_ptr(b, (K, N), (N, 1), (0, 0), (BK, BN), (1, 0))
    p_c = tl.make_block_ptr(c, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(p_c, tl.dot(tl.load(p_a), tl.load(p_b)).to(p_c.dtype.element_ty))
""",
        # an accumulator carried round the K loop and cast after it is stored by the cube core
        # (FlagGems' matmul: no UB planned; at 256x256 its 256 KiB overflow L0C, not UB)
        """
@triton.jit
def k(a, b, c, M, N, K, s_m, s_k, s_n, BM: tl.constexpr = 256, BN: tl.constexpr = 256, BK: tl.constexpr = 256):
    p_a = tl.make_block_ptr(a, (M, K), (s_m, s_k), (0, 0), (BM, BK), (1, 0))
    p_b = tl.make_block_ptr(b, (K, N), (s_k, s_n), (0, 0), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(tl.cdiv(K, BK)):
        b_a = tl.load(p_a)
        b_b = tl.load(p_b)
        acc = tl.dot(b_a, b_b, acc)
        p_a = tl.advance(p_a, (0, BK))
        p_b = tl.advance(p_b, (BK, 0))
    p_c = tl.make_block_ptr(c, (M, N), (s_m, s_n), (0, 0), (BM, BN), (1, 0))
    tl.store(p_c, acc.to(c.dtype.element_ty))
""",
        # a stride-generic GEMM (mojo_opset's allgather_gemm): runtime strides are 1 for
        # contiguous tensors, so the operands go to the cube core by DMA, and `acc += tl.dot(a,
        # b)` on a `tl.zeros` tile accumulates there as `tl.dot(a, b, acc)` does (no UB planned)
        """
@triton.jit
def k(a, b, c, N, K, s_am, s_ak, s_bk, s_bn, BM: tl.constexpr = 128, BN: tl.constexpr = 256, BK: tl.constexpr = 256):
    o_m = tl.program_id(0) * BM + tl.arange(0, BM)
    o_n = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        o_k = i_k * BK + tl.arange(0, BK)
        b_a = tl.load(a + o_m[:, None] * s_am + o_k[None, :] * s_ak)
        b_b = tl.load(b + o_k[:, None] * s_bk + o_n[None, :] * s_bn)
        acc += tl.dot(b_a, b_b)
    tl.store(c + o_m[:, None] * N + o_n[None, :], acc.to(c.dtype.element_ty))
""",
        # rows addressed with `//` and `%` are loaded and stored element by element, and the
        # arithmetic of the stored value moves into that loop: the compiler plans 160 KiB
        """
@triton.jit
def k(x, y, dx, T, D: tl.constexpr = 128, B: tl.constexpr = 8192):
    o = tl.program_id(0) * B + tl.arange(0, B)
    row, col = o // D, o % D
    b_x = tl.load(x + row * D + col, mask=o < T, other=0.0).to(tl.float32)
    b_y = tl.load(y + row * D + col, mask=o < T, other=0.0).to(tl.float32)
    b_s = tl.sigmoid(b_x)
    tl.store(dx + row * D + col, (b_s * (1.0 + b_x * (1.0 - b_s)) * b_y * b_x).to(dx.dtype.element_ty), mask=o < T)
""",
        # a block size the host computes: the tiles it sizes are unknown, nothing to report
        """
@triton.jit
def k(x, y, D, BD: tl.constexpr):
    o = tl.arange(0, BD)
    b_x = tl.load(x + o, mask=o < D).to(tl.float32)
    tl.store(y + o, tl.exp(b_x) * b_x, mask=o < D)

def launch(x, y, D):
    k[(1,)](x, y, D, BD=triton.next_power_of_2(D))
""",
        # the large arm is not compiled in the configuration the launch makes visible
        """
@triton.jit
def k(x, y, T, BT: tl.constexpr, WIDE: tl.constexpr):
    i_t = tl.program_id(0)
    if WIDE:
        p = tl.make_block_ptr(x, (T, 4096), (4096, 1), (i_t * BT, 0), (BT, 4096), (1, 0))
        b = tl.load(p).to(tl.float32)
        tl.store(tl.make_block_ptr(y, (T, 4096), (4096, 1), (i_t * BT, 0), (BT, 4096), (1, 0)), b * b)
    else:
        p = tl.make_block_ptr(x, (T, 128), (128, 1), (i_t * BT, 0), (BT, 128), (1, 0))
        b = tl.load(p).to(tl.float32)
        tl.store(tl.make_block_ptr(y, (T, 128), (128, 1), (i_t * BT, 0), (BT, 128), (1, 0)), b * b)

def launch(x, y, T):
    k[(T // 64,)](x, y, T, BT=64, WIDE=False)
""",
        # strides known only at run time: counted dense (a stride of 1 is specialised away)
        """
@triton.jit
def k(x, y, N, stride_n, stride_d, BN: tl.constexpr = 64, BD: tl.constexpr = 256):
    o_n = tl.program_id(0) * BN + tl.arange(0, BN)
    o_d = tl.arange(0, BD)
    b_x = tl.load(x + o_n[:, None] * stride_n + o_d[None, :] * stride_d).to(tl.float32)
    tl.store(y + o_n[:, None] * stride_n + o_d[None, :] * stride_d, b_x * tl.sigmoid(b_x))
""",
        # configs in a module-level list and from a helper's comprehension (its `if` drops the
        # large block, and the `num_warps` loop binds no constexpr): all fit (128 KiB at 16384)
        """
SMALL_CONFIGS = [triton.Config({"BLOCK": 1024}), triton.Config(dict(BLOCK=16384))]
BLOCKS = [4096, 16384, 65536]

def get_configs():
    return [triton.Config({"BLOCK": b}, num_warps=w) for b in BLOCKS if b <= 16384 for w in NUM_WARPS]

@triton.autotune(configs=SMALL_CONFIGS, key=["n"])
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)

@triton.autotune(configs=get_configs(), key=["n"])
@triton.jit
def k2(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)
""",
        # the NPU's arm of a later `if` rebinds the default before the launch reads it: on
        # Ascend the launch passes 1024
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)

def launch(x, y, n):
    BLOCK = 131072
    if x.device.type == "npu":
        BLOCK = 1024
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
""",
        # a cap on a size that has values (2048 or 4096, both under it), on a device's answer,
        # or on a size a test bounds (`if D <= 512:`), is not known to be reached
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n).to(tl.float32)
    tl.store(y + o, b / 2.0, mask=o < n)

def launch(x, y, n, wide):
    size = 4096 if wide else 2048
    BLOCK = min(65536, size)
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    BLOCK = min(65536, get_ub_size() // 8)
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)

def launch_rows(x, y):
    D = x.shape[-1]
    BLOCK = min(65536, triton.next_power_of_2(D))
    if D <= 512:
        k[(x.shape[0],)](x, y, D, BLOCK=BLOCK)

def launch_pairs(x, y):
    D = x.shape[-1]
    BLOCK = min(65536, triton.next_power_of_2(D))
    if 2 * x.shape[-1] > 1024:
        raise ValueError("rows too wide")
    k[(x.shape[0],)](x, y, D, BLOCK=BLOCK)
""",
        # each arm of the runtime branch fits alone (96 KiB); their sum does not, so the
        # planner overlaps them
        """
@triton.jit
def k(x, y, T, NT, BT: tl.constexpr = 192, BD: tl.constexpr = 128):
    i_t = tl.program_id(0)
    o_t = i_t * BT + tl.arange(0, BT)
    o_d = tl.arange(0, BD)
    if i_t == NT - 1:
        m = (o_t[:, None] < T) & (o_d[None, :] < BD)
        b = tl.load(x + o_t[:, None] * BD + o_d[None, :], mask=m, other=0.0).to(tl.float32)
        tl.store(y + o_t[:, None] * BD + o_d[None, :], b * 2.0, mask=m)
    else:
        p = tl.make_block_ptr(x, (T, BD), (BD, 1), (i_t * BT, 0), (BT, BD), (1, 0))
        b = tl.load(p).to(tl.float32)
        tl.store(tl.make_block_ptr(y, (T, BD), (BD, 1), (i_t * BT, 0), (BT, BD), (1, 0)), b * 2.0)
""",
        # configs a loop appends, the over-budget ones skipped by a `continue` guard or an `if`
        """
def _configs():
    configs = []
    for block in (1024, 65536):
        if block > 4096:
            continue
        for rows in (1, 64):
            if block * rows <= 8192:
                configs.append(triton.Config({"BLOCK": block, "ROWS": rows}))
    return configs

@triton.autotune(configs=_configs(), key=["n"])
@triton.jit
def k(x, n, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK * ROWS + tl.arange(0, BLOCK * ROWS)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)
""",
        # configs and launches for another platform only (after `if IS_NPU: return ...`, under
        # a CUDA-only test, in the `else` of an NPU test): never compiled on Ascend
        """
def get_configs():
    if torch.cuda.is_available() and not IS_NPU:
        return [triton.Config({"BLOCK": 131072}, num_warps=8)]
    if IS_NPU:
        configs = [triton.Config({"BLOCK": 1024})]
    else:
        configs = [triton.Config({"BLOCK": 65536})]
    return configs

@triton.autotune(configs=get_configs(), key=["n"])
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)

@triton.jit
def k2(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o, mask=o < n).to(tl.float32) * 2.0, mask=o < n)

def launch(x, y, n):
    if x.device.type == "cuda":
        k2[(triton.cdiv(n, 131072),)](x, y, n, BLOCK=131072)
        return
    k2[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)

def launch_chosen(x, y, n):  # the block the CUDA arm binds never reaches the launch on Ascend
    if IS_NPU:
        BLOCK = 1024
    else:
        BLOCK = 131072
    k2[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    ROWS = 1024
    if x.device.type == "cuda":
        ROWS = 131072
    k2[(triton.cdiv(n, ROWS),)](x, y, n, BLOCK=ROWS)
""",
        # an early prune rejecting the configs over a literal bound: Triton never compiles them
        """
UB_ELEMS = 16384

def _prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] <= UB_ELEMS]

@triton.autotune(
    configs=[triton.Config({"BLOCK": b}) for b in (1024, 16384, 65536)],
    key=["n"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * 2.0, mask=o < n)
""",
        # a block size chosen by a test of another launch argument goes with the values it lets
        # through: 256 only with D 64 (64 KiB), and the two names bound in one arm go together;
        # also when the caller of a launching helper chooses it
        """
@triton.jit
def k(x, y, T, D: tl.constexpr, BM: tl.constexpr):
    p = tl.make_block_ptr(x, (T, D), (D, 1), (tl.program_id(0) * BM, 0), (BM, D), (1, 0))
    b = tl.load(p, boundary_check=(0, 1)).to(tl.float32)
    q = tl.make_block_ptr(y, (T, D), (D, 1), (tl.program_id(0) * BM, 0), (BM, D), (1, 0))
    tl.store(q, (tl.exp(b) * b).to(q.dtype.element_ty), boundary_check=(0, 1))

_MAX_D = 64

def launch(x, y):
    B, T, D = x.shape
    assert D in {64, 128, 256}
    if D <= _MAX_D:
        BM = 256
    elif D <= 128:
        BM = 64
    else:
        BM = 16
    k[(triton.cdiv(T, BM),)](x, y, T, D=D, BM=BM)

def launch_pair(x, y, T):
    if check_shared_mem():
        BM, BD = 256, 64
    else:
        BM, BD = 16, 256
    k[(triton.cdiv(T, BM),)](x, y, T, D=BD, BM=BM)

def _launch(x, y, T, D, BM):
    k[(triton.cdiv(T, BM),)](x, y, T, D=D, BM=BM)

def by_head(x, y, T, D):
    _launch(x, y, T, D, 256 if D <= 64 else 16)  # the caller's choice: 256 only with D 64

def heads(x, y, T):
    by_head(x, y, T, 64)
    by_head(x, y, T, 256)
""",
    )
    INVALID = (
        # a column-major weight tile addressed as `w + o_k[:, None] + o_n[None, :] * IN_DIM`
        # feeding only `tl.dot`: the vector cores gather it for the cube core, 32 bytes per
        # element with a constexpr stride, then compact it (`requires 17825792 bits`)
        """
@triton.autotune(configs=[triton.Config({"BM": 128, "BN": 256, "BK": 256})], key=["N"])  # expect
@triton.jit
def k_col(x, w, y, N, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    o_m, o_n = tl.program_id(0) * BM + tl.arange(0, BM), tl.program_id(1) * BN + tl.arange(0, BN)
    b_y = tl.zeros((BM, BN), dtype=tl.float32)
    for i_k in range(K // BK):
        o_k = i_k * BK + tl.arange(0, BK)
        b_w = tl.load(w + o_k[:, None] + o_n[None, :] * K)  # column-major
        b_y = tl.dot(tl.load(x + o_m[:, None] * K + o_k[None, :]), b_w, b_y)
    tl.store(y + o_m[:, None] * N + o_n[None, :], b_y)


def project(x, w, y):
    k_col[(x.shape[0] // 128, 2)](x, w, y, 512, K=5120)
""",
        # the tile size passed by position after a splat of the strides: the last parameter
        """
@triton.jit
def k(x, y, s0, s1, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o * s1, tl.load(x + o * s1) * 2.0)

def run(x):
    k[(1,)](x, torch.empty_like(x), *x.stride(), 131072)  # expect

@triton.jit
def k_tuned(x, y, s0, s1, BLOCK: tl.constexpr = 1024):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o * s1, tl.load(x + o * s1) * 2.0)

def run_tuned(x):  # a default: the splat's length is the rank `B, D = x.shape` shows
    B, D = x.shape
    k_tuned[(B,)](x, torch.empty_like(x), *x.stride(), 131072)  # expect
""",
        # a block size unpacked from a module's tuple, or from the tuples a helper returns
        """
_TILE = (8, 131072)

@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)

def run(x, y):
    _, BLOCK = _TILE
    k[(1,)](x, y, x.numel(), BLOCK=BLOCK)  # expect

def _tiles(n):
    if n > 4096:
        return 8, 262144
    return 8, 1024

def run_tiled(x, y):
    _, BLOCK = _tiles(x.numel())
    k[(1,)](x, y, x.numel(), BLOCK=BLOCK)  # expect
""",
        # a block size read from a module's tuple past a starred target, by a negative index,
        # or from a tuple nested in it
        """
_SHAPES = (8, 65536, (262144, 64))

@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)

def run(x, y):
    *_, (BLOCK, _) = _SHAPES
    k[(1,)](x, y, x.numel(), BLOCK=BLOCK)  # expect
    k[(1,)](x, y, x.numel(), BLOCK=_SHAPES[-2])  # expect
""",
        # a cap carried through the rebindings of one name: the launches pass 65536 (1024 * 64)
        # and 131072 once `n` reaches the cap
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)

def launch(x, y):
    n = x.numel()
    n = min(n, 1024)
    n = n * 64
    k[(triton.cdiv(x.numel(), n),)](x, y, x.numel(), BLOCK=n)  # expect

def launch_capped(x, y, n):
    BLOCK = 131072
    BLOCK = min(BLOCK, triton.next_power_of_2(n))
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # expect
""",
        # a block size a method of the launching class chooses, and the one a helper returns
        # on the NPU, its test a predicate of the module
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)

def on_device():
    return hasattr(torch, "npu")

def _npu_block():
    if on_device():
        return 262144
    return 1024

class Scale:
    def _block(self, n):
        return 131072 if n > 1 << 20 else 1024

    def __call__(self, x, y):
        k[(1,)](x, y, x.numel(), BLOCK=self._block(x.numel()))  # expect
        k[(1,)](x, y, x.numel(), BLOCK=_npu_block())  # expect
""",
        # a block size a helper chooses, and one a host loop launches with in turn
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)

def _block(n):
    return 131072 if n > 1 << 20 else 1024

def run(x, y):
    k[(1,)](x, y, x.numel(), BLOCK=_block(x.numel()))  # expect

def sweep(x, y):
    for BLOCK in (1024, 262144):
        k[(1,)](x, y, x.numel(), BLOCK=BLOCK)  # expect
""",
        # a block size passed to a helper forwarding its keywords into the launch
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)

def launch(x, y, **kw):
    k[(1,)](x, y, x.numel(), **kw)

def run(x, y):
    launch(x, y, BLOCK=131072)  # expect
""",
        # loads and stores written with keywords, the pointer last
        """
@triton.jit
def scale(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(mask=offs < n, other=0.0, pointer=x + offs).to(tl.float32)
    b_w = tl.load(mask=offs < n, other=0.0, pointer=y + offs).to(tl.float32)
    tl.store(mask=offs < n, value=b_x * b_w, pointer=y + offs)

def run(x, y):
    scale[(triton.cdiv(x.numel(), 32768),)](x, y, x.numel(), BLOCK=32768)  # expect
""",
        # one autotune configuration over budget: reported at that configuration
        """
@triton.autotune(
    configs=[
        triton.Config({"BD": 128}),
        triton.Config({"BD": 1024}),  # expect
    ],
    key=["D"],
)
@triton.jit
def k(x, y, T, D, BT: tl.constexpr = 64, BD: tl.constexpr = 128):
    i_t = tl.program_id(0)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    b_x = tl.load(p_x, boundary_check=(0, 1)).to(tl.float32)
    b_y = b_x * tl.rsqrt(tl.sum(b_x * b_x, axis=1) / D + 1e-6)[:, None]
    p_y = tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    tl.store(p_y, b_y.to(p_y.dtype.element_ty), boundary_check=(0, 1))
""",
        # a launch's literal constexpr, also through a name bound only to the kernel
        """
@triton.autotune(configs=[triton.Config({"BLOCK_M": m}) for m in (8, 32)], key=["N"])  # expect
@triton.jit
def gelu(x, y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < M) & (cols < N)
    b_x = tl.load(x + rows * N + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y + rows * N + cols, 0.5 * b_x * (1.0 + tl.erf(b_x * 0.7071067811865476)), mask=mask)

def run(x, y):
    M, N = x.shape
    kernel = gelu
    kernel[lambda meta: (triton.cdiv(M, meta["BLOCK_M"]),)](x, y, M, N, BLOCK_N=2048)
""",
        # a launch through the class holding the kernel, or a table of kernels
        """
class Ops:
    @staticmethod
    @triton.jit
    def scale_kernel(x, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
        tl.store(x + offs, b_x * 2.0, mask=offs < n)

def scale(x):
    n = x.numel()
    Ops.scale_kernel[(triton.cdiv(n, 65536),)](x, n, BLOCK=65536)  # expect
""",
        """
@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)

KERNELS = {"scale": scale_kernel}

def scale(x):
    n = x.numel()
    KERNELS["scale"][(triton.cdiv(n, 65536),)](x, n, BLOCK=65536)  # expect
""",
        # a launch's constexpr that is its function's parameter: what the calls pass
        """
@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)

def _launch(x, n, block):
    scale_kernel[(triton.cdiv(n, block),)](x, n, BLOCK=block)  # expect

def scale(x):
    BLOCK = 65536
    _launch(x, x.numel(), BLOCK)
""",
        # a launch's literal constexpr given in a `**` dict
        """
@triton.jit
def gelu(x, y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < M) & (cols < N)
    b_x = tl.load(x + rows * N + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y + rows * N + cols, 0.5 * b_x * (1.0 + tl.erf(b_x * 0.7071067811865476)), mask=mask)

def run(x, y):
    M, N = x.shape
    sizes = {"BLOCK_M": 32, "BLOCK_N": 2048}
    gelu[(triton.cdiv(M, 32),)](x, y, M, N, **sizes)  # expect
""",
        # a comprehension over literal lists: only the large combinations are reported
        """
@triton.autotune(
    configs=[triton.Config({"BT": bt, "BD": bd}) for bt in [32, 64] for bd in [256, 2048]],  # expect
    key=["D"],
)
@triton.jit
def k(x, y, T, D, BT: tl.constexpr, BD: tl.constexpr):
    i_t = tl.program_id(0)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    b_x = tl.load(p_x, boundary_check=(0, 1)).to(tl.float32)
    p_y = tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    tl.store(p_y, (b_x * tl.sigmoid(b_x)).to(p_y.dtype.element_ty), boundary_check=(0, 1))
""",
        # the same over `itertools.product` of the lists
        """
import itertools

import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BT": bt, "BD": bd}) for bt, bd in itertools.product([32, 64], [256, 2048])],  # expect
    key=["D"],
)
@triton.jit
def k(x, y, T, D, BT: tl.constexpr, BD: tl.constexpr):
    i_t = tl.program_id(0)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    b_x = tl.load(p_x, boundary_check=(0, 1)).to(tl.float32)
    p_y = tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    tl.store(p_y, (b_x * tl.sigmoid(b_x)).to(p_y.dtype.element_ty), boundary_check=(0, 1))
""",
        # configs in a module-level list: reported at the configuration over budget
        """
CONFIGS = [
    triton.Config({"BLOCK": 1024}),
    triton.Config({"BLOCK": 65536}),  # expect
]

@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)
""",
        # configs a function of the module returns, one list per device branch
        """
def get_autotune_config():
    if IS_SMALL_DEVICE:
        return [triton.Config({"BLOCK": 1024})]
    return [
        triton.Config({"BLOCK": 4096}),
        triton.Config({"BLOCK": 65536}),  # expect
    ]

@triton.autotune(configs=get_autotune_config(), key=["n"])
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)
""",
        # the configs of the NPU's arm are estimated; the other platform's are not
        """
def get_autotune_config():
    if IS_NPU:
        return [triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 65536})]  # expect
    return [triton.Config({"BLOCK": 131072}, num_warps=8)]

@triton.autotune(configs=get_autotune_config(), key=["n"])
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)
""",
        # a comprehension over module-level lists (the `num_warps` loop binds no constexpr)
        # and a `dict(...)` table
        """
BLOCK_LIST = [1024, 65536]

@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in BLOCK_LIST for w in NUM_WARPS],  # expect
    key=["n"],
)
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)

@triton.autotune(configs=[triton.Config(dict(BLOCK=32768))], key=["n"])  # expect
@triton.jit
def k2(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(y + o, b * tl.sigmoid(b), mask=o < n)
""",
        # a launch block chosen between two literals: each is a specialisation, the larger
        # one (44032 x 6 bytes) is over budget
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n).to(tl.float32)
    tl.store(y + o, b / 2.0, mask=o < n)

def launch(x, y, n, new_version):
    if new_version:
        BLOCK = 16384
    else:
        BLOCK = 44032
    k[(1, triton.cdiv(n, BLOCK))](x, y, n, BLOCK=BLOCK)  # expect
""",
        # a launch block that is a literal in one arm only (the other computes it from the
        # data): when that arm runs the launch passes 44032, over budget
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n).to(tl.float32)
    tl.store(y + o, b / 2.0, mask=o < n)

def launch(x, y, n):
    if n > 65536:
        BLOCK = 44032
    else:
        BLOCK = triton.next_power_of_2(n)
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # expect

def launch_through_a_helper(x, y, n):  # such arms, the launch in a helper called with them
    if n > 65536:
        BLOCK = 40960
    else:
        BLOCK = triton.next_power_of_2(n)
    _launch(x, y, n, BLOCK)

def _launch(x, y, n, BLOCK):
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # expect
""",
        # a cap on a runtime size: `n` may grow past it, so the launch passes the cap (65536)
        """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n).to(tl.float32)
    tl.store(y + o, tl.exp(b) / 2.0, mask=o < n)

def launch(x, y):
    n = x.numel()
    if n == 0:  # a floor: `n` may still grow past the cap
        return
    BLOCK = min(65536, triton.next_power_of_2(n))
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # expect

@triton.jit
def k2(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n).to(tl.float32)
    tl.store(y + o, tl.exp(b) * tl.sigmoid(b) + b, mask=o < n)

def launch_in_bytes(x, y):  # a byte budget: 32768 elements of 16 bits
    n = x.numel()
    BLOCK = min(65536 // x.element_size(), triton.next_power_of_2(n))
    k2[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # expect
""",
        # no cap, but a test around the launch bounds the row: the block reaches 32768 there
        """
@triton.jit
def k(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < N, other=-1e30).to(tl.float32)
    i = tl.argmax(x, axis=0)
    x = tl.where(cols.to(tl.float32) == i.to(tl.float32), -1e30, x)
    tl.store(y_ptr + cols, x, mask=cols < N)

def launch(x, y):
    n = x.shape[-1]
    if n <= 32768:
        BLOCK = triton.next_power_of_2(n)
        k[(40,)](x, y, n, BLOCK=BLOCK)  # expect
""",
        # lanes built from the index of a `tl.range` loop whose bounds are int64: Triton gives
        # the index its bounds' widest type, so they are int64 (8 bytes each)
        """
@triton.jit(do_not_specialize=["num_tasks", "num_blocks", "n"])
def k(x, y, num_tasks, num_blocks, n, BLOCK: tl.constexpr):
    worker = tl.program_id(0).to(tl.int64)
    per_worker = num_tasks.to(tl.int64) // tl.num_programs(0)
    for task in tl.range(worker * per_worker, worker * per_worker + per_worker):
        offsets = task % num_blocks * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        b = tl.load(x + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(y + task, tl.max(tl.where(mask, b, float("-inf")), axis=0))

def launch(x, y, n):
    num_blocks = triton.cdiv(n, 16384)
    k[(40,)](x, y, num_blocks, num_blocks, n, BLOCK=16384)  # expect
""",
        # literal launch constexprs; vector work on a dot result, a causal mask and a
        # transpose copy make the peak
        """
@triton.jit
def k(q, k, o, T, BT: tl.constexpr, BK: tl.constexpr):
    i_t = tl.program_id(0)
    p_q = tl.make_block_ptr(q, (T, BK), (BK, 1), (i_t * BT, 0), (BT, BK), (1, 0))
    p_k = tl.make_block_ptr(k, (T, BK), (BK, 1), (i_t * BT, 0), (BT, BK), (1, 0))
    b_q = tl.load(p_q, boundary_check=(0, 1))
    b_k = tl.load(p_k, boundary_check=(0, 1)) * 2.0
    b_s = tl.dot(b_q, tl.trans(b_k))
    o_t = tl.arange(0, BT)
    b_s = tl.where(o_t[:, None] >= o_t[None, :], tl.exp(b_s), 0.0)
    p_o = tl.make_block_ptr(o, (T, BT), (BT, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    tl.store(p_o, b_s.to(p_o.dtype.element_ty), boundary_check=(0, 1))

def launch(q, k, o, T):
    k[(T // 256,)](q, k, o, T, BT=256, BK=128)  # expect
""",
        # float32 tensors, as the launcher allocates them: four fp32 loads of 64 KiB each (16-bit
        # elements would fit)
        """
@triton.jit
def k(a, b, c, d, out, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_a = tl.load(a + o, mask=o < n)
    b_b = tl.load(b + o, mask=o < n)
    b_c = tl.load(c + o, mask=o < n)
    b_d = tl.load(d + o, mask=o < n)
    tl.store(out + o, b_a * b_b + b_c * b_d, mask=o < n)

def fma2(n):
    a = torch.randn(n, dtype=torch.float32, device="npu")
    b, c, d, out = (torch.empty_like(a) for _ in range(4))
    k[(triton.cdiv(n, 16384),)](a, b, c, d, out, n, BLOCK=16384)  # expect
""",
        # int8 tensors count as 16-bit: the compiler widens them for the sum (it plans 640 KiB)
        """
@triton.jit
def k(x, y, z, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(x + o, mask=o < n)
    b = tl.load(y + o, mask=o < n)
    tl.store(z + o, a + b, mask=o < n)

def launch(x, n):
    q = x.to(torch.int8)
    k[(triton.cdiv(n, 32768),)](q, q, torch.empty_like(q), n, BLOCK=32768)  # expect
""",
        # a tile size the body binds as a constexpr (how inductor writes them)
        """
@triton.jit
def k(x, y, n):  # expect
    BLOCK: tl.constexpr = 65536
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(x + o, mask=o < n, other=0.0)
    tl.store(y + o, tl.exp(a) + a * 2.0, mask=o < n)
""",
        # a heuristic written as a function of the module
        """
def _block(args):
    return 65536

@triton.heuristics({"BLOCK": _block})
@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)

def scale(x):
    n = x.numel()
    scale_kernel[(triton.cdiv(n, 65536),)](x, n)  # expect
""",
        # configs `for` loops append to a list, in a helper or at module level, and a list
        # extended with `+=`
        """
def _configs():
    configs = []
    for block in (1024, 65536):
        for num_warps in (4, 8):
            configs.append(triton.Config({"BLOCK": block}, num_warps=num_warps))  # expect
    return configs

CONFIGS = []
for block in (1024, 65536):
    CONFIGS.append(triton.Config({"BLOCK": block}))  # expect

TUNED = [triton.Config({"BLOCK": 1024})]
TUNED += [triton.Config({"BLOCK": 65536})]  # expect

@triton.autotune(configs=_configs(), key=["n"])
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)

@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def k_module(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)

@triton.autotune(configs=TUNED, key=["n"])
@triton.jit
def k_extended(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x * 2.0, mask=offs < n)
""",
        # a capability test decides nothing the linter knows: either arm may run, and 512 rows
        # of D 64 in fp32, twice, need 256 KiB
        """
@triton.jit
def k(x, y, T, D: tl.constexpr, BM: tl.constexpr):
    p = tl.make_block_ptr(x, (T, D), (D, 1), (tl.program_id(0) * BM, 0), (BM, D), (1, 0))
    b = tl.load(p, boundary_check=(0, 1)).to(tl.float32)
    q = tl.make_block_ptr(y, (T, D), (D, 1), (tl.program_id(0) * BM, 0), (BM, D), (1, 0))
    tl.store(q, (tl.exp(b) * b).to(q.dtype.element_ty), boundary_check=(0, 1))

def launch(x, y):
    B, T, D = x.shape
    assert D in {32, 64}
    if check_shared_mem():
        BM = 512
    else:
        BM = 16
    k[(triton.cdiv(T, BM),)](x, y, T, D=D, BM=BM)  # expect
""",
    )

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        """The kernels of other modules of the package this one launches, for the values its
        launches pass (`from .kernels import k`, then `k[grid](x, BLOCK=4096)`)."""
        for kernel, launches in context.host.imported_kernel_launches().items():
            yield from self._estimates(kernel, context, {launch.call: launch.scope for launch in launches})

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        yield from self._estimates(kernel, context)

    def _estimates(
        self, kernel: Kernel, context: ModuleContext, launched_here: dict[cst.CSTNode, Scope] | None = None
    ) -> Iterator[Report]:
        """The overflowing configurations of the kernel. For one of another module, launched
        at `launched_here`: those with the values of such a launch (with its autotune configs
        too), reported at the launch and related to no tile (those are in the kernel's file)."""
        configurations = context.configurations(kernel)
        if launched_here is not None:
            configurations = [c for c in configurations if c.sources and c.sources[-1] in launched_here]
        if not any(c.values for c in configurations):
            return
        model = kernel.tiles
        soc = context.soc
        # the overflowing configurations by where they are stated: an autotune config launched with
        # several sets of values, or a comprehension stating several configs, is reported once,
        # for the largest estimate
        worst: dict[cst.CSTNode, list[tuple[Configuration, Peak]]] = {}
        passed = {
            p.name: dtype
            for p in kernel.params
            if not p.is_constexpr and (dtype := context.host.dtype_passed(kernel, p.name)) is not None
        }
        pointer_bytes = {name: max(dtype.element_bytes, _LEAST_COUNTED_BYTES) for name, dtype in passed.items()}
        for configuration in configurations:
            needed = peak(model, configuration.values, pointer_bytes, dense=True, capacity=soc.ub_bytes)
            if needed.bytes > soc.ub_bytes:
                node = configuration.node if launched_here is None else configuration.sources[-1]
                worst.setdefault(node or kernel.node.name, []).append((configuration, needed))
        for node, overflowing in worst.items():
            configuration, needed = max(overflowing, key=lambda pair: pair[1].bytes)
            others = len(overflowing) - 1
            tuned = launched_here is not None or any(c.tuned != configuration.tuned for c, _ in overflowing)
            counted = ("autotune config", "autotune configs") if tuned else ("launch", "launches")
            also = f" (and {others} other {counted[others > 1]} of it)" if others else ""
            top = needed.top(3)
            lookup = model.lookup(configuration.values)
            pointers = {c.value.width.pointer for c in top if c.value.width.pointer is not None}
            shown = {name: passed[name] for name in sorted(pointers & passed.keys())}
            yield Report(
                node,
                f"`{kernel.name}` needs about {_kib_over(needed.bytes, soc.ub_bytes)} of UB with {configuration.label}{also}, over the "
                f"{_kib(soc.ub_bytes)} the {soc.label} has (target-soc `{soc.name}`); largest live tiles: "
                + ", ".join(_describe(c, lookup) for c in top)
                + _left_open(needed, lookup)
                + _element_types(shown, sorted(pointers - passed.keys())),
                related=(
                    *(
                        (
                            arm,
                            "the launch value of this configuration, one of those asserted here"
                            if isinstance(arm, cst.Assert)
                            else "the launch value of this configuration, bound here on one path",
                        )
                        for arm in dict.fromkeys(configuration.arms)  # one note for an assert of two names
                    ),
                    *((c.value.node, f"{_describe(c, lookup)} live at the peak") for c in top if launched_here is None),
                    *_dtype_notes(shown),
                ),
                facts={"configuration": _constexprs(kernel, configuration), "estimate_bytes": needed.bytes},
                within=configuration.within if launched_here is None else launched_here.get(node),
            )


def _constexprs(kernel: Kernel, configuration: Configuration) -> tuple[str, ...]:
    """The configuration's values of the kernel's constexpr parameters, as `NAME=value`."""
    names = {p.name for p in kernel.params if p.is_constexpr} | set(kernel.provided_constexprs)
    return tuple(f"{name}={value!r}" for name, value in configuration.values.items() if name in names)


def _element_types(shown: dict[str, TensorDtype], assumed: list[str]) -> str:
    """The element types taken for the pointers of the largest tiles: those the module's
    launches pass, and 16-bit for the others."""
    by_dtype: dict[str, list[str]] = {}
    for name, dtype in shown.items():
        by_dtype.setdefault(dtype.dtype, []).append(name)
    parts = [
        f"{dtype} elements in `{'`, `'.join(names)}` as launched"
        + (", counted as 16-bit" if shown[names[0]].element_bytes < _LEAST_COUNTED_BYTES else "")
        for dtype, names in by_dtype.items()
    ]
    if assumed:
        parts.append(f"assuming 16-bit elements in `{'`, `'.join(assumed)}`")
    return f" ({'; '.join(parts)})" if parts else ""


def _dtype_notes(shown: dict[str, TensorDtype]) -> list[tuple[cst.CSTNode, str]]:
    """One note at each host node showing the dtype the launches pass for some of the pointers."""
    names: dict[cst.CSTNode, list[str]] = {}
    for name, dtype in shown.items():
        names.setdefault(dtype.shown_by, []).append(name)
    return [
        (node, f"{shown[held[0]].dtype} elements, as the launches pass for `{'`, `'.join(held)}`")
        for node, held in names.items()
    ]


def _describe(contributor: Contributor, lookup: Lookup) -> str:
    return f"{_shaped(contributor, lookup)} {_kib(contributor.bytes)}"


def _shaped(contributor: Contributor, lookup: Lookup) -> str:
    dims = []
    for dim in contributor.value.shape:
        size = evaluate(dim, lookup)
        dims.append(str(size) if size is not None else one_line(dim))
    return f"{contributor.name or 'temporary'} [{', '.join(dims)}]"


def _left_open(needed: Peak, lookup: Lookup) -> str:
    """The tiles live at the peak whose size the configuration leaves open, each counted at one
    32-byte block, the least a buffer takes (`inp_val [inp_row_stride]`)."""
    left = [_shaped(c, lookup) for c in needed.contributors if c.value in needed.unsized]
    return f"; at least 32 B each for {', '.join(left)}, whose size the configuration leaves open" if left else ""
