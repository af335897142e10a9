"""1825 (Francis Tresham; Hartland Trefoil): the title plugin. Its data is ``rules/1825/``:
the common documents, one variant file per option (units, regional and extension kits, Dave
Berry's variants, Kevin Lorenz's private companies) and the facts of each unit and kit in
``parts/``, which :class:`~pbem.titles.g1825.hooks.Composer1825` puts together for the
options of a game.
"""

from pbem.titles.g1825.hooks import HOOKS, Composer1825
from pbem.titles.g1825.presentation import Presentation1825

COMPOSER = Composer1825
PRESENTATION = Presentation1825

__all__ = ["COMPOSER", "HOOKS", "PRESENTATION", "Composer1825", "Presentation1825"]
