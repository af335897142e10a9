"""Standing and conditional orders by mail (issue 21): each player sends the plan for their later
turns of the round (``NEXT`` lines), and the server applies each entry when that player's turn
comes, in the order written, its conditions read on the game as it is then. A four-player
stock round of 1830 with every plan sent up front finishes without another mail."""

from __future__ import annotations

import pytest

from pbem.application.plans import Condition, Entry, holds, parse_entry
from pbem.application.mail import handle_mail
from pbem.application.state import replay
from pbem.engine.actions import Bid, BuyShares, Par, Pass
from pbem.engine.state import Owner
from pbem.errors import OrderSyntaxError
from pbem.log_records import OrderRecord, PlanRecord, parse_record
from pbem.orders import Vocabulary
from pbem.ruleset import load_title
from tests.mail_table import Table

ANN, BOB, CAT, DAN = "Ann", "Bob", "Cat", "Dan"
AUCTION = [(ANN, "BUY SV"), (BOB, "BUY CS"), (CAT, "BUY DH"), (DAN, "BUY MH"), (ANN, "BUY CA"), (BOB, "BUY BO"),
           (BOB, "PAR B&O 100")]
VOCAB = Vocabulary.from_title(load_title("1830"))


def stock_round_one() -> Table:
    """1830 for four, the privates sold by mail and the B&O started: SR 1, Cat to act."""
    table = Table("plans", "1830", (), [ANN, BOB, CAT, DAN])
    table.play(AUCTION)
    assert table.state.game.round_label() == "SR 1" and table.state.game.current_actors() == [CAT]
    return table


def test_an_entry_reads_and_writes_back_as_itself() -> None:
    for text in ("BUY PRR IF PRICE PRR <= 90 ELSE PASS", "PASS UNTIL SALE", "PAR NYC 100",
                 "BUY B&O IF UNSOLD B&O AND NOT B&O FLOATED AND CASH >= 100", "SELL PRR IF POOL PRR ELSE PASS",
                 "BUY NYC IF CERTS < 12 AND NYC STARTED"):
        assert parse_entry(text, VOCAB).text(VOCAB) == text
    assert parse_entry("buy prr if price prr <= 90 else pass", VOCAB) == Entry(
        BuyShares("PRR"), (Condition("PRICE", "PRR", "<=", 90),), Pass())
    for bad in ("BUY PRR IF PRICE XYZ < 3", "BUY PRR IF LUCKY", "PASS UNTIL DAWN", "BUY PRR IF PRICE PRR ~ 90"):
        with pytest.raises(OrderSyntaxError):
            parse_entry(bad, VOCAB)


def test_conditions_read_what_every_player_sees() -> None:
    game = stock_round_one().state.game
    never_sold = lambda corp: False  # noqa: E731
    assert holds(Condition("PRICE", "B&O", "=", 100), game, ANN, never_sold)
    assert not holds(Condition("PRICE", "PRR", "<=", 90), game, ANN, never_sold), "PRR has no price yet"
    assert holds(Condition("CASH", "", ">=", 420), game, ANN, never_sold)
    assert not holds(Condition("CASH", "", ">", 420), game, ANN, never_sold)
    assert holds(Condition("STARTED", "B&O"), game, ANN, never_sold)
    assert holds(Condition("FLOATED", "B&O", negated=True), game, ANN, never_sold)
    assert not holds(Condition("POOL", "B&O"), game, ANN, never_sold)
    assert holds(Condition("UNSOLD", "B&O"), game, ANN, never_sold)
    assert not holds(Condition("UNSOLD", "B&O"), game, ANN, lambda corp: corp == "B&O")
    assert holds(Condition("CERTS", "", "=", 3), game, ANN, never_sold), "SV, CA and the PRR share CA brings"


