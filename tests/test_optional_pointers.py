"""Optional pointers from evidence (issue 10, bullet 5): each kind of evidence, kernel side and
host side in the same module, and what overrides it; ASC004's message names the evidence."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.fixes import apply_edits
from ascend_lint.host import HostIndex
from ascend_lint.imports import ImportMap
from ascend_lint.kernels import find_kernels
from ascend_lint.optional import optional_pointers

HEADER = "import triton\nimport triton.language as tl\nfrom typing import Optional\n"
KERNEL = """
@triton.jit
def k(h0, x, o, W, USE_H0: tl.constexpr, MODE: tl.constexpr):
    i_t = tl.program_id(0)
    tl.store(o, tl.load(x))
    {body}
"""


def optional(body: str, host: str = "", decorator: str = "") -> dict:
    source = HEADER + decorator + KERNEL.format(body=textwrap.indent(textwrap.dedent(body), "    ").strip()) + host
    module = cst.parse_module(source)
    imports = ImportMap(module, source)
    (kernel, *_) = find_kernels(module, imports)
    found = optional_pointers(kernel, HostIndex(module, find_kernels(module, imports)))
    return {name: (pointer.certain, pointer.evidence) for name, pointer in found.items()}


GUARDED = """
if USE_H0:
    tl.store(o, tl.load(h0))
"""


@pytest.mark.parametrize(
    ("host", "evidence"),
    [
        ("def f(x, o):\n    k[(1,)](None, x, o, 4, USE_H0=False, MODE=0)\n", "passes `h0=None`"),
        (
            "def f(x, o, h0=None):\n    k[(1,)](h0, x, o, 4, USE_H0=h0 is not None, MODE=0)\n",
            "passes `h0=h0`, where `h0` defaults to `None`",
        ),
        (
            "def f(x, o, h0: Optional[int]):\n    k[(1,)](h0, x, o, 4, USE_H0=True, MODE=0)\n",
            "passes `h0=h0`, where `h0` is annotated `Optional[int]`",
        ),
        (
            "def f(x, o, s, use):\n    k[(1,)](s if use else None, x, o, 4, USE_H0=use, MODE=0)\n",
            "passes `h0=s if use else None`",
        ),
        (
            "def f(x, o, h0):\n    k[(1,)](h0, x, o, 4, USE_H0=True, MODE=0)\n\ndef api(x, o):\n    f(x, o, None)\n",
            "passes `h0=h0`, where `f` is called with `h0=None`",
        ),
        (
            "def f(x, o):\n    kw = dict(h0=None, USE_H0=False)\n    k[(1,)](x=x, o=o, W=4, MODE=0, **kw)\n",
            "passes `h0=None`",
        ),
        (
            "def f(x, o, state):\n    k[(1,)](state, x, o, 4, USE_H0=state is not None, MODE=0)\n",
            "passes `USE_H0=state is not None`",
        ),
        (
            "def f(x, o, state):\n    k[(1,)](state, x, o, 4, USE_H0=bool(state), MODE=0)\n",
            "passes `USE_H0=bool(state)`",
        ),
    ],
)
def test_host_evidence(host: str, evidence: str) -> None:
    found = optional("if USE_H0 or i_t < W:\n    tl.store(o, tl.load(h0))", "\n" + host)
    assert found["h0"] == (True, f"the launch at line {{related_line}} {evidence}")


@pytest.mark.parametrize(
    "flag",
    [
        "True if state is not None else False",
        "int(state is not None)",
        "state is not None and W > 0",
        "1 if state is None else 0",
    ],
)
def test_a_flag_computed_from_the_none_test_ties_it(flag: str) -> None:
    host = f"\ndef f(x, o, state, W):\n    k[(1,)](state, x, o, W, USE_H0={flag}, MODE=0)\n"
    found = optional("if USE_H0 or i_t < W:\n    tl.store(o, tl.load(h0))", host)
    assert found["h0"] == (True, f"the launch at line {{related_line}} passes `USE_H0={flag}`")


def test_a_stand_in_swapped_in_for_none_unties_the_flag() -> None:
    """`if not use_h0: h0 = x` before the launch: the launch never passes None, so the flag
    tied to the test made before says nothing of the pointer (as `h0 if h0 is not None else x`)."""
    host = """
