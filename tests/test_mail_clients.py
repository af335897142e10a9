"""The client corpus: one order mail for each mail program players use, built the way that
program builds it (headers, MIME structure, transfer encoding, line ends, quoting), each with
a greeting and a sign-off around the orders, run through a real Mailroom.

Each case asserts the outcome (processed, rejected or ignored), the orders applied to the
action log, and what the sender's mail says. Player 1 ("Priya") plays seat ``Player 1`` of a
fresh 1830 game and is first to act in the private auction.
"""

from __future__ import annotations

import base64
import json
import quopri
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.test_mailroom import GID, P1, SERVER, Table, body, by_recipient, log_records, only

PRIYA = f"Priya Raman <{P1}>"
REPORT_QUOTE = [
    f"[{GID}] Turn report 1: Private auction",
    "Next to act: Player 1",
    "FOR PLAYER 1",
    "  It is your turn. You may:",
    "  BUY SV",
    "  PASS",
]
"""Lines of a turn report as a player's reply quotes it: full of order words."""

BID = {"type": "bid", "company": "CA", "price": 165}
BUY_SV = {"type": "buy_private", "company": "SV", "price": None}


def wire(head: str, body_bytes: bytes, *, crlf: bool = False) -> bytes:
    """A mail as it travels: ``head`` (LF-separated header lines), a blank line, the body."""
    head_bytes = head.strip("\n").encode("utf-8") + b"\n\n"
    if crlf:
        head_bytes = head_bytes.replace(b"\n", b"\r\n")
    return head_bytes + body_bytes


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def common(t: Table, subject: str = f"[{GID}] orders", sender: str = PRIYA) -> str:
    return (f"From: {sender}\nTo: PBEM Server <{SERVER}>\nSubject: {subject}\n"
            f"Date: Mon, 01 Dec 2026 09:30:00 +0000\nMessage-ID: {t.mid()}\nMIME-Version: 1.0\n")


def secret(t: Table) -> str:
    return t.secrets["Player 1"]


# -- the mails ------------------------------------------------------------------------------------


def alpine(t: Table) -> bytes:
    head = common(t) + "User-Agent: Alpine 2.26 (DEB 649 2022-06-02)\n" \
        "Content-Type: TEXT/PLAIN; format=flowed; charset=US-ASCII\n"
    text = f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\ncheers, Priya\n"
    return wire(head, text.encode("ascii"))


def the_bat(t: Table) -> bytes:
    head = common(t) + "X-Mailer: The Bat! (v10.4.4) Professional\n" \
        "Content-Type: text/plain; charset=Windows-1252\nContent-Transfer-Encoding: 8bit\n"
    text = crlf(f"Hello All,\n\n\tPassword\t{secret(t)}\n\tbId\tCa\t165\n\n"
                "--\nBest regards,\n Priya                            mailto:p1@players.example\n")
    return wire(head, text.encode("cp1252"), crlf=True)


def gmail_alternative(t: Table) -> bytes:
    head = common(t, f"Re: [{GID}] Turn report 1: Private auction") + \
        'Content-Type: multipart/alternative; boundary="000000000000a1b2c3"\n'
    attribution = ("On Mon, Dec 1, 2026 at 9:00\u202fAM PBEM Server <pbem@pbem.example>\n"
                   "wrote:\n")
    plain_text = (f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\ncheers, Priya\n\n{attribution}\n"
                  + "".join(f"> {line}\n" for line in REPORT_QUOTE))
    html = (f'<div dir="ltr">Hi all,<div><br></div><div>PASSWORD {secret(t)}</div><div>BID CA 165</div>'
            '<div><br></div><div>cheers, Priya</div></div><br><div class="gmail_quote">'
            '<div dir="ltr" class="gmail_attr">On Mon, Dec 1, 2026 at 9:00\u202fAM PBEM Server '
            '&lt;pbem@pbem.example&gt; wrote:<br></div><blockquote class="gmail_quote">BUY SV'
            "</blockquote></div>")
    parts = [
        ("text/plain", quopri.encodestring(crlf(plain_text).encode("utf-8"))),
        ("text/html", quopri.encodestring(crlf(html).encode("utf-8"))),
    ]
    out = b"".join(
        b'--000000000000a1b2c3\r\nContent-Type: %s; charset="UTF-8"\r\n'
        b"Content-Transfer-Encoding: quoted-printable\r\n\r\n%s\r\n" % (kind.encode(), data)
        for kind, data in parts
    ) + b"--000000000000a1b2c3--\r\n"
    return wire(head, out, crlf=True)


