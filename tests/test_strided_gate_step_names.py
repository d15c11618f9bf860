"""ASC011: a step held in a name splits on its constexpr choices as the step written in place
does, through its one binding or one binding per arm of a constexpr `if`, and so do the names
it reads, names of names up to four deep; the message names the specialisation that strides."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(g, o, T, HV: tl.constexpr, V: tl.constexpr, A: tl.constexpr):
    i_hv = tl.program_id(0)
    p_g = g + i_hv
{lines}
    for _ in range(0, T):
        tl.store(o + i_hv, tl.load(p_g))
        p_g += {step}
"""


def _messages(lines: str, step: str) -> list[str]:
    source = KERNEL.format(lines="\n".join("    " + line for line in lines.splitlines()), step=step)
    return [f.message for f in lint_source(source, "k.py", settings(select=["ASC011"])).findings]


WHEN = "advances by `HV` elements per step of the loop (when `A` is false),"


@pytest.mark.parametrize(
    ("lines", "step", "said"),
    [
        ("", "HV * (V if A else 1)", WHEN),
        ("step = HV * (V if A else 1)", "step", WHEN),
        ("if A:\n    step = HV * V\nelse:\n    step = HV", "step", WHEN),
        ("if not A:\n    step = HV\nelse:\n    step = HV * V", "step", WHEN),
        ("step = HV\nif A:\n    step = HV * V", "step", WHEN),  # the binding before the `if`: its other arm
        ("if A:\n    step = 1\nelse:\n    step = HV", "step", None),  # the G_T_CONTIG split
        ("step = HV\nif A:\n    step = 1", "step", None),
        ("if T > 4:\n    step = HV * V\nelse:\n    step = HV", "step", None),  # chosen at run time
        ("step = HV", "step", "advances by `HV` elements per step of the loop, so"),
        ("", "(-1 if A else 1) * HV", "advances by `HV` elements per step of the loop, so"),
        ("s1 = V if A else 1\nstep = HV * s1", "step", WHEN),  # two names from the choice
        ("s1 = V if A else 1", "HV * s1", WHEN),
        ("if A:\n    s1 = V\nelse:\n    s1 = 1\nstep = HV * s1", "step", WHEN),
        ("if A:\n    s1 = V\nelse:\n    s1 = 1", "HV * s1", WHEN),
        ("s1 = V\nif A:\n    s1 = 1\nstep = HV * s1", "step", WHEN.replace("false", "true")),
        ("s0 = V if A else 1\ns1 = s0\ns2 = s1\nstep = HV * s2", "step", WHEN),  # four names deep
        ("s0 = V if A else 1\ns1 = s0\ns2 = s1\ns3 = s2\nstep = HV * s3", "step", None),  # five: not followed
        ("s1 = 1 if A else HV\nstep = s1", "step", None),  # the G_T_CONTIG split
        ("s1 = V if T > 4 else 1\nstep = HV * s1", "step", None),  # chosen at run time
        ("s1 = V if A else 1\nif T > 3:\n    s1 = 1\nstep = HV * s1", "step", None),
        ("a = V if A else 1\nb = 1 if A else V", "HV * a * b", None),  # `HV * V` in each specialisation
    ],
)
def test_a_step_name_splits_as_the_step_in_place(lines: str, step: str, said: str | None) -> None:
    messages = _messages(lines, step)
    if said is None:
        assert not messages
    else:
        assert len(messages) == 1 and said in messages[0]


@pytest.mark.parametrize(
    ("loop", "count"),
    [
        ("for i in range(0, T, BS):", 0),  # a loop over blocks: a scalar per block
        ("for i in tl.range(0, T, BS):", 0),
        ("for i in range(0, T, 1):", 1),  # over steps
        ("for i in range(0, T):", 1),
    ],
)
def test_a_pointer_advanced_by_a_head_count_in_a_loop_over_blocks_is_not_flagged(loop: str, count: int) -> None:
    source = f"""\
import triton
import triton.language as tl


@triton.jit
def k(X, S, O, T, H: tl.constexpr, BS: tl.constexpr):
    p = S + tl.program_id(0)
    acc = tl.zeros([BS], dtype=tl.float32)
    {loop}
        x = tl.load(X + i + tl.arange(0, BS))
        acc += x * tl.load(p)
        p += H
    tl.store(O + tl.arange(0, BS), acc)
"""
    assert len(lint_source(source, "k.py", settings(select=["ASC011"])).findings) == count
