"""Calibrate ASC013's static UB estimate against the real triton-ascend compiler.

    python bench/calibrate_ub.py [--fla PATH] [--jobs N] [--cache DIR] [--only SUBSTRING] [--json OUT]

For every kernel of the fixture corpus (`fixtures/triton_ascend/`, `fixtures/runtime/`) and of
fla-core 0.6.0's Ascend files, this script

1. takes the configuration the module makes visible (`ascend_lint.specialisations`: autotune
   configs, literal launch constexprs, heuristics with literal results) and fills every
   constexpr left unbound from the stated specialisation below (`STATED`, with per-kernel
   `OVERRIDES` taken from the host code that launches the kernel);
2. compiles the kernel with exactly that specialisation through the project's compile-only
   toolchain (`runtime_check.toolchain`: real `bishengir-compile` with
   `--enable-memory-display`, placeholder `hivmc`, no device) and reads the planned peak UB
   from `memory_info_aiv.json` (`runtime_check.memory`), or the compiler's `ub overflow`;
3. computes ASC013's static estimate for the same values (`ascend_lint.tiles`), and
4. prints one row per kernel and the distribution of estimate / planned.

Each kernel is also compiled at a "stress" specialisation (every block size in `STRESS`
doubled) so real kernels contribute configurations the compiler rejects.

Pointers are `*bf16` (the dtype fla's Ascend kernels are trained in, and the element width
ASC013 assumes for loads of unknown type) except the integer index tensors named in
`INT_POINTERS`; scalars are `i32` except the float ones in `FLOAT_SCALARS`.

Compiles are cached (by source text, kernel and specialisation) under `--cache`, so a rerun
after a change to the static model recompiles nothing. A first run compiles ~300
specialisations at 2-30 s of CPU each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

UB_BYTES = 196608
COMPILE_TIMEOUT = 900
TOLERANCE = 0.25

# The stated specialisation: what a kernel gets for a constexpr no configuration binds.
# Sizes follow fla's defaults (chunk_size 64, head dims 128, 4 heads); flags not listed are
# False (optional inputs absent), so each kernel compiles its plainest path.
STATED: dict[str, Any] = {
    "B": 2,
    "T": 1024,
    "H": 4,
    "HV": 4,
    "HQ": 4,
    "G": 1,
    "K": 128,
    "V": 128,
    "D": 128,
    "KP": 128,
    "BT": 64,
    "BC": 16,
    "BK": 64,
    "BV": 64,
    "BD": 64,
    "BS": 64,
    "BW": 4,
    "BH": 1,
    "BL": 64,
    "BN": 64,
    "BR": 16,
    "TR": 16,
    "TC": 16,
    "BLOCK_SIZE": 1024,
    "BLOCK_D": 128,
    "W": 4,
    "NC": 4,
    "NK": 1,
    "NT": 16,
    "NG": 1,
    "N": 2,
    "S": 128,
    "R": 1,
    "GS": 1,
    "CHUNK_LEN": 64,
    "MAX_NT_PER_BLOCK": 4,
    "NT_GRID": 16,
    "ROW_GROUP": 1,
    "SRC_BLOCK": 64,
    "DST_BLOCK": 64,
    "USE_G": True,
    "USE_GK": True,
    "USE_INITIAL_STATE": True,
    "STORE_FINAL_STATE": True,
    "HAS_WEIGHT": True,
    "HAS_BIAS": True,
    "ACTIVATION": "swish",
    "reduction": "mean",
    "TAIL_MODE": 0,
    "IS_RMS_NORM": False,
    "scale": 1.0,
    "logit_softcapping": 0.0,
    "softcapping": 0.0,
}
# Block sizes doubled for the stress specialisation.
STRESS = ("BT", "BC", "BK", "BV", "BD", "BS", "BN", "BL", "BLOCK_SIZE", "BLOCK_D")

# Per file (a path suffix), then per kernel: the values its host launcher picks for the stated
# sizes where they differ from the table above.
OVERRIDES: dict[str, dict[str, Any]] = {
    # `B` is the flattened element block (compute_activation/elementwise_block_size: <= 2048);
    # contiguous rows (stride == D), which the host's heuristics mark *_LINEAR
    "modules/activations/triton_ascend.py": {
        "B": 2048,
        "X_LINEAR": True,
        "Y_LINEAR": True,
        "Z_LINEAR": True,
        "G_LINEAR": True,
        "DX_LINEAR": True,
        "DY_LINEAR": True,
    },
    "modules/fused_linear_cross_entropy/triton_ascend.py": {"B": 2048},
    "modules/fused_kl_div/triton_ascend.py": {"B": 2048},
    # liger-kernel's mHC matmul+norm (a `--also` file): contiguous x [N, K], phi [K, M] and
    # outputs, 4 streams of hidden size 1024 (K = 4096, M = 4 * 4 + 2 * 4)
    "liger_kernel/ops/mhc.py": {
        "N": 1024,
        "K": 4096,
        "M": 24,
        **dict.fromkeys(("stride_xn", "stride_gxn"), 4096),
        **dict.fromkeys(("stride_phik", "stride_mn", "stride_gmn", "stride_gpk"), 24),
        **dict.fromkeys(("stride_xk", "stride_phim", "stride_mm", "stride_invr", "stride_gmm", "stride_gxk"), 1),
        "stride_gpm": 1,
        "eps": 1e-6,
        "CAST_FP32": False,
    },
}

INT_POINTERS = frozenset(
    {
        "cu_seqlens",
        "chunk_indices",
        "chunk_offsets",
        "split_offsets",
        "seq_offsets",
        "offsets",
        "indices",
        "labels_ptr",
        "input_ids_ptr",
        "ssm_state_indices",
        "num_accepted_tokens",
        "completion_mask_ptr",
        "target",
        "seq_idx",
        "packed_mask",
        "counts",
    }
)
FLOAT_SCALARS = frozenset(
    {
        "scale",
        "penalty",
        "eps",
        "label_smoothing",
        "logit_scale",
        "lse_square_scale",
        "temperature",
        "lower_bound",
        "softcapping",
        "logit_softcapping",
        "beta",
        "logx",
        "m",
        "a",
        "g",
        "x",
    }
)


# How launches are specialised: pointers from torch allocations are 16-byte aligned, and the
# integer arguments take these values (others 1024), so the JIT marks those divisible by 16
# (`tt.divisibility`) unless the kernel lists them in `do_not_specialize`.
INT_VALUES = {"B": 2, "H": 4, "HV": 4, "HQ": 4, "N": 2, "G": 1, "NT": 16}
_ATTRS = "divisibility-v1"


@dataclass
class Job:
    """One kernel at one specialisation: what to compile and what the static side needs."""

    file: str
    module: str  # dotted name under `root`, or "" to import the file by path
    root: str
    kernel: str
    label: str
    values: dict[str, Any]
    signature: dict[str, str]
    key: str = ""

    def __post_init__(self) -> None:
        text = Path(self.file).read_text(encoding="utf-8")
        blob = json.dumps([text, self.kernel, self.values, self.signature, _ATTRS], sort_keys=True, default=repr)
        self.key = hashlib.sha256(blob.encode()).hexdigest()[:24]


@dataclass
class Planned:
    peak: int | None = None  # planned peak UB in bytes (None when the compile failed otherwise)
    overflow: str = ""  # the compiler's "ub overflow, requires N bits ..." message
    error: str = ""  # any other compile failure
    seconds: float = 0.0
    lines: list[list[int]] = field(default_factory=list)  # [line, bytes covered] largest first
    signature: dict[str, str] = field(default_factory=dict)  # the one compiled

    @property
    def requires(self) -> int | None:
        """The UB the compiler asked for: the planned peak, or the overflow's requirement."""
        if self.overflow:
            digits = [int(w) for w in self.overflow.replace(",", " ").split() if w.isdigit()]
            return digits[0] // 8 if digits else None
        return self.peak


