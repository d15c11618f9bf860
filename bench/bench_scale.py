"""Does linting stay linear up to the 5 MB file limit? Check and fix time per line, in one run.

    python bench/bench_scale.py [--sizes 0.25,1,5] [--chain 160] [--repeat 3] [--checkout DIR]

Each file is real kernel code: fla-core's Ascend files concatenated (repeated as needed) and cut
at a top-level statement near the size; `--chain N` adds a kernel holding one `.to` chain of N
links. For each file it prints wall and CPU seconds and µs per line for `libcst.parse_module`
(the peer), `lint_source` (check), the check `--fix` makes (keeping a `DocumentMemory` for the
re-lint, where the checkout has one) and `fix_result` with unsafe fixes after it (the fix
pass), and their ratios to the parse, best of `--repeat` runs; `--fix` costs the last two. `--checkout DIR` lints with the ascend_lint of
another checkout (e.g. `/work/main` before a change): run both, compare the ratios. On a shared
machine compare ratios and CPU times, not wall times. The garbage a step leaves (its tree) is
collected before the next step, unmeasured: not that step's work (a run over many files collects
it while linting a later file).
"""

from __future__ import annotations

import argparse
import gc
import inspect
import re
import sys
import time
from pathlib import Path

import libcst as cst

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the corpus
sys.path.insert(  # whose ascend_lint is measured: this checkout's, or --checkout's
    0,
    sys.argv[sys.argv.index("--checkout") + 1] if "--checkout" in sys.argv[:-1] else str(Path(__file__).parent.parent),
)
from fla_corpus import fla_ascend_files

import ascend_lint
from ascend_lint.config import Settings, load_settings
from ascend_lint.engine import DocumentMemory, lint_source
from ascend_lint.fixer import fix_result

KEEPS_MEMORY = "memory" in inspect.signature(fix_result).parameters  # --fix's re-lint keeps the check's

_FUTURE = re.compile(r"^from __future__ import .*\n", re.MULTILINE)
_TOP_LEVEL = re.compile(r"^(?:@|def |class )", re.MULTILINE)


def kernel_code(size: int) -> str:
    """About `size` bytes of real kernel code that compiles."""
    corpus = "".join(_FUTURE.sub("", path.read_text(encoding="utf-8")) + "\n" for path in fla_ascend_files())
    text = corpus * (size // len(corpus.encode("utf-8")) + 1)
    cuts = [match.start() for match in _TOP_LEVEL.finditer(text) if match.start() <= size]
    for cut in reversed(cuts):
        try:
            compile(text[:cut], "<bench>", "exec")
        except SyntaxError:
            continue
        return text[:cut]
    raise RuntimeError("no cut of the corpus compiles")


def chain_code(links: int) -> str:
    """A kernel whose one statement is a `.to` chain of `links` links (issue 11's reproducer)."""
    head = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, B):\n"
    return head + "    n = B" + ".to(tl.int64)" * links + "\n"


def best(repeat: int, work, *args, collect: bool = True, **kwargs) -> tuple[float, float, object]:
    """Wall and CPU seconds of the run with the least CPU time, and its value. Before each run the
    garbage of the ones before is collected (`collect`), unmeasured: it is not this run's work."""
    runs = []
    for _ in range(repeat):
        if collect:
            gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        value = work(*args, **kwargs)
        runs.append((time.process_time() - cpu, time.perf_counter() - wall, value))
    cpu, wall, value = min(runs, key=lambda run: run[0])
    return wall, cpu, value


def check_then_fix(text: str, settings: Settings) -> list[tuple[float, float, object]]:
    """Wall and CPU seconds and the value of `--fix`'s two steps: the check, the fix pass."""
    memory = {"memory": DocumentMemory.empty()} if KEEPS_MEMORY else {}
    check = best(1, lint_source, text, "kernels.py", settings, **memory)
    return [check, best(1, fix_result, check[2], settings, unsafe=True, collect=False, **memory)]


def measure(name: str, text: str, settings: Settings, repeat: int) -> None:
    lines = text.count("\n")
    parse_wall, parse_cpu, _ = best(repeat, cst.parse_module, text)
    check_wall, check_cpu, result = best(repeat, lint_source, text, "kernels.py", settings)
    runs = [check_then_fix(text, settings) for _ in range(repeat)]
    (fcheck_wall, fcheck_cpu, _), (fix_wall, fix_cpu, (fixed, change)) = (
        min((run[step] for run in runs), key=lambda measured: measured[1]) for step in range(2)
    )
    assert result.error is None, result.error
    label = f"{name:<12} {len(text.encode()) / 2**20:5.2f} {lines:7d}"
    steps = (
        ("parse", parse_wall, parse_cpu),
        ("check", check_wall, check_cpu),
        ("check+", fcheck_wall, fcheck_cpu),
        ("fix", fix_wall, fix_cpu),
        ("--fix", fcheck_wall + fix_wall, fcheck_cpu + fix_cpu),
    )
    for step, wall, cpu in steps:
        print(f"{label} | {step:<6} {wall:7.2f} {cpu:7.2f} {cpu / lines * 1e6:8.1f} {cpu / parse_cpu:8.2f}")
    outcome = f"{len(result.findings) - len(fixed.findings)} fewer after fixing" if change else "nothing fixed"
    if fixed.error is not None:  # e.g. before one-pass fixes: "fixes did not settle after 20 passes"
        outcome = f"fix failed: {fixed.error.message}"
    print(f"{'':>26} | findings {len(result.findings)}, {outcome}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="0.25,0.5,1,2,5", help="file sizes in MB, comma-separated")
    parser.add_argument("--chain", type=int, default=0, help="also fix a `.to` chain of this many links")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--checkout", help="measure the ascend_lint of this checkout instead")
    args = parser.parse_args()
    settings = load_settings(["."], isolated=True, target_all=True)
    settings.timeout_per_file = None  # absent before --timeout-per-file: harmless there
    print(f"ascend_lint from {Path(ascend_lint.__file__).parent.parent}")
    print(f"{'file':<12} {'MB':>5} {'lines':>7} | {'step':<6} {'wall s':>7} {'cpu s':>7} {'us/line':>8} {'x parse':>8}")
    if args.chain:
        measure(f"chain {args.chain}", chain_code(args.chain), settings, args.repeat)
    for megabytes in (float(size) for size in args.sizes.split(",") if size):
        measure("kernels", kernel_code(int(megabytes * 1024 * 1024)), settings, args.repeat)


if __name__ == "__main__":
    main()
