"""Private companies sold between players (issue 21: "private sales between players, where
the title allows them, by the same offer and acceptance"). 1830 as 18xx.games plays it: in
a stock round, phases 2 to 4, from the second stock round, the player on turn may buy
another player's private at a price agreed with its owner, as the turn's one purchase;
1870: phases 2 and 3. The owner's consent is asked by mail (ACCEPT / DECLINE).

The position is 1830_game_end_bank at its second stock round (phase 2), Player 2 on turn.
"""

from __future__ import annotations

import dataclasses

import pytest

from pbem.application.state import GameInfo, Replay, Seat, open_deals
from pbem.engine.actions import BuyPrivate, BuyShares, Pass
from pbem.engine.game import Game
from pbem.engine.offers import legal_offers
from pbem.engine.state import IPO, Owner
from pbem.engine.steps import private_trades
from pbem.errors import IllegalOrderError
from pbem.games import hash_secret
from pbem.log_records import DealRecord, OrderRecord
from pbem.orders import Vocabulary, format_order, parse_order
from pbem.ruleset import load_title
from tests.records import replayed_before
from tests.test_deals import GID, accepted, address, mail, refused, report, secret
from tests.test_export_records import exporter_on, last

P1, P2, P3 = "Player 1", "Player 2", "Player 3"
SR2 = 38
"""The record's first action of its second stock round."""


def second_stock_round() -> Game:
    game = replayed_before("1830", "1830_game_end_bank.json", SR2).game
    assert (game.round_label(), game.state.phase, game.current_actors()) == ("SR 2", "2", [P2])
    return game


def owners(game: Game) -> dict[str, str | None]:
    return {sym: c.owner.name if c.owner else None for sym, c in game.state.companies.items() if not c.closed}


def test_the_player_on_turn_may_buy_each_other_players_private_but_one_barred_from_sale() -> None:
    game = second_stock_round()
    bo = game.state.companies["BO"]  # closed by now: open again, held by Player 1 (a built position)
    bo.closed, bo.owner = False, Owner.player(P1)
    game.state.players[P1].companies.append("BO")
    held = owners(game)
    trades = [a for a in game.legal_actions(P2) if isinstance(a, BuyPrivate)]
    others = {sym for sym, owner in held.items() if owner in (P1, P3) and sym != "BO"}
    assert others and {a.company for a in trades} == others and all(a.price == 1 for a in trades)
    assert "BO" not in {a.company for a in trades}, "the B&O may not be sold"
    assert private_trades.trade_problem(game, P2, "BO", 50, False) == "BO is not another player's private company for sale"
    mine = next(sym for sym, owner in held.items() if owner == P2)
    assert "not another player's" in (private_trades.trade_problem(game, P2, mine, 50, False) or "")
    offer = next(o for o in legal_offers(game, P2) if isinstance(o.action, BuyPrivate))
    assert (offer.low, offer.high) == (1, game.state.players[P2].cash)


def test_a_sale_between_players_moves_the_private_and_the_money_and_is_the_turns_purchase() -> None:
    game = second_stock_round()
    seller = owners(game)["CS"]
    assert seller is not None and seller != P2
    cash = {p: game.state.players[p].cash for p in (P2, seller)}
    priority = game.state.round.stock.last_to_act if game.state.round.stock else None
    game.apply(P2, BuyPrivate("CS", 55))
    assert game.state.companies["CS"].owner == Owner.player(P2)
    assert "CS" in game.state.players[P2].companies and "CS" not in game.state.players[seller].companies
    assert game.state.players[P2].cash == cash[P2] - 55 and game.state.players[seller].cash == cash[seller] + 55
    assert f"{P2} buys CS from {seller} for $55" in [e.render(game.money) for e in game.last_events]
    assert game.current_actors() == [P2], "the turn goes on: the player may still sell"
    assert not any(isinstance(a, (BuyShares, BuyPrivate)) for a in game.legal_actions(P2)), "one purchase a turn"
    with pytest.raises(IllegalOrderError, match="already bought a certificate this turn"):
        game.apply(P2, BuyPrivate("SV", 10))
    assert game.state.round.stock is not None and game.state.round.stock.last_to_act == priority, \
        "a private bought from a player does not move the priority deal (as the platform plays it)"
    game.apply(P2, Pass())
    assert not game.state.players[P2].passed, "a turn with a purchase is not a pass"


def test_after_a_share_bought_no_private_and_the_price_is_one_to_the_buyers_cash() -> None:
    game = second_stock_round()
    cash = game.state.players[P2].cash
    assert "may pay $1 to" in (private_trades.trade_problem(game, P2, "CS", cash + 1, False) or "")
    with pytest.raises(IllegalOrderError, match="name the price agreed"):
        game.apply(P2, BuyPrivate("CS"))
    game.state.players[P2].cash += 400  # a built position: P2 can afford a share
    buy = next(a for a in game.legal_actions(P2) if isinstance(a, BuyShares))
    game.apply(P2, buy)
    assert not any(isinstance(a, BuyPrivate) for a in game.legal_actions(P2))


def test_the_certificate_limit_holds_for_a_private_bought_from_a_player() -> None:
    game = second_stock_round()
    from pbem.engine import shares

    limit = shares.certificate_limit(game.state, game.title)
    spare = [c for c in game.state.certificates if c.owner == IPO and not c.president]
    short = limit - shares.certificate_count(game.state, game.title, P2)
    for cert in spare[:short]:
        cert.owner = Owner.player(P2)  # P2 at the limit (shares of unstarted corporations count)
    assert shares.certificate_count(game.state, game.title, P2) == limit
    assert private_trades.trade_problem(game, P2, "CS", 50, False) == f"{P2} is at the certificate limit of {limit}"


