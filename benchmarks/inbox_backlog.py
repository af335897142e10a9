"""Peak memory of one poller pass over a backlog in the embedded inbox: N order mails queued
(each 200 KB of quoted text below its order line, as replies quoting a report are), read in
batches (the server's default) or all at once (as before). Each way runs in its own process,
so the figure is that process's peak resident size.

    python benchmarks/inbox_backlog.py [--mails 1200]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

from pbem.poller import INBOX_BATCH, Server
from pbem.server import Mailroom, MailroomSettings
from pbem.transport.maildir import MaildirInbound, MaildirOutbound, deliver_to_inbox

QUOTE = ("> " + "x" * 78 + "\n") * 2500  # about 200 KB


def one_pass(mails: int, batch: int) -> None:
    """Queue ``mails`` mails and handle them in one pass; print the time and peak memory."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        room = Mailroom(MailroomSettings(data_dir=root / "data", address="pbem@pbem.example", server_id="bench",
                                         error_replies_per_hour_authenticated=0),
                        clock=lambda: 1_800_000_000.0)
        secrets = room.new_game("g", "1830", (), [("Ann", "ann@x.example"), ("Bob", "bob@x.example"),
                                                  ("Cat", "cat@x.example")], "gm@x.example")
        for n in range(mails):
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = "bob@x.example", "pbem@pbem.example", "[g] orders"
            msg["Message-ID"] = f"<b{n}@x.example>"
            msg.set_content(f"PASSWORD {secrets['Bob']}\nBID CA 170\n\n" + QUOTE)
            deliver_to_inbox(root / "inbox", bytes(msg))
        server = Server(room, MaildirInbound(root / "inbox"), MaildirOutbound(root / "out"), batch=batch)
        began = time.perf_counter()
        asyncio.run(server.start())
        result = asyncio.run(server.run_once())
        spent = time.perf_counter() - began
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"batch {batch:>6}: {sum(result.outcomes.values())} mails in {spent:.1f} s, peak {peak} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1200)
    parser.add_argument("--batch", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.batch is not None:
        one_pass(args.mails, args.batch)
        return
    for batch in (INBOX_BATCH, 10**9):
        subprocess.run([sys.executable, __file__, "--mails", str(args.mails), "--batch", str(batch)], check=True)


if __name__ == "__main__":
    main()
