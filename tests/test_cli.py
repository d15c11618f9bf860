"""`ascend-lint check` output formats and exit codes, `rule`, `rules` (run in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_lint.cli import main
from ascend_lint.registry import all_rules

# ASC001 at the launch keyword, ASC003 at the read of b_q (non-ASCII text before it on the
# line: columns count code points), ASC005 with two related DMA arms.
KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def chunk_o_kernel(q, h, o, o_α, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    b_q = tl.load(q + tl.arange(0, BT))
    b_o = tl.dot(b_q, tl.load(h))
    tl.store(o_α + 0 * T, b_o); tl.store(o, b_q)
    if i_t == NT - 1:
        tl.store(o + tl.arange(0, BT), b_o, mask=tl.arange(0, BT) < T)
    else:
        tl.store(tl.make_block_ptr(o, (T,), (1,), (0,), (BT,), (0,)), b_o)


def chunk_o(q, h, o, T):
    chunk_o_kernel[(1,)](q, h, o, o, T, 1, BT=64, num_warps=4)
"""
PATH = "pkg/triton_ascend/chunk_o.py"
CLEAN = """\
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x, y, BT: tl.constexpr):
    tl.store(y + tl.arange(0, BT), tl.load(x + tl.arange(0, BT)))
"""
CLEAN_PATH = "pkg/triton_ascend/copy.py"
LINES = KERNEL.splitlines()
KEYS = {"code", "name", "message", "filename", "location", "end_location", "fix", "noqa_row", "related"}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for relative, text in ((PATH, KERNEL), (CLEAN_PATH, CLEAN)):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*argv: str, capsys) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def json_findings(capsys, *paths: str) -> list[dict]:
    code, out, err = run("check", "--output-format", "json", *paths, capsys=capsys)
    assert code == 1 and not err, err
    return json.loads(out)


@pytest.mark.parametrize(
    "argv",
    [
        ["--output-format", "json", PATH, CLEAN_PATH, "--select", "ASC001"],
        [PATH, "--output-format", "json", "--select", "ASC001", CLEAN_PATH],
        ["--select", "ASC001", PATH, "--output-format=json", CLEAN_PATH, "--isolated"],
    ],
)
def test_paths_may_come_before_between_and_after_options(project: Path, capsys, argv: list[str]) -> None:
    """As ruff takes them: `check a.py --fix b.py` lints both files."""
    code, out, err = run("check", "--no-cache", *argv, capsys=capsys)
    assert code == 1 and not err, err
    assert {(f["filename"], f["code"]) for f in json.loads(out)} == {(PATH, "ASC001")}
    with pytest.raises(SystemExit) as usage:  # argparse's usage error
        main(["check", "--no-cache", PATH, "--bogus", CLEAN_PATH])
    assert usage.value.code == 2 and "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_a_file_reached_twice_is_linted_once(project: Path, capsys) -> None:
    """As ruff: `check . a.py ./a.py /abs/a.py` lints and reports `a.py` once (and `--fix` fixes
    it once: twice raced with itself in the pool)."""
    absolute = str(project / PATH)
    code, out, err = run(
        "check", "--no-cache", "--output-format", "json", ".", PATH, f"./{PATH}", absolute, capsys=capsys
    )
    assert code == 1 and not err, err
    assert sorted(f["code"] for f in json.loads(out)) == ["ASC001", "ASC003", "ASC005"]
    code, _, err = run("check", "--no-cache", "--fix", ".", PATH, f"./{PATH}", capsys=capsys)
    assert "error" not in err and "num_warps" not in (project / PATH).read_text(encoding="utf-8")


def test_paths_after_a_double_dash_may_look_like_options(project: Path, capsys) -> None:
    (project / "-k.py").write_text(KERNEL, encoding="utf-8")
    code, out, err = run("check", "--no-cache", "--target-all", "--output-format=json", "--", "-k.py", capsys=capsys)
    assert code == 1 and not err, err
    assert {f["filename"] for f in json.loads(out)} == {"-k.py"}


def text_at(location: dict, end_location: dict) -> str:
    """The source text a (1-based, end-exclusive) single-line range covers."""
    assert location["row"] == end_location["row"]
    return LINES[location["row"] - 1][location["column"] - 1 : end_location["column"] - 1]


