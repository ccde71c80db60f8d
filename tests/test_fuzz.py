"""Hostile input never gets past the loader as a traceback or a hang.

A bounded run of tools/fuzz_rules.py per game (mutants of the shipped rule, variant,
component and board files, each loaded and, when it loads, played), and hypothesis tests
that feed random text to the effect language's parser and checker.  The promise: a clean
load or located diagnostics (RulesError), never another exception, never a hang; a game
that loads raises only TabletopError subclasses while played.

The engine bugs the fuzzer found are kept at the end, one small test each.
A new one goes there as ``xfail(strict=True, reason="engine bug: …")`` until it is fixed.
Replay any mutant of a failing bounded run with the command its report prints.
"""

from __future__ import annotations

import contextlib
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_helpers import REPO, load_tool

import engine
from engine.lang.checker import check_program
from engine.lang.parser import DslProblem, DslSyntaxError, parse_expr, parse_program
from engine.lang.types import PLAYER

fuzz_rules = load_tool("fuzz_rules")

SEED = 20260607
PER_GAME = 100  # 5 to 11 s of CPU per game (Caty Mini 5, Cat Town 6, Cats' Mansion 11)
GAMES = ["caty-mini", "cat-town", "cats-mansion"]
CODE = re.compile(r"E[1-7]\d\d\Z")


# ------------------------------------------------------------ bounded fuzz run
def _report(failures: list[dict]) -> str:
    lines = []
    for f in failures[:5]:
        lines += [
            f"[{f['outcome']}] {f['signature']}",
            f"  mutant {f['index']}: {f['file']} {f['level']}:{f['op']} {f['description']}",
            f"  {f['error']}",
            f"  replay: {f['replay']}",
            f["traceback"][-3000:],
        ]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def board_cache():
    fuzz_rules.enable_board_cache(True)
    yield
    fuzz_rules.enable_board_cache(False)


@pytest.fixture
def memory_cap():
    """A runaway allocation in a mutant becomes a MemoryError (a crash) instead of a dead worker."""
    restore = fuzz_rules.limit_memory(4096)
    yield
    restore()


@pytest.mark.parametrize("game", GAMES)
def test_bounded_fuzz_run_never_crashes_or_hangs(game, board_cache, memory_cap):
    """100 mutants of one game's files (fixed seed): clean loads or located diagnostics only,
    and every game that loads plays up to 200 random actions raising only TabletopErrors."""
    s = fuzz_rules.fuzz(SEED, PER_GAME, [game])
    assert s["mutants"] == PER_GAME
    assert not s["failures"], _report(s["failures"])
    # the mutants reach every stage: YAML, schema, references, effect language, play
    assert s["outcomes"]["diagnostics"] > PER_GAME // 3
    assert s["outcomes"]["clean"] > 0, "no mutant loaded: play is never exercised"
    assert len(s["codes"]) >= 8, f"only {sorted(s['codes'])} seen"
    assert {"E102", "E201"} <= set(s["codes"]) and any(c.startswith(("E4", "E5")) for c in s["codes"]), s["codes"]


def test_mutants_are_reproducible_from_seed_and_index():
    """(seed, index) fixes the mutant: replaying it writes the same bytes to the same file."""
    ws = fuzz_rules.Workspace(GAMES)
    try:
        for i in (0, 1, 2, 57, 1234):
            a = fuzz_rules.make_mutant(ws, GAMES, 7, i)
            b = fuzz_rules.make_mutant(ws, GAMES, 7, i)
            assert (a.file, a.op, a.content, a.target, a.play_seed) == (b.file, b.op, b.content, b.target, b.play_seed)
            assert a.content != ws.pristine[a.file]
    finally:
        ws.close()


def test_data_level_round_trip_alone_changes_nothing(board_cache):
    """safe_load + safe_dump of every shipped file, unmutated, still loads (base and variants):
    a data-level mutant differs from the shipped game by its one mutation only."""
    ws = fuzz_rules.Workspace(GAMES)
    try:
        for info in ws.games.values():
            for rel in info.files:
                (ws.root / rel).write_text(ws.parsed(rel)[1], encoding="utf-8")
            with ws.cwd():
                game_file = ws.root / info.files[0]
                engine.load_game(game_file)
                for variant in info.variants:
                    engine.load_game(game_file, variant)
    finally:
        ws.close()


