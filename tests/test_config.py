"""pbem.config: the YAML config checked with pydantic; wrong keys are refused by dotted path."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.config import Config, load_config, parse_config
from pbem.errors import ConfigError

REPO = Path(__file__).resolve().parent.parent


def refused(data: object, *, base: Path | None = None) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(data, base=base)
    return str(info.value)


def test_defaults() -> None:
    for config in (parse_config({}), parse_config(None), load_config(None)):
        assert config.server.address == "pbem@localhost"
        assert config.server.id == "pbem"
        assert config.data_dir == Path("pbem-data")
        assert config.poll_interval == 60.0
        assert config.inbound.kind == "maildir" and config.inbound.imap is None
        assert config.inbound.maildir.path == Path("mail/inbox")
        assert config.outbound.kind == "maildir" and config.outbound.smtp is None
        assert config.outbound.maildir.path == Path("mail/delivered")
        assert (config.limits.max_message_bytes, config.limits.max_lines,
                config.limits.error_replies_per_hour) == (262144, 200, 10)


def test_every_section() -> None:
    config = parse_config({
        "server": {"address": "game@pbem.example", "id": "pbem-2"},
        "data_dir": "/srv/pbem",
        "poll_interval": 15,
        "inbound": {
            "kind": "imap",
            "maildir": {"path": "in"},
            "imap": {"host": "imap.example", "port": 143, "ssl": False, "user": "game",
                     "password_env": "IMAP_PW", "mailbox": "Orders", "timeout": 5},
        },
        "outbound": {
            "kind": "smtp",
            "maildir": {"path": "/var/mail/out"},
            "smtp": {"host": "smtp.example", "port": 465, "security": "tls", "user": "game",
                     "password_env": "SMTP_PW", "timeout": 7.5},
        },
        "limits": {"max_message_bytes": 4096, "max_lines": 20, "error_replies_per_hour": 0},
    })
    assert config.server.address == "game@pbem.example" and config.server.id == "pbem-2"
    assert config.data_dir == Path("/srv/pbem")
    assert config.poll_interval == 15.0
    imap = config.inbound.imap
    assert imap is not None
    assert (imap.host, imap.port, imap.ssl, imap.user, imap.password_env, imap.mailbox, imap.timeout) == (
        "imap.example", 143, False, "game", "IMAP_PW", "Orders", 5.0)
    smtp = config.outbound.smtp
    assert smtp is not None
    assert (smtp.host, smtp.port, smtp.security, smtp.user, smtp.password_env, smtp.timeout) == (
        "smtp.example", 465, "tls", "game", "SMTP_PW", 7.5)
    assert config.under_data(config.inbound.maildir.path) == Path("/srv/pbem/in")
    assert config.under_data(config.outbound.maildir.path) == Path("/var/mail/out")
    assert (config.limits.max_message_bytes, config.limits.max_lines,
            config.limits.error_replies_per_hour) == (4096, 20, 0)


def test_section_defaults_inside_imap_and_smtp() -> None:
    config = parse_config({
        "inbound": {"kind": "imap", "imap": {"host": "h", "user": "u", "password_env": "PW"}},
        "outbound": {"kind": "smtp", "smtp": {"host": "s"}},
    })
    imap, smtp = config.inbound.imap, config.outbound.smtp
    assert imap is not None and smtp is not None
    assert (imap.port, imap.ssl, imap.mailbox, imap.timeout) == (993, True, "INBOX", 30.0)
    assert (smtp.port, smtp.security, smtp.user, smtp.password_env) == (587, "starttls", None, None)


def test_imap_kind_without_imap_section_is_refused() -> None:
    message = refused({"inbound": {"kind": "imap"}})
    assert "inbound" in message and "imap section is missing" in message


def test_smtp_kind_without_smtp_section_is_refused() -> None:
    message = refused({"outbound": {"kind": "smtp"}})
    assert "outbound" in message and "smtp section is missing" in message


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"datadir": "x"}, "datadir"),
        ({"server": {"adress": "a@b"}}, "server.adress"),
        ({"inbound": {"maildir": {"path": "in", "folder": "x"}}}, "inbound.maildir.folder"),
        ({"inbound": {"kind": "imap", "imap": {"host": "h", "user": "u", "password_env": "P", "password": "x"}}},
         "inbound.imap.password"),
        ({"outbound": {"kind": "smtp", "smtp": {"host": "h", "tls": True}}}, "outbound.smtp.tls"),
        ({"limits": {"max_mails": 3}}, "limits.max_mails"),
    ],
)
def test_unknown_keys_are_refused_by_dotted_path(data: dict[str, object], path: str) -> None:
    message = refused(data)
    assert f"{path}: Extra inputs are not permitted" in message


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"poll_interval": "soon"}, "poll_interval"),
        ({"poll_interval": 0}, "poll_interval"),
        ({"limits": {"max_lines": "many"}}, "limits.max_lines"),
        ({"limits": {"max_message_bytes": 100}}, "limits.max_message_bytes"),
        ({"limits": {"error_replies_per_hour": -1}}, "limits.error_replies_per_hour"),
        ({"server": {"id": "has space"}}, "server.id"),
        ({"inbound": {"kind": "pop3"}}, "inbound.kind"),
        ({"inbound": {"kind": "imap", "imap": {"host": "h", "user": "u", "password_env": "P", "port": 0}}},
         "inbound.imap.port"),
        ({"outbound": {"kind": "smtp", "smtp": {"host": "h", "security": "ssl"}}}, "outbound.smtp.security"),
        ({"server": "pbem@x"}, "server"),
    ],
)
def test_wrong_values_are_refused_by_dotted_path(data: dict[str, object], path: str) -> None:
    message = refused(data)
    assert message.startswith("config refused: ")
    assert f"{path}: " in message


def test_every_problem_is_named() -> None:
    message = refused({"surprise": 1, "limits": {"max_lines": 0}})
    assert "surprise:" in message and "limits.max_lines:" in message


def test_a_config_that_is_not_a_mapping_is_refused() -> None:
    assert "mapping" in refused(["data_dir", "x"])
    assert "mapping" in refused("data_dir: x")


def test_password_env_names_a_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    config = parse_config({"inbound": {"kind": "imap", "imap": {"host": "h", "user": "u",
                                                                 "password_env": "PBEM_TEST_IMAP_PW"}}})
    assert config.inbound.imap is not None
    monkeypatch.delenv("PBEM_TEST_IMAP_PW", raising=False)
    with pytest.raises(ConfigError, match="PBEM_TEST_IMAP_PW"):
        config.secret(config.inbound.imap.password_env)
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", "s3cret")
    assert config.secret(config.inbound.imap.password_env) == "s3cret"
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", "")
    assert config.secret("PBEM_TEST_IMAP_PW") == ""
    assert config.secret(None) is None


def test_the_password_itself_is_not_in_the_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", "hunter2")
    config = parse_config({"outbound": {"kind": "smtp", "smtp": {"host": "h", "user": "u",
                                                                  "password_env": "PBEM_TEST_SMTP_PW"}}})
    assert "hunter2" not in config.model_dump_json()


def test_relative_data_dir_is_taken_from_the_config_files_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "etc" / "pbem"
    folder.mkdir(parents=True)
    path = folder / "pbem.yaml"
    path.write_text("data_dir: ./games-data\n")
    monkeypatch.chdir(tmp_path)
    config = load_config(Path("etc/pbem/pbem.yaml"))
    assert config.data_dir == folder.resolve() / "games-data"
    assert config.data_dir.is_absolute()
    assert config.under_data(config.inbound.maildir.path) == folder.resolve() / "games-data" / "mail" / "inbox"
    # the default data dir is also under the config file's folder
    path.write_text("poll_interval: 5\n")
    assert load_config(path).data_dir == folder.resolve() / "pbem-data"
    # an absolute one is kept
    path.write_text(f"data_dir: {tmp_path / 'elsewhere'}\n")
    assert load_config(path).data_dir == tmp_path / "elsewhere"
    # parse_config with a base does the same
    assert parse_config({"data_dir": "d"}, base=Path("/srv")).data_dir == Path("/srv/d")
    assert parse_config({"data_dir": "d"}).data_dir == Path("d")


def test_empty_config_file_gives_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing here\n")
    config = load_config(path)
    assert config.server.address == "pbem@localhost"
    assert config.data_dir == tmp_path.resolve() / "pbem-data"


def test_load_config_refuses_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("server: [oops\n")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        load_config(bad)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("limits:\n  max_lines: lots\n")
    with pytest.raises(ConfigError, match=r"limits\.max_lines"):
        load_config(wrong)


def test_the_example_config_is_valid() -> None:
    config = load_config(REPO / "config.example.yaml")
    assert isinstance(config, Config)
    assert config.server.address == "pbem@example.org"
    assert config.data_dir == REPO / "pbem-data"


@pytest.mark.parametrize("address", ["x@", "@", "pbem", "a@b", "a b@c.example", "<pbem@x.example>",
                                     "a@x.example, b@x.example", "Pbem <pbem@x.example>", ""])
def test_the_server_address_must_be_one_mail_address(address: str) -> None:
    message = refused({"server": {"address": address}})
    assert message.startswith("config refused: server.address: ")
    assert "is not a mail address" in message


@pytest.mark.parametrize("address", ["pbem@localhost", "pbem@pbem.example", "orders+1830@mail.example.org"])
def test_good_server_addresses(address: str) -> None:
    assert parse_config({"server": {"address": address}}).server.address == address


def test_the_route_search_is_bounded_by_a_count_and_an_old_time_limit_still_works() -> None:
    """``routes.search_budget`` (search steps, the default the engine's) bounds RUN AUTO; a
    config that still gives the former ``routes.time_limit`` in seconds gets a budget of that
    many seconds' steps, and an explicit budget wins."""
    from pbem.config import ROUTE_STEPS_PER_SECOND
    from pbem.engine.routes import DEFAULT_SEARCH_BUDGET

    assert parse_config({}).routes.search_budget == DEFAULT_SEARCH_BUDGET
    assert parse_config({"routes": {"search_budget": 40000}}).routes.search_budget == 40000
    assert parse_config({"routes": {"time_limit": 3}}).routes.search_budget == 3 * ROUTE_STEPS_PER_SECOND
    assert parse_config({"routes": {"time_limit": 3, "search_budget": 9000}}).routes.search_budget == 9000
    assert "routes.search_budget" in refused({"routes": {"search_budget": 10}})
