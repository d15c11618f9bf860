"""Verdicts on findings: CONFIRMED / REFUTED / INCONCLUSIVE, with the evidence behind them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any

from ascend_lint.model import Edit, Fact, Finding, Fix, Position, Related


class Verdict(str, Enum):
    CONFIRMED = "CONFIRMED"
    REFUTED = "REFUTED"
    INCONCLUSIVE = "INCONCLUSIVE"


@dataclass
class VariantReport:
    """One compile (or run) of one variant on one captured specialisation."""

    variant: str
    launch: str
    ok: bool
    error: str | None = None
    memory: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Outcome:
    """The verdict on one finding."""

    finding: Finding
    verdict: Verdict
    backend: str | None  # None: nothing was replayed (the rule declares no evidence, `NO_CONFIRM`)
    evidence: str
    variants: list[VariantReport] = field(default_factory=list)
    seconds: float = 0.0
    # the chip the compile backend compiled for: {"soc", "model", "ub_bytes"} (None: no compile)
    target: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "finding": finding_to_json(self.finding),
            "verdict": self.verdict.value,
            "backend": self.backend,
            "evidence": self.evidence,
            "variants": [asdict(v) for v in self.variants],
            "seconds": round(self.seconds, 3),
            "target": self.target,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            finding=finding_from_json(data["finding"]),
            verdict=Verdict(data["verdict"]),
            backend=data["backend"],
            evidence=data["evidence"],
            variants=[VariantReport(**v) for v in data["variants"]],
            seconds=data["seconds"],
            target=data["target"],
        )


def inconclusive(
    finding: Finding, backend: str | None, reason: str, seconds: float = 0.0, target: dict[str, Any] | None = None
) -> Outcome:
    return Outcome(finding, Verdict.INCONCLUSIVE, backend, reason, seconds=seconds, target=target)


def finding_to_json(finding: Finding) -> dict[str, Any]:
    return asdict(finding)


def _fact(value: Any) -> Fact:
    return tuple(value) if isinstance(value, list) else value


def _position(data: dict[str, int]) -> Position:
    return Position(**data)


def finding_from_json(data: dict[str, Any]) -> Finding:
    fix = data.get("fix")
    if fix is not None:
        edits = tuple(Edit(_position(e["start"]), _position(e["end"]), e["content"]) for e in fix["edits"])
        fix = Fix(fix["applicability"], fix["message"], edits)
    related = tuple(
        Related(r["filename"], _position(r["location"]), _position(r["end_location"]), r["message"])
        for r in data.get("related", ())
    )
    return Finding(
        code=data["code"],
        name=data["name"],
        message=data["message"],
        filename=data["filename"],
        location=_position(data["location"]),
        end_location=_position(data["end_location"]),
        kernel=data.get("kernel"),
        related=related,
        fix=fix,
        facts={name: _fact(value) for name, value in data.get("facts", {}).items()},
    )
