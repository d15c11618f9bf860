"""Adding a rule is one rule module plus its fixture (CONTRIBUTING.md): nothing registers it.

On a copy of this checkout, a dummy rule goes into `rules/` and its fixture into
`fixtures/triton_ascend/`, and so does a second one in the `perf` group. Then `check`, `rules`
and `rule` know them, and `--select perf` / `--ignore perf` take the second with the group; the
regeneration command puts them in docs/rules.md, the README table (and the README sentence
naming the `perf` group's rules) and new snapshots (and touches nothing else); and the
registry-driven tests (examples, fixtures, docs, snapshots, CLI, SARIF) run for them and pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import installed_environment
from kernel_samples import copy_checkout, git

RULE_MODULE = "rules/dummy_device_print.py"
FIXTURE = "fixtures/triton_ascend/asc999_device_print.py"
SNAPSHOT = "tests/snapshots/triton_ascend/asc999_device_print.py.snap"

RULE_SOURCE = '''"""
## What it does
Flags `tl.device_print` in a kernel. A dummy rule: tests/test_adding_a_rule.py adds it to a
copy of the repository.

## Why is this bad?
It is not; the rule shows that a new rule needs no registration anywhere.

## Example
```python
tl.device_print("x", x)
```

## Use instead
Anything.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_lint.rule import Kernel, ModuleContext, Report, Rule


