"""Outbound transport over SMTP (RFC 5321) with aiosmtplib.

Each message opens its own connection with :func:`aiosmtplib.send` (a long-lived client can
hang after the server timed it out: cole/aiosmtplib#243), always with an explicit TLS mode
(``start_tls=None`` would upgrade whenever STARTTLS is offered: cole/aiosmtplib#187) and an
explicit ``timeout`` (cole/aiosmtplib#208). Nothing is retried here: the durable outbox
(:mod:`pbem.transport.outbox`) retries transient failures with back-off.
"""

from __future__ import annotations

import ssl
from email.message import EmailMessage
from typing import Literal

import aiosmtplib

from pbem.transport.base import PermanentSendError, TransientSendError

Security = Literal["tls", "starttls", "plain"]
"""``tls``: TLS from connect on (port 465, RFC 8314); ``starttls``: plain connect then a
required STARTTLS (port 587, RFC 3207); ``plain``: no TLS at all (loopback/tests only)."""


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class SmtpOutbound:
    """Outbound transport to an SMTP submission server (see
    :class:`~pbem.transport.base.OutboundTransport`).

    :param host: server name or address.
    :param port: usually 465 for ``tls``, 587 for ``starttls``.
    :param security: see :data:`Security`.
    :param username: AUTH user, or None for no AUTH; ``password`` goes with it.
    :param timeout: seconds for connect and for each SMTP reply.
    :param envelope_sender: the MAIL FROM address; None takes it from Sender/From, ``""``
        sends the null sender ``<>`` (RFC 3834 pure auto-responses).
    :param tls_context: certificates to trust (default: the system's).

    Recipients are the To, Cc and Bcc addresses; the Bcc header is not transmitted.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        security: Security,
        username: str | None = None,
        password: str | None = None,
        timeout: float = 30.0,
        envelope_sender: str | None = None,
        tls_context: ssl.SSLContext | None = None,
    ) -> None:
        if security not in ("tls", "starttls", "plain"):
            raise ValueError(f"security must be 'tls', 'starttls' or 'plain', not {security!r}")
        if (username is None) != (password is None):
            raise ValueError("give both username and password, or neither")
        self.host = host
        self.port = port
        self.security: Security = security
        self.username = username
        self._password = password
        self.timeout = timeout
        self.envelope_sender = envelope_sender
        self._tls_context = tls_context

    async def send(self, message: EmailMessage) -> None:
        """Send ``message`` over a new connection.

        :raises PermanentSendError: every recipient refused, a 5xx reply (sender refused,
            AUTH failed, DATA rejected), a missing server feature (e.g. SMTPUTF8 or STARTTLS),
            a message without recipients, or some recipients refused while others accepted
            (retrying would deliver twice to those that accepted; the message says who).
        :raises TransientSendError: connection refused/lost, TLS failure, timeout, a 4xx
            reply, or STARTTLS required but not offered (a server setting, so retried).
        """
        try:
            errors, _reply = await aiosmtplib.send(
                message,
                hostname=self.host,
                port=self.port,
                sender=self.envelope_sender,
                username=self.username,
                password=self._password,
                use_tls=self.security == "tls",
                start_tls=self.security == "starttls",
                tls_context=self._tls_context,
                timeout=self.timeout,
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [r.code for r in exc.recipients]
            text = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
            if codes and all(400 <= c < 500 for c in codes):
                raise TransientSendError(f"all recipients refused for now: {text}") from exc
            raise PermanentSendError(f"all recipients refused: {text}") from exc
        except aiosmtplib.SMTPResponseException as exc:
            # Before the connection classes: SMTPConnectResponseError is both.
            if 500 <= exc.code < 600:
                raise PermanentSendError(_describe(exc)) from exc
            raise TransientSendError(_describe(exc)) from exc
        except (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPTimeoutError) as exc:
            raise TransientSendError(_describe(exc)) from exc
        except aiosmtplib.SMTPNotSupported as exc:
            raise PermanentSendError(_describe(exc)) from exc
        except aiosmtplib.SMTPException as exc:  # e.g. STARTTLS not offered: a server-side state
            raise TransientSendError(_describe(exc)) from exc
        except (OSError, ssl.SSLError) as exc:
            raise TransientSendError(_describe(exc)) from exc
        except ValueError as exc:  # aiosmtplib: no sender/recipients in the message
            raise PermanentSendError(_describe(exc)) from exc
        if errors:
            text = "; ".join(f"{addr}: {code} {msg}" for addr, (code, msg) in errors.items())
            raise PermanentSendError(f"delivered only in part; refused: {text}")
