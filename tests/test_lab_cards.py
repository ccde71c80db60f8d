"""The playtest's card section as a designer reads it: a card's uses apart, identical cards as the
noise floor, the rules' scoring reveals kept apart, and a card left out as an arm of its own."""

import json

import pytest
from test_language import make_game
from test_playtest import figures

from engine.cli import main
from engine.errors import RulesError
from engine.lab.cards import deciding, identical_cards
from engine.lab.games import Arm, load_arm
from engine.lab.intervals import SeatGames
from engine.runtime.gamedef import load_game

# Five cards, two dealt to each seat; each seat throws one away, then plays the other.  Whoever plays
# the crown wins; nobody playing it is a draw.  Moss, pebble, shell and twig are alike but for their names.
SHOWDOWN = """\
ties: draw
components:
  - kind: card
    attributes: {power: int}
    start: deck
    items:
      - {id: crown, power: 1}
      - {id: pebble, power: 0}
      - {id: shell, power: 0}
      - {id: twig, power: 0}
      - {id: moss, power: 0}
zones:
  - {id: deck, visibility: hidden}
  - {id: heap, visibility: hidden}
  - {id: hand, per: player, visibility: owner}
  - {id: played, per: player, visibility: public}
setup: |
  shuffle(deck)
  for p in players():
      repeat 2:
          move(top(deck), hand(p))
play: |
  for p in players():
      c = choose "throw" from hand(p) by p
      move(c, heap)
  for p in players():
      c = choose "play" from hand(p) by p
      move(c, played(p))
  end_game "both played"
scoring:
  - id: crown
    points: sum([c.power for c in played(p)])
"""

# The same, but the last card is shown, and the rules say that showing a card is how it scores.
SHOWN = SHOWDOWN.replace('"play"', '"show"') + "scoring_reveals: [show]\n"


def uses_of(choice: dict, card: str) -> dict:
    return {r["use"]: r for r in choice["card_uses"] if r["card"] == card}


def test_a_card_helps_when_played_and_hurts_when_thrown_away(tmp_path):
    """The crown's uses pull opposite ways: lumped together they would hide both."""
    choice = figures(tmp_path, SHOWDOWN, games=120)[0]["arms"][0]["choice"]
    crown = uses_of(choice, "crown")
    assert crown["play"]["win_rate_when_used"] == 1.0 and crown["play"]["impact_95"][0] > 0.9
    assert crown["throw"]["win_rate_when_used"] == 0.0 and crown["throw"]["impact_95"][1] < 0
    assert (choice["deciding_cards"][0]["card"], choice["deciding_cards"][0]["use"]) == ("crown", "play")


def test_identical_cards_show_how_far_luck_alone_sets_cards_apart(tmp_path):
    """Moss, pebble, shell and twig differ only by name: the spread of their impacts is luck, the noise floor."""
    choice = figures(tmp_path, SHOWDOWN, games=120)[0]["arms"][0]["choice"]
    floor = choice["noise_floor"]
    assert {g["use"] for g in floor["groups"]} == {"throw", "play"}
    assert all(g["cards"] == ["moss", "pebble", "shell", "twig"] for g in floor["groups"])
    play = [uses_of(choice, c)["play"]["impact"] for c in ("moss", "pebble", "shell", "twig")]
    spread = next(g["spread"] for g in floor["groups"] if g["use"] == "play")
    assert spread == pytest.approx(max(abs(x - sum(play) / 4) for x in play), abs=1e-4)
    assert floor["floor"] == max(g["spread"] for g in floor["groups"]) > 0


def test_a_card_within_the_noise_floor_is_not_listed_as_deciding():
    """Seat 0 uses a card in 50 of 100 games and wins 33 of them against 22 of the other 50: beyond
    luck by its interval, but not when identical cards played lie further apart than its 21 points; a
    use no identical cards were measured in is held to the largest spread of any use."""
    won = {(g, 0) for g in [*range(33), *range(50, 72)]} | {(g, 1) for g in [*range(33, 50), *range(72, 100)]}
    seat_games = SeatGames(100, 2, won)
    used = {(g, 0) for g in range(50)}
    impact, interval = seat_games.difference(used)
    row = {"card": "x", "use": "play", "impact": round(impact, 4), "impact_95": interval, "games": 50}
    keys, x = ("card", "use"), {("x", "play"): used}

    def floor(play: float, other: float) -> dict:  # identical cards' spread when played, and in another use
        return {"floor": max(play, other), "by_use": {"play": play, "give": other}, "groups": []}

    assert [r["card"] for r in deciding([row], keys, x, seat_games, floor(0.20, 0.30))] == ["x"]
    assert deciding([row], keys, x, seat_games, floor(0.25, 0.0)) == []
    assert deciding([{**row, "use": "keep"}], keys, {("x", "keep"): used}, seat_games, floor(0.20, 0.30)) == []


