"""
## What it does
Flags `ptr += ...` / `ptr -= ...` (or `ptr = ptr + ...`) inside a 1-D core-grid task loop
(`for task_id in tl.range(core_id, task_num, num_core)`, start derived from
`tl.program_id`) when the pointer was defined outside the task loop, so the advance
accumulates from one task into the next.

## Why is this bad?
Triton-Ascend can mis-compile a pointer carried across the iterations of a task loop:
wrong results or NaN that show up only in multi-task launches, which makes the bug look
shape-dependent. The guidance is to rebind local pointers at the top of every task.

## Example
```python
for task_id in tl.range(core_id, task_num, num_core):
    q += task_id * stride  # accumulates across tasks
    b_q = tl.load(q + offs)
```

## Use instead
```python
for task_id in tl.range(core_id, task_num, num_core):
    q_ptr = q + task_id * stride  # rebound per task
    b_q = tl.load(q_ptr + offs)
```
Advancing a pointer rebound at the top of the task inside an inner loop is fine, as are
`q += offset` at kernel entry and per-timestep advances in ordinary loops.
"""

from __future__ import annotations

import libcst as cst

from ascend_lint.flow import DEF
from ascend_lint.rule import Report, Rule


class TaskLoopPointerAccumulation(Rule):
    CODE = "ASC006"
    NAME = "task-loop-pointer-accumulation"
    SUMMARY = "In-place pointer advance carried across the tasks of a core-grid task loop"
    REQUIRES_TEXT = ("range",)

    VALID = [
        '''
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    q += core_id * 0
    for task_id in tl.range(core_id, task_num, num_core):
        q_ptr = q + task_id * T
        for i_t in range(T // BT):
            b_q = tl.load(q_ptr + tl.arange(0, BT))
            q_ptr += BT
    p = o
    for i_t in range(T):
        tl.store(p, 1.0)
        p += 1
''',
    ]
    INVALID = [
        '''
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    p_o = o + core_id
    for task_id in tl.range(core_id, task_num, num_core):
        q += task_id * T  # expect
        b_q = tl.load(q + tl.arange(0, BT))
        tl.store(p_o, tl.sum(b_q))
        p_o = p_o + num_core  # expect
''',
        '''
@triton.jit
def k(q, total, BT: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, total, tl.num_programs(0)):
        for i in range(4):
            q -= BT  # expect
            tl.store(q, 0.0)
''',
    ]

    def check_kernel(self, kernel, context):
        flow = kernel.flow
        pointers = flow.pointer_names
        for loop in flow.loops:
            if not loop.is_task_loop:
                continue
            for event in flow.events_in(loop.body, DEF):
                if event.name not in pointers or not _advances(event):
                    continue
                outside = [d for d in flow.reaching_defs(event, event.name) if d.index not in loop.body]
                if outside:
                    yield Report(
                        event.node,
                        f"`{event.name}` is advanced in place inside a task loop but defined outside it, "
                        "so the advance accumulates across tasks (Triton-Ascend can mis-compile this); "
                        f"rebind `{event.name}` from its base at the top of each task",
                        related=((loop.node.target, "task loop"),),
                    )


def _advances(event) -> bool:
    """`p += x` / `p -= x`, or `p = p + x` / `p = p - x`."""
    node = event.node
    if isinstance(node, cst.AugAssign):
        return isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign))
    value = event.value
    return (
        isinstance(value, cst.BinaryOperation)
        and isinstance(value.operator, (cst.Add, cst.Subtract))
        and isinstance(value.left, cst.Name)
        and value.left.value == event.name
    )
