"""Regenerate everything derived from the rules and the fixtures, then review `git diff`.

    python tests/regenerate.py

- docs/rules.md, and in README.md the rules table and the sentence naming the `perf` group's
  rules, from the rule registry (tests/test_docs.py);
- tests/snapshots/: one snapshot per fixture file (tests/test_snapshots.py).

Run it after changing what a rule reports, its documentation, or a fixture; commit the
regenerated files with the change, so the review shows what users will see differently.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(TESTS.parent), str(TESTS)]  # this checkout's ascend_lint, as under pytest

from conftest import CORPUS, REPO  # noqa: E402
from snapshot import SNAPSHOTS, render, snapshot_path  # noqa: E402

from ascend_lint.docs import rules_page, with_group_sentences, with_rules_table  # noqa: E402


def generated() -> dict[Path, str]:
    """Each derived file and the text it should hold."""
    readme = REPO / "README.md"
    files = {
        REPO / "docs" / "rules.md": rules_page(),
        readme: with_group_sentences(with_rules_table(readme.read_text(encoding="utf-8"))),
    }
    files.update({snapshot_path(fixture): render(fixture) for fixture in CORPUS})
    return files


def main() -> int:
    wanted = generated()
    for path, text in wanted.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")
    for stale in sorted(set(SNAPSHOTS.rglob("*.snap")) - set(wanted)):
        stale.unlink()
        print(f"removed {stale.relative_to(REPO)} (its fixture is gone)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
