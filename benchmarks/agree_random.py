"""Agreement with the reference engine on random games: play seeded random games in our
engine, export each game's log as an 18xx.games record, replay that record in the
platform's public engine and compare the two states after every action.

    python benchmarks/agree_random.py --title 1830 --games 5 --seed 1 --engine PATH
    python benchmarks/agree_random.py --title 1825 --options unit_1 r1 --games 20 --seed 100
    python benchmarks/agree_random.py --games 2                # every setup the platform has

Game ``i`` of a setup uses seed ``S + i`` (the random driver, ``pbem.randomplay``, with its
costly checks off: the invariants are the random-games benchmark's job). Printed per game:
agreed through N actions, an export failure (our log holds an order the exporter does not
write), or the first divergence (the record action, our order line it came from, the first
differences). At the end a table: games per title and option set, how many agreed, and the
divergences and export failures grouped by a short signature (the record action's type and
the first differing field; the failure's message with its numbers left out), each with
its seeds and a command that reproduces the first. ``--keep DIR`` writes the record of
every game that did not agree (``<title>-<options>-<players>p-<seed>.json``), which
``agree_18xx.py`` compares again. Setups with an option the platform lacks are skipped.

The platform's engine: ``--engine PATH`` or ``PBEM_18XX_ENGINE`` (see ``agree_18xx.py``).
Exit status: 0 when every game agreed, 1 when one did not, 2 when the engine is missing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from agree_18xx import EngineNotFound, compare_record, engine_dir  # noqa: E402

from pbem.engine.ids import ShareId  # noqa: E402
from pbem.errors import ConfigError  # noqa: E402
from pbem.exporters.e18xx import export_orders  # noqa: E402
from pbem.exporters.records import LoggedOrder, UnsupportedExport  # noqa: E402
from pbem.orders import Vocabulary, parse_order  # noqa: E402
from pbem.randomplay import Checks, InvariantError, Setup, play_game, setups_for  # noqa: E402
from pbem.randomplay.setups import add_setup_arguments, resolved  # noqa: E402
from pbem.ruleset import load_title  # noqa: E402

FAST = Checks(offers_every=0, reports_every=0, wrong_lines=0, replay=False, invariants=False)
"""The random driver's checks here: none but the engine's own (a listed action refused)."""


@dataclass
class GameResult:
    """One game: ``outcome`` is ``agreed``, ``diverged``, ``export`` (cannot be exported),
    ``play`` (the random game itself failed) or ``error`` (a tool failed); ``signature``
    groups it; ``text`` says what happened; ``seconds`` per stage."""

    setup: Setup
    seed: int
    outcome: str
    signature: str = ""
    text: str = ""
    actions: int = 0
    exported: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    record: dict[str, Any] | None = None

    def command(self) -> str:
        """The command that plays and compares this game alone."""
        return f"python benchmarks/agree_random.py {self.setup.command_options()} --games 1 --seed {self.seed}"


def _general(text: str) -> str:
    """A message with its numbers, hexes and seat names left out (for a signature)."""
    text = re.sub(r"^log \d+: ", "", text)
    text = re.sub(r"Player \d+", "<seat>", text)
    text = re.sub(r"\b[A-Z]{0,2}\d+(\.\d+)?\b", "#", text)
    return text[:90]


def _field(difference: str) -> str:
    """The differing field of a difference line, names of players and corporations left
    out: ``players.*.cash``, ``corporations.*.trains``, ``acting``."""
    path = difference.split(":", 1)[0]
    parts = path.split(".")
    if parts[0] in ("players", "corporations") and len(parts) > 1:
        parts[1] = "*"
    return ".".join(parts)


PLATFORM_WEIGHTS = {"trade_private_share": 0.0}
"""The random games leave out what the platform cannot replay: a private that came with a
share sold between players (18xx.games hands its buyer the share again; the export refuses it)."""


def play_and_compare(setup: Setup, seed: int, engine: Path, max_actions: int = 20_000,
                     keep_record: bool = False) -> GameResult:
    """Play game ``seed`` of ``setup``, export it and compare it with the platform's engine."""
    began = time.perf_counter()
    result = GameResult(setup, seed, "error")
    try:
        played = play_game(setup, seed, FAST, max_actions, weights=PLATFORM_WEIGHTS)
    except (InvariantError, ConfigError) as exc:
        result.outcome, result.signature, result.text = "play", f"play: {_general(str(exc))}", str(exc)
        return result
    result.actions = len(played.log)
    result.seconds["play"] = time.perf_counter() - began
    title = load_title(setup.title, resolved(setup))
    vocab = Vocabulary.from_title(title)
    orders = [LoggedOrder(n, seat, parse_order(line, vocab)) for n, (seat, line) in enumerate(played.log, 1)]
    began = time.perf_counter()
    try:
        exported = export_orders(title, list(played.game.state.seats), orders)
    except UnsupportedExport as exc:
        result.outcome, result.text = "export", str(exc)
        number = re.match(r"log (\d+):", str(exc))
        kind = played.log[int(number.group(1)) - 1][1].split()[0] if number else "-"
        result.signature = f"export {kind}: {_general(str(exc))}"
        return result
    result.seconds["export"] = time.perf_counter() - began
    record = exported.to_json()
    record["id"] = seed
    result.exported = len(exported.actions)
    began = time.perf_counter()
    try:
        agreement = compare_record(record, engine, name=f"{setup.name} seed {seed}")
    except RuntimeError as exc:
        result.signature, result.text = f"tool: {_general(str(exc).splitlines()[-1])}", str(exc)
        result.record = record if keep_record else None
        return result
    result.seconds["compare"] = time.perf_counter() - began
    if agreement.agreed:
        result.outcome, result.text = "agreed", f"agreed through {agreement.compared} record actions"
        return result
    result.outcome = "diverged"
    result.record = record if keep_record else None
    if agreement.their_end == "dnf":
        result.signature, result.text = DNF, agreement.summary()
        return result
    lines = [agreement.summary()]
    divergence = agreement.divergence
    if divergence is not None:
        kind = (divergence.action or {}).get("type", "start")
        result.signature = f"{kind} / {_field(divergence.differences[0])}"
        if divergence.theirs.get("idle") and all(d.startswith("acting:") for d in divergence.differences):
            result.signature = IDLE
        elif divergence.theirs.get("idle") and 0 <= divergence.index < len(exported.sources) and idle_after_close(
                title, list(played.game.state.seats), played.log, exported.sources[divergence.index]):
            result.signature = IDLE  # ours went on into the operating round (its income differs)
        elif 0 <= divergence.index < len(exported.sources) and own_protection_waits(
                title, list(played.game.state.seats), played.log, exported.sources[divergence.index],
                divergence.theirs, divergence.differences):
            result.signature = OWN_PROTECTION
        elif 0 <= divergence.index < len(exported.sources) and stale_graph_token(
                title, list(played.game.state.seats), played.log, exported.sources[divergence.index]):
            result.signature = STALE_GRAPH
        elif 0 <= divergence.index < len(exported.sources) and share_after_trade(
                title, played.log, exported.sources[divergence.index]):
            result.signature = SALE_AFTER_TRADE
        elif 0 <= divergence.index < len(exported.sources) and bank_broken_by_income(
                title, list(played.game.state.seats), played.log, exported.sources[divergence.index]):
            result.signature = BANK_BY_INCOME
        elif 0 <= divergence.index < len(exported.sources) and skipped_dividend(
                title, list(played.game.state.seats), played.log, exported.sources[divergence.index],
                divergence.action or {}):
            result.signature = DIVIDEND_SKIPPED
        if 0 <= divergence.index < len(exported.sources):
            seq = exported.sources[divergence.index]
            seat, line = played.log[seq - 1]
            lines.insert(1, f"  our order: log {seq}, {seat}: {line}")
    elif agreement.our_error:
        result.signature = f"our replay refused: {_general(agreement.our_error)}"
    else:
        their = re.sub(r"^action \d+ ", "", agreement.their_error or "")
        result.signature = f"platform refused {_general(their)}"
        refused = re.match(r"action (\d+)", agreement.their_error or "")
        index = int(refused.group(1)) - 1 if refused else -1  # the record's ids are 1, 2 ...
        if 0 <= index < len(exported.sources):
            seq = exported.sources[index]
            seat, line = played.log[seq - 1]
            known = theirs(title, list(played.game.state.seats), played.log, seq, agreement.their_error or "")
            if known is None and stale_graph_token(title, list(played.game.state.seats), played.log, seq):
                known = STALE_GRAPH
            if known is None and title.title == "1825" and directors_certificate_unlisted(
                    title, record["actions"][index], agreement.their_error or ""):
                known = DIRECTOR_UNLISTED
            if known is None and offboard_station(title, list(played.game.state.seats), played.log, seq,
                                                  agreement.their_error or ""):
                known = OFFBOARD_STATION
            if known is None and idle_after_close(title, list(played.game.state.seats), played.log, seq,
                                                  agreement.their_error or ""):
                known = IDLE
            if known is None and skipped_dividend(title, list(played.game.state.seats), played.log, seq,
                                                  record["actions"][index]):
                known = DIVIDEND_SKIPPED
            if known:
                result.signature = known
            lines.insert(1, f"  our order: log {seq}, {seat}: {line}; before it: "
                            + " | ".join(f"{s}: {t}" for s, t in played.log[max(0, seq - 6):seq - 1]))
    result.text = "\n".join(lines)
    return result


