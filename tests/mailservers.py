"""Real mail servers on loopback for the transport tests.

A session-scoped :func:`mail_servers` fixture runs a private Dovecot (IMAP + LMTP) on
127.0.0.1 and an aiosmtpd SMTP front that relays every message to Dovecot's LMTP, so mail
sent by SMTP lands in the recipient's IMAP INBOX with Dovecot's own UIDs and indexes.
The recipe follows the project's reference notes on mail test servers.

If Dovecot is not installed the tests that use the fixture are skipped, or fail when the
``CI`` environment variable is set (CI must run them; ``.ci/setup`` installs Dovecot).
"""

from __future__ import annotations

import asyncio
import grp
import imaplib
import itertools
import os
import pwd
import re
import secrets
import shutil
import signal
import smtplib
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

HOST = "127.0.0.1"
_START_TIMEOUT = 10.0


def _free_port() -> int:
    """A TCP port on loopback that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _find_dovecot() -> str | None:
    found = shutil.which("dovecot")
    if found:
        return found
    for candidate in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def _dovecot_major_minor(binary: str) -> tuple[int, int]:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    m = re.match(r"\s*(\d+)\.(\d+)", out)
    if not m:
        raise RuntimeError(f"cannot read the Dovecot version from {out!r}")
    return int(m.group(1)), int(m.group(2))


@dataclass(frozen=True)
class _Identity:
    """Who Dovecot's processes and the mail files run as."""

    internal_user: str
    internal_group: str
    login_user: str
    mail_uid: str
    mail_gid: str

    @classmethod
    def current(cls) -> _Identity:
        if os.geteuid() == 0:
            return cls("root", "root", "dovenull", "nobody", "nogroup")
        user = pwd.getpwuid(os.geteuid()).pw_name
        group = grp.getgrgid(os.getegid()).gr_name
        return cls(user, group, user, user, group)


def _common_config(t: Path, ident: _Identity, imap_port: int, lmtp_port: int) -> str:
    return f"""
instance_name = pbemtest-{t.name}
protocols = imap lmtp
listen = {HOST}
base_dir = {t}/run
state_dir = {t}/state
log_path = {t}/dovecot.log
ssl = no
auth_mechanisms = plain login
default_internal_user = {ident.internal_user}
default_internal_group = {ident.internal_group}
default_login_user = {ident.login_user}
first_valid_uid = 1
namespace inbox {{
  inbox = yes
  separator = /
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = {HOST}
    port = {imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = {HOST}
    port = {lmtp_port}
  }}
}}
service anvil {{
  chroot =
  # no auth penalty: a test's wrong password must not slow down the next tests' logins
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
"""


def _config_23(t: Path, ident: _Identity, imap_port: int, lmtp_port: int) -> str:
    return (
        _common_config(t, ident, imap_port, lmtp_port)
        + f"""
disable_plaintext_auth = no
auth_failure_delay = 0
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%n {t}/users/%n
}}
userdb {{
  driver = static
  args = uid={ident.mail_uid} gid={ident.mail_gid} home={t}/mail/%n
}}
mail_location = maildir:~/Maildir
protocol lmtp {{
  auth_username_format = %Ln
}}
"""
    )


def _config_24(t: Path, ident: _Identity, imap_port: int, lmtp_port: int) -> str:
    # dovecot_config_version must be the first setting.
    return (
        "dovecot_config_version = 2.4.1\n"
        "dovecot_storage_version = 2.4.1\n"
        + _common_config(t, ident, imap_port, lmtp_port)
        + f"""
auth_allow_cleartext = yes
passdb passwd-file {{
  passwd_file_path = {t}/users/%{{user | username}}
}}
userdb static {{
  fields {{
    uid = {ident.mail_uid}
    gid = {ident.mail_gid}
    home = {t}/mail/%{{user | username}}
  }}
}}
mail_driver = maildir
mail_path = ~/Maildir
protocol lmtp {{
  auth_username_format = %{{user | username | lower}}
}}
"""
    )


