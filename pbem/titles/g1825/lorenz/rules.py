"""Kevin Lorenz's private companies for 1825 (variant ``lorenz``; seed 002): the hooks of the
variant by concern, mixed into 1825's (:mod:`pbem.titles.g1825.hooks`). Each hook acts only
when the game plays the variant and otherwise defers to plain 1825 (``super()``).

* the data (:meth:`LorenzComposition.compose`): one £30 private however many units are combined
  (the first, as plain 1825 picks them), the variant's start round, and every private closing
  when the first 5-train is bought (rule 6);
* the start (:mod:`.start`): the privates by buy/bid/pass, with free shares (S&D: NER, L&M:
  LNWR);
* the powers (:mod:`.powers`): ``ASSIGN`` and the uses of TWW, C&HP and C&W; P14 and Dover
  kept for them (``lay_problem``, ``token_problem``);
* shares (``launch_problem``, ``sell_problem``): no further LNWR shares until every private
  is sold; with Unit 1 in play no further NER shares until the GWR has sold out (as the game
  reads it, :mod:`.sold_out`), and the free NER share not sold before the NER's Director's
  certificate is bought (nor any share before its company has a share price: the core's rule).

Its order words and report section are :class:`~pbem.titles.g1825.lorenz.presentation.
LorenzPresentation`'s.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Hashable, Mapping

from pbem.engine.sequence import RoundSequence
from pbem.engine.stock_rules import StockRules
from pbem.engine.track_rules import TrackRules
from pbem.engine.state import RoundState, TitleState
from pbem.ruleset.composer import TitleComposer
from pbem.titles.g1825.lorenz import powers
from pbem.titles.g1825.lorenz.facts import (
    AFTER_THE_PRIVATES, BIDDING, CHP, CLOSING_TRAIN, CW, DOVER, LIMITED_SHARE_CORPORATION, PEAK, SD, SOLD_OUT_FIRST,
    START, TWW, VARIANT, plays,
)
from pbem.titles.g1825.lorenz.orders import ASSIGN_EXAMPLE
from pbem.titles.g1825.lorenz.readings import DEFAULTS, OTHER_READING, SOLD_OUT_FROM_IPO, reading
from pbem.titles.g1825.lorenz.sold_out import has_sold_out, reading_text, with_sold_out_noted
from pbem.titles.g1825.lorenz.state import LorenzOnly, lorenz_state

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.step import Step
    from pbem.engine.steps.stock import BuySellParShares
    from pbem.engine.steps.operating import OpStep

ONE_CHEAP = 30
"""The face value of which only one private is used when units are combined (rule 1)."""


def compose_lorenz(documents: Mapping[str, Any]) -> dict[str, Any]:
    """``documents`` (file stem -> parsed YAML, as composed for the units in play) with the
    variant's changes, its inputs left alone: of the privates worth :data:`ONE_CHEAP` only
    the first (rule 1); the start round's steps; the first :data:`CLOSING_TRAIN`-train closes
    every private (rule 6); HELP's note on the game (:func:`help_notes`) and its example of
    ``ASSIGN`` (:func:`assign_example`)."""
    out = dict(documents)
    companies = copy.deepcopy(list(out.get("companies") or []))
    cheap = [c for c in companies if c.get("value") == ONE_CHEAP]
    out["companies"] = [c for c in companies if c.get("value") != ONE_CHEAP or c is cheap[0]]
    game = copy.deepcopy(dict(out.get("game") or {}))
    game["round_steps"] = {**game.get("round_steps", {}), START: [BIDDING, START]}
    out["game"] = game
    trains = copy.deepcopy(dict(out.get("trains") or {}))
    for train in trains.get("trains", []):
        if str(train.get("name")) == CLOSING_TRAIN and "close_companies" not in train.get("events", []):
            train["events"] = [*train.get("events", []), "close_companies"]
    out["trains"] = trains
    notes = help_notes(out)
    if notes:
        game["help_notes"] = {**game.get("help_notes", {}), NOTE_HEADING: notes}
    example = assign_example(out)
    if example != ASSIGN_EXAMPLE:
        game["help_examples"] = {**game.get("help_examples", {}), ASSIGN_EXAMPLE: example}
    return out


def assign_example(documents: Mapping[str, Any]) -> str:
    """HELP's ``ASSIGN`` example for the composed ``documents``: a private in play whose
    power's hex is on the map (C&HP, else C&W, else TWW) given to the LNWR, or to the first
    corporation where there is no LNWR (Unit 3 alone); the default example where none fits."""
    companies = {str(c.get("sym")) for c in documents.get("companies") or []}
    corporations = [str(c.get("sym")) for c in (documents.get("corporations") or {}).get("corporations") or []]
    hexes = ((documents.get("map") or {}).get("hexes") or {}).keys()
    usable = [c for c in (CHP, CW, TWW) if c in companies and powers.HEX_OF[c] in hexes]
    if not usable or not corporations:
        return ASSIGN_EXAMPLE
    corp = AFTER_THE_PRIVATES if AFTER_THE_PRIVATES in corporations else corporations[0]
    return f"ASSIGN {usable[0]} {corp}"


NOTE_HEADING = "Lorenz's private companies"
"""The heading of the variant's note in HELP's "Rules of this game"."""


def help_notes(documents: Mapping[str, Any]) -> str:
    """The variant's HELP note for the composed ``documents`` of a game ("" if none): with
    S&D and Unit 1's GWR, the NER's rule and how the game reads "sold out"; a power whose
    hex is not on the map (C&HP without P14), that it cannot be used."""
    game = documents.get("game") or {}
    settings = {**DEFAULTS, **(game.get("title_rules") or {})}
    companies = {str(c.get("sym")) for c in documents.get("companies") or []}
    corporations = {str(c.get("sym")) for c in (documents.get("corporations") or {}).get("corporations") or []}
    hexes = set(((documents.get("map") or {}).get("hexes") or {}).keys())
    paragraphs = []
    if SD in companies and {LIMITED_SHARE_CORPORATION, SOLD_OUT_FIRST} <= corporations:
        from_ipo = bool(settings[SOLD_OUT_FROM_IPO])
        other = OTHER_READING[SOLD_OUT_FROM_IPO]
        paragraphs.append(
            f"{SD} with Unit 1: no further {LIMITED_SHARE_CORPORATION} shares may be bought until the "
            f"{SOLD_OUT_FIRST} has sold out, which this game reads as {reading_text(from_ipo)}; once sold out, "
            f"for good. " + (f"(The variant {other} reads it as {reading_text(False)}.) " if from_ipo else
                             f"(The variant {VARIANT} reads it as {reading_text(True)}.) ")
            + f"The free {LIMITED_SHARE_CORPORATION} share may not be sold before the "
            f"{LIMITED_SHARE_CORPORATION}'s Director's certificate is bought.")
    for company, coord in powers.HEX_OF.items():
        if company in companies and coord not in hexes:
            paragraphs.append(f"{powers.unusable(company)}, so ASSIGN {company} is refused and never offered.")
    return "\n\n".join(paragraphs)


def privates_unsold(game: Game) -> list[str]:
    """The privates still for sale (no owner, not closed)."""
    return [sym for sym, c in game.state.companies.items() if c.owner is None and not c.closed]


def reserve_minor_trains(game: Game) -> None:
    """As plain 1825's start does: each minor's required train set aside from the depot (in
    an 1825 game; a game of the variant's rules alone has no minors' trains)."""
    from pbem.titles.g1825.state import State1825

    if isinstance(game.state.title_state, State1825):
        from pbem.titles.g1825.start import _reserve_minor_trains

        _reserve_minor_trains(game, game.state.title_state)


class LorenzComposition(TitleComposer):
    """The ``lorenz`` variant's documents and the settings of its readings; plain 1825's
    where the variant is not in play."""

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        """Plain 1825's documents for the units in play, then the variant's changes
        (:func:`compose_lorenz`)."""
        composed = super().compose(documents, parts, variants)
        return compose_lorenz(composed) if plays(variants) else composed

    @classmethod
    def title_rules(cls) -> Mapping[str, bool | int | str]:
        """The settings of the variant's readings (:mod:`.readings`), with 1825's others."""
        from pbem.titles.g1825.lorenz.readings import DEFAULTS

        return {**super().title_rules(), **DEFAULTS}


class LorenzSequence(RoundSequence):
    """The variant's start (buy/bid/pass), its state, the power step and the stock step
    taking ASSIGN."""

    def first_round(self, game: Game) -> RoundState:
        """The variant's buy/bid/pass (:mod:`.start`)."""
        if not powers.in_play(game):
            return super().first_round(game)
        from pbem.titles.g1825.lorenz.start import start_round

        reserve_minor_trains(game)
        return start_round(game)

    def step_types(self) -> Mapping[str, type[Step]]:
        from pbem.titles.g1825.lorenz.start import LorenzAuction, LorenzBidding

        return {**super().step_types(), START: LorenzAuction, BIDDING: LorenzBidding}

    def new_title_state(self) -> TitleState:
        """1825's state, which holds the variant's fields (``lorenz``); a state of the
        variant's own where the other rules keep none."""
        found = super().new_title_state()
        if hasattr(found, "lorenz"):
            return found
        if type(found) is TitleState:
            return LorenzOnly()
        raise TypeError(f"{type(found).__name__} has no field for Lorenz's variant (lorenz: LorenzState)")

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        return (*super().operating_steps(), powers.PowerStep)

    def stock_step(self) -> type[BuySellParShares]:
        """The title's stock step taking ``ASSIGN`` in a stock turn (refused there, with the
        reason, unless the game reads it as allowed at any time: :func:`.powers.with_assign`),
        and noting when the GWR has sold out (:func:`.sold_out.with_sold_out_noted`)."""
        noted = with_sold_out_noted(super().stock_step())  # type: ignore[arg-type]  # a class is hashable
        return powers.with_assign(noted)  # type: ignore[arg-type]