def outlook_header_block(t: Table) -> bytes:
    head = common(t, f"RE: [{GID}] Turn report 1: Private auction") + \
        "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AdpE1234567890abcdef==\nContent-Language: en-gb\n" \
        'Content-Type: text/plain; charset="us-ascii"\nContent-Transfer-Encoding: 7bit\n'
    text = crlf(f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n\n"
                "From: PBEM Server <pbem@pbem.example>\nSent: Monday, December 1, 2026 9:00 AM\n"
                f"To: Priya Raman <{P1}>\nSubject: [{GID}] Turn report 1: Private auction\n\n"
                + "\n".join(REPORT_QUOTE) + "\n")
    return wire(head, text.encode("ascii"), crlf=True)


def outlook_forward(t: Table) -> bytes:
    head = common(t, f"FW: [{GID}] Turn report 1: Private auction") + \
        "X-Mailer: Microsoft Outlook 16.0\n" \
        'Content-Type: text/plain; charset="us-ascii"\nContent-Transfer-Encoding: 7bit\n'
    text = crlf(f"Hi GM,\n\nPASSWORD {secret(t)}\nBUY SV\n\nPriya\n\n-----Original Message-----\n"
                "From: PBEM Server <pbem@pbem.example>\nSent: Monday, December 1, 2026 9:00 AM\n"
                f"Subject: [{GID}] Turn report 1\n\n" + "\n".join(REPORT_QUOTE) + "\n")
    return wire(head, text.encode("ascii"), crlf=True)


def outlook_french_header_block(t: Table) -> bytes:
    head = common(t, f"RE: [{GID}] Turn report 1: Private auction") + \
        "X-Mailer: Microsoft Outlook 16.0\nContent-Language: fr-FR\n" \
        'Content-Type: text/plain; charset="iso-8859-1"\nContent-Transfer-Encoding: 8bit\n'
    text = crlf(f"Bonjour \u00e0 tous,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n\n"
                "De : PBEM Server <pbem@pbem.example>\nEnvoy\u00e9 : lundi 1 d\u00e9cembre 2026 09:00\n"
                f"\u00c0 : Priya Raman <{P1}>\nObjet : [{GID}] Turn report 1: Private auction\n\n"
                + "\n".join(REPORT_QUOTE) + "\n")
    return wire(head, text.encode("iso-8859-1"), crlf=True)


def outlook_german_forward(t: Table) -> bytes:
    head = common(t, f"WG: [{GID}] Turn report 1: Private auction") + \
        "X-Mailer: Microsoft Outlook 16.0\nContent-Language: de-DE\n" \
        'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\n'
    text = crlf(f"Hallo zusammen,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n\n"
                "-----Urspr\u00fcngliche Nachricht-----\n"
                "Von: PBEM Server <pbem@pbem.example>\n\n"
                + "\n".join(REPORT_QUOTE) + "\n")
    return wire(head, text.encode("utf-8"), crlf=True)


def iphone(t: Table) -> bytes:
    head = common(t, f"Re: [{GID}] Turn report 1: Private auction") + \
        "X-Mailer: iPhone Mail (22B91)\nContent-Type: text/plain; charset=us-ascii\n" \
        "Content-Transfer-Encoding: 7bit\n"
    text = (f"Hi all\n\nPassword {secret(t)}\nBid CA 165\n\nPriya\n\nSent from my iPhone\n\n"
            "> On 1 Dec 2026, at 09:00, PBEM Server <pbem@pbem.example> wrote:\n>\n"
            + "".join(f"> {line}\n" for line in REPORT_QUOTE))
    return wire(head, text.encode("ascii"))


