"""What an 1825 player reads and writes, checked on built positions: the legal lays are
headed by the company that lays them, and amounts may be written with the pound sign."""

from __future__ import annotations

from pbem.engine import track
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.engine.state import OperatingState, RoundState
from pbem.report_sections import offer
from pbem.reports import first_section
from pbem.ruleset import load_title

A, B = "Ann", "Bob"


def lnwr_to_lay() -> Game:
    """Unit 1 with the LNWR floated (Ann its Director), its home token placed, about to lay."""
    game = Game(load_title("1825", ("unit_1",)), [A, B])
    state = game.state
    company = state.corporations["LNWR"]
    company.cash, company.floated, company.ipoed, company.president = 500, True, True, A
    cell = next((r, c) for r, row in enumerate(game.title.market) for c, cell in enumerate(row)
                if cell is not None and cell.price == 100)
    company.par = company.price = cell
    state.market.setdefault(cell, []).append("LNWR")
    home = game.title.corporation("LNWR").home
    assert home is not None
    state.tokens[track.city_key(home, 0)] = ["LNWR"]
    state.round = RoundState(kind="operating", operating=OperatingState(order=["LNWR"]))
    return game


def test_the_legal_lays_are_headed_by_the_company_that_lays_them() -> None:
    found = offer(lnwr_to_lay(), A)
    assert found is not None and found.lays, "the LNWR has lays to make"
    assert found.lay_corp == "LNWR"
    section = first_section(found, recipient=A, actors=[A], ended=False, paused=False)
    assert "  LNWR may lay (hex: tile and rotations; HELP shows the edges):" in section


def test_an_amount_may_be_written_in_pounds_as_the_reports_write_them() -> None:
    from pbem.engine.actions import Bid, Par
    from pbem.orders import Vocabulary, parse_order

    vocab = Vocabulary.from_title(load_title("1825", ("unit_12", "lorenz")))
    for line in ("bid c&w £135", "BID C&W L135", "bid c&w l135", "BID C&W 135", "BID C&W $135"):
        assert parse_order(line, vocab) == Bid("C&W", 135), line
    assert parse_order("par lnwr £100", vocab) == Par("LNWR", 100)


def test_the_report_lists_the_bands_with_their_pars_and_when_the_next_opens() -> None:
    from pbem.engine.values import Owner
    from pbem.titles.g1825.stock_rules import band_lines

    game = Game(load_title("1825", ("unit_1",)), [A, B, "Cy", "Di"])
    sections = dict(game.title.presentation.report_sections(game))
    assert sections["BANDS"] == band_lines(game)
    assert band_lines(game)[:2] == (f"Band 1 (on offer): LNWR {game.money(100)}", f"Band 2: GWR {game.money(90)}")
    assert band_lines(game)[-1] == "Band 2 opens when a major of band 1 has no share left in its IPO."
    for cert in game.state.certificates:
        if cert.corporation == "LNWR":
            cert.owner = Owner.player(A)
    assert band_lines(game)[1] == f"Band 2 (on offer): GWR {game.money(90)}"


def test_the_map_names_its_places_and_the_track_in_words_names_its_hexes() -> None:
    from pbem.asciimap import render_map
    from pbem.track_words import track_summary

    game = lnwr_to_lay()
    for width in (80, 132):
        text = render_map(game, width=width)
        assert all(len(line) <= width for line in text.splitlines())
        places = text.split("  Places", 1)[1].split("  Stations", 1)[0]
        lines = [line.strip() for line in places.splitlines()]
        assert any(item.strip() == "V20 London" for line in lines for item in line.split(","))
        assert any(item.strip() == "Q23 Melton Constable" for line in lines for item in line.split(",")), \
            "a name is never broken over two lines"
    home = game.title.corporation("LNWR").home
    assert home is not None
    name = game.board.hexes[home.split(".")[0]].name
    assert name and f"{home.split('.')[0]} {name}: printed" in " ".join(track_summary(game))


