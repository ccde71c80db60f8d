"""engine/ runs any game and names none: no shipped game's words in its code, pages, styles or grammar.

A game's words are what its files declare: the ids of its cards, zones, boards, rooms, functions,
procedures and rulings; its enums and their values; its variables, constants and card attributes;
its tags and point names; the kinds of its decisions and the words of its option records.  What a
renderer needs of them comes from the files' ``draw:`` hints.  Words of the format itself (its
schemas, operations and reserved words) are the engine's own; GENERIC lists the plain English words
that games and engine both use in their ordinary sense.
"""

import re
from pathlib import Path

import pytest
import yaml

from engine.lang.ops import OPS
from engine.lang.words import RESERVED

REPO = Path(__file__).resolve().parents[1]
ENGINE_TEXT = (".py", ".js", ".html", ".css", ".lark", ".json", ".md", ".txt")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9]")
ID = re.compile(r"[a-z][a-z0-9_-]*[a-z0-9]\Z")
DECLARED_BY_KEY = {"enums", "constants", "variables", "player_variables", "attributes"}  # their keys are names
NAMES = {"id", "tags", "group", "label", "kind"}  # their values are names
PROGRAMS = {"setup", "play", "effect", "value", "does", "points"}  # their text holds decision kinds and records
SPACE = re.compile(r"[a-z]{1,2}\d+\Z")  # a grid space's name (b3), as the engine names spaces
SPOKEN = re.compile(r'choose\s+"([a-z][a-z0-9_-]*)"|[{,]\s*\w+:\s*"([a-z][a-z0-9_-]*)"')

ENGLISH = """
    act advanced again ahead aside bid black block blocks box character crossed current deck
    discard done empty found give goal grey hand identified identity king lay leader left library lost
    marker moved moves next objects passes passing pawn pay pile place pos put
    reactions red round scored searching sides stack strength swap take walk yellow
"""  # plain English words that games and engine both use in their ordinary sense
GENERIC = frozenset(ENGLISH.split())


def _names(node, out: set[str], key: str | None = None) -> None:
    """Every name a rule or board file declares, walked from its YAML."""
    if isinstance(node, dict):
        for k, v in node.items():
            if key in DECLARED_BY_KEY:
                out.add(str(k))
            if k == "enums" and isinstance(v, dict):
                out.update(x for values in v.values() for x in values if isinstance(x, str))
            _names(v, out, k)
    elif isinstance(node, list):
        for v in node:
            _names(v, out, key)
    elif isinstance(node, str):
        if key in NAMES and ID.match(node):
            out.add(node)
        if key in PROGRAMS:
            out.update(m.group(1) or m.group(2) for m in SPOKEN.finditer(node))


def game_words(english: frozenset[str] = GENERIC) -> set[str]:
    """The words of every shipped game, but the format's own and the ``english`` ones."""
    words: set[str] = set()
    for path in sorted(REPO.glob("rules/**/*.yaml")) + sorted(REPO.glob("boards/**/*.yaml")):
        _names(yaml.safe_load(path.read_text(encoding="utf-8")), words)
    own = set(OPS) | set(RESERVED)
    for schema in REPO.glob("schemas/*.schema.json"):
        own |= set(WORD.findall(schema.read_text(encoding="utf-8")))
    return {w for w in words if ID.match(w) and not SPACE.match(w)} - own - english


def game_names() -> list[str]:
    """Every shipped game's and variant's name, as a designer writes it."""
    paths = sorted(REPO.glob("rules/*/game.yaml")) + sorted(REPO.glob("rules/*/variants/*.yaml"))
    return [yaml.safe_load(p.read_text(encoding="utf-8"))["name"] for p in paths]


def found_in(text: str, words: set[str], names: list[str]) -> list[str]:
    """The game words and names (as written, whole words) that a text names."""
    hits = sorted({w for w in WORD.findall(text) if w in words})
    return hits + [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)]


@pytest.fixture(scope="module")
def words() -> set[str]:
    return game_words()


def test_the_words_of_every_shipped_game_are_gathered(words):
    for word in ("tabby", "token_pile", "cat-house", "run_path", "notch", "mansion", "crazy-eights", "trick"):
        assert word in words, word
    assert len(words) > 300
    assert {"Caty Mini", "Cat Town", "Cats' Mansion", "Whist"} <= set(game_names())


def test_a_game_word_in_engine_text_is_found(words):
    found = found_in('line.append(f" — {cost} string, no toys yet in the notch")  # see Cat Town', words, game_names())
    assert found == ["notch", "toys", "Cat Town"]


def engine_files() -> list[Path]:
    return [p for p in sorted((REPO / "engine").rglob("*")) if p.is_file() and p.suffix in ENGINE_TEXT]


def test_each_plain_english_word_allowed_is_a_game_word_engine_uses():
    used = {w for p in engine_files() for w in WORD.findall(p.read_text(encoding="utf-8"))}
    needless = sorted(GENERIC - (game_words(frozenset()) & used))
    assert not needless, f"not needed in ENGLISH any more: {needless}"


def test_no_file_of_engine_names_a_shipped_game_or_its_words(words):
    names = game_names()
    files = engine_files()
    assert len(files) > 50
    problems = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = found_in(line, words, names)
            if hits:
                problems.append(f"{path.relative_to(REPO)}:{number}: {', '.join(hits)}")
    assert not problems, "game words in engine/ (move them into the games' draw: hints):\n" + "\n".join(problems)