def signature_of_order_words(t: Table) -> bytes:
    head = common(t) + 'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 7bit\n'
    text = (f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\ncheers, Priya\n-- \nPriya Raman\n"
            "Buy low, sell high.\nPass the port, please.\nP: +44 20 7946 0000\nEND\n")
    return wire(head, text.encode("ascii"))


def gmail_html_only(t: Table) -> bytes:
    head = common(t, f"Re: [{GID}] Turn report 1: Private auction") + \
        'Content-Type: text/html; charset="UTF-8"\nContent-Transfer-Encoding: quoted-printable\n'
    html = (f'<div dir="ltr">Hi all &amp; GM,<div><br></div><div>PASSWORD&nbsp;{secret(t)}</div>'
            "<div>BID&nbsp;CA&nbsp;165</div><div><br></div><div>Priya</div></div><br>"
            '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, Dec 1, 2026 at '
            "9:00&#8239;AM PBEM Server &lt;pbem@pbem.example&gt; wrote:<br></div>"
            '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">'
            + "<br>".join(REPORT_QUOTE) + "</blockquote></div>\n")
    return wire(head, quopri.encodestring(crlf(html).encode("utf-8")), crlf=True)


def mutt_latin1(t: Table) -> bytes:
    head = common(t, sender=f"=?iso-8859-1?q?J=FCrgen?= <{P1}>") + \
        "User-Agent: Mutt/2.2.12 (2023-09-09)\nContent-Type: text/plain; charset=iso-8859-1\n" \
        "Content-Disposition: inline\nContent-Transfer-Encoding: 8bit\n"
    text = f"Grüße an alle,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nJürgen\n"
    return wire(head, text.encode("iso-8859-1"))


def utf8_without_charset(t: Table) -> bytes:
    head = common(t) + "Content-Type: text/plain\nContent-Transfer-Encoding: 8bit\n"
    text = f"Hallo zusammen,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nschöne Grüße, Jürgen\n"
    return wire(head, text.encode("utf-8"))


def outlook_web_base64(t: Table) -> bytes:
    subject = "=?utf-8?B?" + base64.b64encode(f"Re: [{GID}] Züge für heute".encode()).decode() + "?="
    head = common(t, subject) + \
        "X-MS-Exchange-Organization-SCL: -1\nx-ms-publictraffictype: Email\n" \
        'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n'
    text = crlf(f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n"
                "________________________________\nFrom: PBEM Server <pbem@pbem.example>\n"
                "Sent: Monday, 1 December 2026 09:00\n\nBUY SV\n")
    return wire(head, base64.encodebytes(text.encode("utf-8")), crlf=True)


def apple_mail_qp(t: Table) -> bytes:
    head = common(t) + "X-Mailer: Apple Mail (2.3776.700.51)\nContent-Type: text/plain;\n\tcharset=utf-8\n" \
        "Content-Transfer-Encoding: quoted-printable\n"
    encoded = (f"Hi all,=20\n\nPASSWORD {secret(t)}\nBID CA =\n165=20\n\nPriya =E2=9C=8C=EF=B8=8F\n")
    return wire(head, encoded.encode("ascii"))


