"""
## What it does
Flags an `if` or conditional expression whose test mixes a constexpr operand with a runtime
one (`if USE_H0 or i_t > 0:`, `FLAG & runtime`, `x if (USE_H0 and i_t < W) else y`) when an
arm uses an optional pointer, a name derived from it (`p_h0`) or a value loaded through it
under the flag (`b_h0`) without its own pure-constexpr guard. A pointer is optional when a
launch passes it `None` (or `FLAG=p is not None`), a heuristic or `if p is None:` tests it,
or its other uses sit under a constexpr flag; the message says which.

Not flagged: a pointer used on both arms of a constexpr test, nor, on that last evidence, one
every launch passes as a tensor.

## Why is this bad?
Triton-Ascend does not short-circuit a constexpr operand of a mixed test at compile time:
measured on triton-ascend 3.2, every such mix lowers both arms when the flag is False. A
bitwise `&` / `|` of a constexpr and a tensor is a tensor too (only `&` / `|` of two
constexprs stays one), so `if USE_H0 & (i_t > 0):` compiles its body with `USE_H0` False. (With
the constexpr on the left, triton-ascend 3.2 rejects the test itself, pointer or not: its
`&` / `|` read the Python operand's `.type`, `'bool' object has no attribute 'type'`.) With
the pointer passed as `None`, the arm still builds `initial_state + offset`, and the compile
fails with `AttributeError: 'NoneType' object has no attribute 'type'`; a conditional
expression's mixed test lowers both arms the same way, and a value the arm reads that was loaded
under `if USE_H0:` was never bound: `NameError: b_h0 is not defined`.

## Example
```python
if not USE_INITIAL_STATE or t0 >= W:
    b_y = tl.load(p_x, boundary_check=(0, 1))
else:  # the halo comes from the initial state
    b_y = tl.load(x + o_x, mask=m_x, other=0) + tl.load(initial_state + o_h, mask=m_h, other=0)
```
With `initial_state=None` (and so `USE_INITIAL_STATE=False`) the `else` arm still compiles.

## Use instead
```python
if not USE_INITIAL_STATE:
    b_y = tl.load(p_x, boundary_check=(0, 1))
elif t0 >= W:
    b_y = tl.load(p_x, boundary_check=(0, 1))
else:
    b_y = tl.load(x + o_x, mask=m_x, other=0) + tl.load(initial_state + o_h, mask=m_h, other=0)
```
or keep the mixed test and guard the pointer's use inside the arm with its own
`if USE_INITIAL_STATE:`. Nest the constexpr test outside the runtime one so the unused arm is never compiled.
Pure-constexpr tests (`if USE_G or USE_G_GAMMA:`, `if USE_G & USE_GK:`), bit masks
(`if i_t & 1:`) and conditional expressions with a pure-constexpr test
(`tl.load(p) if HAS_P else 1.0`, also around a mixed one:
`(tl.load(p) if i_t < W else 0.0) if HAS_P else 0.0`) are fine.

## Fix safety
Unsafe (applied with `--unsafe-fixes`): it reorders the test and duplicates one arm. The fix
is the equivalent nesting — `if F and R: A else: B` becomes `if not F: B elif R: A else: B`
(`if F: (if R: A)` without an `else`), and `if F or R: A else: B` becomes
`if F: A elif R: A else: B`; `not F` and `R op F` work the same way. It is offered only when
that is provably the same program and actually removes the failure: the flag is a constexpr
name (see Details for the other flags), the runtime test has no side effects (no stores, atomics, prints or calls to unknown
functions), the `if` is not an `elif`, every unguarded use of the optional pointer sits in
the arm that the nesting compiles for one flag value only (`A` for `and`, `B` for `or`), and
the pointer is passed for that value: as a heuristic `args["p"] is not None` or the
pointer's uses guarded by the same flag tell, or, when the kernel does not tell, by the
convention that the flag is True when the pointer is passed. Otherwise — e.g.
`if F or R:` loading the pointer in the body, where the load is reachable with `F` False —
the kernel needs a decision only its author can make, and no fix is offered.
The same holds for a use through a derived name (`p_h0`). The nesting keeps the `if` line's
comment once, on its first line (a `# noqa` is not repeated on the `elif`).
No fix is offered for `&` / `|` either: they combine bits, and `F & R` is `F and R` only for
0/1 operands (a constexpr `MODE = 2` gives `2 & 1 == 0`).
Nor for a conditional expression, and for a loaded value (`b_h0`) only when it is bound
under the same flag (see Details).

## Details
### Mixed tests
Flags an `if` whose test mixes a constexpr operand with a runtime one (`or`, `and`,
`not FLAG or runtime`, the bitwise `FLAG & runtime` / `FLAG | runtime`, the product `FLAG *
(i_t * BT < W)` of a flag and a test, either order, nested or negated; a product of other values,
`i_t * BT`, is arithmetic) when an arm uses an optional pointer parameter without
a pure-constexpr guard of its own (an `if`, or a conditional expression
`tl.load(h0) if USE_H0 else 0.0`, inside the arm or around the test: see Guards).

The test may hold the mix in a name (or `not name`): `need_state = USE_H0 or in_halo`, then
`if need_state:` is a runtime `if` all the same (measured: with `h0=None` and `USE_H0` False
the compile fails as for the test written in the `if`). It is read through the name when every
assignment reaching the `if` binds it such a mix (once, or in each arm before it), not when one
is carried round a loop; the finding stays at the `if`, the message quotes the assignment and a
related location points at it. No fix is offered for it: the nesting belongs where the name is
bound. A test binding the whole mix with a walrus (`if (need := USE_H0 and in_halo):`) tests
the mix it binds and is reported the same, with no fix either (the nesting would have to bind
`need` on each of its paths). A `while` loop's test is not an `if`'s, and is not checked.

A use of the pointer in the mixed test itself counts where Python would evaluate it only with
the flag on: the right operand of `USE_H0 and ...` or `not USE_H0 or ...`, also deeper (`USE_H0
and (i_t > 0 and tl.load(h0) > 0)`). The front end evaluates both operands, so with `h0=None` it
fails to compile, while `if USE_H0:` then `if tl.load(h0) > 0:` compiles (measured on
triton-ascend 3.2, 2026-12-06): the message says the runtime test reads the pointer and both
operands compile, and the nesting fix moves the runtime operand under the flag. Such a use also
depends on the flag when deciding whether the pointer is optional. Where Python would evaluate
it only with the flag off (`if USE_H0 or tl.load(h0) > 0:`, `not USE_H0 and ...`), that is with
the pointer None, it fails to compile however the test is nested (measured on triton-ascend 3.2,
2026-12-06: `unsupported operand type(s) for +: 'NoneType' and 'int'`): the mix is not the
cause, and it is not reported; nor where the flag does not decide it (`(USE_H0 or i_t > 0) and
tl.load(h0) > 0`), nor in a conditional expression's test.

The constexpr operand (the flag) may be a constexpr name, a comparison of constexprs (`MODE
== 1 or i_t * BT < W`, `(USE_H0 == 1) or ...`), or a local every assignment reaching the test
binds such a flag (`f = USE_H0`, `f, r = USE_H0, i_t < W`, then `if f or r:`): triton-ascend
3.2's `visit_BoolOp` folds none of them (it builds `logical_or(lhs, rhs)`), so both arms
compile as with a bare `USE_H0`. A literal (`c = 4`, `if c or ...`) is no flag. The nesting
fix is offered for a constexpr name only: for a comparison, for which of its outcomes the
pointer is passed is the author's to say; a local holding the flag is a tensor to the front
end, so `if f:` nested outside would still compile both arms (nest `USE_H0` itself).

### Guards
A use inside an arm of a pure-constexpr `if` (or conditional expression), around the mixed test
or inside its arm, is guarded by it when the pointer is used only under that outcome and, when a
launch or a heuristic ties a flag to the pointer (`USE_H0=h0 is not None`, `args["h0"] is not
None`), the outcome holds that flag (`if USE_H0:`, `if USE_H0 and USE_X:`). An unrelated `if
USE_X:` or `if BD >= 64:` guards nothing: with `USE_X` True (or `BD` 64) and `h0=None` its body
compiles, around the mixed test (the nesting fix then stays inside it) or inside its arm. So does a
name the kernel body binds the flag to (`HAS = USE_H0`, then `if HAS:`): triton-ascend 3.2 makes it
a tensor, so `if HAS:` is a runtime `if` and compiles its body with `h0=None` (measured 2026-12-06:
`'NoneType' object has no attribute 'type'`); one bound as a constexpr (`HAS: tl.constexpr =
USE_H0`) is folded and guards as the flag it holds does (measured: compiles). With
no flag tied to the pointer, an `if` only ever guarding it counts (it is then what shows the
pointer optional at all); `if True:` never does. An `if` on the mixed test's own flag (`if
IS_CB:` inside `if T_cur > 0 or not IS_CB:`) is not reported either: that flag decides the use,
nested or mixed alike, so the mix changes nothing of when it compiles.

### The nesting's flag
The fix nests the mixed test's own flag outside, so it is declined when the pointer goes with
another flag: a launch or heuristic ties one to it (`USE_H0=h0 is not None`) and the test's flag
is not it, or, with none tied, its other uses sit under `if USE_H0:` and none under the test's
flag. Nesting `IS_VARLEN` outside `IS_VARLEN and R` would still compile `h0 + offs` with
`h0=None` (probe 17).

### A `return` in a mixed arm
The code after `if not USE_H0 or i_t >= W: ...; return` runs as that `if`'s other arm, but a use
of the pointer there is not reported: Triton's front end compiles the statements after any
`return` (into a dead block; read in its code generator, `visit_Return` and
`visit_compound_statement`), whether the `if` is mixed or pure-constexpr, so with `h0=None` it
fails however the test is written and the nesting would not remove the failure. The pointer is
then used in every specialisation: move the use into an arm of a pure-constexpr `if`.

### Conditional expressions
`A if (USE_H0 and i_t < W) else B` (any mix an `if` test may hold, or a name holding one) is a
runtime choice to the front end: measured on triton-ascend 3.2 (2026-12-05), with `h0=None` and
`USE_H0` False both arms are lowered and `tl.load(h0 + o)` in either fails with
`'NoneType' object has no attribute 'type'`. It is reported at the expression when an arm
reads the pointer with no conditional expression inside the arm or `if` or conditional
expression outside guarding the pointer (see Guards). A use in such an arm, its test written
in it or held in a name (`need = USE_H0 and i_t < W`, then `... if need else ...`), also counts
as a use that depends on the flag when deciding whether the pointer is optional.

### Names derived from the pointer
An arm's use may read the pointer through a local name every definition reaching it derives
from the parameter, anywhere in the kernel, under the flag too: an alias (`state = h0`), an
address (`p = h0 + i_n * K`), a block pointer (`p_h0 = tl.make_block_ptr(h0, ...)`) or its
`tl.advance`. With the pointer `None` the flag is off: the arm reads an undefined `p_h0`
(prepared under `if USE_H0:`, not compiled) or builds `None + offset`, and the compile fails
as for `h0` itself. The message names both. A name bound from another pointer on some path
(`p = h0 + o` under `if USE_H0:`, `p = x + o` in its `else`) is not derived. An alias is no use
of the pointer itself (it binds `None` as it is): the alias's reads stand for it when the
kernel's other uses are weighed below.

### Values loaded through the pointer
A value loaded through the pointer (`b_h0 = tl.load(p_h0).to(tl.float32)`, arithmetic on it,
a name holding it: `Flow.loaded_from`) and bound only under a pure-constexpr `if` that guards
the pointer (`if USE_H0:`), read in a mixed arm, is reported too: measured on triton-ascend
3.2 (2026-12-05), with `h0=None` and `USE_H0` False the binding is not compiled and the arm,
which is, fails with `NameError('b_h0 is not defined')`. The message says where it is bound. A
value bound on the flag's other arm too (`else: b_h0 = tl.zeros(...)`) is defined either way
and not reported. A name bound under the flag from no optional pointer (`if USE_H0: scale =
2.0`) fails the same way but is no optional pointer's: not reported by this rule.

The nesting fix is offered for a loaded value only when every definition reaching the read
sits in the arm of an `if` on the mixed test's own flag that the nesting compiles the read for
(`if USE_H0: b_h0 = ...` for `if USE_H0 and R:`): the nested read is then compiled exactly
where `b_h0` is bound (measured: the fixed kernel compiles with `h0=None`). Bound under
another flag, the fix is declined. No fix is offered for a conditional expression: the
nesting `(A if R else B) if FLAG else B` (measured: it compiles with `h0=None`) copies an arm
inside the expression; nest it by hand or write it as an `if`.

### What makes a pointer optional
The message says what makes the pointer optional:

- a launch in the same module passes `None` for it (literally, through a parameter that
  defaults to `None` or is annotated `Optional` / `Union[..., None]` / `X | None`, or `x if c
  else None`), or passes its flag as
  `FLAG=p is not None` / `FLAG=bool(p)` (also through a name bound to that: `use_h0 = h0 is not
  None`, then `FLAG=use_h0`; and in `int(...)`, `True if p is not None else False`, `p is not
  None and W > 0`). Not when the function swaps a stand-in in for a None pointer before the
  launch (`if not use_h0: h0 = x`, as `h0 if h0 is not None else x` passed inline): the launch
  never passes None;
- a `@triton.heuristics` lambda (or function of the module) or an `if p is None:` in the
  kernel tests it against `None`;
- a use of it elsewhere is guarded by one outcome of a pure-constexpr `if` (`if USE_H0:`)
  or conditional expression (`tl.load(h0) if USE_H0 else 0.0`) and no use by the other;
- every use sits under tests that mention one constexpr flag (the body of `if FLAG or
  runtime:`), never on both arms of such a test nor under both values of the flag tested
  alone (`if FLAG:`, then `if not FLAG:`). This only suggests the pointer is optional,
  so the message says the `if` *would* fail to compile if it were `None`.

### Device functions, and pointers that are not optional
The uses are read with the device functions the kernel calls inlined: a pointer passed to a
helper that uses it only under `if USE_H0:` is guarded so, in the mixed `if`'s arms as
elsewhere. A mixed test in a device function itself is reported there, with what shows the
pointer optional for the kernel passing it on unchanged (`_halo(h0, ...)` in a kernel whose
launch passes `h0=None`: "`k` passes it `h0`: the launch at line 24 passes ..."), and the flags
tied to it there that the call passes as the function's own. A pointer that every launch in the
module passes as a value that cannot be `None` is not optional on the last two kinds of
evidence; a pointer used on both arms of a constexpr test
is always used.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import libcst as cst

from ascend_lint.fixes import Declined, FixPlan, Replace, contains
from ascend_lint.flow import READ, Branch, Event, Flow, combines_conditions, test_key, test_text, without_negation
from ascend_lint.imports import str_literal
from ascend_lint.inline import written_name
from ascend_lint.nodes import child_nodes, one_line
from ascend_lint.optional import (
    OptionalPointer,
    bool_operands,
    held_flag,
    read_after_a_flag,
    tested_operands,
    tests_against_none,
)
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule

_NAMED_TEST = """
@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    offs = tl.arange(0, BT)
    in_halo = i_t * BT < W
    need_state = USE_H0 or in_halo
    if need_state:  # expect
        b = tl.load(h0 + offs)
    else:
        b = tl.load(x + i_t * BT + offs)
    tl.store(o + offs, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, USE_H0=h0 is not None, BT=16)