def f(x, o, h0, W):
    use_h0 = h0 is not None
    if not use_h0:
        h0 = x  # a stand-in, never read
    k[(1,)](h0, x, o, W, USE_H0=use_h0, MODE=0)
"""
    found = optional("if USE_H0 or i_t < W:\n    tl.store(o, tl.load(h0))", host)
    assert "h0" not in found


def test_heuristic_evidence() -> None:
    decorator = '\n@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})'
    found = optional("if USE_H0 or i_t < W:\n    tl.store(o, tl.load(h0))", decorator=decorator)
    assert found == {"h0": (True, 'the `USE_H0` heuristic tests `args["h0"]` against None')}


def test_none_test_in_the_kernel() -> None:
    found = optional("if h0 is not None:\n    tl.store(o, tl.load(h0))")
    assert found == {"h0": (True, "the kernel tests `h0 is not None`")}


def test_guard_evidence() -> None:
    assert optional(GUARDED + "if USE_H0 and i_t < W:\n    tl.store(o, tl.load(h0 + 1))") == {
        "h0": (True, "it is guarded by `if USE_H0:` elsewhere")
    }


@pytest.mark.parametrize("test", ["USE_H0 or i_t < W", "i_t < W or USE_H0", "not USE_H0 and i_t < W"])
def test_flag_correlation_is_evidence_but_not_certain(test: str) -> None:
    found = optional(f"if {test}:\n    tl.store(o, tl.load(h0))")
    assert found == {"h0": (False, "`h0` is used only under tests of `USE_H0`")}


def test_used_on_both_arms_of_a_constexpr_test_is_not_optional() -> None:
    body = (
        "if MODE:\n    tl.store(h0, 1.0)\nelse:\n    tl.store(h0 + 1, 2.0)\nif MODE or i_t < W:\n    tl.store(h0, 3.0)"
    )
    assert optional(body) == {}


def test_a_pointer_every_launch_passes_as_a_tensor_is_not_optional() -> None:
    host = "\ndef f(x, o, state):\n    k[(1,)](state, x, o, 4, USE_H0=True, MODE=0)\n"
    assert optional(GUARDED, host) == {}
    assert optional("if USE_H0 or i_t < W:\n    tl.store(o, tl.load(h0))", host) == {}
    # unless a launch says otherwise
    host += "\ndef g(x, o):\n    k[(1,)](None, x, o, 4, USE_H0=False, MODE=0)\n"
    assert optional(GUARDED, host)["h0"][0] is True


def test_asc004_message_names_the_evidence_and_claims_a_failure_only_when_certain() -> None:
    source = HEADER + KERNEL.format(body="if USE_H0 or i_t < W:\n        tl.store(o, tl.load(h0))")
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert "would fail to compile if `h0` were None" in finding.message
    assert "used only under tests of `USE_H0`" in finding.message
    source += "\ndef f(x, o):\n    k[(1,)](None, x, o, 4, USE_H0=False, MODE=0)\n"
    (finding,) = lint_source(source, "k.py", settings()).findings
    launch_row = source.count("\n") - 1 + 1
    assert f"(the launch at line {launch_row} passes `h0=None`)" in finding.message
    assert "so `h0=None` fails to compile" in finding.message
    assert [r.location.row for r in finding.related] == [launch_row, finding.location.row + 1]


DEFAULTS_TO_NONE = "\ndef f(x, o, h0=None):\n    k[(1,)](h0, x, o, 4, USE_H0=h0 is not None, MODE=0)\n"


@pytest.mark.parametrize(
    "test", ["USE_H0 & (i_t > 0)", "(i_t > 0) | USE_H0", "~USE_H0 & (i_t > 0)", "not ((i_t > 0) & (USE_H0 | (W > 2)))"]
)
def test_a_use_under_a_bitwise_mix_depends_on_the_flag(test: str) -> None:
    """`FLAG & runtime` is a runtime `if` whose arms still hold only flag-dependent uses: such a
    use neither makes the pointer always used nor hides its other mixed tests."""
    body = GUARDED + f"if {test}:\n    tl.store(o, tl.load(h0 + 1))\nif not USE_H0 or i_t < W:\n    tl.store(o, 0.0)\n"
    body += "else:\n    tl.store(o, tl.load(h0 + 2))"
    assert optional(body, DEFAULTS_TO_NONE)["h0"][0] is True
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    findings = lint_source(source, "k.py", settings()).findings
    rows = [finding.location.row for finding in findings]
    assert rows == [row for row, line in enumerate(source.splitlines(), 1) if "i_t" in line and "if " in line]
    (bitwise, _) = findings
    assert bitwise.fix is None and "`&` / `|` combine bits" in (bitwise.no_fix_reason or "")


@pytest.mark.parametrize("test", ["(need := USE_H0 and i_t < W)", "not (need := USE_H0 or i_t < W)"])
def test_a_walrus_binding_the_mix_tests_the_mix(test: str) -> None:
    """`if (need := USE_H0 and i_t < W):` tests the mix it binds, as a name holding it would:
    reported, with no fix (the nesting would have to bind `need` on each of its paths)."""
    body = f"if {test}:\n    tl.store(o, tl.load(h0 + 1))"
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert source.splitlines()[finding.location.row - 1].strip() == f"if {test}:"
    assert f"`if {test}` mixes a constexpr flag" in finding.message
    assert finding.fix is None and "binds the mixed test to `need` (`:=`)" in (finding.no_fix_reason or "")


@pytest.mark.parametrize("test", ["USE_H0 & MODE", "i_t & 1"])
def test_no_mix_under_bitwise_constexprs_or_a_bit_mask(test: str) -> None:
    """`&` of two constexprs stays a constexpr; `i_t & 1` is a mask, not a connective (a failure
    with `h0=None` too, but no mix of a flag: not ASC004's)."""
    decorator = '\n@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})'
    body = f"if {test}:\n    tl.store(o, tl.load(h0 + 1))"
    source = HEADER + decorator + KERNEL.format(body=textwrap.indent(body, "    ").strip())
    assert lint_source(source, "k.py", settings()).findings == []


def test_an_alias_binds_none_as_it_is_and_its_reads_stand_for_the_pointers() -> None:
    """`state = h0` is no use of `h0` (with `h0=None` it binds `None`): before, it made every
    launch's `None` for `h0` impossible (an unconditional use), so `h0` was not optional."""
    body = "state = h0\nif USE_H0 and i_t < W:\n    tl.store(o, tl.load(state))"
    host = "\ndef f(x, o):\n    k[(1,)](None, x, o, 4, USE_H0=False, MODE=0)\n"
    assert optional(body, host)["h0"] == (True, "the launch at line {related_line} passes `h0=None`")
    unguarded = "state = h0\ntl.store(o, tl.load(state))"  # read under no flag: never None
    assert "h0" not in optional(unguarded, host)


@pytest.mark.parametrize("test", ["(USE_H0 and i_t < W)", "not USE_H0 or i_t >= W"])
def test_a_use_in_a_mixed_conditional_expression_depends_on_the_flag(test: str) -> None:
    """A read in an arm of `... if (USE_H0 and i_t < W) else ...` is compiled only in kernels
    whose flag may be off: a launch passing None shows it optional, and with no launch the flag
    correlation does; ASC004 reports the expression (measured: both arms are lowered)."""
    body = f"tl.store(o + 1, tl.load(h0 + i_t) if {test} else 0.0)"
    assert optional(body, DEFAULTS_TO_NONE)["h0"] == (
        True,
        "the launch at line {related_line} passes `h0=h0`, where `h0` defaults to `None`",
    )
    assert optional(body) == {"h0": (False, "`h0` is used only under tests of `USE_H0`")}
    source = HEADER + KERNEL.format(body=body) + DEFAULTS_TO_NONE
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert finding.location.row == finding.related[-1].location.row == source.splitlines().index(f"    {body}") + 1
    assert finding.message.startswith(f"`... if {test.strip('()')} else ...` mixes a constexpr flag")
    assert finding.fix is None and "a conditional expression" in (finding.no_fix_reason or "")


def test_a_value_loaded_under_the_flag_and_read_in_a_mixed_arm() -> None:
    """`if USE_H0: b_h0 = tl.load(h0)` then `if USE_H0 and i_t == 0: ... b_h0`: with `h0=None`
    the binding is not compiled and the arm, which is, reads an undefined name (measured:
    `NameError('b_h0 is not defined')`). Bound on the other arm too, it is defined either way."""
    guarded = "if USE_H0:\n        b_h0 = tl.load(h0 + i_t).to(tl.float32) * 2.0\n    "
    mixed = "if USE_H0 and i_t == 0:\n        tl.store(o + 2, b_h0)"
    source = HEADER + KERNEL.format(body=guarded + mixed) + DEFAULTS_TO_NONE
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert "around `b_h0`, loaded from optional pointer `h0`" in finding.message
    assert "bound only under `if USE_H0:`" in finding.message and "`b_h0` is undefined there" in finding.message
    assert finding.fix is not None
    both = guarded + "else:\n        b_h0 = 0.0\n    " + mixed
    assert lint_source(HEADER + KERNEL.format(body=both) + DEFAULTS_TO_NONE, "k.py", settings()).findings == []
    # an optional pointer's guard, but the value is another pointer's: not ASC004's (`NameError` all the same)
    other = "if USE_H0:\n        tl.store(h0, 1.0)\n        b_h0 = tl.load(x + i_t)\n    " + mixed
    assert lint_source(HEADER + KERNEL.format(body=other) + DEFAULTS_TO_NONE, "k.py", settings()).findings == []


@pytest.mark.parametrize(
    ("test", "shown"),
    [
        ("MODE == 1 or i_t < W", "MODE == 1"),
        ("(USE_H0 == True) or i_t < W", "USE_H0 == True"),
        ("not (MODE != 0) and i_t < W", "MODE != 0"),
        ("1 == USE_H0 or i_t < W", "1 == USE_H0"),
    ],
)
def test_a_comparison_of_constexprs_is_a_flag(test: str, shown: str) -> None:
    """triton-ascend 3.2's `visit_BoolOp` folds no operand: a comparison of constexprs is the
    test's flag as a bare name is (issue: ASC004 missed `if MODE == 1 or i_t * BT < W:`)."""
    found = optional(f"if {test}:\n    tl.store(o, tl.load(h0))")
    assert found == {"h0": (False, f"`h0` is used only under tests of `{shown}`")}
    assert optional(f"if {test}:\n    tl.store(o, tl.load(h0))", DEFAULTS_TO_NONE)["h0"][0] is True


@pytest.mark.parametrize("binding", ["f = USE_H0\nr = i_t < W", "f, r = USE_H0, i_t < W"])
def test_a_local_holding_the_flag_is_the_flag(binding: str) -> None:
    found = optional(f"{binding}\nif f or r:\n    tl.store(o, tl.load(h0))")
    assert found == {"h0": (False, "`h0` is used only under tests of `USE_H0`")}
    # a literal held in a name is no flag: the use depends on nothing the launch sets
    assert optional("c = 4\nif c or i_t < W:\n    tl.store(o, tl.load(h0))") == {}


@pytest.mark.parametrize(
    "body",
    [
        "if MODE > 1 and i_t < W:\n    tl.store(o, tl.load(h0))",
        "big = MODE >= 64\nif big and i_t < W:\n    tl.store(o, tl.load(h0))",
        "if MODE % 2 == 0 or i_t < W:\n    tl.store(o, tl.load(h0))",
        "if MODE == 2 or i_t < W:\n    tl.store(o, tl.load(h0))",
    ],
)
def test_a_size_test_is_no_flag_for_the_correlation(body: str) -> None:
    """A pointer used only under a size's test (`BK > 32`, `BK % 2 == 0`, `BK == 64`) mixed with
    a runtime one is a plain pointer the author uses for big tiles, not one that looks optional
    (issue: ASC004 said `w` looks optional, used only under tests of `BK > 32`); the launch
    passing None still shows it optional, whatever the test."""
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip())
    assert optional(body) == {}
    assert lint_source(source, "k.py", settings()).findings == []
    assert optional(body, DEFAULTS_TO_NONE)["h0"][0] is True
    (finding,) = lint_source(source + DEFAULTS_TO_NONE, "k.py", settings()).findings
    assert finding.code == "ASC004" and "`h0=None` fails to compile" in finding.message