def test_the_cats_of_cat_town_are_one_group_of_identical_cards():
    assert identical_cards(load_game("cat-town", "easy")) == [
        ["black-cat", "calico", "ginger", "maine-coon", "persian", "ragdoll", "siamese", "sphynx", "tabby", "tuxedo"]
    ]
    assert identical_cards(load_game("caty-mini")) == []  # each tile shows its own furniture


def test_uses_the_rules_declare_as_scoring_reveals_are_kept_apart(tmp_path):
    """Showing the crown wins by the rules' scoring: that use is listed apart, and never as deciding."""
    choice = figures(tmp_path, SHOWN, games=120)[0]["arms"][0]["choice"]
    assert {r["use"] for r in choice["card_uses"]} == {"throw"}
    shown = {r["card"]: r for r in choice["scoring_reveals"]}
    assert set(shown) == {"crown", "moss", "pebble", "shell", "twig"} and shown["crown"]["impact"] == 1.0
    assert all(r["use"] == "throw" for r in choice["deciding_cards"])
    assert not any(a["action"].startswith("show") for a in choice["deciding_actions"])
    crown = next(r for r in choice["cards"] if r["card"] == "crown")
    assert crown["chosen"] == uses_of(choice, "crown")["throw"]["chosen"]  # its shows are not among its uses


def test_a_scoring_reveal_names_a_decision_of_the_game(tmp_path):
    with pytest.raises(RulesError) as err:
        make_game(tmp_path, SHOWN.replace("scoring_reveals: [show]", "scoring_reveals: [shw]"))
    assert "E504" in str(err.value) and "no decision of the game is called 'shw'" in str(err.value)


@pytest.mark.slow
def test_cat_town_easy_keeps_the_reveals_of_cats_and_pairs_apart():
    """Easy mode scores a Cat (or a pair of Items) by revealing it from hand: those uses are listed apart."""
    plan_arm = Arm("easy")
    game = load_arm("cat-town", plan_arm)
    assert game.scoring_reveals == {"reveal"}
    from engine.lab.playtest import Plan, measure, run

    plan = Plan("cat-town", [plan_arm], 2, 30, 5, ["random", "random"])
    choice = measure(plan, [game], *run(plan, [game]))["arms"][0]["choice"]
    cats = identical_cards(game)[0]
    assert {r["card"] for r in choice["scoring_reveals"]} & set(cats)
    assert {r["use"] for r in choice["scoring_reveals"]} == {"reveal"}
    assert all(r["use"] != "reveal" for r in choice["card_uses"])


def playtest(tmp_path, *extra: str) -> list[str]:
    path = make_game(tmp_path, SHOWDOWN).rules.folder / "game.yaml"
    return ["playtest", str(path), "--players", "2", "--skill", "none", "-o", str(tmp_path / "r.html"), *extra]


def test_a_card_left_out_is_an_arm_compared_game_by_game_with_the_first(tmp_path, capsys):
    """Without the crown nobody can win: seat 0 loses exactly the games it won, on the same seeds."""
    records = tmp_path / "games.csv"
    argv = playtest(tmp_path, "--games", "40", "--seed", "1", "--without", "crown", "--records", str(records))
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [a["label"] for a in data["arms"]] == ["base", "without crown"]
    assert data["arms"][1]["outcomes"]["draws"] == 40
    paired = {r["figure"]: r for r in data["paired"][0]["rows"]}
    assert paired["win rate, seat 0"]["difference"] == -data["arms"][0]["outcomes"]["win_rate"][0]
    assert paired["win rate, seat 0"]["games"] == 40
    assert "without crown" in records.read_text(encoding="utf-8").splitlines()[-1]


def test_copies_of_a_card_are_set_like_any_rule_value(tmp_path):
    body = SHOWDOWN.replace("{id: pebble, power: 0}", "{id: pebble, power: 0, copies: 2}")
    path = str(make_game(tmp_path, body).rules.folder / "game.yaml")
    game = load_arm(path, Arm(None, (("components.card.items.pebble.copies", 3),)))
    assert game.card_ids.count("pebble") == 3
    assert "pebble" not in load_arm(path, Arm(None, (), ("pebble",))).card_ids


@pytest.mark.parametrize(
    "card, message",
    [
        ("crwn", "--without crwn: mini has no card 'crwn' (did you mean 'crown'?)"),
    ],
)
def test_leaving_out_a_card_the_game_lacks_is_a_one_line_error(tmp_path, capsys, card, message):
    assert main(playtest(tmp_path, "--games", "2", "--without", card)) != 0
    assert capsys.readouterr().err.strip().endswith(message)