FLOOR = ("theirs: after the train due, a further train from another corporation refused below the "
         "emergency floor (18xx.games step/train.rb spend_minmax keeps the last share sold's floor all turn)")


DNF = ("theirs: the platform ends every game at the end of its 100th turn as not finished "
       "(18xx.games base game: end_game!(:dnf) once @turn >= 100); ours plays on")
OWN_PROTECTION = ("theirs: in an operating round the platform offers a president price protection of "
                  "their own emergency sale (its base rules bar only who sold in a stock round; "
                  "1870 step/price_protection.rb, players_sold kept by the stock round alone)")
DIVIDEND_SKIPPED = ("theirs: after a company is removed in its dividend step the platform skips the next "
                    "company's dividend, its revenue neither paid nor withheld, and makes its train step "
                    "before its turn (1825; those steps stand passed for the next company)")
STALE_GRAPH = ("theirs: a token slot freed by a closing corporation is not seen by the platform's route "
               "graph until a tile or token is laid (base.rb close_corporation removes the tokens "
               "and keeps the graph's cache), so it skips a token step ours offers")
IDLE = ("theirs: the platform hands the turn to a player with no action it may take, and waits "
        "(1870: after a railroad closes on a price protection not taken in the stock round)")

SALE_AFTER_TRADE = ("theirs: after another player's private and then a share bought in one turn the platform "
                    "allows no sale (1870's buy then sell: its can_sell_order? counts the private as a second kind "
                    "of action, as if the turn had sold and then bought), and ends the turn ours goes on with")