# ---- discovery ---------------------------------------------------------------------------


def kernel_files(fla: Path | None) -> list[tuple[Path, str, Path]]:
    """(file, dotted module or "", import root) for every kernel file of the corpus."""
    files = [(p, "", p.parent) for p in sorted((REPO / "fixtures" / "triton_ascend").glob("*.py"))]
    files += [(p, "", p.parent) for p in sorted((REPO / "fixtures" / "runtime" / "triton_ascend").glob("*.py"))]
    if fla is not None:
        for path in sorted((fla / "fla").rglob("*.py")):
            relative = path.relative_to(fla)
            if "triton_ascend" in relative.as_posix():
                files.append((path, ".".join(relative.with_suffix("").parts), fla))
    return files


def package_file(path: Path) -> tuple[Path, str, Path]:
    """(file, dotted module, import root) for a file inside a package (its root: the first
    parent folder without an `__init__.py`)."""
    path = path.resolve()
    root = path.parent
    while (root / "__init__.py").exists():
        root = root.parent
    return path, ".".join(path.relative_to(root).with_suffix("").parts), root


def jobs_for(path: Path, module: str, root: Path, stress: bool = True) -> tuple[list[Job], list[str]]:
    """The jobs of one file, and the kernels skipped with the reason."""
    from ascend_lint import source as sources
    from ascend_lint.imports import ImportMap
    from ascend_lint.kernels import find_kernels
    from ascend_lint.rule import ModuleContext

    text = path.read_text(encoding="utf-8")
    tree = sources.parse(text)
    imports = ImportMap(tree)
    context = ModuleContext(str(path), text, tree, imports, find_kernels(tree, imports))
    jobs, skipped = [], []
    for kernel in context.kernels:
        constexprs = {p.name for p in kernel.params if p.is_constexpr} | set(kernel.provided_constexprs)
        if not kernel.flow.calls or _is_helper(kernel, context):
            continue
        configs = context.configurations(kernel)
        seen: set[str] = set()
        for config in _distinct_tiles(configs, constexprs):
            values = {k: v for k, v in config.values.items() if k in constexprs}
            stated = {**STATED, **_overrides(path, kernel.name)}
            for name in constexprs - values.keys():
                values[name] = stated.get(name, False)
            variants = [("", values)] + ([(" (stress)", _stressed(values, config.values))] if stress else [])
            for label, chosen in variants:
                encoded = json.dumps(chosen, sort_keys=True)
                if encoded in seen:
                    continue
                seen.add(encoded)
                signature = _signature(kernel, chosen)
                jobs.append(Job(str(path), module, str(root), kernel.name, config.label + label, chosen, signature))
    return jobs, skipped


