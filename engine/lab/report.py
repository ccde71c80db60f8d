"""The playtest report: one self-contained HTML page (inline SVG plots, no external assets).

It draws the figures ``playtest.measure`` computed; arms side by side, and metric-vs-value
plots when one numeric setting is swept.  matplotlib is imported here only, with the Agg backend.
"""

from __future__ import annotations

import html
import io
import json

from engine.lab.cards import MIN_SUPPORT

CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.muted{color:#777}
figure{display:inline-block;margin:.4em}figcaption{font-size:.9em;color:#555}
dl dt{font-weight:bold;margin-top:.4em}.partial{color:#a00;font-weight:bold}
.warnings{background:#fff4d6;border:1px solid #e0b84c;padding:0 1em}
.wide{max-width:100%;overflow-x:auto}th{overflow-wrap:anywhere}figure svg{max-width:100%;height:auto}"""


# A click on a heading of a sortable table sorts its rows by that column (numbers by value, "—" last);
# a second click reverses the order.
SORT = """document.querySelectorAll('table.sortable th').forEach(th => th.addEventListener('click', () => {
  const i = th.cellIndex, rows = [...th.closest('table').querySelectorAll('tr')].slice(1);
  const down = th.dataset.down !== '1';
  th.dataset.down = down ? '1' : '0';
  const value = r => { const t = r.children[i].textContent, n = parseFloat(t.replace(/[%+,]/g, ''));
                       return isNaN(n) ? t : n; };
  const order = (a, b) => typeof a === 'number' && typeof b === 'number' ? a - b
    : typeof a === 'number' ? -1 : typeof b === 'number' ? 1 : a.localeCompare(b);
  rows.sort((a, b) => { const x = value(a), y = value(b), c = order(x, y);
                        return typeof x === typeof y ? (down ? -c : c) : c; });
  rows.forEach(r => r.parentNode.appendChild(r));
}));"""
CSS_SORT = "table.sortable th{cursor:pointer}"


def render_html(data: dict) -> str:
    """The whole report for ``data`` (the output of ``playtest.measure``)."""
    arms = data["arms"]
    title = f"Playtest: {data['name']}, {data['players']} players"
    run = data["run"]
    partial = (
        f"<p class='partial'>Partial: the run was interrupted after {run['games']} games; the figures are those "
        "of the games finished, the same seeds in every arm as far as each got.</p>"
        if data.get("partial")
        else ""
    )
    parts = [
        (
            f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
            f"<style>{CSS}{CSS_SORT}</style></head><body><h1>{_e(title)}{' (partial)' if partial else ''}</h1>{partial}"
        ),
        (
            f"<p class='muted'>{data['games']} games per arm on seeds "
            f"{data['seed']}…{data['seed'] + data['games'] - 1}"
            f" (the same seeds in every arm); bots: {_e(', '.join(data['bots']))}; cut-off after {data['limit']} "
            f"decisions. Ran on {_e(run['backend'])} ({run['workers']} workers, engine {_e(run['engine'])}, "
            f"host {_e(run['host'])}, {run['cpus']} CPUs{', ' + _e(run['address']) if run['address'] else ''}): "
            f"{run['games']} games in "
            f"{run['seconds']} s, {run['games_per_second']} games/s.</p>"
        ),
    ]
    if data.get("warnings"):
        parts.append(
            "<div class='warnings'><p>Read the figures with care:</p><ul>"
            + "".join(f"<li>{_e(w)}</li>" for w in data["warnings"])
            + "</ul></div>"
        )
    parts.append(
        "<h2>Outcomes</h2>"
        + _win_table(data)
        + _figure(_rate_plot(data, lambda a: a["outcomes"], 1 / data["players"]), "Win rate per seat, 95% intervals")
    )
    parts.append(_summary_table(arms))
    if data.get("paired"):
        parts.append(
            "<h2 id='paired'>Each arm against the first, game by game</h2><p>The same seeds in both arms: "
            "the difference of each figure (the arm's minus the first arm's) with a 95% interval from the "
            "paired games; an interval that holds 0 is no evidence of a difference. Correlation: how much luck "
            "the arms shared (<a href='#def-paired'>definition</a>).</p>" + _paired_table(data["paired"])
        )
    if data.get("sweep"):
        parts.append("<h2>Sweep</h2>" + _figure(_sweep_plot(data), f"Metrics against {data['sweep']['name']}"))
    cut = sum(a["outcomes"]["cut_off"] for a in arms)
    parts.append(
        "<h2>Duration</h2>"
        + _figure(
            _duration_plot(arms),
            f"Decisions, turns and rounds per finished game ({cut} games cut off at {data['limit']} decisions "
            "are left out)",
        )
    )
    parts.append(
        "<h2>Scores</h2>"
        + _figure(_score_plot(data), "Final points per seat")
        + _figure(_margin_plot(arms), "Margin of victory")
    )
    parts.append(
        "<h2>Choice</h2>"
        + _figure(_branching_plot(arms), "Branching factor over the game")
        + "".join(_choice_tables(a, i == 0) for i, a in enumerate(arms))
    )
    parts.append(
        "<h2 id='deciding'>Cards and actions that decide games</h2>"
        f"<p>Win rate of a seat in the games it used a card or action, minus its win rate in the games it did "
        f"not, with a 95% interval (<a href='#def-impact'>definition</a>). Measured where each side has at "
        f"least {MIN_SUPPORT} seat-games; listed where it excludes 0 even when the 5% risk of a false "
        f"listing is shared among all the uses of cards (or actions) measured, and where the impact is beyond "
        f"the noise floor of identical cards. Uses the rules declare as scoring reveals are not listed.</p>"
        + "".join(_deciding_tables(a) for a in arms)
    )
    if any(a["stats"] for a in arms):
        parts.append("<h2>The rules' own counters</h2>" + _stats_table(arms))
    if data.get("skill_bot"):
        parts.append(
            f"<h2>Skill</h2><p>{_e(data['skill_bot'])} in one seat, random bots in the others, "
            f"{data['skill_games']} games per seat.</p>"
            + _skill_table(arms)
            + _figure(
                _rate_plot(
                    data,
                    lambda a: {k: [s[k] for s in a["skill"]["seats"]] for k in ("win_rate", "win_rate_95")},
                    data["arms"][0]["skill"]["chance"],
                ),
                "Thinking bot's win rate per seat against random",
            )
            + _trace_table(arms)
        )
    parts.append(
        "<h2 id='definitions'>Definitions</h2><p class='muted'>The same list, with where each figure sits in "
        "the JSON: <code>tabletop doc --metrics</code>.</p>" + _definitions(data["definitions"])
    )
    parts.append(f"<script>{SORT}</script>")
    parts.append(
        "<script type='application/json' id='figures'>"
        + json.dumps(data).replace("</", "<\\/")
        + "</script></body></html>"
    )
    return "\n".join(parts)


# ------------------------------------------------------------------ tables
def _e(text) -> str:
    return html.escape(str(text))


def _pct(x) -> str:
    return "—" if x is None else f"{x:.0%}" if isinstance(x, float) and abs(x) <= 1 else str(x)


def _table(head: list[str], rows: list[list], cls: str = "") -> str:
    """A table in a box that scrolls sideways when it is wider than the page (many arms)."""
    return (
        f"<div class='wide'><table class='{cls}'><tr>"
        + "".join(f"<th>{_e(h)}</th>" for h in head)
        + "</tr>"
        + "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
        + "</table></div>"
    )


def _win_table(data: dict) -> str:
    rows = []
    for a in data["arms"]:
        o = a["outcomes"]
        for s in range(data["players"]):
            ci = o["win_rate_95"][s]
            rows.append(
                [
                    a["label"],
                    s,
                    data["bots"][s],
                    o["wins"][s],
                    _pct(o["win_rate"][s]),
                    "—" if ci is None else f"{ci[0]:.0%}–{ci[1]:.0%}",
                ]
            )
    return _table(["arm", "seat", "bot", "wins", "win rate", "95% interval"], rows, "win-rate")


def _summary_table(arms: list[dict]) -> str:
    def row(name, get):
        return [name] + [get(a) for a in arms]

    def d(a, k):
        return _mean(a["duration"][k])

    rows = [
        row("finished / played", lambda a: f"{a['outcomes']['finished']} / {a['outcomes']['played']}"),
        row("completion rate", lambda a: _pct(a["outcomes"]["completion_rate"])),
        row("cut off", lambda a: a["outcomes"]["cut_off"]),
        row("errors", lambda a: a["outcomes"]["errors"]),
        row("balance", lambda a: a["outcomes"]["balance"]),
        row(
            "first-seat advantage",
            lambda a: _with_interval(a["outcomes"]["first_seat_advantage"], a["outcomes"]["first_seat_advantage_95"]),
        ),
        row("draw rate", lambda a: _pct(a["outcomes"]["draw_rate"])),
        row("end reasons", lambda a: "; ".join(f"{k} ×{v}" for k, v in a["outcomes"]["end_reasons"].items())),
        row("decisions (mean of finished games)", lambda a: d(a, "decisions")),
        row("turns (mean of finished games)", lambda a: d(a, "turns")),
        row("rounds (mean of finished games)", lambda a: d(a, "rounds")),
        row("margin of victory (mean)", lambda a: _mean(a["scores"]["margin"])),
        row("lead changes (mean)", lambda a: _mean(a["scores"]["lead_changes"])),
        row("drama", lambda a: _dash(a["scores"]["drama"])),
        row("decisiveness", lambda a: _dash(a["scores"]["decisiveness"])),
        row("branching factor", lambda a: a["choice"]["branching"]),
    ]
    return _table(["metric"] + [a["label"] for a in arms], rows, "summary")


def _paired_table(paired: list[dict]) -> str:
    rows = [
        [
            p["arm"],
            r["figure"],
            _number(r["difference"], signed=True),
            "—" if r["difference_95"] is None else " … ".join(_number(x, signed=True) for x in r["difference_95"]),
            "—" if r["correlation"] is None else r["correlation"],
            r["games"],
        ]
        for p in paired
        for r in p["rows"]
    ]
    return _table(["arm", "figure", "difference", "95% interval", "correlation", "games"], rows, "paired")


def _number(x: float, signed: bool = False) -> str:
    """Three significant digits, as a table can show them."""
    return f"{x:+.3g}" if signed else f"{x:.3g}"


def _with_interval(x, ci) -> str:
    """A figure and its 95% interval, as "0.12 (0.05 … 0.19)"; "—" where it does not apply."""
    if x is None:
        return "—"
    return f"{_number(x)} ({_number(ci[0])} … {_number(ci[1])})" if ci else _number(x)


def _mean(summary: dict | None) -> str:
    return "—" if summary is None else _with_interval(summary["mean"], summary.get("mean_95"))


def _dash(x) -> object:
    return "—" if x is None else x


def _choice_tables(arm: dict, is_open: bool) -> str:
    """Per action and per card, folded away but for the first arm."""
    c = arm["choice"]
    actions = _use_table(c["actions"][:20], ["action"], ["chosen"])
    never = (
        f"<p>Offered but never chosen: {_e(', '.join(c['cards_never_chosen']) or 'none')}. "
        f"Never offered: {len(c['cards_never_offered'])} card ids.</p>"
    )
    cards = (
        f"<p>Every card named by actions ({len(c['cards'])}; click a heading to sort), all its uses together:</p>"
        + _use_table(c["cards"], ["card"], ["offered", "chosen"])
        + "<p>Every card by what was done with it (the option's verb):</p>"
        + _use_table(c["card_uses"], ["card", "use"], ["chosen"])
        + _noise_floor(c["noise_floor"])
        + never
        if c["cards"]
        else ""
    )
    reveals = (
        "<p>Scoring reveals, apart (the rules declare that showing these cards scores them, so their uses win "
        "games by the rules, whatever the card):</p>"
        + _use_table(c["scoring_reveals"], ["card", "use"], ["chosen"], "scoring-reveals")
        if c["scoring_reveals"]
        else ""
    )
    return (
        f"<details{' open' if is_open else ''}><summary>{_e(arm['label'])}: actions and cards</summary>"
        f"<p>Most chosen actions (of {len(c['actions'])}):</p>{actions}{cards}{reveals}</details>"
    )


def _noise_floor(floor: dict) -> str:
    """The spread of identical cards' impacts: how far luck alone sets cards apart."""
    if floor["floor"] is None:
        return "<p class='noise-floor'>Noise floor: — (no two cards are identical but for their names).</p>"
    rows = [
        [", ".join(g["cards"]), g["use"], f"{_signed(g['low'])} … {_signed(g['high'])}", f"±{g['spread']:.0%}"]
        for g in floor["groups"]
    ]
    return (
        f"<p class='noise-floor'>Noise floor: ±{floor['floor']:.0%} at most. Cards identical but for their names "
        "differ only by luck; the table shows how far their impacts lie from their group's mean in each use, "
        "and no card's use is listed as deciding by less than that use's spread (by less than the largest, "
        "where no identical cards were measured in the use; <a href='#def-noise_floor'>definition</a>).</p>"
        + _table(["identical cards", "use", "impacts", "spread"], rows, "noise-floor")
    )


def _use_table(rows: list[dict], keys: list[str], counts: list[str], name: str = "") -> str:
    """Actions, cards or cards' uses, with the win rates of the seat-games that used them or not; sortable by
    any column."""
    return _table(
        [*keys, *counts, "games", "win rate when used", "when not", "impact", "95% interval"],
        [
            [*(x[k] for k in keys), *(x[n] for n in counts), x["games"], _pct(x["win_rate_when_used"])]
            + [_pct(x["win_rate_when_not_used"]), "—" if x["impact"] is None else _signed(x["impact"])]
            + ["—" if x["impact_95"] is None else _span(x["impact_95"])]
            for x in rows
        ],
        f"sortable {name or 'uses-' + '-'.join(keys)}",
    )


def _deciding_tables(arm: dict) -> str:
    """Per arm, the cards' uses and the actions that move the win rate beyond chance."""
    c = arm["choice"]
    out = [f"<h3>{_e(arm['label'])}</h3>"]
    for keys, rows in ((["card", "use"], c["deciding_cards"]), (["action"], c["deciding_actions"])):
        if not rows:
            out.append(f"<p class='deciding-{keys[0]}'>No {keys[0]} decides games at this sample size.</p>")
            continue
        out.append(
            _table(
                [*keys, "seat-games used", "impact", "95% interval"],
                [[*(r[k] for k in keys), r["games"], _signed(r["impact"]), _span(r["impact_95"])] for r in rows[:15]],
                f"deciding-{keys[0]}",
            )
        )
    return "".join(out)


def _signed(x: float) -> str:
    return f"{x:+.0%}"


def _span(ci: list[float]) -> str:
    return f"{ci[0]:+.0%} … {ci[1]:+.0%}"


def _definitions(definitions: dict) -> str:
    """Every metric: Ludii's name where it has one, what it says, and its formula; anchors for links."""
    return (
        "<dl>"
        + "".join(
            f"<dt id='def-{_e(k)}'>{_e(k)}{' (Ludii: ' + _e(v['ludii']) + ')' if v['ludii'] else ''}</dt>"
            f"<dd>{_e(v['definition'])}<br><span class='muted'>{_e(v['formula'])}</span></dd>"
            for k, v in definitions.items()
        )
        + "</dl>"
    )


def _stats_table(arms: list[dict]) -> str:
    rows = []
    for i, stat in enumerate(arms[0]["stats"]):
        cells = []
        for a in arms:
            s = a["stats"][i]
            if "share" in s:
                ci = s["share_95"]
                cells.append(
                    "—"
                    if s["share"] is None
                    else _pct(s["share"]) + (f" ({_pct(ci[0])} … {_pct(ci[1])})" if ci else "")
                )
            else:
                summary = s["summary"]
                cells.append(_mean(summary) + ("" if summary is None else f", range {summary['min']}–{summary['max']}"))
        rows.append([stat["text"]] + cells)
    return _table(["counter"] + [a["label"] for a in arms], rows, "stats")


def _trace_table(arms: list[dict]) -> str:
    """The skill trace, where there is one: each bot against the one before it, seats rotated."""
    rows = [
        [a["label"], t["bot"], t["against"], t["games"], _pct(t["win_rate"])]
        + ["—" if t["win_rate_95"] is None else f"{t['win_rate_95'][0]:.0%}–{t['win_rate_95'][1]:.0%}"]
        for a in arms
        for t in a["skill"]["trace"]
    ]
    if not rows:
        return ""
    return (
        "<h3>Skill trace</h3><p>Each bot against the one before it, in every seat in turn: above chance "
        f"({arms[0]['skill']['chance']:.0%}) where thinking more pays.</p>"
        + _table(["arm", "bot", "against", "games", "its win rate", "95% interval"], rows, "trace")
    )


def _skill_table(arms: list[dict]) -> str:
    rows = [
        [a["label"], s["seat"], s["games"], _pct(s["win_rate"]), a["skill"]["chance"]]
        for a in arms
        for s in a["skill"]["seats"]
    ]
    return _table(["arm", "seat", "games", "win rate", "chance"], rows, "skill")


# ------------------------------------------------------------------- plots
def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>"


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    _plt().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _legend(ax) -> None:
    """The legend beside the plot, never over it: with many arms it would hide the bars."""
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


def _bars(ax, arms: list[dict], rates: list[list], intervals: list[list], seats: int) -> None:
    width = 0.8 / max(1, len(arms))
    for i, a in enumerate(arms):
        xs = [s + i * width for s in range(seats)]
        ys = [r or 0 for r in rates[i]]
        err = [
            [y - (ci[0] if ci else y) for y, ci in zip(ys, intervals[i])],
            [(ci[1] if ci else y) - y for y, ci in zip(ys, intervals[i])],
        ]
        ax.bar(xs, ys, width, yerr=err, capsize=3, label=a["label"])
    ax.set_xticks([s + 0.4 - width / 2 for s in range(seats)], [f"seat {s}" for s in range(seats)])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    if len(arms) > 1:
        _legend(ax)


def _rate_plot(data: dict, rate_of, chance: float) -> str:
    """Win rates per seat and arm with their 95% intervals (``rate_of(arm)``: the rows giving them), and
    the rate chance alone would give as a dashed line."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 3))
    arms = data["arms"]
    rows = [rate_of(a) for a in arms]
    _bars(ax, arms, [r["win_rate"] for r in rows], [r["win_rate_95"] for r in rows], data["players"])
    ax.axhline(chance, color="grey", lw=0.8, ls="--")
    return _svg(fig)


def _duration_plot(arms: list[dict]) -> str:
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(9, 2.8))
    for ax, key in zip(axes, ("decisions", "turns", "rounds")):
        ax.boxplot([a["duration"]["values"][key] or [0] for a in arms])
        ax.set_title(f"{key} per game", fontsize=9)
        ax.set_xticks(range(1, len(arms) + 1), [a["label"] for a in arms], rotation=30, fontsize=7, ha="right")
    return _svg(fig)


def _score_plot(data: dict) -> str:
    plt = _plt()
    arms = data["arms"]
    fig, ax = plt.subplots(figsize=(5, 3))
    values, labels = [], []
    for a in arms:
        for s, v in enumerate(a["scores"]["values"]):
            values.append(v or [0])
            labels.append(f"{a['label']} · {s}" if len(arms) > 1 else f"seat {s}")
    ax.boxplot(values)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=30, fontsize=7, ha="right")
    ax.set_ylabel("points")
    return _svg(fig)


def _margin_plot(arms: list[dict]) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.hist([a["scores"]["margins"] or [0] for a in arms], label=[a["label"] for a in arms], bins=12)
    ax.set_xlabel("points ahead of the best other side")
    if len(arms) > 1:
        _legend(ax)
    return _svg(fig)


def _branching_plot(arms: list[dict]) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 3))
    for a in arms:
        ys = a["choice"]["branching_by_progress"]
        ax.plot([(i + 0.5) / len(ys) for i in range(len(ys))], [y or 0 for y in ys], marker="o", label=a["label"])
    ax.set_xlabel("share of the game played")
    ax.set_ylabel("legal options")
    if len(arms) > 1:
        _legend(ax)
    return _svg(fig)


def _sweep_plot(data: dict) -> str:
    """Each rate and the length against the swept value, each line in its band of 95% intervals."""
    plt = _plt()
    arms, sweep = data["arms"], data["sweep"]
    series = {
        "seat 0 win rate": [(a["outcomes"]["win_rate"][0], a["outcomes"]["win_rate_95"][0]) for a in arms],
        "draw rate": [(a["outcomes"]["draw_rate"], a["outcomes"]["draw_rate_95"]) for a in arms],
        "completion": [(a["outcomes"]["completion_rate"], a["outcomes"]["completion_rate_95"]) for a in arms],
    }
    for i, stat in enumerate(arms[0]["stats"]):
        if "share" in stat:
            series[stat["text"]] = [(a["stats"][i]["share"], a["stats"][i]["share_95"]) for a in arms]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3))
    for name, points in series.items():
        _band(left, sweep["values"], points, name)
    left.set_ylim(-0.02, 1.02)
    _legend(left)
    left.set_xlabel(sweep["name"])
    lengths = [(s["mean"], s["mean_95"]) if s else (None, None) for s in (a["duration"]["decisions"] for a in arms)]
    _band(right, sweep["values"], lengths, "decisions per game")
    right.set_xlabel(sweep["name"])
    right.set_ylabel("decisions per game (finished)")
    return _svg(fig)


def _band(ax, xs: list, points: list[tuple], name: str) -> None:
    """A line through the figures and a shaded band through their 95% intervals."""
    nan = float("nan")
    (line,) = ax.plot(xs, [nan if y is None else y for y, _ in points], marker="o", label=name)
    lows = [nan if ci is None else ci[0] for _, ci in points]
    highs = [nan if ci is None else ci[1] for _, ci in points]
    ax.fill_between(xs, lows, highs, color=line.get_color(), alpha=0.15, linewidth=0)