def share_after_trade(title: Any, log: list[tuple[str, str]], seq: int) -> bool:
    """Whether our order ``seq`` buys shares in a turn of a title that sells then buys or
    buys then sells, after another player's private bought in the same turn
    (:data:`SALE_AFTER_TRADE`): the turn's earlier lines are the same seat's since its last
    PASS."""
    if title.settings.sell_buy_order != "sell_buy_or_buy_sell" or not log[seq - 1][1].startswith("BUY "):
        return False
    privates = {company.sym for company in title.companies}
    seat = log[seq - 1][0]
    for earlier_seat, line in reversed(log[:seq - 1]):
        words = line.split()
        if earlier_seat != seat or words[0] == "PASS":
            return False
        if len(words) == 3 and words[0] == "BUY" and words[1] in privates and words[2].isdigit():
            return True
    return False


def idle_after_close(title: Any, seats: list[str], log: list[tuple[str, str]], seq: int,
                     refusal: str | None = None) -> bool:
    """Whether the divergence at our order ``seq`` is :data:`IDLE`: that order closed a
    corporation in a stock round, which then ended with every player passed for having
    nothing to do; with ``refusal``, the platform's refusal is of the operating round's first
    automatic action, sent with the order."""
    if refusal is not None and "No step found for action destination_connection" not in refusal:
        return False
    from pbem.engine.events.operating import CorporationClosed
    from pbem.engine.events.rounds import NoValidActions
    from pbem.engine.game import Game

    game = Game(title, seats)
    vocab = Vocabulary.from_title(title)
    for seat, line in log[:seq - 1]:
        game.apply(seat, parse_order(line, vocab), atomic=False)
    if game.state.round.kind != "stock":
        return False
    seat, line = log[seq - 1]
    events = game.apply(seat, parse_order(line, vocab), atomic=False)
    closed = next((n for n, e in enumerate(events) if isinstance(e, CorporationClosed)), None)
    return closed is not None and any(isinstance(e, NoValidActions) for e in events[closed:])