"""

# (`or`/`and`, (the constexpr flag, negated), the runtime operand)
FlagSplit = tuple[str, tuple[cst.Name, bool], cst.BaseExpression]


class OrConstexprOptionalPointer(Rule):
    CODE = "ASC004"
    NAME = "or-constexpr-optional-pointer"
    SUMMARY = "`if FLAG or runtime:` around an optional pointer: both arms compile, `None + offset` fails"
    FIX = "unsafe"
    CONFIRM = Confirm({"compile": Evidence.NONE_POINTER_COMPILE}, "the failure is the compiler's")
    REQUIRES_TOKENS = (("if",),)  # `&` / `|` mix too, and are no words to look for

    VALID = (
        # an outer `if` whose test holds the flag the launch ties to the pointer guards it
        """
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr, USE_X: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if USE_H0 and USE_X:
        if USE_H0 and i_t < W:
            b += tl.load(h0 + o_d)
    tl.store(o + i_t * D + o_d, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, USE_H0=h0 is not None, USE_X=True)
""",
        # a name bound from the optional pointer for one value of the flag and from another
        # pointer for the other is a pointer either way
        """
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    if USE_H0:
        p = h0 + o_d
    else:
        p = x + o_d
    if USE_H0 and i_t < W:
        tl.store(o + o_d, tl.load(p))


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, USE_H0=h0 is not None)
""",
        # the mixed test held in a name, with the pointer's use under its own `if USE_H0:`
        """
