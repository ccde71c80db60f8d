"""`tabletop doc`: Markdown references of each game, of the effect language and of the playtest metrics."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from table import GAMES
from web_helpers import copy_game

from engine import load_game
from engine.cli import main
from engine.lab.playtest import METRICS
from engine.lang.ops import OPS
from engine.lang.parser import grammar
from engine.lang.types import parse_type
from engine.load.schemas import validator
from engine.tools.doc import game_reference, language_reference, metrics_reference
from engine.tools.explain import card_list

REPO = Path(__file__).resolve().parents[1]


def tables_are_well_formed(text: str) -> bool:
    """Every row of a Markdown table has as many cells as its header."""
    widths = []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            widths.append(len(re.findall(r"(?<!\\)\|", line)))
        elif widths:
            if len(set(widths)) != 1:
                return False
            widths = []
    return True


@pytest.mark.parametrize("game, variant", GAMES)
def test_a_game_reference_names_every_part_of_the_game(game, variant):
    g = load_game(game, variant)
    text = game_reference(g)
    data = g.rules.data
    assert text.startswith(f"# {g.name}") and tables_are_well_formed(text)
    assert all(f"`{cid}`" in text for cid in g.card_texts)
    for section in ("zones", "procedures", "functions", "scoring", "tiebreakers", "rulings"):
        assert all(f"`{item['id']}" in text for item in data.get(section) or []), section
    names = list(data.get("variables") or {}) + list(data.get("player_variables") or {})
    assert all(f"`{name}`" in text for name in names)
    # the card effects in canonical form
    assert all(c["effect"] in text for c in card_list(g) if c["effect"])


def test_the_base_reference_lists_its_variants_and_a_variant_shows_its_own_rules():
    base = game_reference(load_game("cat-town"))
    assert "## Variants" in base and "- `advanced` — Cat Town — Advanced mode: Items may be placed" in base
    advanced = game_reference(load_game("cat-town", "advanced"))
    assert advanced.startswith("# Cat Town — Advanced mode (variant `advanced`)") and "## Variants" not in advanced
    assert "if c.broken:" in advanced and "if c.broken:" not in base


def test_a_variant_reference_shows_its_own_description_and_values(tmp_path):
    """A variant raising the goal to 8 is documented with goal 8 (set by the variant) and its own description,
    not the base's 'to 6 points'."""
    shutil.copytree(REPO / "rules" / "cat-town", tmp_path / "rules" / "cat-town")
    variant = tmp_path / "rules" / "cat-town" / "variants" / "long.yaml"
    variant.write_text(
        "extends: cat-town\nid: long\nname: Cat Town — long game\n"
        "description: The first player (team) to 8 points wins.\nconstants:\n  goal: 8\n",
        encoding="utf-8",
    )
    text = game_reference(load_game(variant))
    assert "| `goal` | 8 | this variant |" in text
    assert "to 8 points wins" in text and "to 6 points" not in text
    assert "| `goal` | 6 |" in game_reference(load_game("cat-town"))


def test_the_language_reference_has_every_operation_and_statement():
    text = language_reference()
    assert tables_are_well_formed(text)
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    named = [m.group(1) for row in rows if (m := re.match(r"\| `(\w+)", row))]
    assert all(named.count(name) == 1 for name in OPS)
    keywords = set(re.findall(r'"([a-z_]+)"', grammar())) - {
        "and",
        "or",
        "not",
        "in",
        "if",
        "else",
        "elif",
        "true",
        "false",
        "none",
    }
    statements = text[text.index("## Statements") : text.index("## Operations")]
    assert all(re.search(rf"\b{k}\b", statements) for k in keywords), keywords


