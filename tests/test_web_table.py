"""The web table as players use it: what each move is about on the table, what matters now, undo as the table
decides, onlookers, the past as it was drawn, and the lobby with its tables kept in a folder."""

import json
import random
import re

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from web_helpers import play_until, take

from engine.cli import main
from engine.runtime.saves import read_save, replay
from engine.web.app import create_app
from engine.web.lobby import Lobby
from engine.web.table import Refusal, Table

BOARD_GAMES = ["caty-mini", "cat-town", "cats-mansion", "hex"]


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_every_move_that_names_a_thing_can_be_chosen_by_clicking_it(game):
    """Every option but declining or ending a turn is about something the page draws with that target: a card
    where the seat sees it, a pile, a space, a notch, a player."""
    table = Table(game, players=2, seed=5)
    rnd = random.Random(5)
    checked = 0
    while not table.state.is_terminal and checked < 150:
        seat = table.state.current_player
        message = table.message_for(seat)
        drawn = set(re.findall(r'data-target="([^"]+)"', " ".join(b["svg"] for b in message["boards"])))
        drawn |= {f"zone:{z}" for z in message["view"]["zones"]} | {f"seat:{p}" for p in range(table.players)}
        drawn |= {f"card:{c}" for cards in message["view"]["zones"].values() for c in cards if isinstance(c, str)}
        drawn |= {f"card:{c}" for c in message["table"]["shown"]}
        values = dict(zip(table.state.pending["ids"], table.state.pending["values"]))
        for option in message["options"]:
            if values[option["id"]] is None or option["id"] == "done":
                continue  # declining, or ending a turn: a button of the prompt
            assert option["targets"], f"{option['id']} is about nothing on the table"
            assert set(option["targets"]) <= drawn, f"{option['id']}: {option['targets']} are not drawn"
            checked += 1
        take(table, rnd.choice(table.state.legal_actions()))
    assert checked > 10


def test_moves_read_with_the_names_of_their_cards():
    table = Table("cat-town", players=2, seed=1)
    labels = {o["id"]: o["label"] for o in table.message_for(table.state.current_player)["options"]}
    named = {i: label for i, label in labels.items() if i.startswith("play ")}
    assert named and all(label != i and label.startswith("play ") for i, label in named.items())
    assert labels["walk cw draw"] == "walk cw draw"


def test_a_walk_is_about_the_block_it_crosses_and_a_search_about_the_hand():
    table = Table("cat-town", players=2, seed=1)
    seat = table.state.current_player
    ring = table.state.view(seat)["variables"]["ring"]
    pos = table.state.view(seat)["player_variables"][seat]["pos"]
    about = {o["id"]: o["targets"] for o in table.message_for(seat)["options"]}
    assert about["walk cw draw"] == about["walk cw search"] == [f"zone:{pos}"]
    assert about["walk ccw draw"] == [f"zone:{ring[ring.index(pos) - 1]}"]
    assert about["search hand"] == [f"zone:hand:{seat}"]


def test_what_matters_now_comes_from_the_game_s_hints():
    whist = Table("whist", players=4, seed=1).message_for(0)
    assert whist["table"]["status"] == [{"label": "Trump", "value": whist["view"]["variables"]["trump"]}]
    mansion = Table("cats-mansion", players=2, seed=1)
    seat = mansion.state.current_player
    assert mansion.message_for(seat)["table"]["status"] == [{"label": "Steps left this turn", "value": "4"}]
    take(mansion, next(a for a in mansion.state.legal_actions() if a.startswith("step ")))
    assert mansion.message_for(seat)["table"]["status"][0]["value"] == "3"
    town = Table("cat-town", players=4, seed=1).message_for(0)["table"]
    assert town["teams"] == [[0, 2], [1, 3], [0, 2], [1, 3]]


def test_the_named_suit_shows_once_an_eight_names_it():
    table = Table("crazy-eights", players=2, seed=1)
    play_until(table, "name", random.Random(1))
    assert table.message_for(0)["table"]["status"] == []
    take(table, table.state.legal_actions()[0])
    named = table.state.view(0)["variables"]["named"]
    assert named and table.message_for(0)["table"]["status"] == [{"label": "Suit named", "value": named}]


