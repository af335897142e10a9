"""The board as a picture (issue 23): where hexes sit and which side is which, shared with
the ASCII map (:mod:`.geometry`); one tile's drawing and a tile sheet (:mod:`.tile_svg`);
the whole board as SVG (:mod:`.board_svg`, with :mod:`.legend`, :mod:`.marks` and
:mod:`.colors`); SVG to PNG (:mod:`.raster`)."""
