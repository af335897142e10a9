"""A game's archive to browse (issue 23): ``pbem archive GAME --html DIR`` and ``pbem web``.

The archive is built from a game played through the mailroom (tests/test_mailroom.py's
``Table``: the built-in demo's opening with a proxy bid, standing orders, table talk, a GM's
REPLACE and ACT AS mixed in) and from a recorded 1830 game imported with ``pbem import-18xx``.
The pages are opened in a browser by tests/test_site_browser.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner

from pbem.application.state import replay
from pbem.application.texts import TextSettings, turn_report
from pbem.cli import main
from pbem.config import load_config, parse_config
from pbem.demo import builtin_script
from pbem.engine.game import Game
from pbem.errors import ConfigError
from pbem.games import open_log
from pbem.report_archive import ReportArchive
from pbem.site.build import Picture, board_picture, build_site, write_site
from pbem.site.charts import by_round
from pbem.site.history import walk
from pbem.site.public import public_report
from pbem.site.web import Archives, make_server
from tests.records import record_path
from tests.test_mailroom import GM, P1, P2, P3, Table

REPO = Path(__file__).resolve().parent.parent
NEWBIE = "newbie@players.example"
MARKERS = ("333", "777", "xyzzy", "plugh", "PASSWORD")
"""Words only a seat's own copy, the log's raw records or a mail carry: a proxy bid's limit,
a standing order's condition, table talk, the password line."""


# -- helpers, also for tests/test_site_browser.py -------------------------------------------------


def stand_in_board(game: Game) -> str:
    """A board picture for the tests while :mod:`pbem.picture` has none: an SVG document
    that changes with the tiles laid and the round."""
    tiles = " ".join(f"{coord}:{tile}" for coord, (tile, _) in sorted(game.state.tiles.items()))
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">'
            '<rect width="640" height="360" fill="#e8efe0"/><path d="M20 340 L320 20 L620 340 Z" fill="#c9b27c"/>'
            f'<text x="24" y="40" font-size="20">{game.round_label()} {tiles}</text></svg>')


def board() -> Picture:
    """The real board picture where this version has one, else :func:`stand_in_board`."""
    return board_picture() or stand_in_board


def mailroom_game(data: Path) -> Table:
    """The demo's opening played by mail as game ``g1``, with Player 3's BO bid sent as a
    proxy bid up to 333, Player 1's next two stock turns as standing orders (conditions on
    777), table talk to all and to one, the GM replacing Player 2's address, Player 1's
    standing orders for NYNH and the GM acting for Player 3."""
    table = Table(data)
    extra = {5: ["PRESS ALL: xyzzy hello all"], 8: ["PRESS 3: plugh only for you"]}
    instead = {6: ["BID BO UP TO 333"], 22: [], 25: []}
    for n, mail in enumerate(builtin_script()["mails"], start=1):
        if n == 22:
            assert table.order("Player 1", "NEXT PAR NYNH 100 IF PRICE B&O <= 777",
                               "NEXT BUY NYNH IF PRICE B&O <= 777")[0] == "processed"
        orders = instead.get(n, mail["orders"]) + extra.get(n, [])
        if orders:
            assert table.order(mail["from"], *orders)[0] == "processed", (n, orders)
    for seat, lines in (("GM", ["REPLACE Player 2 " + NEWBIE]), ("Player 1", ["AUTO NYNH WITHHOLD"]),
                        ("GM", ["ACT AS 3 PASS"])):
        assert table.order(seat, *lines)[0] == "processed", lines
    return table


def imported_game(data: Path, game_id: str = "bank", name: str = "1830_game_end_bank.json") -> None:
    """A recorded 1830 game imported into ``data`` as ``game_id`` (skipped, or failed under
    CI, when the recorded games are absent)."""
    result = CliRunner().invoke(main, ["import-18xx", "--data", str(data), str(record_path("1830", name)),
                                       "--game", game_id])
    assert result.exit_code == 0, result.output


class Links(HTMLParser):
    """The ``href`` and ``src`` of a page, and its element ids."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.targets.append(value)
            if name == "id" and value:
                self.ids.add(value)


def links_of(html: str) -> Links:
    parser = Links()
    parser.feed(html)
    return parser


def broken_links(files: dict[str, bytes]) -> list[str]:
    """Every link of the archive's pages to a file or an anchor it does not have."""
    pages = {name: links_of(data.decode()) for name, data in files.items() if name.endswith(".html")}
    broken = []
    for name, links in pages.items():
        for target in links.targets:
            file, _, anchor = target.partition("#")
            file = file or name
            if file not in files or (anchor and anchor not in pages[file].ids):
                broken.append(f"{name} -> {target}")
    return broken


# -- the archive of a game played by mail --------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return mailroom_game(tmp_path_factory.mktemp("site") / "data")


