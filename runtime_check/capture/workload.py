"""Running a user's workload: a file defining ``workload()``, or a pytest selection.

Used by every process that runs user code (the launch capture, the interpreter's value capture).
Failures are returned as text, never raised, so the launches made so far still count. A pytest
workload's failing tests are not failures of the workload: under capture no kernel computes
anything, so the tests' assertions are expected to fail; only a run that cannot start (a usage
error, a collection error, no test selected) is.
"""

from __future__ import annotations

import os
import runpy
import shlex
import sys
import traceback
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

RUN_NAME = "__ascend_lint_workload__"


@dataclass(frozen=True)
class Workload:
    """What to run: ``file`` (defining ``workload()``) or ``pytest`` arguments, run from ``cwd``."""

    file: str | None = None
    pytest: str | None = None
    cwd: str = "."

    def describe(self) -> str:
        return self.file if self.file is not None else f"pytest {self.pytest}"

    def sys_path(self) -> list[str]:
        """Where the workload's own imports are found: its folder (for a file) and ``cwd``."""
        folder = [str(Path(self.file).resolve().parent)] if self.file else []
        return [*folder, self.cwd]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Workload:
        return cls(**data)


_running_test: list[str] = []  # the pytest node running now, while one is


def current_test() -> str | None:
    """The pytest node running now (``--pytest`` workloads), or None."""
    return _running_test[-1] if _running_test else None


def _test_tracker() -> object:
    """A pytest plugin that records which test is running."""
    import pytest

    class TestTracker:
        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_call(self, item: Any) -> Iterator[None]:
            _running_test.append(item.nodeid)
            try:
                return (yield)
            finally:
                _running_test.pop()

    return TestTracker()


_PYTEST_CANNOT_RUN = {2: "interrupted", 3: "internal error", 4: "usage error", 5: "no tests collected"}


def _run_pytest(arguments: str) -> str | None:
    import pytest

    code = pytest.main([*shlex.split(arguments), "-q", "-p", "no:cacheprovider"], plugins=[_test_tracker()])
    if int(code) in _PYTEST_CANNOT_RUN:
        return f"pytest {arguments} could not run: {_PYTEST_CANNOT_RUN[int(code)]} (exit code {int(code)})"
    return None


def _run_file(path: Path) -> str | None:
    sys.argv = [str(path)]
    entry = runpy.run_path(str(path), run_name=RUN_NAME).get("workload")
    if not callable(entry):
        raise RuntimeError(f"{path} defines no workload() function")
    entry()
    return None


def run_workload(workload: Workload) -> str | None:
    """Run the workload in this process; the error text, if it failed."""
    sys.path[:0] = workload.sys_path()
    os.chdir(workload.cwd)
    try:
        if workload.file is not None:
            return _run_file(Path(workload.file).resolve())
        return _run_pytest(workload.pytest or "")
    except (Exception, SystemExit):  # sys.exit() in user code ends the workload, not the process
        return traceback.format_exc(limit=-4)
