"""Dice: a component kind with faces, rolled where it lies (in the open, or in secret under a cup), each roll a
chance event; a seat's copy rolls again the faces it cannot know.  Both runtime paths play them alike."""

from __future__ import annotations

import json

import pytest
from language_helpers import assert_located, write_game

from engine import load_game
from engine.errors import RuntimeRuleError, StateError
from engine.runtime.state import ChanceNeeded

CUPS = """\
    id: mini
    name: Cups
    players: {min: 2, max: 3}
    components:
      - kind: die
        faces: [1, 2, 3, 4, 5, 6]
        start: box
        items: [{id: die, copies: 6}]
    zones:
      - {id: box, visibility: public}
      - {id: table, visibility: public}
      - {id: cup, per: player, visibility: owner}
    setup: |
      for p in players():
          move(top(box), cup(p))
          move(top(box), cup(p))
    play: |
      roll(cup(me))
      roll(box)
      x = choose "call" from ["lift", "keep"]
      if x == "lift":
          for d in cards(cup(me)):
              move(d, table)
      log "{me} shows {sum(faces(table))}, sixes on the table: {size(showing(table, 6))}"
      end_game "called"
    scoring:
      - {id: pips, points: "sum(faces(cup(p))) + sum(faces(table))"}
"""


@pytest.fixture(params=[False, True], ids=["vm", "reference"])
def cups(request, tmp_path):
    return load_game(write_game(tmp_path, CUPS), reference=request.param)


def test_a_die_rolled_under_a_cup_is_seen_by_its_owner_alone(cups):
    st = cups.new_game(2, seed=3)
    mine = st.view(0)["zones"]["cup:0"]
    assert [d["die"] for d in mine] == ["die", "die"] and all(1 <= d["face"] <= 6 for d in mine)
    assert st.view(1)["zones"]["cup:0"] == [{"die": "die"}, {"die": "die"}]
    assert st.view(None)["zones"]["cup:0"] == [{"die": "die"}, {"die": "die"}]
    rolls = [e for e in st.history_for(1) if e.get("chance") == "roll"]
    secret = [e for e in rolls if e.get("seen") == [0]]
    assert len(secret) == 2 and all("index" not in e for e in secret)
    assert all("index" in e for e in st.history_for(0) if e.get("chance") == "roll")


def test_a_die_rolled_in_the_open_is_seen_by_everyone(cups):
    st = cups.new_game(2, seed=3)
    box = st.view(1)["zones"]["box"]
    assert len(box) == 2 and all("face" in d for d in box) and box == st.view(None)["zones"]["box"]
    assert all("seen" not in e for e in st.history_for(1) if e.get("chance") == "roll" and e["die"] in st.zones["box"])


TOWER = CUPS.replace(
    "      - {id: cup, per: player, visibility: owner}\n",
    "      - {id: cup, per: player, visibility: owner}\n      - {id: tower, visibility: top}\n",
).replace("      roll(box)\n", "      move(top(box), tower)\n      move(top(box), tower)\n      roll(tower)\n")


@pytest.mark.parametrize("reference", [False, True], ids=["vm", "reference"])
def test_of_dice_rolled_in_a_pile_whose_top_shows_only_the_top_ones_face_is_seen_by_all(tmp_path, reference):
    st = load_game(write_game(tmp_path, TOWER), reference=reference).new_game(2, seed=3)
    below, top = st.zones["tower"]
    for seat in (0, 1, None):
        assert st.view(seat)["zones"]["tower"] == [{"die": "die"}, {"die": "die", "face": st.faces[top]}]
    rolls = {e["die"]: e for e in st.history_for(1) if e.get("chance") == "roll"}
    assert rolls[below]["seen"] == [] and "index" not in rolls[below]
    assert "seen" not in rolls[top] and "index" in rolls[top]


def test_dice_lifted_onto_the_table_show_their_faces_and_count_in_expressions(cups):
    st = cups.new_game(2, seed=3)
    faces = [st.faces[d] for d in st.zones["cup:0"]]
    st.apply("call lift")
    assert [d["face"] for d in st.view(1)["zones"]["table"]] == faces
    assert st.log[-1] == f"seat 0 shows {sum(faces)}, sixes on the table: {faces.count(6)}"
    assert st.scores[1] == sum(st.faces[d] for d in st.zones["cup:1"]) + sum(faces)