def own_protection_waits(title: Any, seats: list[str], log: list[tuple[str, str]], seq: int,
                         theirs_state: dict[str, Any], differences: tuple[str, ...]) -> bool:
    """Whether a divergence at our order ``seq`` is the platform waiting on a president's
    protection of their own emergency sale (:data:`OWN_PROTECTION`): in an operating round,
    before or after that order, such a sale is queued, and the platform names its seller to
    act or the difference is its corporation's price."""
    if title.title != "1870":
        return False
    from pbem.engine.game import Game
    from pbem.titles.g1870.protection import queue

    game = Game(title, seats)
    vocab = Vocabulary.from_title(title)
    own: set[tuple[str, str]] = set()
    for n, (seat, line) in enumerate(log[:seq], 1):
        game.apply(seat, parse_order(line, vocab), atomic=False)
        if n >= seq - 1 and game.state.round.kind == "operating":
            own |= {(s.seller, s.corporation) for s in queue(game) if s.seller == s.president}
    return any(theirs_state.get("acting") == seller or any(d.startswith(f"corporations.{sym}.price")
                                                          for d in differences)
               for seller, sym in own)


def stale_graph_token(title: Any, seats: list[str], log: list[tuple[str, str]], seq: int) -> bool:
    """Whether, before our order ``seq``, the acting corporation may place a token in a city
    where a corporation that closed since the last tile or token (not a home token) anywhere
    had one (:data:`STALE_GRAPH`)."""
    from pbem.engine.actions import PlaceToken
    from pbem.engine.events.operating import CorporationClosed, TileLaid, TokenPlaced
    from pbem.engine.game import Game

    game = Game(title, seats)
    vocab = Vocabulary.from_title(title)
    freed: set[str] = set()
    for seat, line in log[:seq - 1]:
        held = {sym: {key.coord for key, corps in game.state.tokens.items() if sym in corps}
                for sym in game.state.corporations}
        for event in game.apply(seat, parse_order(line, vocab), atomic=False):
            if isinstance(event, TileLaid) or (isinstance(event, TokenPlaced) and not event.home):
                freed.clear()  # the platform clears its graph then (not for a home token)
            elif isinstance(event, CorporationClosed):
                freed |= held.get(event.corporation, set())
    actors = game.current_actors()
    return bool(freed and actors) and any(isinstance(a, PlaceToken) and a.hex in freed
                                          for a in game.legal_actions(actors[0]))


BANK_BY_INCOME = ("theirs: the privates' income breaks the bank and the platform plays on (1825: it checks the "
                  "bank only after a dividend or a sale, g_1825 check_bank_broken!, the bank itself unchecked)")


