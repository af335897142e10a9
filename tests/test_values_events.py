"""Typed values of the state (owners) and typed events (issue 11: "typed values")."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from pbem.engine.values import CityRef
from pbem.engine import closing
from pbem.engine import events as core_events
from pbem.engine.actions import BuyPrivate, LayTile, Pass, PlaceToken
from pbem.engine.events import (
    DividendPaid,
    Event,
    PriceMoved,
    PrivateBought,
    SharesBought,
    TokenCityPending,
    render_all,
)
from pbem.engine.game import Game
from pbem.engine.values import IPO, POOL, DisplacedToken, Owner
from pbem.ruleset import load_title
from pbem.titles.g1870 import events as events_1870

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


def test_owners_of_different_kinds_never_compare_equal() -> None:
    """A player and a corporation of the same name are different owners; the bank's two
    places are distinct; owners are hashable and tell their kind and name."""
    player, corp = Owner.player("PRR"), Owner.corporation("PRR")
    assert player != corp and len({player, corp, IPO, POOL}) == 4
    assert player == Owner.player("PRR") and hash(player) == hash(Owner.player("PRR"))
    assert player.is_player and not player.is_corporation and player.player_name() == "PRR"
    assert corp.is_corporation and corp.corporation_sym() == "PRR" and corp.player_name() is None
    assert IPO.player_name() is None and POOL.corporation_sym() is None
    assert not IPO.is_player and not POOL.is_corporation


def test_a_player_named_like_a_corporation_owner_keeps_the_private() -> None:
    """With owners as strings a seat named like a corporation's owner id ("C:PRR") was taken
    for the corporation: closing PRR closed that player's private. Typed owners keep the two
    apart: the private stays the player's and still pays the player."""
    game = Game(load_title("1830"), ["C:PRR", P2, P3])
    game.apply("C:PRR", BuyPrivate("SV"))
    assert game.state.companies["SV"].owner == Owner.player("C:PRR")
    closing.close_corporation(game, "PRR")
    assert not game.state.companies["SV"].closed and game.state.players["C:PRR"].companies == ["SV"]
    cash = game.state.players["C:PRR"].cash
    game.payout_companies()
    assert game.state.players["C:PRR"].cash == cash + game.title.company("SV").revenue


def _event_classes() -> list[type[Event]]:
    found = []
    for module in (core_events.base, core_events.rounds, core_events.operating, events_1870):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Event) and cls is not Event and cls.__module__ == module.__name__:
                found.append(cls)
    return found


@pytest.mark.parametrize("cls", _event_classes(), ids=lambda c: c.__name__)
def test_every_event_is_a_frozen_dataclass_with_its_own_render(cls: type[Event]) -> None:
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert cls.render is not Event.render, f"{cls.__name__} does not render itself"


def test_events_hold_values_and_render_in_the_titles_money() -> None:
    """Amounts are ints in the event; the currency comes only when rendered."""
    bought = SharesBought(P1, 10, "PRR", "pool", 67)
    assert bought.price == 67
    with pytest.raises(dataclasses.FrozenInstanceError):
        bought.price = 1  # type: ignore[misc]
    pounds = "£{}".format
    assert bought.render(pounds) == "Player 1 buys a 10% share of PRR from the market for £67"
    assert PriceMoved("PRR", 67, 71).render("${}".format) == "PRR's share price moves from $67 to $71"
    paid = DividendPaid("B&O", 90, 0, 9.0, ((54, P1), (9, "B&O")))
    assert paid.render(pounds) == "B&O pays out £90 = £9 per share (£54 to Player 1, £9 to B&O)"
    assert DividendPaid("X", 5, 0, 0.5, ((5, P1),)).render(pounds) == "X pays out £5 = 0.5 per share (£5 to Player 1)"


def test_apply_returns_typed_events_that_render_as_the_report_lines() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    events = game.apply(P1, BuyPrivate("SV"))
    assert events == [PrivateBought(P1, "SV", 20)]
    events = game.apply(P2, Pass())
    assert all(isinstance(e, Event) for e in events)
    assert render_all(events, game.money)[0] == "Player 2 passes bidding"


def test_a_token_on_a_trackless_oo_hex_waits_as_a_typed_value_until_its_city_is_chosen() -> None:
    """ERIE's home token sits on E11 before track (1830: an OO hex); a tile there gives the
    cities an identity, so the token waits (a :class:`DisplacedToken`) until the president
    chooses its city; both steps are events of their own."""
    from tests.test_engine_operating import float_corp, operating

    game = Game(load_title("1830"), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA")):
        game.apply(player, BuyPrivate(company))
    game.state.phase = "3"  # the OO tile #59 is laid from phase 3
    float_corp(game, "ERIE", P1, 100, 1000)
    operating(game)
    assert game.state.tokens == {CityRef("E11", 0): ["ERIE"]}
    events = game.apply(P1, LayTile("E11", "59", 0))
    assert TokenCityPending("ERIE", "E11") in events
    assert game.state.pending_tokens == [DisplacedToken("ERIE", "E11", "ERIE")]  # ERIE laid it: it chooses
    events = game.apply(P1, PlaceToken("E11", 1))
    assert render_all(events, game.money)[0] == "ERIE places its token on E11 city 1"
    assert game.state.tokens == {CityRef("E11", 1): ["ERIE"]} and game.state.pending_tokens == []


def test_the_report_names_a_private_owned_by_a_corporation_by_its_symbol() -> None:
    """An owner is shown by its name: a corporation's private reads "PRR", not the old owner
    id "C:PRR"."""
    from tests.test_report_first import report

    game = Game(load_title("1830"), [P1, P2, P3])
    game.apply(P1, BuyPrivate("SV"))
    game.state.companies["SV"].owner = Owner.corporation("PRR")
    game.state.players[P1].companies.remove("SV")
    line = next(line for line in report(game, None, width=132).splitlines() if line.startswith("  SV "))
    assert line.rstrip().endswith(" PRR") and "C:" not in line
