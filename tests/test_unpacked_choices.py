"""A conditional expression choosing between tuples, unpacked (`bos, eos = (a, b) if IS_VARLEN
else (x, y)`), binds each name to its item of the arm, as an `if` statement binding the names in
each arm does: ASC008 reads the int32 offset where `IS_VARLEN` holds, and ASC002's fix of a
wide cast is the statement form's."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.fixes import apply_edits

HEADER = """\
import triton
import triton.language as tl


@triton.jit
def k(v, o, cu_seqlens, T, HV: tl.constexpr, V: tl.constexpr, IS_VARLEN: tl.constexpr, A: tl.constexpr):
    i_b, i_hv = tl.program_id(0), tl.program_id(1)
"""
LOADS = "tl.load(cu_seqlens + i_b).to(tl.int32), tl.load(cu_seqlens + i_b + 1).to(tl.int32)"
PROGRAMS = "i_b * T, i_b * T + T"
EXPRESSION = f"    bos, eos = ({LOADS}) if IS_VARLEN else ({PROGRAMS})\n"
STATEMENT = f"    if IS_VARLEN:\n        bos, eos = {LOADS}\n    else:\n        bos, eos = {PROGRAMS}\n"
USES = """\
    tl.store(o + (bos * HV + i_hv) * V, 1.0)
    if not IS_VARLEN:
        tl.store(o + (eos * HV + i_hv) * V, 2.0)
    tl.store(o + (eos - bos) * HV, 3.0)
    tl.store(v + ((eos * HV + i_hv) * V).to(tl.int64), 4.0)
"""


def _findings(binding: str) -> list[tuple[str, str]]:
    source = HEADER + binding + USES
    findings = lint_source(source, "k.py", settings(select=["ASC002", "ASC008"])).findings
    fixed = apply_edits(source, [edit for f in findings if f.fix for edit in f.fix.edits])
    return [(f.code, source.splitlines()[f.location.row - 1].strip()) for f in findings] + [
        ("fixed", line.strip()) for line in fixed.splitlines() if "tl.store" in line
    ]


def test_a_choice_of_tuples_binds_each_name_as_the_statement_does() -> None:
    found = _findings(EXPRESSION)
    assert found == _findings(STATEMENT)
    assert ("ASC008", "tl.store(o + (bos * HV + i_hv) * V, 1.0)") in found


@pytest.mark.parametrize(
    ("binding", "flagged"),
    [
        # nested choices: under `not A` the loads are not compiled
        (f"    bos, eos = (({LOADS}) if A else (i_b, i_b + 1)) if IS_VARLEN else ({PROGRAMS})\n", True),
        (f"    bos, eos = ({LOADS}) if IS_VARLEN and A else ({PROGRAMS})\n", True),
        # items that do not line up, or an arm not written out: the whole value, as before
        (f"    bos, eos = ({LOADS}) if IS_VARLEN else (i_b, i_b + 1, 0)\n", False),
        (f"    bos, eos = ({LOADS}) if IS_VARLEN else tl.load(cu_seqlens)\n", False),
    ],
)
def test_only_choices_of_tuples_written_out_split(binding: str, flagged: bool) -> None:
    source = HEADER + binding + "    tl.store(o + (bos * HV + i_hv) * V, 1.0)\n"
    assert bool(lint_source(source, "k.py", settings(select=["ASC008"])).findings) is flagged