def bank_broken_by_income(title: Any, seats: list[str], log: list[tuple[str, str]], seq: int) -> bool:
    """Whether our order ``seq`` broke 1825's bank with the privates' income paid as an
    operating round began (:data:`BANK_BY_INCOME`)."""
    if title.title != "1825":
        return False
    from pbem.engine.events.operating import BankBroken
    from pbem.engine.events.rounds import CompanyIncome
    from pbem.engine.game import Game

    game = Game(title, seats)
    vocab = Vocabulary.from_title(title)
    for seat, line in log[:seq - 1]:
        game.apply(seat, parse_order(line, vocab), atomic=False)
    seat, line = log[seq - 1]
    events = game.apply(seat, parse_order(line, vocab), atomic=False)
    broken = next((n for n, e in enumerate(events) if isinstance(e, BankBroken)), None)
    return broken is not None and broken > 0 and isinstance(events[broken - 1], CompanyIncome)


DIRECTOR_UNLISTED = ("theirs: with only the Director's certificate in the pool the platform lists no purchase "
                     "to a player who cannot pay for the whole certificate, though it sells it for one "
                     "share's price, a share given back (1825; step/buy_sell_par_shares.rb can_buy_shares? "
                     "prices the smallest certificate there whole)")


def directors_certificate_unlisted(title: Any, action: dict[str, Any], refusal: str) -> bool:
    """Whether the platform's refusal is of our purchase of a Director's certificate (the
    record's ``<corp>_0``) from the pool for one share's percent, less than the certificate's
    (:data:`DIRECTOR_UNLISTED`)."""
    shares = action.get("shares") or []
    if action.get("type") != "buy_shares" or "Blocking step Sell/Buy/Sell Certificates" not in refusal \
            or len(shares) != 1 or not str(shares[0]).endswith("_0"):
        return False
    sym = ShareId.parse(str(shares[0])).corporation
    return int(action.get("percent", 0)) < title.corporation(sym).shares[0]


OFFBOARD_STATION = ("theirs: the platform lets a railroad place a station in the Southwest off-board area "
                    "(1870 N1: a city of one slot there, the Southern Pacific's home, free once the SP has "
                    "closed); the rules put stations in cities only (Dixon's 1870 rules 7.3, 8.1)")


def offboard_station(title: Any, seats: list[str], log: list[tuple[str, str]], seq: int, refusal: str) -> bool:
    """Whether the platform's refusal of our order ``seq`` is its token step waiting on a
    station in 1870's Southwest (N1) that our engine does not offer (:data:`OFFBOARD_STATION`):
    the operating railroad reaches N1 and no token is there."""
    if title.title != "1870" or "Blocking step Place a Token cannot process" not in refusal:
        return False
    from pbem.engine import track
    from pbem.engine.game import Game

    game = Game(title, seats)
    vocab = Vocabulary.from_title(title)
    for seat, line in log[:seq - 1]:
        game.apply(seat, parse_order(line, vocab), atomic=False)
    corp = game.operating_corporation()
    if corp is None or any(key.startswith("N1.") for key in game.state.tokens):
        return False
    return any(v.coord == "N1" for v in track.network(game, corp).stops)


