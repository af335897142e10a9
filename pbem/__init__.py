"""pbem: a play-by-email server for 18xx railway games.

The engine (:mod:`pbem.engine`) holds the rules and does no I/O; the order language
(:mod:`pbem.orders`) turns order lines into typed actions and back; the action log
(:mod:`pbem.actionlog`) is the append-only truth of each game; transports
(:mod:`pbem.transport`) move mail in and out; :mod:`pbem.server` ties them together.
"""

__version__ = "0.1.0"
