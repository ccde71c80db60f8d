"""The playtest report as a person sees it: opened from disk in headless Chromium, no server."""

from pathlib import Path

from test_lab_cards import SHOWN
from test_language import make_game
from test_playtest import COIN, CROWN

from engine.lab.games import Arm, load_arm
from engine.lab.playtest import Plan, measure, run
from engine.lab.report import render_html

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


TWO_ARMS = (Arm(), Arm(None, (("constants.ticks", 2),)))


def write_report(tmp_path, body: str = COIN, arms=TWO_ARMS, games=20) -> Path:
    path = make_game(tmp_path, body).rules.folder / "game.yaml"
    plan = Plan(str(path), list(arms), 2, games, 0, ["random", "random"], skill_bot="greedy", skill_games=4)
    compiled = [load_arm(plan.game, arm) for arm in plan.arms]
    records, info = run(plan, compiled)
    out = tmp_path / "report.html"
    out.write_text(render_html(measure(plan, compiled, records, info)), encoding="utf-8")
    return out


def open_report(p, report: Path):
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(report.as_uri())
    return browser, page


def test_the_report_opens_from_disk_with_plots_and_the_win_rate_table(tmp_path):
    from playwright.sync_api import sync_playwright

    report = write_report(tmp_path)
    with sync_playwright() as p:
        browser, page = open_report(p, report)
        requests = [page.url]
        page.on("request", lambda r: requests.append(r.url))
        page.reload()
        assert page.title() == "Playtest: Mini, 2 players"
        assert page.locator("h1").inner_text() == "Playtest: Mini, 2 players"
        plot = page.locator("figure svg").first
        assert plot.is_visible() and plot.bounding_box()["width"] > 200
        table = page.locator("table.win-rate")
        assert table.is_visible()
        assert table.locator("th").all_inner_texts()[:5] == ["arm", "seat", "bot", "wins", "win rate"]
        assert "ticks=2" in table.inner_text() and "95% interval" in table.inner_text()
        paired = page.locator("table.paired")
        assert paired.is_visible() and page.locator("#paired").is_visible()
        assert paired.locator("th").all_inner_texts() == [
            "arm",
            "figure",
            "difference",
            "95% interval",
            "correlation",
            "games",
        ]
        decisions = paired.locator("tr", has_text="decisions").locator("td").all_inner_texts()
        assert decisions[:4] == ["ticks=2", "decisions", "+2", "+2 … +2"]  # one more go for each seat
        assert page.get_by_text("Definitions").is_visible()
        warnings = page.locator(".warnings li").all_inner_texts()
        assert [w.split(":")[0] for w in warnings] == ["base", "ticks=2"]  # 20 games tell little apart
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        browser.close()
    assert (tmp_path / "report.png").stat().st_size > 10_000
    assert set(requests) == {report.as_uri()}  # nothing fetched but the page itself


def test_the_report_shows_the_card_that_decides_games_and_links_its_definition(tmp_path):
    """The crown wins by construction: the report lists it first among the deciding cards, and the
    link beside the section scrolls to the metric's definition with its formula."""
    from playwright.sync_api import sync_playwright

    report = write_report(tmp_path, CROWN, arms=[Arm()], games=120)
    with sync_playwright() as p:
        browser, page = open_report(p, report)
        section = page.locator("#deciding")
        assert section.is_visible()
        table = page.locator("table.deciding-card")
        assert table.locator("th").all_inner_texts() == ["card", "use", "seat-games used", "impact", "95% interval"]
        card, use, used, impact, _ = table.locator("tr").nth(1).locator("td").all_inner_texts()
        assert (card, use, impact) == ("crown", "play", "+100%")
        assert 30 < int(used) < 90  # dealt to one seat, played half the time
        section.locator("xpath=following-sibling::p[1]").get_by_role("link", name="definition").click()
        definition = page.locator("#def-impact")
        assert definition.is_visible() and page.evaluate("window.location.hash") == "#def-impact"
        assert "over whole games" in page.locator("#def-impact + dd").inner_text()
        page.screenshot(path=str(tmp_path / "deciding.png"), full_page=True)
        browser.close()
    assert (tmp_path / "deciding.png").stat().st_size > 10_000


