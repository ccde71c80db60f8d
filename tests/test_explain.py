"""`tabletop explain`: codes, operations and parts of a game, from the one place each is defined."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import load_game
from engine.cli import main
from engine.lang.ops import OPS
from engine.tools.codes import CODES
from engine.tools.explain import explain, topics

REPO = Path(__file__).resolve().parents[1]


def run(capsys, *argv) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_is_explained_by_its_title_and_text(code):
    title, text = CODES[code]
    assert explain(code) == explain(code.lower()) == f"{code}: {title}\n    {text}"


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_operation_is_explained_with_its_parameters_and_english(name):
    op = OPS[name]
    text = explain(name)
    assert text.startswith(f"operation {name}") and op.says in text and f"[{op.group}]" in text
    assert all(f"{p}: " in text for p, _ in op.params)


def test_a_card_shows_its_text_effect_operations_and_where_it_is_written(capsys):
    code, out, _ = run(capsys, "explain", "cat-map", "--game", "cat-town")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("card 'cat-map' — Cat map, 5 copies")
    path, line = re.search(r"\((\S+):(\d+)\)$", first).groups()
    assert "id: cat-map" in (REPO / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert "    text: Look at all cards from 1 chosen Block." in out
    assert '        b = choose "block" from ring' in out
    assert f"            top_cards: {OPS['top_cards'].says}" in out


def test_a_variant_procedure_is_explained_from_the_variant_file(capsys):
    code, out, _ = run(capsys, "explain", "search_card", "--game", "cat-town", "--variant", "advanced")
    assert code == 0 and "rules/cat-town/variants/advanced.yaml:" in out.splitlines()[0]
    assert "if c.broken:" in out
    code, out, _ = run(capsys, "explain", "search_card", "--game", "cat-town")
    assert code == 0 and "rules/cat-town/game.yaml:" in out.splitlines()[0] and "c.broken" not in out


@pytest.mark.parametrize(
    "game, variant",
    [
        ("caty-mini", None),
        ("caty-mini", "older-players"),
        ("cat-town", None),
        ("cat-town", "easy"),
        ("cat-town", "advanced"),
        ("cats-mansion", None),
    ],
)
def test_every_part_of_every_game_is_explained_at_a_real_place(game, variant):
    g = load_game(game, variant)
    for topic in set(topics(g)) - set(CODES) - set(OPS):
        text = explain(topic, g)
        assert text, topic
        for path, line in re.findall(r"\((\S+\.yaml):(\d+)\)", text):
            lines = (REPO / path).read_text(encoding="utf-8").splitlines()
            assert 1 <= int(line) <= len(lines)


def test_unknown_topic_says_so_with_a_suggestion(capsys):
    code, _, err = run(capsys, "explain", "mvoe")
    assert code == 1 and "nothing named 'mvoe'" in err and "did you mean 'move'?" in err
    code, _, err = run(capsys, "explain", "cat-mpa", "--game", "cat-town")
    assert code == 1 and "did you mean 'cat-map'?" in err


def test_variant_without_game_is_a_usage_error(capsys):
    code, _, err = run(capsys, "explain", "move", "--variant", "easy")
    assert code == 2 and "--variant needs --game" in err


def test_explain_and_doc_show_a_procedures_named_steps_in_order(tmp_path):
    """A procedure written as steps is shown step by step, as the variant orders them."""
    from test_variants import BONUS, STEPS, write

    from engine.tools.doc import game_reference

    folder = tmp_path / "rules" / "mini"
    write(folder, {"game.yaml": STEPS, "variants/bonus.yaml": BONUS})
    game = load_game(folder / "game.yaml", variant="bonus")
    text = game_reference(game)
    assert text.index("Step `play`") < text.index("Step `draw`") < text.index("Step `bonus`")
    assert 'said = said + ["bonus " + text(seat_number(p))]' in text
    told = explain("turn", game)
    assert told.index("step play:") < told.index("step draw:") < told.index("step bonus:")