def skipped_dividend(title: Any, seats: list[str], log: list[tuple[str, str]], seq: int,
                     action: dict[str, Any]) -> bool:
    """Whether the divergence at ``action`` (a company's, our order ``seq``) is the platform's
    skipped dividend: the company's turn began in the order that closed the company before
    it, and our order ``seq`` makes the company's run or dividend (revenue or none, its
    price moved), after which the platform has passed over the dividend; or ``seq`` is the
    order in which a company closes and the next one's turn begins (:data:`DIVIDEND_SKIPPED`)."""
    corp = action.get("entity")
    if title.title != "1825" or action.get("entity_type") != "corporation":
        return False
    from pbem.engine.events.operating import CorporationClosed, DividendPaid, NoRun, TrainRan, Withheld
    from pbem.engine.events.rounds import Operates, PriceMoved
    from pbem.engine.game import Game

    game = Game(title, seats)
    vocab = Vocabulary.from_title(title)
    began_after_close = False
    for n_order, (seat, line) in enumerate(log[:seq], start=1):
        events = game.apply(seat, parse_order(line, vocab), atomic=False)
        if n_order == seq:
            closed = next((n for n, e in enumerate(events) if isinstance(e, CorporationClosed)), None)
            if closed is not None and any(isinstance(e, Operates) for e in events[closed:]):
                return True  # the next company's turn begins after the removal: the platform's
                # steps after the dividend have already run for it (its train bought before its run)
            return began_after_close and any(isinstance(e, (DividendPaid, NoRun, PriceMoved, Withheld, TrainRan))
                                             and e.corporation == corp for e in events)
        for n, event in enumerate(events):
            if isinstance(event, Operates) and event.corporation == corp:
                began_after_close = any(isinstance(e, CorporationClosed) for e in events[:n])
    return False


TELEPORT_FIRST = ("theirs: after the D&H's tile the platform takes nothing but its free token (or its "
                  "decline), so a private bought before that token is refused; 1830 lets a corporation buy "
                  "a private at any time in its operating turn (18xx.games: its teleport token step blocks)")


def theirs(title: Any, seats: list[str], log: list[tuple[str, str]], seq: int, refusal: str) -> str | None:
    """The class of a platform refusal known to be the platform's, or None: a train bought
    from another corporation by one that already has a train (its train due bought), which
    the platform holds to the price floor of the emergency sale made for that train (1830
    rules 6.7 put no floor on a purchase the corporation need not make); 1870's price
    protection the platform waits for in an operating round when every sale queued is the
    president's own; a private bought while the D&H's free token waits (:data:`TELEPORT_FIRST`)."""
    if "Blocking step Place teleport token cannot process action buy_company" in refusal:
        return TELEPORT_FIRST if log[seq - 1][1].startswith("BUY ") else None
    if "may only spend between" not in refusal and "Blocking step Price protect shares" not in refusal:
        return None
    from pbem.engine.game import Game

    game = Game(title, seats)
    vocab = Vocabulary.from_title(title)
    for seat, line in log[:seq - 1]:
        game.apply(seat, parse_order(line, vocab), atomic=False)
    if "Price protect" in refusal:
        from pbem.titles.g1870.protection import queue

        waiting = queue(game) if game.state.round.kind == "operating" else []
        return OWN_PROTECTION if waiting and all(s.seller == s.president for s in waiting) else None
    corp = game.operating_corporation()
    return FLOOR if corp is not None and game.state.corporations[corp].trains else None


def _job(args: tuple[Setup, int, Path, int, bool]) -> GameResult:
    try:
        return play_and_compare(*args)
    except Exception as exc:  # a fault of a tool: reported with the game, the run goes on
        return GameResult(args[0], args[1], "error", f"tool: {type(exc).__name__}: {_general(str(exc))}",
                          f"{type(exc).__name__}: {exc}")


def as_the_platform_plays(setup: Setup) -> Setup:
    """``setup`` with the readings the platform always plays (the title's ``platform_plays``:
    1825's receiver buying after the acting player's choice), so both engines play alike."""
    from pbem.importers.translation import translation_for

    extra = tuple(v for v in sorted(translation_for(setup.title).platform_plays) if v not in setup.variants)
    return Setup(setup.title, setup.variants + extra, setup.players) if extra else setup


def platform_has(setup: Setup) -> bool:
    """Whether the platform has every option of ``setup`` (else it cannot be exported)."""
    from pbem.importers.translation import translation_for

    return not set(resolved(setup)) & set(translation_for(setup.title).platform_lacks)


