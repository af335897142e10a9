"""The readings of Lorenz's variant where its text (seed 002) is silent: each a setting of
1825's own rules (``game.yaml`` ``title_rules``, declared here with its default and set in
``rules/1825/variants/lorenz.yaml``), the other reading a further variant file the GM may
name at ``new-game``, which includes ``lorenz`` and changes the setting.

=====================================  =========================  ============================
setting (default: the reading chosen)  what it decides             the other reading (variant)
=====================================  =========================  ============================
``lorenz_price_drops_when_all_pass``   all pass in the start:      prices stay; the privates
  (True)                               the cheapest unsold          sold pay their revenue
                                       private falls by £5, as      (``lorenz_no_price_drop``)
                                       in 1830
``lorenz_assign_any_time`` (False)     ASSIGN only in an            also in a stock turn
                                       operating round              (``lorenz_assign_any_time``)
``lorenz_designation_may_change``      a designation stands         an unused power may be
  (False)                              once given                   moved (same variant)
``lorenz_chp_build_is_a_turn_lay``     C&HP's build is one of the   an extra lay
  (True)                               company's lays this turn     (``lorenz_chp_extra_lay``)
``lorenz_chp_build_needs_reach``       its track must reach P14     no connection needed (same
  (True)                                                            variant)
``lorenz_tww_lay_ignores_reach``       TWW's lay at Durham needs    its track must reach K13
  (True)                               no connection                (``lorenz_tww_needs_reach``)
``lorenz_cw_token_is_own`` (True)      C&W's token is one of the    an extra token
                                       company's own tokens         (``lorenz_cw_extra_token``)
``lorenz_gwr_sold_out_from_ipo``       with Unit 1, the GWR has     all ten GWR shares held by
  (True)                               "sold out" (no more NER      players, the pool not
                                       shares before) once no GWR   counting
                                       share is left in its IPO,    (``lorenz_gwr_sold_out_to_players``)
                                       as 1825 reads "sold out"
                                       for its bands
=====================================  =========================  ============================

Either way the GWR "has been sold out" once it is, for good: a GWR share sold to the pool
later does not close the NER again (:mod:`.sold_out`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from pbem.engine.game import Game

PRICE_DROPS = "lorenz_price_drops_when_all_pass"
ASSIGN_ANY_TIME = "lorenz_assign_any_time"
DESIGNATION_MAY_CHANGE = "lorenz_designation_may_change"
CHP_TURN_LAY = "lorenz_chp_build_is_a_turn_lay"
CHP_NEEDS_REACH = "lorenz_chp_build_needs_reach"
TWW_IGNORES_REACH = "lorenz_tww_lay_ignores_reach"
CW_OWN_TOKEN = "lorenz_cw_token_is_own"
SOLD_OUT_FROM_IPO = "lorenz_gwr_sold_out_from_ipo"

DEFAULTS: Mapping[str, bool] = {
    PRICE_DROPS: True,
    ASSIGN_ANY_TIME: False,
    DESIGNATION_MAY_CHANGE: False,
    CHP_TURN_LAY: True,
    CHP_NEEDS_REACH: True,
    TWW_IGNORES_REACH: True,
    CW_OWN_TOKEN: True,
    SOLD_OUT_FROM_IPO: True,
}
"""Each setting and its default, the reading chosen (see the module text)."""

OTHER_READING: Mapping[str, str] = {
    PRICE_DROPS: "lorenz_no_price_drop",
    ASSIGN_ANY_TIME: "lorenz_assign_any_time",
    DESIGNATION_MAY_CHANGE: "lorenz_assign_any_time",
    CHP_TURN_LAY: "lorenz_chp_extra_lay",
    CHP_NEEDS_REACH: "lorenz_chp_extra_lay",
    TWW_IGNORES_REACH: "lorenz_tww_needs_reach",
    CW_OWN_TOKEN: "lorenz_cw_extra_token",
    SOLD_OUT_FROM_IPO: "lorenz_gwr_sold_out_to_players",
}
"""The variant file (``rules/1825/variants/<name>.yaml``) that plays each setting's other
reading."""


def reading(game: Game, key: str) -> bool:
    """The game's value of the setting ``key`` (one of :data:`DEFAULTS`).

    :raises KeyError: the title declares no such setting."""
    return bool(game.title.title_rule(key))
