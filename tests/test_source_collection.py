"""Garbage collection around a lint (source.collection_paused, source.kept_from_collection):
the collection an analysis leaves due is made before the next tree is built, never while the
tree just analysed (or, in `--fix`, the check's tree) is alive, and linting file after file
keeps memory bounded."""

from __future__ import annotations

import gc
import itertools
import time

import pytest
from conftest import FIXTURES, settings

from ascend_lint import source
from ascend_lint.engine import DocumentMemory, lint_source
from ascend_lint.fixer import fix_result

FIXABLE = (FIXTURES / "triton_ascend" / "asc002_constexpr_to.py").read_text(encoding="utf-8")
CLEAN = (FIXTURES / "triton_ascend" / "clean_kernels.py").read_text(encoding="utf-8")


@pytest.fixture
def collecting_after_every_file(monkeypatch) -> list[str]:
    """Events in order: 'collect' (gc.collect), 'parse' (libcst builds a tree; repeats merged)."""
    monkeypatch.setattr(source, "COLLECT_AFTER_CHARS", 1)
    monkeypatch.setattr(source._analysed, "due", False)
    events: list[str] = []
    real_collect, real_parse = gc.collect, source._parse_in_pieces
    monkeypatch.setattr(gc, "collect", lambda *args: events.append("collect") or real_collect(*args))
    monkeypatch.setattr(source, "_parse_in_pieces", lambda text: events.append("parse") or real_parse(text))
    return events


def merged(events: list[str]) -> list[str]:
    return [event for event, _ in itertools.groupby(events)]


def test_the_collection_is_made_before_the_next_tree_is_built(collecting_after_every_file) -> None:
    events = collecting_after_every_file
    for text in (CLEAN, FIXABLE):
        assert lint_source(text, "k.py", settings()).findings is not None
        events.append("linted")
    memory = DocumentMemory.empty()
    checked = lint_source(FIXABLE, "k.py", settings(), memory=memory)
    events.append("checked")
    _, fixed = fix_result(checked, settings(), unsafe=True, memory=memory)
    assert fixed is not None
    events.append("fixed")
    lint_source(CLEAN, "k.py", settings())
    events.append("linted")
    lint_source(CLEAN, "k.py", settings())
    assert merged(events) == [
        *("parse", "linted"),
        *("collect", "parse", "linted"),
        *("collect", "parse", "checked"),
        *("parse", "fixed"),  # the re-lint: the check's tree is alive, no collection
        # the check's tree stayed alive (its memory): a collection waits for more text
        *("parse", "linted"),
        *("collect", "parse"),
    ]


def test_a_document_kept_alive_is_collected_every_few_relints(collecting_after_every_file) -> None:
    """An editor's document stays alive between re-lints and every collection walks its tree:
    a collection comes after KEPT_TREE_FACTOR times its text, not after every re-lint."""
    events = collecting_after_every_file
    memory = DocumentMemory.empty()
    for version in range(8):
        lint_source(f"{FIXABLE}# {version}\n", "k.py", settings(), memory=memory)
    assert source.KEPT_TREE_FACTOR == 4 and events.count("collect") == 1  # before the fifth re-lint
    events.clear()
    for version in range(8):
        lint_source(f"{FIXABLE}# {version}\n", "k.py", settings())
    assert events.count("collect") == 8  # the first one: the document's last re-lint left it due


def test_linting_file_after_file_keeps_memory_bounded(collecting_after_every_file) -> None:
    """The trees analysed stay in cycles the analysis leaves; each is collected in time."""
    counts = []
    for _ in range(8):
        lint_source(FIXABLE + CLEAN, "k.py", settings())
        counts.append(len(gc.get_objects()))
    assert max(counts[2:]) - min(counts[2:]) < counts[0] / 20, counts


def test_the_collection_of_earlier_files_is_not_in_a_files_time_budget(monkeypatch) -> None:
    """The garbage collected before a lint is earlier files': a slow collection (here 0.4 s of
    CPU) does not make a small file miss a 0.2 s budget."""

    def slow_collect(*args) -> int:
        start = time.process_time()
        while time.process_time() - start < 0.4:
            pass
        return 0

    monkeypatch.setattr(source._analysed, "due", True)
    monkeypatch.setattr(gc, "collect", slow_collect)
    result = lint_source(FIXABLE, "k.py", settings(timeout_per_file=0.2))
    assert result.error is None and result.findings
    assert not source._analysed.due
