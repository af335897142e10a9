"""The settings of 1829's own rules (``game.yaml`` ``title_rules``), each a reading the GM may
change, with its default, and 1829's own kind of private ability (the packet).

==================================  ==========  =================================================
setting                             default     meaning
==================================  ==========  =================================================
``end_after_operating_rounds``      30          the game ends after this many operating rounds
                                                (the seed: 30, "shaded down as far as 26"); 0:
                                                no limit (the big-bank alternative)
``dividend_rise_above_percent``     5           a dividend raises the price only if a share's
                                                dividend is more than this percent of the price
``rebuy_restores_price``            ``pool``    which purchases win back a fall caused by sales
                                                in the same stock round: ``pool``, ``any``
                                                (the IPO's too), ``none``
``lm_share_when_company_owned``     ``director``  who receives the L&YR share when a company
                                                owns the L&M: its ``director``, or ``none``
==================================  ==========  =================================================
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.engine.abilities import CORE_ABILITIES, Ability
from pbem.ruleset.composer import TitleComposer
from pbem.titles.g1829.lm import COMPANY_OWNED_RULE
from pbem.titles.g1829.operating import RISE_RULE
from pbem.titles.g1829.packets import Packet
from pbem.titles.g1829.sequence import END_RULE
from pbem.titles.g1829.stock import REBUY_RULE
from pbem.titles.g1829.survey import DEFAULTS as SURVEY_DEFAULTS

TITLE_RULES: Mapping[str, bool | int | str] = {END_RULE: 30, RISE_RULE: 5, REBUY_RULE: "pool",
                                               COMPANY_OWNED_RULE: "director", **SURVEY_DEFAULTS}
"""1829's settings and their defaults (module text; the survey parties': :mod:`.survey`)."""

REBUY_READINGS = ("pool", "any", "none")
LM_READINGS = ("director", "none")
GNSR = "gnsr"
"""The option replacing the Highland by the Great North of Scotland Railway."""


def with_gnsr(documents: Mapping[str, Any]) -> dict[str, Any]:
    """``documents`` with the HR's entry made the GNSR's: its certificates, starting price
    and place kept, its home Aberdeen (the seed's recommendation)."""
    composed = dict(documents)
    corporations = copy.deepcopy(composed["corporations"])
    for entry in corporations["corporations"]:
        if entry["sym"] == "HR":
            entry.update(sym="GNSR", short="GNS", name="Great North of Scotland Railway", home="B12")
            entry.pop("home_city", None)
    composed["corporations"] = corporations
    return composed


SETTINGS_NOTE = "Settings of this game"
MEANINGS: Mapping[str, str] = {
    END_RULE: "the game ends after this many operating rounds (0: when the bank breaks)",
    RISE_RULE: "a dividend raises the price only if a share's is more than this percent of it",
    REBUY_RULE: "purchases that win back a fall by sales in the same stock round (pool, any, none)",
    COMPANY_OWNED_RULE: "who receives the L&YR share when a company owns the L&M (director, none)",
    "survey_parties": "survey parties a company has",
    "survey_party_moves": "hexes a party moves a turn",
    "survey_parties_share_hexes": "two companies' parties may share a hex",
    "parked_party_upgrades": "a company with a parked party may upgrade",
    "party_station": "a station may go where the company's party stands, out of reach",
}
"""HELP's words for each setting (:data:`TITLE_RULES`)."""


def with_settings_note(documents: Mapping[str, Any]) -> dict[str, Any]:
    """``documents`` with HELP's note listing 1829's settings as this game has them (the
    defaults with the variants' changes), so the GM's readings are what HELP says."""
    composed = dict(documents)
    game = copy.deepcopy(composed["game"])
    rules = {**TITLE_RULES, **(game.get("title_rules") or {})}
    text = "; ".join(f"{MEANINGS[key]} ({key}): {str(value).lower() if isinstance(value, bool) else value}"
                     for key, value in rules.items() if key in TITLE_RULES)
    notes = dict(game.get("help_notes") or {})
    notes[SETTINGS_NOTE] = f"{text} (this game's readings where the rules are silent; the GM chooses them)."
    game["help_notes"] = notes
    composed["game"] = game
    return composed


class Rules1829Composer(TitleComposer):
    """1829's own settings and ability kinds (the boards are composed by its subclass)."""

    @classmethod
    def title_rules(cls) -> Mapping[str, bool | int | str]:
        """1830's and 1829's (module text)."""
        return {**super().title_rules(), **TITLE_RULES}

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        """With the ``gnsr`` option, the GNSR in place of the HR (:func:`with_gnsr`); HELP's
        note on the settings in force (:func:`with_settings_note`)."""
        composed = super().compose(documents, parts, variants)
        return with_settings_note(with_gnsr(composed) if GNSR in variants else composed)

    @classmethod
    def ability_kinds(cls) -> Mapping[str, type[Ability]]:
        """The core's kinds and the packet (:class:`~pbem.titles.g1829.packets.Packet`)."""
        return {**CORE_ABILITIES, Packet.kind: Packet}
