"""The content cache: reused only for unchanged bytes and settings, safe to share and to break."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO

from ascend_lint import __version__
from ascend_lint.cache import DEFAULT_FOLDER, ENVIRONMENT, FORMAT, Cache
from ascend_lint.config import Settings
from ascend_lint.engine import lint_file
from ascend_lint.model import Edit, FileResult, Finding, Fix, Position, Related

NEW_FINDING = "\n\ndef launch(x):\n    k[(1,)](x, num_warps=4)\n"


def ascend_lint(*args: str, cwd: Path, python: tuple[str, ...] = (), env: dict | None = None, stdin: str = ""):
    """`ascend-lint check ...` in a new process importing this checkout."""
    environment = {key: value for key, value in os.environ.items() if key != ENVIRONMENT}
    environment.update(PYTHONPATH=str(REPO), **(env or {}))
    command = [sys.executable, *python, "-m", "ascend_lint", "check", *args]
    return subprocess.run(command, cwd=cwd, env=environment, input=stdin, capture_output=True, text=True)


def lint_json(tree: Path, *args: str, **options) -> str:
    run = ascend_lint("--isolated", "--target-all", "--output-format=json", *args, ".", cwd=tree, **options)
    assert run.returncode == 1, run.stderr
    return run.stdout


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{DEFAULT_FOLDER}/*/*.json"))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    shutil.copytree(FIXTURES / "triton_ascend", root / "triton_ascend")
    return root


def test_a_warm_run_gives_the_same_report_without_parsing(tree: Path):
    cold = lint_json(tree)
    assert len(entries(tree)) == len(list(tree.rglob("*.py")))
    warm = ascend_lint("--isolated", "--target-all", "--output-format=json", ".", cwd=tree, python=("-X", "importtime"))
    assert warm.stdout == cold == lint_json(tree, "--no-cache")
    assert "ascend_lint.engine" in warm.stderr
    assert "libcst" not in warm.stderr  # nothing was parsed: every result came from the cache


def test_a_file_skipped_after_a_parse_is_not_parsed_again(tmp_path: Path):
    """Whether a file launches its kernels on an NPU path needs a parse (`npu_paths`); the
    skip is kept for its bytes, and a warm run asks only the path and project again."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "shared.py").write_text(
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x):\n    tl.store(x, 0)\n\n\n"
        'def run(x):\n    if x.device.type == "npu":\n        x.zero_()\n    k[(1,)](x)\n',
        encoding="utf-8",
    )
    args = ("--isolated", "--output-format=json", ".")
    runs = [ascend_lint(*args, cwd=tmp_path, python=("-X", "importtime")) for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0]
    assert [json.loads(run.stdout) for run in runs] == [[], []]
    [entry] = entries(tmp_path)
    assert json.loads(entry.read_text(encoding="utf-8"))["skip_reason"] == "not Ascend kernel code"
    assert "libcst" in runs[0].stderr  # the cold run parsed it to look for NPU launches
    assert "libcst" not in runs[1].stderr


@pytest.mark.parametrize("change", ["an Ascend folder beside it", "no torch_npu dependency"])
def test_a_file_linted_for_its_project_is_targeted_again_when_the_project_changes(tmp_path: Path, change: str):
    """A CUDA kernel of a torch_npu project is linted; once a `triton_ascend/` port sits beside
    its folder (or the dependency goes) it is another backend's code: the cached result must not
    keep it linted, nor let `--fix` edit it."""
    kernel = (
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, BLOCK: tl.constexpr):\n"
        "    tl.store(x + tl.program_id(0), 1)\n\n\ndef run(x):\n    k[(4,)](x, BLOCK=16, num_warps=4)\n"
    )
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "p"\ndependencies = ["torch_npu"]\n', encoding="utf-8")
    cuda = tmp_path / "pkg" / "cuda" / "k.py"
    cuda.parent.mkdir(parents=True)
    cuda.write_text(kernel, encoding="utf-8")
    first = ascend_lint("--output-format=json", ".", cwd=tmp_path)
    assert [f["filename"] for f in json.loads(first.stdout)] == ["pkg/cuda/k.py"], first.stderr
    if change == "no torch_npu dependency":
        pyproject.write_text('[project]\nname = "p"\n', encoding="utf-8")
    else:
        (tmp_path / "pkg" / "triton_ascend").mkdir()
    again = ascend_lint("--output-format=json", ".", cwd=tmp_path)
    assert (again.returncode, json.loads(again.stdout)) == (0, []), again.stderr
    ascend_lint("--fix", ".", cwd=tmp_path)
    assert cuda.read_text(encoding="utf-8") == kernel


