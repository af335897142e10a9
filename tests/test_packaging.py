"""A plain (non-editable) install carries everything pbem reads: the title data of
``rules/``, the templates of ``templates/`` and the demo script, inside the package.

The build is run for real (setuptools' ``build_py`` on a copy of the sources); the wheel
installed into a fresh virtual environment and ``pbem demo`` run from another folder are
checked by ``.ci/run``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

REPO = Path(__file__).resolve().parent.parent


def _pyproject() -> dict[str, object]:
    with (REPO / "pyproject.toml").open("rb") as fh:
        return tomllib.load(fh)


def test_every_package_of_the_source_tree_is_listed() -> None:
    """The package list is written out (two packages are mapped from top-level folders), so a
    new package left out of it would be missing from every plain install."""
    setuptools_table = _pyproject()["tool"]["setuptools"]  # type: ignore[index]
    listed = set(setuptools_table["packages"])
    assert listed == set(find_packages(str(REPO), include=["pbem", "pbem.*"])) | {"pbem.rules", "pbem.templates"}
    assert setuptools_table["package-dir"] == {"pbem.rules": "rules", "pbem.templates": "templates"}


def test_a_build_ships_the_rules_the_templates_and_the_demo_script(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    for folder in ("pbem", "rules", "templates"):
        shutil.copytree(REPO / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    lib = tmp_path / "lib"
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                    "--build-lib", str(lib)], cwd=src, check=True, capture_output=True)

    def data_files(root: Path, pattern: str) -> set[str]:
        return {str(p.relative_to(root)) for p in root.glob(pattern) if p.is_file()}

    for source, shipped, pattern in ((REPO / "rules", lib / "pbem" / "rules", "**/*.yaml"),
                                     (REPO / "templates", lib / "pbem" / "templates", "*.j2"),
                                     (REPO / "pbem" / "demodata", lib / "pbem" / "demodata", "*.yaml")):
        wanted = data_files(source, pattern)
        assert wanted, source
        assert data_files(shipped, pattern) == wanted
    assert (lib / "pbem" / "rules" / "1870" / "variants" / "dixon.yaml").is_file()