def by_code(findings: list[dict], code: str) -> dict:
    (finding,) = [f for f in findings if f["code"] == code]
    return finding


def test_json_has_ruff_compatible_keys(project: Path, capsys) -> None:
    findings = json_findings(capsys)
    assert {f["code"] for f in findings} == {"ASC001", "ASC003", "ASC005"}
    for finding in findings:
        assert set(finding) >= KEYS
        assert finding["filename"] == PATH
        assert set(finding["location"]) == set(finding["end_location"]) == {"row", "column"}
        assert finding["noqa_row"] == finding["location"]["row"]
        for related in finding["related"]:
            assert {"filename", "location", "message"} <= set(related)
    assert by_code(findings, "ASC003")["name"] == "dot-lhs-reuse"


def test_json_positions_are_one_based_and_match_the_source(project: Path, capsys) -> None:
    findings = json_findings(capsys)
    asc001 = by_code(findings, "ASC001")
    assert text_at(asc001["location"], asc001["end_location"]) == "num_warps=4"
    asc003 = by_code(findings, "ASC003")
    row = LINES.index("    tl.store(o_α + 0 * T, b_o); tl.store(o, b_q)") + 1
    assert asc003["location"] == {"row": row, "column": LINES[row - 1].rindex("b_q") + 1}
    assert text_at(asc003["location"], asc003["end_location"]) == "b_q"


def test_json_related_locations(project: Path, capsys) -> None:
    findings = json_findings(capsys)
    (dot,) = by_code(findings, "ASC003")["related"]
    assert dot["filename"] == PATH
    assert LINES[dot["location"]["row"] - 1][dot["location"]["column"] - 1 :].startswith("tl.dot(b_q")
    asc005 = by_code(findings, "ASC005")
    assert LINES[asc005["location"]["row"] - 1].strip() == "if i_t == NT - 1:"
    arms = {LINES[r["location"]["row"] - 1][r["location"]["column"] - 1 :][:20] for r in asc005["related"]}
    assert arms == {"tl.store(o + tl.aran", "tl.store(tl.make_blo"}


def test_text_format(project: Path, capsys) -> None:
    findings = json_findings(capsys)
    code, out, _ = run("check", capsys=capsys)
    assert code == 1
    for finding in findings:
        where = f"{PATH}:{finding['location']['row']}:{finding['location']['column']}"
        assert f"{where}: {finding['code']} [{finding['name']}] {finding['message']}\n" in out
    asc001 = by_code(findings, "ASC001")
    # the excerpt shows the line and underlines the reported range
    excerpt = out.split(f"{PATH}:{asc001['location']['row']}:")[1].splitlines()[1:3]
    assert excerpt[0].endswith(LINES[asc001["location"]["row"] - 1])
    assert excerpt[1].endswith(" " * (asc001["location"]["column"] - 1) + "^" * len("num_warps=4"))
    assert "Found 3 findings" in out


def test_concise_format_is_one_line_per_finding_and_a_summary(project: Path, capsys) -> None:
    code, out, _ = run("check", "--output-format", "concise", capsys=capsys)
    lines = out.splitlines()
    assert code == 1
    assert [line.split(": ")[1].split(" ")[0] for line in lines[:3]] == ["ASC003", "ASC005", "ASC001"]
    assert all(line.startswith(f"{PATH}:") for line in lines[:3])
    assert lines[3].startswith("Found 3 findings (ASC001: 1, ASC003: 1, ASC005: 1) in 2 files")


def test_exit_code_0_when_clean(project: Path, capsys) -> None:
    code, out, err = run("check", CLEAN_PATH, capsys=capsys)
    assert (code, err) == (0, "")
    assert "All checks passed" in out
    code, out, _ = run("check", "--output-format", "json", CLEAN_PATH, capsys=capsys)
    assert (code, json.loads(out)) == (0, [])


def test_exit_code_2_on_a_usage_error(project: Path, capsys) -> None:
    code, _, err = run("check", "--select", "XYZ", capsys=capsys)
    assert code == 2 and "XYZ" in err
    with pytest.raises(SystemExit) as exited:  # argparse: unknown format
        main(["check", "--output-format", "xml"])
    assert exited.value.code == 2


