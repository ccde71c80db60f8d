"""`tabletop diff`: what a variant, or an edited copy, changes in a game's rules."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine import load_game
from engine.cli import main
from engine.load.documents import known_variants, resolve
from engine.load.yaml_source import read_yaml
from engine.tools.diff import compare

REPO = Path(__file__).resolve().parents[1]
SHIPPED = [("caty-mini", "older-players"), ("cat-town", "easy"), ("cat-town", "advanced")]


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def stated(game: str, variant: str) -> set[tuple[str, str]]:
    """(section, item id or key) of everything a variant file states."""
    data = read_yaml(resolve(game, variant)[1], "v").data
    out = set()
    for section, value in data.items():
        if section in ("extends", "id", "name", "description"):
            continue
        if section == "remove":
            out |= {(s, i) for s, ids in value.items() for i in ids}
        elif isinstance(value, dict):
            out |= {(section, k) for k in value}
        elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
            out |= {(section, item["id"]) for item in value}
        else:  # a value as a whole (a number, a list of names)
            out.add((section,))
    return out


@pytest.mark.parametrize("game, variant", SHIPPED)
def test_a_variant_changes_exactly_what_its_file_states(game, variant):
    """The diff from the base names each item the variant file states (lint keeps the file
    free of repeats of the base), and nothing else."""
    assert variant in known_variants(REPO / "rules" / game)
    changes = compare(load_game(game), load_game(game, variant))
    assert {c.where[:2] for c in changes} == stated(game, variant)


def test_a_variant_compared_with_itself_says_the_same(capsys):
    code, out, _ = run(capsys, "diff", "cat-town", "--variant", "easy", "--against", "easy")
    assert code == 0 and out.strip() == "cat-town:easy says the same as cat-town:easy"


def test_easy_from_the_base_reads_as_line_diffs(capsys):
    code, out, _ = run(capsys, "diff", "cat-town", "--variant", "easy")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "from cat-town to cat-town:easy: 6 changes"
    assert "+ scoring_reveals" in lines
    at = lines.index("~ functions › may_search › value")
    assert lines[at + 1 : at + 4] == ["    @@ -1 +1 @@", "    -true", "    +false"]
    at = lines.index("~ functions › may_search › text")
    assert lines[at + 1 : at + 3] == [
        "    - whether the player may choose a Search action",
        "    + nobody searches in Easy mode",
    ]
    assert "+ rulings › easy-reveals" in lines and "    + id: easy-reveals" in lines


def test_one_variant_against_another(capsys):
    code, out, _ = run(capsys, "diff", "cat-town", "--variant", "advanced", "--against", "easy", "--json")
    data = json.loads(out)
    assert code == 0 and (data["from"], data["to"]) == ("cat-town:easy", "cat-town:advanced")
    changed = {tuple(c["where"]): c for c in data["changes"]}
    # Easy's end-of-turn reveals are not in Advanced: back to the base's 'pass'
    assert changed[("procedures", "end_of_turn", "does")]["after"] == "pass"
    assert changed[("zones", "front")]["change"] == "added"


@pytest.fixture
def copy(tmp_path) -> Path:
    """An editable copy of Cat Town; returns its game.yaml."""
    shutil.copytree(REPO / "rules" / "cat-town", tmp_path / "rules" / "cat-town")
    return tmp_path / "rules" / "cat-town" / "game.yaml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edited_copy_against_the_shipped_game(capsys, copy):
    edit(copy, "  goal: 6\n", "  goal: 5\n")
    edit(
        copy.parent / "cards.yaml",
        "          show(top_cards(b, size(b)), me)\n",
        "          show(top_cards(b, 3), me)\n",
    )
    code, out, _ = run(capsys, "diff", copy, "--against", "cat-town")
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"from cat-town to {copy}: 2 changes"
    assert lines[1:4] == ["~ constants › goal", "    - 6", "    + 5"]
    at = lines.index("~ components › card › items › cat-map › effect")
    assert "    -show(top_cards(b, size(b)), me)" in lines[at:] and "    +show(top_cards(b, 3), me)" in lines[at:]


def test_rewriting_a_program_without_changing_it_is_no_change(capsys, copy):
    """Programs are compared in canonical form: spacing, parentheses and line breaks do not count."""
    edit(
        copy.parent / "cards.yaml",
        "          show(top_cards(b, size(b)), me)\n",
        "          show( top_cards( b ,(size(b)) ) ,\n               me )\n",
    )
    assert compare(load_game("cat-town"), load_game(copy)) == []


def test_a_removed_item_is_shown_with_its_fields(tmp_path, copy):
    variant = copy.parent / "variants" / "short.yaml"
    variant.write_text("extends: cat-town\nid: short\nname: short\nremove:\n  rulings: [redeal]\n", encoding="utf-8")
    changes = compare(load_game(copy), load_game(copy, "short"))
    assert [(c.kind, c.where) for c in changes] == [("removed", ("rulings", "redeal"))]
    assert changes[0].lines[0] == "- id: redeal"


def test_an_unknown_variant_is_a_diagnostic_not_a_traceback(capsys):
    code, _, err = run(capsys, "diff", "cat-town", "--variant", "advnced")
    assert code == 1 and "E101" in err and "did you mean 'advanced'?" in err


@pytest.mark.parametrize("one, other", [(None, "easy"), (None, "advanced"), ("easy", "advanced")])
def test_the_diff_back_is_the_diff_reversed(one, other):
    """From B to A names the same places as from A to B, additions and removals swapped."""
    a, b = load_game("cat-town", one), load_game("cat-town", other)
    swap = {"added": "removed", "removed": "added", "changed": "changed"}
    forth = {(c.where, c.kind): (c.before, c.after) for c in compare(a, b)}
    back = {(c.where, swap[c.kind]): (c.after, c.before) for c in compare(b, a)}
    assert forth == back and forth
