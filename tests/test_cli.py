"""The ``pbem`` command, driven with click's CliRunner over a temporary config and data dir."""

from __future__ import annotations

import email
import email.policy
import json
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.transport.maildir import deliver_to_inbox

SERVER = "pbem@pbem.example"
GID = "g1"
SEATS = {"Player 1": "p1@players.example", "Player 2": "p2@players.example", "Player 3": "p3@players.example"}
GM = "gm@players.example"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


class Setup:
    """A config file in ``tmp_path`` whose data dir is ``tmp_path/data`` (given relative)."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path
        self.data = tmp_path / "data"
        self.config = tmp_path / "pbem.yaml"
        self.config.write_text(f"server:\n  address: {SERVER}\n  id: pbem-cli-test\ndata_dir: data\n"
                               "reports:\n  pictures: false\n")  # drawing each board: half a second
        self.n = 0

    def pbem(self, command: str, *args: str) -> Result:
        return run(command, "--config", str(self.config), *args)

    @property
    def log_path(self) -> Path:
        return self.data / "games" / GID / "log.jsonl"

    def folder(self, address: str) -> Path:
        return self.data / "mail" / "delivered" / address

    def mails_to(self, address: str) -> list[EmailMessage]:
        """Every mail delivered to ``address``'s Maildir."""
        paths = sorted((self.folder(address) / "new").iterdir())
        return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in paths]  # type: ignore[misc]

    def new_game(self) -> tuple[Result, dict[str, str]]:
        """``pbem new-game``; returns the result and the secrets read from the welcome mails."""
        seat_args = [a for name, address in SEATS.items() for a in ("--seat", f"{name}={address}")]
        result = self.pbem("new-game", GID, "--title", "1830", *seat_args, "--gm", GM)
        secrets = {}
        for name, address in SEATS.items():
            (welcome,) = [m for m in self.mails_to(address) if "Welcome" in str(m["Subject"])]
            match = re.search(r"Your secret: (\S+)", text(welcome))
            assert match, text(welcome)
            secrets[name] = match.group(1)
        gm = re.search(r"GM secret: (\S+)", result.output)
        assert gm
        secrets["GM"] = gm.group(1)
        return result, secrets

    def order_mail(self, seat: str, secret: str, *lines: str) -> bytes:
        self.n += 1
        msg = EmailMessage()
        msg["From"] = SEATS.get(seat, GM)
        msg["To"] = SERVER
        msg["Subject"] = f"[{GID}] orders"
        msg["Message-ID"] = f"<cli{self.n}@players.example>"
        msg.set_content(f"PASSWORD {secret}\n" + "\n".join(lines) + "\n")
        return msg.as_bytes()

    def deliver(self, raw: bytes) -> None:
        deliver_to_inbox(self.data / "mail" / "inbox", raw)


def text(msg: EmailMessage) -> str:
    return str(msg.get_content()).replace("\r\n", "\n")


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


@pytest.fixture
def played(setup: Setup) -> Setup:
    """A game with three bids, played through ``pbem serve --once``."""
    _, secrets = setup.new_game()
    for seat, bid in (("Player 1", "BID CA 165"), ("Player 2", "bid ca 170"), ("Player 3", "BID CA 175")):
        setup.deliver(setup.order_mail(seat, secrets[seat], bid))
    result = setup.pbem("serve", "--once")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["outcomes"] == {"processed": 3}
    return setup


def test_new_game_prints_the_gm_secret_and_mails_the_welcomes(setup: Setup) -> None:
    result, secrets = setup.new_game()
    assert result.exit_code == 0, result.output
    assert f"Created {GID} (1830); welcome mails queued for 3 players." in result.output
    assert re.search(r"^GM secret: [a-z2-9]{10}$", result.output, re.M)
    assert "Mail sent: 4; waiting: 0; failed: 0" in result.output
    for name, address in SEATS.items():
        (welcome,) = setup.mails_to(address)
        assert str(welcome["To"]) == address
        assert str(welcome["Subject"]) == f"[{GID}] Welcome to {GID}"
        assert f"You play the seat: {name}" in text(welcome)
        assert re.fullmatch(r"[a-z2-9]{8}", secrets[name])
    (gm_welcome,) = setup.mails_to(GM)
    assert secrets["GM"] in text(gm_welcome)
    assert len(set(secrets.values())) == 4
    records = [json.loads(line) for line in setup.log_path.read_text().splitlines()]
    assert [s["name"] for s in records[0]["data"]["seats"]] == list(SEATS)
    assert records[0]["data"]["gm"]["email"] == GM


