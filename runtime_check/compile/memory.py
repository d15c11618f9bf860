"""The compiler's memory plan: ``memory_info_aiv.json`` / ``memory_info_aic.json``.

``bishengir-compile --enable-memory-display`` writes, per on-chip memory (scope), each planned
buffer with its extent in bits, its byte offset(s) (one per multi-buffer copy), its lifetime in
the IR and, with line info on, the kernel's ``.py`` line. Peak usage of a scope is the highest
``offset + extent`` over its buffers. A compiler that writes no report (the Ascend 950's) gives
its UB total instead (:meth:`MemoryPlan.with_ub_total`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..device import DEFAULT_MODEL, MODELS

# Capacities (the same on every simulated model; bishengir-compile's overflow errors say
# "requires N bits while M bits available"). The UB's is the compile target's
# (`ascend_lint.socs`), the Ascend 950's included; the 950 writes no report with L1 or L0C.
_MODEL = MODELS[DEFAULT_MODEL]
SCOPES = {
    "ub": ("UB", _MODEL.ub),
    "cbuf": ("L1", _MODEL.l1),
    "cc": ("L0C", _MODEL.l0c),
}

_LOC = re.compile(r'loc\("(?P<file>[^"]+)":(?P<line>\d+):(?P<col>\d+)\)')


@dataclass(frozen=True)
class Buffer:
    bytes: int
    offsets: tuple[int, ...]
    file: str | None
    line: int | None

    @property
    def end(self) -> int:
        """Highest byte this buffer occupies (over its multi-buffer copies)."""
        return max(self.offsets, default=0) + self.bytes

    @property
    def intervals(self) -> list[tuple[int, int]]:
        return [(offset, offset + self.bytes) for offset in self.offsets or (0,)]


def _covered(buffers: list[Buffer]) -> int:
    """Bytes of address space the buffers cover together."""
    covered, reach = 0, 0
    for start, end in sorted(i for b in buffers for i in b.intervals):
        start = max(start, reach)
        if end > start:
            covered, reach = covered + end - start, end
    return covered


@dataclass(frozen=True)
class ScopeUsage:
    scope: str
    name: str
    capacity: int | None
    buffers: tuple[Buffer, ...]
    error: str = ""
    total: int = 0  # the compiler's own figure, for a compiler that lists no buffers

    @property
    def peak(self) -> int:
        return max((b.end for b in self.buffers), default=self.total)

    def largest(self, count: int = 3) -> list[dict[str, Any]]:
        """The source lines whose buffers occupy the most UB (bytes of address space covered,
        reused addresses counted once), with their buffer count."""
        by_line: dict[tuple[str | None, int | None], list[Buffer]] = {}
        for buffer in self.buffers:
            by_line.setdefault((buffer.file, buffer.line), []).append(buffer)
        rows = [
            {"bytes": _covered(group), "buffers": len(group), "file": file, "line": line}
            for (file, line), group in by_line.items()
        ]
        return sorted(rows, key=lambda row: int(row["bytes"] or 0), reverse=True)[:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "scope": self.name,
            "peak_bytes": self.peak,
            "capacity_bytes": self.capacity,
            "error": self.error or None,
            "largest_buffers": self.largest(),
        }


@dataclass(frozen=True)
class MemoryPlan:
    scopes: tuple[ScopeUsage, ...] = field(default_factory=tuple)

    def get(self, name: str) -> ScopeUsage | None:
        return next((s for s in self.scopes if s.name == name), None)

    def peak(self, name: str) -> int:
        usage = self.get(name)
        return usage.peak if usage else 0

    @property
    def overflow(self) -> str:
        """The compiler's overflow message, or ``""`` when every scope fit."""
        return next((s.error for s in self.scopes if "overflow" in s.error), "")

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.scopes]

    def with_ub_total(self, total: int, capacity: int) -> MemoryPlan:
        """This plan with a UB of ``total`` bytes planned, when it holds no UB scope."""
        if self.get("UB") is not None:
            return self
        return MemoryPlan((*self.scopes, ScopeUsage("ub", "UB", capacity, (), total=total)))


def _buffer(entry: dict[str, Any]) -> Buffer:
    loc = _LOC.search(entry.get("source_location", ""))
    return Buffer(
        bytes=int(entry["extent"]) // 8,
        offsets=tuple(int(x) for x in entry.get("offset", [])),
        file=loc["file"] if loc else None,
        line=int(loc["line"]) if loc else None,
    )


def read_plan(report_dir: Path, ub_capacity: int = _MODEL.ub) -> MemoryPlan:
    """Parse every ``memory_info_*.json`` the compiler left in ``report_dir``."""
    scopes = []
    for path in sorted(report_dir.glob("memory_info_*.json")):
        for record in json.loads(path.read_text()).get("Record", []):
            scope = record.get("scope", "?")
            name, capacity = SCOPES.get(scope, (scope.upper(), None))
            capacity = ub_capacity if scope == "ub" else capacity
            buffers = tuple(_buffer(e) for e in record.get("memory_info_array", []))
            scopes.append(ScopeUsage(scope, name, capacity, buffers, record.get("error_info", "")))
    return MemoryPlan(tuple(scopes))


def kib(n_bytes: int) -> str:
    return f"{n_bytes} B" if n_bytes < 1024 else f"{n_bytes / 1024:g} KiB"


def kib_range(low: int, high: int) -> str:
    return f"{low / 1024:g}-{high / 1024:g} KiB"
