"""Time to draw the board as a picture (SVG, then PNG at the mail's width) late in a game.

Replays the longest recorded 1870 game (most actions) and the recorded 1830 and 1825 games
to their ends, then draws each board 5 times and prints the median SVG time, the median PNG
time and the PNG's size:

    python benchmarks/render_picture.py [FIXTURES]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

from pbem.engine.game import Game
from pbem.importers.e18xx import Renderer, effective_actions, load_record
from pbem.picture.board_svg import board_svg
from pbem.picture.raster import MAIL_WIDTH, svg_to_png

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"
RUNS = 5


def replayed(path: Path) -> Game:
    """The game of the record at ``path`` after its last action."""
    record = load_record(path)
    renderer = Renderer(record)
    for action in effective_actions(record):
        ours = renderer.render(action)
        if ours is not None:
            renderer.game.apply(renderer.seat(action), ours)
    return renderer.game


def longest(folder: Path) -> Path:
    """The record in ``folder`` with the most actions."""
    return max(sorted(folder.glob("*.json")), key=lambda p: len(json.loads(p.read_text(encoding="utf-8"))["actions"]))


def measure(name: str, game: Game) -> None:
    """Prints the median wall-clock (and processor) time of the SVG and of the PNG, and the
    PNG's size (the processor time shows the cost on a machine others share)."""
    svg_times, png_times, svg_cpu, png_cpu = [], [], [], []
    png = b""
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), time.process_time()
        svg = board_svg(game)
        middle, middle_cpu = time.perf_counter(), time.process_time()
        png = svg_to_png(svg, width=MAIL_WIDTH)
        svg_times.append(middle - start)
        png_times.append(time.perf_counter() - middle)
        svg_cpu.append(middle_cpu - start_cpu)
        png_cpu.append(time.process_time() - middle_cpu)

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:.0f}"

    print(f"{name}: SVG {ms(svg_times)} ms (cpu {ms(svg_cpu)}, {len(svg) // 1024} KB), "
          f"PNG {ms(png_times)} ms (cpu {ms(png_cpu)}), {len(png) // 1024} KB at {MAIL_WIDTH} px")


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PBEM_FIXTURES", str(DEFAULT))) / "18xx.games"
    for name, path in (("1870 " + longest(root / "1870").stem, longest(root / "1870")),
                       ("1830 1830_game_end_bank", root / "1830" / "1830_game_end_bank.json"),
                       ("1825 1825_game_end_bank", root / "1825" / "1825_game_end_bank.json")):
        measure(name, replayed(path))


if __name__ == "__main__":
    main()