def test_a_stock_round_with_every_plan_sent_up_front_needs_no_other_mail() -> None:
    table = stock_round_one()
    before = len(table.records)
    table.send(ANN, "NEXT BUY PRR IF PRR STARTED ELSE PASS", "NEXT BUY B&O IF UNSOLD B&O", "NEXT PASS UNTIL END")
    table.send(BOB, "NEXT BUY B&O", "NEXT PASS UNTIL END")
    table.send(DAN, "NEXT PAR NYC 100", "NEXT BUY NYC IF CASH >= 100 ELSE PASS", "NEXT PASS UNTIL END")
    assert table.state.game.current_actors() == [CAT] and table.state.game.round_label() == "SR 1"
    assert [type(r) for r in table.records[before:]] == [PlanRecord] * 3, "nobody's turn came: nothing applied"
    ann, bob = " ".join(table.reports[-3].split()), " ".join(table.reports[-2].split())
    assert "Your standing orders (CANCEL drops them): 1. BUY PRR IF PRR STARTED ELSE PASS;" in ann
    assert "Ann: sends standing orders for 3 turns" in bob and "BUY PRR IF" not in bob, "shown to the sender only"

    table.send(CAT, "PAR PRR 67", "NEXT BUY PRR IF PRICE PRR <= 70 ELSE PASS", "NEXT PASS UNTIL END")
    game = table.state.game
    assert game.round_label() != "SR 1", "the round ran to its end on the plans"
    orders = [(r.actor, r.action_in(VOCAB.action_types)) for r in table.records[before:] if isinstance(r, OrderRecord)]
    assert orders[:9] == [
        (CAT, Par("PRR", 67)), (DAN, Par("NYC", 100)), (ANN, BuyShares("PRR")), (BOB, BuyShares("B&O")),
        (CAT, BuyShares("PRR")),                 # 67 <= 70
        (DAN, BuyShares("NYC")),                 # Dan has 290 >= 100
        (ANN, BuyShares("B&O")),                 # nobody sold the B&O
        (BOB, Pass()), (CAT, Pass())]
    held = game.state.percent_of(Owner.player(ANN), "PRR"), game.state.percent_of(Owner.player(ANN), "B&O")
    assert held == (20, 10), "the PRR share the CA brought, and one bought"
    assert "Ann: BUY PRR (a standing order)" in table.reports[-1]
    assert len(table.reports) == len(AUCTION) + 4, "four mails for the whole stock round"
    again = replay(table.records)
    assert again.game.state.players == game.state.players and again.plans == table.state.plans


def test_a_refused_entry_cancels_the_rest_and_a_failed_condition_leaves_the_turn() -> None:
    table = stock_round_one()
    table.send(DAN, "NEXT PAR NYC 100", "NEXT PAR B&O 100", "NEXT PASS UNTIL END")
    table.send(ANN, "NEXT BUY PRR IF PRICE PRR <= 60", "NEXT PASS")
    table.send(CAT, "PAR PRR 67")
    game = table.state.game
    assert game.state.corporations["NYC"].president == DAN
    used = [r for r in table.records if isinstance(r, PlanRecord) and r.status == "used"]
    assert [(r.seat, r.outcome) for r in used] == [(DAN, "applied"), (ANN, "left")]
    assert game.current_actors() == [ANN], "PRR at 67: the condition fails, no ELSE: Ann's own turn"
    assert "standing order 1: its conditions fail and it has no ELSE" in " ".join(table.reports[-1].split())
    table.send(ANN, "BUY PRR")                  # Ann's own; her next entry waits for her next turn
    table.send(BOB, "PASS")
    table.send(CAT, "PASS")
    used = [r for r in table.records if isinstance(r, PlanRecord) and r.status == "used"]
    assert (DAN, "refused") in [(r.seat, r.outcome) for r in used], "the B&O has started already"
    assert DAN not in table.state.plans and table.state.game.current_actors() == [DAN]
    assert "standing order 2 refused" in " ".join(table.reports[-1].split())


def test_cancel_drops_the_plan_and_the_gm_has_none() -> None:
    table = stock_round_one()
    table.send(ANN, "NEXT PASS UNTIL END")
    assert ANN in table.state.plans
    table.send(ANN, "CANCEL")
    assert ANN not in table.state.plans
    assert "you have no standing orders" in table.refused(ANN, "CANCEL")
    record = PlanRecord(seq=9, actor=ANN, status="used", seat=ANN, index=1, outcome="refused", note="why")
    assert parse_record(record.to_dict()) == record


def test_a_proxy_bid_raises_by_the_least_step_when_outbid_up_to_its_limit() -> None:
    table = Table("proxy", "1830", (), [ANN, BOB, CAT])
    table.send(ANN, "BID CA UP TO 200")                 # Ann bids the least now: 165
    assert table.state.proxies == {ANN: {"CA": 200}}
    assert "Your proxy bids (yours alone to see): CA up to $200" in " ".join(table.reports[-1].split())
    table.send(BOB, "BID CA 170")
    assert "CA up to" not in table.reports[-1], "the limit is Ann's alone"
    table.play([(CAT, "BUY SV"), (ANN, "BUY CS"), (BOB, "BUY DH"), (CAT, "BUY MH")])
    # the CA is auctioned: Ann, the lower bidder, is asked first and her proxy answers
    game = table.state.game
    assert game.state.round.auction is not None and game.state.round.auction.auctioning == "CA"
    assert game.current_actors() == [BOB], "Ann's proxy raised to 175 at once"
    table.send(BOB, "BID CA 195")
    game = table.state.game
    assert game.current_actors() == [BOB], "200 is Ann's limit: her proxy bid it"
    table.send(BOB, "BID CA 205")
    game = table.state.game
    assert game.state.companies["CA"].owner == Owner.player(BOB), "past the limit Ann's proxy passes"
    assert game.state.players[BOB].cash == 800 - 70 - 205, "DH, and the CA at Bob's last bid"
    bids = [(r.actor, r.action_in(VOCAB.action_types)) for r in table.records if isinstance(r, OrderRecord)
            and r.seq in table.state.proxy_orders]
    assert bids == [(ANN, Bid("CA", 175)), (ANN, Bid("CA", 200)), (ANN, Pass())]
    assert "Ann: BID CA 175 (a proxy bid)" in table.reports[-3], "the mail that made Ann's proxy answer"
    assert "Ann: PASS (a proxy bid)" in table.reports[-1]
    assert replay(table.records).game.state.companies["CA"].owner == Owner.player(BOB)


