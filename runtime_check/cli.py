"""``ascend-lint confirm``: replay flagged kernels and give every finding a verdict.

``ascend_lint.cli`` lints the requested paths and hands the results (findings with their
facts) to :func:`run`. Exit codes: 0 no finding confirmed, 1 at least one confirmed, 2 the
workload could not run (or bad usage, or the runtime extra is missing while a finding needs a
replay); 130 / 143 / 129 when SIGINT / SIGTERM / SIGHUP stopped it (every child process killed,
the temporary files removed, no verdicts).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ascend_lint.config import Settings, positive_int
from ascend_lint.engine import relative_display
from ascend_lint.model import FileResult, Finding

from . import backends
from .capture.launches import Capture
from .capture.recorder import capture_launches
from .capture.workload import Workload
from .device import DEFAULT_MODEL, MODELS
from .jobs import ReplayJob, launched_elsewhere, match, unlaunched, unreached_launch
from .process import run_all
from .replay_child import memory_in_subprocess, replay_batch_in_subprocess
from .report import ConfirmReport, errors_json, render_json, render_sarif, render_text, summary
from .toolchain import runtime_missing
from .verdicts import Outcome, Verdict, inconclusive

DEFAULT_TIMEOUT = 300.0
MAX_MEMORY_SPECIALISATIONS = 3


def _positive_seconds(value: str) -> float:
    seconds = float(value)
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {value}")
    return seconds


def configure(parser: argparse.ArgumentParser) -> None:
    """Add confirm's own options; ``ascend_lint.cli`` adds PATHS and the selection options."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--workload",
        type=Path,
        metavar="W",
        help="a Python file defining workload(), which calls your ops with small inputs",
    )
    source.add_argument(
        "--pytest",
        metavar="ARGS",
        help='run your own tests as the workload: pytest arguments, e.g. "tests/ops/test_x.py -k small"',
    )
    parser.add_argument(
        "--device",
        choices=sorted(MODELS),
        default=DEFAULT_MODEL,
        help=f"the Ascend model simulated for host code without an NPU (default {DEFAULT_MODEL}); "
        "the compile backend compiles for it the files whose target-soc is its family",
    )
    parser.add_argument(
        "--backend",
        choices=backends.CHOICES,
        default="auto",
        help="how to replay: compile (real Ascend compiler, no device), interpret, npu, or auto "
        "(per finding, the strongest backend available for its rule)",
    )
    parser.add_argument(
        "--memory",
        action="store_true",
        help="print each captured kernel's planned UB / L1 / L0C usage with its largest buffers",
    )
    parser.add_argument("--output-format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds allowed for the workload capture and for each replay (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="replay processes run at once (default: number of CPUs)",
    )


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _planned(
    plans: list[tuple[Finding, backends.Plan]],
    capture: Capture,
    args: argparse.Namespace,
    workload: Workload,
    settings: Settings,
) -> list[ReplayJob | Outcome]:
    """A replay job per finding, or its INCONCLUSIVE outcome when there is nothing to replay."""
    sources: dict[str, str] = {}
    planned: list[ReplayJob | Outcome] = []
    for finding, plan in plans:
        if plan.evidence is None or plan.backend is None:  # nothing replayed: no backend judged it
            planned.append(inconclusive(finding, None, plan.reason or "nothing to replay"))
            continue
        if finding.filename not in sources:
            sources[finding.filename] = Path(finding.filename).read_text()
        kernel, launches = match(finding, sources[finding.filename], capture)
        if kernel is None:
            why = f" ({capture.stopped()})" if capture.stopped() else ""
            kernel_name = unlaunched(finding, sources[finding.filename])
            launch_row = unreached_launch(finding, sources[finding.filename])
            if kernel_name:
                reason = f"the workload never launched {kernel_name}{why}"
            elif launch_row is not None:  # another launch's options are no evidence about its own
                reason = f"the workload never made the launch at line {launch_row}{why}"
            else:
                reason = f"the workload launched no kernel this finding belongs to{why}"
            elsewhere = launched_elsewhere(finding, sources[finding.filename], capture)
            planned.append(inconclusive(finding, plan.backend, f"{reason}; {elsewhere}" if elsewhere else reason))
        else:
            soc = settings.soc(finding.filename).name
            job = ReplayJob(finding, plan.backend, plan.evidence, workload, kernel, launches, args.device, soc)
            planned.append(job)
    return planned