def test_exit_code_2_wins_over_findings(project: Path, capsys) -> None:
    (project / "pkg" / "triton_ascend" / "broken.py").write_text("import triton  # tl.dot\ndef f(:\n", encoding="utf-8")
    code, out, err = run("check", capsys=capsys)
    assert code == 2
    assert "pkg/triton_ascend/broken.py:" in err and "ASC003" in out


def test_exit_zero(project: Path, capsys) -> None:
    code, out, _ = run("check", "--exit-zero", capsys=capsys)
    assert code == 0 and "ASC003" in out


def test_statistics(project: Path, capsys) -> None:
    """ruff's table and nothing else: most frequent first (then by code), the count
    right-aligned, `[*]` when a fix applies (ASC003's is unsafe: only with --unsafe-fixes)."""
    (project / "pkg" / "triton_ascend" / "twice.py").write_text(KERNEL, encoding="utf-8")
    no_launch = KERNEL[: KERNEL.index("\n\ndef chunk_o(")] + "\n"
    (project / "pkg" / "triton_ascend" / "thrice.py").write_text(no_launch, encoding="utf-8")
    code, out, _ = run("check", "--statistics", capsys=capsys)
    assert code == 1
    table = [line for line in out.splitlines() if "\t" in line]
    assert table == [
        "3\tASC003\t[ ] dot-lhs-reuse",
        "3\tASC005\t[ ] runtime-dma-branch",
        "2\tASC001\t[*] launch-num-warps",
    ]
    assert out.startswith("\n".join(table) + "\nFound 8 findings") and PATH not in out
    _, out, _ = run("check", "--statistics", "--unsafe-fixes", "--output-format", "concise", capsys=capsys)
    assert "3\tASC003\t[*] dot-lhs-reuse" in out.splitlines()
    code, out, _ = run("check", "--statistics", "--output-format", "json", capsys=capsys)
    assert code == 1 and json.loads(out) == [
        {"code": "ASC003", "name": "dot-lhs-reuse", "count": 3, "fixable": False, "fixable_count": 0},
        {"code": "ASC005", "name": "runtime-dma-branch", "count": 3, "fixable": False, "fixable_count": 0},
        {"code": "ASC001", "name": "launch-num-warps", "count": 2, "fixable": True, "fixable_count": 2},
    ]


def test_statistics_of_files_that_could_not_be_linted(project: Path, capsys) -> None:
    (project / "pkg" / "triton_ascend" / "broken.py").write_text("import triton\ndef f(:\n", encoding="utf-8")
    code, out, _ = run("check", "--statistics", "--select", "ASC001", capsys=capsys)
    assert code == 2
    assert [line for line in out.splitlines() if "\t" in line] == [  # no code sorts first, as in ruff
        "1\t      \t[ ] invalid-syntax",
        "1\tASC001\t[*] launch-num-warps",
    ]
    _, out, _ = run("check", "--statistics", "--select", "ASC001", "--output-format", "json", capsys=capsys)
    assert json.loads(out)[0] == {
        "code": None,
        "name": "invalid-syntax",
        "count": 1,
        "fixable": False,
        "fixable_count": 0,
    }


def test_statistics_in_a_format_without_a_table_is_an_error(project: Path, capsys) -> None:
    code, out, err = run("check", "--statistics", "--output-format", "sarif", capsys=capsys)
    assert code == 2 and not out and "--statistics has no sarif form" in err


def test_json_reports_a_file_that_could_not_be_linted(project: Path, capsys) -> None:
    """As ruff's syntax errors: an entry with no code, in JSON and JSON lines alike."""
    (project / "pkg" / "triton_ascend" / "broken.py").write_text("import triton\ndef f(:\n", encoding="utf-8")
    (project / "pkg" / "triton_ascend" / "latin.py").write_bytes(b"x = '\xe9'\n")
    code, out, err = run("check", "--output-format", "json", capsys=capsys)
    assert code == 2 and "broken.py:2:7: error: SyntaxError" in err
    errors = [entry for entry in json.loads(out) if entry["code"] is None]
    assert errors == [
        {
            "code": None,
            "name": "invalid-syntax",
            "message": "SyntaxError: invalid syntax",
            "filename": "pkg/triton_ascend/broken.py",
            "location": {"row": 2, "column": 7},
            "end_location": {"row": 2, "column": 7},
            "fix": None,
            "noqa_row": None,
            "url": None,
            "related": [],
        },
        errors[1]
        | {"name": "lint-error", "filename": "pkg/triton_ascend/latin.py", "location": {"row": 1, "column": 6}},
    ]
    assert errors[1]["message"].startswith("file is not valid utf-8") and len(json.loads(out)) > 2  # findings too
    _, lines, _ = run("check", "--output-format", "json-lines", capsys=capsys)
    assert [json.loads(line) for line in lines.splitlines()] == json.loads(out)


