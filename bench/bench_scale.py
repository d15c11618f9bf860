"""Does linting stay linear up to the 5 MB file limit? Check and fix time per line, in one run.

    python bench/bench_scale.py [--sizes 0.25,1,5] [--repeat 1]

Each file is real kernel code: fla-core's Ascend files concatenated (repeated as needed) and cut
at a top-level statement near the size. For each size it prints wall and CPU seconds and µs per
line for `libcst.parse_module` (the peer), `lint_source` (check) and `fix_result` with unsafe
fixes (the fix pass: edits, one names check, one re-lint), and their ratios to the parse. On a
shared machine compare ratios and CPU times, not wall times.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import libcst as cst

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the corpus
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's ascend_lint
from fla_corpus import fla_ascend_files

from ascend_lint.config import load_settings
from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result

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


def timed(work, *args, **kwargs) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = work(*args, **kwargs)
    return time.perf_counter() - wall, time.process_time() - cpu, value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="0.25,0.5,1,2,5", help="file sizes in MB, comma-separated")
    args = parser.parse_args()
    settings = load_settings(["."], isolated=True, target_all=True)
    settings.timeout_per_file = None
    print(f"{'MB':>5} {'lines':>7} | {'step':<6} {'wall s':>7} {'cpu s':>7} {'us/line':>8} {'x parse':>8}")
    for megabytes in (float(size) for size in args.sizes.split(",")):
        text = kernel_code(int(megabytes * 1024 * 1024))
        lines = text.count("\n")
        parse_wall, parse_cpu, _ = timed(cst.parse_module, text)
        check_wall, check_cpu, result = timed(lint_source, text, "kernels.py", settings)
        fix_wall, fix_cpu, (fixed, change) = timed(fix_result, result, settings, unsafe=True)
        assert result.error is None and fixed.error is None, (result.error, fixed.error)
        label = f"{len(text.encode()) / 2**20:5.2f} {lines:7d}"
        steps = (("parse", parse_wall, parse_cpu), ("check", check_wall, check_cpu), ("fix", fix_wall, fix_cpu))
        for step, wall, cpu in steps:
            print(f"{label} | {step:<6} {wall:7.2f} {cpu:7.2f} {cpu / lines * 1e6:8.1f} {cpu / parse_cpu:8.2f}")
        print(f"{'':>13} | findings {len(result.findings)}, fixed {sum(change.counts.values()) if change else 0}")


if __name__ == "__main__":
    main()
