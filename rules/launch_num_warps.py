"""
## What it does
Flags `num_warps=` and `num_stages=` wherever they reach a Triton launch: `kernel[grid](...,
num_warps=4)`, `triton.Config(..., num_stages=2)`, `triton.heuristics` tables, and dicts
splatted into a launch (`**launch_kwargs`), also through the helpers that build or forward
them. Each knob is reported where it is written.

Not flagged: a keyword the kernel takes as a parameter (`num_stages: tl.constexpr`), a knob on
a path that runs only on another platform than Ascend (`if x.device.type == "cuda":`),
`num_stages=` of a `tl.range` loop inside a kernel, and `num_warps` of a launch that may
select a SIMT mode (`force_simt_only=True`, `compile_mode="simd_simt"`, Ascend 950).

## Why is this bad?
Ascend's SIMD cores have no warps and Triton-Ascend does no software pipelining: both knobs
are ignored outside the SIMT mode. Measured on triton-ascend 3.2, the TTIR and linalg output are byte-identical for
`(num_warps, num_stages)` = (4, 2), (8, 3), (1, 1); the values only land in metadata, and the
JIT prints `[WARNING] Please DO NOT tune args ['num_warps', 'num_stages']!`. Left in place
they look like tuning levers and make autotune spaces larger for nothing; the kernel
guidance is to delete them on Ascend paths. One exception may come: triton-ascend's upstream
main branch (not released after 3.2.0 so far) reads `num_stages=1` as "automatic
multi-buffering off"; write `multibuffer=False` where that is meant.

## Example
```python
kernel[grid](x, y, N, BLOCK=1024, num_warps=4, num_stages=2)
configs = [triton.Config({"BT": bt}, num_warps=w) for bt in (32, 64) for w in (2, 4)]
```

## Use instead
```python
kernel[grid](x, y, N, BLOCK=1024)
configs = [triton.Config({"BT": bt}) for bt in (32, 64)]
```
Tune tiles, the grid, layout and the UB budget instead.

## Fix safety
Safe: the keywords (or dict entries) are removed; they have no effect on the compiled
kernel. Unsafe for a `num_stages` that may be 1 (the literal 1, a name, an expression; not
`s` of `for s in [2, 3, 4]` in a comprehension): no effect on triton-ascend 3.2, but newer
builds turn multi-buffering back on without it. `--fix` still removes the `num_warps` beside
it. In a list of `triton.Config`s the fix keeps one copy of each distinct config; there is
no fix for a knob telling apart configs a loop (or the calls of a helper returning one)
builds that it cannot merge. Nor is there a fix
for a knob whose removal host code would notice (a dict entry read out of the dict or
bound to a kernel's parameter by another launch splatting the dict, a
knob a heuristics, `prune_configs_by` or autotuner `key=` function reads, the knob of a
`triton.Config` bound to a name host code reads it from, `CFG.num_warps`, a value calling
what may do more than compute it, `num_warps=_next_warps()`: not `min`, `triton.cdiv`,
`x.numel()`, `config.get("num_warps", 4)` nor a function that only computes) or using up an
iterator (`sum(1 for _ in it)`), nor for one passed
to a helper that also launches on another platform, nor for one a launch on another
platform's path gets too (a dict splatted both there and on the NPU's path: the advice is to
keep it for that launch only), nor for one whose value has an arm only another platform takes
(`num_warps=None if _is_npu else 8`), nor for one in a module that keeps code
apart for the NPU (`if _is_npu:`) on no path of that code: other platforms may run it (but
for `num_warps=4`, Triton's own default on every platform, when it is the only write of the
knob reaching its launches: the fix removing it changes no launch).

## Details
### Where the knobs are found
Flags `num_warps=` and `num_stages=` in Triton kernel launches (`kernel[grid](...)`),
`triton.Config(...)` (also inside comprehensions and helper functions that build config
lists, and written positionally, `triton.Config({...}, 4, 2)`, in the order of
`Config(kwargs, num_warps=4, num_stages=2, num_ctas=1, ...)`: the fix names the positional
arguments after a knob it removes, `triton.Config({...}, num_ctas=1)`; not in a config with
more positional arguments, whose later parameters Triton versions order apart),
`triton.heuristics` tables, and dicts splatted into a launch: `**{"num_warps": 4}`,
`**launch_kwargs` bound to a dict literal or `dict(...)` in the same function or module
(also `kw["num_stages"] = 1` stores into it, any target of a chained assignment: `a =
kw["num_warps"] = 8`, what the function adds to it with `kw.update(...)`,
`kw.setdefault(...)` or `kw |= {...}`, and `dict(..., **base)`), returned by a function of
the module (also as an element of a returned tuple), an entry of a table of them (`cfg =
_CFG[key]` after `_CFG = {"small": {"num_warps": 4}, ...}`, `**_CFGS[i]` of a list: a literal
key picks its entry, any other every entry but one keyed for another platform, `"cuda"`,
`"hip"`, or a GPU model, `"A100"`, `"H100"`, `"MI300X"`; the entries are reported and
edited; also taken with `_CFG.get(key)`, and `_CFG.get(key, default)`'s default, or by a loop
over a list of dicts, `for cfg in _CFGS: kernel[grid](**cfg)`), held by an attribute of a
class (`**self.LAUNCH`: bound in the class body, or stored by `__init__` alone, `self.LAUNCH =
{...}`, and by no class deriving from it) or returned by its method (`**self._cfg()`; the fix
is declined when the attribute is used otherwise than splatted, `self.LAUNCH["num_warps"]`,
`self.kw.update(...)`, `cfg = self._cfg()`), or copied
from one of those (`config.copy()`, `dict(config)`, a comprehension over its items keeping
each key, `{k: v for k, v in cfg.items()}`, with no test reading the key: `if v is not None`
may drop an entry for its value, `if k != "num_warps"` is not followed), either arm of a choice (`configs[0] if configs else
default_config(n)`, `tuned or {...}`) or side of a merge (`base | dict(num_warps=4)`); the
same for `triton.Config({...}, **knobs)`. Not a knob the launch's function takes out of the
dict before the launch on every path (`cfg = dict(_CFG[key])`, then `cfg.pop("num_warps",
None)` or `del cfg["num_warps"]` in the function's own body): the launch does not get it.

A kernel's `warmup(...)` and `run(...)` (compiling it ahead of time with the same options)
count as launches (also of the kernel wrapped by torch for `torch.compile`:
`torch.library.wrap_triton(kernel).run(...)`, and `wrap_triton(kernel)[grid](...)` is a launch
of the kernel, whose own parameters are no knobs), and so does the call of a launcher a function stores once
(`launcher = kernel[grid]`, then `launcher(x, num_warps=4)`), or the module does (`_launch =
functools.partial(kernel[grid], num_warps=4)`, called at module level or in a function that
binds none of the names it reads), and a
`functools.partial(kernel[grid], num_warps=4)` (the keyword is reported and deleted there;
also under another name, `from functools import partial as bind`, `ft.partial` after `import
functools as ft`, but not another module's `partial`, `from mylib import partial`; called where it is made,
`functools.partial(kernel[grid], num_warps=4)(x)`, or returned by a function of the module
and called, `_launcher()(x)`, when its grid and arguments read no name of that function's
own). So does the call of a `kernel[grid]` a function of the module returns, called at once
or stored first (`_launcher(N)(x, num_warps=4)`, `launch = _launcher(N)`, then `launch(x,
num_warps=4)`), when its grid reads only parameters the function never rebinds: the grid is
the one the call makes (`(N,)` for `def _launcher(n): return kernel[(n,)]`). A launch in a nested function splats the dict its outer function binds
and changes. Helpers count too: the keywords of a call to a function that
forwards its `**kwargs` into a launch (or to such a method, through `self` or its class), and the dicts passed for a parameter a launcher
splats (`kernel[grid](**kernel_kwargs)`), also through helpers that pass the parameter on
to the launcher, and from config getters called through `functools.partial`.

### Heuristics tables
`Heuristics.run` passes each key of a `triton.heuristics` table as a launch keyword: the
tables given to the decorator (written in it, bound to a name, passed as `values=`) count,
and so does any dict mapping a knob to a lambda or a function of the module, the shape of a
table another module hands to the decorator (`triton.heuristics(get_config("softmax"))`).

### Not flagged: the kernel's own parameters
Each knob is reported where it is written. Not flagged: a keyword named for a parameter
of the kernel that takes it (`num_stages: tl.constexpr` in the signature): Triton binds it
to that parameter, an argument and no compiler option. So at a launch of such a kernel of
the module (also at a call of a helper passing its `**kwargs` to the launch), its `warmup` / `run`, a `triton.Config` of its autotuner (which passes the
config's `num_stages=` as a launch keyword, over any `"num_stages"` of its dict), its
heuristics and the dicts splatted there; the fix of the other knob keeps it. The same at
the launches of a kernel another module of the package defines, through the name imported
(`from .kernels import k as _k`, then `_k[grid](...)`; the module is read from disk, as for
ASC003's device functions); a kernel of a module that cannot be read is not seen: its knobs
are reported. A dict splatted both there and into a launch of a kernel without such a
parameter keeps its finding for the latter, with no fix: deleting the entry would break the
former launch (Triton's binder raises for the missing argument).

### Not flagged: other platforms
Nor knobs on a path
that runs only on another platform than Ascend, in a function or at module level, nor the
configs of a kernel every launch of which in the module is on one. Such paths: an arm (of
an `if`, a conditional expression `a if test else b`, or a case of a `match` read as the `if`
comparing its subject with the case's string literals, the `case _:` after `case "npu":` as
its `else`) requiring `x.device.type == "cuda"`
(or any other device type but the NPU's, `"npu"` or `"privateuseone"`: `== "cpu"`, `in ("cuda",
"hip")`; also of a name every value bound to which is a device type, `dev = x.device.type`,
and of Triton's backend, `"npu"` on Ascend:
`triton.runtime.driver.active.get_current_target().backend == "cuda"`), a tensor's device or
its text said to be another place (`x.device == torch.device("cpu")`, `str(x.device) ==
"cpu"`, `"cuda" in str(x.device)`, `str(x.device).startswith("cuda")`; `"cuda"` only for the
device of a tensor held in a name: `self.device` or a name `device` may hold the text
`"cuda"`, which `transfer_to_npu` maps to the NPU), `x.is_cpu`, `torch.version.hip` or
`torch.version.cuda` set (`is not None`, or true: None in the CPU build of torch the NPU
runs), `current_platform.is_cuda()` / `is_rocm()` / `is_cuda_alike()` (vLLM's platform object;
vllm-ascend's is the out-of-tree "npu" one), a predicate or flag named for another vendor's
GPU, its runtime or architecture, wherever it comes from (`is_hopper()`, `is_ampere()`,
`utils.is_hip()`, `is_cuda()`, `is_sm90_supported()`, `IS_NVIDIA_HOPPER`, `IS_AMD`, `_is_xpu`,
`get_platform().is_sm100`; not `is_cuda_graph_enabled()` nor `is_cuda_available()`; a flag
defined in the module, or in the module of the package it is imported from, is what its value
says: `is_cuda = x.device.type in ("cuda", "npu")` holds on the NPU), both
sides of an `or` requiring such a platform, a name bound to such a test, a predicate of
the module, or of the module of the package it is imported from, true only on such a path
(a flag imported from there bound to such a test), or `v is not None` for a `v` a function of the module
returned, every value of it but `None` on such a path there; the `else` of an NPU test
(`IS_NPU`, `is_npu()`, `USE_NPU`, `_NPU`, `_TRITON_ON_ASCEND`, `torch_npu is not None` after
`except ImportError: torch_npu = None`, `x.device.type == "npu"`, `device ==
"npu"`, `"npu" in str(x.device)`, `"npu" in x.device.type`, `x.device.type.startswith("npu")`, `torch.npu.is_available()`, `hasattr(torch, "npu")`, a predicate of the module true
except on such a path, `def on_device(): return hasattr(torch, "npu")`) and the arm of `device_type != "npu"` (any value unequal to `"npu"`), also of a
name the module compares with `"npu"` holding another platform's name (`if BACKEND ==
"cuda":` beside `if BACKEND == "npu":`, `BACKEND in ("cuda", "cpu")`; not `BACKEND ==
"triton"`, an implementation the NPU may run); the
rest of a function (or of the module) after an early exit (`return`, `raise`) when such a
test fails (`if v is None: return`); a function defined on such a path; a CustomOp's `forward_cuda` /
`forward_hip` / `forward_xpu` / `forward_cpu` / `forward_tpu` / `forward_musa` that the
module never names otherwise (vLLM dispatches `forward_oot`, vllm-omni and sglang
`forward_npu`, on Ascend); a private function the module calls only on such paths, also
through a private module-level name bound only to it (`_run = _run_impl`, or to `None`); the
value of a private module-level name host code reads only on such paths (`_CUDA_CONFIGS` in
`@triton.autotune(configs=_NPU_CONFIGS if is_npu() else _CUDA_CONFIGS)`: a kernel's decorators
are read as the statements around them; a public `CUDA_CONFIGS` read so stays reported, as
another module may import it, with no fix and advice to make it private: deleting the knob
would change the other platform's launch, but for a `num_warps=4` alone in its config, Triton's
default on every platform). Such a path ends where a statement moves a tensor
to the NPU (`x = x.to("npu")`, `x.npu()`, `device="npu:0"` under `if x.device.type == "cpu":`):
what follows runs on the NPU. `npu` alone (`_NPU`) and `torch_npu` are an NPU flag only where
bound to a flag's values only (`True`, `False`, `None`, an NPU test), not as a loop's item, a
counter or a parameter; a name a function binds (as a `for`, `with` or `except` target too), or
a comprehension or lambda around the test, is its own, not the module's flag of that name.

`x.is_cuda` and `torch.cuda.is_available()` are no such tests: torch_npu's
`transfer_to_npu` makes them answer for the NPU; nor is a predicate or flag named for
another platform that is defined (in the module, or the module of the package it is imported
from) as one of them (`_is_cuda = torch.cuda.is_available()`), nor a device name a helper
returns (`DEVICE = infer_device()`, then `DEVICE == "cuda"`): liger's `infer_device()` returns
`"cuda"` when `torch.cuda.is_available()`, so on the NPU too. Nor a comparison of
`torch.cuda.get_device_capability()`: torch_npu's returns None (the comparison raises) and
adapters make up a value (`(8, 0)`), so what it says on Ascend is not known.

### Modules that also run on other platforms
A module testing for the NPU that keeps code apart for it (`if _is_npu: import torch_npu`,
NPU ops registered in the `else` of `if not _is_npu:`, a CustomOp's `forward_npu`: any host
code on a path running only on the NPU, read as for the other platforms' paths above, with
the NPU tests holding) is written for several platforms. A knob there on no path of that code
(neither the knob nor the call it reaches) may reach a launch on CUDA or ROCm too, where it
tunes the kernel: sglang's `batch_invariant_ops.py` launches its persistent matmul with
`**configs[a.dtype]` from `matmul_persistent`, a public function the package re-exports,
whose torch registrations run under `if not _is_npu:` only. Such a knob may still run on
Ascend (a public function, another module's call), so it stays reported (the guidance is to
keep it off every Ascend path), but with no fix and the advice to pass it on the other
platforms' path only, naming the module's first NPU-only statement: deleting it would change
their launch. But a knob written as the value Triton gives it on every platform when it is
left out, `num_warps=4` (upstream Triton's `CUDAOptions`, `HIPOptions` and `triton.Config`,
and triton-ascend 3.2's), keeps its fix, which removes such knobs only, and says why: without
it every launch stays the same (not in a list of configs the fix merges, one edit for them
all), but only when it is the one `num_warps` each launch it reaches may get: a keyword of a
`kernel[grid](...)` launch, its `warmup` / `run` or a `triton.Config`, or an entry of a dict
literal such a launch splats when nothing else the launch splats may hold the knob (only
dict literals, which nothing adds to: written there, bound to a name or returned by a function
of the module, `**opts()` or `o = opts()` with `def opts(): return {"num_warps": 4, ...}`). Beside another write of the knob (`{**_BASE,
"num_warps": 4}`, `dict({"num_warps": 8}, num_warps=4)`, an `update`, a partial's
`num_warps=8` the call overrides, a helper's `kw.setdefault("num_warps", 8)`, a splat of a dict
not read) deleting it would give the launch the other value: no fix. `num_stages` has no such value: CUDA's launch default is 3, ROCm's 2, and
`triton.Config`'s 3 upstream, 2 in triton-ascend 3.2. A knob on the NPU's own path (the
launch, or the dict or config holding the knob, or a `triton.Config` of a kernel every
launch of which is there) keeps its fix. A module
with no NPU test runs as written on Ascend (a port), and its knobs keep their fixes, whatever
other platforms it tests for (`is_hopper()`); so does a module whose file name or package
folders say Ascend (`vllm_ascend/`, `npu.py`, FlagGems' `_ascend` backend): it runs on the NPU
only, whatever upstream tests it kept (vllm-ascend's `if current_platform.device_name ==
"npu": return False`).

### Not flagged: `tl.range` loop hints
Nor `num_stages=` of a `tl.range` loop
inside a kernel: a loop hint, not a launch option. Measured on triton-ascend 3.2 it only
marks the loop (`tt.num_stages` in the TTIR; the linalg output and the memory plan are the
same with 1, 2, 3 or none), and the compiler team's own tutorials and sgl-kernel-npu write
`tl.range(..., num_stages=1)`, so it is left to them.

### Not flagged: the SIMT modes
Nor `num_warps` where a launch (a `warmup` / `run`, a call of a helper forwarding its
keywords) may select one of triton-ascend's SIMT modes with the literal keyword
`force_simt_only=True`, `compile_mode="simt_only"` (pure SIMT) or `compile_mode="simd_simt"`
(mixed SIMD and SIMT), on Ascend 950 (FlagTree's and triton-ascend's SIMT kernels pass
`num_warps=32`): a keyword of a launch that writes it, or
beside a `**` splat that may hold it (`**_opts(mode)`, a helper returning a SIMT dict and
another), or of a call of a helper whose launch writes it.

In a dict a launch splats it is
decided for each dict the knob is written in, at every launch of the module splatting it: not
reported in a dict that selects the mode itself, whichever other dicts the splat may hold (a
helper's other `return`, the `else` arm, the other arm of `a if c else b`), nor in one merged
with a dict that may (`{**base, "compile_mode": "simt_only"}`, `dict(base,
force_simt_only=True)`, `base | {...}`, a store or `update` into the name holding it), nor in
any dict splatted beside such a keyword or splat; the dict chosen instead of a SIMT one keeps
its finding. Nor in the `triton.Config`s and heuristics of a kernel every launch of which in the
module selects it (in every dict it may splat). The pure SIMT mode compiles the TTIR straight
to the binary with `bishengir-compile --pure-simt --num-warps=N` (triton-ascend's
`ttir_to_npubin`), and its autotuner tunes `num_warps` (8 to 64) there. The mixed mode, in
triton-ascend releases after 3.2 that have it, keeps the SIMD pipeline and adds
`--enable-simd-simt-mix-compile --num-warps=N --threads-per-warp=32` to its bishengir-compile
command (`linalg_to_bin_enable_npu_compile_910_95`, from `metadata["num_warps"]`; the
compiler unit test `test_simd_simt_mode_emits_mixed_bishengir_argv` asserts `--num-warps=4`
for `num_warps=4`). A launch naming that mode is written for such a release (3.2 does not
know the mode and compiles SIMD; later sources drop it again for `"simd_simt_template"`).

`num_stages=` stays reported: the pure SIMT path does not read it, and the mixed mode
reads it as the SIMD pipeline does. So does `num_warps=` beside `force_simt_only=False`,
another `compile_mode` (`"simd"`, and `"unstructured_in_simt"` / `"simd_simt_template"`,
which keep the SIMD pipeline and pass no `--num-warps`) or a
`triton.Config(..., force_simt_only=True)` (`Config` drops that keyword: measured on
triton-ascend 3.2, `all_kwargs()` does not hold it, so the config alone compiles SIMD).

### Fix safety in detail
Safe: the keywords (or dict entries) are removed; they have no effect on the compiled
kernel on released triton-ascend (3.2.0rc2, rc4, 3.2.0 never read `num_stages`). Unsafe for
a `num_stages` the rule cannot read as an integer literal other than 1 (`num_stages=1`,
`num_stages=s`, `num_stages=cfg["stages"]`, a lambda of a heuristics table; the name of a
comprehension clause over a literal list, tuple or set of integer literals reads as them:
`for s in [2, 3, 4]` keeps the safe fix, `for s in [1, 2]` does not): upstream
triton-ascend's `linalg_to_bin_enable_npu_compile_910_95` and
`linalg_to_bin_enable_npu_compile_A2_A3` pass `--enable-auto-multi-buffer=False` for
`num_stages == 1` (unless `multibuffer` is given, which wins), and any other value leaves it
on, as the default; so there its removal turns automatic multi-buffering back on (more UB, other
performance, possibly a UB overflow). No one rewrite keeps both: `multibuffer=False` would
turn it off on 3.2.0. Write `multibuffer=False` where it is meant, then accept the unsafe fix.
A fix removing several knobs is as weak as its weakest part: the unsafe fix of a
`num_stages=1` removes the other knobs of its call or dict too, while theirs, safe, leaves it
(so `--fix` removes `num_warps=4` from `Config({...}, num_warps=4, num_stages=1)`, and
`--unsafe-fixes` removes both in one pass); a merged config list that loses such a
`num_stages` is unsafe as a whole (one edit: `--fix` leaves the list). Each goes with its own text only: alone on its line, with that line and its comment
there; the neighbours' comments and lines stay. In a launch or a dict selecting a SIMT mode the fix of `num_stages` keeps `num_warps`, and the fix of the dict chosen instead of a SIMT one removes its own knobs only. In a list of `triton.Config`s (a comprehension or a literal list, passed to a call,
bound to a name or returned, or concatenated there with other lists: `[...] + BASE`), configs that differed only in the knobs would repeat, and
autotune would benchmark the same kernel several times: the fix keeps one copy of each
distinct config. A comprehension loses the `for` clauses whose names fed only the knobs
(when they have no `if` and iterate over a non-empty literal, or a name bound only to
one), and a clause over a literal's tuples the parts that did, then the later copies of
what is left (`for b, w in ((64, 4), (64, 8))` → `for b in (64,)`, when nothing there calls
anything); a clause that goes takes its own comment and the comment lines above it, but
the comment of a line it shares with a kept clause stays (`for b in [64, 128] for w in [4, 8]
# sweep` → `for b in [64, 128]  # sweep`); a literal list drops the later copies. Every
distinct config stays, in its order.
Configs of a kernel's autotuner the fix would leave alike but cannot merge, not in one
list (`BASE + [Config({...}, num_warps=8)]` beside `BASE = [Config({...})]`, `[*BASE,
...]`, `CONFIGS += [...]`, a tuple of configs, a merged list beside a config outside it)
get no fix: autotune would time each copy. Configs that never reach the autotuner together are
not compared: those of either arm of `A if c else B`, of a name bound in each arm of an `if`
(`if IS_NPU: CONFIGS = [...]` / `else: CONFIGS = [...]`, or bound again) and of a helper's
separate `return`s each form a space of their own, with what is added to all of them
(`CONFIGS + [...]`, `CONFIGS.append(...)`); the values of a name that one of them reads again
(`CONFIGS += [...]`) meet, and so do they all past 16 such spaces.
Configs built in a loop the merge does not undo (a `for` statement appending them, not
one whose body returns or breaks on every path, which runs once; a
comprehension clause it keeps, a lambda mapped over a space: `list(map(lambda p:
Config({"BLOCK": p[0]}, num_stages=p[1]), product(...)))`) get no fix for a knob whose value
reads a loop name, or a part of one (`p[1]`), that nothing else in the config reads: without
it the loop may build the same config more than once, and autotune would time each copy (`for nw in
(2, 4, 8): out.append(Config({"BT": bt}, num_warps=nw))` would append each config three
times); the loop over it should go, by hand. The same for a config a function of the module
returns, one per call, and a knob whose value reads a parameter of it that nothing else in the
config reads: `def _cfg(b, w): return Config({"BLOCK": b}, num_warps=w)` called as `_cfg(64,
4)` and `_cfg(64, 8)` would build the same config twice (a call in a loop or comprehension
may too; `_cfg(64, 4)` beside `_cfg(128, 8)`, or one call, keeps the fix). So does a knob a comprehension clause the merge
keeps varies alone (`for w in NUM_WARPS`, a name it cannot prove non-empty), while the merge
drops the clauses it can and their knobs (`[Config({"BT": bt}, num_warps=w, num_stages=s) for
bt in [16, 32] for w in NUM_WARPS for s in [2, 3]]` → `[Config({"BT": bt}, num_warps=w) for bt
in [16, 32] for w in NUM_WARPS]`). A knob whose loop name the config reads too
(`Config({"BT": bt}, num_warps=bt // 16)`), or that reads none, keeps its fix.
A list bound to a name host code uses otherwise than as configs (`CONFIGS[2]`,
`len(CONFIGS)`, a loop over it; passing it as `configs=`, returning it and appending to it
are fine), or returned by a function whose calls host code uses so (`len(get_configs())`,
`get_configs()[3]`, a call bound to a name host code uses so; not `CONFIGS = get_configs()`
passed as `configs=CONFIGS` only; or a method), keeps every config: only the knobs
go, so what those read stays where it was (none go when the copies would stay, above).
A heuristics table loses the knob's entry (its function stays), unless another heuristic
of the table reads the knob: then there is no fix. `kw.update(...)` and `kw |= {...}` lose
the knobs they add when they still add something else; there is no fix for one that would
add nothing (the statement should go), nor for `kw.setdefault(knob, v)` (its value may be
read). Nor is there a fix for a knob whose removal host code would notice: a dict entry
read out of the dict through any name it passes or reaches (`del kw["num_warps"]`,
`meta["num_stages"]`, `kw.pop("num_warps")`, `kw.get(...)`, `"num_warps" in kw`, also through
a copy, a parameter it is passed for, a getter's result, an entry of a table,
`_CFG[key]["num_warps"]`, `_CFG["large"]["num_warps"]` in any function, and anywhere for the
entries of a table host code reads otherwise than by taking an entry, storing one or reading
a literal key of one: `max(c["num_warps"] for c in _CFGS)`, `_CFG.values()`, a loop over
`_CFG[key]`; a `kw.pop("num_warps", None)` whose
result is dropped reads nothing), a knob of a launch (or a `triton.Config`) of a kernel a
`triton.heuristics` function, a `prune_configs_by` function or the `key=` of whose autotuner
reads it (`Heuristics.run` passes the launch keywords as `args`; a `KeyError` without it;
a prune reading a config's `c.num_warps` keeps other configs without it),
and a knob whose value binds a name read elsewhere (`num_warps=(nw := 4)`). Nor for a knob whose
value calls what may do more than compute it (a function of the module, or of the package
imported by name, that only computes is fixed) or loops over what may be an iterator (`sum(1
for _ in parts) or 4`; not over a literal, a `range` or `x.shape`): without the knob the call
would not run, or the iterator's items would be left to its next reader. A knob passed
to a helper that also launches on another platform (`if device_type
!= "npu": kernel[grid](**kwargs)`) has no fix: there it still tunes the kernel; so has one in a
public list the module reads only on another platform's path (`CUDA_CONFIGS` above). Words in comments and docstrings are
never flagged.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import TypeGuard

import libcst as cst

from ascend_lint.ascend_text import ascend_name
from ascend_lint.fixes import Declined, FixPlan, Replace, names_in, without_items
from ascend_lint.host import (
    DictChange,
    DictSource,
    DictTrail,
    ItemStore,
    Merged,
    Scope,
    all_params,
    passed_for,
    unwrapped,
)
from ascend_lint.imports import ImportMap, dotted_name, int_literal, number_literal, str_literal
from ascend_lint.kernels import Kernel
from ascend_lint.nodes import child_nodes, each_once, never_falls_through, one_line, walk
from ascend_lint.package import in_ascend_package
from ascend_lint.rule import Confirm, Evidence, Example, HostIndex, ModuleContext, Report, Rule

KNOBS = frozenset({"num_warps", "num_stages"})
# the launch keywords selecting a triton-ascend mode that passes `num_warps` to bishengir-compile
# (`_simt_keyword`): the pure SIMT mode (`--pure-simt --num-warps=N`, `ttir_to_npubin`) and the
# mixed SIMD+SIMT one (`--enable-simd-simt-mix-compile --num-warps=N`,
# `linalg_to_bin_enable_npu_compile_910_95`); `num_stages` is no more live there than in SIMD
SIMT_KEYWORDS = frozenset({"force_simt_only", "compile_mode"})
SIMT_MODES = frozenset({"simt_only", "simd_simt"})
# a kernel's methods that compile it with the launch options they are given
COMPILING_METHODS = frozenset({"warmup", "run"})
# `triton.Config`'s first parameters, in the order of triton-ascend 3.2 and upstream Triton alike
# (`Config(kwargs, num_warps=4, num_stages=2, num_ctas=1, ...)`; the later ones differ)
CONFIG_PARAMETERS = ("kwargs", "num_warps", "num_stages", "num_ctas")


class LaunchNumWarps(Rule):
    CODE = "ASC001"
    NAME = "launch-num-warps"
    SUMMARY = "`num_warps` / `num_stages` in launches, `triton.Config`, splatted launch dicts: no effect on Ascend"
    FIX = "safe/unsafe"
    CONFIRM = Confirm({"compile": Evidence.LAUNCH_OPTION_IR}, "the option's effect is on the compiled kernel")
    REQUIRES_TOKENS = (("Config", *sorted(KNOBS)),)  # `Config({...}, 4, 2)` names neither knob
    NO_EFFECT = True

    VALID = (
        '''
def launch(x, y, N):
    """Do not pass num_warps=4 on Ascend."""  # num_stages=2 was for CUDA
    kernel[(N,)](x, y, N, BLOCK=1024)
''',
        """
