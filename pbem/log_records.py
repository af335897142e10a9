"""Typed records of the action log: each line of ``log.jsonl`` parsed once into one of these.

The action log (:mod:`pbem.actionlog`) checks the hash chain on the JSON it read and then
hands out only these frozen values; nothing after it reads a record as a dict. The on-disk
shape is unchanged (the issue: existing logs and their hash chain must still verify):
:meth:`LogRecord.to_dict` gives back exactly the JSON object the record was read from, and
:func:`parse_record` is its inverse.

Every record has the envelope ``seq``, ``time``, ``actor``, ``by``, ``source``, ``prev``,
``hash`` and ``batch_end``; what the ``kind`` and ``data`` fields say is the record's own type:

========================  =============================  =======================================
``kind`` / ``data``       type                           meaning
========================  =============================  =======================================
``game``                  :class:`GameRecord`            record 0: title, variants, seats, GM
``action``                :class:`OrderRecord`           a game action (``data`` its JSON)
``undo`` ``{to_seq}``     :class:`UndoRecord`            take back the actions from ``to_seq`` on
``gm`` ``{command ...}``  :class:`GMRecord`              replace, pause, resume, end, broadcast,
                                                         deadline, press (the talk allowed)
``setting`` (``width``)   :class:`WidthRecord`           a seat's report width
``setting`` (``timing``)  :class:`TimingRecord`          the time allowed, its no-move policy
``setting`` (``away``)    :class:`AwayRecord`            a seat's absence
``setting`` (``mail``)    :class:`MailRecord`            how often a seat is mailed the report
``plan``                  :class:`PlanRecord`            a seat's standing orders, and their use
``proxy``                 :class:`ProxyRecord`           a proxy bid, and its use
``auto``                  :class:`AutoRecord`            a corporation's standing orders, and use
``deal`` ``{status ...}``     :class:`DealRecord`            a deal offered to another owner, or
                                                         its answer
``press`` ``{to, text}``  :class:`PressRecord`           table talk, relayed by mail
anything else             :class:`UnknownRecord`         kept as read, shown as its data
========================  =============================  =======================================

A record not yet written (no ``time``, ``prev``, ``hash``) is a *draft*: the same type with
those fields empty; :meth:`pbem.actionlog.ActionLog.append` seals it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Mapping

if TYPE_CHECKING:
    from pbem.engine.actions import Action

ENVELOPE = ("seq", "time", "kind", "actor", "by", "source", "data", "prev")
"""The fields every written record has, besides ``hash`` and (on a batch's last) ``batch_end``."""

GM_COMMANDS = ("replace", "pause", "resume", "end", "broadcast", "deadline", "press")
"""The ``command`` values of a ``gm`` record."""

_GM_FIELDS = ("seat", "email", "secret_hash", "text")


@dataclass(frozen=True, kw_only=True)
class LogRecord:
    """The envelope shared by every record.

    ``seq`` counts from 0; ``time`` is UTC ``YYYY-MM-DDTHH:MM:SSZ``; ``actor`` the seat (or
    ``"GM"``) the record is for; ``by`` the address that sent it; ``source`` the Message-ID
    of its mail (None for records not from a mail); ``prev`` and ``hash`` the sha256 hex of
    the chain (:func:`pbem.actionlog.record_hash`); ``batch_end`` true on the last record of
    one append. A draft has ``time``, ``prev`` and ``hash`` empty.
    """

    kind: ClassVar[str] = ""
    seq: int
    actor: str = "GM"
    by: str = ""
    source: str | None = None
    time: str = ""
    prev: str = ""
    hash: str = ""
    batch_end: bool = False

    def data(self) -> dict[str, Any]:
        """The record's ``data`` field, as written to disk."""
        raise NotImplementedError

    @property
    def kind_name(self) -> str:
        """The record's ``kind`` field."""
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the record on disk (the inverse of :func:`parse_record`)."""
        out: dict[str, Any] = {"seq": self.seq, "time": self.time, "kind": self.kind_name, "actor": self.actor,
                               "by": self.by, "source": self.source, "data": self.data(), "prev": self.prev}
        if self.batch_end:
            out["batch_end"] = True
        if self.hash:
            out["hash"] = self.hash
        return out

    def sealed(self, *, time: str, prev: str, batch_end: bool, hash_of: Any) -> LogRecord:
        """This record as written: with ``time``, ``prev``, ``batch_end`` and its hash
        (``hash_of``: the function from the JSON object to its hash)."""
        draft = dataclasses.replace(self, time=time, prev=prev, batch_end=batch_end, hash="")
        return dataclasses.replace(draft, hash=hash_of(draft.to_dict()))


@dataclass(frozen=True, kw_only=True)
class GameRecord(LogRecord):
    """Record 0: ``genesis`` is its data (``game_id``, ``title``, ``variants``, ``seats``,
    ``gm``, optional ``settings``; see :func:`pbem.games.genesis_data`)."""

    kind: ClassVar[str] = "game"
    genesis: Mapping[str, Any]

    def data(self) -> dict[str, Any]:
        return dict(self.genesis)


@dataclass(frozen=True, kw_only=True)
class OrderRecord(LogRecord):
    """A game action by seat ``actor``; ``action_data`` is the action's JSON
    (:meth:`pbem.engine.actions.Action.to_dict`)."""

    kind: ClassVar[str] = "action"
    action_data: Mapping[str, Any]

    def data(self) -> dict[str, Any]:
        return dict(self.action_data)

    def action_in(self, types: Mapping[str, type[Action]]) -> Action:
        """The engine's action, read with the title's own action types ``types``
        (:attr:`pbem.order_codecs.Vocabulary.action_types`) beside the core's.

        :raises ValueError: an action type or field this version does not know.
        """
        from pbem.engine.actions import action_from_dict

        return action_from_dict(dict(self.action_data), types)


@dataclass(frozen=True, kw_only=True)
class UndoRecord(LogRecord):
    """The actions in force from log number ``to_seq`` on are taken back."""

    kind: ClassVar[str] = "undo"
    to_seq: int

    def data(self) -> dict[str, Any]:
        return {"to_seq": self.to_seq}


@dataclass(frozen=True, kw_only=True)
class GMRecord(LogRecord):
    """A GM command (``command`` one of :data:`GM_COMMANDS`): ``replace`` has ``seat``,
    ``email`` and the new secret's ``secret_hash``; ``broadcast`` and ``deadline`` have
    ``text`` (``""`` clears a deadline); ``press`` has the table talk allowed as ``text``
    (``all``, ``private``, ``none``). Fields a command does not have are None."""

    kind: ClassVar[str] = "gm"
    command: str
    seat: str | None = None
    email: str | None = None
    secret_hash: str | None = None
    text: str | None = None

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"command": self.command}
        for name in _GM_FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


@dataclass(frozen=True, kw_only=True)
class WidthRecord(LogRecord):
    """Seat ``seat`` (or ``"GM"``) wants reports at most ``value`` columns wide (80 or 132)."""

    kind: ClassVar[str] = "setting"
    seat: str
    value: int

    def data(self) -> dict[str, Any]:
        return {"setting": "width", "seat": self.seat, "value": self.value}


@dataclass(frozen=True, kw_only=True)
class PressRecord(LogRecord):
    """Table talk from seat ``actor`` (or ``"GM"``) to every player (``to`` None) or to seat
    ``to``: ``text``, relayed by mail (issue 22). It never changes the game."""

    kind: ClassVar[str] = "press"
    to: str | None
    text: str

    def data(self) -> dict[str, Any]:
        return {"to": self.to, "text": self.text}


MAIL_VALUES = ("every", "turn", "round", "pictures-on", "pictures-off")
"""What a ``mail`` setting may say: how often, or whether the reports carry pictures."""


@dataclass(frozen=True, kw_only=True)
class MailRecord(LogRecord):
    """Seat ``seat`` (or ``"GM"``) is mailed the full report as ``value`` says (``every``,
    ``turn``, ``round``; issue 22), with or without the board's pictures (``pictures-on``,
    ``pictures-off``; issue 23); ``seat`` ``""``: the game's default, the GM's."""

    kind: ClassVar[str] = "setting"
    seat: str
    value: str

    def data(self) -> dict[str, Any]:
        return {"setting": "mail", "seat": self.seat, "value": self.value}


DEAL_ANSWERS = ("accepted", "declined", "lapsed")
"""The ``status`` of a ``deal`` record ending an offer (``lapsed``: unanswered within the
time the GM allows, TIMING DEALS)."""


@dataclass(frozen=True, kw_only=True)
class DealRecord(LogRecord):
    """A deal between different owners (issue 21): ``status`` ``offered`` (seat ``buyer``
    offers ``action_data``, an action's JSON, to seat ``owner``, standing in turn ``turn``:
    :func:`pbem.engine.deals.turn_key`), or an answer (:data:`DEAL_ANSWERS`) to the offer of
    log number ``deal``. An accepted deal's action follows as its own action record."""

    kind: ClassVar[str] = "deal"
    status: str
    deal: int | None = None
    buyer: str | None = None
    owner: str | None = None
    turn: str | None = None
    action_data: Mapping[str, Any] | None = None

    def data(self) -> dict[str, Any]:
        if self.status == "offered":
            return {"status": "offered", "buyer": self.buyer, "owner": self.owner, "turn": self.turn,
                    "action": dict(self.action_data or {})}
        return {"status": self.status, "deal": self.deal}


