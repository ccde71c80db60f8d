"""The playtest report as a person sees it: opened from disk in headless Chromium, no server."""

from pathlib import Path

from test_language import make_game
from test_playtest import COIN

from engine.playtest import Arm, Plan, load_arm, measure, run
from engine.report import render_html

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def write_report(tmp_path) -> Path:
    path = make_game(tmp_path, COIN).rules.folder / "game.yaml"
    plan = Plan(
        str(path),
        [Arm(), Arm(None, (("constants.ticks", 2),))],
        2,
        20,
        0,
        ["random", "random"],
        skill_bot="greedy",
        skill_games=4,
    )
    games = [load_arm(plan.game, arm) for arm in plan.arms]
    records, info = run(plan, games)
    out = tmp_path / "report.html"
    out.write_text(render_html(measure(plan, games, records, info)), encoding="utf-8")
    return out


def test_the_report_opens_from_disk_with_plots_and_the_win_rate_table(tmp_path):
    from playwright.sync_api import sync_playwright

    report = write_report(tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(report.as_uri())
        assert page.title() == "Playtest: Mini, 2 players"
        assert page.locator("h1").inner_text() == "Playtest: Mini, 2 players"
        plot = page.locator("figure svg").first
        assert plot.is_visible() and plot.bounding_box()["width"] > 200
        table = page.locator("table.win-rate")
        assert table.is_visible()
        assert table.locator("th").all_inner_texts()[:5] == ["arm", "seat", "bot", "wins", "win rate"]
        assert "ticks=2" in table.inner_text() and "95% interval" in table.inner_text()
        assert page.get_by_text("Definitions").is_visible()
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        browser.close()
    assert (tmp_path / "report.png").stat().st_size > 10_000
    assert requests == [report.as_uri()]  # nothing fetched but the page itself