def block_size(n_cols, num_warps=4):
    num_warps = 2 if n_cols <= 2048 else 4
    return num_warps
""",
        """
import torch
pipe = torch.distributed.pipelining.Schedule(model, num_stages=2)
""",
        # a dict the launch does not splat
        """
def launch(x, N, stats):
    kw = {"BLOCK": 64}
    stats.update(num_warps=4)
    stats.setdefault("num_stages", 1)
    kernel[(N,)](x, N, **kw)
""",
        # `warmup` of objects that are no kernel of the module (a local name hides the kernel)
        """
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)

def prepare(graph, x):
    graph.warmup(x, num_stages=2)
    kernel = make_pipeline(x)
    kernel.warmup(x, num_warps=4)
""",
        # a loop hint inside a kernel is no launch option
        """
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.range(0, n, BLOCK, num_stages=2):
        acc += tl.load(x + i + tl.arange(0, BLOCK))
    tl.store(x + tl.arange(0, BLOCK), acc)
""",
        # a dict mapping a knob to a value, not to a heuristic, is no heuristics table
        """
def tuning_record(num_warps):
    return {"BLOCK": lambda args: 64, "num_warps": num_warps}
""",
        # called only from `forward_cuda`, through a module-level alias (vllm-omni's adalayernorm.py)
        """
def _fused_forward_impl(x):
    kernel[(x.numel(),)](x, num_warps=8)

if HAS_TRITON:
    _fused_forward = _fused_forward_impl
else:
    _fused_forward = None

class Scale(CustomOp):
    def forward_cuda(self, x):
        if _fused_forward is None:
            return x * 2
        return _fused_forward(x)
""",
        # after an exit on a helper's None, which it returns unless the tensor is on CUDA
        """
def _block_size(x):
    if x.device.type != "cuda" or not x.is_contiguous():
        return None
    return triton.next_power_of_2(x.shape[-1])

def scale(x):
    block = _block_size(x)
    if block is None:
        return x * 2
    kernel[(x.numel(),)](x, BLOCK=block, num_warps=8)
""",
        # the kernel's own `num_stages` parameter: the keyword is its argument (flashserve's
        # kda/fused_recurrent.py), at a launch, a `warmup`, a config of its autotuner (which passes
        # the config's `num_stages=` as a launch keyword) and its heuristics
        """
@triton.jit
def scan_rows(x, T, D: tl.constexpr, num_stages: tl.constexpr):
    acc = tl.zeros([D], dtype=tl.float32)
    for i_t in tl.range(0, T, num_stages=num_stages):
        acc += tl.load(x + i_t * D + tl.arange(0, D))
    tl.store(x + tl.arange(0, D), acc)

@triton.autotune(configs=[triton.Config({}, num_stages=s) for s in (1, 2)], key=["T"])
@triton.jit
def tuned_rows(x, T, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, 16), tl.zeros([16], tl.float32))

@triton.heuristics({"num_warps": lambda args: 4})
@triton.jit
def warped_rows(x, num_warps: tl.constexpr):
    tl.store(x + tl.arange(0, num_warps), tl.zeros([num_warps], tl.float32))

def scan(x):
    scan_rows[(x.shape[0],)](x, x.shape[1], D=x.shape[2], num_stages=2)
    scan_rows.warmup(x, x.shape[1], D=64, num_stages=2, grid=(1,))
    tuned_rows[(1,)](x, x.shape[1])
""",
        # configs a helper's loop appends to the list it returns: the same
        """
def _stage_configs():
    configs = []
    for s in (1, 2):
        configs.append(triton.Config({}, num_stages=s))
    return configs

@triton.autotune(configs=_stage_configs(), key=["T"])
@triton.jit
def tuned_rows(x, T, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, 16), tl.zeros([16], tl.float32))
""",
        # configs on a module-level path off Ascend: an `else` of an NPU test, the arm of a
        # conditional expression (flashserve's chunk_h.py), also in a function
        """
if IS_NPU:
    _tune = lambda fn: fn
else:
    _tune = triton.autotune(configs=[triton.Config({"BT": 32}, num_warps=4)], key=["T"])

_tune_bwd = (
    triton.autotune(configs=[triton.Config({"BT": 32}, num_stages=2)], key=["T"])
    if not IS_NPU
    else (lambda fn: fn)
)

def configs():
    return [triton.Config({"BT": 64}, num_warps=8)] if not is_npu() else [triton.Config({"BT": 64})]
""",
        # a table's entry keyed for another platform, picked by the device type
        """
_BY_DEVICE = {"cuda": {"num_warps": 8}, "npu": {"multibuffer": True}}

def launch(x, N):
    kernel[(N,)](x, N, **_BY_DEVICE[x.device.type])
""",
        # the SIMT modes (Ascend 950) read `num_warps`: launches selecting the pure SIMT mode
        # (FlagTree's simt_perf_cases) or the mixed one (`compile_mode="simd_simt"`), and the
        # configs of a kernel every launch of which does
        """
@triton.jit
def gather_rows(x, idx, n, N: tl.constexpr):
    tl.store(x + tl.arange(0, N), tl.load(idx + tl.arange(0, N)))

@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=w) for w in (8, 32)], key=["n"])
@triton.jit
def gather_tuned(x, idx, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), tl.load(idx + tl.arange(0, BLOCK)))

def gather(x, idx, n):
    gather_rows[(48,)](x, idx, n, N=64, num_warps=32, force_simt_only=True)
    simt = {"N": 64, "num_warps": 32, "force_simt_only": True}
    gather_rows[(48,)](x, idx, n, **simt)
    gather_rows.warmup(x, idx, n, N=64, num_warps=16, compile_mode="simt_only", grid=(48,))
    gather_rows[(48,)](x, idx, n, N=64, num_warps=4, compile_mode="simd_simt")
    mixed = {"N": 64, "num_warps": 4, "compile_mode": "simd_simt"}
    gather_rows[(48,)](x, idx, n, **mixed)
    gather_tuned[(48,)](x, idx, n, force_simt_only=True)
    gather_tuned[(48,)](x, idx, n, compile_mode="simd_simt")
""",
        # decided for each dict: one selecting the SIMT mode itself, whichever other dict the splat
        # may hold (triton-ascend's microbench `bench_transpose_triton.py`: `_opts(mode)` returns a
        # SIMD and a SIMT dict), a dict merged with a SIMT one (at any launch splatting it), a
        # keyword beside such a splat, a keyword or dict given to a helper whose launch selects it
        """
def _opts(mode):
    if mode == "simd":
        return {"compile_mode": "simd"}
    return {"num_warps": 1, "compile_mode": "simt_only"}

def _launch(grid, *args, **kwargs):
    return gather_rows[grid](*args, force_simt_only=True, **kwargs)

def _run(grid, x, kernel_kwargs):
    gather_rows[grid](x, compile_mode="simt_only", **kernel_kwargs)

def gather_modes(x, idx, n, mode, simt):
    gather_rows[(48,)](x, idx, n, N=64, **_opts(mode))
    gather_rows[(48,)](x, idx, n, N=64, num_warps=32, **_opts(mode))
    if simt:
        opts = {"N": 64, "num_warps": 32, "force_simt_only": True}
    else:
        opts = {"N": 64}
    gather_rows[(48,)](x, idx, n, **opts)
    chosen = {"num_warps": 32, "force_simt_only": True} if simt else {}
    gather_rows[(48,)](x, idx, n, N=64, **chosen)
    base = {"N": 64, "num_warps": 32}
    gather_rows[(48,)](x, idx, n, **base)
    gather_rows[(48,)](x, idx, n, **{**base, "compile_mode": "simt_only"})
    copied = dict(N=64, num_warps=16)
    gather_rows[(48,)](x, idx, n, **dict(copied, force_simt_only=True))
    joined = {"N": 64, "num_warps": 8}
    gather_rows[(48,)](x, idx, n, **(joined | ({"compile_mode": "simt_only"} if simt else {})))
    kw = {"N": 64, "num_warps": 32}
    kw["force_simt_only"] = True
    gather_rows[(48,)](x, idx, n, **kw)
    kw2 = dict(N=64)
    kw2.update(num_warps=32, force_simt_only=True)
    gather_rows[(48,)](x, idx, n, **kw2)
    gather_rows[(48,)](x, idx, n, **{"N": 64, "num_warps": 32}, **{"force_simt_only": True})
    _launch((48,), x, idx, n, N=64, num_warps=32)
    _launch((48,), x, idx, n, **{"N": 64, "num_warps": 32})
    _run((48,), x, {"N": 64, "num_warps": 32})
""",
    )
    INVALID = (
        Example(
            """
def launch(x, y, N):
    kernel[(N,)](x, y, N, BLOCK=1024, num_warps=4)  # expect
""",
            fixed="""
def launch(x, y, N):
    kernel[(N,)](x, y, N, BLOCK=1024)
""",
        ),
        # a `num_stages` that may be 1 has an unsafe fix (newer triton-ascend reads `num_stages=1`
        # as multi-buffering off): `--fix` removes the `num_warps` beside it, `--unsafe-fixes` both
        Example(
            """
def launch(x, y, N, stages):
    kernel[(N,)](x, y, N, BLOCK=1024, num_warps=4, num_stages=1)  # expect
    kernel[(N,)](x, y, N, BLOCK=1024, num_stages=stages)  # expect
""",
            fixed="""
def launch(x, y, N, stages):
    kernel[(N,)](x, y, N, BLOCK=1024, num_stages=1)
    kernel[(N,)](x, y, N, BLOCK=1024, num_stages=stages)
""",
        ),
        Example(
            """
def launch(x, y, N, stages):
    kernel[(N,)](x, y, N, BLOCK=1024, num_warps=4, num_stages=1)  # expect
    kernel[(N,)](x, y, N, BLOCK=1024, num_stages=stages)  # expect
""",
            fixed="""
def launch(x, y, N, stages):
    kernel[(N,)](x, y, N, BLOCK=1024)
    kernel[(N,)](x, y, N, BLOCK=1024)
