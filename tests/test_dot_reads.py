"""One ASC003 finding per read (issue 10, bullet 8): the first dot that clobbered the tile is
named in the message and first in `related`; the other clobbering dots follow it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint_and_fix, snippet_source

from ascend_lint import kernels, source
from ascend_lint.config import Settings
from ascend_lint.engine import lint_source


def test_three_dots_with_one_left_operand(lint) -> None:
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_w, p_o):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    b_x = tl.dot(b_a, b_w)
    b_y = tl.dot(b_a, b_w)
    b_z = tl.dot(b_a, b_w)
    tl.store(p_o, b_a + b_x + b_y + b_z)
"""
    )
    findings = lint(source)
    rows = [(f.location.row - offset, f.location.column) for f in findings]
    # the second and third dots read the clobbered tile, and so does the store: one finding each
    assert rows == [(6, 18), (7, 18), (8, 19)]
    first_dot = 5 + offset
    for finding in findings:
        assert f"(line {first_dot})" in finding.message
        assert finding.related[0].location.row == first_dot
    assert [r.location.row - offset for r in findings[-1].related] == [5, 6, 7]
    assert [r.message for r in findings[-1].related][1:] == ["another `tl.dot` that may clobber `b_a`"] * 2


def test_a_read_through_an_alias_names_the_alias_and_the_dot(lint) -> None:
    """`b_keep = b_a` binds the same tile to a second name (chained or paired in a tuple),
    whichever name the dot takes: each read after it is a finding naming what was read."""
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_keep, b_b = b_a, tl.load(p_b)
    b_last = b_keep
    b_o = tl.dot(b_a, b_b)
    tl.store(p_o, b_o + b_last)
    b_k = tl.load(p_a)
    b_kk = b_k
    b_s = tl.dot(b_kk, b_b)
    tl.store(p_o, b_s + b_k)
    b_last = tl.load(p_a)
    tl.store(p_o, b_last)
"""
    )
    findings = lint(source)
    assert [(f.location.row - offset, f.message) for f in findings] == [
        (
            7,
            f"`b_last` is read after `b_a`, the same tile (an alias, not a copy), was the left operand of "
            f"`tl.dot` (line {6 + offset}), which may overwrite it on Ascend",
        ),
        (
            11,
            f"`b_k` is read after `b_kk`, the same tile (an alias, not a copy), was the left operand of "
            f"`tl.dot` (line {10 + offset}), which may overwrite it on Ascend",
        ),
    ]
    assert [f.related[0].location.row - offset for f in findings] == [6, 10]


def test_an_alias_read_on_the_next_trip_is_a_loop_carried_clobber(lint) -> None:
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_prev = tl.load(p_a)
    b_h = tl.zeros([16, 16], dtype=tl.float32)
    for i_t in range(NT):
        b_h += b_prev
        b_a = tl.load(p_a + i_t)
        b_prev = b_a
        b_h += tl.dot(b_a, tl.load(p_b))
    tl.store(p_o, b_h)
"""
    )
    (finding,) = lint(source)
    assert finding.location.row - offset == 9
    assert "its alias `b_prev` (not a copy) is read on the next trip" in finding.message
    assert [(r.location.row - offset, r.message) for r in finding.related] == [
        (6, "`b_prev`, an alias of `b_a`, read here on the next trip")
    ]
    assert finding.facts == {"tile": "b_a", "loop_carried": True}


