"""1830's part of reading and writing 18xx.games records (:mod:`pbem.importers.translation`).

1830's record actions are all the core's. One difference of the platform's turns: from the
second stock round, in phases 2 to 4, its stock round offers a player a private company
another player owns (a sale agreed between them; 18xx.games ``g_1830/game.rb``, the phases'
``can_buy_companies_from_other_players``), which our engine has no order for, so the
platform asks such a player where ours passes them by itself; the export writes that pass.
"""

from __future__ import annotations

from pbem.importers.translation import RecordTranslation


class Translation1830(RecordTranslation):
    """1830: the core's record actions; the platform's private trades between players."""

    platform_lacks = frozenset({"emergency_bank_train_only", "home_one_city_left", "token_city_chosen_by_owner"})
    private_trade_phases = frozenset({"2", "3", "4"})
    private_trade_first_round = False


TRANSLATION: type[RecordTranslation] = Translation1830
