"""Kernel discovery: Triton names from anywhere (re-exports, aliases, `triton-modules`) and
kernels wherever they are defined. Each case is a module written for the test."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest
from conftest import settings

from ascend_lint.engine import DocumentMemory, lint_source
from ascend_lint.flow import CONST, SPEC
from ascend_lint.host import HostIndex
from ascend_lint.imports import ImportMap
from ascend_lint.incremental import IncrementalParser
from ascend_lint.inline import inline_device_functions
from ascend_lint.kernels import ImportedFunctions, Kernel, KernelMemory, find_kernels
from ascend_lint.rule import ModuleContext

BODY = """
def {name}(x, B, BT: {tl}.constexpr):
    i = {tl}.program_id(0)
    n = B.to({tl}.int64)
"""


def kernels_in(source: str, triton_modules: tuple[str, ...] = ()) -> list[str]:
    module = cst.parse_module(textwrap.dedent(source))
    return [k.name for k in find_kernels(module, ImportMap(module, None, triton_modules))]


def asc002_rows(source: str, **overrides) -> list[int]:
    result = lint_source(textwrap.dedent(source), "k.py", settings(**overrides))
    assert result.error is None, result.error
    return [f.location.row for f in result.findings if f.code == "ASC002"]


@pytest.mark.parametrize(
    ("imports", "decorator", "tl"),
    [
        ("from vllm.triton_utils import tl, triton", "@triton.jit", "tl"),
        ("from vllm.triton_utils import triton as T, tl as L", "@T.jit", "L"),
        ("from .triton_utils import tl, triton", "@triton.jit", "tl"),
        ("import vllm.triton_utils as tu", "@tu.triton.jit", "tu.tl"),
        ("from vllm import triton_utils", "@triton_utils.triton.jit", "triton_utils.tl"),
        # a module's attribute called `tl` bound to a name, and one called `triton` decorating
        ("from mypkg import triton_utils as tu\ntl = tu.tl", "@tu.triton.jit", "tl"),
        ("import mypkg.triton_utils as tu\nfrom mypkg.triton_utils import triton\ntl = tu.tl", "@triton.jit", "tl"),
        ("from triton import jit as tjit\nfrom triton import language as L", "@tjit", "L"),
        ("import triton as T\nimport triton.language as tl", "@T.jit(do_not_specialize=[0])", "tl"),
        ("import triton\ntl = triton.language", "@triton.jit", "tl"),
        ("import triton\nfrom triton import language\nL = language", "@triton.jit", "L"),
        (
            "try:\n    import triton\n    tl = triton.language\nexcept ImportError:\n    triton = tl = None",
            "@triton.jit",
            "tl",
        ),
        ("import triton\nif True:\n    T = triton\n    tl = T.language", "@T.jit", "tl"),
    ],
)
def test_triton_names_from_anywhere(imports: str, decorator: str, tl: str) -> None:
    source = f"{imports}\n\n{decorator}" + BODY.format(name="k", tl=tl)
    assert kernels_in(source) == ["k"]
    assert ImportMap(cst.parse_module(source)).resolve_dotted(f"{tl}.program_id") == "triton.language.program_id"
    assert asc002_rows(source) == [source.count("\n")]  # `B.to(...)`: the kernel's facts resolved


@pytest.mark.parametrize(
    "assigned",
    [
        "tl = triton.language\ntl = None",  # rebound in straight-line code
        "if X:\n    tl = triton.language\nelse:\n    tl = object()",
        "tl = triton.language\nfor tl in []:\n    pass",
        "tl = triton.language if X else None",  # no dotted name
        "def f():\n    tl = triton.language",  # a function's own name
        "tl, other = triton.language, 1",
    ],
)
def test_a_name_assigned_a_triton_name_is_one_only_when_bound_once(assigned: str) -> None:
    module = cst.parse_module(f"import triton\n{assigned}\n")
    assert ImportMap(module).resolve_dotted("tl.load") is None


def test_a_module_level_name_bound_once_to_a_triton_dtype_is_that_dtype() -> None:
    module = cst.parse_module("import triton.language as tl\n_I32 = tl.int32\nI64: tl.constexpr = tl.int64\n")
    imports = ImportMap(module)
    assert [imports.language_name(cst.parse_expression(name)) for name in ("_I32", "I64")] == ["int32", "int64"]


def test_re_exported_names_are_decided_by_usage() -> None:
    source = """