# ------------------------------------------------------ the effect language
@pytest.fixture(scope="module")
def vocab():
    return engine.load_game("caty-mini").vocabulary


def check_text(text: str, vocab, params=None) -> list[DslProblem]:
    """Parse and check as a game's load does; the only exception allowed out is DslSyntaxError, at a real
    place.  A chain of operators deeper than the checker goes is E403, as the load reports it."""
    try:
        stmts = parse_program(text)
    except DslSyntaxError as exc:
        problems = [exc.problem]
    else:
        try:
            problems = check_program(stmts, vocab, params or {})
        except RecursionError:
            problems = [DslProblem(1, 1, "E403", "expression nested too deeply")]
    for p in problems:
        assert isinstance(p, DslProblem)
        assert p.line >= 1 and p.col >= 1, p
        assert CODE.match(p.code) and p.code[1] in "45", p
        assert isinstance(p.message, str) and p.message, p
    return problems


NAMES = sorted(
    fuzz_rules.KEYWORDS
    + fuzz_rules.PUNCT
    + list(fuzz_rules.OPS)
    + [
        "colours",
        "toys",
        "sides",
        "tiles",
        "table",
        "pile",
        "hand",
        "token_pile",
        "won",
        "box",
        "room",
        "marker",
        "round",
        "string",
        "end",
        "rounds",
        "string_length",
        "run",
        "colour",
        "furniture",
        "toy",
        "value",
        "p",
        "t",
        "x",
        "me",
        "it",
    ]
)
TOKENS = st.one_of(
    st.sampled_from(NAMES),
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(['"x"', '"{p}"', '"{"', '"}"', '"{1 +}"', '"{{x}}"', '"', '""', "#", "\\\n", "'a'"]),
    st.sampled_from(["\n", "\n    ", "\n        ", "\n  ", "\n\t", "\r\n", " ", "\t"]),
    st.text(max_size=3),
)
TOKEN_TEXT = st.lists(TOKENS, max_size=60).map(" ".join)

DSL_SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@DSL_SETTINGS
@given(st.text(max_size=200))
def test_any_text_as_effect_gives_problems_not_exceptions(vocab, text):
    """Arbitrary unicode text as a procedure body: a syntax problem or checker problems."""
    check_text(text, vocab, {"p": PLAYER})


@DSL_SETTINGS
@given(TOKEN_TEXT)
def test_token_soup_as_effect_gives_problems_not_exceptions(vocab, text):
    """Keywords, names, operators, numbers, strings and indentation in random order."""
    check_text(text, vocab, {"p": PLAYER})


@settings(DSL_SETTINGS, max_examples=150)
@given(st.integers(0, 2**32))
def test_generated_programs_give_problems_not_exceptions(vocab, seed):
    """Roughly typed programs from the fuzzer's generator (some with a slip) reach the checker."""
    gen = fuzz_rules.ProgramGen(random.Random(seed), vocab, {"p": "player"})
    check_text(gen.program(), vocab, {"p": PLAYER})


@settings(DSL_SETTINGS, max_examples=200)
@given(st.one_of(st.text(max_size=80), TOKEN_TEXT))
def test_any_text_as_expression_gives_a_syntax_problem_or_a_tree(text):
    """Scoring terms, tie-breakers and start zones are single expressions."""
    try:
        parse_expr(text)
    except DslSyntaxError as exc:
        assert exc.problem.line >= 1 and exc.problem.col >= 1


@pytest.fixture(scope="module")
def caty_copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("caty-fuzz")
    shutil.copytree(REPO / "rules" / "caty-mini", root / "rules" / "caty-mini")
    shutil.copytree(REPO / "boards" / "caty-mini", root / "boards" / "caty-mini")
    return root / "rules" / "caty-mini" / "game.yaml"


