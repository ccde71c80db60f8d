"""The `tabletop` command: exit codes, one-line diagnostics, and machine-readable output.

Most tests run the CLI in-process through ``engine.cli.main`` (argparse's own exits are
caught as SystemExit); one runs the installed console script to prove it works.
Exit codes: 0 success, 1 problems, 2 usage errors.  No output may contain a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from language_helpers import write_game

from engine.cli import _parser, main

REPO = Path(__file__).resolve().parents[1]
DIAGNOSTIC = re.compile(r"^(?P<path>\S+?):(?P<line>\d+):(?P<col>\d+): (?P<code>E\d{3}) ")
WINNER = re.compile(r"^seat \d+: -?\d+ points\s+wins$", re.MULTILINE)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``tabletop argv…`` run in this process."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse and --bot parsing exit this way
        code = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def broken(tmp_path, monkeypatch) -> Path:
    """A copy of Caty Mini with two typos in its effects; the working folder is the copy's root."""
    shutil.copytree(REPO / "rules" / "caty-mini", tmp_path / "rules" / "caty-mini")
    shutil.copytree(REPO / "boards" / "caty-mini", tmp_path / "boards" / "caty-mini")
    game = tmp_path / "rules" / "caty-mini" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    for old, new in (
        ("size(token_pile(toy))", "size(tokn_pile(toy))"),
        ("shown = top(table).colour", "shown = top(table).color"),
    ):
        assert text.count(old) == 1
        text = text.replace(old, new)
    game.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "rules"


# ---------------------------------------------------------------- validate
def test_validate_shipped_rules_finds_no_problems(capsys):
    """`tabletop validate rules/` on the shipped rules exits 0 with 'no problems found'."""
    code, out, err = run(capsys, "validate", REPO / "rules")
    assert code == 0, out + err
    assert "no problems found" in out


def test_validate_broken_copy_prints_diagnostics_and_a_count(capsys, broken):
    """Each problem is one `path:line:col: CODE message` line (plus context), then the count."""
    code, out, _err = run(capsys, "validate", "rules")
    assert code == 1
    lines = out.splitlines()
    found = [m for m in map(DIAGNOSTIC.match, lines) if m]
    assert sorted(m["code"] for m in found) == ["E501", "E504"]
    assert {m["path"] for m in found} == {"rules/caty-mini/game.yaml"}
    assert lines[-1] == f"{len(found)} errors, 0 warnings"
    assert "did you mean 'token_pile'?" in out and "did you mean 'colour'?" in out


def test_validate_json_gives_the_same_diagnostics(capsys, broken):
    """`validate --json` prints a JSON list with path, line, col, code and hint for each problem."""
    code, out, _ = run(capsys, "validate", "--json", "rules")
    assert code == 1
    problems = json.loads(out)
    assert sorted(p["code"] for p in problems) == ["E501", "E504"]
    for p in problems:
        assert p["path"] == "rules/caty-mini/game.yaml" and p["line"] > 0 and p["col"] > 0
        assert p["hint"].startswith("did you mean")


def test_validate_a_components_file_on_its_own(capsys):
    """A designer validating just the components file they edited gets no false alarms."""
    code, out, err = run(capsys, "validate", REPO / "rules" / "caty-mini" / "components.yaml")
    assert code == 0, out + err
    assert "no problems found" in out


def test_validate_nonexistent_path_is_e101(capsys, tmp_path):
    """A path that does not exist: E101 for it, exit 1."""
    missing = tmp_path / "no-such-folder"
    code, out, err = run(capsys, "validate", missing)
    assert code == 1
    assert f"{missing}:1:1: E101" in err
    assert "1 error" in out


# ------------------------------------------------------------------- usage
def test_no_arguments_prints_help_and_exits_2(capsys):
    """Plain `tabletop` shows the commands and exits 2."""
    code, out, _err = run(capsys)
    assert code == 2
    assert "validate" in out and "simulate" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--frobnicate"],
        ["validate"],
        ["simulate", "caty-mini", "--games", "3"],  # --players is required
        ["play", "caty-mini", "--bot", "7=random"],
        ["play", "caty-mini", "--bot", "1=genius"],
        ["simulate", "caty-mini", "--players", "2", "--games", "0"],
        ["simulate", "caty-mini", "--players", "2", "--games", "5", "--jobs", "-1"],
    ],
    ids=[
        "unknown-option",
        "validate-without-path",
        "missing-option",
        "bad-seat",
        "bad-bot",
        "zero-games",
        "negative-jobs",
    ],
)
def test_usage_errors_exit_2_with_a_message(capsys, argv):
    """Bad command lines exit 2 with a one-line 'error:' message on stderr."""
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert "error:" in err


