"""The archive's HTML pages: plain HTML5, one inline style sheet, no outside resource.

Every page has the same header and menu (the game, its reports, its log, its charts) and
ends with a small script that marks each picture ``data-loaded="yes"`` once the browser has
drawn it (``naturalWidth`` above 0), ``"no"`` when it failed: what a reader would see, for
the tests that open the pages in a browser. Every text is HTML-escaped here; what the texts
hold is made public before (:mod:`pbem.site.public`).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Sequence

from pbem.site.charts import Chart
from pbem.site.public import LogLine

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { background: #24374f; color: #fff; padding: 0.6em 1.2em; }
header h1 { margin: 0; font-size: 1.4em; }
header p { margin: 0.2em 0 0; color: #d8e0ea; }
nav { background: #e4e9f0; padding: 0.4em 1.2em; }
nav a { margin-right: 1.2em; color: #1d4f91; text-decoration: none; font-weight: bold; }
nav a.here { color: #222; text-decoration: underline; }
main { padding: 0.8em 1.2em; }
pre { background: #fff; border: 1px solid #ccd; padding: 0.6em; overflow-x: auto; font-size: 12px; line-height: 1.25; }
img.board { max-width: 100%; height: auto; border: 1px solid #ccd; background: #fff; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid #ccd; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.undone td { color: #999; text-decoration: line-through; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; }
figure.chart { margin: 1em 0 2em; background: #fff; border: 1px solid #ccd; max-width: 980px; }
figure.chart figcaption { font-weight: bold; padding: 0.3em 0.6em; }
figure.chart svg { display: block; width: 100%; height: auto; }
p.note { color: #666; font-style: italic; }
.steps a { margin-right: 1em; }
"""

CHECK_PICTURES = """
(function () {
  function mark(img) { img.setAttribute("data-loaded", img.complete && img.naturalWidth > 0 ? "yes" : "no"); }
  document.querySelectorAll("img").forEach(function (img) {
    if (img.complete) { mark(img); return; }
    img.addEventListener("load", function () { mark(img); });
    img.addEventListener("error", function () { mark(img); });
  });
})();
"""

MENU = (("index.html", "Game"), ("reports.html", "Reports"), ("log.html", "Log"), ("charts.html", "Charts"))


@dataclass(frozen=True)
class GameFacts:
    """What the header and the first page say of a game."""

    game_id: str
    title: str
    variants: tuple[str, ...]
    players: tuple[str, ...]
    round: str
    phase: str
    status: str
    games_link: str | None = None
    """A link to the list of games (the web server's), or None (a static archive)."""


@dataclass(frozen=True)
class ReportEntry:
    """An archived report as the pages list it (its page: ``report-NNNN.html``)."""

    number: int
    seq: int
    round: str
    time: str

    @property
    def page(self) -> str:
        """The file name of its page."""
        return f"report-{self.number:04d}.html"


def page(facts: GameFacts, here: str, heading: str, body: str) -> str:
    """A whole page: ``here`` is the menu entry it is (a file name), ``body`` its HTML."""
    links = [(facts.games_link, "All games")] if facts.games_link else []
    mark = ' class="here"'
    menu = " ".join(f'<a href="{escape(href)}"{mark if href == here else ""}>{escape(text)}</a>'
                    for href, text in links + list(MENU))
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(heading)} - {escape(facts.game_id)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<header><h1>{escape(facts.game_id)}: {escape(facts.title)}</h1>"
            f"<p>{escape(facts.round)} &middot; {escape(facts.status)}</p></header>\n"
            f"<nav>{menu}</nav>\n<main>\n<h2>{escape(heading)}</h2>\n{body}\n</main>\n"
            f"<script>{CHECK_PICTURES}</script>\n</body>\n</html>\n")


def board(picture: str | None, alt: str) -> str:
    """The board picture ``picture`` (a file name), or a note that there is none."""
    if picture is None:
        return '<p class="note">No picture of the board in this archive.</p>'
    return f'<p><img class="board" src="{escape(picture)}" alt="{escape(alt)}"></p>'


