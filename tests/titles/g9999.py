"""9999, a made-up title that lives only in the tests: its code (this module) and its data
(``tests/titles/rules/9999/``). Nothing under ``pbem/`` names it; the loader is given its
hooks, composer and presentation (``load_title("9999", rules_dir=RULES, hooks=HOOKS9999,
composer=Composer9999, presentation=Presentation9999)``).

What it adds, each through an extension point of the core (issue 11):

* a start that is not an auction (:class:`FaceValueSale`, as 1825): in seat order each
  player buys an unsold private at face value or passes; the start ends when every private
  is sold or every player has passed in succession (``first_round``, ``step_types``);
* a fixed operating order (as 1825): majors by par price, ties by formation order, then the
  minors in formation order (``operating_order``); the formation order is a field of its own
  state (:class:`State9999`), kept by its stock step (:class:`Stock9999`);
* corporations of two kinds (corporations.yaml ``kind``) and a director's certificate worth
  three shares (NWR's ``shares``); its reports say "Director" and spell £ as L (``terms``);
* dividends that move the price by their size (``dividend_moves``): nothing paid, a cell
  left; a dividend a share of at least a tenth of the share price, two cells right; of more
  than a twentieth, one cell; less, no move (1829's combined-boards rule);
* sales that leave the price where it was (``after_sale``);
* a step of its own at the end of each corporation's turn, :class:`LevyStep`: the order
  ``LEVY`` (its own codec) takes a toll of £10 from the bank, counted in its state;
* a share launch after a number of operating rounds (as 1829's): LR may be started only
  after :data:`LAUNCHES` operating rounds (``launch_problem``), counted in its state
  (``new_operating_round``);
* a board and bank composed from parts (as 1825's units, ``compose``): the variant ``east``
  adds the hexes and the bank money of ``parts/east_extension.yaml``; and variants resolved
  for the number of players (``resolve_variants``; both :class:`Composer9999`'s): ``east`` is for three players, and a
  three-player game is given it;
* a section of its own in the turn report, the tolls levied (:class:`Presentation9999`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Mapping

from pbem.engine import shares
from pbem.engine.abilities import Ability
from pbem.engine.actions import Action, BuyPrivate, Par, Pass
from pbem.engine.events import Event, Money, Passed, PrivateBought
from pbem.engine.hooks import TitleHooks
from pbem.engine.sequence import RoundSequence
from pbem.engine.state import GameState, Owner, RoundState, ShareSale, TitleState
from pbem.engine.step import Step
from pbem.engine.steps.operating import CORE_STEPS, OpStep, current_corp, op_state
from pbem.engine.steps.operating.base import mark_passed, pass_step
from pbem.engine.steps.operating.dividend_rules import DividendRules
from pbem.engine.steps.stock import BuySellParShares, pool_presidency
from pbem.engine.stock_rules import PriceMove, StockRules
from pbem.errors import ConfigError, IllegalOrderError, OrderSyntaxError
from pbem.order_codecs import HelpEntry, OrderCodec, Vocabulary
from pbem.presentation import TitlePresentation
from pbem.ruleset.composer import TitleComposer

if TYPE_CHECKING:
    from pbem.engine.game import Game

TOLL = 10
"""What one LEVY takes from the bank, in money."""

START = "private_sale"
"""The kind of the title's first round (its ``round_steps`` key)."""

LAUNCHES = {"LR": 2}
"""Corporations put on offer only after this many operating rounds have begun."""


@dataclass(frozen=True, slots=True)
class Levy(Action):
    """The operating corporation takes a toll of :data:`TOLL` from the bank (9999's own
    action, at the end of its turn)."""

    kind: ClassVar[str] = "levy"


@dataclass
class State9999(TitleState):
    """9999's own state: ``formed`` lists the corporations in the order they were started
    (par); ``levies`` sums each corporation's tolls, in money; ``operating_rounds`` counts
    the operating rounds begun."""

    formed: list[str] = field(default_factory=list)
    levies: dict[str, int] = field(default_factory=dict)
    operating_rounds: int = 0

    def copy(self) -> State9999:
        """A structural copy."""
        return State9999(formed=self.formed[:], levies=dict(self.levies), operating_rounds=self.operating_rounds)


def state9999(state: GameState) -> State9999:
    """``state``'s 9999 part.

    :raises TypeError: the game is not one of 9999.
    """
    found = state.title_state
    if not isinstance(found, State9999):
        raise TypeError(f"not a 9999 game state: {type(found).__name__}")
    return found