def test_a_choice_of_tiles_names_the_specialisations_it_clobbers_each_in(lint) -> None:
    """Triton's front end folds a choice on a constexpr (`b_at if TRANSPOSED else b_a`), so the
    dot takes the chosen tile itself: each read of it is a finding naming where it is chosen,
    with the choice bound to a name or written in the dot; a choice made at run time may be
    either tile (as an alias bound in a runtime `if` is)."""
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_v, p_o, TRANSPOSED: tl.constexpr):
    b_a = tl.load(p_a)
    b_at = tl.load(p_b)
    b_lhs = b_at if TRANSPOSED else b_a
    b_o = tl.dot(b_lhs, tl.load(p_v))
    tl.store(p_o, b_o + b_a + b_at)
    b_v = tl.load(p_v)
    b_p = tl.dot(b_v if not TRANSPOSED else b_o, tl.load(p_v))
    tl.store(p_o, b_p + b_v + b_o)
    b_c = tl.load(p_a)
    b_d = tl.load(p_b)
    b_r = tl.dot(b_c if tl.program_id(0) == 0 else b_d, tl.load(p_v))
    tl.store(p_o, b_r + b_c + b_d)
"""
    )
    findings = lint(source)
    first, second, third = 6 + offset, 9 + offset, 13 + offset
    alias = "`{}` is read after `b_lhs`, the same tile (an alias, not a copy), was the left operand of `tl.dot`"
    read = "`{}` is read after it was the left operand of `tl.dot`"
    assert [(f.location.row - offset, f.message) for f in findings] == [
        (7, f"{alias.format('b_a')} (line {first}) where `TRANSPOSED` is false, which may overwrite it on Ascend"),
        (7, f"{alias.format('b_at')} (line {first}) where `TRANSPOSED` is true, which may overwrite it on Ascend"),
        (10, f"{read.format('b_v')} (line {second}) where `TRANSPOSED` is false, which may overwrite it on Ascend"),
        (10, f"{read.format('b_o')} (line {second}) where `TRANSPOSED` is true, which may overwrite it on Ascend"),
        (14, f"{read.format('b_c')} (line {third}), which may overwrite it on Ascend"),
        (14, f"{read.format('b_d')} (line {third}), which may overwrite it on Ascend"),
    ]
    assert [[r.message for r in f.related] for f in findings[::2]] == [
        ["`tl.dot` that may clobber `b_lhs`"],
        ["`tl.dot` that may clobber `b_v`"],
        ["`tl.dot` that may clobber `b_c`"],
    ]


DEFINED_PER_ARM = """
import triton
import triton.language as tl

if USE_ASM:

    @triton.jit
    def mm(a, b):
        return tl.inline_asm_elementwise("mov.f32 $0, $1;", "=r,r", [tl.dot(a, b)], tl.float32, True, 1)
else:

    @triton.jit
    def mm(a, b):
        return tl.dot(a, b)


@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_o = mm(b_a, tl.load(p_b))
    tl.store(p_o, b_o + b_a)
"""


def test_a_device_function_defined_per_arm_clobbers_what_every_definition_clobbers(lint) -> None:
    """Which arm defines the function on Ascend is not known from the file: each must clobber."""
    (finding,) = lint(DEFINED_PER_ARM)
    assert finding.message == (
        "`b_a` is read after it was the left operand of `tl.dot` through `mm` (line 20), "
        "which may overwrite it on Ascend"
    )
    assert [(r.location.row, r.message) for r in finding.related] == [
        (20, "`tl.dot` through `mm` that may clobber `b_a`")
    ]
    pristine_arm = DEFINED_PER_ARM.replace("return tl.dot(a, b)", "return tl.dot(a + 0.0, b)")
    assert lint(pristine_arm) == []


def test_a_device_function_imported_from_outside_the_package_is_not_seen(lint) -> None:
    """Only the package's own modules are read: an `fla` not on disk may wrap anything."""
    source = DEFINED_PER_ARM.split("if USE_ASM:")[0] + "from fla.ops.utils.op import mm\n"
    source += DEFINED_PER_ARM.split("\n\n\n", 1)[1]
    assert "def mm" not in source and "mm(b_a" in source
    assert lint(source) == []


DOT_THEN_READ = """
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_h = tl.zeros([16, 16], dtype=tl.float32)
    {dot}
    tl.store(p_o, b_a)
"""


