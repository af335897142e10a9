"""Server configuration: a YAML file checked with pydantic.

Passwords never live in the file: the file names the environment variable that holds each one
(``password_env``). A wrong file is refused with :class:`~pbem.errors.ConfigError` naming the
key (dotted path) and what was expected. See ``config.example.yaml``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pbem.addresses import valid_address
from pbem.errors import ConfigError


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ServerSection(_Strict):
    """Who we are: ``address`` receives the orders and sends everything; it must be one mail
    address (:func:`pbem.addresses.valid_address`)."""

    address: str = "pbem@localhost"
    id: str = Field(default="pbem", pattern=r"^[A-Za-z0-9_.-]+$")

    @field_validator("address")
    @classmethod
    def _one_address(cls, value: str) -> str:
        if not valid_address(value):
            raise ValueError(f"{value!r} is not a mail address (name@example.org)")
        return value


class MaildirIn(_Strict):
    """The embedded inbox: a Maildir folder (relative paths are under ``data_dir``)."""

    path: Path = Path("mail/inbox")


class ImapIn(_Strict):
    """An IMAP mailbox: implicit TLS when ``ssl`` (port 993), plain otherwise (loopback only)."""

    host: str
    port: int = Field(default=993, ge=1, le=65535)
    ssl: bool = True
    user: str
    password_env: str
    mailbox: str = "INBOX"
    timeout: float = Field(default=30.0, gt=0)


class InboundSection(_Strict):
    """Where order mail comes from."""

    kind: Literal["maildir", "imap"] = "maildir"
    maildir: MaildirIn = MaildirIn()
    imap: ImapIn | None = None

    @model_validator(mode="after")
    def _needs_imap(self) -> InboundSection:
        if self.kind == "imap" and self.imap is None:
            raise ValueError("kind is imap but the imap section is missing")
        return self


class MaildirOut(_Strict):
    """The embedded outbox: one Maildir per recipient under ``path``."""

    path: Path = Path("mail/delivered")


class SmtpOut(_Strict):
    """An SMTP server: ``tls`` (implicit, 465), ``starttls`` (587) or ``plain`` (loopback)."""

    host: str
    port: int = Field(default=587, ge=1, le=65535)
    security: Literal["tls", "starttls", "plain"] = "starttls"
    user: str | None = None
    password_env: str | None = None
    timeout: float = Field(default=30.0, gt=0)


class OutboundSection(_Strict):
    """Where our mail goes."""

    kind: Literal["maildir", "smtp"] = "maildir"
    maildir: MaildirOut = MaildirOut()
    smtp: SmtpOut | None = None

    @model_validator(mode="after")
    def _needs_smtp(self) -> OutboundSection:
        if self.kind == "smtp" and self.smtp is None:
            raise ValueError("kind is smtp but the smtp section is missing")
        return self


class LimitsSection(_Strict):
    """Size limits for incoming mail and the rate of error replies: per address and hour
    (``name+tag@domain`` counts as ``name@domain``), to senders who were not authenticated
    and, higher, to a seat or the GM who gave the right secret."""

    max_message_bytes: int = Field(default=262144, ge=1024)
    max_lines: int = Field(default=200, ge=1)
    error_replies_per_hour: int = Field(default=10, ge=0)
    error_replies_per_hour_authenticated: int = Field(default=30, ge=0)
    stranger_mail_retention_days: int = Field(default=30, ge=0)
    """Days the raw copy of mail from a sender never authenticated is kept (0: for good)."""


class ReportsSection(_Strict):
    """The reports' mails: ``pictures``, whether a mail carrying a full report shows the board
    as an inline PNG (issue 23; text-only readers lose nothing)."""

    pictures: bool = True


class SignupSection(_Strict):
    """Who may open a game by mail (``OPEN``): ``organisers``, addresses (any case), each mail
    carrying the organisers' password from the environment variable ``password_env`` (a From
    line alone can be forged). No organisers: games are opened with ``pbem open-game`` only."""

    organisers: list[str] = []
    password_env: str | None = None

    @field_validator("organisers")
    @classmethod
    def _addresses(cls, value: list[str]) -> list[str]:
        for address in value:
            if not valid_address(address):
                raise ValueError(f"{address!r} is not a mail address (name@example.org)")
        return value

    @model_validator(mode="after")
    def _needs_password(self) -> SignupSection:
        if self.organisers and not self.password_env:
            raise ValueError("organisers need password_env: the environment variable holding their password")
        return self


ROUTE_STEPS_PER_SECOND = 100_000
"""How an old config's ``routes.time_limit`` (seconds) becomes a search budget: about the
steps a small machine searches in a second."""


class RoutesSection(_Strict):
    """The route optimiser (RUN AUTO, and the best run shown in reports): ``search_budget``
    is the number of search steps it may take (a route extended or a combination of routes
    tried; a count, never the clock, so a replay gives the same run on any machine); after
    that the best run found is used, and the report says so. The former ``time_limit``
    (seconds) is still read, as ``time_limit`` x :data:`ROUTE_STEPS_PER_SECOND` steps, when
    ``search_budget`` is not given."""

    search_budget: int = Field(default=500_000, ge=1_000, le=200_000_000)
    time_limit: float | None = Field(default=None, gt=0, le=60)

    @model_validator(mode="after")
    def _budget_from_time_limit(self) -> RoutesSection:
        if self.time_limit is not None and "search_budget" not in self.model_fields_set:
            self.search_budget = max(1_000, int(self.time_limit * ROUTE_STEPS_PER_SECOND))
        return self


class WebSection(_Strict):
    """``pbem web``: where the read-only archive of the games is served (loopback unless
    another address is given here or with ``--host``)."""

    host: str = Field(default="127.0.0.1", min_length=1)
    port: int = Field(default=8018, ge=1, le=65535)


class Config(_Strict):
    """The whole configuration."""

    server: ServerSection = ServerSection()
    data_dir: Path = Path("pbem-data")
    inbound: InboundSection = InboundSection()
    outbound: OutboundSection = OutboundSection()
    poll_interval: float = Field(default=60.0, gt=0)
    limits: LimitsSection = LimitsSection()
    routes: RoutesSection = RoutesSection()
    signup: SignupSection = SignupSection()
    web: WebSection = WebSection()
    reports: ReportsSection = ReportsSection()

    def under_data(self, path: Path) -> Path:
        """``path`` itself if absolute, else under ``data_dir``."""
        return path if path.is_absolute() else self.data_dir / path

    def secret(self, env_name: str | None) -> str | None:
        """The value of environment variable ``env_name``.

        :raises ConfigError: the variable is named but not set.
        """
        if env_name is None:
            return None
        value = os.environ.get(env_name)
        if value is None:
            raise ConfigError(f"environment variable {env_name} (named in the config) is not set")
        return value


def _describe(error: dict[str, Any]) -> str:
    where = ".".join(str(p) for p in error["loc"]) or "(top level)"
    return f"{where}: {error['msg']}"


def parse_config(data: Any, *, base: Path | None = None) -> Config:
    """Check ``data`` (a mapping from YAML) and build the config; relative ``data_dir`` is
    taken from ``base`` (the config file's folder).

    :raises ConfigError: naming each wrong key and what was expected.
    """
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError("the config must be a mapping of keys to values")
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(_describe(e) for e in exc.errors())  # type: ignore[arg-type]
        raise ConfigError(f"config refused: {problems}") from None
    if base is not None and not config.data_dir.is_absolute():
        config = config.model_copy(update={"data_dir": base / config.data_dir})
    return config


def load_config(path: Path | None) -> Config:
    """Read the config at ``path``, or the embedded default (Maildir in ``./pbem-data``).

    :raises ConfigError: unreadable file, invalid YAML or wrong keys.
    """
    if path is None:
        return parse_config({})
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"config {path} is not valid YAML: {exc}") from None
    return parse_config(data, base=path.resolve().parent)


__all__ = ["Config", "load_config", "parse_config"]
