"""``--backend compile``: judge a finding by compiling variants of its kernel (no device).

:func:`judge_with_compiler` is the backend's entry (see :mod:`..backends`); it runs in a replay
child and looks up what to compile in :data:`.evidence.JUDGES` by the job's evidence kind.
"""

from __future__ import annotations

from pathlib import Path

from .. import toolchain
from ..jobs import ReplayJob
from ..verdicts import Outcome, inconclusive
from .compiler import Compiler
from .evidence import JUDGES, judge_launches

BACKEND = "compile"
COLLECTS = frozenset(JUDGES)  # the evidence kinds this backend can collect


class FindingCompiler(Compiler):
    """A compiler for the kernel of one finding, holding the job it serves."""

    def __init__(self, job: ReplayJob, workdir: Path, chain: toolchain.Toolchain) -> None:
        assert job.kernel is not None
        super().__init__(job.kernel, workdir, chain)
        self.job = job


def judge_with_compiler(job: ReplayJob, workdir: Path) -> Outcome:
    """Judge one finding with the compile backend, compiling for its file's `target-soc`."""
    target = job.compile_target()
    if job.evidence not in COLLECTS:
        reason = f"the compile backend cannot collect {job.evidence.value} evidence"
        return inconclusive(job.finding, BACKEND, reason, target=target.to_json())
    try:
        chain = toolchain.activate(workdir, job.device, target)
    except toolchain.ToolchainMissing as missing:
        return inconclusive(job.finding, BACKEND, str(missing), target=target.to_json())
    compiler = FindingCompiler(job, workdir, chain)
    verdict, evidence = judge_launches(JUDGES[job.evidence], compiler)
    return Outcome(job.finding, verdict, BACKEND, evidence, compiler.reports(), target=target.to_json())