def test_exit_zero_with_a_file_that_could_not_be_linted(project: Path, capsys) -> None:
    """ruff exits 0 with --exit-zero on syntax errors too; the error is still reported."""
    (project / "pkg" / "triton_ascend" / "broken.py").write_text("import triton\ndef f(:\n", encoding="utf-8")
    code, out, err = run("check", "--exit-zero", capsys=capsys)
    assert code == 0 and "broken.py:2:7: error:" in err and "could not be linted" in out
    code, _, err = run("check", "--exit-zero", "--select", "XYZ", capsys=capsys)
    assert code == 2 and "XYZ" in err  # a usage error is still one


@pytest.mark.parametrize("selector", ["ASC003", "asc003", "dot-lhs-reuse"])
def test_rule_prints_its_documentation(capsys, selector: str) -> None:
    code, out, _ = run("rule", selector, capsys=capsys)
    assert code == 0
    assert out.startswith("# dot-lhs-reuse (ASC003)")
    sections = ["## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety"]
    positions = [out.index(section) for section in sections]
    assert positions == sorted(positions)
    assert "tl.dot" in out and "+ 0.0" in out


def test_rule_brief_leaves_out_the_details(capsys) -> None:
    """`--brief` prints what the editor's hover shows: the documentation up to `## Details`,
    then where the details are."""
    code, full, _ = run("rule", "ASC010", capsys=capsys)
    assert code == 0 and "## Details" in full
    code, brief, _ = run("rule", "ASC010", "--brief", capsys=capsys)
    assert code == 0 and "## Details" not in brief and "## Fix safety" in brief
    assert full.startswith(brief.split("\n*Details")[0]) and len(brief) < len(full) / 4


def test_rule_unknown(capsys) -> None:
    code, out, err = run("rule", "ASC042", capsys=capsys)
    assert (code, out) == (2, "")
    assert "ASC042" in err and "ASC001" in err


def test_rule_without_a_selector_is_a_usage_error(capsys) -> None:
    code, out, err = run("rule", capsys=capsys)
    assert (code, out) == (2, "")
    assert "needs a code or name" in err and "None" not in err


def test_rules_lists_every_registered_rule(capsys) -> None:
    code, out, _ = run("rules", capsys=capsys)
    assert code == 0
    listed = [line.split()[:2] for line in out.splitlines() if line.strip()]
    assert listed == [[rule.CODE, rule.NAME] for rule in all_rules()]


def test_fix_on_stdin_prints_the_fixed_buffer_and_writes_nothing(tmp_path, monkeypatch, capsys):
    """As ruff: with `-` the fixed text goes to stdout, the report to stderr; no file is written."""
    import io

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(KERNEL.encode())))
    status = main(["check", "-", "--stdin-filename", PATH, "--fix", "--isolated"])
    out, err = capsys.readouterr()
    assert "num_warps" not in out and out.startswith("import triton")
    assert out.replace("chunk_o_kernel[(1,)](q, h, o, o, T, 1, BT=64)", "") != out
    assert "ASC003" in err and "ASC001" not in err
    assert status == 1
    assert not (tmp_path / PATH).exists()


