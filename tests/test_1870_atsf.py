"""Lou Jerkich's rules for the AT&SF in 1870's Historical Order Start (issue 13's seed 000,
section 5), and that the corporations with no special benefits (SLSF, SP, SSW, TP, FW:
sections 4, 6, 8-10) get none, on built positions: yellow track laid straight into the
game's state along the shortest way between the line's cities (Chicago A22, Kansas City
B11, Oklahoma City F5, Fort Worth J3, Houston M6, Galveston N7)."""

from __future__ import annotations

from collections import deque

import pytest

from pbem.engine.values import CityRef
from pbem.engine.abilities import Shares
from pbem.engine import track, upgrades
from pbem.engine.actions import RunRoutes, TrainRun
from pbem.engine.game import Game
from pbem.engine.state import OperatingState, RoundState
from pbem.engine.steps import operating
from pbem.engine.title import TitleData
from pbem.engine.values import Vertex
from pbem.ruleset import load_title
from pbem.titles.g1870 import atsf, connections
from pbem.titles.g1870.state import state1870
from tests.changed import with_title_rules

HOS = ("historical_order_start",)
LINE = ("A22", "B11", "F5", "J3", "M6", "N7")
PLAIN_TILES = ("7", "8", "9")
CITY_TILES = ("57", "5", "6")


def with_rules(title: TitleData, **rules: bool | int | str) -> TitleData:
    """``title`` with some of its settings (``title_rules``) given anew."""
    return with_title_rules(title, **rules)


