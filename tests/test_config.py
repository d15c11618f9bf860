"""Configuration (`[tool.ascend-lint]`), CLI selection overrides, suppression comments, target
files and stdin — through `ascend-lint check` (run in-process, in a temporary project)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from ascend_lint.cli import main

# One finding of each of ASC001, ASC002, ASC003.
KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def chunk_o_kernel(q, h, o, B, BT: tl.constexpr):
    n = B.to(tl.int64)
    b_q = tl.load(q + tl.arange(0, BT))
    b_o = tl.dot(b_q, tl.load(h))
    tl.store(o, b_q + n + b_o)


def chunk_o(q, h, o, B):
    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)
"""
ROWS = {"ASC002": 7, "ASC003": 10, "ASC001": 14}
ALL = {"ASC001", "ASC002", "ASC003"}
PATH = "pkg/triton_ascend/chunk_o.py"


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, PATH, KERNEL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pyproject(root: Path, table: str, folder: str = ".") -> Path:
    return write(root, f"{folder}/pyproject.toml", f'[project]\nname = "pkg"\n\n[tool.ascend-lint]\n{table}\n')


def run(*args: str, capsys, stdin: str | None = None, monkeypatch=None) -> tuple[int, list[dict], str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(["check", "--output-format", "json", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else [], err


def found(*args: str, capsys, **kwargs) -> set[tuple[str, str]]:
    """(filename, code) of the findings; the run must not report an error."""
    code, findings, err = run(*args, capsys=capsys, **kwargs)
    assert code in (0, 1) and not err, err
    return {(f["filename"], f["code"]) for f in findings}


def codes(*args: str, capsys, **kwargs) -> set[str]:
    return {code for _, code in found(*args, capsys=capsys, **kwargs)}


def test_without_configuration_every_rule_runs(project: Path, capsys) -> None:
    code, findings, _ = run(capsys=capsys)
    assert code == 1
    assert {(f["code"], f["location"]["row"]) for f in findings} == set(ROWS.items())


@pytest.mark.parametrize(
    ("table", "enabled"),
    [
        ('select = ["ASC003"]', {"ASC003"}),
        ('ignore = ["ASC001"]', {"ASC002", "ASC003"}),
        ('select = ["ASC00"]', ALL),
        ('select = ["ASC001"]\nextend-select = ["ASC002"]', {"ASC001", "ASC002"}),
        # the most specific entry wins
        ('select = ["ASC"]\nignore = ["ASC00"]\nextend-select = ["ASC003"]', {"ASC003"}),
        ('ignore = ["ASC00"]', set()),
    ],
)
def test_rule_selection(project: Path, capsys, table: str, enabled: set[str]) -> None:
    pyproject(project, table)
    assert codes(capsys=capsys) == enabled


def test_per_file_ignores(project: Path, capsys) -> None:
    write(project, "pkg/triton_ascend/other.py", KERNEL)
    pyproject(project, '[tool.ascend-lint.per-file-ignores]\n"**/chunk_o.py" = ["ASC002", "ASC003"]')
    assert found(capsys=capsys) == {
        (PATH, "ASC001"),
        *(("pkg/triton_ascend/other.py", code) for code in ALL),
    }


def test_a_glob_may_start_with_the_configurations_folder(project: Path, capsys) -> None:
    pyproject(project, f'[tool.ascend-lint.per-file-ignores]\n"./{PATH}" = ["ASC002", "ASC003"]')
    assert codes(capsys=capsys) == {"ASC001"}


def test_a_per_file_glob_after_an_exclamation_mark_matches_the_other_files(project: Path, capsys) -> None:
    write(project, "pkg/triton_ascend/other.py", KERNEL)
    pyproject(project, '[tool.ascend-lint.per-file-ignores]\n"!**/chunk_o.py" = ["ASC001"]')
    assert found(capsys=capsys) == {
        *((PATH, code) for code in ALL),
        *(("pkg/triton_ascend/other.py", code) for code in ALL - {"ASC001"}),
    }


def test_target_paths_replace_the_default(project: Path, capsys) -> None:
    write(project, "pkg/kernels/chunk_o.py", KERNEL)
    write(project, "pkg/other/npu_only.py", "import torch_npu\n" + KERNEL)
    write(project, "pkg/other/cuda.py", KERNEL)
    pyproject(project, 'target-paths = ["pkg/kernels/**"]')
    assert {filename for filename, _ in found(capsys=capsys)} == {
        "pkg/kernels/chunk_o.py",
        # importing torch_npu still makes a file Ascend code
        "pkg/other/npu_only.py",
    }


def test_default_targets(project: Path, capsys) -> None:
    write(project, "pkg/ops/chunk_o_triton_ascend.py", KERNEL)
    write(project, "pkg/ops/with_backend.py", "import triton.backends.ascend\n" + KERNEL)
    write(project, "pkg/ops/cuda/chunk_o.py", KERNEL)
    assert {filename for filename, _ in found(capsys=capsys)} == {
        PATH,
        "pkg/ops/chunk_o_triton_ascend.py",
        "pkg/ops/with_backend.py",
    }


def test_exclude(project: Path, capsys) -> None:
    write(project, "legacy/triton_ascend/old.py", KERNEL)
    pyproject(project, 'exclude = ["legacy"]')
    assert {filename for filename, _ in found(capsys=capsys)} == {PATH}


def test_a_folder_named_is_linted_wherever_it_lies(project: Path, capsys) -> None:
    """As in ruff, the default excludes (`.venv`, `build`, ...) prune the folders a walk meets
    below the folder named, not the folders above it: an installed package is linted by naming
    its folder in site-packages, and a project checked out under `build/` is linted."""
    installed = ".venv/lib/python3.11/site-packages/pkg/triton_ascend"
    write(project, f"{installed}/k.py", KERNEL)
    write(project, f"{installed}/build/triton_ascend/generated.py", KERNEL)
    assert {filename for filename, _ in found(capsys=capsys)} == {PATH}
    assert {filename for filename, _ in found(".venv/lib/python3.11/site-packages/pkg", capsys=capsys)} == {
        f"{installed}/k.py"
    }
    absolute = str(project / ".venv" / "lib")
    assert {Path(filename).name for filename, _ in found(absolute, capsys=capsys)} == {"k.py"}
    # a file named with `--force-exclude` under a default-excluded folder of the project is not
    assert found("--force-exclude", f"{installed}/k.py", capsys=capsys) == set()


@pytest.mark.parametrize("vendored", ['select = ["ASC001"]', "unknown-key = 1", 'select = ["ASC001"'])
def test_a_folder_the_parent_excludes_is_pruned_before_its_configuration_is_read(
    project: Path, capsys, vendored: str
) -> None:
    """As in ruff's walk: the parent's `exclude` decides about `vendor/`, whose own
    configuration (valid, with an unknown key, or not TOML) is never read."""
    pyproject(project, 'exclude = ["vendor"]')
    write(project, "vendor/triton_ascend/k.py", KERNEL)
    pyproject(project, vendored, folder="vendor")
    assert {filename for filename, _ in found(capsys=capsys)} == {PATH}


def test_a_named_file_is_excluded_with_force_exclude(project: Path, capsys) -> None:
    """As in ruff: `exclude` filters the folders walked; a file named on the command line (what
    pre-commit passes) is linted unless `--force-exclude` or `force-exclude = true`."""
    legacy = write(project, "legacy/triton_ascend/old.py", KERNEL)
    pyproject(project, 'exclude = ["legacy"]')
    named = ("legacy/triton_ascend/old.py", PATH)
    assert {filename for filename, _ in found(*named, capsys=capsys)} == {"legacy/triton_ascend/old.py", PATH}
    assert {filename for filename, _ in found("--force-exclude", *named, capsys=capsys)} == {PATH}
    pyproject(project, 'exclude = ["legacy"]\nforce-exclude = true')
    assert {filename for filename, _ in found(*named, capsys=capsys)} == {PATH}
    assert {filename for filename, _ in found("--no-force-exclude", *named, capsys=capsys)} == {
        "legacy/triton_ascend/old.py",
        PATH,
    }
    assert legacy.read_text(encoding="utf-8") == KERNEL


def test_stdin_named_as_an_excluded_file_is_not_linted_with_force_exclude(project: Path, capsys, monkeypatch) -> None:
    pyproject(project, 'exclude = ["legacy"]')
    args = ("-", "--stdin-filename", "legacy/triton_ascend/old.py")
    assert codes(*args, capsys=capsys, stdin=KERNEL, monkeypatch=monkeypatch) == ALL
    code, findings, _ = run("--force-exclude", *args, capsys=capsys, stdin=KERNEL, monkeypatch=monkeypatch)
    assert (code, findings) == (0, [])


def test_configuration_is_found_by_walking_up_from_the_linted_path(project: Path, capsys) -> None:
    # the current directory has no configuration; the linted file's parent folder does
    pyproject(project, 'select = ["ASC003"]', folder="pkg")
    assert codes(PATH, capsys=capsys) == {"ASC003"}
    assert codes("pkg/triton_ascend", capsys=capsys) == {"ASC003"}


def test_each_file_takes_the_nearest_configuration(project: Path, capsys) -> None:
    """As in ruff: a sub-project's configuration governs its files, whatever the order of the
    paths and from wherever the run starts; the command line holds over each."""
    pyproject(project, 'ignore = ["ASC002"]')
    pyproject(project, 'ignore = ["ASC001"]\nexclude = ["legacy"]', folder="sub")
    write(project, "sub/triton_ascend/k.py", KERNEL)
    write(project, "sub/legacy/triton_ascend/old.py", KERNEL)
    expected = {
        *((PATH, code) for code in ALL - {"ASC002"}),
        *(("sub/triton_ascend/k.py", c) for c in ALL - {"ASC001"}),
    }
    assert found(capsys=capsys) == expected
    assert found("sub", "pkg", capsys=capsys) == found("pkg", "sub", capsys=capsys) == expected
    assert found("--select", "ASC002", capsys=capsys) == {(PATH, "ASC002"), ("sub/triton_ascend/k.py", "ASC002")}
    # the cache keeps each file's result with its own settings: a changed sub-configuration counts
    pyproject(project, 'ignore = ["ASC003"]', folder="sub")
    assert found(capsys=capsys) == {
        *((PATH, code) for code in ALL - {"ASC002"}),
        *(("sub/triton_ascend/k.py", c) for c in ALL - {"ASC003"}),
        *(("sub/legacy/triton_ascend/old.py", c) for c in ALL - {"ASC003"}),
    }


def test_a_pyproject_without_the_table_is_skipped_while_walking_up(project: Path, capsys) -> None:
    pyproject(project, 'select = ["ASC001"]')
    write(project, "pkg/pyproject.toml", '[project]\nname = "inner"\n')
    assert codes(PATH, capsys=capsys) == {"ASC001"}


def test_config_option(project: Path, capsys) -> None:
    pyproject(project, 'select = ["ASC001"]')
    elsewhere = write(project, "configs/ascend.toml", 'select = ["ASC002"]\n')
    assert codes("--config", str(elsewhere), PATH, capsys=capsys) == {"ASC002"}
    other_pyproject = pyproject(project, 'select = ["ASC003"]', folder="configs")
    assert codes("--config", str(other_pyproject), PATH, capsys=capsys) == {"ASC003"}
    # a file written like a pyproject.toml under another name: its [tool.ascend-lint] table
    like_pyproject = write(
        project, "configs/ci.toml", '[project]\nname = "x"\n[tool.ascend-lint]\nselect = ["ASC002", "ASC003"]\n'
    )
    assert codes("--config", str(like_pyproject), PATH, capsys=capsys) == {"ASC002", "ASC003"}


def test_isolated_ignores_configuration(project: Path, capsys) -> None:
    pyproject(project, 'select = ["ASC001"]\nunknown-key = 1')
    assert codes("--isolated", capsys=capsys) == ALL


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("line-length = 100", ["unknown key", "line-length"]),
        ('select = ["ASC999"]', ["unknown rule selector", "ASC999"]),
        ('ignore = ["E501"]', ["unknown rule selector", "E501"]),
        ('[tool.ascend-lint.per-file-ignores]\n"*.py" = ["ASC07"]', ["ASC07"]),
        ('select = "ASC001"', ["select", "list of strings"]),
    ],
)
def test_bad_configuration_is_a_usage_error(project: Path, capsys, table: str, words: list[str]) -> None:
    config = pyproject(project, table)
    code, findings, err = run(capsys=capsys)
    assert (code, findings) == (2, [])
    assert err.startswith("ascend-lint: error: ") and len(err.splitlines()) == 1, err
    assert str(config.resolve()) in err or "pyproject.toml" in err
    for word in words:
        assert word in err


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
def test_unknown_code_on_the_command_line(project: Path, capsys, option: str) -> None:
    code, _, err = run(option, "ASC0001", capsys=capsys)
    assert code == 2 and "ASC0001" in err and option in err


@pytest.mark.parametrize("text", ["[tool]\nascend-lint = 1\n", '[tool]\nascend-lint = "select"\n'])
@pytest.mark.parametrize("name", ["pyproject.toml", "ci.toml"])
def test_a_settings_entry_that_is_no_table_is_a_usage_error(project: Path, capsys, text: str, name: str) -> None:
    """Before, `ascend-lint = 1` was a traceback (`TypeError` in the lookup) and `"select"` was
    read as a table of its letters ("unknown key(s): c, e, l, s, t")."""
    config = write(project, name, text)
    code, findings, err = run(*(["--config", str(config)] if name != "pyproject.toml" else []), capsys=capsys)
    assert (code, findings) == (2, [])
    assert err == f"ascend-lint: error: {config}: `tool.ascend-lint` must be a table ([tool.ascend-lint])\n"


def test_a_tool_entry_that_is_no_table_is_not_this_projects_configuration(project: Path, capsys) -> None:
    write(project, "pyproject.toml", "tool = 1\n")
    assert codes(capsys=capsys) == ALL


@pytest.mark.parametrize(
    "text", ["tool = 1\n", "project = 1\n", "[project]\ndependencies = 1\n", "[tool]\npoetry = 1\n"]
)
def test_dependencies_that_are_no_list_declare_nothing(tmp_path: Path, capsys, text: str) -> None:
    """Targeting reads the project's dependencies for a file on no Ascend path: a table that is
    something else was an internal error (`'int' object has no attribute 'get'`), also with
    `--isolated`."""
    (tmp_path / "pyproject.toml").write_text(text)
    (tmp_path / "k.py").write_text(KERNEL)
    code, findings, err = run("--isolated", str(tmp_path / "k.py"), capsys=capsys)
    assert (code, findings) == (0, [])
    assert "error" not in err


def test_missing_config_file(project: Path, capsys) -> None:
    code, _, err = run("--config", "nowhere.toml", capsys=capsys)
    assert code == 2 and "nowhere.toml" in err


@pytest.mark.parametrize(
    ("args", "enabled"),
    [
        (["--select", "ASC003"], {"ASC003"}),  # replaces the configured select
        (["--ignore", "ASC001"], set()),
        (["--extend-select", "ASC002"], {"ASC001", "ASC002"}),
        (["--select", "ASC002,ASC003", "--ignore", "ASC003"], {"ASC002"}),
    ],
)
def test_command_line_overrides_configuration(project: Path, capsys, args: list[str], enabled: set[str]) -> None:
    pyproject(project, 'select = ["ASC001"]')
    assert codes(*args, capsys=capsys) == enabled


@pytest.mark.parametrize(
    ("table", "args", "enabled"),
    [
        # ruff's documented layering: `--select` starts over, the configuration's ignore goes with it
        ('ignore = ["ASC002"]', ["--select", "ASC002"], {"ASC002"}),
        ('select = ["ASC001", "ASC002"]\nignore = ["ASC002"]', ["--select", "ASC002"], {"ASC002"}),
        # `--extend-select` adds over the configuration's ignore; the rest of the configuration holds
        ('ignore = ["ASC002"]', ["--extend-select", "ASC002"], ALL),
        ('select = ["ASC001"]\nignore = ["ASC002"]', ["--extend-select", "ASC003"], {"ASC001", "ASC003"}),
        # the configuration's extend-select goes with the select the command line replaces
        ('select = ["ASC001"]\nextend-select = ["ASC002"]', ["--select", "ASC001"], {"ASC001"}),
        # `--ignore` removes from what the configuration selects, however specific that was
        ('select = ["ASC001"]', ["--ignore", "ASC"], set()),
        ('extend-select = ["ASC003"]\nignore = ["ASC00"]', ["--ignore", "ASC003"], set()),
    ],
)
def test_the_command_line_is_a_layer_over_the_configuration(
    project: Path, capsys, table: str, args: list[str], enabled: set[str]
) -> None:
    pyproject(project, table)
    assert codes(*args, capsys=capsys) == enabled


def test_per_file_ignores_apply_over_every_selection(project: Path, capsys) -> None:
    pyproject(project, '[tool.ascend-lint.per-file-ignores]\n"**/chunk_o.py" = ["ASC00"]')
    assert codes("--extend-select", "ASC003", capsys=capsys) == set()


@pytest.mark.parametrize("folder", [".", "pkg"])
def test_a_pyproject_that_is_not_toml_is_an_error(project: Path, capsys, folder: str) -> None:
    """Found while walking up, as in ruff: the run stops rather than use another configuration."""
    pyproject(project, 'select = ["ASC001"]')
    broken = write(project, f"{folder}/pyproject.toml", '[tool.ascend-lint]\nignore = ["ASC001", "ASC002"\n')
    code, findings, err = run(PATH, capsys=capsys)
    assert (code, findings) == (2, [])
    assert err.startswith(f"ascend-lint: error: {broken.resolve()}: invalid TOML"), err


def with_comment(row: int, comment: str) -> str:
    lines = KERNEL.splitlines()
    lines[row - 1] += f"  {comment}"
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("row", "comment", "enabled"),
    [
        (ROWS["ASC003"], "# noqa: ASC003", {"ASC001", "ASC002"}),
        (ROWS["ASC003"], "# noqa", {"ASC001", "ASC002"}),
        (ROWS["ASC003"], "# noqa: ASC001", ALL),  # another code's noqa suppresses nothing here
        (ROWS["ASC003"], "# noqa: ASC001, ASC003", {"ASC001", "ASC002"}),
        (ROWS["ASC001"], "# NOQA:ASC001", {"ASC002", "ASC003"}),
        (ROWS["ASC002"] - 1, "# noqa", ALL),  # only the reported row counts
    ],
)
def test_noqa(project: Path, capsys, row: int, comment: str, enabled: set[str]) -> None:
    write(project, PATH, with_comment(row, comment))
    assert codes(capsys=capsys) == enabled