class LorenzShares(StockRules):
    """The variant's launches, sales and privates never sold to the bank."""

    def launch_problem(self, game: Game, sym: str) -> str | None:
        """No further LNWR shares until every private is sold; with Unit 1 in play (the GWR),
        no further NER shares until the GWR has sold out (as the game reads it:
        :mod:`.sold_out`)."""
        if powers.in_play(game):
            if sym == AFTER_THE_PRIVATES and privates_unsold(game):
                return f"no further {sym} shares are on offer until every private is sold"
            if (sym == LIMITED_SHARE_CORPORATION and SOLD_OUT_FIRST in game.state.corporations
                    and not has_sold_out(game)):
                return (f"no further {sym} shares may be bought until the {SOLD_OUT_FIRST} has sold out "
                        f"(as this game reads it: {reading_text(reading(game, SOLD_OUT_FROM_IPO))})")
        return super().launch_problem(game, sym)

    def sell_problem(self, game: Game, player: str, sym: str, count: int) -> str | None:
        """The free NER share may not be sold until the NER's Director's certificate has
        been bought (with Unit 1 in play)."""
        if powers.in_play(game) and SOLD_OUT_FIRST in game.state.corporations:
            from pbem.engine.values import Owner

            for company, (corp, index) in lorenz_state(game.state).free_shares.items():
                cert = next((c for c in game.state.certificates if c.corporation == corp and c.index == index), None)
                if (corp == sym == LIMITED_SHARE_CORPORATION and cert is not None
                        and cert.owner == Owner.player(player) and game.state.corporations[corp].president is None):
                    return f"the free {sym} share of {company} may not be sold before {sym}'s Director's certificate is bought"
        return super().sell_problem(game, player, sym, count)

    def may_sell_privates(self, game: Game) -> bool:
        """In the variant privates may never be sold to the bank (rule 6); plain 1825 says
        when they may."""
        if powers.in_play(game):
            return False
        plain = getattr(super(), "may_sell_privates", None)  # plain 1825's stock rules
        return bool(plain(game)) if plain is not None else True


