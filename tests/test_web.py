"""The web table over its websocket: each seat gets only what it may know; bad messages change nothing."""

import contextlib
import json
import logging
import random
import re
import threading
import urllib.request
from html import escape
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from web_helpers import copy_game, edit, paused, play_until, serve, take
from websockets.sync.client import connect

from engine.bots import make_agent
from engine.errors import StateError
from engine.lab.simulate import bot_inputs
from engine.runtime.saves import replay
from engine.web import app
from engine.web.app import create_app
from engine.web.table import Refusal, Table


def hidden_ids(state, seat: int) -> set[str]:
    """Card ids the true state holds where ``seat`` cannot see them, and that it sees nowhere else."""
    view = state.view(seat)
    visible = {c for cards in view["zones"].values() for c in cards if isinstance(c, str)}
    visible |= {c["die"] for cards in view["zones"].values() for c in cards if isinstance(c, dict) and "die" in c}
    visible |= words_in(view["seen"])  # cards it was shown
    visible |= words_in(view["log"])  # cards the seat was told of (Cat Town deals face up)
    game = state.game
    hidden = set()
    for zone, cards in state.zones.items():
        shown = view["zones"][zone]
        for i, c in enumerate(cards):
            if not isinstance(shown[i], str):
                hidden.add(game.card_ids[c])
    return hidden - visible - board_words(game)


def board_words(game) -> set[str]:
    """Names printed on the boards whatever the state (furniture, labels, rooms): not cards, even when spelt alike."""
    out = set()
    for boards in game.board_files.values():
        for board in boards:
            for node, d in board.graph.nodes(data=True):
                out.update(
                    str(node).split("/") if d.get("kind") == "point" else [d.get("label", ""), d.get("room", "")]
                )
    return out


def words_in(message) -> set[str]:
    """Every word of every value in a message (not dict keys), SVG attribute values and texts included."""
    out: set[str] = set()
    stack = [message]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += item.values()
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str):
            parts = re.findall(r'"([^"]*)"|>([^<]*)<', item) if item.startswith("<svg") else [(item, "")]
            for a, b in parts:
                out.update(re.split(r"[\s,.:;()]+", a + " " + b))
    return out


SHIPPED = sorted(p.parent.name for p in Path("rules").glob("*/game.yaml"))
DECISIONS = 600  # a bound on each game, far above what greedy bots need to finish any shipped game


def assert_tells_only_its_own(state, seat: int, message: dict) -> None:
    """A message to ``seat`` holds no card hidden from it, no other seat's options, private variables or
    secret choices."""
    assert message["seat"] == seat
    leaked = hidden_ids(state, seat) & words_in(message)
    assert not leaked, f"seat {seat} was sent hidden cards {leaked}"
    view = message["view"]
    if seat not in state.to_act:  # a simultaneous decision asks several seats at once
        assert not message["options"] and "actions" not in (view["decision"] or {}), f"seat {seat} got options"
        assert not any("data-action" in b["svg"] for b in message["boards"]), f"seat {seat} got clickable options"
    private = state.game.private_player_variables
    for p, variables in enumerate(view["player_variables"]):
        assert p == seat or not private & set(variables), f"seat {seat} was sent seat {p}'s {private & set(variables)}"
    text = json.dumps(message)
    # An id the seat may read anyway (its options, a choice made openly or by itself) is no clue in the text.
    known = {o["id"] for o in message["options"]} | seen_choices(state, seat)
    for e in state.history:
        if e.get("secret") and e["seat"] != seat and e["action"] not in known:
            assert e["action"] not in text, f"seat {seat} was sent seat {e['seat']}'s secret choice {e['action']!r}"


def seen_choices(state, seat: int | None) -> set[str]:
    """The ids of the choices ``seat`` saw made (None: an onlooker): the open ones and, for a seat, its own."""
    return {e["action"] for e in state.history if "action" in e and (not e.get("secret") or e["seat"] == seat)}