@pytest.mark.parametrize(
    ("line", "enabled", "warning"),
    [
        # only comments count: a noqa directive in a string suppresses nothing
        ('    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4); print("launched # noqa-free")', ALL, None),
        ('    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4); print("#noqa")', ALL, None),
        # a malformed list suppresses nothing (not everything), with ruff's warning
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa: ASC-001", ALL, "14:59: warning: Invalid"),
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa: ASC", ALL, "expected a comma-separated"),
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa: asc001", ALL, "Invalid `# noqa`"),
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa-free", ALL, "expected `:`"),
        # spaces before the `:` are ruff's too: the list is read, and names another code here
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa : ASC002", ALL, None),
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa : ASC001", {"ASC002", "ASC003"}, None),
        # codes match exactly, as in ruff: a prefix is no code, and is warned about
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa: ASC00", ALL, "provided to `# noqa`: ASC00"),
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa: ASC999", ALL, "code provided"),
        # other linters' codes are theirs: no warning
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa: E501", ALL, None),
        ("    chunk_o_kernel[(1,)](q, h, o, B, BT=64, num_warps=4)  # noqa: E501,ASC001", {"ASC002", "ASC003"}, None),
    ],
)
def test_noqa_is_read_from_comments_as_ruff_reads_it(
    project: Path, capsys, line: str, enabled: set[str], warning: str | None
) -> None:
    lines = KERNEL.splitlines()
    lines[ROWS["ASC001"] - 1] = line
    write(project, PATH, "\n".join(lines) + "\n")
    code, findings, err = run(capsys=capsys)
    assert code == 1
    assert {f["code"] for f in findings} == enabled
    if warning is None:
        assert not err
    else:
        assert err.startswith(f"{PATH}:14:") and warning in err and err.count("\n") == 1, err