def test_a_cached_result_equals_the_linted_one(tmp_path: Path):
    """Findings round-trip whole: ranges, related locations, fixes and the facts `confirm` reads."""
    settings = Settings(root=REPO, target_all=True)
    cache = Cache(tmp_path / DEFAULT_FOLDER, settings)
    assert cache.prepare() is None
    paths = sorted(FIXTURES.rglob("*.py"))
    results = [lint_file(str(path), settings, cache) for path in paths]
    assert sum(bool(f.facts) for r in results for f in r.findings) > 10
    assert sum(bool(f.fix) and bool(f.related) for r in results for f in r.findings) > 3
    assert any(f.no_fix_reason for r in results for f in r.findings)
    assert [cache.lookup(str(path)) for path in paths] == results


def test_every_field_of_a_finding_round_trips(tmp_path: Path):
    source = tmp_path / "k.py"
    source.write_text("x = 1\n", encoding="utf-8")
    name = str(source)
    start, end = Position(1, 1), Position(1, 2)
    values = {
        "code": "ASC003",
        "name": "dot-lhs-reuse",
        "message": "m",
        "filename": name,
        "location": start,
        "end_location": end,
        "kernel": "k",
        "related": (Related(name, start, end, "r"),),
        "fix": Fix("unsafe", "f", (Edit(start, end, "y"),)),
        "facts": {"tile": "b_a", "loop_carried": True, "count": 2, "names": ("a", "b")},
        "no_fix_reason": "why",
        "continued_to": 2,
    }
    assert {field.name for field in dataclasses.fields(Finding)} == set(values)  # a new field needs the cache too
    result = FileResult(name, source="x = 1\n", findings=[Finding(**values)])
    # `--target-all`: a file outside an Ascend path linted is asked again where it is targeted
    cache = Cache(tmp_path / DEFAULT_FOLDER, Settings(root=tmp_path, target_all=True))
    assert cache.prepare() is None
    cache.store(name, source.read_bytes(), result)
    assert cache.lookup(name) == result


def test_changed_content_is_linted_again(tree: Path):
    before = json.loads(lint_json(tree))
    kernel = tree / "triton_ascend" / "clean_kernels.py"
    original = kernel.read_bytes()
    kernel.write_bytes(original + NEW_FINDING.encode())
    after = json.loads(lint_json(tree))
    added = [f for f in after if f not in before]
    assert [(Path(f["filename"]).name, f["code"]) for f in added] == [("clean_kernels.py", "ASC001")]
    kernel.write_bytes(original)
    assert json.loads(lint_json(tree)) == before


def test_settings_are_part_of_the_key(tree: Path):
    everything = json.loads(lint_json(tree))
    only_dots = json.loads(lint_json(tree, "--select=ASC003"))
    assert {f["code"] for f in only_dots} == {"ASC003"}
    assert only_dots == [f for f in everything if f["code"] == "ASC003"]
    (tree / "pyproject.toml").write_text('[tool.ascend-lint]\nignore = ["ASC003"]\n', encoding="utf-8")
    configured = ascend_lint("--target-all", "--output-format=json", ".", cwd=tree)
    assert json.loads(configured.stdout) == [f for f in everything if f["code"] != "ASC003"]
    assert json.loads(lint_json(tree)) == everything
    folders = {path.parent.name for path in entries(tree)}
    assert len(folders) == 3 and all(name.startswith(f"{__version__}-") for name in folders)


