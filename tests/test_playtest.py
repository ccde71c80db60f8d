"""Playtest metrics on tiny games whose figures are known by hand, sweeps on common seeds,
the same figures from every backend, the rules' own counters, and the command."""

import json

import pytest
from test_language import make_game
from test_outcomes import FIRST_WINS, LEVEL

from engine.cli import main
from engine.lab.cards import deciding
from engine.lab.games import Arm, arms_of, load_arm, parse_set, play_batch
from engine.lab.intervals import SeatGames
from engine.lab.playtest import Plan, measure, run

# Each seat says "go" once, then a fair coin names the winner.
COIN = """\
constants:
  ticks: 1
variables:
  coin: {type: int}
play: |
  for p in players():
      repeat ticks:
          x = choose "go" from [1] by p
  coin = random_from([0, 1])
  end_game "the coin fell"
scoring:
  - id: coin
    points: "1 if seat_number(p) == coin else 0"
stats:
  - id: heads
    text: the coin showed 1
    value: coin == 1
  - id: seat
    value: seat_number(p)
    per: seat
"""


# Four cards dealt two a seat; each seat plays one.  Whoever plays the crown wins; else a draw.
CROWN = """\
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
zones:
  - {id: deck, visibility: hidden}
  - {id: hand, per: player, visibility: owner}
  - {id: played, per: player, visibility: public}
setup: |
  shuffle(deck)
  for p in players():
      repeat 2:
          move(top(deck), hand(p))
play: |
  for p in players():
      c = choose "play" from hand(p) by p
      move(c, played(p))
  end_game "both played"
scoring:
  - id: crown
    points: sum([c.power for c in played(p)])
"""


def figures(tmp_path, body, games=40, bots=("random", "random"), arms=None, skill=None, **kw):
    path = make_game(tmp_path, body).rules.folder / "game.yaml"
    plan = Plan(str(path), arms or [Arm()], 2, games, 0, list(bots), skill_bot=skill, skill_games=10 if skill else 0)
    games_ = [load_arm(plan.game, arm) for arm in plan.arms]
    records, info = run(plan, games_, **kw)
    return measure(plan, games_, records, info), records


def test_a_fair_coin_is_balanced(tmp_path):
    data, _ = figures(tmp_path, COIN, games=200)
    o = data["arms"][0]["outcomes"]
    assert sum(o["wins"]) == 200 and o["draws"] == 0 and o["completion_rate"] == 1.0
    for low, high in o["win_rate_95"]:
        assert low < 0.5 < high
    assert o["balance"] > 0.8 and abs(o["first_seat_advantage"]) < 0.1
    assert o["end_reasons"] == {"the coin fell": 200}


def test_seat_zero_always_winning_is_no_balance_and_decided_from_the_start(tmp_path):
    data, _ = figures(tmp_path, FIRST_WINS)
    a = data["arms"][0]
    assert a["outcomes"]["win_rate"] == [1.0, 0.0] and a["outcomes"]["balance"] == 0.0
    assert a["outcomes"]["first_seat_advantage"] == 0.5
    assert a["scores"]["margin"]["mean"] == 1 and a["scores"]["lead_changes"]["max"] == 0
    assert a["scores"]["decisiveness"] == 0.0 and a["scores"]["drama"] == 0.0


def test_a_game_that_always_draws_has_no_winner_and_known_durations(tmp_path):
    """Ticks by seats 0, 1, 0: three decisions, three turns, two rounds (seat 0 starts a second turn)."""
    data, _ = figures(tmp_path, LEVEL.format(ties="draw"), games=10)
    a = data["arms"][0]
    assert a["outcomes"]["draw_rate"] == 1.0 and a["outcomes"]["wins"] == [0, 0]
    assert a["outcomes"]["win_rate"] == [0.0, 0.0] and a["scores"]["margin"] is None
    assert [a["duration"][k]["mean"] for k in ("decisions", "turns", "rounds")] == [3, 3, 2]
    assert a["choice"]["branching"] == 2.0
    assert {x["action"] for x in a["choice"]["actions"]} == {"tick 1", "tick 2"}


def test_the_rules_own_counters_are_reported(tmp_path):
    data, _ = figures(tmp_path, COIN, games=100)
    heads, seat = data["arms"][0]["stats"]
    assert heads["kind"] == "yes/no" and 0.35 < heads["share"] < 0.65
    assert seat["per_seat"] and [s["mean"] for s in seat["seats"]] == [0, 1]