@dataclass(frozen=True, kw_only=True)
class TimingRecord(LogRecord):
    """The GM sets the time allowed (issue 21: deadlines that act): in rounds of kind
    ``round`` (``auction``, ``stock``, ``operating``) ``hours`` (0: no deadline) and the
    no-move ``policy`` (``wait``, ``pass``, ``default``); ``round`` ``remind``: a reminder
    ``hours`` before a deadline; ``away``: ``hours`` is the days of absence a seat may take
    in a year (the seat ``seat`` only, where given: the GM's grant); ``deals``: a deal
    offered lapses after ``hours`` unanswered (0: when the buyer's turn ends). ``policy`` is
    empty for the last three."""

    kind: ClassVar[str] = "setting"
    round: str
    hours: int
    policy: str = ""
    seat: str = ""

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"setting": "timing", "round": self.round, "hours": self.hours, "policy": self.policy}
        if self.seat:
            out["seat"] = self.seat
        return out


@dataclass(frozen=True, kw_only=True)
class AwayRecord(LogRecord):
    """Seat ``seat`` is away from day ``first`` to day ``last`` (ISO dates, UTC, both
    included): its deadlines move past the absence (issue 21)."""

    kind: ClassVar[str] = "setting"
    seat: str
    first: str
    last: str

    def data(self) -> dict[str, Any]:
        return {"setting": "away", "seat": self.seat, "from": self.first, "to": self.last}