""",
            unsafe_fixes=True,
        ),
        # SIMT mode not selected (`False`, a SIMD mode, a config: `triton.Config` drops the
        # keyword) or not by every launch of the tuned kernel; `num_stages` even in the SIMT mode,
        # whose fix keeps `num_warps`
        Example(
            """
@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=32)], key=["n"])  # expect
@triton.jit
def gather_tuned(x, idx, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), tl.load(idx + tl.arange(0, BLOCK)))

def gather(x, idx, n):
    gather_rows[(48,)](x, idx, n, num_warps=32, force_simt_only=False)  # expect
    gather_rows[(48,)](x, idx, n, num_warps=32, compile_mode="unstructured_in_simt")  # expect
    gather_rows[(48,)](x, idx, n, num_warps=32, num_stages=2, force_simt_only=True)  # expect
    gather_rows[(48,)](x, idx, n, num_warps=4, num_stages=3, compile_mode="simd_simt")  # expect
    gather_rows[(48,)](x, idx, n, num_warps=4, compile_mode="simd_simt_template")  # expect
    gather_tuned[(48,)](x, idx, n, force_simt_only=True)
    gather_tuned[(48,)](x, idx, n)
    return [triton.Config({"BLOCK": 64}, num_warps=32, force_simt_only=True)]  # expect
""",
            fixed="""
@triton.autotune(configs=[triton.Config({"BLOCK": 64})], key=["n"])
@triton.jit
def gather_tuned(x, idx, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), tl.load(idx + tl.arange(0, BLOCK)))

def gather(x, idx, n):
    gather_rows[(48,)](x, idx, n, force_simt_only=False)
    gather_rows[(48,)](x, idx, n, compile_mode="unstructured_in_simt")
    gather_rows[(48,)](x, idx, n, num_warps=32, force_simt_only=True)
    gather_rows[(48,)](x, idx, n, num_warps=4, compile_mode="simd_simt")
    gather_rows[(48,)](x, idx, n, compile_mode="simd_simt_template")
    gather_tuned[(48,)](x, idx, n, force_simt_only=True)
    gather_tuned[(48,)](x, idx, n)
    return [triton.Config({"BLOCK": 64}, force_simt_only=True)]
""",
        ),
        # configs a loop builds that the merge cannot undo: no fix for the knob only the loop
        # variable feeds (each config would be appended three times), the other knob goes
        Example(
            """
def _configs():
    out = []
    for bt in (32, 64):
        for nw in (2, 4, 8):
            out.append(triton.Config({"BT": bt}, num_warps=nw, num_stages=2))  # expect
    return out
""",
            fixed="""
def _configs():
    out = []
    for bt in (32, 64):
        for nw in (2, 4, 8):
            out.append(triton.Config({"BT": bt}, num_warps=nw))
    return out
""",
        ),
        # the same for a config a helper returns: no fix for the knob only a parameter feeds
        # (`_config(64, 4)` and `_config(64, 8)` would build the same config), the other knob goes
        Example(
            """
def _config(block, warps):
    return triton.Config({"BLOCK": block}, num_warps=warps, num_stages=2)  # expect

configs = [_config(64, 4), _config(64, 8), _config(128, 8)]
""",
            fixed="""
def _config(block, warps):
    return triton.Config({"BLOCK": block}, num_warps=warps)

configs = [_config(64, 4), _config(64, 8), _config(128, 8)]
""",
        ),
        # the dict chosen instead of a SIMT one (a helper's other `return`, the `else` arm, the other
        # arm of a choice) and one merged with a SIMD mode keep their findings, and the fix removes
        # their knobs only; `num_stages` of a SIMT dict goes, its `num_warps` stays
        Example(
            """
def _opts(mode):
    if mode == "simd":
        return {"num_warps": 1, "compile_mode": "simd"}  # expect
    return {"num_warps": 1, "num_stages": 2, "compile_mode": "simt_only"}  # expect

def gather_modes(x, idx, n, mode, simt):
    gather_rows[(48,)](x, idx, n, N=64, **_opts(mode))
    if simt:
        opts = {"N": 64, "num_warps": 32, "force_simt_only": True}
    else:
        opts = {"N": 64, "num_warps": 4}  # expect
    gather_rows[(48,)](x, idx, n, **opts)
    chosen = {"num_warps": 32, "force_simt_only": True} if simt else {"num_warps": 4}  # expect
    gather_rows[(48,)](x, idx, n, N=64, **chosen)
    base = {"N": 64, "num_warps": 8}  # expect
    gather_rows[(48,)](x, idx, n, **{**base, "compile_mode": "simd"})
""",
            fixed="""
def _opts(mode):
    if mode == "simd":
        return {"compile_mode": "simd"}
    return {"num_warps": 1, "compile_mode": "simt_only"}

def gather_modes(x, idx, n, mode, simt):
    gather_rows[(48,)](x, idx, n, N=64, **_opts(mode))
    if simt:
        opts = {"N": 64, "num_warps": 32, "force_simt_only": True}
    else:
        opts = {"N": 64}
    gather_rows[(48,)](x, idx, n, **opts)
    chosen = {"num_warps": 32, "force_simt_only": True} if simt else {}
    gather_rows[(48,)](x, idx, n, N=64, **chosen)
    base = {"N": 64}
    gather_rows[(48,)](x, idx, n, **{**base, "compile_mode": "simd"})
""",
        ),
        # the arm of a module-level conditional expression that runs on Ascend (flashserve's gla/chunk.py)
        """
_tune = (
    triton.autotune(configs=[triton.Config({"BK": bk}, num_warps=4) for bk in (32, 64)], key=["T"])
    if not IS_NPU
    else triton.autotune(configs=[triton.Config({"BK": 64}, num_warps=4)], key=["T"])  # expect
)
""",
        # the kernel's `num_stages` parameter keeps its argument; `num_warps` is still a knob,
        # and the loop that fed only it goes
        Example(
            """
@triton.autotune(
    configs=[triton.Config({}, num_warps=w, num_stages=s) for w in (2, 4) for s in (1, 2)],  # expect
    key=["T"],
)
@triton.jit
def scan_rows(x, T, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, 16), tl.zeros([16], tl.float32))

@triton.jit
def scan_cols(x, T, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, 16), tl.zeros([16], tl.float32))

def scan(x):
    scan_cols[(1,)](x, x.shape[1], num_warps=4, num_stages=2)  # expect
""",
            fixed="""
@triton.autotune(
    configs=[triton.Config({}, num_stages=s) for s in (1, 2)],
    key=["T"],
)
@triton.jit
def scan_rows(x, T, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, 16), tl.zeros([16], tl.float32))

@triton.jit
def scan_cols(x, T, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, 16), tl.zeros([16], tl.float32))

def scan(x):
    scan_cols[(1,)](x, x.shape[1], num_stages=2)
""",
        ),
        # a kernel of a module that cannot be read (none on disk here): its parameters are not seen
        """
from .scan_kernels import scan_rows

def scan(x):
    scan_rows[(1,)](x, x.shape[1], num_stages=2)  # expect
""",
        # the loops that fed only the knobs go: 8 configs were 2 distinct ones (an unsafe fix:
        # it removes `num_stages=s`, which may be 1)
        Example(
            """
configs = [
    triton.Config({"BT": bt}, num_warps=w, num_stages=s)  # expect
    for bt in (32, 64) for w in (2, 4) for s in (1, 2)
]
""",
            fixed="""
configs = [
    triton.Config({"BT": bt})
    for bt in (32, 64)
]
""",
            unsafe_fixes=True,
        ),
        # a literal list keeps one copy of each distinct config
        Example(
            """
configs = [
    triton.Config({"BT": 32}, num_warps=2),  # expect
    triton.Config({"BT": 32}, num_warps=4),  # expect
    triton.Config({"BT": 64}, num_warps=4),  # expect
]
""",
            fixed="""
configs = [
    triton.Config({"BT": 32}),
    triton.Config({"BT": 64}),
]
""",
        ),
        """
def make_configs():
    return [triton.Config({"BT": 64}, num_stages=3)]  # expect
""",
        Example(
            """
def launch(x, N):
    kernel[(N,)](x, N, **{"num_warps": 4})  # expect
""",
            fixed="""
def launch(x, N):
    kernel[(N,)](x, N)
""",
        ),
        Example(
            """
def launch(x, N):
    launch_kwargs = {"BLOCK": 64, "num_stages": 2}  # expect
    kernel[(N,)](x, N, **launch_kwargs)
""",
            fixed="""
def launch(x, N):
    launch_kwargs = {"BLOCK": 64}
    kernel[(N,)](x, N, **launch_kwargs)
""",
        ),
        """
def launch_kwargs(n):
    return {"BLOCK": n, "num_warps": 4}  # expect

def launch(x, N):
    kernel[(N,)](x, N, **launch_kwargs(N))
""",
        """
LAUNCH = dict(num_warps=8)  # expect

def launch(x, N):
    kernel[(N,)](x, N, **LAUNCH)
""",
        # a helper's local dict, built in steps and returned
        """
def launch_options(n):
    kw = {"BLOCK": n}
    kw["num_stages"] = 1  # expect
    return kw

def launch(x, N):
    kernel[(N,)](x, N, **launch_options(N))
""",
        # either arm of a choice, either side of `or`, both sides of a merge
        """
def default_config(n):
    return {"BLOCK": 1024 if n > 4096 else 256, "num_warps": 4}  # expect

def launch(x, N, configs=None, tuned=None):
    config = configs[0] if configs else default_config(N)
    kernel[(N,)](x, N, **config)
    kernel[(N,)](x, N, **(tuned or {"BLOCK": 256, "num_stages": 1}))  # expect
    kernel[(N,)](x, N, **({"BLOCK": 256} | dict(num_warps=8)))  # expect
""",
        # what the function adds to the dict it splats
        """
def launch(x, N, wide):
    kw = {"BLOCK": 256}
    kw.update(num_warps=8)  # expect
    kw.setdefault("num_stages", 1)  # expect
    if wide:
        kw |= {"num_warps": 32}  # expect
    kernel[(N,)](x, N, **kw)
""",
        Example(
            """
def launch(x, N, even):
    kw = dict(BLOCK=256)
    kw.update({"EVEN": even, "num_stages": 2})  # expect
    kernel[(N,)](x, N, **kw)
""",
            fixed="""
def launch(x, N, even):
    kw = dict(BLOCK=256)
    kw.update({"EVEN": even})
    kernel[(N,)](x, N, **kw)
""",
        ),
        # a getter's dict, taken from the tuple another getter returns and copied before the launch
        """
def default_config(m):
    return {"BLOCK": 64, "num_warps": 4}  # expect

def best_config(m):
    return -1, default_config(m)

def launch(x, N):
    _, config = best_config(N)
    run_config = config.copy()
    run_config.update({"HAS_BIAS": False})
    kernel[(N,)](x, N, **run_config)

def launch_again(x, N):
    kernel[(N,)](x, N, **dict(default_config(N)))
""",
        # an entry of a module table of configs: the entries are edited, the table keeps its keys
        Example(
            """
_CFG = {"small": {"num_warps": 4}, "big": {"BLOCK": 128, "num_warps": 8}}  # expect

def launch(x, N, key):
    cfg = _CFG[key]
    kernel[(N,)](x, N, **cfg)
""",
            fixed="""
_CFG = {"small": {}, "big": {"BLOCK": 128}}

def launch(x, N, key):
    cfg = _CFG[key]
    kernel[(N,)](x, N, **cfg)
""",
        ),
        # a partial launcher under another name, one called inline
        Example(
            """
import functools
from functools import partial as bind

def launch(x, N):
    run = bind(kernel[(N,)], num_warps=4)  # expect
    run(x, N)
    functools.partial(kernel[(N,)], num_stages=2)(x, N)  # expect
""",
            fixed="""
import functools
from functools import partial as bind

def launch(x, N):
    run = bind(kernel[(N,)])
    run(x, N)
    functools.partial(kernel[(N,)])(x, N)
""",
        ),
        # knobs splatted into a `triton.Config`
        """
_KNOBS = {"num_warps": 4, "num_stages": 1}  # expect

configs = [triton.Config({"BT": bt}, **_KNOBS) for bt in (32, 64)]
""",
        # `dict(..., **base)` and a launcher that splats its `kernel_kwargs` parameter
        """
def _launch(kernel, grid, args, kernel_kwargs):
    kernel[grid](*args, **kernel_kwargs)

def run(x, N):
    base = dict(BLOCK=64, num_warps=4)  # expect
    _launch(kernel, (N,), (x, N), kernel_kwargs=dict(N=N, **base))
""",
        # compiling ahead of time: `warmup` takes the launch options
        Example(
            """
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)

def compile_for(x, N):
    return kernel.warmup(x, N, BLOCK=1024, grid=(1,), num_warps=4)  # expect
""",
            fixed="""
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)

def compile_for(x, N):
    return kernel.warmup(x, N, BLOCK=1024, grid=(1,))
""",
        ),
        # a closure's launch splats the dict its outer function fills
        """
def run(x, N, stages):
    options = {"BLOCK": 64}
    options["num_stages"] = stages  # expect
    options.update(num_warps=4)  # expect

    def launch(x):
        kernel[(N,)](x, N, **options)

    launch(x)
""",
        # a wrapper that forwards `**kwargs` into a launch: the keywords of its calls
        """
def _launch(kernel, grid, *args, **kwargs):
    return kernel[grid](*args, **kwargs)

def run(x, N):
    _launch(kernel, (N,), x, N, BLOCK=64, num_stages=2)  # expect
    options = {"num_warps": 4}  # expect
    _launch(kernel, (N,), x, N, **options)

class Op:  # a method forwarding them, called through `self` or its class
    def _run(self, grid, *args, **kwargs):
        return kernel[grid](*args, **kwargs)

    @staticmethod
    def launch(grid, *args, **kwargs):
        return kernel[grid](*args, **kwargs)

    def forward(self, x, N):
        self._run((N,), x, N, BLOCK=64, num_warps=4)  # expect
        Op.launch((N,), x, N, BLOCK=64, num_stages=2)  # expect
""",
        # no fix: the wrapper also launches on another platform, where the knob tunes the kernel
        """
def _launch(kernel, grid, device_type, *args, **kwargs):
    if device_type != "npu":
        return kernel[grid](*args, **kwargs)
    return kernel[grid](*args, **kwargs, multibuffer=True)

def run(x, N):
    _launch(kernel, (N,), x.device.type, x, N, BLOCK=64, num_warps=8)  # expect
""",
        # a wrapper that passes its `**options` on to such a wrapper
        """
def _launch(kernel, grid, *args, **kwargs):
    return kernel[grid](*args, **kwargs)

def launch_cumsum(x, N, **options):
    _launch(cumsum_kernel, (N,), x, N, **options)

def run(x, N):
    launch_cumsum(x, N, BLOCK=64, num_warps=4)  # expect
""",
        # the getter's dict reaches the launcher through a second helper, the getter through `partial`
        """
import functools

def default_config(m, n):
    return {"BLOCK": 64, "num_warps": 4}  # expect

def invoke(x, config):
    kernel[(1,)](x, **config)

def dispatch(x, config):
    invoke(x, config)

def run(x):
    get_config = functools.partial(default_config, x.shape[1])
    dispatch(x, get_config(x.shape[0]))
""",
        Example(
            """
@triton.heuristics({"BLOCK": lambda args: 1024, "num_warps": lambda args: 4})  # expect
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
""",
            fixed="""
@triton.heuristics({"BLOCK": lambda args: 1024})
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
""",
        ),
        # a table bound to a name, passed as `values=`, whatever its values are
        """
HEURISTICS = {"BLOCK": lambda args: 1024, "num_stages": HEURISTIC_STAGES}  # expect

@triton.heuristics(values=HEURISTICS)
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
""",
        # a table of tables another module passes (`triton.heuristics(get_heuristic_config("softmax"))`)
        Example(
            """
def softmax_heur_tile_n(args):
    return triton.next_power_of_2(args["N"])

def softmax_heur_num_warps(args):
    return 8 if args["TILE_N"] >= 2048 else 4

HEURISTICS_CONFIGS = {
    "softmax": {
        "TILE_N": softmax_heur_tile_n,
        "num_warps": softmax_heur_num_warps,  # expect
    },
}
""",
            fixed="""
def softmax_heur_tile_n(args):
    return triton.next_power_of_2(args["N"])

def softmax_heur_num_warps(args):
    return 8 if args["TILE_N"] >= 2048 else 4

HEURISTICS_CONFIGS = {
    "softmax": {
        "TILE_N": softmax_heur_tile_n,
    },
}
""",
        ),
        # no fix: a later heuristic reads the knob (it gets the values set before it)
        """