from mypkg.compat import language_shim as L, triton_shim as T
from mypkg.other import helper

@T.autotune(configs=[T.Config({"BT": 32})], key=["B"])
@T.jit
def k(x, B, BT: L.constexpr):
    pid = L.program_id(0)
    helper(x)
"""
    module = cst.parse_module(textwrap.dedent(source))
    imports = ImportMap(module)
    assert imports.resolve_dotted("T.jit") == "triton.jit"
    assert imports.resolve_dotted("L.program_id") == "triton.language.program_id"
    assert imports.resolve_dotted("helper") is None
    (kernel,) = find_kernels(module, imports)
    assert kernel.provided_constexprs == {"BT": None}


@pytest.mark.parametrize(
    "source",
    [
        "import torch\n\n@torch.jit.script\ndef f(x):\n    return x.program_id\n",
        "import numba\n\n@numba.jit\ndef f(x):\n    return x + 1\n",
        "from mypkg import tools\n\n@tools.jit\ndef f(x):\n    return x + 1\n",
    ],
)
def test_other_jits_are_not_kernels(source: str) -> None:
    assert kernels_in(source) == []


def test_any_jit_decorator_over_a_triton_body_is_a_kernel() -> None:
    source = """
import triton.language as tl
from mypkg import compiler

@compiler.jit
def k(x, B, BT: tl.constexpr):
    tl.store(x, B.to(tl.int64))

@compiler.heuristics({"BT": lambda args: 16})
@compiler.jit
def k2(x, BT):
    tl.store(x, BT.to(tl.int64))
"""
    module = cst.parse_module(textwrap.dedent(source))
    kernels = find_kernels(module, ImportMap(module))
    assert [k.name for k in kernels] == ["k", "k2"]
    assert list(kernels[1].provided_constexprs) == ["BT"]  # `compiler` is Triton once it jits a kernel


def test_triton_modules_setting_for_names_no_heuristic_sees() -> None:
    source = """
from mypkg.tt import jit, lang

@jit
def k(x, B):
    lang.store(x, B.to(lang.int64))
"""
    assert kernels_in(source) == []
    assert kernels_in(source, ("mypkg.tt",)) == ["k"]
    assert asc002_rows(source, triton_modules=["mypkg.tt"]) == [6]
    assert asc002_rows(source) == []


WHEREVER = """
import triton
import triton.language as tl

if ARCH == "910B":
    @triton.jit
    def in_if(x, B):
        tl.store(x, B.to(tl.int64))
elif ARCH == "910C":
    @triton.jit
    def in_elif(x, B):
        tl.store(x, B.to(tl.int64))
else:
    @triton.jit
    def in_else(x, B):
        tl.store(x, B.to(tl.int64))

try:
    @triton.jit
    def in_try(x, B):
        tl.store(x, B.to(tl.int64))
except ImportError:
    @triton.jit
    def in_except(x, B):
        tl.store(x, B.to(tl.int64))
else:
    @triton.jit
    def in_try_else(x, B):
        tl.store(x, B.to(tl.int64))
finally:
    @triton.jit
    def in_finally(x, B):
        tl.store(x, B.to(tl.int64))

with contextlib.suppress(Exception):
    @triton.jit
    def in_with(x, B):
        tl.store(x, B.to(tl.int64))

class Ops:
    @staticmethod
    @triton.jit
    def in_class(x, B):
        tl.store(x, B.to(tl.int64))

def make_kernel(scale):
    import triton.language as tl2

    @triton.jit
    def in_factory(x, B):
        tl2.store(x, B.to(tl2.int64))

    def inner():
        @triton.jit
        def in_nested(x, B):
            tl.store(x, B.to(tl.int64))
        return in_nested

    return in_factory
"""


def test_every_kernel_in_the_module_wherever_defined() -> None:
    names = kernels_in(WHEREVER)
    assert names == [
        "in_if",
        "in_elif",
        "in_else",
        "in_try",
        "in_except",
        "in_try_else",
        "in_finally",
        "in_with",
        "in_class",
        "in_factory",
        "in_nested",
    ]
    rows = asc002_rows(WHEREVER)
    assert len(rows) == len(names)  # every kernel is analysed, each `B.to(...)` reported once


def test_bytes_annotation_and_hex_do_not_specialize_and_bytes_heuristic_key() -> None:
    # issue 11: these crashed kernel discovery (TypeError, ValueError, SyntaxError)
    source = """import triton
