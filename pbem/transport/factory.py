"""Build the configured transports (the only place that maps config sections to classes)."""

from __future__ import annotations

from pbem.config import Config
from pbem.transport.base import InboundTransport, OutboundTransport
from pbem.transport.imap import ImapInbound
from pbem.transport.maildir import MaildirInbound, MaildirOutbound
from pbem.transport.smtp import SmtpOutbound


def inbound_from_config(config: Config) -> InboundTransport:
    """The inbound transport named by ``config.inbound.kind``.

    :raises ConfigError: a password variable named in the config is not set.
    """
    section = config.inbound
    if section.kind == "imap":
        imap = section.imap
        assert imap is not None
        return ImapInbound(
            imap.host, imap.port, imap.user, config.secret(imap.password_env) or "",
            ssl=imap.ssl, mailbox=imap.mailbox, timeout=imap.timeout,
        )
    return MaildirInbound(config.under_data(section.maildir.path))


def outbound_from_config(config: Config) -> OutboundTransport:
    """The outbound transport named by ``config.outbound.kind``.

    :raises ConfigError: a password variable named in the config is not set.
    """
    section = config.outbound
    if section.kind == "smtp":
        smtp = section.smtp
        assert smtp is not None
        return SmtpOutbound(
            smtp.host, smtp.port, security=smtp.security, username=smtp.user,
            password=config.secret(smtp.password_env), timeout=smtp.timeout,
        )
    return MaildirOutbound(config.under_data(section.maildir.path))
