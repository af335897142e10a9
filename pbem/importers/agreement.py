"""Agreement with the reference engine: our state and the platform's, action by action.

An 18xx.games record is replayed in our engine (:func:`our_states`, through the importer, so
each record action maps to the orders it became) and, outside this package, in the
platform's own engine, which gives one state per record action in force (the platform's
driver, ``benchmarks/agree/engine_states.rb``). :func:`compare_states` walks both and finds
the first record action after which they differ.

A state here is plain JSON data, the same shape on both sides::

    {"players": {seat: {"cash": int, "shares": {sym: percent}, "companies": [sym]}},
     "corporations": {sym: {"cash": int, "trains": [train name], "price": int | None,
                           "president": player | None}},
     "phase": str, "acting": str | None, "finished": bool}

Money is an int in the game's currency. ``corporations`` holds the open corporations that
have been started or hold cash or trains; ``acting`` is the entity whose turn it is (a
player's seat name, or the operating corporation's symbol). Other keys are carried for the
report and never compared. The platform's names are mapped to ours with a :class:`Naming`
(its players' names are the record's, which our seats take).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.engine.abilities import Teleport
from pbem.engine.steps import operating
from pbem.importers.e18xx import Renderer, UnsupportedRecordAction
from pbem.importers.replay import ReplayOutcome, replay_record

if TYPE_CHECKING:
    from pbem.engine.game import Game

State = dict[str, Any]
"""A state in the common shape (module docstring)."""

PLATFORM_TURN_CAP = 100
"""18xx.games ends a game as not finished when a round ends in its 100th turn."""
COMPARED = ("players", "corporations", "phase", "acting")
"""The keys of a state that are compared."""


@dataclass(frozen=True)
class Naming:
    """The platform's names -> ours, where they differ (a name not listed is the same)."""

    players: dict[str, str] = field(default_factory=dict)
    corporations: dict[str, str] = field(default_factory=dict)
    trains: dict[str, str] = field(default_factory=dict)
    phases: dict[str, str] = field(default_factory=dict)

    def entity(self, name: str | None) -> str | None:
        """An acting entity's name: a player's or a corporation's."""
        if name is None:
            return None
        return self.players.get(name, self.corporations.get(name, name))


def naming_for(record: dict[str, Any]) -> Naming:
    """The naming for a record: its players' ids (where the platform names them so) as their
    names; corporations, trains and phases are named alike on both sides in the titles we
    replay (1830, 1870, 1825)."""
    players: dict[str, str] = {}
    for p in record.get("players") or ():
        if isinstance(p, dict) and "id" in p:
            players[str(p["id"])] = str(p["name"])
    return Naming(players=players)


def normalise(theirs: State, naming: Naming) -> State:
    """The platform's state ``theirs`` in our names, lists sorted where order is no fact
    (companies held; trains keep their order of purchase only on the charter, so they are
    sorted too)."""
    players: dict[str, Any] = {}
    for name, held in (theirs.get("players") or {}).items():
        players[naming.players.get(name, name)] = {
            "cash": held["cash"],
            "shares": {naming.corporations.get(s, s): p for s, p in sorted(held["shares"].items()) if p},
            "companies": sorted(held["companies"]),
        }
    corps: dict[str, Any] = {}
    for sym, corp in (theirs.get("corporations") or {}).items():
        corps[naming.corporations.get(sym, sym)] = {
            "cash": corp["cash"],
            "trains": sorted(naming.trains.get(t, t) for t in corp["trains"]),
            "price": corp.get("price"),
            "president": naming.players.get(corp.get("president") or "", corp.get("president")),
        }
    phase = str(theirs.get("phase", ""))
    return {
        "players": players,
        "corporations": corps,
        "phase": naming.phases.get(phase, phase),
        "acting": naming.entity(theirs.get("acting")),
        "finished": bool(theirs.get("finished")),
        "idle": bool(theirs.get("idle")),
    }


def our_state(game: Game) -> State:
    """Our game's state in the common shape (module docstring)."""
    state = game.state
    players: dict[str, Any] = {}
    for name in state.seats:
        player = state.players[name]
        shares: dict[str, int] = {}
        for cert in state.certificates:
            if cert.owner.is_player and cert.owner.name == name:
                shares[cert.corporation] = shares.get(cert.corporation, 0) + cert.percent
        companies = sorted(c for c in player.companies if not state.companies[c].closed)
        players[name] = {"cash": player.cash, "shares": dict(sorted(shares.items())), "companies": companies}
    corps: dict[str, Any] = {}
    for sym, corp in state.corporations.items():
        if corp.closed or not (corp.price is not None or corp.cash or corp.trains):
            continue
        # a treasury below nothing is 1825's receivership credit, which the platform keeps
        # apart from the cash (its receivership_loan): the cash compared is then 0
        corps[sym] = {"cash": max(corp.cash, 0), "trains": sorted(t.kind for t in corp.trains),
                      "price": game.share_price(sym), "president": corp.president}
    return {
        "players": players,
        "corporations": corps,
        "phase": state.phase,
        "acting": acting_entity(game),
        "finished": state.finished,
        "round": game.round_label(),
    }