def test_a_changed_rule_set_is_a_new_key(tmp_path: Path):
    copy = tmp_path / "package"
    shutil.copytree(REPO / "ascend_lint", copy / "ascend_lint")
    shutil.copytree(REPO / "rules", copy / "rules")

    def fingerprint() -> str:
        code = "from ascend_lint.cache import analysis_fingerprint; print(analysis_fingerprint())"
        run = subprocess.run([sys.executable, "-c", code], cwd=copy, capture_output=True, text=True, check=True)
        return run.stdout.strip()

    first = fingerprint()
    assert fingerprint() == first
    with open(copy / "rules" / "dot_lhs_reuse.py", "a", encoding="utf-8") as rule:
        rule.write("# changed\n")
    second = fingerprint()
    assert second != first
    with open(copy / "ascend_lint" / "host" / "index.py", "a", encoding="utf-8") as module:
        module.write("# changed\n")
    assert fingerprint() != second


def test_another_version_does_not_read_the_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    source = tmp_path / "k.py"
    source.write_text("x = 1\n", encoding="utf-8")
    settings = Settings(root=tmp_path)
    cache = Cache(tmp_path / DEFAULT_FOLDER, settings)
    assert cache.prepare() is None
    cache.store(str(source), source.read_bytes(), lint_file(str(source), settings))
    assert cache.lookup(str(source)) is not None
    monkeypatch.setattr("ascend_lint.cache.__version__", f"{__version__}.post1")
    upgraded = Cache(tmp_path / DEFAULT_FOLDER, settings)
    assert upgraded.prepare() is None
    assert upgraded.lookup(str(source)) is None


def test_concurrent_runs_agree_and_leave_whole_entries(tree: Path):
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--target-all", "--output-format=json"]
    runs = [
        subprocess.Popen([*command, "--jobs=1", "."], cwd=tree, env=environment, stdout=subprocess.PIPE)
        for _ in range(4)
    ]
    outputs = {run.communicate()[0] for run in runs}
    assert len(outputs) == 1
    formats = [json.loads(path.read_text(encoding="utf-8"))["format"] for path in entries(tree)]
    assert formats == [FORMAT] * len(list(tree.rglob("*.py")))  # one whole entry per fixture file
    assert not list(tree.glob(f"{DEFAULT_FOLDER}/*/.*.tmp"))
    assert json.loads(outputs.pop()) == json.loads(lint_json(tree, "--no-cache"))


def test_entries_are_as_readable_as_any_new_file(tree: Path):
    """Entries are written through a temporary file; they get the umask's mode, as `open` gives,
    not the private 0600 of `tempfile.mkstemp` (a cache shared by a team's accounts)."""
    umask = os.umask(0o022)
    os.umask(umask)
    lint_json(tree)
    modes = {stat.S_IMODE(path.stat().st_mode) for path in [*entries(tree), tree / DEFAULT_FOLDER / ".gitignore"]}
    assert modes == {0o666 & ~umask}


def test_corrupt_entries_are_linted_again_and_rewritten(tree: Path):
    cold = lint_json(tree)
    paths = entries(tree)
    stored = json.loads(paths[0].read_text(encoding="utf-8"))
    right_hash_wrong_shape = json.dumps({**stored, "findings": [[1, 2]]})
    damage = ["", "{", "null", "[]", '{"format": 1}', right_hash_wrong_shape, "\x00\xff"]
    for path, garbage in zip(paths, damage * 2, strict=False):
        path.write_text(garbage, encoding="utf-8", errors="surrogateescape")
    assert lint_json(tree) == cold
    for path in paths:
        assert isinstance(json.loads(path.read_text(encoding="utf-8"))["findings"], list)
    assert lint_json(tree) == cold


def test_an_unusable_cache_folder_only_warns(tree: Path):
    blocker = tree.parent / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    run = ascend_lint("--isolated", "--target-all", "--output-format=json", f"--cache-dir={blocker}", ".", cwd=tree)
    assert run.returncode == 1
    assert run.stdout == lint_json(tree, "--no-cache")
    assert "warning: cannot use the cache folder" in run.stderr


