"""What a rule is: a small class with a code, a name, documentation, examples and checks.

The rule API is this module: `Rule` (subclass it), `Report` (what a check yields),
`ModuleContext` (the parsed file and its shared facts), `Kernel` (one `@triton.jit` function
and its facts, `kernel.flow` included) and `Example` (an INVALID snippet with its fixed code).
The engine turns each `Report` into a `Finding` (`ascend_lint.model`).

A rule module in `rules/` defines one subclass of `Rule`. The module docstring is its documentation
(ruff's sections: What it does / Why is this bad? / Example / Use instead / Fix safety, each
short, then `## Details`: the full catalogue of what it recognises and leaves alone).
`VALID` and `INVALID` are code snippets that double as its tests: a line of an INVALID
snippet that ends in `# expect` (or `# expect: CODE`) must be reported, and nothing else; a
snippet without triton imports gets the standard ones prepended.
"""

from __future__ import annotations

import inspect
import sys
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from types import CodeType
from typing import ClassVar, Literal, TypeVar, cast

import libcst as cst

from .directives import NOQA_WORD, Comments, Directive
from .fixes import Declined, FixPlan, FreshNames
from .flow import NOTHING, Assumptions
from .host import HostIndex, HostMemory
from .imports import ImportMap
from .kernels import ImportedFunctions, Kernel
from .model import Applicability, Fact, Finding
from .nodes import walk
from .optional import OptionalPointer, optional_pointers
from .positions import Layout, node_layout
from .prefilter import KERNEL_TOKENS, Words
from .socs import DEFAULT_SOC, Soc
from .source import compile_python
from .specialisations import (
    Configuration,
    Value,
    call_configurations,
    configurations,
    decided_outcomes,
    literal_arguments,
    module_constants,
    names_written,
)

__all__ = ["Confirm", "Evidence", "Example", "Finding", "HostIndex", "Kernel", "ModuleContext", "Report", "Rule"]


@dataclass
class Report:
    """What a rule returns: the node to point at and what to say.

    `message` may hold `{related_line}`: the engine writes there the row of the first
    `related` location (`"the left operand of tl.dot (line {related_line})"`), so the text
    stays right wherever the reported code moves. Without a related location it is left as
    written: a report using it relates the node it names first.
    """

    node: cst.CSTNode
    message: str  # `{related_line}`: the row of related[0] (see above)
    end_node: cst.CSTNode | None = None  # the range ends where this node ends
    related: tuple[tuple[cst.CSTNode, str], ...] = ()
    fix: FixPlan | Declined | None = None  # Declined: no fix, and why
    facts: Mapping[str, Fact] = field(default_factory=dict)  # what `confirm` needs to know (see Confirm)
    # The function holding the nodes (a kernel's findings: the kernel): positions are looked for there.
    within: cst.FunctionDef | None = None


_Kept = TypeVar("_Kept")


