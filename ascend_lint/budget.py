"""The time one file may take (`--timeout-per-file`): then it gets an error and the run goes on.

The budget is CPU time of this process (SIGPROF), not wall time: on a machine shared with other
work a file is not cut off for waiting its turn, while a file that makes the linter compute
forever is. Where no timer signal can be used (Windows, a thread other than the main one) the
file runs unbounded.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class FileTimeout(BaseException):
    """The budget ran out. Not an Exception: no handler of a bug may swallow it."""


_state = {"active": False, "expired": False}


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Raise FileTimeout in the block once it has used `seconds` of CPU time. A budget inside
    another is the outer one's."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not seconds or _state["active"] or not usable:
        yield
        return
    previous = signal.signal(signal.SIGPROF, _expire)
    _state.update(active=True, expired=False)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        _state["active"] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _expire(signum: int, frame: object) -> None:
    if _state["active"]:
        _state["expired"] = True
        raise FileTimeout


def check_budget() -> None:
    """Raise FileTimeout if the budget ran out while its exception was swallowed (a signal that
    lands in a garbage-collector callback or a `__del__` cannot raise there)."""
    if _state["active"] and _state["expired"]:
        raise FileTimeout


def timeout_message(what: str, seconds: float | None) -> str:
    return f"took longer than {seconds:g} s of CPU time to {what} (--timeout-per-file)"