def test_not_in_the_first_stock_round_nor_from_phase_5_nor_where_the_gm_forbids_it() -> None:
    game = second_stock_round()
    early = dataclasses.replace(game.state.round, number=1)
    game.state.round = early
    assert not private_trades.trades_open(game) and not any(isinstance(a, BuyPrivate) for a in game.legal_actions(P2))
    assert "not sold between players now (SR 1, phase 2)" in (private_trades.trade_problem(game, P2, "CS", 50, False) or "")
    late = second_stock_round()
    late.state.phase = "5"
    assert not private_trades.trades_open(late)
    assert load_title("1830", ("no_private_trades",)).settings.private_trades.phases == frozenset()
    assert load_title("1870").settings.private_trades.phases == frozenset({"2", "3"})


def test_1870_has_none_in_phase_1() -> None:
    game = Game(load_title("1870"), [P1, P2, P3])
    assert game.state.phase == "1"
    assert not private_trades.trades_open(game)


def test_the_order_reads_and_writes_back_and_the_export_is_the_platforms_purchase() -> None:
    game = second_stock_round()
    vocab = Vocabulary.from_title(game.title)
    assert parse_order("BUY CS 55", vocab) == BuyPrivate("CS", 55)
    assert format_order(BuyPrivate("CS", 55), vocab) == "BUY CS 55"
    exporter = exporter_on(game)
    from pbem.exporters.records import LoggedOrder

    exporter.add(LoggedOrder(99, P2, BuyPrivate("CS", 55)))
    action = last(exporter)
    assert {k: action[k] for k in ("type", "entity_type", "company", "price")} == \
        {"type": "buy_company", "entity_type": "player", "company": "CS", "price": 55}
    assert exporter.game.state.companies["CS"].owner == Owner.player(P2)


# -- by mail: an offer the owner accepts or declines ---------------------------------------------


def position() -> Replay:
    game = second_stock_round()
    seats = [Seat(name, address(name), hash_secret(GID, secret(name))) for name in game.state.seats]
    info = GameInfo(GID, "1830", (), seats, "gm@example.org", hash_secret(GID, "gmpw"))
    return Replay(info, game.title, game, last_seq=0)


def test_by_mail_the_owner_accepts_and_the_private_changes_hands() -> None:
    state = position()
    seller = owners(state.game)["CS"]
    assert seller is not None
    mine = report(state, P2)
    flat = " ".join(mine.split())
    assert "BUY CS 1" in flat and f"{seller}'s CS" in flat
    assert f"for $1 to ${state.game.state.players[P2].cash}, an offer its owner must ACCEPT" in flat
    offered = mail(state, P2, "BUY CS 55")
    assert offered.refusal is None
    [deal] = offered.records
    assert isinstance(deal, DealRecord) and (deal.buyer, deal.owner) == (P2, seller)
    state = offered.state
    assert state.game.state.companies["CS"].owner == Owner.player(seller), "nothing changes hands yet"
    assert f"DEAL {deal.seq}: {P2} offers you a deal: BUY CS 55" in report(state, seller)
    answer = mail(state, seller, "ACCEPT")
    assert answer.refusal is None
    yes, bought = answer.records
    assert isinstance(bought, OrderRecord) and bought.actor == P2
    assert answer.state.game.state.companies["CS"].owner == Owner.player(P2)
    assert answer.state.game.current_actors() == [P2], "the buyer's turn goes on"


def test_by_mail_a_declined_offer_or_the_buyers_pass_ends_it() -> None:
    state = accepted(position(), P2, "BUY CS 55")
    seller = owners(state.game)["CS"]
    assert seller is not None
    declined = accepted(state, seller, "DECLINE")
    assert declined.game.state.companies["CS"].owner == Owner.player(seller) and open_deals(declined) == []
    passed = accepted(state, P2, "PASS")
    assert open_deals(passed) == [], "the offer lapses when the buyer's turn ends"
    assert f"no deal is offered to {seller} now" in refused(passed, seller, "ACCEPT")


def test_after_a_private_bought_shares_where_several_may_be_bought_still_may_be() -> None:
    """As 18xx.games plays it (its stock round's ``can_buy_multiple?`` counts only shares
    and pars before): a private bought, a player may still buy shares from the pool of a
    corporation in a zone where several may be bought in one turn."""
    from pbem.engine import market
    from pbem.engine.state import POOL

    game = second_stock_round()
    title = game.title
    brown = next((r, c) for r, row in enumerate(title.market) for c, found in enumerate(row)
                 if found is not None and found.buy_multiple)
    sym = next(s for s, c in game.state.corporations.items() if c.floated and c.price is not None)
    market.move(game.state, title, sym, brown)
    spare = next(c for c in game.state.certificates if c.corporation == sym and c.owner == IPO and not c.president)
    spare.owner = POOL
    game.state.players[P2].cash += 300
    game.apply(P2, BuyPrivate("CS", 10))
    assert BuyShares(sym, "pool") in game.legal_actions(P2)
    assert not any(isinstance(a, BuyShares) and a.corporation != sym for a in game.legal_actions(P2))


def test_buy_private_without_a_price_says_where_privates_are_bought() -> None:
    """Issue 22: a player's BUY <private> in a stock round (1870's BUY MKT) is answered with
    where privates are bought: by a corporation in its operating turn."""
    game = second_stock_round()
    with pytest.raises(IllegalOrderError, match=r"name the price agreed with its owner: BUY CS <price>; or a "
                                                 r"corporation buys a private company in its operating turn"):
        game.apply(P2, BuyPrivate("CS"))
    game.state.phase = "5"
    with pytest.raises(IllegalOrderError, match="private companies are not sold in this stock round: a corporation"):
        game.apply(P2, BuyPrivate("CS"))