def index_page(facts: GameFacts, picture: str | None, report: str, latest: ReportEntry | None) -> str:
    """The game's first page: its facts, the board now and the latest report."""
    rows = [("Title", facts.title), ("Variants", ", ".join(facts.variants) or "none"),
            ("Players", ", ".join(facts.players)), ("Round", facts.round), ("Phase", facts.phase),
            ("Status", facts.status)]
    facts_html = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in rows)
    where = (f'Report {latest.number} (log #{latest.seq}, {escape(latest.round)}); '
             f'<a href="{latest.page}">its page</a>, <a href="reports.html">every report</a>.'
             if latest else "No report has been archived: the report of the game as it stands now.")
    body = (f'<dl class="facts">{facts_html}</dl>\n<h3>The board</h3>\n{board(picture, "The board now")}\n'
            f"<h3>The latest report</h3>\n<p>{where}</p>\n<pre>{escape(report)}</pre>")
    return page(facts, "index.html", "The game now", body)


def reports_page(facts: GameFacts, entries: Sequence[ReportEntry]) -> str:
    """The list of archived reports."""
    if not entries:
        return page(facts, "reports.html", "Reports", '<p class="note">No report has been archived yet.</p>')
    rows = "\n".join(f'<tr><td class="num"><a href="{e.page}">{e.number}</a></td><td>{escape(e.round)}</td>'
                     f'<td class="num"><a href="log.html#l{e.seq}">#{e.seq}</a></td><td>{escape(e.time)}</td></tr>'
                     for e in entries)
    body = ("<table>\n<tr><th>Report</th><th>Round</th><th>Log position</th><th>Archived</th></tr>\n"
            f"{rows}\n</table>")
    return page(facts, "reports.html", "Reports", body)


def report_page(facts: GameFacts, entry: ReportEntry, picture: str | None, text: str,
                before: ReportEntry | None, after: ReportEntry | None) -> str:
    """One archived report with the board as it stood then."""
    steps = [f'<a href="{before.page}">&larr; report {before.number}</a>' if before else "",
             '<a href="reports.html">every report</a>',
             f'<a href="{after.page}">report {after.number} &rarr;</a>' if after else ""]
    body = (f'<p class="steps">{" ".join(s for s in steps if s)}</p>\n'
            f'<p>{escape(entry.round)}, log position <a href="log.html#l{entry.seq}">#{entry.seq}</a>, '
            f"archived {escape(entry.time)}.</p>\n"
            f"{board(picture, f'The board at report {entry.number}')}\n<pre>{escape(text)}</pre>")
    return page(facts, "reports.html", f"Report {entry.number}", body)


def log_page(facts: GameFacts, lines: Sequence[LogLine]) -> str:
    """The action log, one row a record (an undone one struck through)."""
    struck = ' class="undone"'
    rows = "\n".join(
        f'<tr id="l{line.seq}"{struck if line.undone else ""}><td class="num">#{line.seq}</td>'
        f"<td>{escape(line.time)}</td><td>{escape(line.actor)}</td>"
        f"<td>{escape(line.text)}{' (by the GM)' if line.by_gm else ''}</td></tr>" for line in lines)
    body = ('<p>Every record of the game\'s log; struck through: taken back by an undo.</p>\n<table>\n'
            f"<tr><th>#</th><th>Time</th><th>Who</th><th>What</th></tr>\n{rows}\n</table>")
    return page(facts, "log.html", "Log", body)


def charts_page(facts: GameFacts, charts: Sequence[Chart]) -> str:
    """The charts, each in a figure (or a note where there is nothing to draw yet)."""
    parts = []
    for chart in charts:
        inner = chart.svg if chart.svg is not None else f'<p class="note">{escape(chart.empty)}</p>'
        parts.append(f'<figure class="chart" id="{escape(chart.id)}"><figcaption>{escape(chart.title)}'
                     f"</figcaption>\n{inner}\n</figure>")
    return page(facts, "charts.html", "Charts", "\n".join(parts))


def games_page(games: Sequence[tuple[str, str]]) -> str:
    """The web server's list of games: ``(game id, one line about it)``."""
    items = "\n".join(f'<li><a href="{escape(g)}/">{escape(g)}</a>: {escape(line)}</li>' for g, line in games)
    body = f"<ul>\n{items}\n</ul>" if games else '<p class="note">No games.</p>'
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Games</title>\n'
            f"<style>{STYLE}</style>\n</head>\n<body>\n<header><h1>Games</h1></header>\n<main>\n{body}\n</main>\n"
            "</body>\n</html>\n")
