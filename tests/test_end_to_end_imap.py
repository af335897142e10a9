"""End to end with real servers: players mail orders by SMTP, ``pbem serve --once`` polls the
game's IMAP mailbox, and every player's report arrives in that player's IMAP mailbox.
Also: the server killed between the log commit and the mailbox move, or between the commit
and the sending, neither loses nor repeats anything when it runs again."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
import smtplib
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config
from pbem.games import open_log
from pbem.server import Mailroom, MailroomSettings, Server
from pbem.transport.imap import ImapInbound
from pbem.transport.smtp import SmtpOutbound
from tests.mailservers import MailServers


class Crash(BaseException):
    """Stands in for the process dying (not an Exception: nothing may catch it)."""


@pytest.fixture
def table(mail_servers: MailServers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """A game mailbox, three players and a GM on the real servers, and a config for them."""
    suffix = tmp_path.name[-8:].replace("_", "").lower()
    users = {}
    for role in ("game", "p1", "p2", "p3", "gm"):
        name = f"{role}{suffix}"
        password = f"pw-{role}"
        users[role] = (name, password, mail_servers.add_user(name, password))
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", users["game"][1])
    config = {
        "server": {"address": users["game"][2], "id": "pbem-test"},
        "data_dir": str(tmp_path / "data"),
        "poll_interval": 1,
        "inbound": {"kind": "imap", "imap": {
            "host": mail_servers.host, "port": mail_servers.imap_port, "ssl": False,
            "user": users["game"][0], "password_env": "PBEM_TEST_IMAP_PASSWORD", "timeout": 10}},
        "outbound": {"kind": "smtp", "smtp": {
            "host": mail_servers.host, "port": mail_servers.smtp_port, "security": "plain", "timeout": 10}},
    }
    path = tmp_path / "pbem.yaml"
    path.write_text(yaml.safe_dump(config))
    runner = CliRunner()
    result = runner.invoke(main, [
        "new-game", "--config", str(path), "e2e", "--title", "1830",
        "--seat", f"Player 1={users['p1'][2]}", "--seat", f"Player 2={users['p2'][2]}",
        "--seat", f"Player 3={users['p3'][2]}", "--gm", users["gm"][2], "--mail", "every",
    ])
    assert result.exit_code == 0, result.output
    secrets = {}
    for role in ("p1", "p2", "p3"):
        welcome = messages(mail_servers, users[role])
        assert len(welcome) == 1
        body = welcome[0].get_body(("plain",)).get_content().replace("\r\n", "\n")
        secrets[role] = re.search(r"Your secret: (\S+)", body).group(1)  # type: ignore[union-attr]
    return {"users": users, "config": path, "secrets": secrets, "servers": mail_servers}


def messages(servers: MailServers, user: tuple[str, str, str], mailbox: str = "INBOX") -> list[EmailMessage]:
    return [email.message_from_bytes(raw, policy=email.policy.default)  # type: ignore[misc]
            for raw in servers.fetch_all(user[0], user[1], mailbox)]


def send_orders(table: dict, role: str, *orders: str, message_id: str | None = None) -> None:
    msg = EmailMessage()
    msg["From"] = table["users"][role][2]
    msg["To"] = table["users"]["game"][2]
    msg["Subject"] = "[e2e] my orders"
    if message_id:
        msg["Message-ID"] = message_id
    msg.set_content("PASSWORD " + table["secrets"][role] + "\n" + "\n".join(orders) + "\n")
    servers = table["servers"]
    with smtplib.SMTP(servers.host, servers.smtp_port, timeout=10) as smtp:
        smtp.send_message(msg)


def serve_once(table: dict) -> str:
    result = CliRunner().invoke(main, ["serve", "--once", "--config", str(table["config"])])
    assert result.exit_code == 0, result.output
    return result.output


def reports(table: dict, role: str) -> list[EmailMessage]:
    return [m for m in messages(table["servers"], table["users"][role]) if "Turn report" in str(m["Subject"])]


def test_orders_by_smtp_reports_by_imap(table: dict) -> None:
    send_orders(table, "p1", "BID CA 165")
    out = serve_once(table)
    assert '"processed": 1' in out
    for role in ("p1", "p2", "p3", "gm"):
        got = reports(table, role)
        assert len(got) == 1, role
        body = got[0].get_body(("plain",)).get_content().replace("\r\n", "\n")
        assert "Player 1 bids $165 for CA" in body
        assert got[0]["Auto-Submitted"] == "auto-generated"
        assert got[0]["X-PBEM-Server"] == "pbem-test"
    sender_copy = reports(table, "p1")[0].get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert sender_copy.startswith("Your orders were accepted:\n  BID CA 165")
    game = table["users"]["game"]
    assert len(table["servers"].fetch_all(game[0], game[1], "Processed")) == 1
    assert table["servers"].fetch_all(game[0], game[1], "INBOX") == []
    # A wrong order is answered to the sender only, and moved to Rejected.
    send_orders(table, "p3", "BID CA 170")
    serve_once(table)
    replies = [m for m in messages(table["servers"], table["users"]["p3"]) if str(m["Subject"]).startswith("Re:")]
    assert len(replies) == 1
    assert "it is not Player 3's turn" in replies[0].get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert len(table["servers"].fetch_all(game[0], game[1], "Rejected")) == 1
    assert len(reports(table, "p2")) == 1


def _server(table: dict) -> Server:
    config = load_config(table["config"])
    room = Mailroom(MailroomSettings(data_dir=config.data_dir, address=config.server.address,
                                     server_id=config.server.id))
    imap = config.inbound.imap
    smtp = config.outbound.smtp
    assert imap and smtp
    inbound = ImapInbound(imap.host, imap.port, imap.user, config.secret(imap.password_env) or "",
                          ssl=False, timeout=10)
    return Server(room, inbound, SmtpOutbound(smtp.host, smtp.port, security="plain", timeout=10))


async def _run_once(server: Server) -> None:
    await server.inbound.connect()
    try:
        await server.run_once()
    finally:
        await server.inbound.close()


def test_killed_between_commit_and_mailbox_move(table: dict) -> None:
    send_orders(table, "p1", "BID CA 165", message_id="<kill-move@e2e.test>")
    server = _server(table)

    async def die(*_args: object) -> None:
        raise Crash()

    server.inbound.settle = die  # type: ignore[method-assign]
    with pytest.raises(Crash):
        asyncio.run(_run_once(server))
    # Restart: the message is still in the inbox; it must not be applied again.
    asyncio.run(_run_once(_server(table)))
    log = open_log(load_config(table["config"]).data_dir, "e2e")
    assert [r.source for r in log.records].count("<kill-move@e2e.test>") == 1
    for role in ("p1", "p2", "p3", "gm"):
        assert len(reports(table, role)) == 1, role
    game = table["users"]["game"]
    assert table["servers"].fetch_all(game[0], game[1], "INBOX") == []
    assert len(table["servers"].fetch_all(game[0], game[1], "Processed")) == 1


def test_killed_between_commit_and_sending(table: dict) -> None:
    send_orders(table, "p1", "BID CA 165", message_id="<kill-send@e2e.test>")
    server = _server(table)

    def die() -> None:
        raise Crash()

    server.mailroom.after_commit = die
    with pytest.raises(Crash):
        asyncio.run(_run_once(server))
    for role in ("p1", "p2", "p3", "gm"):
        assert reports(table, role) == [], "nothing was sent before the crash"
    asyncio.run(_run_once(_server(table)))
    log = open_log(load_config(table["config"]).data_dir, "e2e")
    assert [r.source for r in log.records].count("<kill-send@e2e.test>") == 1
    for role in ("p1", "p2", "p3", "gm"):
        got = reports(table, role)
        assert len(got) == 1, role
        assert "Player 1 bids $165 for CA" in got[0].get_body(("plain",)).get_content().replace("\r\n", "\n")
    # And a third run sends nothing more.
    asyncio.run(_run_once(_server(table)))
    for role in ("p1", "p2", "p3", "gm"):
        assert len(reports(table, role)) == 1


KILLER = """
import asyncio, os, sys
from pathlib import Path
from pbem.cli import mailroom_for
from pbem.config import load_config
from pbem.server import Server
from pbem.transport.factory import inbound_from_config, outbound_from_config