def _overrides(path: Path, kernel: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for suffix, values in OVERRIDES.items():
        if path.as_posix().endswith(suffix) or suffix == kernel:
            found.update(values)
    return found


def _is_helper(kernel, context) -> bool:
    """A @triton.jit function other kernels call: compiled as part of them, not alone."""
    return any(
        isinstance(e.node.func, __import__("libcst").Name) and e.node.func.value == kernel.name
        for other in context.kernels
        if other is not kernel
        for e in other.flow.calls
    )


def _distinct_tiles(configs, constexprs):
    """Configurations that differ in some constexpr (the first of each)."""
    seen = set()
    for config in configs:
        key = json.dumps({k: v for k, v in config.values.items() if k in constexprs}, sort_keys=True)
        if key not in seen:
            seen.add(key)
            yield config


def _stressed(values: dict[str, Any], visible: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v * 2 if k in STRESS and isinstance(v, int) and not isinstance(v, bool) else v for k, v in values.items()
    }


def _signature(kernel, values: dict[str, Any]) -> dict[str, str]:
    pointers = kernel.flow.pointer_names
    signature = {}
    for param in kernel.params:
        name = param.name
        if name in values:
            signature[name] = "constexpr"
        elif name in pointers:
            signature[name] = "*i32" if name in INT_POINTERS else "*bf16"
        else:
            signature[name] = "fp32" if name in FLOAT_SCALARS else "i32"
    return signature


# ---- compiling (in worker processes) -----------------------------------------------------


def _stand_in_device() -> None:
    """What fla-core asks of a device at import time, answered for a compile-only A2.

    `torch.npu` (current device, availability), the driver's device properties, and `einops`
    (imported by fla modules next to the kernels; never called while compiling).
    """
    import types

    import torch
    from triton.runtime.driver import driver

    class Utils:
        def get_device_properties(self, device):
            return {"max_shared_mem": 1, "num_aicore": 24, "num_vectorcore": 48, "multiprocessor_count": 48}

    driver.active.utils = Utils()
    npu = types.ModuleType("torch.npu")
    npu.current_device = lambda: 0
    npu.device_count = lambda: 1
    npu.is_available = lambda: False
    torch.npu = npu
    sys.modules.setdefault("torch.npu", npu)

    class Absent(types.ModuleType):
        def __getattr__(self, name: str):
            if name.startswith("__"):
                raise AttributeError(name)
            return lambda *args, **kwargs: None

    try:
        import einops  # noqa: F401
    except ImportError:
        sys.modules["einops"] = Absent("einops")


_WORKDIR: Path | None = None


def _init_worker(workdir: str) -> None:
    global _WORKDIR
    from ascend_lint.runtime_check import toolchain

    _WORKDIR = Path(workdir) / f"worker-{os.getpid()}"
    toolchain.activate(_WORKDIR)
    # Some kernels make bishengir-compile run for many minutes at the stress sizes: give each
    # compile COMPILE_TIMEOUT seconds (the wrapper the toolchain put on PATH execs it).
    wrapper = _WORKDIR / "bin" / "bishengir-compile"
    if wrapper.exists():
        wrapper.write_text(wrapper.read_text().replace("exec ", f"exec timeout {COMPILE_TIMEOUT} ", 1))
    _stand_in_device()
    os.environ["TRITON_PRINT_AUTOTUNING"] = "0"


def _load(job: Job):
    import importlib
    import importlib.util

    if job.module:
        if job.root not in sys.path:
            sys.path.insert(0, job.root)
        module = importlib.import_module(job.module)
    else:
        name = f"calibrate_{Path(job.file).stem}"
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, job.file)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
    from triton.runtime.jit import JITFunction

    fn = getattr(module, job.kernel)
    while not isinstance(fn, JITFunction):  # under triton.autotune / triton.heuristics
        fn = fn.fn
    return fn


