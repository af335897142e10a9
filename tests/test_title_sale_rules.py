"""A title's own reason a share may not be sold (issue 12's extension point; Lorenz's 1825
keeps a free NER share unsold until the NER's Director's certificate has been bought): a
made-up title built from 1830's data whose hooks keep PRR shares off the market while the
phase is 2. The stock step's legal moves, the report's offers and the refusals all read the
one hook; 1830 itself is unchanged."""

from __future__ import annotations

import dataclasses

import pytest

from pbem import report_sections as sections
from pbem.engine.stock_rules import StockRules
from pbem.engine.actions import BuyPrivate, Par, Pass, SellShares
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


class NoPrrSalesInPhase2(StockRules):
    """PRR shares may not be sold while the phase is 2."""

    def sell_problem(self, game: Game, player: str, sym: str, count: int) -> str | None:
        if sym == "PRR" and game.state.phase == "2":
            return "PRR shares may not be sold before phase 3"
        return None


def second_stock_round(hooks: TitleHooks) -> tuple[Game, str]:
    """1830 in SR 2 (sales allowed) with the player who started PRR holding a second PRR share."""
    base = load_title("1830")
    game = Game(dataclasses.replace(base, hooks=hooks), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.apply(P3, Par("B&O", 100))
    player = game.current_actors()[0]
    game.apply(player, Par("PRR", 100))
    while game.state.round.kind != "stock" or game.state.round.number == 1:
        game.apply(game.current_actors()[0], Pass())
    extra = next(c for c in game.state.certificates if c.corporation == "PRR" and not c.president)
    extra.owner = Owner.player(player)  # a share beside the president's certificate, to sell
    return game, player


def test_the_titles_reason_keeps_a_sale_off_the_legal_moves_and_refuses_it() -> None:
    game, player = second_stock_round(TitleHooks(stock=NoPrrSalesInPhase2()))
    while game.current_actors() != [player]:
        game.apply(game.current_actors()[0], Pass())
    assert SellShares("PRR", 1) not in game.legal_actions(player)
    with pytest.raises(IllegalOrderError, match="PRR shares may not be sold before phase 3"):
        game.apply(player, SellShares("PRR", 1))
    assert "SELL PRR" not in "\n".join(sections.options(game, player)), "the report's offers agree"
    game.state.phase = "3"
    assert SellShares("PRR", 1) in game.legal_actions(player)


def test_1830_has_no_reason_of_its_own() -> None:
    game, player = second_stock_round(TitleHooks())
    while game.current_actors() != [player]:
        game.apply(game.current_actors()[0], Pass())
    assert StockRules().sell_problem(game, player, "PRR", 1) is None
    assert SellShares("PRR", 1) in game.legal_actions(player)
