"""Bots by name: specs, greedy on any game with scoring, and information-set MCTS."""

import json

import pytest
from test_language import HEADER, make_game

from engine import TabletopError, load_game
from engine.bots import BotSpecError, make_agent
from engine.cli import main
from engine.lab.simulate import bot_inputs, play_out, simulate
from engine.runtime import rng

# Take 1 or 2 stones; who takes the last one wins.  From 5 the winning move is to take 2.
NIM = """\
constants:
  start: 5
variables:
  stones: {type: int, initial: start}
  last: {type: int}
play: |
  turn = 0
  while stones > 0:
      x = choose "take" from [1, 2] where it <= stones by item(players(), turn % num_players)
      stones = stones - x
      last = turn % num_players
      turn = turn + 1
  end_game "no stones left"
scoring:
  - id: took-last
    points: "1 if seat_number(p) == last else 0"
"""


def decide(game, spec, seed=0):
    state = game.new_game(players=2, seed=seed)
    bot = make_agent(spec, seed=seed, game=game)
    return bot.act(*bot_inputs(state, 0, bot))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("minimax", "unknown bot 'minimax'"),
        ("random:3", "takes no parameter"),
        ("mcts:lots", "expected iterations"),
        ("mcts:0", "expected iterations"),
        ("mcts:0s", "expected iterations"),
        ("mcts:100/", "then optionally /ROLLOUT"),
        ("mcts:100/-1", "then optionally /ROLLOUT"),
        ("mcts:0.2s/long", "got '0.2s/long'"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_agent(spec)


@pytest.mark.parametrize(
    "spec, iterations, seconds, rollout",
    [
        ("mcts", 200, None, 10),
        ("mcts:1000", 1000, None, 10),
        ("mcts:0.2s", None, 0.2, 10),
        ("mcts:1000/30", 1000, None, 30),
        ("mcts:0.5s/0", None, 0.5, 0),
    ],
)
def test_a_search_budget_is_iterations_or_cpu_seconds_and_may_cap_its_rollouts(spec, iterations, seconds, rollout):
    bot = make_agent(spec)
    assert (bot.iterations, bot.seconds, bot.rollout) == (iterations, seconds, rollout)


def test_mcts_finds_the_winning_move(tmp_path):
    game = make_game(tmp_path, NIM)
    assert all(decide(game, "mcts:300", seed) == "take 2" for seed in range(3))


def test_greedy_looks_ahead_on_the_scoring_when_the_rules_give_no_values(tmp_path):
    """From 2 stones, taking both wins at once: greedy sees it by playing each option on a copy."""
    game = make_game(tmp_path, NIM.replace("start: 5", "start: 2"))
    assert not game.bot_values
    assert all(decide(game, "greedy", seed) == "take 2" for seed in range(20))


def test_greedy_without_values_or_scoring_is_a_clear_error(tmp_path):
    game = make_game(tmp_path, 'play: |\n  x = choose "go" from [1]\n')
    with pytest.raises(TabletopError, match="neither a `bots: greedy` value nor `scoring`"):
        simulate(game, 2, 1, bots="greedy")


@pytest.mark.parametrize(
    "name,budget,seeds,wins",
    [("caty-mini", "mcts:20", 8, 13), ("cats-mansion", "mcts:6", 2, 4), ("breakthrough", "mcts:6", 1, 2)],
)
def test_mcts_beats_random_on_every_shipped_game(name, budget, seeds, wins):
    """A tiny budget, the same seeds in each seat: the search wins (nearly) every game, where a
    bot no better than random would win half (13 of 16 or more by chance: 1.1%).  Cat Town and the
    gallery's card games need a larger budget than a suite can afford: tools/bot_strength.py runs
    every game and its figures are in the docstring of MctsAgent."""
    game = load_game(name)
    won = 0
    for seed in range(seeds):
        won += simulate(game, 2, 1, seed=seed, bots=[budget, "random"], limit=1000)["wins"][0]
        won += simulate(game, 2, 1, seed=seed, bots=["random", budget], limit=1000)["wins"][1]
    assert won >= wins


def test_simulate_counts_the_decisions_each_game_took():
    """A game's decisions are the actions it took; a game cut off took exactly its limit (games of many lengths)."""
    game = load_game("cat-town")
    lengths = []
    for seed in range(3, 9):
        agents = [make_agent("random", seed=rng.derive(seed, "bot", s)) for s in range(2)]
        state, decisions, cut_off = play_out(game, 2, seed, agents)
        assert decisions == len(state.actions) and not cut_off
        lengths.append(decisions)
    assert len(set(lengths)) > 1
    assert simulate(game, 2, 6, seed=3)["decisions_per_game"] == round(sum(lengths) / 6, 2)
    state, decisions, cut_off = play_out(game, 2, 3, agents, limit=10)
    assert cut_off and decisions == 10 == len(state.actions)


def test_play_and_simulate_take_bots_by_spec_per_seat(capsys):
    assert main(["play", "caty-mini", "--players", "2", "--bot", "0=mcts:4", "--bot", "1=random", "--quiet"]) == 0
    assert "game over" in capsys.readouterr().out
    assert main(["simulate", "caty-mini", "--players", "2", "--games", "1", "--bots", "mcts:4,greedy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bots"] == ["mcts:4", "greedy"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "caty-mini", "--bot", "0=minimax"], "--bot expects SEAT=KIND[:PARAM]: unknown bot 'minimax'"),
        (
            ["play", "caty-mini", "--bot", "0=mcts:x"],
            "--bot expects SEAT=KIND[:PARAM]: bot 'mcts:x': expected iterations",
        ),
        (["simulate", "caty-mini", "--players", "2", "--games", "1", "--bots", "mcts:-1"], "--bots bot 'mcts:-1'"),
        (["simulate", "caty-mini", "--players", "2", "--games", "1", "--bots", "a,b,c"], "one bot or one per seat"),
    ],
)
def test_bad_bot_options_are_one_line_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_mcts_answers_with_its_seat_options_even_where_a_copy_offers_others(tmp_path):
    """A determinized copy may offer options that hang on unseen cards; the bot picks among the view's."""
    state = make_game(tmp_path, NIM).new_game(players=2)
    assert make_agent("mcts:5").search(state.determinized(0, 1), 0, ["take 1"]) == "take 1"