def test_noqa_at_the_end_of_a_backslash_continuation_covers_its_rows(project: Path, capsys) -> None:
    """No comment can follow a backslash: a finding on a `\\`-continued row is silenced by the
    `# noqa` on the last row of the continued lines, as ruff reads it (and the JSON `noqa_row`
    says so). A bracketed statement's rows keep their own, as in ruff and flake8."""
    continued = KERNEL.replace("n = B.to(tl.int64)\n", "n = B.to(tl.int64) + \\\n        0\n")
    write(project, PATH, continued)
    _, findings, _ = run(capsys=capsys)
    assert {(f["code"], f["location"]["row"], f["noqa_row"]) for f in findings if f["code"] == "ASC002"} == {
        ("ASC002", 7, 8)
    }
    write(project, PATH, continued.replace("        0\n", "        0  # noqa: ASC002\n"))
    assert codes(capsys=capsys) == {"ASC001", "ASC003"}
    bracketed = KERNEL.replace("n = B.to(tl.int64)\n", "n = (B.to(tl.int64) +\n        0)  # noqa: ASC002\n")
    write(project, PATH, bracketed)
    assert codes(capsys=capsys) == ALL
    # a row that ends inside a string (a backslash there continues the string, not the
    # statement) takes its directive on the string's last row, as ruff maps it (astral-sh/ruff#4490)
    in_string = KERNEL.replace("n = B.to(tl.int64)\n", 'n = B.to(tl.int64) + len("""a \\\nb""")  # noqa: ASC002\n')
    write(project, PATH, in_string)
    assert codes(capsys=capsys) == {"ASC001", "ASC003"}
    multi_line = KERNEL.replace("n = B.to(tl.int64)\n", 'n = B.to(tl.int64) + len("""a\nb\n""")  # noqa: ASC002\n')
    write(project, PATH, multi_line)
    assert codes(capsys=capsys) == {"ASC001", "ASC003"}
    write(project, PATH, multi_line.replace("  # noqa: ASC002", ""))
    _, findings, _ = run(capsys=capsys)
    assert {(f["location"]["row"], f["noqa_row"]) for f in findings if f["code"] == "ASC002"} == {(7, 9)}


