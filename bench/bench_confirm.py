"""Seconds per confirmed finding: ``ascend-lint confirm --backend compile`` on the runtime fixtures.

Wall-clock time of whole ``confirm`` runs (lint, workload capture, replays in worker
subprocesses) divided by the findings they confirm. Needs the runtime extra.

    python bench/bench_confirm.py [--jobs N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import time
from pathlib import Path

from ascend_lint.cli import main as ascend_lint

RUNTIME = Path(__file__).resolve().parent.parent / "fixtures" / "runtime"
CASES = [
    ("asc001_launch_options.py", "workload_asc001.py"),
    ("asc002_index_casts.py", "workload_asc002.py"),
    ("asc004_optional_state.py", "workload_asc004.py"),
    ("asc005_tail_dma.py", "workload_asc005.py"),
]


def confirm(kernels: str, workload: str, jobs: int) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        ascend_lint(
            [
                "confirm",
                str(RUNTIME / "triton_ascend" / kernels),
                "--workload",
                str(RUNTIME / workload),
                "--backend",
                "compile",
                "--isolated",
                "--output-format",
                "json",
                "--jobs",
                str(jobs),
            ]
        )
    return json.loads(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    jobs = parser.parse_args().jobs
    total_seconds, total_confirmed = 0.0, 0
    for kernels, workload in CASES:
        start = time.perf_counter()
        summary = confirm(kernels, workload, jobs)["summary"]
        seconds = time.perf_counter() - start
        total_seconds += seconds
        total_confirmed += summary["confirmed"]
        print(
            f"{kernels:<28} {summary['confirmed']} confirmed, {summary['refuted']} refuted, "
            f"{summary['inconclusive']} inconclusive in {seconds:5.1f} s"
        )
    per = total_seconds / total_confirmed if total_confirmed else float("nan")
    print(
        f"total: {total_confirmed} confirmed in {total_seconds:.1f} s wall ({jobs} jobs) "
        f"= {per:.2f} s per confirmed finding"
    )


if __name__ == "__main__":
    main()
