"""A made-up title that lives entirely in the tests (issue 11: "a new title or variant must
need no edit of the core: prove it with a small made-up title in the tests that adds a step,
an action with its order word, and a state field"), and through it the extension points the
next titles need: a fixed operating order, a start that is not an auction, majors and minors,
a director's certificate worth three shares, the title's own terms in reports, dividends that
move the price by their size, and sales that leave the price alone.

The title is 9999: data in ``tests/titles/rules/9999/``, code in ``tests/titles/g9999.py``.
"""

from __future__ import annotations

import ast
import copy
import re
import shutil
from pathlib import Path
from typing import Mapping

from dataclasses import dataclass

import pytest

from pbem.engine.abilities import CORE_ABILITIES, Ability
from pbem.engine import shares
from pbem.engine.actions import BuyPrivate, Par, Pass, SellShares, action_from_dict
from pbem.engine.events import Event, Money, render_all
from pbem.engine.game import Game
from pbem.engine.sequence import RoundSequence
from pbem.engine.steps.operating.dividend_rules import DividendRules
from pbem.engine.steps.stock import BuySellParShares, par_problem, sell_problem
from pbem.engine.track_rules import TrackRules
from pbem.engine.values import IPO, POOL, CityRef, Owner
from pbem.errors import ConfigError, IllegalOrderError, OrderSyntaxError
from pbem.games import GameInfo, Replay, Seat
from pbem.orders import Vocabulary, format_order, help_text, parse_order, title_orders
from pbem.reports import render, report_context
from pbem.engine.title import TitleData
from pbem.ruleset import load_title
from pbem.ruleset.composer import TitleComposer
from tests.titles import RULES
from tests.titles.g9999 import (HOOKS9999, Composer9999, Dividends9999, FaceValueSale, Levy, LevyStep, Presentation9999,
                                Sequence9999, State9999, Stock9999, Wharf, hooks9999, state9999)

ANN, BOB, CY = "Ann", "Bob", "Cy"
PBEM = Path(__file__).resolve().parent.parent / "pbem"

START = """
Ann: BUY AW
Bob: PASS
Cy: buy bc
"""

STOCK_ROUND = """
Ann: PAR M1 90
Bob: PAR NWR 90
Cy: PAR SBR 90
Ann: BUY NWR
Ann: PASS
Bob: BUY SBR
Bob: PASS
Cy: BUY SBR
Cy: PASS
Ann: BUY NWR
Ann: PASS
Bob: BUY SBR
Bob: PASS
Cy: BUY SBR
Cy: PASS
Ann: BUY NWR
Ann: PASS
Bob: SELL NWR
Bob: PASS
Cy: PASS
Ann: BUY NWR POOL
Ann: PASS
Bob: PASS
Cy: PASS
Ann: PASS
"""

FIRST_OR = """
Ann: LAY A3 9 1
Ann: TRAIN 2
Ann: PASS
Ann: LEVY
Cy: PASS
Cy: TRAIN 2
Cy: PASS
Cy: LEVY
Ann: PASS
Ann: PASS
Ann: PASS
"""

SECOND_OR = """
Ann: PASS
Ann: RUN 2: A1-A5
Ann: WITHHOLD
Ann: PASS
Ann: TOLL
Cy: PASS
Cy: RUN 2: A5-A1
Cy: PAYOUT
Cy: PASS
Cy: PASS
Ann: PASS
Ann: PASS
Ann: PASS
"""


def title_9999() -> object:
    return load_title("9999", rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999)


def new_game() -> Game:
    return Game(load_title("9999", rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999), [ANN, BOB, CY])


def play(game: Game, script: str) -> list[str]:
    """Apply each ``Seat: ORDER`` line of ``script``, read with the title's vocabulary; each
    line's seat must be the one the game waits for. Returns every event."""
    vocab = Vocabulary.from_title(game.title)
    events: list[str] = []
    for line in filter(None, (raw.strip() for raw in script.splitlines())):
        seat, order = line.split(": ", 1)
        assert game.current_actors() == [seat], (line, game.waiting_for())
        events += render_all(game.apply(seat, parse_order(order, vocab)), game.money)
    return events


