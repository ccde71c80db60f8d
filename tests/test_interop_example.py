"""The worked example: a tabular policy trained through the Gymnasium adapter beats a random player."""

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[1] / "tools" / "rl_example.py"


def test_a_briefly_trained_policy_beats_random_play_at_goofspiel(capsys):
    spec = importlib.util.spec_from_file_location("rl_example", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    rates = example.main(["--episodes", "150", "--games", "100"])
    assert rates["trained"] > rates["random"] + 0.1
    assert "trained policy wins" in capsys.readouterr().out
