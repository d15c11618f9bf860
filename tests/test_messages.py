"""Messages quote the code they name on one line, whatever its line breaks and comments (a
message is one line in every output format: text, GitHub annotations, reviewdog), and give
sizes in the unit the code means."""

from __future__ import annotations

import libcst as cst
import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.nodes import one_line


@pytest.mark.parametrize(
    ("code", "quoted"),
    [
        ("(\n    cdiv(n, BLOCK),\n    H,\n)", "(cdiv(n, BLOCK), H,)"),
        ("(FLAG or  # the tail\n    i * BT < W)", "(FLAG or i * BT < W)"),
        ('("#" +  # a comment after a string holding "#"\n    s)', '("#" + s)'),
        ("(a + \\\n    b)", "(a + b)"),
        ("f(a,\n  # a line holding only a comment\n  b)", "f(a, b)"),
        ("(x,\n)", "(x,)"),
        ("a  +\tb", "a + b"),
        ('f("a  b",  c)', 'f("a  b",  c)'),  # whitespace in a string is its value
    ],
)
def test_one_line_joins_lines_and_drops_comments(code: str, quoted: str) -> None:
    assert one_line(cst.parse_expression(code)) == quoted


GRID_ON_LINES = """\
import triton
import triton.language as tl


@triton.jit
def k(x, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), 0.0)


def run(x):
    batch, dim = x.shape
    k[(
        triton.cdiv(batch, 16),  # rows
        triton.cdiv(dim, 64),
    )](x, BLOCK=64)
"""

OR_TEST_ON_LINES = """\
import triton
import triton.language as tl


@triton.jit
def k(x, h0, W, BT: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if (USE_H0 or  # also inside the window
            i_t * BT < W):
        x += tl.load(h0 + tl.arange(0, BT))
    if USE_H0:
        tl.store(h0 + tl.arange(0, BT), 0.0)
"""


AND_TEST_ON_LINES = """\
import triton
import triton.language as tl


@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, IS_VARLEN: tl.constexpr, USE_G: tl.constexpr):
    i_b = tl.program_id(0)
    if (
        IS_VARLEN  # packed sequences
        and USE_G
    ):
        bos = tl.load(cu_seqlens + i_b)
    else:
        bos = i_b * T
    tl.store(x + bos.to(tl.int64) + tl.arange(0, D), 0.0)
"""


@pytest.mark.parametrize(
    ("code", "source", "quoted"),
    [
        ("ASC010", GRID_ON_LINES, "`(triton.cdiv(batch, 16), triton.cdiv(dim, 64),)`"),
        ("ASC004", OR_TEST_ON_LINES, "`if USE_H0 or i_t * BT < W`"),
        ("ASC002", AND_TEST_ON_LINES, "(when `IS_VARLEN and USE_G` is false)"),
    ],
)
def test_a_finding_quotes_code_written_over_lines_on_one_line(code: str, source: str, quoted: str) -> None:
    (finding,) = lint_source(source, "k.py", settings(select=[code])).findings
    assert "\n" not in finding.message
    assert quoted in finding.message


GRID_WITHOUT_PARENTHESES = """\
import triton
import triton.language as tl


@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), 0.0)


def run(x, props):
    M, H, D = x.shape
    k[{grid}](x, D, BLOCK=16)
"""


@pytest.mark.parametrize(
    ("code", "grid", "quoted"),
    [
        ("ASC009", 'props["num_aicore"], 1', '`(props["num_aicore"], 1)`'),
        ("ASC009", 'props["num_aicore"], ', '`(props["num_aicore"],)`'),
        ("ASC010", "M * H, 1", "`(M * H, 1)`"),
        ("ASC010", "M * H,", "`(M * H,)`"),
    ],
)
def test_a_grid_written_without_parentheses_is_quoted_as_its_tuple(code: str, grid: str, quoted: str) -> None:
    """`k[a, b](...)` launches on the tuple `(a, b)`: the message quotes it, not the subscript."""
    (finding,) = lint_source(GRID_WITHOUT_PARENTHESES.format(grid=grid), "k.py", settings(select=[code])).findings
    assert quoted in finding.message
    assert "`k[" not in finding.message


KERNEL_HEAD = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"