@pytest.mark.parametrize(
    ("dot", "clobbers"),
    [
        # `tl.dot` is pure: a dot whose result nothing reads is dropped by the compiler
        ("tl.dot(b_a, b_b)", False),
        ("b_x = (tl.dot(b_a, b_b) * 2.0).to(tl.float16)", False),
        ("b_h += tl.dot(b_a, b_b)", False),
        ("for i_t in range(NT):\n        b_h = tl.dot(b_a, b_b)\n        b_h = -b_h", False),
        # stored, accumulated into a tile that is stored, passed to a call: read
        ("tl.store(p_o, tl.dot(b_a, b_b))", True),
        ("b_h += tl.dot(b_a, b_b)\n    tl.store(p_o, b_h)", True),
        ("b_x = tl.sum(tl.dot(b_a, b_b), 0)", True),
        ("b_x = tl.dot(b_a, b_b)\n    b_y, b_z = b_x, b_h", True),
        # a dot accumulating into `acc` is taken to run
        ("b_x = tl.dot(b_a, b_b, b_h)", True),
        ("b_x = tl.dot(b_a, b_b, acc=b_h)", True),
        ("for i_t in range(NT):\n        b_h = tl.dot(b_a, b_b, b_h)", True),
    ],
)
def test_a_dot_clobbers_only_where_its_result_is_read(lint, dot: str, clobbers: bool) -> None:
    source, _ = snippet_source(DOT_THEN_READ.format(dot=dot))
    findings = [f for f in lint(source) if f.code == "ASC003"]
    assert bool(findings) == clobbers


def test_a_dot_clobbers_in_the_specialisations_reading_its_result(lint) -> None:
    """The shape of triton-ascend's tutorials 04/06-fused-attention: `pv = tl.dot(p_cast, v)` is
    read only in one arm of a constexpr test; the other arm reads `p_cast` again in a dot of its
    own, where the first dot is dropped. A read in the arm reading the result is after the dot."""
    source, offset = snippet_source(
        """
@triton.jit
def k(p_p, p_v, p_o, NT, SMALL: tl.constexpr):
    b_acc = tl.zeros([16, 16], dtype=tl.float32)
    for i_t in range(NT):
        b_p = tl.load(p_p + i_t)
        b_v = tl.load(p_v + i_t)
        b_pv = tl.dot(b_p, b_v)
        if SMALL:
            b_acc = tl.dot(b_p, b_v, b_acc)
        else:
            b_acc += b_pv
            tl.store(p_o + i_t, b_p)
    tl.store(p_o, b_acc)
"""
    )
    findings = [f for f in lint(source) if f.code == "ASC003"]
    assert [(f.location.row - offset, f.related[0].location.row - offset) for f in findings] == [(12, 7)]


def test_a_device_function_dot_runs_whatever_the_caller_does_with_the_result(lint) -> None:
    """The function may use its dot's result itself (here it stores it): it is taken to run."""
    source, offset = snippet_source(
        """
@triton.jit
def mm_store(a, b, p):
    c = tl.dot(a, b)
    tl.store(p, c)
    return c


@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    mm_store(b_a, tl.load(p_b), p=p_o)
    tl.store(p_o, b_a)
"""
    )
    findings = [f for f in lint(source) if f.code == "ASC003"]
    assert [f.location.row - offset for f in findings] == [12]


HELPER_MODULE = """
import triton
import triton.language as tl


@triton.jit
def attend(block_q, block_k, acc):
    return acc + tl.dot(block_q, block_k)
"""

# no word `d-o-t` here: the rule runs for the imported module's words (`prefilter.PACKAGE_IMPORT`)
CALLER_MODULE = """
import triton
import triton.language as tl

{imports}


@triton.jit
def fwd(q_ptr, k_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    block_q = tl.load(q_ptr + offs)
    block_k = tl.load(k_ptr + offs)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    acc = attend(block_q, block_k, acc)
    tl.store(o_ptr + offs, block_q + acc)
"""


