"""What a module's host code (everything outside kernel bodies) says about its kernels, built
once per module on first use and asked by rules through `ModuleContext.host`; none re-derives it.

The modules, lowest first (each imports only those above it; `index` imports them all):

- `params`: what a call passes for a function's parameters (`passed_for`, `all_params`).
- `records`: the plain records handed out (`CallSite`, `Launch`, `Grid`, `CoreCount`, `Passed`,
  `DictTrail`, `Evidence`, ...).
- `dtypes`: torch dtype tables, conversions and allocations, dtype asserts (`TensorDtype`).
- `shapes`: tensor extents as written (`x.shape[i]`, `x.size(i)`, products) and size arithmetic.
- `bindings`: which bindings of a name reach a point, the names a node reads where they make it
  smaller (`names_read_shrinking`; `nodes.names_read` has those it reads).
- `dicts`: dict literals, copies, changes and key reads, for `**` splats of launches.
- `evidence`: what a passed value shows alone (None, a float, a unit last stride).
- `guards`: host tests read as guards of sizes: the cases a test holds in (`holding_cases`),
  the orderings it makes in all of them (`orderings`), the statements run before a call.
- `facts`: the one walk over host code (`HostFacts`) and what a re-lint keeps of it (`HostMemory`).
- `platforms`: host code that runs only on another platform (`OtherPlatformPaths`) or on the NPU
  (`NpuPaths`).
- `index`: `HostIndex`, the questions rules ask (launches, callers, where a value comes from,
  grids and core counts, evidence per kernel parameter), and the host facts of other modules of
  the package it reads.

`from ascend_lint.host import X` names are re-exported here.
"""

from ..nodes import names_read
from .bindings import reads, rebinds, statement_before, statements_after, while_counters
from .dtypes import NARROW_INT_WORDS, TensorDtype
from .evidence import is_float
from .facts import HostFacts, HostMemory, unwrapped
from .guards import holding_cases, links, orderings
from .index import ORDERINGS, SIZES_HELD, HostIndex, checks_in
from .params import all_params, passed_for
from .platforms import NpuPaths
from .records import (
    BoundedSizes,
    CallSite,
    CoreCount,
    DictChange,
    DictSource,
    DictTrail,
    Grid,
    ItemStore,
    Launch,
    Loop,
    Merged,
    Passed,
    Scope,
)
from .shapes import without_int_conversion

__all__ = [
    "NARROW_INT_WORDS",
    "ORDERINGS",
    "SIZES_HELD",
    "BoundedSizes",
    "CallSite",
    "CoreCount",
    "DictChange",
    "DictSource",
    "DictTrail",
    "Grid",
    "HostFacts",
    "HostIndex",
    "HostMemory",
    "ItemStore",
    "Launch",
    "Loop",
    "Merged",
    "NpuPaths",
    "Passed",
    "Scope",
    "TensorDtype",
    "all_params",
    "checks_in",
    "holding_cases",
    "is_float",
    "links",
    "names_read",
    "orderings",
    "passed_for",
    "reads",
    "rebinds",
    "statement_before",
    "statements_after",
    "unwrapped",
    "while_counters",
    "without_int_conversion",
]