@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.one_of(st.text(max_size=120), TOKEN_TEXT))
def test_random_does_text_through_load_game(caty_copy, board_cache, text):
    """The same through the whole loader: the text is the `does:` of Caty Mini's procedure,
    written as a YAML block; a clean load or located diagnostics, nothing else."""
    original = (REPO / "rules" / "caty-mini" / "game.yaml").read_text(encoding="utf-8")
    head, sep, tail = original.partition("    does: |\n")
    assert sep
    body_end = tail.index("\nscoring:")
    lines = text.replace("\r", "").split("\n")
    block = "".join("      " + line + "\n" for line in lines)
    caty_copy.write_text(head + sep + block + tail[body_end:], encoding="utf-8")
    try:
        engine.load_game(caty_copy)
    except engine.RulesError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            hard, _ = fuzz_rules.diagnostic_faults(d)
            assert not hard, (d, hard)


# ------------------------------------ engine bugs found by fuzzing
# Each was a raw exception (or a broken promise) met by tools/fuzz_rules.py; the smallest
# rule change that showed it is kept here.
@pytest.fixture
def caty_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "rules" / "caty-mini", tmp_path / "rules" / "caty-mini")
    shutil.copytree(REPO / "boards" / "caty-mini", tmp_path / "boards" / "caty-mini")
    return tmp_path / "rules" / "caty-mini" / "game.yaml"