# -- the start: the privates at face value, in seat order ---------------------------------------


def _unsold(game: Game) -> list[str]:
    return [c.sym for c in game.title.companies
            if game.state.companies[c.sym].owner is None and not game.state.companies[c.sym].closed]


class FaceValueSale(Step):
    """In seat order a player buys any unsold private at its face value (``BUY <private>``)
    or passes; a purchase starts the count of passes afresh. Over when every private is sold
    or every player has passed in succession."""

    name = "face_value_sale"
    description = "buy a private company at face value (BUY <private>), or PASS"

    @classmethod
    def active(cls, game: Game) -> bool:
        state = game.state
        return (state.round.kind == START and bool(_unsold(game))
                and not all(p.passed for p in state.players.values()))

    @classmethod
    def actors(cls, game: Game) -> list[str]:
        return [game.state.order[game.state.round.entity_index]]

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> Iterable[Action]:
        cash = game.state.players[player].cash
        found: list[Action] = [BuyPrivate(sym) for sym in _unsold(game) if game.title.company(sym).value <= cash]
        return [*found, Pass()]

    @classmethod
    def process_buy(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, BuyPrivate)
        state = game.state
        if action.company not in _unsold(game):
            raise IllegalOrderError(f"{action.company} is not for sale")
        if action.price is not None:
            raise IllegalOrderError(f"the privates are sold at face value: write BUY {action.company}")
        value = game.title.company(action.company).value
        if state.players[player].cash < value:
            raise IllegalOrderError(f"{player} has {game.money(state.players[player].cash)}, "
                                    f"{action.company} costs {game.money(value)}")
        state.players[player].cash -= value
        state.bank += value
        state.players[player].companies.append(action.company)
        state.companies[action.company].owner = Owner.player(player)
        game.event(PrivateBought(player, action.company, value))
        for p in state.players.values():
            p.passed = False
        game.next_entity_index()

    @classmethod
    def process_pass(cls, game: Game, player: str, action: Action) -> None:
        game.state.players[player].passed = True
        game.event(Passed(player))
        game.next_entity_index()


FaceValueSale.handlers = {BuyPrivate: FaceValueSale.process_buy, Pass: FaceValueSale.process_pass}


# -- the stock round: the formation order -------------------------------------------------------


class Stock9999(BuySellParShares):
    """The core's stock round, noting each corporation started in :attr:`State9999.formed`."""

    @classmethod
    def process_par(cls, game: Game, player: str, action: Action) -> None:
        super().process_par(game, player, action)
        assert isinstance(action, Par)
        state9999(game.state).formed.append(action.corporation)


Stock9999.handlers = {**BuySellParShares.handlers, Par: Stock9999.process_par}


# -- the operating round: the levy ----------------------------------------------------------------


@dataclass(frozen=True)
class Levied(Event):
    """The made-up title's own event: ``corporation`` levies its toll of ``amount``."""

    corporation: str
    amount: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} levies {money(self.amount)}"


