"""The ``draw:`` hints of game and board files, merged: colours, icons, marks and names for any renderer."""

from __future__ import annotations

from dataclasses import dataclass, field

NEUTRAL = "#cccccc"


@dataclass(frozen=True)
class Hints:
    """The game's and a board's ``draw:`` hints, merged (the board's win)."""

    colours: dict = field(default_factory=dict)
    icons: dict = field(default_factory=dict)
    marks: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)

    @classmethod
    def merged(cls, *parts: dict) -> Hints:
        out: dict[str, dict] = {"colours": {}, "icons": {}, "marks": {}, "names": {}}
        for part in parts:
            for key, table in out.items():
                table.update(part.get(key) or {})
        return cls(**out)

    def colour(self, *values, default: str = NEUTRAL) -> str:
        for v in values:
            if isinstance(v, str) and v in self.colours:
                return self.colours[v]
        return default

    def icon(self, *values) -> str:
        for v in values:
            if isinstance(v, str) and v in self.icons:
                return self.icons[v]
        return ""