def test_every_report_has_its_page_with_the_board_as_it_stood(played: Table) -> None:
    records = open_log(played.data, "g1").records
    entries = ReportArchive(played.data / "games" / "g1" / "reports").entries()
    assert len(entries) > 30
    drawn: list[tuple[str, Any, Any]] = []

    def picture(game: Game) -> str:
        drawn.append((game.round_label(), {p: s.cash for p, s in game.state.players.items()}, dict(game.state.tiles)))
        return stand_in_board(game)

    site = build_site(played.data, "g1", picture=picture)
    assert {"index.html", "reports.html", "log.html", "charts.html"} <= set(site.files)
    assert len(drawn) == len(entries) + 1, "each report's board, then the board now"
    for entry, seen in zip(entries, drawn):
        then = replay([r for r in records if r.seq <= entry.seq]).game
        assert seen == (then.round_label(), {p: s.cash for p, s in then.state.players.items()}, dict(then.state.tiles))
        html = site.files[f"report-{entry.number:04d}.html"].decode()
        (src,) = re.findall(r'<img class="board" src="([^"]+)"', html)
        assert src in site.files and site.files[src] == stand_in_board(then).encode()
        assert f"report {entry.number}" in html and f"log.html#l{entry.seq}" in html
    assert broken_links(dict(site.files)) == []
    index = site.files["index.html"].decode()
    assert f"report {entries[-1].number}" in index and "Player 1, Player 2, Player 3" in index
    assert site.boards < len(entries), "a board unchanged between reports is one file"


