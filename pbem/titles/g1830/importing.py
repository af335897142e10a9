"""1830's part of reading and writing 18xx.games records (:mod:`pbem.importers.translation`).

1830's record actions are all the core's. A private sold between players in a stock round
(the title's ``private_trades``: phases 2 to 4 from the second stock round, as 18xx.games
``g_1830`` plays it) is the platform's ``buy_company`` by a player, our ``BUY <private>
<price>``; the platform also offers it to a player at the certificate limit, whom our engine
passes by itself, and the export writes the platform's pass for that turn.
"""

from __future__ import annotations

from pbem.importers.translation import RecordTranslation


class Translation1830(RecordTranslation):
    """1830: the core's record actions; the platform's private trades between players."""

    platform_lacks = frozenset({"no_private_trades", "emergency_bank_train_only", "home_one_city_left",
                                "token_city_chosen_by_owner"})


TRANSLATION: type[RecordTranslation] = Translation1830
