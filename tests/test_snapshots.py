"""Pinned behaviour: each fixture file's findings (message, range, source excerpt, related
locations, fix edits and applicability) match its snapshot under tests/snapshots/.

A change in what ascend-lint reports shows up here as a diff. When the change is intended,
run `python tests/regenerate.py` and commit the regenerated snapshots with it.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from conftest import CORPUS, FIXTURES, REPO
from snapshot import REGENERATE, SNAPSHOTS, render, snapshot_path


@pytest.mark.parametrize("fixture", CORPUS, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_findings_match_the_snapshot(fixture: Path) -> None:
    stored = snapshot_path(fixture)
    assert stored.is_file(), f"no snapshot for {fixture.relative_to(REPO)}: run `{REGENERATE}` and review it"
    now = render(fixture)
    pinned = stored.read_text(encoding="utf-8")
    if now != pinned:
        diff = difflib.unified_diff(
            pinned.splitlines(keepends=True),
            now.splitlines(keepends=True),
            f"{stored.relative_to(REPO)} (pinned)",
            "what ascend-lint reports now",
        )
        pytest.fail(f"findings changed; if intended, run `{REGENERATE}` and commit the result:\n{''.join(diff)}")


def test_every_snapshot_belongs_to_a_fixture() -> None:
    orphans = sorted(
        path.relative_to(REPO).as_posix()
        for path in set(SNAPSHOTS.rglob("*.snap")) - {snapshot_path(f) for f in CORPUS}
    )
    assert not orphans, f"snapshots without a fixture (run `{REGENERATE}`): {orphans}"
