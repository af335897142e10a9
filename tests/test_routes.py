"""The route optimiser (pbem/engine/routes.py): exact on real positions, bounded in time,
and RUN AUTO through the mail loop logs the run it found."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from pbem.engine import routes, track
from pbem.engine.game import Game
from pbem.engine.events import render_all
from pbem.engine.ids import TrainId
from pbem.engine.values import Vertex
from tests.records import record_path, replayed_before


def brute_force(game: Game, corp: str) -> int:
    """The best revenue by trying every combination of legal routes (small positions only)."""
    owned = game.state.corporations[corp].trains
    reach = [routes.trains.train_data(game.title, t).distance for t in owned]
    every = routes.legal_routes(game, corp, max(reach))
    best = 0
    options = [[None] + [r for r in every if len(r.stops) <= d] for d in reach]
    for pick in itertools.product(*options):
        chosen = [r for r in pick if r is not None]
        masks = [r.mask for r in chosen]
        if any(a & b for a, b in itertools.combinations(masks, 2)):
            continue
        best = max(best, sum(r.revenue for r in chosen))
    return best


@pytest.mark.parametrize(("title", "name", "before"), [
    ("1830", "1830_game_end_bank.json", 440),
    ("1870", "1870_game_end_bank.json", 900),  # destinations reached: the doubling counts
    ("1870", "price_protect_allowed_40469.json", 600),
])
def test_the_optimum_equals_brute_force_and_checks_as_a_run(title: str, name: str, before: int) -> None:
    """Late operating rounds of recorded games: for every corporation with trains, branch and
    bound finds what trying every combination finds, and the run it returns is accepted by
    the run checker at that revenue."""
    game = replayed_before(title, name, before).game
    tried = 0
    for corp, treasury in game.state.corporations.items():
        if not treasury.trains or len(treasury.trains) > 3 or treasury.closed:
            continue
        found = routes.best_run(game, corp, budget=50_000_000)
        assert found.complete
        assert found.revenue == brute_force(game, corp), corp
        checked = track.check_runs(game, corp, [(t, [routes.stop_spec(game, v) for v in r.stops])
                                                for t, r in found.runs])
        assert sum(r.revenue for r in checked) == found.revenue
        tried += 1
    assert tried >= 3


def test_each_route_is_listed_once_and_keeps_the_rules() -> None:
    """No route twice (either way round); each has a token, no stop twice, and passes only
    through stops that do not block."""
    game = replayed_before("1870", "1870_game_end_bank.json", 900).game
    listed = routes.legal_routes(game, "MP", 6)
    keys = [(r.stops, r.mask) for r in listed]
    assert len(keys) == len(set(keys))
    assert not {(tuple(reversed(s)), m) for s, m in keys} & {(s, m) for s, m in keys if len(s) > 1 and s[0] != s[-1]}
    for route in listed:
        assert track.path_problem(game, "MP", list(route.stops)) is None
        assert 2 <= len(route.stops) <= 6


def expensive_position() -> Game:
    """The late 1870 map of 1870_game_end_bank (before action 1303) with SLSF given three
    12-trains: some 80,000 routes to list, and many combinations of three."""
    game = replayed_before("1870", "1870_game_end_bank.json", 1303).game
    game.state.corporations["SLSF"].trains = [TrainId("12", 1), TrainId("12", 2), TrainId("12", 3)]
    return game


def test_the_budget_is_kept_and_the_best_found_is_returned() -> None:
    """On a position built to be expensive the search stops when its budget of steps is
    spent, says it did not finish, and still returns a legal run."""
    game = expensive_position()
    found = routes.best_run(game, "SLSF", budget=200_000)
    assert not found.complete
    assert found.steps <= 200_000
    assert found.runs and found.revenue > 0
    checked = track.check_runs(game, "SLSF", [(t, [routes.stop_spec(game, v) for v in r.stops])
                                              for t, r in found.runs])
    assert sum(r.revenue for r in checked) == found.revenue


def test_a_search_cut_short_gives_the_same_run_on_any_machine() -> None:
    """The budget is a count, never the clock: the same position and budget give the same
    run however slow the machine (here: a fresh copy of the game searched again, its graph
    built anew), and a larger budget never finds less."""
    import copy

    game = expensive_position()
    first = routes.best_run(game, "SLSF", budget=150_000)
    again = routes.best_run(copy.deepcopy(game), "SLSF", budget=150_000)
    assert not first.complete
    assert [(t, r.stops) for t, r in first.runs] == [(t, r.stops) for t, r in again.runs]
    assert (first.revenue, first.steps, first.combinations) == (again.revenue, again.steps, again.combinations)
    assert routes.best_run(game, "SLSF", budget=300_000).revenue >= first.revenue


def test_the_engine_never_reads_the_clock() -> None:
    """No module of the engine imports ``time`` (RUN AUTO is bounded by a count)."""
    import ast
    from pathlib import Path

    root = Path(routes.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "time" or n.startswith("time.") for n in names), path


def test_run_auto_through_the_mail_loop_logs_the_run_it_found(tmp_path: Path) -> None:
    """The recorded 1830 game by mail up to its first run, sent as RUN AUTO: the log keeps a
    concrete run (not RUN AUTO), at least the recorded revenue, and the reports say what RUN
    AUTO found."""
    from pbem.demo import run_demo, script_from_record
    from pbem.games import open_log

    script = script_from_record(record_path("1830", "1830_game_end_bank.json"))
    first = next(i for i, mail in enumerate(script["mails"]) if any(o.startswith("RUN") for o in mail["orders"]))
    mail = script["mails"][first]
    recorded = next(o for o in mail["orders"] if o.startswith("RUN"))
    mail["orders"] = ["RUN AUTO" if o == recorded else o for o in mail["orders"]]
    script["mails"] = script["mails"][: first + 1]
    lines: list[str] = []
    data = tmp_path / "demo"
    run_demo(data, None, echo=lines.append, script=script, pictures=False)
    records = open_log(data, script["game_id"]).records
    ran = [r for r in records if r.kind_name == "action" and r.data()["type"] in ("run_routes", "run_auto")]
    assert ran and ran[-1].data()["type"] == "run_routes"
    report = "\n".join(lines)
    assert "RUN AUTO: the best run of" in report


def test_the_report_shows_the_best_run_to_a_corporation_about_to_run() -> None:
    """1830_game_end_bank before its first run from action 440 on: the options of the
    president whose corporation runs now end with what RUN AUTO would run, the best run."""
    from pbem import report_sections
    from pbem.engine.steps import operating

    from pbem.importers.e18xx import effective_actions, load_record

    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    run_id = next(a["id"] for a in effective_actions(record) if a["type"] == "run_routes" and float(a["id"]) >= 440)
    game = replayed_before("1830", "1830_game_end_bank.json", run_id).game
    assert operating.active_steps(game)[0] is operating.Route
    corp = operating.current_corp(game)
    president = game.state.corporations[corp].president
    assert president is not None
    lines = report_sections.options(game, president)
    best = routes.best_run(game, corp)
    offered = [line for line in lines if line.endswith(f"  -- the best run, {game.money(best.revenue)}")]
    assert len(offered) == 1 and offered[0].startswith(f"RUN {best.runs[0][0].kind}: ")
    assert any(line.startswith("RUN AUTO") for line in lines)
    assert best.revenue > 0


def test_run_auto_for_a_connection_run_joins_home_and_destination() -> None:
    """Game 1870_game_end_bank, SP's connection run after MP's turn (action 1031): RUN AUTO
    gives one train the run from SP's home N1 to its destination N17."""
    from pbem.engine.actions import RunAuto, RunRoutes
    from pbem.titles.g1870.actions import DestinationToken
    from pbem.titles.g1870.state import state1870

    game = replayed_before("1870", "1870_game_end_bank.json", 1032).game
    op = game.state.round.operating
    assert op is not None and state1870(game.state).connections == ["SP"]
    president = game.state.corporations["SP"].president
    assert president is not None
    game.apply(president, DestinationToken("map"))
    action, notes = routes.resolve_auto(game, RunAuto(), budget=20_000_000)
    assert isinstance(action, RunRoutes) and notes[0].startswith("RUN AUTO: the best run of SP")
    assert any({run.stops[0].split(".")[0], run.stops[-1].split(".")[0]} == {"N1", "N17"} for run in action.runs)
    events = render_all(game.apply(president, action), game.money)
    assert any(e.startswith("SP runs") for e in events)
    # the report's choices for the connection run's payout name that run's revenue
    from pbem import report_sections

    revenue = state1870(game.state).connection_revenue
    assert revenue and revenue == sum(r.revenue for r in game.last_run)
    lines = report_sections.options(game, president, route_budget=20_000)
    assert any(f"the revenue is {game.money(revenue)}" in line for line in lines), lines