def test_where_the_cache_lives(tmp_path: Path, tree: Path):
    (tree / "pyproject.toml").write_text('[tool.ascend-lint]\nselect = ["ASC"]\n', encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert ascend_lint(str(tree), cwd=elsewhere).returncode == 1
    assert entries(tree) and not (elsewhere / DEFAULT_FOLDER).exists()  # next to the configuration

    from_environment = tmp_path / "from-environment"
    ascend_lint(str(tree), cwd=elsewhere, env={ENVIRONMENT: str(from_environment)})
    assert list(from_environment.glob("*/*.json"))
    option = tmp_path / "option"
    ascend_lint(f"--cache-dir={option}", str(tree), cwd=elsewhere, env={ENVIRONMENT: str(from_environment / "x")})
    assert list(option.glob("*/*.json")) and not (from_environment / "x").exists()

    shutil.rmtree(tree / DEFAULT_FOLDER)
    ascend_lint("--no-cache", str(tree), cwd=elsewhere)
    assert ascend_lint("-", "--stdin-filename=triton_ascend/k.py", cwd=tree, stdin=NEW_FINDING).returncode == 1
    assert not (tree / DEFAULT_FOLDER).exists()


def test_git_ignores_the_cache(tree: Path):
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    lint_json(tree)
    assert (tree / DEFAULT_FOLDER / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=tree, capture_output=True, text=True
    )
    assert status.stdout.splitlines() and DEFAULT_FOLDER not in status.stdout


def test_fix_from_a_warm_cache_and_after_a_change(tmp_path: Path, tree: Path):
    fresh = tmp_path / "fresh"
    shutil.copytree(tree, fresh)
    lint_json(tree)  # fill the cache
    for folder in (tree, fresh):  # a change after the cached run: the fix must be computed for it
        kernel = folder / "triton_ascend" / "clean_kernels.py"
        kernel.write_text(kernel.read_text(encoding="utf-8") + NEW_FINDING, encoding="utf-8")
    fix = ("--isolated", "--target-all", "--fix", "--unsafe-fixes", ".")
    cached, uncached = ascend_lint(*fix, cwd=tree), ascend_lint("--no-cache", *fix, cwd=fresh)
    assert (cached.returncode, cached.stdout) == (uncached.returncode, uncached.stdout)
    for path in sorted(fresh.rglob("*.py")):
        assert (tree / path.relative_to(fresh)).read_bytes() == path.read_bytes()
    assert (tree / "triton_ascend" / "clean_kernels.py").read_text(encoding="utf-8").endswith("k[(1,)](x)\n")


def test_an_entry_holds_while_the_modules_it_imports_device_functions_from_do(tmp_path: Path):
    """A file's ASC003 findings come from the `tl.dot` of a device function another module of its
    package defines (`from .micro_kernel import attend`, `micro_kernel.attend(...)`, `import
    pkg.micro_kernel as mk`): the entry records that module's hash and is used only while it
    holds."""
    package = tmp_path / "asc003_imported_helper"  # the name its absolute imports use
    shutil.copytree(FIXTURES / "triton_ascend" / "asc003_imported_helper", package)
    caller, helper = package / "attention.py", package / "micro_kernel.py"
    settings = Settings(root=tmp_path, target_all=True)
    cache = Cache(tmp_path / DEFAULT_FOLDER, settings)
    assert cache.prepare() is None
    linted = lint_file(str(caller), settings, cache)
    assert [f.code for f in linted.findings] == ["ASC003"] * 5
    assert set(linted.imported_files) == {str(helper)}
    assert cache.lookup(str(caller)) == linted
    original = helper.read_text(encoding="utf-8")
    helper.write_text(original.replace("tl.dot(block_q, block_k)", "tl.dot(block_q + 0.0, block_k)"), encoding="utf-8")
    assert cache.lookup(str(caller)) is None  # the helper changed: linted again
    relinted = lint_file(str(caller), settings, cache)
    assert relinted.findings == [] and cache.lookup(str(caller)) == relinted
    helper.unlink()
    assert cache.lookup(str(caller)) is None
    assert lint_file(str(caller), settings, cache).imported_files == {
        str(helper): None,
        str(package / "micro_kernel" / "__init__.py"): None,
    }
    helper.write_text(original, encoding="utf-8")  # back: the first entry's hash, found again
    assert cache.lookup(str(caller)) is None
    assert lint_file(str(caller), settings, cache).findings == linted.findings


def test_an_entry_holds_while_the_module_its_core_count_comes_from_does(tmp_path: Path):
    """ASC009's AI core count read by a helper another module of the package defines: the
    entry records that module's hash too."""
    package = tmp_path / "pkg"
    shutil.copytree(FIXTURES / "triton_ascend" / "asc009_imported_core_count", package)
    caller, helper = package / "launch.py", package / "device.py"
    settings = Settings(root=tmp_path, target_all=True)
    cache = Cache(tmp_path / DEFAULT_FOLDER, settings)
    assert cache.prepare() is None
    linted = lint_file(str(caller), settings, cache)
    assert [f.code for f in linted.findings] == ["ASC009"] * 5 and str(helper) in linted.imported_files
    assert cache.lookup(str(caller)) == linted
    helper.write_text(helper.read_text(encoding="utf-8").replace('"num_aicore"', '"num_vectorcore"'), encoding="utf-8")
    assert cache.lookup(str(caller)) is None  # the helper changed: linted again
    assert lint_file(str(caller), settings, cache).findings == []


def test_a_launchers_targeting_holds_while_the_module_its_kernels_come_from_does(tmp_path: Path):
    """A launcher whose own text says nothing of Ascend is Ascend code through the module of its
    package whose kernels it launches (`ascend_imports`): its entry, linted or skipped, records
    that module's hash, and a change of the module's Ascend sign targets it again."""
    package = tmp_path / "launcher_imports"  # the name its absolute imports use
    shutil.copytree(FIXTURES / "shared" / "launcher_imports", package)
    launcher, kernels = package / "launch.py", package / "kernels.py"
    settings = Settings(root=tmp_path)
    cache = Cache(tmp_path / DEFAULT_FOLDER, settings)
    assert cache.prepare() is None
    linted = lint_file(str(launcher), settings, cache)
    assert [f.code for f in linted.findings] == ["ASC010", "ASC001", "ASC010", "ASC001"]
    assert str(kernels) in linted.imported_files
    original = kernels.read_text(encoding="utf-8")
    sign = "from triton.language.extra.cann.extension import extract_slice  # noqa: F401\n"
    assert sign in original
    kernels.write_text(original.replace(sign, ""), encoding="utf-8")  # another vendor's kernels now
    assert cache.lookup(str(launcher)) is None
    skipped = lint_file(str(launcher), settings, cache)
    assert (skipped.checked, skipped.findings) == (False, []) and str(kernels) in skipped.imported_files
    assert cache.lookup(str(launcher)) == skipped  # kept while the module stays as it is
    kernels.write_text(original, encoding="utf-8")  # Ascend code again: the skip no longer holds
    assert cache.lookup(str(launcher)) is None
    assert lint_file(str(launcher), settings, cache).findings == linted.findings


def test_a_warm_run_lints_a_launcher_once_its_kernel_module_says_ascend(tmp_path: Path):
    """The same through `ascend-lint check`, twice with the cache: the launcher skipped on the
    first run is linted on the second, after the kernel module gained an Ascend import."""
    package = tmp_path / "launcher_imports"
    shutil.copytree(FIXTURES / "shared" / "launcher_imports", package)
    kernels = package / "kernels.py"
    original = kernels.read_text(encoding="utf-8")
    kernels.write_text(original.replace("from triton.language.extra.cann", "from other.cann"), encoding="utf-8")
    args = ("--isolated", "--output-format=json", "--select=ASC010", "launcher_imports/launch.py")
    first = ascend_lint(*args, cwd=tmp_path)
    assert (first.returncode, json.loads(first.stdout)) == (0, []), first.stderr
    kernels.write_text(original, encoding="utf-8")
    again = ascend_lint(*args, cwd=tmp_path)
    assert [f["location"]["row"] for f in json.loads(again.stdout)] == [20, 21], again.stderr
