"""The archive's charts, drawn from a game's history (:mod:`pbem.site.history`) as inline SVG
with pygal: each corporation's share price and each player's worth round by round, and the
revenue each corporation ran in each operating round.

A corporation is drawn in the colour of its tokens on the board's picture: its own where the
title data give one (its ``color``), else a colour of a palette.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import pygal
from pygal.style import Style

from pbem.engine.title import TitleData
from pbem.site.history import History, Revenue, Sample

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd")
"""Colours for series with none of their own (distinct on white)."""

START = "Start"
"""The x label of the values before the first action."""


@dataclass(frozen=True)
class Chart:
    """One chart of the archive: an ``id`` for the page's anchor, its ``title`` and the
    ``svg`` (an ``<svg>`` element to put in a page), or None with ``empty`` saying why."""

    id: str
    title: str
    svg: str | None
    empty: str = ""


def corporation_colours(title: TitleData) -> dict[str, str]:
    """Each corporation's colour: as the board's picture draws its tokens where this version
    has one (:func:`pbem.picture.colors.corporation_colors`), else its own where the title
    gives one, else the palette's."""
    try:
        module = importlib.import_module("pbem.picture.colors")
    except ModuleNotFoundError:
        module = None
    picture = getattr(module, "corporation_colors", None)
    if callable(picture):
        return {str(sym): str(colour) for sym, colour in picture(title).items()}
    out: dict[str, str] = {}
    for n, corp in enumerate(title.corporations):
        own = getattr(corp, "color", None) or corp.extras.get("color")
        out[corp.sym] = str(own) if isinstance(own, str) and own else PALETTE[n % len(PALETTE)]
    return out


def by_round(opening: Sample, samples: Sequence[Sample]) -> list[Sample]:
    """The values at the start, then at the end of each round: the last action's of each run
    of actions taken in one round."""
    points = [Sample(opening.seq, START, opening.prices, opening.worth)]
    for n, sample in enumerate(samples):
        if n + 1 == len(samples) or samples[n + 1].round != sample.round:
            points.append(sample)
    return points


def _style(colours: Sequence[str]) -> Any:
    return Style(colors=tuple(colours) or PALETTE, background="white", plot_background="white",
                 font_family="DejaVu Sans, Arial, sans-serif", label_font_size=11, major_label_font_size=11,
                 legend_font_size=13, title_font_size=16, value_font_size=11, tooltip_font_size=12)


def _render(chart: Any) -> str:
    return str(chart.render(is_unicode=True, disable_xml_declaration=True))


def _config(y_title: str, x_title: str, colours: Sequence[str], money: Callable[[int], str],
            ) -> dict[str, Any]:
    return {"x_title": x_title, "y_title": y_title, "style": _style(colours), "js": [],
            "width": 960, "height": 440, "x_label_rotation": 40, "legend_at_bottom": False, "legend_box_size": 14,
            "truncate_legend": -1, "show_minor_x_labels": True, "margin_bottom": 12,
            "value_formatter": lambda v: money(int(v)) if v is not None else "-", "print_values": False}


def price_chart(history: History[Any], title: TitleData) -> Chart:
    """Each corporation's share price at the end of each round (a gap before its par and
    once it has closed)."""
    points = by_round(history.opening, history.samples)
    colours = corporation_colours(title)
    shown = [c.sym for c in title.corporations if any(p.prices.get(c.sym) is not None for p in points)]
    if not shown:
        return Chart("prices", "Share prices", None, "No corporation has a share price yet.")
    chart = pygal.Line(allow_interruptions=True, show_dots=True, dots_size=3,
                       **_config("Share price", "Round", [colours[s] for s in shown],
                                 title.format_money))
    chart.x_labels = [p.round for p in points]
    for sym in shown:
        chart.add(sym, [p.prices.get(sym) for p in points])
    return Chart("prices", "Share prices", _render(chart))


def worth_chart(history: History[Any], title: TitleData) -> Chart:
    """Each player's worth at the start and the end of each round: cash, shares at market
    price and privates at face value, as the final score counts it."""
    points = by_round(history.opening, history.samples)
    players = list(history.opening.worth)
    chart = pygal.Line(show_dots=True, dots_size=3,
                       **_config("Worth", "Round", PALETTE, title.format_money))
    chart.x_labels = [p.round for p in points]
    for player in players:
        chart.add(player, [p.worth.get(player) for p in points])
    return Chart("worth", "Players' worth", _render(chart))


def revenue_table(revenues: Sequence[Revenue]) -> tuple[list[str], dict[str, dict[str, int]]]:
    """The operating rounds in order and each corporation's revenue in each (the last run
    counts where a round saw two)."""
    rounds: list[str] = []
    table: dict[str, dict[str, int]] = {}
    for r in revenues:
        if r.round not in rounds:
            rounds.append(r.round)
        table.setdefault(r.corporation, {})[r.round] = r.amount
    return rounds, table


def revenue_chart(history: History[Any], title: TitleData) -> Chart:
    """Each corporation's revenue in each operating round it operated in (0: no run)."""
    rounds, table = revenue_table(history.revenues)
    if not rounds:
        return Chart("revenue", "Revenue per operating round", None, "No corporation has operated yet.")
    colours = corporation_colours(title)
    shown = [c.sym for c in title.corporations if c.sym in table]
    chart = pygal.Bar(**_config("Revenue", "Operating round",
                                [colours[s] for s in shown], title.format_money))
    chart.x_labels = rounds
    for sym in shown:
        chart.add(sym, [table[sym].get(r) for r in rounds])
    return Chart("revenue", "Revenue per operating round", _render(chart))


def charts(history: History[Any], title: TitleData) -> list[Chart]:
    """Every chart of the archive, in the order the page shows them."""
    return [price_chart(history, title), worth_chart(history, title), revenue_chart(history, title)]
