"""Bad input gets a clear one-line diagnostic at the right place, never a traceback.

Each loading test copies Caty Mini (rules and boards, same layout) into a temporary
folder, breaks exactly one thing, loads it, and checks the code, the file, the line and
the column of the diagnostic.  Expected places are computed by searching the text the
test wrote, so the tests follow the rule files when those are edited.

The last part drives the state API with illegal actions and bad saved states.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
from pathlib import Path

import pytest

import engine
from engine.load import yaml_source
from engine.load.documents import display_path
from engine.load.yaml_source import MAX_ALIASES, MAX_DEPTH, MAX_NODES
from engine.tools.doc import language_reference

REPO = Path(__file__).resolve().parents[1]
GAME = "caty-mini"


# ------------------------------------------------------------------ helpers
def position(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, col) of the ``occurrence``-th ``needle`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


class Rules:
    """A private copy of Caty Mini at tmp/rules/caty-mini (boards at tmp/boards/caty-mini)."""

    def __init__(self, root: Path):
        self.root = root
        self.folder = root / "rules" / GAME
        shutil.copytree(REPO / "rules" / GAME, self.folder)
        shutil.copytree(REPO / "boards" / GAME, root / "boards" / GAME)
        self.game = self.folder / "game.yaml"

    def path(self, name: str) -> Path:
        return self.folder / name

    def shown(self, name: str) -> str:
        """The path a diagnostic should show (tests run with the copy as working folder)."""
        return f"rules/{GAME}/{name}"

    def text(self, name: str) -> str:
        return self.path(name).read_text(encoding="utf-8")

    def edit(self, name: str, old: str, new: str) -> str:
        """Replace the one occurrence of ``old``; returns the new text of the file."""
        text = self.text(name)
        assert text.count(old) == 1, f"{name}: expected exactly one {old!r} to break"
        text = text.replace(old, new)
        self.path(name).write_text(text, encoding="utf-8")
        return text

    def append(self, name: str, extra: str) -> str:
        text = self.text(name) + extra
        self.path(name).write_text(text, encoding="utf-8")
        return text

    def load_fails(self, variant: str | None = None, target: Path | None = None) -> list[engine.Diagnostic]:
        with pytest.raises(engine.RulesError) as info:
            engine.load_game(target or self.game, variant)
        return info.value.diagnostics


def the(diagnostics: list[engine.Diagnostic], code: str) -> engine.Diagnostic:
    """The first diagnostic with ``code``; fails listing them all if there is none."""
    found = [d for d in diagnostics if d.code == code]
    assert found, f"no {code} among:\n" + "\n".join(d.format() for d in diagnostics)
    return found[0]


def at(d: engine.Diagnostic, path: str, line: int, col: int) -> None:
    assert (d.path, d.line, d.col) == (path, line, col), d.format()


@contextlib.contextmanager
def yaml_work():
    """What the YAML loader does while the block runs, counted: values converted per file (alias expansions
    included), the scalar nodes whose source places were worked out (with the converter that placed them), and
    how far into the text the pure-Python reader had got when the composer refused a file.  Work bounded by
    counts, never by a clock."""
    seen: dict = {"converters": [], "placed": [], "refused_at": []}
    init, place, refuse = (
        yaml_source._Converter.__init__,
        yaml_source._Converter._place,
        yaml_source._BoundedLoader._refuse,
    )

    def counting_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        seen["converters"].append(self)

    def counting_place(self, node):
        seen["placed"].append((self, id(node)))  # a node id is unique within one converter run only
        return place(self, node)

    def noting_refuse(self, *args, **kwargs):
        seen["refused_at"].append(self.pointer)
        return refuse(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yaml_source._Converter, "__init__", counting_init)
        mp.setattr(yaml_source._Converter, "_place", counting_place)
        mp.setattr(yaml_source._BoundedLoader, "_refuse", noting_refuse)
        yield seen


@pytest.fixture
def rules(tmp_path, monkeypatch) -> Rules:
    """A fresh copy of Caty Mini; the working folder is its root, so paths show as rules/…"""
    monkeypatch.chdir(tmp_path)
    return Rules(tmp_path)


def play_randomly(state, seed: int = 0, limit: int = 10_000) -> None:
    rnd = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal:
            return
        state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError("game did not end")


# ------------------------------------------------------------ the baseline
def test_unbroken_copy_loads_and_plays(rules):
    """Guards the fixture: the copy alone is valid, so each break below is the only problem."""
    game = engine.load_game(rules.game)
    play_randomly(game.new_game(players=2, seed=1))
    engine.load_game(rules.game, "older-players")


# -------------------------------------------------------- files and YAML
def test_missing_game_file_is_e101(rules):
    """A game file that does not exist is E101 naming that file."""
    missing = rules.path("no-such-game.yaml")
    d = the(rules.load_fails(target=missing), "E101")
    assert d.path == str(missing)
    assert "not found" in d.message


def test_missing_included_file_is_e101_in_that_file(rules):
    """An `include:` whose file is gone is E101 naming the missing file, not a crash."""
    rules.path("components.yaml").unlink()
    d = the(rules.load_fails(), "E101")
    assert d.path == rules.shown("components.yaml")
    assert "not found" in d.message


def test_unknown_game_name_is_e101_with_did_you_mean():
    """A misspelt game name suggests the known game."""
    with pytest.raises(engine.RulesError) as info:
        engine.load_game("caty-mni")
    d = the(info.value.diagnostics, "E101")
    assert "caty-mni" in d.message
    assert d.hint == "did you mean 'caty-mini'?"


def test_yaml_syntax_error_is_e102_at_the_fault(rules):
    """A YAML syntax error gives E102 at the offending character, as one line."""
    text = rules.edit("game.yaml", "rulebook: caty-mini.txt\n", "rulebook: [caty-mini.txt\n")
    d = the(rules.load_fails(), "E102")
    assert d.line == position(text, "rulebook:")[0] + 1
    assert d.message.startswith("YAML syntax error")
    assert "\n" not in d.format(with_context=False)


def test_a_plain_text_holding_colon_space_is_told_to_be_quoted(rules):
    """`name: Caty Mini: the cat game` is not "mapping values are not allowed here" but what to do about it."""
    text = rules.edit("game.yaml", "name: Caty Mini\n", "name: Caty Mini: the cat game\n")
    d = the(rules.load_fails(), "E102")
    at(d, rules.shown("game.yaml"), *position(text, ": the cat"))
    assert d.message == "quote this text: it contains ': ', which YAML reads as the start of a key"
    assert d.hint == 'write it in double quotes: name: "Caty Mini: the cat game"'


def test_a_more_indented_line_in_a_folded_expression_says_the_block_kept_its_break(rules):
    """In a `>-` block a more-indented line keeps its line break, so the expression stops at the line above:
    the message says so, at the indented line, instead of "unexpected end of line"."""
    before = '      [top(table).furniture + "/" + side] if p.end == none else\n      [p.end,'
    text = rules.edit("game.yaml", before, before.replace("\n      [p.end", "\n        [p.end"))
    d = the(rules.load_fails(), "E401")
    at(d, rules.shown("game.yaml"), *position(text, "[p.end,"))
    assert "indented more than the one above" in d.message and "folded block (>)" in d.message
    assert "end the line above with \\" in d.hint
    rules.edit("game.yaml", "if p.end == none else\n", "if p.end == none else \\\n")
    engine.load_game(rules.game)  # the hint's way out loads
    assert "a more-indented line keeps its line break" in language_reference()


def test_duplicate_key_is_e103_naming_both_lines(rules):
    """A key given twice is E103 at the second one, naming the line of the first."""
    text = rules.edit("game.yaml", "rulebook: caty-mini.txt\n", "rulebook: caty-mini.txt\nname: Caty Maxi\n")
    first, _ = position(text, "name: Caty Mini")
    second = position(text, "name: Caty Maxi")
    d = the(rules.load_fails(), "E103")
    at(d, rules.shown("game.yaml"), *second)
    assert "'name'" in d.message and f"first at line {first}" in d.message


def test_python_object_tag_is_refused_e104(rules):
    """`!!python/object…` tags are refused (E104) and never constructed."""
    text = rules.edit(
        "game.yaml", "rulebook: caty-mini.txt", 'rulebook: !!python/object/apply:os.system ["touch pwned"]'
    )
    d = the(rules.load_fails(), "E104")
    at(d, rules.shown("game.yaml"), *position(text, "!!python"))
    assert "python/object" in d.message
    assert not (rules.root / "pwned").exists()


def test_merge_key_is_refused_e104(rules):
    """YAML merge keys (`<<`) are refused with a hint to write the keys out."""
    text = rules.edit(
        "game.yaml",
        "  marker: {type: player, initial: 0}\n",
        "  marker: &m {type: player, initial: 0}\n  other:\n    <<: *m\n",
    )
    d = the(rules.load_fails(), "E104")
    at(d, rules.shown("game.yaml"), *position(text, "<<"))
    assert d.hint == "write the keys out"


def test_yes_no_on_off_stay_strings(rules):
    """YAML 1.1 booleans-in-disguise stay words: an enum [yes, no, on, off] and a card named No."""
    rules.edit("game.yaml", "  sides: [left, right]\n", "  sides: [left, right]\n  answers: [yes, no, on, off]\n")
    rules.edit("components.yaml", "{id: table, colour: yellow", "{id: table, name: No, colour: yellow")
    game = engine.load_game(rules.game)
    assert game.enums["answers"] == ["yes", "no", "on", "off"]
    assert game.card_texts["table"]["name"] == "No"


LOLS = '["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'


def billion_laughs(levels: int = 9, width: int = 9, first: str = LOLS) -> str:
    """A classic alias bomb: ``width ** levels`` values from under a hundred aliases."""
    lines = [f"lol0: &l0 {first}"]
    for i in range(1, levels):
        lines.append(f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_quickly_e105(rules):
    """An alias bomb (9**9 values from 72 aliases) is refused with E105 once MAX_NODES values are converted."""
    text = rules.append("game.yaml", billion_laughs())
    with yaml_work() as work:
        diagnostics = rules.load_fails()
    assert max(c.nodes for c in work["converters"]) == MAX_NODES + 1  # stopped at the first value over the bound
    d = the(diagnostics, "E105")
    assert d.path == rules.shown("game.yaml")
    assert d.line >= position(text, "lol0:")[0]
    assert d.hint


def test_billion_laughs_of_a_block_scalar_is_refused_quickly(rules):
    """The same bomb built on a block scalar after 900 blank lines is refused just as soon: the scalar's source
    places (a walk over its 900 lines) are worked out once, not once per expansion."""
    rules.append("game.yaml", billion_laughs(first="|\n" + "\n" * 900 + "  lol"))
    with yaml_work() as work:
        diagnostics = rules.load_fails()
    the(diagnostics, "E105")
    assert max(c.nodes for c in work["converters"]) == MAX_NODES + 1
    assert len(work["placed"]) == len(set(work["placed"])), "a scalar's places were worked out again"


def test_too_many_aliases_is_e105(rules):
    """More aliases than the limit is E105 at the first one over it, without expanding anything."""
    text = rules.append("game.yaml", "many: &a 1\nuses: [" + ", ".join(["*a"] * (MAX_ALIASES + 5)) + "]\n")
    d = the(rules.load_fails(), "E105")
    line, col = position(text, "*a", MAX_ALIASES + 1)
    at(d, rules.shown("game.yaml"), line, col)


def test_deep_nesting_is_e106_at_the_first_level_too_deep(rules):
    """Nesting past the limit is E106 at the first bracket that goes too deep."""
    depth = MAX_DEPTH + 5
    text = rules.append("game.yaml", "deep: " + "[" * depth + "]" * depth + "\n")
    d = the(rules.load_fails(), "E106")
    line, col = position(text, "deep: ")
    # the document is level 0 and the k-th bracket level k: the first too deep is bracket MAX_DEPTH + 1
    at(d, rules.shown("game.yaml"), line, col + len("deep: ") + MAX_DEPTH)


def test_deep_nesting_is_refused_promptly(rules):
    """A 40 KB file of 20000 nested brackets is refused having read only its first levels (PyYAML's scanner
    is quadratic in flow depth: reading them all would take minutes)."""
    depth = 20_000
    text = rules.append("game.yaml", "deep: " + "[" * depth + "]" * depth + "\n")
    with yaml_work() as work:
        diagnostics = rules.load_fails()
    the(diagnostics, "E106")
    start = text.index("deep: ")
    # read: the first levels, and PyYAML's look-ahead of at most 1024 characters for a possible key
    assert len(work["refused_at"]) == 1 and work["refused_at"][0] - start < 1024 + 2 * MAX_DEPTH < depth


def test_file_too_big_is_e107(rules):
    """A rule file over the size limit is refused before parsing."""
    rules.append("game.yaml", "# " + "x" * 2_100_000 + "\n")
    d = the(rules.load_fails(), "E107")
    at(d, rules.shown("game.yaml"), 1, 1)


# ----------------------------------------------------------------- schema
def test_schema_wrong_type_is_e201_at_the_value(rules):
    """A value of the wrong type is E201 at that value, saying what type was expected."""
    text = rules.edit("game.yaml", "players: {min: 2, max: 4}", "players: {min: two, max: 4}")
    d = the(rules.load_fails(), "E201")
    at(d, rules.shown("game.yaml"), *position(text, "two"))
    assert "'two'" in d.message and "integer" in d.message


def test_schema_unknown_key_is_e201_with_did_you_mean(rules):
    """A misspelt section name is E201 at the key, suggesting the right one."""
    text = rules.edit("game.yaml", "\nconstants:\n", "\nconstans:\n")
    d = the(rules.load_fails(), "E201")
    at(d, rules.shown("game.yaml"), *position(text, "constans:"))
    assert "unknown key 'constans'" in d.message
    assert d.hint == "did you mean 'constants'?"


def test_missing_board_file_is_e101_at_its_name(rules):
    """A board file listed but absent is E101 at its name in game.yaml."""
    text = rules.edit("game.yaml", "room-4.yaml]", "room-5.yaml]")
    d = the(rules.load_fails(), "E101")
    at(d, rules.shown("game.yaml"), *position(text, "room-5.yaml"))
    assert "room-5.yaml" in d.message


# ---------------------------------------------------------- effect language
def test_unknown_zone_in_a_procedure_is_e501_with_hint_and_caret(rules):
    """A typo inside a multi-line block is reported at its exact line and column, with context."""
    text = rules.edit("game.yaml", "if size(token_pile(toy)) > 0:", "if size(tokn_pile(toy)) > 0:")
    line, col = position(text, "tokn_pile(")
    d = the(rules.load_fails(), "E501")
    at(d, rules.shown("game.yaml"), line, col)
    assert "tokn_pile" in d.message
    assert d.hint == "did you mean 'token_pile'?"
    source = text.splitlines()[line - 1]
    assert d.context == (source, " " * (col - 1) + "^")
    assert (
        d.format().splitlines()[0]
        == f"rules/caty-mini/game.yaml:{line}:{col}: E501 {d.message} (did you mean 'token_pile'?)"
    )


def test_wrong_argument_type_is_e502_at_the_argument(rules):
    """`size(3)` is E502 at the 3: size needs a zone, not a number."""
    text = rules.edit("game.yaml", "if size(token_pile(toy)) > 0:", "if size(3) > 0:")
    d = the(rules.load_fails(), "E502")
    at(d, rules.shown("game.yaml"), *position(text, "3) > 0"))
    assert "zone" in d.message and "number" in d.message


def test_wrong_arity_is_e503_at_the_call(rules):
    """`move` with one argument is E503 at the call, giving the expected parameters."""
    text = rules.edit("game.yaml", "move(top(token_pile(toy)), won(p))", "move(top(token_pile(toy)))")
    d = the(rules.load_fails(), "E503")
    at(d, rules.shown("game.yaml"), *position(text, "move(top(token_pile(toy)))"))
    assert "move(card, to)" in d.message and "2 arguments, not 1" in d.message


def test_unknown_attribute_is_e504_with_did_you_mean(rules):
    """`.color` on a card is E504 on that line, suggesting `colour`."""
    text = rules.edit("game.yaml", "shown = top(table).colour", "shown = top(table).color")
    d = the(rules.load_fails(), "E504")
    line, start = position(text, "top(table).color")
    assert (d.path, d.line) == (rules.shown("game.yaml"), line)
    # at the start of the expression or at the attribute name itself
    assert d.col in (start, start + len("top(table).")), d.format()
    assert "'color'" in d.message
    assert d.hint == "did you mean 'colour'?"


def test_dsl_syntax_error_is_e401_with_caret(rules):
    """A syntax error in an effect points at the unexpected token, with source line and caret."""
    text = rules.edit("game.yaml", "round = round + 1", "round = round + * 1")
    line, col = position(text, "* 1")
    d = the(rules.load_fails(), "E401")
    at(d, rules.shown("game.yaml"), line, col)
    assert "unexpected '*'" in d.message
    assert d.context == (text.splitlines()[line - 1], " " * (col - 1) + "^")


def test_an_unmatched_closing_bracket_is_e401_at_the_bracket(rules):
    """A ')' that closes nothing is a located syntax error, not an assertion deep in the lexer."""
    text = rules.edit("game.yaml", "round = round + 1", "round = (round + 1))")
    line, col = position(text, "(round + 1))")
    d = the(rules.load_fails(), "E401")
    at(d, rules.shown("game.yaml"), line, col + len("(round + 1)"))
    assert d.message == "unmatched ')'"


def test_item_without_a_declared_attribute_is_e305_at_the_item(rules):
    """A tile that leaves out its colour (an enum: no default) is E305 at that item, naming what is missing;
    int and bool attributes may still be left out (0, false)."""
    text = rules.edit("components.yaml", "{id: lamp, colour: yellow, furniture: lamp}", "{id: lamp, furniture: lamp}")
    d = the(rules.load_fails(), "E305")
    at(d, rules.shown("components.yaml"), *position(text, "{id: lamp"))
    assert "'lamp' gives no 'colour'" in d.message and "kind 'tile'" in d.message


def test_bad_dedent_is_e402_at_its_own_line(rules):
    """A line dedented to no outer block's column is E402 at that line, not the program's first."""
    text = rules.edit("game.yaml", "      shown = top(table).colour", "    shown = top(table).colour")
    line, col = position(text, "shown = top(table).colour")
    d = the(rules.load_fails(), "E402")
    at(d, rules.shown("game.yaml"), line, col)


@pytest.mark.parametrize(
    "written",
    [
        "points: >-\n      sum([t.value\n      for t in wonn(p)])",
        "points: sum([t.value\n      for t in wonn(p)])",
    ],
    ids=["folded", "plain-multiline"],
)
def test_error_in_a_folded_expression_is_on_the_right_line(rules, written):
    """A scoring expression split over lines reports a typo where it is."""
    text = rules.edit("game.yaml", "points: sum([t.value for t in won(p)])", written)
    d = the(rules.load_fails(), "E501")
    at(d, rules.shown("game.yaml"), *position(text, "wonn("))


def test_endless_loop_in_setup_stops_new_game_with_e703(rules):
    """`while true: pass` at the start of setup: the step budget stops new_game with BudgetExceeded (E703)."""
    text = rules.edit(
        "game.yaml", "setup: |\n  shuffle(tiles)", "setup: |\n  while true:\n      pass\n  shuffle(tiles)"
    )
    game = engine.load_game(rules.game)
    with pytest.raises(engine.BudgetExceeded) as info:  # the step budget bounds the work
        game.new_game(players=2, seed=1)
    d = info.value.diagnostic
    assert d.code == "E703" and "'setup'" in d.message
    at(d, rules.shown("game.yaml"), *position(text, "while true:"))


def test_endless_loop_in_play_stops_the_game_with_e703(rules):
    """`while true: pass` at the start of play is caught once setup's choices are made.

    Setup runs first and waits for the players' choices, so the loop is reached by the
    action that ends setup; the game then refuses further actions (StateError).
    """
    text = rules.edit("game.yaml", "play: |\n  repeat rounds:", "play: |\n  while true:\n      pass\n  repeat rounds:")
    state = engine.load_game(rules.game).new_game(players=2, seed=1)
    with pytest.raises(engine.BudgetExceeded) as info:  # the step budget bounds the work
        play_randomly(state)
    d = info.value.diagnostic
    assert d.code == "E703" and "'play'" in d.message
    at(d, rules.shown("game.yaml"), *position(text, "while true:"))
    with pytest.raises(engine.StateError):
        state.apply("anything")


def test_variant_extending_a_misspelt_game_is_e101_at_its_extends_line(tmp_path):
    """`extends: caty-mni` in a variant file outside the rules folder: E101 at the variant's extends value with
    a did-you-mean, not 'file not found' at a rules/caty-mni/game.yaml that was never written."""
    variant = tmp_path / "mine.yaml"
    text = (REPO / "rules" / "caty-mini" / "variants" / "older-players.yaml").read_text(encoding="utf-8")
    text = text.replace("extends: caty-mini", "extends: caty-mni")
    variant.write_text(text, encoding="utf-8")
    with pytest.raises(engine.RulesError) as info:
        engine.load_game(variant)
    [d] = info.value.diagnostics
    assert d.code == "E101" and d.hint == "did you mean 'caty-mini'?"
    at(d, display_path(variant), *position(text, "caty-mni"))


def test_variant_error_is_reported_in_the_variant_file(rules):
    """A typo in a variant is reported in the variant file, whether loaded by name or by path."""
    name = "variants/older-players.yaml"
    text = rules.edit(name, "won(p)])) == size(toys)", "wonn(p)])) == size(toys)")
    expected = (rules.shown(name), *position(text, "wonn("))
    for diagnostics in (rules.load_fails("older-players"), rules.load_fails(target=rules.path(name))):
        d = the(diagnostics, "E501")
        at(d, *expected)
        assert d.hint == "did you mean 'won'?"


def test_base_error_seen_through_a_variant_is_reported_in_the_base(rules):
    """A typo in the base game, loaded with a variant, still points into game.yaml."""
    text = rules.edit("game.yaml", "if size(token_pile(toy)) > 0:", "if size(tokn_pile(toy)) > 0:")
    d = the(rules.load_fails("older-players"), "E501")
    at(d, rules.shown("game.yaml"), *position(text, "tokn_pile("))


def test_variant_schema_error_is_reported_in_the_variant_file(rules):
    """An unknown key inside a variant is E201 in the variant, with did-you-mean."""
    name = "variants/older-players.yaml"
    text = rules.edit(name, "    text: 1 point", "    txt: 1 point")
    d = the(rules.load_fails("older-players"), "E201")
    at(d, rules.shown(name), *position(text, "txt:"))
    assert d.hint == "did you mean 'text'?"


# -------------------------------------------------------------- the state API
@pytest.fixture
def state(caty):
    return caty.new_game(players=2, seed=3)


def test_illegal_action_lists_legal_ids_and_changes_nothing(state):
    """An illegal action raises IllegalAction listing the legal ids; the state is untouched."""
    before = state.to_json()
    legal = state.legal_actions()
    with pytest.raises(engine.IllegalAction) as info:
        state.apply("fly away")
    message = str(info.value)
    assert "'fly away'" in message and "\n" not in message
    assert info.value.legal == legal
    assert all(repr(a) in message for a in legal)
    assert state.to_json() == before


def test_another_seats_action_is_refused(state):
    """A legal action played for a seat that is not deciding is refused; nothing changes."""
    before = state.to_json()
    deciding = state.current_player
    other = (deciding + 1) % 2
    with pytest.raises(engine.IllegalAction) as info:
        state.apply(state.legal_actions()[0], seat=other)
    assert f"seat {other}" in str(info.value) and f"seat {deciding}" in str(info.value)
    assert state.to_json() == before
    state.apply(state.legal_actions()[0], seat=deciding)  # the right seat may


def test_action_after_the_end_is_refused(state):
    """Once the game is over every action is refused and the final state stays as it was."""
    play_randomly(state)
    assert state.is_terminal and state.legal_actions() == []
    final = state.to_json()
    with pytest.raises(engine.IllegalAction, match="over"):
        state.apply("pile red")
    assert state.to_json() == final


def _tamper(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


def _drop_a_card(data):
    zone = next(z for z, cards in data["zones"].items() if cards)
    data["zones"][zone].pop()


def _duplicate_a_card(data):
    zone = next(z for z, cards in data["zones"].items() if cards)
    data["zones"][zone].append(data["zones"][zone][0])


TAMPERINGS = {
    "truncated": lambda text: text[: len(text) // 2],
    "empty": lambda text: "",
    "not-an-object": lambda text: "[1, 2, 3]",
    "missing-keys": lambda text: _tamper(text, lambda d: d.pop("zones")),
    "card-dropped": lambda text: _tamper(text, _drop_a_card),
    "card-duplicated": lambda text: _tamper(text, _duplicate_a_card),
    "other-rules": lambda text: _tamper(text, lambda d: d.update(rules="0" * 16)),
    "too-many-players": lambda text: _tamper(text, lambda d: d.update(players=9)),
    "bad-program-position": lambda text: _tamper(text, lambda d: d["stack"][-1].__setitem__(1, 10**6)),
    "other-game": lambda text: _tamper(text, lambda d: d.update(game="chess")),
}


@pytest.mark.parametrize("how", sorted(TAMPERINGS))
def test_tampered_or_truncated_state_is_a_state_error(caty, state, how):
    """A saved state that was cut short or edited is refused with StateError, not a crash."""
    state.apply(state.legal_actions()[0])
    text = TAMPERINGS[how](state.to_json())
    with pytest.raises(engine.StateError):
        caty.state_from_json(text)


def test_saved_state_round_trips(caty, state):
    """Guards the tampering tests: the untouched text reads back as an equal state."""
    state.apply(state.legal_actions()[0])
    assert caty.state_from_json(state.to_json()) == state


def test_state_of_another_variant_is_a_state_error(caty, caty_older):
    """A state saved under one variant cannot be read by the other, either way round."""
    base = caty.new_game(players=2, seed=1).to_json()
    older = caty_older.new_game(players=2, seed=1).to_json()
    with pytest.raises(engine.StateError, match="variant"):
        caty_older.state_from_json(base)
    with pytest.raises(engine.StateError, match="variant"):
        caty.state_from_json(older)


def test_saved_state_with_a_wrongly_typed_variable_is_a_state_error(caty, state):
    """A variable of the wrong type in a save is refused when read, not mid-game."""
    text = _tamper(state.to_json(), lambda d: d["variables"].update(round="x"))
    with pytest.raises(engine.StateError):
        caty.state_from_json(text)


def test_a_long_wrong_value_is_quoted_short(tmp_path):
    """A whole file of text where a mapping belongs: the message quotes its start, not all of it."""
    path = tmp_path / "game.yaml"
    path.write_text("word " * 400, encoding="utf-8")
    [d] = engine.validate_paths([path])
    assert d.code == "E201" and "is not of type 'object'" in d.message and len(d.message) < 120
    assert "'word word" in d.message and "…" in d.message
