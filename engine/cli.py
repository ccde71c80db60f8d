"""The ``tabletop`` command: validate, lint, play, simulate, cards, list, explain, doc, diff, replay, upgrade.

Exit codes: 0 success, 1 problems (bad rules, rule errors, illegal input that
ended a run), 2 usage errors.  Bad input never prints a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

from engine.errors import IllegalAction, RulesError, RuntimeRuleError, TabletopError, quoted
from engine.runtime import rng

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
MAX_GAMES = 1_000_000  # a million games is hours of bots; more is a typo, not a plan
MAX_DECISIONS = 10_000_000  # a cut-off past this never cuts anything off


def _whole(low: int, high: int | None = None):
    """An argparse ``type=`` for a whole number in low…high, so a bad count is argparse's one-line error."""
    bounds = f"at least {low}" if high is None else f"from {low} to {high:,}"

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = None
        if number is None or number < low or (high is not None and number > high):
            raise argparse.ArgumentTypeError(f"expected a whole number {bounds}, got {text!r}")
        return number

    return parse


class _Parser(argparse.ArgumentParser):
    """Every parser and subparser of the command: options only by their full names (``--bo`` is no ``--bots``),
    and a usage error in one line."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tabletop", description="Tabletop games described as data.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", help="check rule and board files")
    v.add_argument("paths", nargs="+", metavar="PATH")
    v.add_argument("--json", action="store_true", help="print diagnostics as JSON")

    li = sub.add_parser(
        "lint",
        help="validate, then warn about what is legal but suspect (unused, unreachable…)",
        description="Validate, then warn about what is legal but suspect. Codes: "
        + "; ".join(f"{code} {what}" for code, what in _lint_codes().items())
        + ".",
    )
    li.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: every shipped game and board)")
    li.add_argument(
        "--format",
        choices=["text", "json", "github", "sarif"],
        default=None,
        help="text (default); json: a list of diagnostics; github: Actions annotations; sarif: SARIF 2.1.0",
    )
    li.add_argument("--json", action="store_true", help="the same as --format json")
    li.add_argument(
        "--fix",
        action="store_true",
        help="first remove what can be removed safely (variant settings "
        "that repeat the base), keeping the rest of each file as it is",
    )

    def seed_option(q):
        q.add_argument(
            "--seed",
            type=int,
            default=None,
            metavar="S",
            help="replay the games of this seed (default: a fresh seed from the system, printed and recorded)",
        )

    def bot_options(q):
        q.add_argument(
            "--bot",
            action="append",
            default=[],
            metavar="SEAT=KIND",
            help="a bot for one seat, e.g. 1=random or 0=mcts:200; all=random for every seat",
        )
        q.add_argument(
            "--bots",
            metavar="KIND",
            help="a bot for every seat, or KIND,KIND,… one per seat; KIND[:PARAM]: random, greedy, mcts:200 "
            "(iterations), mcts:0.2s (CPU seconds), mcts:1000/30 (rollouts of 30 decisions) "
            "(--bot then changes one seat). A seat with no bot is played at the keyboard in play and serve, "
            "by a random bot in simulate and playtest",
        )

    def engine_option(q):
        q.add_argument(
            "--engine",
            choices=("auto", "python", "vm"),
            default="auto",
            help="who plays the games: the native VM when the game and bots run on it (auto), Python, or the VM "
            "only; the same games either way",
        )

    def game_args(q):
        q.add_argument("game", metavar="GAME", help="a game name (a folder of rules/) or a path to its game.yaml")
        q.add_argument("--variant", metavar="V", help="a variant name or file")

    pl = sub.add_parser("play", help="play in the terminal, hot-seat and/or against bots")
    game_args(pl)
    pl.add_argument("--players", type=_whole(1), default=2, metavar="N")
    seed_option(pl)
    bot_options(pl)
    pl.add_argument("--quiet", action="store_true", help="bots only: print just the result")
    pl.add_argument("--save", metavar="FILE", help="keep the game (rules, seed, actions) in FILE after every move")

    sv = sub.add_parser("serve", help="the table in the browser: drawn boards, seats, bots, live reload")
    sv.add_argument(
        "game",
        nargs="?",
        metavar="GAME",
        help="a game name or a path to its game.yaml (default: a lobby where tables of any game are created)",
    )
    sv.add_argument("--variant", metavar="V", help="a variant name or file")
    sv.add_argument("--players", type=_whole(1), metavar="N", help="default: the game's fewest")
    seed_option(sv)
    bot_options(sv)
    sv.add_argument("--port", type=_whole(1, 65535), default=8000, metavar="P")
    sv.add_argument(
        "--tables",
        metavar="DIR",
        help="keep every table in DIR (a save file per table, written after every move) and bring them back on start",
    )
    sv.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="H",
        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 for the network)",
    )

    rp = sub.add_parser("replay", help="replay a saved game exactly, step by step or to the end")
    rp.add_argument("file", metavar="FILE")
    rp.add_argument("--steps", action="store_true", help="print every action and event")
    rp.add_argument("--to", type=_whole(0), metavar="N", help="stop after N actions")
    rp.add_argument("--force", action="store_true", help="replay even if the rules changed since the save")
    rp.add_argument(
        "--rules",
        metavar="PATH",
        help="the game's rules (a name or path; default: the shipped game of "
        "the saved id, or the rules folder the save recorded)",
    )

    si = sub.add_parser("simulate", help="many games between bots, with summary figures")
    game_args(si)
    si.add_argument("--players", type=_whole(1), required=True, metavar="N")
    si.add_argument("--games", type=_whole(1, MAX_GAMES), required=True, metavar="K")
    seed_option(si)
    bot_options(si)
    si.add_argument(
        "--limit", type=_whole(1, MAX_DECISIONS), default=None, metavar="D", help="decisions before a game is cut off"
    )
    si.add_argument(
        "--jobs",
        type=_whole(0),
        default=1,
        metavar="J",
        help="processes to share the games (0, or more than the CPUs: one per CPU); "
        "the same games and figures either way",
    )
    engine_option(si)
    si.add_argument("--json", action="store_true", help="print one JSON object")

    pt = sub.add_parser(
        "playtest",
        help="bots, balance metrics, sweeps and A/B in one HTML report with plots",
        description="Play K games per arm (each --variant × each --set value) on the same seeds, "
        "measure them, and write an HTML report (and --json).",
    )
    pt.add_argument("game", metavar="GAME", help="a game name (a folder of rules/) or a path to its game.yaml")
    pt.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="V",
        help="a variant to compare ('base' for the base); repeat for A/B",
    )
    pt.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUES",
        dest="settings",
        help="a rule value by dotted path: constants.NAME=900..1600/100 (a range) or =900,1200",
    )
    pt.add_argument(
        "--without",
        action="append",
        default=[],
        metavar="CARD",
        help="one more arm: the first arm with every copy of CARD left out ('a,b': both in one arm), "
        "compared with the first arm game by game",
    )
    pt.add_argument("--players", type=_whole(1), required=True, metavar="N")
    pt.add_argument("--games", type=_whole(1, MAX_GAMES), required=True, metavar="K")
    seed_option(pt)
    bot_options(pt)
    pt.add_argument(
        "--skill",
        metavar="KIND",
        help="thinking bot measured against random bots in each seat "
        "(default: greedy if it can play the game; 'none' to skip)",
    )
    pt.add_argument(
        "--skill-games",
        type=_whole(0, MAX_GAMES),
        default=None,
        metavar="G",
        help="games per seat for the skill figures (default: K, at most 50)",
    )
    pt.add_argument(
        "--limit", type=_whole(1, MAX_DECISIONS), default=None, metavar="D", help="decisions before a game is cut off"
    )
    pt.add_argument("--jobs", type=_whole(0), default=1, metavar="J", help="local processes (0: one per CPU)")
    pt.add_argument("--backend", choices=("local", "ray"), default="local")
    engine_option(pt)
    pt.add_argument("--address", metavar="ADDR", help="Ray cluster address (default: start a local Ray)")
    pt.add_argument("-o", "--output", metavar="FILE", help="the HTML report (default: playtest-GAME.html)")
    pt.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    pt.add_argument(
        "--records",
        metavar="PATH",
        help="one row per game (.csv, .jsonl, or .parquet with pyarrow): arm, seed, bots, results, scores, counters",
    )

    ca = sub.add_parser("cards", help="list the components with their texts and effects")
    game_args(ca)
    ca.add_argument("--json", action="store_true")

    ex = sub.add_parser("explain", help="what a diagnostic code, an operation, or a part of a game is")
    ex.add_argument(
        "topic",
        metavar="TOPIC",
        help="a code (E501), an operation (move), or with --game a card, "
        "procedure, function, zone, variable or ruling id",
    )
    ex.add_argument("--game", metavar="GAME", help="look the topic up in this game's rules too")
    ex.add_argument("--variant", metavar="V", help="a variant of GAME")

    ls = sub.add_parser("list", help="every game, with its one-line description and its variants")
    ls.add_argument(
        "folder", nargs="?", metavar="FOLDER", help="list the games in this folder (default: the shipped ones)"
    )
    ls.add_argument("--json", action="store_true", help="print one JSON list")

    do = sub.add_parser(
        "doc", help="a Markdown reference of a game's rules, of the effect language, or of the playtest metrics"
    )
    do.add_argument("game", nargs="?", metavar="GAME", help="a game name or path (omit with --language, --metrics)")
    do.add_argument("--variant", metavar="V", help="a variant name or file")
    do.add_argument("--language", action="store_true", help="the effect language: statements and operations")
    do.add_argument("--metrics", action="store_true", help="every playtest metric: definition, formula, Ludii's name")
    do.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the terminal")

    di = sub.add_parser("diff", help="what a variant changes (from the base, or from another variant or game)")
    game_args(di)
    di.add_argument(
        "--against",
        metavar="W",
        help="compare with this variant of GAME, or with another game "
        "(a name or a path to its game.yaml); default: the base",
    )
    di.add_argument("--json", action="store_true", help="print one JSON object")

    up = sub.add_parser(
        "upgrade",
        help="rewrite an older game's files to the current rules format, as far as a program can",
        description="Lists, with their places, the rewrites that bring GAME (its game.yaml, variants, includes "
        "and board files) to the current rules format, and what only the designer can do. Comments and layout "
        "are kept. CHANGELOG.md says what each change means.",
    )
    up.add_argument("game", metavar="GAME", help="a game name (a folder of rules/) or a path to its game.yaml")
    up.add_argument("--check", action="store_true", help="write nothing; exit 1 if an upgrade is needed (for CI)")
    up.add_argument(
        "--write",
        action="store_true",
        help="write the rewrites, each file atomically, its original kept as FILE.bak (a file whose .bak is "
        "already there is not written)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return EXIT_USAGE
    try:
        commands = {
            "validate": _validate,
            "lint": _lint,
            "play": _play,
            "simulate": _simulate,
            "cards": _cards,
            "replay": _replay,
            "diff": _diff,
            "explain": _explain,
            "playtest": _playtest,
            "doc": _doc,
            "list": _list,
            "serve": _serve,
            "upgrade": _upgrade,
        }
        return commands[args.command](args)
    except RulesError as exc:
        for d in exc.diagnostics:
            print(d.format(), file=sys.stderr)
        return EXIT_PROBLEMS
    except TabletopError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_PROBLEMS
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


# ---------------------------------------------------------------- validate
def _validate(args) -> int:
    from engine.tools.validate import validate_paths

    return _report(args, validate_paths, "json" if args.json else "text", fails_on_warnings=False)


def _report(args, check, fmt: str, fails_on_warnings: bool) -> int:
    """Run ``check`` on the paths that exist and print what it found in ``fmt``."""
    from engine.errors import Diagnostic
    from engine.tools.lint.output import format_report, summary

    missing = [Diagnostic(p, 1, 1, "E101", "file not found") for p in args.paths if not Path(p).exists()]
    found = check([p for p in args.paths if Path(p).exists()])
    diagnostics = missing + found
    if fmt == "text":
        for d in missing:
            print(d.format(), file=sys.stderr)
        for d in found:
            print(d.format())
        print(summary(diagnostics))
    else:
        print(format_report(diagnostics, fmt))
    failing = diagnostics if fails_on_warnings else [d for d in diagnostics if d.is_error]
    return EXIT_PROBLEMS if failing else EXIT_OK


def _lint(args) -> int:
    """``validate`` plus warnings; any finding fails, so a designer's CI can keep rules lint-clean."""
    from engine.load.documents import data_root
    from engine.tools.lint.checks import lint_paths

    if args.json and args.format not in (None, "json"):
        return _usage("--json and --format are one choice: give one of them")
    if not args.paths:
        root = data_root()
        args.paths = [str(root / "rules"), str(root / "boards")]

    def check(paths: list[str]) -> list:
        found, fixed = lint_paths(paths, fix=args.fix)
        for line in fixed:
            print(f"fixed: {line}", file=sys.stderr)
        return found

    return _report(args, check, "json" if args.json else args.format or "text", fails_on_warnings=True)