@pytest.mark.parametrize(
    ("comment", "enabled"),
    [
        ("# ascend-lint: disable-file=ASC001", {"ASC002", "ASC003"}),
        ("# ascend-lint: disable-file=ASC001,ASC003", {"ASC002"}),
        ("# ascend-lint: disable-file", set()),
        # the code list ends with the line: the next line's words are not codes
        ("# ascend-lint: disable-file=ASC001\na = 1", {"ASC002", "ASC003"}),
        # spaces around `=`, and `:` as ruff takes after its file-level noqa
        ("# ascend-lint: disable-file = ASC001", {"ASC002", "ASC003"}),
        ("# ascend-lint: disable-file: ASC001, ASC003", {"ASC002"}),
        ("x = 1  # ascend-lint: disable-file:ASC001", {"ASC002", "ASC003"}),
        # the keyword in any case, as ruff reads its file-level NOQA
        ("# ascend-lint: DISABLE-FILE=ASC001", {"ASC002", "ASC003"}),
    ],
)
def test_disable_file(project: Path, capsys, comment: str, enabled: set[str]) -> None:
    write(project, PATH, f"{comment}\n{KERNEL}")
    assert codes(capsys=capsys) == enabled


@pytest.mark.parametrize(
    ("header", "enabled", "warning"),
    [
        # only comments count: a docstring that quotes the directive disables nothing
        ('"""Generated files carry `# ascend-lint: disable-file`."""', ALL, None),
        ('NOTE = "# ascend-lint: disable-file=ASC001"', ALL, None),
        # a directive that cannot be read disables nothing (never everything), with a warning
        ("# ascend-lint: disable-file ASC001", ALL, "1:1: warning: Invalid `# ascend-lint: disable-file` directive"),
        ("# ascend-lint: disable-file=", ALL, "expected a comma-separated list of codes"),
        ("# ascend-lint: disable-file=asc001", ALL, "expected a comma-separated list of codes"),
        ("# ascend-lint: disable-file; ASC001", ALL, "expected `=` or `:`"),
        # ruff reads its file-level directive with its name in lowercase only: so is ours, and said
        ("# ASCEND-LINT: DISABLE-FILE", ALL, "1:1: warning: Invalid `# ascend-lint: disable-file` directive"),
        ("x = 1  # Ascend-Lint: disable-file=ASC001", ALL, "1:8: warning: Invalid `# ascend-lint: disable-file`"),
        # codes match exactly; an unknown one is warned about, the others still apply
        ("# ascend-lint: disable-file=ASC999", ALL, "1:1: warning: Invalid rule code provided"),
        ("# ascend-lint: disable-file=ASC00", ALL, ": ASC00\n"),
        ("# ascend-lint: disable-file=ASC001, ASC999", {"ASC002", "ASC003"}, ": ASC999\n"),
    ],
)
def test_disable_file_only_in_comments_and_never_all_by_mistake(
    project: Path, capsys, header: str, enabled: set[str], warning: str | None
) -> None:
    write(project, PATH, f"{header}\n{KERNEL}")
    code, findings, err = run(capsys=capsys)
    assert code == 1
    assert {f["code"] for f in findings} == enabled
    if warning is None:
        assert not err
    else:
        assert err.startswith(f"{PATH}:1:") and warning in err and err.count("\n") == 1, err