def compile_job(job: Job) -> Planned:
    """Compile one job with the real compiler and read its UB plan (runs in a worker).

    A kernel whose tiles need fp32 inputs (a `tl.dot` or a block-pointer store mixing them
    with fp32 tiles) is compiled again with fp32 pointers.
    """
    planned = _compile(job, job.signature)
    if any(text in planned.error for text in _DTYPE_ERRORS):
        fp32 = {k: "*fp32" if v == "*bf16" else v for k, v in job.signature.items()}
        planned = _compile(job, fp32)
    return planned


_DTYPE_ERRORS = ("must be same dtype", "Block element type", "Mismatched type for")


def _compile(job: Job, signature: dict[str, str]) -> Planned:
    import triton
    from triton.compiler import ASTSource

    from ascend_lint.runtime_check import toolchain
    from ascend_lint.runtime_check.compile.memory import read_plan
    from ascend_lint.runtime_check.device import DEFAULT_MODEL

    assert _WORKDIR is not None
    report_dir = _WORKDIR / "memory" / job.key
    report_dir.mkdir(parents=True, exist_ok=True)
    for old in report_dir.glob("memory_info_*.json"):
        old.unlink()
    os.environ[toolchain.REPORT_DIR_ENV] = str(report_dir)
    start = time.perf_counter()
    planned = Planned(signature=signature)
    try:
        fn = _load(job)
        target = triton.backends.compiler.GPUTarget("npu", DEFAULT_MODEL, 0)
        attrs = _attrs(fn, job, signature, target)
        source = ASTSource(fn, signature=signature, constants=_constants(job.values), attrs=attrs)
        triton.compile(source, target=target)
    except Exception as exc:  # the compiler's message is the measurement
        text = "".join(traceback.format_exception_only(type(exc), exc))
        planned.error = _last_error(text)
    planned.seconds = round(time.perf_counter() - start, 2)
    plan = read_plan(report_dir)
    ub = plan.get("UB")
    if ub is None and not planned.error and plan.scopes:
        planned.peak = 0  # the compiler planned no UB buffer at all (a cube-only kernel)
    if ub is not None:
        planned.peak = ub.peak
        planned.lines = [[row["line"] or 0, row["bytes"]] for row in ub.largest(6)]
        if "overflow" in ub.error:
            planned.overflow = ub.error.strip()
    if "ub overflow" in planned.error and not planned.overflow:
        planned.overflow = planned.error
    if planned.overflow or (planned.error and ub is not None and ub.buffers):
        planned.error = "" if planned.overflow else planned.error
    return planned


class _Aligned:
    """Stands for a tensor argument: its data pointer is 16-byte aligned."""

    def data_ptr(self) -> int:
        return 0


