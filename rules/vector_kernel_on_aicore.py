"""
## What it does
Flags a launch whose grid has an axis holding the AI (cube) core count
(`get_device_properties(device)["num_aicore"]`, the driver's `get_aicore_num()`, or a name,
parameter or helper of the module or package returning one) for a kernel with no `tl.dot`: a
vector-bound kernel.

Not flagged: a kernel using `tl.dot` (also through a device function it imports, or one of
a package not on disk named like a matrix multiply), a mixed cube/vector kernel splitting each AI core's work between its cores
itself, and launches that run only on another platform than Ascend. Part of the `perf` group
(`ignore = ["perf"]` turns the performance rules off).

## Why is this bad?
Ascend A2 has two vector cores per AI core (48 vector cores, 24 cube cores on Ascend910B):
a vector-bound kernel on a grid of `num_aicore` programs leaves half the vector cores idle,
for up to twice the run time. This is performance advice only: nothing fails, and the
compiler has no evidence to give (`confirm` cannot decide it).

## Example
```python
num_core = triton.runtime.driver.active.utils.get_device_properties(dev)["num_aicore"]
layer_norm_kernel[(num_core,)](x, y, T, D=D)  # no tl.dot in layer_norm_kernel
```

## Use instead
```python
num_core = triton.runtime.driver.active.utils.get_device_properties(dev)["num_vectorcore"]
layer_norm_kernel[(num_core,)](x, y, T, D=D)
```
Keep `num_aicore` for cube-bound kernels (those with `tl.dot`).

## Fix safety
No automatic fix: the count is usually read once and shared with other launches (some
cube-bound), and a kernel that is not a task loop over the grid computes different work on
a different grid.

## Details
### The AI core count
Flags a launch whose grid has an axis holding the AI (cube) core count —
`get_device_properties(device)["num_aicore"]`, `props.get("num_aicore")` (also chained:
`get_device_properties(device).get("num_aicore")`; the key also a name bound once to the
string, `props[KEY]` with `KEY = "num_aicore"`), half the vector core count
(`props["num_vectorcore"] // 2`, `/ 2`, `>> 1`: one program per AI core; not a quarter of it,
nor `props["num_aicore"] * 2`), fla's
`get_multiprocessor_count(i, use_aicore=True)`, torch_npu's `props.cube_core_num`, the
triton-ascend driver's `triton.runtime.driver.active.utils.get_aicore_num()`, vLLM's
`num_compute_units()` (vllm-ascend's platform answers the cube core count), `getattr(props,
"cube_core_num", 24)`, or a name (the function's own, or a
module-level `NUM_CORES = ...`), an entry of a dict (`(cfg["cores"],)` with `cfg = {"cores":
num_core}`, the entry written last before the launch, as for a grid a dict holds), parameter,
`min`/`max` (of both counts, `min` is the AI core count and `max` the vector core count: two
vector cores per AI core) or helper of the module (a function,
or a method called through its class or `self`: `Device.cube_cores()`, or read as a property,
`self.cores` of a `@property` / `@functools.cached_property` method) returning one, bound where
the grid reads it (`((nc := props["num_aicore"]),)`), also as an element of a tuple it returns (`cores, _ = get_device_properties()` or
`get_device_properties()[0]` with `return props["num_aicore"], props["num_vectorcore"]`: the
element the helper returns decides, not its position; a helper returning
`props["num_vectorcore"] if op_type == "vector" else props["num_aicore"]` holds the count the
literal the call passes picks, `get_num_cores("cube")`; a helper returning a dict,
`device_info()["cores"]` with `return {"cores": props["num_aicore"], ...}`) — for a kernel with no `tl.dot`: a
vector-bound kernel. A module-level name that functions set under `global` (vllm-ascend's
`triton_utils.py`: `_NUM_AICORE = -1`, `init_device_properties_triton()` sets it to
`device_properties.get("num_aicore", -1)`, `get_aicore_num()` returns it) holds the count when
every value the module and those functions give it is that count, but for a placeholder
(`None`, `0`, `-1`); one also set to anything else (a literal fallback, the vector core count,
`+= 1`, a `for` target) holds no known count. A name the function binds more than once holds
what its binding reaching the launch holds (`cores = props["num_aicore"]`, a cube-bound launch,
then `cores = props["num_vectorcore"]`: the launches after it are on the vector cores), when one
plain assignment before it in straight-line code is that binding; else any value it is given
may be the count, whatever the order they are written in (`if big: cores =
props["num_vectorcore"]` / `else: cores = props["num_aicore"]`, the same as a conditional
expression, or `cores = props["num_aicore"]` later in a loop around the launch, which the next
trip reads). A helper or module-level name another module of the package defines
counts the same (`from .utils import get_num_cores`, `from .utils import NUM_CORES`, `from .
import utils` or `import pkg.utils as u` then `utils.get_num_cores("cube")`): that module is
read from disk as for an imported device function, and works the count out from its own
functions and names (what it imports in turn is not followed). vllm-ascend's helpers imported
from a package no file on disk holds (a project using vllm-ascend: `from
vllm_ascend.ops.triton.triton_utils import get_aicore_num`) are told by name:
`get_aicore_num()` is the AI core count, `get_vectorcore_num()` the vector core count. A kernel another module of the
package defines is checked where this module launches it (`from .kernels import k`, then
`k[(cores,)](...)`), from that module's code.

### Launches
`kernel[grid](...)`, a launcher stored once (`launcher = kernel[grid]`, or
`launcher = functools.partial(kernel[grid], NUM_CORES=cores)`, then `launcher(x, n)`: reported
where the grid is written), and `kernel.run(..., grid=g, warmup=False)` (Triton's
`JITFunction.run`, which `kernel[g](...)` calls; not `warmup=True`, which only compiles). The
grid may be written there, bound to a name, returned by a function of the module or held by a
dict (`kernel[cfg["grid"]](...)` with `cfg = {"grid": (num_core,), ...}`, `dict(grid=...)` or
`cfg["grid"] = ...`: the entry for that key written last before the launch; none when
`cfg.update(...)`, `setdefault`, a `**` splat or a store under an `if` or in a loop may change it).

### Not flagged
Not
flagged: launches that run only on another platform than Ascend (the forms ASC001 lists), and a
grid with other axes than the count's that are not 1 all together: integer axes multiplying to 2
or more (`(props["num_vectorcore"] // 2, 2)`, `(props["num_aicore"], 2)`) launch a program per
vector core or more, leaving none idle, and an axis of no known value (`(num_aicore, H)` with
`H` a head count, a batch or a parameter) launches `H` programs per AI core: a program per vector
core whenever `H` is 2 or more. `(num_aicore, 1)` and `(num_aicore, ONE)` with `ONE = 1` are
flagged, and so is a grid in a loop over written items any trip of which launches one of them
(`for m in (1, 2): k[(cores, m)]`: the first trip is `(cores, 1)`), but for a trip a test there
excludes (`if m < 2: continue`).

### What counts as using `tl.dot`
A kernel counts as using `tl.dot` on a launch when it calls `tl.dot` / `tl.dot_scaled`, or a
`@triton.jit` function that does, outside the `if` arms the launch's constexpr values leave
out (`if USE_DOT:` launched with `USE_DOT=False`, a literal, a host name bound to one, or the
parameter's default when the launch leaves it out: the compiler never builds that arm, and the
message says the kernel has no `tl.dot` compiled for the launch; a value not known, a splat, or
a parameter heuristics or autotune configs provide leaves both arms). A device function's
`if` arms are read the same way, with the constexpr values its call passes it: a literal
(`_body(x, w, y, False, BD)`), its default when the call omits it, or the launch's own value
passed on (`_body(x, w, y, USE_DOT, BD)` in a kernel launched with `USE_DOT=False`); a call
passing a value not known leaves both arms of the device function's `if USE_DOT:`. The function called is one of the module, or one it imports from a
module of the package read from disk (`from .op import safe_dot`; as for the device functions ASC003
follows), whose body decides, whatever its name. A helper imported from a module no file of the
package holds (`from fla.ops.utils.op import safe_dot` with fla neither installed nor in the tree)
cannot be read: it counts when a word of its name says matrix multiply (`dot`, `tdot`, `mm`,
`bmm`, `addmm`, `baddbmm`, `gemm`, `matmul`, `mma`, `wgmma`, `mmad`, words split at `_`, digits
and case changes: `safe_dot`, `op.safe_dot(...)` after `from fla.ops.utils import op`,
`batchedMatmul`, `matMul`; not `apply_gamma`, `summarize_rows` or `comm_barrier`, which only
hold the letters). A mixed cube/vector kernel, one splitting each
AI core's work between its cores itself (`with extension.scope(core_mode="vector"):`,
`extension.sub_vec_id()`), is written for the AI core count and not flagged either. Part of the `perf` group
(`ignore = ["perf"]` turns the performance rules off).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

import libcst as cst

from ascend_lint.host import CoreCount, Grid, HostIndex, Launch
from ascend_lint.prefilter import KERNEL_TOKENS, LAUNCH
from ascend_lint.rule import Kernel, ModuleContext, Report, Rule
from ascend_lint.specialisations import Value, decided_outcomes, launch_values, passed_values

MESSAGE = (
    "vector kernel on the cube core count: `{kernel}` has no `tl.dot`{launched} but its grid is `{axis}` "
    "(num_aicore); launch it on `num_vectorcore` (twice as many vector cores on A2)"
)
# the kernel's dots are all in `if` arms the launch's constexprs never compile
DEAD_DOTS = " compiled for this launch (each is in an `if` arm its constexpr values leave out)"
# words of a helper's name that say matrix multiply (`_name_words`): whole words, as `mm` is
# also in `gamma`, `summarize`, `comm`; torch's `addmm` / `baddbmm`, Ascend's cube `mmad`,
# NVIDIA's `wgmma`
_MATMUL_WORDS = frozenset({"dot", "tdot", "mm", "bmm", "addmm", "baddbmm", "gemm", "matmul", "mma", "wgmma", "mmad"})
_WORD_BREAKS = re.compile(r"[_\d]+|(?<=[a-z])(?=[A-Z])")


class VectorKernelOnAicore(Rule):
    CODE = "ASC009"
    NAME = "vector-kernel-on-aicore"
    SUMMARY = "A kernel without `tl.dot` launched on `num_aicore` programs (half the vector cores idle)"
    NO_FIX = "the core count is often shared with other launches, and a kernel that is not a task loop over the grid computes other work on another grid"
    NO_CONFIRM = "performance advice: the kernel computes the same with half the vector cores idle, so no replay fails or differs"
    GROUP = "perf"
    # a kernel of the module; the count's words may be in another module of the package it imports
    REQUIRES_TOKENS = ((*KERNEL_TOKENS, LAUNCH),)  # a kernel of the module, or the launch of one it imports

    VALID = (
        """