# ---------------------------------------------------------------- undo as the table decides
def two_seats() -> Table:
    table = Table("caty-mini", players=2, seed=2)
    take(table, table.state.legal_actions()[0], key=table.seat_keys[0])
    return table


def test_a_seat_asks_to_undo_its_move_and_the_other_accepts():
    table = two_seats()
    asker, other = table.seat_keys[0], table.seat_keys[1]
    assert table.can_ask_undo(asker) and not table.can_ask_undo(other)  # the other has no move of its own yet
    table.ask_undo(asker)
    assert table.to_answer(other) == [1] and not table.to_answer(asker)
    with pytest.raises(Refusal):
        table.ask_undo(asker)  # one wish at a time
    table.answer_undo(other, True)
    assert table.state.actions == [] and table.undo_request is None


def test_one_refusal_keeps_the_move_and_a_move_voids_the_wish():
    table = two_seats()
    table.ask_undo(table.seat_keys[0])
    table.answer_undo(table.seat_keys[1], False)
    assert len(table.state.actions) == 1 and table.undo_request is None
    table.ask_undo(table.seat_keys[0])
    take(table, table.state.legal_actions()[0], key=table.seat_keys[table.state.current_player])
    assert table.undo_request is None and len(table.state.actions) == 2


def test_a_seat_alone_with_bots_is_granted_its_undo_at_once():
    table = Table("caty-mini", players=2, seed=2, bots={1: "random"})
    take(table, table.state.legal_actions()[0], key=table.seat_keys[0])
    table.ask_undo(table.seat_keys[0])
    assert table.state.actions == []


def test_each_page_is_told_which_undo_buttons_it_may_show():
    table = two_seats()
    client = TestClient(create_app(table, watch=False))
    may = {}
    for name, key in (("host", table.host_key), ("0", table.seat_keys[0]), ("1", table.seat_keys[1])):
        with client.websocket_connect(f"/ws?key={key}") as ws:
            may[name] = ws.receive_json()["may"]
    assert may["host"] == {"undo": True, "ask_undo": False, "answer_undo": False}
    assert may["0"] == {"undo": False, "ask_undo": True, "answer_undo": False}
    assert may["1"] == {"undo": False, "ask_undo": False, "answer_undo": False}


# ---------------------------------------------------------------- onlookers and the past
def test_an_onlooker_cannot_act_ask_or_save():
    table = Table("cat-town", players=2, seed=1)
    key = table.spectator_key
    assert table.seats_of(key) == []
    for attempt in (
        lambda: table.act(key, 0, table.state.legal_actions()[0], table.decision_number),
        lambda: table.undo(key),
        lambda: table.ask_undo(key),
        lambda: table.save_text(key),
    ):
        with pytest.raises(Refusal):
            attempt()
    assert table.message_for(None)["options"] == []


def test_the_history_slider_draws_the_runs_as_they_were_then():
    table = Table("caty-mini", players=2, seed=1)
    while len(table.trails.get(0, [])) < 3:
        take(table, table.state.legal_actions()[0])
    now = len(table.state.actions)
    trail = table.trails[0][:]
    client = TestClient(create_app(table, watch=False))
    with client.websocket_connect(f"/ws?key={table.host_key}") as ws:
        ws.receive_json()
        drawn = []
        for index in range(now + 1):
            ws.send_json({"type": "seek", "index": index})
            svg = next(b["svg"] for b in ws.receive_json()["boards"] if b.get("seat") == 0)
            drawn.append(
                len(re.findall(r'class="trail" data-seat="0" points="([^"]*)"', svg)[0].split())
                if 'class="trail" data-seat="0"' in svg
                else 0
            )
    assert drawn[0] == 0 and drawn[-1] == len(trail)
    assert drawn == sorted(drawn) and len(set(drawn)) > 2  # the string grows as the game went on


