"""``pbem web``: the games' archives served read-only over HTTP (the standard library's
threading server).

``/`` lists the games; ``/<game>/`` and ``/<game>/<file>`` are the files of the game's
archive (:func:`pbem.site.build.build_site`), built on request from the data directory and
kept until the game's log or report archive changes. Only GET and HEAD are answered; a path
is looked up among a game's archive files by name, never joined to a folder, so nothing
outside the archives can be read. Nothing is written.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pbem.actionlog import LogIntegrityError
from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.games import game_dir, game_exists, list_games, open_log
from pbem.site.build import Picture, Site, build_site
from pbem.site.pages import games_page

log = logging.getLogger(__name__)

TYPES = {".html": "text/html; charset=utf-8", ".svg": "image/svg+xml"}
POLICY = ("default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The pages load nothing but their pictures; their style sheet and script are inline."""


@dataclass(frozen=True)
class Answer:
    """What a request gets: the status, its type and body, and a redirection's target."""

    status: HTTPStatus
    body: bytes
    type: str = "text/plain; charset=utf-8"
    location: str | None = None


def _plain(status: HTTPStatus, text: str) -> Answer:
    return Answer(status, (text + "\n").encode())


class Archives:
    """The archives of the games in ``data_dir``, each built when first asked for and again
    after its log or report archive changed."""

    def __init__(self, data_dir: Path, picture: Picture | None, route_budget: int = DEFAULT_SEARCH_BUDGET) -> None:
        self.data_dir = data_dir
        self.picture = picture
        self.route_budget = route_budget
        self._built: dict[str, tuple[tuple[int, ...], Site]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _fingerprint(self, game_id: str) -> tuple[int, ...]:
        folder = game_dir(self.data_dir, game_id)
        out: list[int] = []
        for path in (folder / "log.jsonl", folder / "head.json", folder / "reports" / "index.jsonl"):
            try:
                stat = path.stat()
                out += [stat.st_size, stat.st_mtime_ns]
            except FileNotFoundError:
                out += [-1, -1]
        return tuple(out)

    def site(self, game_id: str) -> Site:
        """The archive of ``game_id`` (a game of the data directory), up to date.

        :raises KeyError: no such game.
        :raises LogIntegrityError: its log is damaged or does not replay.
        """
        with self._guard:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:  # one build a game at a time; the others wait for it
            mark = self._fingerprint(game_id)
            built = self._built.get(game_id)
            if built is None or built[0] != mark:
                site = build_site(self.data_dir, game_id, picture=self.picture, route_budget=self.route_budget,
                                  games_link="../")
                built = (mark, site)
                self._built[game_id] = built
            return built[1]

    def games(self) -> list[tuple[str, str]]:
        """``(game id, title and players)`` for every game whose log opens."""
        out = []
        for game_id in list_games(self.data_dir):
            try:
                genesis = open_log(self.data_dir, game_id).genesis
            except (KeyError, LogIntegrityError, OSError, ValueError):
                continue
            seats = ", ".join(str(s.get("name", "?")) for s in genesis.get("seats", []))
            out.append((game_id, f"{genesis.get('title', '?')} with {seats}"))
        return out

    def answer(self, target: str) -> Answer:
        """The answer to a GET of ``target`` (the request's path, with any query)."""
        path = unquote(urlsplit(target).path)
        if path in ("", "/"):
            return Answer(HTTPStatus.OK, games_page(self.games()).encode(), TYPES[".html"])
        parts = path.lstrip("/").split("/")
        game_id = parts[0]
        if len(parts) > 2 or not game_exists(self.data_dir, game_id):
            return _plain(HTTPStatus.NOT_FOUND, "not found")
        if len(parts) == 1:
            return Answer(HTTPStatus.MOVED_PERMANENTLY, b"", location=f"/{game_id}/")
        name = parts[1] or "index.html"
        try:
            site = self.site(game_id)
        except KeyError:
            return _plain(HTTPStatus.NOT_FOUND, "not found")
        except LogIntegrityError as exc:
            log.error("the archive of %s cannot be built: %s", game_id, exc)
            return _plain(HTTPStatus.INTERNAL_SERVER_ERROR, f"the archive of {game_id} cannot be built: {exc}")
        data = site.files.get(name)
        if data is None:
            return _plain(HTTPStatus.NOT_FOUND, "not found")
        return Answer(HTTPStatus.OK, data, TYPES.get(Path(name).suffix, "application/octet-stream"))


class Handler(BaseHTTPRequestHandler):
    """GET and HEAD from :class:`Archives`; every other method is refused (405)."""

    archives: Archives
    server_version = "pbem-web"

    def _send(self, answer: Answer, *, body: bool) -> None:
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.type)
        self.send_header("Content-Length", str(len(answer.body)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", POLICY)
        if answer.location:
            self.send_header("Location", answer.location)
        self.end_headers()
        if body:
            self.wfile.write(answer.body)

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self._send(self.archives.answer(self.path), body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._send(self.archives.answer(self.path), body=False)

    def _refuse(self) -> None:
        answer = _plain(HTTPStatus.METHOD_NOT_ALLOWED, "read-only: GET and HEAD only")
        self.send_response(answer.status)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Type", answer.type)
        self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        self.wfile.write(answer.body)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the standard library's name)
        log.info("%s %s", self.address_string(), format % args)


def make_server(archives: Archives, host: str, port: int) -> ThreadingHTTPServer:
    """A server of ``archives`` on ``host``:``port`` (port 0: any free port), not yet
    serving (call ``serve_forever``)."""
    handler = type("ArchiveHandler", (Handler,), {"archives": archives})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server
