"""The project's own gates (`.pre-commit-config.yaml`: ruff, ruff format, mypy), run by the
real pre-commit on a copy of this checkout, with the virtualenv's ruff and mypy (`lint` extra)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import installed_environment
from kernel_samples import copy_checkout, git

TOOLS = Path(sys.executable).parent
HOOKS = ("ruff check", "ruff format", "mypy")
STATUS = re.compile(r"^(?P<hook>ruff check|ruff format|mypy)\.+(?P<status>Passed|Failed)", re.MULTILINE)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    missing = [tool for tool in ("ruff", "mypy") if shutil.which(tool, path=str(TOOLS)) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed next to {sys.executable} (the `lint` extra)")
    return copy_checkout(tmp_path / "checkout")


def run_hooks(repo: Path) -> tuple[dict[str, str], str]:
    """Each hook's status (Passed / Failed) after `pre-commit run --all-files`, and the output."""
    env = {
        **installed_environment(),
        "PATH": f"{TOOLS}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"),
    }
    command = [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"]
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    output = done.stdout + done.stderr
    statuses = {match["hook"]: match["status"] for match in STATUS.finditer(output)}
    assert (done.returncode == 0) == all(status == "Passed" for status in statuses.values()), output
    return statuses, output


def test_the_checkout_passes_its_own_hooks(checkout: Path) -> None:
    statuses, output = run_hooks(checkout)
    assert statuses == dict.fromkeys(HOOKS, "Passed"), output


def test_the_hooks_catch_lint_format_and_type_errors_in_a_rule_module(checkout: Path) -> None:
    rule = checkout / "rules" / "runtime_dma_branch.py"
    rule.write_text(rule.read_text() + "\n\ndef  _broken( ) -> int:\n    import os\n    return 'not an int'\n")
    git(checkout, "add", "-A")  # pre-commit stashes unstaged changes away before running
    statuses, output = run_hooks(checkout)
    assert statuses == dict.fromkeys(HOOKS, "Failed"), output
    assert "F401" in output  # `os` imported but unused
    assert "files were modified by this hook" in output  # ruff format rewrote `def  _broken( )`
    # mypy checks the rule under its installed name, ascend_lint.rules.runtime_dma_branch
    assert re.search(r"\.mypy-layout/ascend_lint/rules/runtime_dma_branch\.py:\d+: error: Incompatible return", output)
