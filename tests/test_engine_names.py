"""The core knows no title: ``pbem/engine/`` has no 1870 names (issue 11, "Done when").

Every module of the engine is read as Python source and split into code (identifiers and
string literals) and prose (comments and docstrings). 1870's names — its corporations' and
private companies' symbols, the title's number, and the words of its own mechanics
(destinations and connection runs, redemption and reissue, price protection, the bridge
company) — may appear only in prose that names 1870 as the example it gives, never in code.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from pbem.ruleset import load_title
from pbem.order_codecs import Vocabulary

ENGINE = Path(__file__).resolve().parent.parent / "pbem" / "engine"

WORDS = re.compile(r"1870|destination|connection|redeem|reissue|protect|bridge", re.IGNORECASE)
"""The words of 1870's own mechanics, matched anywhere in a name (``destinations_reached``)."""


def _symbols() -> re.Pattern[str]:
    """1870's corporation and private company symbols that no other title has, as whole
    words (case as printed)."""
    ours = load_title("1870")
    others = {c.sym for c in load_title("1830").corporations} | {c.sym for c in load_title("1830").companies}
    symbols = sorted(({c.sym for c in ours.corporations} | {c.sym for c in ours.companies}) - others)
    return re.compile(r"(?<![A-Za-z0-9&])(" + "|".join(map(re.escape, symbols)) + r")(?![A-Za-z0-9&])")


SYMBOLS = _symbols()


@dataclass(frozen=True)
class Piece:
    """One piece of a module's text: ``code`` (an identifier or a string literal) or prose
    (a comment block or a docstring), starting at ``line``."""

    line: int
    text: str
    code: bool


def _docstring_lines(tree: ast.AST) -> set[int]:
    """The first lines of the string statements (module, class, function and attribute
    docstrings)."""
    return {node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def pieces(source: str) -> list[Piece]:
    """``source`` split into code and prose pieces; consecutive comment lines form one
    prose piece."""
    tree = ast.parse(source)
    docs = _docstring_lines(tree)
    out: list[Piece] = []
    comment: list[str] = []
    comment_line = 0
    last_comment = -2
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            if tok.start[0] != last_comment + 1 and comment:
                out.append(Piece(comment_line, " ".join(comment), code=False))
                comment = []
            if not comment:
                comment_line = tok.start[0]
            comment.append(tok.string)
            last_comment = tok.start[0]
        elif tok.type == tokenize.NAME:
            out.append(Piece(tok.start[0], tok.string, code=True))
    if comment:
        out.append(Piece(comment_line, " ".join(comment), code=False))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(Piece(node.lineno, node.value, code=node.lineno not in docs))
    return out


def offences(source: str) -> list[str]:
    """The 1870 names of ``source`` outside prose naming 1870 (``"line: text"`` each)."""
    found = []
    for piece in sorted(pieces(source), key=lambda p: p.line):
        names = WORDS.findall(piece.text) + SYMBOLS.findall(piece.text)
        if not names:
            continue
        if piece.code or "1870" not in piece.text:
            found.append(f"{piece.line}: {', '.join(sorted(set(names)))} in {piece.text[:70]!r}")
    return found


def test_the_scan_finds_1870_names_in_code_and_in_prose_without_the_example() -> None:
    """The scanner itself: a name in code, in a string literal or in prose that does not name
    1870 is caught; prose giving 1870 as its example is not."""
    source = '''"""A core module (1870: the destination counts twice)."""
# a redemption, as 1870 has
state = {"MRBC": 1}
def connection_runs(): ...
x = "keeps its destination token"
# the bridge company's lay
def f():
    """Pays out: the MKT's run."""
'''
    found = offences(source)
    assert [entry.split(":")[0] for entry in found] == ["3", "4", "5", "6", "8"], found


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_has_no_1870_names(path: Path) -> None:
    found = offences(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ENGINE.parent.parent)}:\n" + "\n".join(found)


def test_the_log_reads_a_titles_actions_with_its_hooks_only() -> None:
    """1870's actions live in its package; the engine alone does not know them (it holds no
    registry a title fills), and a reader given 1870's action types reads them under the
    kinds older logs have, so an old log with a destination token still reads back."""
    from pbem.engine.actions import ACTION_TYPES, action_from_dict
    from pbem.ruleset import load_title

    assert not {"destination_token", "grant_connection", "redeem", "reissue"} & set(ACTION_TYPES)
    with pytest.raises(ValueError, match="unknown action type"):
        action_from_dict({"type": "redeem", "corporation": "MP", "source": "pool"})
    types = Vocabulary.from_title(load_title("1870")).action_types
    assert repr(action_from_dict({"type": "destination_token", "choice": "map"}, types)) == "DestinationToken(choice='map')"
    assert repr(action_from_dict({"type": "redeem", "corporation": "MP", "source": "pool"}, types)) == \
        "Redeem(corporation='MP', source='pool')"
    assert "redeem" not in Vocabulary.from_title(load_title("1830")).action_types
