"""The package a module belongs to on disk, and the files its imports name.

A package is found as Python finds it from the inside: the module's folder and those above it
up to the highest one holding an `__init__.py` (namespace folders in between included). Both
targeting (Ascend-named package folders) and the imported device functions (`kernels`) read it.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from .ascend_text import ascend_name
from .source import SourceError, read_source


def content_hash(data: bytes) -> str:
    """What a file's result depends on of its bytes (the content cache's key)."""
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def file_hash(path: Path) -> str | None:
    """The content hash of the file at `path`, or of the package a folder holds
    (`package_hash`); None when it cannot be read."""
    if os.path.isdir(path):
        return package_hash(path)
    try:
        return content_hash(read_source(path))
    except (OSError, SourceError):
        return None


@lru_cache(maxsize=256)
def package_folders(folder: Path) -> tuple[Path, ...]:
    """`folder` and the folders above it up to the highest one holding an `__init__.py`,
    innermost first; none outside a package."""
    chain = (folder, *folder.parents)
    top = max((i for i, candidate in enumerate(chain) if os.path.isfile(candidate / "__init__.py")), default=None)
    return () if top is None else chain[: top + 1]


def in_ascend_package(folder: Path) -> bool:
    """A folder of the package a module in `folder` belongs to (`package_folders`: the package's
    own names, wherever the linter runs from) says Ascend (`ascend_name`: `vllm_ascend/`,
    FlagGems' `backends/_ascend/`); False outside a package."""
    return any(ascend_name(candidate.name) for candidate in package_folders(folder))


def module_files(folder: Path, module: str) -> tuple[Path, ...]:
    """The files that may hold `module` as imported by a module in `folder`, in the order Python
    tries them (`name.py`, then `name/__init__.py`): a relative module (`.micro_kernel`,
    `..common.utils`) from `folder`, an absolute one from the folder above the outermost folder
    of the package named like its first part; none for a module outside the package."""
    dots = len(module) - len(module.lstrip("."))
    parts = module[dots:].split(".") if module[dots:] else []
    if dots:
        base = folder
        for _ in range(dots - 1):
            base = base.parent
    else:
        named = [candidate for candidate in package_folders(folder) if parts and candidate.name == parts[0]]
        if not named:
            return ()
        base = named[-1].parent
    if not parts:
        return ()  # `from . import name`: a module, not a function of one
    target = base.joinpath(*parts)
    return target.with_name(f"{target.name}.py"), target / "__init__.py"


_MAX_PACKAGE_FILES = 5000  # a folder holding more is no package a module's launches are looked for in


def package_files(root: Path) -> list[Path]:
    """The Python files under a package's outermost folder (`package_folders`), in path order;
    none at all past `_MAX_PACKAGE_FILES`."""
    paths = []
    for path in root.rglob("*.py"):
        paths.append(path)
        if len(paths) > _MAX_PACKAGE_FILES:
            return []
    return sorted(paths)


def package_sources(root: Path) -> list[tuple[Path, bytes]]:
    """`package_files` with their bytes (`source.read_source`); those it cannot read left out."""
    found = []
    for path in package_files(root):
        try:
            found.append((path, read_source(path)))
        except (OSError, SourceError):
            continue
    return found


def package_stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    """The package's files with their modification times and sizes: a cheap sign that none was
    added, removed or rewritten (a stat per file, where `package_hash` reads them all)."""
    stamps = []
    for path in package_files(root):
        try:
            found = path.stat()
        except OSError:
            continue
        stamps.append((str(path), found.st_mtime_ns, found.st_size))
    return tuple(stamps)


def package_hash(root: Path, sources: list[tuple[Path, bytes]] | None = None) -> str:
    """What a result read from every module of a package depends on: their paths and bytes
    (a module added, removed or changed changes it); `sources` when they were just read."""
    digest = hashlib.blake2b(digest_size=20)
    for path, data in package_sources(root) if sources is None else sources:
        digest.update(
            f"{path.relative_to(root)}\0{content_hash(data)}\n".encode("utf-8", "surrogateescape")
        )  # any name
    return digest.hexdigest()