config = load_config(Path(sys.argv[1]))
server = Server(mailroom_for(config), inbound_from_config(config), outbound_from_config(config))
if sys.argv[2] == "after-commit":
    server.mailroom.after_commit = lambda: os._exit(137)
else:
    async def die(*args):
        os._exit(137)
    server.inbound.settle = die

async def run():
    await server.inbound.connect()
    await server.run_once()

asyncio.run(run())
"""


@pytest.mark.parametrize("where", ["after-commit", "before-move"])
def test_process_killed_for_real(table: dict, where: str) -> None:
    import subprocess
    import sys

    send_orders(table, "p1", "BID CA 165", message_id=f"<sigkill-{where}@e2e.test>")
    killed = subprocess.run([sys.executable, "-c", KILLER, str(table["config"]), where],
                            capture_output=True, text=True, timeout=60)
    assert killed.returncode == 137, killed.stderr
    serve_once(table)
    log = open_log(load_config(table["config"]).data_dir, "e2e")
    assert [r.source for r in log.records].count(f"<sigkill-{where}@e2e.test>") == 1
    for role in ("p1", "p2", "p3", "gm"):
        got = reports(table, role)
        assert len(got) == 1, role
        assert "Player 1 bids $165 for CA" in got[0].get_body(("plain",)).get_content()
    game = table["users"]["game"]
    assert table["servers"].fetch_all(game[0], game[1], "INBOX") == []