import triton.language as tl

@triton.heuristics({b"\\xff": lambda args: args[b"\\xff"] is None, "H": lambda args: args[b"KEY"] is None})
@triton.jit(do_not_specialize=[0x0, 0b1, 0o7, 1_0])
def k(x: b"c", y, H):
    tl.store(x, y.to(tl.int64))
"""
    module = cst.parse_module(source)
    (kernel,) = find_kernels(module, ImportMap(module))
    assert kernel.params[0].annotation == 'b"c"'
    assert kernel.do_not_specialize == {"x", "y"}
    assert list(kernel.provided_constexprs) == ["H"]
    assert kernel.optional_pointer_flags == {}
    result = lint_source(source, "k.py", settings())
    assert result.error is None
    assert result.findings == []  # `y` is in do_not_specialize (index 0b1)
    # a non-ASCII bytes key: CPython refuses the file, libcst parses it; discovery must not fail
    non_ascii = source.replace('b"\\xff"', 'b"é"')
    module = cst.parse_module(non_ascii)
    (kernel,) = find_kernels(module, ImportMap(module))
    assert kernel.optional_pointer_flags == {}


def test_device_functions_take_their_arguments_from_the_caller() -> None:
    source = """
import triton
import triton.language as tl

@triton.jit
def exp(x):
    return tl.exp(x.to(tl.float32))

@triton.jit
def store_wide(p, x):
    tl.store(p, x.to(tl.int64))

@triton.jit
def k(p, B):
    b = exp(tl.load(p))
    store_wide(p, b)
    n = B.to(tl.int64)
"""
    module = cst.parse_module(textwrap.dedent(source))
    kernels = {k.name: k.is_device_function for k in find_kernels(module, ImportMap(module))}
    assert kernels == {"exp": True, "store_wide": True, "k": False}
    assert asc002_rows(source) == [17]  # only the launched kernel's `B.to(...)`


LAUNCHED_AND_CALLED = """
import triton
import triton.language as tl

@triton.jit
def copy_rows(x, y, T, D: tl.constexpr):
    base = tl.program_id(0) * T.to(tl.int64)
    tl.store(y + base + tl.arange(0, D), tl.load(x + base + tl.arange(0, D)))

@triton.jit
def fused(x, y, z, T: tl.int64, D: tl.constexpr):
    copy_rows(x, y, T, D)
    copy_rows(y, z, T, D)

def launch(kernel, x, y):
    kernel[(x.shape[0],)](x, y, x.shape[1], D=64)

def run(x, y, z):
    fused[(x.shape[0],)](x, y, z, x.shape[1], D=64)
"""


@pytest.mark.parametrize(
    "launch",
    ["copy_rows[(x.shape[0],)](x, y, x.shape[1], D=64)", "launch(copy_rows, x, y)"],
    ids=["subscript", "launcher"],
)
def test_a_kernel_launched_and_called_inline_is_a_kernel_and_stays_inlined(launch: str) -> None:
    """Launched by the host (directly or through a launcher helper): its ints are specialised at
    its launches, its configurations are no calls'; its callers still inline it."""
    source = f"{LAUNCHED_AND_CALLED}    {launch}\n"
    module = cst.parse_module(source)
    imports = ImportMap(module, source)
    kernels = find_kernels(module, imports)
    context = ModuleContext("k.py", source, module, imports, kernels)
    copy_rows, fused = kernels
    assert (copy_rows.is_device_function, copy_rows.is_launched) == (True, True)
    assert (fused.is_device_function, fused.is_launched) == (False, False)
    assert [copy_rows.param_flags(p) for p in copy_rows.params] == [SPEC, SPEC, SPEC, CONST]
    assert context.call_configurations(copy_rows) is None
    assert inline_device_functions(fused) is not None
    assert asc002_rows(source) == [7]
    assert asc002_rows(LAUNCHED_AND_CALLED) == []  # called only: `T` is the int64 `fused` passes