@pytest.mark.parametrize(
    "guard",
    [
        "h0 is not None",
        "not (h0 is None)",
        "h0 is not None and MODE",
        "USE_H0 == True",
        "USE_H0 != 0",
        "USE_H0 == 1",
        "(USE_H0 is True)",
        "True == USE_H0",
    ],
)
def test_an_outer_test_of_the_pointer_or_its_flag_against_a_literal_guards_it(guard: str) -> None:
    """`if h0 is not None:` (folded when `h0` is None) or `if USE_H0 == True:` around `if USE_H0 and
    i_t < W: load(h0)` compiles the load only when `h0` is passed, as `if USE_H0:` does (issue:
    reported, with a pointless nesting offered)."""
    body = f"if {guard}:\n    if USE_H0 and i_t < W:\n        tl.store(o, tl.load(h0))"
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    assert lint_source(source, "k.py", settings()).findings == []


@pytest.mark.parametrize("guard", ["h0 is None", "USE_X == True", "not (h0 is not None)"])
def test_an_outer_test_that_leaves_the_pointer_missing_is_no_guard(guard: str) -> None:
    body = f"if {guard}:\n    if USE_H0 and i_t < W:\n        tl.store(o, tl.load(h0))"
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()).replace(
        "MODE: tl.constexpr", "MODE: tl.constexpr, USE_X: tl.constexpr = False"
    )
    (finding,) = lint_source(source + DEFAULTS_TO_NONE, "k.py", settings()).findings
    assert finding.code == "ASC004" and "`h0=None` fails to compile" in finding.message


