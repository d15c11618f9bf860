"""Whether a file's text says it runs on Ascend, read before any parse: a default-targeting
signal whatever the path says (`config.Settings.skip_reason`).

- an import of an Ascend module: `import torch_npu`, `import os, torch_npu as tnpu`,
  `from triton.backends.ascend import ...`, the Ascend Triton extension under its names
  `triton.language.extra.cann` and (triton-ascend 3.2) `triton.language.extra.ascend`;
- an import at module level, run whenever the module is (no `if is_npu():` or function
  around it), of any module a part of whose dotted name says Ascend (`ascend_name`: `from
  vllm_ascend.ops.triton.triton_utils import insert_slice`): the module loads only where that
  package does. Under a test or in a function it may be another platform's branch;
- a compile option only triton-ascend's `NPUOptions` takes (CUDA's and HIP's take none of
  them), as a keyword of a call (`k[grid](..., multibuffer=False)`, `triton.Config({...},
  sync_solver=True)`) or a key of `triton.Config`'s dict (`triton.Config({"multibuffer": True})`);
- a call of triton-ascend's driver core counts: `driver.active.utils.get_aivector_core_num()`,
  or of its device properties for the device named `"npu"` (`get_device_properties("npu")`:
  the CUDA and HIP drivers take a device index);
- a keyword only triton-ascend's language takes (`tl.load(..., care_padding=False)`), or the
  Ascend extension reached as an attribute (`tl.extra.cann.extension.compile_hint(...)`,
  outside a comment);
- a call, outside a comment or a string (a docstring naming `tl.parallel(...)` calls nothing:
  the tokenizer confirms a call the pattern finds), of a function only triton-ascend's `triton.language` has
  (`tl.get_element(...)`, `tl.insert_slice(...)`: `ASCEND_LANGUAGE_FUNCTIONS`) on a name the text
  binds to `triton.language`, as `imports.ImportMap` reads it after the parse: `triton.language`,
  `import triton.language as tl`, `from triton import language as L`, a name `tl` imported from any
  module (a re-export: `from vllm.triton_utils import tl`), `tl = triton.language`.

Each pattern runs only on a text holding one of its rarer words (a `str` search, tens of
times faster than a pattern tried at every `(`, `,` or line start).
"""

from __future__ import annotations

import io
import re
import tokenize

_MODULE = r"(?:torch_npu|triton\.backends\.ascend|triton\.language\.extra\.(?:cann|ascend))\b"
_LISTED = r"(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*"  # modules an `import` lists before: `import os, `
ASCEND_IMPORTS = re.compile(
    rf"^[ \t]*(?:from[ \t]+{_MODULE}|import[ \t]+{_LISTED}{_MODULE}"
    rf"|from[ \t]+triton\.language\.extra[ \t]+import[ \t(]+{_LISTED}(?:cann|ascend)\b)",
    re.MULTILINE,
)
_IMPORT_WORDS = ("torch_npu", "ascend", "language.extra")  # one of which each import above holds
# a module-level import statement's modules: `from a.b import`, `import a.b as c, d`
_MODULE_LEVEL_IMPORT = re.compile(
    r"^(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?"
    r"(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*))",
    re.MULTILINE,
)