@triton.heuristics({
    "num_warps": lambda args: 4,  # expect
    "BLOCK": lambda args: 32 * args["num_warps"],
})
@triton.jit
def kernel(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
""",
        # a knob alone on its line goes with its line (its comma, its own comment); the other
        # lines, their comments, the comment lines between the arguments and the closing
        # bracket's line stay
        Example(
            """
def launch(x, y, n):
    kernel[(n,)](
        x,
        y,
        BLOCK=1024,  # one tile per program
        num_warps=4,  # reduced for NPU  # expect
    )
    kernel[(n,)](
        x, y,
        BLOCK=1024,  # one tile per program
        num_warps=4  # expect
    )
    kernel[(n,)](
        x, y,
        BLOCK=1024,  # one tile per program
        num_warps=4,  # expect
        # FMA contraction would swallow one of the roundings
        enable_fp_fusion=False,
    )
    kernel[(n,)](x, y, num_warps=4, BLOCK=1024)  # expect
    kw = {
        "num_warps": 4,  # expect
        # fits the UB
        "BLOCK": 64,
        "num_stages": 2  # expect
    }
    kernel[(n,)](x, y, **kw)
""",
            fixed="""
def launch(x, y, n):
    kernel[(n,)](
        x,
        y,
        BLOCK=1024,  # one tile per program
    )
    kernel[(n,)](
        x, y,
        BLOCK=1024,  # one tile per program
    )
    kernel[(n,)](
        x, y,
        BLOCK=1024,  # one tile per program
        # FMA contraction would swallow one of the roundings
        enable_fp_fusion=False,
    )
    kernel[(n,)](x, y, BLOCK=1024)
    kw = {
        # fits the UB
        "BLOCK": 64,
    }
    kernel[(n,)](x, y, **kw)
""",
        ),
        # the later copies of a list leave with their lines; a loop over tuples loses the parts
        # that fed only the knobs, and the later copies of what is left
        Example(
            """
small_configs = [
    triton.Config({"BT": 32}, num_warps=2),  # fits the UB  # expect
    triton.Config({"BT": 32}, num_warps=4),  # expect
    # large tiles
    triton.Config({"BT": 64}, num_warps=4),  # expect
]

@triton.autotune(
    configs=[
        triton.Config({"BLOCK": b}, num_warps=w)  # expect
        for b, w in ((64, 4), (64, 8), (128, 4))
    ],
    key=["n"],
)
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
""",
            fixed="""
small_configs = [
    triton.Config({"BT": 32}),  # fits the UB
    # large tiles
    triton.Config({"BT": 64}),
]

@triton.autotune(
    configs=[
        triton.Config({"BLOCK": b})
        for b in (64, 128)
    ],
    key=["n"],
)
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
""",
        ),
        # no fix: host code reads the knob out of the dict (`del`, a subscript; a `KeyError`
        # without it), a heuristic of the launched kernel reads it, its value binds a name
        """
@triton.heuristics({"SPLIT": lambda args: args["num_warps"] > 4})
@triton.jit
def split(x, n, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)

def launch(x, n, grid, is_npu):
    kw = {"BLOCK": 64, "num_warps": 4}  # expect
    if is_npu:
        del kw["num_warps"]
    kernel[grid](x, n, **kw)
    meta = {"BLOCK": 64, "num_stages": 2}  # expect
    kernel[grid](x, n, **meta)
    split[grid](x, n, BLOCK=64, num_warps=8)  # expect
    kernel[grid](x, n, BLOCK=64, num_warps=(nw := 4))  # expect
    return meta["num_stages"], nw
""",
        # a list host code also indexes or measures keeps its configs: only the knobs go
        Example(
            """
CONFIGS = [
    triton.Config({"BT": 32}, num_warps=2),  # expect
    triton.Config({"BT": 64}, num_warps=2),  # expect
    triton.Config({"BT": 32}, num_warps=4),  # expect
]
FALLBACK = CONFIGS[2]
""",
            fixed="""
CONFIGS = [
    triton.Config({"BT": 32}),
    triton.Config({"BT": 64}),
    triton.Config({"BT": 32}),
]
FALLBACK = CONFIGS[2]
""",
        ),
        # launchers a function returns, an entry taken with `get`, a comprehension copying an
        # entry's items: launches, and the knobs they get
        Example(
            """
def _launcher(n):
    return kernel[(triton.cdiv(n, 64),)]

_CFG = {"small": {"BLOCK": 64, "num_warps": 4}, "big": {"BLOCK": 128, "num_stages": 2}}  # expect

def run(x, N, key):
    _launcher(N)(x, N, BLOCK=64, num_warps=4)  # expect
    launch = _launcher(N)
    launch(x, N, BLOCK=64, num_stages=2)  # expect
    kernel[(N,)](x, N, **_CFG.get(key, {"BLOCK": 32, "num_warps": 2}))  # expect
    entry = _CFG[key]
    kernel[(N,)](x, N, **{k: v for k, v in entry.items() if v is not None})
""",
            fixed="""
def _launcher(n):
    return kernel[(triton.cdiv(n, 64),)]

_CFG = {"small": {"BLOCK": 64}, "big": {"BLOCK": 128}}

def run(x, N, key):
    _launcher(N)(x, N, BLOCK=64)
    launch = _launcher(N)
    launch(x, N, BLOCK=64)
    kernel[(N,)](x, N, **_CFG.get(key, {"BLOCK": 32}))
    entry = _CFG[key]
    kernel[(N,)](x, N, **{k: v for k, v in entry.items() if v is not None})
""",
        ),
        # a module keeping code apart for the NPU: a knob on no path of it may launch on CUDA too
        # (sglang's batch_invariant_ops.py), no fix, but for `num_warps=4`, Triton's default on
        # every platform; the NPU's own launch keeps its fix
        Example(
            """
_is_npu = is_npu()
if _is_npu:
    import torch_npu

def _mm_triton(a, b):
    configs = {torch.float16: {"BLOCK": 128, "num_warps": 8}}  # expect
    kernel[(1,)](a, b, **configs[a.dtype])
    kernel[(1,)](b, a, BLOCK=32, num_warps=4, num_stages=3)  # expect

def _mm_npu(a, b):
    kernel[(1,)](a, b, BLOCK=64, num_warps=8)  # expect

def mm(a, b):
    if _is_npu:
        return _mm_npu(a, b)
    return _mm_triton(a, b)

def mm_invariant(a, b):  # public: registered under `if not _is_npu:`, callable anywhere
    return _mm_triton(a, b)
""",
            fixed="""
_is_npu = is_npu()
if _is_npu:
    import torch_npu

def _mm_triton(a, b):
    configs = {torch.float16: {"BLOCK": 128, "num_warps": 8}}
    kernel[(1,)](a, b, **configs[a.dtype])
    kernel[(1,)](b, a, BLOCK=32, num_stages=3)

def _mm_npu(a, b):
    kernel[(1,)](a, b, BLOCK=64)

def mm(a, b):
    if _is_npu:
        return _mm_npu(a, b)
    return _mm_triton(a, b)

def mm_invariant(a, b):  # public: registered under `if not _is_npu:`, callable anywhere
    return _mm_triton(a, b)
""",
        ),
    )

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        host = context.host
        knobs = _knobs_by_call(context)
        tuning_reads = _tuning_reads(context)
        stages = _stage_loops(context)
        merges, held = _config_merges(context, knobs, tuning_reads, stages)
        bound = _bound_elsewhere(context, knobs)
        other_platform_configs = _other_platform_configs(context)
        live = _simt_sources(context)
        loops = _loop_names(context)
        helpers = _config_helpers(context)
        npu_configs = _npu_configs(context)
        # a module kept apart for the NPU, in a package that is not Ascend's by name: other platforms may run it
        shared = host.npu_code is not None and not _ascend_module(context.filename)
        # the knobs written off another platform's path that a launch on one reaches (a dict it
        # splats, also splatted on Ascend): their removal would change that launch
        elsewhere: dict[cst.CSTNode, cst.Call] = {}
        for call, scope in host.calls:
            if call not in other_platform_configs and host.on_other_platform(call):
                for report in self._reports_on(
                    call, scope, context, knobs.get(call, KNOBS), merges, live, read={}, bound={}, loops={}
                ):
                    if not host.on_other_platform(report.node):
                        elsewhere.setdefault(report.node, call)
        # One finding per knob node: a knob reached from any launch off the NPU's path gets the
        # no-fix report only (its fix from an NPU-only launch would change the other launch).
        found: list[Report] = []
        off_npu: dict[cst.CSTNode, Report] = {}
        alone: dict[cst.CSTNode, bool] = {}  # an off-NPU knob: the only `num_warps` of each launch it reaches
        for call, scope in host.calls:
            if call not in other_platform_configs and not host.on_other_platform(call):
                read = tuning_reads.get(call, {})
                if call not in merges and call in loops:  # configs built in a loop the merge does not undo
                    read = {**_repeating(call, knobs.get(call, KNOBS), loops[call]), **read}
                if call in helpers and _calls_may_repeat(call, *helpers[call], context):  # one config per call
                    helper, params = helpers[call]
                    read = {**_repeating(call, knobs.get(call, KNOBS), params, helper), **read}
                read = {**held.get(call, {}), **read}  # the knobs a clause the merge keeps varies
                reports = list(
                    _within(
                        scope,
                        self._reports_on(
                            call,
                            scope,
                            context,
                            knobs.get(call, KNOBS),
                            merges,
                            live,
                            read=read,
                            bound=bound,
                            loops=stages.get(call, {}),
                        ),
                    )
                )
                sole = _sole_warps(call, scope, reports, context)
                reports = [_also_elsewhere(report, elsewhere) for report in reports]
                for report in reports:
                    if not host.on_other_platform(report.node):  # a dict or store written on such a path
                        public = host.read_only_on_other_platform(report.node)
                        if public is not None:  # a public list the module reads only there
                            found.append(_read_elsewhere(report, public, alone=report.node is sole))
                            continue
                        on_npu = not shared or host.on_npu_path(call) or call in npu_configs
                        if on_npu or not _shares(report, host):
                            found.append(report)
                            continue
                        if report.node not in off_npu:
                            off_npu[report.node] = report
                            found.append(report)
                        alone[report.node] = alone.get(report.node, True) and report.node is sole
        for report in found:
            if report.node not in off_npu:
                yield report
            elif off_npu[report.node] is report:
                yield _shared(report, host, alone[report.node])
        for (element, key), (table, scope, table_knobs) in _heuristic_knobs(context, knobs).items():
            report = self._heuristic(element, key, table, scope, table_knobs, host)
            yield _shared(report, host, alone=False) if shared and _shares(report, host) else report

    def _reports_on(
        self,
        call: cst.Call,
        scope: Scope,
        context: ModuleContext,
        knobs: AbstractSet[str],
        merges: dict[cst.Call, FixPlan],
        live: AbstractSet[DictSource],
        *,
        read: Mapping[str, Declined],
        bound: Mapping[DictSource, Mapping[str, Declined]],
        loops: Mapping[str, frozenset[int | None]],
    ) -> Iterator[Report]:
        """The `knobs` of a launch, a `triton.Config`, a kernel's `warmup` / `run` or a call of a
        forwarding helper, and of the dicts they splat (bound in `scope` or at module level).
        No fix for the knobs in `read`: the kernel's tuning reads them (`_tuning_reads`). Not
        `num_warps` written in the call beside a splat that may select the SIMT mode, nor in
        the dicts `live` holds (`_simt_sources`); no fix for the knobs `bound` says another
        call passes to its kernel's parameter (`_bound_elsewhere`). `loops`: the values of the
        comprehension names around a config (`_stage_loops`)."""
        host = context.host
        if isinstance(call.func, cst.Subscript) or call in host.stored_launch_calls:  # `launcher(...)` too
            where = "launch"
        elif context.imports.is_triton(call.func, "Config"):
            where = "triton.Config"  # also triton.Config({...}, **_KNOBS)
        elif (method := _kernel_method(call, scope, host)) is not None:  # kernel.warmup(..., grid=g, num_warps=4)
            where = f"`{method[0]}` call of a kernel"
        else:
            name = _forwarder_called(call, host)
            if name is not None:
                yield from self._forwarded(call, name, scope, host, knobs, read, live, bound)
            return
        # `num_warps` beside a splat that may select the SIMT mode (which a `triton.Config` drops)
        written = knobs if where == "triton.Config" else knobs - _live_beside(call.args, scope, host, knobs)
        yield from self._keywords(call, where, written, host, merges.get(call), read=read, loops=loops)
        for arg in call.args:
            if arg.star == "**":
                yield from self._splatted(arg.value, scope, host, call, knobs, read, live, bound)

    def _forwarded(
        self,
        call: cst.Call,
        name: str,
        scope: Scope,
        host: HostIndex,
        knobs: AbstractSet[str],
        read: Mapping[str, Declined],
        live: AbstractSet[DictSource],
        bound: Mapping[DictSource, Mapping[str, Declined]],
    ) -> Iterator[Report]:
        """A call of a helper that splats its `**kwargs` (or a dict parameter) into a launch:
        its keywords among `knobs` (but for those the helper names, and `num_warps` when the
        helper's launch selects the SIMT mode itself or a splat beside it may), and the knobs
        of the dicts it passes on."""
        function, splatted = host.forwarders[name]
        star = function.params.star_kwarg
        star_name = star.name.value if isinstance(star, cst.Param) else None
        named = {p.name.value for p in all_params(function)} - {star_name}
        if star_name in splatted:
            where = f"call of `{name}` (which passes it to a launch)"
            written = set(knobs - named)  # a knob the helper names is its own
            if "num_warps" in written and _forwarder_selects_simt(function, host):
                written.discard("num_warps")
            written -= _live_beside(call.args, scope, host, written)
            other = host.launch_on_other_platform(function)
            if other is None:
                yield from self._keywords(call, where, written, host, read=read)
            else:
                declined = Declined(
                    f"`{name}` also passes it to a launch on another platform, where it tunes the kernel"
                )
                related = ((other, "the launch on another platform"),)
                yield from self._keywords(call, where, written, host, declined, related, elsewhere=True)
            for arg in call.args:
                if arg.star == "**":
                    yield from self._splatted(arg.value, scope, host, None, KNOBS, read, live, bound)
        for param in sorted(splatted & named):
            passed = passed_for(call, function, param)
            if passed is not None:
                yield from self._splatted(passed, scope, host, None, KNOBS, read, live, bound)

    def _heuristic(
        self,
        element: cst.DictElement,
        key: str,
        table: cst.Dict,
        scope: Scope,
        knobs: AbstractSet[str],
        host: HostIndex,
    ) -> Report:
        """A knob a `triton.heuristics` table sets: `Heuristics.run` puts each key's value into
        the launch keywords. The fix drops the table's `knobs`, unless a heuristic reads it."""
        values = {k: e.value for e in table.elements if isinstance(e, cst.DictElement) and (k := _string_key(e))}
        fix: FixPlan | Declined = _plans(
            key, values, knobs, lambda gone: Replace(table, _dict_without_knobs(table, gone))
        )
        if _reads_key(table, key, host):
            fix = Declined("another heuristic of the table reads it (`Heuristics.run` gives it the values set before)")
        return Report(
            element,
            f"`{key}` in a `triton.heuristics` table is a launch option with no effect on Ascend; delete it",
            fix=fix,
            facts=_option_facts(key, element.value),
            within=scope,
        )

    def _keywords(
        self,
        call: cst.Call,
        where: str,
        knobs: AbstractSet[str],
        host: HostIndex,
        fix: FixPlan | Declined | None = None,
        related: tuple[tuple[cst.CSTNode, str], ...] = (),
        elsewhere: bool = False,
        read: Mapping[str, Declined] | None = None,
        loops: Mapping[str, frozenset[int | None]] | None = None,
    ) -> Iterator[Report]:
        """The call's keywords among `knobs`; the fix removes them all (unless `fix` is given:
        a merge of configs, or why there is none), but those `read` (or `_kept`) says are read:
        they get no fix. `elsewhere`: the call also passes them to a launch on another platform,
        where they are to be kept (`_KeptElsewhere`)."""
        advice = ELSEWHERE_ADVICE if elsewhere else "delete it"
        made = _KeptElsewhere if elsewhere else Report
        config = where == "triton.Config"
        values = _named_args(call, config)
        kept = {**_kept(values.items(), knobs, host), **(read or {})}
        removed = knobs - kept.keys()
        for arg, key in zip(call.args, _arg_names(call, config), strict=True):
            if key is not None and key in knobs:
                yield made(
                    arg,
                    f"`{key}` in a {where} has no effect on Ascend; {advice}",
                    related=related,
                    fix=kept.get(key)
                    or fix
                    or _plans(
                        key,
                        values,
                        removed,
                        lambda gone: Replace(call, _without_knobs(call, gone, config)),
                        loops=loops,
                    ),
                    facts=_option_facts(key, arg.value),
                )

    def _splatted(
        self,
        value: cst.BaseExpression,
        scope: Scope,
        host: HostIndex,
        launch: cst.Call | None,
        knobs: AbstractSet[str],
        read: Mapping[str, Declined],
        live: AbstractSet[DictSource],
        bound: Mapping[DictSource, Mapping[str, Declined]],
    ) -> Iterator[Report]:
        """The `knobs` in what a `**value` splat may hold, reported where they are written
        (`launch` when the dict literal is written in its call). No fix for the knobs `read`
        names, nor for those the module reads out of the dicts (`HostIndex.keys_read`: `del
        kw["num_warps"]`, `meta["num_stages"]`), which the entry's removal would break. Not
        `num_warps` in a source `live` holds: a SIMT build reads it (`_simt_sources`). Not a knob
        the launch's function takes out of the dict before it (`cfg.pop("num_warps", None)`,
        `HostIndex.keys_removed`): it is not splatted. No fix for a knob of a source another call
        splatting it takes as its kernel's parameter (`bound`, `_bound_elsewhere`)."""
        knobs = knobs - host.keys_removed(value, scope, launch)
        if not knobs:
            return
        trail = DictTrail()
        sources = list(host.dict_sources(value, scope, trail=trail))
        if any(_holds_knob(source, knobs) for source, _ in sources):
            reads = host.keys_read(trail)
            table = host.table_read_whole(trail)  # an entry's key may be read anywhere
            whole = Declined(f"`{table}` is also read whole, which may read it out of an entry: delete it by hand")
            attribute = host.attribute_used_otherwise(trail)  # `self.LAUNCH["num_warps"]`, `self.kw.update(...)`
            used = Declined(
                f"`.{attribute}` is also used otherwise than splatted, which may read or change it: delete it by hand"
            )
            read = {
                **(dict.fromkeys(knobs, used) if attribute is not None else {}),
                **(dict.fromkeys(knobs, whole) if table is not None else {}),
                **{
                    key: Declined(f"`{one_line(node)}` reads it out of the dict, which would fail or change without it")
                    for key, node in reads.items()
                    if key in knobs
                },
                **read,
            }
        for source, _ in sources:
            if source in live:
                knobs_here: AbstractSet[str] = knobs - {"num_warps"}
            else:
                knobs_here = knobs
            yield from self._source(source, value, host, launch, knobs_here, {**bound.get(source, {}), **read})

    def _source(
        self,
        source: DictSource,
        value: cst.BaseExpression,
        host: HostIndex,
        launch: cst.Call | None,
        knobs: AbstractSet[str],
        read: Mapping[str, Declined],
    ) -> Iterator[Report]:
        """The `knobs` a source of a `**value` splat writes (`_splatted`)."""
        if isinstance(source, ItemStore):  # kw["num_stages"] = 1
            yield from self._stored(source, knobs)
        elif isinstance(source, cst.Call) and isinstance(source.func, cst.Name):  # dict(num_warps=...)
            yield from self._keywords(source, "launch-kwargs dict", knobs, host, read=read)
        elif isinstance(source, (cst.Call, cst.AugAssign)):  # kw.update(...), kw.setdefault(...), kw |= {...}
            yield from self._added(source, knobs, host, read)
        elif isinstance(source, cst.Dict):
            yield from self._entries(source, launch if source is value else None, knobs, host, read)

    def _added(
        self, change: DictChange, knobs: AbstractSet[str], host: HostIndex, read: Mapping[str, Declined]
    ) -> Iterator[Report]:
        """Knobs a statement adds to a launch-kwargs dict: `kw.update(num_warps=8)`,
        `kw.update({"num_stages": 1})`, `kw.setdefault("num_warps", 4)`, `kw |= {...}`. The fix
        removes them when the update keeps something to add; none for `setdefault` (its
        value may be read) or an update left empty (the statement should go), nor for the
        knobs `read` (or `_kept`) says are read."""
        if (
            isinstance(change, cst.Call)
            and isinstance(change.func, cst.Attribute)
            and change.func.attr.value == "setdefault"
        ):
            key = str_literal(change.args[0].value) if len(change.args) == 2 else None
            if key is not None and key in knobs:
                yield Report(
                    change.args[0],
                    _ADDED.format(key=key),
                    fix=Declined(SETDEFAULT_REASON),
                    facts=_option_facts(key, change.args[1].value),
                )
            return
        added = change if isinstance(change, cst.Call) else change.value
        declined = {**_kept(((key, value) for _, key, value in _added_knobs(added, knobs)), knobs, host), **read}
        removed = knobs - declined.keys()
        values = {key: value for _, key, value in _added_knobs(added, knobs)}
        empty = _added_without_knobs(added, removed) is None  # no fix: the statement should go

        def without(gone: AbstractSet[str]) -> Replace:
            kept = _added_without_knobs(added, gone)
            assert kept is not None  # what is left without all the removed knobs is left without some
            return Replace(added, kept)

        for node, key, value in _added_knobs(added, knobs):
            fix = (
                Declined(WHOLE_STATEMENT_REASON)
                if empty
                else _plans(key, values, removed, without, "Remove `num_warps` / `num_stages`")
            )
            yield Report(node, _ADDED.format(key=key), fix=declined.get(key) or fix, facts=_option_facts(key, value))

    def _stored(self, store: ItemStore, knobs: AbstractSet[str]) -> Iterator[Report]:
        """A knob stored into a launch-kwargs dict (`kw["num_warps"] = 8`, also one target of
        `a = kw["num_warps"] = 8`): no fix, the statement (or its target) goes by hand."""
        key = store.key
        if key in knobs:
            others = [one_line(each.target) for each in store.statement.targets if each.target is not store.target]
            yield Report(
                store.target,
                f"`{key}` stored into a launch-kwargs dict has no effect on Ascend; delete it",
                fix=Declined(
                    f"the statement also binds {', '.join(f'`{name}`' for name in others)}: remove the store by hand"
                    if others
                    else WHOLE_STATEMENT_REASON
                ),
                facts=_option_facts(key, store.value),
            )

    def _entries(
        self,
        table: cst.Dict,
        launch: cst.Call | None,
        knobs: AbstractSet[str],
        host: HostIndex,
        read: Mapping[str, Declined],
    ) -> Iterator[Report]:
        """The `knobs` entries of a dict splatted into a launch (`launch` when written in its
        call); no fix for those `read` (or `_kept`) says are read."""
        entries = [
            (_string_key(e), e.value) for e in table.elements if isinstance(e, cst.DictElement) and _string_key(e)
        ]
        declined = {**_kept(((key, value) for key, value in entries if key is not None), knobs, host), **read}
        removed = knobs - declined.keys()
        values = {key: value for key, value in entries if key is not None}

        def without(gone: AbstractSet[str]) -> Replace:
            if launch is not None:
                return Replace(launch, _without_knobs(launch, gone))
            return Replace(table, _dict_without_knobs(table, gone))

        for element in table.elements:
            key = _string_key(element) if isinstance(element, cst.DictElement) else None
            if isinstance(element, cst.DictElement) and key is not None and key in knobs:
                yield Report(
                    element,
                    f"`{key}` splatted into a launch has no effect on Ascend; delete it",
                    fix=declined.get(key) or _plans(key, values, removed, without),
                    facts=_option_facts(key, element.value),
                )


_ADDED = "`{key}` added to a launch-kwargs dict has no effect on Ascend; delete it"
# what a knob on a path shared with other platforms says instead of "delete it" (`_shared`)
SHARED_ADVICE = (
    "the module keeps its NPU code apart (line {related_line}) and other platforms may run this:"
    " pass it on their path only"
)
SHARED_REASON = (
    "the module tests for the NPU and keeps its Ascend code apart, and this is not on that path:"
    " it may launch on another platform, where the knob tunes the kernel"
)


def _ascend_module(filename: str) -> bool:
    """The module's file name or a folder of its package says Ascend (`ascend_name`:
    `vllm_ascend/...`, `engram/npu.py`, FlagGems' `backends/_ascend/`): Ascend code, which runs
    on the NPU whatever platforms its tests name (vllm-ascend keeps upstream's `if
    current_platform.device_name == "npu": return False`)."""
    path = Path(filename)
    return ascend_name(path.name) or (filename != "-" and in_ascend_package(path.absolute().parent))


class _KeptElsewhere(Report):
    """The report of a knob a call also passes to a launch on another platform (a forwarding
    helper's, or a dict splatted there too): its advice already keeps it for that launch, which
    `_shared` leaves as it is."""


ELSEWHERE_ADVICE = "keep it for the other platform's launch only"


def _also_elsewhere(report: Report, elsewhere: Mapping[cst.CSTNode, cst.Call]) -> Report:
    """The report of a knob that a launch on another platform's path reaches too (`elsewhere`:
    a dict both splat, `if x.device.type == "npu": k[g](**KW) else: k[g](**KW)`): there it
    tunes the kernel, so its removal would change that launch: no fix, the advice to keep it
    for that launch only, which is related."""
    other = elsewhere.get(report.node)
    if other is None or isinstance(report, _KeptElsewhere):
        return report
    return _KeptElsewhere(
        report.node,
        report.message.removesuffix("delete it") + ELSEWHERE_ADVICE,
        report.end_node,
        (*report.related, (other, "the launch on another platform")),
        Declined("a launch on another platform's path gets it too, where it tunes the kernel"),
        report.facts,
        report.within,
    )


def _shares(report: Report, host: HostIndex) -> bool:
    """Whether `_shared` makes the report of a knob passed off the NPU's path one for a knob
    other platforms may launch with: the module keeps code apart for the NPU
    (`HostIndex.npu_code`), the knob itself is on no path of it (`HostIndex.on_npu_path`), and
    the report does not keep it for another platform's launch already (`_KeptElsewhere`)."""
    return host.npu_code is not None and not host.on_npu_path(report.node) and not isinstance(report, _KeptElsewhere)


def _shared(report: Report, host: HostIndex, alone: bool) -> Report:
    """The report of a knob in a module that tests for the NPU and keeps code apart for it
    (`HostIndex.npu_code`), of a package not Ascend's by name (`_ascend_module`), on no path of
    that code (neither the knob nor a call passing it: `HostIndex.on_npu_path`; `_shares`
    decides): the knob may reach a launch on another platform too, where it tunes the kernel,
    so deleting it would change that launch. The finding stays (it may run on Ascend: a public
    function, another module may call it there), with no fix and advice to keep it for the
    other platforms only; but a knob written as Triton's default on every platform keeps the
    fix removing it and the other such knobs beside it (`_KnobPlan.defaults`) when it is
    `alone`, the only `num_warps` each launch it reaches gets (`_sole_warps`): no launch
    changes."""
    npu_code = host.npu_code
    assert npu_code is not None  # `_shares`
    report.related = ((npu_code, "code that runs only on the NPU"), *report.related)
    if alone and isinstance(report.fix, _KnobPlan) and report.fix.defaults is not None:
        report.message += DEFAULT_ADVICE
        report.fix = report.fix.defaults
        return report
    report.message = report.message.removesuffix("delete it") + SHARED_ADVICE
    if not isinstance(report.fix, Declined):
        report.fix = Declined(SHARED_REASON)
    return report


# what a knob in the value of a public name the module reads only on another platform's path
# says instead of "delete it", and why it has no fix (`_read_elsewhere`)
READ_ELSEWHERE_ADVICE = (
    "the module reads `{name}` only on another platform's path (line {{related_line}}), where the"
    " knob tunes the kernel; if no other module imports `{name}`, make it private"
)
READ_ELSEWHERE_REASON = (
    "the module reads `{name}` only on another platform's path, where the knob tunes the kernel,"
    " and the name is public: another module may import it"
)
READ_ELSEWHERE_DEFAULT = (
    " (the module reads `{name}` only on another platform's path, line {{related_line}}, but the value"
    " is Triton's default on every platform: that launch stays the same)"
)


def _read_elsewhere(report: Report, read: cst.Name, alone: bool) -> Report:
    """The report of a knob in the value of a public module-level name the module reads only on
    another platform's path (`HostIndex.read_only_on_other_platform`: `CUDA_CONFIGS` in
    `configs=CUDA_CONFIGS if not is_npu else NPU_CONFIGS`): deleting the knob would change that
    launch, and another module may import the name and run it on Ascend, so the finding stays,
    with no fix (a private name is no finding: only those paths use it). As in a module shared
    with other platforms (`_shared`), a knob written as Triton's default on every platform keeps
    the fix removing such knobs when it is `alone`, the only `num_warps` its launch gets."""
    name = read.value
    report.related = ((read, f"`{name}` read on another platform's path"), *report.related)
    if alone and isinstance(report.fix, _KnobPlan) and report.fix.defaults is not None:
        report.message += READ_ELSEWHERE_DEFAULT.format(name=name)
        report.fix = report.fix.defaults
        return report
    report.message = report.message.removesuffix("delete it") + READ_ELSEWHERE_ADVICE.format(name=name)
    if not isinstance(report.fix, Declined):
        report.fix = Declined(READ_ELSEWHERE_REASON.format(name=name))
    return report


def _sole_warps(call: cst.Call, scope: Scope, reports: Sequence[Report], context: ModuleContext) -> cst.CSTNode | None:
    """The knob among the `reports` of a call that is the only `num_warps` the launch can get,
    so that a fix removing a `num_warps=4` leaves Triton's default there: a keyword of a
    `kernel[grid](...)` launch, its `warmup` / `run` or a `triton.Config` (a splat beside it
    holding the knob would raise), or an entry of a dict literal such a launch splats when
    each of its splats holds only literals of plain entries (`_plain_splat`). None when two
    knobs may set it, or the call is another (a forwarding helper's `**kwargs` may get a
    `setdefault`, a partial's keywords are overridden)."""
    host = context.host
    warps = [report.node for report in reports if report.facts.get("option") != "num_stages"]
    if len(warps) != 1:
        return None
    [node] = warps
    if isinstance(call.func, cst.Subscript) and call not in host.stored_launch_calls:
        direct = True
    else:
        direct = context.imports.is_triton(call.func, "Config") or _kernel_method(call, scope, host) is not None
    if not direct:
        return None
    if any(arg is node for arg in call.args):
        return node
    splats = [arg.value for arg in call.args if arg.star == "**"]
    return node if all(_plain_splat(value, scope, host) for value in splats) else None


def _plain_splat(value: cst.BaseExpression, scope: Scope, host: HostIndex) -> bool:
    """A `**` splat holding only dict literals of plain entries: written there, returned by a
    function of the module (`_plain_or_returned`), or bound to a name (not a parameter) only to
    such values, which no store or change adds to."""
    if isinstance(value, cst.Name):
        if _is_parameter(value.value, scope):
            return False
        bound = host.values_of(value.value, scope)
        if not bound or not all(_plain_or_returned(each, host) for each in bound):
            return False
    elif not _plain_or_returned(value, host):
        return False
    return all(_plain_dict(source) for source, _ in host.dict_sources(value, scope))


def _plain_or_returned(node: cst.BaseExpression, host: HostIndex) -> bool:
    """A dict literal of plain entries, or a call of a function of the module every return of
    which is one (`def opts(): return {"num_warps": 4, "BLOCK": 128}`)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
        returned = host.returns.get(node.func.value, ())
        return bool(returned) and all(_plain_dict(value) for value, _ in returned)
    return _plain_dict(node)


def _plain_dict(node: object) -> bool:
    return isinstance(node, cst.Dict) and all(isinstance(e, cst.DictElement) for e in node.elements)


# Triton's own value of a knob a launch or a `triton.Config` leaves out, the same on every
# platform and release: `num_warps` is 4 in upstream Triton's `CUDAOptions` and `HIPOptions`
# (third_party/nvidia|amd/backend/compiler.py) and in `Config.__init__` (upstream and
# triton-ascend 3.2). `num_stages` has none: 3 for CUDA, 2 for HIP; a Config's 3 upstream, 2 in
# triton-ascend 3.2.
EVERY_PLATFORMS_DEFAULT = {"num_warps": 4}
# what a knob written as that default says in a module shared with other platforms (`_shared`)
DEFAULT_ADVICE = (
    " (the module keeps its NPU code apart, line {related_line}, but the value is Triton's default"
    " on every platform: other platforms' launches stay the same)"
)


@dataclass(frozen=True)
class _KnobPlan(FixPlan):
    """The fix of a knob (`_plans`), with `defaults`: when the knob is written as Triton's default
    on every platform (`EVERY_PLATFORMS_DEFAULT`), the fix removing only such knobs of its call
    or dict, which `_shared` keeps where other platforms may launch."""

    defaults: FixPlan | None = None


# why a knob a statement only adds (or stores) gets no fix: the fix would delete the statement,
# which may be all its block holds or sit among others on its line
WHOLE_STATEMENT_REASON = "the statement adds nothing else: delete it by hand"
SETDEFAULT_REASON = "`setdefault` returns the value it sets, which the code may read: delete the call by hand"

# why the fix removing a `num_stages` that may be 1 is unsafe (`_turns_multibuffer_off`)
STAGES_REASON = (
    "no effect on triton-ascend 3.2, but newer triton-ascend reads `num_stages=1` as automatic"
    " multi-buffering off: write `multibuffer=False` if that is meant"
)
UNSAFE_STAGES = f"Remove `num_stages` ({STAGES_REASON})"


def _turns_multibuffer_off(
    key: str, value: cst.BaseExpression | None, loops: Mapping[str, frozenset[int | None]] | None = None
) -> bool:
    """Whether the knob is a `num_stages` that may be 1: the literal 1, or a value not written as
    an integer literal (a name, an expression), but for the name of a comprehension clause over
    integer literals none of which is 1 (`loops`, `_stage_loops`: `for s in [2, 3, 4]`).
    Released triton-ascend (3.2.0) never reads it, but upstream main's
    `linalg_to_bin_enable_npu_compile_910_95` and `_A2_A3` pass
    `--enable-auto-multi-buffer=False` for `num_stages == 1` (unless `multibuffer` is given): its
    removal turns multi-buffering back on there. Any other value leaves it on, as the default."""
    if key != "num_stages":
        return False
    if isinstance(value, cst.Name) and loops and value.value in loops:
        return bool(loops[value.value] & {None, 1})
    return int_literal(value) in (None, 1)


def _plans(
    key: str,
    values: Mapping[str, cst.BaseExpression],
    removed: AbstractSet[str],
    without: Callable[[AbstractSet[str]], Replace],
    message: str | None = None,
    loops: Mapping[str, frozenset[int | None]] | None = None,
) -> FixPlan:
    """The fix of the knob `key` of a call or dict whose knobs `removed` go (their `values` as
    written there): `without(knobs)` is the change removing `knobs`. A `num_stages` that may be
    1 (`_turns_multibuffer_off`) goes only in an unsafe fix, which removes every knob; the other
    knobs' safe fix leaves it (`--fix` removes them alone; `--unsafe-fixes` takes the unsafe
    fix, the fixer preferring it over the safe one of the same text)."""
    unsafe = {knob for knob in removed if _turns_multibuffer_off(knob, values.get(knob), loops)}
    if key in unsafe:
        return FixPlan("unsafe", UNSAFE_STAGES, (without(removed),))
    message = message or f"Remove `{key}`"
    defaults = {
        knob
        for knob in removed
        if knob in EVERY_PLATFORMS_DEFAULT and int_literal(values.get(knob)) == EVERY_PLATFORMS_DEFAULT[knob]
    }
    return _KnobPlan(
        "safe",
        message,
        (without(removed - unsafe),),
        FixPlan("safe", message, (without(defaults),)) if key in defaults else None,
    )


def _kept(
    written: Iterable[tuple[str, cst.BaseExpression]], knobs: AbstractSet[str], host: HostIndex
) -> dict[str, Declined]:
    """The knobs among the (key, value) pairs written whose value binds a name read elsewhere
    (`num_warps=(nw := 4)`, then `return nw`): removing the knob would leave it unbound; or
    holds an arm only another platform takes (`num_warps=None if _is_npu else 8`): removing it
    would change that platform's launch; or calls what may do more than compute it
    (`_acting_call`: `num_warps=_next_warps()`), which removing the knob would not call, or
    iterates over what may be an iterator (`_consumed`), which it would not use up."""
    found: dict[str, Declined] = {}
    for key, value in written:
        if key not in knobs:
            continue
        if (name := _value_binds(value, host)) is not None:
            found[key] = Declined(f"its value binds `{name}` (`:=`), which is read elsewhere")
        elif (arm := _arm_elsewhere(value, host)) is not None:
            found[key] = Declined(f"its value on another platform, `{one_line(arm)}`, tunes the kernel there")
        elif (call := _acting_call(value, host)) is not None:
            found[key] = Declined(
                f"its value calls `{one_line(call)}`, which may do more than compute it: delete it by hand if it"
                " does not"
            )
        elif (iterated := _consumed(value)) is not None:
            found[key] = Declined(
                f"its value iterates over `{one_line(iterated)}`, which an iterator would leave used up: delete it"
                " by hand if it is none"
            )
    return found


def _arm_elsewhere(value: cst.BaseExpression, host: HostIndex) -> cst.BaseExpression | None:
    """An arm of a conditional expression in `value` that only another platform takes
    (`HostIndex.on_other_platform`: `8` in `None if _is_npu else 8`)."""
    for node in walk(value):
        if isinstance(node, cst.IfExp):
            for arm in (node.body, node.orelse):
                if host.on_other_platform(arm):
                    return arm
    return None


# what host code calls to compute a value only (as written, not resolved through the imports)
_COMPUTING = frozenset(
    {"min", "max", "abs", "int", "float", "round", "len", "bool", "divmod", "pow", "sum", "range"}
    | {"triton.next_power_of_2", "triton.cdiv", "next_power_of_2", "cdiv"}
    | {"math.ceil", "math.floor", "math.log2", "math.sqrt", "math.prod"}
)
# tensor methods that only read what a tensor is (`y.numel()`, `x.stride(0)`)
_READING_METHODS = frozenset({"numel", "size", "dim", "stride", "element_size", "nelement", "is_contiguous"})
# methods that only read a mapping a plain name holds (`config.get("num_warps", 4)`)
_MAPPING_READS = frozenset({"get"})
# what a function computing a value only never holds: a statement acting beyond its locals, or
# one whose effect a deleted call would skip (a raise, an assertion)
_ACTING_STATEMENTS = (
    cst.Global,
    cst.Nonlocal,
    cst.Yield,
    cst.Await,
    cst.Raise,
    cst.Assert,
    cst.Del,
    cst.With,
    cst.Try,
    cst.Import,
    cst.ImportFrom,
    cst.FunctionDef,
    cst.ClassDef,
)


def _acting_call(value: cst.CSTNode, host: HostIndex, depth: int = 0) -> cst.Call | None:
    """A call in `value` that may do more than compute a value: not one of `_COMPUTING`, a
    tensor's `_READING_METHODS` (`y.numel()`) or a mapping's `_MAPPING_READS` on a plain name
    (`config.get("num_warps", 4)`), nor of a function of the module (not a method), or of
    the package imported by name, that only computes (`_computes_only`, followed three calls
    deep)."""
    for node in walk(value):
        if not isinstance(node, cst.Call):
            continue
        name = dotted_name(node.func)
        method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
        if (
            name in _COMPUTING
            or method in _READING_METHODS
            or (
                method in _MAPPING_READS
                and isinstance(node.func, cst.Attribute)
                and isinstance(node.func.value, cst.Name)
            )
        ):
            continue
        if name is not None and depth < 3 and _computing_function(name, node.func, host, depth):
            continue
        return node
    return None


def _computing_function(name: str, func: cst.BaseExpression, host: HostIndex, depth: int) -> bool:
    """`name` is one function of the module (not a method) that only computes
    (`_computes_only`), or of the module of the package it is imported from, read there
    (`HostIndex.imported_definition`)."""
    if name not in host.functions:
        found = host.imported_definition(func, None, (name.rsplit(".", 1)[-1],))
        if found is None:
            return False
        host, _, name = found
    functions = host.functions.get(name, [])
    return len(functions) == 1 and functions[0] not in host.class_of and _computes_only(functions[0], host, depth)


def _consumed(value: cst.CSTNode) -> cst.BaseExpression | None:
    """What a loop or comprehension in `value` iterates over that may be an iterator, which the
    loop uses up (`parts` in `sum(1 for _ in parts)`): not a literal, `range(...)` nor a shape."""
    for node in walk(value):
        if isinstance(node, cst.For | cst.CompFor) and not _reiterable(node.iter):
            return node.iter
    return None


def _reiterable(iterable: cst.BaseExpression) -> bool:
    """A literal, `range(...)` or `x.shape`: iterated again, it gives the same items."""
    if isinstance(iterable, cst.List | cst.Tuple | cst.Set | cst.Dict | cst.SimpleString | cst.ConcatenatedString):
        return True
    if isinstance(iterable, cst.Call):
        return dotted_name(iterable.func) == "range"
    return isinstance(iterable, cst.Attribute) and iterable.attr.value == "shape"


def _computes_only(function: cst.FunctionDef, host: HostIndex, depth: int) -> bool:
    """Whether a function's body only computes its result: it binds plain names only (no
    attribute, item or global store), augments none of its parameters (`seen += [n]` extends the
    caller's list in place), holds none of `_ACTING_STATEMENTS`, loops over no iterator it would
    use up (`_consumed`), and calls only what computes (`_acting_call`)."""
    parameters = {param.name.value for param in walk(function.params) if isinstance(param, cst.Param)}
    for node in walk(function.body):
        if isinstance(node, _ACTING_STATEMENTS):
            return False
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) and node.target.value in parameters:
            return False
        target = (
            node.target
            if isinstance(node, cst.AssignTarget | cst.AugAssign | cst.AnnAssign | cst.For | cst.CompFor)
            else None
        )
        if target is not None and not all(isinstance(each, cst.Name) for each in _target_names(target)):
            return False
    return _consumed(function.body) is None and _acting_call(function.body, host, depth + 1) is None


def _value_binds(value: cst.BaseExpression, host: HostIndex) -> str | None:
    """A name an assignment expression in `value` binds that host code also reads."""
    for node in walk(value):
        if isinstance(node, cst.NamedExpr) and isinstance(node.target, cst.Name):
            name = node.target.value
            if any(use.name is not node.target for use in host.name_uses.get(name, ())):
                return name
    return None


def _holds_knob(source: DictSource, knobs: AbstractSet[str]) -> bool:
    """Whether a dict source (`HostIndex.dict_sources`) writes one of the `knobs` the fix would
    remove: a dict literal's entry, a `dict(...)` keyword, what an update adds."""
    if isinstance(source, cst.Dict):
        return any(isinstance(e, cst.DictElement) and _string_key(e) in knobs for e in source.elements)
    if isinstance(source, cst.Call) and isinstance(source.func, cst.Name):
        return any(arg.keyword is not None and arg.keyword.value in knobs for arg in source.args)
    if isinstance(source, (cst.Call, cst.AugAssign)):
        added = source if isinstance(source, cst.Call) else source.value
        return any(True for _ in _added_knobs(added, knobs))
    return False


def _tuning_reads(context: ModuleContext) -> dict[cst.Call, dict[str, Declined]]:
    """The knobs the tuning of a kernel reads, by the calls that give them to it: its launches
    (also through helpers), `warmup` / `run` calls and `triton.Config`s. `Heuristics.run` calls
    each heuristic with the launch keywords (`args["num_warps"]`), the autotuner passes them
    to `prune_configs_by`'s functions and reads its `key=` names among them, and a config's
    knobs reach the heuristics under it. Removing such a knob breaks (`KeyError`) or changes
    what they compute."""
    host = context.host
    found: dict[cst.Call, dict[str, Declined]] = {}
    compiling: dict[str, list[cst.Call]] = {}  # `kernel.warmup(...)` calls, by kernel
    for call, scope in host.calls:
        method = _kernel_method(call, scope, host)
        for kernel in method[1] if method is not None else ():
            compiling.setdefault(kernel.name, []).append(call)
    kernels: list[tuple[Kernel, list[cst.Call]]] = [
        (
            kernel,
            [
                *(call for launch in host.launches_with_helpers(kernel) for call in launch.calls),
                *compiling.get(kernel.name, ()),
                *_configs_of(kernel, context),
            ],
        )
        for kernel in host.kernels.values()
    ]
    kernels += [
        (kernel, [call for launch in launches for call in launch.calls])
        for kernel, launches in host.imported_kernel_launches().items()
    ]
    for kernel, calls in kernels:
        reads = _knobs_read_by_tuning(kernel, host)
        for call in calls if reads else ():
            found.setdefault(call, {}).update({key: why for key, why in reads.items() if key not in found[call]})
    for call, reads in _named_config_reads(context).items():
        found.setdefault(call, {}).update({key: why for key, why in reads.items() if key not in found[call]})
    return found


def _named_config_reads(context: ModuleContext) -> dict[cst.Call, dict[str, Declined]]:
    """The knobs host code reads as attributes of a name bound to a `triton.Config` (`CFG =
    triton.Config({...}, num_warps=8)`, then `CFG.num_warps > 4`; `CFG.all_kwargs()` reads
    them all): removing the knob would change what it reads."""
    host, imports = context.host, context.imports
    found: dict[cst.Call, dict[str, Declined]] = {}
    named = [
        (name, owner, configs)
        for (name, owner), bound in host.bindings.items()
        if (configs := [value for value in bound if _is_config(value, imports)])
    ]
    for name, owner, configs in named:  # the uses of names are found in a walk of the whole module: asked only here
        for use in host.name_uses.get(name, ()):
            parent = use.around[0] if use.around else None
            if use.owner is not owner or not isinstance(parent, cst.Attribute) or parent.value is not use.name:
                continue
            attribute = parent.attr.value
            for key in sorted(KNOBS) if attribute == "all_kwargs" else [attribute] if attribute in KNOBS else []:
                for config in configs:
                    found.setdefault(config, {}).setdefault(
                        key, Declined(f"`{name}.{attribute}` reads it, which would change without it")
                    )
    return found


def _knobs_read_by_tuning(kernel: Kernel, host: HostIndex) -> dict[str, Declined]:
    """The knobs a kernel's `triton.heuristics` functions, `triton.autotune` `key=` or
    `prune_configs_by` functions (`early_config_prune`, `perf_model`) read, each with why
    there is no fix."""
    found: dict[str, Declined] = {}
    for decorator in kernel.decorators:
        if not isinstance(decorator, cst.Call):
            continue
        called = (dotted_name(decorator.func) or "").rsplit(".", 1)[-1]
        readers: list[tuple[list[cst.BaseExpression], str]] = []
        if called == "heuristics":
            tables = [a.value for a in decorator.args[:1] if a.keyword is None or a.keyword.value == "values"]
            why = f"a heuristic of `{kernel.name}` reads it (`Heuristics.run` passes it the launch keywords)"
            readers.append((_dict_values(tables, host), why))
        elif called == "autotune":
            keys = [a.value for a in decorator.args if a.keyword is not None and a.keyword.value == "key"]
            keys += [value for key in keys if isinstance(key, cst.Name) for value in host.values_of(key.value, None)]
            readers.append((keys, f"the `key=` of `{kernel.name}`'s autotuner names it"))
            pruning = [
                a.value for a in decorator.args if a.keyword is not None and a.keyword.value == "prune_configs_by"
            ]
            why = f"`prune_configs_by` of `{kernel.name}`'s autotuner reads it (it is given the launch keywords)"
            readers.append((_dict_values(pruning, host), why))
        for values, why in readers:
            for key in sorted(KNOBS - found.keys()):
                if _read_in(values, key, host):
                    found[key] = Declined(why)
    return found


def _dict_values(tables: Sequence[cst.BaseExpression], host: HostIndex) -> list[cst.BaseExpression]:
    """The values of the dict literals the module-level expressions may be (`dict_sources`)."""
    return [
        element.value
        for table in tables
        for source, _ in host.dict_sources(table, None)
        if isinstance(source, cst.Dict)
        for element in source.elements
        if isinstance(element, cst.DictElement)
    ]


def _added_knobs(
    added: cst.BaseExpression, knobs: AbstractSet[str]
) -> Iterator[tuple[cst.CSTNode, str, cst.BaseExpression]]:
    """The knobs `kw.update(...)` or `kw |= {...}` adds: keywords and entries of the dict
    literals written in it, each with where it is written and its value."""
    tables = [added] if isinstance(added, cst.Dict) else []
    if isinstance(added, cst.Call):
        for arg in added.args:
            if arg.keyword is not None and arg.keyword.value in knobs:
                yield arg, arg.keyword.value, arg.value
        tables = [table for arg in added.args if (table := _literal_added(arg)) is not None]
    for table in tables:
        for element in table.elements:
            key = _string_key(element) if isinstance(element, cst.DictElement) else None
            if isinstance(element, cst.DictElement) and key is not None and key in knobs:
                yield element, key, element.value


def _added_without_knobs(added: cst.BaseExpression, knobs: AbstractSet[str]) -> cst.BaseExpression | None:
    """`kw.update(...)` / the `{...}` of `kw |= {...}` without `knobs`; None when nothing
    would be left to add."""
    if isinstance(added, cst.Dict):
        kept = _dict_without_knobs(added, knobs)
        return kept if kept.elements else None
    if not isinstance(added, cst.Call):
        return None
    args = [
        arg if (table := _literal_added(arg)) is None else arg.with_changes(value=_dict_without_knobs(table, knobs))
        for arg in added.args
    ]
    remaining = without_items(
        added.with_changes(args=args),
        lambda arg: _keeps(arg, knobs) and ((table := _literal_added(arg)) is None or bool(table.elements)),
    )
    return remaining if remaining.args else None


def _literal_added(arg: cst.Arg) -> cst.Dict | None:
    """The dict literal `kw.update({...})` or `kw.update(**{...})` adds."""
    return arg.value if arg.keyword is None and isinstance(arg.value, cst.Dict) else None


def _other_platform_configs(context: ModuleContext) -> set[cst.Call]:
    """The `triton.Config`s of kernels every launch of which in the module (one at least) runs
    only on another platform than Ascend (`HostIndex.launched_only_on_other_platform`), and of no
    other kernel."""
    host = context.host
    other_platform: set[cst.Call] = set()
    elsewhere: set[cst.Call] = set()
    for kernel in host.kernels.values():
        only = host.launched_only_on_other_platform(kernel)
        (other_platform if only else elsewhere).update(_configs_of(kernel, context))
    return other_platform - elsewhere


def _npu_configs(context: ModuleContext) -> set[cst.Call]:
    """The `triton.Config`s of kernels every launch of which in the module (one at least) runs
    only on the NPU (`HostIndex.on_npu_path`), and of no other kernel: their knobs are on an
    Ascend path only, whatever else the module runs elsewhere (`_shared`)."""
    host = context.host
    if host.npu_code is None:
        return set()
    npu: set[cst.Call] = set()
    elsewhere: set[cst.Call] = set()
    for kernel in host.kernels.values():
        launches = host.launches_with_helpers(kernel)
        only = bool(launches) and all(host.on_npu_path(launch.call) for launch in launches)
        (npu if only else elsewhere).update(_configs_of(kernel, context))
    return npu - elsewhere


def _knobs_by_call(context: ModuleContext) -> dict[cst.Call, AbstractSet[str]]:
    """The knobs of the calls that run a kernel of the module taking a parameter of a knob's
    name (`num_stages: tl.constexpr`), without that name: the kernel's launches (also through
    helpers and launchers), `warmup` / `run` calls, the `triton.Config`s and the
    `triton.heuristics` its decorators are given. Triton binds such a keyword to the parameter
    (`JITFunction.run`), and a config's `num_stages=` is passed as one (`Config.all_kwargs`,
    over any `"num_stages"` of its dict): an argument, which deleting breaks. So are the
    launches of a kernel another module of the package defines, through the name imported
    (`HostIndex.imported_kernel_launches`). The calls of no such kernel (one of a module that
    cannot be read, whose parameters are not seen) keep every knob. Nor is `num_warps` one in
    a call writing a keyword that selects the SIMT mode (a `triton.Config` is none; what its
    `**` splats select is decided for each dict, `_simt_live`), nor in the configs and
    heuristics of a kernel every launch of which in the module selects it (`_selects_simt`)."""
    host = context.host
    taken: dict[cst.Call, set[str]] = {}
    for kernel in host.kernels.values():
        named = _parameter_knobs([kernel])
        if named:
            calls = [call for launch in host.launches_with_helpers(kernel) for call in launch.calls]
            calls += _configs_of(kernel, context)
            calls += [call for call in kernel.decorators if isinstance(call, cst.Call)]
            for call in calls:
                taken.setdefault(call, set()).update(named)
    for kernel, launches in host.imported_kernel_launches().items():
        named = _parameter_knobs([kernel])
        for call in [call for launch in launches for call in launch.calls] if named else []:
            taken.setdefault(call, set()).update(named)
    for call, scope in host.calls:
        method = _kernel_method(call, scope, host)
        if method is not None and (named := _parameter_knobs(method[1])):
            taken.setdefault(call, set()).update(named)
        if _writes_simt_keyword(call.args) and not context.imports.is_triton(call.func, "Config"):
            taken.setdefault(call, set()).add("num_warps")
    for kernel in host.kernels.values():
        launches = host.launches_with_helpers(kernel)
        if launches and all(
            any(_selects_simt(call.args, launch.args_scope, host) for call in launch.calls) for launch in launches
        ):
            tuning = [*_configs_of(kernel, context), *(c for c in kernel.decorators if isinstance(c, cst.Call))]
            for call in tuning:
                taken.setdefault(call, set()).add("num_warps")
    return {call: KNOBS - named for call, named in taken.items()}


def _bound_elsewhere(
    context: ModuleContext, knobs_by_call: Mapping[cst.Call, AbstractSet[str]]
) -> dict[DictSource, dict[str, Declined]]:
    """The knobs of the dicts a call splats whose kernel takes them as parameters
    (`_knobs_by_call`: `num_stages: tl.constexpr`), by dict source: another launch splatting the
    same dict gets the knob reported, but deleting it would break this one (Triton's binder
    raises for the missing argument), so it has no fix. Also `num_warps` of a call selecting a
    SIMT mode, whose dicts `_simt_sources` keeps anyway."""
    host = context.host
    found: dict[DictSource, dict[str, Declined]] = {}
    for call, scope in host.calls:
        taken = KNOBS - knobs_by_call.get(call, KNOBS)
        for arg in call.args if taken else ():
            if arg.star != "**":
                continue
            for source, _ in host.dict_sources(arg.value, scope):
                for key in sorted(taken):
                    if _holds_knob(source, {key}):
                        found.setdefault(source, {})[key] = Declined(
                            f"`{one_line(call.func)}(...)` also splats it and binds `{key}` to a parameter of its"
                            " kernel: deleting it would break that launch"
                        )
    return found


def _selects_simt(args: Sequence[cst.Arg], scope: Scope, host: HostIndex) -> bool:
    """Whether the keywords select triton-ascend's pure SIMT compile mode (Ascend 950) in
    every dict they may be: `force_simt_only=True` or `compile_mode="simt_only"` written, or a
    `**` splat every dict of which selects it, itself or with what is merged into it on the way
    (`_simt_live`: `{**base, "force_simt_only": True}`, a store into the name holding it).
    There `NPUOptions.num_warps` is passed to bishengir-compile (`--pure-simt --num-warps=N`)."""
    if _writes_simt_keyword(args):
        return True
    for arg in args:
        if arg.star == "**":
            trail = DictTrail()
            dicts = list(host.dict_sources(arg.value, scope, trail=trail))
            if dicts and all(_simt_live(each, trail, host) for each, _ in dicts):
                return True
    return False


def _may_select_simt(args: Sequence[cst.Arg], scope: Scope, host: HostIndex) -> bool:
    """Whether the keywords select the SIMT mode in some dict they may be: written, or in a
    dict one of their `**` splats may hold (`def _opts(mode)` returning a SIMT dict and
    another). A `num_warps` written beside them reaches `--num-warps=N` in that build."""
    return _writes_simt_keyword(args) or any(
        _holds_simt(Merged(arg.value, scope, True), host) for arg in args if arg.star == "**"
    )


def _simt_sources(context: ModuleContext) -> set[DictSource]:
    """The sources of the dicts launches splat (`HostIndex.dict_sources`: dict literals,
    `dict(...)` calls, stores and changes) whose `num_warps` a SIMT build reads, at any launch
    of the module (a dict splatted into two launches, one of them SIMT, keeps it for that one):
    those whose dict may select the SIMT mode itself or with what is merged into it
    (`_simt_live`), and every source of a splat beside which the launch writes a
    SIMT-selecting keyword or splats a dict that may select it (`_may_select_simt`), or which
    a forwarding helper passes to such a launch (`_forwarder_selects_simt`). Launches are
    those `kernel[grid](...)`, a stored launcher's, `warmup` / `run` calls and calls of
    forwarding helpers; a `triton.Config` drops the SIMT keywords."""
    host = context.host
    live: set[DictSource] = set()
    for call, scope in host.calls:
        splats = [arg for arg in call.args if arg.star == "**"]
        passed: list[cst.BaseExpression] = []
        if isinstance(call.func, cst.Subscript) or call in host.stored_launch_calls:
            selected = False  # `kernel[grid](...)`, a stored launcher's call
        elif _kernel_method(call, scope, host) is not None:  # `kernel.warmup(...)`
            selected = False
        elif (name := _forwarder_called(call, host)) is not None:
            function, splatted = host.forwarders[name]
            star = function.params.star_kwarg
            if not isinstance(star, cst.Param) or star.name.value not in splatted:
                splats = []
            named = {param.name.value for param in all_params(function)} & splatted
            passed = [value for param in sorted(named) if (value := passed_for(call, function, param)) is not None]
            if not splats and not passed:
                continue
            selected = _forwarder_selects_simt(function, host)
        else:
            continue
        values = [
            (arg.value, selected or _may_select_simt([o for o in call.args if o is not arg], scope, host))
            for arg in splats
        ]
        values += [(value, selected) for value in passed]
        for value, beside in values:
            trail = DictTrail()
            for source, _ in host.dict_sources(value, scope, trail=trail):
                if beside or _simt_live(source, trail, host):
                    live.add(source)
    return live


def _live_beside(args: Sequence[cst.Arg], scope: Scope, host: HostIndex, knobs: AbstractSet[str]) -> set[str]:
    """`num_warps`, when it is among the `knobs` written in a call and one of the call's `**`
    splats may select the SIMT mode (`_may_select_simt`): that build reads it."""
    if "num_warps" not in knobs or not any(
        arg.keyword is not None and arg.keyword.value == "num_warps" for arg in args
    ):
        return set()
    return {"num_warps"} if _may_select_simt(args, scope, host) else set()


def _forwarder_selects_simt(function: cst.FunctionDef, host: HostIndex) -> bool:
    """Whether a launch a forwarding helper passes its parameters into (`HostIndex.forwarded_launches`)
    selects the SIMT mode with what it writes itself (`kernel[grid](*args, force_simt_only=True,
    **kwargs)`), or may through a dict it splats that is not one of the helper's parameters."""
    for launch in host.forwarded_launches(function):
        params = {param.name.value for param in all_params(launch.scope)} if launch.scope is not None else set()
        own = [
            arg
            for arg in launch.call.args
            if not (isinstance(arg.value, cst.Name) and arg.value.value in params and arg.star)
        ]
        if _may_select_simt(own, launch.scope, host):
            return True
    return False


def _writes_simt_keyword(args: Sequence[cst.Arg]) -> bool:
    return any(arg.keyword is not None and _simt_keyword(arg.keyword.value, arg.value) for arg in args)


def _simt_live(source: DictSource, trail: DictTrail, host: HostIndex) -> bool:
    """Whether the dict a source of a `**` splat (`HostIndex.dict_sources`) puts its entries in
    may select the SIMT mode: the source writes it (`{"num_warps": 1, "compile_mode":
    "simt_only"}`, whichever other dicts the splat may hold), or what is merged with it on its
    way (`DictTrail.merged`) may (`{**base, "compile_mode": "simt_only"}` for the entries of
    `base`, `kw["force_simt_only"] = True` for those of the dict `kw` holds). Decided for each
    source: a dict chosen beside the SIMT one (in an `if` / `else`, by a helper's other
    `return`) keeps its verdict."""
    return _writes_simt(source) or any(_holds_simt(merged, host) for merged in trail.merged.get(source, ()))


def _holds_simt(merged: Merged, host: HostIndex) -> bool:
    """Whether what is merged may select the SIMT mode: some dict the expression may hold
    writes it, or the node itself does."""
    if merged.whole and isinstance(merged.node, cst.BaseExpression):
        return any(_writes_simt(source) for source, _ in host.dict_sources(merged.node, merged.scope))
    return _writes_simt(merged.node)


def _writes_simt(source: DictSource) -> bool:
    """Whether a dict source writes a SIMT-selecting keyword: a dict literal's entry, a
    `dict(...)` or `kw.update(...)` keyword or literal, `kw |= {...}`, `kw["compile_mode"] =
    "simt_only"`, `kw.setdefault("force_simt_only", True)`."""
    if isinstance(source, ItemStore):
        return _simt_keyword(source.key, source.value)
    if (
        isinstance(source, cst.Call)
        and isinstance(source.func, cst.Attribute)
        and source.func.attr.value == "setdefault"
    ):
        key = str_literal(source.args[0].value) if len(source.args) == 2 else None
        return key is not None and _simt_keyword(key, source.args[1].value)
    added = source.value if isinstance(source, cst.AugAssign) else source
    if not isinstance(added, (cst.Dict, cst.Call)):
        return False
    return any(_simt_keyword(key, value) for _, key, value in _added_knobs(added, SIMT_KEYWORDS))


def _simt_keyword(keyword: str, value: cst.BaseExpression) -> bool:
    return (keyword == "force_simt_only" and isinstance(value, cst.Name) and value.value == "True") or (
        keyword == "compile_mode" and str_literal(value) in SIMT_MODES
    )


def _parameter_knobs(kernels: Sequence[Kernel]) -> frozenset[str]:
    """The knob names the kernels take as parameters."""
    return KNOBS.intersection(param.name for kernel in kernels for param in kernel.params)


def _configs_of(kernel: Kernel, context: ModuleContext) -> set[cst.Call]:
    """The `triton.Config` calls an autotuning decorator of the kernel is given (`configs=`,
    `triton.autotune`'s first argument), followed through module-level names and functions
    of the module returning them, and what their code appends to a list they return
    (`configs.append(...)`, `HostIndex.list_additions`)."""
    return _configs_from([(space, None) for space in _config_spaces(kernel, context)], context)


def _config_spaces(kernel: Kernel, context: ModuleContext) -> list[cst.BaseExpression]:
    """The expressions an autotuning decorator of the kernel is given its configs as
    (`configs=`, `triton.autotune`'s first argument)."""
    spaces: list[cst.BaseExpression] = []
    for call in kernel.decorators:
        if isinstance(call, cst.Call):
            autotune = context.imports.is_triton(call.func, "autotune")
            spaces += [
                arg.value
                for index, arg in enumerate(call.args)
                if (arg.keyword is not None and arg.keyword.value == "configs") or (autotune and index == 0)
            ]
    return spaces


def _configs_from(pending: list[tuple[cst.BaseExpression, Scope]], context: ModuleContext) -> set[cst.Call]:
    """The `triton.Config` calls in the expressions (`_configs_of`)."""
    host = context.host
    found: set[cst.Call] = set()
    for node, scope in each_once(pending, itemgetter(0)):
        for sub in walk(node):
            if _is_config(sub, context.imports):
                found.add(sub)
            elif isinstance(sub, cst.Name):
                pending += [(value, scope) for value in host.values_of(sub.value, scope)]
                pending += [(site.call.args[0].value, site.scope) for site in host.list_additions(sub.value, scope)]
            elif isinstance(sub, cst.Call) and isinstance(sub.func, cst.Name):
                pending += host.returns.get(sub.func.value, [])
    return found


def _heuristic_knobs(
    context: ModuleContext, knobs_by_call: dict[cst.Call, AbstractSet[str]]
) -> dict[tuple[cst.DictElement, str], tuple[cst.Dict, Scope, AbstractSet[str]]]:
    """The knob entries of the tables passed to `triton.heuristics` (as a dict literal, a name
    bound to one, a function returning one), not those naming a parameter of the kernel it
    decorates (`_knobs_by_call`), and those of dicts that map them to a heuristic (a table
    another module passes), each with its table, the function it is written in and the knobs
    of its table."""
    found: dict[tuple[cst.DictElement, str], tuple[cst.Dict, Scope, AbstractSet[str]]] = {}
    passed: set[cst.Dict] = set()
    for call, table, scope in _heuristics_tables(context):
        passed.add(table)
        knobs = knobs_by_call.get(call, KNOBS)
        for element in table.elements:
            key = _string_key(element) if isinstance(element, cst.DictElement) else None
            if isinstance(element, cst.DictElement) and key is not None and key in knobs:
                found[element, key] = (table, scope, knobs)
    for element, table, scope in context.host.heuristic_entries():
        key = _string_key(element)
        if key in KNOBS and table not in passed:
            found[element, key] = (table, scope, KNOBS)
    return found


def _heuristics_tables(context: ModuleContext) -> Iterator[tuple[cst.Call, cst.Dict, Scope]]:
    """The dict literals the module's `triton.heuristics(values)` calls may be given, each
    with the call."""
    for call, scope in context.host.calls:
        if context.imports.is_triton(call.func, "heuristics"):
            for arg in call.args[:1]:
                if arg.keyword is None or arg.keyword.value == "values":
                    for source, where in context.host.dict_sources(arg.value, scope):
                        if isinstance(source, cst.Dict):
                            yield call, source, where


def _reads_key(table: cst.Dict, key: str, host: HostIndex) -> bool:
    """Whether the table's other heuristics (its lambdas, the module's functions it names)
    read `key` (`lambda args: 32 * args["num_warps"]`): they get the values set before them."""
    others = [e.value for e in table.elements if isinstance(e, cst.DictElement) and _string_key(e) != key]
    return _read_in(others, key, host)


def _read_in(values: Iterable[cst.BaseExpression], key: str, host: HostIndex) -> bool:
    """Whether `key` is written as a string, or read as an attribute, in the values (lambdas,
    lists of names) or the bodies of the module's functions they name: how a heuristic reads
    `args["num_warps"]`, and a prune a config's `c.num_warps`."""
    read: list[cst.CSTNode] = []
    for value in values:
        read += host.functions.get(value.value, []) if isinstance(value, cst.Name) else [value]
    return any(
        (isinstance(node, cst.SimpleString) and str_literal(node) == key)
        or (isinstance(node, cst.Attribute) and node.attr.value == key)
        for part in read
        for node in walk(part)
    )


def _option_facts(option: str, value: cst.BaseExpression) -> dict[str, str | int]:
    """The option and, when written as an integer literal, its value."""
    if isinstance(value, cst.Integer):
        return {"option": option, "value": number_literal(value)}
    return {"option": option}


def _string_key(element: cst.DictElement) -> str | None:
    return str_literal(element.key)


def _without_knobs(call: cst.Call, knobs: AbstractSet[str], config: bool = False) -> cst.Call:
    """The call without the keywords among `knobs` (a `triton.Config`'s positional knobs too, with
    `config`: the positional arguments after one removed are named, `num_ctas=1`), those entries
    of the dict literals splatted into it, and the `**{}` those leave empty."""
    names = _arg_names(call, config)
    first = next((index for index, name in enumerate(names) if name in knobs), len(names))
    args: list[cst.Arg] = []
    for index, (arg, name) in enumerate(zip(call.args, names, strict=True)):
        if (table := _splatted_literal(arg)) is not None:
            arg = arg.with_changes(value=_dict_without_knobs(table, knobs))
        elif index > first and arg.keyword is None and name is not None and name not in knobs:
            arg = arg.with_changes(keyword=cst.Name(name), equal=NAMING)  # moved: named for its parameter
        args.append(arg)
    gone = {id(arg) for arg, name in zip(args, names, strict=True) if name in knobs}
    return without_items(call.with_changes(args=args), lambda arg: id(arg) not in gone and _keeps(arg, knobs))


NAMING = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))  # `num_ctas=1`