# each source written with CRLF line ends, tab indents and a comment inside the quoted code
QUOTED_OVER_LINES = [
    (
        "ASC002",
        "def k(x, BLOCK: tl.constexpr):\n\ttl.store(x + (BLOCK  # the block\n\t\t* 2).to(tl.int64), 1.0)\n",
        "`tl.cast(BLOCK * 2, ...)`",
    ),
    (
        "ASC004",
        "def k(x, h0, W, BT: tl.constexpr, USE_H0: tl.constexpr):\n\ti_t = tl.program_id(0)\n"
        "\tif (USE_H0  # the flag\n\t\t\tand i_t * BT < W):\n\t\tx += tl.load(h0 + i_t)\n"
        "\tif USE_H0:\n\t\ttl.store(h0 + i_t, 0.0)\n",
        "`if USE_H0 and i_t * BT < W`",
    ),
    (
        "ASC007",
        "def k(x, y, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):\n"
        "\ti_t, i_n = tl.program_id(0), tl.program_id(1)\n\tbos = tl.load(cu_seqlens + i_n).to(tl.int64)\n"
        "\tp_x = tl.make_block_ptr(x, (T, D), (D, 1),\n\t\t(bos  # start of the sequence\n\t\t + i_t * BT, 0),\n"
        "\t\t(BT, D), (1, 0))\n\ttl.store(y + tl.arange(0, BT), tl.load(p_x, boundary_check=(0, 1)))\n",
        "`bos + i_t * BT` is int64",
    ),
    (
        "ASC008",
        "def k(q, cu_seqlens, H: tl.constexpr, K: tl.constexpr):\n"
        "\ti_n, i_h = tl.program_id(0), tl.program_id(1)\n\tbos = tl.load(cu_seqlens + i_n).to(tl.int32)\n"
        "\ttl.store(q + (bos  # first row\n\t\t* H + i_h) * K, tl.zeros([K], dtype=tl.float32))\n",
        "`(bos * H + i_h) * K` multiplies",
    ),
    (
        "ASC011",
        "def k(g, o, T, HV: tl.constexpr):\n\ti_n, i_hv = tl.program_id(0), tl.program_id(1)\n\tacc = 0.0\n"
        "\tfor i_t in range(0, T):\n\t\tacc += tl.load(g + (i_n * T + i_t)  # row\n\t\t\t* HV + i_hv)\n"
        "\ttl.store(o + i_n, acc)\n",
        "`g + (i_n * T + i_t) * HV + i_hv` advances",
    ),
    ("ASC012", "def k(x):\n\tpass\n\n\nUB_SIZE = (192  # KiB\n\t* 1024)\n", "`UB_SIZE = (192 * 1024)`"),
    ("ASC012", "def k(x):\n\tpass\n\n\ndef f():\n\tub = 3\n\tub <<= (16  # KiB\n\t\t)\n", "`ub <<= (16)`"),
]


@pytest.mark.parametrize(("code", "kernel", "quoted"), QUOTED_OVER_LINES)
def test_a_finding_quotes_code_written_over_crlf_lines_with_tabs_and_comments_on_one_line(
    code: str, kernel: str, quoted: str
) -> None:
    source = (KERNEL_HEAD + kernel).replace("\n", "\r\n")
    (finding,) = lint_source(source, "k.py", settings(select=[code])).findings
    texts = [finding.message, finding.no_fix_reason or "", *(related.message for related in finding.related)]
    assert quoted in finding.message
    assert not any(c in text for text in texts for c in "\r\n\t#"), texts


@pytest.mark.parametrize(
    ("line", "size"),
    [
        ("UNIFIED_BUFFER_SIZE = 1572864", "(192 KiB)"),  # the compiler's figure, in bits
        ("UB_SIZE = 2031616", "(248 KiB)"),
        ("UB_SIZE_BYTES = 1572864", "(1536 KiB)"),  # the name says bytes
        ("UB_SIZE = 196608", "(192 KiB)"),
        ("UB_SIZE = 3145728", "(3072 KiB)"),  # no SoC's capacity in bits: bytes
        ("UB_ELEMS_FP16 = 98304", "(192 KiB)"),  # elements of the dtype the name gives
        ("ub_max_elements_bf16 = 98304", "(192 KiB)"),
        ("UB_NUMEL_FP32 = 49152", "(192 KiB)"),
        ("UB_ELEMS = 196608 // 4", "(192 KiB)"),  # bytes into elements of a size the name does not give
        ("UB_NUMEL = 49152", "(49152 elements)"),  # elements of no size the name gives
        ("UB_ELEMS_DOUBLE_BUFFER = 49152", "(49152 elements)"),  # a double buffer, not float64
        ("UB_ELEMS_FP32 = 196608 // torch.float32.itemsize", "(192 KiB)"),  # what is divided into units is bytes
    ],
)
def test_hard_coded_ub_reads_a_capacity_in_its_unit(line: str, size: str) -> None:
    [finding] = lint_source(line + "\n", "k.py", settings(select=["ASC012"])).findings
    assert size in finding.message


CAPPED_AXES = """\
import triton
import triton.language as tl


@triton.jit
def k(x, n, ROWS: tl.constexpr):
    tl.store(x + tl.program_id(0), 0.0)


def run(x):
    M, H, D = x.shape
    k[({axis},)](x, D, ROWS=1)
"""


@pytest.mark.parametrize(
    ("axis", "grows"),
    [
        ("min(M, 65535) * H", "grows as min(M, 65535) * H > 65535"),  # the cap's other factors too
        ("min(M, 65535), H", "grows as min(M, 65535) * H > 65535"),
        ("M if M < 65535 else 65535, 4", "grows as (M if M < 65535 else 65535) * 4 > 65535"),
    ],
)
def test_a_grid_capped_at_the_limit_names_every_factor(axis: str, grows: str) -> None:
    [finding] = lint_source(CAPPED_AXES.format(axis=axis), "k.py", settings(select=["ASC010"])).findings
    assert grows in finding.message


