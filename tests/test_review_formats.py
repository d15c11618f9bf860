"""`--output-format github|rdjson|rdjsonl`: annotations and reviewdog diagnostics."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO
from kernel_samples import BAD_FINDINGS, BAD_KERNEL, BAD_PATH, DOT_LINE, ascend_lint, cli_json, write_project

from ascend_lint.fixes import apply_edits
from ascend_lint.model import Edit, FileResult, Finding, Fix, Position, Related
from ascend_lint.reporters.github import render_github
from ascend_lint.reporters.rdjson import render_rdjson


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    write_project(root)
    return root


def output(project: Path, fmt: str) -> str:
    done = ascend_lint("check", "--output-format", fmt, cwd=project)
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def findings(project: Path) -> list[dict]:
    return cli_json(cwd=project)


@pytest.fixture(scope="module")
def rdjson_document(project: Path) -> dict:
    return json.loads(output(project, "rdjson"))


def test_github_annotations_carry_the_cli_positions(project: Path, findings: list[dict]) -> None:
    expected = {
        f"::error file={(project / BAD_PATH).as_posix()},line={f['location']['row']},col={f['location']['column']},"
        f"endLine={f['end_location']['row']},endColumn={f['end_location']['column']},"
        f"title={f['code']} [{f['name']}]::{f['message']}"
        for f in findings
    }
    lines = output(project, "github").splitlines()
    # ASC003's annotation lists the clobbering dot after the message, on an escaped new line.
    assert {line.split("%0A")[0] for line in lines} == expected
    (asc003,) = [line for line in lines if "title=ASC003" in line]
    assert f"%0A{BAD_PATH}:{DOT_LINE}:" in asc003


def test_github_escapes_data_and_properties() -> None:
    filename = "/srv/odd,dir/a:b.py"
    finding = Finding(
        code="ASC003",
        name="dot-lhs-reuse",
        message="100% wrong:\r\nb_a, clobbered",
        filename=filename,
        location=Position(3, 5),
        end_location=Position(3, 8),
        related=(Related(filename, Position(2, 9), Position(2, 12), "lhs of tl.dot"),),
    )
    assert render_github([FileResult(filename, "", [finding])], None) == (
        "::error file=/srv/odd%2Cdir/a%3Ab.py,line=3,col=5,endLine=3,endColumn=8,title=ASC003 [dot-lhs-reuse]"
        "::100%25 wrong:%0D%0Ab_a, clobbered%0A/srv/odd,dir/a:b.py:2:9: lhs of tl.dot\n"
    )


def byte_column(line: str, column: int) -> int:
    return len(line[: column - 1].encode("utf-8")) + 1


def test_rdjson_counts_columns_in_utf8_bytes(project: Path, rdjson_document: dict, findings: list[dict]) -> None:
    document = rdjson_document
    assert document["source"]["name"] == "ascend-lint"
    lines = BAD_KERNEL.splitlines()
    by_code = {f["code"]: f for f in findings}
    starts = {(d["code"]["value"], d["location"]["range"]["start"]["line"]) for d in document["diagnostics"]}
    assert starts == BAD_FINDINGS
    for diagnostic in document["diagnostics"]:
        finding = by_code[diagnostic["code"]["value"]]
        # A fix reaching beyond the finding's lines (ASC003's edits the dot) is named, not suggested.
        note = "\n\nUnsafe fix available: " if "suggestions" not in diagnostic and finding["fix"] else ""
        assert diagnostic["message"].startswith(finding["message"] + note)
        assert diagnostic["severity"] == "WARNING"
        assert diagnostic["location"]["path"] == (project / BAD_PATH).as_posix()
        for side, key in (("start", "location"), ("end", "end_location")):
            position = finding[key]
            column = byte_column(lines[position["row"] - 1], position["column"])
            assert diagnostic["location"]["range"][side] == {"line": position["row"], "column": column}
    (asc003,) = [d for d in document["diagnostics"] if d["code"]["value"] == "ASC003"]
    start = asc003["location"]["range"]["start"]
    store_line = lines[start["line"] - 1].encode("utf-8")
    assert "α" in lines[start["line"] - 1] and store_line[start["column"] - 1 :].startswith(b"b_a")
    (related,) = asc003["related_locations"]
    assert related["location"]["range"]["start"]["line"] == DOT_LINE


def test_rdjson_suggestion_applied_to_the_bytes_gives_the_fixed_line(rdjson_document: dict) -> None:
    (asc001,) = [d for d in rdjson_document["diagnostics"] if d["code"]["value"] == "ASC001"]
    (suggestion,) = asc001["suggestions"]
    start, end = suggestion["range"]["start"], suggestion["range"]["end"]
    assert start["line"] == end["line"]
    line = BAD_KERNEL.splitlines()[start["line"] - 1].encode("utf-8")
    fixed = line[: start["column"] - 1] + suggestion["text"].encode("utf-8") + line[end["column"] - 1 :]
    assert fixed.decode("utf-8") == "    matmul_kernel[(1,)](a, b, c, α, BLOCK=16)"


def test_rdjson_suggestions_come_from_fix_edits() -> None:
    source = "x = 'é'\ny = 'ü'; z = b_a\n"
    edit = Edit(Position(2, 14), Position(2, 17), "b_c")
    finding = Finding(
        code="ASC003",
        name="dot-lhs-reuse",
        message="b_a is read after tl.dot",
        filename="k.py",
        location=Position(2, 14),
        end_location=Position(2, 17),
        fix=Fix("safe", "Read the result", (edit,)),
    )
    (diagnostic,) = json.loads(render_rdjson([FileResult("k.py", source, [finding])], None))["diagnostics"]
    suggestion_range = {"start": {"line": 2, "column": 15}, "end": {"line": 2, "column": 18}}
    assert diagnostic["suggestions"] == [{"range": suggestion_range, "text": "b_c"}]
    assert "y = 'ü'; z = b_a".encode()[14:17] == b"b_a"


def test_rdjsonl_is_one_self_contained_diagnostic_a_line(project: Path, rdjson_document: dict) -> None:
    diagnostics = [json.loads(line) for line in output(project, "rdjsonl").splitlines()]
    assert all(d.pop("source") == rdjson_document["source"] for d in diagnostics)
    assert diagnostics == rdjson_document["diagnostics"]


def test_unlintable_file_is_reported(tmp_path: Path) -> None:
    broken = tmp_path / "triton_ascend" / "broken.py"
    broken.parent.mkdir()
    broken.write_text("import triton\n\n\n@triton.jit\ndef f(x:\n    return tl.dot(x, x)\n", encoding="utf-8")
    github = ascend_lint("check", "--output-format", "github", cwd=tmp_path)
    assert github.returncode == 2
    assert github.stdout.startswith(f"::error file={broken.as_posix()},")
    rdjson = ascend_lint("check", "--output-format", "rdjson", cwd=tmp_path)
    (diagnostic,) = json.loads(rdjson.stdout)["diagnostics"]
    assert diagnostic["severity"] == "ERROR" and diagnostic["location"]["path"] == broken.as_posix()


def test_review_paths_are_absolute_wherever_ascend_lint_runs(tmp_path: Path) -> None:
    """As ruff's `github` and `rdjson`: a step with `working-directory: pkg` printing
    `file=triton_ascend/k.py` would annotate the repository root's `triton_ascend/k.py` (the
    runner reads a relative path from the root); an absolute one it makes relative to the
    repository, and reviewdog to where it runs. The related locations in an annotation's
    message are for a reader, relative to where ascend-lint ran."""
    package = tmp_path / "pkg"
    write_project(package)
    kernel = (package / BAD_PATH).as_posix()
    github = ascend_lint("check", "--output-format", "github", cwd=package)
    lines = github.stdout.splitlines()
    assert lines and all(line.startswith(f"::error file={kernel},") for line in lines)
    (asc003,) = [line for line in lines if "title=ASC003" in line]
    assert f"%0A{BAD_PATH}:{DOT_LINE}:" in asc003
    rdjson = json.loads(ascend_lint("check", "--output-format", "rdjson", cwd=package).stdout)
    paths = {d["location"]["path"] for d in rdjson["diagnostics"]}
    paths |= {r["location"]["path"] for d in rdjson["diagnostics"] for r in d.get("related_locations", ())}
    assert paths == {kernel}
    (line,) = ascend_lint("check", "--output-format", "rdjsonl", cwd=package).stdout.splitlines()[:1]
    assert json.loads(line)["location"]["path"] == kernel


def apply_suggestion(source: str, suggestion: dict) -> str:
    """What accepting a GitHub suggested change does, as reviewdog builds it from a line-wise
    suggestion (no columns): lines start..end, breaks included, become the text and a break."""
    start, end = suggestion["range"]["start"], suggestion["range"]["end"]
    assert "column" not in start and "column" not in end
    lines = source.splitlines(keepends=True)
    text = suggestion["text"]
    return "".join([*lines[: start["line"] - 1], text + "\n" if text else "", *lines[end["line"] :]])


def suggestion_lines(suggestion: dict) -> tuple[int, int]:
    start, end = suggestion["range"]["start"]["line"], suggestion["range"]["end"].get("line")
    return start, end or start


def comment_lines(diagnostic: dict) -> tuple[int, int]:
    return suggestion_lines(diagnostic["location"])


def test_rdjson_fix_reaching_other_lines_is_no_suggestion_but_named(tmp_path: Path) -> None:
    """ASC003's fix inserts a copy before the dot and reads it there, lines above the read it
    reports: reviewdog's GitHub reviewer would reject a suggestion on lines other than the
    comment's, or move the comment to them, so there is none; the message names the fix and
    the command that applies it, which gives the fixed file."""
    example = Path(__file__).parent.parent / "fixtures" / "example" / "triton_ascend" / "chunk_o_example.py"
    for folder in ("review", "fix"):
        (tmp_path / folder / "triton_ascend").mkdir(parents=True)
        (tmp_path / folder / "triton_ascend" / example.name).write_text(example.read_text("utf-8"), "utf-8")
    select = ("--select", "ASC003", "--no-cache")
    review = ascend_lint("check", *select, "--output-format", "rdjson", cwd=tmp_path / "review")
    (diagnostic,) = json.loads(review.stdout)["diagnostics"]
    assert "suggestions" not in diagnostic
    assert "Unsafe fix available: " in diagnostic["message"]
    assert diagnostic["message"].split("`")[-2] == "ascend-lint check --fix --unsafe-fixes"
    fix = ascend_lint("check", *select, "--fix", "--unsafe-fixes", cwd=tmp_path / "fix")
    assert fix.returncode == 0, fix.stdout + fix.stderr


def test_rdjson_suggestions_sit_on_the_findings_lines(tmp_path: Path) -> None:
    """Over the fixture kernels, every suggestion covers exactly its comment's lines (what
    reviewdog's `buildSingleSuggestion` requires) and a line-wise one, accepted, gives the
    file its fix gives; every other fix is named in the message."""
    fixtures = Path(__file__).parent.parent / "fixtures"
    done = ascend_lint("check", "--output-format", "rdjson", "--no-cache", str(fixtures), cwd=tmp_path)
    diagnostics = json.loads(done.stdout)["diagnostics"]
    fixes = {
        (f["filename"], f["location"]["row"], f["location"]["column"], f["code"]): f["fix"]
        for f in cli_json(str(fixtures), cwd=tmp_path)
        if f["fix"]
    }
    line_wise = 0
    for diagnostic in diagnostics:
        path, start = diagnostic["location"]["path"], diagnostic["location"]["range"]["start"]
        source = Path(path).read_text(encoding="utf-8")
        column = len(source.splitlines()[start["line"] - 1].encode("utf-8")[: start["column"] - 1].decode("utf-8")) + 1
        fix = fixes.pop((path, start["line"], column, diagnostic["code"]["value"]), None)
        if fix is None:
            assert "suggestions" not in diagnostic, diagnostic
            continue
        (suggestion,) = diagnostic.get("suggestions") or [None]
        if suggestion is None:
            assert "fix available: " in diagnostic["message"].lower(), diagnostic
            continue
        assert suggestion_lines(suggestion) == comment_lines(diagnostic), diagnostic
        if "column" not in suggestion["range"]["start"]:
            edits = [Edit(Position(**e["location"]), Position(**e["end_location"]), e["content"]) for e in fix["edits"]]
            assert apply_suggestion(source, suggestion) == apply_edits(source, edits), diagnostic
            line_wise += 1
    assert not fixes and line_wise  # every fix was seen, and some as a line-wise suggestion


@pytest.mark.parametrize(
    "edits",
    [
        # an inserted line, an unchanged one, a rewritten one
        (Edit(Position(2, 1), Position(2, 1), "x = 0\n"), Edit(Position(4, 1), Position(4, 2), "y")),
        # the last line deleted with its break
        (Edit(Position(2, 5), Position(2, 6), "20"), Edit(Position(4, 1), Position(5, 1), "")),
        # lines joined, and a deletion running to the end of the file
        (Edit(Position(1, 6), Position(2, 1), "; "), Edit(Position(3, 1), Position(5, 1), "")),
        # one edit over several lines
        (Edit(Position(2, 1), Position(4, 1), "bc = 23\n"),),
    ],
)
def test_rdjson_line_wise_suggestion_gives_the_fixed_file(edits: tuple[Edit, ...]) -> None:
    source = "a = 1\nb = 2\nc = 3\nd = 4\n"
    finding = Finding(
        code="ASC003",
        name="dot-lhs-reuse",
        message="m",
        filename="k.py",
        location=Position(1, 1),
        end_location=Position(4, 6),
        fix=Fix("unsafe", "Fix", edits),
    )
    (diagnostic,) = json.loads(render_rdjson([FileResult("k.py", source, [finding])], None))["diagnostics"]
    (suggestion,) = diagnostic["suggestions"]
    assert apply_suggestion(source, suggestion) == apply_edits(source, edits)
    assert suggestion_lines(suggestion) == comment_lines(diagnostic) == (1, 4)
    assert diagnostic["message"] == "m"


@pytest.mark.parametrize(
    "edits",
    [
        (Edit(Position(1, 1), Position(1, 2), "z"), Edit(Position(3, 1), Position(3, 2), "y")),  # a line before
        (Edit(Position(3, 1), Position(3, 2), "y"), Edit(Position(4, 1), Position(4, 2), "w")),  # a line after
        (Edit(Position(3, 6), Position(4, 1), "; "),),  # the finding's last line joined with the next
    ],
)
def test_rdjson_fix_beyond_the_findings_lines_is_named(edits: tuple[Edit, ...]) -> None:
    source = "a = 1\nb = 2\nc = 3\nd = 4\n"
    finding = Finding(
        code="ASC001",
        name="launch-num-warps",
        message="m",
        filename="k.py",
        location=Position(2, 1),
        end_location=Position(3, 2),
        fix=Fix("safe", "Remove `num_warps`", edits),
    )
    (diagnostic,) = json.loads(render_rdjson([FileResult("k.py", source, [finding])], None))["diagnostics"]
    assert "suggestions" not in diagnostic
    assert diagnostic["message"].startswith("m\n\nFix available: Remove `num_warps`. Run `ascend-lint check --fix`:")


def readme_workflow() -> dict:
    """The GitHub Actions workflow the README tells users to save."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    after = readme.split("Save as `.github/workflows/ascend-lint.yml`", 1)[1]
    return yaml.safe_load(after.split("```yaml\n", 1)[1].split("```", 1)[0])