def load_fails(path: Path, variant: str | None = None) -> list[engine.Diagnostic]:
    with pytest.raises(engine.RulesError) as info:
        engine.load_game(path, variant)
    assert info.value.diagnostics
    for d in info.value.diagnostics:
        hard, _ = fuzz_rules.diagnostic_faults(d)
        assert not hard, (d, hard)
    return info.value.diagnostics


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name}: expected exactly one {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("char", ["\x00", "\x08", "\x1b", "\ufffe"], ids=["nul", "backspace", "escape", "fffe"])
def test_control_character_in_a_rule_file_is_e102(caty_game, char):
    """Was yaml.reader.ReaderError: PyYAML's reader refuses unprintable characters while the
    loader is being built, which parse_yaml did outside its try."""
    replace_once(caty_game, "name: Caty Mini", f"name: Caty{char}Mini")
    d = [d for d in load_fails(caty_game) if d.code == "E102"]
    assert d and (d[0].path, d[0].line, d[0].col) == ("rules/caty-mini/game.yaml", 4, 11)
    assert f"character U+{ord(char):04X} is not allowed" in d[0].message


@pytest.mark.parametrize(
    "value",
    ["9" * 5000, "!!int x", "!!int ''", "!!float x", "!!int 0x"],
    ids=["5000-digits", "int-x", "int-empty", "float-x", "int-0x"],
)
def test_bad_number_in_a_rule_file_is_a_diagnostic(caty_game, value):
    """Was ValueError/IndexError from the scalar constructor: more than 4300 digits (Python's
    int max str digits) or an explicit !!int/!!float tag on text that is no number."""
    replace_once(caty_game, "  rounds: 12", "  rounds: " + value)
    assert any(d.code == "E102" for d in load_fails(caty_game))


def test_huge_number_in_effect_text_is_a_syntax_problem():
    """Was lark VisitError wrapping ValueError (int() of a 5000-digit NUMBER token)."""
    with pytest.raises(DslSyntaxError):
        parse_program("x = " + "9" * 5000)


def test_huge_number_in_a_procedure_is_a_diagnostic(caty_game):
    replace_once(caty_game, "round = round + 1", "round = round + " + "9" * 5000)
    assert any(d.code.startswith("E4") for d in load_fails(caty_game))


@pytest.mark.parametrize("expr", ["last([]).string", "first([]).nope"])
def test_attribute_of_an_untyped_value_is_a_diagnostic_or_compiles(caty_game, expr):
    """An attribute of a value of unknown type (first([]) …) is refused by the checker or compiles:
    the compiler must not take every such name for a card attribute and fail with a KeyError."""
    replace_once(caty_game, "round = round + 1", f"round = round + {expr}")
    try:
        engine.load_game(caty_game)
    except engine.RulesError as exc:
        assert all(d.line >= 1 and d.col >= 1 for d in exc.diagnostics)


@pytest.mark.parametrize("points", ["sum([t.value for t in won(p)]) // 0", "top(box).value", "score(p)"])
def test_failing_scoring_term_is_a_runtime_rule_error(caty_game, points):
    """Was RuleFault, RecursionError or TypeError out of State.scores / winners / view: the
    scoring terms ran outside the interpreter's fault handling."""
    replace_once(caty_game, "points: sum([t.value for t in won(p)])", f"points: {points}")
    state = engine.load_game(caty_game).new_game(players=2, seed=1)
    with pytest.raises(engine.RuntimeRuleError) as info:
        _ = state.scores
    d = info.value.diagnostic
    assert d.path == "rules/caty-mini/game.yaml" and d.line > 1


@pytest.mark.parametrize("where", ["copies", "area"])
def test_integral_float_where_an_integer_is_wanted_is_a_diagnostic(tmp_path, monkeypatch, where):
    """Was TypeError from range(): JSON Schema counts 2.0 as an integer."""
    monkeypatch.chdir(tmp_path)
    game = "caty-mini" if where == "copies" else "cats-mansion"
    shutil.copytree(REPO / "rules" / game, tmp_path / "rules" / game)
    shutil.copytree(REPO / "boards" / game, tmp_path / "boards" / game)
    if where == "copies":
        replace_once(
            tmp_path / "rules/caty-mini/components.yaml",
            "{id: ball-2, toy: ball, value: 2, copies: 2}",
            "{id: ball-2, toy: ball, value: 2, copies: 2.0}",
        )
    else:
        replace_once(tmp_path / "boards/cats-mansion/mansion.yaml", "area: [0, 0, 2, 3]}", "area: [0, 0, 2.0, 3]}")
    assert any(d.code == "E201" for d in load_fails(tmp_path / "rules" / game / "game.yaml"))


def test_absurd_team_player_count_is_a_diagnostic(tmp_path, monkeypatch):
    """Was OverflowError from list(range(n)) for a 'teams' key of 21 digits (and 1000000000
    exhausted memory)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "rules" / "cat-town", tmp_path / "rules" / "cat-town")
    path = tmp_path / "rules" / "cat-town" / "game.yaml"
    replace_once(path, '"4": [[0, 2], [1, 3]]', '"100000000000000000000": [[0]]')
    assert any(d.code == "E301" for d in load_fails(path))


def test_validating_a_board_with_a_list_as_kind_gives_diagnostics(tmp_path, monkeypatch):
    """Was TypeError (unhashable list) in validate_paths' test of the board kind."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "boards" / "caty-mini", tmp_path / "boards" / "caty-mini")
    path = tmp_path / "boards" / "caty-mini" / "room-1.yaml"
    replace_once(path, "kind: plane", "kind: [plane]")
    diagnostics = engine.validate_paths([path])
    assert diagnostics and all(not fuzz_rules.diagnostic_faults(d)[0] for d in diagnostics)


@pytest.mark.parametrize(
    "file, old, new",
    [
        ("game.yaml", "include: [components.yaml]", "include: 1"),
        ("variants/older-players.yaml", "\nscoring:", "\nremove: [token-values]\nscoring:"),
        ("variants/older-players.yaml", "\nscoring:", "\nremove: {tiebreakers: 5}\nscoring:"),
        ("variants/older-players.yaml", "\nscoring:", "\nremove: {items: 7}\nscoring:"),
        ("variants/older-players.yaml", "\nscoring:", "\ncomponents: [{kind: tile, items: 5}]\nscoring:"),
    ],
    ids=["include-int", "remove-list", "remove-section-int", "remove-items-int", "component-items-int"],
)
def test_malformed_include_or_variant_section_is_a_diagnostic(caty_game, file, old, new):
    """Was TypeError/AttributeError: load_documents went on reading includes and overlaying the
    variant after the file's schema errors."""
    replace_once(caty_game.parent / file, old, new)
    assert any(d.code == "E201" for d in load_fails(caty_game, "older-players" if "variants" in file else None))


def test_choice_by_nobody_is_a_runtime_rule_error(caty_game):
    """Was a decision for nobody: current_player None while not terminal, and the state's own
    to_json() refused by state_from_json ('bad deciding player')."""
    replace_once(caty_game, 'tile = choose "lay" from allowed by marker', 'tile = choose "lay" from allowed by none')
    state = engine.load_game(caty_game).new_game(players=2, seed=1)
    rnd = random.Random(1)
    with pytest.raises(engine.RuntimeRuleError):
        for _ in range(50):
            assert state.current_player is not None or state.is_terminal
            state.apply(rnd.choice(state.legal_actions()))


def test_diagnostic_quoting_a_multi_line_value_stays_on_one_line(caty_game):
    """Was a 'path:line:col: CODE message' line broken in two by a quoted multi-line value."""
    replace_once(
        caty_game.parent / "components.yaml",
        "attributes: {toy: toys, value: int}",
        'attributes: {toy: toys, value: "int\\nmore"}',
    )
    d = [d for d in load_fails(caty_game) if d.code == "E302"]
    assert d and "\n" not in d[0].format(with_context=False)


# ------------------------------------------------ deep expressions and tagged keys (fixed)
def test_long_operator_chains_are_diagnostics_or_load(caty_game, board_cache):
    """Every length from 300 to 500 operators, so that the window is covered whatever the stack depth."""
    text = caty_game.read_text(encoding="utf-8")
    for n in range(300, 501, 10):
        chain = " + ".join(["1"] * n) if n % 20 == 0 else "(1 if " + " and ".join(["true"] * n) + " else 0)"
        caty_game.write_text(text.replace("round = round + 1", f"round = round + ({chain})"), encoding="utf-8")
        try:
            game = engine.load_game(caty_game)
        except engine.RulesError as exc:
            assert all(not fuzz_rules.diagnostic_faults(d)[0] for d in exc.diagnostics)
        else:
            with contextlib.suppress(engine.TabletopError):
                game.new_game(players=2, seed=1)


@pytest.mark.parametrize("n", [600, 1200])
def test_long_conditional_chain_parses_or_is_a_syntax_problem(n):
    try:
        parse_program("x = " + "1 if false else " * n + "1")
    except DslSyntaxError as exc:
        assert exc.problem.code == "E403"


@pytest.mark.parametrize(
    "key", ["!!binary aGk=", "!!set x", "!!python/object:os.system x"], ids=["binary", "set", "python-object"]
)
def test_tagged_mapping_key_is_e104(caty_game, key):
    replace_once(caty_game, "\nconstants:\n", f"\nconstants:\n  {key}: 1\n")
    d = [d for d in load_fails(caty_game) if d.code == "E104"]
    assert d and d[0].path == "rules/caty-mini/game.yaml"


def test_zone_of_nobody_faults_or_saves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "rules" / "cat-town", tmp_path / "rules" / "cat-town")
    path = tmp_path / "rules" / "cat-town" / "game.yaml"
    last = "      p.pos = item(ring, item(starts, seat_number(p)))\n"
    replace_once(path, last, last + "  ring = ring + [hand(affected)]\n")
    game = engine.load_game(path)
    try:
        state = game.new_game(players=2, seed=1)
    except engine.RuntimeRuleError:
        return
    assert game.state_from_json(state.to_json()) == state


@pytest.mark.parametrize(
    "old, new",
    [
        ("{id: wardrobe/left, group: wardrobe, label: left, at: [1.5, 0]", "{id: wardrobe/left, at: [.nan, 0]"),
        ("{id: wardrobe/left, group: wardrobe, label: left, at: [1.5, 0]", "{id: wardrobe/left, at: [.inf, 0]"),
        ("length_scale: 10", "length_scale: .nan"),
        ("length_scale: 10", "length_scale: .inf"),
    ],
    ids=["at-nan", "at-inf", "scale-nan", "scale-inf"],
)
def test_non_finite_board_number_is_a_diagnostic(caty_game, old, new):
    board = caty_game.parents[2] / "boards" / "caty-mini" / "room-1.yaml"
    replace_once(board, old, new)
    d = load_fails(caty_game)
    assert any(x.path == "boards/caty-mini/room-1.yaml" for x in d)
