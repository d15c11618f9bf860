"""ASC010 on how a grid is written and what its sizes are read from: each snippet marks the
launches that must be reported with `# expect`; every other launch must stay silent."""

from __future__ import annotations

import pytest
from conftest import expected_rows, found_rows, snippet_source

KERNEL = """
import torch
import triton
import triton.language as tl


@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)
"""

# `.item()` of a cumulative count's last value: the tokens of a varlen batch, as large as the data
TOTALS = """
def tokens(x, cu_seqlens, BT=64):
    H = x.shape[2]
    total = cu_seqlens[-1].item()
    grid = (triton.cdiv(total, BT), H)
    k[grid](x, total, BT=BT)  # expect

def tokens_as_int(x, cu_seqlens, BT=64):
    H = x.shape[2]
    total = int(cu_seqlens[-1].item())
    k[(triton.cdiv(total, BT), H)](x, total, BT=BT)  # expect

def splits(x, split_offsets, BT=64):
    NS = split_offsets[-1].item()
    k[(NS, x.shape[0])](x, NS, BT=BT)  # expect

def capped(x, cu_seqlens, BT=64):
    total = min(cu_seqlens[-1].item(), 4096)
    k[(triton.cdiv(total, BT), x.shape[2])](x, total, BT=BT)

def first(x, cu_seqlens, BT=64):
    start = cu_seqlens[0].item()
    k[(start, x.shape[2])](x, start, BT=BT)

def alone(x, cu_seqlens, BT=64):
    total = cu_seqlens[-1].item()
    k[(triton.cdiv(total, BT), 4)](x, total, BT=BT)
"""


@pytest.mark.parametrize("snippet", [TOTALS], ids=["item_totals"])
def test_grids_are_reported_where_marked(snippet: str) -> None:
    source, _ = snippet_source(KERNEL + snippet)
    assert found_rows(source, select=["ASC010"]) == expected_rows(source, "ASC010")
