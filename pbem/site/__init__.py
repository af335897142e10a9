"""A game's archive to browse (issue 23): static pages a GM can publish anywhere
(``pbem archive GAME --html DIR``), or served read-only by ``pbem web``.

:mod:`.history` replays a game's log once for the boards and the charts, :mod:`.public` makes
the public copy of its reports and log, :mod:`.charts` draws the charts, :mod:`.pages` writes
the HTML, :mod:`.build` puts a game's archive together and :mod:`.web` serves the archives.
"""
