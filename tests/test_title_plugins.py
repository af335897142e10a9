"""Title plugins: a title's hooks and composer are found by its package name (issue 11, "a
title is a plugin"), and a title's own state extends the core state."""

from __future__ import annotations

import sys
import types

import pytest

from pbem.engine.sequence import RoundSequence
from pbem.engine.stock_rules import StockRules
from pbem.engine.steps.operating.dividend_rules import DividendRules
from pbem.engine.track_rules import TrackRules
from pbem.engine.title import TitleData
from pbem.engine.hooks import TitleHooks
from pbem.errors import ConfigError
from pbem.ruleset.composer import TitleComposer
from pbem.titles import composer_class, hooks_for
from pbem.titles.g1825 import Composer1825
from pbem.titles.g1870 import Composer1870
from pbem.titles.g1870.hooks import Routes1870, Track1870


def test_the_known_titles_find_their_hooks_each_part_the_cores_where_the_title_keeps_it() -> None:
    plain = hooks_for("1830")
    assert isinstance(plain, TitleHooks) and type(plain.track) is TrackRules and plain.receivership is None
    hooks = hooks_for("1870")
    assert isinstance(hooks.track, Track1870) and isinstance(hooks.routes, Routes1870)
    assert hooks_for("1870") is hooks, "the parts hold no state: every game of a title shares them"


def test_the_title_interface_is_a_few_parts_by_concern_each_defaulting_to_1830() -> None:
    """Issue 20: the hooks are small parts by concern, each a class beside the core code it
    adjusts, not one class of every method; a price move is a value, not a method's name."""
    import dataclasses

    from pbem.engine.route_rules import RouteRules
    from pbem.engine.stock_rules import PriceMove

    parts = {f.name: f.type for f in dataclasses.fields(TitleHooks)}
    assert list(parts) == ["sequence", "stock", "dividends", "track", "routes", "receivership"]
    for part in (RoundSequence, StockRules, DividendRules, TrackRules, RouteRules):
        public = [name for name in vars(part) if not name.startswith("_")]
        assert 4 <= len(public) <= 16, (part.__name__, public)
    plain = TitleHooks()
    assert plain.stock.moved(load_title("1830"), (3, 4), PriceMove.RIGHT) == plain.stock.right(load_title("1830"), (3, 4))


def test_a_title_without_a_package_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no title plugin for '1899'"):
        hooks_for("1899")
    with pytest.raises(ConfigError):
        hooks_for("../1830")


def test_a_new_title_needs_only_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """A package ``pbem.titles.g<name>`` with ``HOOKS`` is found with no registry edit."""

    class MadeUp(DividendRules):
        def dividend_kinds(self, title: TitleData) -> tuple[str, ...]:
            return ("payout",)

    module = types.ModuleType("pbem.titles.gmadeup")
    module.HOOKS = TitleHooks(dividends=MadeUp())  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pbem.titles.gmadeup", module)
    assert hooks_for("madeup").dividends.dividend_kinds(load_title("1830")) == ("payout",)


def test_a_package_without_hooks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("pbem.titles.gbroken")
    module.HOOKS = object  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pbem.titles.gbroken", module)
    with pytest.raises(ConfigError, match="not a TitleHooks"):
        hooks_for("broken")