@dataclass
class ModuleContext:
    """A parsed file and the module-level facts rules share."""

    filename: str
    source: str
    module: cst.Module
    imports: ImportMap
    kernels: list[Kernel]
    host_memory: HostMemory | None = None  # what the previous lint of the document found in its host code
    soc: Soc = DEFAULT_SOC  # the SoC family the file is judged against (`target-soc`)
    imported: ImportedFunctions | None = None  # the modules of the package it imports from
    compiled: CodeType | None = None  # CPython's compiled module of `source`, when the caller has it
    comments: Comments | None = None  # the text's comments, when the caller has read them
    _optional: dict[Kernel, dict[str, OptionalPointer]] = field(default_factory=dict, repr=False)
    _configurations: dict[Kernel, list[Configuration]] = field(default_factory=dict, repr=False)
    _called: dict[Kernel, list[Configuration] | None] = field(default_factory=dict, repr=False)
    _outcomes: dict[Kernel, list[Assumptions]] = field(default_factory=dict, repr=False)
    _specialised: dict[Kernel, list[tuple[Configuration, Assumptions]] | None] = field(default_factory=dict, repr=False)
    _uncompiled: dict[Kernel, frozenset[cst.CSTNode]] = field(default_factory=dict, repr=False)
    _kept: dict[str, object] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        constants = self.module_constants if self.kernels else {}
        for kernel in self.kernels:
            kernel.mark_module_constants(constants, lambda flow: decided_outcomes(flow, self.module_constants))
            if kernel.is_device_function:  # a kernel launched too is one (`Kernel.is_launched`)
                kernel.mark_launched(bool(self.host.launches_with_helpers(kernel)))
            if kernel.dtype_params and (kernel.is_launched or not kernel.is_device_function):
                kernel.mark_launch_constants(self.host.launch_constants(kernel))

    def kept(self, kind: str, make: Callable[[], _Kept]) -> _Kept:
        """What a rule keeps across its checks of the module's kernels (made once, by `kind`):
        ASC008's answers per function, which each kernel on a chain of helpers reads."""
        found = self._kept.get(kind)
        if found is None:
            found = self._kept[kind] = make()
        return cast(_Kept, found)

    @cached_property
    def noqa(self) -> dict[int, Directive]:
        """The readable `# noqa` directives by row (the engine warns about the others)."""
        if NOQA_WORD.search(self.source) is None:
            return {}
        comments = self.comments or Comments(self.source)
        return {row: d for row, d in comments.noqa().items() if isinstance(d, Directive)}

    def layout(self, nodes: Collection[cst.CSTNode], function: cst.FunctionDef) -> Layout:
        """Where `nodes`, of `function`, sit in the text (`positions.node_layout`)."""
        code = compile_python(self.source, self.compiled)
        return node_layout(self.source, self.module, code, nodes, dict.fromkeys(nodes, function))

    @cached_property
    def fresh_names(self) -> FreshNames:
        """Names the rules' fixes may introduce (shared, so two fixes never pick the same one)."""
        return FreshNames(self.source)

    @cached_property
    def module_constants(self) -> dict[str, Value]:
        """Module-level names bound once to a constant (one pass, for every kernel's configurations)."""
        return module_constants(self.module, self.imports)

    @cached_property
    def names_written(self) -> Counter[str]:
        """How many times the module's code writes each name (`specialisations.names_written`)."""
        return names_written(self.module)

    @cached_property
    def host(self) -> HostIndex:
        return HostIndex(self.module, self.kernels, self.host_memory, self.imported)

    def optional_pointers(self, kernel: Kernel) -> dict[str, OptionalPointer]:
        """The kernel's pointer parameters that may be None, with the evidence (computed once)."""
        found = self._optional.get(kernel)
        if found is None:
            found = self._optional[kernel] = optional_pointers(kernel, self.host)
        return found

    def configurations(self, kernel: Kernel) -> list[Configuration]:
        """The constexpr configurations the module makes visible for `kernel` (computed once)."""
        found = self._configurations.get(kernel)
        if found is None:
            found = self._configurations[kernel] = configurations(kernel, self.module_constants, self.host)
        return found

    def call_configurations(self, kernel: Kernel) -> list[Configuration] | None:
        """The specialisations the module's calls give a device function, None when they may not
        be all of them (`specialisations.call_configurations`; computed once). The UB estimate
        needs none: it plans a device function's tiles in its callers, with their values."""
        if kernel not in self._called:
            self._called[kernel] = None  # while computing: a function on a call cycle is not narrowed
            self._called[kernel] = call_configurations(
                kernel, self.module_constants, lambda name: self.names_written[name], self.call_configurations
            )
        return self._called[kernel]

    def compiled_outcomes(self, kernel: Kernel) -> list[Assumptions]:
        """The constexpr test outcomes each specialisation of `kernel` fixes (`Flow.compiled_under`
        asks whether one compiles an event): those of each of a device function's calls in the
        module when they are all its calls, else those every specialisation shares (the tests the
        module's constants and the body's constexpr bindings decide). A kernel's
        launches are never taken as all of them (another module may launch it)."""
        found = self._outcomes.get(kernel)
        if found is None:
            specialised = self._specialisations(kernel)
            if specialised is None:
                outcomes = [decided_outcomes(kernel.flow, self.module_constants)]
            else:
                outcomes = [outcome for _, outcome in specialised]
            found = self._outcomes[kernel] = list(dict.fromkeys(outcomes))
        return found

    def call_outcomes(self, helper: Kernel, call: cst.Call) -> list[Assumptions]:
        """The `compiled_outcomes` of the device function `helper` that `call` of it may compile:
        those of its specialisations (`call_configurations`) agreeing with each constexpr value
        the call fixes (`literal_arguments`); all of them when the calls are not all known."""
        specialised = self._specialisations(helper)
        if specialised is None:
            return self.compiled_outcomes(helper)
        fixed = literal_arguments(helper, call).items()
        agreeing = (outcome for c, outcome in specialised if all(c.values.get(name) == value for name, value in fixed))
        return list(dict.fromkeys(agreeing))

    def _specialisations(self, kernel: Kernel) -> list[tuple[Configuration, Assumptions]] | None:
        """Each specialisation the module's calls give the device function `kernel`
        (`call_configurations`) with the constexpr test outcomes it fixes (`decided_outcomes`),
        None when they may not be all of them: worked out once, for all its calls."""
        if kernel not in self._specialised:
            called = self.call_configurations(kernel)
            self._specialised[kernel] = (
                None if called is None else [(c, decided_outcomes(kernel.flow, c.values)) for c in called]
            )
        return self._specialised[kernel]

    def uncompiled(self, kernel: Kernel) -> frozenset[cst.CSTNode]:
        """The nodes of the kernel's `if` arms no specialisation compiles (`compiled_outcomes`):
        the engine drops a kernel's report at one of them, whatever the rule."""
        found = self._uncompiled.get(kernel)
        if found is None:
            outcomes = self.compiled_outcomes(kernel)
            nodes: set[cst.CSTNode] = set()
            for branch in kernel.flow.branches if outcomes != [NOTHING] else ():
                for arm, suite in ((True, branch.node.body), (False, branch.node.orelse)):
                    if suite is not None and not any(kernel.flow.arm_compiled_under(branch, arm, o) for o in outcomes):
                        nodes.update(walk(suite))
            found = self._uncompiled[kernel] = frozenset(nodes)
        return found