def way(game: Game, start: str, goal: str, avoid: frozenset[str] = frozenset()) -> list[str]:
    """The shortest chain of hexes from ``start`` to ``goal`` through blank land only (no
    city, town, off-board area or impassable side between), avoiding ``avoid``."""
    board = game.board
    seen = {start: start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for edge in range(6):
            there = board.neighbor(here, edge)
            if there is None or there in seen or there in avoid:
                continue
            if board.hexes[here].border(edge) is not None or board.hexes[there].border(opposite(edge)) is not None:
                continue
            if there != goal and board.hexes[there].tile.name != "blank":
                continue
            seen[there] = here
            queue.append(there)
    assert goal in seen, f"no way from {start} to {goal}"
    chain = [goal]
    while chain[-1] != start:
        chain.append(seen[chain[-1]])
    return chain[::-1]


def opposite(edge: int) -> int:
    return (edge + 3) % 6


def edge_to(game: Game, here: str, there: str) -> int:
    return next(e for e in range(6) if game.board.neighbor(here, e) == there)


def lay(game: Game, coord: str, edges: set[int]) -> None:
    """A yellow tile on ``coord`` joining ``edges`` (through its city where it has one)."""
    choices = CITY_TILES if game.board.hexes[coord].tile.stop_ids() else PLAIN_TILES
    for name in choices:
        tile = game.tiles[name]
        for rotation in range(6):
            if len(edges) == 1 and tile.cities and edges <= tile.exits(rotation):
                game.state.tiles[coord] = (name, rotation)
                return
            paths = {frozenset(p) for p in tile.paths_at(rotation)}
            a, b = (f"e{e}" for e in sorted(edges)) if len(edges) == 2 else ("", "")
            if frozenset((a, b)) in paths or {frozenset((a, "c0")), frozenset((b, "c0"))} <= paths:
                game.state.tiles[coord] = (name, rotation)
                return
    raise AssertionError(f"no yellow tile joins {edges} on {coord}")


def build_line(game: Game, cities: tuple[str, ...]) -> None:
    """Yellow track joining ``cities`` one after another, each way through blank land."""
    exits: dict[str, set[int]] = {}
    avoid = frozenset(c for c in LINE if c not in cities)
    for here, there in zip(cities, cities[1:]):
        chain = way(game, here, there, avoid)
        for a, b in zip(chain, chain[1:]):
            exits.setdefault(a, set()).add(edge_to(game, a, b))
            exits.setdefault(b, set()).add(edge_to(game, b, a))
    for coord, edges in exits.items():
        if game.board.hexes[coord].tile.offboard is None:
            lay(game, coord, edges)


def position(variants: tuple[str, ...] = HOS, *, corp: str = "ATSF", cities: tuple[str, ...] = LINE,
             title: TitleData | None = None, on_map: bool = True) -> Game:
    """``corp`` floated in phase 5 with a 6-train, the line of ``cities`` built, its
    destination reached with the token on Galveston (``on_map``) or kept on the charter."""
    game = Game(title or load_title("1870", variants), ["A", "B", "C"])
    state = game.state
    state.phase = "5"
    data = state.corporations[corp]
    data.floated, data.ipoed, data.president, data.cash = True, True, "A", 500
    train = next(t for t in state.depot if t.kind == "6")
    state.depot.remove(train)
    data.trains.append(train)
    build_line(game, cities)
    state.tokens.setdefault(CityRef("N7", 0), []).append(corp)
    mine = state1870(state)
    mine.destinations_reached.append(corp)
    if not on_map:
        mine.destination_on_charter.append(corp)
    state.round = RoundState(kind="operating", operating=OperatingState(order=[corp]))
    return game


def run(game: Game, stops: tuple[str, ...], corp: str = "ATSF") -> int:
    action = RunRoutes((TrainRun("6", stops),))
    return sum(r.revenue for r in operating.checked_runs(game, corp, action))


def worth(game: Game, coord: str) -> int:
    stop = "o" if coord == "A22" else "c0"
    return track.stop_revenue(game, Vertex(coord, stop))


def printed(game: Game, stops: tuple[str, ...]) -> int:
    return sum(worth(game, c) for c in stops)



def chain(coord: str, *stops: str) -> list[Vertex]:
    return [Vertex(c, "o" if c == "A22" else "c0") for c in (coord, *stops)]


# -- Galveston, not the Southwest ---------------------------------------------------------------

def test_the_atsfs_destination_is_galveston_not_the_southwest() -> None:
    assert connections.destination(load_title("1870", HOS), "ATSF") == "N7"
    assert connections.destination(load_title("1870"), "ATSF") == "N1"
    assert connections.destination(load_title("1870", HOS), "MKT") == "N1", "the Katy keeps the Southwest"


@pytest.mark.parametrize(("variants", "due"), [(HOS, ["ATSF"]), ((), [])])
def test_joining_topeka_to_galveston_is_the_atsfs_connection(variants: tuple[str, ...], due: list[str]) -> None:
    game = position(variants, cities=("B9", "F5", "J3", "M6", "N7"))
    mine = state1870(game.state)
    mine.destinations_reached.clear()
    game.state.tokens[CityRef("N7", 0)].remove("ATSF")
    game.state.tokens.setdefault(CityRef("B9", 0), []).append("ATSF")
    assert connections.connections_due(game, ["ATSF"]) == due


def green_galveston(variants: tuple[str, ...]) -> Game:
    game = Game(load_title("1870", variants), ["A", "B", "C"])
    game.state.phase = "5"
    game.state.tiles["N7"] = ("14", 0)
    return game


def fits(game: Game, tile: str) -> str | None:
    """None if ``tile`` may replace Galveston's green tile at some rotation, else why not."""
    problems = [upgrades.upgrade_problem(game, "N7", game.tiles[tile], r) for r in range(6)]
    return None if None in problems else problems[0]


def test_galveston_takes_the_brown_p_tile_and_only_it() -> None:
    game = green_galveston(HOS)
    assert track.future_label(game, "N7", "brown") == "P"
    assert fits(game, "170") is None
    assert "needs a tile with P label" in str(fits(game, "63"))
    plain = green_galveston(())
    assert track.future_label(plain, "N7", "brown") is None
    assert fits(plain, "63") is None
    assert "needs a tile with no label" in str(fits(plain, "170"))


def test_with_dixons_rules_galveston_joins_the_hexes_of_170() -> None:
    game = green_galveston(("dixon", *HOS))
    only = game.title.settings.tile_hexes["170"].only
    assert only is not None and "N7" in only
    assert fits(game, "170") is None
    dixon = green_galveston(("dixon",))
    assert "#170 may go only on" in str(fits(dixon, "170"))


# -- the double destination ---------------------------------------------------------------------

def test_the_whole_line_doubles_chicago_and_galveston_on_a_run_between_them() -> None:
    game = position()
    assert atsf.line_joined(game)
    assert run(game, LINE) == printed(game, LINE) + worth(game, "N7") + worth(game, "A22")
    assert run(game, LINE[::-1]) == printed(game, LINE) + worth(game, "N7") + worth(game, "A22")


def test_plain_1870_doubles_nothing_on_the_same_line() -> None:
    game = position(())
    assert atsf.line(game) == () and not atsf.line_joined(game)
    assert run(game, LINE) == printed(game, LINE)


def test_galveston_needs_its_destination_token_on_the_map() -> None:
    game = position(on_map=False)
    assert run(game, LINE) == printed(game, LINE)


def test_no_token_is_needed_in_chicago() -> None:
    game = position()
    assert "ATSF" not in track.tokens_in(game, "A22", 0)
    assert atsf.double_bonus(game, "ATSF", chain(*LINE)) == worth(game, "A22")


def test_a_line_missing_oklahoma_city_doubles_only_galveston() -> None:
    cities = ("A22", "B11", "J3", "M6", "N7")
    game = position(cities=cities)
    assert not atsf.line_joined(game)
    assert run(game, cities) == printed(game, cities) + worth(game, "N7")


def test_a_broken_piece_of_the_line_interrupts_it() -> None:
    game = position()
    game.state.tiles.pop("G4")  # between Oklahoma City and Fort Worth
    assert not atsf.line_joined(game)
    assert atsf.double_bonus(game, "ATSF", chain(*LINE)) == 0


def test_a_city_of_the_line_filled_by_others_interrupts_it() -> None:
    game = position()
    game.state.tokens.setdefault(CityRef("F5", 0), []).append("SP")  # Oklahoma City's one slot
    assert not atsf.line_joined(game)
    assert atsf.double_bonus(game, "ATSF", chain(*LINE)) == 0
    game.state.tokens[CityRef("F5", 0)] = ["ATSF"]
    assert atsf.line_joined(game), "its own token does not block it"


@pytest.mark.parametrize(("mode", "bonus"), [("both_ends", False), ("either_end", True)])
def test_chicago_at_one_end_is_doubled_only_in_the_either_end_reading(mode: str, bonus: bool) -> None:
    title = with_rules(load_title("1870", HOS), historical_atsf_doubled_runs=mode)
    game = position(title=title)
    game.state.tokens.setdefault(CityRef("B11", 0), []).append("ATSF")
    stops = ("A22", "B11")
    assert run(game, stops) == printed(game, stops) + (worth(game, "A22") if bonus else 0)
    assert run(game, ("B11", "F5")) == printed(game, ("B11", "F5"))


def test_an_unknown_reading_of_the_doubled_runs_is_refused() -> None:
    game = position(title=with_rules(load_title("1870", HOS), historical_atsf_doubled_runs="all"))
    with pytest.raises(ValueError, match="both_ends, either_end"):
        atsf.double_bonus(game, "ATSF", chain(*LINE))


def test_the_report_says_whether_the_line_is_joined() -> None:
    game = position()
    section = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert any("ATSF: destination Galveston N7" in line and "(joined; destination token on Galveston N7)" in line
               for line in section)
    assert any("Chicago A22 and Galveston N7 both count as destinations once Chicago A22, Kansas City B11, "
               "Oklahoma City F5, Fort Worth J3, Houston M6 and Galveston N7 are joined" in line for line in section)
    game.state.tiles.pop("G4")
    section = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert any("(not joined;" in line for line in section)
    assert atsf.report_lines(position(())) == ()


def test_run_auto_counts_the_double_destination() -> None:
    from pbem.engine import routes

    game = position()
    best = routes.best_run(game, "ATSF")
    assert best.revenue == printed(game, LINE) + worth(game, "N7") + worth(game, "A22")
    plain = position(())
    assert routes.best_run(plain, "ATSF").revenue == printed(plain, LINE)


# -- the corporations with no special benefits ---------------------------------------------------

OTHERS = ("SLSF", "SP", "SSW", "TP", "FW")
"""Seed 000, sections 4 (the Frisco: a normal share company), 6, 8, 9 and 10."""


@pytest.mark.parametrize("sym", OTHERS)
def test_no_rule_of_the_variant_gives_them_anything(sym: str) -> None:
    title, plain = load_title("1870", HOS), load_title("1870")
    mine, theirs = title.corporation(sym), plain.corporation(sym)
    assert (mine.home, mine.home_city, mine.tokens, mine.shares, dict(mine.extras)) == (
        theirs.home, theirs.home_city, theirs.tokens, theirs.shares, dict(theirs.extras))
    assert mine.float_percent == 60, "each floats like any share company"
    for key, value in title.settings.title_rules.items():
        if key != "historical_order" and isinstance(value, str):
            assert sym not in value.split(), f"title_rules.{key} names {sym}"
    for company in title.companies:
        shares = company.ability(Shares)
        assert shares is None or shares.corporation != sym
    game = position(corp=sym)
    assert connections.connection_home(game, sym) == (theirs.home, theirs.home_city or 0)
    assert atsf.double_bonus(game, sym, chain(*LINE)) == 0
    assert run(game, LINE, sym) == printed(game, LINE), "no destination doubled on the AT&SF's line"
    # the GM&O's, the IC's and the Katy's own rules name none of them
    from pbem.engine.values import CityRef
    from pbem.titles.g1870 import gmo, illinois, katy

    assert game.hooks.track.homes(game, sym) == (CityRef(theirs.home, theirs.home_city or 0),)
    assert not gmo.bound(game, sym), "no west-of-the-Mississippi rule"
    assert not illinois.applies(game, sym), "no second home, first lay or $40-token rule"
    assert katy.connection_home(game, sym) is None and not katy.home_deferred(game, sym)
    assert gmo.west_problem(game, sym, "B9", "57", 0) is None


@pytest.mark.parametrize("sym", OTHERS)
def test_they_wait_for_the_order_and_the_mps_tile_like_everyone(sym: str) -> None:
    from pbem.titles.g1870 import historical

    game = Game(load_title("1870", HOS), ["A", "B", "C"])
    assert historical.launch_problem(game, sym) is not None, "none of them starts first"
    game.state.tiles["K2"] = ("5", 0)  # one #5 laid: the other is the MP's
    assert historical.reserved_tile_problem(game, sym, "5") is not None
    assert historical.reserved_tile_problem(game, "MP", "5") is None


# -- HELP -----------------------------------------------------------------------------------------

def notes(variants: tuple[str, ...]) -> str:
    from pbem.orders import help_text

    text = help_text(title=load_title("1870", variants))
    return text[text.index("Rules of this game:"):] if "Rules of this game:" in text else ""


def test_help_says_the_order_is_our_reading_and_how_the_gm_rules_otherwise() -> None:
    text = " ".join(notes(HOS).split())
    assert "Historical Order Start" in text
    assert "GM&O, IC, MP, SLSF, AT&SF, SP, MKT, SSW, TP, FW" in text
    assert "not public" in text and "our reading" in text
    assert "ACT AS <seat> OUTOFORDER <corporation>" in text
    assert "Galveston (N7)" in text and "#170 P tile" in text


def test_help_gives_the_small_cities_reading_with_either_variant() -> None:
    for variants in (HOS, ("small_cities",), ("dixon", *HOS)):
        text = " ".join(notes(variants).split())
        assert "Only rules 1-3" in text and "a RUN order lists every stop the route passes" in text
        assert "RUN 2+2: <stops>" in text
    assert "Historical Order Start" not in notes(("small_cities",))
    for variants in ((), ("dixon",)):  # only the reading of a train due (1870 rules, as 18xx.games plays it)
        text = " ".join(notes(variants).split())
        assert "Only rules 1-3" not in text and "Historical Order Start" not in text
        assert "no other railroad's train may be bought" in text

