"""Whether a file launches a kernel, or tunes its kernels with autotune configs, that another
module of its package defines, that module being Ascend code: a default-targeting signal
(`config.Settings.skip_reason`) for a launcher whose own text, path and NPU launches say nothing
of Ascend. MindSpeed-MM's `fsdp/ops/hc/sinkhorn.py` launches the kernels of
`hc/triton/sinkhorn.py` (which imports `triton.language.extra.cann`); `gdn/triton/merge_scan.py`
tunes its kernel with the configs `gdn/triton/utils.py` (`torch_npu`, `multibuffer` configs) makes.

What counts, resolved as the rules resolve it (`kernels.ImportedFunctions`, one hop, re-exports
followed to the defining module): a launch of a kernel another module defines (`HostIndex.
imported_kernel_launches`: `k[grid](...)` after `from .kernels import k`, `kernels.k[grid]`,
through a launcher helper the kernel is passed to), not on a path of another platform only
(`HostIndex.on_other_platform`), whose defining module is Ascend code; or a name of another
module read by an argument of a kernel's `triton.autotune(...)` (`configs=configs()`,
`configs=pin(_local_configs())`), directly or in the body of a module-level function of the file
the argument calls (one level), that module being Ascend code. A mere import of an Ascend module,
or a launch argument from one, does not count: a package with backends for several vendors
imports modules that import torch_npu (platform helpers, layers with an NPU branch) beside CUDA
launchers, whose kernels are their own.

The imported module is Ascend code by its own signs only: its text says Ascend
(`ascend_text.says_ascend`), or its path and project do (`is_ascend_path`, from the settings),
never by this sign again (no loop) nor by its own NPU launches (`npu_paths`: a kernel of a module
shared with CUDA, whose NPU side launches it, is no Ascend-only kernel; another module may launch
it on CUDA).

Cheap for files that cannot launch or tune, and for those importing no Ascend module that may
give them a kernel or configs, all before libcst is loaded: first the text (the words `autotune`
and `jit`, or a `](`; and `_imports_package`: a relative import or the name of a package folder
around the file); then the modules of the package its import statements name, read from disk but
not parsed (`_imports_from_ascend`): one must be Ascend code by its text or path and define, as a
`jit` function, a name the file imports from it, or import one the file subscripts (a
re-export), or call `Config(...)` for a file tuning a kernel; then the text again: a subscript of
an imported name or of a function's parameter called (`_may_launch`). Only then is the file
parsed and its host code indexed. Each module file's text is read once per process while its
modification times, size and inode stay the same (`_text_facts`), the names an Ascend module
re-exports once per content (`_reexports`), and it is parsed only when a kernel is looked for in
it, once per content (`kernels.imported_module`); every file read goes to `read` (its content
hash), on which the file's targeting then depends (the cache's `imported_files`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from . import source as sources
from .ascend_text import ascend_name, says_ascend
from .package import content_hash, module_files, package_folders
from .prefilter import LAUNCH, LAUNCH_TEXT, Words, subscript_called

if TYPE_CHECKING:  # libcst and the analysis are loaded only for a file importing an Ascend module
    import libcst as cst

    from .imports import ImportMap
    from .kernels import ImportedFunctions, Kernel

# each opening with its literal, looked behind once it matched (a pattern opening with a lookbehind
# is tried at every offset)
_RELATIVE_IMPORT = re.compile(r"from(?<![\w.]from)[\s\\]+\.")
_AUTOTUNE = re.compile(r"autotune(?!\w)(?<!\wautotune)")
_WORD = re.compile(r"\w+")
# a function's parameter list (a superset of its words: up to the first `)`)
_PARAMETERS = re.compile(r"def(?<!\wdef)[ \t]+\w+[ \t]*\(([^)]*)\)")


def _imports_package(text: str, folder: Path) -> bool:
    """Whether the text may import a module of its package (a superset): a relative import, or
    the name of a folder of its package (`package.package_folders`: where an absolute import of
    a module of the package starts)."""
    if _RELATIVE_IMPORT.search(text) is not None:
        return True
    return any(
        found.name in text and re.search(rf"{re.escape(found.name)}(?!\w)(?<![\w.]{re.escape(found.name)})", text)
        for found in package_folders(folder)
    )


def _may_launch(text: str, words: Words) -> bool:
    """Whether the text may launch a kernel it imports: a subscript of an imported name called
    (`prefilter.LAUNCH`), or of a function's parameter (a launcher helper the kernel is passed
    to: `kernel[grid](...)` in `def _launch(kernel, ...)`); not `self.layers[i](x)`."""
    if words.has(LAUNCH):
        return True
    parameters = {word for found in _PARAMETERS.finditer(text) for word in _WORD.findall(found[1])}
    return subscript_called(text, parameters - {"self", "cls"})


def uses_ascend_module(
    text: str,
    file: Path,
    is_ascend_path: Callable[[Path], bool],
    triton_modules: Sequence[str] = (),
    read: dict[str, str | None] | None = None,
) -> bool:
    """The file launches a kernel, or tunes a kernel with configs, of a module of its package
    that is Ascend code (see the module's docstring); `is_ascend_path`: whether the path and
    project of a module make it Ascend code. False for a text libcst cannot parse or too deeply
    nested to analyse."""
    # a kernel of the file tuned (`jit` and `autotune`), a subscript called
    tunes = _AUTOTUNE.search(text) is not None and Words(text).has("jit")
    subscripts = LAUNCH_TEXT.search(text) is not None
    if not ((tunes or subscripts) and _imports_package(text, file.parent)):
        return False
    read = {} if read is None else read

    def is_ascend(path: Path) -> bool:
        known = _text_facts(path, read)
        return (known is not None and known.says_ascend) or is_ascend_path(path)

    # the modules first: a module of the package giving a kernel is rare outside Ascend code,
    # and the text's launches take longer to read
    if not _imports_from_ascend(text, file.parent, read, is_ascend_path, tunes, subscripts):
        return False
    launches = subscripts and _may_launch(text, Words(text))
    if not (tunes or launches):
        return False
    from .host import HostIndex
    from .imports import ImportMap
    from .kernels import ImportedFunctions, find_kernels

    try:
        module = sources.parse(text)
        imports = ImportMap(module, text, triton_modules)
        imported = ImportedFunctions(file.parent, imports, triton_modules, read, file)
        kernels = find_kernels(module, imports)
        if tunes and _tuned_from_ascend(module, kernels, imports, imported, is_ascend):
            return True
        if not launches:
            return False
        host = HostIndex(module, kernels, None, imported)
        for kernel, launched in host.imported_kernel_launches().items():
            where = imported.defined_in.get(kernel)
            if where is not None and is_ascend(where) and not all(host.on_other_platform(x.call) for x in launched):
                return True
        return False
    except (sources.SourceError, RecursionError):
        return False


def _imports_from_ascend(
    text: str,
    folder: Path,
    read: dict[str, str | None],
    is_ascend_path: Callable[[Path], bool],
    tunes: bool,
    launches: bool,
) -> bool:
    """Whether a module of the package the text imports is Ascend code (its text or path) and may
    give the file a kernel it launches or configs it tunes with (`_Text`): for a file holding
    `autotune`, a module calling `Config(...)`; for one holding a `](`, a name imported from a
    module that defines it as a kernel, or that imports it (a re-export: `_reexports`, from a
    module whose text or path names Ascend: `triton_ascend/__init__.py`) when the file subscripts
    the name (`k[`, `k.fn[`), or a module imported whole that defines a kernel (`kernels.k[grid]`;
    not one that only re-exports it)."""
    subscripted: set[str] | None = None  # the names the text subscripts, found on first use
    for path, names in _package_modules(text, folder):
        known = _text_facts(path, read)
        if known is None:
            continue
        # what the module may give, from its text, before its path is asked (the slower test)
        if tunes and known.configs:
            pass
        elif not launches or (names is None and not known.kernels):
            continue
        elif names is not None and known.kernels.isdisjoint(names):
            # a re-export, looked for only in a module saying Ascend or so named, of a name the file subscripts
            if not (known.says_ascend or any(ascend_name(part) for part in path.parts)):
                continue
            reexported = _reexports(path, known.digest).intersection(names)
            if not reexported:
                continue
            if subscripted is None:
                subscripted = _subscripted(text)
            if subscripted.isdisjoint(reexported):
                continue
        if known.says_ascend or is_ascend_path(path):
            return True
    return False


def _subscripted(text: str) -> set[str]:
    """The names the text subscripts (`k[`, `k.fn[`), not as an attribute (`x.k[`)."""
    return {found[1] for found in _SUBSCRIPT.finditer(text) if text[found.start() - 1 : found.start()] != "."}


# `from <module> import <names>` and `import <modules>` starting a line (a superset of the import
# statements but for those joined to another by `;` or following a one-line suite's `:`)
_FROM_IMPORT = re.compile(r"(?m)^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*(\([^)]*\)|(?:[^\r\n\\#;]|\\\r?\n)*)")
_IMPORT = re.compile(r"(?m)^[ \t]*import[ \t]+((?:[^\r\n\\#;]|\\\r?\n)*)")
_COMMENT = re.compile(r"#[^\r\n]*")
_DOTTED = re.compile(r"[\w.]+")


def _import_statements(text: str) -> Iterator[tuple[str, tuple[str, ...] | None]]:
    """The modules the text's import statements name, each with the names imported from it
    (None for `import <module>` and `from <module> import *`)."""
    for found in _FROM_IMPORT.finditer(text):
        listed = _COMMENT.sub("", found[2]).strip("() \t\r\n\\")
        names = [_DOTTED.match(item.strip(" \t\r\n\\")) for item in listed.split(",")]
        if "*" in listed:
            yield found[1], None
        else:
            yield found[1], tuple(name[0] for name in names if name is not None)
    for found in _IMPORT.finditer(text):
        for item in found[1].split(","):
            module = _DOTTED.match(item.strip(" \t\r\n\\"))
            if module is not None:
                yield module[0], None


_module_files = lru_cache(maxsize=4096)(module_files)  # the same imports, from the files of one folder


def _package_modules(text: str, folder: Path) -> Iterator[tuple[Path, tuple[str, ...] | None]]:
    """The files of the modules of the package the text imports from or imports, each with the
    names imported from it (`from .kernels import k`: `.kernels` with `k`, and `.kernels.k`, in
    case it is a module, with none; `import pkg.ops.kernels as K`: none), each file the first
    Python would find the module in (`package.module_files`) that is one."""
    modules: dict[str, tuple[str, ...] | None] = {}
    for module, names in _import_statements(text):
        if names is None or (module in modules and modules[module] is None):
            modules[module] = None
            continue
        modules[module] = (*(modules.get(module) or ()), *names)
        for name in names:
            modules[module + name if module.endswith(".") else f"{module}.{name}"] = None
    for module, names in modules.items():
        for path in _module_files(folder, module):
            if path.is_file():
                yield path, names
                break


@dataclass(frozen=True)
class _Text:
    """What a module's text says for targeting the files importing it."""

    digest: str  # its content hash
    says_ascend: bool  # `ascend_text.says_ascend`
    kernels: frozenset[str]  # the functions a decorator naming `jit` is over, and names assigned a `jit(...)`
    configs: bool  # a call of `Config`: it may make autotune configs


_KERNEL_DEF = re.compile(r"(?ms)^[ \t]*@[^\r\n]*?(?<!\w)jit(?!\w).*?^[ \t]*def[ \t]+(\w+)")
_KERNEL_CALL = re.compile(r"(?m)^[ \t]*(\w+)[ \t]*=[^\r\n]*(?<!\w)jit[ \t]*\(")
# a word (`\b`: one test per offset, where a lookbehind opening a pattern is slow) subscripted
_SUBSCRIPT = re.compile(r"\b(\w+)(?:[ \t]*\.[ \t]*fn)?[ \t]*\[")
_CONFIG = re.compile(r"Config(?<!\wConfig)[ \t]*\(")
# path -> (its stat signature, what its text says): read again once written
_FILES: dict[str, tuple[tuple[int, ...], _Text]] = {}
_REEXPORTS: dict[str, frozenset[str]] = {}  # content hash -> the names its import statements list
_MAX_FILES = 8192  # files (and texts) remembered, then forgotten all at once


def _text_facts(path: Path, read: dict[str, str | None]) -> _Text | None:
    """What the text of the module file at `path` says (`_Text`), its content hash recorded in
    `read` (None for a file that cannot be read, with no facts); read once per process while its
    modification times, size and inode stay the same."""
    key = str(path)
    try:
        status = os.stat(path)
    except OSError:
        read[key] = None
        return None
    signature = (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino)
    known = _FILES.get(key)
    if known is None or known[0] != signature:
        try:
            data = sources.read_source(path)
            text = sources.decode(data)
        except (OSError, sources.SourceError):
            read[key] = None
            return None
        kernels = (
            frozenset(found[1] for pattern in (_KERNEL_DEF, _KERNEL_CALL) for found in pattern.finditer(text))
            if "jit" in text
            else frozenset()
        )
        if len(_FILES) >= _MAX_FILES:
            _FILES.clear()
        facts = _Text(
            content_hash(data), says_ascend(text), kernels, "Config" in text and _CONFIG.search(text) is not None
        )
        known = _FILES[key] = (signature, facts)
    read[key] = known[1].digest
    return known[1]


def _reexports(path: Path, digest: str) -> frozenset[str]:
    """The names the import statements of the module at `path`, of this content hash, list (what
    it may re-export); worked out once per content, for modules saying Ascend or so named that a
    file imports a name from (few: the file is read again). None for a file that changed since
    it was hashed."""
    if digest not in _REEXPORTS:
        try:
            data = sources.read_source(path)
            text = sources.decode(data)
        except (OSError, sources.SourceError):
            return frozenset()
        if content_hash(data) != digest:
            return frozenset()
        if len(_REEXPORTS) >= _MAX_FILES:
            _REEXPORTS.clear()
        _REEXPORTS[digest] = frozenset(name for _, names in _import_statements(text) for name in names or ())
    return _REEXPORTS[digest]


def _tuned_from_ascend(
    module: cst.Module,
    kernels: list[Kernel],
    imports: ImportMap,
    imported: ImportedFunctions,
    is_ascend: Callable[[Path], bool],
) -> bool:
    """A kernel's `triton.autotune(...)` reads a name of a module of the package that is Ascend
    code, in its arguments or in a module-level function of the file they call."""
    import libcst as cst

    functions = {statement.name.value: statement for statement in module.body if isinstance(statement, cst.FunctionDef)}
    for kernel in kernels:
        for decorator in kernel.decorators:
            if not (isinstance(decorator, cst.Call) and imports.is_triton(decorator.func, "autotune")):
                continue
            for reference in _references(decorator.args, functions):
                found = imported.module_file(reference)
                if found is not None and is_ascend(found[0]):
                    return True
    return False


def _references(args: Sequence[cst.Arg], functions: dict[str, cst.FunctionDef]) -> Iterator[str]:
    """The dotted names the arguments read, then those the module-level functions they name read
    (one level: `pin(_local_configs())` reads `pin`, `_local_configs` and what its body reads)."""
    seen: set[str] = set()
    called: list[cst.FunctionDef] = []
    for arg in args:
        for name in _dotted_names(arg.value):
            if name not in seen:
                seen.add(name)
                yield name
                if name in functions:
                    called.append(functions[name])
    for function in called:
        for name in _dotted_names(function.body):
            if name not in seen:
                seen.add(name)
                yield name


def _dotted_names(node: cst.CSTNode) -> Iterator[str]:
    """Every name and attribute chain in `node` (`utils.get_configs`, and `utils` of it)."""
    import libcst as cst

    from .imports import dotted_name
    from .nodes import walk

    for sub in walk(node):
        if isinstance(sub, (cst.Name, cst.Attribute)):
            name = dotted_name(sub)
            if name is not None:
                yield name
