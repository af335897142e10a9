"""Names of single pieces: a train (:class:`TrainId`) and a share certificate as 18xx.games
names it (:class:`ShareId`).

Both are frozen values whose ``str()`` is the text the pieces had when they were strings
(``"3-1"``, ``"PRR_1"``) and whose ``parse`` reads that text back; text appears only where
the pieces leave the engine (reports, 18xx.games records). They are equal when their fields
are, never equal to text. Train ids sort as their text did (``"2+2-0"`` before ``"2-0"``,
``"3-10"`` before ``"3-2"``), so a search that breaks ties by train id keeps its order. The
text is made once, when the value is built; hashing and sorting use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TrainId:
    """Train ``number`` of type ``kind`` (``"3"``, ``"D"``, ``"2+2"``, ``"4T"``): ``"3-1"`` is
    the second 3-train. Numbers start at 0.

    :raises ValueError: an empty ``kind`` or a negative ``number``.
    """

    kind: str
    number: int
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.kind or self.number < 0:
            raise ValueError(f"no train id of type {self.kind!r} and number {self.number}")
        object.__setattr__(self, "_text", f"{self.kind}-{self.number}")

    @classmethod
    def parse(cls, text: str) -> TrainId:
        """``"3-1"`` -> ``TrainId("3", 1)``; the number follows the last ``-``.

        :raises ValueError: no ``-``, an empty type, or a number that is not digits."""
        kind, sep, number = text.rpartition("-")
        if not sep or not kind or not number.isascii() or not number.isdigit():
            raise ValueError(f"{text!r} is no train id (<type>-<number>, e.g. 3-1)")
        return cls(kind, int(number))

    def __str__(self) -> str:
        return self._text

    def __hash__(self) -> int:
        return hash(self._text)

    def __lt__(self, other: TrainId) -> bool:
        return self._text < other._text

    def __le__(self, other: TrainId) -> bool:
        return self._text <= other._text

    def __gt__(self, other: TrainId) -> bool:
        return self._text > other._text

    def __ge__(self, other: TrainId) -> bool:
        return self._text >= other._text


@dataclass(frozen=True, slots=True)
class ShareId:
    """Certificate ``index`` of ``corporation`` as 18xx.games names it: ``"PRR_0"`` is the
    PRR's president's certificate, ``"PRR_1"`` its first ordinary share.

    :raises ValueError: an empty ``corporation`` or a negative ``index``.
    """

    corporation: str
    index: int
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.corporation or self.index < 0:
            raise ValueError(f"no share id of {self.corporation!r} and index {self.index}")
        object.__setattr__(self, "_text", f"{self.corporation}_{self.index}")

    @classmethod
    def parse(cls, text: str) -> ShareId:
        """``"PRR_1"`` -> ``ShareId("PRR", 1)``; the index follows the last ``_``.

        :raises ValueError: no ``_``, an empty symbol, or an index that is not digits."""
        corporation, sep, index = text.rpartition("_")
        if not sep or not corporation or not index.isascii() or not index.isdigit():
            raise ValueError(f"{text!r} is no share id (<corporation>_<index>, e.g. PRR_1)")
        return cls(corporation, int(index))

    def __str__(self) -> str:
        return self._text

    def __hash__(self) -> int:
        return hash(self._text)