def _lint_codes() -> dict[str, str]:
    from engine.tools.codes import LINT_CODES

    return LINT_CODES


# -------------------------------------------------------------------- play
def _parse_bots(specs: list[str], players: int, game) -> dict[int, str]:
    """``SEAT=KIND[:PARAM]`` options → bot spec per seat; a bad one is a one-line usage error."""
    from engine.bots import BotSpecError, check_spec

    bots: dict[int, str] = {}
    for spec in specs:
        seat, sep, kind = spec.partition("=")
        if not sep:
            raise SystemExit(_usage(f"--bot expects SEAT=KIND[:PARAM] (e.g. 1=mcts:200), got {quoted(spec)}"))
        try:
            check_spec(kind, game)
        except BotSpecError as exc:
            raise SystemExit(_usage(f"--bot expects SEAT=KIND[:PARAM]: {exc}")) from None
        if seat == "all":
            bots.update(dict.fromkeys(range(players), kind))
        elif seat.isdigit() and int(seat) < players:
            bots[int(seat)] = kind
        else:
            raise SystemExit(_usage(f"--bot seat must be 0…{players - 1} or 'all', got {quoted(seat)}"))
    return bots


def _seat_bots(args, players: int, game) -> dict[int, str]:
    """The bots ``--bots`` and ``--bot`` give, by seat (``--bot`` last: it changes one seat)."""
    bots = dict(enumerate(_bot_kinds(args.bots, players, game))) if args.bots else {}
    bots.update(_parse_bots(args.bot, players, game))
    return bots


