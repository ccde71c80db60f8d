"""The web table over its websocket: each seat gets only what it may know; bad messages change nothing."""

import json
import random
import re
import shutil

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from engine.web.app import create_app
from engine.web.table import Refusal, Table


def hidden_ids(state, seat: int) -> set[str]:
    """Card ids the true state holds where ``seat`` cannot see them, and that it sees nowhere else."""
    view = state.view(seat)
    visible = {c for cards in view["zones"].values() for c in cards if isinstance(c, str)}
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


@pytest.mark.parametrize("game,players,limit", [("caty-mini", 2, 400), ("cat-town", 2, 40), ("cats-mansion", 2, 40)])
def test_whole_games_over_the_websocket_send_no_hidden_card(game, players, limit):
    table = Table(game, players=players, seed=3)
    client = TestClient(create_app(table, watch=False))
    rng = random.Random(5)
    socks = [client.websocket_connect(f"/ws?key={table.seat_keys[s]}") for s in range(players)]
    with socks[0] as a, socks[1] as b:
        ws = [a, b]
        messages = [w.receive_text() for w in ws]
        for step in range(limit):
            for seat, text in enumerate(messages):
                secret = hidden_ids(table.state, seat)
                leaked = secret & words_in(json.loads(text))
                assert not leaked, f"seat {seat} was sent hidden cards {leaked} at step {step}"
                assert json.loads(text)["seat"] == seat
            if table.state.is_terminal:
                break
            seat = table.state.current_player
            options = json.loads(messages[seat])["options"]
            ws[seat].send_json({"type": "act", "seat": seat, "action": rng.choice(options)["id"]})
            messages = [w.receive_text() for w in ws]
    if game == "caty-mini":
        assert table.state.is_terminal
        assert json.loads(messages[0])["view"]["outcome"]["reason"]


def test_bad_and_hostile_messages_get_an_error_and_change_nothing():
    table = Table("cat-town", players=2, seed=1)
    client = TestClient(create_app(table, watch=False))
    with client.websocket_connect(f"/ws?key={table.seat_keys[1]}") as ws:
        ws.receive_json()
        before = table.state.to_json()
        for bad in [
            "not json",
            "[]",
            '{"type": 3}',
            '{"type": "nuke"}',
            '{"type": "act"}',
            json.dumps({"type": "act", "seat": 0, "action": table.state.legal_actions()[0]}),  # another seat
            json.dumps({"type": "act", "seat": 1, "action": "walk cw draw"}),  # not its turn
            json.dumps({"type": "undo"}),
            json.dumps({"type": "seek", "index": -1}),
            json.dumps({"type": "load", "data": {"format": 1, "actions": ["x"] * 3}}),
            "[" * 100_000,
        ]:
            ws.send_text(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and "Traceback" not in reply["message"], bad
        assert table.state.to_json() == before
    with client.websocket_connect("/ws?key=guessed") as ws:
        assert ws.receive_json()["type"] == "error"


def test_undo_redo_take_back_the_human_move_and_the_bots_reply():
    table = Table("caty-mini", players=2, seed=2, bots={1: "random"})
    host = table.host_key
    table.act(host, 0, table.state.legal_actions()[0])
    after = table.state.to_json()
    moves = len(table.state.actions)
    table.undo(host)
    assert len(table.state.actions) < moves
    table.redo_one(host)
    assert table.state.to_json() == after
    with pytest.raises(Refusal):
        table.redo_one(host)


def test_undo_is_refused_to_one_seat_of_several():
    table = Table("caty-mini", players=2, seed=2)
    table.act(table.seat_keys[0], 0, table.state.legal_actions()[0])
    with pytest.raises(Refusal, match="solo and hot-seat"):
        table.undo(table.seat_keys[0])


def test_options_say_what_they_do():
    mansion = Table("cats-mansion", players=2, seed=1)
    seat = mansion.state.current_player
    options = mansion.message_for(seat)["options"]
    assert all("destination" in o for o in options if o["id"].startswith("step "))
    assert not options[0]["irreversible"]
    town = Table("cat-town", players=2, seed=1)
    options = town.message_for(town.state.current_player)["options"]
    assert any(c["text"] for o in options for c in o["cards"])


def test_caty_mini_notch_options_preview_the_run(tmp_path):
    table = Table("caty-mini", players=2, seed=1)
    host = table.host_key
    while table.state.pending["kind"] != "lay":
        table.act(host, table.state.current_player, table.state.legal_actions()[0])
    table.act(host, table.state.current_player, table.state.legal_actions()[0])
    message = table.message_for(table.state.current_player)
    runs = [o["run"] for o in message["options"]]
    assert len(runs) == 2 and all(len(r["points"]) == 3 and r["cost"] > 0 for r in runs)
    board = next(b for b in message["boards"] if b.get("seat") == table.state.current_player)
    assert board["svg"].count('class="preview"') == 2 and 'class="trail"' in board["svg"]


def test_editing_the_rules_reloads_and_a_broken_file_shows_where(tmp_path):
    shutil.copytree("rules/caty-mini", tmp_path / "caty-mini")
    shutil.copytree("boards/caty-mini", tmp_path / "caty-mini" / "boards")
    for f in (tmp_path / "caty-mini" / "boards").iterdir():
        shutil.move(f, tmp_path / "caty-mini" / f.name)
    game_file = tmp_path / "caty-mini" / "game.yaml"
    table = Table(str(game_file), players=2, seed=1)
    table.act(table.host_key, 0, table.state.legal_actions()[0])
    text = game_file.read_text()
    game_file.write_text(text.replace("rounds: 12", "rounds: 11"))
    _touch_later(game_file)
    assert table.reload_if_changed()
    assert table.notice.startswith("the rules changed; the game goes on") and len(table.state.actions) == 1
    game_file.write_text(text.replace("size(token_pile(toy))", "sise(token_pile(toy))"))
    _touch_later(game_file)
    assert table.reload_if_changed()
    assert table.problems and "game.yaml:" in table.problems[0] and "sise" in table.problems[0]
    assert table.message_for(0)["problems"] == table.problems


def _touch_later(path):
    """Move the file's modification time on, so the change is seen whatever the clock's resolution."""
    import os

    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000_000))


