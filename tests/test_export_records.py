"""Exporting a game as an 18xx.games record: the platform's ids on built positions, the
variants the platform lacks, and the round trip import -> export -> import on every recorded
game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.actionlog import verify
from pbem.engine.actions import BuyShares, BuyTrain, LayTile, Pass, SellShares
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.engine.state import IPO, RoundState, StockRoundState
from pbem.exporters.e18xx import Exporter, export_log
from pbem.exporters.records import LoggedOrder, UnsupportedExport, orders_in_force
from pbem.importers.e18xx import effective_actions, load_record
from pbem.importers.log_import import create_imported_game
from pbem.importers.replay import record_keys, replay_record
from pbem.importers.turns import TurnWatch
from pbem.log_records import LogRecord
from pbem.orders import format_order
from pbem.ruleset import load_title
from tests.positions import mp_operating_with_the_bridge_company
from tests.records import record_path

RECORDS = [
    ("1830", "1830_game_end_bank.json"),
    ("1830", "26855.json"),
    ("1870", "1870_game_end_bank.json"),
    ("1870", "34110.json"),
    ("1870", "mississippi_river_madness_1644327587.json"),
    ("1870", "price_protect_allowed_40469.json"),
    ("1870", "price_protect_over_cert_limit_fails_40469.json"),
    ("1825", "1825_game_end_bank.json"),
]


def exporter_on(game: Game) -> Exporter:
    """An exporter whose game is the built position ``game`` (the record's share ids follow
    our engine's holdings from the offering)."""
    exporter = Exporter(game.title, list(game.state.seats))
    renderer = exporter.renderer
    renderer.game = game
    renderer.turns = TurnWatch(game, renderer.translation)
    renderer.holdings.follow(game.state)
    for by_holder in renderer.holdings.shares.values():
        for holder, ids in by_holder.items():
            if holder != IPO:
                renderer.ipo_ids.difference_update(ids)
    return exporter


def last(exporter: Exporter) -> dict[str, Any]:
    return exporter.actions[-1]


# --- ids on built positions -------------------------------------------------------------


def test_a_lay_takes_the_first_copy_in_the_supply_and_a_replaced_tile_goes_back_last() -> None:
    game = mp_operating_with_the_bridge_company()
    exporter = exporter_on(game)
    lay = next(a for a in game.legal_actions("B") if isinstance(a, LayTile))
    exporter.add(LoggedOrder(5, "B", lay))
    assert last(exporter)["tile"] == f"{lay.tile}-0"
    assert last(exporter)["hex"] == lay.hex and last(exporter)["entity"] == "MP"
    assert exporter.sources == [5]
    # the next lay of that tile takes copy 1; once copy 0 is replaced it comes back last
    assert exporter.tile_id("X1", lay.tile) == f"{lay.tile}-1"
    game.state.tiles[lay.hex] = ("__other__", 0)
    exporter.tile_supply["__other__"] = ["__other__-0"]
    exporter._sync_tiles()
    assert exporter.tile_supply[lay.tile][-1] == f"{lay.tile}-0"
    assert exporter.tile_id("X1", lay.tile) == f"{lay.tile}-1"


def test_trains_are_named_by_copy_in_the_order_the_depot_sells_them() -> None:
    game = mp_operating_with_the_bridge_company()
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(1, "B", BuyTrain("2")))
    exporter.add(LoggedOrder(2, "B", BuyTrain("2")))
    bought = [a for a in exporter.actions if a["type"] == "buy_train"]
    assert [a["train"] for a in bought] == ["2-0", "2-1"]
    assert [a["price"] for a in bought] == [80, 80]
    assert all(a["entity"] == "MP" and a["entity_type"] == "corporation" for a in exporter.actions)
    assert game.state.corporations["MP"].trains == [TrainId("2", 0), TrainId("2", 1)]


def stock_round(game: Game) -> None:
    game.state.round = RoundState(kind="stock", number=2, stock=StockRoundState())
    game.state.order = ["B", "C", "A"]


