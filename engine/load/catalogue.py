"""What games there are (``tabletop list``): each with its one-line description, players and variants.

Read from each game.yaml and variant file as data, without compiling the rules: listing a folder is
quick, and a game whose rules do not load is still listed (``tabletop validate`` says what is wrong).
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.errors import LoadError
from engine.load.documents import data_root, display_path
from engine.load.yaml_source import read_yaml

__all__ = ["first_sentence", "list_games"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def first_sentence(text: object) -> str:
    """The first sentence of a description, on one line."""
    flat = " ".join(str(text or "").split())
    return _SENTENCE_END.split(flat, maxsplit=1)[0]


def list_games(folder: Path | None = None) -> list[dict]:
    """One entry per game.yaml in ``folder`` (default: the shipped rules), sorted by id."""
    root = data_root() / "rules" if folder is None else Path(folder)
    return sorted((_entry(game_file) for game_file in root.rglob("game.yaml")), key=lambda g: g["id"])


def _entry(game_file: Path) -> dict:
    try:
        data = read_yaml(game_file, display_path(game_file)).data
    except LoadError as exc:
        return {
            "id": game_file.parent.name,
            "path": display_path(game_file),
            "name": None,
            "description": None,
            "players": None,
            "variants": [],
            "problem": exc.diagnostics[0].format(with_context=False),
        }
    data = data if isinstance(data, dict) else {}
    players: dict = data["players"] if isinstance(data.get("players"), dict) else {}
    variants = []
    for variant_file in sorted((game_file.parent / "variants").glob("*.yaml")):
        problem = None
        try:
            vdata = read_yaml(variant_file, display_path(variant_file)).data
        except LoadError as exc:
            vdata, problem = None, exc.diagnostics[0].format(with_context=False)
        vdata = vdata if isinstance(vdata, dict) else {}
        variants.append(
            {
                "id": variant_file.stem,
                "name": vdata.get("name"),
                "description": first_sentence(vdata.get("description")) or None,
                "problem": problem,
            }
        )
    return {
        "id": str(data.get("id", game_file.parent.name)),
        "path": display_path(game_file),
        "name": data.get("name"),
        "description": first_sentence(data.get("description")) or None,
        "players": [players.get("min"), players.get("max")],
        "variants": variants,
        "problem": None,
    }
