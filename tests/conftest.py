"""Shared test helpers: lint snippets and fixture files with the real engine."""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest

from ascend_lint.config import Settings
from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result
from ascend_lint.model import Finding

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
# The fixture corpus with `# expect` markers (fixtures/runtime/ belongs to the replay tests).
CORPUS = sorted(
    path for folder in ("triton_ascend", "cuda", "example", "shared") for path in (FIXTURES / folder).rglob("*.py")
)
HEADER = "import triton\nimport triton.language as tl\n"

# Child processes the tests start (the console script, `python -m ascend_lint` in a temporary
# project, flake8 loading the plugin, the replay workers) run this checkout's code, not whatever
# copy the environment has installed (an editable install of another worktree, a wheel).
_INHERITED_PYTHONPATH = os.environ.get("PYTHONPATH")
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), _INHERITED_PYTHONPATH]))


def installed_environment() -> dict[str, str]:
    """The environment without that entry: for child processes that must import an installed
    copy (a built wheel, a pre-commit hook environment) or another checkout."""
    env = dict(os.environ)
    env.pop("PYTHONPATH")
    if _INHERITED_PYTHONPATH:
        env["PYTHONPATH"] = _INHERITED_PYTHONPATH
    return env


EXPECT = re.compile(r"#\s*expect(?::\s*(?P<codes>[A-Z0-9, ]+))?\s*$")


def settings(**overrides) -> Settings:
    return Settings(root=REPO, target_all=True, **overrides)


def snippet_source(code: str) -> tuple[str, int]:
    """The snippet as a module (triton imports prepended if missing) and the row offset."""
    code = textwrap.dedent(code).lstrip("\n")
    if "import triton" in code:
        return code, 0
    return HEADER + code, HEADER.count("\n")


def expected_rows(source: str, default_code: str | None) -> set[tuple[int, str]]:
    """(row, code) pairs declared with `# expect` / `# expect: CODE[, CODE]` markers."""
    expected = set()
    for row, line in enumerate(source.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            codes = match.group("codes")
            for code in (c.strip() for c in codes.split(",")) if codes else [default_code]:
                expected.add((row, code))
    return expected


def found_rows(source: str, filename: str = "snippet.py", **overrides) -> set[tuple[int, str]]:
    result = lint_source(source, filename, settings(**overrides))
    assert result.error is None, result.error
    return {(f.location.row, f.code) for f in result.findings}


def lint_and_fix(source: str, filename: str, *, unsafe: bool = False, **overrides) -> tuple[list[Finding], str | None]:
    """The findings of `source` and its text once fixed (None: nothing to fix), unsafe fixes too
    with `unsafe`."""
    config = settings(**overrides)
    result = lint_source(source, filename, config)
    _, fixed = fix_result(result, config, unsafe=unsafe)
    return list(result.findings), None if fixed is None else fixed.fixed


def knob_rows(findings: list[Finding], first: int) -> list[tuple[int, str, str | None]]:
    """Each finding's row counted from `first`, the knob it names and the reason it has no fix
    (None: a fix)."""
    return [
        (f.location.row - first, f.message.split("`")[1], None if f.fix is not None else f.no_fix_reason)
        for f in findings
    ]


@pytest.fixture
def lint():
    def run(source: str, filename: str = "snippet.py", **overrides):
        result = lint_source(source, filename, settings(**overrides))
        assert result.error is None, result.error
        return result.findings

    return run