def test_a_proxy_below_the_least_bid_or_not_in_an_auction_is_refused() -> None:
    table = Table("proxy", "1830", (), [ANN, BOB, CAT])
    assert "above your limit of $150" in table.refused(ANN, "BID CA UP TO 150")
    table.play([(ANN, "BUY SV"), (BOB, "BUY CS"), (CAT, "BUY DH"), (ANN, "BUY MH"), (BOB, "BUY CA"),
                (CAT, "BUY BO"), (CAT, "PAR B&O 100")])
    assert table.state.game.round_label() == "SR 1"
    first = table.state.game.current_actors()[0]
    assert "not for sale in an auction now" in table.refused(first, "BID BO UP TO 300")


def test_a_corporations_standing_orders_play_its_turns_as_they_come() -> None:
    """1830_game_end_bank before a run (action 440 on): the president leaves AUTO for the
    corporation running; its run, PAYOUT (or WITHHOLD) and no optional train follow at once."""
    from pbem.application.state import GameInfo, Replay, Seat
    from pbem.engine.actions import Dividend, RunRoutes
    from pbem.engine.steps import operating
    from pbem.importers.e18xx import effective_actions, load_record
    from pbem.log_records import AutoRecord
    from tests.records import record_path, replayed_before
    from tests.test_deals import GID, address, mail, secret

    from pbem.games import hash_secret

    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    run_id = next(a["id"] for a in effective_actions(record) if a["type"] == "run_routes" and float(a["id"]) >= 440)
    for dividend, choice in (("", "payout"), (" WITHHOLD", "withhold")):
        game = replayed_before("1830", "1830_game_end_bank.json", run_id).game
        corp = operating.current_corp(game)
        president = game.current_actors()[0]
        seats = [Seat(name, address(name), hash_secret(GID, secret(name))) for name in game.state.seats]
        state = Replay(GameInfo(GID, "1830", (), seats, "gm@example.org", hash_secret(GID, "gmpw")), game.title, game)
        other = next(s for s in game.state.seats if s != president)
        assert "only the president" in mail(state, other, f"AUTO {corp}").refusal.reason  # type: ignore[union-attr]
        decision = mail(state, president, f"AUTO {corp}{dividend}")
        assert decision.refusal is None
        first, *rest = decision.records
        assert isinstance(first, AutoRecord) and (first.corporation, first.dividend) == (corp, choice)
        given = [r.action_in(VOCAB.action_types) for r in rest if isinstance(r, OrderRecord)]
        assert [type(a) for a in given] == [RunRoutes, Dividend, Pass], "its run, the dividend, no train"
        assert given[1] == Dividend(choice)
        assert [r.status for r in rest if isinstance(r, AutoRecord)] == ["used"] * 3
        assert decision.state.game.operating_corporation() != corp, "the turn is over"
        assert decision.state.autos == {corp: (president, choice)}
        assert len(decision.state.auto_orders) == 3


def test_an_if_or_else_with_nothing_after_it_is_refused_and_conditions_take_any_name_of_a_corporation() -> None:
    for bad in ("BUY PRR IF", "BUY PRR ELSE", "BUY PRR IF PRICE PRR < 90 ELSE"):
        with pytest.raises(OrderSyntaxError, match="NEXT <order>"):
            parse_entry(bad, VOCAB)
    named = parse_entry("BUY ERIE IF PRICE ERI <= 90", VOCAB)
    assert named.conditions == (Condition("PRICE", "ERIE", "<=", 90),), "ERI reads as in BUY ERI"


