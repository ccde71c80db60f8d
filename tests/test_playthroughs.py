"""Golden playthroughs: every shipped game, variant and player count plays as its transcript says.

tests/playthroughs/ keeps one seeded game of random bots each (tools/playthroughs.py writes them):
at every decision the seats asked, the seat answering, the legal actions, the action and a digest
of each seat's view, then the results.  A change that alters any game fails here with the first
line that differs; if the change is meant, run ``python tools/playthroughs.py`` and review the diff.
"""

import json

import pytest
from tool_helpers import load_tool

playthroughs = load_tool("playthroughs")
CASES = playthroughs.cases()


def test_every_shipped_game_variant_and_player_count_has_a_transcript_and_no_other():
    kept = sorted(p.name for p in playthroughs.FOLDER.glob("*.jsonl"))
    assert kept == sorted(playthroughs.file_name(*case) for case in CASES)
    assert len({(name, variant) for name, variant, _ in CASES}) >= 11  # 8 games and 3 variants


@pytest.mark.parametrize("name,variant,players", CASES)
def test_the_game_plays_as_its_transcript_says(name, variant, players):
    path = playthroughs.FOLDER / playthroughs.file_name(name, variant, players)
    kept = path.read_text(encoding="utf-8").splitlines()
    assert len(kept) > 10 and json.loads(kept[-1])["returns"] is not None
    problem = playthroughs.first_difference(kept, playthroughs.transcript(name, variant, players))
    assert problem is None, f"{path.name}: {problem}"


def test_a_difference_names_the_first_step_that_differs_with_both_versions():
    kept = ['{"game": "g"}', '{"step": 0, "action": "a"}', '{"step": 1}']
    now = ['{"game": "g"}', '{"step": 0, "action": "b"}', '{"step": 1, "action": "c"}']
    assert playthroughs.first_difference(kept, now) == (
        'step 0 differs:\n  kept: {"step": 0, "action": "a"}\n  now:  {"step": 0, "action": "b"}'
    )
    assert playthroughs.first_difference(['{"game": "g"}'], ['{"game": "h"}']).startswith("line 1 differs")
    assert playthroughs.first_difference(kept, kept[:2]) == "the kept transcript has 3 lines, this tree gives 2"
    assert playthroughs.first_difference(kept, list(kept)) is None