def test_stdin_filename_without_a_dash_reads_stdin_and_ignores_the_paths_given(tmp_path, monkeypatch, capsys):
    """As ruff: `--stdin-filename` alone reads stdin (an editor calling `check --stdin-filename F`
    without `-` got the findings of the current folder); a path given beside it is ignored, with
    a warning. `-` beside paths still lints both."""
    import io

    monkeypatch.chdir(tmp_path)
    on_disk = tmp_path / "triton_ascend" / "other.py"
    on_disk.parent.mkdir()
    on_disk.write_text(KERNEL)
    for args, linted in (
        ([], {PATH}),
        (["triton_ascend"], {PATH}),
        (["-", "triton_ascend"], {PATH, "triton_ascend/other.py"}),
    ):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(KERNEL.encode())))
        status = main(["check", "--isolated", "--no-cache", "--output-format", "json", "--stdin-filename", PATH, *args])
        out, err = capsys.readouterr()
        assert status == 1
        assert {finding["filename"] for finding in json.loads(out)} == linted
        ignored = "warning: ignoring file triton_ascend in favor of standard input" in err
        assert ignored == (args == ["triton_ascend"])


@pytest.mark.parametrize("value", ["-5", "nan", "inf", "1e10", "soon"])
def test_a_timeout_that_is_no_usable_number_of_seconds_is_a_usage_error(value, capsys):
    """Before, a negative or huge budget reached the CPU timer and every file became an
    internal error (`setitimer`'s EINVAL, NaN's ValueError, an OverflowError)."""
    with pytest.raises(SystemExit) as exited:
        main(["check", "--timeout-per-file", value, "."])
    assert exited.value.code == 2
    assert "--timeout-per-file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("encode", "fixed"),
    [
        ("bom-crlf", True),  # the BOM and the \r\n line endings of the buffer stay
        ("latin-1", True),  # written back in the encoding its cookie names
        ("invalid-utf-8", False),  # not linted (exit 2, "not valid utf-8"): the buffer comes back as it was
    ],
)
def test_fix_on_stdin_prints_the_buffer_in_its_own_bytes(tmp_path, encode, fixed):
    """Stdin is read as a file is (bytes, then CPython's decoding), and printed back in the same
    bytes: before, a BOM was dropped, a latin-1 buffer was read as UTF-8 and an undecodable one
    was an internal error."""
    import subprocess
    import sys

    def as_bytes(text: str) -> bytes:
        if encode == "bom-crlf":
            return b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()
        if encode == "latin-1":
            return f"# -*- coding: latin-1 -*-\n# café\n{text}".encode("latin-1")
        return b"# \xff\n" + text.encode()

    stdin = as_bytes(KERNEL.replace("o_α", "o_a"))  # latin-1 has no α
    expected = as_bytes(KERNEL.replace("o_α", "o_a").replace("BT=64, num_warps=4)", "BT=64)")) if fixed else stdin
    command = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--fix", "--stdin-filename", PATH, "-"]
    done = subprocess.run(command, cwd=tmp_path, input=stdin, capture_output=True, timeout=120)
    assert done.stdout == expected
    assert done.returncode == (1 if fixed else 2), done.stderr
    assert (b"ASC003" in done.stderr) == fixed
    assert (b"file is not valid utf-8: byte 0xff" in done.stderr) != fixed


NOT_ASCEND = (
    "not Ascend kernel code: no Ascend folder (`triton_ascend`, `*ascend*`, `*npu*`) on the path, no Ascend "
    "import, no `torch_npu` / `triton-ascend` dependency in the project, no kernel launched on an NPU path, no "
    "kernel launched or autotune configs taken from an Ascend module of its package"
)


def test_show_files_lists_the_files_in_run_order_and_why_any_is_skipped(project: Path, capsys) -> None:
    """ruff's `--show-files`: the files a run considers, linting nothing (no cache written), exit
    0; a file default targeting leaves out says so and why, greppably."""
    (project / "pkg" / "cuda").mkdir()
    (project / "pkg" / "cuda" / "k.py").write_text(CLEAN, encoding="utf-8")
    (project / "pkg" / "triton_ascend" / "broken.py").write_bytes(b"import triton\n# \xff\n")
    code, out, err = run("check", "--show-files", capsys=capsys)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"pkg/cuda/k.py  (skipped: {NOT_ASCEND})",
        "pkg/triton_ascend/broken.py  (error: file is not valid utf-8: byte 0xff at offset 16)",
        PATH,
        CLEAN_PATH,
    ]
    assert not (project / ".ascend_lint_cache").exists()
    code, out, _ = run("check", "--show-files", "--target-all", "missing.py", "pkg/cuda", capsys=capsys)
    assert (code, out.splitlines()) == (0, ["missing.py  (error: no such file or directory)", "pkg/cuda/k.py"])