def test_mcts_wins_far_more_than_its_share_where_skill_matters(tmp_path):
    """Nim from 10 stones, take 1–3: who leaves a multiple of 4 wins.  Random against random is about
    even; 100 iterations a decision (no clock) should win nearly every game from either seat."""
    game = make_game(tmp_path, NIM.replace("start: 5", "start: 10").replace("[1, 2]", "[1, 2, 3]"))
    runs = [simulate(game, 2, 10, seed=100 * k, bots=bots) for k, bots in enumerate([MCTS_FIRST, MCTS_SECOND])]
    assert runs[0]["wins"][0] + runs[1]["wins"][1] >= 17
    level = simulate(game, 2, 40, seed=0)["wins"]
    assert 8 <= level[0] <= 32  # the control: without search, neither seat wins by itself


MCTS_FIRST, MCTS_SECOND = ["mcts:100", "random"], ["random", "mcts:100"]

# Each seat picks a token in secret, then the picks are shown (as Goofspiel's bids are).
SECRET_PICKS = """\
components:
  - kind: token
    start: pool
    items:
      - {id: red}
      - {id: blue}
zones:
  - {id: pool, visibility: public}
  - {id: shown, visibility: public}
player_variables:
  pick: {type: card, visibility: owner}
play: |
  for p in players():
      p.pick = choose "pick" from pool by p secretly
  for p in players():
      move(p.pick, shown)
  end_game "both picked"
scoring:
  - id: shown
    points: "size(shown)"
"""


def test_mcts_drops_copies_that_forget_another_seats_secret(tmp_path):
    """A determinized copy forgets seat 0's secret pick, so playing on from it breaks a rule; the
    search drops such iterations instead of failing the game, and still answers with a legal option."""
    game = make_game(tmp_path, SECRET_PICKS)
    state = game.new_game(players=2, seed=1)
    state.apply("pick red")
    bot = make_agent("mcts:20", seed=3)
    assert bot.act(*bot_inputs(state, 1, bot)) in state.legal_actions()
    assert 0 < bot.failed <= 20


# 40 turns in which the seat to move may add 1 to its points: far longer than a short rollout.
LONG_RACE = """\
player_variables:
  points: {type: int}
variables:
  turn: {type: int}
play: |
  while turn < 40:
      q = item(players(), turn % num_players)
      x = choose "add" from [0, 1] by q
      q.points = q.points + x
      turn = turn + 1
  end_game "forty turns"
scoring:
  - id: points
    points: p.points
"""


# Ten turns of the same race, its points counted only when they are over.
SECRET_RACE = (
    LONG_RACE.replace("turn < 40", "turn < 10")
    .replace('"forty turns"', '"ten turns"')
    .replace("points: p.points", "points: p.points if turn == 10 else 0")
)


def test_a_rollout_runs_on_while_no_side_has_points(tmp_path):
    """Cut after 2 decisions, every rollout of this race would be scored 0 to 0 and say nothing; they run
    on to the end (fewer decisions than SCORELESS_ROLLOUT), so the search sees that adding a point wins."""
    from engine.bots.mcts import MctsAgent

    state = make_game(tmp_path, SECRET_RACE).new_game(players=2)
    picks = {MctsAgent(seed, "200", rollout=2).search(state.determinized(0, seed), 0) for seed in range(5)}
    assert picks == {"add 1"}


