"""The terminal `play` shows what the web table shows: card texts, the ring, destinations, plain values."""

import io
import re
import sys

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