def test_doc_writes_a_file_and_refuses_unclear_requests(tmp_path, capsys):
    out = tmp_path / "caty.md"
    assert main(["doc", "caty-mini", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == game_reference(load_game("caty-mini"))
    capsys.readouterr()
    for argv in (["doc"], ["doc", "caty-mini", "--language"], ["doc", "--language", "--metrics"]):
        assert main(argv) == 2
        assert "give one of GAME, --language or --metrics" in capsys.readouterr().err


def test_a_broken_variant_is_named_in_the_base_reference_not_fatal(tmp_path):
    """Found by the fuzzer: a variant that does not load made the base's reference fail."""
    import shutil

    for top in ("rules", "boards"):
        shutil.copytree(REPO / top / "caty-mini", tmp_path / top / "caty-mini")
    variant = tmp_path / "rules" / "caty-mini" / "variants" / "older-players.yaml"
    variant.write_text(
        variant.read_text(encoding="utf-8").replace("extends: caty-mini", "extends: caty-maxi"), encoding="utf-8"
    )
    text = game_reference(load_game(tmp_path / "rules" / "caty-mini" / "game.yaml"))
    assert "- `older-players` — does not load: " in text and "E301" in text


def test_the_metrics_reference_defines_every_playtest_metric(capsys):
    """One row per metric, each with its formula and the JSON keys it covers (tests/test_playtest.py
    checks that those keys cover every figure of a run); Ludii's names where Ludii has the idea."""
    assert main(["doc", "--metrics"]) == 0
    text = capsys.readouterr().out
    assert text == metrics_reference() and tables_are_well_formed(text)
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(METRICS)
    for row, metric in zip(rows, METRICS.values()):
        assert metric.formula in row and all(f"`{k}`" in row for k in metric.keys)
    for ludii in ("Balance", "Drawishness", "Completion", "Timeouts", "LeadChange", "Drama", "BranchingFactor"):
        assert f"| {ludii} |" in text


def test_doc_writes_a_games_own_words_as_text_not_html(tmp_path, capsys):
    """A name or description holding markup is shown as written in the Markdown, never run as HTML by a viewer."""
    game_file = copy_game(tmp_path, "caty-mini")
    rules = game_file.read_text()
    name = re.search(r"^name: .*$", rules, re.MULTILINE)
    assert name is not None
    rules = rules.replace(name.group(0), "name: \"Mini <script>alert('name')</script>\"", 1)
    rules = re.sub(
        r"^description: .*?(?=^\w)",
        "description: \"Cats & <img src=x onerror=alert('description')>.\"\n",
        rules,
        count=1,
        flags=re.MULTILINE | re.DOTALL,
    )
    game_file.write_text(rules)
    out = tmp_path / "mini.md"
    assert main(["doc", str(game_file), "-o", str(out)]) == 0, capsys.readouterr().err
    text = out.read_text()
    assert "<script>" not in text and "<img" not in text
    assert "# Mini &lt;script&gt;alert('name')&lt;/script&gt;" in text
    assert "Cats &amp; &lt;img src=x onerror=alert('description')&gt;." in text


def test_the_language_reference_spells_every_declared_type_a_rule_file_may_write():
    """A designer copying a row of the Types table gets a type the rules accept: records included."""
    text = language_reference()
    types = text[text.index("## Types") : text.index("## Reserved words")]
    assert "`list[{from: position, to: position}]`" in types
    examples = re.findall(r"\| `[^`]+` \| [^|]+ \| `([^`]+)` \|", types)
    assert len(examples) >= 7
    for example in examples:
        parse_type(example, {"colours"})


def test_every_declared_type_in_the_game_schema_says_records_are_allowed():
    """An editor's tooltip on `type:`, `params:` or `returns:` shows the whole type syntax, records included."""
    schema = json.loads((REPO / "schemas" / "game.schema.json").read_text(encoding="utf-8"))
    assert "{name: T, …}" in schema["$defs"]["type"]["description"]
    text = json.dumps(schema["properties"])
    assert (
        text.count('"$ref": "#/$defs/type"') == 6
    )  # variables, player variables, procedures', functions' params and returns
    assert 'or the name of an enum (e.g. colours)"' not in text
    errors = list(
        validator("game").iter_errors(
            {
                "id": "g",
                "name": "G",
                "players": {"min": 2, "max": 2},
                "play": "pass",
                "variables": {"moves": {"type": "list[{from: position, to: position}]", "initial": []}},
            }
        )
    )
    assert errors == []


def test_the_language_reference_says_how_the_fewest_points_win():
    text = language_reference()
    assert "`winner: lowest`" in text[text.index("## Who wins") :]


def test_the_language_reference_says_what_the_bots_read_of_the_rules():
    bots = language_reference().split("## Bots")[1].split("## Dice")[0]
    for key in ("`bots: greedy: value:`", "`bots: greedy: choices: {place: …}`", "`bots: mcts: standing:`"):
        assert key in bots


def test_the_language_reference_shows_a_variant_patch():
    text = language_reference()
    assert "`patch: [{id: king, value: 7}]`" in text[text.index("## Variants") :]
