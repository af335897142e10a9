"""A share of a corporation with no share price may not be sold, nor offered for sale (issue
19): a share is sold at the market price and there is none. The rule is the core's selling
legality (:func:`pbem.engine.steps.stock.sell_problem`), so every title has it: 1870's
M-K-T private gives its owner a Katy share before the Katy is started, and Lorenz's 1825
privates S&D and L&M give NER and LNWR shares before those companies are started.

Each position is built (a seat holding such a share in a stock round where sales are
allowed), then the legal moves, the report's offers and a mail through the application
layer are checked: the mail is refused with the reason, never as an error of the server.
"""

from __future__ import annotations

import itertools

from pbem.application.mail import INTERNAL_LINE, AppConfig, handle_mail
from pbem.application.state import Replay, replay
from pbem.application.texts import TextSettings, turn_report
from pbem.commands import is_command_line
from pbem.engine.actions import SellShares
from pbem.engine.game import Game
from pbem.engine.state import RoundState, StockRoundState
from pbem.engine.steps.stock import sell_problem
from pbem.engine.values import Owner
from pbem.games import genesis_data, hash_secret
from pbem.log_records import GameRecord
from pbem.mail.types import BodyLine, Submission
from pbem.titles.g1825.lorenz.state import lorenz_state

ANN, BOB, CY = "Ann", "Bob", "Cy"
SEATS = [(name, f"{name.lower()}@example.org") for name in (ANN, BOB, CY)]
SECRETS = {name: f"{name.lower()}pw" for name, _ in SEATS}
GID = "no-price"
NO_PRICE = "has no share price yet (it has not been started), so there is no price to sell its shares at"


def table(title: str, variants: tuple[str, ...]) -> Replay:
    data = genesis_data(GID, title, variants, SEATS, "gm@example.org", SECRETS, "gmpw", random_seating=False)
    return replay([GameRecord(seq=0, genesis=data)])


def mail(seat: str, *lines: str) -> Submission:
    body = tuple(BodyLine(n, text, is_command_line(text)) for n, text in enumerate(lines, start=1))
    return Submission("<m1@example.org>", dict(SEATS)[seat], seat, f"[{GID}] orders", GID, SECRETS[seat], body)


def config() -> AppConfig:
    counter = itertools.count(1)
    return AppConfig(new_secret=lambda: f"fresh{next(counter)}", hash_secret=hash_secret, route_budget=5_000)


def give(game: Game, player: str, private: str, corp: str) -> None:
    """``player`` owns ``private`` and the first ordinary share of ``corp`` (as the private's
    free share), ``corp`` not started."""
    state = game.state
    state.companies[private].owner = Owner.player(player)
    state.players[player].companies.append(private)
    cert = next(c for c in state.certificates if c.corporation == corp and not c.president)
    cert.owner = Owner.player(player)
    assert state.corporations[corp].price is None and not state.corporations[corp].ipoed


def stock_round_2(game: Game, player: str) -> None:
    """Stock round 2 (sales allowed), ``player`` to act; every private owned (the unowned
    by the first seat)."""
    state = game.state
    first = state.seats[0]
    for sym, company in state.companies.items():
        if company.owner is None:
            company.owner = Owner.player(first)
            state.players[first].companies.append(sym)
    state.round = RoundState(kind="stock", number=2, entity_index=state.order.index(player), stock=StockRoundState())


def offers(state: Replay, seat: str) -> str:
    """The seat's own section of the report (what it may send)."""
    report = turn_report(state, TextSettings("pbem@example.org"), since=0, number=1, recipient=seat, width=132)
    return report.split("\nFOR ", 1)[1].split("\n\n", 1)[0]


def test_the_core_refuses_a_sale_of_a_corporation_with_no_share_price() -> None:
    state = table("1870", ())
    game = state.game
    give(game, BOB, "MKT", "MKT")
    stock_round_2(game, BOB)
    assert sell_problem(game, BOB, "MKT", 1) == (
        f"MKT {NO_PRICE}: they may be sold once MKT has a price on the market")
    katy = game.state.corporations["MKT"]
    katy.ipoed, katy.par = True, (0, 6)
    katy.price = (0, 6)
    game.state.market.setdefault((0, 6), []).append("MKT")
    assert sell_problem(game, BOB, "MKT", 1) is None, "with a price the share may be sold"