def test_the_known_titles_find_their_composers_and_a_title_without_one_composes_as_1830(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """How a title's data is put together is the loader's business (issue 20): a package's
    ``COMPOSER``, the base where it has none; never a method of the engine's hooks."""
    assert composer_class("1830") is TitleComposer
    assert composer_class("1870") is Composer1870 and composer_class("1825") is Composer1825
    assert not hasattr(TitleHooks, "compose") and not hasattr(TitleHooks, "title_rules")
    assert not hasattr(TitleHooks, "resolve_variants")
    module = types.ModuleType("pbem.titles.gbadcomposer")
    module.HOOKS = TitleHooks()  # type: ignore[attr-defined]
    module.COMPOSER = TitleHooks  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pbem.titles.gbadcomposer", module)
    with pytest.raises(ConfigError, match="not a TitleComposer class"):
        composer_class("badcomposer")
    with pytest.raises(ConfigError, match="no title plugin for '1899'"):
        composer_class("1899")


# -- the stock round's extension points -------------------------------------------------------

from pbem.engine.actions import Action, BuyPrivate, Par, SellShares  # noqa: E402
from pbem.titles.g1870.actions import Redeem  # noqa: E402
from pbem.engine.game import Game  # noqa: E402
from pbem.engine.state import RoundState, ShareSale, StockRoundState, TitleState  # noqa: E402
from pbem.engine.steps.stock import BuySellParShares, pool_presidency  # noqa: E402
from pbem.engine.values import IPO, Owner  # noqa: E402
from pbem.engine.events import Note, render_all  # noqa: E402
from pbem.ruleset import load_title  # noqa: E402
from pbem.errors import IllegalOrderError  # noqa: E402

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


def game_1830(hooks: TitleHooks | None = None) -> Game:
    """1830 after the privates went at face value, in SR 2 (sales allowed), Player 1 to act;
    ``hooks`` replace the title's before the first action."""
    game = Game(load_title("1830"), [P1, P2, P3])
    if hooks is not None:
        game.hooks = hooks
        game.state.title_state = hooks.sequence.new_title_state()
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.apply(P3, Par("B&O", 100))
    game.state.round = RoundState(kind="stock", number=2, stock=StockRoundState())
    for p in game.state.players.values():
        p.passed = False
    return game


def test_1830_has_no_redemption_in_its_stock_round() -> None:
    game = game_1830()
    assert not any(isinstance(a, Redeem) for a in game.legal_actions(P1))
    with pytest.raises(IllegalOrderError, match="redeem is not possible now"):
        game.apply(P1, Redeem("B&O", "pool"))


def test_a_titles_sale_hook_decides_the_price_drop() -> None:
    """1830 drops the price a row a share sold; a title whose sales do not move the price
    overrides ``after_sale`` (one of issue 11's extension points)."""

    class StickyPrices(StockRules):
        def after_sale(self, game: Game, sale: ShareSale) -> None:
            pool_presidency(game, sale.corporation)

    for hooks, falls in ((None, True), (TitleHooks(stock=StickyPrices()), False)):
        game = game_1830(hooks)
        next(c for c in game.state.certificates if c.corporation == "B&O" and c.owner == IPO
             and not c.president).owner = Owner.player(P1)
        before = game.share_price("B&O")
        events = render_all(game.apply(P1, SellShares("B&O", 1)), game.money)
        assert (game.share_price("B&O") != before) is falls, events


class Marker(TitleState):
    """A made-up title's own state field."""

    def __init__(self) -> None:
        self.redeemed_by: list[str] = []


class MadeUpStock(BuySellParShares):
    """A made-up stock step taking REDEEM, recording it in the title's own state."""

    @classmethod
    def process_redeem(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Redeem) and isinstance(game.state.title_state, Marker)
        game.state.title_state.redeemed_by.append(player)
        game.event(Note(f"{player} marks {action.corporation}"))


MadeUpStock.handlers = {**BuySellParShares.handlers, Redeem: MadeUpStock.process_redeem}


class MadeUpSequence(RoundSequence):
    def new_title_state(self) -> TitleState:
        return Marker()

    def stock_step(self) -> type[BuySellParShares]:
        return MadeUpStock


def test_the_game_dispatches_to_the_titles_stock_step_and_state() -> None:
    game = game_1830(TitleHooks(sequence=MadeUpSequence()))
    assert game.active_step() is MadeUpStock
    assert game.apply(P1, Redeem("B&O", "pool")) == [Note("Player 1 marks B&O")]
    assert isinstance(game.state.title_state, Marker) and game.state.title_state.redeemed_by == [P1]
    assert game.state.copy().title_state.redeemed_by == [P1]  # type: ignore[attr-defined]


def test_the_core_stock_modules_import_no_title() -> None:
    """The engine's share, market, state, closing and stock-round modules, the hooks and each
    of their parts import nothing of ``pbem.titles`` (issue 11: the engine never imports the
    titles), of the loader, the order language or the report (issue 20)."""
    import ast
    from pathlib import Path

    engine = Path(__file__).resolve().parent.parent / "pbem" / "engine"
    for name in ("hooks.py", "sequence.py", "stock_rules.py", "track_rules.py", "route_rules.py",
                 "steps/operating/dividend_rules.py", "state.py", "shares.py", "market.py", "closing.py",
                 "steps/stock.py", "steps/auction.py"):
        tree = ast.parse((engine / name).read_text())
        imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        assert not [m for m in imported if m.startswith(("pbem.titles", "pbem.order_codecs", "pbem.reports",
                                                        "pbem.ruleset", "pbem.presentation"))], name