def cert_owners(game: Game, sym: str) -> list[tuple[int, str]]:
    return [(c.percent, c.owner.name) for c in game.state.certificates if c.corporation == sym]


# -- the loader takes a title found outside pbem.titles -------------------------------------------


def test_the_loader_takes_the_hooks_of_a_title_outside_pbem_titles() -> None:
    title = load_title("9999", rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999)
    assert title.hooks is HOOKS9999 and title.title == "9999"
    assert load_title("9999", rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999) is title  # cached
    with pytest.raises(ConfigError, match="no title plugin for '9999'"):
        load_title("9999", rules_dir=RULES)  # without its hooks the title has no plugin
    assert [c.kind for c in title.corporations] == ["major", "major", "major", "minor"]
    assert load_title("1830").corporations[0].kind == "major"  # the default


def test_a_title_adds_a_kind_of_private_ability_without_editing_the_core(tmp_path: Path) -> None:
    """Issue 20: private abilities are typed per kind, and a title adds its own (9999's
    ``wharf``, as 1829's packets) by its composer; the loader checks each against its class."""
    def load(composer: type[Composer9999], rules_dir: Path = RULES) -> TitleData:
        return load_title("9999", rules_dir=rules_dir, hooks=HOOKS9999, composer=composer, presentation=Presentation9999)

    title = load(Composer9999)
    assert title.company("BC").ability(Wharf) == Wharf(port="A5", income=20)
    assert title.company("AW").ability(Wharf) is None

    class CoreKindsOnly(Composer9999):
        @classmethod
        def ability_kinds(cls) -> Mapping[str, type[Ability]]:
            return CORE_ABILITIES

    companies = RULES / "9999" / "companies.yaml"
    with pytest.raises(ConfigError, match=rf"{re.escape(str(companies))}: 1\.abilities\.0: .*'wharf'"):
        load(CoreKindsOnly)
    copied = tmp_path / "rules"
    shutil.copytree(RULES, copied)
    mine = copied / "9999" / "companies.yaml"
    text = mine.read_text(encoding="utf-8")
    mine.write_text(text.replace("income: 20", "income: 20, berths: 2"), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"1\.abilities\.0\.berths: unknown key"):
        load(Composer9999, copied)
    mine.write_text(text.replace("income: 20", "income: lots"), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"1\.abilities\.0\.income: .*integer"):
        load(Composer9999, copied)


def test_nothing_under_pbem_names_the_made_up_title() -> None:
    """The core, the titles, the templates and the rules never name 9999 or its parts, and no
    module of pbem/ imports the tests."""
    names = re.compile(r"9999|g9999|HOOKS9999|Sequence9999|State9999|FaceValueSale|LevyStep|\bLEVY\b|\blevy\b|"
                       r"private_sale|face_value_sale|Toll Roads|tests\.titles")
    root = PBEM.parent
    files = [*PBEM.rglob("*.py"), *(root / "templates").rglob("*.j2"), *(root / "rules").rglob("*.yaml")]
    assert len(files) > 50
    assert [str(f) for f in files if names.search(f.read_text(encoding="utf-8"))] == []
    for path in PBEM.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("tests"), path
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("tests") for a in node.names), path


# -- the whole of it: a start, a stock round, operating rounds ------------------------------------