def test_a_kept_kernel_rereads_its_parameters_when_its_launch_comes_or_goes() -> None:
    """The editor server keeps an untouched kernel with its facts (KernelMemory); a launch
    added or removed in host code changes how its parameters read."""
    memory = DocumentMemory.empty()
    launched = f"{LAUNCHED_AND_CALLED}    copy_rows[(x.shape[0],)](x, y, x.shape[1], D=64)\n"
    rows = []
    for source in (LAUNCHED_AND_CALLED, launched, LAUNCHED_AND_CALLED):
        result = lint_source(source, "k.py", settings(), memory=memory)
        assert result.error is None, result.error
        rows.append([f.location.row for f in result.findings if f.code == "ASC002"])
    assert rows == [[], [7], []]


CALL_FORMS = """
import triton
import triton.language as tl
from triton import jit as tjit

_SIZES = ["T"]
_HEURISTICS = {"BT": lambda args: 16}


def _impl(x, B, T, BT):
    tl.store(x + tl.program_id(0), B.to(tl.int64) + T.to(tl.int64) + BT.to(tl.int64))


@triton.jit
def decorated(x, B, T, BT):
    tl.store(x + tl.program_id(0), B.to(tl.int64) + T.to(tl.int64) + BT.to(tl.int64))


plain = triton.jit(_impl)
sizes = triton.jit(do_not_specialize=_SIZES + ["B"])(_impl)
aliased = tjit(_impl, do_not_specialize=[1])
tuned = triton.heuristics(_HEURISTICS)(triton.autotune(configs=[triton.Config({"BT": 32})], key=["T"])(triton.jit(_impl)))
retuned = triton.autotune(configs=[triton.Config({"BT": 64})], key=["T"])(decorated)
rewrapped = triton.heuristics({"BT": lambda args: 8})(plain)
not_a_kernel = triton.autotune(configs=[], key=[])(_impl)
"""


def test_kernels_made_by_calls_are_bound_to_their_names() -> None:
    module = cst.parse_module(CALL_FORMS)
    kernels = {k.name: k for k in find_kernels(module, ImportMap(module))}
    assert list(kernels) == ["decorated", "plain", "sizes", "aliased", "tuned", "retuned", "rewrapped"]
    assert {kernels[name].node.name.value for name in kernels} == {"_impl", "decorated"}
    facts = {name: (sorted(k.do_not_specialize), sorted(k.provided_constexprs)) for name, k in kernels.items()}
    assert facts == {
        "decorated": ([], []),
        "plain": ([], []),
        "sizes": (["B", "T"], []),  # a module-level list plus one written out
        "aliased": (["B"], []),  # `jit` under another name, its keywords in the same call
        "tuned": ([], ["BT"]),  # a heuristics table named at module level
        "retuned": ([], ["BT"]),  # autotune around a decorated kernel
        "rewrapped": ([], ["BT"]),  # heuristics around an earlier call-form kernel
    }


def test_a_kernel_made_by_jit_imported_under_another_name() -> None:
    source = """
from triton import jit as compile_kernel
import triton.language as tl

def _impl(x):
    tl.store(x, 1)

_k = compile_kernel(_impl)
"""
    assert kernels_in(source) == ["_k"]


def test_a_call_form_kernel_is_analysed_with_the_facts_of_its_call() -> None:
    source = """
import triton
import triton.language as tl

def _impl(x, B, T):
    n = B.to(tl.int64)
    m = T.to(tl.int64)
    tl.store(x + tl.program_id(0), n + m)

_k = triton.jit(do_not_specialize=["B"])(_impl)
"""
    assert asc002_rows(source) == [7]  # `T.to(...)`; `B` is not specialised


@pytest.mark.parametrize(
    "wrapper",
    ["numba.jit(_impl)", "functools.lru_cache()(_impl)", "triton.jit(_impl)()", "triton.jit(*fns)", "triton.jit(g)"],
)
def test_calls_that_make_no_kernel(wrapper: str) -> None:
    source = f"""
import functools
import numba
import triton

def _impl(x, n):
    return x + n

_k = {wrapper}
"""
    assert kernels_in(source) == []