def test_a_sale_names_the_sellers_shares_and_a_pool_buy_takes_one_of_them() -> None:
    game = mp_operating_with_the_bridge_company(president_holds_shares=True)
    stock_round(game)
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(1, "B", SellShares("MP", 2)))
    sale = last(exporter)
    assert sale["type"] == "sell_shares" and sale["entity"] == 2 and sale["entity_type"] == "player"
    assert sale["shares"] == ["MP_1", "MP_2"] and sale["percent"] == 20
    exporter.add(LoggedOrder(2, "B", Pass()))
    assert last(exporter) == {"type": "pass", "entity": 2, "entity_type": "player", "id": 2}
    exporter.add(LoggedOrder(3, "C", BuyShares("MP", "pool")))
    assert last(exporter)["shares"] == ["MP_1"]
    assert last(exporter)["entity"] == 3
    if "C" in game.waiting_for():
        exporter.add(LoggedOrder(4, "C", Pass()))
    exporter.add(LoggedOrder(5, "A", BuyShares("MP", "ipo")))
    assert last(exporter)["shares"] == ["MP_5"]  # the offering's first share: B holds MP_0-MP_4


def test_a_token_names_the_city_by_the_tile_copy_and_its_index() -> None:
    game = mp_operating_with_the_bridge_company()
    exporter = exporter_on(game)
    game.state.tiles["C18"] = ("57", 0)
    exporter._sync_tiles()
    assert exporter.tile_id("C18") == "57-0"
    assert exporter.tile_id("B19") == "B19-0"  # a preprinted tile: the hex's own id


def test_the_export_names_the_tiles_and_cities_the_platform_named() -> None:
    """On the recorded games the exported lays and tokens name exactly the recorded tile
    copies and cities (the two-city tiles of 1830 and 1825 among them)."""
    for title, name in (("1830", "1830_game_end_bank.json"), ("1825", "1825_game_end_bank.json")):
        record = load_record(record_path(title, name))
        exported = export_log(_log(record))
        for kind, key in (("lay_tile", "tile"), ("place_token", "city")):
            recorded = [a[key] for a in effective_actions(record) if a["type"] == kind]
            ours = [a[key] for a in exported.actions if a["type"] == kind]
            assert ours == recorded, (title, kind)
        assert any(a["type"] == "place_token" and str(a["city"]).endswith("-1") for a in exported.actions)


def test_a_variant_the_platform_lacks_is_refused_by_name() -> None:
    for title, variant in (("1870", "dixon"), ("1870", "small_cities"), ("1870", "historical_order_start"),
                           ("1825", "lorenz")):
        data = load_title(title, (variant,) if title == "1870" else ("unit_1", variant))
        with pytest.raises(UnsupportedExport, match=variant):
            Exporter(data, ["A", "B", "C", "D"])
    ok = Exporter(load_title("1870", ("diesels", "original_tiles")), ["A", "B", "C"])
    assert ok.record().optional_rules == ("diesels", "original_tiles")


PLATFORM_OPTIONS = {
    "1830": {"multiple_brown_from_ipo", "optional_6_train"},
    "1870": {"diesels", "finish_on_400", "original_rules", "station_wars", "original_tiles",
             "max_reissue_200", "can_protect_if_sold", "original_market"},
    "1825": {"unit_1", "unit_2", "unit_3", "unit_12", "unit_23", "unit_123", "unit_4", "r1", "r2", "r3",
             "k1", "k2", "k3", "k5", "k6", "k7", "d1", "u3p", "big_bank", "strict_bank", "db1", "db2", "db3"},
}
"""The optional rules of each title on 18xx.games (its ``g_<title>/meta.rb``
``OPTIONAL_RULES``), transcribed."""