# `NPUOptions` fields (triton-ascend 3.2 to 3.5) no other backend has, as words no other code uses
ASCEND_OPTIONS = (
    "multibuffer",
    "set_workspace_multibuffer",
    "limit_auto_multi_buffer_only_for_local_buffer",
    "limit_auto_multi_buffer_of_local_buffer",
    "enable_auto_bind_sub_block",
    "enable_hivm_auto_cv_balance",
    "enable_mixed_cv",
    "disable_auto_cv_work_space_manage",
    "sync_solver",
    "inject_barrier_all",
    "inject_block_all",
    "disable_auto_inject_block_sync",
    "tile_mix_vector_loop",
    "tile_mix_cube_loop",
    "enable_ubuf_saving",
    "auto_blockify_size",
    "force_simt_only",
    "force_simt_template",
    "simt_stack_limit",
    "enable_simt_reorder_instruction",
    "enable_bishengir_simt_optimization",
)
# words one of which each option holds, found first (`str.find` is about ten times faster than
# the pattern): rare in other code, else each occurrence costs a pattern search around it
OPTION_WORDS = ("multibuffer", "auto_", "mixed_cv", "sync_solver", "inject_b", "tile_mix_", "ubuf_saving", "simt_")
# keywords of `triton.language` functions only triton-ascend's take (`tl.load(..., care_padding=False)`)
ASCEND_LANGUAGE_KEYWORDS = ("care_padding",)
KEYWORD_WORDS = (*OPTION_WORDS, *ASCEND_LANGUAGE_KEYWORDS)
_NAMES = "|".join((*ASCEND_OPTIONS, *ASCEND_LANGUAGE_KEYWORDS))
# functions triton-ascend 3.2 adds to `triton.language` (`testing.py` sets them on it) that upstream's
# lacks (3.3.1 to 3.8.0), called in kernels; not its `tanh` and `index_select`, which kernels
# written for upstream call by mistake (most of the code index's `tl.tanh(` are generated kernels)
ASCEND_LANGUAGE_FUNCTIONS = (
    "get_element",
    "insert_slice",
    "extract_slice",
    "compile_hint",
    "parallel",
    "multibuffer",
    "sync_block_all",
    "sync_block_set",
    "sync_block_wait",
)
# `.get_element(` ... (one pattern over the whole text: here faster than searching its words first,
# 0.35 s against 0.68 s over sglang's and fla's 5,119 files), and the name it is called on, from
# its line's start when no comment opens before it
_FUNCTIONS = frozenset(ASCEND_LANGUAGE_FUNCTIONS)
_NO_CODE = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT})
_LANGUAGE_CALL = re.compile(rf"\.(?:{'|'.join(ASCEND_LANGUAGE_FUNCTIONS)})\(")
_CALLED_ON = re.compile(r"^[^#\r\n]*?(?<![\w.])([A-Za-z_][\w.]*)$", re.MULTILINE)
# the statements binding a name to `triton.language`: `import triton.language as tl`, `from M
# import (names)` (`language` of `triton`, `tl` of any module), `tl = triton.language`
_LANGUAGE_BINDING = re.compile(
    r"^[ \t]*(?:import[ \t]+triton\.language[ \t]+as[ \t]+(\w+)"
    r"|from[ \t]+([\w.]+)[ \t]+import[ \t]*(\([^)]*\)|[^\r\n]*)"
    r"|(\w+)[ \t]*=[ \t]*triton\.language[ \t]*(?:#|$))",
    re.MULTILINE,
)
# between a call's `(` or `,` and a keyword: spaces, line breaks, comments (each to its line's
# end, as in `prefilter.LAUNCH_TEXT`) and backslashes
_GAP = r"(?:\s|\\|#[^\r\n]*(?![^\r\n]))*"
_ASCEND_OPTION = re.compile(
    rf"[(,]{_GAP}(?:{_NAMES})\s*=(?!=)|Config\((?:\s*kwargs\s*=)?\s*\{{[^{{}}]*?[\"'](?:{_NAMES})[\"']\s*:"
)
_AROUND = 500  # characters read around an option's word: back to the call's `(` or the `Config({`
# the `NPUUtils` methods of triton-ascend's driver answering a core count
_DRIVER_CORE_COUNT = re.compile(r"\.get_ai(?:core|vector_core|cube_core)_num\s*\(")
_NPU_PROPERTIES = re.compile(r"get_device_properties\(\s*[\"']npu[\"']\s*\)")
# the extension as an attribute (`tl.extra.cann.extension`), on a line no comment starts before it
_EXTENSION_ATTRIBUTE = re.compile(r"^[^#\r\n]*\bextra\.(?:cann|ascend)\.\w", re.MULTILINE)


def ascend_name(name: str) -> bool:
    """A folder or module name that says Ascend: a word of it has `ascend` in it, or starts
    or ends with `npu` (`vllm_ascend`, `_ascend`, `fla_npu`, `torch_npu`; not `input`)."""
    words = re.split(r"[^a-z0-9]+", name.lower().removesuffix(".py"))
    return any("ascend" in word or word.startswith("npu") or word.endswith("npu") for word in words)


