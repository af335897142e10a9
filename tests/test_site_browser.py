"""The archive's pages in a real browser: headless Chromium opens them (from files, and from
the web server on the loopback) and the tests check what a reader sees: the board pictures
drawn (each page's script marks an ``img`` ``data-loaded="yes"`` once its ``naturalWidth``
is above 0), the charts drawn (their SVG paths in the page, and pixels of many colours where
the screenshot shows them), and every link of every page leading to a page or a picture.

Chromium is Debian's package ``chromium`` (.ci/setup installs it); where it is missing the
tests are skipped, and under CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import urllib.request
import zlib
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from pbem.site.build import build_site, write_site
from pbem.site.web import Archives
from tests.test_site import board, broken_links, imported_game, links_of, mailroom_game, serving

WINDOW = (1000, 800)


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        reason = "headless Chromium is missing (Debian's package chromium; .ci/setup installs it)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def browse(chromium: str, url: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Chromium, headless, on ``url`` with ``args``; its scripts given time to run."""
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
               "--hide-scrollbars", "--allow-file-access-from-files", f"--user-data-dir={profile}",
               f"--window-size={WINDOW[0]},{WINDOW[1]}", "--virtual-time-budget=10000", *args, url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def dom(chromium: str, url: str, profile: Path) -> str:
    """The page's DOM after its scripts ran, as the browser holds it."""
    return browse(chromium, url, profile, "--dump-dom").stdout


def screenshot(chromium: str, url: str, profile: Path) -> bytes:
    """A PNG of the window showing the top of the page."""
    shot = profile / "shot.png"
    browse(chromium, url, profile, f"--screenshot={shot}")
    return shot.read_bytes()


def png_rows(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the pixel rows (RGB or RGBA bytes) of an 8-bit PNG (zlib, the
    five filters of the PNG specification)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def colours_in(png: bytes, top: int, bottom: int) -> tuple[int, float]:
    """How many colours the rows ``top`` to ``bottom`` of ``png`` show, and the share of
    their pixels that are not the most common colour (the background)."""
    width, height, rows = png_rows(png)
    channels = len(rows[0]) // width
    counts: dict[bytes, int] = {}
    for row in rows[top:min(bottom, height)]:
        for x in range(0, len(row), channels):
            pixel = row[x:x + 3]
            counts[pixel] = counts.get(pixel, 0) + 1
    total = sum(counts.values())
    return len(counts), 1 - max(counts.values()) / total


def assert_pictures_drawn(page: str, at_least: int = 1) -> None:
    imgs = re.findall(r"<img\b[^>]*>", page)
    assert len(imgs) >= at_least, page[:500]
    for img in imgs:
        assert 'data-loaded="yes"' in img, img


def assert_charts_drawn(page: str) -> None:
    charts = re.findall(r'(?s)<svg\b[^>]*class="pygal-chart".*?</svg>', page)
    assert len(charts) == 3
    for chart in charts:
        assert len(re.findall(r"<path\b[^>]*\bd=\"M", chart)) > 5


def assert_chart_area_shows_a_chart(png: bytes) -> None:
    width, height, _ = png_rows(png)
    assert (width, height) == WINDOW
    colours, drawn = colours_in(png, 200, height)  # below the header and menu: the first chart
    assert colours > 20 and drawn > 0.05, (colours, drawn)


def test_a_written_archive_opened_from_its_files(chromium: str, tmp_path: Path) -> None:
    table = mailroom_game(tmp_path / "data")
    out = tmp_path / "pages"
    write_site(build_site(table.data, "g1", picture=board()), out)
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    assert broken_links(files) == []
    for name in ("index.html", "report-0013.html"):
        page = dom(chromium, (out / name).as_uri(), tmp_path / "profile")
        assert_pictures_drawn(page)
        assert "<pre>" in page
    charts = dom(chromium, (out / "charts.html").as_uri(), tmp_path / "profile")
    assert_charts_drawn(charts)
    png = screenshot(chromium, (out / "charts.html").as_uri(), tmp_path / "profile")
    assert_chart_area_shows_a_chart(png)


def test_the_archive_served_on_the_loopback(chromium: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    imported_game(data)
    base, stop = serving(Archives(data, board()))
    try:
        index = dom(chromium, f"{base}/bank/", tmp_path / "profile")
        assert_pictures_drawn(index)
        assert "THE GAME IS OVER" in index and "over (bank)" in index
        charts = dom(chromium, f"{base}/bank/charts.html", tmp_path / "profile")
        assert_charts_drawn(charts)
        assert_chart_area_shows_a_chart(screenshot(chromium, f"{base}/bank/charts.html", tmp_path / "profile"))
        seen: set[str] = set()
        todo = [f"{base}/"]
        while todo:  # every link from the list of games on: each answers 200
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            with urllib.request.urlopen(url, timeout=60) as response:
                assert response.status == 200, url
                body = response.read()
            if response.headers["Content-Type"].startswith("text/html"):
                for target in links_of(body.decode()).targets:
                    absolute = urljoin(url, target).partition("#")[0]
                    assert urlsplit(absolute).netloc == urlsplit(base).netloc, target
                    todo.append(absolute)
        assert {f"{base}/bank/log.html", f"{base}/bank/charts.html", f"{base}/bank/reports.html"} <= seen
    finally:
        stop()
