"""The web table in a real headless Chromium (system package, driven by Playwright); screenshots in /tmp/screens."""

import contextlib
import json
import random
import shutil
from pathlib import Path

import pytest
from tool_helpers import load_tool

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("no system Chromium (tools/install_browser.py installs it)", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402 - only once Chromium is known to be there
from web_helpers import copy_game, edit, failing_table, paused, play_until, serve, take  # noqa: E402

from engine.bots import make_agent  # noqa: E402
from engine.lab.simulate import bot_inputs  # noqa: E402
from engine.web.lobby import Lobby  # noqa: E402
from engine.web.table import Table  # noqa: E402

SCREENS = Path("/tmp/screens")
SHOTS = Path("/work/scratch/shots")  # each game at its start and its end, as a player sees it
WAIT = 90_000  # ms: a wait only ends early on a failure; a shared machine loaded 3-4 times over took 53 s for a game
expect.set_options(WAIT)  # what a page shows is awaited as long as its actions (a reload of edited rules, a bot)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield b
        b.close()


@contextlib.contextmanager
def opened(page, table: Table, key: str | None = None, watch: bool = False):
    """The table served and open in ``page`` by ``key``'s link (the host's by default); the server stops after."""
    url, stop = serve(table, watch)
    try:
        page.goto(f"{url}?key={key or table.host_key}")
        yield
    finally:
        stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    p = context.new_page()
    p.set_default_timeout(WAIT)
    yield p
    context.close()


def shot(page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def test_caty_mini_whole_game_by_clicks_against_a_bot(page):
    table = Table("caty-mini", players=2, seed=4, bots={1: "random"})
    with opened(page, table, table.seat_keys[0]):
        for _ in range(60):
            if page.locator("#outcome:not([hidden])").count():
                break
            first = page.locator("#options button.option").first
            first.wait_for()
            with paused(table):
                pending, before = table.state.pending, len(table.state.actions)
            if pending and pending["kind"] == "notch" and before:
                first.hover()  # the candidate run shows on the board
                expect(page.locator("svg .preview.show")).to_have_count(1)
                shot(page, "caty-mini-preview")
            first.click()
            page.wait_for_function(
                f"() => !document.querySelector('#step') || "
                f"document.querySelector('#step').textContent !== '{before} moves'"
            )
        expect(page.locator("#outcome")).to_contain_text("Game over")
        with paused(table):
            assert table.state.is_terminal
        shot(page, "caty-mini")


def test_cat_town_hot_seat_turn_hides_the_hand_between_seats(page):
    table = Table("cat-town", players=2, seed=1)
    with opened(page, table):
        expect(page.locator("figure[data-board] svg .pile")).to_have_count(4)
        expect(page.locator("#options button.option .text").first).not_to_be_empty()  # card text in the menu
        shot(page, "cat-town")
        page.locator("#options button.option", has_text="walk cw draw").click()
        expect(page.locator("#curtain")).to_be_visible()
        expect(page.locator("#curtain")).to_contain_text("seat 1")
        expect(page.locator("#table")).to_be_hidden()
        page.locator("#reveal").click()
        expect(page.locator("#status")).to_contain_text("you are seat 1")
        with paused(table):
            assert table.state.actions == ["walk cw draw"]


def test_cat_town_block_chosen_by_clicking_its_pile_on_the_ring(page):
    table = Table("cat-town", players=2, seed=1)
    play_until(table, "block", random.Random(1))
    offered = set(table.state.legal_actions())
    before = len(table.state.actions)
    with opened(page, table):
        piles = page.locator("svg .pile.choice")
        expect(piles).to_have_count(len(offered))
        zone = piles.last.get_attribute("data-zone")
        piles.last.click()
        expect(page.locator("#step")).to_have_text(f"{before + 1} moves")
        with paused(table):
            assert table.state.actions[before] == f"block {zone.partition(':')[2]}"


def test_cats_mansion_step_by_clicking_a_destination_then_undo(page):
    table = Table("cats-mansion", players=2, seed=1, bots={1: "random"})
    with opened(page, table):
        expect(page.locator("svg .room").first).to_be_visible()
        shot(page, "cats-mansion")
        first = page.locator("svg .dest").first
        action, piece = first.get_attribute("data-action"), first.get_attribute("data-piece")
        page.locator(f'svg .piece[data-piece="{piece}"]').click()  # select the piece: only its destinations show
        page.locator(f'svg .dest[data-action="{action}"]').click()
        expect(page.locator("#step")).to_have_text("1 moves")
        with paused(table):
            assert table.state.actions == [action]
        page.locator("#undo").click()
        expect(page.locator("#step")).to_have_text("0 moves")
        with paused(table):
            assert table.state.actions == []


# Draws each text on a canvas with the page's fonts: does it differ from the box of a code point no font
# has (U+10FFFD), and how many of its pixels are coloured (a colour emoji glyph, not a box or a blank)?
GLYPH_CHECK = """(texts) => texts.map((text) => {
  const draw = (t) => {
    const c = document.createElement("canvas"); c.width = 64; c.height = 48;
    const g = c.getContext("2d"); g.font = "32px sans-serif"; g.textBaseline = "top"; g.fillText(t, 4, 4);
    return g.getImageData(0, 0, c.width, c.height).data;
  };
  const a = draw(text), box = draw("\\u{10FFFD}");
  let differs = false, coloured = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== box[i] || a[i + 3] !== box[i + 3]) differs = true;
    if (a[i + 3] > 128 && Math.max(a[i], a[i + 1], a[i + 2]) - Math.min(a[i], a[i + 1], a[i + 2]) > 40) coloured++;
  }
  return {text, differs, coloured};
})"""


@pytest.mark.parametrize("game", ["caty-mini", "cat-town", "cats-mansion"])
def test_icons_render_as_colour_glyphs_not_boxes(page, game):
    if not load_tool("install_browser").has_emoji_font():
        pytest.skip("no colour emoji font (tools/install_browser.py installs fonts-noto-color-emoji)")
    table = Table(game, players=2, seed=1)
    with opened(page, table):
        page.locator("#options button.option").first.wait_for()
        icons = page.locator(".icon[data-fallback]")
        expect(icons.first).to_be_attached()
        texts = sorted({t for t in icons.all_text_contents() if t.strip()})
        declared = {v for v in _icon_hints(table.game.draw) if v in "".join(texts)}
        assert declared, f"no declared icon is shown on the {game} page (fallback text instead?): {texts}"
        results = page.evaluate(GLYPH_CHECK, sorted(declared))
        assert all(r["differs"] for r in results), f"icons drawn as boxes or blanks: {results}"
        assert any(r["coloured"] > 20 for r in results), f"no icon drawn in colour (no emoji font?): {results}"
        shot(page, f"{game}-icons")
        page.locator("#boards").screenshot(path=str(SCREENS / f"{game}-board.png"))


def _icon_hints(draw: dict) -> set[str]:
    """Every icon the game's drawing hints declare (card faces, bonus icons, board labels)."""
    card = draw.get("card") or {}
    return set((draw.get("icons") or {}).values()) | set((card.get("icons") or {}).values())


def test_an_icon_no_font_can_draw_shows_its_text_instead(page):
    table = Table("caty-mini", players=2, seed=1)
    with opened(page, table):
        page.locator("#options button.option").first.wait_for()
        shown = page.evaluate(
            """() => {
              const e = document.createElement("span");
              e.className = "icon"; e.dataset.fallback = "label"; e.textContent = "\\u{10FFFD}";
              const ok = document.createElement("span");
              ok.className = "icon"; ok.dataset.fallback = "unused"; ok.textContent = "A";
              document.body.append(e, ok); iconFallback(document.body);
              return [e.textContent, ok.textContent];
            }"""
        )
        assert shown == ["label", "A"]


def test_a_broken_rule_file_shows_its_place_in_the_page(page, tmp_path):
    game_file = copy_game(tmp_path, "caty-mini")
    table = Table(str(game_file), players=2, seed=1)
    with opened(page, table, watch=True):
        page.locator("#options button.option").first.wait_for()
        edit(game_file, "size(token_pile(toy))", "sise(token_pile(toy))")
        expect(page.locator("#problems")).to_be_visible()
        expect(page.locator("#problems")).to_contain_text("game.yaml:")
        expect(page.locator("#problems")).to_contain_text("sise")
        shot(page, "rule-error")


def test_edited_rules_go_on_with_the_game_or_restart_it_with_a_notice(page, tmp_path):
    game_file = copy_game(tmp_path, "caty-mini")
    table = Table(str(game_file), players=2, seed=1)
    with opened(page, table, watch=True):
        page.locator("#options button.option").first.click()
        expect(page.locator("#step")).to_have_text("1 moves")
        edit(game_file, "rounds: 12", "rounds: 11")
        expect(page.locator("#notice")).to_have_text("the rules changed; the game goes on")
        expect(page.locator("#step")).to_have_text("1 moves")
        edit(game_file, "extra = 3 if num_players == 2", "extra = 0 if num_players == 2")
        expect(page.locator("#notice")).to_contain_text("could not go on")
        expect(page.locator("#notice")).to_contain_text("new game")
        expect(page.locator("#step")).to_have_text("0 moves")
        shot(page, "rules-changed-new-game")


def test_save_and_open_save_are_on_the_hosts_page_only(page):
    table = Table("cat-town", players=2, seed=1)
    url, stop = serve(table)
    try:
        page.goto(f"{url}?key={table.seat_keys[1]}")
        expect(page.locator("#status")).to_contain_text("you are seat 1")
        expect(page.locator("#save")).to_be_hidden()
        expect(page.locator("#opener")).to_be_hidden()
        page.goto(f"{url}?key={table.host_key}")
        expect(page.locator("#opener")).to_be_visible()
        with page.expect_download() as download:
            page.locator("#save").click()
        with paused(table):
            assert json.loads(Path(download.value.path()).read_text())["actions"] == table.state.actions
    finally:
        stop()


def test_a_64_bit_seed_goes_through_the_page_to_the_file_and_back_unrounded(page, tmp_path):
    """The page writes the save as the server wrote it and sends an opened file as its text: a seed above 2**53,
    which a JavaScript number would round, comes back whole."""
    seed = 2**64 - 59
    table = Table("cat-town", players=2, seed=seed)
    take(table, table.state.legal_actions()[0])
    url, stop = serve(table)
    try:
        page.goto(f"{url}?key={table.host_key}")
        expect(page.locator("#step")).to_have_text("1 moves")
        with page.expect_download() as download:
            page.locator("#save").click()
        saved = tmp_path / "save.json"
        download.value.save_as(saved)
        assert f'"seed": {seed},' in saved.read_text()
        page.locator("#new").click()
        expect(page.locator("#step")).to_have_text("0 moves")
        assert table.seed != seed
        page.locator("#open").set_input_files(str(saved))
        expect(page.locator("#step")).to_have_text("1 moves")
        assert table.seed == seed
    finally:
        stop()


def shows_the_stop(page) -> None:
    """The page shows where the rules failed and that play is paused, and no result."""
    problems = page.locator("#problems")
    for text in ("The game stopped on a rule error", "game.yaml:11:", "E701 division by zero"):
        expect(problems).to_contain_text(text)
    expect(page.locator("#status")).to_contain_text("paused on a rule error")
    expect(page.locator("#outcome")).to_be_hidden()


def test_a_rule_error_in_play_is_shown_on_every_page_and_after_a_reload(page, tmp_path):
    table = failing_table(tmp_path)
    seat_page = page.context.new_page()
    url, stop = serve(table)
    try:
        page.goto(f"{url}?key={table.host_key}")
        seat_page.goto(f"{url}?key={table.seat_keys[1]}")
        expect(seat_page.locator("#status")).to_contain_text("you are seat 1")
        page.locator("#options button.option", has_text="go fail").click()
        for shown in (page, seat_page):
            shows_the_stop(shown)
        seat_page.reload()
        shows_the_stop(seat_page)
        expect(page.locator("#options button.option")).to_have_count(0)
        shot(page, "rule-error-in-play")
    finally:
        stop()


# On a phone: which page boxes stick out to the right, which texts are smaller than 12 px, which touch
# targets are lower than 40 px, which spaces of a board one may tap now are narrower or lower than 40 px (text
# inside a board scales with the board and is left out).
PHONE_CHECK = """() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : "");
  const texts = [...document.querySelectorAll("body *")].filter((e) => !e.closest("svg") && shown(e)
    && [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()));
  const targets = [...document.querySelectorAll("button, .button, input[type=range]")].filter(shown);
  const spaces = [...document.querySelectorAll("svg .space.choice")].filter(shown);
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
    texts: texts.length, targets: targets.length,
    small: texts.filter((e) => parseFloat(getComputedStyle(e).fontSize) < 12)
      .map((e) => name(e) + " " + getComputedStyle(e).fontSize),
    low: targets.filter((e) => e.getBoundingClientRect().height < 40)
      .map((e) => name(e) + " " + e.getBoundingClientRect().height),
    spaces: spaces.length,
    narrow: spaces.filter((e) => Math.min(e.getBoundingClientRect().width, e.getBoundingClientRect().height) < 39.5)
      .map((e) => e.dataset.space + " " + Math.round(e.getBoundingClientRect().width)),
  };
}"""


@pytest.mark.parametrize("game", ["caty-mini", "cats-mansion", "hex"])
def test_a_seat_page_on_a_phone_reads_and_taps_without_sideways_scrolling(browser, game):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    table = Table(game, players=2, seed=1)
    try:
        with opened(page, table, table.seat_keys[0]):
            expect(page.locator("#decision")).to_contain_text("Your decision")
            expect(page.locator("#options")).to_be_hidden()  # the list of moves folds away: the table is the controller
            found = page.evaluate(PHONE_CHECK)
            shot(page, f"phone-{game}")
            assert found["texts"] and found["targets"], found
            assert found["innerWidth"] == 390, f"the page is laid out wider than the phone: {found}"
            assert found["scrollWidth"] <= found["innerWidth"], f"the page scrolls sideways: {found}"
            assert not found["small"], f"text smaller than 12 px: {found['small']}"
            assert not found["low"], f"touch targets lower than 40 px: {found['low']}"
            assert not found["narrow"], f"board spaces narrower than a finger: {found['narrow']}"
            assert found["spaces"] or game == "caty-mini", "no space of the board is offered"
    finally:
        context.close()


def click_to_take(page, table: Table, seat: int, action: str) -> str:
    """Choose ``action`` by clicking on the table, never on the list of moves: the thing it is about (a space
    a piece moves to, a card, a pile…) (then its line in the offer beside it, when several moves are about that
    thing), else the prompt's button (declining, ending a turn).  Returns what was clicked."""
    with paused(table):
        option = next(o for o in table.message_for(seat)["options"] if o["id"] == action)
    play = page.locator("#play")
    if option["targets"]:
        thing = play.locator(f'[data-target="{option["targets"][0]}"].choice').last  # the topmost
        title = thing.locator(":scope > h2, :scope > h3")  # a hand or a seat by its title, not a card in it
        (title if title.count() else thing).click()
        offer = page.locator(f'#chooser button[data-action="{action}"]')
        if page.locator("#chooser:not([hidden])").count():
            offer.click()
            if option["irreversible"]:
                offer.click()  # the second click confirms
        return option["targets"][0].partition(":")[0]
    button = page.locator(f'#prompt-options button[data-action="{action}"]')
    button.click()
    if option["irreversible"]:
        button.click()
    return "prompt"


def settle(page, table: Table, seat: int, done: int = -1) -> None:
    """Wait until the game has more than ``done`` actions, the bots have answered (it is ``seat``'s turn or the
    end) and the page shows it (the server runs in another thread of this process)."""
    for _ in range(WAIT // 50):
        shown = page.locator("#step").text_content()
        with paused(table):
            moves, asked = len(table.state.actions), table.state.is_terminal or seat in table.state.to_act
        if moves > done and asked and shown == f"{moves} moves":
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the page still shows {page.locator('#step').text_content()}")


def play_by_clicks(page, table: Table, seat: int, name: str) -> set[str]:
    """Play ``seat``'s moves as a greedy player would choose them, by clicking the table; the kinds of thing
    clicked.  Screenshots of the start and the end go to SHOTS."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    agent = make_agent("greedy", seed=1)
    clicked = set()
    for turn in range(80):
        settle(page, table, seat)
        with paused(table):
            over = table.state.is_terminal
        if over:
            break
        expect(page.locator("#decision")).to_contain_text("Your decision")
        if turn == 0:
            page.screenshot(path=str(SHOTS / f"{name}-start.png"), full_page=True)
        with paused(table):
            before = len(table.state.actions)
            action = agent.act(*bot_inputs(table.state, seat, agent, len(table.state.history)))
        clicked.add(click_to_take(page, table, seat, action))
        settle(page, table, seat, before)
        with paused(table):
            taken = table.state.actions[before:]
        assert taken[0] == action, f"clicking for {action} took {taken}"
    expect(page.locator("#outcome")).to_contain_text("Game over")
    page.screenshot(path=str(SHOTS / f"{name}-end.png"), full_page=True)
    with paused(table):
        assert table.state.is_terminal
    return clicked


WHOLE_GAMES = {  # game → what a player clicks in it
    "caty-mini": {"zone", "card", "point"},
    "cat-town": {"zone", "card"},
    "cats-mansion": {"space", "card"},
    "hex": {"space"},
}


@pytest.mark.parametrize("width", [1500, 390])
@pytest.mark.parametrize("game", sorted(WHOLE_GAMES))
def test_a_whole_game_is_played_by_clicking_the_table_only(browser, game, width):
    phone = width < 700
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    table = Table(game, players=2, seed=2, bots={1: "greedy"})
    try:
        with opened(page, table, table.seat_keys[0]):
            clicked = play_by_clicks(page, table, 0, f"{game}-{'phone' if phone else 'desktop'}")
        assert WHOLE_GAMES[game] <= clicked, clicked
    finally:
        context.close()


def test_after_a_restart_the_table_is_back_and_its_page_reconnects_by_itself(page, tmp_path):
    lobby = Lobby(tmp_path)
    table = lobby.create({"game": "hex", "players": 2, "bots": {"1": "greedy"}})
    url, stop = serve(lobby)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    page.goto(f"{url}?key={table.seat_keys[0]}")
    page.locator('svg [data-target="space:d4"].choice').click()
    expect(page.locator("#step")).to_have_text("2 moves")
    stop()
    expect(page.locator("#error")).to_contain_text("trying again")
    again = Lobby(tmp_path)
    again.restore()  # a new server process: the table from its files, under the same keys
    url, stop = serve(again, port=port)
    try:
        expect(page.locator("#error")).to_be_hidden()
        expect(page.locator("#step")).to_have_text("2 moves")
        free = page.locator('svg [data-target^="space:"].choice').first  # the table's seed is its own: any free cell
        space = free.get_attribute("data-target").removeprefix("space:")
        free.click()
        expect(page.locator("#step")).to_have_text("4 moves")
        (back,) = again.tables.values()
        with paused(again):
            assert back.state.actions[:3] == table.state.actions[:2] + [f"place {space}"]
    finally:
        stop()


def test_the_lobby_page_creates_a_table_and_shows_its_links(page):
    lobby = Lobby()
    url, stop = serve(lobby)
    try:
        page.goto(url)
        page.locator("#game").select_option("cat-town")
        page.locator("#variant").select_option("easy")
        page.locator("#players").select_option("3")
        page.locator("#make").click()
        expect(page.locator(".table-links a")).to_have_count(3)  # the host, seat 0 (seats 1, 2: bots), onlookers
        (table,) = lobby.tables.values()
        assert (table.game.id, table.game.variant, table.players, sorted(table.bots)) == ("cat-town", "easy", 3, [1, 2])
        page.goto(page.locator(".table-links a").nth(1).get_attribute("href"))
        expect(page.locator("#status")).to_contain_text("you are seat 0")
        shot(page, "lobby-table")
    finally:
        stop()


def test_a_seat_asks_to_undo_and_the_other_seat_accepts_on_its_page(browser):
    table = Table("caty-mini", players=2, seed=2)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    asker, other = context.new_page(), context.new_page()
    url, stop = serve(table)
    try:
        asker.goto(f"{url}?key={table.seat_keys[0]}")
        other.goto(f"{url}?key={table.seat_keys[1]}")
        for shown in (asker, other):
            expect(shown.locator("#undo")).to_be_hidden()  # only the host's link undoes by itself
            expect(shown.locator("#ask-undo")).to_be_hidden()  # no move of its own yet
        asker.locator("#piles .zone.choice > h3").first.click()
        expect(asker.locator("#step")).to_have_text("1 moves")
        asker.locator("#ask-undo").click()
        expect(other.locator("#accept-undo")).to_contain_text("undo seat 0's move")
        expect(asker.locator("#accept-undo")).to_be_hidden()
        other.locator("#accept-undo").click()
        expect(asker.locator("#step")).to_have_text("0 moves")
        with paused(table):
            assert table.state.actions == []
    finally:
        stop()
        context.close()