class _LmtpRelay:
    """aiosmtpd handler: relays each accepted message to Dovecot LMTP.

    Unknown users are refused by LMTP (550 5.1.1); the relay passes that on as the reply to
    DATA. If LMTP cannot be reached it answers 451 (try again later).
    """

    def __init__(self, lmtp_port: int) -> None:
        self.lmtp_port = lmtp_port

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        def relay() -> dict[str, tuple[int, bytes]]:
            with smtplib.LMTP(HOST, self.lmtp_port, timeout=10) as lmtp:
                return lmtp.sendmail(envelope.mail_from, envelope.rcpt_tos, envelope.original_content)

        try:
            refused = await asyncio.to_thread(relay)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            return f"{code} {text.decode(errors='replace')}"
        except (OSError, smtplib.SMTPException) as exc:
            return f"451 4.3.0 LMTP relay failed: {exc}"
        if refused:
            return "250 2.0.0 OK (some recipients refused: " + ", ".join(refused) + ")"
        return "250 2.0.0 OK delivered"


@dataclass
class MailServers:
    """Handle on the running servers, given to tests by the ``mail_servers`` fixture.

    :ivar host: "127.0.0.1".
    :ivar imap_port: plain IMAP (no TLS) of Dovecot.
    :ivar smtp_port: the aiosmtpd front (no TLS, no AUTH); relays to LMTP.
    :ivar lmtp_port: Dovecot's LMTP listener.
    :ivar workdir: the temporary directory holding config, users, mail and the log.
    """

    host: str
    imap_port: int
    smtp_port: int
    lmtp_port: int
    workdir: Path
    process: subprocess.Popen[bytes]
    _users_lock: threading.Lock = field(default_factory=threading.Lock)
    _users: dict[str, str] = field(default_factory=dict)
    _counter: Iterator[int] = field(default_factory=itertools.count)

    @property
    def log_path(self) -> Path:
        return self.workdir / "dovecot.log"

    def log(self) -> str:
        """Dovecot's log so far (for assertion messages)."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def add_user(self, name: str, password: str) -> str:
        """Create (or re-password) the user ``name``; returns the address ``name@localhost``.

        Works at any time: Dovecot re-reads the passwd-file when it changes.
        """
        if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
            raise ValueError(f"user names are lower-case [a-z0-9._-]: {name!r}")
        if ":" in password or "\n" in password:
            raise ValueError("a password must not contain ':' or a newline")
        with self._users_lock:
            self._users[name] = password
            # One passwd-file per user: Dovecot re-checks a file at most once a second, so a
            # user appended to a shared file can stay unknown for up to a second, while a new
            # file is read at its first lookup.
            path = self.workdir / "users" / name
            tmp = path.with_name(f".{name}.tmp")
            tmp.write_text(f"{name}:{{PLAIN}}{password}\n")
            tmp.chmod(0o644)
            os.replace(tmp, path)
        return f"{name}@localhost"

    def new_user(self, prefix: str = "user") -> tuple[str, str, str]:
        """Add a fresh user with a unique name; returns ``(name, password, address)``."""
        name = f"{prefix}{next(self._counter)}x{secrets.token_hex(3)}"
        password = secrets.token_hex(8)
        return name, password, self.add_user(name, password)

    def fetch_all(self, user: str, password: str, mailbox: str = "INBOX") -> list[bytes]:
        """Every message in ``mailbox`` of ``user`` (raw bytes, by UID), read-only.

        :raises imaplib.IMAP4.error: login failed or the mailbox does not exist.
        """
        with imaplib.IMAP4(self.host, self.imap_port, timeout=10) as imap:
            imap.login(user, password)
            typ, data = imap.select(_quote(mailbox), readonly=True)
            if typ != "OK":
                raise imaplib.IMAP4.error(f"SELECT {mailbox}: {data!r}")
            typ, data = imap.uid("SEARCH", "ALL")
            uids = [t for t in (data[0] or b"").split() if t.isdigit()]
            out: list[bytes] = []
            for uid in uids:
                typ, parts = imap.uid("FETCH", uid.decode(), "(BODY.PEEK[])")
                for part in parts:
                    if isinstance(part, tuple):
                        out.append(part[1])
            return out

    def mailboxes(self, user: str, password: str) -> list[str]:
        """The names of ``user``'s mailboxes (IMAP LIST)."""
        with imaplib.IMAP4(self.host, self.imap_port, timeout=10) as imap:
            imap.login(user, password)
            typ, data = imap.list()
            names = []
            for line in data:
                if isinstance(line, bytes):
                    names.append(line.decode().rsplit(' "/" ', 1)[-1].strip('"'))
            return names

    def kill_imap_processes(self, sig: int = signal.SIGKILL) -> int:
        """Signal every ``imap`` session process of this Dovecot.

        SIGKILL is an abrupt drop for the clients; SIGTERM makes the process say
        ``* BYE Server shutting down.`` first.

        :returns: how many processes were signalled.
        """
        killed = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # pid (comm) state ppid pgrp ...
            comm = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            if comm == "imap" and int(fields[2]) == self.process.pid:
                try:
                    os.kill(int(entry.name), sig)
                    killed += 1
                except ProcessLookupError:
                    pass
        return killed


