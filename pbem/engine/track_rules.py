"""Track and token rules: 1830's, which a title's :class:`TrackRules` subclass adjusts where
it differs (its ``HOOKS.track``; issue 20: the title interface split by concern). Asked by the
one lay and token checks (:mod:`pbem.engine.track`), the legal-lay generator
(:mod:`pbem.engine.lays`) and the track and token steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Hashable, Mapping

from pbem.engine.values import CityRef

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.engine.board import TileData
    from pbem.engine.game import Game


class TrackRules:
    """Upgrades, lays, homes, station slots and tokens, what may be spent on them, and the
    key of the track network's caches (1830 rules 6.1-6.3)."""

    def upgrade_problem(self, game: Game, coord: str, new: TileData, rotation: int) -> str | None:
        """Why tile ``new`` at ``rotation`` may not replace what shows on ``coord``, or None:
        1830 rules 6.2, :func:`pbem.engine.upgrades.upgrade_problem` (colour, label, cities and
        towns, every old path kept; the title's ``tile_hexes`` and ``upgrade_chart``). A
        title with upgrades of its own (1825's town-to-city upgrades, its striped tiles)
        decides here; :meth:`lay_problem` adds reasons on top of this one."""
        from pbem.engine import upgrades

        return upgrades.upgrade_problem(game, coord, new, rotation)

    def lay_candidates(self, game: Game, coord: str, supply: Mapping[str, list[str]]) -> list[str]:
        """The tiles worth checking for a lay on ``coord`` when the legal lays are listed
        (:func:`pbem.engine.lays.legal_lays`), from ``supply`` (colour -> the tiles left of
        the colours the phase allows); each is then checked by the one lay check. 1830: those
        one colour above the tile showing; none on a hex of another colour (red, gray,
        blue). A title with upgrades across colours (1825's 119 to 51, its tile 200 on a
        sepia hex) adds them here."""
        from pbem.engine import track

        old = track.placed(game, coord).tile
        if old.color not in track.COLOR_ORDER[:-1]:
            return []
        return list(supply.get(track.COLOR_ORDER[track.COLOR_ORDER.index(old.color) + 1], []))

    def lays_without_reach(self, game: Game, corp: str) -> frozenset[str]:
        """The hexes ``corp`` may lay a tile on though its track does not reach them (every
        side of such a hex counts as reached). 1830: none; 1825: a minor's home hex while its
        home token waits for a tile with a city there."""
        return frozenset()

    def place_home_token(self, game: Game, corp: str) -> None:
        """Put ``corp``'s home token on the map when its turn begins (and after each tile it
        lays, where the title defers the token). 1830 rules 6.1: in its home city as it first
        operates (:func:`pbem.engine.steps.operating.place_home_token`)."""
        from pbem.engine.steps.operating.tokens import place_home_token

        place_home_token(game, corp)

    def counts_as_upgrade(self, game: Game, coord: str) -> bool:
        """Whether a tile laid on ``coord`` now counts as an upgrade among the turn's tile
        lays (``tile_lays``: the lays that may or may not be upgrades). 1830: whenever a tile
        lies there already (the hex is not a white one); 1825 counts a tile on a printed
        yellow hex as a new tile."""
        from pbem.engine import track

        return track.placed(game, coord).tile.color != "white"

    def city_slots(self, game: Game, coord: str, city: int, printed: int) -> int:
        """How many station slots city ``city`` of the tile on ``coord`` has, given the
        tile's ``printed`` slots (1830: the printed slots; a title may add slots for tokens
        of its own that take none, 1870's destination tokens)."""
        return printed

    def kept_slots(self, game: Game, coord: str, city: int) -> tuple[str, ...]:
        """Corporations (or the private whose power will place the token) for which the
        title's own rule keeps a slot of city ``city`` on ``coord`` now, beyond the homes :func:`pbem.engine.track.reserved_home` holds: shown
        on the map and in the track list like a held home (lower case); the rule itself is
        the title's :meth:`token_problem`, which this only displays (1830: none; Jerkich's
        1870 Kansas City slot kept for the Katy)."""
        return ()

    def graph_key(self, game: Game) -> Hashable:
        """What of the title's own state the track network (blocking, slots) and the best
        run depend on beyond tiles, tokens, trains and privates: part of the key their
        caches are kept under, so it must change whenever such a fact does (1830: nothing,
        ``()``)."""
        return ()

    def lay_problem(self, game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
        """A title's extra reason a tile may not go there (1830: none)."""
        return None

    def token_problem(self, game: Game, corp: str, coord: str, city: int) -> str | None:
        """A title's extra reason ``corp`` may not place a station token in city ``city`` of
        ``coord`` now, or None (Lorenz's 1825: Dover is kept for the token of the company
        holding C&W's power). Asked by the one token check
        (:func:`pbem.engine.track.token_problem`) after the slots and before the reach, so
        the legal moves, the report and the refusals agree; a slot kept this way does not
        block routes through the city. 1830: none."""
        return None

    def homes(self, game: Game, corp: str) -> tuple[CityRef, ...]:
        """The cities ``corp``'s home tokens go in, each keeping a slot for it until the
        corporation places its first token (1830 rules 6.1: its one home, the charter's
        ``home`` and ``home_city``, followed through upgrades to the city that took over its
        track). A title with companies of several homes names them all
        (1825: the LNWR of Units 1 and 2 at Wolverton and Crewe). A home that names no city
        on a hex of several is held on the hex instead (:func:`pbem.engine.track.held_on_hex`)."""
        from pbem.engine import track

        data = game.title.corporation(corp)
        if not data.home or track.hex_home(game, corp) is not None:
            return ()

        city = data.home_city if data.home_city is not None else 0
        return (CityRef(data.home, track.printed_city_now(game, data.home, city)),)

    def station_tokens(self, game: Game, corp: str) -> tuple[list[int], int]:
        """``(the prices of corp's station tokens in order, how many of them are placed)``
        (1830: the charter's tokens; every token of ``corp`` on the map is one of them)."""
        placed = sum(1 for corps in game.state.tokens.values() if corp in corps)
        return list(game.title.corporation(corp).tokens), placed

    def lay_gate(self, game: Game, corp: str) -> frozenset[str] | None:
        """The hexes ``corp`` may lay or upgrade tiles on now, or None for no restriction
        (1830). The base answer is the title data's ``gating_pieces``
        (:func:`pbem.engine.pieces.allowed_hexes`: hexes near the corporation's survey
        parties); the one lay check refuses other hexes and the legal-lay generator lists
        only these, keyed on the set returned (so it must depend only on the state)."""
        from pbem.engine.pieces import allowed_hexes

        return allowed_hexes(game, corp)

    def gate_refusal(self, game: Game, corp: str, coord: str) -> str:
        """Why ``coord``, outside :meth:`lay_gate`, is closed to ``corp``: the base's words for
        the title data's gating pieces (:func:`pbem.engine.pieces.gate_refusal`); a title with
        a gate of its own explains it in its terms (1829's survey parties)."""
        from pbem.engine.pieces import gate_refusal

        return gate_refusal(game, corp, coord)

    def spending_power(self, game: Game, corp: str) -> int:
        """The most ``corp`` may spend now on terrain and station tokens (money): 1830, its
        treasury. A title that lends (1825: a company in receivership may spend beyond its
        treasury, the bank's loan repaid from its run) says more; the treasury then goes
        below nothing until the title settles it."""
        return game.state.corporations[corp].cash

    def spend_problem(self, game: Game, corp: str, cost: int, action: Action) -> str | None:
        """Why ``corp`` may not spend ``cost`` (money, within :meth:`spending_power`) on
        ``action`` (a ``LayTile``'s terrain or a ``PlaceToken``'s price), or None; asked by
        the track and token steps, so an order, the report's "you may" and a refusal agree.
        1830: None (it spends its treasury alone). 1825: what a company in receivership spends
        on credit must be repaid by the run its trains could make after it."""
        return None