def table(results: list[GameResult], seconds: float) -> str:
    """The closing table: per setup games and agreeing; then each signature with its count,
    seeds and the command reproducing its first game."""
    out: list[str] = []
    per: dict[str, Counter[str]] = {}
    for r in results:
        per.setdefault(r.setup.name, Counter())[r.outcome] += 1
    out.append(f"{'setup':<52} {'games':>5} {'agreed':>6} {'diverged':>8} {'export':>6} {'other':>5}")
    for name, counts in per.items():
        other = counts["play"] + counts["error"]
        out.append(f"{name:<52} {sum(counts.values()):>5} {counts['agreed']:>6} {counts['diverged']:>8} "
                   f"{counts['export']:>6} {other:>5}")
    total = len(results)
    agreed = sum(1 for r in results if r.outcome == "agreed")
    actions = sum(r.actions for r in results)
    out.append(f"{'all':<52} {total:>5} {agreed:>6}")
    out.append(f"\n{total} games, {actions} actions in {seconds:.0f} s ({total / seconds:.3f} games/s)")
    for stage in ("play", "export", "compare"):
        spent = sum(r.seconds.get(stage, 0.0) for r in results)
        out.append(f"  {stage}: {spent:.0f} s in all")
    groups: dict[tuple[str, str], list[GameResult]] = {}
    for r in results:
        if r.outcome != "agreed":
            groups.setdefault((r.outcome, r.signature), []).append(r)
    if groups:
        out.append("\nClasses (outcome: signature -- games; seeds; reproduce):")
    for (outcome, signature), members in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        seeds = ", ".join(f"{m.setup.title} {'+'.join(m.setup.variants) or 'base'} {m.seed}" for m in members[:8])
        more = f" and {len(members) - 8} more" if len(members) > 8 else ""
        out.append(f"- {outcome}: {signature} -- {len(members)}; {seeds}{more}")
        out.append(f"    {members[0].command()}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_setup_arguments(parser)
    parser.add_argument("--engine", help="the platform's checkout (holding lib/engine); default $PBEM_18XX_ENGINE")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--keep", type=Path, help="write the record of every game that did not agree here")
    parser.add_argument("--quiet", action="store_true", help="one line per game, not the divergence's details")
    args = parser.parse_args(argv)
    try:
        engine = engine_dir(args.engine)
    except EngineNotFound as exc:
        print(f"agree_random: {exc}", file=sys.stderr)
        return 2
    try:
        chosen = [as_the_platform_plays(s) for s in
                  setups_for(args.title, tuple(args.options) if args.options is not None else None, args.players)]
        skipped = [s for s in chosen if not platform_has(s)]
    except ConfigError as exc:
        parser.error(str(exc))
    for setup in skipped:
        print(f"skipped {setup.name}: the platform lacks one of its options")
    jobs = [(s, seed, engine, args.max_actions, args.keep is not None)
            for s in chosen if s not in skipped for seed in range(args.seed, args.seed + args.games)]
    start = time.perf_counter()
    results: list[GameResult] = []
    with Pool(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        for result in pool.imap(_job, jobs) if pool is not None else map(_job, jobs):
            results.append(result)
            head = f"{result.setup.name} seed {result.seed}: {result.outcome}"
            if result.outcome == "agreed":
                print(f"{head}, {result.text} ({result.actions} orders, "
                      f"{sum(result.seconds.values()):.0f} s)", flush=True)
                continue
            print(f"{head}: {result.signature}", flush=True)
            if not args.quiet:
                print("  " + result.text.replace("\n", "\n  ")[:4000], flush=True)
            if args.keep is not None and result.record is not None:
                args.keep.mkdir(parents=True, exist_ok=True)
                name = f"{result.setup.title}-{'+'.join(result.setup.variants) or 'base'}-" \
                       f"{result.setup.players}p-{result.seed}.json"
                (args.keep / name).write_text(json.dumps(result.record), encoding="utf-8")
    print()
    print(table(results, time.perf_counter() - start))
    return 0 if results and all(r.outcome == "agreed" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
