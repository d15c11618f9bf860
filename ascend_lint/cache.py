"""The content cache: each file's lint result, reused while its bytes and the settings stay the same.

Layout, as ruff's: `.ascend_lint_cache/` next to the configuration (the project root), or
`--cache-dir` / `ASCEND_LINT_CACHE_DIR`. It holds a `.gitignore` (`*`), a `CACHEDIR.TAG`, and
one folder per key — package version, a hash of ascend-lint's own analysis sources (so a
changed rule set is a new key) and every resolved setting — with one small JSON entry per
file: its path, the hash of its content, the hashes of the files it imports device functions
or core-count helpers from (`kernels.ImportedFunctions`; a module that could not be read is
recorded as absent), and of those its targeting read (`ascend_imports`: a skipped launcher is
Ascend code once the module whose kernels it launches says Ascend), and its result (findings with fixes, the error or why it was skipped as
not Ascend code, the warnings about its suppression comments; a skip is used only while the
path and project still leave the file out, `Settings.path_skip_reason`), and the key of its
own settings when a configuration nearer than the run's governs it.

An entry is used only when the file's current bytes hash to the stored hash and every imported
file still hashes to its own (or is still absent); an entry of a kernel module whose launches are
in other modules records its package folder, hashed over all its modules (read again within a
run only when a file's modification time or size changed). Entries are
written atomically (a temporary file, then a rename), so concurrent runs see either a whole
entry or none; an unreadable or malformed entry is a miss and is rewritten. `--fix` applies a
cached finding's fix to the text whose hash matched, and writes only after checking that the
file still holds that text (`fixer.write_fixed`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from . import __version__
from . import source as sources
from .ascend_text import says_ascend
from .atomic import write_atomically
from .config import Settings
from .model import Diagnostic, Edit, FileResult, Finding, Fix, Position, Related
from .package import content_hash, file_hash, package_stamp

DEFAULT_FOLDER = ".ascend_lint_cache"
ENVIRONMENT = "ASCEND_LINT_CACHE_DIR"
FORMAT = 6
_GITIGNORE = "# Created by ascend-lint automatically.\n*\n"
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by ascend-lint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def cache_folder(settings: Settings, option: str | None) -> Path:
    """`--cache-dir`, else `ASCEND_LINT_CACHE_DIR`, else `.ascend_lint_cache` in the project root."""
    chosen = option or os.environ.get(ENVIRONMENT)
    return Path(chosen) if chosen else settings.root / DEFAULT_FOLDER


def analysis_fingerprint() -> str:
    """A hash of the sources that decide findings: the engine's modules (subpackages too) and the rules."""
    digest = hashlib.blake2b(digest_size=12)
    for package in ("ascend_lint", "ascend_lint.rules"):
        spec = find_spec(package)
        for folder in spec.submodule_search_locations if spec and spec.submodule_search_locations else ():
            for path in sorted(Path(folder).rglob("*.py")):
                digest.update(path.relative_to(folder).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def settings_key(settings: Settings) -> str:
    """Every resolved setting (new settings are included without listing them here)."""
    fields = json.dumps(dataclasses.asdict(settings), default=str, sort_keys=True)
    return hashlib.blake2b(fields.encode(), digest_size=12).hexdigest()


class Cache:
    """Lint results per file under one key (version, analysis sources, settings)."""

    def __init__(self, folder: Path, settings: Settings):
        self.root = folder
        self.folder = folder / f"{__version__}-{analysis_fingerprint()}-{settings_key(settings)}"
        self.settings = settings
        self.usable = True
        self._packages: dict[str, tuple[tuple[tuple[str, int, int], ...], str | None]] = {}  # `_hash`
        # `_own_settings_key`: each nearer configuration's key, hashed once (`for_file` hands out
        # one Settings object per configuration), by the object's id, which the entry keeps alive
        self._keys: dict[int, tuple[Settings, str]] = {}

    def prepare(self) -> str | None:
        """Create the folder (with its `.gitignore`); the reason when the cache cannot be used."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for name, text in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _CACHEDIR_TAG)):
                if not (self.root / name).is_file():
                    write_atomically(self.root / name, text.encode(), durable=False)
        except OSError as exc:
            self.usable = False
            return f"cannot use the cache folder {self.root}: {exc.strerror or exc}"
        return None

    def _entry(self, filename: str) -> tuple[Path, str]:
        resolved = os.path.realpath(filename)
        name = hashlib.blake2b(resolved.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
        return self.folder / f"{name}.json", resolved

    def lookup(self, filename: str) -> FileResult | None:
        """The cached result for the file's current content, or None."""
        if not self.usable:
            return None
        entry, resolved = self._entry(filename)
        try:
            data = sources.read_source(filename)
            with open(entry, encoding="utf-8", errors="surrogateescape") as handle:  # as `store` writes
                stored = json.load(handle)
        except (OSError, ValueError, sources.SourceError):
            return None
        if not isinstance(stored, dict) or stored.get("format") != FORMAT or stored.get("path") != resolved:
            return None
        if stored.get("settings") != self._own_settings_key(filename):
            return None  # the file's own configuration changed
        if stored.get("hash") != content_hash(data):
            return None
        imported = stored.get("imported")
        if not isinstance(imported, dict) or any(self._hash(path) != known for path, known in imported.items()):
            return None  # a module it imports from changed
        try:
            result = _decode_result(filename, data, stored)
        except (KeyError, TypeError, ValueError, IndexError):
            return None  # a malformed entry: linted again and rewritten
        result.imported_files = imported
        # targeted for these bytes and for the path and project as they were: the bytes hold,
        # the path and project are asked again (a dependency on torch_npu added or dropped since,
        # an Ascend folder added beside the file's)
        own = self.settings.for_file(filename)
        if result.skip_reason is not None:
            result.skip_reason = own.path_skip_reason(filename)
            if result.skip_reason is None:
                return None
        elif (
            result.source is not None
            and not (own.target_all or says_ascend(result.source))
            and own.path_skip_reason(filename) is not None
        ):
            return None  # linted for a path or project that now leave it out: targeted again
        return result

    def _hash(self, path: str) -> str | None:
        """`package.file_hash`; a package folder's (its modules hold a kernel's launches) read
        again only when one of its files was added, removed or rewritten (`package_stamp`), so
        the entries of a run that depend on it read the package once."""
        if not os.path.isdir(path):
            return file_hash(Path(path))
        stamp = package_stamp(Path(path))
        known = self._packages.get(path)
        if known is None or known[0] != stamp:
            known = self._packages[path] = (stamp, file_hash(Path(path)))
        return known[1]

    def _own_settings_key(self, filename: str) -> str | None:
        """The key of the settings of a file that a configuration nearer than the run's governs
        (`Settings.for_file`); None for the run's own, which the folder's key covers."""
        own = self.settings.for_file(filename)
        if own is self.settings:
            return None
        known = self._keys.get(id(own))
        if known is None or known[0] is not own:
            known = self._keys[id(own)] = (own, settings_key(own))
        return known[1]

    def store(self, filename: str, data: bytes, result: FileResult) -> None:
        """Remember `result` as the result for `data` (the bytes that were linted)."""
        if not self.usable:
            return
        entry, resolved = self._entry(filename)
        stored = {
            "format": FORMAT,
            "path": resolved,
            "hash": content_hash(data),
            "imported": result.imported_files,
            "settings": self._own_settings_key(filename),
            **_encode_result(result),
        }
        with contextlib.suppress(OSError):
            write_atomically(
                entry,
                # a path that is not UTF-8 (`k\xff.py`) as its bytes, read back as the same str
                json.dumps(stored, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape"),
                durable=False,
            )


# ---- (de)serialising a FileResult: the filename is the caller's, never stored --------------


def _position(position: Position) -> list[int]:
    return [position.row, position.column]


def _encode_result(result: FileResult) -> dict[str, Any]:
    error = result.error
    return {
        "checked": result.checked,
        "skip_reason": result.skip_reason,
        "error": None
        if error is None
        else [error.message, _position(error.location) if error.location is not None else None],
        "findings": [_encode_finding(finding) for finding in result.findings],
        "warnings": [[w.message, _position(w.location) if w.location is not None else None] for w in result.warnings],
    }


def _encode_finding(finding: Finding) -> list[Any]:
    fix = finding.fix
    return [
        finding.code,
        finding.name,
        finding.message,
        _position(finding.location),
        _position(finding.end_location),
        finding.kernel,
        [[_position(r.location), _position(r.end_location), r.message] for r in finding.related],
        None
        if fix is None
        else [
            fix.applicability,
            fix.message,
            [[_position(e.start), _position(e.end), e.content] for e in fix.edits],
        ],
        dict(finding.facts),
        finding.no_fix_reason,
        finding.continued_to,
    ]


def _decode_result(filename: str, data: bytes, stored: dict[str, Any]) -> FileResult:
    try:
        source = sources.decode(data)
    except sources.SourceError:
        source = None  # the stored error says why
    error = stored["error"]
    return FileResult(
        filename,
        source=source,
        findings=[_decode_finding(filename, entry) for entry in stored["findings"]],
        error=None if error is None else Diagnostic(filename, error[0], Position(*error[1]) if error[1] else None),
        checked=bool(stored["checked"]),
        skip_reason=stored["skip_reason"],
        warnings=[Diagnostic(filename, message, Position(*at) if at else None) for message, at in stored["warnings"]],
    )


def _decode_finding(filename: str, entry: list[Any]) -> Finding:
    code, name, message, start, end, kernel, related, fix, facts, no_fix_reason, continued_to = entry
    return Finding(
        code,
        name,
        message,
        filename,
        Position(*start),
        Position(*end),
        kernel,
        tuple(Related(filename, Position(*a), Position(*b), text) for a, b, text in related),
        None
        if fix is None
        else Fix(fix[0], fix[1], tuple(Edit(Position(*a), Position(*b), content) for a, b, content in fix[2])),
        {key: tuple(value) if isinstance(value, list) else value for key, value in facts.items()},
        no_fix_reason,
        continued_to,
    )
