"""ASC013 reads a launch value a class holds (`BLOCK=self.BLOCK`, `Sizes.BLOCK`): the values
its body binds and its `__init__` stores (`HostIndex.attribute_values`; for `self.X`, the stores
`__init__` makes in its own statements in order, the arms of an `if` as alternatives: what they
leave at its end (or at a `return`), or before the call of a method only it calls; only the
body's for `Owner.X`), none when another method stores it,
`__init__` stores what has no value, a method stores by name (`setattr`) or binds `self` anew.
Each snippet marks the lines that must be reported with `# flagged`; every other launch must
stay silent."""

from __future__ import annotations

import textwrap

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

HEADER = """
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(y_ptr + cols, x * 2, mask=cols < N)
"""

# `__init__` storing in the arms of an `if`, then calling a method before its last store
ARMS_THEN_WARM_UP = """
class Op:
    def __init__(self, small):
        if small:
            self.BLOCK = 1024
        else:
            self.BLOCK = {other}
        self._warm_up()
        self.BLOCK = {last}

    def _warm_up(self):
        k[(40,)](None, None, 16, BLOCK=self.BLOCK){mark}
"""

CASES = {
    "class_attribute": """
class Op:
    BLOCK = 65536

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
""",
    "class_attribute_that_fits": """
class Op:
    BLOCK = 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "read_through_the_class": """
class Sizes:
    BLOCK = 65536

def launch(x, y):
    k[(40,)](x, y, x.shape[-1], BLOCK=Sizes.BLOCK)  # flagged
""",
    "stored_by_init": """
class Op:
    def __init__(self, wide):
        self.block = 65536 if wide else 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.block)  # flagged
""",
    "stored_by_init_from_a_parameter": """
class Op:
    BLOCK = 65536

    def __init__(self, block):
        self.BLOCK = block

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # the store reads the attribute it stores: min(65536, 1024)
    "stored_by_init_from_itself": """
class Op:
    BLOCK = 65536

    def __init__(self):
        self.BLOCK = min(self.BLOCK, 1024)

    def run(self, x, y):
        k[(45,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # every instance holds what `__init__` stores, not the class body's value
    "stored_by_init_on_every_path": """
class Op:
    BLOCK = 65536

    def __init__(self):
        self.BLOCK = 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "stored_by_init_on_one_path": """
class Op:
    BLOCK = 65536

    def __init__(self, small):
        if small:
            self.BLOCK = 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
""",
    # an instance's store leaves the class attribute
    "read_through_the_class_an_instance_stores": """
class Op:
    BLOCK = 1024

    def __init__(self):
        self.BLOCK = 65536

def launch(x, y):
    k[(40,)](x, y, x.shape[-1], BLOCK=Op.BLOCK)
""",
    "stored_by_name": """
class Op:
    BLOCK = 65536

    def __init__(self):
        setattr(self, "BLOCK", 1024)

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "stored_through_the_instance_dict": """
class Op:
    BLOCK = 65536

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # the stores of `__init__` run in order: the last one is what an instance holds after it
    "stored_by_init_twice": """
class Op:
    def __init__(self):
        self.BLOCK = 65536
        self.BLOCK = 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # the arms of an `if` in `__init__` are alternatives, each run in order with the stores around it
    "stored_in_each_arm_over_a_larger_store": """
class Op:
    def __init__(self, small):
        self.BLOCK = 65536
        if small:
            self.BLOCK = 1024
        else:
            self.BLOCK = 2048

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "stored_in_an_elif_chain_over_a_larger_store": """
class Op:
    def __init__(self, mode):
        self.BLOCK = 65536
        if mode == 1:
            self.BLOCK = 1024
        elif mode == 2:
            self.BLOCK = 2048

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
""",
    "stored_under_an_if_then_after_it": """
class Op:
    def __init__(self, small):
        self.BLOCK = 65536
        if small:
            self.BLOCK = 1024
        self.BLOCK = 2048

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "read_by_a_method_init_calls_after_the_arms": ARMS_THEN_WARM_UP.format(other=2048, last=65536, mark=""),
    "read_by_a_method_init_calls_after_a_larger_arm": ARMS_THEN_WARM_UP.format(
        other=65536, last=1024, mark="  # flagged"
    ),
    "read_in_init_in_each_arm": """
class Op:
    def __init__(self, wide, x, y):
        if wide:
            self.BLOCK = 65536
            k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
        else:
            self.BLOCK = 1024
            k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # an instance `__init__` returns early holds what it stored until then; one it raises in holds nothing
    "init_returning_before_the_last_store": """
class Op:
    def __init__(self, lazy):
        self.BLOCK = 65536
        if lazy:
            return
        self.BLOCK = 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
""",
    "init_raising_before_the_last_store": """
class Op:
    def __init__(self, bad):
        self.BLOCK = 65536
        if bad:
            raise ValueError(bad)
        self.BLOCK = 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # a method `__init__` alone calls reads what the stores before the call leave
    "read_by_a_method_init_calls_before_a_store": """
class Op:
    def __init__(self, n):
        self.BLOCK = 65536
        self._warm_up()
        self.BLOCK = n

    def _warm_up(self):
        k[(40,)](None, None, 16, BLOCK=self.BLOCK)  # flagged
""",
    "read_by_a_method_init_calls_before_a_larger_store": """