def _arg_names(call: cst.Call, config: bool) -> list[str | None]:
    """The parameter each argument of the call is for: its keyword, and with `config` (a
    `triton.Config`) a positional argument's by its position (`CONFIG_PARAMETERS`), when every
    positional argument has one and none is a `*` splat; None for the others."""
    positional = [arg for arg in call.args if arg.keyword is None and arg.star != "**"]
    named = config and len(positional) <= len(CONFIG_PARAMETERS) and not any(arg.star for arg in positional)
    return [
        arg.keyword.value if arg.keyword is not None else CONFIG_PARAMETERS[index] if named and not arg.star else None
        for index, arg in enumerate(call.args)
    ]


def _named_args(call: cst.Call, config: bool) -> dict[str, cst.BaseExpression]:
    """The values of the call's arguments by the parameter each is for (`_arg_names`)."""
    return {name: arg.value for arg, name in zip(call.args, _arg_names(call, config), strict=True) if name is not None}


def _splatted_literal(arg: cst.Arg) -> cst.Dict | None:
    """The dict of a `**{...}` argument."""
    return arg.value if arg.star == "**" and isinstance(arg.value, cst.Dict) else None


def _keeps(arg: cst.Arg, knobs: AbstractSet[str]) -> bool:
    if (table := _splatted_literal(arg)) is not None:
        return bool(table.elements)
    return arg.keyword is None or arg.keyword.value not in knobs


