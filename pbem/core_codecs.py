"""The core's order codecs: the orders most 18xx titles share (issue 11: "the core keeps the
common 18xx mechanics"). A title adds its own (1870: :mod:`pbem.titles.g1870.orders`).

Each codec reads the words after its order word and writes the canonical line
(:class:`pbem.order_codecs.OrderCodec`); ``format(parse(line))`` is the canonical form of
``line`` and ``parse(format(a)) == a``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pbem.engine.values import DividendChoice
from pbem.engine.abilities import AssignHexes, ExchangeForShare
from pbem.engine.actions import (
    Action,
    Assign,
    Bankrupt,
    Bid,
    BuyPrivate,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    Exchange,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunAuto,
    RunRoutes,
    SellShares,
    TrainRun,
)
from pbem.errors import OrderSyntaxError
from pbem.order_codecs import (
    AMOUNT,
    COUNT,
    HEX,
    SOURCES,
    HelpEntry,
    OrderCodec,
    Vocabulary,
    amount,
    company,
    count,
    hex_ref,
    using,
    whole_number,
)

if TYPE_CHECKING:
    from pbem.engine.title import TitleData

__all__ = ["CORE_CODECS", "word_alone"]


def _parse_bid(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write BID <private> <amount>, e.g. BID CA 165")
    kind, sym = vocab.resolve(words[0], line)
    if kind != "company":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a corporation; bids are on private companies")
    return Bid(sym, amount(words[1], line, "the bid"))


def _format_bid(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Bid)
    return f"BID {action.company} {action.price}"


def _parse_buy(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words and words[0].upper() == "TRAIN":
        return _parse_train(words[1:], line, vocab)
    rest = [w for w in words if w.upper() not in ("FROM", "THE", "SHARE", "SHARES", "OF")]
    n = 1
    if rest and COUNT.match(rest[0]):
        n = count(rest[0], line)
        rest = rest[1:]
    source = "ipo"
    shares_meant = n != 1 or any(w.upper() in ("SHARE", "SHARES") for w in words)
    if rest and rest[-1].upper() in SOURCES:
        source = SOURCES[rest[-1].upper()]
        rest = rest[:-1]
        shares_meant = True
    if len(rest) == 2 and AMOUNT.match(rest[1]):
        kind, sym = vocab.resolve(rest[0], line)
        if kind == "company" and n == 1:
            return BuyPrivate(sym, amount(rest[1], line, "the price"))
        raise OrderSyntaxError(f"cannot read {line!r}: BUY <private> <price> buys a private company")
    if len(rest) != 1:
        raise OrderSyntaxError(
            f"cannot read {line!r}: write BUY <private>, or BUY [n] <corporation> [IPO|POOL]"
        )
    kind, sym = vocab.resolve(rest[0], line, prefer="corporation" if shares_meant else "company")
    if kind == "company":
        if n != 1 or len(words) != 1:
            raise OrderSyntaxError(f"cannot read {line!r}: a private company is bought with BUY {sym}")
        return BuyPrivate(sym)
    if n <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: the number of shares must be more than 0")
    return BuyShares(sym, source, n)  # type: ignore[arg-type]


def _format_buy(action: Action, vocab: Vocabulary | None) -> str:
    """A share purchase from the IPO names its source (``BUY MKT IPO``) where a private
    company shares the corporation's symbol (1870: SLSF, MKT; a bare ``BUY MKT`` buys the
    private) -- and, without the title's ``vocab`` to tell, always (``BUY PRR IPO``)."""
    if isinstance(action, BuyPrivate):
        return f"BUY {action.company}" + (f" {action.price}" if action.price is not None else "")
    assert isinstance(action, BuyShares)
    n = f"{action.count} " if action.count != 1 else ""
    source = " POOL" if action.source == "pool" else ""
    if not source and (vocab is None or action.corporation in vocab.companies):
        source = " IPO"
    return f"BUY {n}{action.corporation}{source}"