def test_each_line_of_a_sweep_is_drawn_in_its_band_of_intervals(tmp_path):
    arms = [Arm(None, (("constants.ticks", t),)) for t in (1, 2, 3)]
    text = write_report(tmp_path, arms=arms, games=10).read_text(encoding="utf-8")
    sweep = text.split("<h2>Sweep</h2>")[1].split("</figure>")[0]
    lines = ("seat 0 win rate", "draw rate", "completion", "the coin showed 1", "decisions per game")
    assert sweep.count("fill-opacity: 0.15") == len(lines)


def test_every_card_is_in_a_table_sorted_by_a_click_on_its_heading(tmp_path):
    """All four cards are listed with their impact and its interval; a click on "impact" puts the
    crown (which wins every game it is played in) first, a second click last."""
    from playwright.sync_api import sync_playwright

    report = write_report(tmp_path, CROWN, arms=[Arm()], games=120)
    with sync_playwright() as p:
        browser, page = open_report(p, report)
        table = page.locator("table.uses-card")

        def cards():
            return [row.locator("td").first.inner_text() for row in table.locator("tr").all()[1:]]

        assert sorted(cards()) == ["crown", "pebble", "shell", "twig"]
        assert "95% interval" in table.locator("th").all_inner_texts()
        table.locator("th", has_text="impact").click()
        assert cards()[0] == "crown"
        table.locator("th", has_text="impact").click()
        assert cards()[-1] == "crown"
        page.screenshot(path=str(tmp_path / "cards.png"), full_page=True)
        browser.close()
    assert (tmp_path / "cards.png").stat().st_size > 10_000


def test_eight_arms_keep_their_legends_beside_the_plots_and_the_page_its_width(tmp_path):
    from playwright.sync_api import sync_playwright

    arms = [Arm(None, (("constants.ticks", t),)) for t in range(1, 9)]
    report = write_report(tmp_path, arms=arms, games=4)
    with sync_playwright() as p:
        browser, page = open_report(p, report)
        plot = page.locator("figure svg").first  # win rate per seat: 8 arms × 2 seats of bars
        axes = plot.locator("g[id^='axes'] > g[id^='patch']").first.bounding_box()
        legend = plot.locator("g[id^='legend']").bounding_box()
        assert legend["x"] >= axes["x"] + axes["width"]  # beside the bars, not over them
        assert page.evaluate("document.documentElement.scrollWidth") <= 1200  # wide tables scroll in their box
        page.screenshot(path=str(tmp_path / "eight.png"), full_page=True)
        browser.close()
    assert (tmp_path / "eight.png").stat().st_size > 10_000


def test_the_card_section_shows_uses_the_noise_floor_reveals_and_a_card_left_out(tmp_path):
    """Each seat throws a card away and shows the other, which scores it: the throws are the cards'
    uses, the shows are listed apart, the four plain cards set the noise floor, and the arm without
    the crown is compared game by game with the base."""
    from playwright.sync_api import sync_playwright

    report = write_report(tmp_path, SHOWN, arms=[Arm(), Arm(None, (), ("crown",))], games=120)
    with sync_playwright() as p:
        browser, page = open_report(p, report)
        uses = page.locator("table.uses-card-use").first
        assert uses.is_visible()
        assert uses.locator("th").all_inner_texts()[:3] == ["card", "use", "chosen"]
        assert {row.locator("td").nth(1).inner_text() for row in uses.locator("tr").all()[1:]} == {"throw"}
        floor = page.locator("p.noise-floor").first
        assert floor.is_visible() and floor.inner_text().startswith("Noise floor: ±")
        groups = page.locator("table.noise-floor").first.locator("td").all_inner_texts()
        assert "moss, pebble, shell, twig" in groups
        reveals = page.locator("table.scoring-reveals").first
        assert reveals.is_visible()
        shown = {row.locator("td").first.inner_text(): row for row in reveals.locator("tr").all()[1:]}
        assert shown["crown"].locator("td").nth(1).inner_text() == "show"
        paired = page.locator("table.paired tr", has_text="without crown")
        assert paired.count() > 0 and paired.first.is_visible()
        page.screenshot(path=str(tmp_path / "card-section.png"), full_page=True)
        browser.close()
    assert (tmp_path / "card-section.png").stat().st_size > 10_000