def _every_seat_bots(args, players: int, game) -> list[str]:
    """One bot per seat for games between bots: a seat given none gets a random bot."""
    bots = _seat_bots(args, players, game)
    return [bots.get(seat, "random") for seat in range(players)]


def _bot_kinds(text: str, players: int, game, option: str = "--bots") -> list[str]:
    """``--bots KIND`` or ``KIND,KIND,…`` (one per seat) → one spec per seat; bad input is a usage error."""
    from engine.bots import BotSpecError, check_spec

    kinds = text.split(",")
    if len(kinds) not in (1, players):
        raise SystemExit(_usage(f"{option} expects one bot or one per seat ({players}), got {quoted(text)}"))
    try:
        for kind in set(kinds):
            check_spec(kind, game)
    except BotSpecError as exc:
        raise SystemExit(_usage(f"{option} {exc}")) from None
    return kinds * players if len(kinds) == 1 else kinds


def _seed(args) -> int:
    """The run's seed: ``--seed``, else a fresh one, printed (on stderr, beside any JSON) so it can be replayed."""
    if args.seed is not None:
        return args.seed
    seed = rng.fresh_seed()
    print(f"seed {seed} (replay with --seed {seed})", file=sys.stderr)
    return seed


def _loaded(game: str, variant: str | None):
    """The game, after printing on stderr what its loading warns of (an older rules format, a deprecated form)."""
    from engine.runtime.gamedef import load_game

    loaded = load_game(game, variant)
    for warning in loaded.warnings:
        print(warning.format(with_context=False), file=sys.stderr)
    return loaded