def test_readme_workflow_grants_what_upload_sarif_needs() -> None:
    jobs = readme_workflow()["jobs"]
    assert jobs["code-scanning"]["permissions"] == {"contents": "read", "security-events": "write", "actions": "read"}
    uploads = [step["uses"] for step in jobs["code-scanning"]["steps"] if "upload-sarif" in step.get("uses", "")]
    assert uploads == ["github/codeql-action/upload-sarif@v4"]  # v3 is deprecated in December 2026


def test_readme_workflow_pipes_fail_on_an_ascend_lint_error(tmp_path: Path) -> None:
    """A step piping ascend-lint into reviewdog runs under `shell: bash` (GitHub's `bash -eo
    pipefail`): a configuration error fails it, while findings are left to reviewdog."""
    piped = [step for job in readme_workflow()["jobs"].values() for step in job["steps"] if "|" in step.get("run", "")]
    assert piped
    stub = tmp_path / "bin" / "reviewdog"  # reads the diagnostics and succeeds, as reviewdog does
    stub.parent.mkdir()
    stub.write_text("#!/bin/sh\ncat > /dev/null\n", encoding="utf-8")
    stub.chmod(0o755)
    path = os.pathsep.join([str(stub.parent), str(Path(sys.executable).parent), os.environ["PATH"]])
    findings, broken = tmp_path / "findings", tmp_path / "broken"
    for project in (findings, broken):
        write_project(project)
    with (broken / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
        pyproject.write('\n[tool.ascend-lint]\nselectt = ["ASC"]\n')
    for step in piped:
        assert step.get("shell") == "bash", step
        command = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]]
        runs = {
            project: subprocess.run(
                command, cwd=project, env={**os.environ, "PATH": path}, capture_output=True, text=True
            )
            for project in (findings, broken)
        }
        assert runs[findings].returncode == 0, runs[findings].stderr
        assert runs[broken].returncode == 2 and "selectt" in runs[broken].stderr, runs[broken].stderr