import triton
import triton.language as tl

@triton.jit
def matmul_kernel(a, b, c, task_num, num_core, BM: tl.constexpr):
    for task in range(tl.program_id(0), task_num, num_core):
        o = tl.arange(0, BM)
        b_c = tl.dot(tl.load(a + o[:, None] * BM + o[None, :]), tl.load(b + o[:, None] * BM + o[None, :]))
        tl.store(c + o[:, None] * BM + o[None, :], b_c)

@triton.jit
def norm_kernel(x, y, task_num, num_core, BD: tl.constexpr):
    for task in range(tl.program_id(0), task_num, num_core):
        o = task * BD + tl.arange(0, BD)
        tl.store(y + o, tl.load(x + o) * 2.0)

NUM_CORES = triton.runtime.driver.active.utils.get_device_properties(0)["num_aicore"]

def run_on(x, y, n, NUM_CORES):  # the parameter hides the module's name
    norm_kernel[(NUM_CORES,)](x, y, n, NUM_CORES, BD=64)

def run(a, b, c, x, y, n):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    num_core = props["num_aicore"]
    matmul_kernel[(num_core,)](a, b, c, n, num_core, BM=16)
    num_vec = props["num_vectorcore"]
    norm_kernel[(num_vec,)](x, y, n, num_vec, BD=64)