def _usage(message: str) -> int:
    print(f"tabletop: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _read_choice(actions: list[str], prompt: str) -> str | None:
    """Ask until the answer names a legal action (by number, id or unique prefix)."""
    while True:
        if sys.stdin is None or sys.stdin.closed:  # stdin closed outright (`<&-`): no answer will come
            return None
        try:
            answer = input(prompt).strip()
        except EOFError:
            return None
        if answer in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        if answer in actions:
            return answer
        matches = [a for a in actions if a.startswith(answer)] if answer else []
        if len(matches) == 1:
            return matches[0]
        print(f"{quoted(answer)} is not a legal action; type a number 1–{len(actions)} or one of: {', '.join(actions)}")


def _play(args) -> int:
    from rich.console import Console
    from rich.markup import escape

    from engine.bots import make_agent
    from engine.lab.simulate import bot_inputs
    from engine.runtime.saves import write_save
    from engine.ui.options import describe_options, ring_highlight
    from engine.ui.terminal import render_options, render_view

    game = _loaded(args.game, args.variant)
    bots = _seat_bots(args, args.players, game)
    seed = _seed(args)
    state = game.new_game(players=args.players, seed=seed)
    agents = {seat: make_agent(kind, seed=rng.derive(seed, "bot", seat)) for seat, kind in bots.items()}
    console = Console()
    shown = 0

    def act(action: str, seat: int | None = None) -> None:
        """Apply and save; a rule error is saved with the action that caused it, so replay shows it."""
        try:
            state.apply(action, seat=seat)
        except RuntimeRuleError:
            if args.save:
                write_save(state, args.save)
            raise
        if args.save:
            write_save(state, args.save)

    if args.save:
        write_save(state, args.save)
    while not state.is_terminal:
        if not args.quiet:
            for line in state.log[shown:]:
                console.print(escape(line), highlight=False)
        shown = len(state.log)
        seat = next((s for s in state.to_act if s in agents), state.current_player)  # bots make joint choices first
        if seat in agents:
            act(agents[seat].act(*bot_inputs(state, seat, agents[seat], len(state.history))), seat=seat)
            continue
        view = state.view(seat)
        render_view(game, view, console, ring_highlight(state, seat))
        options = describe_options(state, seat, view)  # irreversible ones last, never option 1
        render_options(options, console)
        actions = [o["id"] for o in options]
        choice = _read_choice(actions, f"seat {seat}> ")
        if choice is None:
            print("tabletop: game stopped before the end (input ended or 'quit')", file=sys.stderr)
            return EXIT_PROBLEMS
        try:
            act(choice, seat)
        except IllegalAction as exc:  # pragma: no cover - _read_choice only returns legal ids
            console.print(f"[red]{escape(str(exc))}[/]")
    if not args.quiet:
        for line in state.log[shown:]:
            console.print(escape(line), highlight=False)
    scores = state.scores
    outcome = state.outcome
    console.rule(f"game over: {escape(outcome.reason)}")
    for p, s in enumerate(scores):
        result = outcome.results[p]
        console.print(f"seat {p}: {s} points" + {"win": "  [bold green]wins[/]", "draw": "  draw"}.get(result, ""))
    return EXIT_OK


def _serve(args) -> int:
    """One table of GAME, or a lobby; with --tables, the tables kept in a folder (brought back first)."""
    from engine.web.app import serve
    from engine.web.lobby import Lobby

    if args.game is not None and args.tables is None:
        serve(_served_table(args), args.host, args.port)
        return EXIT_OK
    folder = None if args.tables is None else Path(args.tables)
    if folder is not None and not folder.is_dir():
        return _usage(f"--tables {quoted(args.tables)} is not a folder")
    lobby = Lobby(folder, creating=args.game is None)
    lobby.restore()
    if args.game is not None and not lobby.tables:
        lobby.add(_served_table(args))
    serve(lobby, args.host, args.port)
    return EXIT_OK


def _served_table(args):
    from engine.web.table import Table

    loaded = _loaded(args.game, args.variant)
    players = args.players or loaded.min_players
    return Table(args.game, args.variant, players, _seed(args), _seat_bots(args, players, loaded))


# ------------------------------------------------------------------ replay
def _replay(args) -> int:
    from engine.runtime.saves import read_save, replay, saved_game

    data = read_save(args.file)
    game = saved_game(data, args.file, args.rules)

    shown = [0]

    def step(i, action, state):
        if args.steps:
            print(f"{i + 1:>4}. {action}")
            for line in state.log[shown[0] :]:
                if not line.endswith(f": {action}"):
                    print(f"      {line}")
        shown[0] = len(state.log)

    state = replay(game, data, until=args.to, allow_other_rules=args.force, on_step=step)
    done = len(state.actions)
    if state.is_terminal:
        scores = ", ".join(f"seat {p}: {s}" for p, s in enumerate(state.scores))
        outcome = state.outcome
        result = "a draw" if outcome.is_draw else f"winners: {outcome.winners}"
        print(f"replayed {done} actions: game over, {outcome.reason} ({scores}; {result})")
    else:
        print(
            f"replayed {done} of {len(data['actions'])} actions: seat {state.current_player} to decide "
            f"among {len(state.legal_actions())} actions"
        )
    return EXIT_OK


# ----------------------------------------------------------------- upgrade
def _upgrade(args) -> int:
    """Exit 1 when something is left: with --check, any upgrade needed; else what only the designer can do."""
    from engine.load.documents import display_path
    from engine.load.formats import CURRENT
    from engine.tools.upgrade import plan_upgrade

    if args.check and args.write:
        return _usage("--check writes nothing and --write writes: give one of them")
    plan = plan_upgrade(args.game)
    for note in plan.notes:  # at their places in the files as they will be after --write
        print(note.format(display_path(note.file), written=args.write))
    rewrites = len(plan.notes) - len(plan.left)
    if not plan.is_needed:
        print(f"up to date: rules format {CURRENT}")
        return EXIT_OK
    left = f"; {len(plan.left)} to do by hand (CHANGELOG.md says how)" if plan.left else ""
    if args.write and plan.texts:
        written = plan.write()
        names = ", ".join(display_path(p) for p in written)
        print(f"{rewrites} rewrites written to {names} (each original kept as FILE.bak){left}")
    elif args.write:
        print(f"nothing to rewrite{left}")
    else:
        print(f"{rewrites} rewrites to make{left}" + ("" if args.check else "; --write makes them"))
    return EXIT_PROBLEMS if args.check or plan.left else EXIT_OK


# ---------------------------------------------------------------- simulate
def _simulate(args) -> int:
    from engine.lab.simulate import DEFAULT_DECISION_LIMIT, simulate

    game = _loaded(args.game, args.variant)
    if not game.min_players <= args.players <= game.max_players:
        return _usage(f"{game.id} is for {game.min_players}–{game.max_players} players, not {args.players}")
    bots = _every_seat_bots(args, args.players, game)
    limit = args.limit or DEFAULT_DECISION_LIMIT
    cpus = os.cpu_count() or 1
    if args.jobs > cpus:
        print(f"note: --jobs {args.jobs} is more than the {cpus} CPUs; using {cpus}", file=sys.stderr)
    jobs = min(args.jobs, cpus) or cpus
    seed = _seed(args)
    if args.json or args.games < 50 or not sys.stderr.isatty():
        summary = simulate(game, args.players, args.games, seed, bots, limit, jobs=jobs, engine=args.engine)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{game.id}: {args.games} games", total=args.games)
            summary = simulate(
                game,
                args.players,
                args.games,
                seed,
                bots,
                limit,
                progress=lambda done: bar.update(task, completed=done),
                jobs=jobs,
                engine=args.engine,
            )
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(summary)
    return EXIT_PROBLEMS if summary["errors"] else EXIT_OK


def _print_summary(s: dict) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    title = escape(
        f"{s['game']}{' / ' + s['variant'] if s['variant'] else ''}: {s['games']} games, "
        f"{s['players']} players, seed {s['seed']}"
    )
    table = Table(title=title)
    for col in ("seat", "bot", "wins", "win rate (95% interval)", "mean score", "min", "max"):
        table.add_column(col, justify="right")
    for p in range(s["players"]):
        interval = s["win_rate_95"][p]
        rate = "—" if interval is None else f"{s['wins'][p] / s['finished']:.0%} ({interval[0]:.0%}–{interval[1]:.0%})"
        table.add_row(
            str(p),
            escape(s["bots"][p]),
            str(s["wins"][p]),
            rate,
            f"{s['scores']['mean'][p]:.2f}",
            str(s["scores"]["min"][p]),
            str(s["scores"]["max"][p]),
        )
    console.print(table)
    console.print(
        f"draws: {s['draws']}   ties (shared wins): {s['ties']}   decisions per game: "
        f"{s['decisions_per_game']}   cut off: {s['cut_off']}   errors: {s['errors']}   "
        f"games/second: {s['games_per_second']}"
    )
    if s["end_reasons"]:
        console.print(
            escape("ended: " + ", ".join(f"{reason} ×{count}" for reason, count in s["end_reasons"].items())),
            highlight=False,
        )
    for sample in s["error_samples"]:
        console.print(f"[red]{escape(sample)}[/]", highlight=False)


# ---------------------------------------------------------------- playtest
def _playtest(args) -> int:
    from engine.lab.games import arms_of, load_arm, parse_set
    from engine.lab.playtest import Plan, measure, run, skill_trace, timed_bots
    from engine.lab.progress import work_progress
    from engine.lab.records import check_records_path, record_rows, write_records
    from engine.lab.report import render_html
    from engine.lab.simulate import DEFAULT_DECISION_LIMIT
    from engine.load.safe_files import write_text

    if args.address and args.backend != "ray":
        return _usage("--address needs --backend ray")
    if args.records:
        check_records_path(args.records)
    sets = [parse_set(text) for text in args.settings]
    variants = [None if v == "base" else v for v in args.variant]
    arms = arms_of(variants, sets)
    arms += [replace(arms[0], without=tuple(text.split(","))) for text in args.without]
    game_name = str(Path(args.game).absolute()) if Path(args.game).exists() else args.game
    games = [load_arm(game_name, arm) for arm in arms]
    first = games[0]
    if not first.min_players <= args.players <= first.max_players:
        return _usage(f"{first.id} is for {first.min_players}–{first.max_players} players, not {args.players}")
    bots = _every_seat_bots(args, args.players, first)
    skill = (
        None
        if args.skill == "none"
        else _bot_kinds(args.skill, 1, first, "--skill")[0]
        if args.skill
        else _default_skill_bot(first)
    )
    skill_games = min(args.games, 50) if args.skill_games is None else args.skill_games
    plan = Plan(
        game_name,
        arms,
        args.players,
        args.games,
        _seed(args),
        bots,
        args.limit or DEFAULT_DECISION_LIMIT,
        skill if skill_games else None,
        skill_games if skill else 0,
        skill_trace(skill, _default_skill_bot(first) == "greedy") if skill_games else (),
    )
    for warning in timed_bots(plan):  # before the run: it may be long, and its pairs are not what they seem
        print(f"warning: {warning}", file=sys.stderr)
    jobs = min(args.jobs, os.cpu_count() or 1) or (os.cpu_count() or 1)
    with work_progress(f"{first.id}: {len(plan.tasks())} games") as progress:
        records, info = run(plan, games, jobs, args.backend, args.address, progress, args.engine)
    data = measure(plan, games, records, info)
    data["game"] = first.id
    output = args.output or f"playtest-{first.id}.html"
    write_text(output, render_html(data))
    if args.records:
        write_records(args.records, record_rows(plan, games, plan.tasks(), records))
    if args.json:
        print(json.dumps(data))
    else:
        run_info = data["run"]
        print(
            f"wrote {output}: {len(arms)} arm{'s' * (len(arms) != 1)}, {run_info['games']} games in "
            f"{run_info['seconds']} s on {run_info['backend']} ({run_info['engine']})"
        )
    if info.interrupted:
        kept = f"{output}{' and ' + args.records if args.records else ''}"
        print(f"interrupted: {kept} hold the {data['run']['games']} games finished (partial)", file=sys.stderr)
    errors = sum(a["outcomes"]["errors"] for a in data["arms"])
    return EXIT_PROBLEMS if errors or info.interrupted else EXIT_OK


def _default_skill_bot(game) -> str | None:
    """greedy, if the game gives it something to rate options by; else no skill figures."""
    from engine.bots import GreedyAgent

    try:
        GreedyAgent.check(game)
    except TabletopError:
        return None
    return "greedy"


# ------------------------------------------------------------------- cards
def _cards(args) -> int:
    from engine.tools.explain import card_list

    game = _loaded(args.game, args.variant)
    cards = card_list(game)
    if args.json:
        print(json.dumps(cards, indent=2))
        return EXIT_OK
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(f"{game.name}: {sum(c['copies'] for c in cards)} components"), show_lines=True)
    for col in ("id", "kind", "×", "attributes", "text / effect"):
        table.add_column(col)
    for c in cards:
        attrs = ", ".join(f"{k}={v}" for k, v in c["attributes"].items())
        body = "\n".join(x for x in (c["text"], c["effect"]) if x)
        table.add_row(*(escape(cell) for cell in (c["id"], c["kind"], str(c["copies"]), attrs, body)))
    Console().print(table)
    return EXIT_OK


