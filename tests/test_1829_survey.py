"""1829's survey parties on Dagger's combined boards (the seed's "Survey Parties and Track
Building", its three modifications, and each setting of this game's readings), on built
positions: a party is put on its company's home as it first operates, each turn begins with
the survey (SURVEY or PARK), new track goes only on the hex a party has just left, upgrades
once it has surveyed, a rival party closes a hex only where its company's track reaches it,
and a party may be parked on a home station."""

from __future__ import annotations

import pytest

from pbem.asciimap import render_map
from pbem.engine import lays, market, pieces
from pbem.engine.actions import LayTile, Pass, PlaceToken
from pbem.engine.game import Game
from pbem.engine.state import RoundKind, RoundState, StockRoundState
from pbem.engine.values import CityRef, Owner
from pbem.errors import IllegalOrderError
from pbem.orders import format_order, parse_order
from pbem.order_codecs import Vocabulary
from pbem.ruleset import load_title
from pbem.titles.g1829.survey import MoveParty, ParkParty, targets
from tests.changed import with_title_rules

FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def floated(game: Game, sym: str, president: str, cash: int = 900) -> None:
    corp = game.state.corporations[sym]
    par = game.title.corporation(sym).par
    assert par is not None
    coord = market.par_coord(game.title, par)
    assert coord is not None
    corp.par = corp.price = coord
    market.place(game.state, sym, coord)
    corp.ipoed = corp.floated = True
    corp.president, corp.cash = president, cash
    for cert in game.state.certificates:
        if cert.corporation == sym and cert.index <= 4:
            cert.owner = Owner.player(president)


def operating(*syms: str, rules: dict[str, bool | int | str] | None = None, phase: str = "1") -> Game:
    """OR 1 of a five-player game with ``syms`` floated (each by its own player, in turn)."""
    title = load_title("1829")
    game = Game(with_title_rules(title, **rules) if rules else title, FIVE)
    for index, sym in enumerate(syms):
        floated(game, sym, FIVE[index])
    game.state.phase = phase
    game.state.round.stock = StockRoundState()
    game.begin_round(RoundState(kind=RoundKind.OPERATING, number=1, or_number=1))
    return game


def on_turn(game: Game) -> str:
    return game.current_actors()[0]


def test_a_party_starts_on_its_home_and_the_turn_begins_with_the_survey() -> None:
    game = operating("NER")
    assert game.state.map_pieces["NER"] == ["L14"]
    legal = game.legal_actions(on_turn(game))
    moves = {a.to for a in legal if isinstance(a, MoveParty)}
    assert moves == {"M13", "L12", "K13", "K15", "L16", "M15"}
    assert ParkParty() in legal, "L14 is NER's home station: it may stay parked there"
    assert not [a for a in legal if isinstance(a, (LayTile, Pass))], "no track before the survey"
    with pytest.raises(IllegalOrderError, match=r"must move a survey party \(SURVEY <hex>\), or PARK"):
        game.apply(on_turn(game), LayTile("L14", "57", 0))


def test_new_track_goes_only_on_the_hex_the_party_has_just_left() -> None:
    game = operating("NER")
    player = on_turn(game)
    game.apply(player, MoveParty("K13"))
    assert game.state.map_pieces["NER"] == ["K13"]
    hexes = {lay.hex for lay in lays.legal_lays(game)}
    assert hexes == {"L14"}, "Darlington, just left"
    assert "just left (L14)" in (pieces.gate_problem(game, "NER", "K13") or "")
    lay = next(l for l in lays.legal_lays(game) if l.hex == "L14")
    game.apply(player, LayTile(lay.hex, lay.tile, lay.rotation))
    assert game.state.tiles["L14"][0] == lay.tile


def test_an_upgrade_may_go_anywhere_the_company_reaches_once_it_has_surveyed() -> None:
    game = operating("NER", phase="2")
    game.state.tiles["L14"] = ("57", 0)  # Darlington already built (yellow city, exits 0 and 3)
    game.state.map_pieces["NER"] = ["K13"]
    player = on_turn(game)
    assert not {lay.hex for lay in lays.legal_lays(game)}, "not yet surveyed"
    game.apply(player, MoveParty("J12"))
    hexes = {lay.hex for lay in lays.legal_lays(game)}
    assert "L14" in hexes and any(l.upgrade for l in lays.legal_lays(game) if l.hex == "L14")


def test_parking_is_on_a_home_station_only_and_allows_upgrades_where_the_setting_says() -> None:
    game = operating("NER", phase="2")
    game.state.tiles["L14"] = ("57", 0)
    player = on_turn(game)
    game.apply(player, ParkParty())
    assert game.state.map_pieces["NER"] == ["L14"]
    assert {lay.hex for lay in lays.legal_lays(game)} == {"L14"}, "an upgrade of Darlington, no new track"
    assert all(l.upgrade for l in lays.legal_lays(game))
    strict = operating("NER", rules={"parked_party_upgrades": False}, phase="2")
    strict.state.tiles["L14"] = ("57", 0)
    strict.apply(on_turn(strict), ParkParty())
    assert not lays.legal_lays(strict)
    away = operating("NER")
    away.state.map_pieces["NER"] = ["K13"]
    with pytest.raises(IllegalOrderError, match="parked only on a home station"):
        away.apply(on_turn(away), ParkParty())


