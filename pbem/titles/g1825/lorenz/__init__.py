"""Kevin Lorenz's private-company variant of 1825 (variant ``lorenz``, seed 002), one module
a concern:

* :mod:`.rules` — :class:`~pbem.titles.g1825.lorenz.rules.LorenzRules`, the variant's hooks;
* :mod:`.facts` — the privates, hexes and shares the variant names;
* :mod:`.state` — the variant's fields of the game state;
* :mod:`.start` — the privates sold by buy/bid/pass;
* :mod:`.powers` — the designated powers of TWW, C&HP and C&W;
* :mod:`.actions`, :mod:`.orders`, :mod:`.events` — its actions, order words and events;
* :mod:`.report` — its section of the turn report.
"""
