"""Whose turns our engine ended by itself, for reading a record's passes (the importer's
:class:`TurnWatch`): a pass the platform records for a turn our engine already ended, or
for a player it passes by itself, becomes no order (:mod:`pbem.importers.e18xx`)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.state import RoundKind
from pbem.engine.actions import Action, BuyPrivate, BuyShares, Par
from pbem.engine.events.rounds import NoValidActions, RoundStarted
from pbem.engine.game import Game
from pbem.engine.steps.stock import PURCHASES
from pbem.importers.translation import RecordTranslation


@dataclass(frozen=True)
class TurnSnapshot:
    """Whose turns stand open at one moment of our game: the round (kind, number, operating
    round), the operating order and the index of the corporation operating (operating
    rounds), the players not yet passed (other rounds) and those to act now."""

    kind: str
    key: tuple[int, int]
    order: tuple[str, ...]
    index: int
    unpassed: frozenset[str]
    actors: frozenset[str] = frozenset()

    @classmethod
    def of(cls, game: Game) -> TurnSnapshot:
        """The snapshot of ``game`` now."""
        rnd = game.state.round
        op = rnd.operating if rnd.kind == RoundKind.OPERATING else None
        return cls(rnd.kind, (rnd.number, rnd.or_number),
                   tuple(op.order) if op is not None else (), op.index if op is not None else 0,
                   frozenset(p for p, s in game.state.players.items() if not s.passed),
                   frozenset(game.current_actors()) if rnd.kind == RoundKind.STOCK else frozenset())


def ended_between(before: TurnSnapshot, now: TurnSnapshot) -> set[str]:
    """The players and corporations whose turns our engine ended between two snapshots
    taken either side of one order: in an operating round the corporations from the one
    operating before to the one operating now (all the rest when the round is over); in
    another round the players passed since (every one not passed before when a stock round
    is over); in a stock round also the players to act before and not after (a turn our
    engine ended by itself once nothing was left to do, which the platform may still ask to
    pass)."""
    same = (before.kind, before.key) == (now.kind, now.key)
    if before.kind == RoundKind.OPERATING:
        return set(before.order[before.index:now.index] if same else before.order[before.index:])
    if same:
        return set(before.unpassed - now.unpassed) | set(before.actors - now.actors)
    return set(before.unpassed | before.actors) if before.kind == RoundKind.STOCK else set()


class TurnWatch:
    """Follows our game from one rendered order to the next, to tell a recorded pass our
    engine expects from one for a turn it has already ended by itself.

    :meth:`look` is called before each record action is rendered and :meth:`rendered` when an
    order came of it (which the caller then applies): the next :meth:`look` compares the game
    with the snapshot taken before that order and keeps :attr:`just_ended`.
    """

    def __init__(self, game: Game, translation: RecordTranslation | None = None) -> None:
        self.game = game
        self.translation = translation or RecordTranslation()
        self.before = TurnSnapshot.of(game)
        self.label = game.round_label()
        self.began = self.label
        """The round the last order began in."""
        self.held = self._held()
        self.pending = False
        self.order: tuple[str, Action, bool] | None = None
        """The last order rendered: its seat, the order and whether the stock turn it ends
        bought anything."""
        self.expected: list[str] = []
        """The players whose passes the platform records after the last order, in order
        (:meth:`RecordTranslation.platform_passes`), not yet met."""
        self.just_ended: list[str] = []
        """Players and corporations whose turns our engine ended during the last order."""
        self.auto_passed: list[tuple[str, str, bool]] = []
        """(round, player, asked) for each player the last order passed for having nothing to
        do; ``asked``: the platform asks them in that stock round all the same
        (:meth:`RecordTranslation.asks_in_stock_round`)."""

    def _held(self) -> tuple[dict[str, int], str]:
        return {p: s.cash for p, s in self.game.state.players.items()}, self.game.state.phase

    def copy(self, game: Game) -> TurnWatch:
        """An independent copy following ``game`` (a copy of this watch's game)."""
        twin = TurnWatch.__new__(TurnWatch)
        twin.game, twin.before, twin.pending, twin.label = game, self.before, self.pending, self.label
        twin.translation, twin.held, twin.order = self.translation, self.held, self.order
        twin.expected, twin.began = list(self.expected), self.began
        twin.just_ended = list(self.just_ended)
        twin.auto_passed = list(self.auto_passed)
        return twin

    def look(self) -> None:
        """Take the game's snapshot; if an order was rendered since the last look, first
        keep whose turns it ended (with the players it passed for having nothing to do,
        whom the platform may still ask)."""
        now = TurnSnapshot.of(self.game)
        if self.pending:
            self.just_ended = sorted(ended_between(self.before, now))
            self.auto_passed, label = [], self.label
            (cash, phase) = self.held  # as the exporter asks: before the order, then at its end
            for event in self.game.last_events:
                if isinstance(event, RoundStarted):
                    label, (cash, phase) = event.label, self._held()
                elif isinstance(event, NoValidActions):
                    asked = label.startswith("SR ") and self.translation.asks_in_stock_round(
                        self.game, event.player, int(label.split()[1]), phase, cash[event.player])
                    self.auto_passed.append((label, event.player, asked))
            self.expected, self.began = [], self.label
            if self.order is not None:
                seat, action, bought = self.order
                self.expected = self.translation.platform_passes(self.game, seat, action, self.label, bought,
                                                                 self.held, self.game.last_events)
            self.pending = False
        self.before, self.label, self.held = now, self.game.round_label(), self._held()

    def platform_pass(self, player: str) -> bool:
        """Whether a recorded pass of ``player`` is the next of the platform's passes
        expected after the last order (:attr:`expected`; consumed)."""
        if not self.expected or self.expected[0] != player:
            return False
        del self.expected[0]
        asked = [i for i, (_, name, flag) in enumerate(self.auto_passed) if name == player and flag]
        if asked:
            del self.auto_passed[asked[0]]
        return True

    def acts_in_new_round(self, player: str) -> bool:
        """Whether ``player`` is to act first in a stock round that began during the last
        order (a pass of theirs is then that round's)."""
        return (self.game.state.round.kind == RoundKind.STOCK and self.game.round_label() != self.began
                and player in self.game.current_actors())

    def auto_pass(self, player: str) -> bool:
        """Whether a recorded pass of ``player`` is the platform's for a turn our engine
        passed by itself during the last order (consumed): one in the round now, or, when
        ``player`` is not to act now or acts in a round of another kind, one in an earlier
        round."""
        now = self.game.round_label()
        mine = [i for i, (_, name, _) in enumerate(self.auto_passed) if name == player]
        found = [i for i in mine if self.auto_passed[i][0] == now]
        if not found and player not in self.game.current_actors():
            found = mine
        if not found:  # to act now in a round of another kind (an operating round's president)
            found = [i for i in mine if self.auto_passed[i][0].split()[0] != now.split()[0]]
        if found:
            del self.auto_passed[found[0]]
        return bool(found)

    def rendered(self, seat: str | None = None, action: Action | None = None) -> None:
        """An order came of the record action just looked at: ``action`` by ``seat``."""
        self.pending = True
        self.order = None
        if seat is not None and action is not None:
            stock = self.game.state.round.stock if self.game.state.round.kind == RoundKind.STOCK else None
            bought = (stock is not None and any(kind in PURCHASES for kind in stock.turn_actions)) \
                or isinstance(action, (BuyShares, Par, BuyPrivate))
            self.order = (seat, action, bought)

    def corporation_done(self, corp: str) -> bool:
        """``corp`` (not operating now) has had its turn: our engine ended it during the last
        order, or it has operated in this operating round already. Consumes the first."""
        if corp in self.just_ended:
            self.just_ended.remove(corp)
            return True
        op = self.game.state.round.operating
        return self.game.state.round.kind == RoundKind.OPERATING and op is not None and corp in op.order[:op.index]

    def player_done(self, player: str) -> bool:
        """``player`` (not to act now) has passed in this stock round or start."""
        state = self.game.state
        return state.round.kind != RoundKind.OPERATING and state.players[player].passed