def test_the_made_up_title_plays_a_start_a_stock_round_and_two_operating_rounds() -> None:
    game = new_game()
    assert isinstance(game.state.title_state, State9999)
    assert game.round_label() == "Private sale"
    assert game.active_step() is FaceValueSale

    play(game, START)
    assert game.state.companies["AW"].owner == Owner.player(ANN) and game.state.companies["BC"].owner == Owner.player(CY)
    assert (game.state.players[ANN].cash, game.state.players[BOB].cash, game.state.players[CY].cash) == (470, 500, 450)
    assert game.round_label() == "SR 1" and game.state.order[0] == ANN

    events = play(game, STOCK_ROUND)
    nwr = game.state.corporations["NWR"]
    # the director's certificate is worth three shares: PAR cost three times par, and the
    # corporation floats at 60% (the certificate and three shares), with ten shares' capital
    assert "Bob buys the 30% president's certificate of NWR for £270" in events
    assert "NWR receives £900" in events and nwr.floated
    # Bob sold his director's certificate's worth: Ann (30%) took it, giving him her three
    # shares, one of which he sold; the price did not move; Ann bought it from the pool
    assert "Bob sells 1 share of NWR (10%) and receives £90" in events
    assert game.share_price("NWR") == 90
    assert nwr.president == ANN
    assert game.state.percent_of(Owner.player(ANN), "NWR") == 40 and game.state.percent_of(Owner.player(BOB), "NWR") == 20
    assert next(c for c in game.state.certificates if c.corporation == "NWR" and c.president).owner == Owner.player(ANN)
    assert state9999(game.state).formed == ["M1", "NWR", "SBR"]
    assert state9999(game.state).operating_rounds == 1  # OR 1.1 has begun
    # the minor: one certificate of 100%, floated on its purchase
    assert cert_owners(game, "M1") == [(100, ANN)] and game.state.corporations["M1"].cash == 90

    # the fixed order: majors by par (a tie: formation order), then the minor, where 1830's
    # order (price, then arrival on the cell) would put the minor first
    assert game.round_label() == "OR 1.1"
    assert game.state.round.operating is not None
    assert game.state.round.operating.order == ["NWR", "SBR", "M1"]
    assert RoundSequence().operating_order(game) == ["M1", "NWR", "SBR"]

    events = play(game, FIRST_OR)
    assert "NWR levies £10" in events and "SBR levies £10" in events and "M1 passes the levy" in events
    assert state9999(game.state).levies == {"NWR": 10, "SBR": 10}
    assert game.round_label() == "OR 1.2"

    events = play(game, SECOND_OR)
    # 90 paid, £9 a share against a price of 80: at least a tenth, two cells right
    assert "SBR's share price moves from £80 to £100" in events
    assert "NWR's share price moves from £80 to £70" in events
    assert state9999(game.state).levies == {"NWR": 20, "SBR": 10}
    assert game.round_label() == "SR 2" and state9999(game.state).operating_rounds == 2
    # SBR now stands above NWR; the fixed order keeps NWR (same par, formed first) first
    assert game.operating_order() == ["NWR", "SBR", "M1"]
    assert RoundSequence().operating_order(game) == ["SBR", "NWR", "M1"]


# -- the parts, one at a time ------------------------------------------------------------------------


def test_the_start_sells_the_privates_at_face_value_in_seat_order() -> None:
    game = new_game()
    assert game.legal_actions(ANN) == [BuyPrivate("AW"), BuyPrivate("BC"), Pass()]
    assert game.legal_actions(BOB) == []
    with pytest.raises(IllegalOrderError, match="face value"):
        game.apply(ANN, BuyPrivate("BC", 60))
    with pytest.raises(IllegalOrderError, match="not Bob's turn"):
        game.apply(BOB, BuyPrivate("BC"))
    game.apply(ANN, BuyPrivate("BC"))  # any unsold private, not only the cheapest
    assert game.state.players[ANN].cash == 450 and game.current_actors() == [BOB]
    # every player passing in succession ends the start with a private unsold
    for seat in (BOB, CY, ANN):
        game.apply(seat, Pass())
    assert game.round_label() == "SR 1" and game.state.companies["AW"].owner is None