class LorenzTrack(TrackRules):
    """The variant's powers on the map: C&W's extra token, P14 and Dover kept."""

    def station_tokens(self, game: Game, corp: str) -> tuple[list[int], int]:
        """C&W's token in Dover, where the game reads it as an extra token, is not one of the
        charter's (:func:`.powers.extra_tokens`)."""
        costs, placed = super().station_tokens(game, corp)
        return costs, placed - powers.extra_tokens(game, corp)

    def lay_problem(self, game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
        return powers.peak_problem(game, coord) or super().lay_problem(game, corp, coord, tile, rotation)

    def token_problem(self, game: Game, corp: str, coord: str, city: int) -> str | None:
        """Dover is kept for C&W's token while C&W is open with its token unplaced."""
        if coord == DOVER and powers.dover_reserved(game):
            return f"{DOVER} is kept for the token of the company with C&W's power (TOKEN {DOVER} USING C&W)"
        return super().token_problem(game, corp, coord, city)

    def kept_slots(self, game: Game, coord: str, city: int) -> tuple[str, ...]:
        """Dover's slot kept for C&W's token, shown held for C&W on the map and in words."""
        kept = ("C&W",) if coord == DOVER and powers.dover_reserved(game) else ()
        return super().kept_slots(game, coord, city) + kept

    def graph_key(self, game: Game) -> Hashable:
        if not powers.in_play(game):
            return super().graph_key(game)
        return (super().graph_key(game), powers.dover_reserved(game), powers.peak_problem(game, PEAK) is None)