@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    offs = tl.arange(0, BT)
    need_state = USE_H0 or i_t * BT < W
    b = tl.load(x + i_t * BT + offs)
    if need_state:
        if USE_H0:
            b += tl.load(h0 + offs)
    tl.store(o + offs, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, USE_H0=h0 is not None, BT=16)
""",
        # the mixed arm's use sits in a conditional expression with a constexpr test: with
        # `USE_H0` False the front end compiles `1.0` only (measured with `h0=None`)
        """
@triton.jit
def k(h0, x, W, BT: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    b_h = 0.0
    if USE_H0 or i_t * BT < W:
        b_h += tl.load(h0 + i_t + 1) if USE_H0 else 1.0
    tl.store(x + i_t, b_h)


def launch(x, W, h0=None):
    k[(4,)](h0, x, W, BT=64, USE_H0=h0 is not None)
""",
        # the pointer's use in the mixed arm is a device function's, under its own `if FLAG:`
        """
@triton.jit
def _when_init(USE_INITIAL_STATE: tl.constexpr, h0, i_t):
    if USE_INITIAL_STATE:
        tl.store(h0 + i_t, tl.load(h0))


@triton.jit
def k(h0, x, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_INITIAL_STATE or i_t * BT < W:
        _when_init(USE_INITIAL_STATE, h0, i_t)


def launch(x, W, h0=None):
    k[(4,)](h0, x, W, BT=64, USE_INITIAL_STATE=h0 is not None)
""",
        # a device function's pointer that every call passes its kernel's always-passed tensor
        """
@triton.jit
def _accumulate(q, o, state, i_n, T_cur, K: tl.constexpr, HAS_STATE: tl.constexpr):
    if T_cur > 0 or not HAS_STATE:
        b_h = tl.zeros([K], dtype=tl.float32)
        for t in range(0, T_cur):
            b_h += tl.load(q + t * K + tl.arange(0, K))
        tl.store(o + i_n * K + tl.arange(0, K), b_h)

@triton.jit
def k(q, o, state, lens, K: tl.constexpr, HAS_STATE: tl.constexpr):
    i_n = tl.program_id(0)
    _accumulate(q, o, state, i_n, tl.load(lens + i_n), K, HAS_STATE)

def run(q, o, lens, state=None):
    k[(lens.shape[0],)](q, o, state, lens, K=q.shape[-1], HAS_STATE=state is not None)
""",
        """
@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, x, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr, USE_G: tl.constexpr, USE_GK: tl.constexpr):
    i_t = tl.program_id(0)
    if not USE_INITIAL_STATE:
        b_h = tl.zeros([16], dtype=tl.float32)
    elif i_t * BT < W:
        b_h = tl.load(h0 + tl.arange(0, 16))
    else:
        b_h = tl.zeros([16], dtype=tl.float32)
    if USE_G or USE_GK:
        b_h = b_h * 2
    if USE_INITIAL_STATE or i_t * BT < W:
        b_h = b_h + tl.load(x + i_t)
    b_s = tl.load(h0) if USE_INITIAL_STATE else 1.0


def launch(h0, x, W):
    k[(4,)](h0, x, W, BT=16)  # `x`: always a tensor here, so not optional
""",
        # a pointer used on both arms of one constexpr test (or under both values of its flag) is always used
        """
@triton.jit
def k(out, W, MODE: tl.constexpr):
    i_t = tl.program_id(0)
    if MODE:
        tl.store(out + i_t, 1.0)
    else:
        tl.store(out + i_t + 1, 2.0)
    if MODE or i_t < W:
        tl.store(out, 3.0)

@triton.jit
def k_two_tests(out, W, MODE: tl.constexpr):  # the same two arms, written as two tests
    i_t = tl.program_id(0)
    if MODE:
        tl.store(out + i_t, 1.0)
    if not MODE:
        tl.store(out + i_t + 1, 2.0)
    if MODE or i_t < W:
        tl.store(out, 3.0)
""",
        # `done` changes under a runtime test: `if not done or ...` mixes nothing constexpr
        """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, f, NT, USE_H0: tl.constexpr):
    done = False
    for i in range(NT):
        if tl.load(f + i) != 0:
            done = True
    if not done or i < NT:
        tl.store(h0, 1.0)
""",
        """