@pytest.mark.parametrize("title", sorted(PLATFORM_OPTIONS))
def test_every_variant_of_ours_is_the_platforms_option_or_refused(title: str) -> None:
    """A variant of ours that is no option of the platform (a rule of its own, or a reading
    the GM chose) cannot be written as one: the export refuses the game, naming it."""
    from pbem.errors import ConfigError
    from pbem.importers.translation import translation_for
    from pbem.ruleset.files import available_variants

    checked = 0
    for variant in available_variants(title):
        data = None
        for others in ((), ("unit_1",), ("unit_2",), ("unit_3",), ("unit_1", "k3")):
            try:
                data = load_title(title, tuple(dict.fromkeys(others + (variant,))))
                break
            except ConfigError:
                continue  # a combination the title refuses: try the next
        assert data is not None, variant
        checked += 1
        seats = [f"P{i}" for i in range(1, data.min_players + 1)]
        if variant in PLATFORM_OPTIONS[title]:
            assert variant in Exporter(data, seats).record().optional_rules
        elif variant in translation_for(title).platform_plays:  # the platform's own play, no option
            assert variant not in Exporter(data, seats).record().optional_rules
        else:
            with pytest.raises(UnsupportedExport, match=variant):
                Exporter(data, seats)
    assert checked == len(available_variants(title))


def test_every_reading_of_a_lacking_variant_is_refused_as_it_includes_it() -> None:
    """A reading of Lorenz's variant (a file that includes ``lorenz``) is refused by its own
    name without being listed: what it includes decides."""
    from pbem.ruleset.files import available_variants

    readings = [v for v in available_variants("1825") if v.startswith("lorenz_")]
    assert "lorenz_gwr_sold_out_to_players" in readings
    for variant in readings:
        with pytest.raises(UnsupportedExport, match=variant):
            Exporter(load_title("1825", ("unit_1", variant)), ["A", "B", "C", "D"])


def test_the_cli_writes_the_record_and_refuses_an_unknown_game(tmp_path: Path) -> None:
    from pbem.cli import main

    record = load_record(record_path("1870", "34110.json"))
    create_imported_game(tmp_path / "data", "g", record)
    config = tmp_path / "config.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n", encoding="utf-8")
    out = tmp_path / "g.json"
    runner = CliRunner()
    done = runner.invoke(main, ["export-18xx", "--config", str(config), "g", "--out", str(out)])
    assert done.exit_code == 0, done.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["title"] == "1870" and [p["name"] for p in written["players"]] == ["Player 1", "Player 2"]
    assert written["actions"][-1]["type"] == "end_game"
    refused = runner.invoke(main, ["export-18xx", "--config", str(config), "nope"])
    assert refused.exit_code != 0 and "no game nope" in refused.output


# --- the round trip on every recorded game --------------------------------------------------


def _log(record: dict[str, Any]) -> list[LogRecord]:
    """The verified log of ``record`` imported as a game (in a temporary folder)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        create_imported_game(Path(tmp), "g", record)
        return verify(Path(tmp) / "games" / "g" / "log.jsonl")


def lines(records: list[LogRecord]) -> list[tuple[str, str]]:
    return [(o.seat, format_order(o.action)) for o in orders_in_force(records)[1]]


@pytest.mark.parametrize(("title", "name"), RECORDS)
def test_import_export_import_gives_the_same_order_lines(title: str, name: str) -> None:
    record = load_record(record_path(title, name))
    first = _log(record)
    exported = export_log(first)
    again = _log(exported.to_json())
    assert lines(again) == lines(first)
    # each record action keeps the log number of the order it came from, in log order
    assert len(exported.sources) == len(exported.actions)
    in_force = {o.seq for o in orders_in_force(first)[1]} | {r.seq for r in first if r.kind_name == "gm"}
    assert set(exported.sources) <= in_force
    assert list(exported.sources) == sorted(exported.sources)
    assert [a["id"] for a in exported.actions] == list(range(1, len(exported.actions) + 1))
    # and the exported record replays on our engine to the recorded result
    outcome = replay_record(exported.to_json())
    assert outcome.error is None
    names = {str(p.id): p.name for p in exported.players}
    keys = record_keys(record)
    assert {keys[names[k]]: v for k, v in outcome.result.items()} == record["result"]