def test_a_director_may_not_sell_the_certificate_no_one_else_could_take() -> None:
    """The 30% certificate passes only to a player holding 30%; until then the director may
    not sell it (1830 rules 5.3 with a certificate of three shares)."""
    game = new_game()
    play(game, START + "\n".join(STOCK_ROUND.strip().splitlines()[:13]))  # Ann holds 20% of NWR
    assert game.state.percent_of(Owner.player(ANN), "NWR") == 20 and game.state.percent_of(Owner.player(BOB), "NWR") == 30
    problem = sell_problem(game, BOB, "NWR", 1)
    assert problem is not None and "no other player holds 30%" in problem
    assert shares.president_percent(game.title, "NWR") == 30 and shares.share_percent(game.title, "NWR") == 10


def test_a_player_holding_more_takes_the_directors_certificate_for_three_shares() -> None:
    game = new_game()
    play(game, START + "\n".join(STOCK_ROUND.strip().splitlines()[:13]))  # Bob 30%, Ann 20%
    next(c for c in game.state.certificates if c.corporation == "NWR" and c.owner == IPO).owner = Owner.player(ANN)
    play(game, "Cy: BUY SBR\nCy: PASS")
    events = play(game, "Ann: BUY NWR")  # Ann 40% against Bob's 30%
    assert "Ann becomes the president of NWR" in events
    assert game.state.corporations["NWR"].president == ANN
    assert sorted(cert_owners(game, "NWR"))[-1] == (30, ANN)
    assert game.state.percent_of(Owner.player(ANN), "NWR") == 40 and game.state.percent_of(Owner.player(BOB), "NWR") == 30
    assert [p for p, owner in cert_owners(game, "NWR") if owner == BOB] == [10, 10, 10]


def test_sales_do_not_move_the_price_but_hand_on_the_directorship() -> None:
    game = new_game()
    play(game, START + STOCK_ROUND)
    play(game, FIRST_OR + SECOND_OR)
    assert game.round_label() == "SR 2" and game.current_actors() == [BOB]
    before = game.share_price("SBR")
    events = render_all(game.apply(BOB, SellShares("SBR", 2)), game.money)
    assert game.share_price("SBR") == before and not any("price" in e for e in events)
    assert game.state.percent_of(POOL, "SBR") == 20


@pytest.mark.parametrize(("paid", "price", "moves"), [
    (0, 80, ("left",)),
    (30, 80, ()),               # £3 a share: not more than a twentieth of 80
    (50, 80, ("right",)),        # £5: more than a twentieth, less than a tenth
    (80, 80, ("right", "right")),  # £8: a tenth
])
def test_the_dividend_moves_the_price_by_its_size(paid: int, price: int, moves: tuple[str, ...]) -> None:
    game = new_game()
    play(game, START + STOCK_ROUND)
    game.state.corporations["SBR"].price = next(
        (0, col) for col, cell in enumerate(game.title.market[0]) if cell is not None and cell.price == price)
    assert game.share_price("SBR") == price
    assert Dividends9999().dividend_moves(game, "SBR", 100, paid) == moves
    # 1830: one cell, by whether anything was paid
    assert DividendRules().dividend_moves(game, "SBR", 100, paid) == (("right",) if paid else ("left",))


def test_the_titles_own_step_state_and_order_word() -> None:
    """LEVY is the made-up title's alone: its games read, write and list it; 1830's do not."""
    title = load_title("9999", rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999)
    vocab = Vocabulary.from_title(title)
    assert parse_order("levy", vocab) == Levy() and parse_order("TOLL", vocab) == Levy()
    assert format_order(Levy(), vocab) == "LEVY"
    with pytest.raises(OrderSyntaxError, match="takes nothing"):
        parse_order("LEVY 20", vocab)
    assert "LEVY" in title_orders(title) and "LEVY" in help_text(title=title)
    core = load_title("1830")
    assert "LEVY" not in title_orders(core) and "LEVY" not in help_text(title=core)
    with pytest.raises(OrderSyntaxError, match="unknown order 'LEVY'"):
        parse_order("LEVY", Vocabulary.from_title(core))
    # a record of it reads back with the title's action types beside the core's
    assert Levy().to_dict() == {"type": "levy"}
    assert action_from_dict({"type": "levy"}, Vocabulary.from_title(title).action_types) == Levy()
    with pytest.raises(ValueError, match="unknown action type"):
        action_from_dict({"type": "levy"}, Vocabulary.from_title(core).action_types)

    game = new_game()
    play(game, START + STOCK_ROUND + "\n".join(FIRST_OR.strip().splitlines()[:3]))
    assert game.operating_steps[-1] is LevyStep and LevyStep in title.hooks.sequence.operating_steps()
    assert game.legal_actions(ANN) == [Levy(), Pass()]
    twin = copy.deepcopy(game)
    twin.apply(ANN, Levy())
    assert state9999(twin.state).levies == {"NWR": 10} and state9999(game.state).levies == {}
    assert twin.state.corporations["NWR"].cash == game.state.corporations["NWR"].cash + 10


