"""Seeds: every run deals afresh unless told a seed, says which seed it drew, and records it so the game replays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_cli import run

from engine.runtime.saves import read_save, replay, saved_game

PRINTED = re.compile(r"^seed (\d+) \(replay with --seed \1\)$", re.MULTILINE)
BIG = 2**64 - 59  # above 2**53: a JavaScript number or a float would round it


def printed_seed(err: str) -> int:
    """The one seed line a run printed."""
    found = PRINTED.findall(err)
    assert len(found) == 1, err
    return int(found[0])


def bots_game(capsys, save: Path, *seed: str) -> tuple[str, str]:
    """(stdout, stderr) of a whole caty-mini game between bots, saved to ``save``."""
    code, out, err = run(capsys, "play", "caty-mini", "--players", "2", "--bot", "all=random", "--save", save, *seed)
    assert code == 0, err
    return out, err


def test_two_games_without_a_seed_deal_differently_and_each_says_and_keeps_its_seed(tmp_path, capsys):
    games = []
    for name in ("first.json", "second.json"):
        out, err = bots_game(capsys, tmp_path / name)
        seed = printed_seed(err)
        assert read_save(tmp_path / name)["seed"] == seed
        games.append((seed, out, (tmp_path / name).read_text()))
    (seed_a, out_a, save_a), (seed_b, out_b, save_b) = games
    assert seed_a != seed_b and out_a != out_b and save_a != save_b


def test_the_recorded_seed_replays_the_same_game(tmp_path, capsys):
    out, err = bots_game(capsys, tmp_path / "drawn.json")
    seed = printed_seed(err)
    again, again_err = bots_game(capsys, tmp_path / "again.json", "--seed", str(seed))
    assert again == out and "seed" not in again_err
    assert (tmp_path / "again.json").read_text() == (tmp_path / "drawn.json").read_text()
    data = read_save(tmp_path / "drawn.json")
    assert replay(saved_game(data, tmp_path / "drawn.json"), data).is_terminal
    code, _, replay_err = run(capsys, "replay", tmp_path / "drawn.json")
    assert code == 0, replay_err


@pytest.mark.parametrize("seed", ["5", str(BIG)])
def test_a_given_seed_gives_the_same_game_byte_for_byte_and_prints_no_seed(tmp_path, capsys, seed):
    first = bots_game(capsys, tmp_path / "a.json", "--seed", seed)
    second = bots_game(capsys, tmp_path / "b.json", "--seed", seed)
    assert first == second and "seed" not in first[1]
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert f'"seed": {seed},' in (tmp_path / "a.json").read_text()
    code, out, err = run(capsys, "replay", tmp_path / "a.json")
    assert code == 0 and "game over" in out, err


def simulate(capsys, *seed: str) -> tuple[dict, str]:
    code, out, err = run(capsys, "simulate", "caty-mini", "--players", "2", "--games", "6", "--json", *seed)
    assert code == 0, err
    return json.loads(out), err


def test_simulate_draws_a_seed_prints_it_beside_its_json_and_records_it(capsys):
    first, err = simulate(capsys)
    second, err_b = simulate(capsys)
    assert first["seed"] == printed_seed(err) != second["seed"] == printed_seed(err_b)
    again, again_err = simulate(capsys, "--seed", str(first["seed"]))
    assert "seed" not in again_err
    for figures in (first, again):
        del figures["games_per_second"], figures["seconds"]
    assert again == first


def test_playtest_records_its_drawn_seed_in_the_json_and_the_report(tmp_path, capsys):
    report = tmp_path / "report.html"
    code, out, err = run(
        capsys, "playtest", "caty-mini", "--players", "2", "--games", "3", "--skill", "none", "-o", report, "--json"
    )
    assert code == 0, err
    seed = printed_seed(err)
    assert json.loads(out)["seed"] == seed and f"seeds {seed}…{seed + 2}" in report.read_text()


def test_a_64_bit_seed_survives_the_web_tables_save_and_open(capsys):
    """The page is sent the save file as text and sends a file back as text: no number crosses JavaScript."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from engine.web.app import create_app
    from engine.web.table import Table

    assert float(BIG) != BIG  # the seed a rounding page would lose
    table = Table("cat-town", players=2, seed=BIG)
    client = TestClient(create_app(table, watch=False))
    with client.websocket_connect(f"/ws?key={table.host_key}") as ws:
        message = ws.receive_json()
        ws.send_json({"type": "act", "seat": 0, "action": message["options"][0]["id"], "decision_number": 1})
        ws.receive_json()
        ws.send_json({"type": "save"})
        saved = ws.receive_json()
        assert f'"seed": {BIG},' in saved["text"]
        played = table.state.to_json()
        ws.send_json({"type": "new"})
        ws.receive_json()
        assert table.seed != BIG
        ws.send_json({"type": "load", "text": saved["text"]})
        ws.receive_json()
    assert table.seed == BIG and table.state.to_json() == played


def test_new_game_at_the_web_table_deals_afresh_each_time():
    """A seed given to the server deals its first game; every "New game" draws a fresh one."""
    from engine.web.table import Table

    table = Table("cat-town", players=2, seed=7)
    assert table.seed == 7
    deals, seeds = {table.state.to_json()}, {table.seed}
    for _ in range(3):
        table.new_game(table.host_key)
        deals.add(table.state.to_json())
        seeds.add(table.seed)
    assert len(deals) == len(seeds) == 4
    assert Table("cat-town", players=2).seed != Table("cat-town", players=2).seed