def test_routes_cli_prints_every_run_with_the_optimum(tmp_path: Path) -> None:
    """pbem routes-18xx FILE --json: one object per recorded run, each optimum at least the
    recorded revenue, and the summary's counts and times."""
    import json

    from click.testing import CliRunner

    from pbem.cli import main

    path = record_path("1870", "34110.json")
    result = CliRunner().invoke(main, ["routes-18xx", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["summary"]["runs"] == len(report["runs"]) == 14
    for run in report["runs"]:
        assert {"action_id", "corporation", "recorded_revenue", "verified_revenue", "optimal_revenue",
                "ms", "complete"} <= set(run)
        assert run["verified_revenue"] == run["recorded_revenue"]
        assert run["optimal_revenue"] >= run["recorded_revenue"]
    assert report["summary"]["optimal_at_least_recorded"] == 14
    assert report["summary"]["max_ms"] >= report["summary"]["p95_ms"] >= report["summary"]["median_ms"] > 0


RECORDS = [("1830", "1830_game_end_bank.json"), ("1830", "26855.json"), ("1870", "1870_game_end_bank.json"),
           ("1870", "34110.json"), ("1870", "mississippi_river_madness_1644327587.json"),
           ("1870", "price_protect_allowed_40469.json"), ("1870", "price_protect_over_cert_limit_fails_40469.json")]


@pytest.mark.parametrize(("title", "name"), RECORDS)
def test_every_recorded_run_is_verified_and_never_beats_the_optimum(title: str, name: str) -> None:
    """Issue 6: each recorded run's revenue is ours for it, and the optimum is at least it."""
    from pbem.importers.e18xx import load_record
    from pbem.importers.route_check import check_routes

    report, outcome = check_routes(load_record(record_path(title, name)), budget=20_000_000)
    assert outcome.error is None, outcome.error
    assert report["runs"] and report["summary"]["runs"] == outcome.runs_checked
    for run in report["runs"]:
        assert run["verified_revenue"] == run["recorded_revenue"], run
        assert run["optimal_revenue"] >= run["recorded_revenue"], run
        assert run["complete"], run


def test_a_game_that_leaves_runs_to_the_server_runs_when_the_run_is_left_out(tmp_path: Path) -> None:
    """The game setting auto_runs: the recorded 1830 game by mail with its first run left
    out; the next order (the dividend) is accepted, and the log has the server's run, as its
    own record, just before it."""
    from pbem.demo import run_demo, script_from_record
    from pbem.games import open_log

    script = script_from_record(record_path("1830", "1830_game_end_bank.json"))
    first = next(i for i, mail in enumerate(script["mails"]) if any(o.startswith("RUN") for o in mail["orders"]))
    assert script["mails"][first]["orders"][0].startswith("RUN") and len(script["mails"][first]["orders"]) == 1
    script["mails"] = script["mails"][:first] + script["mails"][first + 1: first + 2]
    script["auto_runs"] = True
    data = tmp_path / "demo"
    run_demo(data, None, echo=lambda line: None, script=script, pictures=False)
    kinds = [r.data()["type"] for r in open_log(data, script["game_id"]).records if r.kind_name == "action"]
    assert kinds[-2:] == ["run_routes", "dividend"]


def test_a_titles_route_rule_applies_to_every_route_listed() -> None:
    """A title's route_problem hook (here 1825's rule, no two cities of one hex on a route)
    removes the routes it forbids from the optimiser's list and from written runs."""
    from pbem.engine.hooks import TitleHooks
    from pbem.engine.route_rules import RouteRules

    class OneCityAHex(RouteRules):
        def route_problem(self, game: Game, corp: str, stops: list[Vertex]) -> str | None:
            hexes = [v.coord for v in stops]
            return "two cities of one hex" if len(set(hexes)) != len(hexes) else None

    game = replayed_before("1830", "1830_game_end_bank.json", 600).game

    def two_on_a_hex(route: routes.Route) -> bool:
        hexes = [v.coord for v in route.stops]
        return len(set(hexes)) != len(hexes)

    corp = next(c for c, t in game.state.corporations.items() if t.trains and any(
        two_on_a_hex(r) for r in routes.legal_routes(game, c, 6)))
    before = routes.best_run(game, corp, budget=50_000_000).revenue
    forbidden = next(r for r in routes.legal_routes(game, corp, 6) if two_on_a_hex(r))
    game.hooks = TitleHooks(routes=OneCityAHex())
    game.cache.clear()
    listed = routes.legal_routes(game, corp, 6)
    assert listed and not any(two_on_a_hex(r) for r in listed)
    assert routes.best_run(game, corp, budget=50_000_000).revenue <= before
    assert track.path_problem(game, corp, list(forbidden.stops)) == "two cities of one hex"
