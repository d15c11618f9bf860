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

## Fix safety
Unsafe (applied with `--unsafe-fixes`): it changes what the kernel computes from the second
task of each core on — on purpose. `q += task_id * T` becomes `q_task = q + task_id * T` and
the rest of the task reads `q_task`, so each task starts from the base pointer, which is what
an advance by a per-task offset means. The fix is offered only when that reading is certain:
the advance is a statement of the task loop itself (it runs once per task; the loop is not
nested in another loop), it is the task's first use of the pointer, its offset depends on the
task index, and the pointer is not read after the loop. A pointer read before its advance
(`tl.store(p_o, ...)` then `p_o = p_o + num_core`), an advance under an `if` or in an inner
loop, or a constant stride may be a deliberate walk: rebind those by hand.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ascend_lint.fixes import FixPlan, Replace, contains, names_in, spelled_out
from ascend_lint.flow import DEF, READ, Event, Flow, Loop
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule


class TaskLoopPointerAccumulation(Rule):
    CODE = "ASC006"
    NAME = "task-loop-pointer-accumulation"
    SUMMARY = "In-place pointer advance carried across the tasks of a core-grid task loop"
    FIX = "unsafe"
    CONFIRM = Confirm(
        {"npu": Evidence.DEVICE_OUTPUTS, "interpret": Evidence.FIX_OUTPUTS},
        "pointer accumulation across tasks is mis-compiled only in triton-ascend's NPU code generation",
    )
    REQUIRES_TEXT = ("range",)

    VALID = (
        """
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
""",
    )
    INVALID = (
        # the offset depends on the task index through `i_b`; the inner advance moves to the copy
        Example(
            """
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    for task_id in tl.range(core_id, task_num, num_core):
        i_b = task_id // 4
        q = q - (i_b * T + 1)  # expect
        for i_t in range(T // BT):
            b_q = tl.load(q + tl.arange(0, BT))
            q += BT
            tl.store(o + task_id, tl.sum(b_q))
""",
            fixed="""
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    for task_id in tl.range(core_id, task_num, num_core):
        i_b = task_id // 4
        q_task = q - (i_b * T + 1)
        for i_t in range(T // BT):
            b_q = tl.load(q_task + tl.arange(0, BT))
            q_task += BT
            tl.store(o + task_id, tl.sum(b_q))
""",
            unsafe_fixes=True,
        ),
        Example(
            """
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    p_o = o + core_id
    for task_id in tl.range(core_id, task_num, num_core):
        q += task_id * T  # expect
        b_q = tl.load(q + tl.arange(0, BT))
        tl.store(p_o, tl.sum(b_q))
        p_o = p_o + num_core  # expect
""",
            fixed="""
@triton.jit
def k(q, o, T, task_num, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    p_o = o + core_id
    for task_id in tl.range(core_id, task_num, num_core):
        q_task = q + task_id * T
        b_q = tl.load(q_task + tl.arange(0, BT))
        tl.store(p_o, tl.sum(b_q))
        p_o = p_o + num_core
""",
            unsafe_fixes=True,
        ),
        """
@triton.jit
def k(q, total, BT: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, total, tl.num_programs(0)):
        for i in range(4):
            q -= BT  # expect
            tl.store(q, 0.0)
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        flow = kernel.flow
        pointers = flow.pointer_names
        for loop in flow.loops:
            if not (loop.is_task_loop and isinstance(loop.node, cst.For)):
                continue
            for event in flow.events_in(loop.body, DEF):
                name = event.name
                if name not in pointers or not _advances(event):
                    continue
                outside = [d for d in flow.reaching_defs(event, name) if d.index not in loop.body]
                if outside:
                    yield Report(
                        event.node,
                        f"`{name}` is advanced in place inside a task loop but defined outside it, "
                        "so the advance accumulates across tasks (Triton-Ascend can mis-compile this); "
                        f"rebind `{name}` from its base at the top of each task",
                        related=((loop.node.target, "task loop"),),
                        fix=_rebind_fix(event, name, loop, flow, context),
                    )


def _advances(event: Event) -> bool:
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


def _rebind_fix(advance: Event, name: str, loop: Loop, flow: Flow, context: ModuleContext) -> FixPlan | None:
    """`q += off` at the top of the task becomes `q_task = q + off`; later uses read `q_task`.

    Offered only when that keeps what each task means by the advance: it is a statement of
    the task loop itself (runs once per task, loop not nested in another loop), the first use
    of the pointer in the task, its offset varies with the task index, and the pointer is not
    read after the loop.
    """
    statement = _task_statement(loop.node, advance)
    if statement is None or len(advance.loops) > 1:
        return None
    uses = [e for e in flow.events if e.name == name and e.kind in (READ, DEF) and e.index >= loop.body.start]
    if any(e.index < advance.index and not contains(statement, e.node) for e in uses if e.index in loop.body):
        return None
    if any(e.kind == READ and e.index >= loop.body.stop for e in uses):
        return None
    if isinstance(statement, cst.AugAssign):
        offset = statement.value
    elif isinstance(statement, cst.Assign) and isinstance(statement.value, cst.BinaryOperation):
        offset = statement.value.right
    else:
        return None
    if not _varies_per_task(offset, loop, flow, advance.index):
        return None
    rebound = context.fresh_names.fresh(f"{name}_task")
    if isinstance(statement, cst.AugAssign):
        first = Replace(statement, spelled_out(statement, rebound, name))
    else:
        first = Replace(advance.node, rebound)
    later = (
        Replace(e.node, rebound)
        for e in uses
        if advance.index < e.index < loop.body.stop and isinstance(e.node, cst.Name)
    )
    return FixPlan("unsafe", f"Rebind `{name}` from its base in each task as `{rebound}`", (first, *later))


def _task_statement(loop_node: cst.For | cst.While, advance: Event) -> cst.BaseSmallStatement | None:
    """The advance's small statement when it sits directly in the task loop's body."""
    for line in loop_node.body.body:
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
            continue
        small = line.body[0]
        if small is advance.node:
            return small
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and small.targets[0].target is advance.node:
            return small
    return None


def _varies_per_task(offset: cst.BaseExpression, loop: Loop, flow: Flow, before: int) -> bool:
    """Whether `offset` depends on the task index, directly or through names the task
    defines before the advance."""
    target = loop.node.target if isinstance(loop.node, cst.For) else None
    task = target.value if isinstance(target, cst.Name) else None
    pending, seen = list(names_in(offset)), set()
    while pending:
        name = pending.pop()
        if name == task:
            return True
        if name in seen:
            continue
        seen.add(name)
        for definition in flow.defs.get(name, ()):
            if definition.index in loop.body and definition.index < before and definition.value is not None:
                pending.extend(names_in(definition.value))
    return False