def test_new_game_refuses_bad_input(setup: Setup) -> None:
    setup.new_game()
    again = setup.pbem("new-game", GID, "--title", "1830", "--seat", "A=a@x.example", "--seat", "B=b@x.example",
                       "--seat", "C=c@x.example", "--gm", GM)
    assert again.exit_code != 0 and f"game {GID} already exists" in again.output
    too_few = setup.pbem("new-game", "g2", "--title", "1830", "--seat", "A=a@x.example", "--gm", GM)
    assert too_few.exit_code != 0 and "1830 takes" in too_few.output
    no_email = setup.pbem("new-game", "g3", "--title", "1830", "--seat", "A", "--gm", GM)
    assert no_email.exit_code != 0 and "NAME=EMAIL" in no_email.output
    assert not (setup.data / "games" / "g2").exists()


def test_serve_once_plays_the_inbox(setup: Setup) -> None:
    _, secrets = setup.new_game()
    setup.deliver(setup.order_mail("Player 1", secrets["Player 1"], "BID CA 165"))
    setup.deliver(setup.order_mail("Player 2", "wrong-secret", "BID CA 170"))
    result = setup.pbem("serve", "--once")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["outcomes"] == {"processed": 1, "rejected": 1}
    # MAIL TURN, the default: the report to Player 2 (to act) and the GM, Player 1's short
    # acceptance, the refusal to the wrong secret's sender; Player 3 waits for their turn
    assert summary["sent"] == 4 and summary["deferred"] == 0
    inbox = setup.data / "mail" / "inbox"
    assert not list((inbox / "new").iterdir())
    assert len(list((inbox / ".Processed" / "new").iterdir())) == 1
    assert len(list((inbox / ".Rejected" / "new").iterdir())) == 1
    def subjects(address: str) -> dict[str, EmailMessage]:
        return {str(m["Subject"]): m for m in setup.mails_to(address)}

    report_subject = f"[{GID}] Turn report 1: Private auction"
    accepted = f"[{GID}] accepted: 1 order"
    assert set(subjects(SEATS["Player 1"])) == {f"[{GID}] Welcome to {GID}", accepted}
    assert text(subjects(SEATS["Player 1"])[accepted]).startswith("Your orders were accepted:\n  BID CA 165\n")
    assert "Next to act: Player 2" in text(subjects(SEATS["Player 1"])[accepted])
    assert "Player 1 bids $165 for CA" in text(subjects(GM)[report_subject])
    assert set(subjects(SEATS["Player 3"])) == {f"[{GID}] Welcome to {GID}"}, "Player 3 waits for their turn"
    reply = subjects(SEATS["Player 2"])[f"Re: [{GID}] orders"]
    assert "The PASSWORD does not match" in text(reply)
    turn = f"[{GID}] YOUR TURN — Private auction (Player 2)"
    assert "Player 1 bids $165 for CA" in text(subjects(SEATS["Player 2"])[turn])
    # a second pass finds nothing to do
    again = setup.pbem("serve", "--once")
    assert json.loads(again.output) == {"outcomes": {}, "sent": 0, "deferred": 0}


def test_report_prints_the_current_report(played: Setup) -> None:
    result = played.pbem("report", GID)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"{GID} -- 1830: Railways and Robber Barons   report 3" in out
    assert "Next to act: Player 1" in out
    # the actions since the report before: Player 3's bid only
    assert "#3    Player 3: BID CA 175" in out
    assert "#2    Player 2" not in out
    assert out == (played.data / "games" / GID / "reports" / "report-0003.txt").read_text()
    missing = played.pbem("report", "nope")
    assert missing.exit_code != 0 and "no game 'nope'" in missing.output and "games: g1" in missing.output
    nobody = played.pbem("report", GID, "--seat", "Nobody")
    assert nobody.exit_code != 0 and "no seat 'Nobody'" in nobody.output and "Player 1" in nobody.output