def test_directive_warnings_come_from_the_cache_too(project: Path, capsys) -> None:
    write(project, PATH, f"# ascend-lint: disable-file=ASC999\n{KERNEL}")
    warnings = []
    for _ in range(2):  # the second run reads the cache
        main(["check", "--output-format", "concise", "--cache-dir", str(project / "cache")])
        warnings.append(capsys.readouterr().err)
    assert (
        warnings[0]
        == warnings[1]
        == f"{PATH}:1:1: warning: Invalid rule code provided to `# ascend-lint: disable-file`: ASC999\n"
    )
    assert any((project / "cache").rglob("*.json"))


def test_target_all(project: Path, capsys) -> None:
    write(project, "pkg/ops/cuda/chunk_o.py", KERNEL)
    assert codes("pkg/ops", capsys=capsys) == set()
    assert codes("--target-all", "pkg/ops", capsys=capsys) == ALL


@pytest.mark.parametrize(
    ("stdin_filename", "enabled"),
    [
        ("pkg/triton_ascend/edited.py", ALL),
        ("pkg/ops/cuda/edited.py", set()),  # not Ascend code by its path
    ],
)
def test_stdin(project: Path, capsys, monkeypatch, stdin_filename: str, enabled: set[str]) -> None:
    result = found("-", "--stdin-filename", stdin_filename, capsys=capsys, stdin=KERNEL, monkeypatch=monkeypatch)
    assert result == {(stdin_filename, code) for code in enabled}


