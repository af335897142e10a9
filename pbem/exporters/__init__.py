"""Writers of our games in other programs' formats (the inverse of :mod:`pbem.importers`)."""