def acting_entity(game: Game) -> str | None:
    """Whose turn it is: in an operating round the corporation the first active step is
    about (the operating one, or one making its connection run; the private whose tile was
    just laid while its token waits, 1830's D&H, as the platform names it), else the first
    player who may act (None once the game is over or when no one may). A step that is a
    player's own decision (``OpStep.players_own``: 1870's price protection) names the player."""
    if game.state.finished:
        return None
    corp = game.operating_corporation()
    if corp is not None:
        active = operating.active_steps(game)
        teleport = game.state.pending_teleport
        if teleport and active and active[0].name == "token":  # the private whose tile it was decides
            for sym, company in game.state.companies.items():
                ability = game.title.company(sym).ability(Teleport)
                if ability is not None and company.owner is not None and company.owner.name == corp \
                        and teleport in ability.hexes:
                    return sym
        if active and active[0].players_own:  # a player's own decision (1870's price protection)
            return active[0].actor(game)
        return active[0].subject(game) if active else corp
    actors = game.current_actors()
    return actors[0] if actors else None


def diff_states(ours: State, theirs: State) -> list[str]:
    """The differences between two states in the common shape, one line each
    (``"players.Player 1.cash: ours 580, theirs 600"``), on the compared keys only; empty
    when they agree. ``acting`` is not compared once either side has finished."""
    lines: list[str] = []
    for key in COMPARED:
        if key == "acting" and (ours.get("finished") or theirs.get("finished")):
            continue
        _diff(key, ours.get(key), theirs.get(key), lines)
    return lines


def _diff(path: str, ours: Any, theirs: Any, lines: list[str]) -> None:
    """Append to ``lines`` where ``ours`` and ``theirs`` (JSON values) differ under ``path``."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs), key=str):
            if key not in ours:
                lines.append(f"{path}.{key}: ours missing, theirs {theirs[key]!r}")
            elif key not in theirs:
                lines.append(f"{path}.{key}: ours {ours[key]!r}, theirs missing")
            else:
                _diff(f"{path}.{key}", ours[key], theirs[key], lines)
    elif ours != theirs:
        lines.append(f"{path}: ours {ours!r}, theirs {theirs!r}")


def our_states(record: dict[str, Any]) -> tuple[dict[str, State], ReplayOutcome]:
    """Our state after each record action in force, keyed by the record's action id as a
    string (``"0"``: before the first action), with the replay's outcome. A record action's
    auto-actions belong to it: its state is the one after the last of them. A record action
    that needs no order of ours has no state (:func:`compare_states` joins it to the order
    before). The replay stops at the first action our engine refuses (the outcome says
    which)."""
    states: dict[str, State] = {}
    try:
        states["0"] = our_state(Renderer(record).game)
    except (UnsupportedRecordAction, ValueError):
        pass  # the replay says why it cannot start

    def after(action: dict[str, Any], game: Game) -> None:
        states[str(action["id"]).split(".", 1)[0]] = our_state(game)

    outcome = replay_record(record, after_action=after, after_no_order=False)
    return states, outcome


@dataclass(frozen=True)
class Divergence:
    """The first record action after which the two engines' states differ."""

    index: int
    """The action's position in the record's ``actions`` (-1: before the first action)."""
    action_id: int
    action: dict[str, Any] | None
    """The record's action (JSON), None before the first."""
    differences: tuple[str, ...]
    ours: State
    theirs: State


