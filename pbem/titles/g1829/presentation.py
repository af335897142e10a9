"""1829's order words (SURVEY, PARK) and its report sections: the share launches, the survey
parties and the packets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.presentation import ReportSection, TitlePresentation
from pbem.titles.g1829 import launches, survey
from pbem.titles.g1829.packets import Packet, packets
from pbem.titles.g1829.state import state1829

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.order_codecs import OrderCodec


def launch_lines(game: Game) -> tuple[str, ...]:
    """What is on offer, and the next launch with what it waits for."""
    played = state1829(game.state).operating_rounds
    lines = [f"Operating rounds completed (the launches count them): {played}."]
    unsold = launches.railways_unsold(game)
    if unsold:
        lines.append(f"Private railways still for sale: {', '.join(unsold)}; no company is offered until they are sold.")
    offered = [s for members in launches.groups(game) for s in members
               if launches.launch_problem(game, s) is None and not game.state.corporations[s].ipoed]
    if offered and not unsold:
        lines.append(f"On offer, not yet started: {', '.join(offered)}.")
    upcoming = launches.next_launch(game)
    if upcoming is not None:
        members, why = upcoming
        lines.append(f"Next: {', '.join(members)}, {why}.")
    return tuple(lines)


def party_lines(game: Game) -> tuple[str, ...]:
    """Each company's survey parties (where they stand; parked or not this turn)."""
    lines = []
    for corp, hexes in game.state.map_pieces.items():
        if hexes and not game.state.corporations[corp].closed:
            homes = survey.home_hexes(game, corp)
            where = ", ".join(f"{h} (home station)" if h in homes else h for h in hexes)
            lines.append(f"{corp}: {where}")
    return tuple(lines) or ("No survey party is on the map yet.",)


def packet_lines(game: Game) -> tuple[str, ...]:
    """Each packet: its owner, its port and the companies with a station there."""
    state = game.state
    lines = []
    stations: dict[str, list[str]] = {}
    for ref, held in state.tokens.items():
        stations.setdefault(ref.coord, []).extend(held)
    for sym in packets(game):
        company = state.companies[sym]
        data = game.title.company(sym)
        packet = data.ability(Packet)
        assert packet is not None
        if company.closed:
            lines.append(f"{sym}: closed")
            continue
        owner = company.owner.name if company.owner is not None else f"the bank's, {game.money(data.value)}"
        at_port = ", ".join(stations.get(packet.port, [])) or "no station yet"
        lines.append(f"{sym} ({owner}; pays {game.money(data.revenue)}): port {packet.port}, "
                     f"{game.money(packet.income)} a turn to {at_port}")
    return tuple(lines)


class Presentation1829(TitlePresentation):
    """SURVEY and PARK; SHARE LAUNCHES, SURVEY PARTIES and PACKETS in the report."""

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        """SURVEY and PARK (:mod:`pbem.titles.g1829.orders`)."""
        from pbem.titles.g1829.orders import CODECS

        return CODECS

    def report_sections(self, game: Game) -> tuple[ReportSection, ...]:
        """The launches (:func:`launch_lines`), the parties (:func:`party_lines`) and the
        packets (:func:`packet_lines`)."""
        return (("SHARE LAUNCHES", launch_lines(game)), ("SURVEY PARTIES", party_lines(game)),
                ("PACKETS", packet_lines(game)))
