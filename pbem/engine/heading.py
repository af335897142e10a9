"""Several trains run as one route (double-heading, 1825).

Where the title's data has ``double_heading`` (``game.yaml``; see
:class:`pbem.ruleset.schema.DoubleHeading`) a corporation may run up to ``most`` of its
trains together on one route: the route may have as many stops as the sum of their lengths
(or the length the data gives that combination, e.g. 1825's two 2-trains as one 3-train:
``lengths: {"2+2": 3}``), and its revenue is counted once. Each train runs at most once, so
a train that heads another runs no route of its own. Without the key every train runs alone
(1830).

The order is ``RUN 2+2: A-B-C`` (:mod:`pbem.core_codecs`, offered only to such a title); the
action is a :class:`~pbem.engine.actions.TrainRun` with ``joined``; the check is
:func:`pbem.engine.track.check_runs`, which asks :func:`run_length` and
:func:`heading_problem`.

Source: the issue's requirement ("two trains run as one (double-heading)").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import trains
from pbem.engine.settings import HeadingRule

if TYPE_CHECKING:
    from pbem.engine.ids import TrainId
    from pbem.engine.title import TitleData


def heading_rule(title: TitleData) -> HeadingRule | None:
    """The title's :class:`~pbem.engine.settings.HeadingRule` (its setting ``double_heading``),
    or None (every train runs alone)."""
    return title.settings.double_heading


def allows(title: TitleData) -> bool:
    """Whether ``title`` lets trains run as one (its data has ``double_heading``)."""
    return heading_rule(title) is not None


def run_length(title: TitleData, train_ids: tuple[TrainId, ...]) -> int:
    """The most stops a route run by ``train_ids`` together may have: one train's length;
    for several, the title's length for that combination, else the sum of their lengths."""
    if len(train_ids) == 1:
        return trains.train_data(title, train_ids[0]).distance
    rule = heading_rule(title)
    name = "+".join(t.kind for t in train_ids)
    if rule is not None and name in rule.lengths:
        return rule.lengths[name]
    return sum(trains.train_data(title, t).distance for t in train_ids)


def heading_problem(title: TitleData, train_ids: tuple[TrainId, ...]) -> str | None:
    """Why ``train_ids`` may not run together as one route, or None (one train always may):
    the title has no double-heading, or more trains than it allows."""
    if len(train_ids) <= 1:
        return None
    rule = heading_rule(title)
    name = "+".join(t.kind for t in train_ids)
    if rule is None:
        return f"trains may not run as one in {title.name} ({name})"
    if len(train_ids) > rule.most:
        return f"at most {rule.most} trains may run as one, not {len(train_ids)} ({name})"
    return None
