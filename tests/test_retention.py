"""Raw copies of strangers' refused mail are kept once and pruned after the retention the
config sets (issue 22: reliability); the mail of players and the GM is kept for good."""

from __future__ import annotations

from pathlib import Path

from tests.test_mailroom import Table, build_mail, handled_lines

DAY = 86400.0


def test_a_strangers_refused_mail_is_pruned_after_the_retention_and_a_players_kept(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", stranger_mail_retention_days=7)
    assert table.send(build_mail("someone@else.example", "spam spam\n", subject="[g1] hi", mid="<s1@e.x>"))[0] \
        == "rejected"
    assert table.order("Player 1", "BID CA 165")[0] == "processed"
    assert table.order("Player 2", "BID CA 1")[0] == "rejected"   # a player's refused order: kept
    received = table.data / "received"
    assert len(list(received.glob("*.eml"))) == 3
    table.clock.t += 6 * DAY
    assert table.room.prune_received() == []
    table.clock.t += 2 * DAY
    [pruned] = table.room.prune_received()
    stranger = next(e for e in handled_lines(table.data) if e["sender"] == "someone@else.example")
    assert pruned.name == f"{stranger['sha256']}.eml" and not pruned.exists()
    assert len(list(received.glob("*.eml"))) == 2
    outcome, _ = table.send(build_mail("someone@else.example", "spam spam\n", subject="[g1] hi", mid="<s1@e.x>"))
    assert outcome == "rejected", "a redelivery is still known as the same mail (by its digest)"
    assert len(list(received.glob("*.eml"))) == 2, "and not kept again"