def batches(jobs: list[ReplayJob], workers: int) -> list[list[ReplayJob]]:
    """Jobs in batches, each judged by one process: per backend (a process runs one), at most
    ``workers`` batches of near-equal size, jobs of one kernel file together so that a process
    imports the user's package once."""
    grouped: list[list[ReplayJob]] = []
    for backend in sorted({job.backend for job in jobs}):
        mine = sorted(
            (job for job in jobs if job.backend == backend),
            key=lambda job: (job.kernel.file if job.kernel else "", job.finding.location),
        )
        count = min(max(1, workers), len(mine))
        size, extra = divmod(len(mine), count)
        cuts = [i * size + min(i, extra) for i in range(count + 1)]
        grouped += [mine[cuts[i] : cuts[i + 1]] for i in range(count)]
    return grouped


def _replay_all(planned: list[ReplayJob | Outcome], args: argparse.Namespace) -> list[Outcome]:
    jobs = [p for p in planned if isinstance(p, ReplayJob)]
    grouped = batches(jobs, args.jobs)
    finished = 0

    def done(index: int, outcomes: list[Outcome]) -> None:
        nonlocal finished
        for outcome in outcomes:
            finished += 1
            f = outcome.finding
            _progress(
                f"  [{finished}/{len(jobs)}] {f.code} {f.filename}:{f.location.row} "
                f"{outcome.verdict.value} ({outcome.backend}, {outcome.seconds:.1f} s)"
            )

    if jobs:
        _progress(
            f"replaying {len(jobs)} finding(s) in {len(grouped)} process(es) (timeout {args.timeout:g} s per finding)"
        )
    tasks = [functools.partial(replay_batch_in_subprocess, batch, args.timeout) for batch in grouped]
    results = run_all(tasks, args.jobs, done)
    by_job = {
        id(job): outcome
        for batch, outcomes in zip(grouped, results, strict=True)
        for job, outcome in zip(batch, outcomes, strict=True)
    }
    return [by_job[id(p)] if isinstance(p, ReplayJob) else p for p in planned]


def _memory_plans(
    results: list[FileResult], capture: Capture, args: argparse.Namespace, workload: Workload, settings: Settings
) -> list[dict[str, Any]]:
    linted = {os.path.realpath(r.filename) for r in results}
    kernels = list(dict.fromkeys(x.kernel for x in capture.launches if x.kernel.file in linted))
    _progress(f"compiling {len(kernels)} kernel(s) for their memory plans")
    tasks = [
        functools.partial(
            memory_in_subprocess,
            kernel,
            capture.for_kernel(kernel)[:MAX_MEMORY_SPECIALISATIONS],
            workload,
            args.device,
            args.timeout,
            settings.soc(kernel.file).name,
        )
        for kernel in kernels
    ]
    plans = run_all(tasks, args.jobs, lambda index, plan: None)
    return [plan for kernel_plans in plans for plan in kernel_plans]


def confirm(args: argparse.Namespace, settings: Settings, lint: Callable[[], list[FileResult]]) -> int:
    """``ascend-lint confirm``: :func:`run` on what ``lint`` gives. ``ascend_lint.cli`` calls it
    under :func:`process.stoppable`, entered before it parses the arguments (so a signal while it
    imports and lints says so too): SIGINT (Ctrl-C), SIGTERM or SIGHUP (a closed terminal) stops
    it, every child process (the workload, the replays) is killed, the temporary files are
    removed and the exit code is 128 + the signal's number, as a shell reports it."""
    return run(args, settings, lint())


def _capture(workload: Workload, args: argparse.Namespace, found: str) -> Capture:
    """The launches ``workload`` makes, the progress said on stderr."""
    _progress(f"{found}; capturing launches from {workload.describe()} on a simulated {args.device}")
    start = time.perf_counter()
    capture = capture_launches(workload, args.device, args.timeout)
    kernels = {x.kernel for x in capture.launches}
    seconds = time.perf_counter() - start
    repeats = f"; {capture.dropped} more repeating a kept specialisation" if capture.dropped else ""
    _progress(f"captured {len(capture.launches)} launch(es) of {len(kernels)} kernel(s){repeats} ({seconds:.1f} s)")
    if capture.error:
        _progress(f"the workload stopped with an error:\n{capture.error.rstrip()}")
    return capture