# The last section of a rule's documentation, after Fix safety: everything the rule recognises,
# leaves alone and measured, for readers who need the contract (`Rule.documentation`).
DETAILS = "\n## Details\n"


def heading(code: str, name: str) -> str:
    """The title of a rule's documentation: `launch-num-warps (ASC001)`."""
    return f"{name} ({code})"


def heading_anchor(code: str, name: str) -> str:
    """The anchor GitHub gives that title in `docs/rules.md`: `launch-num-warps-asc001`
    (lower case, punctuation other than `-` and `_` dropped, spaces become `-`)."""
    title = heading(code, name).lower()
    return "".join("-" if c == " " else c for c in title if c.isalnum() or c in " -_")


@dataclass
class Example:
    """An INVALID snippet with the fixed code the rule's fix must produce."""

    code: str
    fixed: str | None = None
    unsafe_fixes: bool = False


Backend = Literal["compile", "interpret", "npu"]


class Evidence(str, Enum):
    """What a replay measures to decide a finding, on the backend named first in each comment
    (implemented in `runtime_check`), and the facts it reads from the finding."""

    # compile: the IR with and without the launch option; facts: option, value (the literal, if any)
    LAUNCH_OPTION_IR = "launch-option-ir"
    # compile: the compile error of a `.to` on a constexpr, or the i32 multiply before the i64
    # extension in the TTIR; facts: receiver, cause ("constexpr" or "multiply")
    INDEX_CAST_IR = "index-cast-ir"
    # compile: compiled with the optional pointers None and their flags False; facts:
    # optional_pointers, flags, derived_names (names bound from the pointers only under the
    # flag: with it False the arm reads them undefined)
    NONE_POINTER_COMPILE = "none-pointer-compile"
    # compile: the compiler's error for the finding's construct; facts: error (the key phrase of
    # the message the compiler gives)
    COMPILE_ERROR = "compile-error"
    # compile: the i32 multiplies of a pointer offset in the TTIR, and the fixed variant's i64
    # ones; facts: none needed (the finding's line)
    POINTER_OFFSET_IR = "pointer-offset-ir"
    # compile: planned UB of the original vs each arm of the `if` alone; facts: dma_arms (kind
    # of the then arm, kind of the else arm: "block_ptr" or "masked")
    DMA_ARMS_UB = "dma-arms-ub"
    # compile: the kernel compiled with the finding's constexpr configuration: the compiler's
    # `ub overflow` or its planned peak UB; facts: configuration ("NAME=value", ...),
    # estimate_bytes
    UB_PLAN = "ub-plan"
    # interpret: outputs with the finding's `tl.dot` clobbering its lhs vs standard semantics;
    # facts: tile, loop_carried (the dot is at the finding itself, else its related location)
    DOT_CLOBBER_OUTPUTS = "dot-clobber-outputs"
    # interpret: the fixed kernel computes what the original computes (never decides the
    # finding: "fix verified" evidence for a bug only a device shows)
    FIX_OUTPUTS = "fix-outputs"
    # npu: outputs on the device vs the interpreter's standard-semantics outputs
    DEVICE_OUTPUTS = "device-outputs"


@dataclass(frozen=True)
class Confirm:
    """How `ascend-lint confirm` decides a rule's findings: the evidence each backend collects,
    strongest backend first, and why the backends not listed cannot decide them."""

    evidence: Mapping[Backend, Evidence]
    reason: str  # e.g. "tl.dot clobbering its lhs is a runtime behaviour of the NPU"


Precision = Literal["very-high", "high", "medium", "low"]


