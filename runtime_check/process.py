"""Child processes with a timeout: every piece of user code (workloads, kernel modules) runs in one.

``run_child(module, task, timeout)`` writes the task as JSON and starts ``python -m module TASK
RESULT``. The child imports ascend_lint from this process's package root — so it runs the same
ascend_lint whatever its working directory or PYTHONPATH holds (a source checkout next to an
installed wheel, another worktree) — and then takes that root off ``sys.path`` again: the code
it runs finds its imports as plain ``python`` would, PYTHONPATH ahead of site-packages. The
child writes RESULT; a crash, a hang (its process group is killed at the timeout) or a missing
result becomes a :class:`Finished` without a result, and the caller turns that into an
INCONCLUSIVE verdict with the reason. What the child appended to :func:`progress_file` until
then (one JSON value a line, flushed as it goes: the launches a workload made before it hung or
crashed) is kept. The child's temporary files go to a directory
this process removes afterwards (``TMPDIR``), also when the child was killed.

Stopping: every child runs in its own session (a terminal's Ctrl-C reaches only this process)
and dies with the process that started it (Linux's parent-death signal, so a child of a child
killed at its timeout goes too). Under :func:`stopped_by_signals`, SIGINT, SIGTERM and SIGHUP
(``STOP_SIGNALS``) raise :class:`Interrupted` in the main thread; :func:`stop_children` then kills the process group of
every child still running, and no new one starts.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import ascend_lint

_STDERR_TAIL = 6  # lines of a failed child's stderr shown in the reason
_STDERR_KEPT = 64 * 1024  # bytes of stderr read back (a child may print gigabytes)
PACKAGE_ROOT = str(Path(ascend_lint.__file__).resolve().parents[1])
# The child imports ascend_lint from this process's root, then takes the root off ``sys.path``
# again: ascend_lint's submodules come through its package path, and the workload sees the
# ``sys.path`` Python gives it (PYTHONPATH ahead of site-packages) — with a regular install the
# root *is* site-packages, which left first would hide the user's checkout from the workload.
_BOOTSTRAP = (
    "import runpy, sys; root, module, parent = sys.argv[1:4]; del sys.argv[1:4]; sys.path.insert(0, root); "
    "from ascend_lint.runtime_check.process import follow_parent; sys.path.remove(root); "
    "follow_parent(int(parent)); runpy.run_module(module, run_name='__main__', alter_sys=True)"
)
_PR_SET_PDEATHSIG = 1
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # Ctrl-C, `kill`/CI runners, a closed terminal
T = TypeVar("T")


class Interrupted(BaseException):
    """SIGINT, SIGTERM or SIGHUP arrived (a BaseException, as KeyboardInterrupt: no ``except Exception``
    in the way catches it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class _Children:
    """The children running now (their process groups), and whether new ones may start."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running: set[int] = set()
        self.stopping = False


_children = _Children()


def follow_parent(parent: int) -> None:
    """In a child: die with ``parent`` (SIGKILL when it ends, however it ends; Linux), and at
    once when it has already gone."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def stop_children() -> None:
    """Kill every running child with its process group; start no new one."""
    with _children.lock:
        _children.stopping = True
        groups = list(_children.running)
    for group in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """``STOP_SIGNALS`` raise :class:`Interrupted` in the main thread, the first one only (the
    others are ignored while the caller stops its children); the handlers are restored after,
    and children may start again."""
    _children.stopping = False
    if threading.current_thread() is not threading.main_thread():  # only the main thread takes signals
        yield
        return
    caught: list[int] = []

    def interrupt(signum: int, frame: object) -> None:
        if not caught:
            caught.append(signum)
            raise Interrupted(signum)

    previous = {signum: signal.signal(signum, interrupt) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            if handler is not None:  # None: a handler not set from Python, which cannot be restored
                signal.signal(signum, handler)
        _children.stopping = False  # the run is over: its children are gone


def stoppable(run: Callable[[], int], what: str) -> int:
    """``run()`` under :func:`stopped_by_signals`: interrupted, every child is killed, ``what``
    (the command) says so on stderr and the exit code is 128 + the signal's number, as a shell
    reports it. The caller's temporary directories are removed as the exception leaves them."""
    with stopped_by_signals():
        try:
            return run()
        except Interrupted as interrupted:
            stop_children()
            print(
                f"{what}: interrupted by {signal.Signals(interrupted.signum).name}: stopped every "
                "process it started (the workload, the replays) and removed its temporary files; no verdicts",
                file=sys.stderr,
                flush=True,
            )
            return 128 + interrupted.signum


def progress_file(result: Path) -> Path:
    """Where a child appends what it has done so far, one JSON value a line, flushed as it goes:
    read back when it leaves no RESULT."""
    return result.with_name("progress.jsonl")


def _read_progress(path: Path) -> list[Any]:
    values = []
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            try:
                values.append(json.loads(line))
            except ValueError:  # the line being written when the child died
                break
    return values


@dataclass
class Finished:
    """What a child process left: its result (if any), exit code, stderr tail and duration, and
    what it appended to :func:`progress_file`."""

    result: Any
    returncode: int | None
    stderr: str
    seconds: float
    timed_out: bool = False
    progress: list[Any] = field(default_factory=list)

    def ended(self, timeout: float) -> str:
        """How the child ended without a result: "timed out after 60 s", "exited with code 7",
        "was killed by signal SIGSEGV"."""
        if self.timed_out:
            return f"timed out after {timeout:g} s"
        code = self.returncode or 0
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            return f"was killed by signal {name}"
        return f"exited with code {code}"

    def stderr_tail(self) -> str:
        """The last lines of the child's stderr, after a colon, to end a reason ("" when it printed none)."""
        tail = "\n".join(self.stderr.strip().splitlines()[-_STDERR_TAIL:])
        return f":\n{tail}" if tail else ""

    def failure(self, timeout: float) -> str:
        """Why the child left no result, in one sentence and the tail of its stderr."""
        if self.timed_out:
            return self.ended(timeout)
        how = self.ended(timeout) + (" without a result" if (self.returncode or 0) >= 0 else "")
        return f"the child process {how}{self.stderr_tail()}"


def _start(command: list[str], stderr: Any, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Start a child in its own session, registered for :func:`stop_children` (none once stopping)."""
    with _children.lock:
        if _children.stopping:  # a thread of run_all after the main thread was interrupted
            raise Interrupted(signal.SIGTERM)
        child = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
            start_new_session=True,
        )
        _children.running.add(child.pid)
    return child


def _kill(child: subprocess.Popen[bytes]) -> None:
    """Kill the child's process group (what the child left running too) and reap the child."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    with _children.lock:
        _children.running.discard(child.pid)


def run_child(module: str, task: Any, timeout: float) -> Finished:
    """Run ``python -m module TASK RESULT`` with JSON files; kill its process group at the timeout
    (and when this process is interrupted: the exception goes on once the child is gone)."""
    with tempfile.TemporaryDirectory(prefix="ascend-lint-") as tmp:
        task_path, result_path = Path(tmp) / "task.json", Path(tmp) / "result.json"
        task_path.write_text(json.dumps(task))
        child_tmp = Path(tmp) / "tmp"
        child_tmp.mkdir()
        start = time.perf_counter()
        with open(Path(tmp) / "stderr", "w+b") as stderr:
            command = [sys.executable, "-c", _BOOTSTRAP, PACKAGE_ROOT, module, str(os.getpid())]
            child = _start(
                [*command, str(task_path), str(result_path)], stderr, {**os.environ, "TMPDIR": str(child_tmp)}
            )
            timed_out = False
            try:
                child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                _kill(child)
            stderr.seek(max(0, stderr.seek(0, os.SEEK_END) - _STDERR_KEPT))
            text = stderr.read().decode(errors="replace")
        seconds = time.perf_counter() - start
        result = json.loads(result_path.read_text()) if result_path.exists() else None
        progress = _read_progress(progress_file(result_path)) if result is None else []
        return Finished(result, child.returncode, text, seconds, timed_out, progress)


def run_all(tasks: Sequence[Callable[[], T]], jobs: int, done: Callable[[int, T], None]) -> list[T]:
    """Run tasks on ``jobs`` threads (each starts its own subprocess); report each as it ends.
    Interrupted, it kills the children running and waits for the threads (none starts another)."""
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        futures = [pool.submit(task) for task in tasks]
        results = []
        for index, future in enumerate(futures):
            results.append(future.result())
            done(index, results[-1])
        return results
    except (Interrupted, KeyboardInterrupt):
        stop_children()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