@pytest.mark.parametrize(
    "argv, option",
    [
        (["simulate", "caty-mini", "--players", "2", "--games", "1e11"], "--games"),
        (["simulate", "caty-mini", "--players", "2", "--games", "100000000000"], "--games"),
        (["simulate", "caty-mini", "--players", "2", "--games", "-5"], "--games"),
        (["simulate", "caty-mini", "--players", "2", "--games", "2.5"], "--games"),
        (["simulate", "caty-mini", "--players", "2", "--games", "1", "--limit", "0"], "--limit"),
        (["simulate", "caty-mini", "--players", "2", "--games", "1", "--limit", "-1"], "--limit"),
        (["simulate", "caty-mini", "--players", "-2", "--games", "1"], "--players"),
        (["replay", "any.json", "--to", "-3"], "--to"),
    ],
    ids=[
        "sci-notation",
        "absurd",
        "negative",
        "fraction",
        "zero-limit",
        "negative-limit",
        "negative-players",
        "negative-to",
    ],
)
def test_bad_counts_are_argparse_one_line_errors(capsys, argv, option):
    """An absurd, negative or non-integer count is refused before any work: exit 2, the option and the
    allowed range in argparse's one error line."""
    code, _out, err = run(capsys, *argv)
    assert code == 2
    [line] = [x for x in err.splitlines() if "error:" in x]
    assert f"argument {option}: expected a whole number" in line and argv[argv.index(option) + 1] in line


def test_simulate_jobs_above_the_cpus_are_capped_with_a_note(capsys):
    """--jobs far above the CPU count runs on os.cpu_count() processes and says so; not an error."""
    code, out, err = run(capsys, "simulate", "caty-mini", "--players", "2", "--games", "2", "--jobs", "999", "--json")
    assert code == 0
    assert json.loads(out)["jobs"] == (os.cpu_count() or 1)
    assert "note: --jobs 999" in err


@pytest.mark.parametrize(
    "command",
    [
        ["cards"],
        ["play", "--bot", "all=random"],
        ["simulate", "--players", "2", "--games", "1"],
    ],
    ids=["cards", "play", "simulate"],
)
def test_unknown_game_is_e101_with_did_you_mean(capsys, command):
    """A misspelt game name: E101 naming it, with a did-you-mean hint, exit 1."""
    code, _out, err = run(capsys, command[0], "caty-mni", *command[1:])
    assert code == 1
    assert "caty-mni:1:1: E101 no game named 'caty-mni' (did you mean 'caty-mini'?)" in err


def test_unknown_variant_is_e101(capsys):
    """A misspelt variant names the known ones."""
    code, _out, err = run(capsys, "cards", "caty-mini", "--variant", "older")
    assert code == 1
    assert "E101 no variant named 'older'" in err and "older-players" in err


# -------------------------------------------------------------------- play
def test_play_with_bots_only_reaches_a_winner(capsys):
    """`play --bot all=random` plays to the end, prints the scores and a winner line, exits 0."""
    code, out, err = run(capsys, "play", "caty-mini", "--bot", "all=random", "--players", "3", "--seed", "1")
    assert code == 0, err
    assert WINNER.search(out), out[-500:]
    assert len(re.findall(r"^seat \d+: -?\d+ points", out, re.MULTILINE)) == 3


def test_play_illegal_input_is_refused_and_play_continues(capsys, monkeypatch):
    """Typing an illegal action prints one 'is not a legal action' line and asks again."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("fly away\n" + "1\n" * 500))
    code, out, err = run(capsys, "play", "caty-mini", "--players", "2", "--seed", "1", "--bot", "1=random")
    assert code == 0, err
    refusals = [line for line in out.splitlines() if "is not a legal action" in line]
    assert len(refusals) == 1
    assert "'fly away' is not a legal action" in refusals[0]
    assert WINNER.search(out)


def test_play_a_simultaneous_decision_against_a_bot(capsys, monkeypatch):
    """Goofspiel's bids are made at once: the bot bids first, its bid is not shown before the human's."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 13))
    code, out, err = run(capsys, "play", "goofspiel", "--players", "2", "--seed", "1", "--bot", "1=random")
    assert code == 0, err
    first = out.index("seat 0>")
    assert "seat 1: bid …" in out[:first] and not re.search(r"seat 1: bid \S+-hearts", out)
    assert len(set(re.findall(r"^round (\d+): the prize", out, re.MULTILINE))) == 13 and WINNER.search(out)


