"""``confirm``'s child processes, with real processes throughout:

- SIGINT (a terminal's Ctrl-C, sent to the foreground process group) or SIGTERM (CI runners,
  ``timeout``: to the ``confirm`` process alone) stops ``confirm`` within seconds, with every
  process it started — the workload capture, the replays and what they started — and its
  temporary files; it says so and exits 130 / 143, without a traceback;
- the launches a workload made before it hung, called ``os._exit`` or crashed still count;
- a file that is another copy of the module the workload imports (a checkout linted, the
  installed wheel launched) is named in the reason, with what to do.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ascend_lint.runtime_check.toolchain import missing_reason

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.skipif(missing_reason() is not None, reason=f"runtime extra missing: {missing_reason()}"),
]

REPO = Path(__file__).resolve().parent.parent
RUNTIME = REPO / "fixtures" / "runtime"
KERNELS = RUNTIME / "triton_ascend" / "asc002_index_casts.py"  # 3 findings, lines 11, 18 and 25
STOPPED_WITHIN = 5.0  # seconds from the signal to confirm's exit (measured: 0.1-0.3 s)

# A kernel module that hangs where HANG_IN says, after starting a `sleep` of its own (a process
# of the workload's): in the capture (the workload runs) or in a replay (the module is imported
# again to be compiled). Each hanging process writes its pid and its sleep's pid to MARKERS.
HANGING_HEADER = """\
import os, subprocess, sys, time
from pathlib import Path


def _hang():
    sleeper = subprocess.Popen(["sleep", "600"])
    Path(os.environ["MARKERS"], str(os.getpid())).write_text(f"{os.getpid()} {sleeper.pid}")
    time.sleep(600)


if os.environ.get("HANG_IN") == "replay" and sys.argv[0].endswith("replay_child.py"):
    _hang()
"""
HANGING_WORKLOAD = """\
import os, sys
sys.path.insert(0, {root!r})


def workload():
    import torch
    from pkg_ascend.kernels import _hang, copy_row, copy_row_runtime, double_packed

    x = torch.randn(8, 32)
    copy_row(x, 2)
    copy_row_runtime(x, 3)
    double_packed(x, 2)
    if os.environ.get("HANG_IN") == "capture":
        _hang()
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent to reap it does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _hanging_confirm(tmp_path: Path, hang_in: str) -> tuple[subprocess.Popen[str], list[int], Path]:
    """``confirm`` started on the hanging module, in its own process group (as a terminal's
    foreground job), once the processes that hang have started: it, their pids, its TMPDIR."""
    package = tmp_path / "pkg_ascend"
    package.mkdir()
    (package / "kernels.py").write_text(HANGING_HEADER + KERNELS.read_text())
    workload = tmp_path / "workload.py"
    workload.write_text(HANGING_WORKLOAD.format(root=str(tmp_path)))
    markers, scratch = tmp_path / "markers", tmp_path / "tmp"
    markers.mkdir()
    scratch.mkdir()
    env = {**os.environ, "HANG_IN": hang_in, "MARKERS": str(markers), "TMPDIR": str(scratch)}
    command = [sys.executable, "-m", "ascend_lint", "confirm", str(package / "kernels.py"), "--workload"]
    options = ["--backend", "compile", "--isolated", "--timeout", "600", "--jobs", "2"]
    confirm = subprocess.Popen(
        [*command, str(workload), *options],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 300
    expected = 1 if hang_in == "capture" else 2  # 3 findings: 2 replay processes
    while len(list(markers.iterdir())) < expected and confirm.poll() is None:
        if time.monotonic() > deadline:
            os.killpg(confirm.pid, signal.SIGKILL)
        time.sleep(0.2)
    assert confirm.poll() is None, confirm.communicate()
    started = [int(pid) for marker in markers.iterdir() for pid in marker.read_text().split()]
    assert all(_alive(pid) for pid in started)
    return confirm, started, scratch


@contextlib.contextmanager
def _cleaned_up(confirm: subprocess.Popen[str], started: list[int]) -> Iterator[None]:
    """Never leave a process of a test to the next one."""
    try:
        yield
    finally:
        if confirm.poll() is None:
            os.killpg(confirm.pid, signal.SIGKILL)
            confirm.wait()
        for pid in started:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("hang_in", "signum", "to_group"),
    [
        ("capture", signal.SIGINT, True),
        ("capture", signal.SIGTERM, False),
        ("replay", signal.SIGINT, False),
        ("replay", signal.SIGTERM, True),
        ("replay", signal.SIGHUP, False),
    ],
    ids=["capture-ctrl-c", "capture-sigterm", "replay-sigint", "replay-sigterm-group", "replay-sighup"],
)
def test_a_signal_stops_confirm_and_every_process_it_started(tmp_path, hang_in, signum, to_group):
    confirm, started, scratch = _hanging_confirm(tmp_path, hang_in)
    with _cleaned_up(confirm, started):
        sent = time.monotonic()
        (os.killpg if to_group else os.kill)(confirm.pid, signum)
        _, stderr = confirm.communicate(timeout=60)
        seconds = time.monotonic() - sent
        time.sleep(1)  # killed processes may take a moment to be gone
        left = [pid for pid in started if _alive(pid)]

    assert confirm.returncode == 128 + signum, stderr
    assert seconds < STOPPED_WITHIN, f"confirm took {seconds:.1f} s to stop"
    assert f"interrupted by {signal.Signals(signum).name}" in stderr, stderr
    assert "Traceback" not in stderr, stderr
    assert left == [], "processes left running"
    assert list(scratch.iterdir()) == [], "temporary files left behind"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_child_dies_with_confirm_even_when_confirm_is_killed(tmp_path):
    """SIGKILL cannot be handled: the children die with ``confirm`` (the parent-death signal).
    What a child started itself (the workload's `sleep`) is not reached then."""
    confirm, started, _ = _hanging_confirm(tmp_path, "capture")
    workload_process = started[0]
    with _cleaned_up(confirm, started):
        os.kill(confirm.pid, signal.SIGKILL)
        confirm.wait(timeout=60)
        time.sleep(1)
        alive = _alive(workload_process)

    assert not alive, "the workload's process outlived confirm"


