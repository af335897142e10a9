"""Every line the report's "you may send" section offers is accepted as written: on positions
of the recorded 1830 and 1870 games (every round and step kind met along the way), each
offered order line parses in the title's vocabulary and applies to a copy of the game.
Lines are taken from the rendered first section, so what the player reads is what is
tested."""

from __future__ import annotations

import copy
import re

import pytest

from pbem import report_sections as sections
from pbem.engine import lays
from pbem.engine.game import Game
from pbem.importers.e18xx import Renderer, effective_actions, load_record
from pbem.orders import Vocabulary, format_order, parse_order
from pbem.reports import first_section
from tests.records import record_path

RECORDS = [("1830", "1830_game_end_bank.json"), ("1870", "1870_game_end_bank.json"),
           ("1870", "mississippi_river_madness_1644327587.json")]


def positions(title: str, name: str, every: int) -> list[tuple[str, Game]]:
    """Copies of the game before every ``every``-th recorded action, and before the first
    action of each kind of step met (so each step kind is tested at least once)."""
    record = load_record(record_path(title, name))
    renderer = Renderer(record)
    out: list[tuple[str, Game]] = []
    seen: set[str] = set()
    for i, action in enumerate(effective_actions(record)):
        game = renderer.game
        actors = game.current_actors()
        if actors:
            kind = game.waiting_for().split(": ", 1)[-1]
            if i % every == 0 or kind not in seen:
                out.append((str(action["id"]), copy.deepcopy(game)))
                seen.add(kind)
        try:
            ours = renderer.render(action)
        except Exception:  # the end of what the renderer supports (e.g. a manual end)
            break
        if ours is not None:
            game.apply(renderer.seat(action), ours)
    return out


ORDER = re.compile(r"^[A-Z]+(?: |$)")


def offered_lines(game: Game) -> tuple[str, list[str]]:
    """The player to act and the order lines the first section offers (the orders of each
    choice line, split at ``or``, and every tile lay listed)."""
    player = game.current_actors()[0]
    found = sections.offer(game, player)
    assert found is not None
    text = first_section(found, recipient=player, actors=[player], ended=False, paused=False, room=10_000)
    lines: list[str] = [line for choice in found.choices for line in choice.also]  # summed up in notes
    listing = False
    coord = ""
    for line in text[3:]:
        body = line.strip()
        if line.startswith("  ") and not line.startswith("    "):
            listing = " may lay " in line
            continue
        if listing:
            if line.startswith("        "):  # a hex continued from the line before
                body = f"{coord}: {body.rstrip(';')}"
            for entry in body.rstrip(";").split(" | "):
                coord, _, tiles = entry.partition(": ")
                coord = coord.split(" ")[0]
                for part in tiles.split("; "):
                    tile, *rotations = part.split()
                    lines += [f"LAY {coord} {tile} {r.removeprefix('r')}" for r in rotations]
            continue
        orders = body.split("  -- ")[0]
        lines += [o.strip() for o in orders.split("  or  ") if ORDER.match(o.strip()) and "<" not in o]
    return player, lines


@pytest.mark.parametrize("title, name", RECORDS)
def test_every_offered_line_is_accepted_as_written(title: str, name: str) -> None:
    every = 25 if title == "1830" else 60
    vocab = None
    tested = 0
    for where, game in positions(title, name, every):
        vocab = vocab or Vocabulary.from_title(game.title)
        player, lines = offered_lines(game)
        assert lines, f"before action {where}: nothing offered to {player}"
        tile_lays = [line for line in lines if line.startswith("LAY ") and " USING " not in line]
        # every other line, and every fifth tile lay (tests/test_engine_lays.py checks them all)
        for line in [line for line in lines if line not in tile_lays] + tile_lays[::5]:
            action = parse_order(line, vocab)
            assert format_order(action, vocab) == line, f"{line!r} is not the canonical form"
            twin = copy.deepcopy(game)
            try:
                twin.apply(player, action)
            except ValueError as exc:
                pytest.fail(f"before action {where}: {player} was offered {line!r}, refused: {exc}")
            tested += 1
    assert tested > 50


def test_the_1870_stock_round_offers_shares_of_slsf_and_mkt_unambiguously() -> None:
    """1870: a private and a corporation share the names SLSF and MKT; the stock round offers
    their shares as BUY SLSF IPO / BUY MKT IPO, which read back as shares."""
    for where, game in positions("1870", "1870_game_end_bank.json", 10):
        if game.state.round.kind != "stock":
            continue
        player, lines = offered_lines(game)
        shared = [line for line in lines if line.split()[0] == "BUY" and {"SLSF", "MKT"} & set(line.split())]
        if shared:
            vocab = Vocabulary.from_title(game.title)
            for line in shared:
                assert line.endswith((" IPO", " POOL")), line
                assert type(parse_order(line, vocab)).__name__ == "BuyShares"
            return
    pytest.fail("no stock round offered SLSF or MKT shares")


def test_a_track_step_lists_every_legal_lay() -> None:
    """The lays the first section lists (cut to its room, or in full) are the generator's."""
    for where, game in positions("1870", "1870_game_end_bank.json", 200):
        player = game.current_actors()[0]
        found = sections.offer(game, player)
        if found is not None and found.lays:
            listed = {f"LAY {lay.hex} {lay.tile} {lay.rotation}" for lay in lays.legal_lays(game)}
            _, lines = offered_lines(game)
            assert listed <= set(lines)
            return
    pytest.fail("no track step found")


def test_a_privates_own_tile_lay_is_offered_with_using() -> None:
    """1830, NYNH owns the Champlain & St. Lawrence (its extra tile on B20, at any time in
    the turn): the report offers LAY B20 ... USING CS, and every such line applies."""
    from tests.records import replayed_before

    game = replayed_before("1830", "1830_game_end_bank.json", 158).game
    player, lines = offered_lines(game)
    using = [line for line in lines if line.endswith(" USING CS")]
    assert len(using) > 1 and all(line.startswith("LAY B20 ") for line in using)
    vocab = Vocabulary.from_title(game.title)
    for line in using:
        copy.deepcopy(game).apply(player, parse_order(line, vocab))