def report_of(game: Game, recipient: str | None) -> str:
    seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
    info = GameInfo("g", game.title.title, game.title.variants, seats, "gm@x.invalid", "")
    replay = Replay(info, game.title, game, last_seq=1)
    return render("report.txt.j2", report_context(replay, since_seq=1, number=2, recipient=recipient, width=80))


def test_the_report_uses_the_titles_terms_and_spells_its_currency_in_ascii() -> None:
    game = new_game()
    play(game, START + STOCK_ROUND + "\n".join(FIRST_OR.strip().splitlines()[:3]))
    text = report_of(game, ANN)
    assert text.isascii() and "?" not in text  # not "?90" for "£90"
    corporations = text.split("\nCORPORATIONS\n")[1]
    assert corporations.splitlines()[0].split()[:2] == ["Corp", "Director"]
    assert "NWR 40%D" in text and "D after a share = director" in text
    assert "major: NWR, SBR, LR" in corporations and "minor: M1" in corporations
    assert "Bank: L" in text and "L90" in text
    assert "LEVY" in text.split("\nSINCE THE LAST REPORT")[0]  # the title's step offers its word
    plain = report_of(Game(load_title("1830"), [ANN, BOB, CY]), ANN)
    assert "President" in plain and "P after a share = president" in plain and "minor:" not in plain


def test_a_corporation_is_launched_after_a_number_of_operating_rounds() -> None:
    """LR is on offer only after two operating rounds (1829's share launches): not parred,
    not offered before; on offer from the stock round after them."""
    game = new_game()
    play(game, START)
    assert Par("NWR", 90) in game.legal_actions(ANN) and Par("LR", 90) not in game.legal_actions(ANN)
    with pytest.raises(IllegalOrderError, match="LR is put on offer after 2 operating rounds"):
        game.apply(ANN, Par("LR", 90))
    play(game, STOCK_ROUND)
    assert game.round_label() == "OR 1.1" and game.hooks.stock.launch_problem(game, "LR") is not None
    play(game, FIRST_OR + SECOND_OR)
    assert game.round_label() == "SR 2"
    game.state.players[BOB].cash = 500  # enough for the 20% certificate at 90
    assert Par("LR", 90) in game.legal_actions(BOB) and par_problem(game, BOB, "LR", 90) is None
    game.apply(BOB, Par("LR", 90))
    assert state9999(game.state).formed[-1] == "LR"


def test_the_report_has_a_section_of_the_titles_own() -> None:
    game = new_game()
    play(game, START + STOCK_ROUND + FIRST_OR)
    text = report_of(game, ANN)
    section = text.split("\nTOLLS LEVIED\n")[1].split("\n\n")[0]
    assert section.splitlines() == ["  NWR: L10", "  SBR: L10"]
    assert text.index("PRIVATE COMPANIES") < text.index("TOLLS LEVIED") < text.index("TRAINS AND PHASE")
    assert "TOLLS LEVIED" not in report_of(Game(load_title("1830"), [ANN, BOB, CY]), ANN)