def test_the_log_is_replayed_once_not_per_report(played: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    real = Game.__init__

    def counting(self: Game, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(Game, "__init__", counting)
    build_site(played.data, "g1", picture=stand_in_board)
    undos = sum(1 for r in open_log(played.data, "g1").records if r.kind_name == "undo")
    assert undos == 1 and len(made) <= 1 + undos, "the start, and a rebuild where an undo took back a report's move"


def test_nothing_a_seat_keeps_to_itself_is_in_the_archive(played: Table) -> None:
    site = build_site(played.data, "g1", picture=stand_in_board)
    text = "\n".join(data.decode() for data in site.files.values())
    genesis = open_log(played.data, "g1").genesis
    hashes = [s["secret_hash"] for s in genesis["seats"]] + [genesis["gm"]["secret_hash"]]
    for secret in list(played.secrets.values()) + hashes + [P1, P2, P3, GM, NEWBIE]:
        assert secret not in text, secret
    words = re.sub(r"(?s)<svg.*?</svg>", "", "\n".join(d.decode() for n, d in site.files.items() if n.endswith(".html")))
    for marker in MARKERS:  # the charts' drawing is numbers, and says nothing of the markers
        assert marker not in words, marker
    log = site.files["log.html"].decode()
    for line in ("sends a proxy bid (its limit is not shown)", "table talk to all (not shown)",
                 "table talk to Player 3 (not shown)", "REPLACE Player 2: now played by (address withheld)",
                 "sends standing orders for NYNH", "standing order 1 gives the next order", "(by the GM)"):
        assert line in log, line


def test_a_seats_own_copy_is_made_public(played: Table) -> None:
    """Were a seat's copy archived, its own lines would not be shown."""
    state = played.state()
    assert state.proxies == {"Player 3": {"BO": 333}}
    own = turn_report(state, TextSettings(server="pbem@pbem.example"), since=0, number=9, recipient="Player 1",
                      width=132)
    assert "FOR PLAYER 1" in own and "standing orders" in own
    public = public_report(own + "\nPASSWORD abc123\nmail me at someone@example.org\n")
    assert "FOR PLAYER 1" not in public and "Your corporations' standing orders" not in public
    assert "PASSWORD" not in public and "abc123" not in public and "someone@example.org" not in public
    assert "STOCK MARKET" in public and "mail me at (address withheld)" in public


# -- charts from a recorded game -----------------------------------------------------------------


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("bank") / "data"
    imported_game(data)
    return data


def test_the_charts_follow_the_game_to_its_end(bank: Path) -> None:
    history = walk(open_log(bank, "bank").records, [], lambda game: None)
    game = history.final.game
    assert game.state.finished
    last = history.samples[-1]
    assert dict(last.worth) == game.result()
    assert {sym: price for sym, price in last.prices.items()} == {
        c: None if s.closed else game.share_price(c) for c, s in game.state.corporations.items()}
    for sym, corp in game.state.corporations.items():
        runs = [r.amount for r in history.revenues if r.corporation == sym]
        if corp.last_revenue is not None:
            assert runs and runs[-1] == corp.last_revenue, sym
    rounds = [p.round for p in by_round(history.opening, history.samples)]
    assert rounds[:4] == ["Start", "Private auction", "SR 1", "OR 1.1"] and rounds[-1] == "OR 9.3"
    assert dict(history.opening.worth) == {p: 800 for p in game.state.seats}


def test_an_imported_game_has_its_report_now_and_its_charts(bank: Path) -> None:
    site = build_site(bank, "bank", picture=stand_in_board)
    assert site.reports == 0 and broken_links(dict(site.files)) == []
    index = site.files["index.html"].decode()
    assert "No report has been archived" in index and "as it stands now" in index and "THE GAME IS OVER" in index
    charts = site.files["charts.html"].decode()
    assert charts.count('class="pygal-chart"') == 3 and charts.count("<path") > 50
    for label in ("OR 1.1", "OR 9.3", "Player 3", "B&amp;O", "Revenue", "Share price", "Worth"):
        assert label in charts, label
    assert "http://" not in charts.replace("http://www.w3.org", "").replace("http://pygal.org", "") \
        .replace("http://github.com/Kozea/pygal", ""), "nothing loaded from elsewhere"


# -- the commands ---------------------------------------------------------------------------------


def test_archive_lists_the_reports_and_writes_the_pages_with_html(played: Table, tmp_path: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["archive", "g1", "--data", str(played.data)])
    assert listed.exit_code == 0 and listed.output.startswith("report    1  log #")
    out = tmp_path / "pages"
    written = runner.invoke(main, ["archive", "g1", "--data", str(played.data), "--html", str(out)])
    assert written.exit_code == 0, written.output
    assert "Wrote the archive of g1" in written.output
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    assert "index.html" in files and "report-0001.html" in files and broken_links(files) == []
    missing = runner.invoke(main, ["archive", "nope", "--data", str(played.data), "--html", str(out)])
    assert missing.exit_code != 0 and "no game 'nope'" in missing.output


def test_write_site_keeps_other_files(played: Table, tmp_path: Path) -> None:
    (tmp_path / "README.txt").write_text("mine")
    write_site(build_site(played.data, "g1", picture=None), tmp_path)
    assert (tmp_path / "README.txt").read_text() == "mine" and (tmp_path / "index.html").is_file()
    assert "No picture of the board" in (tmp_path / "index.html").read_text()


def test_the_web_section_of_the_config() -> None:
    assert (parse_config({}).web.host, parse_config({}).web.port) == ("127.0.0.1", 8018)
    example = load_config(REPO / "config.example.yaml").web
    assert (example.host, example.port) == ("127.0.0.1", 8018)
    assert parse_config({"web": {"host": "0.0.0.0", "port": 80}}).web.port == 80
    with pytest.raises(ConfigError, match="web.port"):
        parse_config({"web": {"port": 70000}})


# -- the web server -------------------------------------------------------------------------------


def test_the_server_answers_only_inside_the_archives(played: Table) -> None:
    archives = Archives(played.data, stand_in_board)
    assert b'href="g1/"' in archives.answer("/").body
    moved = archives.answer("/g1")
    assert moved.status == 301 and moved.location == "/g1/"
    index = archives.answer("/g1/")
    assert index.status == 200 and index.type.startswith("text/html") and b"The game now" in index.body
    assert archives.answer("/g1/index.html?x=1").body == index.body
    src = re.findall(r'src="(map-[0-9a-f]+\.svg)"', index.body.decode())[0]
    assert archives.answer(f"/g1/{src}").type == "image/svg+xml"
    for path in ("/g1/log.jsonl", "/g1/head.json", "/g1/../g1/index.html", "/%2e%2e/etc/passwd", "/../../etc/passwd",
                 "/g1/reports/report-0001.txt", "/g1/%2e%2e/log.jsonl", "/nope/", "/g1/index.html/x", "/.pbem/"):
        assert archives.answer(path).status == 404, path


def test_the_server_builds_the_pages_again_when_the_game_moves(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    table.order("Player 1", "BID CA 165")
    archives = Archives(table.data, None)
    first = archives.site("g1")
    assert archives.site("g1") is first, "kept while the game is unchanged"
    table.order("Player 2", "BID CA 170")
    again = archives.site("g1")
    assert again is not first and "report-0002.html" in again.files


def _request(url: str, method: str = "GET") -> tuple[int, bytes, Any]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=30) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers


def serving(archives: Archives) -> tuple[str, Callable[[], None]]:
    """``archives`` served on a free port of the loopback; the base URL and how to stop."""
    server = make_server(archives, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(10)

    return f"http://127.0.0.1:{server.server_address[1]}", stop


def test_the_server_is_read_only(played: Table) -> None:
    base, stop = serving(Archives(played.data, stand_in_board))
    try:
        status, body, headers = _request(base + "/g1/")
        assert status == 200 and b"<pre>" in body and "default-src 'none'" in headers["Content-Security-Policy"]
        for method in ("POST", "PUT", "DELETE"):
            status, _, headers = _request(base + "/g1/", method)
            assert status == 405 and headers["Allow"] == "GET, HEAD", method
        status, body, _ = _request(base + "/g1/", "HEAD")
        assert status == 200 and body == b""
        assert _request(base + "/g1/log.jsonl")[0] == 404
    finally:
        stop()


def test_pbem_web_serves_until_stopped(tmp_path: Path) -> None:
    """``pbem web`` as a person starts it (here on a free port of the loopback)."""
    data = tmp_path / "data"
    imported_game(data)
    process = subprocess.Popen([sys.executable, "-m", "pbem.cli", "web", "--data", str(data), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line + (process.stderr.read() if process.poll() is not None and process.stderr else "")
        with urllib.request.urlopen(found.group(0) + "bank/log.html", timeout=60) as response:
            assert response.status == 200 and b"new game 1830" in response.read()
    finally:
        process.terminate()
        process.wait(30)