def unknown_charset(t: Table) -> bytes:
    head = common(t) + "Content-Type: text/plain; charset=x-mac-klingon\nContent-Transfer-Encoding: 8bit\n"
    return wire(head, f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n".encode("ascii"))


def thunderbird_pgp_signed(t: Table) -> bytes:
    head = common(t, "...") + "User-Agent: Mozilla Thunderbird\n" \
        'Content-Type: multipart/signed; micalg=pgp-sha256; protocol="application/pgp-signature";\n' \
        ' boundary="------------sig0123"\n'
    inner = (
        'Content-Type: multipart/mixed; boundary="------------mix4567";\n protected-headers="v1"\n'
        f"From: {PRIYA}\nTo: PBEM Server <{SERVER}>\nMessage-ID: <inner@players.example>\n"
        f"Subject: [{GID}] orders\n\n"
        "--------------mix4567\nContent-Type: text/plain; charset=UTF-8; format=flowed\n"
        "Content-Transfer-Encoding: 7bit\n\n"
        f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\ncheers, Priya\n\n--------------mix4567--\n"
    )
    text = (
        "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n--------------sig0123\n"
        + inner + "\n--------------sig0123\n"
        'Content-Type: application/pgp-signature; name="OpenPGP_signature.asc"\n'
        "Content-Description: OpenPGP digital signature\n"
        'Content-Disposition: attachment; filename="OpenPGP_signature.asc"\n\n'
        "-----BEGIN PGP SIGNATURE-----\n\nwsF5BAABCAAjFiEE0000000000000000000000000000000000000\n"
        "=abcd\n-----END PGP SIGNATURE-----\n\n--------------sig0123--\n"
    )
    return wire(head, crlf(text).encode("ascii"), crlf=True)


def text_attachment(t: Table) -> bytes:
    head = common(t) + 'Content-Type: multipart/mixed; boundary="att"\n'
    text = (
        "--att\nContent-Type: text/plain; charset=utf-8\n\n"
        f"Hi all, my orders are in the attachment.\n\nPASSWORD {secret(t)}\n\ncheers, Priya\n"
        '--att\nContent-Type: text/plain; charset=utf-8; name="orders.txt"\n'
        'Content-Disposition: attachment; filename="orders.txt"\n\nBID CA 165\n--att--\n'
    )
    return wire(head, text.encode("ascii"))


def re_fwd_re(t: Table) -> bytes:
    head = common(t, f"RE: Fwd: Re: [{GID}] Turn report 1: Private auction") + \
        "Content-Type: text/plain; charset=utf-8\n"
    return wire(head, f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n".encode("ascii"))


def vacation(t: Table) -> bytes:
    head = common(t, f"Out of office: [{GID}] Turn report 1: Private auction") + \
        "Auto-Submitted: auto-replied (vacation)\nContent-Type: text/plain; charset=utf-8\n"
    return wire(head, b"Hi,\n\nI am away until Monday. PASS\n\nPriya\n")


def postfix_bounce(t: Table) -> bytes:
    head = ("From: MAILER-DAEMON@mx.players.example (Mail Delivery System)\n"
            f"To: {SERVER}\nSubject: Undelivered Mail Returned to Sender\n"
            f"Message-ID: {t.mid()}\nAuto-Submitted: auto-replied\nMIME-Version: 1.0\n"
            "Content-Type: multipart/report; report-type=delivery-status;\n"
            '\tboundary="7A1B2C3D4E.1764581400/mx.players.example"\n')
    text = (
        "This is a MIME-encapsulated message.\n\n--7A1B2C3D4E.1764581400/mx.players.example\n"
        "Content-Description: Notification\nContent-Type: text/plain; charset=us-ascii\n\n"
        "I'm sorry to have to inform you that your message could not\nbe delivered.\n\n"
        "--7A1B2C3D4E.1764581400/mx.players.example\nContent-Description: Delivery report\n"
        "Content-Type: message/delivery-status\n\nReporting-MTA: dns; mx.players.example\n\n"
        "Final-Recipient: rfc822; gone@players.example\nAction: failed\nStatus: 5.1.1\n\n"
        "--7A1B2C3D4E.1764581400/mx.players.example\nContent-Description: Undelivered Message\n"
        f"Content-Type: message/rfc822\n\nFrom: {SERVER}\nSubject: [{GID}] Turn report 1\n\n"
        f"PASSWORD {secret(t)}\nBID CA 165\n\n--7A1B2C3D4E.1764581400/mx.players.example--\n"
    )
    return wire(head, text.encode("ascii"))


def auto_response_suppress(t: Table) -> bytes:
    head = common(t) + "X-Auto-Response-Suppress: All\nX-MS-Has-Attach:\n" \
        'Content-Type: text/plain; charset="us-ascii"\n'
    return wire(head, crlf(f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n").encode(), crlf=True)


def mailman_copy(t: Table) -> bytes:
    head = common(t) + ("Sender: \"18xx-players\" <18xx-players-bounces@lists.players.example>\n"
                        "List-Id: 18xx players <18xx-players.lists.players.example>\n"
                        "List-Post: <mailto:18xx-players@lists.players.example>\n"
                        "Precedence: list\nX-BeenThere: 18xx-players@lists.players.example\n"
                        "Content-Type: text/plain; charset=utf-8\n")
    return wire(head, f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n".encode())


def wrong_secret(t: Table) -> bytes:
    head = common(t, f"[{GID}] orders PASSWORD hunter22") + "Content-Type: text/plain; charset=utf-8\n"
    return wire(head, b"Hi all,\n\nPASSWORD hunter22\nBID CA 165\n\nmy secret is hunter22, right?\nPriya\n")


def unregistered_sender(t: Table) -> bytes:
    head = common(t, sender="Stranger <stranger@elsewhere.example>") + "Content-Type: text/plain\n"
    return wire(head, f"Hi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nS.\n".encode())


def three_megabytes(t: Table) -> bytes:
    head = common(t) + 'Content-Type: multipart/mixed; boundary="big"\n'
    photo = base64.encodebytes(bytes(range(256)) * (9 * 1024))  # 2.4 MB: 3.2 MB as base64
    text = (f"--big\nContent-Type: text/plain\n\nHi all,\n\nPASSWORD {secret(t)}\nBID CA 165\n\nPriya\n"
            '--big\nContent-Type: image/jpeg\nContent-Disposition: attachment; filename="board.jpg"\n'
            "Content-Transfer-Encoding: base64\n\n").encode() + photo + b"--big--\n"
    return wire(head, text)


def no_closing_boundary(t: Table) -> bytes:
    head = common(t) + 'Content-Type: multipart/alternative; boundary="cut"\n'
    text = (f"--cut\nContent-Type: text/plain; charset=utf-8\n\nHi all,\n\nPASSWORD {secret(t)}\n"
            "BID CA 165\n\nPriya\n\n--cut\nContent-Type: text/html; charset=utf-8\n\n"
            "<div>Hi all,</div><div>BID CA 1")
    return wire(head, text.encode())


def thunderbird_bottom_post(t: Table) -> bytes:
    head = common(t, f"Re: [{GID}] Turn report 1: Private auction") + \
        "User-Agent: Mozilla Thunderbird\nContent-Language: en-GB\n" \
        "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n"
    text = ("Hi all,\n\nOn 01/12/2026 09:00, PBEM Server wrote:\n"
            + "".join(f"> {line}\n" for line in REPORT_QUOTE)
            + f"\nPASSWORD {secret(t)}\nBID CA 165\n\ncheers, Priya\n\n-- \nPriya Raman\n")
    return wire(head, text.encode("ascii"))


def flowed_prose(t: Table) -> bytes:
    head = common(t) + "User-Agent: Mozilla Thunderbird\n" \
        "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n"
    text = crlf("Hi all, sorry for the slow answer: I had to think hard about whether to \n"
                "pass on the Camden & Amboy or to \nbuy it at last. In the end I will \n"
                f"bid.\n\nPASSWORD {secret(t)}\nBID CA 165\n\ncheers, Priya\n")
    return wire(head, text.encode("ascii"), crlf=True)


# -- the expectations ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One client's mail and what must come of it."""

    build: Callable[[Table], bytes]
    outcome: str
    applied: list[dict[str, Any]] = field(default_factory=list)
    says: tuple[str, ...] = ()
    """Texts the mail to the sender (report copy or reply) must contain."""
    never_says: tuple[str, ...] = ()


CHATTER = "Not read as orders:\n"
CASES: dict[str, Case] = {
    "Alpine": Case(alpine, "processed", [BID], (CHATTER + "  line 1: Hi all,\n  line 6: cheers, Priya\n",)),
    "The Bat!": Case(the_bat, "processed", [BID], ("BID CA 165", "line 1: Hello All,")),
    "Gmail multipart/alternative": Case(
        gmail_alternative, "processed", [BID], (CHATTER + "  line 1: Hi all,\n  line 6: cheers, Priya\n",),
        ("BUY SV\n", "wrote:")),
    "Outlook desktop header block": Case(outlook_header_block, "processed", [BID], ("line 6: Priya",),
                                         ("Sent:",)),
    "Outlook desktop in French, header block": Case(outlook_french_header_block, "processed", [BID],
                                                    ("line 6: Priya",), ("Envoy", "BUY SV")),
    "Outlook in German, forward": Case(outlook_german_forward, "processed", [BID], ("line 6: Priya",),
                                       ("Nachricht", "BUY SV")),
    "Outlook forward": Case(outlook_forward, "processed", [BUY_SV], ("BUY SV", "line 1: Hi GM,")),
    "iPhone": Case(iphone, "processed", [BID], ("line 6: Priya\n",), ("Sent from my iPhone",)),
    "signature of order words": Case(signature_of_order_words, "processed", [BID], ("line 6: cheers, Priya",),
                                     ("Buy low",)),
    "Gmail HTML only": Case(gmail_html_only, "processed", [BID], ("(read from the HTML part)", "Hi all & GM,"),
                            ("wrote:",)),
    "Mutt ISO-8859-1 8bit": Case(mutt_latin1, "processed", [BID],
                                 ("line 1: Grüße an alle,\n", "line 6: Jürgen\n")),
    "UTF-8 8bit without charset": Case(utf8_without_charset, "processed", [BID], ("schöne Grüße, Jürgen",)),
    "Outlook on the web, base64, RFC 2047 Subject": Case(outlook_web_base64, "processed", [BID],
                                                         ("line 6: Priya\n",), ("Sent:",)),
    "Apple Mail quoted-printable": Case(apple_mail_qp, "processed", [BID], ("BID CA 165", "Priya \u270c\ufe0f")),
    "unknown charset": Case(unknown_charset, "rejected", [],
                            ("character set we do not know", "x-mac-klingon")),
    "Thunderbird PGP/MIME protected headers": Case(thunderbird_pgp_signed, "processed", [BID],
                                                   ("line 6: cheers, Priya",)),
    "orders in a text attachment": Case(text_attachment, "processed", [BID],
                                        ("(read from the attachment orders.txt)",)),
    "RE: Fwd: Re: subject": Case(re_fwd_re, "processed", [BID]),
    "vacation auto-reply": Case(vacation, "ignored"),
    "Postfix bounce": Case(postfix_bounce, "ignored"),
    "X-Auto-Response-Suppress from a person": Case(auto_response_suppress, "processed", [BID]),
    "Mailman list copy": Case(mailman_copy, "ignored"),
    "wrong secret": Case(wrong_secret, "rejected", [], ("The PASSWORD does not match",), ("hunter22",)),
    "unregistered sender": Case(unregistered_sender, "rejected", [], ("has no seat in g1",)),
    "3 MB": Case(three_megabytes, "rejected", [], ("too large",)),
    "no closing boundary": Case(no_closing_boundary, "processed", [BID]),
    "Thunderbird bottom-post": Case(thunderbird_bottom_post, "processed", [BID], ("line 1: Hi all,",),
                                    ("wrote:", "BUY SV")),
    "format=flowed prose": Case(
        flowed_prose, "processed", [BID],
        ("line 1: Hi all, sorry for the slow answer: I had to think hard about whether to pass on the "
         "Camden & Amboy or to buy it at last. In the end I will bid.\n",)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_client_s_mail_is_handled_as_the_player_expects(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    table = Table(tmp_path / "data")
    raw = case.build(table)
    outcome, mails = table.send(raw)
    assert outcome == case.outcome, [body(m) for m in mails]
    assert [r["data"] for r in log_records(table.data)[1:]] == case.applied
    if case.outcome == "ignored":
        assert mails == []
        return
    sender = "stranger@elsewhere.example" if name == "unregistered sender" else P1
    mine = by_recipient(mails)[sender] if case.outcome == "processed" else only(mails)
    text = body(mine)
    if case.outcome == "processed":
        assert text.startswith("Your orders were accepted:\n"), text
    else:
        assert "was not applied" in text
    for piece in case.says:
        assert piece in text, (piece, text)
    for piece in case.never_says + (secret(table),):
        assert piece not in text, (piece, text)
        assert piece not in str(mine["Subject"])


def test_the_protected_subject_names_the_game_and_the_reply(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    raw = thunderbird_pgp_signed(table).replace(b"BID CA 165", b"HELP")
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    assert str(only(mails)["Subject"]) == f"Re: [{GID}] orders"


def test_a_redelivered_mail_is_applied_once(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    raw = alpine(table)
    assert table.send(raw)[0] == "processed"
    assert table.send(raw) == ("processed", [])
    assert [r["data"] for r in log_records(table.data)[1:]] == [BID]



# -- what the replies say -------------------------------------------------------------------------


def test_an_order_word_in_prose_refuses_the_whole_mail_quoting_the_line(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "Hi all,", "BID CA 165", "", "Buy me a beer if I win!")
    assert outcome == "rejected"
    assert len(log_records(table.data)) == 1, "all or nothing: the good bid is not applied either"
    text = body(only(mails))
    assert "The line that failed:\n  Buy me a beer if I win!\n(line 5 of your mail)\n" in text
    assert "these lines were not applied:\n  BID CA 165\n  Buy me a beer if I win!\n" in text
    assert "Not read as orders:\n  line 2: Hi all,\n" in text


def test_a_mail_of_only_chatter_is_told_no_orders_were_found(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "Thanks for the game, everyone!", "Hope PRR floats")
    assert outcome == "rejected"
    text = body(only(mails))
    assert "No orders were found in your mail" in text
    assert "Not read as orders:\n  line 2: Thanks for the game, everyone!\n  line 3: Hope PRR floats\n" in text
    assert "The line that failed" not in text
    entry = [json.loads(line) for line in (table.data / "handled.jsonl").read_text().splitlines()][-1]
    assert entry["kind"] == "no_orders" and entry["outcome"] == "rejected"


def test_a_refusal_says_when_it_cut_the_list_at_the_line_limit(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", max_lines=3)
    outcome, mails = table.order("Player 1", "BID CA 165", "BID CA 170", "PASS", "PASS", "PASS")
    assert outcome == "rejected"
    text = body(only(mails))
    assert "these lines were not applied:\n  BID CA 165\n  BID CA 170\n  PASS\n" \
        "(only the first 3 lines of your mail were read; the list stops there)\n" in text
    outcome, mails = table.order("Player 1", "BID CA 165", "BID CA 170")
    assert "the list stops there" not in body(only(mails))


def test_the_secret_is_masked_wherever_a_reply_quotes_the_player(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    mine = secret(table)
    outcome, mails = table.order("Player 1", f"my secret is {mine.upper()}", f"BUY {mine}",
                                 subject=f"[{GID}] orders {mine}")
    assert outcome == "rejected"
    reply = only(mails)
    assert mine not in body(reply).lower() and mine not in str(reply["Subject"]).lower()
    assert "line 2: my secret is ********" in body(reply)
    assert "The line that failed:\n  BUY ********\n" in body(reply)

    outcome, mails = table.order("Player 1", "Hi, my password is hunter2", "BID CA 165")
    assert outcome == "processed"
    assert "line 2: Hi, my password is ********\n" in body(by_recipient(mails)[P1])

    outcome, mails = table.order("Player 2", "HELP", subject=f"[{GID}] help PASSWORD {secret(table)}")
    assert outcome == "processed"
    assert str(only(mails)["Subject"]) == f"Re: [{GID}] help PASSWORD ********"


def test_replies_quote_the_player_in_utf8_and_reports_stay_ascii(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "Grüße, Jürgen", "BID CA 165")
    assert outcome == "processed"
    text = body(by_recipient(mails)[P1])
    assert "line 2: Grüße, Jürgen\n" in text
    report = text[text.index("=" * 20):]  # the turn report after the reply's head
    assert report.isascii() and table.room.archive(GID).entries()[0].path.read_text().isascii()
    outcome, mails = table.order("Player 2", "Zoë here", "BID CA 1")
    assert "line 2: Zoë here" in body(only(mails))