TIED_BY_A_HEURISTIC = '@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})\n'


@pytest.mark.parametrize("decorator", ["", TIED_BY_A_HEURISTIC])
@pytest.mark.parametrize(
    "inner",
    [
        "if h0 is not None:\n    tl.store(o, tl.load(h0))",
        "if h0 is None:\n    pass\nelse:\n    tl.store(h0, tl.load(x))",
        "v = tl.load(h0) if h0 is not None else 0.0\ntl.store(o, v)",
        "v = tl.load(h0) if USE_H0 else 0.0\ntl.store(o, v)",
    ],
)
def test_an_inner_test_of_the_pointer_against_none_guards_it(decorator: str, inner: str) -> None:
    """`if h0 is not None:` inside the arm of `if USE_H0 or i_t < W:` folds with `h0` None and
    compiles its body only when `h0` is passed; reading `h0` in that test is no use of it (issue:
    reported, the use being the test's own `h0`)."""
    body = "if USE_H0 or i_t < W:\n" + textwrap.indent(inner, "    ")
    source = HEADER + decorator + KERNEL.format(body=textwrap.indent(body, "    ").strip())
    assert lint_source(source, "k.py", settings()).findings == []


@pytest.mark.parametrize("inner", ["if MODE >= 64:", "if HAS:"])
def test_an_inner_test_that_compiles_with_the_pointer_none_is_no_guard(inner: str) -> None:
    """A size's test, or a name holding the flag (`HAS = USE_H0`: a tensor to the front end, so
    `if HAS:` compiles both arms), leaves the use compiled with `h0` None."""
    body = f"HAS = USE_H0\nif USE_H0 or i_t < W:\n    {inner}\n        tl.store(o, tl.load(h0))"
    source = HEADER + TIED_BY_A_HEURISTIC + KERNEL.format(body=textwrap.indent(body, "    ").strip())
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert finding.code == "ASC004" and "`h0=None` fails to compile" in finding.message


