"""
## What it does
Flags `ptr += ...` / `ptr -= ...` (or `ptr = ptr + ...`, a block pointer's `p =
tl.advance(p, ...)`, or an offset `o += ...` later added to a pointer) inside a 1-D core-grid
task loop (`for task_id in tl.range(core_id, task_num, num_core)`, start derived from
`tl.program_id`) when the pointer was defined outside the task loop, so the advance
accumulates from one task into the next. The same loop written with `while`, by counting
trips, or with `tl.parallel` is a task loop too, as is a grid-stride loop (`range(pid *
BLOCK, n, NUM_CORE * BLOCK)`, `NUM_CORE` constexpr too); a loop from a computed start by a
constexpr tile (`tl.range(i_s * BS, T, BS)`) walks one program's blocks and is an ordinary loop.

## Why is this bad?
Triton-Ascend can mis-compile a pointer carried across the iterations of a task loop:
wrong results or NaN that show up only in multi-task launches, which makes the bug look
shape-dependent. The guidance is to rebind local pointers at the top of every task.

## Example
```python
for task_id in tl.range(core_id, task_num, num_core):
    q += task_id * stride  # accumulates across tasks
    b_q = tl.load(q + offs)
    p_o = tl.advance(p_o, (BT,))  # a block pointer made before the loop: the same
```

## Use instead
```python
for task_id in tl.range(core_id, task_num, num_core):
    q_ptr = q + task_id * stride  # rebound per task
    b_q = tl.load(q_ptr + offs)
    p_o = tl.make_block_ptr(o, (T,), (1,), (task_id * BT,), (BT,), (0,))
```
Advancing a pointer rebound at the top of the task inside an inner loop is fine, as are
`q += offset` at kernel entry and per-timestep advances in ordinary loops.

## Fix safety
Unsafe (applied with `--unsafe-fixes`), in two shapes: a walk in closed form (`p` rebound to
`base + i * c` at the top of trip `i` and the advance deleted: same values under standard
semantics), and a per-task offset (`q += task_id * T` becomes `q_task = q + task_id * T`:
values change from each core's second task on, on purpose). Anything else, every block
pointer's `tl.advance` and every advance a device function makes, is left to the author and
the finding says why.

## Details
### Task loops
Flags `ptr += ...` / `ptr -= ...` (or `ptr = ptr + ...`) inside a 1-D core-grid task loop
(`for task_id in tl.range(core_id, task_num, num_core)`, start derived from
`tl.program_id`) when the pointer was defined outside the task loop, so the advance
accumulates from one task into the next. A task loop starts at the program id itself
(`core_id = tl.program_id(0)`, any step), or at a value computed from it with a step that
is not a compile-time constant (`range(pid * 256, n, num_ctas * 256)`) or that strides
over the programs: a start `pid * A` plus terms reading no program id (`pid * BLOCK`, `pid *
2 + sub`, also through names) and a step `A` times a kernel parameter that is no factor of
`A`, constexpr or not, the program count (`range(pid * BLOCK, n, NUM_CORE * BLOCK)`,
`range(pid * 2 + sub, M, G * 2)`: each program takes every `C`-th block from its own). A
loop from a computed start by a constexpr tile (`tl.range(i_s * BS, T, BS)`), or by the tile
times a literal (`2 * BS`), walks one program's blocks and is an ordinary loop. The same loop written with `while` (`i = pid`,
`while i < n:` ... `i += num_programs`), counting trips (`for i in range(tl.cdiv(n - pid,
num_core)):` whose body binds `task = pid + i * num_core`, `num_core` the
`tl.num_programs`, as FlagGems writes it, or a runtime value the trip count divides by) or with triton-ascend's `tl.parallel` /
`extension.parallel` in place of `tl.range` is a task loop too, also when a device function
returns the core id or count (`core_id, num_core, p_x = _setup(x, D)`: read as Triton inlines
it); `x = pid + i * 2` in `for i in range(n)` is no task.

An advance written as the address a load or store takes (`tl.load((p := p + d) + offs)`) is
one, and so is one under compiler hints, which return their argument (`p = tl.multiple_of(p +
d, 16)`, `tl.max_contiguous`, `tl.max_constancy`, nested). A pointer advanced twice in a trip
(`p += D` between two reads, `p += (2 * num_core - 1) * D` at the end) is one pointer carried
across the tasks: reported once, at the advance the value from the previous task enters (the
first), where rebinding it per task goes.

### Offsets carried across the tasks
An integer offset defined outside the task loop, advanced in it and added to a pointer (`o_g
= pid * HV`, then `tl.load(g + o_g + ...)` and `o_g += nprog * HV` in each task; also through
names, `o = o_g + tl.arange(0, HV)`, and through the device functions the address is passed to)
is the same accumulation, reported at its advance. Measured with triton-ascend 3.2 (compile
only, Ascend910B3): in the TTIR the offset is an `i32` `iter_args` value of the task loop's
`scf.for`, added every trip and fed to the address; the linalg IR makes exactly that of `p_g
+= nprog * HV` (an `i64` offset carried by the same loop). Not reported: the index of a `while`
task loop (`pid += num_programs`, the loop's own counter), an offset rebound in each task, a
counter no address reads, and a running total advanced by data (`total += tl.sum(keep)`, a load
or a tensor computed at run time: the compaction itself, which no rebinding per task could
compute). Of the fixes below an offset gets the per-task one (`o += task_id * T` first in the
task); no closed form: the loop carries the offset at the width it enters with (`int32`), which
`tl.cast(task_id, tl.int64) * HV`, or `task_id * HV` with an int64 task count, would change, and
Triton refuses a loop-carried value whose type changes (measured: "Loop-carried variable o_g has
initial type int32 but is re-assigned to int64 in loop!").

### Device functions
The kernel is read as Triton inlines the device functions it calls (`Kernel.inlined`), with
the arguments each call passes: an advance a helper makes is the same loop-carried pointer
(`p_x = _step(p_x, nprog * D)` with `_step` returning `p + d`, a helper doing `p += d;
return p`, one returning `tl.advance(p, o)` for a block pointer, one choosing `p - d` or `p +
d` by a constexpr argument), in a helper of the module or of another module of the package
(`from .utils import step`, when its `tl` means the same in the kernel's module). It is
reported once, at the kernel's call, with the helper's advance related, and never fixed: the
code to change is the helper's, which its other calls share. A task loop whose core id or
count a helper returns is read the same way; when the loop itself also calls a helper, its
advances are reported with no fix (the loop as compiled is not the code written).

### Block pointers
`p = tl.advance(p, offsets)` (any alias of `triton.language`, `base=` / `offsets=` by keyword,
or the method `p = p.advance(offsets)`) on a block pointer made outside the task loop is the
same accumulation, in every task-loop shape above. Measured with triton-ascend 3.2 (compile
only, Ascend910B3): in the TTIR the block pointer is an `iter_args` value of the task loop's
`scf.for` (`!tt.ptr<tensor<64xf32>>`, yielded by `tt.advance`; of the `scf.while` for a `while`
task loop), where `p += BT` carries a `!tt.ptr<f32>`; in the linalg IR triton-ascend lowers it
to, both become a loop-carried offset added every trip (`i32` for the block pointer, `i64` for
the pointer). A block pointer made inside the task (`tl.make_block_ptr(..., (task_id * BT,),
...)`) carries nothing: its offset is `task_id * BT` afresh each trip. Not reported: a block
pointer made at the top of the task and advanced in an inner loop, `tl.advance` in an ordinary
loop or at kernel entry, and `r = tl.advance(q, (task_id * BT,))`, which binds `r` from `q` in
each task.

No fix: the rebuilt `tl.make_block_ptr(..., (task_id * BT,), ...)` has int64 offsets when the
task count is int64 (`tl.range` then makes the index int64), and the compiler rejects those
(``Block pointers only support 32 bit `offsets/block_shape` ``, measured) where the advanced
walk compiles.

### Fix safety in detail
Unsafe (applied with `--unsafe-fixes`), in two shapes; anything else is left to the author
and the finding says why (`--show-fixes`, the text summary, `no_fix_reason` in JSON).

- **A walk in closed form** — same values under standard semantics, proved from the code.
  `p` enters the loop as `base + start * c (+ k)`, the loop is `range(start, stop, step)` or
  `tl.range(...)` (a trip counter's `range(n)` from 0 by 1), and the last statement touching `p` in the task loop's own body advances
  it by `step * c` every trip (`+= c * step`, `p = p + ...`, `-=` with the negated stride),
  after every read. At the top of trip `i`, `p == base + i * c (+ k)`: the fix rebinds that
  there and deletes the advance. Terms are compared as sums of products (`*` and `+` in any
  order, `tl.num_programs(0)` or a name bound to it), and the names involved must not change
  between `p`'s definition and the loop; when a term does not match, no fix, naming it.
  The closed form multiplies the loop index in int64 (`p_x = x + tl.cast(task_id, tl.int64) *
  D`, the module's alias for `tl`; an index times 1 is no multiply and stays as it is): the
  product grows with the task count and wraps in int32 once it passes 2³¹ (600,000 rows of
  4,096), where the advance only added a small step to a 64-bit pointer every trip. An entry
  term written with the start already widened (`x + core_id.to(tl.int64) * D`, or
  `tl.cast(core_id, tl.int64) * D`) is read as `start * c` when the closed form cancels it.
- **A per-task offset** — changes values from each core's second task on, on purpose.
  `q += task_id * T` as the task's first use of `q` becomes `q_task = q + task_id * T` and
  the rest of the task reads `q_task`: each task starts from the base pointer, which is
  what an advance by a per-task offset means.
  The offset is the author's as written: a product of the task index in it was made in int32
  before the fix too (ASC002 reports it), and the fix adds no multiply.

The closed form leaves out a walk whose advance is marked `# noqa: ASC006` (it stays as
written) on any row the engine reads for it: the advance's first row (or the last of the rows
a backslash continues it to), or any row of a multi-line advance, which the fix would delete.
It keeps the trailing comment of a deleted advance on the rebinding that replaces it,
the comments written inside the advance (`p += (  # next row`) on lines of their own above it,
and the compiler hints around the advanced value around the closed form (`p =
tl.multiple_of(base + tl.cast(task_id, tl.int64) * c, 16)`: the same values).

Both need the advance to be a statement of its own in the task loop's body (not in an inner
loop or under an `if`), written in the kernel (not made by a device function), the task loop
to be a `for` loop not in another loop, and `p` not to be read after the loop.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from ascend_lint.fixes import (
    NO_LANGUAGE_NAME,
    Declined,
    Delete,
    FixPlan,
    InsertBefore,
    Replace,
    contains,
    names_in,
    spelled_out,
    suppressed_on,
)
from ascend_lint.flow import DEF, LOADED, MEMORY_FNS, READ, TENSOR, Event, Flow, Loop, range_bounds, while_index
from ascend_lint.inline import Inlined, is_inlined
from ascend_lint.nodes import child_nodes, comments_in, one_line
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule
from ascend_lint.terms import Product, Sum, Terms, TooComplex, added, divided, multiplied, scaled

# a kernel whose pointers walk across the tasks; the examples add the task loop's body
_WALK_ACROSS_TASKS = """
@triton.jit
def k(x, y, N, D: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    o_d = tl.arange(0, D)
    p_x = x + core_id * D
    p_y = y + core_id
    for task_id in tl.range(core_id, N, num_core):
"""

_MESSAGE = (
    "`{name}` is advanced in place inside a task loop but defined outside it, "
    "so the advance accumulates across tasks (Triton-Ascend can mis-compile this); "
    "rebind `{name}` from its base at the top of each task"
)
_OFFSET_MESSAGE = (
    "offset `{name}` is advanced in place inside a task loop but defined outside it and added to a pointer, "
    "so the address accumulates across tasks (Triton-Ascend can mis-compile this); "
    "rebind `{name}` at the top of each task"
)
_BLOCK_MESSAGE = (
    "block pointer `{name}` is moved with `tl.advance` inside a task loop but made outside it, "
    "so its offsets accumulate across tasks (Triton-Ascend can mis-compile this); "
    "make `{name}` with `tl.make_block_ptr` at the task's offsets at the top of each task"
)
# measured (tests/test_fix_values.py): `tl.make_block_ptr(x, (T,), (1,), (task_id * BT,), ...)` in
# a task loop over an int64 `num_tasks` fails to compile ("Block pointers only support 32 bit
# `offsets/block_shape`"), where the advanced walk it would replace compiles
# an advance a device function makes (`p_x = _step(p_x, d)` returning `p + d`): the code to
# rewrite is the helper's, which its other calls share
_NO_HELPER_FIX = (
    "the advance is made in device function `{helper}` (Triton inlines it into the task loop): "
    "a rewrite would change the helper, which its other calls share; rebind the pointer in the kernel"
)
# measured (tests/test_fix_values.py): `o_g = tl.cast(task_id, tl.int64) * HV` in place of `o_g +=
# nprog * HV` fails to compile ("Loop-carried variable o_g has initial type int32 but is re-assigned
# to int64 in loop!"); `task_id * HV` is as wide as the task count (the index of `tl.range` is)
_NO_OFFSET_WALK_FIX = (
    "`{name}` is an offset, not a pointer: the loop carries it at the width it enters with, which a "
    "closed form from the task index (int64, or as wide as the task count) would change, and Triton "
    "refuses a loop-carried value whose type changes"
)
_NO_COPY_FIX = "the task loop calls a device function, so its compiled body is not the code written here"
_NO_BLOCK_FIX = (
    "a block pointer is not rebuilt automatically: offsets computed from the task index are "
    "int64 when the task count is, and `tl.make_block_ptr` takes int32 offsets only"
)


class TaskLoopPointerAccumulation(Rule):
    CODE = "ASC006"
    NAME = "task-loop-pointer-accumulation"
    SUMMARY = "`ptr += ...` or `tl.advance` across the tasks of a 1-D core-grid task loop (mis-compiled on Ascend)"
    FIX = "unsafe"
    CONFIRM = Confirm(
        {"npu": Evidence.DEVICE_OUTPUTS, "interpret": Evidence.FIX_OUTPUTS},
        "pointer accumulation across tasks is mis-compiled only in triton-ascend's NPU code generation",
    )
    REQUIRES_TOKENS = (("program_id", "num_programs"), ("range", "parallel", "while"))

    VALID = (
        """
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    q += core_id * 0
    for task_id in tl.range(core_id, task_num, num_core):
        q_ptr = q + task_id * T
        for i_t in range(T // BT):
            b_q = tl.load(q_ptr + tl.arange(0, BT))
            q_ptr += BT
    p = o
    for i_t in range(T):
        tl.store(p, 1.0)
        p += 1
""",
        """
@triton.jit
def k(k_ptr, o, T, BS: tl.constexpr):
    i_s = tl.program_id(0)
    k_rows = k_ptr + i_s * BS
    for start in tl.range(i_s * BS, T, BS):  # one program's blocks, not tasks: an ordinary loop
        tl.store(o + start, tl.sum(tl.load(k_rows + tl.arange(0, BS))))
        k_rows += BS
    for start in tl.range(i_s * BS, T, 2 * BS):  # every other one: a literal counts no programs
        tl.store(o + start, 0.0)
        k_rows += 2 * BS
""",
        """
@triton.jit
def k(q, n, T):
    pid = tl.program_id(0)
    for i in range(n):
        x = pid + i * 2  # this program's every other column, not a task: an ordinary loop
        tl.store(q + x, 0.0)
        q += T
""",
        """
@triton.jit
def k(q, n, stride, T, BS: tl.constexpr):
    pid = tl.program_id(0)
    for i in range(tl.cdiv(n, BS)):
        x = pid + i * BS  # a constexpr step: this program's blocks
        tl.store(q + x, 0.0)
        q += T
    for i in range(n):
        x = pid + i * stride  # a runtime step the trip count is not divided by: no task either
        tl.store(q + x, 0.0)
        q += T
""",
        # block pointers made per task, advanced in an inner loop, at entry, or in an ordinary loop
        """
@triton.jit
def k(x, y, T, task_num, BT: tl.constexpr):
    pid = tl.program_id(0)
    q = tl.make_block_ptr(x, (T,), (1,), (0,), (BT,), (0,))
    q = tl.advance(q, (pid * BT,))
    for task_id in tl.range(pid, task_num, tl.num_programs(0)):
        p = tl.make_block_ptr(x + task_id * T, (T,), (1,), (0,), (BT,), (0,))
        b = tl.zeros((BT,), dtype=tl.float32)
        for i_t in range(tl.cdiv(T, BT)):
            b += tl.load(p, boundary_check=(0,))
            p = tl.advance(p, (BT,))
        r = tl.advance(q, (task_id * BT,))  # bound from `q` in each task
        tl.store(y + task_id * BT + tl.arange(0, BT), b + tl.load(r, boundary_check=(0,)))
    for i_t in range(tl.cdiv(T, BT)):
        tl.store(y + i_t, tl.sum(tl.load(q, boundary_check=(0,))))
        q = tl.advance(q, (BT,))
""",
    )
    INVALID = (
        # a grid-stride loop: the step is the start's multiple of the program id times a kernel
        # parameter, the program count (constexpr or not)
        Example(
            """
@triton.jit
def k(x, o, n, NUM_CORE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    p_x = x + pid * BLOCK
    for start in range(pid * BLOCK, n, NUM_CORE * BLOCK):
        tl.store(o + start + offs, tl.load(p_x + offs), mask=start + offs < n)
        p_x += NUM_CORE * BLOCK  # expect
""",
            fixed="""
@triton.jit
def k(x, o, n, NUM_CORE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    p_x = x + pid * BLOCK
    for start in range(pid * BLOCK, n, NUM_CORE * BLOCK):
        p_x = x + start
        tl.store(o + start + offs, tl.load(p_x + offs), mask=start + offs < n)
""",
            unsafe_fixes=True,
        ),
        # an advance under compiler hints (they return their argument): the closed form keeps them
        Example(
            """
@triton.jit
def k(x, y, n, D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p_x = x + pid * D
    for t in tl.range(pid, n, nprog):
        tl.store(y + t * D + tl.arange(0, D), tl.load(p_x + tl.arange(0, D)))
        p_x = tl.max_contiguous(tl.multiple_of(p_x + nprog * D, 16), 16)  # expect
""",
            fixed="""
@triton.jit
def k(x, y, n, D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p_x = x + pid * D
    for t in tl.range(pid, n, nprog):
        p_x = tl.max_contiguous(tl.multiple_of(x + tl.cast(t, tl.int64) * D, 16), 16)
        tl.store(y + t * D + tl.arange(0, D), tl.load(p_x + tl.arange(0, D)))
""",
            unsafe_fixes=True,
        ),
        """
@triton.jit
def k(x, M, SUB, K: tl.constexpr, G: tl.constexpr):
    row = tl.program_id(0) * 2 + SUB  # two rows a program, G programs
    p_x = x + row * K
    for r in range(row, M, G * 2):
        tl.store(p_x + tl.arange(0, K), 0.0)
        p_x += G * 2 * K  # expect
""",
        # the task loop counted in trips, as FlagGems writes it
        Example(
            """
@triton.jit
def k(q, o, task_num, T, BT: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    p_o = o + core_id
    for i in range(tl.cdiv(task_num - core_id, num_core)):
        task_id = core_id + i * num_core
        q += task_id * T  # expect
        tl.store(p_o, tl.sum(tl.load(q + tl.arange(0, BT))))
        p_o += num_core  # expect
""",
            fixed="""
@triton.jit
def k(q, o, task_num, T, BT: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    p_o = o + core_id
    for i in range(tl.cdiv(task_num - core_id, num_core)):
        p_o = o + tl.cast(i, tl.int64) * num_core + core_id
        task_id = core_id + i * num_core
        q_task = q + task_id * T
        tl.store(p_o, tl.sum(tl.load(q_task + tl.arange(0, BT))))
""",
            unsafe_fixes=True,
        ),
        """
@triton.jit
def k(y, task_num, T):
    pid = tl.program_id(0)
    for j in range(0, (task_num - pid + tl.num_programs(0) - 1) // tl.num_programs(0)):
        task = tl.num_programs(0) * j + pid
        tl.store(y + task, 1.0)
        y += T  # expect
""",
        """
@triton.jit
def k(y, task_num, num_core, T):
    pid = tl.program_id(0)
    for j in range(tl.cdiv(task_num - pid, num_core)):  # the program count passed in
        task = pid + j * num_core
        tl.store(y + task, 1.0)
        y += T  # expect
""",
        # the core id and count returned by a device function: the closed form when the helper
        # computes the pointer under the kernel's own name, none when it returns an expression
        Example(
            """
@triton.jit
def _setup(x, D: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    p_x = x + core_id * D
    return core_id, num_core, p_x


@triton.jit
def _ids(x, D: tl.constexpr):
    c = tl.program_id(0)
    return c, tl.num_programs(0), x + c * D


@triton.jit
def k(x, y, N, D: tl.constexpr):
    core_id, num_core, p_x = _setup(x, D)
    for task_id in tl.range(core_id, N, num_core):
        tl.store(y + task_id, tl.sum(tl.load(p_x + tl.arange(0, D))))
        p_x += num_core * D  # expect
    core, cores, p_y = _ids(y, D)
    for task_id in tl.range(core, N, cores):
        tl.store(x + task_id, tl.sum(tl.load(p_y + tl.arange(0, D))))
        p_y += cores * D  # expect
""",
            fixed="""
@triton.jit
def _setup(x, D: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    p_x = x + core_id * D
    return core_id, num_core, p_x


@triton.jit
def _ids(x, D: tl.constexpr):
    c = tl.program_id(0)
    return c, tl.num_programs(0), x + c * D


@triton.jit
def k(x, y, N, D: tl.constexpr):
    core_id, num_core, p_x = _setup(x, D)
    for task_id in tl.range(core_id, N, num_core):
        p_x = x + tl.cast(task_id, tl.int64) * D
        tl.store(y + task_id, tl.sum(tl.load(p_x + tl.arange(0, D))))
    core, cores, p_y = _ids(y, D)
    for task_id in tl.range(core, N, cores):
        tl.store(x + task_id, tl.sum(tl.load(p_y + tl.arange(0, D))))
        p_y += cores * D
""",
            unsafe_fixes=True,
        ),
        # the advance made by a device function (Triton inlines it: the same loop-carried
        # pointer); reported at the call, no fix (the code to change is the helper's)
        """
@triton.jit
def _step(p, d):
    return p + d


@triton.jit
def _walk(p, d, BACK: tl.constexpr):
    if BACK:
        p -= d
    else:
        p += d
    return p


@triton.jit
def _next_block(p, BT: tl.constexpr):
    return tl.advance(p, (BT,))


@triton.jit
def k(x, y, N, D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p_x = x + pid * D
    p_y = y + pid * D
    p_b = tl.make_block_ptr(x, (N * D,), (1,), (pid * D,), (D,), (0,))
    for t in range(pid, N, nprog):
        b = tl.load(p_x + tl.arange(0, D)) + tl.load(p_b, boundary_check=(0,))
        tl.store(p_y + tl.arange(0, D), b)
        p_x = _step(p_x, nprog * D)  # expect
        p_y = _walk(p_y, nprog * D, False)  # expect
        p_b = _next_block(p_b, D)  # expect
""",
        # triton-ascend's parallel range, a subclass of `tl.range`
        """
@triton.jit
def k(q, o, T, task_num, BT: tl.constexpr):
    pid = tl.program_id(0)
    for task_id in tl.parallel(pid, task_num, tl.num_programs(0)):
        tl.store(o + task_id, tl.sum(tl.load(q + tl.arange(0, BT))))
        q += T  # expect
""",
        """
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    for task_id in tl.range(core_id, task_num, step=num_core):  # the step by keyword
        q = T + q  # expect
        tl.store(o + task_id, tl.sum(tl.load(q + tl.arange(0, BT))))
""",
        # the offset depends on the task index through `i_b`; the inner advance moves to the copy
        Example(
            """
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    for task_id in tl.range(core_id, task_num, num_core):
        i_b = task_id // 4
        q = q - (i_b * T + 1)  # expect
        for i_t in range(T // BT):
            b_q = tl.load(q + tl.arange(0, BT))
            q += BT
            tl.store(o + task_id, tl.sum(b_q))
""",
            fixed="""
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    for task_id in tl.range(core_id, task_num, num_core):
        i_b = task_id // 4
        q_task = q - (i_b * T + 1)
        for i_t in range(T // BT):
            b_q = tl.load(q_task + tl.arange(0, BT))
            q_task += BT
            tl.store(o + task_id, tl.sum(b_q))
""",
            unsafe_fixes=True,
        ),
        # a walk: rebound in closed form at the top of each trip, the advance deleted
        Example(
            _WALK_ACROSS_TASKS
            + """\
        b_x = tl.load(p_x + o_d)
        tl.store(p_y, tl.sum(b_x))
        p_x += num_core * D  # expect
        p_y = p_y + tl.num_programs(0)  # expect
""",
            fixed=_WALK_ACROSS_TASKS
            + """\
        p_x = x + tl.cast(task_id, tl.int64) * D
        p_y = y + task_id
        b_x = tl.load(p_x + o_d)
        tl.store(p_y, tl.sum(b_x))
""",
            unsafe_fixes=True,
        ),
        # the entry offset written with the start already widened: the same walk
        Example(
            """
@triton.jit
def k(x, y, N, D: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    p_x = x + core_id.to(tl.int64) * D
    p_y = y + tl.cast(core_id, tl.int64) * D + 1
    for task_id in tl.range(core_id, N, num_core):
        tl.store(p_y, tl.sum(tl.load(p_x + tl.arange(0, D))))
        p_x += num_core * D  # expect
        p_y += num_core * D  # expect
""",
            fixed="""
@triton.jit
def k(x, y, N, D: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    p_x = x + core_id.to(tl.int64) * D
    p_y = y + tl.cast(core_id, tl.int64) * D + 1
    for task_id in tl.range(core_id, N, num_core):
        p_x = x + tl.cast(task_id, tl.int64) * D
        p_y = y + tl.cast(task_id, tl.int64) * D + 1
        tl.store(p_y, tl.sum(tl.load(p_x + tl.arange(0, D))))
""",
            unsafe_fixes=True,
        ),
        Example(
            """
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    p_o = o + core_id
    for task_id in tl.range(core_id, task_num, num_core):
        q += task_id * T  # expect
        b_q = tl.load(q + tl.arange(0, BT))
        tl.store(p_o, tl.sum(b_q))
        p_o = p_o + num_core  # expect
""",
            fixed="""
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    p_o = o + core_id
    for task_id in tl.range(core_id, task_num, num_core):
        p_o = o + task_id
        q_task = q + task_id * T
        b_q = tl.load(q_task + tl.arange(0, BT))
        tl.store(p_o, tl.sum(b_q))
""",
            unsafe_fixes=True,
        ),
        # an integer offset carried across the tasks and added to a pointer: the same
        # loop-carried offset in the linalg IR; no closed form (it would change the offset's width)
        """
@triton.jit
def k(g, o, task_num, HV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    o_g = pid * HV
    for task_id in tl.range(pid, task_num, nprog):
        b_g = tl.load(g + o_g + tl.arange(0, HV))
        tl.store(o + task_id * HV + tl.arange(0, HV), b_g)
        o_g += nprog * HV  # expect
""",
        # no fix: the entry value `o + core_id` has no term `core_id * 4` (stride 4 per task)
        """
@triton.jit
def k(o, task_num, num_core):
    core_id = tl.program_id(0)
    p_o = o + core_id
    for task_id in tl.range(core_id, task_num, num_core):
        tl.store(p_o, 1.0)
        p_o += num_core * 4  # expect
""",
        """
@triton.jit
def k(q, total, BT: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, total, tl.num_programs(0)):
        for i in range(4):
            q -= BT  # expect
            tl.store(q, 0.0)
""",
        # a block pointer made before the task loop and moved with `tl.advance` in it: the same
        # loop-carried pointer (`iter_args` of the `scf.for`); no fix
        """
@triton.jit
def k(x, y, T, task_num, BT: tl.constexpr):
    pid = tl.program_id(0)
    n = tl.num_programs(0)
    p = tl.make_block_ptr(x, (T,), (1,), (pid * BT,), (BT,), (0,))
    for task_id in tl.range(pid, task_num, n):
        b = tl.load(p, boundary_check=(0,))
        tl.store(y + task_id * BT + tl.arange(0, BT), b)
        p = tl.advance(p, (n * BT,))  # expect
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        reported: set[cst.CSTNode] = set()  # where the kernel's own flow reported
        for loop in kernel.flow.loops:
            if loop.is_task_loop:
                for report in _loop_reports(loop, kernel.flow, context, kernel, None):
                    reported.add(report.node)
                    yield report
        inlined = kernel.inlined
        if not inlined.origins:
            return
        # read as Triton inlines the device functions: a task loop whose core id or count a
        # helper returns (`core_id, num_core, p_x = _setup(x, D)`), an advance a helper makes
        # (`p_x = _step(p_x, d)` returning `p + d`); each finding once, at the kernel's code
        for loop in inlined.flow.loops:
            if loop.is_task_loop and inlined.in_function(loop.node):
                for report in _loop_reports(loop, inlined.flow, context, kernel, inlined):
                    if report.node not in reported:
                        reported.add(report.node)
                        yield report


def _loop_reports(
    loop: Loop, flow: Flow, context: ModuleContext, kernel: Kernel, inlined: Inlined | None
) -> Iterator[Report]:
    """The task loop's advances of pointers defined outside it, and of offsets added to
    pointers, read in `flow`: the kernel's own, or (`inlined` given) its body with the device
    functions it calls inlined, reported where the kernel's code is (the call of a helper whose
    copy advances the pointer)."""
    node = loop.node
    pointers = flow.pointer_names
    advances = [
        (event, event.name)
        for event in flow.events_in(loop.body, DEF)
        if event.name is not None
        and (flow.advance_step(event) is not None or (event.name in pointers and flow.block_advance(event) is not None))
        and any(d.index not in loop.body for d in flow.reaching_defs(event, event.name))
    ]
    offsets = _carried_offsets([(e, name) for e, name in advances if name not in pointers], flow, kernel)
    flagged = [(event, name) for event, name in advances if name in pointers or event in offsets]
    made: dict[Event, tuple[Kernel, cst.CSTNode]] = {}  # an advance a device function makes
    if inlined is not None:
        made = {event: found for event, _ in flagged if (found := _made_in(event, flow, inlined)) is not None}
    blocks = {event for event, _ in flagged if flow.block_advance(event) is not None}
    walks = [(event, name) for event, name in flagged if event not in blocks and event not in made]
    fixes: dict[Event, FixPlan | Declined] = dict.fromkeys(blocks, Declined(_NO_BLOCK_FIX))
    if inlined is not None and inlined.written(node) is not node:
        fixes.update((event, Declined(_NO_COPY_FIX)) for event, _ in walks)
    elif isinstance(node, cst.For):
        fixes.update(_fixes(walks, loop, node, flow, context, kernel.node))
    else:
        fixes.update(dict.fromkeys((event for event, _ in walks), Declined("the task loop is a `while` loop")))
    fixes.update((event, Declined(_NO_HELPER_FIX.format(helper=helper.name))) for event, (helper, _) in made.items())
    test = node.target if isinstance(node, cst.For) else node.test
    for event, name in flagged:
        where: cst.CSTNode = event.node
        related: tuple[tuple[cst.CSTNode, str], ...] = ((test, "task loop"),)
        if inlined is not None:
            # an advance a helper makes: at the kernel's call of it
            site = inlined.call_site(made[event][1] if event in made else event.node)
            where = site if site is not None else inlined.written(event.node)
            related = ((inlined.written(test), "task loop"),)
            if event in made and made[event][0] in kernel.module_kernels:  # (another module's code has no place here)
                helper, source = made[event]
                related += ((inlined.written(source), f"advanced in `{helper.name}`"),)
        if event in blocks:
            message = _BLOCK_MESSAGE.format(name=name)
        elif event in offsets:
            message = _OFFSET_MESSAGE.format(name=name)
        else:
            message = _MESSAGE.format(name=name)
        yield Report(where, message, related=related, fix=fixes[event])


def _carried_offsets(advances: list[tuple[Event, str]], flow: Flow, kernel: Kernel) -> set[Event]:
    """The advances of names that are no pointers whose value reaches an address as an offset
    (`o_g += nprog * HV`, then `tl.load(g + o_g + ...)`, also through names: `Flow.value_reaches`
    into `Kernel.offset_terms`), leaving out the index of a `while` loop around the advance (a
    `while` task loop's own `i += num_programs`). In the linalg IR a pointer carried across the
    tasks becomes such an offset (measured: the task loop's `scf.for` carries it either way)."""
    indices = {index.name for event, _ in advances for loop in event.loops if (index := while_index(flow, loop))}
    walks = [
        (event, name)
        for event, name in advances
        if name not in indices
        and (step := flow.advance_step(event)) is not None
        and not flow.flags(step) & (LOADED | TENSOR)
    ]
    if not walks:
        return set()
    sinks: dict[cst.CSTNode, str] = dict.fromkeys(kernel.offset_terms(flow), "offset")
    return {
        event
        for event, name in walks
        if flow.value_reaches([read.node for read in flow.reads_after(event, name)], sinks) is not None
    }


def _made_in(event: Event, flow: Flow, inlined: Inlined) -> tuple[Kernel, cst.CSTNode] | None:
    """The device function making an advance of the inlined body, and the advance in its
    copy: the function whose copy holds it (`p_x += d` copied from `_step`'s `p += d`), or
    whose result it copies (`p_x = ret·_step` after `ret·_step = p_x + d`); None for an
    advance written in the kernel."""
    if not inlined.in_function(event.node):
        helper = inlined.function_of(event.node)
        return None if helper is None else (helper, event.node)
    source = flow.advance_copied(event)
    if source is None or source.value is None or inlined.in_function(source.value):
        return None
    helper = inlined.function_of(source.value)
    return None if helper is None else (helper, source.value)


@dataclass(frozen=True)
class _Advance:
    """A flagged advance that is a one-statement line of the task loop's own body."""

    event: Event
    name: str
    line: cst.SimpleStatementLine
    statement: cst.AugAssign | cst.Assign
    value: cst.BaseExpression  # the statement's value under the compiler hints around it (`Flow.unhinted`)

    @property
    def offset(self) -> cst.BaseExpression:
        """`x` of `p += x` / `p = p + x` / `p = tl.multiple_of(p + x, 16)`."""
        value = self.value
        if isinstance(self.statement, cst.Assign) and isinstance(value, cst.BinaryOperation):
            return value.right
        return value

    def hinted(self, value: str) -> str:
        """`value` under the compiler hints the advance wraps its value in (`tl.multiple_of(value,
        16)`), as the advance writes them; `value` itself when it has none."""
        if self.value is self.statement.value:
            return value
        return one_line(self.statement.value.deep_replace(self.value, cst.parse_expression(value)))

    @property
    def comments(self) -> list[str]:
        """The comments inside the advance (`p_x += (  # note`), not the line's trailing one."""
        return comments_in(self.statement)


def _fixes(
    flagged: list[tuple[Event, str]],
    loop: Loop,
    node: cst.For,
    flow: Flow,
    context: ModuleContext,
    function: cst.FunctionDef,
) -> dict[Event, FixPlan | Declined]:
    """Each flagged advance's fix: the entry-offset rebinding when the advance is the task's
    first use of the pointer, else the closed form (one plan for every walk of the loop)."""
    fixes: dict[Event, FixPlan | Declined] = {}
    walks: list[tuple[_Advance, str]] = []
    terms = Terms(flow)
    for event, name in flagged:
        advance = _placed(event, name, loop, node, flow)
        if not isinstance(advance, Declined) and suppressed_on(
            advance.line, advance.statement, context, function, TaskLoopPointerAccumulation.CODE
        ):
            # not reported: left out of the closed form the other walks share
            advance = Declined(f"`{name}`'s advance is marked `# noqa: {TaskLoopPointerAccumulation.CODE}`")
        if isinstance(advance, Declined):
            fixes[event] = advance
        elif _first_use(advance, loop, flow):
            fixes[event] = _entry_offset_fix(advance, loop, node, flow, context)
        elif name not in flow.pointer_names:
            fixes[event] = Declined(_NO_OFFSET_WALK_FIX.format(name=name))
        else:
            rebinding = _closed_form(advance, loop, node, flow, terms)
            if isinstance(rebinding, Declined):
                fixes[event] = rebinding
            else:
                walks.append((advance, rebinding))
    if walks:
        names = ", ".join(f"`{advance.name}`" for advance, _ in walks)
        top = node.body.body[0]
        plan = FixPlan(
            "unsafe",
            f"Rebind {names} in closed form at the top of each trip and drop the advance",
            (
                *(
                    change
                    for advance, rebinding in walks
                    for change in (
                        *(InsertBefore(top, comment) for comment in advance.comments),
                        InsertBefore(top, rebinding + _comment(advance.line)),
                    )
                ),
                *(Delete(advance.line) for advance, _ in walks),
            ),
        )
        fixes.update((advance.event, plan) for advance, _ in walks)
    return fixes


def _comment(line: cst.SimpleStatementLine) -> str:
    """The deleted advance's trailing comment, kept on the rebinding that replaces it."""
    comment = line.trailing_whitespace.comment
    return "" if comment is None else f"  {comment.value}"


def _placed(event: Event, name: str, loop: Loop, node: cst.For, flow: Flow) -> _Advance | Declined:
    """The advance as a line of the task loop's own body, run once per task, with the pointer
    not read after the loop; else why not."""
    if event.loops[-1] is not loop:
        return Declined("the advance is in an inner loop, not once per task")
    advance = _task_line(event, name, node, flow)
    if advance is None:
        if any(branch.body.start > loop.body.start for branch, _ in event.conds):
            return Declined("the advance is under an `if`, not once per task")
        return Declined("the advance is not a statement of its own in the task loop's body")
    if len(event.loops) > 1:
        return Declined("the task loop is nested in another loop")
    if any(e.index not in loop.body for e in flow.reads_after(event, name)):
        return Declined(f"`{name}` is read after the loop")
    return advance


def _task_line(event: Event, name: str, node: cst.For, flow: Flow) -> _Advance | None:
    """The advance when it is a one-statement line directly in the task loop's body."""
    for line in node.body.body:
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
            continue
        small = line.body[0]
        if isinstance(small, cst.AugAssign) and small is event.node:
            return _Advance(event, name, line, small, small.value)
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and small.targets[0].target is event.node:
            return _Advance(event, name, line, small, flow.unhinted(small.value) or small.value)
    return None


def _first_use(advance: _Advance, loop: Loop, flow: Flow) -> bool:
    """Whether nothing in the trip reads or sets the pointer before the advance."""
    return not any(
        e.name == advance.name and e.kind in (READ, DEF) and not contains(advance.line, e.node)
        for e in flow.events_in(range(loop.body.start, advance.event.index))
    )


def _entry_offset_fix(
    advance: _Advance, loop: Loop, node: cst.For, flow: Flow, context: ModuleContext
) -> FixPlan | Declined:
    """`q += off` at the top of the task becomes `q_task = q + off`; later uses read `q_task`.

    Offered when the offset varies with the task index: then the advance means "this task's
    slice of `q`", and each task starts from the base pointer.
    """
    name, statement = advance.name, advance.statement
    if not _varies_per_task(advance.offset, loop, flow, advance.event.index):
        return Declined(f"`{name}` is advanced before any read by an offset that does not depend on the task index")
    rebound = context.fresh_names.fresh(f"{name}_task")
    if isinstance(statement, cst.AugAssign):
        first = Replace(statement, spelled_out(statement, rebound, name))
    else:
        first = Replace(advance.event.node, rebound)
    later = (
        Replace(e.node, rebound)
        for e in flow.events_in(range(advance.event.index + 1, loop.body.stop))
        if e.name == name and e.kind in (READ, DEF) and isinstance(e.node, cst.Name)
    )
    return FixPlan("unsafe", f"Rebind `{name}` from its base in each task as `{rebound}`", (first, *later))


def _varies_per_task(offset: cst.BaseExpression, loop: Loop, flow: Flow, before: int) -> bool:
    """Whether `offset` depends on the task index, directly or through names the task
    defines before the advance."""
    target = loop.node.target if isinstance(loop.node, cst.For) else None
    task = target.value if isinstance(target, cst.Name) else None
    pending, seen = list(names_in(offset)), set()
    while pending:
        name = pending.pop()
        if name == task:
            return True
        if name in seen:
            continue
        seen.add(name)
        for definition in flow.defs.get(name, ()):
            if definition.index in loop.body and definition.index < before and definition.value is not None:
                pending.extend(names_in(definition.value))
    return False


def _closed_form(advance: _Advance, loop: Loop, node: cst.For, flow: Flow, terms: Terms) -> str | Declined:
    """`p = base + i * c + k`, the pointer at the top of trip `i`, when the walk proves it.

    `p` enters the loop as `base + start * c + k`, the loop is `range(start, stop, step)`,
    and the trip ends by advancing `p` by `step * c` after its last read: so at the top of
    trip `i` it is `base + start * c + k + (i - start) / step * step * c`.
    """
    walk = _walk_entry(advance, loop, flow)
    if isinstance(walk, Declined):
        return walk
    init, entry_value, base = walk
    name, statement = advance.name, advance.statement
    bounds = range_bounds(loop) or ()  # a trip counter's `range(n)` starts at 0 by 1
    start = bounds[0] if len(bounds) > 1 else cst.Integer("0")
    step = bounds[2] if len(bounds) > 2 else cst.Integer("1")
    try:
        index = terms.of(node.target)  # first, so that products render as `task_id * c`
        entry = terms.of(entry_value)
        advanced = terms.of(advance.value)
        if isinstance(statement, cst.Assign):
            advanced = added(advanced, {(name,): -1})
        elif isinstance(statement.operator, cst.SubtractAssign):
            advanced = scaled(advanced, -1)
        stride = divided(advanced, terms.of(step))
        if stride is None:
            return Declined(f"the advance is not a multiple of the loop step `{one_line(step)}`")
        if entry.get((base,)) != 1:
            return Declined(f"`{name}`'s entry value `{one_line(entry_value)}` is not `{base} + offset`")
        first = terms.of(start)
        start_offset = multiplied(first, stride)
        offset, missing = _entry_offset(entry, base, start_offset, first, terms)
        closed = added(multiplied(index, stride), added(offset, scaled(start_offset, -1)))
    except TooComplex:
        return Declined(f"`{name}`'s offsets are too large to compare")
    if missing:
        term = terms.render({missing[0]: start_offset[missing[0]]})
        return Declined(
            f"`{name}`'s entry value has no term `{term}` "
            f"(loop start `{one_line(start)}` times stride `{terms.render(stride)}`)"
        )
    names = names_in(entry_value) | names_in(statement.value) | names_in(start) | names_in(step)
    if any(is_inlined(each) for each in names):
        return Declined(f"`{name}`'s entry value is computed in a device function")
    problem = _changing_name(names - {name}, init, loop, flow)
    if problem is not None:
        return Declined(problem)
    if any(_reads_memory(terms.atoms[key], flow) for product in closed for key in product):
        return Declined(f"`{name}`'s offset reads memory, which the rebinding would repeat every trip")
    # the task index multiplied in int64: `task_id * c` grows with the task count (rows times a
    # row stride passes 2**31 where the advance, a small step added to a 64-bit pointer, did not)
    ((key,),) = index
    alias = flow.imports.language_alias
    if alias is None:
        return Declined(NO_LANGUAGE_NAME)
    widened = {key: f"{alias}.cast({terms.factor(key)}, {alias}.int64)"}
    return f"{name} = {advance.hinted(terms.render(closed, first=base, widened=widened))}"


def _entry_offset(entry: Sum, base: str, start_offset: Sum, first: Sum, terms: Terms) -> tuple[Sum, list[Product]]:
    """The pointer's entry offset (`entry` less `base`) and the products of `start * c` that
    vary with the start and are not in it as written (a constant part of the start, `T - 1`,
    only shifts `k`). A term written with the start cast to int64 (`core_id.to(tl.int64) * D`,
    `tl.cast(core_id, tl.int64) * D`) is that term, when the closed form cancels it (it is then
    not written back without its cast)."""
    offset = added(entry, {(base,): -1})
    varying = {key for product in first for key in product}

    def missing(written: Sum) -> list[Product]:
        return [m for m, n in start_offset.items() if varying & set(m) and written.get(m) != n]

    found = missing(offset)
    if not found:
        return offset, found
    unwidened: Sum = {}
    products: set[Product] = set()
    for product, coefficient in offset.items():
        keys = tuple(sorted(_unwidened_key(key, terms) for key in product))
        if keys != product:
            products.add(keys)
        unwidened = added(unwidened, {keys: coefficient})
    remainder = added(unwidened, scaled(start_offset, -1))
    if not products or any(product in remainder for product in products) or missing(unwidened):
        return offset, found
    return unwidened, []


def _unwidened_key(key: str, terms: Terms) -> str:
    """The key of `x` for an atom `x.to(tl.int64)` / `tl.cast(x, tl.int64)` of one atom `x`,
    else `key`."""
    node, flow = terms.atoms[key], terms.flow
    parts = flow.cast_parts(node) if isinstance(node, cst.Call) else None
    if parts is None or not flow.is_wide_int(parts[1]):
        return key
    inner = terms.of(parts[0])
    if len(inner) != 1:
        return key
    ((product, coefficient),) = inner.items()
    return product[0] if len(product) == 1 and coefficient == 1 else key


def _walk_entry(advance: _Advance, loop: Loop, flow: Flow) -> tuple[Event, cst.BaseExpression, str] | Declined:
    """The one definition of the pointer entering the loop, its value and base pointer, when
    the advance is the trip's only assignment, runs every trip and follows every read."""
    name, event = advance.name, advance.event
    if any(d is not event and d.index in loop.body for d in flow.defs[name]):
        return Declined(f"`{name}` is set more than once per trip")
    if not flow.runs_every_trip(loop, event):
        return Declined("a `continue` can skip the advance")
    if any(e.name == name and not e.metadata for e in flow.events_in(range(event.index + 1, loop.body.stop), READ)):
        return Declined(f"`{name}` is read after its advance in the same trip")
    entering = flow.defs_entering(loop, name)
    if len(entering) != 1:
        return Declined(f"{len(entering)} definitions of `{name}` reach the loop")
    (init,) = entering
    if init.value is None:
        return Declined(f"`{name}` enters the loop as passed to the kernel, with no `base + offset` to rebind from")
    base = flow.pointer_base(init.value)
    if base is None or base == name:
        return Declined(f"`{name}`'s entry value `{one_line(init.value)}` is not a base pointer plus an offset")
    return init, init.value, base


def _changing_name(names: set[str], init: Event, loop: Loop, flow: Flow) -> str | None:
    """A name of the closed form whose value differs between the pointer's definition, the
    loop header and the advance (the algebra needs one value)."""
    for name in sorted(names):
        if any(d.index in loop.body for d in flow.defs.get(name, ())):
            return f"`{name}` changes inside the loop"
        at_init = [d.index for d in flow.reaching_defs(init, name)]
        if at_init != [d.index for d in flow.defs_entering(loop, name)]:
            return f"`{name}` changes between `{init.name}`'s definition and the loop"
    return None


def _reads_memory(node: cst.CSTNode, flow: Flow) -> bool:
    if isinstance(node, cst.Call) and flow.imports.is_tl(node.func, *MEMORY_FNS):
        return True
    return any(_reads_memory(child, flow) for child in child_nodes(node))