def _package(tmp_path: Path, helper: str | bytes = HELPER_MODULE, imports: str = "from .micro import attend") -> Path:
    """`pkg/ops/fwd.py` calling `attend`, defined in `pkg/ops/micro.py` (given as `helper`)."""
    folder = tmp_path / "pkg" / "ops"
    folder.mkdir(parents=True)
    for init in (tmp_path / "pkg" / "__init__.py", folder / "__init__.py"):
        init.write_text("", encoding="utf-8")
    micro = folder / "micro.py"
    micro.write_bytes(helper if isinstance(helper, bytes) else helper.encode())
    caller = folder / "fwd.py"
    caller.write_text(CALLER_MODULE.format(imports=imports), encoding="utf-8")
    assert "dot" not in caller.read_text(encoding="utf-8")
    return caller


def _clobbered_reads(path: Path, filename: str | None = None) -> list[int]:
    result = lint_source(
        path.read_text(encoding="utf-8"), filename or str(path), Settings(root=path.parent, target_all=True)
    )
    assert result.error is None, result.error
    return [f.location.row for f in result.findings if f.code == "ASC003"]


@pytest.mark.parametrize(
    "imports",
    ["from .micro import attend", "from pkg.ops.micro import attend", "from ..ops.micro import attend as attend"],
)
def test_a_device_function_of_another_module_of_the_package_clobbers_its_left_operand(tmp_path, imports) -> None:
    """Relative or absolute, the import names a file of the package on disk, whose device
    function gives the same facts one of the file would: `block_q` is read after the dot."""
    caller = _package(tmp_path, imports=imports)
    assert _clobbered_reads(caller) == [15]


@pytest.mark.parametrize(
    ("imports", "callee"),
    [
        ("from . import micro", "micro.attend"),
        ("from pkg.ops import micro as m", "m.attend"),
        ("import pkg.ops.micro as m", "m.attend"),
        ("import pkg.ops.micro", "pkg.ops.micro.attend"),
    ],
)
def test_a_device_function_called_through_a_module_of_the_package_clobbers_its_left_operand(
    tmp_path, imports, callee
) -> None:
    """`micro.attend(...)` runs the function the module's file defines, as `attend(...)` after
    `from .micro import attend` does; not when the kernel binds the module's name itself."""
    caller = _package(tmp_path, imports=imports)
    text = caller.read_text(encoding="utf-8").replace("acc = attend(", f"acc = {callee}(")
    caller.write_text(text, encoding="utf-8")
    assert _clobbered_reads(caller) == [15]
    head = callee.split(".")[0]
    caller.write_text(
        text.replace("    offs = tl.arange", f"    {head} = q_ptr\n    offs = tl.arange"), encoding="utf-8"
    )
    assert _clobbered_reads(caller) == []


def test_the_imported_module_is_read_relative_to_the_name_standard_input_is_given(tmp_path) -> None:
    """`--stdin-filename` places the text in its package; a bare `-` is in none."""
    caller = _package(tmp_path)
    assert _clobbered_reads(caller, filename=str(caller.with_name("unsaved.py"))) == [15]
    assert _clobbered_reads(caller, filename="-") == []


def test_the_imported_module_imports_are_not_followed(tmp_path) -> None:
    """One hop: `attend` in `micro.py` calling a dot helper `micro.py` imports is not read."""
    relay = "import triton\n\nfrom .deeper import attend_deeper\n\n\n@triton.jit\ndef attend(a, b, acc):\n"
    relay += "    return attend_deeper(a, b, acc)\n"
    caller = _package(tmp_path, helper=relay)
    caller.with_name("deeper.py").write_text(HELPER_MODULE.replace("def attend", "def attend_deeper"), encoding="utf-8")
    assert _clobbered_reads(caller) == []