@triton.jit
def k(h0, x, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_INITIAL_STATE:
        b_h = tl.load(h0)
    if USE_INITIAL_STATE or i_t * BT < W:
        if USE_INITIAL_STATE:
            b_h = tl.load(h0 + i_t)
""",
        # a kernel a cached factory returns in a namespace, launched by entry with a tensor
        """
@functools.lru_cache(maxsize=1)
def _kernels():
    @triton.jit
    def _act(x, out, cache, front, REPLICATE: tl.constexpr, BLOCK: tl.constexpr):
        t = tl.program_id(0)
        o = tl.arange(0, BLOCK)
        if (not REPLICATE) and t < front:
            v = tl.load(cache + o)
        else:
            v = tl.load(x + o)
        tl.store(out + t * BLOCK + o, v)

    return types.SimpleNamespace(act=_act)

def act(x, out, cache, replicate):
    k = _kernels()
    cache_t = x if cache is None else cache  # a tensor either way: `cache` is not optional
    k.act[(4,)](x, out, cache_t, 2, REPLICATE=replicate, BLOCK=128)
""",
        # `&` of two constexprs stays a constexpr; a bit mask under the flag's own guard
        """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, o, USE_H0: tl.constexpr, USE_G: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_H0 & USE_G:
        tl.store(o, tl.load(h0))
    if USE_H0:
        if i_t & 1:
            tl.store(o + i_t, tl.load(h0 + i_t))
""",
        # a value loaded through the pointer under the flag, read in a mixed arm: bound in the
        # other arm too, or read under its own `if USE_H0:` (measured: both compile with `h0=None`)
        """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    if USE_H0:
        b_h0 = tl.load(h0 + o_d)
    else:
        b_h0 = tl.zeros([D], dtype=tl.float32)
    if USE_H0:
        b_s = tl.load(h0 + o_d) * 2.0
    b = tl.load(x + o_d)
    if USE_H0 and i_t == 0:
        b += b_h0
    if USE_H0 or i_t == 0:
        if USE_H0:
            b += b_s
    tl.store(o + i_t * D + o_d, b)
""",
        # the mixed arm's use under an inner `if` whose outcome holds the flag tied to the pointer
        """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, BD: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if USE_H0 or i_t < W:
        if USE_H0 and BD >= 64:
            b += tl.load(h0 + o_d)
    tl.store(o + i_t * D + o_d, b)
""",
        # the use under an inner `if` on the mixed test's own flag: that flag decides it, nested
        # or mixed alike (with `ht=None` and `IS_CB` True it compiles either way: not the mix's doing)
        """
@triton.heuristics({"STORE_FINAL_STATE": lambda args: args["ht"] is not None})
@triton.jit
def k(x, ht, o, T_cur, D: tl.constexpr, IS_CB: tl.constexpr, STORE_FINAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if T_cur > 0 or not IS_CB:
        if IS_CB:
            tl.store(ht + i_t * D + o_d, b)
    if not IS_CB:
        if STORE_FINAL_STATE:
            tl.store(ht + o_d, b)
""",
        # a conditional expression whose mixed test is nested inside the flag's own
        # (measured: compiles with `h0=None`), and a mixed one whose arms read no optional pointer
        """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b_x = tl.load(x + o_d)
    b = (tl.load(h0 + o_d) if i_t < W else tl.zeros([D], dtype=tl.float32)) if USE_H0 else b_x
    c = tl.load(x + o_d + 1) if (USE_H0 and i_t < W) else b
    d = (tl.load(h0 + i_t) if USE_H0 else 1.0) if (USE_H0 or i_t < W) else 0.0
    tl.store(o + i_t * D + o_d, b + c + d)
""",
    )
    INVALID = (
        # the flag as a comparison of constexprs, or held in a local (`f = USE_H0`, a tensor to
        # the front end): nothing folds, both arms compile; no fix (see Fix safety)
        """
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, MODE: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if MODE == 1 or i_t < W:  # expect
        b += tl.load(h0 + o_d)
    f = USE_H0
    if f and i_t < W:  # expect
        b += tl.load(h0 + o_d + 1)
    tl.store(o + i_t * D + o_d, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, MODE=1, USE_H0=h0 is not None)
""",
        # a mixed test inside an unrelated constexpr `if`: with `USE_X` True and `h0=None` its body
        # compiles, so `if USE_X:` guards nothing of `h0` (the launch ties `USE_H0` to it); the
        # nesting stays inside it
        Example(
            """
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr, USE_X: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if USE_X:
        if USE_H0 and i_t < W:  # expect
            b += tl.load(h0 + o_d)
    tl.store(o + i_t * D + o_d, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, USE_H0=h0 is not None, USE_X=True)
""",
            fixed="""
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr, USE_X: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if USE_X:
        if USE_H0:
            if i_t < W:
                b += tl.load(h0 + o_d)
    tl.store(o + i_t * D + o_d, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, USE_H0=h0 is not None, USE_X=True)
""",
            unsafe_fixes=True,
        ),
        # a mixed test in a conditional expression: with the flag False the front end still lowers
        # both arms (measured: `'NoneType' object has no attribute 'type'` with `h0=None`); no fix
        Example(
            """
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(h0 + o_d) if (USE_H0 and i_t < W) else tl.zeros([D], dtype=tl.float32)  # expect
    s = 1.0 if not USE_H0 or i_t >= W else tl.load(h0 + i_t)  # expect
    tl.store(o + i_t * D + o_d, b * s + tl.load(x + o_d))


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, USE_H0=h0 is not None)
""",
            fixed="""
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(h0 + o_d) if (USE_H0 and i_t < W) else tl.zeros([D], dtype=tl.float32)  # expect
    s = 1.0 if not USE_H0 or i_t >= W else tl.load(h0 + i_t)  # expect
    tl.store(o + i_t * D + o_d, b * s + tl.load(x + o_d))


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, USE_H0=h0 is not None)
""",
            unsafe_fixes=True,
        ),
        # a value loaded through the optional pointer, bound only under `if USE_H0:`, read in a
        # mixed arm: with `h0=None` it is undefined there (measured: `NameError('b_h0 is not
        # defined')`); the nesting compiles the read with the flag on only, where it is bound
        Example(
            """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    if USE_H0:
        b_h0 = tl.load(h0 + o_d).to(tl.float32) * 2.0
    b = tl.load(x + o_d)
    if USE_H0 and i_t == 0:  # expect
        b += b_h0
    tl.store(o + i_t * D + o_d, b)
""",
            fixed="""
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    if USE_H0:
        b_h0 = tl.load(h0 + o_d).to(tl.float32) * 2.0
    b = tl.load(x + o_d)
    if USE_H0:
        if i_t == 0:
            b += b_h0
    tl.store(o + i_t * D + o_d, b)
""",
            unsafe_fixes=True,
        ),
        # the pointer read through a name derived from it: a block pointer prepared under the
        # flag (with `h0=None` the arm reads an undefined `p_h0`), an alias (`None + offset`);
        # the nesting stays the same program and compiles the reads with the flag on only
        Example(
            """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    if USE_H0:
        p_h0 = tl.make_block_ptr(h0, (D,), (1,), (0,), (D,), (0,))
    state = h0
    b = tl.load(x + o_d)
    if USE_H0 and i_t < W:  # expect
        b += tl.load(p_h0, boundary_check=(0,))
    if i_t >= W or not USE_H0:  # expect
        b += 1.0
    else:
        b += tl.load(state + o_d)
    tl.store(o + i_t * D + o_d, b)
""",
            fixed="""
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    if USE_H0:
        p_h0 = tl.make_block_ptr(h0, (D,), (1,), (0,), (D,), (0,))
    state = h0
    b = tl.load(x + o_d)
    if USE_H0:
        if i_t < W:
            b += tl.load(p_h0, boundary_check=(0,))
    if not USE_H0:
        b += 1.0
    elif i_t >= W:
        b += 1.0
    else:
        b += tl.load(state + o_d)
    tl.store(o + i_t * D + o_d, b)
""",
            unsafe_fixes=True,
        ),
        # the mixed test held in a name: `if need_state:` compiles both arms all the same; the
        # nesting fix declines (the test is bound elsewhere)
        Example(_NAMED_TEST, fixed=_NAMED_TEST, unsafe_fixes=True),
        # a name holding the mix tested by a conditional expression, the flag tied to the
        # pointer by the launch only: both arms compile, as for `if need:`
        """
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    need = USE_H0 and i_t < W
    b = tl.load(x + o_d)
    b += tl.load(h0 + o_d) if need else 0.0  # expect
    tl.store(o + i_t * D + o_d, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, D=16, USE_H0=h0 is not None)
""",
        # an unrelated constexpr `if` inside the mixed arm guards nothing of `h0`, as outside it:
        # with `h0=None`, `BD >= 64` (or `USE_X` True) compiles `None + o_d`; `if USE_H0:` would
        Example(
            """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, BD: tl.constexpr, USE_H0: tl.constexpr, USE_X: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if USE_H0 or i_t < W:  # expect
        if BD >= 64:
            b += tl.load(h0 + o_d)
    if USE_H0 and i_t > W:  # expect
        if USE_X:
            b += tl.load(h0 + o_d + 1)
    tl.store(o + i_t * D + o_d, b)
""",
            fixed="""
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, BD: tl.constexpr, USE_H0: tl.constexpr, USE_X: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    b = tl.load(x + o_d)
    if USE_H0 or i_t < W:  # expect
        if BD >= 64:
            b += tl.load(h0 + o_d)
    if USE_H0:
        if i_t > W:
            if USE_X:
                b += tl.load(h0 + o_d + 1)
    tl.store(o + i_t * D + o_d, b)
""",
            unsafe_fixes=True,
        ),
        # the derived name made by a device function: the statement binding it exists only in
        # the inlined body, so the finding points at the read
        """
@triton.jit
def _row(i_n, D: tl.constexpr):
    return i_n * D + tl.arange(0, D)

@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_n = tl.program_id(0)
    b = tl.load(x + _row(i_n, D))
    if USE_H0:
        p_h0 = h0 + _row(i_n, D)
    if USE_H0 and i_n < W:  # expect
        b += tl.load(p_h0)
    tl.store(o + _row(i_n, D), b)
""",
        # `Union[T, None]` says `None` as `Optional[T]` does; `not (h0 is None)` tests it too
        """
from typing import Union

import torch
import triton
import triton.language as tl