def test_an_1870_game_with_options_and_auto_runs(setup: Setup) -> None:
    """new-game for 1870 with variants and --auto-runs: the report names the variants, says
    that runs left out are made by the server, and lines up the private companies' long
    names; a variant named twice is refused."""
    seat_args = [a for name, address in SEATS.items() for a in ("--seat", f"{name}={address}")]
    made = setup.pbem("new-game", "g70", "--title", "1870", "--variant", "original_rules", "--variant", "diesels",
                      "--auto-runs", *seat_args, "--gm", GM)
    assert made.exit_code == 0, made.output
    out = setup.pbem("report", "g70").output
    assert "Variants: original_rules, diesels" in out
    assert "Setting: a run left out of the orders is made by the server (RUN AUTO)." in out
    rows = [line for line in out.splitlines() if "  revenue " in line]
    assert len(rows) >= 6 and len({line.index("  revenue ") for line in rows}) == 1, "one column for revenue"
    twice = setup.pbem("new-game", "g71", "--title", "1870", "--variant", "diesels", "--variant", "diesels",
                       *seat_args, "--gm", GM)
    assert twice.exit_code != 0 and "a variant is named twice" in twice.output


def test_log_prints_readable_lines(played: Setup) -> None:
    result = played.pbem("log", GID)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 4
    assert re.match(r"^#0\s+\S+Z\s+GM\s+new game 1830 with Player 1, Player 2, Player 3 \(by gm@players\.example\)$",
                    lines[0])
    for line, (seq, seat, order) in zip(lines[1:], [(1, "Player 1", "BID CA 165"), (2, "Player 2", "BID CA 170"),
                                                     (3, "Player 3", "BID CA 175")]):
        assert re.match(rf"^#{seq}\s+\d{{4}}-\d\d-\d\dT\S+Z\s+{seat}\s+{order} \(by {SEATS[seat]}\)$", line), line


def test_log_shows_gm_records(setup: Setup) -> None:
    _, secrets = setup.new_game()
    setup.deliver(setup.order_mail("GM", secrets["GM"], "ACT AS 1 BID CA 165", "UNDO", "PAUSE"))
    assert json.loads(setup.pbem("serve", "--once").output)["outcomes"] == {"processed": 1}
    lines = setup.pbem("log", GID).output.splitlines()
    assert re.search(rf"Player 1\s+BID CA 165 \(by {GM}\)$", lines[1])
    assert re.search(rf"GM\s+UNDO back to #1 \(by {GM}\)$", lines[2])
    assert re.search(rf"GM\s+GM pause \(by {GM}\)$", lines[3])


def test_verify_accepts_a_good_log(played: Setup) -> None:
    result = played.pbem("verify", GID)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "OK: 4 records, hash chain intact; replayed to Private auction"


def _edit(lines: list[bytes]) -> list[bytes]:
    assert b'"price":170' in lines[2]
    return lines[:2] + [lines[2].replace(b'"price":170', b'"price":171')] + lines[3:]


TAMPERING = {
    "edited": (_edit, "record 2: content does not match its hash (edited)"),
    "last line deleted": (lambda lines: lines[:-1],
                          "the log ends at record 2 but was written up to record 3 (truncated)"),
    "lines swapped": (lambda lines: [lines[0], lines[2], lines[1], lines[3]],
                      "record 1: sequence number is 2 (reordered or removed)"),
    "first line deleted": (lambda lines: lines[1:], "record 0: sequence number is 1 (reordered or removed)"),
}


@pytest.mark.parametrize("case", list(TAMPERING))
def test_verify_fails_on_a_tampered_log(played: Setup, case: str) -> None:
    change, message = TAMPERING[case]
    lines = played.log_path.read_bytes().splitlines(keepends=True)
    assert len(lines) == 4
    played.log_path.write_bytes(b"".join(change(lines)))
    result = played.pbem("verify", GID)
    assert result.exit_code == 1
    assert result.output.strip() == f"FAILED: {message}"
    assert "OK" not in result.output


def test_verify_of_an_unknown_game(setup: Setup) -> None:
    result = setup.pbem("verify", "nope")
    assert result.exit_code != 0 and "no game 'nope'" in result.output


def test_a_truncated_log_stays_detectable_after_it_was_read(played: Setup) -> None:
    lines = played.log_path.read_bytes().splitlines(keepends=True)
    played.log_path.write_bytes(b"".join(lines[:-1]))
    read = played.pbem("log", GID)
    assert read.exit_code != 0 and "truncated" in read.output
    result = played.pbem("verify", GID)
    assert result.exit_code == 1 and "truncated" in result.output


