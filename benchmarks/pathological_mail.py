"""Time to read pathological mails at the size limit: whatever its shape, a mail within the
limit must be read in about 100 ms (the issue's requirement "linear time on headers").

Builds each mail of :func:`pathological_mails` just under the server's default size limit
(262144 bytes), reads it with :func:`pbem.mail.reading.read_message` a few times, and prints
the best time of each and the slowest of them all.

    python3 -m benchmarks.pathological_mail [LIMIT_BYTES]     (from the checkout's root)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from pbem.mail.reading import read_message

LIMIT = 262144
HEAD = "From: Priya <p1@players.example>\nTo: pbem@pbem.example\nMessage-ID: <bench@players.example>\n"
BODY = "PASSWORD k3xm9tqa\nBID CA 165\n"


def _fill(piece: str, budget: int) -> str:
    """``piece`` repeated to fill ``budget`` characters (at least once)."""
    return piece * max(1, budget // len(piece))


def _mail(head: str, body: str) -> bytes:
    return (head + "\n" + body).encode("utf-8")


def _subject(piece: str, limit: int) -> bytes:
    return _mail(HEAD + "Subject: [g1] " + _fill(piece, limit - 200) + "\n", BODY)


def _headers(line: str, limit: int) -> bytes:
    return _mail(HEAD + "Subject: [g1] orders\n" + _fill(line, limit - 300), BODY)


def _body(text: Callable[[int], str], limit: int) -> bytes:
    return _mail(HEAD + "Subject: [g1] orders\n", BODY + text(limit - 300))


def _nested(depth: int, limit: int) -> bytes:
    opening = "".join(f"Content-Type: multipart/mixed; boundary=b{i}\n\n--b{i}\n" for i in range(depth))
    return _mail(HEAD + "Subject: [g1] orders\nMIME-Version: 1.0\n" + opening.split("\n\n", 1)[0] + "\n",
                 opening.split("\n\n", 1)[1] + "Content-Type: text/plain\n\n" + BODY)


def _many_parts(limit: int) -> bytes:
    part = "--p\nContent-Type: text/plain\n\nPASS\n"
    return _mail(HEAD + "Subject: [g1] orders\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=p\n",
                 f"--p\nContent-Type: text/plain\n\n{BODY}" + _fill(part, limit - 400) + "--p--\n")


def _html(piece: str, limit: int) -> bytes:
    return _mail(HEAD + "Subject: [g1] orders\nMIME-Version: 1.0\nContent-Type: text/html\n",
                 f"<p>{BODY}</p>" + _fill(piece, limit - 400))


def pathological_mails(limit: int = LIMIT) -> dict[str, bytes]:
    """Mails of every awkward shape, each at most ``limit`` bytes: name -> raw mail."""
    mails = {
        "Subject of repeated [1]": _subject("[1]", limit),
        "Subject of repeated Re[2]:": _subject("Re[2]: ", limit),
        "Subject of repeated Re [": _subject("Re [", limit),
        "Subject of repeated encoded words": _subject("=?utf-8?q?Z=C3=BCge?= ", limit),
        "many From: headers": _headers("From: p1@players.example\n", limit),
        "many Received: headers": _headers("Received: from mx.example by mx.example; Mon, 1 Dec 2026\n", limit),
        "many To: headers": _headers("To: a@players.example\n", limit),
        "one From: of many addresses": _mail(
            "To: pbem@pbem.example\nSubject: [g1] orders\nFrom: "
            + _fill("p1@players.example, ", limit - 200) + "p2@players.example\n", BODY),
        "many Subject: headers": _headers("Subject: [1] [2] Re[3]: x\n", limit),
        "Content-Type of many parameters": _mail(
            HEAD + "Subject: [g1] orders\nMIME-Version: 1.0\nContent-Type: text/plain; "
            + _fill('a="b"; ', limit - 300) + "charset=utf-8\n", BODY),
        "many parts of long Content-Type": _mail(
            HEAD + "Subject: [g1] orders\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=p\n",
            f"--p\nContent-Type: text/plain\n\n{BODY}"
            + _fill("--p\nContent-Type: text/plain; " + 'a="b"; ' * 130 + "x=y\n\nPASS\n", limit - 400)
            + "--p--\n"),
        "one very long header line": _headers("X-Long: " + "a" * (limit - 400) + "\n", limit),
        "one very long folded header": _headers(
            "X-Folded: " + _fill("word\n ", limit - 400) + "end\n", limit),
        "long attribution-like line": _body(lambda n: "On " + _fill("wrote ", n - 10) + "\n", limit),
        "long German attribution-like line": _body(lambda n: "Am " + _fill("schrieb ", n - 10) + ":\n", limit),
        "many attribution-like lines": _body(lambda n: _fill("On Monday Priya\nwrote:\n", n), limit),
        "many From: lines in the body": _body(lambda n: _fill("From: x\n", n), limit),
        "long lines of >": _body(lambda n: _fill(">" * 1000 + "\n", n), limit),
        "one line of >": _body(lambda n: ">" * n + "\n", limit),
        "long PASSWORD-like line": _body(lambda n: "pw " + " " * (n - 10) + "x y\n", limit),
        "format=flowed paragraph of many soft lines": _mail(
            HEAD + "Subject: [g1] orders\nContent-Type: text/plain; format=flowed; delsp=yes\n",
            BODY + _fill("pass the  \n", limit - 400) + "end\n"),
        "many blank lines": _body(lambda n: _fill("\n", n), limit),
        "many short lines": _body(lambda n: _fill("x\n", n), limit),
        "deep MIME nesting (refused)": _nested(40, limit),
        "MIME nesting at the limit": _nested(32, limit),
        "MIME nesting beyond the parser": _nested(min(1500, limit // 60), limit),
        "many tiny parts": _many_parts(limit),
        "HTML of nested blockquotes": _html("<blockquote>", limit),
        "HTML of many tiny tags": _html("<b>x</b>", limit),
    }
    return {name: raw for name, raw in mails.items() if len(raw) <= limit}


def time_to_read(raw: bytes, repeat: int = 3) -> float:
    """The best of ``repeat`` times (seconds) to read ``raw``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        read_message(raw, own_addresses=frozenset({"pbem@pbem.example"}))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else LIMIT
    results = []
    for name, raw in pathological_mails(limit).items():
        seconds = time_to_read(raw)
        results.append((seconds, name))
        print(f"{seconds * 1000:9.1f} ms  {len(raw):7d} bytes  {name}")
    slowest, name = max(results)
    print(f"slowest: {slowest * 1000:.1f} ms ({name})")


if __name__ == "__main__":
    main()