def test_a_rollout_that_stops_before_the_end_is_scored_by_the_points(tmp_path):
    """Rollouts of 4 decisions never reach the end of 40 turns; scored as level they could not tell
    adding a point from not, scored by who leads they can."""
    from engine.bots.mcts import MctsAgent

    state = make_game(tmp_path, LONG_RACE).new_game(players=2)
    picks = {MctsAgent(seed, "40", rollout=4).search(state.determinized(0, seed), 0) for seed in range(5)}
    assert picks == {"add 1"}


# The forty-turn race, its points counted only when it is over, with a standing that calls the seat with fewer
# points so far the better placed.
STANDING_RACE = (
    LONG_RACE.replace("points: p.points", "points: p.points if turn == 40 else 0")
    + """\
bots:
  mcts:
    standing: 0 - p.points
"""
)


@pytest.mark.parametrize("engine", ["vm", "python"])
@pytest.mark.parametrize("standing, best", [("0 - p.points", "add 0"), ("p.points", "add 1")])
def test_where_the_rules_give_a_standing_a_rollout_stops_at_its_cap_and_is_judged_by_it(
    tmp_path, monkeypatch, engine, standing, best
):
    """Run to the end, the race's rollouts would show that adding a point wins (as in the test above). With
    `bots: mcts: standing` they stop after 2 decisions, long before any points count (judged by the points,
    all would be level), and the search believes the standing: where fewer points stand better it declines,
    where more do it adds, on the VM and in Python alike."""
    import engine.bots.mcts as mcts

    state = make_game(tmp_path, STANDING_RACE.replace("0 - p.points", standing)).new_game(players=2)
    if engine == "python":
        monkeypatch.setattr(mcts, "native_game", lambda _game: (None, "kept in Python"))
    picks = {mcts.MctsAgent(seed, "200", rollout=2).search(state.determinized(0, seed), 0) for seed in range(5)}
    assert picks == {best}
    state.apply("add 1")
    assert state.standings() == ([-1, 0] if standing.startswith("0 -") else [1, 0])


@pytest.mark.parametrize("standing, code", [("p.points > 0", "E502"), ("p.pointz", "E504")])
def test_a_standing_is_a_number_for_a_seat_checked_where_it_is_written(tmp_path, standing, code):
    line = (HEADER + STANDING_RACE).splitlines().index("    standing: 0 - p.points") + 1
    with pytest.raises(TabletopError) as err:
        make_game(tmp_path, STANDING_RACE.replace("0 - p.points", standing))
    assert f"game.yaml:{line}:" in str(err.value) and code in str(err.value)


# Each seat picks a number; nothing is scored, so every game is a draw, whatever the picks; the rules' greedy
# value still rates the higher numbers higher.
BLIND_PICKS = """\
player_variables:
  pick: {type: int}
play: |
  for p in players():
      p.pick = choose "pick" from [1, 2, 3] by p
  end_game "all picked"
scoring:
  - {id: none, points: "0"}
bots:
  greedy:
    value: choice
"""


@pytest.mark.parametrize("engine", ["vm", "python"])
def test_where_rollouts_tell_the_options_apart_no_better_than_chance_the_search_follows_the_greedy_values(
    tmp_path, monkeypatch, engine
):
    """Every rollout of this game is a draw, so its returns cannot rank the options; the rules' greedy values
    (progressive bias) make the option they rate best the most visited, on the VM and in Python alike."""
    import engine.bots.mcts as mcts

    state = make_game(tmp_path, BLIND_PICKS).new_game(players=2)
    if engine == "python":
        monkeypatch.setattr(mcts, "native_game", lambda _game: (None, "kept in Python"))
    picks = {make_agent("mcts:30", seed=seed).search(state.determinized(0, seed), 0) for seed in range(6)}
    assert picks == {"pick 3"}


@pytest.mark.parametrize(
    "name, players, constant", [("cat-town", 2, 0.7), ("cats-mansion", 3, 1.05), ("whist", 4, 0.7)]
)
def test_the_search_explores_as_much_for_what_a_win_is_worth(name, players, constant):
    """A lone winner of three seats gets +2 and the others -1, a spread of 3 where two sides spread over 2
    (+1 against -1): UCB's constant grows with it, the same at 2 seats and for two partnerships of four,
    half as much again at 3 seats."""
    from engine.bots.mcts import _exploration

    state = load_game(name).new_game(players=players, seed=0)
    assert _exploration(state, 0) == pytest.approx(constant)