@pytest.mark.parametrize(
    ("imports", "relay", "relayed"),
    [
        ("from .shim import attend", "shim.py", "from .micro import attend\n"),
        ("from pkg.ops import attend", "__init__.py", "from pkg.ops.micro import attend\n"),
        ("from .shim import attend", "shim.py", "from .middle import attend\n"),  # two re-exports
    ],
)
def test_a_device_function_a_module_of_the_package_re_exports_is_followed(tmp_path, imports, relay, relayed) -> None:
    """A module importing the function from another (`from .micro import attend` in a shim or
    in `__init__.py`) gives the function of that one; a chain of them loops nowhere."""
    caller = _package(tmp_path, imports=imports)
    caller.with_name(relay).write_text(relayed, encoding="utf-8")
    caller.with_name("middle.py").write_text("from .micro import attend\n", encoding="utf-8")
    assert _clobbered_reads(caller) == [15]
    caller.with_name(relay).write_text(relayed.replace(".micro", ".shim").replace(".middle", ".shim"), encoding="utf-8")
    assert _clobbered_reads(caller) == []  # a module re-exporting from itself: nothing defines it


@pytest.mark.parametrize(
    "helper",
    [
        pytest.param(HELPER_MODULE + "\ndef broken(:\n", id="syntax error"),
        pytest.param(b"\xff\xfe" + HELPER_MODULE.encode(), id="undecodable"),
        pytest.param(HELPER_MODULE.replace("def attend", "def attend_renamed"), id="name not defined there"),
    ],
)
def test_an_imported_module_that_gives_nothing_leaves_the_call_unknown(tmp_path, helper) -> None:
    caller = _package(tmp_path, helper=helper)
    assert _clobbered_reads(caller) == []


def test_an_imported_module_is_decoded_as_python_reads_it(tmp_path) -> None:
    """Its coding cookie holds, as for a file linted itself."""
    helper = b"# -*- coding: latin-1 -*-\n" + HELPER_MODULE.encode() + b"\n# \xff\xfe\n"
    assert _clobbered_reads(_package(tmp_path, helper=helper)) == [15]


def test_a_missing_or_unreadable_imported_module_leaves_the_call_unknown(tmp_path) -> None:
    caller = _package(tmp_path)
    micro = caller.with_name("micro.py")
    micro.unlink()
    micro.mkdir()  # a folder where the file was: unreadable, and no `micro/__init__.py`
    assert _clobbered_reads(caller) == []
    package = caller.with_name("micro")
    package.mkdir()
    (package / "__init__.py").write_text(HELPER_MODULE, encoding="utf-8")  # a package of that name
    assert _clobbered_reads(caller) == [15]


def test_an_imported_module_is_parsed_once_while_its_bytes_stay_the_same(tmp_path, monkeypatch) -> None:
    caller = _package(tmp_path)
    other = caller.with_name("other.py")
    other.write_text(caller.read_text(encoding="utf-8"), encoding="utf-8")
    parsed: list[str] = []
    monkeypatch.setattr(kernels, "parse", lambda text: parsed.append(text) or source.parse(text))
    assert _clobbered_reads(caller) == _clobbered_reads(other) == [15]
    assert parsed == [HELPER_MODULE]
    caller.with_name("micro.py").write_text(
        HELPER_MODULE.replace("block_q, block_k)", "block_k, block_q)"), encoding="utf-8"
    )
    assert _clobbered_reads(caller) == []  # `block_k` is the left operand now, read nowhere after
    assert len(parsed) == 2


def test_a_tile_two_choices_pick_names_every_specialisation_it_is_clobbered_in(lint) -> None:
    """`b_a` is the left operand where `TRANS` is true, and again where it is false and `FP8`
    true: the message names both, not the first one found (which read as if the other were safe)."""
    source = """\
import triton
import triton.language as tl


@triton.jit
def k(a, b, o, TRANS: tl.constexpr, FP8: tl.constexpr, BT: tl.constexpr):
    offs = tl.arange(0, BT)
    b_a = tl.load(a + offs[:, None] * BT + offs[None, :])
    b_at = b_a * 3.0
    b_b = tl.load(b + offs[:, None] * BT + offs[None, :])
    b_l = b_a if TRANS else (b_a if FP8 else b_at)
    b_o = tl.dot(b_l, b_b)
    tl.store(o + offs[:, None] * BT + offs[None, :], b_o + b_a)
"""
    [finding] = lint(source)
    assert "where `FP8` is true and `TRANS` is false, or `TRANS` is true," in finding.message