def _dict_without_knobs(table: cst.Dict, knobs: AbstractSet[str]) -> cst.Dict:
    return without_items(table, lambda e: not isinstance(e, cst.DictElement) or _string_key(e) not in knobs)


# ---- config lists: the configs the knobs told apart become one --------------------------------

MERGE_MESSAGE = "Remove `num_warps` / `num_stages` and keep one copy of each config"


def _config_merges(
    context: ModuleContext,
    knobs_by_call: dict[cst.Call, AbstractSet[str]],
    tuning_reads: dict[cst.Call, dict[str, Declined]],
    stages: Mapping[cst.Call, Mapping[str, frozenset[int | None]]],
) -> tuple[dict[cst.Call, FixPlan], dict[cst.Call, dict[str, Declined]]]:
    """For each `triton.Config` call in a list whose configs would repeat once the knobs are
    gone, the fix that removes the knobs from the whole list and keeps one copy of each: the
    knobs of every config of the list (`_knobs_by_call`) that no tuning reads (`_tuning_reads`).
    None for a list bound to a name read otherwise than as configs (`_only_configs`): merging
    would move what `CONFIGS[2]` or `len(CONFIGS)` reads."""
    host, imports = context.host, context.imports
    scopes = dict(host.calls)  # the function each config call sits in
    values = [arg.value for call, _ in host.calls for arg in call.args]
    values += [value for bound in host.bindings.values() for value in bound]
    values += [value for returned in host.returns.values() for value, _ in returned]
    # each list, or list a value concatenates (`[...] + BASE`), with the value
    candidates = {id(part): (part, value) for value in values for part in _list_parts(value)}
    binders: dict[int, list[tuple[str, Scope]]] = {}  # a value bound to names: the names and their functions
    for (name, owner), bound in host.bindings.items():
        for value in bound:
            binders.setdefault(id(value), []).append((name, owner))
    returners: dict[int, list[str]] = {}  # a value functions of the module return: their names
    for name, returned in host.returns.items():
        for value, _ in returned:
            returners.setdefault(id(value), []).append(name)
    held: dict[cst.Call, dict[str, Declined]] = {}
    merges: dict[cst.Call, FixPlan] = {}
    listed: dict[cst.Call, int] = {}  # the list literal each config is an element of, by id
    for container, whole in candidates.values():
        merged: cst.List | cst.ListComp | None
        elements = [container.elt] if isinstance(container, cst.ListComp) else [e.value for e in container.elements]
        calls = [e for e in elements if isinstance(e, cst.Call)]
        knobs = KNOBS.intersection(*(knobs_by_call.get(e, KNOBS) for e in calls))
        knobs = knobs.difference(*(tuning_reads.get(e, {}).keys() for e in calls))
        knobs = knobs.difference(
            *(_kept(_named_args(e, _is_config(e, imports)).items(), knobs, host) for e in calls)
        )  # a value binding a name read elsewhere, or calling what may act, stays
        if isinstance(container, cst.ListComp):
            scope = scopes.get(container.elt) if isinstance(container.elt, cst.Call) else None
            merged, configs, kept_knobs = _merged_comprehension(container, scope, host, imports, knobs)
        else:
            merged, configs = _merged_list(container, imports, knobs)
            listed.update(dict.fromkeys(configs, id(container)))
            kept_knobs = {}
        # whether the names holding the list read it only as configs, asked only of a list to merge:
        # the uses of names (`HostIndex.name_uses`) are found in a walk of the whole module
        if (
            merged is not None
            and all(_only_configs(name, owner, host) for name, owner in binders.get(id(whole), ()))
            and all(_called_only_for_configs(name, host) for name in returners.get(id(whole), ()))
        ):
            message = MERGE_MESSAGE
            if kept_knobs:  # a knob a clause that stays varies is kept
                message = MERGE_MESSAGE.replace("`num_warps` / `num_stages`", f"`{min(knobs - kept_knobs.keys())}`")
            # as weak as its weakest part: unsafe when it removes a `num_stages` that may be 1
            gone = knobs - kept_knobs.keys()
            unsafe = any(
                key in gone and _turns_multibuffer_off(key, value, stages.get(call))
                for call in calls
                for key, value in _named_args(call, _is_config(call, imports)).items()
            )
            if unsafe:
                message = f"{message} ({STAGES_REASON})"
            plan = FixPlan("unsafe" if unsafe else "safe", message, (Replace(container, merged),))
            merges.update((config, plan) for config in configs)
            held.update((config, kept_knobs) for config in configs if kept_knobs)
    for config, why in _left_alike(context, knobs_by_call, tuning_reads, merges, listed).items():
        held[config] = {**dict.fromkeys(KNOBS, why), **held.get(config, {})}
    return merges, held