def test_a_stat_must_be_a_number_or_yes_no(tmp_path):
    from engine import RulesError

    with pytest.raises(RulesError, match="E502"):
        make_game(tmp_path, COIN.replace("value: coin == 1", "value: players()"))


def test_sweep_arms_play_the_same_seeds_and_name_their_axis(tmp_path):
    arms = arms_of([], [parse_set("constants.ticks=1..3")])
    data, records = figures(tmp_path, COIN, games=8, arms=arms)
    assert [a["label"] for a in data["arms"]] == ["ticks=1", "ticks=2", "ticks=3"]
    assert [a["duration"]["decisions"]["mean"] for a in data["arms"]] == [2, 4, 6]
    assert data["sweep"] == {"name": "constants.ticks", "values": [1, 2, 3]}
    by_arm = [[r["seed"] for r in records[i * 8 : (i + 1) * 8]] for i in range(3)]
    assert by_arm[0] == by_arm[1] == by_arm[2] == list(range(8))
    # common random numbers: the coin falls the same way in every arm
    assert len({tuple(a["outcomes"]["wins"]) for a in data["arms"]}) == 1


@pytest.mark.parametrize(
    "text, values", [("a.b=900..1200/100", [900, 1000, 1100, 1200]), ("a=1,x,2.5", [1, "x", 2.5]), ("a=true", [True])]
)
def test_set_values(text, values):
    assert parse_set(text)[1] == values