def _core_counts():
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    return props["num_aicore"], props["num_vectorcore"]

def run_in_turn(a, b, c, x, y, n):
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    cores = props["num_aicore"]
    matmul_kernel[(cores,)](a, b, c, n, cores, BM=16)
    cores = props["num_vectorcore"]  # the value reaching the launch below
    norm_kernel[(cores,)](x, y, n, cores, BD=64)

def run_on_vector_cores(x, y, n):
    _, num_vec = _core_counts()  # the second count the helper returns
    norm_kernel[(num_vec,)](x, y, n, num_vec, BD=64)
    norm_kernel[(_core_counts()[1],)](x, y, n, num_vec, BD=64)

def get_num_cores(op_type="vector"):
    props = triton.runtime.driver.active.utils.get_device_properties("npu")
    return props["num_vectorcore"] if op_type == "vector" else props["num_aicore"]

def run_by_kind(x, y, n):
    norm_kernel[(get_num_cores(),)](x, y, n, get_num_cores(), BD=64)  # the default asks for vector cores
    norm_kernel[(get_num_cores("vector"),)](x, y, n, get_num_cores("vector"), BD=64)
""",
        # a mixed cube/vector kernel: each AI core's program splits its rows over its vector cores
        """
import triton
import triton.language as tl
import triton.language.extra.cann.extension as ext

