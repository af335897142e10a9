"""Finding and reading a title's YAML files, and applying variant overlays.

A title lives in ``rules/<title>/`` as a few YAML files (``game.yaml``, ``companies.yaml``,
``corporations.yaml``, ``market.yaml``, ``trains.yaml``, ``map.yaml``, optionally
``extras.yaml``); ``rules/tiles.yaml`` is the tile catalogue every title shares. A variant is
``rules/<title>/variants/<name>.yaml``: a mapping from file stem to a partial document that is
deep-merged over the title's (mappings merge key by key, lists and scalars replace); it may
``include`` other variants.
"""

from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import ConfigError

RULES_DIR = Path(str(resources.files("pbem.rules")))
"""The title and variant data: the repository's top-level ``rules/`` folder, which the build
ships inside the package as ``pbem.rules`` (found with :mod:`importlib.resources`, so a wheel
and an editable install read the same files)."""

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it (about eight times faster), else the
pure-Python one; both read the same documents."""


def read_rules_yaml(path: Path) -> Any:
    """Parse one rules file (safe YAML only).

    :raises ConfigError: the file is missing or is not valid YAML.
    """
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=_Loader)  # noqa: S506 - a safe loader
    except FileNotFoundError:
        raise ConfigError(f"rules file missing: {path}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"rules file {path} is not valid YAML: {exc}") from None


def deep_merged(base: Any, overlay: Any) -> Any:
    """``overlay`` merged into ``base``: mappings key by key, anything else (lists included)
    replaced by the overlay's value."""
    if isinstance(base, dict) and isinstance(overlay, dict):
        merged = dict(base)
        for key, value in overlay.items():
            merged[key] = deep_merged(base.get(key), value) if key in base else value
        return merged
    return copy.deepcopy(overlay)


def read_parts(title: str, rules_dir: Path = RULES_DIR) -> dict[str, Any]:
    """The title's parts: every ``rules/<title>/parts/*.yaml`` by file stem -> parsed YAML
    (a title built from pieces, 1825's units and kits, keeps each piece's facts there for its
    composer to compose); ``{}`` for a title without the folder.

    :raises ConfigError: a part that is not valid YAML.
    """
    folder = rules_dir / title / "parts"
    if not folder.is_dir():
        return {}
    return {path.stem: read_rules_yaml(path) for path in sorted(folder.glob("*.yaml"))}


def known_titles(rules_dir: Path = RULES_DIR) -> list[str]:
    """The titles with data under ``rules_dir`` (a folder holding a ``game.yaml``)."""
    return sorted(p.name for p in rules_dir.iterdir() if (p / "game.yaml").is_file())


def available_variants(title: str, rules_dir: Path = RULES_DIR) -> list[str]:
    """Names of the variants under ``rules/<title>/variants/``."""
    folder = rules_dir / title / "variants"
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def variant_overlays(
    title: str, variants: tuple[str, ...], rules_dir: Path = RULES_DIR
) -> list[tuple[Path, dict[str, Any]]]:
    """The overlays of the named variants, in the order they apply: ``(file, {file stem:
    partial document})``. A variant may ``include`` others (a list of names), applied just
    before it — a variant that is a set of options, like 1870's original rules; each variant
    applies once.

    :raises ConfigError: an unknown variant (the message lists the known ones), or a variant
        file that is not a mapping.
    """
    folder = rules_dir / title / "variants"
    ordered: list[tuple[Path, dict[str, Any]]] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        path = folder / f"{name}.yaml"
        if not path.is_file():
            raise ConfigError(
                f"unknown variant {name!r} for {title}; known: "
                f"{', '.join(available_variants(title, rules_dir)) or 'none'}"
            )
        doc = read_rules_yaml(path) or {}
        if not isinstance(doc, dict):
            raise ConfigError(f"{path}: a variant is a mapping of file name to changes")
        overlay = dict(doc)
        included = overlay.pop("include", None) or []
        if not isinstance(included, list):
            raise ConfigError(f"{path}: include: a list of variant names")
        for other in included:
            visit(str(other))
        ordered.append((path, overlay))

    for variant in variants:
        visit(variant)
    return ordered