def test_a_seats_copy_rolls_again_the_faces_it_cannot_know(cups):
    st = cups.new_game(2, seed=3)
    mine, theirs = st.zones["cup:0"], st.zones["cup:1"]
    seen = set()
    for seed in range(40):
        copy = st.determinized(1, seed)
        assert [copy.faces[d] for d in theirs] == [st.faces[d] for d in theirs]  # its own: kept
        assert [copy.faces[d] for d in st.zones["box"]] == [st.faces[d] for d in st.zones["box"]]  # open: kept
        assert copy.zones == st.zones  # a die is never dealt elsewhere: only its face is unknown
        seen.add(tuple(copy.faces[d] for d in mine))
    assert len(seen) > 10  # seat 0's two dice rolled again, honestly: many of the 36 throws come up


def test_each_roll_is_an_explicit_chance_event(cups):
    st = cups.new_game(2, seed=0, draws=[5, 0, 1, 2])
    assert [st.faces[d] for d in st.zones["cup:0"]] == [6, 1] and [st.faces[d] for d in st.zones["box"]] == [2, 3]
    with pytest.raises(ChanceNeeded) as info:
        cups.new_game(2, seed=0, draws=[5])
    assert (info.value.event.kind, info.value.event.size) == ("random", 6)
    assert cups.info(2).chance


def test_faces_survive_a_save_and_a_bad_face_is_refused(cups):
    st = cups.new_game(2, seed=3)
    assert cups.state_from_json(st.to_json()) == st
    data = st.to_data()
    data["faces"] = [9] * len(data["faces"])
    with pytest.raises(StateError, match="faces of the dice"):
        cups.state_from_json(json.dumps(data))


NAMED = """\
    id: mini
    name: Named faces
    players: {min: 1, max: 2}
    enums: {symbols: [skull, shield, arrow]}
    components:
      - kind: die
        faces: symbols
        start: tray
        items: [{id: die, copies: 3}]
    zones:
      - {id: tray, visibility: public}
    play: |
      roll(tray)
      skulls = size(showing(tray, "skull"))
      log "skulls: {skulls}, first shows {face(top(tray))}"
      end_game
"""


def test_named_faces_are_the_members_of_an_enum(tmp_path):
    game = load_game(write_game(tmp_path, NAMED))
    st = game.new_game(1, seed=2)
    faces = [st.faces[d] for d in st.zones["tray"]]
    assert set(faces) <= {"skull", "shield", "arrow"}
    assert st.log[-1] == f"skulls: {faces.count('skull')}, first shows {faces[-1]}"


def test_an_unknown_face_is_located_with_the_faces_there_are(tmp_path):
    assert_located(tmp_path, CUPS, "showing(table, 7)", "7 is no face of the game's dice", "showing(table, 6)",
                   "showing(table, 7)")  # fmt: skip
    assert_located(tmp_path, NAMED, '"skul"', "'skul' is not one of the symbols", '"skull"', '"skul"')


def test_faces_naming_no_enum_and_dice_of_two_kinds_of_face_are_located(tmp_path):
    assert_located(tmp_path, NAMED, "faces: symbol", "faces: 'symbol' is no enum", "faces: symbols", "faces: symbol")
    d6 = "      - kind: d6\n        faces: [1, 2]\n        start: tray\n        items: [{id: d6}]\n"
    two = NAMED.replace("    zones:", d6 + "    zones:")
    assert_located(tmp_path, two, "faces: [1, 2]", "these dice show a number, another kind's one of the symbols")


def test_dice_operations_in_a_game_without_dice_say_how_to_declare_them(tmp_path):
    text = NAMED.replace("        faces: symbols\n", "")
    assert_located(tmp_path, text, "roll(tray)", "roll(…) works on dice, and the game has none")


def test_rolling_what_is_not_a_die_stops_at_its_line(tmp_path):
    crown = "      - kind: card\n        start: table\n        items: [{id: crown}]\n"
    text = CUPS.replace("    zones:", crown + "    zones:")
    text = text.replace("      roll(box)\n", "      roll(box)\n      roll(table)\n")
    game = load_game(write_game(tmp_path, text))
    with pytest.raises(RuntimeRuleError) as info:
        game.new_game(2, seed=1)
    d = info.value.diagnostic
    assert (d.code, d.line) == ("E701", text[: text.index("roll(table)")].count("\n") + 1)
    assert "'crown' is not a die: only a component kind with faces: is rolled" in d.message


def test_the_observation_tensor_counts_the_faces_a_seat_knows(cups):
    from engine.runtime.observe import encoding

    st = cups.new_game(2, seed=3)
    layout = encoding(cups, 2)
    part = layout.part("dice cup:0")
    mine = [st.faces[d] for d in st.zones["cup:0"]]
    seen = layout.encode(st, 0)[part.offset : part.offset + part.size]
    assert [int(seen[part.labels.index(str(f))]) for f in range(1, 7)] == [mine.count(f) for f in range(1, 7)]
    assert not layout.encode(st, 1)[part.offset : part.offset + part.size].any()  # seat 1 knows none of them