def test_verbose_lists_each_skipped_file_on_stderr(project: Path, capsys) -> None:
    (project / "pkg" / "cuda").mkdir()
    (project / "pkg" / "cuda" / "k.py").write_text(CLEAN, encoding="utf-8")
    line = f"pkg/cuda/k.py  (skipped: {NOT_ASCEND})\n"
    code, out, err = run("check", "--verbose", CLEAN_PATH, "pkg/cuda", capsys=capsys)
    assert (code, err) == (0, line)
    assert out.endswith("`--show-files` names them.\n")
    code, out, err = run("check", "--verbose", "--output-format", "json", CLEAN_PATH, "pkg/cuda", capsys=capsys)
    assert (code, json.loads(out), err) == (0, [], line)  # the data on stdout stays clean
    assert run("check", CLEAN_PATH, "pkg/cuda", capsys=capsys)[2] == ""  # without --verbose, the summary only


def test_show_settings_prints_what_the_first_file_is_linted_with(project: Path, capsys) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.ascend-lint]\nignore = ["ASC00"]\nper-file-ignores = { "**/chunk_o.py" = ["ASC010", "ASC011"] }\n'
        'per-file-target-soc = { "pkg/**" = "ascend950" }\n',
        encoding="utf-8",
    )
    code, out, err = run("check", "--show-settings", "--extend-select", "ASC003", "pkg", capsys=capsys)
    assert (code, err) == (0, "")
    rules = [
        rule for rule in all_rules() if rule.CODE not in ("ASC010", "ASC011") and not rule.CODE.startswith("ASC00")
    ]
    rules.insert(0, next(rule for rule in all_rules() if rule.CODE == "ASC003"))
    assert out == "\n".join(
        [
            f'Resolved settings for: "{PATH}"',
            'Settings path: "pyproject.toml"',
            "",
            "# Files",
            f"root = {json.dumps(str(project.resolve()))}",
            "exclude = []",
            "excluded = false",
            "force-exclude = false",
            "target-paths = none",
            "target-all = false",
            "targeted = true",
            "skip-reason = none",
            "error = none",
            "",
            "# Rules",
            'select = ["ASC"]',
            "extend-select = []",
            'ignore = ["ASC00"]',
            "command-line.select = none",
            'command-line.extend-select = ["ASC003"]',
            "command-line.ignore = []",
            'per-file-ignores = {"**/chunk_o.py": ["ASC010", "ASC011"]}',
            "enabled = [",
            *(f"\t{rule.NAME} ({rule.CODE})," for rule in rules),
            "]",
            "",
            "# Analysis",
            'target-soc = "ascend950"',
            'per-file-target-soc = {"pkg/**": "ascend950"}',
            "triton-modules = []",
            "timeout-per-file = 300.0",
            "",
            "# Cache",
            f"cache-dir = {json.dumps(str(project.resolve() / '.ascend_lint_cache'))}",
            "cache = true",
            "",
        ]
    )
    assert not (project / ".ascend_lint_cache").exists()


def test_show_settings_of_a_skipped_file_says_why_and_of_a_missing_one_is_an_error(project: Path, capsys) -> None:
    (project / "pkg" / "cuda").mkdir()
    (project / "pkg" / "cuda" / "k.py").write_text(CLEAN, encoding="utf-8")
    code, out, _ = run("check", "--show-settings", "--no-cache", "pkg/cuda/k.py", capsys=capsys)
    assert code == 0
    assert "Settings path: none\n" in out
    assert f"targeted = false\nskip-reason = {json.dumps(NOT_ASCEND)}\n" in out
    assert out.endswith("cache = false\n")
    code, out, err = run("check", "--show-settings", "missing.py", capsys=capsys)
    assert (code, out, err) == (2, "", "ascend-lint: error: missing.py: no such file or directory\n")
    with pytest.raises(SystemExit) as exited:  # one or the other, as in ruff
        main(["check", "--show-settings", "--show-files"])
    assert exited.value.code == 2
