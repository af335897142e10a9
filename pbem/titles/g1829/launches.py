"""Share launches (the variant's "Share Launches"): the companies are put on offer in groups,
each group after a number of
operating rounds and only once every company of the groups before it has floated; before the
first group, every private railway must have been sold.

=========  ============================  ===============================
group      companies                      on offer
=========  ============================  ===============================
1          LNWR, GWR, NER                 once every private railway is sold
2          MR                             after 3 operating rounds
3          LSWR, NBR                      after 5
4          CR, GNR                        after 7
5          LBSC, L&YR, GER, GCR           after 9
6          GSWR, HR, SECR, FR             after 11
=========  ============================  ===============================

"The first certificate sold must be the director's" is the core's: a company is started by
buying its Director's certificate (PAR), at its starting price only (:mod:`.stock`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from pbem.engine.events.base import Event, Money
from pbem.titles.g1829.state import state1829

if TYPE_CHECKING:
    from pbem.engine.game import Game


@dataclass(frozen=True)
class LaunchGroup:
    """The companies ``corporations`` (those of them in play), on offer after ``after``
    operating rounds."""

    corporations: tuple[str, ...]
    after: int


SCHEDULE = (LaunchGroup(("LNWR", "GWR", "NER"), 0), LaunchGroup(("MR",), 3), LaunchGroup(("LSWR", "NBR"), 5),
            LaunchGroup(("CR", "GNR"), 7), LaunchGroup(("LBSC", "L&YR", "GER", "GCR"), 9),
            LaunchGroup(("GSWR", "HR", "GNSR", "SECR", "FR"), 11))
"""The variant's schedule, group by group (see the module text; the GNSR, where it replaces
the Highland, takes its place). On one board alone a group has the companies of that board."""


@dataclass(frozen=True)
class Launched(Event):
    """The companies ``corporations`` are put on offer."""

    corporations: tuple[str, ...]

    def render(self, money: Money) -> str:
        return f"Now on offer: {', '.join(self.corporations)}"


@dataclass(frozen=True)
class _Schedule:
    """The schedule of a game's title: each group with a company in play and those companies,
    the group of each company, and the private railways (derived from the title alone)."""

    groups: tuple[tuple[LaunchGroup, tuple[str, ...]], ...]
    group_of: Mapping[str, int]
    railways: tuple[str, ...]


def _schedule(game: Game) -> _Schedule:
    """The title's :class:`_Schedule`, kept in the game's cache against the title."""
    cached = game.cache.get(_CACHE_KEY)
    if cached is not None and cached[0] is game.title:
        assert isinstance(cached[1], _Schedule)
        return cached[1]
    from pbem.titles.g1829.packets import Packet

    found = []
    for group in SCHEDULE:
        members = tuple(s for s in group.corporations if s in game.state.corporations)
        if members:
            found.append((group, members))
    schedule = _Schedule(tuple(found), {s: i for i, (_, members) in enumerate(found) for s in members},
                         tuple(c.sym for c in game.title.companies if c.ability(Packet) is None))
    game.cache[_CACHE_KEY] = (game.title, schedule)
    return schedule


_CACHE_KEY = "1829 launch schedule"


def groups(game: Game) -> list[tuple[str, ...]]:
    """The companies of each launch group in play, in the schedule's order."""
    return [members for _, members in _schedule(game).groups]


def private_railways(game: Game) -> tuple[str, ...]:
    """The private railways (every private company that is not a packet)."""
    return _schedule(game).railways


def railways_unsold(game: Game) -> list[str]:
    """The private railways the bank still holds (unsold and not closed)."""
    companies = game.state.companies
    return [s for s in private_railways(game) if companies[s].owner is None and not companies[s].closed]


def group_problem(game: Game, index: int) -> str | None:
    """When launch group ``index`` (0 first), not on offer now, will be (``"after 5
    operating rounds (3 played)"``), or None when it is on offer."""
    state = game.state
    if railways_unsold(game):
        return "once every private railway has been sold"
    schedule = _schedule(game)
    group = schedule.groups[index][0]
    played = state1829(state).operating_rounds
    if played < group.after:
        return f"after {group.after} operating rounds ({played} played)"
    earlier = [s for _, g in schedule.groups[:index] for s in g if not state.corporations[s].floated]
    if earlier:
        return f"once {', '.join(earlier)} {'has' if len(earlier) == 1 else 'have'} floated"
    return None


def launch_problem(game: Game, sym: str) -> str | None:
    """Why ``sym``'s shares are not on offer now, or None (see the module text)."""
    index = _schedule(game).group_of.get(sym)
    if index is None:
        return None
    problem = group_problem(game, index)
    return None if problem is None else f"{sym} is not on offer yet: it is offered {problem}"


def next_launch(game: Game) -> tuple[tuple[str, ...], str] | None:
    """The first group not yet on offer and why, or None when every group is: for the
    report's "what opens next"."""
    for index, members in enumerate(groups(game)):
        problem = group_problem(game, index)
        if problem is not None:
            return members, problem
    return None


def announce(game: Game) -> None:
    """Announce each group that has come on offer since the last announcement."""
    mine = state1829(game.state)
    all_groups = groups(game)
    while mine.launched < len(all_groups) and group_problem(game, mine.launched) is None:
        game.event(Launched(all_groups[mine.launched]))
        mine.launched += 1