def test_an_outer_guard_counts_only_when_it_holds_the_flag_tied_to_the_pointer() -> None:
    body = "if MODE:\n    if USE_H0 and i_t < W:\n        tl.store(o, tl.load(h0))"
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip())
    # no flag tied to `h0`: `if MODE:` only ever guarding it is what shows it optional at all
    assert lint_source(source, "k.py", settings()).findings == []
    # the launch ties `USE_H0` to `h0`: `if MODE:` compiles its body with `h0=None`
    (finding,) = lint_source(source + DEFAULTS_TO_NONE, "k.py", settings()).findings
    assert finding.code == "ASC004" and "`h0=None` fails to compile" in finding.message
    tied = source.replace("if MODE:", "if MODE and USE_H0:") + DEFAULTS_TO_NONE
    assert lint_source(tied, "k.py", settings()).findings == []


@pytest.mark.parametrize(
    ("inner", "reported"),
    [
        ("MODE", True),  # unrelated: with `MODE` True and `h0=None` the load compiles
        ("MODE == 2", True),
        ("not MODE", True),
        ("USE_H0", False),  # the flag the launch ties to `h0`
        ("USE_H0 and MODE", False),
    ],
)
def test_an_inner_guard_counts_only_when_it_holds_the_flag_tied_to_the_pointer(inner: str, reported: bool) -> None:
    """An `if` inside the mixed arm guards the pointer as one around the mixed test does
    (probe 14: an unrelated `if BD >= 64:` inside cleared the use)."""
    for test in ("USE_H0 or i_t < W", "USE_H0 and i_t < W"):
        body = f"if {test}:\n    if {inner}:\n        tl.store(o, tl.load(h0))"
        source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
        codes = [finding.code for finding in lint_source(source, "k.py", settings()).findings]
        assert codes == (["ASC004"] if reported else []), (test, inner)