@triton.jit
def k(h0, y, W, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if not USE_H0 or i_t >= W:  # expect
        tl.store(y + i_t, 0.0)
    else:
        tl.store(y + i_t, tl.load(h0 + i_t))


@triton.jit
def k_flag(h0, y, W, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if not USE_H0 or i_t >= W:  # expect
        tl.store(y + i_t, 0.0)
    else:
        tl.store(y + i_t, tl.load(h0 + i_t))


def launch(y, h0: Union[torch.Tensor, None], use):
    k[(4,)](h0, y, 4, USE_H0=use)


def launch_flag(y, h0):
    k_flag[(4,)](h0, y, 4, USE_H0=not (h0 is None))
""",
        # the launch's flag is a name bound to the test for None (fla's `is_varlen = cu_seqlens
        # is not None`, then `IS_VARLEN=is_varlen`)
        """
@triton.jit
def k(h0, y, W, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if not USE_H0 or i_t >= W:  # expect
        tl.store(y + i_t, 0.0)
    else:
        tl.store(y + i_t, tl.load(h0 + i_t))


def launch(y, h0):
    use_h0 = h0 is not None
    k[(4,)](h0, y, 4, USE_H0=use_h0)
""",
        # a use in one arm of a conditional expression with a constexpr test guards the pointer
        # there (the front end compiles that arm only): the pointer is optional, and the mixed
        # test's unguarded use fails to compile (measured with `h0=None`)
        """
@triton.jit
def k(h0, x, W, BT: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    b_h = tl.load(h0 + i_t) if USE_H0 else 0.0
    if USE_H0 or i_t * BT < W:  # expect
        b_h += tl.load(h0 + i_t + 1)
    tl.store(x + i_t, b_h)
""",
        # the pointer's guarded use in a device function the kernel passes it to
        """
@triton.jit
def _when_use_h0(USE_H0: tl.constexpr, y, h0):
    if USE_H0:
        tl.store(y, tl.load(h0))


@triton.jit
def k(h0, y, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    _when_use_h0(USE_H0, y, h0)
    if not USE_H0 or i_t > 0:  # expect
        tl.store(y + 3, 0.0)
    else:
        tl.store(y + 2, tl.load(h0 + 2))


def launch(y, h0=None):
    k[(4,)](h0, y, USE_H0=h0 is not None)
""",
        # `&` / `|` with a tensor operand make a tensor: a runtime `if`, both arms compile; a use
        # under one is still conditional, so `h0`'s other mixed test is reported too
        """
@triton.jit
def k(h0, y, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_H0:
        tl.store(y, tl.load(h0))
    if (i_t > 0) & USE_H0:  # expect
        tl.store(y + 1, tl.load(h0 + 1))
    if not USE_H0 or i_t > 0:  # expect
        tl.store(y + 3, 0.0)
    else:
        tl.store(y + 2, tl.load(h0 + 2))
    if ~(USE_H0 | (i_t == 0)):  # expect
        tl.store(y + 4, 0.0)
    else:
        tl.store(y + 4, tl.load(h0 + 4))

def launch(y, h0=None):
    k[(4,)](h0, y, USE_H0=h0 is not None)
""",
        # the canonical case, either order: `initial_state` is used only under the flag's test
        """
@triton.jit
def k(initial_state, o, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    tl.store(o + 2, 0.0)
    if USE_INITIAL_STATE or i_t * BT < W:  # expect
        tl.store(o, tl.load(initial_state + i_t))
    if i_t * BT < W or USE_INITIAL_STATE:  # expect
        tl.store(o + 1, tl.load(initial_state))
""",
        # host evidence in the same module: a launch passing None, `FLAG=p is not None`
        """
@triton.jit
def k(h0, g, o, W, USE_H0: tl.constexpr, USE_G: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_H0 and i_t < W:  # expect
        tl.store(o, tl.load(h0))
    if USE_G and i_t < W:  # expect
        tl.store(o, tl.load(g))

def launch(o, W, g=None):
    k[(4,)](None, g, o, W, USE_H0=False, USE_G=g is not None)
""",
        # `F and R`: the load compiles only with the flag on; `R or not F`: the else arm likewise
        Example(
            """
@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_INITIAL_STATE and i_t * BT < W:  # expect
        b_h = tl.load(h0 + tl.arange(0, 16))
    else:
        b_h = tl.zeros([16], dtype=tl.float32)
    if i_t * BT >= W or not USE_INITIAL_STATE:  # expect
        b_h += 1.0
    else:
        b_h += tl.load(h0 + tl.arange(0, 16))
""",
            fixed="""
@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    if not USE_INITIAL_STATE:
        b_h = tl.zeros([16], dtype=tl.float32)
    elif i_t * BT < W:
        b_h = tl.load(h0 + tl.arange(0, 16))
    else:
        b_h = tl.zeros([16], dtype=tl.float32)
    if not USE_INITIAL_STATE:
        b_h += 1.0
    elif i_t * BT >= W:
        b_h += 1.0
    else:
        b_h += tl.load(h0 + tl.arange(0, 16))
""",
            unsafe_fixes=True,
        ),
        # parentheses round the test
        Example(
            """
@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr):
    t0 = tl.program_id(0)
    if (USE_H0 and t0 >= W):  # expect
        b = tl.load(x + t0) + tl.load(h0 + t0)
    else:
        b = tl.load(x + t0)
    tl.store(o + t0, b)
""",
            fixed="""
@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr):
    t0 = tl.program_id(0)
    if not USE_H0:
        b = tl.load(x + t0)
    elif t0 >= W:
        b = tl.load(x + t0) + tl.load(h0 + t0)
    else:
        b = tl.load(x + t0)
    tl.store(o + t0, b)
""",
            unsafe_fixes=True,
        ),
        Example(
            """
@triton.jit
def k(ht, x, NT, STORE_FINAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    b_h = tl.load(x + i_t)
    if STORE_FINAL_STATE and i_t == NT - 1:  # expect
        tl.store(ht, b_h)
""",
            fixed="""
@triton.jit
def k(ht, x, NT, STORE_FINAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    b_h = tl.load(x + i_t)
    if STORE_FINAL_STATE:
        if i_t == NT - 1:
            tl.store(ht, b_h)
""",
            unsafe_fixes=True,
        ),
        """
@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["initial_state"] is not None})
@triton.jit
def k(initial_state, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_INITIAL_STATE or i_t * BT < W:  # expect
        b_h = tl.load(initial_state + tl.arange(0, 16))
    else:
        b_h = tl.zeros([16], dtype=tl.float32)
""",
        """
@triton.jit
def k(h0, ht, x, STORE_FINAL_STATE: tl.constexpr, USE_H0: tl.constexpr):
    i_n = tl.program_id(0)
    n = tl.load(x + i_n)
    if USE_H0:
        b_h = tl.load(h0)
    if STORE_FINAL_STATE:
        tl.store(ht, b_h)
    if n > 0 and not STORE_FINAL_STATE:  # expect
        b_h = b_h * 2
    else:
        tl.store(ht + i_n, b_h)
""",
        # the heuristic written as a function of the module says `h0` may be None
        """
def _use_h0(args):
    return args["h0"] is not None

@triton.heuristics({"USE_H0": _use_h0})
@triton.jit
def k(h0, W, BT: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_H0 and i_t * BT < W:  # expect
        tl.store(h0 + i_t, 1.0)

def launch(W):
    k[(4,)](torch.zeros(64), W, BT=16)  # a tensor here; other callers may pass None
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        flow = kernel.flow
        own: dict[cst.CSTNode, Branch] = {
            branch.node: branch for branch in flow.branches if _mixes_constexpr_and_runtime(branch.node.test, flow)
        }
        choices = [choice for choice in flow.conditional_expressions if _mixes_constexpr_and_runtime(choice.test, flow)]
        if not own and not choices:
            return
        optional = context.optional_pointers(kernel)
        # the arms read with the device functions they call inlined: a helper's own `if FLAG:`
        # guards the pointer it is passed
        inlined = kernel.inlined
        mixed = [
            (own[written], arms) for arms in inlined.flow.branches if (written := inlined.written(arms.node)) in own
        ]
        for branch, arms in mixed:
            uses = _unguarded_uses(arms, optional)
            if not uses:
                continue
            test = _shown(branch.node.test)
            yield self._report(kernel, branch.node, f"`if {test}`", uses, fix=_nesting_fix(branch, kernel, optional))
        mixed_choices = set(choices)
        for choice in inlined.flow.conditional_expressions:
            written = inlined.written(choice)
            if written not in mixed_choices:
                continue
            uses = _unguarded_choice_uses(choice, inlined.flow, optional)
            if not uses:
                continue
            assert isinstance(written, cst.IfExp)
            test = _shown(written.test)
            yield self._report(
                kernel,
                written,
                f"`... if {test} else ...`",
                uses,
                fix=Declined(
                    "a conditional expression: the nesting `(A if R else B) if FLAG else B` would copy an arm "
                    "inside the expression; nest the constexpr test outside by hand, or write it as an `if`"
                ),
            )

    def _report(
        self,
        kernel: Kernel,
        node: cst.If | cst.IfExp,
        subject: str,
        uses: list[tuple[Event, OptionalPointer]],
        fix: FixPlan | Declined,
    ) -> Report:
        """The finding at a mixed `if` or conditional expression whose arms hold `uses`."""
        inlined, flow = kernel.inlined, kernel.flow
        use, pointer = min(uses, key=lambda found: (not found[1].certain, found[0].index))
        where = inlined.written(use.node)
        derived = _derived_name(use, pointer)
        guard = _loaded_guard(use, inlined.flow, pointer) if derived is not None else None
        related: tuple[tuple[cst.CSTNode, str], ...] = ((where, f"`{derived or pointer.name}` used here"),)
        if derived is not None:  # `p_h0 = tl.make_block_ptr(h0, ...)` under `if USE_H0:`, read in the arm
            assert isinstance(use.node, cst.Name)
            bound = next((d for d in inlined.flow.reaching(use.node) if d.statement is not None), None)
            if bound is not None and bound.statement is not None and inlined.in_source(bound.statement):
                how = "loaded from" if guard is not None else "bound from"
                related = ((inlined.written(bound.statement), f"`{derived}` {how} `{pointer.name}` here"),)
                related += ((where, f"`{derived}` used here"),)
        held = _held(node.test, flow)
        if held is not None:  # `if need_state:` after `need_state = USE_H0 or in_halo`
            related = ((held.statement or held.node, f"`{held.name}` bound to the mixed test here"), *related)
        if pointer.where is not None:
            related = ((pointer.where, f"launch that shows `{pointer.name}` may be None"), *related)
        flags = {o.value for o in tested_operands(node.test, flow) if isinstance(o, cst.Name) and flow.is_constexpr(o)}
        return Report(
            node,
            _message(subject, pointer, held, derived, guard, in_test=contains(node.test, where)),
            end_node=node.test,
            related=related,
            fix=fix,
            facts={
                "optional_pointers": tuple(sorted({p.name for _, p in uses})),
                "flags": tuple(sorted(flags)),
                "derived_names": tuple(sorted({name for u, p in uses if (name := _derived_name(u, p)) is not None})),
                "optional_evidence": pointer.evidence,
                "optional_certain": pointer.certain,
            },
        )


def _shown(test: cst.BaseExpression) -> str:
    """A test as a message quotes it: on one line, without its brackets but a walrus's."""
    return one_line(test if isinstance(test, cst.NamedExpr) else test.with_changes(lpar=(), rpar=()))


def _mixes_constexpr_and_runtime(test: cst.BaseExpression, flow: Flow) -> bool:
    """An `if`'s or a conditional expression's test mixes a constexpr operand with a runtime
    one: its own, or, for a name, the test each assignment reaching it binds (`Flow.held_test`)."""
    return all(_mixes(held, flow) for held in _held_tests(test, flow))


def _held_tests(test: cst.BaseExpression, flow: Flow) -> list[cst.BaseExpression]:
    """The test itself, or the mixed tests a name it reads holds (`need_state = USE_H0 or in_halo`)."""
    return [d.value for d in flow.held_test(test) if d.value is not None] or [test]


def _mixes(test: cst.BaseExpression, flow: Flow) -> bool:
    operands = bool_operands(test)
    return len(operands) >= 2 and {flow.is_constexpr(o) for o in operands} == {True, False}


def _held(test: cst.BaseExpression, flow: Flow) -> Event | None:
    """The first assignment of the mixed test a name tested by the `if` holds."""
    held = flow.held_test(test)
    return held[0] if held else None


def _message(
    subject: str,
    pointer: OptionalPointer,
    held: Event | None = None,
    derived: str | None = None,
    guard: cst.If | None = None,
    in_test: bool = False,
) -> str:
    """The finding's message; `in_test` for a use in the test's runtime operand
    (`if USE_H0 and tl.load(h0) > 0`), which compiles as both operands do, not as an arm."""
    name = pointer.name
    if held is not None and held.value is not None:
        subject += f" (`{held.name} = {one_line(held.value.with_changes(lpar=(), rpar=()))}`)"
    mixes = f"{subject} mixes a constexpr flag with a runtime test {'that reads' if in_test else 'around'}"
    compiles = "both operands compile" if in_test else "both arms compile"
    if derived is not None and guard is not None:  # `b_h0 = tl.load(p_h0)` under `if USE_H0:`
        bound = f"`{derived}`, loaded from {{}} and bound only under `if {one_line(guard.test)}:`"
        undefined = f" (`{derived}` is undefined there)"
        if pointer.certain:
            return (
                f"{mixes} "
                + bound.format(f"optional pointer `{name}` ({pointer.evidence})")
                + f": {compiles}, so `{name}=None` fails to compile{undefined}; nest the constexpr test outside"
            )
        return (
            f"{mixes} "
            + bound.format(f"pointer `{name}`, which looks optional ({pointer.evidence}),")
            + f": {compiles}, so it would fail to compile if `{name}` were None{undefined}; nest the "
            "constexpr test outside"
        )
    around = f"`{derived}`, derived from " if derived is not None else ""
    if pointer.certain:
        return (
            f"{mixes} {around}optional pointer `{name}` ({pointer.evidence}): {compiles}, so `{name}=None` fails "
            "to compile; nest the constexpr test outside"
        )
    return (
        f"{mixes} {around}pointer `{name}`, which looks optional ({pointer.evidence}): {compiles}, so it would "
        f"fail to compile if `{name}` were None; nest the constexpr test outside"
    )


def _derived_name(use: Event, pointer: OptionalPointer) -> str | None:
    """The name a use reads when it is not the pointer parameter itself but a name derived from
    it (`p_h0`, `state`), as written: a device function's own name inlined (`p·f`) is `p`."""
    if use.name is None or use.name == pointer.name:
        return None
    return written_name(use.name)


# ---- the fix: nest the constexpr test outside the runtime one ------------------------------
#   if C or R: A  else: B   ->   if C: A       elif R: A  else: B   (B compiles only if not C)
#   if C and R: A else: B   ->   if not C: B   elif R: A  else: B   (A compiles only if C)
#   if C and R: A           ->   if C: (if R: A)
# Equivalent when C is a constexpr flag and R has no side effects (R may now be skipped or,
# for `R or C`, run after C). It only helps when every unguarded optional-pointer use sits in
# the arm compiled for one value of C (B for `or`, A for `and`, or in R) and that value is
# the one for which the pointer is passed; otherwise no fix is offered.

_SIDE_EFFECTS = frozenset(
    {
        "store",
        "atomic_add",
        "atomic_max",
        "atomic_min",
        "atomic_cas",
        "atomic_xchg",
        "atomic_and",
        "atomic_or",
        "atomic_xor",
        "device_print",
        "device_assert",
        "static_print",
        "static_assert",
        "debug_barrier",
    }
)
_PURE_BUILTINS = frozenset({"min", "max", "abs", "int", "float", "bool", "len"})


def _nesting_fix(branch: Branch, kernel: Kernel, optional: Mapping[str, OptionalPointer]) -> FixPlan | Declined:
    node = branch.node
    held = _held(node.test, branch.flow)
    if held is not None:
        return Declined(
            f"the test reads the mixed test through `{held.name}`: nest its constexpr flag outside where "
            f"`{held.name}` is bound, by hand"
        )
    bound = without_negation(node.test)
    if isinstance(bound, cst.NamedExpr):
        return Declined(
            f"the test binds the mixed test to `{one_line(bound.target)}` (`:=`), which the nesting would have "
            "to bind on each of its paths; nest the flag outside by hand"
        )
    split = _flag_and_runtime(node.test, kernel)
    combined = without_negation(node.test)
    if split is None and combines_conditions(combined) and isinstance(combined.operator, cst.Multiply):
        return Declined("`*` multiplies the flag and the test: write it as `and`, then nest the flag outside, by hand")
    if split is None and combines_conditions(combined):
        return Declined(
            "`&` / `|` combine bits, not truth values: `and` / `or` nesting in their place is the same "
            "test only for 0/1 operands"
        )
    if split is None:
        return Declined(_not_plain(node.test, kernel.flow))
    if "#" in cst.Module([]).code_for_node(node.test):
        return Declined("the test holds a comment, which the nesting would drop")
    if _is_elif(branch):
        return Declined("the `if` is an `elif`")
    if not _pure(split[2], kernel):
        return Declined("the runtime test may have side effects, which the nesting would repeat or skip")
    operator, (flag, negated), runtime = split
    uses = _unguarded_uses(branch, optional)
    single_arm = node.orelse if operator == "or" else node.body
    if any(not contains(single_arm, use.node) and not contains(runtime, use.node) for use, _ in uses):
        return Declined(
            f"the optional pointer is used in an arm that runs for both values of `{flag.value}`: "
            "only the author knows which was meant"
        )
    # `or`: the single arm compiles when C is False; `and`: when C is True.
    flag_value = negated if operator == "or" else not negated
    flow = kernel.flow
    for use, pointer in uses:
        if _loaded_guard(use, flow, pointer) is not None and not _bound_for(use, flow, flag.value, flag_value):
            return Declined(
                f"`{use.name}` is bound under another test than `{flag.value}`: the nesting may read it where it is "
                "not bound"
            )
    in_test = (
        pointer
        for event in flow.events
        if event.kind == READ and contains(runtime, event.node)
        for pointer in (_optional_read(event, flow, optional),)
        if pointer is not None
    )
    needed = {pointer.name: pointer for _, pointer in uses} | {pointer.name: pointer for pointer in in_test}
    if any(_passed_when(kernel, flag.value, pointer) is not flag_value for pointer in needed.values()):
        return Declined(
            f"the nesting would keep the pointer's use for the value of `{flag.value}` it is not passed for"
        )
    condition = flag if not negated else _not(flag)
    message = f"Nest `{flag.value}` outside the runtime test"
    return FixPlan("unsafe", message, (Replace(node, _nested(node, operator, condition, runtime)),))


def _flag_and_runtime(test: cst.BaseExpression, kernel: Kernel) -> FlagSplit | None:
    """(`or`/`and`, (flag name, negated), runtime operand) for `FLAG op R` / `R op FLAG`."""
    if not isinstance(test, cst.BooleanOperation):
        return None
    operator = "or" if isinstance(test.operator, cst.Or) else "and"
    flow = kernel.flow
    for flag, runtime in ((test.left, test.right), (test.right, test.left)):
        negated = isinstance(flag, cst.UnaryOperation) and isinstance(flag.operator, cst.Not)
        name = flag.expression if isinstance(flag, cst.UnaryOperation) and negated else flag
        if (
            isinstance(name, cst.Name)
            and flow.is_python_constexpr(name)
            and not flow.is_constexpr(runtime)
            and not _chains(runtime, test.operator)
        ):
            return operator, (name, negated), runtime
    return None


def _not_plain(test: cst.BaseExpression, flow: Flow) -> str:
    """Why a mixed test is no `FLAG op R` the nesting can move its flag out of: a name holding
    the flag (`f = USE_H0`: a tensor to the front end, so `if f:` outside still compiles both
    arms), a comparison as the flag (`MODE == 1`), or another shape."""
    for operand in bool_operands(test):
        flag = held_flag(operand, flow)
        if flag is None or flag is operand:
            continue
        shown = test_text(flag)
        return (
            f"`{one_line(operand)}` holds the flag `{shown}` in a name the kernel assigns, a tensor to the front "
            f"end: `if {one_line(operand)}:` outside would still compile both arms; nest `{shown}` itself outside, by hand"
        )
    flags = [o for o in bool_operands(test) if held_flag(o, flow) is o and not isinstance(o, cst.Name)]
    if flags:
        return (
            f"the flag is the comparison `{test_text(flags[0])}`, not a constexpr name: for which outcome the "
            "pointer is passed is the author's to say; nest it outside by hand"
        )
    return "the test is not a plain `FLAG and R` / `FLAG or R` (a constexpr name as the flag)"


def _chains(node: cst.BaseExpression, operator: cst.BaseBooleanOp) -> bool:
    """`a or b` inside `a or b or FLAG` without parentheses: not a single operand to move."""
    return isinstance(node, cst.BooleanOperation) and not node.lpar and type(node.operator) is type(operator)


def _is_elif(branch: Branch) -> bool:
    return any(other.node.orelse is branch.node for other in branch.flow.branches)


def _pure(node: cst.CSTNode, kernel: Kernel) -> bool:
    """No call with a side effect (stores, atomics, prints, user functions), no walrus."""
    if isinstance(node, cst.NamedExpr):
        return False
    if isinstance(node, cst.Call):
        func, imports = node.func, kernel.imports
        if imports.is_tl(func, *_SIDE_EFFECTS):
            return False
        known = imports.resolve(func) is not None or (isinstance(func, cst.Name) and func.value in _PURE_BUILTINS)
        method = isinstance(func, cst.Attribute) and func.attr.value == "to"
        if not (known or method):
            return False
    return all(_pure(child, kernel) for child in child_nodes(node))


def _unguarded_uses(branch: Branch, optional: Mapping[str, OptionalPointer]) -> list[tuple[Event, OptionalPointer]]:
    """Reads of an optional pointer, or of a name derived from one (`_optional_read`), in the
    arms or in the test where Python evaluates them only with a flag on (`read_after_a_flag`:
    `if USE_H0 and tl.load(h0) > 0:`), with no `if` or conditional expression the front end
    decides guarding that pointer (`_guarded`) around them, inside the arm or outside the mixed
    test; each with the pointer."""
    flow = branch.flow
    flags = _flag_keys(branch.node.test, flow)
    in_test = [event for event in flow.events_in(branch.test_events, READ) if read_after_a_flag(event, flow)]
    return [
        (event, pointer)
        for event in (*in_test, *flow.events_in(branch.body, READ), *flow.events_in(branch.orelse, READ))
        if (pointer := _optional_read(event, flow, optional)) is not None and not _guarded(event, flow, pointer, flags)
    ]


def _optional_read(event: Event, flow: Flow, optional: Mapping[str, OptionalPointer]) -> OptionalPointer | None:
    """The optional pointer a read reads: the parameter itself, or the one a local name every
    definition reaching the read derives from (`Flow.pointer_root`: `state = h0`, `p = h0 +
    off`, `p_h0 = tl.make_block_ptr(h0, ...)` under `if USE_H0:`, `tl.advance` of such). With the
    pointer None the name is undefined or `None + offset` where the arm reads it: the same failure.
    Or a value loaded through the pointer that is bound only under a pure-constexpr `if`
    guarding it (`_loaded_guard`): with the pointer None that `if` is not compiled, and the
    name is undefined where the arm reads it (measured: `NameError('b_h0 is not defined')`)."""
    name = event.name or ""
    if tests_against_none(event, flow):  # `if h0 is not None:` in the arm: folded, no use
        return None
    pointer = optional.get(name)
    if pointer is not None or not isinstance(event.node, cst.Name):
        return pointer
    if name in flow.pointer_names:
        root = flow.pointer_root(event.node)
        return optional.get(root) if root is not None and root != name else None
    for root in sorted(flow.loaded_from(event.node)):
        pointer = optional.get(root)
        if pointer is not None and _loaded_guard(event, flow, pointer) is not None:
            return pointer
    return None


def _loaded_guard(event: Event, flow: Flow, pointer: OptionalPointer) -> cst.If | None:
    """For a read of a value loaded through `pointer` (`Flow.loaded_from`), the pure-constexpr
    `if` guarding the pointer that the first definition reaching it sits under, when every one
    sits under such an `if` (`if USE_H0: b_h0 = tl.load(p_h0)`); None otherwise, and for a name
    that is a pointer itself."""
    if not isinstance(event.node, cst.Name) or event.name in flow.pointer_names:
        return None
    if pointer.name not in flow.loaded_from(event.node):
        return None
    guards = [_pointer_guard(definition, pointer) for definition in flow.reaching(event.node)]
    if not guards or any(guard is None for guard in guards):
        return None
    guard = guards[0]
    assert guard is not None
    return guard[0].node


def _pointer_guard(definition: Event, pointer: OptionalPointer) -> tuple[Branch, bool] | None:
    """The innermost pure-constexpr `if` arm around a definition that guards the pointer."""
    return next(((b, arm) for b, arm in reversed(definition.conds) if _guards_pointer(b, arm, pointer)), None)


def _bound_for(use: Event, flow: Flow, flag: str, value: bool) -> bool:
    """Every definition reaching a read sits in the arm of a pure-constexpr `if` on `flag`
    alone compiled for `value` (`if USE_H0:` for True): the nesting, which compiles the read
    for that value only, reads it where it is bound."""
    assert isinstance(use.node, cst.Name)
    definitions = flow.reaching(use.node)
    return bool(definitions) and all(
        any(b.test_is_python_constexpr and b.key == (flag, value == arm) for b, arm in d.conds) for d in definitions
    )


def _unguarded_choice_uses(
    choice: cst.IfExp, flow: Flow, optional: Mapping[str, OptionalPointer]
) -> list[tuple[Event, OptionalPointer]]:
    """`_unguarded_uses` for the arms of a conditional expression with a mixed test (measured:
    the front end lowers both arms when the flag is False): reads of an optional pointer, or of
    a name derived from or loaded through one, with no `if` or conditional expression guarding
    that pointer around them (`_guarded`)."""
    found = []
    flags = _flag_keys(choice.test, flow)
    for event in flow.events:
        if event.kind != READ or not any(c is choice for c, _ in event.choices):
            continue
        pointer = _optional_read(event, flow, optional)
        if pointer is None:
            continue
        if not _guarded(event, flow, pointer, flags):
            found.append((event, pointer))
    return found


def _flag_keys(test: cst.BaseExpression, flow: Flow) -> set[str]:
    """The constexpr operands of a mixed test, keyed as a test of them alone (`test_key`)."""
    return {test_key(o)[0] for o in tested_operands(test, flow) if flow.is_python_constexpr(o)}


def _guarded(event: Event, flow: Flow, pointer: OptionalPointer, flags: set[str]) -> bool:
    """A use inside an arm of an `if` or a conditional expression the front end decides that
    compiles it only when the pointer is passed (`OptionalPointer.guarded_by`: `if USE_H0:`,
    not an unrelated `if USE_X:` or `if BD >= 64:`, which compiles it with the pointer None),
    around the mixed test or inside its arm; or that tests a flag of the mixed test itself
    (`flags`: `if not F or R:` around `if F:`), which decides the use as the nesting would: the
    mix changes nothing of when it compiles."""
    return any(
        b.test_is_python_constexpr and (b.key[0] in flags or pointer.guarded_by(b.node.test, b.key, arm, flow))
        for b, arm in event.conds
    ) or any(
        flow.is_python_constexpr(c.test)
        and (flow.choice_key(c)[0] in flags or pointer.guarded_by(c.test, flow.choice_key(c), arm, flow))
        for c, arm in event.choices
    )


def _guards_pointer(branch: Branch, arm: bool, pointer: OptionalPointer) -> bool:
    key, polarity = branch.key
    return branch.test_is_python_constexpr and (key, polarity == arm) in pointer.guards


def _passed_when(kernel: Kernel, flag: str, pointer: OptionalPointer) -> bool | None:
    """The flag value for which the pointer is passed (not None): what a heuristic or the
    pointer's uses guarded by the flag tell, else True (`HAS_P`, `USE_P`: on when passed).
    None when the pointer goes with another flag: a launch or a heuristic ties one to it
    (`USE_H0=h0 is not None`: `OptionalPointer.tied`) and not this one, or, with none tied, its
    uses elsewhere are guarded by tests of other flags only (`if USE_H0:`, with `IS_VARLEN` the
    flag here)."""
    heuristic = kernel.provided_constexprs.get(flag)
    if heuristic is not None:
        return _heuristic_polarity(heuristic, pointer.name)
    if pointer.tied:
        if flag not in pointer.tied:
            return None
    elif pointer.guards and all(key != flag for key, _ in pointer.guards):
        return None
    values = {
        polarity == arm
        for event in kernel.flow.events
        if event.kind == READ and event.name == pointer.name
        for branch, arm in event.conds
        for test, polarity in (branch.key,)
        if branch.test_is_constexpr and test == flag
    }
    if len(values) > 1:
        return None
    return values.pop() if values else True


def _heuristic_polarity(body: cst.BaseExpression, pointer: str) -> bool | None:
    """True for `args["p"] is not None`, False for `args["p"] is None`."""
    if not (isinstance(body, cst.Comparison) and len(body.comparisons) == 1):
        return None
    target = body.comparisons[0]
    subject = body.left
    if not (isinstance(target.comparator, cst.Name) and target.comparator.value == "None"):
        return None
    index = subject.slice[0].slice if isinstance(subject, cst.Subscript) and len(subject.slice) == 1 else None
    if not (isinstance(index, cst.Index) and str_literal(index.value) == pointer):
        return None
    if isinstance(target.operator, cst.IsNot):
        return True
    return False if isinstance(target.operator, cst.Is) else None


def _not(flag: cst.Name) -> cst.UnaryOperation:
    return cst.UnaryOperation(cst.Not(), flag)


def _nested(
    node: cst.If, operator: str, condition: cst.Name | cst.UnaryOperation, runtime: cst.BaseExpression
) -> cst.If:
    # the `if` line's comment (a noqa directive too) stays once, on the first line the nesting writes
    inner = cst.If(test=_bare(runtime), body=_with_comment(node.body, None), orelse=node.orelse)
    outer = node.with_changes(whitespace_before_test=cst.SimpleWhitespace(" "))
    if operator == "or":
        return outer.with_changes(test=condition, orelse=inner)
    if node.orelse is None:
        return outer.with_changes(test=condition, body=_with_comment(cst.IndentedBlock([inner]), node.body))
    otherwise = node.orelse.body if isinstance(node.orelse, cst.Else) else cst.IndentedBlock([node.orelse])
    negation = condition.expression if isinstance(condition, cst.UnaryOperation) else _not(condition)
    return outer.with_changes(test=negation, body=_with_comment(otherwise, node.body), orelse=inner)


def _with_comment(suite: cst.BaseSuite, source: cst.BaseSuite | None) -> cst.BaseSuite:
    """`suite` with the comment of the line opening `source` (none without it) after its `:`:
    an indented block's header, a one-line suite's trailing whitespace."""
    comment = None
    if isinstance(source, cst.IndentedBlock):
        comment = source.header.comment
    elif isinstance(source, cst.SimpleStatementSuite):
        comment = source.trailing_whitespace.comment
    if isinstance(suite, cst.IndentedBlock):
        return suite.with_changes(header=_trailing(suite.header, comment))
    if isinstance(suite, cst.SimpleStatementSuite):
        return suite.with_changes(trailing_whitespace=_trailing(suite.trailing_whitespace, comment))
    return suite


def _trailing(line: cst.TrailingWhitespace, comment: cst.Comment | None) -> cst.TrailingWhitespace:
    if comment is None:
        return line.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None)
    spacing = line.whitespace if line.comment is not None else cst.SimpleWhitespace("  ")
    return line.with_changes(whitespace=spacing, comment=comment)


def _bare(test: cst.BaseExpression) -> cst.BaseExpression:
    """The runtime operand as a test of its own: without parentheses, unless it spans lines
    (inside the parentheses of `(FLAG and a >=⏎ b)`, it gets its own)."""
    if "\n" not in cst.Module([]).code_for_node(test):
        return test.with_changes(lpar=(), rpar=())
    return test if test.lpar else test.with_changes(lpar=(cst.LeftParen(),), rpar=(cst.RightParen(),))
