"""`tabletop upgrade`: a game written for an older rules format, brought to the current one.

The designer's situation: a game from last month (no `format:`, the old names) stops loading or warns;
`upgrade` rewrites what a program can — comments and layout kept — and names, at its place, what only
the designer can do.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine import load_game
from engine.bots import make_agent
from engine.cli import main
from engine.errors import LoadError, WriteError
from engine.lab.simulate import play_out
from engine.load.formats import CURRENT, DEPRECATIONS
from engine.runtime import rng
from engine.tools.upgrade import plan_upgrade

DATA = Path(__file__).parent / "data" / "upgrade"
RULES = Path(__file__).resolve().parents[1] / "rules"


def copy_game(tmp_path: Path, source: Path, name: str) -> Path:
    """The game folder ``source`` copied to a project of its own: PROJECT/rules/NAME/."""
    target = tmp_path / "rules" / name
    shutil.copytree(source, target)
    return target / "game.yaml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def games(game, players: int) -> list[tuple[list[str], list[int]]]:
    """The actions and scores of a few seeded games between random bots."""
    out = []
    for seed in range(3):
        agents = [make_agent("random", seed=rng.derive(seed, "bot", s)) for s in range(players)]
        state, _, _ = play_out(game, players, seed, agents, 400)
        out.append((list(state.actions), list(state.scores)))
    return out


def test_last_months_game_upgraded_is_the_current_file_and_plays_the_same_games(tmp_path, capsys):
    old = copy_game(tmp_path, DATA / "no-thanks", "no-thanks")
    before = old.read_text(encoding="utf-8")
    assert main(["upgrade", str(old), "--write"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(f"game.yaml:2:1: rewrite: declare `format: {CURRENT}` (none declared: read as format 1)")
    assert out[1].endswith("game.yaml:86:10: rewrite: count(…) → size(…)")  # its place in the file as written
    assert out[2].startswith("2 rewrites written to ")
    assert old.read_text(encoding="utf-8") == (DATA / "no-thanks.expected.yaml").read_text(encoding="utf-8")
    assert old.with_name("game.yaml.bak").read_text(encoding="utf-8") == before  # nothing lost
    upgraded = load_game(old)
    assert upgraded.warnings == () and upgraded.rules_format == CURRENT
    assert games(upgraded, 3) == games(load_game("no-thanks"), 3)
    assert main(["upgrade", str(old), "--check"]) == 0
    assert capsys.readouterr().out == f"up to date: rules format {CURRENT}\n"


def test_check_fails_when_an_upgrade_is_needed_and_writes_nothing(tmp_path, capsys):
    old = copy_game(tmp_path, DATA / "no-thanks", "no-thanks")
    before = old.read_text(encoding="utf-8")
    assert main(["upgrade", str(old), "--check"]) == 1
    out = capsys.readouterr().out
    assert "game.yaml:85:10: rewrite: count(…) → size(…)" in out  # its place in the file as it is
    assert "2 rewrites to make" in out
    assert old.read_text(encoding="utf-8") == before and not old.with_name("game.yaml.bak").exists()
    assert main(["upgrade", str(old)]) == 0  # without --write: only says what it would do
    assert "--write makes them" in capsys.readouterr().out and old.read_text(encoding="utf-8") == before


def test_an_old_number_is_raised_and_a_renamed_board_kind_is_named_at_its_place(tmp_path, capsys):
    game = copy_game(tmp_path, RULES / "hex", "hex")
    board = game.with_name("board.yaml")
    edit(board, "kind: hexagons", "kind: hex   # the old name")
    edit(game, f"format: {CURRENT}", "format: 1   # written last month")
    assert main(["upgrade", str(game), "--write"]) == 1  # a thing is left to the designer
    out = capsys.readouterr().out
    assert "game.yaml:2:9: rewrite: format: 1 → 3" in out
    assert "board.yaml:4:7: cannot rewrite: E201 'hex' is not one of plane, grid, hexagons, graph" in out
    assert f"format: {CURRENT}   # written last month" in game.read_text(encoding="utf-8")  # the comment stays
    assert "kind: hex   # the old name" in board.read_text(encoding="utf-8")


def test_a_greedy_value_reading_the_option_id_is_left_to_the_designer_at_its_place(tmp_path, capsys):
    game = copy_game(tmp_path, RULES / "hex", "hex")
    edit(game, '    value: "0"', '    value: "1 if action == \\"c3\\" else 0"')
    assert main(["upgrade", str(game), "--check"]) == 1
    out = capsys.readouterr().out
    assert "game.yaml:91:18: cannot rewrite: the greedy value reads `action`" in out and "`choice`" in out
    assert "0 rewrites to make; 1 to do by hand" in out
    assert [w.code for w in load_game(game).warnings] == ["W312"]


def test_a_choice_the_loader_refuses_is_named_with_the_loaders_fix_at_its_place(tmp_path, capsys):
    game = copy_game(tmp_path, RULES / "liars-dice", "liars-dice")
    edit(game, f"format: {CURRENT}\n", "")
    edit(game, "in_play: {type: int, max: 30}", "in_play: {type: int}")
    text = game.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(text, 1) if "act = choose from bids()" in t)
    assert main(["upgrade", str(game), "--check"]) == 1
    out = capsys.readouterr().out
    assert f'game.yaml:{line}:11: cannot rewrite: E508 the options of "act" cannot be listed in advance' in out
    assert "declare the most it may hold: variables: in_play: {type: int, max: N}" in out
    assert "1 rewrites to make; 1 to do by hand" in out


def test_a_game_of_a_newer_format_is_not_upgraded(tmp_path):
    game = copy_game(tmp_path, RULES / "no-thanks", "no-thanks")
    edit(game, f"format: {CURRENT}", f"format: {CURRENT + 1}")
    with pytest.raises(LoadError) as info:
        plan_upgrade(game)
    [d] = info.value.diagnostics
    assert d.code == "E111" and "upgrade tabletop" in d.message


def test_an_earlier_backup_or_a_file_changed_meanwhile_is_never_written_over(tmp_path):
    old = copy_game(tmp_path, DATA / "no-thanks", "no-thanks")
    before = old.read_text(encoding="utf-8")
    backup = old.with_name("game.yaml.bak")
    backup.write_text("an earlier upgrade's original\n", encoding="utf-8")
    with pytest.raises(WriteError, match=r"game\.yaml\.bak is already there"):
        plan_upgrade(old).write()
    assert old.read_text(encoding="utf-8") == before
    backup.unlink()
    plan = plan_upgrade(old)
    old.write_text(before + "# an edit made meanwhile\n", encoding="utf-8")
    with pytest.raises(WriteError, match="changed since it was read"):
        plan.write()
    assert old.read_text(encoding="utf-8").endswith("# an edit made meanwhile\n") and not backup.exists()


def test_a_variant_is_upgraded_with_its_game(tmp_path, capsys):
    game = copy_game(tmp_path, RULES / "no-thanks", "no-thanks")
    variant = game.parent / "variants" / "short.yaml"
    variant.parent.mkdir()
    variant.write_text(
        "extends: no-thanks\nid: short\nname: No Thanks! (short)\n"
        "patch:\n  - id: chips\n    in: scoring\n    points: 0 - count(taken(p))   # a card taken costs a point more\n",
        encoding="utf-8",
    )
    assert main(["upgrade", str(game), "--write"]) == 0
    assert "short.yaml:7:17: rewrite: count(…) → size(…)" in capsys.readouterr().out
    assert "points: 0 - size(taken(p))   # a card taken costs a point more" in variant.read_text(encoding="utf-8")
    assert load_game(game, "short").warnings == ()


def test_a_file_with_windows_line_ends_keeps_them(tmp_path):
    old = copy_game(tmp_path, DATA / "no-thanks", "no-thanks")
    old.write_bytes(old.read_bytes().replace(b"\n", b"\r\n"))
    plan_upgrade(old).write()
    expected = (DATA / "no-thanks.expected.yaml").read_bytes().replace(b"\n", b"\r\n")
    assert old.read_bytes() == expected


@pytest.mark.parametrize("row", [d for d in DEPRECATIONS if d.renamed], ids=lambda d: d.code)
def test_every_renamed_operation_of_the_table_is_rewritten(tmp_path, row):
    old_name, new_name = row.renamed
    game = copy_game(tmp_path, RULES / "no-thanks", "no-thanks")
    edit(game, '    points: "0 - p.chips"', f'    points: "0 - {old_name}(taken(p)) - p.chips"')
    assert [w.code for w in load_game(game).warnings] == [row.code]
    plan_upgrade(game).write()
    assert f'points: "0 - {new_name}(taken(p)) - p.chips"' in game.read_text(encoding="utf-8")
    assert load_game(game).warnings == ()
