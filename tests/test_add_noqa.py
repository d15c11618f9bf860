"""`ascend-lint check --add-noqa`: baselining the findings of a codebase (run in-process, on
temporary copies), as ruff's `ruff check --add-noqa`."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from ascend_lint.cli import main

FIXTURES = Path(__file__).parent.parent / "fixtures"

# ASC002 on row 7, ASC003 and ASC002 on row 10, ASC001 on row 14.
KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def chunk_o_kernel(q, h, o, B, BT: tl.constexpr):
    n = B.to(tl.int64)
    b_q = tl.load(q + tl.arange(0, BT))
    b_o = tl.dot(b_q, tl.load(h))
    tl.store(o, b_q + B.to(tl.int64) + b_o + n)


def chunk_o(q, h, o, B):
    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)
"""
LAUNCH = "    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)"
STORE = "    tl.store(o, b_q + B.to(tl.int64) + b_o + n)"
CAST = "    n = B.to(tl.int64)"
PATH = "pkg/triton_ascend/chunk_o.py"
# the kernel once baselined: one directive per row, its codes sorted
BASELINED = (
    KERNEL.replace(CAST, f"{CAST}  # noqa: ASC002")
    .replace(STORE, f"{STORE}  # noqa: ASC002, ASC003")
    .replace(LAUNCH, f"{LAUNCH}  # noqa: ASC001")
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, KERNEL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(root: Path, text: str, relative: str = PATH) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def run(*argv: str, capsys) -> tuple[int, str, str]:
    code = main(["check", "--no-cache", "--jobs", "1", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def add_noqa(*argv: str, capsys) -> tuple[int, str]:
    """`--add-noqa`'s exit status and stderr; it prints nothing on stdout."""
    code, out, err = run("--add-noqa", *argv, capsys=capsys)
    assert out == ""
    return code, err


def remaining(*argv: str, capsys) -> str:
    """What `check` still reports (concise), "" when it passes."""
    code, out, err = run("--output-format", "concise", *argv, capsys=capsys)
    return "" if code == 0 else out + err


def test_the_fixtures_are_baselined_in_one_run_and_a_second_adds_nothing(tmp_path: Path, monkeypatch, capsys) -> None:
    shutil.copytree(FIXTURES / "triton_ascend", tmp_path / "triton_ascend")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("--statistics", "triton_ascend", capsys=capsys)
    assert code == 1 and "Found" in out
    code, err = add_noqa("triton_ascend", capsys=capsys)
    assert code == 0
    assert err.startswith("Added ") and err.endswith(" noqa directives.\n") and err.count("\n") == 1, err
    assert remaining("triton_ascend", capsys=capsys) == ""
    before = {path: path.read_bytes() for path in tmp_path.rglob("*.py")}
    assert add_noqa("triton_ascend", capsys=capsys) == (0, "")  # ruff says nothing when it adds none
    assert {path: path.read_bytes() for path in tmp_path.rglob("*.py")} == before


def test_one_directive_per_row_with_its_codes_sorted(project: Path, capsys) -> None:
    assert add_noqa(capsys=capsys) == (0, "Added 3 noqa directives.\n")
    assert (project / PATH).read_text() == BASELINED
    assert remaining(capsys=capsys) == ""


@pytest.mark.parametrize(
    ("line", "baselined"),
    [
        # codes merge into the line's list, sorted and deduplicated; what follows the list stays
        (f"{STORE}  # noqa: ASC003", f"{STORE}  # noqa: ASC002, ASC003"),
        (f"{STORE}  # noqa: E501,ASC003, ASC003 kept for now", f"{STORE}  # noqa: ASC002, ASC003, E501 kept for now"),
        (f"{STORE}  # keep # NOQA : E501", f"{STORE}  # keep # noqa: ASC002, ASC003, E501"),
        # another comment stays first: the directive goes after it, as ruff puts it
        (f"{STORE}  # type: ignore[arg-type]", f"{STORE}  # type: ignore[arg-type]  # noqa: ASC002, ASC003"),
        # trailing blanks are replaced
        (f"{STORE} \t ", f"{STORE}  # noqa: ASC002, ASC003"),
        # a directive that cannot be read suppresses nothing: the new one goes before it
        (f"{STORE}  # noqa: ASC-003", f"{STORE}  # noqa: ASC002, ASC003  # noqa: ASC-003"),
        # a comment ending in a backslash continues nothing
        (f"{STORE}  # from C:\\", f"{STORE}  # from C:\\  # noqa: ASC002, ASC003"),
    ],
)
def test_the_line_keeps_its_comments(project: Path, capsys, line: str, baselined: str) -> None:
    write(project, KERNEL.replace(STORE, line))
    code, err = add_noqa("--select", "ASC002,ASC003", capsys=capsys)
    assert code == 0 and err.endswith("Added 2 noqa directives.\n"), err
    assert (project / PATH).read_text() == KERNEL.replace(STORE, baselined).replace(CAST, f"{CAST}  # noqa: ASC002")
    left = remaining(capsys=capsys)
    assert "ASC001" in left and "ASC002" not in left and "ASC003" not in left, left


def test_a_bare_noqa_and_the_listed_codes_are_left_alone(project: Path, capsys) -> None:
    text = KERNEL.replace(STORE, f"{STORE}  # noqa").replace(LAUNCH, f"{LAUNCH}  # noqa: ASC001")
    write(project, text)
    assert add_noqa(capsys=capsys) == (0, "Added 1 noqa directive.\n")
    assert (project / PATH).read_text() == text.replace(CAST, f"{CAST}  # noqa: ASC002")


def test_the_rule_selection_decides_which_findings_are_baselined(project: Path, capsys) -> None:
    assert add_noqa("--select", "ASC001", capsys=capsys) == (0, "Added 1 noqa directive.\n")
    assert (project / PATH).read_text() == KERNEL.replace(LAUNCH, f"{LAUNCH}  # noqa: ASC001")
    left = remaining(capsys=capsys)
    assert "ASC001" not in left and "ASC002" in left and "ASC003" in left


def test_a_backslash_continuation_takes_the_directive_on_its_last_row(project: Path, capsys) -> None:
    continued = KERNEL.replace(f"{CAST}\n", f"{CAST} + \\\n        0\n")
    write(project, continued)
    add_noqa("--select", "ASC002", capsys=capsys)
    assert (project / PATH).read_text() == continued.replace("        0\n", "        0  # noqa: ASC002\n").replace(
        STORE, f"{STORE}  # noqa: ASC002"
    )
    assert remaining("--select", "ASC002", capsys=capsys) == ""


def test_the_rows_of_a_bracketed_statement_each_take_their_own(project: Path, capsys) -> None:
    """As in ruff and flake8: the directive goes on the row the finding starts on."""
    bracketed = KERNEL.replace(f"{CAST}\n", "    n = (B.to(tl.int64) +\n         0 +\n         B.to(tl.int32))\n")
    write(project, bracketed)
    add_noqa("--select", "ASC002", capsys=capsys)
    assert (project / PATH).read_text() == bracketed.replace(
        "    n = (B.to(tl.int64) +\n", "    n = (B.to(tl.int64) +  # noqa: ASC002\n"
    ).replace("B.to(tl.int32))\n", "B.to(tl.int32))  # noqa: ASC002\n").replace(STORE, f"{STORE}  # noqa: ASC002")
    assert remaining("--select", "ASC002", capsys=capsys) == ""


def test_never_inside_a_string_but_on_its_last_row(project: Path, capsys) -> None:
    """A row ending inside a multi-line string takes its `# noqa` on the string's last row, as
    ruff reads it: the string's text is never edited."""
    in_string = KERNEL.replace(f"{CAST}\n", f'{CAST} + len("""a  \n# b\n""")\n')
    write(project, in_string)
    add_noqa("--select", "ASC002", capsys=capsys)
    assert (project / PATH).read_text() == in_string.replace('""")\n', '""")  # noqa: ASC002\n').replace(
        STORE, f"{STORE}  # noqa: ASC002"
    )
    assert remaining("--select", "ASC002", capsys=capsys) == ""


def test_crlf_files_keep_their_line_endings(project: Path, capsys) -> None:
    (project / PATH).write_bytes(KERNEL.replace("\n", "\r\n").encode())
    assert add_noqa(capsys=capsys) == (0, "Added 3 noqa directives.\n")
    assert (project / PATH).read_bytes() == BASELINED.replace("\n", "\r\n").encode()
    assert remaining(capsys=capsys) == ""


def test_a_file_that_cannot_be_parsed_is_reported_and_left_untouched(project: Path, capsys) -> None:
    broken = write(project, KERNEL.replace("def chunk_o(", "def chunk_o(("), "pkg/triton_ascend/broken.py")
    before = broken.read_bytes()
    code, err = add_noqa(capsys=capsys)
    assert code == 0  # as ruff's: the error is reported, the other files baselined
    assert "broken.py" in err and "error: SyntaxError" in err and err.endswith("Added 3 noqa directives.\n"), err
    assert broken.read_bytes() == before
    assert (project / PATH).read_text() == BASELINED


def test_changed_lines_mode_baselines_only_the_findings_on_changed_lines(project: Path, capsys) -> None:
    old = KERNEL.replace(f"{LAUNCH}\n", "")
    diff = difflib.unified_diff(old.splitlines(True), KERNEL.splitlines(True), f"a/{PATH}", f"b/{PATH}")
    (project / "change.diff").write_text("".join(diff))
    assert add_noqa("--diff-file", "change.diff", capsys=capsys) == (0, "Added 1 noqa directive.\n")
    assert (project / PATH).read_text() == KERNEL.replace(LAUNCH, f"{LAUNCH}  # noqa: ASC001")


@pytest.mark.parametrize(
    ("argv", "refused"),
    [
        (["--fix"], "--fix"),
        (["--diff"], "--diff"),
        (["--statistics"], "--statistics"),
        (["--show-files"], "--show-files"),
        (["--stdin-filename", PATH], "--stdin-filename"),
        (["-"], "stdin"),
    ],
)
def test_what_it_cannot_be_combined_with_is_a_usage_error(project: Path, capsys, argv: list[str], refused: str) -> None:
    """ruff refuses `--add-noqa` with `--fix`, `--statistics`, `--stdin-filename`, `--show-*`;
    `--diff` promises to write nothing."""
    code, out, err = run("--add-noqa", *argv, capsys=capsys)
    assert code == 2 and out == ""
    assert err.startswith("ascend-lint: error: --add-noqa cannot be used with") and refused in err, err
    assert (project / PATH).read_text() == KERNEL