@triton.jit
def copy_then_exp(x, y, g, n, BLOCK: tl.constexpr):
    with ext.scope(core_mode="cube"):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)
    with ext.scope(core_mode="vector"):
        offs = (tl.program_id(0) * 2 + ext.sub_vec_id()) * BLOCK + tl.arange(0, BLOCK)
        tl.store(g + offs, tl.exp(tl.load(x + offs, mask=offs < n)), mask=offs < n)

def launch(x, y, g):
    n_cube = triton.runtime.driver.active.utils.get_aicore_num()
    copy_then_exp[(n_cube,)](x, y, g, x.numel(), BLOCK=1024)
""",
        # a global set to the AI core count by one function and to a literal by another: no known count
        """
import torch
import triton
import triton.language as tl

_NUM_CORES = None

def init_cores():
    global _NUM_CORES
    _NUM_CORES = torch.npu.get_device_properties(torch.npu.current_device()).cube_core_num

def use_cores(n):
    global _NUM_CORES
    _NUM_CORES = 40

@triton.jit
def exp_kernel(x, y, n, BLOCK: tl.constexpr):
    for t in tl.range(tl.program_id(0), tl.cdiv(n, BLOCK), tl.num_programs(0)):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + offs, tl.exp(tl.load(x + offs, mask=offs < n)), mask=offs < n)

def exp(x, y):
    exp_kernel[(_NUM_CORES,)](x, y, x.numel(), BLOCK=1024)
""",
    )
    INVALID = (
        # the count bound by an assignment expression in the grid, or held by a property
        """
import functools


@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)


def props():
    return triton.runtime.driver.active.utils.get_device_properties(0)


class Scale:
    @property
    def cores(self):
        return props()["num_aicore"]

    @functools.cached_property
    def cached_cores(self):
        return props()["num_aicore"]

    def run(self, x):
        scale_kernel[(self.cores,)](x, x.numel(), BLOCK=1024)  # expect
        scale_kernel[(self.cached_cores,)](x, x.numel(), BLOCK=1024)  # expect
        scale_kernel[((nc := props()["num_aicore"]),)](x, x.numel(), BLOCK=nc)  # expect
""",
        # a helper asked for the cube count by a literal argument (XPU-Forces/mojo_opset)
        """
def get_num_cores(op_type="vector"):
    props = triton.runtime.driver.active.utils.get_device_properties("npu")
    return props["num_vectorcore"] if op_type == "vector" else props["num_aicore"]

@triton.jit
def row_max_kernel(x, y, n_rows, D: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        tl.store(y + row, tl.max(tl.load(x + row * D + tl.arange(0, D)), axis=0))

def row_max(x, y):
    cores = get_num_cores("cube")
    row_max_kernel[(min(cores, x.shape[0]),)](x, y, x.shape[0], D=x.shape[1])  # expect
    row_max_kernel[(get_num_cores(op_type="mix"),)](x, y, x.shape[0], D=x.shape[1])  # expect
""",
        # half the vector cores is one program per AI core; a quarter, or twice the AI cores, is not the count,
        # nor a grid whose literal axes launch two programs per AI core or more
        """
@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)