LOOPED_HELPER = """
import triton
import triton.language as tl


@triton.jit
def inner(a, p_b, acc, NT):
    for i in range(NT):
        acc = tl.dot(a, tl.load(p_b + i), acc)
    return acc


@triton.jit
def k(p_a, p_b, p_o, NT):
    b_a = tl.load(p_a)
    acc = tl.zeros([16, 16], dtype=tl.float32)
    for j in range(NT):
        acc = inner(b_a, p_b, acc, NT)
    tl.store(p_o, acc)
"""


def test_a_helper_whose_own_fix_consumes_a_copy_takes_no_second_copy_at_its_call() -> None:
    """`inner`'s dot clobbers `a` on each trip of its own loop, so its fix lets the dot consume a
    copy, which leaves the caller's `b_a` intact: the call's loop-carried finding stays, with no
    fix of its own (it copied `b_a` a second time), and the fixed file is fixed."""
    findings, fixed = lint_and_fix(LOOPED_HELPER, "k.py", unsafe=True, select=["ASC003"])
    assert [(f.location.row, f.fix is not None) for f in findings] == [(9, True), (18, False)]
    assert "the fix of `inner` lets its dot consume a copy of `a`" in (findings[1].no_fix_reason or "")
    assert fixed is not None and fixed.count("+ 0.0") == 1 and "inner(b_a, p_b, acc, NT)" in fixed
    assert lint_and_fix(fixed, "k.py", unsafe=True, select=["ASC003"]) == ([], None)


@pytest.mark.parametrize(
    "suppressed",
    [
        "acc = tl.dot(a, tl.load(p_b + i), acc)  # noqa: ASC003",
        "acc = tl.dot(  # noqa: ASC003\n            a, tl.load(p_b + i), acc)",
    ],
    ids=["one-line", "noqa-on-the-first-of-its-lines"],
)
def test_a_helper_whose_finding_is_suppressed_leaves_the_call_its_own_copy(suppressed: str) -> None:
    """`# noqa: ASC003` on `inner`'s dot (on the first of its lines when it is split): its
    finding, and a fix editing that line, are dropped (the engine spares what a user suppressed),
    so `b_a` stays clobbered in the caller's loop and the call's finding takes its own copy."""
    source = LOOPED_HELPER.replace("acc = tl.dot(a, tl.load(p_b + i), acc)", suppressed)
    findings, fixed = lint_and_fix(source, "k.py", unsafe=True, select=["ASC003"])
    call = source.splitlines().index("        acc = inner(b_a, p_b, acc, NT)") + 1
    assert [(f.location.row, f.fix is not None) for f in findings] == [(call, True)]
    assert fixed is not None and fixed.count("+ 0.0") == 1 and "# noqa: ASC003" in fixed
    assert lint_and_fix(fixed, "k.py", unsafe=True, select=["ASC003"]) == ([], None)


def test_a_helper_whose_fix_leaves_its_dot_clobbering_the_parameter_keeps_the_call_copy() -> None:
    """A helper reading `a` after its first dot is fixed by a copy before it; that dot still
    clobbers `a`, so the call in the loop keeps its own copy."""
    source = LOOPED_HELPER.replace(
        "    for i in range(NT):\n        acc = tl.dot(a, tl.load(p_b + i), acc)\n    return acc",
        "    d = tl.dot(a, tl.load(p_b), acc)\n    return d + tl.dot(a, tl.load(p_b + 1))",
    )
    findings, fixed = lint_and_fix(source, "k.py", unsafe=True, select=["ASC003"])
    assert all(f.fix is not None for f in findings) and len(findings) == 2
    assert fixed is not None and fixed.count("+ 0.0") == 2
    assert lint_and_fix(fixed, "k.py", unsafe=True, select=["ASC003"]) == ([], None)