@pytest.mark.parametrize("receiver", ["(i + BLOCK)", "((i + BLOCK))", "i + BLOCK"])
def test_a_cast_receiver_is_quoted_without_its_own_parentheses(receiver: str) -> None:
    """The advice is code to paste: `tl.cast(i + BLOCK, ...)`, not `tl.cast((i + BLOCK), ...)`.
    (A product, `i * BLOCK`, is a multiply that wraps in int32 whenever `i` is not 1: its advice
    is to cast the operand first, never the whole product.)"""
    source = (
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x, i, BLOCK: tl.constexpr):\n"
        f"    tl.store(x + ({receiver}).to(tl.int64), 1.0)\n"
    )
    [finding] = lint_source(source, "k.py", settings(select=["ASC002"])).findings
    assert "`tl.cast(i + BLOCK, ...)`" in finding.message and "`i + BLOCK` can be" in finding.message
    [product] = lint_source(source.replace("+ BLOCK", "* BLOCK"), "k.py", settings(select=["ASC002"])).findings
    assert (
        product.message.startswith("cast after multiply wraps in int32") and "tl.cast(i * BLOCK" not in product.message
    )


@pytest.mark.parametrize(
    ("source", "stated"),
    [
        ('_SOC_UB = {"Ascend910B": 196608}\n', '`_SOC_UB["Ascend910B"] = 196608` (192 KiB)'),
        ("def get_ub_size():\n    return 192 * 1024\n", "`get_ub_size()` returns `192 * 1024` (192 KiB)"),
        ("def max_ub_elems_fp32():\n    return 196608 // 4\n", "`max_ub_elems_fp32()` returns `196608 // 4` (192 KiB)"),
        ('UB_BITS = int(os.getenv("X", "1572864"))\n', '`UB_BITS = int(os.getenv("X", "1572864"))` (192 KiB)'),
        ('UB = int(os.getenv("X") or 196608)\n', '`UB = int(os.getenv("X") or 196608)` (192 KiB)'),
        ("_SOC_UB = dict(ascend910b=196608)\n", '`_SOC_UB["ascend910b"] = 196608` (192 KiB)'),
        ("def f():\n    ub = 192\n    ub *= 1024\n", "`ub *= 1024` after `ub = 192` (192 KiB)"),
        ("def f():\n    ub = 3\n    ub <<= 16\n", "`ub <<= 16` after `ub = 3` (192 KiB)"),
        ('UB = int(os.getenv("X", "0")) or 196608\n', '`UB = int(os.getenv("X", "0")) or 196608` (192 KiB)'),
        (
            "UB_SIZE_MINUS_RESERVED = 192 * 1024 - 16 * 1024\n",
            "`UB_SIZE_MINUS_RESERVED = 192 * 1024 - 16 * 1024` (176 KiB)",
        ),
        ("UB_BYTES_PER_AI_CORE = 196608\n", "`UB_BYTES_PER_AI_CORE = 196608` (192 KiB)"),
    ],
)
def test_hard_coded_ub_names_the_table_key_or_the_function(source: str, stated: str) -> None:
    [finding] = lint_source(source, "k.py", settings(select=["ASC012"])).findings
    assert f"hard-coded UB capacity: {stated} sizes tiles" in finding.message


OFFSET_READ_AS = """\
import triton
import triton.language as tl


@triton.jit
def k(q, cu_seqlens, H: tl.constexpr, K: tl.constexpr, BT: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    eos = tl.load(cu_seqlens + i_n + 1).to(tl.int32)
    t0 = bos + i_t * BT
    for t in range(bos, eos):
        tl.store(q + {offset}, tl.zeros([K], dtype=tl.float32))
"""


@pytest.mark.parametrize(
    ("offset", "said"),
    [
        ("(bos * H + i_h) * K", "`bos` is loaded from `cu_seqlens` as int32, so"),
        # a loop index and a sum are made from the loaded value, not loaded themselves
        ("(t * H + i_h) * K", "`t` counts from `bos`, loaded from `cu_seqlens` as int32, so"),
        ("(t0 * H + i_h) * K", "`t0` holds `bos`, loaded from `cu_seqlens` as int32, so"),
        ("(bos + t) * K", "`bos` is loaded from `cu_seqlens` as int32, and `t` counts from `bos`, so"),
    ],
)
def test_an_int32_offset_is_said_to_be_loaded_only_where_it_is(offset: str, said: str) -> None:
    [finding] = lint_source(OFFSET_READ_AS.format(offset=offset), "k.py", settings(select=["ASC008"])).findings
    assert f"int32 sequence offset times a stride: {said}" in finding.message
