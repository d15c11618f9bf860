"""The Ascend SoC families a file can be judged against (`target-soc`, `per-file-target-soc`).

Each capacity is the one bishengir-compile (ascendnpu-ir 1.2.0, with triton-ascend 3.2.0) reports
for the family's `--target` when a kernel is too large: `ub overflow, requires N bits while M
bits available` (M / 8 here). See docs/ub-estimate.md, "The capacity".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Soc:
    name: str  # the setting's value
    label: str  # how messages name the chip
    ub_bytes: int  # unified buffer per vector core


SOCS = {
    soc.name: soc
    for soc in (
        Soc("ascend910b", "Ascend 910B", 196608),  # A2, --target=Ascend910B3: 1572864 bits
        Soc("ascend910_93", "Ascend 910_93", 196608),  # A3, --target=Ascend910_9391: 1572864 bits
        # Ascend 950PR/DT (`compile_on_910_95`), --target=Ascend950PR_9599 / Ascend950DT_9591 /
        # Ascend910_9599: 2031616 bits for SIMD kernels (1769472 bits, 216 KiB, when compiled as
        # mixed SIMD+SIMT; the estimate does not tell those apart)
        Soc("ascend950", "Ascend 950", 253952),
    )
}
DEFAULT_SOC = SOCS["ascend910b"]