def _list_parts(value: cst.BaseExpression) -> Iterator[cst.List | cst.ListComp]:
    """`value` when it is a list, else the lists it concatenates (`[...] + BASE`)."""
    if isinstance(value, cst.List | cst.ListComp):
        yield value
    elif isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        yield from _list_parts(value.left)
        yield from _list_parts(value.right)


_WAYS_KEPT = 16  # the sets of configs one space is read as (`_config_ways`), at most


def _config_ways(
    node: cst.BaseExpression, scope: Scope, context: ModuleContext, reading: frozenset[int] = frozenset()
) -> set[frozenset[cst.Call]]:
    """The sets of `triton.Config` calls `node` may hold at once, one for each way it may be
    evaluated: each arm of a conditional expression (`CUDA if c else NPU`), each value of a name
    (bound in the arms of an `if`, or bound again) and each `return` of a helper is a way of its
    own; the configs of the other parts join each (`SPACE + [...]`, what code appends to a name).
    Read as one way: the values of a name one of them reads again (`SPACE += [...]`: they meet;
    `reading` holds the values being read), and more than `_WAYS_KEPT` ways."""
    host, ways = context.host, {frozenset[cst.Call]()}
    stack: list[cst.CSTNode] = [node]
    while stack:
        sub = stack.pop()
        if _is_config(sub, context.imports):
            options = {frozenset((sub,))}
        elif isinstance(sub, cst.IfExp):
            stack.append(sub.test)
            options = {way for arm in (sub.body, sub.orelse) for way in _config_ways(arm, scope, context, reading)}
        elif isinstance(sub, cst.Name) and (values := host.values_of(sub.value, scope)):
            added = [(site.call.args[0].value, site.scope) for site in host.list_additions(sub.value, scope)]
            options = _ways_of_values([(value, scope) for value in values], added, context, reading)
        elif isinstance(sub, cst.Call) and isinstance(sub.func, cst.Name) and sub.func.value in host.returns:
            stack.extend(sub.args)
            options = _ways_of_values(list(host.returns[sub.func.value]), [], context, reading)
        else:
            stack.extend(child_nodes(sub))
            continue
        ways = {way | option for way in ways for option in options}
        if len(ways) > _WAYS_KEPT:
            ways = {frozenset[cst.Call]().union(*ways)}
    return ways


def _ways_of_values(
    values: list[tuple[cst.BaseExpression, Scope]],
    added: list[tuple[cst.BaseExpression, Scope]],
    context: ModuleContext,
    reading: frozenset[int],
) -> set[frozenset[cst.Call]]:
    """The ways (`_config_ways`) of a name bound to `values` or a helper returning them, each
    with the configs `added` to it: one per value, or one for all when a value reads them again."""
    extra = frozenset(_configs_from(list(added), context))
    if any(id(value) in reading for value, _ in values):
        return {frozenset(_configs_from(list(values), context)) | extra}
    inner = reading.union(id(value) for value, _ in values)
    return {way | extra for value, scope in values for way in _config_ways(value, scope, context, inner)}


def _left_alike(
    context: ModuleContext,
    knobs_by_call: Mapping[cst.Call, AbstractSet[str]],
    tuning_reads: Mapping[cst.Call, Mapping[str, Declined]],
    merges: Mapping[cst.Call, FixPlan],
    listed: Mapping[cst.Call, int],
) -> dict[cst.Call, Declined]:
    """The configs of a kernel's autotuner that the fix would leave alike, not merged: two
    configs of its space (`_configs_of`) the same once their knobs go, not in one list the fix
    merges (`BASE + [...]`, `[*BASE, ...]`, `CONFIGS += [...]`, a tuple of configs, a merged
    list beside a config outside it), or in one list it does not merge (`listed`: one whose
    length host code reads). They get no fix, nor do the others of a merge one of
    them is in: autotune would time both copies. Each way the space may be evaluated
    (`_config_ways`: an arm of `CUDA if c else NPU`, a name's binding in an `if` arm, a helper's
    `return`) is a space of its own. Not a config reading a name a loop around it
    or a function returning it varies (`_loop_names`, `_config_helpers`): alike as written, it
    may be built with other values."""
    host = context.host
    order = {call: index for index, (call, _) in enumerate(host.calls)}
    # the names whose values may differ from one config a call builds to the next, or between calls
    varying = {**_loop_names(context), **{call: params for call, (_, params) in _config_helpers(context).items()}}
    merged: dict[int, list[cst.Call]] = {}  # the configs of each merge, by its plan
    for config, plan in merges.items():
        merged.setdefault(id(plan), []).append(config)
    found: dict[cst.Call, Declined] = {}
    spaces = [  # each way of a space (`A if is_npu() else B`, an `if`'s arms) is a space of its own
        (kernel, way)
        for kernel in host.kernels.values()
        for space in _config_spaces(kernel, context)
        for way in _config_ways(space, None, context)
    ]
    for kernel, way in spaces:
        shapes: dict[str, cst.Call] = {}
        for config in sorted(way, key=lambda call: order.get(call, -1)):
            gone = knobs_by_call.get(config, KNOBS) - tuning_reads.get(config, {}).keys()
            plain = _without_knobs(config, gone, config=True)
            if None in host.loops_around.get(config, ()) or _loop_reads(plain, varying.get(config, frozenset())):
                continue  # written alike, built apart (`_repeating` and `_calls_may_repeat` see copies there)
            other = shapes.setdefault(_shape(plain), config)
            if other is config or (config in merges and merges.get(other) is merges[config]):
                continue
            apart = "" if config in listed and listed[config] == listed.get(other) else " (not in one list)"
            why = Declined(
                f"without its knobs it would be the same as another config of `{kernel.name}`,"
                f" `{one_line(plain)}`, and the fix cannot merge them{apart}: autotune would"
                " time both; remove the copy by hand"
            )
            for alike in (config, other):
                found.update(dict.fromkeys(merged.get(id(merges.get(alike)), [alike]), why))
                found[alike] = why
    return found


def _only_configs(name: str, owner: Scope, host: HostIndex) -> bool:
    """Whether host code uses the list a name holds only as configs: passed as `configs=` or
    as `autotune`'s first argument, returned, or added to (`.append` / `.extend`)."""
    for use in host.name_uses.get(name, ()):
        if use.owner is not owner:
            continue
        parent, outer = (*use.around, None, None)[:2]
        if not isinstance(parent, cst.AssignTarget) and not _used_as_configs(use.name, parent, outer):
            return False
    return True


def _called_only_for_configs(name: str, host: HostIndex) -> bool:
    """Whether host code uses the list a function of the module returns only as configs: each
    use of its name is a call (`get_configs()`) used so (`_used_as_configs`) or bound to names
    used so (`_bound_only_for_configs`), not `len(get_configs())` nor `get_configs()[3]`, whose
    reads a merge would move. Not a method (its calls through `self` are not names)."""
    if any(function in host.class_of for function in host.functions.get(name, ())):
        return False
    for use in host.name_uses.get(name, ()):
        call, parent, outer = (*use.around, None, None, None)[:3]
        if not isinstance(call, cst.Call) or call.func is not use.name:
            return False
        if not _used_as_configs(call, parent, outer) and not _bound_only_for_configs(call, parent, host):
            return False
    return True


def _bound_only_for_configs(value: cst.Call, statement: cst.CSTNode | None, host: HostIndex) -> bool:
    """Whether `statement` binds `value` to names host code uses only as configs (`CONFIGS =
    get_configs()`, then `configs=CONFIGS`: `_only_configs`, read in the function binding each)."""
    if not isinstance(statement, cst.Assign) or statement.value is not value:
        return False
    for target in statement.targets:
        name = target.target
        if not isinstance(name, cst.Name):
            return False
        owners = [use.owner for use in host.name_uses.get(name.value, ()) if use.name is name]
        if not owners or not _only_configs(name.value, owners[0], host):
            return False
    return True


def _used_as_configs(value: cst.CSTNode, parent: cst.CSTNode | None, outer: cst.CSTNode | None) -> bool:
    """Whether the list `value` is used as configs where it is written (`parent` around it,
    `outer` around that): passed as `configs=` or as `autotune`'s first argument, returned, or
    added to (`.append` / `.extend`)."""
    if isinstance(parent, cst.Return) and parent.value is value:
        return True
    if isinstance(parent, cst.Arg) and parent.value is value and not parent.star:
        if parent.keyword is not None and parent.keyword.value == "configs":
            return True
        return (
            parent.keyword is None
            and isinstance(outer, cst.Call)
            and (dotted_name(outer.func) or "").rsplit(".", 1)[-1] == "autotune"
            and outer.args[0] is parent
        )
    return isinstance(parent, cst.Attribute) and parent.value is value and parent.attr.value in ("append", "extend")