@dataclass(frozen=True)
class Agreement:
    """How far our engine and the platform's agree on one record.

    ``compared`` counts the record actions whose states were compared and agreed (the start
    included); ``divergence`` is the first that did not, or None. ``our_error`` is our
    replay's refusal, ``their_error`` the platform's (each stops that side's states).
    """

    name: str
    seed: Any
    compared: int
    last_agreed_id: int | None
    divergence: Divergence | None
    our_error: str | None = None
    their_error: str | None = None
    spells: tuple[tuple[int, int | None], ...] = ()
    """Every run of compared actions whose states differ, as (first id, id of the first
    action agreeing again, or None when they never do): a divergence the next action mends
    is a difference of timing, not of the game."""
    differing: int = 0
    """How many compared actions differ in all (``compared`` counts those before the first)."""
    their_end: str | None = None
    """Why the platform's game ended by its last state (its ``end_reason``: ``"bank"``, ...,
    ``"dnf"`` for its own cap on a game's turns, also once its last state is at that turn),
    None while it goes on."""

    @property
    def agreed(self) -> bool:
        """Whether every compared state agreed and neither engine refused an action."""
        return self.divergence is None and self.our_error is None and self.their_error is None

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object (``agree_18xx.py --json``)."""
        out: dict[str, Any] = {"name": self.name, "seed": self.seed, "agreed": self.agreed,
                               "compared": self.compared, "last_agreed_id": self.last_agreed_id}
        if self.divergence is not None:
            d = self.divergence
            out["divergence"] = {"index": d.index, "id": d.action_id, "action": d.action,
                                 "differences": list(d.differences),
                                 "ours": _compared(d.ours), "theirs": _compared(d.theirs)}
        if self.spells:
            out["spells"] = [list(spell) for spell in self.spells]
            out["differing"] = self.differing
        if self.our_error:
            out["our_error"] = self.our_error
        if self.their_error:
            out["their_error"] = self.their_error
        return out

    def summary(self) -> str:
        """A few lines for a person: agreed through N actions, or the first divergence."""
        head = f"{self.name} (seed {self.seed}): "
        lines: list[str] = []
        if self.divergence is None:
            lines.append(head + f"agreed through {self.compared} actions (last id {self.last_agreed_id})")
        else:
            d = self.divergence
            lines.append(head + f"agreed through {self.compared} actions, then diverged at action "
                         f"index {d.index}, id {d.action_id}")
            lines.append(f"  action: {_json(d.action)}")
            lines.extend(f"  {line}" for line in d.differences)
            lines.append(f"  ours:   {_json(_compared(d.ours))}")
            lines.append(f"  theirs: {_json(_compared(d.theirs))}")
            spells = ", ".join(f"{a}-{'end' if b is None else b}" for a, b in self.spells[:12])
            more = f" and {len(self.spells) - 12} more" if len(self.spells) > 12 else ""
            lines.append(f"  {self.differing} compared actions differ, in {len(self.spells)} spells "
                         f"(first differing id - id agreeing again): {spells}{more}")
        if self.our_error:
            lines.append(f"  our engine stopped: {self.our_error}")
        if self.their_error:
            lines.append(f"  the platform's engine stopped: {self.their_error}")
        return "\n".join(lines)


def _compared(state: State) -> State:
    """The compared keys of a state, with the round for orientation."""
    return {k: state[k] for k in (*COMPARED, "round") if k in state}


def _json(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=False, ensure_ascii=False)


def compare_states(record: dict[str, Any], name: str, ours: dict[str, State],
                   theirs: list[dict[str, Any]], naming: Naming | None = None,
                   our_error: str | None = None) -> Agreement:
    """Compare our states (:func:`our_states`) with the platform's lines (each
    ``{"index", "id", "state"}`` or ``{"index", "id", "error"}``, in record order): the first
    record action after which they differ, in full, and every later spell of differing
    actions. A record action that became no order of ours (a message, or a pass of a turn
    our engine ended by itself) belongs to the order before it: our state after that order
    is compared with the platform's after the last such action that follows it. Platform
    lines past the end of our replay when it stopped early are not compared."""
    naming = naming or naming_for(record)
    actions = record.get("actions") or []
    last_ours = max((int(line["id"]) for line in theirs if "error" not in line and str(line["id"]) in ours),
                    default=-1)
    groups: list[tuple[dict[str, Any], State, dict[str, Any]]] = []
    """(the line of the action our state is after, that state, the platform's line to compare)"""
    their_error: str | None = None
    for line in theirs:
        if "error" in line:
            their_error = f"action {line.get('id')} ({line.get('type')}): {line['error']}"
            break
        mine = ours.get(str(line["id"]))
        if mine is not None:
            groups.append((line, mine, line))
        elif groups and (int(line["id"]) < last_ours or our_error is None):
            groups[-1] = (groups[-1][0], groups[-1][1], line)
    compared = 0
    last: int | None = None
    first: Divergence | None = None
    spells: list[tuple[int, int | None]] = []
    differing = 0
    open_since: int | None = None
    for line, mine, against in groups:
        other = normalise(against["state"], naming)
        differences = diff_states(mine, other)
        action_id = int(line["id"])
        if not differences:
            if open_since is not None:
                spells.append((open_since, action_id))
                open_since = None
            if first is None:
                compared += 1
                last = action_id
            continue
        differing += 1
        if open_since is None:
            open_since = action_id
        if first is None:
            index = int(line["index"])
            action = actions[index] if 0 <= index < len(actions) else None
            other["round"] = against["state"].get("round")
            first = Divergence(index, action_id, action, tuple(differences), mine, other)
    if open_since is not None:
        spells.append((open_since, None))
    last_state: dict[str, Any] = next((line["state"] for line in reversed(theirs) if "state" in line), {})
    their_end = str(last_state.get("end_reason") or "") or None
    if their_end is None and int(last_state.get("turn") or 0) >= PLATFORM_TURN_CAP:
        their_end = "dnf"  # the platform ends the game as that turn's round ends
    return Agreement(name, _seed(record), compared, last, first, our_error, their_error,
                     tuple(spells), differing, their_end)


def _seed(record: dict[str, Any]) -> Any:
    """The record's seed (its settings'), else its id."""
    return (record.get("settings") or {}).get("seed") or record.get("id")