@pytest.mark.parametrize("text", ["a", "a=", "a=9..1", "a=1..x", "a=1..9/0"])
def test_bad_set_values_are_one_line_errors(text, capsys):
    assert main(["playtest", "caty-mini", "--players", "2", "--games", "1", "--set", text]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --set") and err.count("\n") == 1


def test_unknown_setting_is_a_one_line_error(capsys):
    assert main(["playtest", "caty-mini", "--players", "2", "--games", "1", "--set", "constants.strin=9"]) == 1
    assert "'constants' has no 'strin' (it has: rounds, string_length)" in capsys.readouterr().err


@pytest.mark.parametrize("engine", ["python", "vm"])
def test_forked_processes_give_the_same_figures(tmp_path, engine):
    local, _ = figures(tmp_path / "a", COIN, games=12, skill="greedy")
    forked, _ = figures(tmp_path / "b", COIN, games=12, skill="greedy", jobs=2, engine=engine)
    assert (forked["run"]["workers"], forked["run"]["engine"]) == (2, engine)
    assert [dict(a) for a in local["arms"]] == forked["arms"]


def test_skill_is_measured_per_seat(tmp_path):
    """Greedy looks one decision ahead on the scoring: at FIRST_WINS nothing it does matters."""
    data, _ = figures(tmp_path, FIRST_WINS, games=4, skill="greedy")
    seats = data["arms"][0]["skill"]["seats"]
    assert [s["win_rate"] for s in seats] == [1.0, 0.0] and data["arms"][0]["skill"]["chance"] == 0.5


def test_the_command_writes_a_report_and_prints_json(tmp_path, capsys):
    make_game(tmp_path, COIN)
    out = tmp_path / "report.html"
    code = main(
        [
            "playtest",
            str(tmp_path / "rules" / "mini" / "game.yaml"),
            "--players",
            "2",
            "--games",
            "6",
            "--bots",
            "mcts:5,random",
            "--skill-games",
            "2",
            "-o",
            str(out),
            "--json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == ["mcts:5", "random"] and data["run"]["backend"] == "local"
    assert set(data["definitions"]) >= {"win_rate", "balance", "decisiveness", "lead_changes", "branching"}
    text = out.read_text(encoding="utf-8")
    assert "<svg" in text and "http" not in text.split("<svg")[0]


def test_ray_gives_the_same_figures_as_a_local_run(tmp_path):
    ray = pytest.importorskip("ray")
    local, _ = figures(tmp_path / "a", COIN, games=6, skill="greedy")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray, _ = figures(tmp_path / "b", COIN, games=6, skill="greedy", backend="ray")
    finally:
        ray.shutdown()
    assert (on_ray["run"]["backend"], on_ray["run"]["workers"], on_ray["run"]["engine"]) == ("ray", 1, "vm")
    assert local["arms"] == on_ray["arms"]


def test_without_scoring_there_is_no_default_skill_bot(tmp_path, capsys):
    make_game(tmp_path, 'play: |\n  x = choose "go" from [1]\n  end_game "went"\n')
    argv = [
        "playtest",
        str(tmp_path / "rules" / "mini" / "game.yaml"),
        "--players",
        "2",
        "--games",
        "3",
        "-o",
        str(tmp_path / "r.html"),
        "--json",
    ]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["skill_bot"] is None and data["arms"][0]["outcomes"]["finished"] == 3
    with pytest.raises(SystemExit):
        main(argv + ["--skill", "mcts:x"])
    assert capsys.readouterr().err.startswith("tabletop: error: --skill bot 'mcts:x'")


def test_the_card_that_wins_by_construction_is_the_one_that_decides(tmp_path):
    """Playing the crown always wins; not playing it never does.  The crown's impact is +1 − (win rate
    of the other seat-games), its interval above 0; no other card has a positive one."""
    data, _ = figures(tmp_path, CROWN, games=120)
    choice = data["arms"][0]["choice"]
    crown = next(c for c in choice["cards"] if c["card"] == "crown")
    assert crown["win_rate_when_used"] == 1.0 and crown["win_rate_when_not_used"] == 0.0
    assert crown["impact"] == 1.0 and crown["impact_95"][0] > 0.9
    assert choice["deciding_cards"][0]["card"] == "crown"
    assert all(c["impact"] < 0 for c in choice["deciding_cards"][1:])
    assert choice["deciding_actions"][0]["action"] == "play crown"


def test_too_few_games_measure_no_impact(tmp_path):
    """Below the support threshold (30 seat-games each side) a card's impact is not measured."""
    data, _ = figures(tmp_path, CROWN, games=4)
    choice = data["arms"][0]["choice"]
    assert all(c["impact"] is None and c["impact_95"] is None for c in choice["cards"])
    assert choice["deciding_cards"] == []


def test_every_figure_in_the_json_has_a_definition(tmp_path):
    """Walk every key of an arm's figures (rows of lists as ``list[].field``): each is one a metric
    names, so the report and ``tabletop doc --metrics`` define every figure a designer sees."""
    found: set[str] = set()
    for i, body in enumerate([COIN, CROWN]):  # rule counters; deciding cards
        data, _ = figures(tmp_path / str(i), body, games=60, skill="greedy")
        arm = dict(data["arms"][0])
        for identity in ("label", "variant", "settings"):
            del arm[identity]
        found |= set(_paths(arm))
    documented = {k for d in data["definitions"].values() for k in d["keys"]}
    assert found - documented == set()
    assert {"outcomes.balance", "choice.cards[].impact", "skill.seats[].win_rate", "stats[].share"} <= found


def _paths(arm: dict):
    """``section.key`` for each figure of each section, and ``….list[].field`` for each field of rows;
    a summary (mean, median, min, max, n) or a map of counts is one figure."""
    for section, value in arm.items():
        if isinstance(value, dict):
            for key, item in value.items():
                yield f"{section}.{key}"
                yield from _row_paths(item, f"{section}.{key}")
        else:
            yield from _row_paths(value, section)


def _row_paths(value, path: str):
    if isinstance(value, list) and value and isinstance(value[0], dict) and set(value[0]) != SUMMARY:
        for row in value:
            for key, item in row.items():
                yield f"{path}[].{key}"
                yield from _row_paths(item, f"{path}[].{key}")


SUMMARY = {"mean", "mean_95", "median", "min", "max", "n"}


def test_a_card_is_listed_as_deciding_only_beyond_luck_among_all_measured():
    """Seat 0 uses a card in 50 of 100 two-seat games and wins 33 of them, against 22 of the other 50:
    its own 95% interval excludes 0, but among 20 cards measured one such gap is likely by luck, so
    it is listed alone, not among 20."""
    won = {(g, 0) for g in [*range(33), *range(50, 72)]} | {(g, 1) for g in [*range(33, 50), *range(72, 100)]}
    seat_games = SeatGames(100, 2, won)
    used = {(g, 0) for g in range(50)}
    impact, interval = seat_games.difference(used)
    assert interval[0] > 0
    row = {"card": "x", "impact": round(impact, 4), "impact_95": interval, "games": 50}
    assert [r["card"] for r in deciding([row], ("card",), {"x": used}, seat_games)] == ["x"]
    fillers = [{**row, "card": f"y{i}", "impact": 0.0} for i in range(19)]
    fill_used = {f"y{i}": {(g, 1) for g in range(25, 75)} for i in range(19)}
    assert deciding([row, *fillers], ("card",), {"x": used, **fill_used}, seat_games) == []


def test_a_card_used_by_one_seat_of_a_coin_flip_game_is_rarely_called_deciding():
    """The false positive of Caty Mini's "bed": a card one seat uses in most games, games a coin decides.
    The seats of a game are no independent samples (one's win is the other's loss); an interval over
    whole games excludes 0 in about 5% of such runs, as a 95% interval should (the interval of two
    independent samples of seat-games did in 14%: 57 of these 400)."""
    import random

    rng = random.Random(29)
    misses = 0
    for _ in range(400):
        winners = [rng.randrange(2) for _ in range(200)]
        won = {(g, w) for g, w in enumerate(winners)}
        used = {(g, rng.randrange(2)) for g in range(200) if rng.random() < 0.9}
        low, high = SeatGames(200, 2, won).difference(used)[1]
        misses += low > 0 or high < 0
    assert 5 <= misses <= 32  # 5% of 400 is 20


def test_a_seat_in_a_partnership_wins_half_the_games_by_chance(tmp_path):
    """With two teams of two, chance is 1/2 a seat, not 1/4: the coin's winner's partner wins too."""
    body = COIN.replace("random_from([0, 1])", "random_from([0, 1, 2, 3])") + 'teams:\n  "4": [[0, 2], [1, 3]]\n'
    path = make_game(tmp_path, body).rules.folder / "game.yaml"
    plan = Plan(str(path), [Arm()], 4, 4, 0, ["random"] * 4, skill_bot="greedy", skill_games=40)
    games = [load_arm(plan.game, arm) for arm in plan.arms]
    skill = measure(plan, games, *run(plan, games))["arms"][0]["skill"]
    assert skill["chance"] == 0.5
    assert all(0.25 < s["win_rate"] < 0.75 for s in skill["seats"])


def playtest(tmp_path, *extra: str) -> list[str]:
    make_game(tmp_path, COIN)
    game = str(tmp_path / "rules" / "mini" / "game.yaml")
    out = str(tmp_path / "r.html")
    return ["playtest", game, "--players", "2", "--games", "5", "--skill", "none", "-o", out, *extra]


def test_records_have_one_row_per_game_that_pairs_arms_by_seed(tmp_path, capsys):
    """A designer's notebook gets every game: its arm and setting, seed, bots, results, scores, length, counters."""
    import csv

    path = tmp_path / "games.csv"
    argv = playtest(tmp_path, "--set", "constants.ticks=1,2", "--records", str(path), "--seed", "7")
    assert main(argv) == 0
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 10 and [r["arm"] for r in rows] == ["ticks=1"] * 5 + ["ticks=2"] * 5
    first = rows[0]
    assert set(first) >= {"constants.ticks", "seed", "bot_0", "bot_1", "result_0", "score_1", "winners"}
    assert set(first) >= {"decisions", "turns", "rounds", "end_reason", "cut_off", "stat_heads", "stat_seat_1"}
    assert [r["seed"] for r in rows[:5]] == [r["seed"] for r in rows[5:]] == [str(s) for s in range(7, 12)]
    assert [r["decisions"] for r in rows] == ["2"] * 5 + ["4"] * 5
    for r in rows:  # the coin names the winner: the counters, winners and scores agree
        assert r["winners"] == ("1" if r["stat_heads"] == "True" else "0")
        assert r["score_" + r["winners"]] == "1" and r["result_" + r["winners"]] == "win"
        assert (r["bot_0"], r["end_reason"], r["cut_off"]) == ("random", "the coin fell", "False")
        assert r["stat_seat_1"] == "1"


def test_records_as_json_lines_have_the_same_columns(tmp_path):
    import csv

    assert main(playtest(tmp_path / "a", "--records", str(tmp_path / "g.jsonl"), "--seed", "1")) == 0
    assert main(playtest(tmp_path / "b", "--records", str(tmp_path / "g.csv"), "--seed", "1")) == 0
    lines = (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == 5 and list(rows[0]) == next(csv.reader((tmp_path / "g.csv").open(encoding="utf-8")))
    assert rows[0]["seed"] == 1 and rows[0]["cut_off"] is False and rows[0]["stat_seat_0"] == 0


@pytest.mark.parametrize(
    "name, message",
    [
        ("games.xlsx", "error: --records {path}: the suffix says the format: one of .csv, .jsonl, .parquet"),
        ("games.parquet", "error: --records … .parquet needs pyarrow, which is not installed"),
    ],
)
def test_records_a_file_cannot_hold_are_refused_before_any_game(tmp_path, capsys, monkeypatch, name, message):
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)  # as where pyarrow is not installed
    path = tmp_path / name
    assert main(playtest(tmp_path, "--records", str(path), "--seed", "1")) == 1
    err = capsys.readouterr().err
    assert err.startswith(message.format(path=path)) and err.count("\n") == 1
    assert not (tmp_path / "r.html").exists() and not path.exists()


def test_arms_are_paired_game_by_game_against_the_first(tmp_path):
    """Two go's a seat instead of one: the coin falls the same on each seed, so the win rates do not
    differ at all (an interval of exactly 0) while each game is exactly two decisions longer."""
    arms = arms_of([], [parse_set("constants.ticks=1,2")])
    data, _ = figures(tmp_path, COIN, games=30, arms=arms)
    (pair,) = data["paired"]
    assert (pair["arm"], pair["against"]) == ("ticks=2", "ticks=1")
    rows = {r["figure"]: r for r in pair["rows"]}
    win = rows["win rate, seat 0"]
    assert (win["difference"], win["difference_95"], win["correlation"], win["games"]) == (0.0, [0.0, 0.0], 1.0, 30)
    assert rows["decisions"]["difference"] == 2.0 and rows["decisions"]["difference_95"] == [2.0, 2.0]
    assert rows["first-seat advantage"]["difference"] == 0.0 and rows["heads"]["correlation"] == 1.0
    assert set(rows) >= {"win rate, seat 1", "turns", "rounds", "margin", "seat, seat 1"}


def test_a_paired_interval_is_narrow_where_the_arms_share_their_luck():
    """Each game's length varies a lot, but the arm adds about one decision to every game: the paired
    interval holds +1 and is far narrower than the spread of the games themselves."""
    from engine.lab.intervals import paired

    first = [10 * (g % 7) for g in range(200)]
    other = [x + 1 + (g % 3 == 0) for g, x in enumerate(first)]
    found = paired(first, other)
    low, high = found["difference_95"]
    assert low < found["difference"] < high and 1.2 < low < high < 1.5 and found["correlation"] > 0.99


def test_estimated_figures_carry_intervals_from_whole_games(tmp_path):
    """A fair coin: the first seat's advantage and the share of heads hold their true values inside
    their intervals; what is fixed by the rules (two decisions, each seat's own number) has none to speak of."""
    data, _ = figures(tmp_path, COIN, games=200)
    arm = data["arms"][0]
    low, high = arm["outcomes"]["first_seat_advantage_95"]
    assert low < 0 < high and high - low < 0.2
    assert arm["duration"]["decisions"]["mean_95"] == [2.0, 2.0]
    heads, seat = arm["stats"]
    assert heads["share_95"][0] < 0.5 < heads["share_95"][1] and heads["share_95"][1] - heads["share_95"][0] < 0.2
    assert [s["mean_95"] for s in seat["seats"]] == [[0.0, 0.0], [1.0, 1.0]]
    assert arm["scores"]["margin"]["mean_95"] == [1.0, 1.0]
    assert arm["outcomes"]["draw_rate_95"][0] == 0.0 and arm["outcomes"]["completion_rate_95"][1] == 1.0


def test_a_first_seat_that_always_wins_has_its_advantage_known_exactly(tmp_path):
    data, _ = figures(tmp_path, FIRST_WINS)
    assert data["arms"][0]["outcomes"]["first_seat_advantage_95"] == [0.5, 0.5]


def test_the_interval_resamples_games_not_seats():
    """In a two-seat game one seat's win is the other's loss: per game the first seat's advantage is
    ±½.  Over 100 games, 50 won by each seat, the interval is that of 100 draws (about ±0.1), not of
    the 200 seat-games."""
    from engine.lab.intervals import Resampler

    low, high = Resampler(100, seed=3).mean_95([0.5, -0.5] * 50)
    assert -0.13 < low < -0.07 and 0.07 < high < 0.13


@pytest.mark.parametrize("games, warned", [(40, True), (500, False)])
def test_an_arm_with_too_few_games_to_tell_differences_apart_is_warned_of(tmp_path, games, warned):
    data, _ = figures(tmp_path, COIN, games=games)
    assert bool(data["warnings"]) is warned
    if warned:
        (warning,) = data["warnings"]
        assert warning.startswith("base: 40 finished games tell a seat's win rate only to ±15%")
        assert "about 385 games give ±5%" in warning


# Seat 0 picks a short game or a long one; nobody scores, so every game is a shared win.
LONG_OR_SHORT = """\
variables:
  n: {type: int}
play: |
  for p in players():
      if seat_number(p) == 0:
          n = choose "length" from [1, 5] by p
  repeat n:
      x = choose "go" from [1]
  end_game "done"
"""


def test_means_are_over_finished_games_and_cut_offs_are_counted_apart(tmp_path):
    """Long games (6 decisions) pass the limit of 4 and are cut off: the mean length is that of the
    short games that finished, 2 decisions, not a blend with the limit."""
    path = make_game(tmp_path, LONG_OR_SHORT).rules.folder / "game.yaml"
    plan = Plan(str(path), [Arm()], 2, 40, 0, ["random", "random"], limit=4)
    games = [load_arm(plan.game, arm) for arm in plan.arms]
    arm = measure(plan, games, *run(plan, games))["arms"][0]
    finished, cut = arm["outcomes"]["finished"], arm["outcomes"]["cut_off"]
    assert 5 < cut < 35 and finished + cut == 40
    assert arm["duration"]["decisions"]["mean"] == 2 and arm["duration"]["decisions"]["n"] == finished
    assert arm["duration"]["values"]["decisions"] == [2] * finished


def test_lead_drama_and_margin_do_not_apply_to_a_game_without_points(tmp_path):
    from engine.lab.report import render_html

    path = make_game(tmp_path, LONG_OR_SHORT).rules.folder / "game.yaml"
    plan = Plan(str(path), [Arm()], 2, 20, 0, ["random", "random"])
    games = [load_arm(plan.game, arm) for arm in plan.arms]
    data = measure(plan, games, *run(plan, games))
    scores = data["arms"][0]["scores"]
    assert scores["lead_changes"] is scores["drama"] is scores["decisiveness"] is scores["margin"] is None
    page = render_html(data)
    for name in ("margin of victory (mean)", "lead changes (mean)", "drama", "decisiveness"):
        assert f"<td>{name}</td><td>—</td>" in page


def test_an_interrupted_run_keeps_the_games_finished_on_the_same_seeds_in_every_arm(tmp_path):
    """Ctrl-C after 7 of 20 games: seeds 0–2 in both arms and seed 3 in the first are kept and
    measured (the run plays seed by seed across the arms), and the figures say they are partial."""
    arms = arms_of([], [parse_set("constants.ticks=1,2")])
    path = make_game(tmp_path, COIN).rules.folder / "game.yaml"
    plan = Plan(str(path), arms, 2, 10, 0, ["random", "random"])
    games = [load_arm(plan.game, arm) for arm in plan.arms]

    def ctrl_c(done, total, decisions, work):
        if done == 7:
            raise KeyboardInterrupt

    records, info = run(plan, games, progress=ctrl_c)
    assert info.interrupted and sum(r is not None for r in records) == 7
    assert [r["seed"] for r in records if r is not None] == [0, 1, 2, 3, 0, 1, 2]
    data = measure(plan, games, records, info)
    assert data["partial"] and data["run"]["games"] == 7
    assert [a["outcomes"]["played"] for a in data["arms"]] == [4, 3]
    assert {r["games"] for r in data["paired"][0]["rows"]} == {3}


def test_ctrl_c_writes_the_partial_report_and_the_records_so_far(tmp_path, capsys, monkeypatch):
    from engine.lab import playtest as lab

    played = []

    def interrupted_at_the_sixth(game, vm, players, batch, limit, finished):
        if len(played) == 5:
            raise KeyboardInterrupt
        played.append(batch)
        play_batch(game, vm, players, batch, limit, lambda index, rec, _: finished(index, rec, 1.0))

    monkeypatch.setattr(lab, "play_batch", interrupted_at_the_sixth)
    path = tmp_path / "games.jsonl"
    assert main(playtest(tmp_path, "--games", "20", "--records", str(path), "--json", "--seed", "1")) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["partial"] is True
    assert err.splitlines()[-1] == f"interrupted: {tmp_path / 'r.html'} and {path} hold the 5 games finished (partial)"
    assert "mini: 20 games: 4/20 games, 8 decisions, 20% of the work, about " in err  # on stderr beside --json
    assert len(path.read_text(encoding="utf-8").splitlines()) == 5
    assert "Playtest: Mini, 2 players (partial)" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_work_left_is_weighed_by_what_each_kind_of_game_costs():
    """Ten quick random games done and one of ten slow thinking ones: about a tenth of the work is
    done, not 11 of 20 games' worth (the estimate that said "1 second left" with minutes to go)."""
    from engine.lab.playtest import Work

    work = Work([("random",)] * 10 + [("mcts:50",)] * 10)
    assert work.fraction() == 0.0
    for _ in range(10):
        work.add(("random",), 0.01)
    assert work.fraction() == pytest.approx(0.5)  # a kind not seen yet is guessed at the mean cost so far
    work.add(("mcts:50",), 1.0)
    assert work.fraction() == pytest.approx(1.1 / 10.1)


def test_the_work_of_each_arm_is_weighed_by_what_its_own_games_cost(tmp_path, monkeypatch):
    """An arm whose games take three times the decisions takes three times the time: after a game of
    each arm and one more of the short one, the long game left is 6 of 16 seconds, not a third of the
    games' mean cost.  (A game here costs a second a decision, so the test reads no clock.)"""
    from engine.lab import playtest as lab

    def a_second_a_decision(game, vm, players, batch, limit, finished):
        play_batch(game, vm, players, batch, limit, lambda index, rec, _: finished(index, rec, float(rec["decisions"])))

    monkeypatch.setattr(lab, "play_batch", a_second_a_decision)
    seen = []
    arms = [Arm(), Arm(None, (("constants.ticks", 3),))]
    figures(tmp_path, COIN, games=2, arms=arms, progress=lambda *p: seen.append(p))
    assert [(games, decisions) for games, _, decisions, _ in seen] == [(1, 2), (2, 8), (3, 10), (4, 16)]
    assert [work for *_, work in seen] == pytest.approx([2 / 8, 8 / 16, 10 / 16, 1.0])


def test_skill_games_are_spread_among_the_main_games():
    plan = Plan("g", [Arm()], 2, 4, 0, ["random", "random"], skill_bot="greedy", skill_games=2)
    tasks = plan.tasks()
    roles = [tasks[i][1] for i in plan.order()]
    assert roles == ["main", "skill:0", "skill:1", "main", "main", "skill:0", "skill:1", "main"]


@pytest.mark.slow
def test_random_caty_mini_games_list_no_card_as_deciding_but_by_rare_luck():
    """Random bots pick cards at random, so no card decides their games: over 12 blocks of random
    2-player games on disjoint seeds, at most one block lists any card's use.  250 games a block, not
    the designers' 1,000: the family-wise test keeps its 5% risk at any number of games (a use is
    measured from 30 seat-games on each side), so a quarter of the games tests the same false-positive
    rate in a quarter of the time; ``tools/card_false_positives.py`` runs the full 12 × 1,000."""
    import importlib.util
    from pathlib import Path

    tool = Path(__file__).resolve().parents[1] / "tools" / "card_false_positives.py"
    spec = importlib.util.spec_from_file_location("card_false_positives", tool)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    blocks = module.deciding_per_block("caty-mini", 2, blocks=12, games=250, jobs=2, seed=29_000)
    assert sum(bool(cards) for cards in blocks) <= 1, blocks


def test_a_bot_that_thinks_for_a_time_is_warned_of(tmp_path):
    """mcts:0.01s searches as long as the machine lets it: its games are not fixed by their seeds."""
    data, _ = figures(tmp_path, COIN, games=2, bots=("mcts:0.01s", "random"))
    assert data["warnings"][0].startswith("mcts:0.01s decides by time: the same seeds do not replay the same games")
    assert not any("decides by time" in w for w in figures(tmp_path / "b", COIN, games=2)[0]["warnings"])


def test_a_bot_that_thinks_for_a_time_is_warned_of_before_the_run_begins(tmp_path, capsys):
    assert main(playtest(tmp_path, "--bots", "mcts:0.01s,random", "--games", "2", "--seed", "1")) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: mcts:0.01s decides by time: the same seeds do not replay the same games")
    assert "decides by time" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_skill_trace_rotates_the_stronger_bot_through_every_seat(tmp_path):
    """Seat 0 always wins FIRST_WINS: a bot that sat in seat 0 only would seem to win every game;
    with the seats rotated each bot of the trace wins exactly half, which is chance at 2 players."""
    path = make_game(tmp_path, FIRST_WINS).rules.folder / "game.yaml"
    trace = ("greedy", "mcts:2", "mcts:4")
    plan = Plan(str(path), [Arm()], 2, 2, 0, ["random"] * 2, skill_bot="greedy", skill_games=3, trace=trace)
    games = [load_arm(plan.game, arm) for arm in plan.arms]
    skill = measure(plan, games, *run(plan, games))["arms"][0]["skill"]
    assert [(t["bot"], t["against"], t["games"], t["wins"]) for t in skill["trace"]] == [
        ("mcts:2", "greedy", 6, 3),
        ("mcts:4", "mcts:2", 6, 3),
    ]
    assert skill["chance"] == 0.5


def test_skill_with_a_search_bot_traces_it_against_greedy_and_twice_its_search(tmp_path, capsys):
    argv = playtest(tmp_path, "--skill", "mcts:3", "--skill-games", "2", "--json", "--seed", "1")
    argv.remove("--skill")
    argv.remove("none")
    assert main(argv) == 0
    skill = json.loads(capsys.readouterr().out)["arms"][0]["skill"]
    assert [(t["bot"], t["against"], t["games"]) for t in skill["trace"]] == [
        ("mcts:3", "greedy", 4),
        ("mcts:6", "mcts:3", 4),
    ]
    assert "Skill trace" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_a_skill_trace_of_a_search_with_short_rollouts_keeps_them():
    from engine.lab.playtest import skill_trace

    assert skill_trace("mcts:50/20", with_greedy=True) == ("greedy", "mcts:50/20", "mcts:100/20")
    assert skill_trace("mcts:0.2s", with_greedy=True) == ()


# Points come only with the end: the first seat is given 1 when the game is over.
SCORED_AT_THE_END = """\
variables:
  over: {type: int}
play: |
  for p in players():
      x = choose "go" from [1] by p
  over = 1
  end_game "over"
scoring:
  - id: last
    points: "over if seat_number(p) == 0 else 0"
"""


def test_a_game_scored_only_at_its_end_has_a_margin_but_no_lead_to_follow(tmp_path):
    """Like Cats' Mansion (the winner scores 1 at the end): nobody leads during play, so lead changes,
    drama and decisiveness are "—", not 0; the margin (1 point) still applies."""
    data, _ = figures(tmp_path, SCORED_AT_THE_END, games=10)
    scores = data["arms"][0]["scores"]
    assert scores["lead_changes"] is scores["drama"] is scores["decisiveness"] is None
    assert scores["margin"]["mean"] == 1


def test_where_the_fewest_points_win_the_margin_is_how_far_under_the_winner_stayed(tmp_path):
    """A 'winner: lowest' game: seat 0 always has 2 points, seat 1 five; seat 0 wins by 3, leading throughout."""
    body = "winner: lowest\n" + FIRST_WINS.replace(
        '"1 if seat_number(p) == 0 else 0"', '"2 if seat_number(p) == 0 else 5"'
    )
    data, _ = figures(tmp_path, body)
    a = data["arms"][0]
    assert a["outcomes"]["win_rate"] == [1.0, 0.0]
    assert a["scores"]["margin"]["mean"] == 3 and a["scores"]["lead_changes"]["max"] == 0