def _stage_loops(context: ModuleContext) -> dict[cst.Call, dict[str, frozenset[int | None]]]:
    """For each `triton.Config` call in a comprehension, the values of the names its clauses
    bind to the elements of a literal list, tuple or set (`for s in [2, 3, 4]`; None for an
    element that is no integer literal): what its `num_stages=s` may be (`_turns_multibuffer_off`).
    Only comprehensions: a `for` statement's body may rebind the name. Read from the loops the
    host walk found around each call (`HostIndex.loops_around`): the comprehensions inside the
    innermost lambda (whose parameters hide the names; a `def` is never inside an expression),
    outermost first, each clause's target hiding what the clauses before it bound."""
    host, imports = context.host, context.imports
    found: dict[cst.Call, dict[str, frozenset[int | None]]] = {}
    for call, _ in host.calls:
        loops = host.loops_around.get(call)
        if not loops or not _is_config(call, imports):
            continue
        bound: dict[str, frozenset[int | None]] = {}
        for loop in loops:
            if loop is None or isinstance(loop, cst.Lambda):  # its parameters hide the names
                bound = {}
            elif not isinstance(loop, cst.For):  # a comprehension
                clause: cst.CompFor | None = loop.for_in
                while clause is not None:
                    for name in names_in(clause.target):
                        bound.pop(name, None)
                    iterated = clause.iter
                    if isinstance(clause.target, cst.Name) and isinstance(iterated, cst.List | cst.Tuple | cst.Set):
                        values = frozenset(int_literal(e.value) for e in iterated.elements)
                        if values and not any(isinstance(e, cst.StarredElement) for e in iterated.elements):
                            bound[clause.target.value] = values
                    clause = clause.inner_for_in
        if bound:
            found[call] = bound
    return found


def _loop_names(context: ModuleContext) -> dict[cst.Call, frozenset[str]]:
    """For each `triton.Config` call, the names that change from one config it builds to the
    next: the targets of the `for` statements (whose body or `else` holds it; not of one whose
    body never starts a second trip, `_one_trip`) and comprehension
    clauses around it, the parameters of the lambdas it is in (`map(lambda p: Config(...),
    space)`), also around the functions it is in (`HostIndex.loops_around`). Only the calls some
    of these are around, and none in a `for` statement's target or a lambda's parameters."""
    host, imports = context.host, context.imports
    found: dict[cst.Call, frozenset[str]] = {}
    for call, _ in host.calls:
        loops = host.loops_around.get(call)
        if not loops or None in loops or not _is_config(call, imports):
            continue
        names: set[str] = set()
        for loop in loops:
            if isinstance(loop, cst.For):
                if not _one_trip(loop):
                    names |= names_in(loop.target)
            elif isinstance(loop, cst.Lambda):
                params = loop.params
                every = [*params.posonly_params, *params.params, *params.kwonly_params]
                every += [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
                names.update(param.name.value for param in every)
            elif loop is not None:  # a comprehension
                clause: cst.CompFor | None = loop.for_in
                while clause is not None:
                    names |= names_in(clause.target)
                    clause = clause.inner_for_in
        if names:
            found[call] = frozenset(names)
    return found


def _one_trip(loop: cst.For) -> bool:
    """The loop's body never starts a second trip: it returns, raises or breaks on every path,
    with no `continue`."""
    return never_falls_through(loop.body) and not any(isinstance(node, cst.Continue) for node in walk(loop.body))


def _config_helpers(context: ModuleContext) -> dict[cst.Call, tuple[str, frozenset[str]]]:
    """For each `triton.Config` call a function of the module returns (`return
    triton.Config(...)`: one config per call of it), the function's name and parameters, which
    change from one config it builds to the next as a loop's names do (`_loop_names`)."""
    host = context.host
    found: dict[cst.Call, tuple[str, frozenset[str]]] = {}
    for name, returned in host.returns.items():
        for value, function in returned:
            if _is_config(value, context.imports):
                found[value] = (name, frozenset(param.name.value for param in all_params(function)))
    return found


def _calls_may_repeat(call: cst.Call, helper: str, params: frozenset[str], context: ModuleContext) -> bool:
    """Two calls of the `helper` returning the config `call` may build it alike once its knobs
    go: they pass the same arguments (written alike) for the parameters the rest of the config
    reads (`_make(64, 4)` and `_make(64, 8)`), or a call may run more than once (in a loop, a
    comprehension), passes `*args`, or the helper is named otherwise than called, or the rest
    reads a part of a parameter (`p[0]`); not `_make(64, 4)` beside `_make(128, 8)`."""
    host, module = context.host, context.module
    functions = host.functions.get(helper, [])
    sites = host.calls_of.get(helper, [])
    named = sum(isinstance(node, cst.Name) and node.value == helper for node in walk(module))
    rest = _loop_reads(_without_knobs(call, KNOBS, config=True), params)
    if len(functions) != 1 or named != len(sites) + 1 or any(len(path) > 1 for path in rest):
        return True
    positional = [param.name.value for param in functions[0].params.params]
    read = sorted(path[0] for path in rest)
    seen: set[tuple[str | None, ...]] = set()
    for site in sites:
        if host.loops_around.get(site.call) or any(arg.star for arg in site.call.args):
            return True
        passed = {
            arg.keyword.value if arg.keyword is not None else positional[index] if index < len(positional) else "": arg
            for index, arg in enumerate(site.call.args)
        }
        written = tuple(module.code_for_node(passed[name].value) if name in passed else None for name in read)
        if written in seen:
            return True
        seen.add(written)
    return False


def _repeating(
    call: cst.Call, knobs: AbstractSet[str], loop: frozenset[str], helper: str | None = None
) -> dict[str, Declined]:
    """The knobs of a config built in a loop (`_loop_names`) whose value reads a loop name, or a
    part of one (`p[1]`), that the rest of the config does not read: without them the loop
    builds the same config again (`for nw in (2, 4, 8): out.append(Config({"BT": bt},
    num_warps=nw))`). They get no fix; the loop over them should go, by hand. The same for
    the parameters of the `helper` returning the config (`_config_helpers`): its calls
    `_cfg(64, 4)` and `_cfg(64, 8)` would build the same config."""
    if helper is None:
        read, builder, remove = "which the loop building the configs changes and", "the loop", "the loop over it"
    else:
        read, builder, remove = (
            f"a parameter of `{helper}` that",
            f"the calls of `{helper}`",
            "the parameter and the repeated calls",
        )
    rest = _loop_reads(_without_knobs(call, KNOBS, config=True), loop)
    written = list(_named_args(call, True).items())
    written += [
        (key, element.value)
        for arg in call.args
        if (table := _splatted_literal(arg)) is not None
        for element in table.elements
        if isinstance(element, cst.DictElement) and (key := _string_key(element)) is not None
    ]  # `**{"num_warps": nw}`
    found: dict[str, Declined] = {}
    for key, value in written:
        if key in knobs:
            for path in sorted(_loop_reads(value, loop)):
                if not any(path[: len(other)] == other for other in rest):
                    found[key] = Declined(
                        f"its value reads `{''.join(path)}`, {read} nothing else in the config reads: "
                        f"without it {builder} may build the same config more than once, and autotune would "
                        f"time each copy; remove {remove} by hand"
                    )
                    break
    return found


def _loop_reads(node: cst.CSTNode, loop: frozenset[str]) -> set[tuple[str, ...]]:
    """What `node` reads of the `loop` names: a name, or a name subscripted by literals or
    followed by attributes (`p[1]` → `("p", "[1]")`, `config.num_warps`)."""
    path = _loop_path(node, loop)
    if path is not None:
        return {path}
    if isinstance(node, cst.Attribute):
        return _loop_reads(node.value, loop)
    if isinstance(node, cst.Arg):
        return _loop_reads(node.value, loop)
    return set().union(*(_loop_reads(child, loop) for child in child_nodes(node)))


def _loop_path(node: cst.CSTNode, loop: frozenset[str]) -> tuple[str, ...] | None:
    if isinstance(node, cst.Name):
        return (node.value,) if node.value in loop else None
    if isinstance(node, cst.Attribute):
        base = _loop_path(node.value, loop)
        return None if base is None else (*base, f".{node.attr.value}")
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        index = node.slice[0].slice.value
        base = _loop_path(node.value, loop)
        if base is not None and isinstance(index, cst.Integer | cst.SimpleString):
            return (*base, f"[{index.value}]")
    return None


def _is_config(node: cst.CSTNode, imports: ImportMap) -> TypeGuard[cst.Call]:
    return isinstance(node, cst.Call) and imports.is_triton(node.func, "Config")


def _merged_list(
    container: cst.List, imports: ImportMap, knobs: AbstractSet[str]
) -> tuple[cst.List | None, list[cst.Call]]:
    """The list with configs free of `knobs`, each distinct one once; None when nothing repeats."""
    configs = [e.value for e in container.elements if isinstance(e, cst.Element) and _is_config(e.value, imports)]
    seen: set[str] = set()
    repeated: set[int] = set()  # ids of the later copies
    elements: list[cst.BaseElement] = []
    for element in container.elements:
        if isinstance(element, cst.Element) and _is_config(element.value, imports):
            config = _without_knobs(element.value, knobs, config=True)
            element = element.with_changes(value=config)
            shape = _shape(config)
            if shape in seen:
                repeated.add(id(element))
            seen.add(shape)
        elements.append(element)
    if not repeated:
        return None, configs
    merged = without_items(container.with_changes(elements=elements), lambda element: id(element) not in repeated)
    return merged, configs


def _shape(config: cst.Call) -> str:
    """What a config is, whatever its formatting and the order of its keywords and of the
    entries of its dict literals: the dump of its normalised Python syntax tree."""
    tree = ast.parse(cst.Module([]).code_for_node(config).strip(), mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = [key.value for key in node.keys if isinstance(key, ast.Constant)]
            if len(set(keys)) == len(node.keys):  # constant keys, each once: their order is no part of the dict
                pairs = sorted(zip(keys, node.keys, node.values, strict=True), key=lambda entry: repr(entry[0]))
                node.keys, node.values = [key for _, key, _ in pairs], [value for _, _, value in pairs]
        elif isinstance(node, ast.Call):
            node.keywords.sort(key=lambda keyword: (keyword.arg is None, keyword.arg or ""))
    return ast.dump(tree)


def _merged_comprehension(
    container: cst.ListComp,
    scope: cst.FunctionDef | None,
    host: HostIndex,
    imports: ImportMap,
    knobs: AbstractSet[str],
) -> tuple[cst.List | cst.ListComp | None, list[cst.Call], dict[str, Declined]]:
    """`[Config(..., num_warps=w) for bt in BTS for w in WS]` → `[Config(...) for bt in BTS]`:
    the clauses whose names fed only the `knobs` go, and the parts of a literal's tuples that
    did (`_projected`). None when nothing can go. A knob a clause that stays varies alone
    (`for w in NUM_WARPS`, a name the merge cannot prove non-empty) stays too, without a fix
    (`_repeating`): without it that clause would build each config again; the third value."""
    config = container.elt
    if not _is_config(config, imports):
        return None, [], {}
    clauses: list[cst.CompFor] = []
    clause: cst.CompFor | None = container.for_in
    while clause is not None:
        clauses.append(clause)
        clause = clause.inner_for_in
    held: dict[str, Declined] = {}
    while True:  # each round may keep a knob, whose names then keep their clauses: at most two knobs
        plain = _without_knobs(config, knobs - held.keys(), config=True)
        used = names_in(plain).union(
            *(names_in(c.iter) for c in clauses), *(names_in(i) for c in clauses for i in c.ifs)
        )
        dropped = [_only_feeds_knobs(c, used, scope, host) for c in clauses]
        # a clause over tuples loses the parts that fed only the knobs
        kept = [_projected(c, used) or c for c, gone in zip(clauses, dropped, strict=True) if not gone]
        varied = frozenset().union(*(names_in(c.target) for c in kept))
        more = _repeating(config, knobs - held.keys(), varied)
        if not more:
            break
        held.update(more)
    if kept == clauses or held.keys() >= knobs:
        return None, [config], {}
    gaps = _kept_gaps([c.whitespace_before for c in clauses] + [container.rbracket.whitespace_before], dropped)
    rbracket = container.rbracket.with_changes(whitespace_before=gaps[-1])
    if not kept:
        element = cst.Element(plain)
        merged = cst.List([element], container.lbracket, rbracket, container.lpar, container.rpar)
        return merged, [config], held
    chain = None
    for kept_clause, gap in zip(reversed(kept), reversed(gaps[:-1]), strict=True):
        chain = kept_clause.with_changes(inner_for_in=chain, whitespace_before=gap)
    return container.with_changes(elt=plain, for_in=chain, rbracket=rbracket), [config], held


def _kept_gaps(
    gaps: list[cst.BaseParenthesizableWhitespace], dropped: list[bool]
) -> list[cst.BaseParenthesizableWhitespace]:
    """The whitespace before each clause a comprehension keeps, and before its closing bracket,
    from the `gaps` before each of its clauses and its bracket, when the clauses `dropped` go:
    each with one gap: when it starts its line, its own comment (after it, `for w in [4, 8]  #
    warps`) and those on the lines above it, the next line's indentation and comment lines
    staying; else the gap before it (the line's comment stays with the line: `for b in [64,
    128] for w in [4, 8]  # sweep`)."""
    kept = list(gaps)
    clauses: list[bool | None] = [*dropped, None]  # what follows each gap: a clause, dropped or not, or the bracket
    index = 0
    while index < len(clauses):
        if clauses[index]:  # a dropped clause follows the gap at `index`
            before, after = kept[index], kept[index + 1]
            if isinstance(before, cst.ParenthesizedWhitespace) and isinstance(after, cst.ParenthesizedWhitespace):
                kept[index] = before.with_changes(
                    empty_lines=after.empty_lines, indent=after.indent, last_line=after.last_line
                )
            del kept[index + 1 if isinstance(before, cst.ParenthesizedWhitespace) else index]
            del clauses[index]
        else:
            index += 1
    return kept


def _projected(clause: cst.CompFor, used: set[str]) -> cst.CompFor | None:
    """`for b, w in ((64, 4), (64, 8), (128, 4))` with `w` unused → `for b in (64, 128)`: a
    clause unpacking the tuples of a literal without the names nothing uses, and the later
    copies of the values left. None unless its target is names, its literal holds only tuples
    of as many parts, neither it nor the clause's `if`s call anything (no evaluation that could
    act is left out), and some of the names are used and some not."""
    target, display = clause.target, clause.iter
    if (
        clause.asynchronous
        or any(isinstance(node, _ACTING) for test in clause.ifs for node in walk(test))
        or not isinstance(target, (cst.Tuple, cst.List))
        or not isinstance(display, (cst.List, cst.Tuple, cst.Set))
        or (isinstance(display, cst.Tuple) and not display.lpar)
        or any(isinstance(node, _ACTING) for node in walk(display))
    ):
        return None
    names = [e.value.value for e in target.elements if isinstance(e, cst.Element) and isinstance(e.value, cst.Name)]
    keep = [name in used for name in names]
    if len(set(names)) < len(target.elements) or all(keep) or not any(keep):
        return None
    rows: list[cst.BaseElement] = []
    seen: set[str] = set()
    repeated: set[int] = set()  # ids of the later copies
    for element in display.elements:
        values = element.value if isinstance(element, cst.Element) else None
        if not isinstance(values, cst.Tuple) or len(values.elements) != len(names):
            return None
        if not all(isinstance(part, cst.Element) for part in values.elements):
            return None
        row = element.with_changes(value=_parts(values, keep))
        shape = ast.dump(ast.parse(cst.Module([]).code_for_node(row.value).strip(), mode="eval"))
        if shape in seen:
            repeated.add(id(row))
        seen.add(shape)
        rows.append(row)
    kept_rows = without_items(display.with_changes(elements=rows), lambda row: id(row) not in repeated)
    return clause.with_changes(target=_parts(target, keep), iter=kept_rows)


# what evaluating an expression may do more than compute its value
_ACTING = (
    cst.Call,
    cst.Lambda,
    cst.NamedExpr,
    cst.Await,
    cst.Yield,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
)


def _parts(row: cst.Tuple | cst.List, keep: list[bool]) -> cst.BaseExpression:
    """The tuple (or list) of names or values with the parts `keep` says; the part alone when
    it is one."""
    if keep.count(True) == 1:
        return row.elements[keep.index(True)].value
    position = {id(element): index for index, element in enumerate(row.elements)}
    if row.lpar or isinstance(row, cst.List):
        return without_items(row, lambda element: keep[position[id(element)]])
    kept = [element for element, wanted in zip(row.elements, keep, strict=True) if wanted]  # `b, s, w`: on one line
    kept[-1] = kept[-1].with_changes(comma=row.elements[-1].comma)
    return row.with_changes(elements=kept)


def _only_feeds_knobs(clause: cst.CompFor, used: set[str], scope: cst.FunctionDef | None, host: HostIndex) -> bool:
    """A `for` clause with no `if`, over a non-empty iterable, whose names nothing else uses."""
    targets = names_in(clause.target)
    return (
        not clause.ifs
        and not clause.asynchronous
        and not targets & used
        and all(isinstance(n, cst.Name) for n in _target_names(clause.target))
        and _non_empty(clause.iter, scope, host)
    )


def _target_names(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _target_names(e.value)]
    return [target]


def _is_parameter(name: str, scope: cst.FunctionDef | None) -> bool:
    return scope is not None and any(param.name.value == name for param in all_params(scope))


def _non_empty(iterable: cst.BaseExpression, scope: cst.FunctionDef | None, host: HostIndex, depth: int = 0) -> bool:
    """A list/tuple/set display with a plain element, or a name bound only to such displays
    (also `a if c else b` of them)."""
    if isinstance(iterable, (cst.List, cst.Tuple, cst.Set)):
        return any(isinstance(e, cst.Element) for e in iterable.elements)
    if isinstance(iterable, cst.IfExp):
        return all(_non_empty(arm, scope, host, depth) for arm in (iterable.body, iterable.orelse))
    if isinstance(iterable, cst.Name) and depth < 3 and not _is_parameter(iterable.value, scope):
        bound = host.values_of(iterable.value, scope)
        return bool(bound) and all(_non_empty(value, scope, host, depth + 1) for value in bound)
    return False


def _within(scope: Scope, reports: Iterator[Report]) -> Iterator[Report]:
    """Reports on a call in `scope`: their positions are looked for in that function first."""
    for report in reports:
        report.within = scope
        yield report


def _forwarder_called(call: cst.Call, host: HostIndex) -> str | None:
    """The name of the forwarding helper (`HostIndex.forwarders`) a call calls: `f(...)`, or a
    method through its class or `self` / `cls` (`Ops.launch(...)`, `self._run(...)`)."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value if func.value in host.forwarders else None
    if not isinstance(func, cst.Attribute) or func.attr.value not in host.forwarders:
        return None
    function, _ = host.forwarders[func.attr.value]
    return func.attr.value if any(site.call is call for site in host.callers_of(function)) else None


def _kernel_method(call: cst.Call, scope: Scope, host: HostIndex) -> tuple[str, list[Kernel]] | None:
    """`warmup` or `run` when the call compiles kernels of the module (`kernel.warmup(*args,
    grid=grid, num_warps=4)`: Triton's `JITFunction` takes the launch options there too; also
    `torch.library.wrap_triton(kernel).run(...)`), with those kernels."""
    func = call.func
    if (
        isinstance(func, cst.Attribute)
        and func.attr.value in COMPILING_METHODS
        and isinstance(held := unwrapped(func.value, host.wrapper_names), cst.Name)
        and (names := host.kernels_named(held.value, scope))
    ):
        return func.attr.value, [host.kernels[name] for name in names]
    return None