def test_a_variant_composes_the_board_and_bank_from_the_titles_parts() -> None:
    plain = load_title("9999", rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999)
    east = load_title("9999", ("east",), rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999)
    assert "A7" not in plain.board.hexes and plain.bank_cash == 6000
    assert east.board.hexes["A7"].name == "Eastwick" and east.board.hexes["A7"].tile.cities[0].revenue == 30
    assert east.board.neighbor("A7", 1) == "A5" and east.board.neighbor("A7", 5) == "B8"  # joined to the board
    assert east.bank_cash == 7500
    assert set(east.board.hexes) - set(plain.board.hexes) == {"A7", "B8"}


def test_the_title_resolves_and_refuses_variants_for_the_number_of_players() -> None:
    assert Composer9999.resolve_variants((), 3) == ("east",)
    assert Composer9999.resolve_variants((), 2) == ()
    with pytest.raises(ConfigError, match="for 3 players, not 2"):
        Composer9999.resolve_variants(("east",), 2)
    assert TitleComposer.resolve_variants(("x",), 5) == ("x",)  # the base: as asked


@dataclass(frozen=True)
class _Headed(Event):
    player: str
    corporation: str
    cost: int

    def render(self, money: Money) -> str:
        return f"{self.player} heads {self.corporation} for {money(self.cost)}"


class _FreeParStock(Stock9999):
    """A stock step whose corporations may start on any cell of the market's top row, its
    start announced in words of its own."""

    @classmethod
    def par_refusal(cls, game: Game, player: str, sym: str, price: int) -> str | None:
        prices = [cell.price for cell in game.title.market[0] if cell is not None]
        return None if price in prices else f"{price} is not a price of the top row"

    @classmethod
    def par_cell(cls, game: Game, sym: str, price: int) -> tuple[int, int]:
        return (0, next(c for c, cell in enumerate(game.title.market[0]) if cell is not None and cell.price == price))

    @classmethod
    def presidency_bought(cls, player: str, percent: int, sym: str, cost: int) -> Event:
        return _Headed(player, sym, cost)


_FreeParStock.handlers = {**Stock9999.handlers, Par: _FreeParStock.process_par}


class _FreeParSequence(Sequence9999):
    def stock_step(self) -> type[BuySellParShares]:
        return _FreeParStock


def test_a_stock_step_may_check_place_and_announce_a_start_of_its_own() -> None:
    game = Game(load_title("9999", rules_dir=RULES, hooks=hooks9999(sequence=_FreeParSequence()), composer=Composer9999, presentation=Presentation9999), [ANN, BOB, CY])
    play(game, START)
    with pytest.raises(IllegalOrderError, match="75 is not a price of the top row"):
        play(game, "Ann: PAR SBR 75")
    events = play(game, "Ann: PAR SBR 120")  # not a par value: the core's check would refuse
    assert game.state.corporations["SBR"].par == (0, 7) and game.share_price("SBR") == 120
    assert "Ann heads SBR for £240" in events
    assert not any("president's certificate" in line for line in events)


class _TwoHomesTrack(TrackRules):
    """LR has a second home in Southby (A5), SBR's home."""

    def homes(self, game: Game, corp: str) -> tuple[CityRef, ...]:
        return super().homes(game, corp) + ((CityRef("A5", 0),) if corp == "LR" else ())


def test_every_home_a_title_names_keeps_a_slot_until_the_corporation_places_a_token() -> None:
    from pbem.engine import track

    plain = new_game()
    assert plain.hooks.track.homes(plain, "LR") == (CityRef("B6", 0),)
    assert track.reserved_home(plain, "A5", 0) == ["SBR"]
    game = Game(load_title("9999", rules_dir=RULES, hooks=hooks9999(track=_TwoHomesTrack()), composer=Composer9999, presentation=Presentation9999), [ANN, BOB, CY])
    assert track.reserved_home(game, "A5", 0) == ["SBR", "LR"]
    assert track.reserved_home(game, "B6", 0) == ["LR"]
    game.state.tokens[CityRef("B6", 0)] = ["LR"]
    assert track.reserved_home(game, "A5", 0) == ["SBR"]