def scale(x):
    props = triton.runtime.driver.active.utils.get_device_properties(x.device)
    cores = props["num_vectorcore"] // 2
    scale_kernel[(cores,)](x, x.numel(), BLOCK=1024)  # expect
    scale_kernel[(int(props.get("num_vectorcore", 48)) >> 1,)](x, x.numel(), BLOCK=1024)  # expect
    scale_kernel[(props["num_vectorcore"] // 4,)](x, x.numel(), BLOCK=1024)
    scale_kernel[(props["num_aicore"] * 2,)](x, x.numel(), BLOCK=1024)
    # literal axes of 2 or more programs per AI core: a program per vector core, or more
    scale_kernel[(props["num_vectorcore"] // 2, 2)](x, x.numel(), BLOCK=1024)
    scale_kernel[(2, props["num_aicore"], 1)](x, x.numel(), BLOCK=1024)
    scale_kernel[(props["num_aicore"], 1)](x, x.numel(), BLOCK=1024)  # expect
    # another axis of no known value (a head count): that many programs per AI core
    scale_kernel[(props["num_aicore"], x.shape[1])](x, x.numel(), BLOCK=1024)
""",
        # vLLM's platform query is the cube core count on vllm-ascend
        """
from vllm.utils.platform_utils import num_compute_units

@triton.jit
def scale_rows_kernel(x, n_rows, D: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        tl.store(x + row * D + tl.arange(0, D), tl.load(x + row * D + tl.arange(0, D)) * 2.0)

def scale_rows(x):
    cores = num_compute_units(x.device.index)
    scale_rows_kernel[(min(cores, x.shape[0]),)](x, x.shape[0], D=x.shape[1])  # expect
    props = torch.npu.get_device_properties(x.device)
    scale_rows_kernel[(props.cube_core_num,)](x, x.shape[0], D=x.shape[1])  # expect
    scale_rows_kernel[(props.vector_core_num,)](x, x.shape[0], D=x.shape[1])
    scale_rows_kernel[_cores_grid(props)](x, x.shape[0], D=x.shape[1])  # expect

def _cores_grid(props):  # a grid a helper makes of what its call passes
    return (props.cube_core_num,)
""",
        # vllm-ascend's `triton_utils.py`: a global an init function sets, returned by a getter
        """
import torch

_NUM_AICORE = -1
_NUM_VECTORCORE = -1

def init_device_properties_triton():
    global _NUM_AICORE, _NUM_VECTORCORE
    props = triton.runtime.driver.active.utils.get_device_properties(torch.npu.current_device())
    _NUM_AICORE = props.get("num_aicore", -1)
    _NUM_VECTORCORE = props.get("num_vectorcore", -1)

def get_aicore_num():
    return _NUM_AICORE

def get_vectorcore_num():
    return _NUM_VECTORCORE

@triton.jit
def exp_kernel(x, y, n, BLOCK: tl.constexpr):
    for t in tl.range(tl.program_id(0), tl.cdiv(n, BLOCK), tl.num_programs(0)):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + offs, tl.exp(tl.load(x + offs, mask=offs < n)), mask=offs < n)

def exp(x, y):
    exp_kernel[(get_aicore_num(),)](x, y, x.numel(), BLOCK=1024)  # expect
    exp_kernel[(get_vectorcore_num(),)](x, y, x.numel(), BLOCK=1024)
""",
        # vllm-ascend's helpers imported by a project with no vllm-ascend on disk: told by name
        """
import triton
import triton.language as tl
from vllm_ascend.ops.triton import triton_utils
from vllm_ascend.ops.triton.triton_utils import get_aicore_num, get_vectorcore_num

@triton.jit
def exp_kernel(x, y, n, ncore, BLOCK: tl.constexpr):
    for t in tl.range(tl.program_id(0), tl.cdiv(n, BLOCK), ncore):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + offs, tl.exp(tl.load(x + offs, mask=offs < n)), mask=offs < n)

def exp(x, y):
    num_core = get_aicore_num()
    exp_kernel[(num_core,)](x, y, x.numel(), num_core, BLOCK=1024)  # expect
    exp_kernel[(triton_utils.get_aicore_num(),)](x, y, x.numel(), 40, BLOCK=1024)  # expect
    exp_kernel[(get_vectorcore_num(),)](x, y, x.numel(), 40, BLOCK=1024)
""",
        # triton-ascend's driver answers the counts too (FlagGems-vllm's `_get_aic_num()`)
        """
from triton.runtime import driver

@triton.jit
def scale_kernel(x, y, n, BLOCK: tl.constexpr):
    for t in tl.range(tl.program_id(0), tl.cdiv(n, BLOCK), tl.num_programs(0)):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + offs, tl.load(x + offs, mask=offs < n) * 2.0, mask=offs < n)

def _get_aic_num():
    return driver.active.utils.get_aicore_num()

def scale(x, y):
    scale_kernel[(_get_aic_num(),)](x, y, x.numel(), BLOCK=1024)  # expect
    scale_kernel[(driver.active.utils.get_aivector_core_num(),)](x, y, x.numel(), BLOCK=1024)
""",
        """
import triton
import triton.language as tl

def get_npu_properties():
    return triton.runtime.driver.active.utils.get_device_properties(0)

@triton.jit
def norm_kernel(x, y, task_num, num_core, BD: tl.constexpr):
    for task in range(tl.program_id(0), task_num, num_core):
        o = task * BD + tl.arange(0, BD)
        tl.store(y + o, tl.load(x + o) * 2.0)

def run(x, y, n):
    num_core = get_npu_properties()["num_aicore"]
    norm_kernel[(num_core,)](x, y, n, num_core, BD=64)  # expect
    grid = (min(num_core, n),)
    norm_kernel[grid](x, y, n, num_core, BD=64)  # expect
    cfg = {"grid": (num_core,), "cores": num_core, "BD": 64}
    norm_kernel[cfg["grid"]](x, y, n, num_core, BD=cfg["BD"])  # expect
    norm_kernel[(cfg["cores"],)](x, y, n, num_core, BD=cfg["BD"])  # expect

def run_on_either_count(x, y, n):
    props = get_npu_properties()
    vector_cores, ai_cores = props["num_vectorcore"], props["num_aicore"]
    norm_kernel[(min(vector_cores, ai_cores),)](x, y, n, n, BD=64)  # the fewer: the AI cores  # expect
    norm_kernel[(max(ai_cores, vector_cores),)](x, y, n, n, BD=64)  # the more: the vector cores

def _launch_core_grid(kernel, *, task_num, kernel_kwargs):
    num_core = get_npu_properties()["num_aicore"]
    kernel[(num_core,)](task_num=task_num, num_core=num_core, **kernel_kwargs)  # expect

def run_through_a_launcher(x, y, n):
    _launch_core_grid(norm_kernel, task_num=n, kernel_kwargs=dict(x=x, y=y, BD=64))

def run_in_turn(a, b, c, x, y, n):
    props = get_npu_properties()
    cores = props["num_vectorcore"]
    norm_kernel[(cores,)](x, y, n, cores, BD=64)
    cores = props["num_aicore"]  # meant for a matmul, reaching the launch below too
    norm_kernel[(cores,)](x, y, n, cores, BD=64)  # expect

def run_overridable(x, y, n, num_cores=None):
    cores = num_cores or get_npu_properties()["num_aicore"]  # the query unless a count is passed
    norm_kernel[(min(cores, n),)](x, y, n, cores, BD=64)  # expect

def run_either(x, y, n, small):
    props = get_npu_properties()
    if small:
        cores = props["num_vectorcore"]
    else:
        cores = props["num_aicore"]  # either arm may be the count
    norm_kernel[(cores,)](x, y, n, cores, BD=64)  # expect
""",
        # the count read once at import, in a module-level name; `.get` chained on the query
        """
import triton
import triton.language as tl
from triton.runtime import driver

NUM_CORES = driver.active.utils.get_device_properties(0)["num_aicore"]
CUBE_KEY = "num_aicore"

def _cube_cores():
    return driver.active.utils.get_device_properties(0).get("num_aicore")

CUBE_CORES = _cube_cores()

class Device:
    @staticmethod
    def cube_cores():
        return driver.active.utils.get_device_properties(0)["num_aicore"]

    def launch(self, x, y, n):
        norm_kernel[(self.cube_cores(),)](x, y, n, n, BD=64)  # expect

@triton.jit
def norm_kernel(x, y, task_num, num_core, BD: tl.constexpr):
    for task in range(tl.program_id(0), task_num, num_core):
        o = task * BD + tl.arange(0, BD)
        tl.store(y + o, tl.load(x + o) * 2.0)

def run(x, y, n):
    norm_kernel[(NUM_CORES,)](x, y, n, NUM_CORES, BD=64)  # expect
    norm_kernel[(CUBE_CORES,)](x, y, n, CUBE_CORES, BD=64)  # expect
    norm_kernel[(_cube_cores(),)](x, y, n, n, BD=64)  # expect
    norm_kernel[(Device.cube_cores(),)](x, y, n, n, BD=64)  # expect
    props = driver.active.utils.get_device_properties(0)
    norm_kernel[(props[CUBE_KEY],)](x, y, n, n, BD=64)  # expect
""",
        # both counts from a helper of the module returning them in a tuple
        """
import torch
import triton
import triton.language as tl

def get_device_properties():
    props = triton.runtime.driver.active.utils.get_device_properties(torch.npu.current_device())
    return props["num_aicore"], props["num_vectorcore"]

@triton.jit
def scale_rows_kernel(x, n_rows, D: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        offs = row * D + tl.arange(0, D)
        tl.store(x + offs, tl.load(x + offs) * 2.0)

def scale_rows(x):
    num_aicore, _ = get_device_properties()
    scale_rows_kernel[(num_aicore,)](x, x.shape[0], D=x.shape[1])  # expect

def scale_rows_capped(x):
    kernel_num = get_device_properties()[0]
    scale_rows_kernel[(min(kernel_num, x.shape[0]),)](x, x.shape[0], D=x.shape[1])  # expect
""",
        # a dot only in the arm of a constexpr `if` the launch leaves out: no dot is compiled
        """
import triton
import triton.language as tl

CORES = triton.runtime.driver.active.utils.get_device_properties(0)["num_aicore"]

@triton.jit
def scale_kernel(x, w, y, USE_DOT: tl.constexpr, BD: tl.constexpr):
    o = tl.arange(0, BD)
    b = tl.load(x + o[:, None] * BD + o[None, :])
    if USE_DOT:
        b = tl.dot(b, tl.load(w + o[:, None] * BD + o[None, :]))
    tl.store(y + o[:, None] * BD + o[None, :], b * 2.0)

def scale(x, y):
    scale_kernel[(CORES,)](x, x, y, USE_DOT=False, BD=16)  # expect

def project(x, w, y, use_dot):
    scale_kernel[(CORES,)](x, w, y, USE_DOT=True, BD=16)
    scale_kernel[(CORES,)](x, w, y, USE_DOT=use_dot, BD=16)  # not known: the dot may be compiled
""",
        # a kernel launched on its own and also called inline by a fused kernel (dlblas MLA prolog)
        """
import triton
import triton.language as tl
from triton.runtime import driver

NUM_CORES = driver.active.utils.get_device_properties(0)["num_aicore"]

@triton.jit
def scale_rows_kernel(x, y, n_rows, D: tl.constexpr, CORES: tl.constexpr):
    for row in range(tl.program_id(0), n_rows, CORES):
        offs = row * D + tl.arange(0, D)
        tl.store(y + offs, tl.load(x + offs) * 2.0)

@triton.jit
def scale_twice_kernel(x, y, z, n_rows, D: tl.constexpr, CORES: tl.constexpr):
    scale_rows_kernel(x, y, n_rows, D, CORES)
    scale_rows_kernel(y, z, n_rows, D, CORES)

def scale_rows(x, y):
    scale_rows_kernel[(NUM_CORES,)](x, y, x.shape[0], D=x.shape[1], CORES=NUM_CORES)  # expect

def scale_twice(x, y, z):
    scale_twice_kernel[(NUM_CORES,)](x, y, z, x.shape[0], D=x.shape[1], CORES=NUM_CORES)  # expect
""",
    )

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        host = context.host
        launched = [(kernel, host.launches_with_helpers(kernel)) for kernel in context.kernels]
        for kernel, launches in [*launched, *host.imported_kernel_launches().items()]:
            # by the constexpr values each launch fixes; the kernel's flow is built only for a
            # launch on the AI core count
            on_ai_cores: dict[frozenset[tuple[str, Value]], bool] = {}
            # the module's constants are not those an imported kernel's tests read
            constants = context.module_constants if kernel in context.kernels else {}
            for launch in launches:
                found = _aicore_axis(host, launch)
                if found is None or host.on_other_platform(launch.call):
                    continue
                values = launch_values(kernel, launch.args_launch, constants, host)
                key = frozenset(values.items())
                if key not in on_ai_cores:
                    on_ai_cores[key] = _runs_on_ai_cores(kernel, values, constants, set())
                if on_ai_cores[key]:
                    continue
                grid, count = found
                if frozenset() not in on_ai_cores:  # whatever a launch passes
                    on_ai_cores[frozenset()] = _runs_on_ai_cores(kernel, {}, constants, set())
                dead_dots = DEAD_DOTS if on_ai_cores[frozenset()] else ""
                yield Report(
                    launch.written_at,
                    MESSAGE.format(kernel=kernel.name, launched=dead_dots, axis=grid.quoted),
                    related=((count.node, "the AI core count is read here"),),
                    within=launch.scope,
                )


def _aicore_axis(host: HostIndex, launch: Launch) -> tuple[Grid, CoreCount] | None:
    """The first grid of the launch with an axis holding the AI core count, and that count,
    whose other axes launch one program per AI core: each a known int (`known_int`), 1 all
    together. Not `(num_aicore, 2)` (a program per vector core), nor `(num_aicore, H)` (as many
    programs per AI core as `H`: two or more per AI core, a program per vector core, whenever
    `H` is). A grid in loops over written items is read in each trip that launches
    (`HostIndex.launching_trips`: `for m in (1, 2): k[(cores, m)]` launches `(cores, 1)` first)."""
    for written in host.grids(launch):
        for grid in host.launching_trips(written, launch):
            found = _one_program_per_ai_core(host, grid)
            if found is not None:
                return found
    return None


def _one_program_per_ai_core(host: HostIndex, grid: Grid) -> tuple[Grid, CoreCount] | None:
    """The grid and its axis holding the AI core count when the other axes are known ints
    launching one program per AI core all together (`_aicore_axis`)."""
    known = [host.known_int(axis, grid.scope) for axis in grid.axes]
    for place, axis in enumerate(grid.axes):
        others = known[:place] + known[place + 1 :]
        if None in others or math.prod(n for n in others if n is not None) >= 2:
            continue
        count = host.core_count(axis, grid.scope)
        if count is not None and count.kind == "num_aicore":
            return grid, count
    return None


def _runs_on_ai_cores(
    kernel: Kernel,
    values: dict[str, Value],
    constants: dict[str, Value],
    seen: set[tuple[Kernel, frozenset[tuple[str, Value]]]],
) -> bool:
    """The kernel, or a device function it calls (of the module, or one it imports:
    `Kernel.device_functions_called`), calls `tl.dot`, or splits its work between the cube and
    vector cores of each AI core itself (`_splits_ai_cores`); or it calls a Triton function or
    an imported helper whose body is not on disk (`Kernel.unread_import`) named like a matrix
    multiply. Only calls compiled with the kernel's constexpr `values` (`launch_values`: the
    arm of `if USE_DOT:` a launch passing `USE_DOT=False` never compiles holds none) count, and
    a device function's with those its call gives it (`passed_values`: a literal, or the
    launch's value passed on); `constants` are the module's."""
    seen.add((kernel, frozenset(values.items())))
    flow = kernel.flow
    outcomes = decided_outcomes(flow, values)
    calls = [event for event in flow.calls if flow.compiled_under(event, outcomes)]
    if any(kernel.imports.is_tl(event.call.func, "dot", "dot_scaled") for event in calls):
        return True
    for event in calls:
        if _splits_ai_cores(event.call):
            return True
        helpers = kernel.device_functions_called(event.call)
        for helper in helpers:
            # the module's constants are not those a helper another module defines reads
            own = constants if helper in kernel.module_kernels else {}
            passed = passed_values(helper, event.call, kernel, values, own)
            if (helper, frozenset(passed.items())) not in seen and _runs_on_ai_cores(helper, passed, own, seen):
                return True
        if helpers:
            continue
        func = event.call.func
        name = func.value if isinstance(func, cst.Name) and kernel.imports.resolve(func) else None
        name = name or kernel.unread_import(event.call)  # its body is not on disk: only its name says
        if name and not _MATMUL_WORDS.isdisjoint(_name_words(name)):
            return True
    return False


def _name_words(name: str) -> set[str]:
    """The words of a name, lower case: `safe_dot` → {safe, dot}, `batchedMatmul` → {batched,
    matmul}; `matmul` too when the name spells it in two (`matMul`, `mat_mul`)."""
    words = {word.lower() for word in _WORD_BREAKS.split(name) if word}
    return words | {"matmul"} if "matmul" in name.lower().replace("_", "") else words


def _splits_ai_cores(call: cst.Call) -> bool:
    """triton-ascend's mixed cube/vector kernel: a block run on one kind of core (`with
    extension.scope(core_mode="vector"):`) or a vector core's index within its AI core
    (`extension.sub_vec_id()`)."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    return name == "sub_vec_id" or (
        name == "scope" and any(arg.keyword is not None and arg.keyword.value == "core_mode" for arg in call.args)
    )
