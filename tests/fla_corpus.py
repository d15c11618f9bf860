"""Real Ascend kernels nobody here wrote: fla-core 0.6.0, liger-kernel 0.8.5, vllm-ascend 0.23.0
(and 0.26.0rc1, and the 0.30.0rc2 source distribution), FlagGems 5.0.2 and torchtitan-npu
0.2.2.post2 from the package index.

Each wheel or source archive is downloaded once per machine into a cache folder
(`ASCEND_LINT_TEST_CACHE` or `~/.cache/ascend-lint-tests`) and unpacked; tests skip with the
reason when the index is unreachable.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

import pytest

from ascend_lint.config import load_settings
from ascend_lint.engine import lint_paths
from ascend_lint.model import FileResult

FLA_VERSION = "0.6.0"
LIGER_VERSION = "0.8.5"
VLLM_ASCEND_VERSION = "0.23.0"  # its wheel is for CPython 3.11 on x86-64 Linux: elsewhere its tests skip
VLLM_ASCEND_NEWEST = "0.26.0rc1"  # the newest wheel on the index when it was read (2026-12-01)
VLLM_ASCEND_SOURCE = "0.30.0rc2"  # the newest release (source only) when it was read (2026-12-02)
FLAG_GEMS_VERSION = "5.0.2"
TORCHTITAN_NPU_VERSION = "0.2.2.post2"
CACHE = Path(os.environ.get("ASCEND_LINT_TEST_CACHE", Path.home() / ".cache" / "ascend-lint-tests"))


def unpacked_wheel(distribution: str, version: str, package: str) -> Path:
    """The folder holding the unpacked wheel of `distribution==version` (whose top-level
    package is `package`), downloading it on first use."""
    target = CACHE / f"{distribution}-{version}"
    if (target / package).is_dir():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    pattern = f"{distribution.replace('-', '_')}-{version}-*.whl"
    wheels = list(CACHE.glob(pattern))
    if not wheels:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet"]
        command.append(f"{distribution}=={version}")
        try:
            done = subprocess.run([*command, "-d", str(CACHE)], capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            pytest.skip(f"package index unreachable: downloading {distribution} timed out")
        wheels = list(CACHE.glob(pattern))
        if done.returncode != 0 or not wheels:
            reason = "package index unreachable or no wheel for this platform"
            pytest.skip(f"{reason}: pip download {distribution} failed: {done.stderr.strip()[-300:]}")
    partial = target.with_suffix(".partial")
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(partial)
    partial.rename(target)
    return target


def unpacked_sdist(distribution: str, version: str) -> Path:
    """The folder of the unpacked source archive of `distribution==version`, downloaded on first
    use through the index's simple API (`pip download` would build the package to read its
    metadata)."""
    target = CACHE / f"{distribution}-{version}-sdist"
    if target.is_dir():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    name = f"{distribution.replace('-', '_')}-{version}.tar.gz"
    page = urllib.request.Request(
        f"https://pypi.org/simple/{distribution}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    try:
        with urllib.request.urlopen(page, timeout=60) as answer:
            (sdist,) = [f for f in json.load(answer)["files"] if f["filename"] == name]
        with urllib.request.urlopen(sdist["url"], timeout=300) as answer:
            archive = answer.read()
    except OSError as error:
        pytest.skip(f"package index unreachable: downloading {name} failed: {error}")
    assert hashlib.sha256(archive).hexdigest() == sdist["hashes"]["sha256"]
    partial = target.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    download = partial / name
    download.write_bytes(archive)
    with tarfile.open(download) as tar:
        tar.extractall(partial, filter="data")
    download.unlink()
    (top,) = partial.iterdir()
    top.rename(target)
    partial.rmdir()
    return target


def fla_root() -> Path:
    """The unpacked fla-core wheel."""
    return unpacked_wheel("fla-core", FLA_VERSION, "fla")


def fla_ascend_files() -> list[Path]:
    """fla-core's Ascend kernel files: everything under a `triton_ascend` folder or so named."""
    root = fla_root()
    return sorted(p for p in (root / "fla").rglob("*.py") if "triton_ascend" in p.relative_to(root).as_posix())


def liger_root() -> Path:
    """The unpacked liger-kernel wheel."""
    return unpacked_wheel("liger-kernel", LIGER_VERSION, "liger_kernel")


def vllm_ascend_root(version: str = VLLM_ASCEND_VERSION) -> Path:
    """The unpacked vllm-ascend wheel."""
    return unpacked_wheel("vllm-ascend", version, "vllm_ascend")


def liger_ascend_folder() -> Path:
    """liger-kernel's Ascend backend: `liger_kernel/ops/backends/_ascend/`."""
    return liger_root() / "liger_kernel" / "ops" / "backends" / "_ascend"


def flag_gems_ascend_backend() -> Path:
    """FlagGems' Ascend backend: `flag_gems/runtime/backend/_ascend/`."""
    return unpacked_wheel("flag-gems", FLAG_GEMS_VERSION, "flag_gems") / "flag_gems" / "runtime" / "backend" / "_ascend"


def lint_wheel(root: Path, package: Path) -> list[FileResult]:
    """Each file's result of linting `package` of the unpacked wheel `root` with `--isolated`
    and the default targeting, as from a checkout of it; none may be an error."""
    settings = load_settings([str(root)], isolated=True)
    settings.root = root
    results = lint_paths([str(package)], settings)
    assert [r.error for r in results if r.error] == []
    return results