def test_a_turn_left_to_the_player_stays_theirs_until_another_player_acts() -> None:
    table = stock_round_one()
    table.send(CAT, "PAR PRR 67")
    table.send(DAN, "NEXT BUY PRR IF PRICE PRR < 1", "NEXT PASS UNTIL END")
    assert table.state.game.current_actors() == [DAN] and DAN in table.state.plans
    table.send(DAN, "BUY PRR")                  # Dan's own order in the turn his plan left him
    assert table.state.game.current_actors() != [DAN]
    actions = [r.action_in(VOCAB.action_types) for r in table.records if isinstance(r, OrderRecord)]
    assert actions[-1] == BuyShares("PRR"), "the plan's PASS waited for Dan's next turn"


def test_takeback_and_the_gms_undo_are_not_undone_by_standing_orders() -> None:
    table = stock_round_one()
    table.send(DAN, "NEXT PAR NYC 100", "NEXT PASS UNTIL END")
    table.send(CAT, "PAR PRR 67")               # Dan's plan starts the NYC at once
    assert table.state.game.state.corporations["NYC"].president == DAN
    table.send(DAN, "TAKEBACK")
    game = table.state.game
    assert game.current_actors() == [DAN] and game.state.corporations["NYC"].president is None
    assert DAN not in table.state.plans, "taking a turn back takes it out of the plan's hands"
    assert "you have no standing orders or proxy bids" in table.refused(DAN, "CANCEL")


def test_the_gms_undo_gives_back_the_standing_orders_it_takes_back() -> None:
    table = stock_round_one()
    table.send(DAN, "NEXT PAR NYC 100", "NEXT PASS UNTIL END")
    table.send(CAT, "PAR PRR 67")               # Dan's plan starts the NYC at once
    started = next(r for r in reversed(table.records) if isinstance(r, OrderRecord) and r.actor == DAN)
    assert table.state.plans[DAN].next == 1
    decision = handle_mail(table.state, table.submission_as_gm(f"UNDO {started.seq}"), table.config)
    assert decision.refusal is None
    table.records += list(decision.records)
    table.state = decision.state
    assert table.state.game.state.corporations["NYC"].president is None
    assert table.state.plans[DAN].next == 0, "the entry the undone order used is Dan's again"
    assert replay(table.records).plans == table.state.plans, "the log replays to the same plans"
    table.send(ANN, "REPORT")                   # the next mail: Dan's plan plays his turn again
    assert table.state.game.state.corporations["NYC"].president == DAN


def test_cancel_drops_proxy_bids_and_the_gms_undo_of_a_proxy_bid_stands() -> None:
    table = Table("proxy", "1830", (), [ANN, BOB, CAT])
    table.send(ANN, "BID CA UP TO 200")
    table.send(BOB, "BID CA 170")
    table.play([(CAT, "BUY SV"), (ANN, "BUY CS"), (BOB, "BUY DH"), (CAT, "BUY MH")])
    proxy_bid = table.records[-1]
    assert isinstance(proxy_bid, OrderRecord) and proxy_bid.seq in table.state.proxy_orders
    decision = handle_mail(table.state, table.submission_as_gm(f"UNDO {proxy_bid.seq}"), table.config)
    assert decision.refusal is None and not any(r.seq in decision.state.proxy_orders for r in decision.records
                                                if isinstance(r, OrderRecord)), "not bid again at once"
    table.records += list(decision.records)
    table.state = decision.state
    assert table.state.game.current_actors() == [ANN]
    table.send(ANN, "CANCEL")
    assert ANN not in table.state.proxies or not table.state.proxies[ANN]
    table.send(ANN, "PASS")
    assert table.state.game.state.companies["CA"].owner == Owner.player(BOB)


def test_programmed_passes_leave_the_operating_round_to_the_president() -> None:
    """1830_game_end_bank before a run (action 440 on): a president's PASS UNTIL SR sends
    nothing in the operating round; the president runs the trains."""
    from pbem.application.state import GameInfo, Replay, Seat
    from pbem.engine.steps import operating
    from pbem.games import hash_secret
    from pbem.importers.e18xx import effective_actions, load_record
    from tests.records import record_path, replayed_before
    from tests.test_deals import GID, address, mail, secret

    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    run_id = next(a["id"] for a in effective_actions(record) if a["type"] == "run_routes" and float(a["id"]) >= 440)
    game = replayed_before("1830", "1830_game_end_bank.json", run_id).game
    president = game.current_actors()[0]
    seats = [Seat(name, address(name), hash_secret(GID, secret(name))) for name in game.state.seats]
    state = Replay(GameInfo(GID, "1830", (), seats, "gm@example.org", hash_secret(GID, "gmpw")), game.title, game)
    decision = mail(state, president, "NEXT PASS UNTIL SR")
    assert decision.refusal is None and [type(r) for r in decision.records] == [PlanRecord]
    assert decision.state.game.current_actors() == [president]
    assert operating.active_steps(decision.state.game)[0] is operating.Route
