"""Real Ascend kernels nobody here wrote: fla-core 0.6.0 from the package index.

Downloaded once per machine into a cache folder (`ASCEND_LINT_TEST_CACHE` or
`~/.cache/ascend-lint-tests`); tests skip with the reason when the index is unreachable.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

FLA_VERSION = "0.6.0"
CACHE = Path(os.environ.get("ASCEND_LINT_TEST_CACHE", Path.home() / ".cache" / "ascend-lint-tests"))


def fla_root() -> Path:
    """The unpacked fla-core wheel (downloading it on first use)."""
    target = CACHE / f"fla-core-{FLA_VERSION}"
    if (target / "fla").is_dir():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    wheels = list(CACHE.glob(f"fla_core-{FLA_VERSION}-*.whl"))
    if not wheels:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            f"fla-core=={FLA_VERSION}",
            "-d",
            str(CACHE),
        ]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            pytest.skip("package index unreachable: downloading fla-core timed out")
        wheels = list(CACHE.glob(f"fla_core-{FLA_VERSION}-*.whl"))
        if done.returncode != 0 or not wheels:
            pytest.skip(f"package index unreachable: pip download fla-core failed: {done.stderr.strip()[-300:]}")
    partial = target.with_suffix(".partial")
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(partial)
    partial.rename(target)
    return target


def fla_ascend_files() -> list[Path]:
    """fla-core's Ascend kernel files: everything under a `triton_ascend` folder or so named."""
    root = fla_root()
    return sorted(p for p in (root / "fla").rglob("*.py") if "triton_ascend" in p.relative_to(root).as_posix())
