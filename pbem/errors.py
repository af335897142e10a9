"""Error classes shared across pbem.

Player errors (a bad order, an illegal move) subclass :class:`ValueError` and carry a message
that quotes the input, so it can be mailed back as it is. Our own faults are other exceptions.
"""

from __future__ import annotations


class OrderError(ValueError):
    """Base of every error caused by what a player wrote or did."""


class OrderSyntaxError(OrderError):
    """An order line that does not parse, whatever the state of the game.

    Example message: ``cannot read 'BYU PRR': unknown order 'BYU'``.
    """


class IllegalOrderError(OrderError):
    """A well-formed order that the rules do not allow now.

    Example message: ``illegal 'BUY PRR' in SR 1: PRR has not been parred``.
    """


class AmbiguousOrderError(OrderError):
    """An order that could mean more than one action (e.g. an abbreviation matching two names)."""


class ConfigError(ValueError):
    """A configuration file that is missing a key, has a wrong type or an impossible value.

    The message names the key (dotted path) and what was expected.
    """
