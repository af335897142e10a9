"""The ruleset loader: a title's data files read once, checked against the schema
(:mod:`pbem.ruleset.schema`) and built into the frozen ``TitleData`` the engine is given.

>>> from pbem.ruleset import load_title
>>> load_title("1830").bank_cash
12000
"""

from __future__ import annotations

from pbem.ruleset.board import load_map, load_tiles
from pbem.ruleset.files import RULES_DIR, available_variants, known_titles, read_rules_yaml
from pbem.ruleset.loader import load_title

__all__ = [
    "RULES_DIR",
    "available_variants",
    "known_titles",
    "load_map",
    "load_tiles",
    "load_title",
    "read_rules_yaml",
]
