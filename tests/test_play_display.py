"""The terminal `play` shows what the web table shows: card texts, the ring, destinations, plain values."""

import io
import re
import sys

from web_helpers import copy_game, edit

from engine.cli import main


def play(capsys, monkeypatch, *args, answers="1\n" * 3):
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    main(["play", *args])
    return capsys.readouterr().out


def test_cat_town_menu_has_card_texts_and_the_ring_is_drawn(capsys, monkeypatch):
    out = play(capsys, monkeypatch, "cat-town", "--players", "2", "--seed", "1")
    assert "ring (clockwise): [b1 15] ●0" in out
    assert re.search(r"\d+\. play [a-z-]+ — .*\w", out)  # an option naming a card shows its text
    for literal in ("None", "True", "False"):
        assert not re.search(rf"\b{literal}\b", out), literal


def test_cats_mansion_steps_show_destinations_and_final_options_come_last(capsys, monkeypatch):
    out = play(capsys, monkeypatch, "cats-mansion", "--players", "2", "--seed", "1", answers="1\n" * 12)
    assert re.search(r"1\. step \S+ \w+ → [a-i]\d+", out)
    menus = re.findall(r"(?m)^  1\. .*\n(?:  \d+\. .*\n)+", out)  # menus of two options or more
    assert menus and not any("cannot be taken back" in m.splitlines()[0] for m in menus)
    assert "cannot be taken back" in out


def test_cats_mansion_legend_names_each_room_with_the_tags_its_board_file_gives_it(capsys, monkeypatch):
    out = play(capsys, monkeypatch, "cats-mansion", "--players", "2", "--seed", "1")
    assert "master bedroom (shared)" in out  # the room's name from the board's hints, its tag from the file
    assert re.search(r"kitchen +dining room", out)  # rooms without tags of their own


def test_caty_mini_runs_read_in_the_words_of_its_paths_hint(capsys, monkeypatch):
    out = play(capsys, monkeypatch, "caty-mini", "--players", "2", "--seed", "1", answers="1\n" * 12)
    assert re.search(r"(?m)^  \d+\. notch \w+ — 0 string, no toys$", out)  # the first run, from no end yet
    assert re.search(r"(?m)^  \d+\. notch \w+ — [1-9]\d* string, [a-z]+(, [a-z]+)*$", out)


def test_a_designer_who_rewords_the_paths_hint_reads_the_new_words(tmp_path, capsys, monkeypatch):
    game = copy_game(tmp_path, "caty-mini")
    edit(game, 'says: "{cost} string, {touched}", nothing: no toys', 'says: "{touched} for {cost} cm of yarn"')
    out = play(capsys, monkeypatch, str(game), "--players", "2", "--seed", "1", answers="1\n" * 12)
    assert re.search(r"(?m)^  \d+\. notch \w+ — — for 0 cm of yarn$", out)  # nothing touched: the default
    assert re.search(r"(?m)^  \d+\. notch \w+ — [a-z]+(, [a-z]+)* for [1-9]\d* cm of yarn$", out)


def test_liars_dice_shows_the_faces_of_the_seats_own_dice_and_hides_the_others(capsys, monkeypatch):
    out = play(capsys, monkeypatch, "liars-dice", "--players", "2", "--seed", "1", "--bot", "1=random")
    assert re.search(r"cup:0 +│ +5 │ die:[1-6](×\d)?, ", out)  # its own dice: every face
    assert re.search(r"cup:1 +│ +5 │ die:\?×5", out)  # the other cup: dice, faces unseen
