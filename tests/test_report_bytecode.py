"""The report templates, once compiled, are kept for the next process (jinja2's bytecode
cache): a cold ``pbem report`` need not compile them again (the issue's cold-start goal)."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from pbem.reports import environment


def test_a_compiled_template_is_kept_for_the_next_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.txt.j2").write_text("{{ items | join(' ') }} end\n")
    first = environment.__wrapped__(tmp_path)
    assert isinstance(first.bytecode_cache, jinja2.FileSystemBytecodeCache)
    assert first.get_template("t.txt.j2").render(items=[1, 2]) == "1 2 end\n"
    again = environment.__wrapped__(tmp_path)  # as a new process would make it

    def no_compiling(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(again, "compile", no_compiling)
    assert again.get_template("t.txt.j2").render(items=[3]) == "3 end\n"


def test_a_changed_template_is_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "t.txt.j2"
    path.write_text("old {{ x }}\n")
    assert environment.__wrapped__(tmp_path).get_template("t.txt.j2").render(x=1) == "old 1\n"
    path.write_text("new {{ x }}\n")
    assert environment.__wrapped__(tmp_path).get_template("t.txt.j2").render(x=1) == "new 1\n"


def test_without_a_cache_folder_templates_are_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: object, directory: object = None, pattern: object = None) -> None:
        raise RuntimeError("no private temporary folder")

    monkeypatch.setattr(jinja2.FileSystemBytecodeCache, "__init__", refuse)
    (tmp_path / "t.txt.j2").write_text("{{ x }}\n")
    env = environment.__wrapped__(tmp_path)
    assert env.bytecode_cache is None
    assert env.get_template("t.txt.j2").render(x=2) == "2\n"
