"""The order reference: the HELP text, generated from the HELP entries of the codecs of the
game's title (:mod:`pbem.order_codecs`: syntax, meaning, example), and what a tile's
rotation number means (issue: HELP lists only the orders of the game's own title, and shows
with a small hex which edge each rotation number means). :mod:`pbem.orders` reads and
writes the orders themselves.
"""

from __future__ import annotations

import textwrap

from pbem.engine.title import TitleData
from pbem.order_codecs import OrderCodec, effective, every_codec, title_codecs


def reference_codecs(title: TitleData | None = None) -> tuple[OrderCodec, ...]:
    """The codecs the reference of ``title`` lists, in order: the core's it has, then its own
    (:func:`~pbem.order_codecs.title_codecs`), one per keyword; without ``title``, every
    title's (:func:`~pbem.order_codecs.every_codec`)."""
    return effective(title_codecs(title) if title is not None else every_codec())


def title_orders(title: TitleData) -> tuple[str, ...]:
    """The order keywords of ``title`` (issue: an 1830 game lists no REDEEM, CONNECT, HALF
    or DESTINATION), in the order of its codecs, aliases not included."""
    return tuple(c.word for c in reference_codecs(title))


ROTATION_PICTURES: dict[str, tuple[str, ...]] = {
    "pointy": (
        "          2 /\\ 3          edges: 0 SW, 1 W, 2 NW,",
        "           /  \\                   3 NE, 4 E, 5 SE",
        "        1 |    | 4",
        "           \\  /",
        "          0 \\/ 5",
    ),
    "flat": (
        "             3             edges: 0 S, 1 SW, 2 NW,",
        "           ____                   3 N, 4 NE, 5 SE",
        "        2 /    \\ 4",
        "        1 \\____/ 5",
        "             0",
    ),
}
"""Layout -> a small ASCII hex with its edge numbers (the numbering of
:data:`pbem.engine.board.EDGE_DELTAS`: edge 0 at the bottom, counting clockwise)."""


ROTATION_SAMPLE = "LAY H10 57 0"
"""The lay the rotation help shows as a line of the report's list of lays, written with the
core's hex and tile as the examples of the codecs are; a title's ``help_examples`` may give
one of its own (game.yaml: ``"LAY H10 57 0": "LAY B9 57 0"``), of a tile that a half turn
leaves as it was (as #57): the help shows the lay listed at its rotation and at three more."""


def rotation_help(layout: str, sample: str = ROTATION_SAMPLE) -> list[str]:
    """What a rotation number means on a map of ``layout`` (``"pointy"`` or ``"flat"``), with
    a small hex whose edges are numbered: rotation r turns the tile as drawn (rotation 0) r
    sixths of a turn clockwise, so the tile's edge e lands on the hex's edge (e + r) mod 6
    (:meth:`pbem.engine.board.TileData.rotate_endpoint`); ``sample`` (``LAY <hex> <tile>
    <rotation>``, :data:`ROTATION_SAMPLE`) is the lay shown as the report lists it."""
    _, coord, tile, turn = sample.split()
    first, second = int(turn), (int(turn) + 3) % 6
    listing = (f"The report lists, for the corporation about to lay track, every hex it may lay on "
               f"with the tiles and rotations that fit ({coord}: {tile} r{first} r{second} = "
               f"LAY {coord} {tile} {first} or LAY {coord} {tile} {second}).")
    return [
        "Rotations (LAY <hex> <tile> <rotation>; r3 and 3 are the same):",
        "  rotation 0 is the tile as the tile manifest (send TILES) describes it; each",
        "  step turns it one edge clockwise, so the tile's edge e goes on the hex's",
        "  edge (e + rotation) mod 6. The edges of a hex:",
        *("  " + line for line in ROTATION_PICTURES[layout]),
        *textwrap.wrap(listing, width=78, initial_indent="  ", subsequent_indent="  "),
    ]


def help_text(*, include_gm: bool = False, title: TitleData | None = None) -> str:
    """The order reference, generated from the codecs' HELP entries (the GM's rulings too
    with ``include_gm``). With ``title``, only that title's orders (:func:`reference_codecs`;
    issue: an 1830 game lists no REDEEM, CONNECT, HALF or DESTINATION; an entry's
    :attr:`~pbem.order_codecs.HelpEntry.listed` may leave it out), its examples as the title's
    ``help_examples`` (game.yaml: the core's example -> one naming the title's own companies)
    give them, without the entries its ``help_omit`` names, what a rotation means on its map
    (its sample lay, :data:`ROTATION_SAMPLE`, given by ``help_examples`` too) and its own
    notes (``help_notes``, :func:`notes_help`); without it (for callers that know no title),
    every title's orders."""
    lines = ["Orders (one per line, any case):"]
    examples = dict(title.settings.help_examples) if title is not None else {}
    omitted = set(title.settings.help_omit) if title is not None else set()
    for codec in reference_codecs(title):
        if codec.gm_only and not include_gm:
            continue
        alias = f"  (also {', '.join(codec.aliases)})" if codec.aliases else ""
        for entry in codec.help:
            if title is not None and entry.listed is not None and not entry.listed(title):
                continue
            if entry.syntax in omitted:
                continue
            lines.append(f"  {entry.syntax}{alias}")
            lines += textwrap.wrap(entry.meaning, width=78, initial_indent="      ", subsequent_indent="      ")
            lines.append(f"      e.g. {examples.get(entry.example, entry.example)}")
    if title is not None:
        sample = examples.get(ROTATION_SAMPLE, ROTATION_SAMPLE)
        lines += ["", *rotation_help(title.board.layout, sample), *notes_help(title)]
    return _spelt(title, "\n".join(lines))


def notes_help(title: TitleData) -> list[str]:
    """HELP's lines for the title's own notes (game.yaml ``help_notes``, heading -> text, the
    variants' notes merged in), under "Rules of this game:", each heading indented two and
    its text wrapped at 78 characters indented six, paragraphs (parted by a blank line) kept
    apart; no lines when there are none."""
    notes: dict[str, str] = dict(title.settings.help_notes)
    if not notes:
        return []
    lines = ["", "Rules of this game:"]
    for heading, text in notes.items():
        lines.append(f"  {heading}")
        for number, paragraph in enumerate(p for p in text.split("\n\n") if p.strip()):
            if number:
                lines.append("")
            lines += textwrap.wrap(" ".join(paragraph.split()), width=78,
                                   initial_indent="      ", subsequent_indent="      ")
    return lines


def _spelt(title: TitleData | None, text: str) -> str:
    """``text`` with the characters the title's ASCII reports spell otherwise spelt so
    (game.yaml ``terms.ascii``: 1825's ``£`` is ``L``), so HELP names money as the reports do
    and no ASCII rendering turns a pound sign into ``?``."""
    spelling = title.settings.terms.ascii if title is not None else {}
    for written, spelt in spelling.items():
        text = text.replace(str(written), str(spelt))
    return text