class Op:
    def __init__(self):
        self.BLOCK = 1024
        self._warm_up()
        self.BLOCK = 65536

    def _warm_up(self):
        k[(40,)](None, None, 16, BLOCK=self.BLOCK)

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
""",
    # `_warm_up` may run when `run` does, after the last store
    "read_by_a_method_called_by_init_and_another": """
class Op:
    def __init__(self):
        self.BLOCK = 1024
        self._warm_up()
        self.BLOCK = 65536

    def _warm_up(self):
        k[(40,)](None, None, 16, BLOCK=self.BLOCK)  # flagged

    def run(self, x, y):
        self._warm_up()
""",
    # `_prepare` may call `_warm_up` before the last store: both stores may be read
    "read_by_a_method_init_may_call_through_another": """
class Op:
    def __init__(self):
        self.BLOCK = 65536
        self._prepare()
        self.BLOCK = 1024

    def _prepare(self):
        self._warm_up()

    def _warm_up(self):
        k[(40,)](None, None, 16, BLOCK=self.BLOCK)  # flagged
""",
    "read_in_init_after_each_store": """
class Op:
    def __init__(self, x, y):
        self.BLOCK = 65536
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
        self.BLOCK = 1024
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # after `self = other` its reads and stores are of whatever `other` is
    "self_rebound_before_the_read": """
class Op:
    BLOCK = 65536

    def run(self, other, x, y):
        self = other
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "self_rebound_before_a_store_in_init": """
class Op:
    def __init__(self, other):
        self.BLOCK = 1024
        self = other
        self.BLOCK = 65536

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "self_rebound_by_a_loop": """
class Op:
    BLOCK = 65536

    def run(self, others, x, y):
        for self in others:
            k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # a name bound only to `self` is `self`: its stores are the instance's, in order, and so are its reads
    "stored_through_an_alias_of_self": """
class Op:
    def __init__(self):
        self.BLOCK = 65536
        obj = self
        obj.BLOCK = 1024

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "stored_through_an_alias_of_self_over_a_smaller_store": """
class Op:
    def __init__(self):
        self.BLOCK = 1024
        other = self
        other.BLOCK = 65536

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)  # flagged
""",
    "read_through_an_alias_of_self": """
class Op:
    BLOCK = 65536

    def run(self, x, y):
        op = self
        k[(40,)](x, y, x.shape[-1], BLOCK=op.BLOCK)  # flagged
""",
    "read_by_a_method_init_calls_through_an_alias_of_self": """
class Op:
    def __init__(self):
        self.BLOCK = 65536
        op = self
        op._warm_up()
        op.BLOCK = 1024

    def _warm_up(self):
        k[(40,)](None, None, 16, BLOCK=self.BLOCK)  # flagged

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    # a name bound to `self` on one path only may hold another instance
    "read_through_a_name_bound_to_self_or_another": """
class Op:
    BLOCK = 65536

    def run(self, other, x, y):
        if other is None:
            op = self
        else:
            op = other
        k[(40,)](x, y, x.shape[-1], BLOCK=op.BLOCK)
""",
    # a name a `for` or `with` also binds holds what they bind there, not `self`
    "stored_through_a_name_bound_to_self_then_a_for_target": """
class Op:
    def __init__(self, peers):
        self.BLOCK = 1024
        op = self
        for op in peers:
            op.BLOCK = 65536

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "stored_through_a_name_bound_to_self_then_a_with_target": """
class Op:
    def __init__(self, path):
        self.BLOCK = 1024
        op = self
        with open(path) as op:
            op.BLOCK = 65536

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "stored_by_name_through_an_alias_of_self": """
class Op:
    def __init__(self):
        self.BLOCK = 65536
        obj = self
        setattr(obj, "BLOCK", 1024)

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
    "stored_by_another_method": """
class Op:
    BLOCK = 1024

    def grow(self):
        self.BLOCK = 65536

    def run(self, x, y):
        k[(40,)](x, y, x.shape[-1], BLOCK=self.BLOCK)
""",
}


def flagged_lines(source: str) -> list[int]:
    return [number for number, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("# flagged")]


@pytest.mark.parametrize("case", sorted(CASES))
def test_asc013_reads_a_launch_value_a_class_holds(case: str) -> None:
    source = textwrap.dedent(HEADER) + CASES[case]
    result = lint_source(source, "ascend/held.py", settings(select=["ASC013"]))
    assert result.error is None
    assert [finding.location.row for finding in result.findings] == flagged_lines(source)


def test_asc013_reads_a_class_attribute_at_its_value() -> None:
    source = textwrap.dedent(HEADER) + CASES["class_attribute"]
    [finding] = lint_source(source, "ascend/held.py", settings(select=["ASC013"])).findings
    assert "{BLOCK=65536}" in finding.message


def test_asc013_reads_an_attribute_stored_from_itself_at_the_stored_value() -> None:
    """`min(self.BLOCK, 65536)` of a class body's 131072: 65536, neither the body's nor unknown."""
    case = CASES["stored_by_init_from_itself"].replace("65536", "131072").replace("1024", "65536")
    [finding] = lint_source(textwrap.dedent(HEADER) + case, "ascend/held.py", settings(select=["ASC013"])).findings
    assert "{BLOCK=65536}" in finding.message
