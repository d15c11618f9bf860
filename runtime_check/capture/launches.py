"""Captured launches: which kernel, with which specialisation, from where — data that crosses
processes as JSON."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class KernelRef:
    """Where a kernel is defined: its module file, module name and function name."""

    file: str
    module: str
    name: str


@dataclass(frozen=True)
class Launch:
    """One captured kernel launch: everything needed to compile it again."""

    kernel: KernelRef
    signature: dict[str, str]
    constants: dict[str, Any]
    attrs: dict[str, Any]
    options: dict[str, Any]
    do_not_specialize: list[str]
    arg_summary: dict[str, str]
    grid: list[int] | None = None
    call_site: list[Any] | None = None
    printed: str = ""
    test: str | None = None  # the pytest node that made the launch (``--pytest`` workloads)

    def parameters(self) -> set[str]:
        """The kernel's parameter names: the JIT puts each in the signature or the constants."""
        return {*self.signature, *self.constants}

    def key(self) -> str:
        """Launches with the same key compile to the same kernel."""
        return json.dumps([self.signature, self.constants, self.attrs, self.options], sort_keys=True, default=repr)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Launch:
        return cls(**{**data, "kernel": KernelRef(**data["kernel"])})


def distinct(launches: list[Launch]) -> list[Launch]:
    """The first launch of each specialisation, in order."""
    seen: set[str] = set()
    firsts = []
    for launch in launches:
        if launch.key() not in seen:
            seen.add(launch.key())
            firsts.append(launch)
    return firsts


@dataclass
class Capture:
    """The launches of one workload run, and the error that ended it early, if any."""

    workload: str
    launches: list[Launch] = field(default_factory=list)
    error: str | None = None
    dropped: int = 0  # launches not kept (over the per-kernel cap)
    ended: str | None = None  # how the workload's process ended when it left no result, in a sentence

    def stopped(self) -> str | None:
        """Why the workload stopped early, in one line: how its process ended (it hung, exited
        with ``os._exit``, crashed), else the last line of the error it raised; None when it
        ran to its end."""
        if self.ended is not None:
            return self.ended
        return self.error.strip().splitlines()[-1] if self.error else None

    def tests(self, kernels: set[KernelRef | None]) -> dict[str, dict[str, int]]:
        """For a ``--pytest`` workload: each test's launches of ``kernels``, counted per kernel."""
        counts: dict[str, dict[str, int]] = {}
        for launch in self.launches:
            if launch.test is not None and launch.kernel in kernels:
                per_kernel = counts.setdefault(launch.test, {})
                per_kernel[launch.kernel.name] = per_kernel.get(launch.kernel.name, 0) + 1
        return counts

    def for_kernel(self, kernel: KernelRef) -> list[Launch]:
        """This kernel's launches with distinct specialisations, in workload order."""
        return distinct([x for x in self.launches if x.kernel == kernel])

    def to_json(self) -> dict[str, Any]:
        return {
            "workload": self.workload,
            "error": self.error,
            "dropped": self.dropped,
            "launches": [x.to_json() for x in self.launches],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Capture:
        launches = [Launch.from_json(x) for x in data["launches"]]
        return cls(data["workload"], launches, data.get("error"), data.get("dropped", 0))


def split_keywords(keywords: Mapping[str, Any], parameters: Collection[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Launch keywords as the JIT reads them: those naming one of the kernel's ``parameters``, and
    the rest, which it parses as compile options (`num_warps`, triton-ascend's `multibuffer`: its
    autotuner passes every key of a config's dict, so the dict may hold options beside constexprs)."""
    arguments = {k: v for k, v in keywords.items() if k in parameters}
    return arguments, {k: v for k, v in keywords.items() if k not in arguments}


def encode_value(value: Any) -> Any:
    """A constexpr value as JSON (``tl.dtype`` values become ``{"dtype": name}``)."""
    if value.__class__.__name__ == "dtype" and hasattr(value, "name"):
        return {"dtype": value.name}
    if isinstance(value, (tuple, list)):
        return [encode_value(x) for x in value]
    return value


def decode_value(value: Any) -> Any:
    """Inverse of :func:`encode_value`."""
    if isinstance(value, dict) and set(value) == {"dtype"}:
        import triton.language as tl

        return tl.dtype(value["dtype"])
    if isinstance(value, list):
        return tuple(decode_value(x) for x in value)
    return value