def test_an_option_named_without_a_unit_is_refused_saying_why() -> None:
    import pytest

    from pbem.errors import ConfigError
    from pbem.titles.g1825.selection import resolve

    with pytest.raises(ConfigError) as refused:
        resolve(("r1",), 4)
    assert "no unit named beside r1" in str(refused.value)
    assert "only when no other option is named" in str(refused.value)
    assert resolve((), 4) == ("unit_1",)


def test_the_events_of_an_1825_report_say_director_never_president() -> None:
    from pbem.application.state import GameInfo, Replay, Seat
    from pbem.engine.actions import SellShares
    from pbem.engine.events.receivership import PresidencyToPool, ReceivershipEnded
    from pbem.log_records import OrderRecord
    from pbem.reports import render, report_context

    game = lnwr_to_lay()
    seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
    info = GameInfo("g", "1825", game.title.variants, seats, "gm@x.invalid", "")
    record = OrderRecord(seq=1, actor=A, action_data=SellShares("LNWR", 2).to_dict())
    replay = Replay(info, game.title, game, events={1: [PresidencyToPool("LNWR"), ReceivershipEnded(B, "LNWR")]},
                    effective=[record], last_seq=1)
    text = render("report.txt.j2", report_context(replay, since_seq=0, number=1, recipient=A, width=132))
    since = " ".join(text.split("SINCE THE LAST REPORT")[1].split("\nMAP")[0].split())
    assert "LNWR's Director's certificate is in the bank pool: LNWR has no Director" in since
    assert "Bob becomes the Director of LNWR" in since
    assert "resident" not in text


def test_where_no_run_is_found_the_report_offers_run_none_not_run_auto() -> None:
    from pbem.engine.actions import LayTile, Pass, RunAuto
    from pbem.errors import IllegalOrderError

    game = lnwr_to_lay()
    for train in (TrainId("2", 0), TrainId("2", 1)):  # two 2-trains; the only stop beside home is a town
        game.state.depot.remove(train)
        game.state.corporations["LNWR"].trains.append(train)
    game.apply(A, LayTile("S15", "3", 4))
    game.apply(A, Pass())
    found = offer(game, A)
    assert found is not None and "run the trains" in found.task
    lines = [order for choice in found.choices for order in choice.orders]
    assert "RUN NONE" in lines and "RUN AUTO" not in lines
    try:
        game.apply(A, RunAuto())
    except IllegalOrderError as refused:
        assert "no run to make" in str(refused)
    else:
        raise AssertionError("RUN AUTO finds no run here")


def test_assign_of_a_private_with_no_power_says_which_have_one() -> None:
    import pytest

    from pbem.errors import OrderSyntaxError
    from pbem.orders import Vocabulary, parse_order

    vocab = Vocabulary.from_title(load_title("1825", ("unit_12", "lorenz")))
    with pytest.raises(OrderSyntaxError) as refused:
        parse_order("assign s&d lnwr", vocab)
    assert "only TWW, C&HP, C&W have a power to give" in str(refused.value)
    assert "not a hex" not in str(refused.value)


def test_an_assign_in_the_start_is_refused_by_the_order_word_the_player_wrote() -> None:
    import pytest

    from pbem.errors import IllegalOrderError
    from pbem.titles.g1825.lorenz.actions import Designate

    game = Game(load_title("1825", ("unit_12", "lorenz")), [A, B, "Cy", "Di"])
    first = game.current_actors()[0]
    with pytest.raises(IllegalOrderError) as refused:
        game.apply(first, Designate("C&HP", "LNWR"))
    assert str(refused.value).startswith("ASSIGN is not possible now; ")
    assert "designate" not in str(refused.value)


def test_a_hex_of_a_unit_not_in_play_is_refused_naming_the_games_map() -> None:
    import pytest

    from pbem.application.state import GameInfo, Replay, Seat
    from pbem.engine.actions import LayTile
    from pbem.errors import OrderError
    from pbem.execution import Work, apply_order

    game = lnwr_to_lay()
    info = GameInfo("g", "1825", game.title.variants, [Seat(A, "a@x.invalid", ""), Seat(B, "b@x.invalid", "")],
                    "gm@x.invalid", "")
    work = Work(Replay(info, game.title, game), "a@x.invalid", "<m@x>", A, False, 1000,
                lambda: "secret", lambda a, b: a + b)
    with pytest.raises(OrderError) as refused:
        apply_order(work, A, LayTile("O9", "57", 0))  # Liverpool: Unit 2's
    assert str(refused.value) == "there is no hex O9 on this game's map (1825 with unit_1)"