def _nothing_to_replay(plans: list[tuple[Finding, backends.Plan]], requested: str) -> str:
    """Why none of the findings is replayed: rules that replay nothing (ASC009-ASC012), or
    rules that replay nothing on the ``requested`` backend, each with the backend that does."""
    nowhere = sorted({finding.code for finding, plan in plans if plan.backend is None})
    elsewhere = {finding.code: finding for finding, plan in plans if plan.backend is not None}
    said = [f"of rules with nothing to replay ({', '.join(nowhere)})"] if nowhere else []
    if elsewhere:
        replaying = "; ".join(
            f"{code}: --backend {backends.plan('auto', elsewhere[code]).backend} replays it"
            for code in sorted(elsewhere)
        )
        said.append(f"{'or' if nowhere else 'of rules with'} nothing to replay on --backend {requested} ({replaying})")
    return " ".join(said)


def run(args: argparse.Namespace, settings: Settings, results: list[FileResult]) -> int:
    """Confirm the findings in ``results`` (the linted PATHS) with the workload in ``args``."""
    findings = [f for r in results for f in r.findings]
    # what runs on the chosen backend: no evidence for a rule that declares none (ASC009-ASC012), nor
    # for one whose evidence only another backend collects (ASC003 on --backend compile)
    plans = [(finding, backends.plan(args.backend, finding)) for finding in findings]
    replays = args.memory or any(plan.evidence is not None for _, plan in plans)
    # the extra (triton-ascend, torch) runs the workload and the replays: not needed when nothing is run
    missing = runtime_missing()
    if missing and replays:
        _progress(f"ascend-lint confirm: {missing}")
        return 2
    if args.workload is not None and not args.workload.is_file():
        _progress(f"ascend-lint confirm: workload {args.workload} not found")
        return 2
    workload = Workload(str(args.workload.resolve()) if args.workload else None, args.pytest, os.getcwd())
    for result in results:
        if result.error:  # as `check` prints it, with its position
            error = result.error
            _progress(f"{error.where(relative_display(error.filename))}: error: {error.message}")
    # as `check`: a file of PATHS that could not be linted (a syntax error, a missing path) is an error
    failed = any(r.error for r in results)
    if not findings and not args.memory:
        _progress(f"no findings to confirm in {len(results)} file(s)")
        if args.output_format != "text":  # still a JSON document / SARIF log, for the tools reading it
            _write(
                ConfirmReport(workload.describe(), args.backend, [], errors=errors_json(results)),
                args,
                results,
                settings,
            )
        return 2 if failed else 0
    if replays:
        capture = _capture(workload, args, f"{len(findings)} finding(s) in {len(results)} file(s)")
    else:  # every verdict is known without a launch: the workload is not run
        extra = f", without the runtime extra, which nothing here needs ({missing.split(';')[0]})" if missing else ""
        _progress(
            f"{len(findings)} finding(s) in {len(results)} file(s), {_nothing_to_replay(plans, args.backend)}: "
            f"{workload.describe()} is not run{extra}"
        )
        capture = Capture(workload.describe())
    planned = _planned(plans, capture, args, workload, settings)
    outcomes = _replay_all(planned, args)
    memory = _memory_plans(results, capture, args, workload, settings) if args.memory else []
    flagged = {p.kernel for p in planned if isinstance(p, ReplayJob)}
    report = ConfirmReport(
        workload.describe(), args.backend, outcomes, memory, capture.error, capture.tests(flagged), errors_json(results)
    )
    _write(report, args, results, settings)
    if args.output_format != "text":
        _progress(summary(report))
    if failed or (capture.error and not capture.launches):
        return 2
    return 1 if any(o.verdict is Verdict.CONFIRMED for o in outcomes) else 0


def _write(report: ConfirmReport, args: argparse.Namespace, results: list[FileResult], settings: Settings) -> None:
    if args.output_format == "text":
        sys.stdout.write(render_text(report))
    elif args.output_format == "json":
        sys.stdout.write(render_json(report))
    else:
        sys.stdout.write(render_sarif(report, results, settings) + "\n")
