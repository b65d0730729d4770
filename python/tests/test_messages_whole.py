"""Messages read whole in the source: where a message is wrapped as implicit concatenation ("..." "..."), each
piece boundary falls at a clause boundary, so grepping the source for a phrase of the message finds it
(errors.py promises grep-able messages). A formatter that rewraps a long string leaves exactly the breaks
this refuses: a short stub piece ("step ", "shapes); "), a break inside a word, a lone article at the end of a
piece ("with a " "device index"). The TypeScript side has the same rule for `'...' + '...'`
(test/unit/messages-whole.test.ts)."""

from __future__ import annotations

import io
import re
import sys
import tokenize

from conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "python" / "tts_parity"
SHORTEST_PIECE = 14  # characters of a piece's text; the stubs a formatter leaves ("step ", "updated ") are shorter
_ARTICLE_AT_END = re.compile(r"(?:^|\W)(?:a|an|the)\s*$", re.IGNORECASE)
_WORD = re.compile(r"\w")
_SEPARATORS = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
_FSTRING_TOKENS = (
    (tokenize.FSTRING_START, tokenize.FSTRING_MIDDLE, tokenize.FSTRING_END) if sys.version_info >= (3, 12) else ()
)


def _literal_text(source: str) -> str:
    """The text between the quotes of one string literal's source (prefix and quotes dropped)."""
    body = source.lstrip("rRbBuUfF")
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    return body[len(quote) : len(body) - len(quote)]


def _concatenations(source: str) -> list[list[tuple[int, str]]]:
    """Each implicit concatenation of two or more string literals: [(line, text of the piece), ...]."""
    groups: list[list[tuple[int, str]]] = []
    group: list[tuple[int, str]] = []
    fstring: list[str] = []  # Python 3.12+ tokenizes an f-string in parts (nested ones inside it)
    depth = 0
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if _FSTRING_TOKENS and (depth or token.type == _FSTRING_TOKENS[0]):
            fstring.append(token.string)
            depth += {_FSTRING_TOKENS[0]: 1, _FSTRING_TOKENS[2]: -1}.get(token.type, 0)
            if depth == 0:
                group.append((token.start[0], _literal_text("".join(fstring))))
                fstring = []
        elif token.type == tokenize.STRING:
            group.append((token.start[0], _literal_text(token.string)))
        elif token.type in _SEPARATORS and group:
            continue
        else:
            if len(group) > 1:
                groups.append(group)
            group = []
    return groups


def phrase_splits(source: str, filename: str) -> list[str]:
    """One line per piece boundary of an implicit string concatenation that splits a phrase."""
    problems = []
    for group in _concatenations(source):
        for (line, left), (_, right) in zip(group, group[1:]):
            where = f"{filename}:{line}: {left[-20:]!r} {right[:20]!r}"
            if len(left) < SHORTEST_PIECE or len(right) < SHORTEST_PIECE:
                short = left if len(left) < SHORTEST_PIECE else right
                problems.append(f"{where}: the piece {short!r} is a stub (under {SHORTEST_PIECE} characters)")
            elif left and right and _WORD.match(left[-1]) and _WORD.match(right[0]):
                problems.append(f"{where}: the break falls inside a word")
            elif _ARTICLE_AT_END.search(left):
                problems.append(f"{where}: the break parts an article from its noun")
    return problems


def test_no_message_in_the_package_is_split_mid_phrase():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 50  # the walk found the package
    problems = [
        problem
        for path in files
        for problem in phrase_splits(path.read_text(encoding="utf-8"), str(path.relative_to(REPO_ROOT)))
    ]
    assert not problems, "rewrap these at a clause boundary, same words:\n" + "\n".join(problems)


def test_each_kind_of_split_is_found_in_a_planted_file(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        "def f(n):\n"
        '    raise ValueError(f"step {n}: a captured graph replays the shapes it was captured with; write each "\n'
        '                     "step "\n'
        '                     "in place at its position")\n'
        "def g():\n"
        "    raise ValueError(\"boolean-mask indexing: the result's length depends on the mask's val\"\n"
        '                     "ues of this step")\n'
        "def h():\n"
        '    raise ValueError("pick from one stacked tensor with a "  # a comment between the pieces\n'
        '                     "device index (index_select) instead")\n',
        encoding="utf-8",
    )
    problems = phrase_splits(planted.read_text(encoding="utf-8"), planted.name)
    assert [problem.split(": ", 1)[0] for problem in problems] == [
        "planted.py:2",
        "planted.py:3",
        "planted.py:6",
        "planted.py:9",
    ]
    assert "'step ' is a stub" in problems[0]
    assert problems[2].endswith("inside a word") and problems[3].endswith("parts an article from its noun")


def test_pieces_broken_at_clause_boundaries_pass():
    source = (
        'MESSAGE = ("a captured graph replays the shapes it was captured with; "\n'
        '           "preallocate a max-size buffer, write each step in place at its position")\n'
        'LABELS = ["a", "b"]  # two short literals, not one concatenation\n'
    )
    assert phrase_splits(source, "good.py") == []