@pytest.mark.parametrize("on_disk", [True, False], ids=["saved-file", "new-unsaved-file"])
def test_stdin_uses_the_configuration_of_its_filename(project: Path, capsys, monkeypatch, on_disk: bool) -> None:
    # an editor pipes the buffer of pkg/triton_ascend/edited.py; pkg/ holds the configuration
    pyproject(project, '[tool.ascend-lint.per-file-ignores]\n"**/edited.py" = ["ASC001"]', folder="pkg")
    if on_disk:
        write(project, "pkg/triton_ascend/edited.py", "")
    args = ("-", "--stdin-filename", "pkg/triton_ascend/edited.py")
    assert codes(*args, capsys=capsys, stdin=KERNEL, monkeypatch=monkeypatch) == {"ASC002", "ASC003"}


def test_a_group_selects_its_rules_between_prefixes_and_codes(tmp_path: Path) -> None:
    from ascend_lint.config import Settings
    from ascend_lint.registry import rule_groups

    perf = {code for code, group in rule_groups() if group == "perf"}
    every = {code for code, _ in rule_groups()}
    assert perf and perf < every

    def enabled(**selection: list[str]) -> set[str]:
        return set(Settings(root=tmp_path, **selection).enabled_codes())

    assert enabled(ignore=["perf"]) == every - perf
    assert enabled(select=["PERF"]) == perf  # the command line upper-cases selectors
    assert enabled(select=["ASC00"], ignore=["perf"]) == {c for c in every if c.startswith("ASC00")} - perf
    first = min(perf)
    assert enabled(ignore=["perf"], extend_select=[first]) == every - perf | {first}  # a code beats a group


