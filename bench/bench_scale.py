"""Does linting stay linear up to the 5 MB file limit? Check and fix time per line, in one run.

    python bench/bench_scale.py [--sizes 0.25,1,5] [--chain 160] [--repeat 3] [--checkout DIR]

Each file is real kernel code: fla-core's Ascend files concatenated (repeated as needed) and cut
at a top-level statement near the size; `--chain N` adds a kernel holding one `.to` chain of N
links. For each file it prints wall and CPU seconds, µs per line and the ratio to the peer,
libcst's `parse_module` of the same text, of each step:

- in this process: `lint_source` (check); the check `--fix` makes (check+, keeping a
  `DocumentMemory` for the re-lint, where the checkout has one), `fix_result` with unsafe fixes
  after it (fix), and the two together (--fix);
- the command line a user runs, in a fresh process (CPU from its rusage, start-up included):
  `ascend-lint check --isolated --no-cache --target-all` (cli) and the same with
  `--fix --unsafe-fixes` (cli --fix) on a fresh copy of the file, which must end as `fix_result`'s.

A round runs each step once; each step's best round (least CPU) is printed, of `--repeat`
rounds. `--checkout DIR` measures the ascend_lint of another checkout (e.g. `/work/main` before
a change; the command line too, through PYTHONPATH): run both, compare the ratios. On a shared
machine compare ratios and CPU times, not wall times. The garbage a step leaves (its tree) is
collected before the next step, unmeasured: not that step's work (a run over many files collects
it while linting a later file), except the check's before the fix pass, as in `--fix`.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

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
from ascend_lint.model import FileResult

KEEPS_MEMORY = "memory" in inspect.signature(fix_result).parameters  # --fix's re-lint keeps the check's
CLI_ENVIRONMENT = {**os.environ, "PYTHONPATH": str(Path(ascend_lint.__file__).parent.parent)}
T = TypeVar("T")

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


def timed(work: Callable[[], T], *, collect: bool = True) -> tuple[float, float, T]:
    """Wall and CPU seconds of `work()`, and its value. The garbage of the steps before is
    collected first (`collect`), unmeasured: it is not this step's work."""
    if collect:
        gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    value = work()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def command_line(options: list[str], path: Path, text: str) -> tuple[float, float, str]:
    """Wall and CPU seconds (its rusage) of `ascend-lint check <bench's options> <options>`
    on a fresh copy of `text` at `path`, in a fresh process running the measured checkout's
    code; and the file's text after it."""
    path.write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--no-cache", "--target-all", *options]
    command.append(path.name)
    wall = time.perf_counter()
    process = subprocess.Popen(command, cwd=path.parent, env=CLI_ENVIRONMENT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - wall
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    if process.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited with status {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, path.read_text(encoding="utf-8")


def one_round(
    text: str, settings: Settings, path: Path
) -> tuple[dict[str, tuple[float, float]], FileResult, FileResult]:
    """Wall and CPU seconds of each step once; the check's result and the fixed file's."""
    parse = timed(lambda: cst.parse_module(text))[:2]  # the tree goes before the next step
    check = timed(lambda: lint_source(text, "kernels.py", settings))
    memory: dict[str, Any] = {"memory": DocumentMemory.empty()} if KEEPS_MEMORY else {}
    fix_check = timed(lambda: lint_source(text, "kernels.py", settings, **memory))
    fix = timed(lambda: fix_result(fix_check[2], settings, unsafe=True, **memory), collect=False)
    fixed, change = fix[2]
    cli_check = command_line([], path, text)
    cli_fix = command_line(["--fix", "--unsafe-fixes"], path, text)
    assert cli_fix[2] == (change.fixed if change else text), "the command line fixed the file otherwise"
    steps = {
        "parse": parse,
        "check": check[:2],
        "check+": fix_check[:2],
        "fix": fix[:2],
        "--fix": (fix_check[0] + fix[0], fix_check[1] + fix[1]),
        "cli": cli_check[:2],
        "cli --fix": cli_fix[:2],
    }
    return steps, check[2], fixed


def measure(name: str, text: str, settings: Settings, repeat: int, folder: Path) -> None:
    """Print each step's best of `repeat` rounds (the least CPU time)."""
    lines = text.count("\n")
    rounds = [one_round(text, settings, folder / "kernels.py") for _ in range(repeat)]
    _, result, fixed = rounds[-1]
    assert result.error is None, result.error
    best = {step: min((times[step] for times, _, _ in rounds), key=lambda run: run[1]) for step in rounds[0][0]}
    label = f"{name:<12} {len(text.encode()) / 2**20:5.2f} {lines:7d}"
    for step, (wall, cpu) in best.items():
        print(f"{label} | {step:<9} {wall:7.2f} {cpu:7.2f} {cpu / lines * 1e6:8.1f} {cpu / best['parse'][1]:8.2f}")
    outcome = f"{len(fixed.findings)} after --fix"
    if fixed.error is not None:  # e.g. before one-pass fixes: "fixes did not settle after 20 passes"
        outcome = f"fix failed: {fixed.error.message}"
    print(f"{'':>26} | findings {len(result.findings)}, {outcome}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="0.25,0.5,1,2,5", help="file sizes in MB, comma-separated")
    parser.add_argument("--chain", type=int, default=0, help="also fix a `.to` chain of this many links")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many rounds")
    parser.add_argument("--checkout", help="measure the ascend_lint of this checkout instead")
    args = parser.parse_args()
    settings = load_settings(["."], isolated=True, target_all=True)
    settings.timeout_per_file = None  # absent before --timeout-per-file: harmless there
    print(f"ascend_lint from {CLI_ENVIRONMENT['PYTHONPATH']}")
    print(f"{'file':<12} {'MB':>5} {'lines':>7} | {'step':<9} {'wall s':>7} {'cpu s':>7} {'us/line':>8} {'x parse':>8}")
    files = [(f"chain {args.chain}", chain_code(args.chain))] if args.chain else []
    files += [("kernels", kernel_code(int(float(size) * 2**20))) for size in args.sizes.split(",") if size]
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files:
            measure(name, text, settings, args.repeat, Path(folder))


if __name__ == "__main__":
    main()
