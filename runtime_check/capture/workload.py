"""Running a user's workload: a file defining ``workload()``.

Used by every process that runs user code (the launch capture, the interpreter's value capture);
exceptions are returned as text, never raised, so the launches made so far still count.
"""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from pathlib import Path

RUN_NAME = "__ascend_lint_workload__"


def run_workload(workload: Path) -> str | None:
    """Import ``workload`` as a script and call its ``workload()``; the error text, if it failed."""
    workload = workload.resolve()
    sys.path[:0] = [str(workload.parent), os.getcwd()]
    sys.argv = [str(workload)]
    try:
        entry = runpy.run_path(str(workload), run_name=RUN_NAME).get("workload")
        if not callable(entry):
            raise RuntimeError(f"{workload} defines no workload() function")
        entry()
    except Exception:
        return traceback.format_exc(limit=-4)
    return None