def test_play_stops_cleanly_at_end_of_input(capsys, monkeypatch):
    """Input that ends before the game does: 'game stopped', exit 1, no traceback."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3))
    code, _out, err = run(capsys, "play", "caty-mini", "--players", "2", "--seed", "1", "--bot", "1=random")
    assert code == 1
    assert err.count("\n") == 1 and "game stopped" in err


@pytest.mark.parametrize("stdin", [None, "closed"], ids=["no-stdin", "closed-stdin"])
def test_play_with_stdin_closed_stops_with_one_line(capsys, monkeypatch, stdin):
    """No stdin at all (`<&-`) or a closed one: one 'game stopped' line, exit 1, no traceback."""
    if stdin == "closed":
        stdin = io.StringIO()
        stdin.close()
    monkeypatch.setattr(sys, "stdin", stdin)
    code, _out, err = run(capsys, "play", "caty-mini", "--players", "2", "--seed", "1")
    assert code == 1
    assert err.count("\n") == 1 and "game stopped" in err


# ---------------------------------------------------------------- simulate
SUMMARY_KEYS = {
    "game",
    "variant",
    "players",
    "games",
    "seed",
    "bots",
    "wins",
    "ties",
    "scores",
    "decisions_per_game",
    "cut_off",
    "errors",
    "games_per_second",
}


def test_simulate_json_summary(capsys):
    """`simulate --json` prints one JSON object with the documented keys and consistent counts."""
    code, out, err = run(capsys, "simulate", "caty-mini", "--players", "2", "--games", "20", "--seed", "0", "--json")
    assert code == 0, err
    s = json.loads(out)  # exactly one JSON document
    assert set(s) >= SUMMARY_KEYS
    assert (s["game"], s["variant"], s["players"], s["games"], s["seed"]) == ("caty-mini", None, 2, 20, 0)
    assert s["bots"] == ["random", "random"]
    assert set(s["scores"]) >= {"mean", "min", "max"}
    assert all(len(s["scores"][k]) == 2 for k in ("mean", "min", "max"))
    assert s["errors"] == 0 and s["cut_off"] == 0
    finished = s["games"] - s["errors"] - s["cut_off"]
    # every finished game has at least one winner; only ties add extra winners
    assert finished <= sum(s["wins"]) <= finished + s["ties"] * (s["players"] - 1)
    if s["ties"] == 0:
        assert sum(s["wins"]) == finished
    assert s["decisions_per_game"] > 0 and s["games_per_second"] > 0
    assert s["finished"] == finished
    for wins, (low, high) in zip(s["wins"], s["win_rate_95"]):
        assert 0 <= low <= wins / finished <= high <= 1


@pytest.mark.parametrize(
    "wins, games, low, high",
    [(0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (50, 100, 0.4038, 0.5962), (1, 3, 0.0615, 0.7923)],
)
def test_win_rate_interval_is_the_wilson_interval(wins, games, low, high):
    """Known values of the 95% Wilson score interval (z = 1.96)."""
    from engine.lab.simulate import wilson_interval

    assert wilson_interval(wins, games) == pytest.approx([low, high], abs=1e-4)
    assert wilson_interval(0, 0) is None


def test_simulate_in_two_processes_plays_the_same_games(capsys):
    """--jobs shares the seeds among processes: every figure but the time is the same."""
    summaries = []
    for jobs in ("1", "2"):
        code, out, _ = run(
            capsys, "simulate", "cat-town", "--players", "3", "--games", "60", "--seed", "9", "--jobs", jobs, "--json"
        )
        assert code == 0
        summaries.append({k: v for k, v in json.loads(out).items() if k not in ("seconds", "games_per_second", "jobs")})
    assert summaries[0] == summaries[1] and summaries[0]["finished"] == 60


def test_simulate_variant_json(capsys):
    """The variant is named in the summary."""
    code, out, _ = run(
        capsys, "simulate", "caty-mini", "--variant", "older-players", "--players", "3", "--games", "5", "--json"
    )
    assert code == 0
    assert json.loads(out)["variant"] == "older-players"


# ------------------------------------------------------------------- cards
def test_cards_json_lists_every_component(capsys):
    """`cards --json`: 20 tile entries and 30 token entries whose copies add up to 70 components."""
    code, out, _ = run(capsys, "cards", "caty-mini", "--json")
    assert code == 0
    cards = json.loads(out)
    kinds = [c["kind"] for c in cards]
    assert kinds.count("tile") == 20 and kinds.count("token") == 30
    assert len({c["id"] for c in cards}) == len(cards) == 50
    assert sum(c["copies"] for c in cards if c["kind"] == "tile") == 20
    assert sum(c["copies"] for c in cards if c["kind"] == "token") == 50
    assert sum(c["copies"] for c in cards) == 70


# ---------------------------------------------------------- console script
def _cpu_cap() -> None:
    """In the child: a runaway stops after 120 s of CPU (SIGXCPU), however busy the machine is."""
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (120, 120))


def test_console_script_works():
    """The installed `tabletop` script runs: validate Caty Mini's rules in a fresh process."""
    script = shutil.which("tabletop") or str(Path(sys.executable).parent / "tabletop")
    assert Path(script).exists(), "the tabletop console script is not installed"
    done = subprocess.run(
        [script, "validate", "rules/caty-mini"], cwd=REPO, capture_output=True, text=True, preexec_fn=_cpu_cap
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no problems found" in done.stdout
    assert "Traceback" not in done.stderr


def test_simulate_takes_a_bot_for_one_seat(capsys):
    """`--bot SEAT=KIND` means the same in simulate as in play: that seat's bot; the others stay random."""
    code, out, err = run(
        capsys, "simulate", "caty-mini", "--players", "3", "--games", "2", "--seed", "1", "--bot", "0=greedy", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["bots"] == ["greedy", "random", "random"]
    code, out, err = run(
        capsys,
        "simulate",
        "caty-mini",
        "--players",
        "2",
        "--games",
        "2",
        "--bots",
        "greedy",
        "--bot",
        "1=random",
        "--json",
    )
    assert code == 0, err
    assert json.loads(out)["bots"] == ["greedy", "random"]


@pytest.mark.parametrize("command", ["play", "serve", "simulate", "playtest"])
def test_every_command_that_seats_bots_has_the_same_bot_options(command):
    def bot_options(name: str) -> dict:
        commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
        return {o: a.help for a in commands[name]._actions for o in a.option_strings if o.startswith("--bot")}

    assert set(bot_options(command)) == {"--bot", "--bots"}
    assert bot_options(command) == bot_options("play")


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "caty-mini", "--players", "2", "--games", "1", "--bo"],
        ["play", "caty-mini", "--see"],
        ["playtest", "caty-mini", "--players", "2", "--games", "1", "--skill-g"],
        ["list", "--js"],
    ],
)
def test_an_abbreviated_option_is_refused_in_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert len(err.splitlines()) == 1 and f"unrecognized arguments: {argv[-1]}" in err, err


def test_cards_print_effects_with_their_brackets(capsys, monkeypatch):
    """Rule text is printed as written: `[…]` in an effect is a list, not terminal markup to swallow."""
    monkeypatch.setenv("COLUMNS", "400")  # one effect line per table row
    code, out, err = run(capsys, "cards", "cat-town")
    assert code == 0, err
    assert "put_back([x for x in seen if x != c], b)" in out
    assert 'put_back([x for x in seen if x.type != "action"], b)' in out


BRACKETED = """\
    id: mini
    name: "[bold]Mini[/bold]"
    players: {min: 2, max: 2}
    zones:
      - {id: box, visibility: hidden}
    play: |
      x = choose "go" from ["on"] by first(players())
      log "[i]said[/i] {[1, 2]}"
      end_game "[red]the end"
    """


def test_play_prints_log_lines_names_and_reasons_as_written(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    game = write_game(tmp_path, BRACKETED)
    monkeypatch.setattr("builtins.input", lambda prompt: "1")
    code, out, err = run(capsys, "play", game, "--seed", "1")
    assert code == 0, err
    assert "[bold]Mini[/bold] — seat 0" in out
    assert "[i]said[/i] 1, 2" in out
    assert "game over: [red]the end" in out
