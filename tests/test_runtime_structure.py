"""How ``confirm`` is put together: no import circles, one place per rule, no hidden errors.

- (the import graph, runtime_check included, has no circle: tests/test_architecture.py);
- every backend a rule's ``CONFIRM`` names collects the evidence it declares, and a new rule
  module that declares an existing evidence kind is confirmed with no ``runtime_check`` edit;
- ``confirm`` works with the repository root as the working directory, says what to install
  without the runtime extra, and never turns an ImportError of its own into that message.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ascend_lint import registry
from ascend_lint.model import Finding, Position
from ascend_lint.runtime_check import backends
from ascend_lint.runtime_check.toolchain import missing_reason

REPO = Path(__file__).resolve().parent.parent
PACKAGES = {"ascend_lint": REPO / "ascend_lint", "ascend_lint.rules": REPO / "rules"}
PACKAGES["ascend_lint.runtime_check"] = REPO / "runtime_check"
RUNTIME = REPO / "fixtures" / "runtime"
NO_COMPILER = missing_reason()
needs_compiler = pytest.mark.skipif(NO_COMPILER is not None, reason=f"runtime extra missing: {NO_COMPILER}")


def _collects(backend: str) -> frozenset:
    module = backends.BACKENDS[backend].entry.partition(":")[0]
    return backends.load(f"{module}:COLLECTS")


def test_every_declared_evidence_is_collected_by_its_backend():
    declared = [
        (rule.CODE, name, kind)
        for rule in registry.all_rules()
        if rule.CONFIRM
        for name, kind in rule.CONFIRM.evidence.items()
    ]
    assert {code for code, _, _ in declared} >= {"ASC001", "ASC002", "ASC003", "ASC004", "ASC005", "ASC006"}
    missing = [(code, name, kind.value) for code, name, kind in declared if kind not in _collects(name)]
    assert missing == []


def _code_strings(path: Path) -> list[ast.Constant]:
    """String constants that are not docstrings."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_backends_hold_no_rule_codes():
    """Which rule is decided how lives in the rule modules only."""
    folder = PACKAGES["ascend_lint.runtime_check"]
    mentions = [
        f"{path.relative_to(folder)}:{node.lineno}"
        for path in folder.rglob("*.py")
        for node in _code_strings(path)
        if re.search(r"\bASC\d{3}\b", node.value)
    ]
    assert mentions == []


DUMMY_RULE = '''
"""
## What it does
Flags `num_stages=` in a kernel launch (a test rule).
"""

import libcst as cst

from ascend_lint.rule import Confirm, Evidence, Report, Rule


class DummyStages(Rule):
    CODE = "ASC990"
    NAME = "dummy-stages"
    SUMMARY = "num_stages in a launch"
    CONFIRM = Confirm({"compile": Evidence.LAUNCH_OPTION_IR}, "a test")

    def check_module(self, context):
        for call, _ in context.host.calls:
            if isinstance(call.func, cst.Subscript):
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value == "num_stages":
                        value = int(arg.value.value)
                        yield Report(arg, "num_stages", facts={"option": "num_stages", "value": value})
'''


@pytest.fixture
def dummy_rule(tmp_path, monkeypatch):
    """A seventh rule module, found by the registry like the shipped ones."""
    import ascend_lint.rules as rules

    (tmp_path / "dummy_stages.py").write_text(textwrap.dedent(DUMMY_RULE))
    monkeypatch.setattr(rules, "__path__", [*rules.__path__, str(tmp_path)])
    registry.all_rules.cache_clear()
    yield
    registry.all_rules.cache_clear()
    sys.modules.pop("ascend_lint.rules.dummy_stages", None)


@needs_compiler
@pytest.mark.runtime
def test_a_new_rule_is_confirmed_without_a_runtime_check_edit(dummy_rule):
    from ascend_lint.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(
            [
                "confirm",
                str(RUNTIME / "triton_ascend" / "asc001_launch_options.py"),
                "--workload",
                str(RUNTIME / "workload_asc001.py"),
                "--select",
                "ASC990",
                "--isolated",
                "--output-format",
                "json",
            ]
        )
    findings = json.loads(out.getvalue())["findings"]

    assert [f["code"] for f in findings] == ["ASC990"]
    assert (findings[0]["verdict"], findings[0]["backend"]) == ("CONFIRMED", "compile"), findings[0]["evidence"]
    assert "num_stages=2" in findings[0]["evidence"]