def _attrs(fn, job: Job, signature: dict[str, str], target):
    """The JIT's compile-time properties for a launch with these arguments (divisibility by 16)."""
    from triton.compiler.compiler import make_backend

    values = []
    for param in fn.params:
        kind = signature.get(param.name, "i32")
        if kind == "constexpr":
            values.append(job.values.get(param.name))
        elif kind.startswith("*"):
            values.append(_Aligned())
        elif kind.startswith("fp"):
            values.append(1.5)
        else:
            values.append(INT_VALUES.get(param.name, 1024))
    return make_backend(target).get_attrs_descriptor(fn.params, values)


def _constants(values: dict[str, Any]) -> dict[str, Any]:
    return dict(values)


def _last_error(text: str) -> str:
    errors = [line.split("error:", 1)[1].strip() for line in text.splitlines() if "error:" in line]
    specific = [e for e in errors if "Failed to run" not in e]
    return (specific or errors or [text.strip().splitlines()[-1]])[-1][:300]


def _compile_safely(job: Job) -> dict[str, Any]:
    try:
        return vars(compile_job(job))
    except Exception as exc:  # a crash of the harness itself
        return vars(Planned(error=f"harness: {type(exc).__name__}: {exc}"))


def planned_all(jobs: list[Job], cache: Path, workers: int) -> dict[str, Planned]:
    cache.mkdir(parents=True, exist_ok=True)
    results: dict[str, Planned] = {}
    todo = []
    for job in jobs:
        path = cache / f"{job.key}.json"
        if path.exists():
            results[job.key] = Planned(**json.loads(path.read_text()))
        else:
            todo.append(job)
    if todo:
        print(
            f"compiling {len(todo)} specialisations ({len(jobs) - len(todo)} cached) on {workers} workers",
            file=sys.stderr,
        )
        with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(str(cache / "work"),)) as pool:
            futures = {pool.submit(_compile_safely, job): job for job in todo}
            for done, future in enumerate(as_completed(futures), 1):
                job = futures[future]
                data = future.result()
                (cache / f"{job.key}.json").write_text(json.dumps(data))
                results[job.key] = Planned(**data)
                print(f"[{done}/{len(todo)}] {Path(job.file).name}:{job.kernel} {data['seconds']}s", file=sys.stderr)
    return results


# ---- comparing ---------------------------------------------------------------------------


_KERNELS: dict[str, dict[str, Any]] = {}


def estimate(job: Job, plan: Planned, dense: bool = False):
    """ASC013's static estimate for the job's specialisation (each file parsed once); `dense`:
    the lower bound the rule reports on."""
    from ascend_lint import source as sources
    from ascend_lint.imports import ImportMap
    from ascend_lint.kernels import find_kernels
    from ascend_lint.ub_plan import peak

    if job.file not in _KERNELS:
        tree = sources.parse(Path(job.file).read_text(encoding="utf-8"))
        _KERNELS[job.file] = {k.name: k for k in find_kernels(tree, ImportMap(tree))}
    kernel = _KERNELS[job.file][job.kernel]
    return peak(kernel.tiles, job.values, pointer_bytes(plan.signature or job.signature), dense)


def pointer_bytes(signature: dict[str, str]) -> dict[str, int]:
    widths = {"bf16": 2, "fp16": 2, "fp32": 4, "i32": 4, "i64": 8, "i8": 1, "i1": 1}
    return {k: widths[v[1:]] for k, v in signature.items() if v.startswith("*") and v[1:] in widths}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fla", type=Path, default=None, help="unpacked fla-core 0.6.0 (default: the test cache)")
    parser.add_argument("--no-fla", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--cache", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "ascend-lint-ub-calibration"
    )
    parser.add_argument("--only", default="")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--also",
        type=Path,
        action="append",
        default=[],
        help="a further kernel file inside a package (e.g. a GPU kernel ASC013 flags under --target-all)",
    )
    parser.add_argument("--no-stress", action="store_true", help="compile only the visible configurations")
    parser.add_argument("--cached-only", action="store_true", help="report the cached compiles, compile nothing")
    args = parser.parse_args()
    fla = None
    if not args.no_fla:
        if args.fla is None:
            sys.path.insert(0, str(REPO / "tests"))
            from fla_corpus import fla_root

            args.fla = fla_root()
        fla = args.fla
    jobs: list[Job] = []
    for path, module, root in kernel_files(fla) + [package_file(p) for p in args.also]:
        if args.only and args.only not in str(path):
            continue
        found, _ = jobs_for(path, module, root, stress=not args.no_stress)
        jobs.extend(found)
    if args.cached_only:
        jobs = [job for job in jobs if (args.cache / f"{job.key}.json").exists()]
    planned = planned_all(jobs, args.cache, args.jobs)
    report(jobs, planned, args.json)


