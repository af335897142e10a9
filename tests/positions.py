"""Built positions that more than one test file starts from."""

from __future__ import annotations

from pbem.engine.values import CityRef
from pbem.engine.game import Game
from pbem.engine.state import OperatingState, RoundState
from pbem.engine.values import Owner
from pbem.ruleset import load_title


def mp_operating_with_the_bridge_company(*, president_holds_shares: bool = False) -> Game:
    """1870 OR 1 with players A, B, C: MP ($500 in its treasury, price at market cell
    (1, 6), home token on C18, president B) operates first and alone; A owns the Mississippi
    River Bridge Company (MRBC). With ``president_holds_shares``, B holds MP's first five
    certificates (the president's and four shares)."""
    game = Game(load_title("1870"), ["A", "B", "C"])
    state = game.state
    state.companies["MRBC"].owner = Owner.player("A")
    state.players["A"].companies.append("MRBC")
    corp = state.corporations["MP"]
    corp.cash, corp.floated, corp.ipoed, corp.president = 500, True, True, "B"
    corp.par = corp.price = (1, 6)
    state.market[(1, 6)] = ["MP"]
    state.tokens[CityRef("C18", 0)] = ["MP"]
    if president_holds_shares:
        for cert in state.certificates:
            if cert.corporation == "MP" and cert.index <= 4:
                cert.owner = Owner.player("B")
    state.round = RoundState(kind="operating", operating=OperatingState(order=["MP"]))
    return game