class LevyStep(OpStep):
    """The last step of a corporation's turn: ``LEVY`` takes :data:`TOLL` from the bank into
    its treasury, or ``PASS``."""

    name = "levy"
    description = "LEVY a toll from the bank, or PASS"
    takes = (Levy, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        return game.state.bank >= TOLL and cls.name not in op_state(game).passed_steps

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if isinstance(action, Pass):
            pass_step(game, cls, "the levy")
            return
        corp = current_corp(game)
        game.state.bank -= TOLL
        game.state.corporations[corp].cash += TOLL
        levies = state9999(game.state).levies
        levies[corp] = levies.get(corp, 0) + TOLL
        game.event(Levied(corp, TOLL))
        mark_passed(game, cls)

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return [Levy(), Pass()]


def _parse_levy(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words:
        raise OrderSyntaxError(f"cannot read {line!r}: LEVY takes nothing after it")
    return Levy()


def _format_levy(action: Action, vocab: Vocabulary | None) -> str:
    return "LEVY"


LEVY = OrderCodec("LEVY", ("TOLL",), (Levy,), _parse_levy, _format_levy, (
    HelpEntry("LEVY", "the operating corporation takes a toll of 10 from the bank (9999)", "LEVY"),
))
"""9999's own order word (``TOLL`` reads the same)."""


# -- the hooks ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wharf(Ability):
    """9999's own kind of private ability (as 1829's packets): a wharf in the port city
    ``port`` earning ``income`` (money) each operating round."""

    kind: ClassVar[str] = "wharf"
    port: str = ""
    income: int = 0


class Composer9999(TitleComposer):
    """9999's data: the eastern extension for three players; its own ability kind."""

    @classmethod
    def ability_kinds(cls) -> Mapping[str, type[Ability]]:
        """The core's kinds and :class:`Wharf`."""
        return {**super().ability_kinds(), Wharf.kind: Wharf}

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        """With ``east``: the extension's hexes joined to the map, its money to the bank."""
        composed = dict(documents)
        if "east" in variants:
            extension = parts["east_extension"]
            board = dict(composed["map"])
            board["hexes"] = {**board["hexes"], **extension["hexes"]}
            composed["map"] = board
            composed["game"] = {**composed["game"], "bank_cash": composed["game"]["bank_cash"] + extension["bank_extra"]}
        return composed

    @classmethod
    def resolve_variants(cls, variants: tuple[str, ...], players: int) -> tuple[str, ...]:
        """``east`` is for three players, and a three-player game always has it.

        :raises ConfigError: ``east`` asked for with another number of players."""
        if "east" in variants and players != 3:
            raise ConfigError(f"the eastern extension is for 3 players, not {players}")
        return tuple(variants) if "east" in variants or players != 3 else (*variants, "east")


class Sequence9999(RoundSequence):
    """9999's start (a sale at face value), state, stock step, fixed operating order, levy
    step, and the operating rounds counted."""

    def new_title_state(self) -> TitleState:
        return State9999()

    def first_round(self, game: Game) -> RoundState:
        return RoundState(kind=START)

    def step_types(self) -> Mapping[str, type[Step]]:
        return {FaceValueSale.name: FaceValueSale}

    def stock_step(self) -> type[BuySellParShares]:
        return Stock9999

    def operating_order(self, game: Game) -> list[str]:
        """Majors by par price, highest first, ties by formation order; then the minors in
        formation order."""
        state, formed = game.state, state9999(game.state).formed
        floated = [s for s, c in state.corporations.items() if c.floated and not c.closed]

        def key(sym: str) -> tuple[int, int, int]:
            minor = game.title.corporation(sym).kind == "minor"
            par = shares.par_price(state, game.title, sym)
            return (minor, 0 if minor else -par, formed.index(sym))

        return sorted(floated, key=key)

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        return (*CORE_STEPS, LevyStep)

    def new_operating_round(self, game: Game) -> None:
        state9999(game.state).operating_rounds += 1


class Stock9999Rules(StockRules):
    """Sales that leave the price; LR launched late."""

    def after_sale(self, game: Game, sale: ShareSale) -> None:
        """The price stays; the directorship passes as the holdings say."""
        pool_presidency(game, sale.corporation)

    def launch_problem(self, game: Game, sym: str) -> str | None:
        after = LAUNCHES.get(sym, 0)
        if state9999(game.state).operating_rounds < after:
            return f"{sym} is put on offer after {after} operating rounds"
        return None


class Dividends9999(DividendRules):
    """Price moves by the dividend's size against the share price (1829's combined-boards rule)."""

    def dividend_moves(self, game: Game, corp: str, revenue: int, paid: int) -> tuple[PriceMove, ...]:
        """By the dividend a share against the share price: none paid, left; at least a
        tenth, two right; more than a twentieth, one right; else no move."""
        if paid == 0:
            return (PriceMove.LEFT,)
        count = sum(game.title.corporation(corp).shares) // shares.share_percent(game.title, corp)
        per_share, price = paid / count, shares.current_price(game.state, game.title, corp)
        if per_share * 10 >= price:
            return (PriceMove.RIGHT, PriceMove.RIGHT)
        return (PriceMove.RIGHT,) if per_share * 20 > price else ()


class Presentation9999(TitlePresentation):
    """9999's order word LEVY and its report section."""

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        return (LEVY,)

    def report_sections(self, game: Game) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """A section of its own: the tolls each corporation has levied."""
        levies = state9999(game.state).levies
        lines = tuple(f"{sym}: {game.money(amount)}" for sym, amount in levies.items()) or ("none yet",)
        return (("TOLLS LEVIED", lines),)


HOOKS9999 = TitleHooks(sequence=Sequence9999(), stock=Stock9999Rules(), dividends=Dividends9999())
"""9999's hooks (the same shape as a package of :mod:`pbem.titles` exposes as ``HOOKS``)."""


def hooks9999(**parts: Any) -> TitleHooks:
    """9999's hooks with ``parts`` (``track=...``, ``routes=...``) given anew: a test's own rule."""
    return dataclasses.replace(HOOKS9999, **parts)