# ---------------------------------------------------------------- the lobby and its folder
def test_the_lobby_lists_every_game_and_creates_tables_with_their_links(tmp_path):
    lobby = Lobby(tmp_path)
    client = TestClient(create_app(lobby, watch=False))
    assert "lobby.js" in client.get("/").text
    games = {g["id"]: g for g in client.get("/games").json()}
    assert set(BOARD_GAMES) <= set(games) and {"easy", "advanced"} <= {v["id"] for v in games["cat-town"]["variants"]}
    answer = client.post(
        "/tables",
        content=json.dumps(
            {"game": "cat-town", "variant": "easy", "players": 3, "bots": {"1": "random", "2": "greedy"}}
        ),
    )
    links = answer.json()
    assert answer.status_code == 200 and set(links["seats"]) == {"0"}
    table = next(iter(lobby.tables.values()))
    assert (table.game.id, table.game.variant, table.players, table.bots) == (
        "cat-town",
        "easy",
        3,
        {1: "random", 2: "greedy"},
    )
    key = links["seats"]["0"].partition("?key=")[2]
    with client.websocket_connect(f"/ws?key={key}") as ws:
        assert ws.receive_json()["seat"] == 0
    with client.websocket_connect(f"/ws?key={links['spectator'].partition('?key=')[2]}") as ws:
        assert ws.receive_json()["spectator"] is True


@pytest.mark.parametrize(
    "asked, says",
    [
        ({"game": "chess", "players": 2}, "no game named"),
        ({"game": "hex", "players": 5}, "2–2 players"),
        ({"game": "hex", "players": 2, "bots": {"7": "random"}}, "no seat 7"),
        ({"game": "hex", "players": 2, "bots": {"1": "wizard"}}, "wizard"),
        ([1, 2], "JSON object"),
    ],
)
def test_the_lobby_refuses_a_bad_table_in_one_line(asked, says):
    lobby = Lobby()
    answer = TestClient(create_app(lobby, watch=False)).post("/tables", content=json.dumps(asked))
    assert answer.status_code == 400 and says in answer.json()["error"] and not lobby.tables


def test_a_server_of_one_game_has_no_lobby():
    client = TestClient(create_app(Table("hex", players=2, seed=1), watch=False))
    assert "app.js" in client.get("/").text
    assert client.post("/tables", content=json.dumps({"game": "hex", "players": 2})).status_code == 400


def test_a_kept_table_is_a_save_replay_reads_and_comes_back_with_its_links(tmp_path, capsys):
    lobby = Lobby(tmp_path)
    table = lobby.create({"game": "caty-mini", "players": 2, "bots": {"1": "greedy"}})
    for _ in range(3):
        take(table, table.state.legal_actions()[0], key=table.seat_keys[0])
    (save,) = [p for p in tmp_path.glob("*.json") if not p.name.endswith(".table.json")]
    assert read_save(save)["actions"] == table.state.actions  # written after every move
    assert oct(save.stat().st_mode & 0o777) == "0o600"  # a save rebuilds every hidden card
    assert main(["replay", str(save)]) == 0 and "replayed" in capsys.readouterr().out
    again = Lobby(tmp_path)
    again.restore()
    (back,) = again.tables.values()
    assert back.state.to_json() == table.state.to_json() and back.keys() == table.keys()
    assert replay(back.game, read_save(save)).to_json() == table.state.to_json()


def test_a_table_file_that_cannot_be_read_is_named_and_the_others_come_back(tmp_path):
    lobby = Lobby(tmp_path)
    lobby.create({"game": "hex", "players": 2})
    (tmp_path / "broken.table.json").write_text("{not json")
    again = Lobby(tmp_path)
    again.restore()
    assert len(again.tables) == 1 and len(again.problems) == 1 and "broken.table.json" in again.problems[0]


def test_serve_refuses_a_tables_folder_that_is_not_one(tmp_path, capsys):
    assert main(["serve", "--tables", str(tmp_path / "nowhere")]) == 2
    assert "is not a folder" in capsys.readouterr().err
