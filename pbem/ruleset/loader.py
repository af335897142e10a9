"""Loading a title: its YAML read once, variants overlaid, checked against the schema, and
built into the frozen :class:`~pbem.engine.title.TitleData` the engine is given.

Source: issue 11 ("a loader outside the engine reads the title's data once into a frozen,
typed ruleset ... that the engine is given"; "an unknown ... key fails the load with the file
and key named").
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import functools
import operator
import types
import typing
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Literal, Mapping, Sequence, Union

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, create_model

from pbem.engine.settings import Settings
from pbem.engine.abilities import Ability
from pbem.engine.title import (
    CompanyData,
    CorporationData,
    MarketCell,
    PhaseData,
    TitleData,
    TrainData,
)
from pbem.errors import ConfigError
from pbem.ruleset import schema
from pbem.ruleset.board import load_tiles, map_from_document, read_map_document, title_tiles
from pbem.ruleset.composer import TitleComposer
from pbem.ruleset.files import (
    RULES_DIR,
    deep_merged,
    known_titles,
    read_parts,
    read_rules_yaml,
    variant_overlays,
)

STEMS = ("game", "companies", "corporations", "market", "trains", "extras")
"""The files a title's :class:`TitleData` is built from (``map.yaml`` and ``tiles.yaml`` are
read by :mod:`pbem.ruleset.board`); ``extras.yaml`` is optional."""

if TYPE_CHECKING:
    from pbem.engine.hooks import TitleHooks
    from pbem.presentation import TitlePresentation


@functools.lru_cache(maxsize=64)
def load_title(title: str, variants: tuple[str, ...] = (), rules_dir: Path = RULES_DIR,
               hooks: TitleHooks | None = None,
               composer: type[TitleComposer] | None = None,
               presentation: type[TitlePresentation] | None = None) -> TitleData:
    """Load ``rules/<title>/`` with the named variant overlays applied in order, the map and
    tile catalogue (``<rules_dir>/tiles.yaml``), and the title's hooks: ``hooks`` if given (a
    title whose code lives outside :mod:`pbem.titles`, such as the tests' made-up title),
    else :func:`pbem.titles.hooks_for`; likewise its ``composer``
    (else :func:`pbem.titles.composer_class`) and ``presentation`` (else
    :func:`pbem.titles.presentation_class`). Cached per process by its arguments: the
    result is immutable.

    After the overlays and before the schema check, the composer's
    :meth:`~pbem.ruleset.composer.TitleComposer.compose` builds the documents from the title's
    parts (``rules/<title>/parts/*.yaml``, :func:`pbem.ruleset.files.read_parts`) for the variants
    (1825's units and kits); most titles have no parts and leave the documents as they are.

    :raises ConfigError: unknown title or variant, missing file, invalid YAML, an unknown key
        or a bad value (the message names the file and the key path, ``a.b.0.c``).
    """
    folder = rules_dir / title
    if not (folder / "game.yaml").is_file():
        raise ConfigError(f"unknown title {title!r}; known titles: {', '.join(known_titles(rules_dir))}")
    variants = tuple(variants)
    sources: dict[str, list[tuple[Path, Any]]] = {}
    docs: dict[str, Any] = {}
    for stem in STEMS:
        path = folder / f"{stem}.yaml"
        if stem == "extras" and not path.is_file():
            docs[stem] = {}
            sources[stem] = []
            continue
        docs[stem] = read_rules_yaml(path)
        sources[stem] = [(path, docs[stem])]
    for path, overlay in variant_overlays(title, variants, rules_dir):
        for stem, part in overlay.items():
            if stem == "map":
                continue  # read by read_map_document
            if stem not in docs:
                raise ConfigError(f"{path}: overlays unknown file {stem!r} (known: {', '.join(STEMS)}, map)")
            docs[stem] = deep_merged(docs[stem], part)
            sources[stem].append((path, part))
    docs["map"] = read_map_document(title, rules_dir, variants)
    from pbem.titles import composer_class, hooks_for, presentation_class  # they import the engine

    composer_type = composer if composer is not None else composer_class(title)
    docs = composer_type.compose(docs, read_parts(title, rules_dir), variants)
    game = _validated(schema.GameData, docs["game"], sources["game"])
    kinds = composer_type.ability_kinds()
    companies = _validated(_companies_adapter(tuple(kinds.values())), docs["companies"], sources["companies"])
    corporations = _validated(schema.CorporationsFile, docs["corporations"], sources["corporations"])
    market = _validated(schema.MarketFile, docs["market"], sources["market"])
    trains = _validated(schema.TrainsFile, docs["trains"], sources["trains"])
    extras = _validated(schema.ExtrasFile, docs["extras"] or {}, sources["extras"])
    board = map_from_document(docs["map"], folder / "map.yaml", rules_dir)
    return TitleData(
        title=game.title,
        name=game.name,
        variants=variants,
        currency=game.currency,
        bank_cash=game.bank_cash,
        min_players=game.players.min,
        max_players=game.players.max,
        starting_cash=MappingProxyType(dict(game.starting_cash)),
        certificate_limit=MappingProxyType(dict(game.certificate_limit)),
        settings=_settings(game, composer_type.settings_type(), _title_rules(game, composer_type, sources["game"]),
                           sources["game"]),
        companies=tuple(_company(c, kinds) for c in companies),
        corporations=_corporations(corporations),
        market=_market(market, folder / "market.yaml"),
        market_legend=MappingProxyType(dict(market.zone_text)),
        trains=tuple(_train(t) for t in trains.trains),
        phases=tuple(_phase(p) for p in trains.phases),
        round_steps=MappingProxyType({k: tuple(v) for k, v in game.round_steps.items()}),
        extras=MappingProxyType(extras.model_dump(exclude_unset=True)),
        board=board,
        tiles=title_tiles(load_tiles(rules_dir / "tiles.yaml"), board),
        hooks=hooks if hooks is not None else hooks_for(title),
        presentation=(presentation if presentation is not None else presentation_class(title))(),
    )


def _title_rules(game: schema.GameData, composer: type[TitleComposer],
                 sources: Sequence[tuple[Path, Any]]) -> dict[str, bool | int | str]:
    """``game``'s ``title_rules`` checked against the settings the title's ``composer``
    declares, their defaults filled in.

    :raises ConfigError: a setting the title does not declare, or a value of another type
        than its default's (the file and the key named).
    """
    declared = composer.title_rules()
    given = game.title_rules or {}
    for key, value in given.items():
        where = _source_of(sources, ("title_rules", key))
        if key not in declared:
            raise ConfigError(f"{where}: title_rules.{key}: not a setting of this title "
                              f"(known: {', '.join(declared) or 'none'})")
        if type(value) is not type(declared[key]):
            raise ConfigError(f"{where}: title_rules.{key}: a {type(declared[key]).__name__}, "
                              f"not {value!r}")
    return {**declared, **given}


def _settings(game: schema.GameData, settings_type: type[Settings],
              title_rules: Mapping[str, bool | int | str], sources: Sequence[tuple[Path, Any]]) -> Settings:
    """The engine's typed, frozen settings (``settings_type``: the core's
    :class:`~pbem.engine.settings.Settings` or the title's subclass) from the checked
    ``game``; a key the files leave out keeps the default the dataclass states.

    :raises ConfigError: a key the schema knows that is not a setting of this title (the
        file named)."""
    fields = {f.name for f in dataclasses.fields(settings_type)}
    hints = typing.get_type_hints(settings_type)
    given: dict[str, Any] = {}
    for key in game.model_fields_set - schema.IDENTITY_KEYS - {"title_rules"}:
        value = getattr(game, key)
        if value is None:
            continue
        if key not in fields:
            raise ConfigError(f"{_source_of(sources, (key,))}: {key}: not a setting of this title")
        given[key] = _typed(value, hints[key])
    return settings_type(**given, title_rules=MappingProxyType(dict(title_rules)))


def _typed(value: Any, hint: Any) -> Any:
    """``value`` (as the schema checked it: lists, dicts, pydantic models) as the frozen type
    ``hint`` (of a setting or an ability's field) names: a tuple for ``tuple[X, ...]``, a
    read-only mapping for ``Mapping``, a frozenset, a dataclass built from a model's set keys
    that are its fields (an ability's ``kind`` tag is its class)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in args if a is not type(None)]
        return _typed(value, inner[0]) if len(inner) == 1 else value
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if isinstance(value, BaseModel):
        value = {k: getattr(value, k) for k in value.model_fields_set if getattr(value, k) is not None}
    if dataclasses.is_dataclass(hint) and isinstance(hint, type) and isinstance(value, dict):
        inner_hints = typing.get_type_hints(hint)
        names = {f.name for f in dataclasses.fields(hint)}
        return hint(**{k: _typed(v, inner_hints[k]) for k, v in value.items() if k in names})
    if origin is tuple:
        return tuple(_typed(v, args[0]) for v in value)
    if origin is frozenset:
        return frozenset(value)
    if origin in (collections.abc.Mapping, dict):
        return MappingProxyType({k: _typed(v, args[1]) for k, v in value.items()})
    return value


def _validated(model: type[Any] | TypeAdapter[Any], doc: Any, sources: Sequence[tuple[Path, Any]]) -> Any:
    """``doc`` checked against ``model``; the first error names the file it comes from (the
    last of ``sources`` holding its key path: a variant's overlay or the title's own file)
    and the key path.

    :raises ConfigError: the document does not fit the schema.
    """
    try:
        if isinstance(model, TypeAdapter):
            return model.validate_python(doc)
        return model.model_validate(doc)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = _without_tags(doc, tuple(error["loc"]))
        held = loc[:-1] if error["type"] == "missing" else loc  # a missing key: where its mapping is
        where = _source_of(sources, held)
        key = ".".join(str(part) for part in loc) or "(top level)"
        problem = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ConfigError(f"{where}: {key}: {problem}{more}") from None


def _source_of(sources: Sequence[tuple[Path, Any]], loc: tuple[Any, ...]) -> Path | None:
    """The file that set the key path ``loc``: the last of ``sources`` (the title's own file,
    then each variant's overlay) holding it, else the title's own file."""
    return next((path for path, part in reversed(sources) if _holds(part, loc)), sources[0][0] if sources else None)


def _without_tags(doc: Any, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """``loc`` without the tags pydantic puts in the path of a value told apart by its
    ``kind`` (an ability: ``0.abilities.0.blocks_hexes.hexs`` is ``0.abilities.0.hexs``)."""
    node, kept = doc, []
    for part in loc:
        if isinstance(node, dict) and part not in node and node.get("kind") == part:
            continue
        kept.append(part)
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
    return tuple(kept)


def _holds(doc: Any, loc: tuple[Any, ...]) -> bool:
    """Whether ``doc`` has something at the key path ``loc`` (mapping keys, list indexes);
    a path through a value pydantic tried as one of several types (a union) may carry the
    type's name, which is skipped."""
    node = doc
    for part in loc:
        if isinstance(node, dict):
            match = next((k for k in node if str(k) == str(part)), _MISSING)
            if match is _MISSING:
                return False
            node = node[match]
        elif isinstance(node, list) and isinstance(part, int):
            if not 0 <= part < len(node):
                return False
            node = node[part]
        elif isinstance(part, str):
            continue
        else:
            return False
    return True


_MISSING = object()


def _company(c: Any, kinds: Mapping[str, type[Ability]]) -> CompanyData:
    """A checked company (of :func:`_companies_adapter`'s model) with its abilities typed by
    ``kinds`` (name -> class)."""
    abilities: list[Ability] = [_typed(a, kinds[a.kind]) for a in c.abilities]
    return CompanyData(sym=c.sym, name=c.name, value=c.value, revenue=c.revenue, abilities=tuple(abilities))


@functools.lru_cache(maxsize=16)
def _companies_adapter(kinds: tuple[Any, ...]) -> TypeAdapter[list[Any]]:
    """A checker of ``companies.yaml`` whose abilities are the ``kinds`` given, each checked
    against its class's fields (an unknown key or kind fails the load, the path named)."""
    models = tuple(_model_of(kind) for kind in kinds)
    ability: Any = Annotated[Union[models], Field(discriminator="kind")]
    company: Any = create_model("CompanyOfTitle", __base__=schema.Company,
                                abilities=(list[ability], Field(default_factory=list)))
    return TypeAdapter(list[company])


@functools.lru_cache(maxsize=64)
def _model_of(cls: Any) -> type[BaseModel]:
    """A strict pydantic model of the frozen dataclass ``cls`` (an ability, or a value inside
    one): its fields with their types and defaults; an ability's ``kind`` as its tag; a field
    ``from_`` read from the key ``from``."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        alias = f.name[:-1] if f.name.endswith("_") else None
        if f.default_factory is not dataclasses.MISSING:
            found = Field(default_factory=f.default_factory, alias=alias)
        else:
            found = Field(f.default if f.default is not dataclasses.MISSING else ..., alias=alias)
        fields[f.name] = (_model_hint(hints[f.name]), found)
    kind = getattr(cls, "kind", None)
    if kind:
        fields["kind"] = (Literal[kind], ...)
    return create_model(f"{cls.__name__}Data", __base__=schema.Strict, **fields)


def _model_hint(hint: Any) -> Any:
    """``hint`` with each frozen dataclass in it replaced by its model (:func:`_model_of`),
    and read-only mappings read as dicts."""
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _model_of(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is None or origin is Literal or not args:
        return hint
    inner = tuple(_model_hint(a) for a in args)
    if origin in (types.UnionType, typing.Union):
        return functools.reduce(operator.or_, inner)
    if origin is collections.abc.Mapping:
        return dict.__class_getitem__(inner)
    return origin[inner]


def _corporations(doc: schema.CorporationsFile) -> tuple[CorporationData, ...]:
    defaults = doc.defaults
    return tuple(
        CorporationData(
            sym=c.sym,
            name=c.name,
            tokens=tuple(c.tokens if c.tokens is not None else defaults.tokens or ()),
            home=c.home or "",
            shares=tuple(c.shares if c.shares is not None else defaults.shares),
            float_percent=next(p for p in (c.float_percent, defaults.float_percent, 60) if p is not None),
            home_city=c.home_city,
            short=c.short if c.short is not None else c.sym[:3],
            color=c.color,
            kind=c.kind or defaults.kind or "major",
            par=c.par,
            extras=MappingProxyType({"destination": c.destination} if c.destination else {}),
        )
        for c in doc.corporations
    )


def _market(doc: schema.MarketFile, path: Path) -> tuple[tuple[MarketCell | None, ...], ...]:
    """The market's rows with a variant's ``changes`` applied (``{"row,col": cell}``, top row
    0, left column 0, so a variant names only the cells it changes)."""
    rows = [list(row) for row in doc.rows]
    for where, text in doc.changes.items():
        try:
            row, col = (int(part) for part in str(where).split(","))
            rows[row][col] = text
        except (ValueError, IndexError):
            raise ConfigError(f"{path}: changes.{where}: not a cell of the market (write \"row,col\")") from None
    zones = {letter: zone.model_dump(exclude_none=True) for letter, zone in doc.zones.items()}
    return tuple(tuple(_cell(str(cell), zones, path) for cell in row) for row in rows)


def _cell(text: str, zones: Mapping[str, Mapping[str, Any]], path: Path) -> MarketCell | None:
    text = text.strip()
    if not text:
        return None
    digits = "".join(ch for ch in text if ch.isdigit())
    letters = "".join(ch for ch in text if ch.isalpha())
    if not digits:
        raise ConfigError(f"{path}: market cell {text!r}: no price")
    flags: dict[str, Any] = {}
    for letter in letters:
        if letter not in zones:
            raise ConfigError(f"{path}: market cell {text!r}: unknown zone letter {letter!r}")
        flags.update(zones[letter])
    zone = "".join(ch for ch in letters if ch != "p")
    return MarketCell(price=int(digits), zone=zone, **flags)


def _train(t: schema.Train) -> TrainData:
    return TrainData(
        name=t.name,
        distance=t.distance,
        price=t.price,
        count=None if t.count == "unlimited" else t.count,
        rusts_on=t.rusts_on,
        available_on=t.available_on,
        events=tuple(t.events),
        trade_in=MappingProxyType(dict(t.trade_in)),
    )


def _phase(p: schema.Phase) -> PhaseData:
    return PhaseData(
        name=p.name,
        on=p.on_train,
        train_limit=p.train_limit,
        tiles=tuple(p.tiles),
        operating_rounds=p.operating_rounds,
        corporations_may_buy_privates=p.corporations_may_buy_privates,
    )