def assert_tells_only_the_public(state, message: dict) -> None:
    """An onlooker's message holds no card any seat cannot see, no private variable, no option, no secret choice."""
    assert message["spectator"] and not message["options"] and not any(message["may"].values())
    hidden = set().union(*(hidden_ids(state, seat) for seat in range(state.n)))
    leaked = hidden & words_in(message)
    assert not leaked, f"an onlooker was sent hidden cards {leaked}"
    private = state.game.private_player_variables
    assert not any(private & set(variables) for variables in message["view"]["player_variables"])
    text = json.dumps(message)
    secret = [e["action"] for e in state.history if e.get("secret")]
    assert not [a for a in secret if a in text and a not in seen_choices(state, None)], "an onlooker was sent a secret"


@pytest.mark.parametrize("game", SHIPPED)
def test_whole_games_over_the_websocket_tell_each_seat_only_its_own(game, monkeypatch):
    monkeypatch.setattr(app, "PUSH_EVERY", 0.002)  # the pages' polls, not the game, set the pace here
    table = Table(game, seed=3)
    agents = [make_agent("greedy", seed=seat) for seat in range(table.players)]
    with TestClient(create_app(table, watch=False)) as client, contextlib.ExitStack() as stack:
        # The sessions share the client's loop; the test reads the table on it, between two of its steps (the
        # sessions' polls may be inside a call of the table's state at any other time).
        def on_app(read):
            return client.portal.call(read, table.state)

        ws = [stack.enter_context(client.websocket_connect(f"/ws?key={k}")) for k in table.seat_keys.values()]
        onlooker = stack.enter_context(client.websocket_connect(f"/ws?key={table.spectator_key}"))
        messages = [w.receive_json() for w in ws]
        for decision in range(DECISIONS):
            public = onlooker.receive_json()

            def check_and_choose(state, messages=messages, public=public, decision=decision):
                for seat, message in enumerate(messages):
                    assert_tells_only_its_own(state, seat, message)
                assert_tells_only_the_public(state, public)
                if state.is_terminal:
                    return None, None
                seat = state.current_player
                return seat, agents[seat].act(*bot_inputs(state, seat, agents[seat], decision))

            seat, action = on_app(check_and_choose)
            if seat is None:
                break
            assert action in {o["id"] for o in messages[seat]["options"]}
            ws[seat].send_json(
                {"type": "act", "seat": seat, "action": action, "decision_number": messages[seat]["decision_number"]}
            )
            messages = [w.receive_json() for w in ws]
        actions = on_app(lambda state: state.actions)
        for index in (len(actions) // 3, 2 * len(actions) // 3):  # the history slider shows the past as it was seen
            past = table.game.new_game(players=table.players, seed=table.seed)
            for a in actions[:index]:
                past.apply(a)
            for seat, w in enumerate(ws):
                w.send_json({"type": "seek", "index": index})
                assert_tells_only_its_own(past, seat, w.receive_json())
        assert on_app(lambda state: state.is_terminal), f"{game} did not end in {DECISIONS} decisions"
    assert all(m["view"]["outcome"]["reason"] for m in messages)


@pytest.mark.parametrize("game", SHIPPED)
def test_only_the_hosts_link_may_save_and_its_save_replays_the_game(game):
    """A save holds the seed and every move, from which every hidden card is rebuilt: a seat's link is refused
    it (and so is opening one), and its page is told to show neither; the host's link gets the whole game."""
    table = Table(game, seed=3)
    rnd = random.Random(3)
    for _ in range(8):  # some moves, so that the hands and the history hold something
        take(table, rnd.choice(table.state.legal_actions()))
    client = TestClient(create_app(table, watch=False))
    for seat, key in table.seat_keys.items():
        with client.websocket_connect(f"/ws?key={key}") as ws:
            assert ws.receive_json()["host"] is False
            ws.send_json({"type": "save"})
            reply = ws.receive_json()
            assert reply.keys() == {"type", "message"} and reply["type"] == "error", reply
            assert "only the table's link may save" in reply["message"]
            assert not hidden_ids(table.state, seat) & words_in(reply)
            ws.send_json({"type": "load", "text": table.save_text(table.host_key)})
            assert "only the table's link may open a save" in ws.receive_json()["message"]
    with client.websocket_connect(f"/ws?key={table.host_key}") as ws:
        assert ws.receive_json()["host"] is True
        ws.send_json({"type": "save"})
        save = json.loads(ws.receive_json()["text"])
    assert (save["seed"], save["actions"]) == (3, table.state.actions)
    assert replay(table.game, save).to_json() == table.state.to_json()


def test_a_seat_whose_copy_cannot_be_dealt_still_gets_its_messages(monkeypatch):
    """Rules that reveal their hidden cards by whom they ask admit no determinized copy (a StateError):
    the seat still gets its messages, without the extras computed on a copy."""
    table = Table("cat-town", players=2, seed=1)
    play_until(table, "block", random.Random(1))
    decider = table.state.current_player

    def cannot(self, seat, seed=0):
        raise StateError("no deal of the cards hidden from seat agrees with what it knows")

    monkeypatch.setattr(type(table.state), "determinized", cannot)
    for seat in (decider, 1 - decider):
        message = table.message_for(seat)
        assert message["scores"] == [None, None]  # unknown without a copy, not guessed from the truth
        assert 'class="pile lit' not in message["boards"][0]["svg"]
    assert {o["id"] for o in table.message_for(decider)["options"]} == set(table.state.legal_actions())


def test_bad_and_hostile_messages_get_an_error_and_change_nothing():
    table = Table("cat-town", players=2, seed=1)
    client = TestClient(create_app(table, watch=False))
    with client.websocket_connect(f"/ws?key={table.seat_keys[1]}") as ws:
        asked = ws.receive_json()["decision_number"]
        before = table.state.to_json()
        first = table.state.legal_actions()[0]
        for bad in [
            "not json",
            "[]",
            '{"type": 3}',
            '{"type": "nuke"}',
            '{"type": "act"}',
            json.dumps({"type": "act", "seat": 0, "action": first, "decision_number": asked}),  # another seat
            json.dumps({"type": "act", "seat": 1, "action": "walk cw draw", "decision_number": asked}),  # not its turn
            json.dumps({"type": "act", "seat": 1, "action": "walk cw draw"}),  # which decision?
            json.dumps({"type": "act", "seat": 1, "action": "walk cw draw", "decision_number": True}),
            json.dumps({"type": "undo"}),
            json.dumps({"type": "seek", "index": -1}),
            json.dumps({"type": "load", "text": json.dumps({"format": 1, "actions": ["x"] * 3})}),
            json.dumps({"type": "load", "data": {"format": 1}}),
            "[" * 100_000,
        ]:
            ws.send_text(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and "Traceback" not in reply["message"], bad
        assert table.state.to_json() == before
    with client.websocket_connect("/ws?key=guessed") as ws:
        assert ws.receive_json()["type"] == "error"


def test_two_pages_of_one_seat_sending_a_move_at_once_apply_only_one():
    """Against a bot that bids at once, seat 1 is asked again as soon as it bid: without the decision number
    the second page's bid would be taken as the next round's."""
    table = Table("goofspiel", players=2, seed=1, bots={0: "random"})
    client = TestClient(create_app(table, watch=False))
    key = table.seat_keys[1]
    with client.websocket_connect(f"/ws?key={key}") as a, client.websocket_connect(f"/ws?key={key}") as b:
        asked = a.receive_json()["decision_number"]
        assert b.receive_json()["decision_number"] == asked
        for page, bid in ((a, "bid 7-hearts"), (b, "bid 8-hearts")):
            page.send_json({"type": "act", "seat": 1, "action": bid, "decision_number": asked})
        refusals = []
        for page in (a, b):
            page.send_json({"type": "seek", "index": 0})  # answered after the move: the move has been handled
            while (reply := page.receive_json())["type"] != "past":
                refusals += [reply["message"]] if reply["type"] == "error" else []
    assert len([e for e in table.state.history if e.get("seat") == 1]) == 1
    assert table.state.to_act == [1] and table.decision_number > asked  # seat 1 is asked the next round
    assert len(refusals) == 1 and f"answers decision {asked}, which is no longer asked" in refusals[0]


def test_a_binary_frame_is_refused_and_the_server_logs_no_error(caplog):
    """On the live server: the page gets an error message and stays connected."""
    table = Table("caty-mini", players=2, seed=1)
    url, stop = serve(table)
    try:
        with caplog.at_level(logging.WARNING), connect(f"{url.replace('http', 'ws')}ws?key={table.host_key}") as ws:
            assert json.loads(ws.recv())["type"] == "state"
            ws.send(b'{"type": "now"}')
            reply = json.loads(ws.recv())
            assert reply["type"] == "error" and "binary" in reply["message"]
            ws.send(json.dumps({"type": "now"}))
            assert json.loads(ws.recv())["type"] == "state"
    finally:
        stop()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_undo_redo_take_back_the_human_move_and_the_bots_reply():
    table = Table("caty-mini", players=2, seed=2, bots={1: "random"})
    host = table.host_key
    take(table, table.state.legal_actions()[0])
    after = table.state.to_json()
    moves = len(table.state.actions)
    table.undo(host)
    assert len(table.state.actions) < moves
    table.redo_one(host)
    assert table.state.to_json() == after
    with pytest.raises(Refusal):
        table.redo_one(host)


def test_a_seat_s_link_cannot_undo_by_itself_it_asks_the_others():
    table = Table("caty-mini", players=2, seed=2)
    take(table, table.state.legal_actions()[0], key=table.seat_keys[0])
    with pytest.raises(Refusal, match="only the host's link may undo"):
        table.undo(table.seat_keys[0])
    assert table.can_ask_undo(table.seat_keys[0]) and len(table.state.actions) == 1


def test_options_say_what_they_do():
    mansion = Table("cats-mansion", players=2, seed=1)
    seat = mansion.state.current_player
    options = mansion.message_for(seat)["options"]
    assert all("destination" in o for o in options if o["id"].startswith("step "))
    assert not options[0]["irreversible"]
    town = Table("cat-town", players=2, seed=1)
    options = town.message_for(town.state.current_player)["options"]
    assert any(c["text"] for o in options for c in o["cards"])


def test_a_block_is_chosen_by_its_pile_on_the_ring():
    table = Table("cat-town", players=2, seed=1)
    play_until(table, "block", random.Random(1))
    message = table.message_for(table.state.current_player)
    ring = next(b for b in message["boards"] if 'class="pile' in b["svg"])
    piles = set(re.findall(r'data-target="(zone:[^"]+)"', ring["svg"]))
    about = {o["id"]: o["targets"] for o in message["options"]}
    assert set(about) == set(table.state.legal_actions())
    assert all(len(targets) == 1 and targets[0] in piles for targets in about.values())
    assert not table.message_for(1 - table.state.current_player)["options"]  # the other seat is offered nothing


def test_caty_mini_notch_options_preview_the_run(tmp_path):
    table = Table("caty-mini", players=2, seed=1)
    while table.state.pending["kind"] != "lay":
        take(table, table.state.legal_actions()[0])
    take(table, table.state.legal_actions()[0])
    message = table.message_for(table.state.current_player)
    runs = [o["run"] for o in message["options"]]
    assert len(runs) == 2 and all(len(r["points"]) == 3 and r["cost"] > 0 for r in runs)
    assert all(r["summary"].startswith(f"{r['cost']} string, ") for r in runs)  # the words of the game's hint
    board = next(b for b in message["boards"] if b.get("seat") == table.state.current_player)
    assert board["svg"].count('class="preview"') == 2 and 'class="trail"' in board["svg"]
    assert all(escape(r["summary"]) in board["svg"] for r in runs)


def reloaded(table: Table, ws) -> dict:
    """Let the table see the edited files and return the message its change pushes to the page."""
    assert table.reload_if_changed()
    return ws.receive_json()


def test_editing_the_rules_keeps_a_game_whose_moves_still_replay(tmp_path):
    game_file = copy_game(tmp_path, "caty-mini")
    table = Table(str(game_file), players=2, seed=1)
    old_rules = table.game.rules_hash
    with TestClient(create_app(table, watch=False)).websocket_connect(f"/ws?key={table.host_key}") as ws:
        start = ws.receive_json()
        first = start["options"][0]["id"]
        ws.send_json({"type": "act", "seat": 0, "action": first, "decision_number": start["decision_number"]})
        assert ws.receive_json()["actions_taken"] == 1
        edit(game_file, "rounds: 12", "rounds: 11")
        message = reloaded(table, ws)
        assert message["notice"] == "the rules changed; the game goes on"
        assert message["actions_taken"] == 1 and table.state.actions == [first]
        assert table.game.rules_hash != old_rules  # the edited rules are the ones played


def test_editing_the_rules_restarts_a_game_whose_moves_no_longer_replay(tmp_path):
    game_file = copy_game(tmp_path, "caty-mini")
    table = Table(str(game_file), players=2, seed=1)
    with TestClient(create_app(table, watch=False)).websocket_connect(f"/ws?key={table.host_key}") as ws:
        start = ws.receive_json()
        first = start["options"][0]["id"]
        ws.send_json({"type": "act", "seat": 0, "action": first, "decision_number": start["decision_number"]})
        ws.receive_json()
        edit(game_file, "extra = 3 if num_players == 2", "extra = 0 if num_players == 2")  # no tile picks now
        message = reloaded(table, ws)
        assert message["notice"].startswith("the rules changed and the game could not go on")
        assert message["notice"].endswith(": new game") and repr(first) in message["notice"]
        assert message["actions_taken"] == 0 and first not in {o["id"] for o in message["options"]}
        again = message["options"][0]["id"]
        ws.send_json({"type": "act", "seat": 0, "action": again, "decision_number": message["decision_number"]})
        assert ws.receive_json()["notice"] == ""  # the notice goes with the next move


def test_rules_that_cannot_start_a_game_keep_the_old_one_and_say_where(tmp_path):
    game_file = copy_game(tmp_path, "caty-mini")
    table = Table(str(game_file), players=2, seed=1)
    with TestClient(create_app(table, watch=False)).websocket_connect(f"/ws?key={table.host_key}") as ws:
        ws.receive_json()
        before = table.state.to_json()
        edit(game_file, "move(top(tiles), table)", "move(top(box), table)")  # the setup fails when run
        message = reloaded(table, ws)
        assert len(message["problems"]) == 1 and re.search(r"game\.yaml:\d+:\d+: .*empty", message["problems"][0])
        assert table.state.to_json() == before
        first = table.state.legal_actions()[0]
        ws.send_json({"type": "act", "seat": 0, "action": first, "decision_number": message["decision_number"]})
        assert "the rules have errors" in ws.receive_json()["message"]  # no play until the rules are fixed


def test_a_broken_rule_file_shows_where(tmp_path):
    game_file = copy_game(tmp_path, "caty-mini")
    table = Table(str(game_file), players=2, seed=1)
    edit(game_file, "size(token_pile(toy))", "sise(token_pile(toy))")
    assert table.reload_if_changed()
    assert table.problems and "game.yaml:" in table.problems[0] and "sise" in table.problems[0]
    assert table.message_for(0)["problems"] == table.problems
    assert not table.reload_if_changed()  # nothing changed since


def test_save_step_back_through_history_and_open_the_save():
    table = Table("caty-mini", players=2, seed=2, bots={1: "random"})
    client = TestClient(create_app(table, watch=False))
    with client.websocket_connect(f"/ws?key={table.host_key}") as ws:
        message = ws.receive_json()
        for _ in range(3):
            action = message["options"][0]["id"]
            ws.send_json({"type": "act", "seat": 0, "action": action, "decision_number": message["decision_number"]})
            message = ws.receive_json()
        total = len(table.state.actions)
        ws.send_json({"type": "save"})
        save = ws.receive_json()
        assert save["type"] == "save" and json.loads(save["text"])["actions"] == table.state.actions
        ws.send_json({"type": "seek", "index": 1})
        past = ws.receive_json()
        assert past["type"] == "past" and past["index"] == 1 and past["total"] == total and not past["options"]
        assert len(table.state.actions) == total  # looking back changes nothing
        ws.send_json({"type": "new"})
        assert ws.receive_json()["actions_taken"] == 0
        ws.send_json({"type": "load", "text": save["text"]})
        assert ws.receive_json()["actions_taken"] == total


def test_a_save_that_does_not_replay_changes_nothing():
    """The game, its bots and the decision asked stay as they were: the page's next move is taken, and the bot
    answers it as it would have."""
    table, twin = (Table("caty-mini", players=2, seed=2, bots={1: "random"}) for _ in range(2))
    save = json.dumps(json.loads(table.save_text(table.host_key)) | {"seed": 5, "actions": ["no such move"]})
    with TestClient(create_app(table, watch=False)).websocket_connect(f"/ws?key={table.host_key}") as ws:
        for _ in range(3):
            message = ws.receive_json()
            ws.send_json({"type": "load", "text": save})
            assert "does not replay" in ws.receive_json()["message"]
            action = message["options"][0]["id"]
            ws.send_json({"type": "act", "seat": 0, "action": action, "decision_number": message["decision_number"]})
            take(twin, action)
    assert table.state.to_json() == twin.state.to_json()


def test_the_core_does_not_import_the_web_framework():
    import subprocess
    import sys

    code = (
        "import sys; from engine import load_game; from engine import cli; from engine.ui import options, terminal; "
        "load_game('caty-mini').new_game(players=2); print('starlette' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_either_seat_of_a_simultaneous_decision_may_choose_first_and_the_other_is_not_told_what():
    """Goofspiel's bids: seat 1 bids before seat 0; seat 0 is sent the same whatever seat 1 bid."""
    seen = []
    for bid in ("bid 2-hearts", "bid king-hearts"):
        table = Table("goofspiel", players=2, seed=1)
        client = TestClient(create_app(table, watch=False))
        with (
            client.websocket_connect(f"/ws?key={table.seat_keys[0]}") as a,
            client.websocket_connect(f"/ws?key={table.seat_keys[1]}") as b,
        ):
            first = [a.receive_json(), b.receive_json()]
            assert [o["id"] for o in first[1]["options"]] == table.state.legal_actions(1)
            assert first[0]["view"]["to_act"] == [0, 1]
            b.send_json({"type": "act", "seat": 1, "action": bid, "decision_number": first[1]["decision_number"]})
            to_0, to_1 = a.receive_json(), b.receive_json()
            assert to_1["options"] == [] and to_1["view"]["decision"]["chosen"] == bid
            seen.append((to_0["view"], to_0["options"]))
            asked = first[0]["decision_number"]  # seat 1's bid left seat 0 answering the same decision
            a.send_json({"type": "act", "seat": 0, "action": "bid 5-spades", "decision_number": asked})
            a.receive_json(), b.receive_json()
            assert f"the bids: 5-spades, {bid.split()[1]}" in table.state.log
    assert seen[0] == seen[1]


def test_a_bot_makes_its_simultaneous_choice_before_the_human_does():
    table = Table("goofspiel", players=2, seed=1, bots={0: "random"})
    assert table.state.to_act == [1]
    take(table, "bid 7-hearts", seat=1)
    assert table.state.to_act == [1] and len(table.state.actions) == 3  # the bot has bid for round 2 too


def test_a_paused_server_answers_nothing_until_the_test_lets_it_go():
    """The browser tests read a served table's state between two of the server's steps (``paused``): its thread may
    be inside a call of the state at any other time."""
    table = Table("caty-mini", players=2, seed=1)
    url, stop = serve(table)
    answered: list[int] = []

    def fetch() -> None:
        with urllib.request.urlopen(f"{url}?key={table.host_key}") as reply:
            answered.append(reply.status)

    try:
        with paused(table):
            thread = threading.Thread(target=fetch, daemon=True)
            thread.start()
            thread.join(0.5)
            assert answered == []
        thread.join(60)
        assert answered == [200]
    finally:
        stop()
