"""The facts of Kevin Lorenz's private-company variant of 1825 (variant ``lorenz``), as the
variant's text gives them (seed 002: "1825 Variant for the Private Companies by Kevin Lorenz,
with contributions by Lou Jerkich"). Hexes are named as 18xx.games names 1825's (Durham K13,
the mountain P14, Dover W25).
"""

from __future__ import annotations

VARIANT = "lorenz"
"""The variant's name among a game's variants."""

START = "lorenz_auction"
"""The kind of the variant's first round (its ``round_steps`` key, rules/1825/variants/lorenz.yaml),
and the name of its step of buy/bid/pass."""

BIDDING = "lorenz_bidding"
"""The name of the start's step while a private is auctioned among its bidders."""

TWW, CHP, CW, SD, LM = "TWW", "C&HP", "C&W", "S&D", "L&M"
"""The privates with a special power: Tanfield Wagon Way (Unit 3; £60, revenue £10),
Cromford & High Peak (Units 1 and 2; £75, £12), Canterbury & Whitstable (Unit 1; £130, £20),
Stockton & Darlington (Units 2 and 3; £160, £25), Liverpool & Manchester (Units 1 and 2;
£210, £30)."""

DESIGNATED = (TWW, CHP, CW)
"""The privates whose power goes to a public company their owner directs and designates
(rule 5): ``ASSIGN <private> <company>``."""

DURHAM = "K13"
"""Tanfield Wagon Way's hex: a free extra tile lay or upgrade there."""

PEAK = "P14"
"""Cromford & High Peak's mountain: a half-price build there, and no track there before."""

DOVER = "W25"
"""Canterbury & Whitstable's city: a free token there without a track connection."""

FREE_SHARES = {SD: "NER", LM: "LNWR"}
"""The share each of these privates gives its buyer at once (rule 5): a 10% share, not the
Director's certificate."""

LIMITED_SHARE_CORPORATION = "NER"
"""With Unit 1 in play no more of its shares may be bought until :data:`SOLD_OUT_FIRST` has
sold out, and the free share may not be sold before its Director's certificate is bought."""

SOLD_OUT_FIRST = "GWR"
"""The Unit 1 company (its presence marks Unit 1 in play) that must sell out first."""

AFTER_THE_PRIVATES = "LNWR"
"""No further shares of it are on offer until every private is sold (rule 1)."""

CLOSING_TRAIN = "5"
"""The train type whose first purchase closes every private (rule 6)."""

BID_STEP = 5
"""A first bid exceeds the face value, and each later bid the high bid, by at least this (£)."""
