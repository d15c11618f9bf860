"""Suppression comments read as ruff reads them: each `# noqa` case below is what ruff 0.17
does with the same comment (checked with `ruff check --select F401` on `import x  <comment>`),
and `# ascend-lint: disable-file` takes the same code lists after `=` or `:`."""

from __future__ import annotations

import pytest

from ascend_lint.directives import Comments, InvalidDirective, disable_file_directive, noqa_directive

BARE = None  # every code
INVALID = "invalid"  # a warning, and it suppresses nothing
NOT_ONE = "not a directive"


@pytest.mark.parametrize(
    ("comment", "codes"),
    [
        ("# noqa", BARE),
        ("# NOQA", BARE),
        ("#noqa", BARE),
        ("# noqa F401", BARE),  # whitespace, then no `:`: bare, as in ruff and flake8
        ("# noqa = F401", BARE),
        ("# noqa# a remark", BARE),
        ("# noqa: F401", ("F401",)),
        ("# noqa:F401", ("F401",)),
        ("# NoQa: F401", ("F401",)),
        ("# noqa : F401", ("F401",)),  # spaces before the `:`
        ("# noqa:  F401", ("F401",)),
        ("# noqa: F401,E501", ("F401", "E501")),
        ("# noqa: F401 ASC001", ("F401", "ASC001")),
        ("# noqa:F401,", ("F401",)),
        ("# noqa:F401 some text", ("F401",)),  # the list ends at the first word that is no code
        ("# noqa: F401, ASC-1, E501", ("F401",)),
        ("# noqa:F401# F", ("F401",)),
        ("# noqa: F40", ("F40",)),  # a code's shape: it matches F40 only (exact codes)
        ("# noqa:,F401", ("F401",)),  # read past, with a warning
        ("# noqa:F401E501", ("F401", "E501")),  # read past, with a warning
        ("# type: ignore # noqa: F401", ("F401",)),  # a later `#` of the comment
        ("# x # noqa: F401", ("F401",)),
        ("# noqa: E501 # noqa: F401", ("E501",)),  # the first directive counts
        ("# noqa:", INVALID),
        ("# noqa: F", INVALID),
        ("# noqa: ASC", INVALID),
        ("# noqa: F-401", INVALID),
        ("# noqa: ASC-001", INVALID),
        ("# noqa: f401", INVALID),  # codes are uppercase
        ("# noqa: F401abc, F401", INVALID),
        ("# noqa:F401F", INVALID),
        ("# noqa-free", INVALID),
        ("# noqa: F-401 # noqa: F401", INVALID),
        ("# a remark", NOT_ONE),
        ("# pragma: noqa", NOT_ONE),  # `noqa` must follow the `#`
        ("# xnoqa", NOT_ONE),
    ],
)
def test_noqa_is_read_as_ruff_reads_it(comment: str, codes: tuple[str, ...] | str | None) -> None:
    if codes == INVALID:
        with pytest.raises(InvalidDirective):
            noqa_directive(comment)
        return
    directive = noqa_directive(comment)
    if codes == NOT_ONE:
        assert directive is None
    else:
        assert directive is not None and directive.codes == codes


def test_warnings_name_what_was_read_past() -> None:
    assert noqa_directive("# noqa:,F401").warnings == ("expected rule code between commas",)  # type: ignore[union-attr]
    assert noqa_directive("# noqa:F401E501").warnings == ("expected comma or space delimiter between codes",)  # type: ignore[union-attr]


def test_a_directive_ends_after_its_last_code() -> None:
    """Where the editor's "disable for this line" action adds a code."""
    comment = "# keep # noqa: ASC001, ASC002  why"
    directive = noqa_directive(comment)
    assert directive is not None
    assert comment[directive.start : directive.end] == "# noqa: ASC001, ASC002"


@pytest.mark.parametrize(
    ("comment", "codes"),
    [
        ("# ascend-lint: disable-file", BARE),
        ("#ascend-lint:disable-file", BARE),
        ("# ascend-lint: disable-file  # generated", BARE),
        ("# ascend-lint: disable-file=ASC001", ("ASC001",)),
        ("# ascend-lint: disable-file = ASC001", ("ASC001",)),
        ("# ascend-lint: disable-file =ASC001, ASC002", ("ASC001", "ASC002")),
        ("# ascend-lint: disable-file: ASC001", ("ASC001",)),
        ("# ascend-lint: disable-file:ASC001 ASC002 generated", ("ASC001", "ASC002")),
        ("# ascend-lint: disable-file=ASC999", ("ASC999",)),  # the engine warns: no such rule
        # as ruff's file-level directive: the keyword in any case, the tool's name in lowercase
        ("# ascend-lint: DISABLE-FILE", BARE),
        ("# ascend-lint: Disable-File=ASC001", ("ASC001",)),
        # where ruff passes over its name in capitals in silence: invalid, so the engine warns
        ("# ASCEND-LINT: DISABLE-FILE", INVALID),
        ("# Ascend-Lint: disable-file", INVALID),
        ("# keep # ASCEND-LINT: disable-file=ASC001", INVALID),
        # never the bare form by mistake: invalid, so nothing is disabled
        ("# ascend-lint: disable-file ASC001", INVALID),
        ("# ascend-lint: disable-file=", INVALID),
        ("# ascend-lint: disable-file=asc001", INVALID),
        ("# ascend-lint: disable-file; ASC001", INVALID),
        ("# ascend-lint: disable-files", INVALID),
    ],
)
def test_disable_file_grammar(comment: str, codes: tuple[str, ...] | str | None) -> None:
    if codes == INVALID:
        with pytest.raises(InvalidDirective):
            disable_file_directive(comment)
        return
    directive = disable_file_directive(comment)
    assert directive is not None and directive.codes == codes


def test_only_comments_hold_directives() -> None:
    source = (
        '"""Generated files carry `# ascend-lint: disable-file`."""\n'
        'print("launched # noqa-free")  # noqa: ASC001\n'
        "x = '''\n# noqa\n'''\n"
        "y = 1 + \\\n    2  # ascend-lint: disable-file=ASC002\n"
    )
    comments = Comments(source)
    assert {row: text for row, (_, text) in comments.comments.items()} == {
        2: "# noqa: ASC001",
        7: "# ascend-lint: disable-file=ASC002",
    }
    assert comments.comments[2][0] == len('print("launched # noqa-free")  ')
    assert set(comments.noqa()) == {2}
    assert set(comments.disable_file()) == {7}
    assert comments.continued == {6}


def test_the_comments_before_a_tokenizer_error_are_kept() -> None:
    assert set(Comments("x = 1  # noqa\ny = (\n").comments) == {1}