class DummyDevicePrint(Rule):
    CODE = "ASC999"
    NAME = "dummy-device-print"
    SUMMARY = "`tl.device_print` in a kernel"
    NO_FIX = "whether the print is debugging left behind is the author's call"
    NO_CONFIRM = "a dummy: nothing a replay runs fails"
    VALID = (
        """
@triton.jit
def k(x):
    tl.store(x, 1)
""",
    )
    INVALID = (
        """
@triton.jit
def k(x):
    tl.device_print("x", x)  # expect
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        for event in kernel.flow.calls_to("device_print"):
            yield Report(event.call, "`tl.device_print` in a kernel")
'''

PERF_RULE_MODULE = "rules/dummy_debug_barrier.py"
PERF_FIXTURE = "fixtures/triton_ascend/asc998_debug_barrier.py"
PERF_SNAPSHOT = "tests/snapshots/triton_ascend/asc998_debug_barrier.py.snap"

PERF_RULE_SOURCE = '''"""
## What it does
Flags `tl.debug_barrier` in a kernel. A dummy `perf` rule: tests/test_adding_a_rule.py adds it
to a copy of the repository.

## Why is this bad?
It is not; the rule shows that a new rule joins its group with no registration anywhere.

## Example
```python
tl.debug_barrier()
```

## Use instead
Anything.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_lint.rule import Kernel, ModuleContext, Report, Rule


class DummyDebugBarrier(Rule):
    CODE = "ASC998"
    NAME = "dummy-debug-barrier"
    SUMMARY = "`tl.debug_barrier` in a kernel"
    NO_FIX = "whether the barrier is needed is the author's call"
    NO_CONFIRM = "a dummy: nothing a replay runs fails"
    REQUIRES_TOKENS = (("debug_barrier",),)
    GROUP = "perf"
    VALID = (
        """
@triton.jit
def k(x):
    tl.store(x, 1)
""",
    )
    INVALID = (
        """
@triton.jit
def k(x):
    tl.debug_barrier()  # expect
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        for event in kernel.flow.calls_to("debug_barrier"):
            yield Report(event.call, "`tl.debug_barrier` in a kernel")
'''

PERF_FIXTURE_SOURCE = """import triton
import triton.language as tl


@triton.jit
def k(x):
    tl.debug_barrier()  # expect: ASC998
    tl.store(x, 1)
"""

FIXTURE_SOURCE = """import triton
import triton.language as tl


@triton.jit
def k(x):
    tl.device_print("x", x)  # expect: ASC999
"""


def run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python ARGS` in the copy, importing the copy's ascend_lint (as from a repository root)."""
    env = installed_environment()  # the copy's code: not this checkout's (nor an installed one: cwd comes first)
    return subprocess.run([sys.executable, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = copy_checkout(tmp_path_factory.mktemp("checkout"))
    (repo / RULE_MODULE).write_text(RULE_SOURCE, encoding="utf-8")
    (repo / FIXTURE).write_text(FIXTURE_SOURCE, encoding="utf-8")
    (repo / PERF_RULE_MODULE).write_text(PERF_RULE_SOURCE, encoding="utf-8")
    (repo / PERF_FIXTURE).write_text(PERF_FIXTURE_SOURCE, encoding="utf-8")
    return repo


def test_the_cli_knows_the_new_rule(repo: Path) -> None:
    checked = run(repo, "-m", "ascend_lint", "check", FIXTURE, "--output-format", "json")
    assert checked.returncode == 1, checked.stderr
    assert [(f["code"], f["location"]["row"]) for f in json.loads(checked.stdout)] == [("ASC999", 7)]
    listed = run(repo, "-m", "ascend_lint", "rules")
    assert ["ASC999", "dummy-device-print"] in [line.split()[:2] for line in listed.stdout.splitlines()]
    shown = run(repo, "-m", "ascend_lint", "rule", "ASC999")
    assert shown.returncode == 0 and shown.stdout.startswith("# dummy-device-print (ASC999)\n\n## What it does")


def test_a_perf_rule_is_selected_and_ignored_with_its_group(repo: Path) -> None:
    def codes(*options: str) -> list[str]:
        checked = run(
            repo, "-m", "ascend_lint", "check", "--isolated", PERF_FIXTURE, FIXTURE, *options, "--output-format", "json"
        )
        assert checked.returncode in (0, 1), checked.stderr
        return sorted(finding["code"] for finding in json.loads(checked.stdout))

    assert codes() == ["ASC998", "ASC999"]
    assert codes("--select", "perf") == ["ASC998"]
    assert codes("--ignore", "perf") == ["ASC999"]


def test_regeneration_adds_it_to_the_docs_and_snapshots_and_the_tests_pass(repo: Path) -> None:
    before = run(repo, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_docs.py")
    assert before.returncode == 1 and "run `python tests/regenerate.py`" in before.stdout  # docs are stale

    regenerated = run(repo, "tests/regenerate.py")
    assert regenerated.returncode == 0, regenerated.stderr
    changed = {line[3:] for line in git(repo, "status", "--porcelain", "--untracked-files=all").splitlines()}
    added = {RULE_MODULE, FIXTURE, SNAPSHOT, PERF_RULE_MODULE, PERF_FIXTURE, PERF_SNAPSHOT}
    assert changed == added | {"docs/rules.md", "README.md"}
    readme = (repo / "README.md").read_text(encoding="utf-8")
    assert "| ASC999 | `dummy-device-print` | — |" in readme
    assert "| ASC998 | `dummy-debug-barrier` | — |" in readme
    assert "ASC009, ASC011, ASC012 and ASC998 form the `perf` group" in readme
    assert "# dummy-device-print (ASC999)" in (repo / "docs" / "rules.md").read_text(encoding="utf-8")

    suites = ["test_rule_examples", "test_fixtures", "test_snapshots", "test_docs", "test_cli", "test_sarif"]
    tested = run(repo, "-m", "pytest", "-v", "-p", "no:cacheprovider", *(f"tests/{suite}.py" for suite in suites))
    assert tested.returncode == 0, tested.stdout[-3000:]
    for code in ("ASC998", "ASC999"):
        passed = [line for line in tested.stdout.splitlines() if "PASSED" in line and code[3:] in line]
        for suite in suites[
            :3
        ]:  # parametrized by rule or fixture (test_docs, test_cli, test_sarif: the whole registry)
            assert any(f"tests/{suite}.py::" in line for line in passed), f"no {code} test ran in {suite}"