PLAN_STATUSES = ("set", "cancel", "used")
"""The ``status`` of a ``plan`` record."""


@dataclass(frozen=True, kw_only=True)
class PlanRecord(LogRecord):
    """A seat's standing orders (issue 21; :mod:`pbem.application.plans`): ``set`` gives
    the plan's ``entries`` (canonical text), sent in round ``round``, replacing the seat's
    plan; ``cancel`` drops it; ``used`` says what became of entry ``index`` when the seat's
    turn came (``outcome``: ``applied``, ``else``, ``left``, ``kept``, ``over``, ``refused``,
    ``expired``; ``note`` the reason of a refusal). An order a plan gives follows as its
    own action record."""

    kind: ClassVar[str] = "plan"
    status: str
    seat: str
    entries: tuple[str, ...] = ()
    round: str = ""
    index: int = 0
    outcome: str = ""
    note: str = ""

    def data(self) -> dict[str, Any]:
        if self.status == "set":
            return {"status": "set", "seat": self.seat, "entries": list(self.entries), "round": self.round}
        if self.status == "cancel":
            return {"status": "cancel", "seat": self.seat}
        return {"status": "used", "seat": self.seat, "index": self.index, "outcome": self.outcome,
                "note": self.note}


@dataclass(frozen=True, kw_only=True)
class ProxyRecord(LogRecord):
    """A proxy bid (issue 21): ``set``, seat ``seat`` bids on private ``company`` up to
    ``limit`` (money), raising by the least step whenever asked to raise or pass while that
    private is auctioned; ``used``, the proxy answered such a call (``limit`` the price it
    bid, 0: it passed, the limit reached), its bid or pass following as an action record;
    ``cancel``, every proxy of the seat is dropped (CANCEL, TAKEBACK)."""

    kind: ClassVar[str] = "proxy"
    status: str
    seat: str
    company: str
    limit: int

    def data(self) -> dict[str, Any]:
        return {"status": self.status, "seat": self.seat, "company": self.company, "limit": self.limit}


