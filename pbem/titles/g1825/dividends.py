"""1825's dividends: pay out in full or withhold (no partial payouts; the title's
``dividend_choices``), and the share price moves by the dividend's size against it.

The dividend is the whole amount paid to the holders (the run's revenue on a payout,
nothing when withheld); the price is the company's share price before the move:

======================================  ==========================
dividend                                price move
======================================  ==========================
nothing                                 one cell left
at most half the price                  none
more than half, less than twice         one cell right
at least twice, less than three times   two cells right
at least three, less than four times    three cells right
four times the price or more            four cells right
======================================  ==========================

Half the price is rounded down (a price of 67 moves on a dividend of 34 or more).

Source: 18xx.games ``g_1825/step/dividend.rb`` (``share_price_change``) and ``game.rb``
(``price_movement_chart``); issue 12 ("dividend moves by the dividend's size against the
share price; no partial payouts").
"""

from __future__ import annotations

from pbem.engine.stock_rules import PriceMove


def price_moves(paid: int, price: int) -> tuple[PriceMove, ...]:
    """The cells the price moves after a dividend of ``paid`` (money, the total paid to the
    holders) at share price ``price`` (money): one left, none, or one to four right (see the
    module text)."""
    if paid <= 0:
        return (PriceMove.LEFT,)
    if paid <= price // 2:
        return ()
    if paid < 2 * price:
        return (PriceMove.RIGHT,)
    return (PriceMove.RIGHT,) * min(4, paid // price)