def _quote(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wait_greeting(proc: subprocess.Popen[bytes], port: int, prefix: bytes, log: Path) -> None:
    deadline = time.monotonic() + _START_TIMEOUT
    last: Exception | None = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"dovecot exited with {proc.returncode}:\n{_read(log)}")
        try:
            with socket.create_connection((HOST, port), timeout=1) as s:
                greeting = s.recv(200)
                if greeting.startswith(prefix):
                    return
                last = RuntimeError(f"unexpected greeting {greeting!r}")
        except OSError as exc:
            last = exc
        time.sleep(0.02)
    raise RuntimeError(f"dovecot not ready on port {port}: {last}\n{_read(log)}")


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # our own process group only (start_new_session)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


@pytest.fixture(scope="session")
def mail_servers() -> Iterator[MailServers]:
    """Dovecot (IMAP, LMTP) and an SMTP→LMTP relay on 127.0.0.1 for the whole session."""
    binary = _find_dovecot()
    if binary is None:
        message = "dovecot not installed: run .ci/setup"
        if os.environ.get("CI"):
            pytest.fail(f"{message} (CI is set, so the mail server tests must run)", pytrace=False)
        pytest.skip(message)

    from aiosmtpd.controller import Controller

    ident = _Identity.current()
    workdir = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    workdir.chmod(0o755)  # the mail uid must traverse it (pytest's tmp_path is 0700)
    mail = workdir / "mail"
    mail.mkdir()
    if os.geteuid() == 0:
        shutil.chown(mail, ident.mail_uid, ident.mail_gid)
    (workdir / "users").mkdir()
    (workdir / "users").chmod(0o755)

    imap_port, lmtp_port, smtp_port = _free_port(), _free_port(), _free_port()
    version = _dovecot_major_minor(binary)
    make = _config_24 if version >= (2, 4) else _config_23
    conf = workdir / "dovecot.conf"
    conf.write_text(make(workdir, ident, imap_port, lmtp_port))

    proc = subprocess.Popen(
        [binary, "-F", "-c", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    controller = None
    try:
        _wait_greeting(proc, imap_port, b"* OK", workdir / "dovecot.log")
        _wait_greeting(proc, lmtp_port, b"220", workdir / "dovecot.log")
        controller = Controller(_LmtpRelay(lmtp_port), hostname=HOST, port=smtp_port)
        controller.start()
        servers = MailServers(HOST, imap_port, smtp_port, lmtp_port, workdir, proc)
        yield servers
    finally:
        if controller is not None:
            controller.stop()
        _stop(proc)
        shutil.rmtree(workdir, ignore_errors=True)


@dataclass(frozen=True)
class MailUser:
    """A fresh user on the ``mail_servers``: login ``name``/``password``, mail to ``address``."""

    name: str
    password: str
    address: str


@pytest.fixture
def mail_user(mail_servers: MailServers) -> MailUser:
    """A new, empty mailbox user for one test."""
    return MailUser(*mail_servers.new_user())