def _explain(args) -> int:
    from engine.tools.explain import explain, suggest

    if args.variant and not args.game:
        return _usage("--variant needs --game")
    game = _loaded(args.game, args.variant) if args.game else None
    text = explain(args.topic, game)
    if text is None:
        hint = suggest(args.topic, game)
        where = f" in {args.game} or" if game is not None else ""
        print(
            f"error: nothing named '{args.topic}'{where} among the codes and operations"
            + (f" ({hint})" if hint else "")
            + ("" if game else "; parts of a game need --game GAME"),
            file=sys.stderr,
        )
        return EXIT_PROBLEMS
    print(text)
    return EXIT_OK


def _list(args) -> int:
    from engine.load.catalogue import list_games

    if args.folder is not None and not Path(args.folder).is_dir():
        return _usage(f"{quoted(args.folder)} is not a folder")
    games = list_games(None if args.folder is None else Path(args.folder))
    if args.json:
        print(json.dumps(games, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not games:
        print(f"no games (no game.yaml) in {args.folder}")
    for g in games:
        if g["problem"]:
            print(f"{g['id']}: cannot be read: {g['problem']}")
            continue
        low, high = g["players"]
        players = f" ({low}–{high} players)" if low and high else ""
        print(f"{g['id']}{players}: {g['description'] or g['name'] or '(no description)'}")
        for v in g["variants"]:
            about = f"cannot be read: {v['problem']}" if v["problem"] else v["description"] or v["name"]
            print(f"    variant {v['id']}: {about or '(no description)'}")
    return EXIT_OK


def _doc(args) -> int:
    from engine.load.safe_files import write_text
    from engine.tools.doc import game_reference, language_reference, metrics_reference

    if [bool(args.game), args.language, args.metrics].count(True) != 1:
        return _usage("give one of GAME, --language or --metrics")
    if args.metrics:
        text = metrics_reference()
    elif args.language:
        text = language_reference()
    else:
        text = game_reference(_loaded(args.game, args.variant))
    if args.output:
        write_text(args.output, text)
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _diff(args) -> int:
    from engine.load.documents import known_games
    from engine.runtime.gamedef import load_game
    from engine.tools.diff import compare, format_changes

    new = _loaded(args.game, args.variant)
    against = args.against
    if against is None:
        old, old_name = load_game(args.game), args.game
    elif against in known_games() or Path(against).is_file():
        old, old_name = load_game(against), against
    else:
        old, old_name = load_game(args.game, against), f"{args.game}:{against}"
    new_name = args.game if args.variant is None else f"{args.game}:{args.variant}"
    changes = compare(old, new)
    if args.json:
        print(
            json.dumps(
                {"from": old_name, "to": new_name, "changes": [c.to_json() for c in changes]},
                indent=2,
                ensure_ascii=False,
                default=str,
            )
        )
    else:
        print(format_changes(changes, old_name, new_name))
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
