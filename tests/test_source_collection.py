"""Memory around a lint. Garbage collection (source.built_old, source.analysis_kept_young): a
tree is freed once its lint ends, and that takes a collection of the young generations only,
never a full one that walks every tree. The C allocator (source.give_back_freed_memory): what
libcst's parser freed goes back to the system after the file's lint, and a large module is
parsed in small pieces (source._parse_in_pieces), so that the parser holds little at once."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator

import libcst as cst
import pytest
from conftest import FIXTURES, settings

from ascend_lint import engine
from ascend_lint.engine import DocumentMemory, lint_source
from ascend_lint.fixer import fix_result

FIXABLE = (FIXTURES / "triton_ascend" / "asc002_constexpr_to.py").read_text(encoding="utf-8")
CLEAN = (FIXTURES / "triton_ascend" / "clean_kernels.py").read_text(encoding="utf-8")


def trees_alive() -> int:
    """libcst modules alive (compared by type: `isinstance` would ask every object its `__class__`)."""
    return sum(type(thing) is cst.Module for thing in gc.get_objects())


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of each collection made meanwhile (CPython's own included)."""
    made: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            made.append(info["generation"])

    gc.collect()
    gc.callbacks.append(record)
    yield made
    gc.callbacks.remove(record)


def test_each_tree_is_freed_as_its_lint_ends(collections) -> None:
    """The analysis leaves cycles holding its tree (a kernel's flow events): freed by the young
    collection as the analysis ends, and the tree with them."""
    before = trees_alive()
    for text in (FIXABLE, CLEAN) * 4:
        assert lint_source(text, "k.py", settings()).findings is not None
        assert trees_alive() == before
    assert 2 not in collections


def test_the_analysis_stays_young_and_the_tree_old(collections, monkeypatch) -> None:
    """No collection while a tree is built and analysed; the tree is then in the oldest
    generation, so the young collection at the end does not walk it."""
    seen: list[tuple[bool, bool, int]] = []  # (collections enabled, the tree is old, collections made so far)
    real_analysed = engine._analysed

    def analysed(filename, source, module, *rest):
        oldest = gc.get_objects(generation=2)
        seen.append((gc.isenabled(), any(thing is module for thing in oldest), len(collections)))
        del oldest
        return real_analysed(filename, source, module, *rest)

    monkeypatch.setattr(engine, "_analysed", analysed)
    assert lint_source(FIXABLE + CLEAN, "k.py", settings()).findings
    [(enabled, old, made)] = seen
    assert not enabled and old
    assert collections[made:] == [1]  # as the analysis ends


def test_a_document_kept_alive_is_not_walked_by_re_lints(collections) -> None:
    """An editor's document (or `--fix`'s check) keeps its tree and the facts of its kernels
    alive between lints; each re-lint still makes only a young collection."""
    memory = DocumentMemory.empty()
    for version in range(6):
        lint_source(f"{FIXABLE}# {version}\n", "k.py", settings(), memory=memory)
    checked = lint_source(FIXABLE, "k.py", settings(), memory=memory)
    _, fixed = fix_result(checked, settings(), unsafe=True, memory=memory)
    assert fixed is not None
    assert collections and set(collections) <= {0, 1}


def test_linting_file_after_file_keeps_memory_bounded() -> None:
    counts = []
    for _ in range(8):
        lint_source(FIXABLE + CLEAN, "k.py", settings())
        counts.append(len(gc.get_objects()))
    assert max(counts[2:]) - min(counts[2:]) < counts[0] / 20, counts


# Lints a small kernel file, then one of about 31 KB (parsed in one piece), in a fresh process;
# prints how much the resident set grew over the second lint, in MB.
GROWTH_OVER_A_LINT = """
import os, sys
from pathlib import Path
from ascend_lint import engine
from ascend_lint.config import Settings

def resident():
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")

folder, kernel = Path(sys.argv[1]), Path(sys.argv[2]).read_text(encoding="utf-8")
(folder / "small.py").write_text(kernel, encoding="utf-8")
copies = [kernel.replace("def ", f"def copy{i}_") for i in range(4)]
(folder / "large.py").write_text("\\n\\n".join(copies), encoding="utf-8")
settings = Settings(root=folder, target_all=True)
engine.lint_file(str(folder / "small.py"), settings)
before = resident()
assert engine.lint_file(str(folder / "large.py"), settings).checked
print((resident() - before) / 2**20)
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or "glibc" not in (os.confstr("CS_GNU_LIBC_VERSION") or ""),
    reason="malloc_trim and /proc/self/statm are glibc's and Linux's",
)
def test_memory_libcst_freed_goes_back_to_the_system(tmp_path) -> None:
    """libcst's native parser mallocs tens of megabytes for a 31 KB module and frees them once
    the Python tree is built; glibc would keep them (measured: the resident set stays about
    19 MB higher). After the lint the process holds no more than before it."""
    kernel = FIXTURES / "triton_ascend" / "clean_kernels.py"
    run = subprocess.run(
        [sys.executable, "-c", GROWTH_OVER_A_LINT, str(tmp_path), str(kernel)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert float(run.stdout) < 4, run.stdout


# Parses a module of about 78 KB (ten copies of a kernel file) in a fresh process; prints how
# far the peak resident set rose over the parse, in MB (`VmHWM`: `ru_maxrss` would start from
# the pytest process this one was forked from).
PEAK_OF_A_PARSE = """
import sys
from pathlib import Path
from ascend_lint import source

def peak():
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0]) / 1024

kernel = Path(sys.argv[1]).read_text(encoding="utf-8")
text = "\\n\\n".join(kernel.replace("def ", f"def copy{i}_") for i in range(10))
import libcst
start = peak()
module = source.parse(text)
assert module.code == text
print(peak() - start)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the peak resident set from /proc/self/status")
def test_memory_a_large_module_is_parsed_in_small_pieces() -> None:
    """libcst's native parser holds about 800 bytes per character of the text it is given until
    the Python tree is built: the 78 KB module parsed in 32 KB pieces peaked 37 MB above the
    start, in 8 KB pieces 17 MB (the tree itself included)."""
    kernel = FIXTURES / "triton_ascend" / "clean_kernels.py"
    run = subprocess.run(
        [sys.executable, "-c", PEAK_OF_A_PARSE, str(kernel)], capture_output=True, text=True, check=True
    )
    assert float(run.stdout) < 26, run.stdout