def test_1870_the_free_katy_share_is_not_offered_and_its_sale_is_refused_by_mail() -> None:
    state = table("1870", ())
    give(state.game, BOB, "MKT", "MKT")
    stock_round_2(state.game, BOB)
    assert state.game.current_actors() == [BOB]
    assert not any(isinstance(a, SellShares) and a.corporation == "MKT" for a in state.game.legal_actions(BOB))
    mine = offers(state, BOB)
    assert "PASS" in mine and "SELL" not in mine, mine
    for line in ("SELL MKT", "SELL 1 MKT"):
        decision = handle_mail(state, mail(BOB, line), config())
        assert decision.refusal is not None and decision.kind == "illegal", decision.kind
        assert decision.refusal.reason != INTERNAL_LINE
        assert NO_PRICE in decision.refusal.reason
        assert decision.refusal.failed_line == line and not decision.records


def test_1825_lorenz_the_free_ner_and_lnwr_shares_are_not_offered_and_their_sale_is_refused_by_mail() -> None:
    state = table("1825", ("lorenz", "unit_2"))  # Unit 2: S&D gives an NER share, L&M an LNWR share
    game = state.game
    give(game, BOB, "S&D", "NER")
    give(game, CY, "L&M", "LNWR")
    stock_round_2(game, BOB)
    assert "GWR" not in game.state.corporations, "no Unit 1: the variant's own NER rule is not in play"
    assert not any(isinstance(a, SellShares) for a in game.legal_actions(BOB))
    assert "SELL" not in offers(state, BOB)
    decision = handle_mail(state, mail(BOB, "SELL NER"), config())
    assert decision.refusal is not None and decision.kind == "illegal"
    assert f"NER {NO_PRICE}" in decision.refusal.reason
    stock_round_2(game, CY)
    assert not any(isinstance(a, SellShares) for a in game.legal_actions(CY))
    decision = handle_mail(state, mail(CY, "SELL LNWR"), config())
    assert decision.refusal is not None and decision.kind == "illegal"
    assert f"LNWR {NO_PRICE}" in decision.refusal.reason


def test_1825_lorenz_with_unit_1_the_free_ner_share_waits_for_the_directors_certificate() -> None:
    """The seed: "Nor may this free share of the NER be sold until the Director's share of
    the NER has been bought" (with Unit 1 in play), the variant's own reason first; once the
    Director's certificate is bought (the NER has its price) the share may be sold."""
    seats = [(f"P{n}", f"p{n}@example.org") for n in range(6)]
    data = genesis_data(GID, "1825", ("lorenz", "unit_12"), seats, "gm@example.org",
                        {name: "pw" for name, _ in seats}, "gmpw", random_seating=False)
    state = replay([GameRecord(seq=0, genesis=data)])
    game = state.game
    give(game, "P1", "S&D", "NER")
    cert = next(c for c in game.state.certificates if c.corporation == "NER" and c.owner == Owner.player("P1"))
    lorenz_state(game.state).free_shares["S&D"] = ("NER", cert.index)
    stock_round_2(game, "P1")
    assert sell_problem(game, "P1", "NER", 1) == (
        "the free NER share of S&D may not be sold before NER's Director's certificate is bought")
    assert not any(isinstance(a, SellShares) for a in game.legal_actions("P1"))
    ner = game.state.corporations["NER"]
    director = next(c for c in game.state.certificates if c.corporation == "NER" and c.president)
    director.owner = Owner.player("P2")
    ner.president, ner.ipoed, ner.par = "P2", True, (0, 6)
    ner.price = (0, 6)
    game.state.market.setdefault((0, 6), []).append("NER")
    assert sell_problem(game, "P1", "NER", 1) is None
