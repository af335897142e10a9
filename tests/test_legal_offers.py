"""The one legal-move API (pbem.engine.offers.legal_offers): each action the player to act
may give, with what the engine knows of it, read by the report, by HELP and by the refusal
of a mail. Built positions of 1830: the private auction, a stock round with shares to sell
and the MH to exchange, an operating turn with a run due."""

from __future__ import annotations

import copy

from pbem.application.mail import handle_mail
from pbem.application.texts import TextSettings, info_text
from pbem.commands import Info
from pbem.engine.actions import (
    Bid, BuyPrivate, Exchange, Par, Pass, RunAuto, RunRoutes, SellShares,
)
from pbem.engine.game import Game
from pbem.engine.offers import LegalOffer, exchange_problem, legal_offers
from pbem.engine.steps import auction
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem import report_sections as sections
from pbem.ruleset import load_title
from tests.mail_table import Table

import pytest

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


def auction_game() -> Game:
    return Game(load_title("1830"), [P1, P2, P3])


def stock_round_two() -> Game:
    """1830 in SR 2: P1 owns the MH, P3 started the B&O, someone the PRR."""
    game = auction_game()
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.apply(P3, Par("B&O", 100))
    game.apply(game.current_actors()[0], Par("PRR", 100))
    while game.state.round.kind != "stock" or game.state.round.number == 1:
        game.apply(game.current_actors()[0], Pass())
    return game


def offered(game: Game, player: str, kind: type) -> list[LegalOffer]:
    return [o for o in legal_offers(game, player) if isinstance(o.action, kind)]


def test_a_bid_carries_the_least_bid_and_the_most_the_bidder_may_bid() -> None:
    game = auction_game()
    player = game.current_actors()[0]
    game.apply(player, Bid("CA", 170))  # 160 face value: a bid, not a purchase
    other = game.current_actors()[0]
    bid = next(o for o in offered(game, other, Bid) if o.action.company == "CA")  # type: ignore[attr-defined]
    assert bid.low == bid.action.price == auction.min_bid(game, "CA") == 175  # type: ignore[attr-defined]
    assert bid.high == game.state.players[other].cash
    with pytest.raises(IllegalOrderError):
        copy.deepcopy(game).apply(other, Bid("CA", bid.high + 5))
    buy = offered(game, other, BuyPrivate)
    assert [(o.action, o.low) for o in buy] == [(BuyPrivate("SV"), 20)], "the cheapest, at face value"


def test_nothing_is_offered_to_a_player_not_to_act() -> None:
    game = auction_game()
    waiting = next(p for p in game.state.seats if p not in game.current_actors())
    assert legal_offers(game, waiting) == ()
    assert sections.may_now(game, waiting) == []


def test_a_sale_carries_the_most_shares_one_sale_may_sell() -> None:
    game = stock_round_two()
    player = next(p for p in game.state.seats if game.state.corporations["PRR"].president == p)
    for cert in [c for c in game.state.certificates if c.corporation == "PRR" and not c.president][:3]:
        cert.owner = Owner.player(player)  # three shares beside the president's certificate
    while game.current_actors() != [player]:
        game.apply(game.current_actors()[0], Pass())
    sale = next(o for o in offered(game, player, SellShares) if o.action.corporation == "PRR")  # type: ignore[attr-defined]
    assert sale.action == SellShares("PRR", 1)
    # three of them, and the president's certificate too where another holds 20%: nobody does
    assert sale.most == 3
    copy.deepcopy(game).apply(player, SellShares("PRR", sale.most))
    with pytest.raises(IllegalOrderError):
        copy.deepcopy(game).apply(player, SellShares("PRR", sale.most + 1))
    assert "SELL 2 PRR sells two" in "\n".join(sections.options(game, player))


def test_the_mh_exchange_is_offered_exactly_when_the_engine_takes_it() -> None:
    game = stock_round_two()
    while game.current_actors() != [P1]:
        game.apply(game.current_actors()[0], Pass())
    assert [o.action for o in offered(game, P1, Exchange)] == [Exchange("MH")], "at any time (1830 rules 4.2)"
    assert "EXCHANGE MH" in "\n".join(sections.options(game, P1))
    full = copy.deepcopy(game)  # P1 at the holding limit of NYC: no exchange
    for cert in [c for c in full.state.certificates if c.corporation == "NYC" and not c.president][:6]:
        cert.owner = Owner.player(P1)
    assert offered(full, P1, Exchange) == []
    assert exchange_problem(full, P1, Exchange("MH")) == f"{P1} may not hold more than 60% of NYC"
    with pytest.raises(IllegalOrderError, match="may not hold more than 60% of NYC"):
        full.apply(P1, Exchange("MH"))
    game.apply(P1, Exchange("MH"))
    assert game.state.companies["MH"].closed
    assert exchange_problem(game, P1, Exchange("MH")) == f"{P1} does not own the private company MH"
    assert offered(game, P1, Exchange) == []


def test_the_run_due_is_offered_as_the_best_run_with_its_revenue() -> None:
    """1830_game_end_bank before a run (action 440 on): the best run found comes first, with
    its revenue, then RUN AUTO; the run applies and earns that revenue."""
    from pbem.importers.e18xx import effective_actions, load_record
    from tests.records import record_path, replayed_before

    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    run_id = next(a["id"] for a in effective_actions(record) if a["type"] == "run_routes" and float(a["id"]) >= 440)
    game = replayed_before("1830", "1830_game_end_bank.json", run_id).game
    player = game.current_actors()[0]
    runs = [o for o in legal_offers(game, player) if isinstance(o.action, (RunRoutes, RunAuto))]
    assert [type(o.action) for o in runs] == [RunRoutes, RunAuto]
    best = runs[0]
    assert best.proven and best.revenue is not None and best.revenue > 0
    twin = copy.deepcopy(game)
    twin.apply(player, best.action)
    assert twin.last_run is not None and sum(r.revenue for r in twin.last_run) == best.revenue


def test_a_refused_order_and_help_give_what_may_be_sent_now() -> None:
    """By mail: a refused order's reply lists what the sender may do now, the first line of
    which is accepted as written; HELP ends with the same list; a seat not to act gets none."""
    table = Table("offers", "1830", (), ["Ann", "Bob", "Cat"])
    first = table.state.game.current_actors()[0]
    decision = handle_mail(table.state, table.submission(first, ("BUY BO",)), table.config)
    assert decision.refusal is not None
    text = decision.refusal.text("offers", None)
    may = sections.may_now(table.state.game, first, table.config.route_budget)
    assert "What you may do now:" in text and may and all(line in text for line in may)
    assert max(len(line) for line in text.splitlines()) <= 80
    line = next(entry.split("  -- ")[0].split("  or  ")[0] for entry in may if entry.startswith("BUY "))
    table.send(first, line)
    actor = table.state.game.current_actors()[0]
    settings = TextSettings("pbem@example.org", table.config.route_budget)
    help_text = info_text(table.state, settings, None, Info("HELP", "help"), f"{actor.lower()}@example.org")  # type: ignore[arg-type]
    assert help_text.rstrip().endswith(sections.may_now(table.state.game, actor, table.config.route_budget)[-1])
    waiting = next(seat for seat in ("Ann", "Bob", "Cat") if seat != actor)
    other = info_text(table.state, settings, None, Info("HELP", "help"), f"{waiting.lower()}@example.org")  # type: ignore[arg-type]
    assert "may do now" not in other
