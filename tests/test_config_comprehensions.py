"""ASC013 reads the tables a comprehension hands to `triton.Config` one by one
(`[triton.Config(c) for c in (_SMALL, _BIG)]`), each reported at its table."""

from __future__ import annotations

import textwrap

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

MODULE = """
import torch
import triton
import triton.language as tl
_SMALL = {"BLOCK": 1024}
_BIG = {"BLOCK": 131072}
_CHANGED = {"BLOCK": 131072}
_CHANGED["BLOCK"] = 1024
_TABLES = [_SMALL, {"BLOCK": 262144}]
_POPPED = [_SMALL, _BIG]
if hasattr(torch, "npu"):
    _POPPED.pop()
_REPLACED = [_SMALL, _BIG]
_REPLACED[1] = {"BLOCK": 2048}
_FILTERED = [_SMALL, _BIG]
_filter(_FILTERED)
_READ = [_SMALL, _BIG]
print(len(_READ))

def _local_configs():
    tables = [_SMALL, _BIG]
    tables.pop()
    return [triton.Config(c) for c in tables]

@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(x + o, mask=o < n, other=0.0).to(tl.float32)
    tl.store(x + o, (tl.exp(a) * a + 1.0).to(x.dtype.element_ty), mask=o < n)
"""


def reported(configs: str) -> list[tuple[str, str]]:
    source = textwrap.dedent(MODULE).replace("CONFIGS", configs)
    lines = source.splitlines()
    result = lint_source(source, "tables.py", settings(select=["ASC013"]))
    found = []
    for finding in result.findings:
        start, end = finding.location, finding.end_location
        assert start.row == end.row
        config = finding.message.split("config ")[1].split("}")[0] + "}"
        found.append((lines[start.row - 1][start.column - 1 : end.column - 1], config))
    return found


@pytest.mark.parametrize(
    ("configs", "expected"),
    [
        ("[triton.Config(c) for c in (_SMALL, _BIG)]", [("_BIG", "{BLOCK=131072}")]),
        ("[triton.Config(c, num_stages=1) for c in [_BIG, _SMALL]]", [("_BIG", "{BLOCK=131072}")]),
        ("list(triton.Config(c) for c in (_SMALL, _BIG))", []),  # a call: not read, as before
        ("[triton.Config(t) for t in _TABLES]", [('{"BLOCK": 262144}', "{BLOCK=262144}")]),
        ("[triton.Config(c) for c in (_SMALL, _CHANGED)]", []),  # the module changes `_CHANGED`
        # a list of tables the module changes after building it is not the list built
        ("[triton.Config(c) for c in _POPPED]", []),
        ("[triton.Config(c) for c in _REPLACED]", []),
        ("[triton.Config(c) for c in _FILTERED]", []),
        ("_local_configs()", []),
        ("[triton.Config(c) for c in _READ]", [("_BIG", "{BLOCK=131072}")]),  # only read: as built
        ('[triton.Config(c) for c in ({"BLOCK": 512}, {"BLOCK": 524288})]', [('{"BLOCK": 524288}', "{BLOCK=524288}")]),
    ],
)
def test_each_table_of_the_comprehension_is_a_config(configs: str, expected: list[tuple[str, str]]) -> None:
    assert reported(configs) == expected


def test_a_comprehension_it_cannot_unroll_is_read_as_before() -> None:
    assert reported("[triton.Config({'BLOCK': b}) for b in (1024, 131072) if b > 0]") == [
        ("triton.Config({'BLOCK': b})", "{BLOCK=131072}")
    ]