@dataclass(frozen=True, kw_only=True)
class AutoRecord(LogRecord):
    """A corporation's standing orders (issue 21): ``set``, its president ``seat`` has each
    operating turn of ``corporation`` played by the safe default with ``dividend``
    (``payout`` or ``withhold``; ``""``: the standing orders end); ``used``, they gave the
    action record that follows."""

    kind: ClassVar[str] = "auto"
    status: str
    seat: str
    corporation: str
    dividend: str = ""

    def data(self) -> dict[str, Any]:
        return {"status": self.status, "seat": self.seat, "corporation": self.corporation, "dividend": self.dividend}


@dataclass(frozen=True, kw_only=True)
class UnknownRecord(LogRecord):
    """A record of a kind (or shape) this version does not know: kept as it was read."""

    record_kind: str
    raw_data: Mapping[str, Any]

    @property
    def kind_name(self) -> str:
        return self.record_kind

    def data(self) -> dict[str, Any]:
        return dict(self.raw_data)


def _body(kind: str, data: Mapping[str, Any]) -> tuple[type[LogRecord], dict[str, Any]] | None:
    """The record type and its own fields for ``kind`` and ``data``, or None when the data
    is not exactly that type's (so nothing read is lost)."""
    keys = set(data)
    if kind == "game":
        return GameRecord, {"genesis": dict(data)}
    if kind == "action" and isinstance(data.get("type"), str):
        return OrderRecord, {"action_data": dict(data)}
    if kind == "undo" and keys == {"to_seq"} and type(data["to_seq"]) is int:
        return UndoRecord, {"to_seq": data["to_seq"]}
    if (kind == "gm" and data.get("command") in GM_COMMANDS and keys <= {"command", *_GM_FIELDS}
            and all(isinstance(data.get(f, ""), str) for f in _GM_FIELDS)):
        return GMRecord, {"command": data["command"], **{f: data[f] for f in _GM_FIELDS if f in data}}
    if (kind == "setting" and keys == {"setting", "seat", "value"} and data["setting"] == "width"
            and isinstance(data["seat"], str) and type(data["value"]) is int):
        return WidthRecord, {"seat": data["seat"], "value": data["value"]}
    if (kind == "setting" and data.get("setting") == "mail" and keys == {"setting", "seat", "value"}
            and isinstance(data["seat"], str) and data["value"] in MAIL_VALUES):
        return MailRecord, {"seat": data["seat"], "value": data["value"]}
    if kind == "deal":
        return _deal_body(data)
    if (kind == "press" and keys == {"to", "text"} and isinstance(data["text"], str)
            and (data["to"] is None or isinstance(data["to"], str))):
        return PressRecord, {"to": data["to"], "text": data["text"]}
    if kind == "plan":
        return _plan_body(data)
    if (kind == "auto" and keys == {"status", "seat", "corporation", "dividend"} and data["status"] in ("set", "used")
            and all(isinstance(data[k], str) for k in ("seat", "corporation", "dividend"))):
        return AutoRecord, {"status": data["status"], "seat": data["seat"], "corporation": data["corporation"],
                            "dividend": data["dividend"]}
    if (kind == "proxy" and keys == {"status", "seat", "company", "limit"} and data["status"] in ("set", "used", "cancel")
            and isinstance(data["seat"], str) and isinstance(data["company"], str) and type(data["limit"]) is int):
        return ProxyRecord, {"status": data["status"], "seat": data["seat"], "company": data["company"],
                             "limit": data["limit"]}
    if (kind == "setting" and data.get("setting") == "timing"
            and keys in ({"setting", "round", "hours", "policy"}, {"setting", "round", "hours", "policy", "seat"})
            and isinstance(data["round"], str) and type(data["hours"]) is int and isinstance(data["policy"], str)
            and isinstance(data.get("seat", ""), str)):
        return TimingRecord, {"round": data["round"], "hours": data["hours"], "policy": data["policy"],
                              "seat": data.get("seat", "")}
    if (kind == "setting" and data.get("setting") == "away" and keys == {"setting", "seat", "from", "to"}
            and all(isinstance(data[k], str) for k in ("seat", "from", "to"))):
        return AwayRecord, {"seat": data["seat"], "first": data["from"], "last": data["to"]}
    return None