def _imports_ascend_package(text: str) -> bool:
    """A module-level import of a module a part of whose dotted name says Ascend."""
    if "npu" not in text and "ascend" not in text:
        return False
    for match in _MODULE_LEVEL_IMPORT.finditer(text):
        modules = [match[1]] if match[1] else [each.split()[0] for each in match[2].split(",")]
        if any(ascend_name(part) for module in modules for part in module.split(".") if part):
            return True
    return False


def says_ascend(text: str) -> bool:
    """The text imports an Ascend module, passes a launch or autotune option (or a language
    keyword) only triton-ascend takes, calls its driver's core counts or NPU properties, or
    reads the Ascend extension as an attribute."""
    return (
        (any(word in text for word in _IMPORT_WORDS) and ASCEND_IMPORTS.search(text) is not None)
        or _imports_ascend_package(text)
        or _passes_ascend_option(text)
        or ("get_ai" in text and _DRIVER_CORE_COUNT.search(text) is not None)
        or ("npu" in text and _NPU_PROPERTIES.search(text) is not None)
        or (("extra.cann" in text or "extra.ascend" in text) and _EXTENSION_ATTRIBUTE.search(text) is not None)
        or _calls_ascend_language(text)
    )


def _calls_ascend_language(text: str) -> bool:
    """A call of an `ASCEND_LANGUAGE_FUNCTIONS` function outside a comment, on `triton.language`
    or a name the text binds to it (read only once such a call is found), and not in a string
    either: once the pattern finds one, CPython's tokenizer confirms it (a docstring saying
    `tl.parallel(0, 2)` calls nothing)."""
    bound: set[str] | None = None
    for call in _LANGUAGE_CALL.finditer(text):
        line_start = text.rfind("\n", 0, call.start()) + 1
        called_on = _CALLED_ON.search(text, line_start, call.start())
        if called_on is None:
            continue
        bound = _language_names(text) if bound is None else bound
        if called_on[1] in bound:
            called = _language_calls(text)
            return called is None or not called.isdisjoint(bound)
    return False


def _language_calls(text: str) -> set[str] | None:
    """The names (dotted: `triton.language`) the code of `text` calls an `ASCEND_LANGUAGE_FUNCTIONS`
    function on, as the tokenizer reads it (no string nor comment); None when it stops on an
    error (a text CPython does not compile)."""
    called: set[str] = set()
    code: list[tokenize.TokenInfo] = []  # the tokens but line breaks, indents and comments
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in _NO_CODE:
                continue
            if token.string == "(" and len(code) > 2 and code[-1].string in _FUNCTIONS and code[-2].string == ".":
                at = len(code) - 3
                while at >= 2 and code[at - 1].string == "." and code[at - 2].type == tokenize.NAME:
                    at -= 2
                called.add("".join(each.string for each in code[at:-2]))
            code.append(token)
    except (tokenize.TokenError, SyntaxError):
        return None
    return called


def _language_names(text: str) -> set[str]:
    """The names the text binds to `triton.language` (`_LANGUAGE_BINDING`), and `triton.language`."""
    names = {"triton.language"}
    for match in _LANGUAGE_BINDING.finditer(text):
        alias, module, imported, assigned = match.groups()
        if alias or assigned:
            names.add(alias or assigned)
            continue
        for entry in re.sub(r"#[^\r\n]*", "", imported).strip("()").split(","):
            name, _, local = entry.strip().partition(" as ")
            if name.strip() == "tl" or (module == "triton" and name.strip() == "language"):
                names.add(local.strip() or name.strip())
    return names


def _passes_ascend_option(text: str) -> bool:
    """An option of `ASCEND_OPTIONS` (or a keyword of `ASCEND_LANGUAGE_KEYWORDS`) is a call's
    keyword or a `triton.Config` dict's key: the pattern reads only around each of their words
    (tried over a whole file, at every `(` and `,`, it takes longer than every other targeting
    step)."""
    for word in KEYWORD_WORDS:
        found = text.find(word)
        while found >= 0:
            if _ASCEND_OPTION.search(text, max(0, found - _AROUND), found + _AROUND):
                return True
            found = text.find(word, found + len(word))
    return False