def test_save_step_back_through_history_and_open_the_save():
    table = Table("caty-mini", players=2, seed=2, bots={1: "random"})
    client = TestClient(create_app(table, watch=False))
    with client.websocket_connect(f"/ws?key={table.host_key}") as ws:
        ws.receive_json()
        for _ in range(3):
            ws.send_json({"type": "act", "seat": 0, "action": table.state.legal_actions()[0]})
            ws.receive_json()
        total = len(table.state.actions)
        ws.send_json({"type": "save"})
        save = ws.receive_json()
        assert save["type"] == "save" and save["data"]["actions"] == table.state.actions
        ws.send_json({"type": "seek", "index": 1})
        past = ws.receive_json()
        assert past["type"] == "past" and past["index"] == 1 and past["total"] == total and not past["options"]
        assert len(table.state.actions) == total  # looking back changes nothing
        ws.send_json({"type": "new"})
        assert ws.receive_json()["actions_taken"] == 0
        ws.send_json({"type": "load", "data": save["data"]})
        assert ws.receive_json()["actions_taken"] == total


def test_the_core_does_not_import_the_web_framework():
    import subprocess
    import sys

    code = (
        "import sys; from engine import load_game; from engine import cli, choices, render; "
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
            b.send_json({"type": "act", "seat": 1, "action": bid})
            to_0, to_1 = a.receive_json(), b.receive_json()
            assert to_1["options"] == [] and to_1["view"]["decision"]["chosen"] == bid
            seen.append((to_0["view"], to_0["options"]))
            a.send_json({"type": "act", "seat": 0, "action": "bid 5-spades"})
            a.receive_json(), b.receive_json()
            assert f"the bids: 5-spades, {bid.split()[1]}" in table.state.log
    assert seen[0] == seen[1]


def test_a_bot_makes_its_simultaneous_choice_before_the_human_does():
    table = Table("goofspiel", players=2, seed=1, bots={0: "random"})
    assert table.state.to_act == [1]
    table.act(table.host_key, 1, "bid 7-hearts")
    assert table.state.to_act == [1] and len(table.state.actions) == 3  # the bot has bid for round 2 too