def _parse_par(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words = [w for w in words if w.upper() not in ("AT",)]
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write PAR <corporation> <price>, e.g. PAR PRR 100")
    kind, sym = vocab.resolve(words[0], line, prefer="corporation")
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a private company, not a corporation")
    return Par(sym, amount(words[1], line, "the par price"))


def _format_par(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Par)
    return f"PAR {action.corporation} {action.price}"


def _parse_sell(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words = [w for w in words if w.upper() not in ("SHARE", "SHARES", "OF")]
    n = 1
    if len(words) == 2 and COUNT.match(words[0]):
        n, target = count(words[0], line), words[1]
    elif len(words) == 2 and COUNT.match(words[1]):
        n, target = count(words[1], line), words[0]
    elif len(words) == 1:
        target = words[0]
    else:
        raise OrderSyntaxError(f"cannot read {line!r}: write SELL [n] <corporation>, e.g. SELL 2 PRR")
    if n <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: the number of shares must be more than 0")
    kind, sym = vocab.resolve(target, line, prefer="corporation")
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a private company; sell shares of a corporation")
    return SellShares(sym, n)


def _format_sell(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, SellShares)
    n = f"{action.count} " if action.count != 1 else ""
    return f"SELL {n}{action.corporation}"


def word_alone(word: str, action: Action, aliases: tuple[str, ...], meaning: str) -> OrderCodec:
    """A codec for an order that is one word and nothing else (``PASS``, ``PAYOUT``): it reads
    as ``action`` and writes an action equal to ``action``; HELP gives ``meaning``. Its
    parser raises :class:`OrderSyntaxError` ``"<WORD> takes nothing after it"``."""
    def parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
        if words:
            raise OrderSyntaxError(f"cannot read {line!r}: {word} takes nothing after it")
        return action

    def format(given: Action, vocab: Vocabulary | None) -> str | None:
        return word if given == action else None

    return OrderCodec(word, aliases, (type(action),), parse, format, (HelpEntry(word, meaning, word),))


def _parse_lay(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words, private = using(words, line, vocab)
    words = [w for w in words if w.upper() not in ("ON", "IN", "AT", "ROT", "ROTATION", "TILE")]
    if len(words) != 3:
        raise OrderSyntaxError(f"cannot read {line!r}: write LAY <hex> <tile> <rotation>, e.g. LAY H16 57 1")
    if HEX.match(words[0]) and re.match(r"^[Rr]?[0-5]$", words[2]):  # canonical order
        hexes = [words[0]]
    else:
        hexes = [w for w in words if HEX.match(w) and w[0].isalpha() and not re.match(r"^[Rr][0-5]$", w)]
    if len(hexes) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write LAY <hex> <tile> <rotation>, e.g. LAY H16 57 1")
    hex_id, city = hex_ref(hexes[0], line, vocab)
    if city:
        raise OrderSyntaxError(f"cannot read {line!r}: a tile goes on a hex, not a city")
    others = list(words)
    others.pop(words.index(hexes[0]))
    marked = [i for i, w in enumerate(others) if re.match(r"^[Rr][0-5]$", w)]
    rotation_index = marked[0] if marked else len(others) - 1
    rotation_word = others[rotation_index]
    tile = others[1 - rotation_index if rotation_index < 2 else 0].lstrip("#").upper()
    rotation = rotation_word.upper().lstrip("R")
    if not re.fullmatch("[0-9]+", rotation) or not 0 <= whole_number(rotation, line, "the rotation") <= 5:
        raise OrderSyntaxError(f"cannot read {line!r}: the rotation must be 0 to 5, not {rotation_word!r}")
    return LayTile(hex_id, tile, int(rotation), private)


def _format_lay(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, LayTile)
    private = f" USING {action.using}" if action.using else ""
    return f"LAY {action.hex} {action.tile} {action.rotation}{private}"


def _parse_token(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words, private = using(words, line, vocab)
    words = [w for w in words if w.upper() not in ("IN", "AT", "ON")]
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write TOKEN <hex>, or TOKEN <hex>.<city>")
    hex_id, city = hex_ref(words[0], line, vocab)
    return PlaceToken(hex_id, city, private)


def _format_token(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, PlaceToken)
    private = f" USING {action.using}" if action.using else ""
    return f"TOKEN {action.hex}" + (f".{action.city}" if action.city else "") + private


def _parse_run(words: list[str], line: str, vocab: Vocabulary) -> Action:
    return _read_run(words, line, vocab, headed=False)


def _parse_headed_run(words: list[str], line: str, vocab: Vocabulary) -> Action:
    return _read_run(words, line, vocab, headed=True)


def _run_trains(word: str, line: str, vocab: Vocabulary, headed: bool) -> tuple[str, tuple[str, ...]]:
    """The train type a run names, and the types run with it as one: ``2+2`` (where
    ``headed``) is two 2-trains, unless the title has a train type of that name."""
    if headed and "+" in word:
        try:
            return vocab.train(word, line), ()
        except OrderSyntaxError:
            parts = [p for p in word.split("+")]
            if len(parts) < 2 or not all(parts):
                raise
            names = [vocab.train(p, line) for p in parts]
            return names[0], tuple(names[1:])
    return vocab.train(word, line), ()


def _read_run(words: list[str], line: str, vocab: Vocabulary, headed: bool) -> Action:
    if len(words) == 1 and words[0].upper() == "AUTO":
        return RunAuto()
    if len(words) == 1 and words[0].upper() == "NONE":
        return RunRoutes(())
    text = " ".join(words)
    runs: list[TrainRun] = []
    for part in re.split(r"[;,]", text):
        part = part.strip()
        if not part:
            continue
        match = re.match(r"^(\S+?)\s*[:=]\s*(.+)$", part) or re.match(r"^(\S+)\s+(.+)$", part)
        if not match:
            raise OrderSyntaxError(f"cannot read {line!r}: write RUN <train>: <stop>-<stop>..., e.g. RUN 2: I15-J14")
        train, joined = _run_trains(match.group(1), line, vocab, headed)
        stops = [s for s in re.split(r"[\s\-]+", match.group(2).strip()) if s]
        if len(stops) < 2:
            raise OrderSyntaxError(f"cannot read {line!r}: a run needs at least two stops")
        parsed = []
        for stop in stops:
            hex_id, city = hex_ref(stop, line, vocab)
            parsed.append(f"{hex_id}.{city}" if city else hex_id)
        runs.append(TrainRun(train, tuple(parsed), joined))
    if not runs:
        raise OrderSyntaxError(f"cannot read {line!r}: name at least one train and its stops")
    return RunRoutes(tuple(runs))


def _format_run(action: Action, vocab: Vocabulary | None) -> str:
    if isinstance(action, RunAuto):
        return "RUN AUTO"
    assert isinstance(action, RunRoutes)
    if not action.runs:
        return "RUN NONE"
    return "RUN " + "; ".join(f"{'+'.join((r.train, *r.joined))}: {'-'.join(r.stops)}" for r in action.runs)


def _parse_train(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if not words:
        raise OrderSyntaxError(f"cannot read {line!r}: write TRAIN <type>, e.g. TRAIN 3")
    train = vocab.train(words[0], line)
    source, price, exchange = "depot", None, None
    rest = words[1:]
    while rest:
        key = rest[0].upper()
        if key == "FROM" and len(rest) >= 2:
            target = rest[1].upper()
            if target in ("POOL", "MARKET", "BANK"):
                source = "pool" if target != "BANK" else "depot"
            else:
                kind, sym = vocab.resolve(rest[1], line, prefer="corporation")
                if kind != "corporation":
                    raise OrderSyntaxError(f"cannot read {line!r}: trains are bought from the bank or a corporation")
                source = sym
            rest = rest[2:]
        elif key == "FOR" and len(rest) >= 2:
            price = amount(rest[1], line, "the price")
            rest = rest[2:]
        elif key in ("TRADE", "EXCHANGE") and len(rest) >= 2:
            exchange = vocab.train(rest[1], line)
            rest = rest[2:]
        else:
            raise OrderSyntaxError(
                f"cannot read {line!r}: write TRAIN <type> [FROM POOL|<corp>] [FOR <price>] [TRADE <type>]"
            )
    return BuyTrain(train, source, price, exchange)


def _format_train(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, BuyTrain)
    text = f"TRAIN {action.train}"
    if action.source != "depot":
        text += f" FROM {'POOL' if action.source == 'pool' else action.source}"
    if action.price is not None:
        text += f" FOR {action.price}"
    if action.exchange is not None:
        text += f" TRADE {action.exchange}"
    return text


def _parse_discard(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write DISCARD <train>, e.g. DISCARD 2")
    return DiscardTrain(vocab.train(words[0], line))


def _format_discard(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, DiscardTrain)
    return f"DISCARD {action.train}"


def _parse_exchange(words: list[str], line: str, vocab: Vocabulary) -> Action:
    source = "ipo"
    if len(words) == 2 and words[1].upper() in SOURCES:
        source = SOURCES[words[1].upper()]
        words = words[:1]
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write EXCHANGE <private> [POOL]")
    kind, sym = vocab.resolve(words[0], line)
    if kind != "company":
        raise OrderSyntaxError(f"cannot read {line!r}: EXCHANGE names a private company")
    return Exchange(sym, source)  # type: ignore[arg-type]


def _format_exchange(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Exchange)
    return f"EXCHANGE {action.company}" + (" POOL" if action.source == "pool" else "")


def _parse_assign(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words = [w for w in words if w.upper() not in ("ON", "TO", "IN")]
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write ASSIGN <private> <hex>, e.g. ASSIGN SCC B9")
    sym = company(words[0], line, vocab)
    hex_id, _ = hex_ref(words[1], line, vocab)
    return Assign(sym, hex_id)


def _format_assign(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Assign)
    return f"ASSIGN {action.company} {action.hex}"


def _has_double_heading(title: TitleData) -> bool:
    """RUN with trains run as one (``RUN 2+2: ...``): the title's ``double_heading``."""
    return title.settings.double_heading is not None


def _runs_alone(title: TitleData) -> bool:
    """The plain RUN: every title whose trains run alone."""
    return not _has_double_heading(title)


def _has_exchange(title: TitleData) -> bool:
    """EXCHANGE: a private with an exchange ability (1830: MH for an NYC share)."""
    return any(c.ability(ExchangeForShare) is not None for c in title.companies)


def _has_assign(title: TitleData) -> bool:
    """ASSIGN: a private with a token to place on a hex (1870: SCC cattle, GSC port)."""
    return any(c.ability(AssignHexes) is not None for c in title.companies)


HEADED_RUN = OrderCodec("RUN", ("R",), (RunAuto, RunRoutes), _parse_headed_run, _format_run, (
    HelpEntry("RUN <train>[+<train>]: <stop>-<stop>...; ... | RUN AUTO | RUN NONE",
              "run the trains (stops in order; .<n> picks a city on a hex; 2+2: two trains run as "
              "one, the length of both, the revenue once); RUN AUTO: the best run the server finds; "
              "RUN NONE: no train runs", "RUN 2+2: I15-I19-J14; 3: I15-H12"),
), offered=_has_double_heading)
"""RUN with trains run as one (``RUN 2+2: ...``), offered to a title with double-heading
(:mod:`pbem.engine.heading`); in :data:`CORE_CODECS` the plain RUN follows it and stands in
its place for every other title (and for a reader that knows no title)."""


CORE_CODECS: tuple[OrderCodec, ...] = (
    OrderCodec("BID", (), (Bid,), _parse_bid, _format_bid, (
        HelpEntry("BID <private> <amount>", "bid on a private company in the auction", "BID CA 165"),
    )),
    OrderCodec("BUY", ("B",), (BuyPrivate, BuyShares), _parse_buy, _format_buy, (
        HelpEntry("BUY <private>", "buy a private company the bank offers, at its price (the cheapest, "
                  "in an auction)", "BUY SV"),
        HelpEntry("BUY [n] <corporation> [IPO|POOL]",
                  "buy shares from the IPO (the default) or the bank pool", "BUY PRR POOL"),
        HelpEntry("BUY <private> <price>", "a private bought from a player at a price agreed with its owner: "
                  "by the operating corporation, or, where the game allows it, by you in a stock round",
                  "BUY CS 80"),
    )),
    OrderCodec("PAR", ("START",), (Par,), _parse_par, _format_par, (
        HelpEntry("PAR <corporation> <price>", "start a corporation at a par price", "PAR NYNH 100"),
    )),
    OrderCodec("SELL", ("S",), (SellShares,), _parse_sell, _format_sell, (
        HelpEntry("SELL [n] <corporation>", "sell shares to the bank pool", "SELL 2 B&O"),
    )),
    word_alone("PASS", Pass(), ("P", "DONE"), "pass, or end your stock-round turn, or skip an OR step"),
    OrderCodec("LAY", ("TILE", "T"), (LayTile,), _parse_lay, _format_lay, (
        HelpEntry("LAY <hex> <tile> <rotation 0-5> [USING <private>]",
                  "lay or upgrade a tile (USING: a private's special lay)", "LAY H16 57 1"),
    )),
    OrderCodec("TOKEN", ("STATION",), (PlaceToken,), _parse_token, _format_token, (
        HelpEntry("TOKEN <hex>[.<city>] [USING <private>]", "place a station token", "TOKEN F20.1"),
    )),
    HEADED_RUN,
    OrderCodec("RUN", ("R",), (RunAuto, RunRoutes), _parse_run, _format_run, (
        HelpEntry("RUN <train>: <stop>-<stop>...; ... | RUN AUTO | RUN NONE",
                  "run the trains (stops in order; .<n> picks a city on a hex); RUN AUTO: the best run "
                  "the server finds; RUN NONE: no train runs", "RUN 2: I15-I19; 2: I15-J14"),
    ), offered=_runs_alone),
    word_alone("PAYOUT", Dividend(DividendChoice.PAYOUT), ("PAY",), "pay the revenue to the shareholders"),
    word_alone("WITHHOLD", Dividend(DividendChoice.WITHHOLD), ("KEEP", "HOLD"), "keep the revenue in the treasury"),
    OrderCodec("TRAIN", (), (BuyTrain,), _parse_train, _format_train, (
        HelpEntry("TRAIN <type> [FROM POOL|<corp>] [FOR <price>] [TRADE <type>]",
                  "buy a train (default: from the bank at its price)", "TRAIN 3"),
    )),
    OrderCodec("DISCARD", (), (DiscardTrain,), _parse_discard, _format_discard, (
        HelpEntry("DISCARD <train>", "discard a train over the train limit", "DISCARD 2"),
    )),
    OrderCodec("EXCHANGE", (), (Exchange,), _parse_exchange, _format_exchange, (
        HelpEntry("EXCHANGE <private> [POOL]", "exchange a private for a share (1830: MH for NYC), any time",
                  "EXCHANGE MH"),
    ), offered=_has_exchange),
    OrderCodec("ASSIGN", (), (Assign,), _parse_assign, _format_assign, (
        HelpEntry("ASSIGN <private> <hex>",
                  "place a private's token (1870: SCC cattle, GSC port; again on the port closes it)",
                  "ASSIGN SCC B9"),
    ), offered=_has_assign),
    word_alone("BANKRUPT", Bankrupt(), (), "declare bankruptcy"),
)
"""The core's codecs, in the order of the order reference (HELP)."""