def test_unit_4s_lower_case_hexes_are_read_in_any_case_where_no_other_hex_is_meant() -> None:
    from pbem.engine.actions import LayTile
    from pbem.orders import Vocabulary, parse_order

    vocab = Vocabulary.from_title(load_title("1825", ("unit_3", "unit_4")))
    assert parse_order("lay a8 57 0", vocab) == LayTile("a8", "57", 0)
    assert parse_order("LAY A8 57 0", vocab) == LayTile("a8", "57", 0), "there is no A8: Elgin is a8"
    assert parse_order("LAY C8 57 0", vocab) == LayTile("c8", "57", 0)
    assert parse_order("lay b8 57 0", vocab) == LayTile("B8", "57", 0), "Inverness is B8; there is no b8"


def test_with_units_1_and_2_the_lnwr_puts_down_both_its_free_home_tokens() -> None:
    from pbem.engine.steps.operating import next_token_cost

    game = Game(load_title("1825", ("unit_12",)), [A, B, "Cy"])
    state = game.state
    company = state.corporations["LNWR"]
    company.cash, company.floated, company.ipoed, company.president = 500, True, True, A
    state.round = RoundState(kind="operating", operating=OperatingState(order=["LNWR"]))
    game.hooks.track.place_home_token(game, "LNWR")
    assert "LNWR" in track.tokens_in(game, "T16", 0) and "LNWR" in track.tokens_in(game, "Q11", 0)
    assert next_token_cost(game, "LNWR") == 40, "both free tokens are down: the next costs £40"


def test_the_token_offered_says_what_it_costs_where_the_token_step_is_the_titles_own() -> None:
    from pbem.engine.actions import LayTile

    game = lnwr_to_lay()
    game.apply(A, LayTile("T14", "8", 2))  # Wolverton to Birmingham; a second tile is left
    found = offer(game, A)
    assert found is not None and "station token" in found.task
    token = next(c for c in found.choices if c.orders and c.orders[0].startswith("TOKEN"))
    assert token.note == f"a token costs {game.money(40)}"


def test_the_lorenz_section_says_whether_the_owner_directs_a_company_to_give_a_power_to() -> None:
    from pbem.engine.values import Owner
    from pbem.titles.g1825.lorenz.report import lines

    game = Game(load_title("1825", ("unit_12", "lorenz")), [A, B, "Cy", "Di"])
    chp = game.state.companies["C&HP"]
    chp.owner = Owner.player(B)
    game.state.players[B].companies.append("C&HP")
    assert "Power of C&HP: not given yet (Bob directs no company to give it to yet)" in lines(game)
    lnwr = game.state.corporations["LNWR"]
    lnwr.floated, lnwr.ipoed, lnwr.president = True, True, B
    assert "Power of C&HP: not given yet (Bob may ASSIGN C&HP LNWR)" in lines(game)


def test_buying_a_private_already_sold_says_whose_it_is() -> None:
    import pytest

    from pbem.engine.actions import BuyPrivate
    from pbem.errors import IllegalOrderError

    game = Game(load_title("1825", ("unit_1",)), [A, B])  # two players: privates left after the deal
    first = game.current_actors()[0]
    cheapest = next(c.sym for c in sorted(game.title.companies, key=lambda c: c.value)
                    if game.state.companies[c.sym].owner is None)
    game.apply(first, BuyPrivate(cheapest))
    second = game.current_actors()[0]
    with pytest.raises(IllegalOrderError) as refused:
        game.apply(second, BuyPrivate(cheapest))
    assert str(refused.value).startswith(f"{cheapest} is already {first}'s; the private for sale is ")
