"""Choices are values with an identity: records for moves of several parts, ids that never merge
two different options, a decline that never clashes, and values checked where they are stored."""

import pytest
from test_language import make_game

from engine import RulesError, RuntimeRuleError, load_game
from engine.lang import ast


def test_a_record_is_one_option_printed_from_its_fields_in_written_order(tmp_path):
    """{do: "step", piece: …, dir: …} prints "step … …"; the chosen record's fields are read back."""
    game = make_game(
        tmp_path,
        """\
        enums:
          dirs: [north, south]
        variables:
          went: {type: text}
          far: {type: int}
        play: |
          m = choose from [{do: "walk", dir: d, far: 2} for d in dirs] + [{do: "stay"}]
          went = m.do
          far = m.far if m.do == "walk" else 0
        """,
    )
    st = game.new_game(players=2)
    assert st.legal_actions() == ["walk north 2", "walk south 2", "stay"]
    assert st.view(0)["decision"]["actions"] == st.legal_actions()
    st.apply("walk south 2")
    assert st.vars["went"] == "walk" and st.vars["far"] == 2


def test_a_field_a_record_lacks_is_refused_where_it_is_read(tmp_path):
    with pytest.raises(RulesError, match=r"E504 a record \{do: text\} has no field 'dri'"):
        make_game(
            tmp_path,
            """\
            play: |
              m = choose from [{do: "x"}]
              y = m.dri
            """,
        )


def test_one_list_holds_one_kind_of_value(tmp_path):
    """[1, "1", true] would offer two options for three values: it is refused with a hint."""
    with pytest.raises(RulesError, match="E506 a list holds one kind of value") as caught:
        make_game(
            tmp_path,
            """\
            play: |
              x = choose from [1, "1", true]
            """,
        )
    assert "make each a record" in str(caught.value)


def test_options_that_print_alike_get_long_ids_and_never_merge(tmp_path):
    """choose from [hand(me), found(me)]: both zones print "0"; they keep their own ids."""
    game = make_game(
        tmp_path,
        """\
        zones:
          - {id: hand, per: player, visibility: owner}
          - {id: found, per: player, visibility: public}
        variables:
          where: {type: zone}
        play: |
          where = choose "look" from [hand(me), found(me)]
        """,
    )
    st = game.new_game(players=2)
    assert st.legal_actions() == ["look hand:0", "look found:0"]
    st.apply("look found:0")
    assert st.vars["where"] == "found:0"


def test_copies_in_one_zone_are_one_choice_but_not_across_zones(tmp_path):
    """Two copies of a card in one hand are the same choice; a copy elsewhere is another one."""
    game = make_game(
        tmp_path,
        """\
        zones:
          - {id: hand, per: player, visibility: owner}
          - {id: found, per: player, visibility: public}
        components:
          - kind: card
            start: hand(first(players()))
            items:
              - {id: a, copies: 3}
        play: |
          move(top(hand(me)), found(me))
          c = choose "pick" from cards(hand(me))
          d = choose "pick" from cards(hand(me)) + cards(found(me))
        """,
    )
    st = game.new_game(players=2)
    assert st.legal_actions() == ["pick a"]
    st.apply("pick a")
    assert st.legal_actions() == ["pick a (hand:0)", "pick a (found:0)"]


@pytest.mark.parametrize("reference", [False, True])
def test_ways_of_choosing_several_of_different_sizes_that_print_alike_keep_long_ids(tmp_path, reference):
    """Choosing none prints "nothing", and so does choosing the text "nothing": two different ways, each given
    its long id, not one merged into the other."""
    game = make_game(
        tmp_path, 'play: |\n  x = choose "say" several 0 to 1 from ["nothing", "x"]\n', reference=reference
    )
    st = game.new_game(players=2)
    assert st.legal_actions() == ["say []", 'say ["nothing"]', "say x"]


@pytest.mark.parametrize("reference", [False, True])
def test_the_long_id_of_a_record_leaves_out_its_fields_that_are_none(tmp_path, reference):
    """Records that print alike (copies of a card in two zones) get long ids naming each field that has a value:
    a field that is none prints in neither id."""
    game = make_game(
        tmp_path,
        """\
        zones:
          - {id: hand, per: player, visibility: owner}
          - {id: found, per: player, visibility: public}
        variables:
          gone: {type: card}
        components:
          - kind: card
            start: hand(first(players()))
            items:
              - {id: a, copies: 2}
        play: |
          move(top(hand(me)), found(me))
          x = choose "take" from [{c: c, w: gone} for c in cards(hand(me)) + cards(found(me))]
        """,
        reference=reference,
    )
    st = game.new_game(players=2)
    assert st.legal_actions() == ["take c=a (hand:0)", "take c=a (found:0)"]


def test_the_decline_is_named_and_never_clashes_with_an_option(tmp_path):
    """`optional "draw"` names the decline; an option printing as the decline is a located error."""
    game = make_game(
        tmp_path,
        """\
        play: |
          x = choose from ["keep", "swap"] optional "draw"
          y = choose from ["pass", "stay"] optional
        """,
    )
    st = game.new_game(players=2)
    assert st.legal_actions() == ["keep", "swap", "draw"]
    with pytest.raises(RuntimeRuleError, match=r'E701 .*prints as "pass", the id of declining'):
        st.apply("draw")


def test_an_enum_variable_refuses_a_value_outside_the_enum_where_it_is_set(tmp_path):
    game = make_game(
        tmp_path,
        """\
        enums:
          colours: [red, blue]
        variables:
          colour: {type: colours}
          name: {type: text, initial: "green"}
        play: |
          colour = name
          x = choose from [1]
        """,
    )
    with pytest.raises(RuntimeRuleError, match="E701 variable 'colour' holds one of the colours, not 'green'"):
        game.new_game(players=2)


def test_a_tampered_chosen_value_is_a_located_rule_error_not_a_python_one():
    """A pending value the rules cannot hold (a card index that is no card), changed in place in the reference's
    state, fails at its rule's line (a save holding one is refused before: tests/test_saved_states.py)."""
    st = load_game("caty-mini", reference=True).new_game(players=2, seed=1)
    st.pending["values"][0] = "not a card"
    with pytest.raises(RuntimeRuleError, match=r"game\.yaml:\d+:\d+: E70[12] "):
        st.apply(st.legal_actions()[0])


@pytest.mark.parametrize(
    "name,variant",
    [("caty-mini", None), ("cat-town", None), ("cat-town", "easy"), ("cat-town", "advanced"), ("cats-mansion", None)],
)
def test_no_shipped_rule_takes_a_move_apart_with_word(name, variant):
    """Moves are records: no shipped game builds a move as text and parses it back."""
    calls = set()
    for _, tree in load_game(name, variant).sources:
        exprs = (
            [e for block in ast.walk_blocks(tree) for s in block for e in ast.parts_of(s)[0]]
            if isinstance(tree, list)
            else [tree]
        )
        calls |= {x.func for e in exprs for x in ast.walk_exprs(e) if isinstance(x, ast.Call)}
    assert "word" not in calls
