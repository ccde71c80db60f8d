"""The web table when a rule fails during play: the game pauses before the failing move, every page says where."""

import contextlib
import json
import re

import pytest

pytest.importorskip("starlette")
from language_helpers import write_game
from starlette.testclient import TestClient
from web_helpers import failing_table, take

from engine.runtime.saves import replay
from engine.web.app import create_app
from engine.web.table import Table

WHERE = re.compile(r".*game\.yaml:11:\d+: E701 division by zero .*")


def act(ws, message: dict, action: str) -> None:
    """Send ``action`` for the seat ``message`` was for, answering the decision it asked."""
    asked = message["decision_number"]
    ws.send_json({"type": "act", "seat": message["seat"], "action": action, "decision_number": asked})


def assert_paused(message: dict, to_act: list[int]) -> None:
    """The game is shown as it was before the failing move, with no result, no options and the located error."""
    assert WHERE.fullmatch(message["stopped"]), message["stopped"]
    view = message["view"]
    assert not view["is_terminal"] and "outcome" not in view and view["to_act"] == to_act
    assert not message["options"]


def test_a_rule_error_pauses_the_game_every_page_and_a_reload_show_where_and_a_new_game_goes_on(tmp_path):
    table = failing_table(tmp_path)
    client = TestClient(create_app(table, watch=False))
    keys = [table.seat_keys[0], table.host_key, table.seat_keys[1]]
    with contextlib.ExitStack() as stack:
        actor, *others = pages = [stack.enter_context(client.websocket_connect(f"/ws?key={k}")) for k in keys]
        asked = [page.receive_json() for page in pages]
        act(actor, asked[0], "go fail")
        told = actor.receive_json()  # the pushed game, not an error for the one who moved
        assert told["type"] == "state", told
        for message in [told] + [page.receive_json() for page in others]:
            assert_paused(message, [0])
        act(actor, told, "go on")
        assert "stopped on a rule error" in actor.receive_json()["message"]
    with client.websocket_connect(f"/ws?key={table.host_key}") as host:  # the page loaded again
        assert_paused(host.receive_json(), [0])
        host.send_json({"type": "save"})
        save = json.loads(host.receive_json()["text"])
        assert save["actions"] == [] and replay(table.game, save).to_json() == table.state.to_json()
        host.send_json({"type": "new"})
        fresh = host.receive_json()
        assert fresh["stopped"] == "" and fresh["options"]
        act(host, fresh, "go on")
        assert host.receive_json()["view"]["to_act"] == [1]


def test_a_bots_move_that_fails_pauses_the_game_before_it(tmp_path):
    table = failing_table(tmp_path, bots={1: "random"})
    with TestClient(create_app(table, watch=False)).websocket_connect(f"/ws?key={table.host_key}") as ws:
        act(ws, ws.receive_json(), "go on")
        assert_paused(ws.receive_json(), [1])
    assert table.state.actions == ["go on"]


SCORING_FAILS = """\
    id: mini
    name: Mini
    players: {min: 2, max: 2}
    variables:
      n: {type: int}
    play: |
      x = choose "go" from ["on", "end"]
      n = 1 if x == "end" else 0
      THEN
    scoring:
      - id: broken
        text: fails once the first seat chose to end
        points: 1 // (1 - n)
    """


@pytest.mark.parametrize("then", ["pass", 'y = choose "more" from ["yes"]'], ids=["at-the-end", "in-play"])
def test_a_scoring_rule_that_fails_pauses_the_game_before_the_move_that_made_it_fail(tmp_path, then):
    """Whether the game ends there (a result) or goes on (the scores shown while playing)."""
    table = Table(str(write_game(tmp_path, SCORING_FAILS.replace("THEN", then))), seed=1)
    take(table, "go end")
    message = table.message_for(0)  # a page's message can still be made
    assert re.fullmatch(r".*game\.yaml:13:\d+: E701 'broken' failed for seat 0: division by zero", message["stopped"])
    assert not message["view"]["is_terminal"] and message["view"]["to_act"] == [0]