def test_demo_runs_and_can_run_again(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    for _ in range(2):
        result = run("demo", "--data", str(folder), "--no-pictures")
        assert result.exit_code == 0, result.output
        out = result.output
        assert "Round: OR 1.1" in out
        assert "Played 34 order mails through the inbox" in out
        assert "demo-1830 -- 1830: Railways and Robber Barons   report 34" in out
        assert "#35   Player 1: BUY PRR" in out
        for name, address in [("Player 1", "player1@demo.invalid"), ("Player 2", "player2@demo.invalid"),
                              ("Player 3", "player3@demo.invalid"), ("GM", "gm@demo.invalid")]:
            where = folder / "mail" / "delivered" / address
            assert re.search(rf"^  {name}\s+{re.escape(str(where))}$", out, re.M)
            # the GM (MAIL EVERY): welcome + one report per accepted mail (+ the UNDO reply);
            # a player (MAIL TURN, the default): fewer, a reply to each own mail and a report
            # when it is their turn or a round ends
            mailed = len(list((where / "new").iterdir()))
            assert mailed == 35 if name == "GM" else 11 < mailed < 35, (name, mailed)
    # the second run replaced the first: one game, 34 reports
    assert sorted(p.name for p in (folder / "games").iterdir()) == ["demo-1830"]
    assert len(list((folder / "games" / "demo-1830" / "reports").glob("report-*.txt"))) == 34


def test_report_archive_and_log_open_the_demos_game_with_data(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("demo", "--mails", "4", "--no-pictures")
    assert result.exit_code == 0, result.output
    assert "Look again: pbem report demo-1830 --data pbem-demo;" in result.output
    report = run("report", "demo-1830", "--data", "pbem-demo", "--width", "80")
    assert report.exit_code == 0 and "demo-1830 -- 1830: Railways and Robber Barons   report 4" in report.output
    archive = run("archive", "demo-1830", "--data", "pbem-demo")
    assert archive.exit_code == 0 and len(archive.output.splitlines()) == 4
    log = run("log", "demo-1830", "--data", "pbem-demo")
    assert log.exit_code == 0 and "BID" in log.output
    missing = run("report", "demo-1830")
    assert missing.exit_code != 0
    assert "no game 'demo-1830' in pbem-data (games: none); the demo's game is in pbem-demo: add --data pbem-demo" \
        in missing.output


def test_deliver_puts_a_mail_file_in_the_embedded_inbox(setup: Setup) -> None:
    _, secrets = setup.new_game()
    mail_file = setup.root / "order.eml"
    mail_file.write_text("From: Player 1 <p1@players.example>\nTo: " + SERVER + "\nSubject: [" + GID
                         + "] orders\nMessage-ID: <order-1@players.example>\n\nPASSWORD " + secrets["Player 1"]
                         + "\nBID CA 165\n")
    result = setup.pbem("deliver", str(mail_file))
    assert result.exit_code == 0 and "1 mail(s) put in" in result.output
    served = setup.pbem("serve", "--once")
    assert json.loads(served.output)["outcomes"] == {"processed": 1}
    [reply] = [m for m in setup.mails_to(SEATS["Player 1"]) if "accepted" in str(m["Subject"])]
    assert "BID CA 165" in text(reply)


def test_map_draws_the_board_as_svg_and_png(played: Setup) -> None:
    svg, png = played.root / "board.svg", played.root / "board.png"
    result = played.pbem("map", GID, "--svg", str(svg), "--png", str(png), "--width", "900")
    assert result.exit_code == 0, result.output
    assert svg.read_text().startswith("<svg") or "<svg" in svg.read_text()[:200]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == 900
    assert f"{png}: " in result.output and "900 pixels across" in result.output
    assert played.pbem("map", GID).exit_code != 0, "a file must be named"


def test_the_demo_mails_show_the_board(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = run("demo", "--data", str(folder), "--mails", "2")
    assert result.exit_code == 0, result.output
    gm = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
          for p in (folder / "mail" / "delivered" / "gm@demo.invalid" / "new").iterdir()]
    shown = [m for m in gm if isinstance(m, EmailMessage) and any(
        part.get_content_type() == "image/png" for part in m.iter_attachments())]
    assert len(shown) == 2, "each report mailed to the GM carries the board"


def test_demo_refuses_a_folder_that_is_not_a_demo(tmp_path: Path) -> None:
    folder = tmp_path / "precious"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    result = run("demo", "--data", str(folder))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit), "a clear error, not a traceback"
    assert f"Error: {folder} exists and is not a pbem demo folder; choose another --data" in result.output
    assert (folder / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize(
    ("config", "named"),
    [
        ("data_dir: data\nsurprise: 1\n", "surprise"),
        ("data_dir: data\nlimits:\n  max_lines: many\n", "limits.max_lines"),
        ("data_dir: data\npoll_interval: soon\n", "poll_interval"),
        ("server:\n  adress: x@y.example\n", "server.adress"),
        ("inbound:\n  kind: imap\n", "inbound"),
    ],
)
def test_a_wrong_config_is_refused_naming_the_key(tmp_path: Path, config: str, named: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(config)
    for args in (["report", GID], ["serve", "--once"], ["verify", GID]):
        result = run(args[0], "--config", str(path), *args[1:])
        assert result.exit_code != 0
        assert "config refused" in result.output and named in result.output, result.output
    assert not (tmp_path / "data").exists()


def test_serve_names_an_unset_password_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_TEST_NO_SUCH_PW", raising=False)
    path = tmp_path / "imap.yaml"
    path.write_text("data_dir: data\ninbound:\n  kind: imap\n  imap:\n    host: imap.invalid\n"
                    "    user: pbem\n    password_env: PBEM_TEST_NO_SUCH_PW\n")
    result = run("serve", "--once", "--config", str(path))
    assert result.exit_code != 0
    assert "PBEM_TEST_NO_SUCH_PW" in result.output and "not set" in result.output


def test_unreadable_config_files_are_refused(tmp_path: Path) -> None:
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("data_dir: [unclosed\n")
    result = run("report", "--config", str(bad_yaml), GID)
    assert result.exit_code != 0 and "is not valid YAML" in result.output
    result = run("report", "--config", str(tmp_path / "missing.yaml"), GID)
    assert result.exit_code != 0 and "cannot read config" in result.output


def test_demo_without_the_rules_folder_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.ruleset.files

    monkeypatch.setattr(pbem.ruleset.files, "RULES_DIR", tmp_path / "site-packages" / "rules")
    result = run("demo", "--data", str(tmp_path / "demo"))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit), "a clear error, not a traceback"
    assert "rules folder" in result.output and "install pbem again" in result.output
    assert not (tmp_path / "demo").exists()


def test_new_game_checks_everything_before_it_creates_the_game(setup: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    seats = ["--seat", "A=a@x.example", "--seat", "B=b@x.example", "--seat", "C=c@x.example"]
    cases = [
        (["--seat", "A=a@x.example", "--seat", "B=x@", "--seat", "C=c@x.example", "--gm", GM],
         "seat 'B': 'x@' is not a mail address"),
        ([*seats, "--gm", "@"], "GM: '@' is not a mail address"),
        (["--seat", "A=a@x.example", "--seat", " =b@x.example", "--seat", "C=c@x.example", "--gm", GM],
         "the seat name is empty"),
    ]
    for args, message in cases:
        result = setup.pbem("new-game", GID, "--title", "1830", *args)
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
        assert message in result.output
        assert not setup.log_path.exists()
    # the outgoing mail setup is checked first too
    monkeypatch.delenv("PBEM_TEST_NO_SUCH_PW", raising=False)
    setup.config.write_text(setup.config.read_text() + "outbound:\n  kind: smtp\n  smtp:\n    host: smtp.invalid\n"
                            "    user: pbem\n    password_env: PBEM_TEST_NO_SUCH_PW\n")
    result = setup.pbem("new-game", GID, "--title", "1830", *seats, "--gm", GM)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "PBEM_TEST_NO_SUCH_PW" in result.output
    assert not setup.log_path.exists() and not (setup.data / "games").exists()


def test_read_only_commands_never_modify_a_log_with_a_torn_tail(played: Setup) -> None:
    with played.log_path.open("ab") as fh:
        fh.write(b'{"seq": 4, "kind": "act')
    head = played.log_path.with_name("head.json")
    before = (played.log_path.read_bytes(), head.read_bytes())
    for command in ("report", "log"):
        result = played.pbem(command, GID)
        assert result.exit_code == 0, result.output
        assert (played.log_path.read_bytes(), head.read_bytes()) == before
    assert "BID CA 175" in played.pbem("log", GID).output
    assert not played.log_path.with_suffix(".torn").exists()


def test_a_damaged_log_is_a_clear_error_everywhere(played: Setup) -> None:
    head = played.log_path.with_name("head.json")
    head.write_text('{"seq": 3, "hash": ')
    for command in ("report", "log"):
        result = played.pbem(command, GID)
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
        assert "head.json is not valid JSON" in result.output
    result = played.pbem("verify", GID)
    assert result.exit_code == 1 and "FAILED:" in result.output and "head.json" in result.output
    # an edit in the middle, rehashed or not, is refused on open, not only by verify
    head.unlink()
    lines = played.log_path.read_bytes().splitlines(keepends=True)
    played.log_path.write_bytes(b"".join(_edit(lines)))
    for command in ("report", "log"):
        result = played.pbem(command, GID)
        assert result.exit_code == 1 and "record 2: content does not match its hash" in result.output


def test_log_shows_width_records(setup: Setup) -> None:
    _, secrets = setup.new_game()
    setup.deliver(setup.order_mail("Player 1", secrets["Player 1"], "BID CS 45", "WIDTH 80"))
    assert json.loads(setup.pbem("serve", "--once").output)["outcomes"] == {"processed": 1}
    result = setup.pbem("log", GID)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert re.search(rf"Player 1\s+BID CS 45 \(by {SEATS['Player 1']}\)$", lines[1])
    assert re.search(rf"Player 1\s+WIDTH 80 for Player 1 \(by {SEATS['Player 1']}\)$", lines[2])


def test_new_game_creates_the_inbox_folders(setup: Setup) -> None:
    result, _ = setup.new_game()
    inbox = setup.data / "mail" / "inbox"
    assert f"Inbox: {inbox}" in result.output
    for folder in ("new", "cur", "tmp", ".Processed/new", ".Rejected/new", ".Ignored/new"):
        assert (inbox / folder).is_dir(), folder


def test_serve_logs_each_mail_and_each_pass(setup: Setup, caplog: pytest.LogCaptureFixture) -> None:
    _, secrets = setup.new_game()
    setup.deliver(setup.order_mail("Player 1", secrets["Player 1"], "BID CA 165"))
    setup.deliver(setup.order_mail("Player 2", "wrong-secret", "BID CA 170"))
    assert setup.pbem("serve", "--once").exit_code == 0
    lines = [r.getMessage() for r in caplog.records if r.name == "pbem.server"]
    assert any(f"game {GID}, from {SEATS['Player 1']}: processed (orders)" in line for line in lines), lines
    assert any(f"game {GID}, from {SEATS['Player 2']}: rejected (wrong_secret)" in line for line in lines), lines
    assert any(line.startswith("pass: 2 mail(s)") for line in lines), lines


def test_serve_once_on_a_full_disk_says_so_and_keeps_the_mail(setup: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import pbem.durable

    _, secrets = setup.new_game()
    setup.deliver(setup.order_mail("Player 1", secrets["Player 1"], "BID CA 165"))

    def full(fh: object, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pbem.durable, "_put", full)
    result = setup.pbem("serve", "--once")
    assert result.exit_code == 1
    assert "the data directory cannot be written: [Errno 28] No space left on device" in result.output
    assert len(list((setup.data / "mail" / "inbox" / "new").iterdir())) == 1
    monkeypatch.undo()
    assert json.loads(setup.pbem("serve", "--once").output)["outcomes"] == {"processed": 1}


def test_the_reply_allowances_come_from_the_config(tmp_path: Path) -> None:
    from pbem.cli import mailroom_for
    from pbem.config import load_config

    path = tmp_path / "pbem.yaml"
    path.write_text("limits:\n  error_replies_per_hour: 3\n  error_replies_per_hour_authenticated: 12\n")
    settings = mailroom_for(load_config(path)).settings
    assert (settings.error_replies_per_hour, settings.error_replies_per_hour_authenticated) == (3, 12)
    path.write_text("limits:\n  error_replies_per_hour_authenticated: -1\n")
    result = run("serve", "--config", str(path), "--once")
    assert result.exit_code != 0 and "limits.error_replies_per_hour_authenticated" in result.output


def test_pbem_version_names_the_package_version() -> None:
    from importlib.metadata import version

    result = run("--version")
    assert result.exit_code == 0 and result.output.strip() == f"pbem, version {version('pbem')}"


def test_open_game_and_games_list_the_games_open_and_running(setup: Setup) -> None:
    setup.new_game()
    opened = setup.pbem("open-game", "g7", "--title", "1830", "--players", "3", "--gm", GM)
    assert opened.exit_code == 0 and "they send JOIN g7" in opened.output, opened.output
    again = setup.pbem("open-game", "g7", "--title", "1830", "--players", "3", "--gm", GM)
    assert again.exit_code != 0 and "already exists" in again.output
    listed = setup.pbem("games")
    assert listed.exit_code == 0
    assert "Open for players:\n  [g7]  1830 (no variants)  0 of 3 seats taken" in listed.output
    assert f"Running:\n  [{GID}]  1830, 3 players, Private auction" in listed.output
