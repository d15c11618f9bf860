"""The built wheel, installed the regular way (not editable), works from the repository root.

`rules/` and `runtime_check/` are top-level folders of the repository but subpackages of
`ascend_lint` once installed. The wheel is built from a copy of this checkout and installed
with `--no-deps` into a fresh virtualenv whose dependencies (libcst) come from the running
one through a `.pth` line, so no package index is needed. From the repository root, the
console script imports the installed package and `python -m ascend_lint` the source folder
next to it (`ascend_lint/__init__.py` reaches `rules/` there): both must lint the same.
"""

from __future__ import annotations

import ast
import json
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import REPO, installed_environment
from kernel_samples import copy_checkout

from ascend_lint.config import load_settings
from ascend_lint.engine import lint_paths

EXAMPLE = "fixtures/example"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout (uncommitted work included), by pip and setuptools."""
    source = copy_checkout(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(source)]
    done = subprocess.run(command, env=installed_environment(), capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = out.glob("ascend_lint-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `bin` folder of a fresh virtualenv holding the wheel (a regular install)."""
    root = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(root)
    python = root / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # the dependencies, from the running environment (after the venv's own site-packages)
    Path(purelib, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    # --ignore-installed: the running environment may hold ascend-lint too (CI installs it); its
    # copy is visible through the .pth line, but the virtualenv gets its own.
    command = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index"]
    command += ["--ignore-installed", str(wheel)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "bin"


def test_the_wheel_puts_rules_and_runtime_check_inside_ascend_lint(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith((".dist-info", ".data"))}
    assert tops == {"ascend_lint"}  # no top-level `rules` or `runtime_check`
    for folder in ("rules", "runtime_check"):
        expected = {path.relative_to(REPO).as_posix() for path in (REPO / folder).rglob("*.py")}
        packaged = {name.removeprefix("ascend_lint/") for name in names if name.startswith(f"ascend_lint/{folder}/")}
        assert expected and expected <= packaged, expected - packaged
    own = {path.relative_to(REPO).as_posix() for path in (REPO / "ascend_lint").rglob("*.py")}
    assert own <= set(names), own - set(names)  # every subpackage too (ascend_lint/host/, reporters/)


def test_the_installed_package_is_the_one_the_console_script_runs(installed: Path, tmp_path: Path) -> None:
    """Away from the repository, `ascend_lint.rules` comes from the virtualenv, not the checkout."""
    code = "import ascend_lint.rules, ascend_lint.runtime_check as r; print(ascend_lint.rules.__file__, r.__file__)"
    done = subprocess.run(
        [str(installed / "python"), "-c", code],
        cwd=tmp_path,
        env=installed_environment(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    prefix = str(installed.parent)
    assert all(path.startswith(prefix) for path in done.stdout.split()), done.stdout


@pytest.mark.parametrize("entry", ["console-script", "python-m"])
def test_check_from_the_repository_root_with_a_regular_install(installed: Path, entry: str) -> None:
    command = (
        [str(installed / "ascend-lint")]
        if entry == "console-script"
        else [str(installed / "python"), "-m", "ascend_lint"]
    )
    done = subprocess.run(
        [*command, "check", EXAMPLE, "--output-format", "json"],
        cwd=REPO,
        env=installed_environment(),
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stderr) == (1, "")  # findings, and no traceback (also status 1)
    reported = {(f["code"], f["location"]["row"], f["location"]["column"]) for f in json.loads(done.stdout)}
    with_this_engine = lint_paths([str(REPO / EXAMPLE)], load_settings([str(REPO / EXAMPLE)]))
    expected = {(f.code, f.location.row, f.location.column) for r in with_this_engine for f in r.findings}
    assert expected and reported == expected


def test_a_confirm_workload_sees_pythonpath_ahead_of_the_installed_packages(installed: Path, tmp_path: Path) -> None:
    """With a regular install the package root is site-packages: the capture child must not put it
    ahead of PYTHONPATH, or the workload imports the installed copy of the user's code instead of
    the checkout PYTHONPATH names (as confirm's "another copy" hint tells the user to set)."""
    checkout, project = tmp_path / "checkout", tmp_path / "project"
    checkout.mkdir()
    project.mkdir()
    workload = project / "workload.py"
    workload.write_text("import sys\n\n\ndef workload():\n    raise RuntimeError(repr(sys.path))\n")
    (project / "plain.py").write_text("import sys\n\nprint(repr(sys.path))\n")
    env = {**installed_environment(), "PYTHONPATH": str(checkout)}
    python = str(installed / "python")
    plain = subprocess.run([python, str(project / "plain.py")], env=env, capture_output=True, text=True, check=True)
    code = (
        "import sys; from ascend_lint.runtime_check.capture.recorder import capture_launches; "
        "from ascend_lint.runtime_check.capture.workload import Workload; "
        "from ascend_lint.runtime_check.device import DEFAULT_MODEL; "
        "print(capture_launches(Workload(file=sys.argv[1], cwd=sys.argv[2]), DEFAULT_MODEL, 120).error)"
    )
    done = subprocess.run(
        [python, "-c", code, str(workload), str(project)], cwd=project, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    reported = done.stdout.split("RuntimeError: ", 1)[1].splitlines()[0]
    seen = ast.literal_eval(reported)  # the workload's sys.path
    # the workload's folder and cwd first (as documented), then `-c`'s '' — the rest as plain `python`
    assert seen[:3] == [str(project), str(project), ""], seen
    assert seen[3:] == ast.literal_eval(plain.stdout)[1:], (seen, plain.stdout)
    site_packages = [i for i, entry in enumerate(seen) if entry.startswith(str(installed.parent))]
    assert site_packages and seen.index(str(checkout)) < min(site_packages), seen