def test_a_rival_party_closes_a_hex_only_where_its_companys_track_reaches_it() -> None:
    # London: LSWR and GER both at home in V20; GER's party stands on London
    game = operating("LSWR", "GER", phase="3")
    game.state.map_pieces["GER"] = ["V20"]
    game.state.map_pieces["LSWR"] = ["W19"]
    game.state.tokens[CityRef("V20", 2)] = ["GER"]  # GER's home station
    lswr = "LSWR"
    assert game.state.round.operating is not None
    assert game.state.round.operating.order[game.state.round.operating.index] == lswr
    game.apply(on_turn(game), MoveParty("X18"))
    assert "V20" not in (game.hooks.track.lay_gate(game, lswr) or ())
    assert "GER's survey party on V20 closes it to LSWR" in (pieces.gate_problem(game, lswr, "V20") or "")
    # with no GER station there, GER's track reaches nothing: its party closes nothing
    for ref, held in game.state.tokens.items():
        if "GER" in held:
            held.remove("GER")
    game.cache.clear()
    assert "V20" in (game.hooks.track.lay_gate(game, lswr) or ())


def test_a_party_moves_one_land_hex_and_not_onto_a_rival_unless_the_setting_allows() -> None:
    game = operating("NER", "NBR")
    assert "M13" in targets(game, "NER", "L14")
    game.state.map_pieces["NBR"] = ["M13"]
    assert "M13" not in targets(game, "NER", "L14")
    with pytest.raises(IllegalOrderError, match="NBR.s survey party is on M13: no two parties share a hex"):
        game.apply(on_turn(game), MoveParty("M13"))
    shared = operating("NER", "NBR", rules={"survey_parties_share_hexes": True})
    shared.state.map_pieces["NBR"] = ["M13"]
    assert "M13" in targets(shared, "NER", "L14")
    far = operating("NER", rules={"survey_party_moves": 2})
    assert "N12" in targets(far, "NER", "L14") and "N12" not in targets(game, "NER", "L14")
    assert all(game.board.hexes[h].tile.offboard is None for h in targets(far, "NER", "L14"))


def test_several_parties_are_moved_by_naming_the_one_that_moves() -> None:
    game = operating("NER", rules={"survey_parties": 2})
    assert game.state.map_pieces["NER"] == ["L14", "L14"]
    game.state.map_pieces["NER"] = ["L14", "K15"]
    with pytest.raises(IllegalOrderError, match="write SURVEY <from> K13"):
        game.apply(on_turn(game), MoveParty("K13"))  # both are next to K13
    game.apply(on_turn(game), MoveParty("K13", "K15"))
    assert sorted(game.state.map_pieces["NER"]) == ["K13", "L14"]


def test_with_party_station_a_station_may_go_where_the_party_stands() -> None:
    game = operating("NER", rules={"party_station": True})
    game.state.map_pieces["NER"] = ["K13"]
    player = on_turn(game)
    game.apply(player, MoveParty("K15"))  # Stockton: a city NER's track does not reach
    assert not lays.legal_lays(game), "K13, just left, is out of reach: Darlington has no track yet"
    assert PlaceToken("K15", 0) in game.legal_actions(player)
    game.apply(player, PlaceToken("K15", 0))
    assert "NER" in game.state.tokens[CityRef("K15", 0)]
    plain = operating("NER")
    plain.state.map_pieces["NER"] = ["K13"]
    plain.apply(on_turn(plain), MoveParty("K15"))
    assert PlaceToken("K15", 0) not in plain.legal_actions(on_turn(plain))


def test_survey_orders_read_and_write_back_and_the_map_shows_parties() -> None:
    title = load_title("1829")
    vocab = Vocabulary.from_title(title)
    for line in ("SURVEY P12", "SURVEY Q11 P12", "PARK"):
        assert format_order(parse_order(line, vocab), vocab) == line
    assert parse_order("survey q11 p12", vocab) == MoveParty("P12", "Q11")
    game = operating("NER")
    text = render_map(game)
    assert "L14 @NER" in text and "@LNW      LNW's survey party" in text


@pytest.mark.parametrize(("line_to", "why"), [
    ("Z99", "Z99 is not a hex of the map"),
    ("L14", "NER's survey party is on L14 already: it must move, or PARK on its home station"),
    ("L10", "L10 is more than 1 hex from L14: a party moves 1 a turn"),
])
def test_a_refused_survey_says_why_and_where_the_party_may_go(line_to: str, why: str) -> None:
    game = operating("NER")
    with pytest.raises(IllegalOrderError) as refused:
        game.apply(on_turn(game), MoveParty(line_to))
    text = " ".join(str(refused.value).split())
    assert text.startswith(why), text
    assert text.endswith("NER may send SURVEY K13, SURVEY K15, SURVEY L12, SURVEY L16, SURVEY M13, SURVEY M15")