class Rule:
    """One check. Subclass it in a module of `rules/`; the registry finds it there.

    Override `check_kernel` (called once per kernel, with its shared facts) and/or
    `check_module` (called once per file, for what lives outside kernels: launches, configs).
    Both yield `Report`s; they never re-derive facts the engine computes (`kernel.flow`,
    `context.imports`, `context.host`).
    """

    CODE: ClassVar[str]  # ASCnnn: stable, public (noqa comments, configs, SARIF)
    NAME: ClassVar[str]  # kebab-case, stable, public
    SUMMARY: ClassVar[str]  # one line: `ascend-lint rules`, SARIF, the README table
    # What its fixes are: "safe", "unsafe", or "safe/unsafe" (safe, unsafe for some findings).
    FIX: ClassVar[Applicability | Literal["safe/unsafe"] | None] = None
    # A rule that never fixes: why no rewrite is right, each finding's `no_fix_reason`.
    NO_FIX: ClassVar[str | None] = None
    # Tokens every finding needs, checked on the file's words before parsing (see prefilter.py):
    # a tuple of groups, each a tuple of alternative words, one word of each group must occur:
    # `(("make_block_ptr", "advance"), ("int64",))`; one word alone is `(("to",),)`, never
    # `("to",)` (the registry refuses a group that is not a tuple). A kernel rule needs a
    # kernel's `jit` on top (`required_tokens`); `may_report` may be overridden for a test the
    # groups cannot say (rules/hard_coded_ub.py).
    REQUIRES_TOKENS: ClassVar[tuple[tuple[str, ...], ...]] = ()
    # A name users can select or ignore the rule by, with the others of the group ("perf":
    # performance advice with no compile-time evidence).
    GROUP: ClassVar[str | None] = None
    # How often the rule's findings are true, as SARIF's `precision` (GitHub orders code-scanning
    # alerts by it). None: `medium` in the perf group, else `high` (a behaviour of the compiler,
    # launcher or device the docs measure); `medium` for findings that rest on an estimate.
    PRECISION: ClassVar[Precision | None] = None
    VALID: ClassVar[Sequence[str]] = ()
    INVALID: ClassVar[Sequence[str | Example]] = ()
    CONFIRM: ClassVar[Confirm | None] = None  # None: `confirm` has no evidence for this rule
    # A rule without `CONFIRM`: why replaying its findings cannot decide them, one line. `confirm`
    # replays nothing for them and gives each finding INCONCLUSIVE with that reason, no backend.
    NO_CONFIRM: ClassVar[str | None] = None
    # The code a finding points at has no effect at all (ASC001's knobs): editors fade it out
    # (the server's `Unnecessary` diagnostic tag).
    NO_EFFECT: ClassVar[bool] = False

    def check_module(self, context: ModuleContext) -> Iterable[Report]:
        return ()

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterable[Report]:
        return ()

    @classmethod
    def documentation(cls, details: bool = True) -> str:
        """The module docstring under the rule's title. `details=False`: without its last section,
        `## Details` (the catalogue of recognised forms, exceptions and measurements), for a
        reader who wants the short statement (the editor's hover, `ascend-lint rule --brief`)."""
        body = inspect.cleandoc(sys.modules[cls.__module__].__doc__ or "")
        if not details:
            body = body.split(DETAILS, 1)[0].rstrip()
        return f"# {heading(cls.CODE, cls.NAME)}\n\n{body}\n"

    @classmethod
    def has_details(cls) -> bool:
        """Whether the documentation ends in a `## Details` section (`documentation(details=False)`
        leaves it out)."""
        return DETAILS in cls.documentation()

    @classmethod
    def precision(cls) -> Precision:
        """`PRECISION`, or the default: `medium` for performance advice, `high` otherwise."""
        return cls.PRECISION or ("medium" if cls.GROUP == "perf" else "high")

    @classmethod
    def required_tokens(cls) -> tuple[tuple[str, ...], ...]:
        """`REQUIRES_TOKENS`, plus `jit` for a rule that only checks kernels."""
        kernels_only = cls.check_kernel is not Rule.check_kernel and cls.check_module is Rule.check_module
        return (*cls.REQUIRES_TOKENS, KERNEL_TOKENS) if kernels_only else cls.REQUIRES_TOKENS

    @classmethod
    def may_report(cls, words: Words) -> bool:
        """False when the file lacks a token every finding of the rule needs (`REQUIRES_TOKENS`).
        A rule may override it with a cheaper or sharper test of the file's words (`words.has`,
        `words.text`), as long as it holds for every file the rule reports in."""
        return words.satisfies(cls.required_tokens())