def report(jobs: list[Job], planned: dict[str, Planned], json_out: Path | None) -> None:
    rows = []
    for job in jobs:
        plan = planned[job.key]
        try:
            static = estimate(job, plan)
            static_bytes = static.bytes if plan.overflow else static.planned
            dense = estimate(job, plan, dense=True)
            dense_bytes = dense.bytes if plan.overflow else dense.planned
            flagged = dense.bytes > UB_BYTES
        except Exception as exc:
            static_bytes, dense_bytes, flagged = None, None, False
            plan.error = plan.error or f"estimate: {type(exc).__name__}: {exc}"
        rows.append((job, plan, static_bytes, dense_bytes, flagged))
    print(f"{'kernel':58} {'specialisation':34} {'planned':>8} {'estimate':>8} {'ratio':>6} compiler ASC013")
    ratios, dense_ratios, overflow_rows, false_positives = [], [], [], []
    for job, plan, static_bytes, dense_bytes, flagged in rows:
        needed = plan.requires
        name = f"{Path(job.file).stem}:{job.kernel}"[:58]
        if plan.error or needed is None:
            print(f"{name:58} {job.label[:34]:34} {'error':>8} {static_bytes or 0:>8}  {plan.error[:60]}")
            continue
        ratio = static_bytes / needed if needed else float("nan")
        mark = "OVER    " if plan.overflow else "fits    "
        print(
            f"{name:58} {job.label[:34]:34} {needed:>8} {static_bytes:>8} {ratio:6.2f} {mark} {'FLAGGED' if flagged else ''}"
        )
        if plan.overflow:
            overflow_rows.append(flagged)
        else:
            if flagged:
                false_positives.append(job)
            if needed:
                ratios.append((job, ratio))
                dense_ratios.append((dense_bytes or 0) / needed)
    summarise(ratios, overflow_rows, false_positives)
    if dense_ratios:
        within = sum(1 for r in dense_ratios if abs(r - 1) <= TOLERANCE)
        print(
            f"the dense estimate ASC013 reports (strided tiles at their element width): median "
            f"{statistics.median(dense_ratios):.2f}, within ±{TOLERANCE:.0%}: {within}/{len(dense_ratios)}"
        )
    if json_out is not None:
        json_out.write_text(
            json.dumps(
                [
                    {
                        "file": j.file,
                        "kernel": j.kernel,
                        "label": j.label,
                        "values": j.values,
                        **vars(p),
                        "estimate": s,
                        "dense_estimate": dense,
                        "flagged": f,
                    }
                    for j, p, s, dense, f in rows
                ],
                default=repr,
                indent=1,
            )
        )


def summarise(ratios, overflow_rows, false_positives) -> None:
    values = sorted(r for _, r in ratios)
    if not values:
        print("no compiled kernel to compare")
        return
    within = sum(1 for r in values if abs(r - 1) <= TOLERANCE)
    print(f"\nkernels compiled and compared: {len(values)}")
    print(f"estimate/planned: median {statistics.median(values):.2f}, min {values[0]:.2f}, max {values[-1]:.2f}")
    bins = [(0, 0.5), (0.5, 0.75), (0.75, 1.0), (1.0, 1.25), (1.25, 1.5), (1.5, 2.0), (2.0, float("inf"))]
    for low, high in bins:
        count = sum(1 for r in values if low <= r < high)
        print(f"  [{low:.2f}, {high:.2f}) {count:4d} {'#' * count}")
    print(f"within ±{TOLERANCE:.0%}: {within}/{len(values)} = {within / len(values):.0%}")
    print(
        f"configurations the compiler rejects with ub overflow: {len(overflow_rows)}, ASC013 flags {sum(overflow_rows)}"
    )
    print(f"configurations the compiler fits that ASC013 flags: {len(false_positives)}")
    for job in false_positives:
        print(f"  {Path(job.file).name}:{job.kernel} {job.label}")


if __name__ == "__main__":
    main()
