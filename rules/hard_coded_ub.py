"""
## What it does
Flags a unified-buffer (UB) capacity written as a number: a name whose parts include `ub`
(`UB_SIZE`, `_UB_BYTES`, `ASCEND_UB_CAPACITY_BITS`) assigned integer literal arithmetic of at
least 16 KiB (`196608`, `192 * 1024`, `1572864`), in host or kernel code, also when the value
divides it into units (`ub_size = 85 * 1024 // x.element_size()`). Names that say they
are a fallback or a default (`_FALLBACK_UB_CAPACITY_BITS`, used when the query fails) and
smaller values (`UB_ALIGN = 32`) are not flagged. Part of the `perf` group.

## Why is this bad?
Tiles sized from a fixed 192 KiB are right for one chip only: the capacity is a property of
the SoC (192 KiB = 1572864 bits on Ascend910B, the figure the compiler's `ub overflow, requires
... bits while 1572864 bits available!` reports there), and a kernel tuned against a literal
either overflows UB (a compile error, one configuration at a time) or leaves buffer unused on
another part. This is advice: nothing fails on the chip the number was written for, and the
compiler has no evidence to give about a host constant.

## Example
```python
_UB_BYTES = 196608
BT = min(64, _UB_BYTES // (BK * 4 * 3))
```

## Use instead
```python
from tbe.common.platform import get_soc_spec

ub_bytes = get_soc_spec("UB_SIZE")  # CANN's query, in bytes
```
or the package's UB manager (fla-core `fla.utils.ascend_ub_manager`, liger-kernel
`liger_kernel.ops.backends._ascend.ub_manager`), which ask the same query and honour
`ASCEND_UB_CAPACITY_BITS`. triton-ascend's `get_device_properties` reports core counts, not
the UB size.

## Fix safety
No automatic fix: where the query lives (and its fallback) is the project's choice; leaving
the finding unfixed is safe on the chip the number was measured on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from ascend_lint.imports import folded_int
from ascend_lint.prefilter import Words
from ascend_lint.rule import Kernel, ModuleContext, Report, Rule

MESSAGE = (
    "hard-coded UB capacity: `{name} = {value}` ({kib:g} KiB) sizes tiles for one SoC; query it "
    '(`tbe.common.platform.get_soc_spec("UB_SIZE")`, or the package\'s UB manager)'
)
MIN_CAPACITY_BYTES = 16 * 1024
_UB = re.compile(r"[uU][bB]")
_WORD = re.compile(r"\w+")
_NAME_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_NOT_THE_CAPACITY = {"fallback", "default", "align", "alignment"}


class HardCodedUb(Rule):
    CODE = "ASC012"
    NAME = "hard-coded-ub"
    SUMMARY = "A UB capacity written as a number instead of queried from the device"
    GROUP = "perf"

    VALID = (
        """
import os
from tbe.common.platform import get_soc_spec

_FALLBACK_UB_CAPACITY_BITS = 65536 * 8
UB_ALIGN = 32
_SMEM_BUDGET = 192 * 1024
ub_bytes = get_soc_spec("UB_SIZE")
SUB_BLOCK = 32768
ub_rows = ub_bytes // 4096
""",
    )
    INVALID = (
        """
_UB_BYTES = 196608  # expect
ASCEND_UB_CAPACITY_BITS = 1572864  # expect

def tile(BK):
    ub_size: int = 192 * 1024  # expect
    return min(64, ub_size // (BK * 12))

def rows(x):
    ub_elements = 85 * 1024 // x.element_size()  # expect
    return ub_elements // x.shape[-1]

@triton.jit
def k(x, BT: tl.constexpr):
    UB_LIMIT: tl.constexpr = 192 * 1024  # expect
    tl.store(x + tl.arange(0, BT), 0.0)
""",
    )

    @classmethod
    def may_report(cls, words: Words) -> bool:
        """A word the finding's name test accepts (`_UB_BYTES`, `ub_size`, not `UB_ALIGN`):
        a name is its source text, so every reported name occurs as such a word."""
        return any(_is_capacity_name(word) for word in _words_with_ub(words.text))

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        for (name, _), values in context.host.bindings.items():
            for value in values:
                yield from self._check(name, value, context)

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        for name, events in kernel.flow.defs.items():
            for event in events:
                if event.value is not None and isinstance(event.node, cst.Name):
                    yield from self._check(name, event.value, context)

    def _check(self, name: str, value: cst.BaseExpression, context: ModuleContext) -> Iterator[Report]:
        if not _is_capacity_name(name):
            return
        capacity = _capacity(value)
        number = folded_int(capacity) if capacity is not None else None
        if capacity is None or number is None or number < MIN_CAPACITY_BYTES:
            return
        kib = number / 1024 / (8 if "bits" in _parts(name) else 1)
        yield Report(
            capacity,
            MESSAGE.format(name=name, value=context.module.code_for_node(value), kib=kib),
            facts={"name": name, "value": number},
        )


def _capacity(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The integer literal arithmetic that states the capacity: the whole value, or what a
    division into units divides (`85 * 1024 // x.element_size()`: bytes into elements)."""
    if (
        isinstance(value, cst.BinaryOperation)
        and isinstance(value.operator, (cst.FloorDivide, cst.Divide))
        and folded_int(value.right) is None
    ):
        return value.left if folded_int(value.left) is not None else None
    return value if folded_int(value) is not None else None


def _parts(name: str) -> set[str]:
    return {part.lower() for part in _NAME_PARTS.findall(name)}


def _words_with_ub(text: str) -> Iterator[str]:
    """Every word (`\\w+`) of `text` holding `ub` in any case: found from each `ub` by a
    C-level search, then widened to its word (a regex `\\w*ub\\w*` retries from every
    character of every word: 17x slower on vllm-ascend and fla)."""
    end = 0
    for match in _UB.finditer(text):
        start = match.start()
        if start < end:  # a second `ub` of the word just yielded
            continue
        while start and (text[start - 1].isalnum() or text[start - 1] == "_"):  # what `\\w` matches
            start -= 1
        word = _WORD.match(text, start)
        if word is not None:  # always: `ub` itself is a word
            end = word.end()
            yield word.group()


def _is_capacity_name(name: str) -> bool:
    """A name with a `ub` part that does not say it is a fallback, a default or an alignment."""
    parts = _parts(name)
    return "ub" in parts and not parts & _NOT_THE_CAPACITY
