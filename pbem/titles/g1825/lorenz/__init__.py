"""Kevin Lorenz's private-company variant of 1825 (variant ``lorenz``, seed 002), one module
a concern:

* :mod:`.rules` — the variant's hooks by concern (``LorenzSequence``, ``LorenzShares``,
  ``LorenzTrack``) and its data (``LorenzComposition``);
* :mod:`.facts` — the privates, hexes and shares the variant names;
* :mod:`.state` — the variant's fields of the game state;
* :mod:`.start` — the privates sold by buy/bid/pass;
* :mod:`.powers` — the designated powers of TWW, C&HP and C&W (ASSIGN and the uses: one check
  each, for the order, its refusal and the legal moves);
* :mod:`.sold_out` — with Unit 1, when the GWR has sold out (no more NER shares before);
* :mod:`.readings` — the readings chosen where the variant is silent, settings of
  ``lorenz.yaml`` with a variant for each other reading;
* :mod:`.actions`, :mod:`.orders`, :mod:`.events` — its actions, order words and events;
* :mod:`.report` — its section of the turn report.
"""