def test_host_code_launches_a_call_form_kernel_by_its_bound_name() -> None:
    source = """
import triton
import triton.language as tl

def _impl(x, n):
    tl.store(x + tl.program_id(0), n)

_rows = triton.jit(_impl)
_cols = triton.jit(do_not_specialize=["n"])(_impl)

def run(x, n, by_rows):
    _rows[(n,)](x, n)
    kernel = _rows if by_rows else _cols
    kernel[(n, 2)](x, n)
"""
    module = cst.parse_module(textwrap.dedent(source))
    kernels = find_kernels(module, ImportMap(module))
    host = HostIndex(module, kernels)
    grids = {
        kernel.name: [
            module.code_for_node(launch.call.func.slice[0].slice.value) for launch in host.launches_with_helpers(kernel)
        ]
        for kernel in kernels
    }
    assert grids == {"_rows": ["(n,)", "(n, 2)"], "_cols": ["(n, 2)"]}


def test_a_kernel_memory_keeps_each_binding_and_drops_a_changed_wrapper() -> None:
    source = """
import triton
import triton.language as tl

def _impl(x, n):
    tl.store(x + tl.program_id(0), n.to(tl.int64))

_rows = triton.jit(_impl)
_cols = triton.heuristics({"n": lambda args: 1})(_rows)
"""
    parser, memory = IncrementalParser(), KernelMemory()

    def kernels(text: str) -> dict[str, Kernel]:
        module = parser.parse(text)
        return {kernel.name: kernel for kernel in find_kernels(module, ImportMap(module, text), memory)}

    before = kernels(source)
    assert before["_rows"] is not before["_cols"]  # one function, two kernels
    after = kernels(source.replace('"n": lambda', '"m": lambda'))
    assert after["_rows"] is before["_rows"]
    assert after["_cols"] is not before["_cols"] and list(after["_cols"].provided_constexprs) == ["m"]


def kept_kernel_finder(folder: Path) -> Callable[[str], Kernel]:
    """The one kernel of a module's text, found as the editor server finds it (an incremental
    parse, a `KernelMemory`), the module living in `folder`."""
    parser, memory = IncrementalParser(), KernelMemory()

    def kernel(text: str) -> Kernel:
        module = parser.parse(text)
        imports = ImportMap(module, text)
        [found] = find_kernels(module, imports, memory, ImportedFunctions(folder, imports))
        return found

    return kernel


LOADS = (
    "import triton\nimport triton.language as tl\n\n@triton.jit\ndef fetch(base, i):\n    return tl.load(base + i)\n"
)


def test_a_kernel_memory_keeps_a_kernel_only_while_the_modules_it_imports_from_are_unchanged(tmp_path) -> None:
    """A kernel's pointers come through the device functions it calls, also those another
    module of the package defines (`ImportedFunctions`): a kept kernel would keep stale ones."""
    helper = tmp_path / "helpers.py"
    helper.write_text(LOADS, encoding="utf-8")
    source = """
import triton
import triton.language as tl
from .helpers import fetch

@triton.jit
def k(x, y, n):
    tl.store(y, fetch(x, n))
"""
    kernel = kept_kernel_finder(tmp_path)

    before = kernel(source)
    assert before.pointer_params == {"x", "y"}
    assert kernel(source) is before  # nothing changed: the kernel and its facts are kept
    helper.write_text(LOADS.replace("tl.load(base + i)", "base + i"), encoding="utf-8")
    after = kernel(source)
    assert after is not before and after.pointer_params == {"y"}


@pytest.mark.parametrize(
    ("imported", "call", "other"),
    [
        # `h.fetch(...)` runs the function of the module `h` names
        ("import pkg.loads as h", "h.fetch(x, n)", "import pkg.sums as h"),
        # `fetch(...)` after `from .loads import *` runs `loads.py`'s function
        ("from .loads import *", "fetch(x, n)", "from .sums import *"),
    ],
)
def test_a_kernel_memory_keeps_a_kernel_only_while_the_modules_it_imports_stay_the_same(
    tmp_path, imported: str, call: str, other: str
) -> None:
    """Another import of another module (its text unchanged) is another function, whose facts
    a kept kernel would not have."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "loads.py").write_text(LOADS, encoding="utf-8")
    (package / "sums.py").write_text(LOADS.replace("tl.load(base + i)", "base + i"), encoding="utf-8")
    source = f"""
import triton
import triton.language as tl
{imported}

@triton.jit
def k(x, y, n):
    tl.store(y, {call})
"""
    kernel = kept_kernel_finder(package)

    before = kernel(source)
    assert before.pointer_params == {"x", "y"}
    assert kernel(source) is before
    after = kernel(source.replace(imported, other))
    assert after is not before and after.pointer_params == {"y"}