@pytest.mark.parametrize("outer", [True, False])
@pytest.mark.parametrize(("binding", "reported"), [("HAS = USE_H0", True), ("HAS: tl.constexpr = USE_H0", False)])
def test_a_name_the_body_binds_the_flag_to_guards_only_as_a_constexpr(
    binding: str, reported: bool, outer: bool
) -> None:
    """`HAS = USE_H0` in the body is a tensor to the front end, so `if HAS:` around the mixed
    test or inside its arm compiles the load with `h0=None` (measured on triton-ascend 3.2,
    2026-12-06: `'NoneType' object has no attribute 'type'`); `HAS: tl.constexpr = USE_H0` is
    folded, the flag it holds (measured: compiles). It was taken for an unrelated flag."""
    use = "tl.store(o, tl.load(h0))"
    body = (
        f"if HAS:\n    if USE_H0 or i_t < W:\n        {use}"
        if outer
        else f"if USE_H0 or i_t < W:\n    if HAS:\n        {use}"
    )
    source = HEADER + KERNEL.format(body=binding + "\n    " + textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    codes = [finding.code for finding in lint_source(source, "k.py", settings()).findings]
    assert codes == (["ASC004"] if reported else [])


def test_a_conditional_expression_on_a_name_holding_the_mix_depends_on_the_flag() -> None:
    """`need = USE_H0 and i_t < W`, then `load(h0) if need else 0.0`: the use depends on the
    flag, so the launch's `USE_H0=h0 is not None` shows `h0` optional (probe 14: silent, while
    `if need:` and the inline test were reported)."""
    body = "need = USE_H0 and i_t < W\ntl.store(o, tl.load(h0) if need else 0.0)"
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert finding.code == "ASC004" and "`need = USE_H0 and i_t < W`" in finding.message
    assert "`h0=None` fails to compile" in finding.message


def test_a_device_function_takes_its_callers_launch_evidence() -> None:
    source = HEADER + textwrap.dedent(
        """
        @triton.jit
        def _halo(h0, o, i_t, W, USE_H0: tl.constexpr):
            if USE_H0 or i_t < W:
                tl.store(o, tl.load(h0))

        @triton.jit
        def k(h0, o, W, USE_H0: tl.constexpr):
            _halo(h0, o, tl.program_id(0), W, USE_H0)

        def f(o, W, h0=None):
            k[(1,)](h0, o, W, USE_H0=h0 is not None)
        """
    )
    module = cst.parse_module(source)
    kernels = find_kernels(module, ImportMap(module, source))
    helper = next(kernel for kernel in kernels if kernel.name == "_halo")
    (pointer,) = optional_pointers(helper, HostIndex(module, kernels)).values()
    assert pointer.certain and pointer.tied == {"USE_H0"}
    assert (
        pointer.evidence
        == "`k` passes it `h0`: the launch at line {related_line} passes `h0=h0`, where `h0` defaults to `None`"
    )
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert "would fail" not in finding.message and "`k` passes it `h0`" in finding.message


CARRIED = """
import triton
import triton.language as tl


@triton.jit
def k(x, h0, o, NT, W, D: tl.constexpr, USE_H0: tl.constexpr):
    o_d = tl.arange(0, D)
    b = tl.zeros([D], dtype=tl.float32)
    {body}
    tl.store(o + o_d, b)


def launch(x, o, NT, W, h0=None):
    k[(4,)](x, h0, o, NT, W, D=16, USE_H0=h0 is not None)
"""


@pytest.mark.parametrize(
    ("body", "reported"),
    [
        # an address derived from the pointer, advanced under the flag for the next trip
        (
            "p = h0\nfor i_t in range(NT):\n    if i_t > W or USE_H0:\n        b += tl.load(p + o_d)\n"
            "    if USE_H0:\n        p += D",
            True,
        ),
        # a value loaded under the flag, reloaded for the next trip, read in the mixed arm
        (
            "if USE_H0:\n    b_h = tl.load(h0 + o_d)\nfor i_t in range(NT):\n    if i_t > W or USE_H0:\n"
            "        b += b_h\n    if USE_H0:\n        b_h = tl.load(h0 + i_t * D + o_d) * 2.0",
            True,
        ),
        # a tile computed from it under the flag on each trip, carried into the mixed arm
        (
            "if USE_H0:\n    b_h = tl.load(h0 + o_d)\nfor i_t in range(NT):\n    if USE_H0:\n        b_h = b_h * 0.5\n"
            "    if i_t > W or USE_H0:\n        b_m = b_h + 1.0\n        b += b_m",
            True,
        ),
        # bound before the loop on every path: defined with `h0=None` too
        (
            "b_h = tl.zeros([D], dtype=tl.float32)\nfor i_t in range(NT):\n    if i_t > W or USE_H0:\n"
            "        b += b_h\n    if USE_H0:\n        b_h = tl.load(h0 + i_t * D + o_d)",
            False,
        ),
        # loaded in the mixed arm's own pure guard and carried into the next trip's guarded read
        (
            "b_m = tl.zeros([D], dtype=tl.float32)\nfor i_t in range(NT):\n    if USE_H0:\n        b += b_m\n"
            "    if USE_H0 or i_t < W:\n        if USE_H0:\n            b_m = tl.load(h0 + i_t * D + o_d)",
            False,
        ),
    ],
)
def test_a_value_from_the_pointer_carried_into_a_later_trip(body: str, reported: bool) -> None:
    """A loop carries a name derived from the pointer, or a value loaded through it under the
    flag, into the mixed arm of a later trip: with `h0=None` the reported kernels fail to compile
    (measured on triton-ascend 3.2, 2026-12-06: `'NoneType' object has no attribute 'type'`,
    `NameError('b_h is not defined')`), the others compile or never touch `h0`. Right on main
    too; pinned here."""
    source = CARRIED.format(body=textwrap.indent(body, "    ").strip())
    findings = lint_source(source, "k.py", settings()).findings
    assert [finding.code for finding in findings] == (["ASC004"] if reported else [])
    for finding in findings:
        assert source.splitlines()[finding.location.row - 1].strip().startswith("if i_t > W or USE_H0")


@pytest.mark.parametrize("test", ["USE_H0 or tl.load(h0) > 0", "not USE_H0 and tl.load(h0) > 0"])
def test_a_load_in_the_test_that_python_runs_only_without_the_pointer_is_not_the_mix(test: str) -> None:
    """The runtime operand loads through `h0` where Python would evaluate it only with the flag
    off, that is with `h0=None`: it fails to compile however the test is nested (measured on
    triton-ascend 3.2, 2026-12-06: `unsupported operand type(s) for +: 'NoneType' and 'int'` for
    `HAS_H0 or tl.load(h0 + 0) > 0`), so the mix is not the cause and the nesting would not help."""
    body = f"if {test}:\n    tl.store(o, 1.0)"
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    assert lint_source(source, "k.py", settings()).findings == []


@pytest.mark.parametrize(
    ("test", "fixed"),
    [
        ("USE_H0 and tl.load(h0) > 0", "if USE_H0:\n        if tl.load(h0) > 0:\n            tl.store(o, 1.0)"),
        ("not USE_H0 or tl.load(h0) > 0", "if not USE_H0:\n        tl.store(o, 1.0)\n    elif tl.load(h0) > 0:"),
        ("USE_H0 and (i_t > 0 and tl.load(h0) > 0)", "if USE_H0:\n        if i_t > 0 and tl.load(h0) > 0:"),
    ],
)
def test_a_load_in_the_test_that_python_runs_only_with_the_flag_on_is_the_mix(test: str, fixed: str) -> None:
    """The runtime operand loads through `h0` where Python would evaluate it only with the flag
    on: the front end evaluates both operands, so with `h0=None` (and the flag off) it fails to
    compile, while `if USE_H0:` then `if tl.load(h0) > 0:` compiles (measured on triton-ascend
    3.2, 2026-12-06). Such a read depends on the flag (the pointer is optional on the launch's
    `h0=None`), and ASC004 reports the `if`; the nesting moves the load under the flag."""
    assert optional(f"if {test}:\n    tl.store(o, 1.0)", DEFAULTS_TO_NONE)["h0"][0] is True
    body = f"if {test}:\n    tl.store(o, 1.0)"
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert source.splitlines()[finding.location.row - 1].strip() == f"if {test}:"
    assert f"`if {test}` mixes a constexpr flag with a runtime test that reads optional pointer `h0`" in (
        finding.message
    )
    assert "both operands compile" in finding.message
    assert finding.fix is not None
    assert fixed in apply_edits(source, finding.fix.edits)


@pytest.mark.parametrize("test", ["(i_t > 0 or USE_H0) and tl.load(h0) > 0", "USE_H0 or i_t > 0 and tl.load(h0) > 0"])
def test_a_load_in_the_test_the_flag_does_not_decide_is_no_flag_dependent_use(test: str) -> None:
    """`(i_t > 0 or USE_H0) and R` runs `R` with the flag off too: the read is unconditional,
    and a launch passing `h0=None` cannot compile, so `h0` is no optional pointer."""
    body = f"if {test}:\n    tl.store(o, 1.0)"
    assert "h0" not in optional(body, DEFAULTS_TO_NONE)
    source = HEADER + KERNEL.format(body=textwrap.indent(body, "    ").strip()) + DEFAULTS_TO_NONE
    assert lint_source(source, "k.py", settings()).findings == []