def test_an_unknown_group_is_a_configuration_error(project: Path, capsys) -> None:
    pyproject(project, 'select = ["speed"]')
    code, _, err = run(capsys=capsys)
    assert code == 2 and "unknown rule selector 'speed'" in err and "groups: perf" in err


def shown(*args: str, capsys, stdin: str | None = None, monkeypatch=None) -> list[str]:
    """The lines of `check --show-files`, which must exit 0 with nothing on stderr."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(["check", "--show-files", *args])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    return out.splitlines()


TARGET_PATHS = (
    "not Ascend kernel code: not matched by `target-paths`, no Ascend import, no kernel launched on an NPU path, "
    "no kernel launched or autotune configs taken from an Ascend module of its package"
)


def test_show_files_takes_each_files_configuration_and_force_exclude(project: Path, capsys) -> None:
    """What the run would lint, decided as it decides: the nearest configuration's `exclude` and
    `target-paths` for each file, `--force-exclude` for the files named, `--target-all`."""
    pyproject(project, 'exclude = ["legacy"]')
    pyproject(project, 'target-paths = ["kernels/**"]', folder="sub")
    write(project, "legacy/triton_ascend/old.py", KERNEL)
    write(project, "sub/kernels/a.py", KERNEL)
    write(project, "sub/other/b.py", KERNEL)
    write(project, "sub/other/c.py", "import torch_npu\n")  # an Ascend import counts with `target-paths` too
    linted = [PATH, "sub/kernels/a.py", f"sub/other/b.py  (skipped: {TARGET_PATHS})", "sub/other/c.py"]
    assert shown(capsys=capsys) == linted
    assert shown("sub", "pkg", capsys=capsys) == [*linted[1:], PATH]
    assert shown("--target-all", "sub/other", capsys=capsys) == ["sub/other/b.py", "sub/other/c.py"]
    assert shown("legacy/triton_ascend/old.py", PATH, capsys=capsys) == ["legacy/triton_ascend/old.py", PATH]
    assert shown("--force-exclude", "legacy/triton_ascend/old.py", PATH, capsys=capsys) == [PATH]
    assert codes(capsys=capsys) == ALL  # a run lints what it listed
    assert {f for f, _ in found("sub", capsys=capsys)} == {"sub/kernels/a.py"}  # c.py has no kernel to flag


def test_show_files_of_stdin(project: Path, capsys, monkeypatch) -> None:
    """Stdin's file comes first, named by `--stdin-filename`, targeted by its text and name;
    with `--force-exclude` an excluded name is not listed, as it is not linted."""
    pyproject(project, 'exclude = ["legacy"]')
    args = ("--stdin-filename", "pkg/cuda/edited.py", "-", PATH)
    assert shown(*args, capsys=capsys, stdin="import torch_npu\n", monkeypatch=monkeypatch) == [
        "pkg/cuda/edited.py",
        PATH,
    ]
    (line, _) = shown(*args, capsys=capsys, stdin=KERNEL, monkeypatch=monkeypatch)
    assert line.startswith("pkg/cuda/edited.py  (skipped: not Ascend kernel code: no Ascend folder")
    excluded = ("--force-exclude", "--stdin-filename", "legacy/triton_ascend/edited.py", "-")
    assert shown(*excluded, capsys=capsys, stdin=KERNEL, monkeypatch=monkeypatch) == []
    assert shown(*excluded[1:], capsys=capsys, stdin=KERNEL, monkeypatch=monkeypatch) == [
        "legacy/triton_ascend/edited.py"
    ]


def test_show_settings_names_the_configuration_governing_the_file(project: Path, capsys, monkeypatch) -> None:
    pyproject(project, 'ignore = ["ASC002"]')
    pyproject(project, 'select = ["ASC00"]\nper-file-ignores = { "triton_ascend/k.py" = ["ASC001"] }', folder="sub")
    write(project, "sub/triton_ascend/k.py", KERNEL)

    def settings(*args: str, stdin: str | None = None) -> dict[str, str]:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        assert main(["check", "--show-settings", *args]) == 0
        out = capsys.readouterr().out
        head, _, rest = out.partition("\n\n")  # `Resolved settings for: ...`, `Settings path: ...`; the sections
        pairs = [line.split(": ", 1) for line in head.splitlines()]
        return dict([*pairs, *(line.split(" = ", 1) for line in rest.splitlines() if " = " in line)])

    shown = settings(PATH, "sub")  # the first file, as in ruff
    assert (shown["Settings path"], shown["select"], shown["ignore"]) == ('"pyproject.toml"', '["ASC"]', '["ASC002"]')
    shown = settings("sub")
    assert shown["Resolved settings for"] == '"sub/triton_ascend/k.py"'
    assert (shown["Settings path"], shown["select"]) == ('"sub/pyproject.toml"', '["ASC00"]')
    assert main(["check", "--show-settings", "sub/triton_ascend/k.py"]) == 0
    out = capsys.readouterr().out
    enabled = out[out.index("enabled = [\n") : out.index("]\n", out.index("enabled = [\n"))]
    assert re.findall(r"\((ASC\d+)\),", enabled) == [f"ASC00{n}" for n in range(2, 10)]  # ASC001: per-file-ignores
    shown = settings("--force-exclude", "--stdin-filename", "sub/triton_ascend/new.py", "-", stdin="x = 1\n")
    assert (shown["Settings path"], shown["targeted"], shown["cache"]) == ('"sub/pyproject.toml"', "true", "false")
    shown = settings("--isolated", "--target-all", "--stdin-filename", "pkg/cuda/new.py", "-", stdin="x = 1\n")
    assert (shown["Settings path"], shown["targeted"], shown["target-all"]) == ("none", "true", "true")
    shown = settings("--stdin-filename", "pkg/cuda/new.py", "-", stdin="x = 1\n")
    assert (shown["targeted"], shown["skip-reason"][:24]) == ("false", '"not Ascend kernel code:')