def _deal_body(data: Mapping[str, Any]) -> tuple[type[LogRecord], dict[str, Any]] | None:
    keys = set(data)
    if (data.get("status") == "offered" and keys == {"status", "buyer", "owner", "turn", "action"}
            and all(isinstance(data[k], str) for k in ("buyer", "owner", "turn"))
            and isinstance(data["action"], Mapping)):
        return DealRecord, {"status": "offered", "buyer": data["buyer"], "owner": data["owner"],
                            "turn": data["turn"], "action_data": dict(data["action"])}
    if data.get("status") in DEAL_ANSWERS and keys == {"status", "deal"} and type(data["deal"]) is int:
        return DealRecord, {"status": data["status"], "deal": data["deal"]}
    return None


def _plan_body(data: Mapping[str, Any]) -> tuple[type[LogRecord], dict[str, Any]] | None:
    keys, status = set(data), data.get("status")
    if not isinstance(data.get("seat"), str):
        return None
    if (status == "set" and keys == {"status", "seat", "entries", "round"} and isinstance(data["round"], str)
            and isinstance(data["entries"], list) and all(isinstance(e, str) for e in data["entries"])):
        return PlanRecord, {"status": "set", "seat": data["seat"], "entries": tuple(data["entries"]),
                            "round": data["round"]}
    if status == "cancel" and keys == {"status", "seat"}:
        return PlanRecord, {"status": "cancel", "seat": data["seat"]}
    if (status == "used" and keys == {"status", "seat", "index", "outcome", "note"} and type(data["index"]) is int
            and isinstance(data["outcome"], str) and isinstance(data["note"], str)):
        return PlanRecord, {"status": "used", "seat": data["seat"], "index": data["index"],
                            "outcome": data["outcome"], "note": data["note"]}
    return None


def parse_record(raw: Mapping[str, Any]) -> LogRecord:
    """The typed record of one JSON object of the log (its chain already checked).

    A record whose data is not exactly one known type's is an :class:`UnknownRecord` (its
    data kept as read). The round trip ``parse_record(d).to_dict() == d`` holds for every
    record :meth:`pbem.actionlog.ActionLog.append` writes (the hash chain is checked on the
    JSON as read, never on a record rebuilt from these types).

    :raises ValueError: ``raw`` has no integer ``seq`` or its envelope fields are not JSON
        strings (a log this version cannot read).
    """
    seq = raw.get("seq")
    if type(seq) is not int:
        raise ValueError(f"record without a sequence number: {dict(raw)!r}")
    kind = str(raw.get("kind", ""))
    data = raw.get("data")
    if not isinstance(data, Mapping):
        data = {}
    envelope: dict[str, Any] = {
        "seq": seq, "actor": str(raw.get("actor", "")), "by": str(raw.get("by") or ""),
        "source": raw.get("source") if isinstance(raw.get("source"), str) else None,
        "time": str(raw.get("time", "")), "prev": str(raw.get("prev", "")), "hash": str(raw.get("hash", "")),
        "batch_end": bool(raw.get("batch_end", False)),
    }
    body = _body(kind, data)
    record: LogRecord
    if body is not None:
        cls, fields = body
        record = cls(**envelope, **fields)
    else:
        record = UnknownRecord(**envelope, record_kind=kind, raw_data=dict(data))
    return record


def parse_records(raws: list[dict[str, Any]]) -> list[LogRecord]:
    """:func:`parse_record` of each JSON object, in order."""
    return [parse_record(r) for r in raws]


def draft_order(seq: int, actor: str, action: Action, *, by: str, source: str | None) -> OrderRecord:
    """The draft record of ``action`` by ``actor`` at log number ``seq``."""
    return OrderRecord(seq=seq, actor=actor, by=by, source=source, action_data=action.to_dict())