def _confirm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: Path, workload: str, timeout: int) -> dict:
    """``confirm --output-format json`` in this process (its children are real), its own TMPDIR."""
    from ascend_lint.cli import main

    (tmp_path / "workload.py").write_text(workload)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    out = io.StringIO()
    options = ["--backend", "compile", "--isolated", "--output-format", "json", "--timeout", str(timeout)]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["confirm", str(path), "--workload", str(tmp_path / "workload.py"), *options, "--jobs", "2"])
    assert list(scratch.iterdir()) == [], "temporary files left behind"
    report: dict = json.loads(out.getvalue())
    return report


LAUNCH_ONE_THEN = """\
import sys
sys.path.insert(0, {root!r})


def workload():
    import os, time, torch
    from triton_ascend.asc002_index_casts import copy_row

    copy_row(torch.randn(8, 32), 2)
    {end}
"""
HANG_TIMEOUT = 40
ENDINGS = {
    "os._exit": ("os._exit(7)", "then exited with code 7"),
    "segfault": ("import ctypes; ctypes.string_at(0)", "then was killed by signal SIGSEGV"),
    "hangs": ("time.sleep(10 * 60)", f"then timed out after {HANG_TIMEOUT} s"),
}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_launches_made_before_the_workload_dies_still_count(tmp_path, monkeypatch, ending):
    end, reason = ENDINGS[ending]
    workload = LAUNCH_ONE_THEN.format(root=str(RUNTIME), end=end)

    report = _confirm(tmp_path, monkeypatch, KERNELS, workload, HANG_TIMEOUT if ending == "hangs" else 120)

    verdicts = {f["location"]["row"]: f for f in report["findings"]}
    assert verdicts[11]["verdict"] == "CONFIRMED", verdicts[11]  # constexpr_offset_kernel, launched
    for row, kernel in ((18, "batch_offset_kernel"), (25, "packed_rows_kernel")):
        evidence = verdicts[row]["evidence"]
        assert verdicts[row]["verdict"] == "INCONCLUSIVE"
        assert evidence.startswith(f"the workload never launched {kernel} (the workload made 1 launch(es), {reason}")
    assert reason in report["capture_error"]


LAUNCH_ALL = """\
import sys
sys.path.insert(0, {root!r})  # the workload imports this copy ("the installed one")


def workload():
    import torch
    from triton_ascend.asc002_index_casts import copy_row, copy_row_runtime, double_packed

    x = torch.randn(8, 32)
    copy_row(x, 2)
    copy_row_runtime(x, 3)
    double_packed(x, 2)
"""


def test_a_linted_copy_of_the_module_the_workload_imports_is_named(tmp_path, monkeypatch):
    checkout = tmp_path / "checkout"
    (checkout / "triton_ascend").mkdir(parents=True)
    linted = checkout / "triton_ascend" / KERNELS.name
    linted.write_text(KERNELS.read_text())

    report = _confirm(tmp_path, monkeypatch, linted, LAUNCH_ALL.format(root=str(RUNTIME)), 120)

    assert len(report["findings"]) == 3
    for finding in report["findings"]:
        evidence = finding["evidence"]
        assert finding["verdict"] == "INCONCLUSIVE"
        assert evidence.startswith("the workload never launched "), evidence
        assert f"from {KERNELS} (module triton_ascend.asc002_index_casts), another copy of this file" in evidence
        assert f"PYTHONPATH={checkout.resolve()}" in evidence and "pip install -e" in evidence


def test_a_signal_while_confirm_starts_up_is_said_too(tmp_path):
    """SIGTERM as `confirm` reads its settings (before it lints or runs anything: the first
    half second of a run) gives the same message and exit code as later, not a silent death by
    the signal. The probe sends it from inside the settings step, so it lands there every time."""
    probe = f"""\
import os, signal, sys
import ascend_lint.cli as cli

read_settings = cli.settings_from


def settings_then_signal(args):
    os.kill(os.getpid(), signal.SIGTERM)  # a CI runner's SIGTERM, arriving while confirm starts
    return read_settings(args)


cli.settings_from = settings_then_signal
sys.exit(cli.main(["confirm", {str(KERNELS)!r}, "--workload", {str(RUNTIME / "workload_asc002.py")!r}, "--isolated"]))
"""
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120)

    assert done.returncode == 128 + signal.SIGTERM, (done.returncode, done.stderr)
    assert "ascend-lint confirm: interrupted by SIGTERM: stopped every process it started" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