@pytest.mark.parametrize("requested", backends.CHOICES)
def test_a_rule_without_confirm_evidence_is_inconclusive_with_its_reason_and_no_backend(
    dummy_rule, monkeypatch, requested
):
    """No backend is named (none runs, not even the one asked for) and the reason is the rule's
    own `NO_CONFIRM`."""
    rule = registry.rule_by_selector("ASC990")
    monkeypatch.setattr(rule, "CONFIRM", None)
    monkeypatch.setattr(rule, "NO_CONFIRM", "a dummy: nothing fails", raising=False)
    plan = backends.plan(requested, Finding("ASC990", "dummy-stages", "m", "k.py", Position(1, 1), Position(1, 2)))
    assert (plan.backend, plan.evidence) == (None, None)
    assert (
        plan.reason == "nothing to replay for ASC990 (a dummy: nothing fails); the finding stands on the source alone"
    )


@needs_compiler
def test_findings_with_nothing_to_replay_are_judged_without_running_the_workload(tmp_path):
    """A file whose only findings are ASC012 (no runtime evidence): the workload, which would
    leave a file behind and raise, is not run; each finding is INCONCLUSIVE with ASC012's
    `NO_CONFIRM`, no backend in text, JSON and SARIF."""
    from ascend_lint.cli import main

    ran = tmp_path / "the_workload_ran"
    workload = tmp_path / "workload.py"
    workload.write_text(
        f"import pathlib\n\n\ndef workload():\n    pathlib.Path({str(ran)!r}).write_text('ran')\n"
        "    raise RuntimeError('workload error seen')\n"
    )
    fixture = REPO / "fixtures" / "triton_ascend" / "asc012_hard_coded_ub.py"

    def confirm(output_format: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(
                ["confirm", str(fixture), "--workload", str(workload), "--isolated", "--output-format", output_format]
            )
        return code, out.getvalue(), err.getvalue()

    code, out, err = confirm("json")
    assert code == 0, err
    assert not ran.exists() and "workload error seen" not in err and "capturing" not in err, err
    assert "of rules with nothing to replay (ASC012)" in err
    findings = json.loads(out)["findings"]
    assert findings and {f["code"] for f in findings} == {"ASC012"}
    reason = registry.rule_by_selector("ASC012").NO_CONFIRM
    for finding in findings:
        assert (finding["verdict"], finding["backend"], finding["target"]) == ("INCONCLUSIVE", None, None)
        assert finding["evidence"] == f"nothing to replay for ASC012 ({reason}); the finding stands on the source alone"

    code, out, err = confirm("text")
    assert code == 0 and " ASC012 INCONCLUSIVE [no replay] " in out, out
    assert "[compile" not in out

    code, out, err = confirm("sarif")
    results = [r for run in json.loads(out)["runs"] for r in run["results"]]
    assert results and all(r["properties"]["backend"] is None for r in results), results
    assert not ran.exists()


@needs_compiler
def test_a_rule_with_nothing_to_replay_on_the_asked_backend_names_the_backend_that_has(tmp_path):
    """ASC003 on --backend compile: the workload is not run (the compiler has no evidence about
    a runtime clobber), the run says ASC003 has nothing to replay on that backend and which one
    replays it, and the verdict claims no compile. Before, it was called a rule "with nothing to
    replay" and shown `[compile, 0.0 s]`."""
    from ascend_lint.cli import main

    ran = tmp_path / "the_workload_ran"
    workload = tmp_path / "workload.py"
    workload.write_text(f"import pathlib\n\n\ndef workload():\n    pathlib.Path({str(ran)!r}).write_text('ran')\n")
    fixture = RUNTIME / "triton_ascend" / "asc003_wrapped_cast.py"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        arguments = ["--workload", str(workload), "--isolated", "--select", "ASC003", "--backend", "compile"]
        code = main(["confirm", str(fixture), *arguments])

    assert code == 0 and not ran.exists(), err.getvalue()
    said = err.getvalue()
    strongest = "npu" if backends.unavailable("npu") is None else "interpret"  # what --backend auto takes
    assert f"nothing to replay on --backend compile (ASC003: --backend {strongest} replays it)" in said, said
    assert "of rules with nothing to replay (ASC003)" not in said, said
    assert " ASC003 INCONCLUSIVE [no replay] " in out.getvalue() and "[compile" not in out.getvalue(), out.getvalue()
    assert "try --backend npu or interpret" in out.getvalue(), out.getvalue()


@needs_compiler
@pytest.mark.runtime
def test_confirm_from_the_repository_root():
    """Replay children import the same ascend_lint whatever the working directory holds."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ascend_lint",
            "confirm",
            "fixtures/runtime/triton_ascend/asc002_index_casts.py",
            "--workload",
            "fixtures/runtime/workload_asc002.py",
            "--backend",
            "compile",
            "--isolated",
            "--output-format",
            "json",
        ],
        cwd=REPO,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    findings = json.loads(done.stdout)["findings"]
    verdicts = {f["verdict"] for f in findings}
    assert done.returncode == 1, done.stderr
    assert "CONFIRMED" in verdicts and "INCONCLUSIVE" not in verdicts, done.stderr


def _lint_only_environment(tmp_path: Path) -> Path:
    """A folder holding ascend_lint and libcst (with its dependency) and nothing else."""
    import libcst
    import yaml

    site = tmp_path / "site"
    site.mkdir()
    for module in (libcst, yaml):
        (site / module.__name__).symlink_to(Path(module.__file__).parent)
    for name in ("ascend_lint", "rules", "runtime_check"):
        (site / name).symlink_to(REPO / name)
    return site


def _run_isolated(site: Path, code: str) -> subprocess.CompletedProcess:
    """Python without site-packages (``-S``), with only ``site`` on the path."""
    bootstrap = f"import sys; sys.path.insert(0, {str(site)!r}); " + code
    return subprocess.run(
        [sys.executable, "-S", "-E", "-c", bootstrap], cwd=site, capture_output=True, text=True, timeout=120
    )


def test_confirm_without_the_runtime_extra_says_what_to_install(tmp_path):
    site = _lint_only_environment(tmp_path)
    kernels = RUNTIME / "triton_ascend" / "asc002_index_casts.py"
    workload = RUNTIME / "workload_asc002.py"
    args = ["confirm", str(kernels), "--workload", str(workload), "--isolated"]

    done = _run_isolated(site, f"from ascend_lint.cli import main; sys.exit(main({args!r}))")

    assert done.returncode == 2, done.stderr
    assert "`triton` is not installed" in done.stderr
    assert "pip install 'ascend-lint[runtime]'" in done.stderr
    checked = _run_isolated(site, f"from ascend_lint.cli import main; sys.exit(main(['check', {str(kernels)!r}]))")
    assert checked.returncode == 1 and "ASC002" in checked.stdout, checked.stderr


@needs_compiler
def test_upstream_triton_installed_beside_triton_ascend_is_named(tmp_path):
    """torch from PyPI (or a package requiring `triton`) installs upstream triton after
    triton-ascend: its files replace triton-ascend's while the `backends/ascend` folder stays.
    `confirm` says so and how to repair it, instead of failing in every replay."""
    metadata = tmp_path / "triton-3.7.1.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: triton\nVersion: 3.7.1\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ["PYTHONPATH"]])}
    probe = "from ascend_lint.runtime_check.toolchain import runtime_missing; print(runtime_missing())"
    alone = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert alone.stdout.strip() == "None", alone.stdout
    beside = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    assert "upstream `triton` 3.7.1 is installed beside triton-ascend" in beside.stdout
    assert "pip uninstall -y triton" in beside.stdout


def test_the_cli_never_hides_an_import_error_of_its_own(tmp_path):
    site = _lint_only_environment(tmp_path)
    broken = "sys.modules['ascend_lint.runtime_check.backends'] = None"  # its import now raises ImportError

    done = _run_isolated(site, f"{broken}; from ascend_lint.cli import main; sys.exit(main(['confirm', '--help']))")

    assert done.returncode != 0
    assert "ModuleNotFoundError: import of ascend_lint.runtime_check.backends halted" in done.stderr
    assert "runtime extra" not in done.stderr


def test_every_runtime_check_package_is_installed():
    """A wheel holds the subpackages `pyproject.toml` lists: none of runtime_check's may be missing."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folder = PACKAGES["ascend_lint.runtime_check"]
    found = {
        ".".join(["ascend_lint.runtime_check", *init.parent.relative_to(folder).parts])
        for init in folder.rglob("__init__.py")
    }
    assert found - listed == set()


def _confirm_in_process(*args: str) -> tuple[int, str, str]:
    from ascend_lint.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["confirm", *args, "--isolated"])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def unlintable(tmp_path: Path, monkeypatch) -> Path:
    """A folder holding one Ascend file with a syntax error, and a workload launching nothing."""
    (tmp_path / "triton_ascend").mkdir()
    (tmp_path / "triton_ascend" / "bad.py").write_text("import triton\n\n@triton.jit\ndef k(x:\n    pass\n")
    (tmp_path / "workload.py").write_text("def workload():\n    pass\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@needs_compiler
@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_no_findings_is_still_a_report_and_a_file_that_cannot_be_linted_is_an_error(unlintable, output_format):
    """As `check`: exit 2, the error with its position; stdout a JSON document / SARIF log."""
    code, out, err = _confirm_in_process("triton_ascend", "--workload", "workload.py", "--output-format", output_format)

    assert code == 2, err
    assert f"{os.path.join('triton_ascend', 'bad.py')}:4:6: error: SyntaxError" in err
    report = json.loads(out)
    if output_format == "json":
        assert report["findings"] == [] and [e["name"] for e in report["errors"]] == ["invalid-syntax"]
    else:
        (invocation,) = report["runs"][0]["invocations"]
        assert invocation["executionSuccessful"] is False and report["runs"][0]["results"] == []


@needs_compiler
def test_a_missing_path_is_an_error(unlintable):
    code, _, err = _confirm_in_process("missing.py", "--workload", "workload.py")

    assert code == 2 and "missing.py: error:" in err


@needs_compiler
def test_a_file_that_cannot_be_linted_next_to_findings_is_an_error(unlintable):
    kernels = RUNTIME / "triton_ascend" / "asc002_index_casts.py"
    code, out, err = _confirm_in_process(
        "triton_ascend", str(kernels), "--workload", "workload.py", "--output-format", "json"
    )

    report = json.loads(out)
    assert code == 2, err
    assert report["findings"] and {f["verdict"] for f in report["findings"]} == {"INCONCLUSIVE"}
    assert [e["filename"] for e in report["errors"]] == [os.path.join("triton_ascend", "bad.py")]


@pytest.mark.parametrize(("option", "value"), [("--jobs", "0"), ("-j", "-5"), ("--timeout", "0"), ("--timeout", "-1")])
def test_a_count_or_timeout_that_cannot_work_is_a_usage_error(option, value, capsys):
    """As `check` refuses `--jobs 0`: before, `confirm` ran one process, or timed out at once."""
    from ascend_lint.cli import main

    with pytest.raises(SystemExit) as usage:
        main(["confirm", "--workload", "workload.py", option, value, "kernels/"])
    assert usage.value.code == 2
    assert "must be" in capsys.readouterr().err


def test_findings_with_nothing_to_replay_need_no_runtime_extra(tmp_path):
    """Without triton-ascend and torch, a file whose findings are all of rules with nothing to
    replay (ASC012) is still confirmed: nothing is run, each finding is INCONCLUSIVE `[no
    replay]`, and the run says the extra is missing and not needed. Adding a finding to replay
    (`--memory`) needs it again."""
    site = _lint_only_environment(tmp_path)
    fixture = REPO / "fixtures" / "triton_ascend" / "asc012_hard_coded_ub.py"
    workload = RUNTIME / "workload_asc002.py"
    args = ["confirm", str(fixture), "--workload", str(workload), "--isolated"]

    done = _run_isolated(site, f"from ascend_lint.cli import main; sys.exit(main({args!r}))")

    assert done.returncode == 0, done.stderr
    assert " ASC012 INCONCLUSIVE [no replay] " in done.stdout, done.stdout
    assert "of rules with nothing to replay (ASC012)" in done.stderr
    assert "without the runtime extra, which nothing here needs (`triton` is not installed)" in done.stderr
    memory = _run_isolated(site, f"from ascend_lint.cli import main; sys.exit(main({[*args, '--memory']!r}))")
    assert memory.returncode == 2 and "`triton` is not installed" in memory.stderr, memory.stderr


def test_findings_with_nothing_to_replay_on_the_asked_backend_need_no_runtime_extra(tmp_path):
    """What needs the extra is what runs on the chosen backend, not the rule: without triton-ascend
    and torch, ASC003 on --backend compile (only the interpreter or an NPU replays it) is judged
    INCONCLUSIVE `[no replay]` with nothing run. Before, it exited 2 asking for the extra. On
    --backend auto (which takes a backend that replays ASC003), or with --memory, it needs it."""
    site = _lint_only_environment(tmp_path)
    fixture = RUNTIME / "triton_ascend" / "asc003_wrapped_cast.py"
    workload = RUNTIME / "workload_asc002.py"
    args = ["confirm", str(fixture), "--workload", str(workload), "--isolated", "--select", "ASC003"]

    done = _run_isolated(site, f"from ascend_lint.cli import main; sys.exit(main({[*args, '--backend', 'compile']!r}))")

    assert done.returncode == 0, done.stderr
    assert " ASC003 INCONCLUSIVE [no replay] " in done.stdout, done.stdout
    assert "nothing to replay on --backend compile (ASC003: --backend interpret replays it)" in done.stderr
    assert "without the runtime extra, which nothing here needs (`triton` is not installed)" in done.stderr
    for extra in (["--backend", "auto"], ["--backend", "compile", "--memory"]):
        needs = _run_isolated(site, f"from ascend_lint.cli import main; sys.exit(main({[*args, *extra]!r}))")
        assert needs.returncode == 2 and "`triton` is not installed" in needs.stderr, (extra, needs.stderr)
