"""The base of the typed events (see :mod:`pbem.engine.events`): :class:`Event`, the
generic :class:`Note` and :func:`render_all`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

Money = Callable[[int], str]
"""Formats an amount in the title's currency (``1234`` -> ``"$1234"``)."""


def plural(count: int) -> str:
    """``"s"`` for more than one (``f"share{plural(n)}"``)."""
    return "s" if count > 1 else ""


@dataclass(frozen=True)
class Event:
    """The base of every event."""

    def render(self, money: Money) -> str:
        """The event's line in the turn report, amounts formatted by ``money``."""
        raise NotImplementedError


def render_all(events: Iterable[Event], money: Money) -> list[str]:
    """The report lines of ``events``, in order."""
    return [event.render(money) for event in events]


@dataclass(frozen=True)
class Note(Event):
    """A line of text for a rare case with no event of its own."""

    text: str

    def render(self, money: Money) -> str:
        return self.text
