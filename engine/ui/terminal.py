"""Terminal rendering of a seat's view with rich (loaded only by the CLI).

Everything shown comes from ``state.view(seat)`` plus the game's static
definition (boards, card texts): a player sees what their seat may know.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from engine.boards.graphs import GridBoard, PlaneBoard, space_name
from engine.boards.hints import Hints
from engine.lang.types import PLAYER

_ROOM_SHADES = [
    "grey15",
    "grey23",
    "grey30",
    "dark_blue",
    "dark_green",
    "dark_red",
    "purple4",
    "dark_orange3",
    "deep_pink4",
    "dark_cyan",
]


def _style(name: str) -> Style | None:
    try:
        return Style.parse(name)
    except Exception:  # rich raises its own StyleSyntaxError for unknown colours
        return None


def _card_text(entry) -> str:
    if entry is None:
        return "▒"
    if isinstance(entry, dict) and "die" in entry:  # a die: which it is, always; its face if the seat saw it
        return f"{entry['die']}:{entry.get('face', '?')}"
    if isinstance(entry, dict):
        return "▒" + "/".join(str(v) for v in entry.values())
    return str(entry)


def _zone_summary(cards: list) -> str:
    if not cards:
        return "—"
    if all(isinstance(c, str) for c in cards):
        return ", ".join(cards)
    counts = Counter(_card_text(c) for c in cards)
    return ", ".join(f"{k}×{v}" if v > 1 else k for k, v in counts.items())


def render_plane_board(board: PlaneBoard, highlight: set[str], title: str) -> Panel:
    """The floor as a grid of cells (labels abbreviated) with its points on the edges."""
    graph = board.graph
    width, height = graph.graph["width"], graph.graph["height"]
    rows = height + 2
    cols = width * 3 + 2
    canvas: list[list[tuple[str, Style | None]]] = [[(" ", None) for _ in range(cols)] for _ in range(rows)]
    for y in range(height):
        for x in range(width):
            canvas[y + 1][x * 3 + 1] = ("·", Style(dim=True))
    for node, data in graph.nodes(data=True):
        if data["kind"] == "cell":
            x, y = node[1], node[2]
            label = data["label"][:3]
            for i, ch in enumerate(label):
                canvas[y + 1][x * 3 + 1 + i] = (ch, Style(bold=True, color="magenta"))
    for node, data in graph.nodes(data=True):
        if data["kind"] != "point":
            continue
        px, py = data["at"]
        col = min(cols - 1, max(0, round(float(px) * 3)))
        row = min(
            rows - 1,
            max(
                0,
                round(float(py) + (0.5 if 0 < py < height else 0)) if 0 < py < height else (0 if py == 0 else rows - 1),
            ),
        )
        style = _style(data["tags"][0]) if data["tags"] else None
        mark = "●" if node in highlight else "◦"
        if node in highlight:
            style = Style(bold=True, color="bright_white", bgcolor="red")
        canvas[row][col] = (mark, style)
    text = Text()
    for r, line in enumerate(canvas):
        for ch, style in line:
            text.append(ch, style=style)
        if r < rows - 1:
            text.append("\n")
    features: dict[tuple, list[str]] = {}
    for data in graph.nodes.values():
        if data["kind"] == "point":
            name = data["group"]
            group = tuple(data["tags"])
            if name not in features.setdefault(group, []):
                features[group].append(name)
    legend = Text()
    for tags, names in features.items():
        legend.append(" ".join(tags) + ": ", style=_style(tags[0]) if tags else None)
        legend.append(", ".join(names) + "\n")
    return Panel(Group(text, legend), title=escape(title), expand=False)


def render_grid_board(board: GridBoard, pieces: dict[str, list], title: str, hints: Hints) -> Panel:
    """Rooms as shaded areas, walls as lines, each space showing its pieces (3 letters each).

    ``pieces`` maps a space to the ids of what stands on it; an empty space
    shows the icon its tags have in the drawing hints' ``marks``.
    """
    graph = board.graph
    width, height = graph.graph["width"], graph.graph["height"]
    rooms = list(board.spaces_in)
    shade = {r: _style(f"on {_ROOM_SHADES[i % len(_ROOM_SHADES)]}") for i, r in enumerate(rooms)}
    text = Text()
    columns = "".join(f" {space_name(x, 0)[:-1]:<3}" for x in range(width))  # a…z, aa, ab… as spaces are named
    text.append("   " + columns + "\n", style="dim")
    for y in range(height):
        top = Text("   ")
        row = Text(f"{y + 1:>2} ")
        for x in range(width):
            name = space_name(x, y)
            if name not in graph:
                top.append("    ")
                row.append("    ")
                continue
            above = space_name(x, y - 1)
            left = space_name(x - 1, y) if x else None
            top.append("+" + ("   " if y and graph.has_edge(name, above) else "───"), style="dim")
            row.append(" " if left and graph.has_edge(name, left) else "│", style="dim")
            here = pieces.get(name, [])
            if here:
                label = str(here[0])[:3] if len(here) == 1 else f"{str(here[0])[:2]}+"
                cell = Text(f"{label:<3}", style=Style(bold=True) + (shade[board.rooms[name]] or Style()))
            else:
                mark = next((hints.marks[t].get("icon", "*") for t in sorted(board.tags[name]) if t in hints.marks), "")
                cell = Text(f"{mark:^3}", style=shade[board.rooms[name]] or "")
            row.append(cell)
        top.append("+", style="dim")
        row.append("│", style="dim")
        text.append(top + Text("\n") + row + Text("\n"))
    text.append("   " + "+───" * width + "+", style="dim")
    legend = Text()
    for r in rooms:
        legend.append("   ", style=shade[r])
        legend.append(f" {hints.names.get(r, r)}{_room_tags(board, r)}  ")
    return Panel(Group(text, legend), title=escape(title), expand=False)


def _room_tags(board: GridBoard, room: str) -> str:
    """The tags every space of a room has (the room's own, as its board file gives them), for the legend."""
    common = frozenset.intersection(*(board.tags[s] for s in board.spaces_in[room]))
    return f" ({', '.join(sorted(common))})" if common else ""


def plain(value) -> str:
    """A value as a player reads it: no Python literals (None, True, False, brackets)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(plain(v) for v in value) or "—"
    return str(value)


def render_ring(game, view: dict, highlight: set[str]) -> Text | None:
    """The piles of the game's ``ring`` hint, clockwise, with their counts, the tokens on them and the highlight."""
    ring = game.draw.get("ring")
    if not ring:
        return None
    text = Text("ring (clockwise): ")
    for zone in view["variables"].get(ring["order"]) or []:
        seats = [str(p) for p, pv in enumerate(view["player_variables"]) if pv.get(ring.get("tokens")) == zone]
        label = f"[{zone.partition(':')[2] or zone} {len(view['zones'].get(zone, []))}]"
        text.append(label, style="bold yellow" if zone in highlight else None)
        if seats:
            text.append(" ●" + ",".join(seats), style="bold cyan")
        text.append(" → ")
    text.append("↺")
    return text


def render_options(options: list[dict], console: Console) -> None:
    """The menu: each option with the text of the cards it names, its destination or path, and a warning if final."""
    for i, o in enumerate(options, 1):
        line = Text(f"  {i}. ", style="bold")
        line.append(o["id"])
        if "destination" in o:
            line.append(f" → {o['destination']['space']}", style="green")
        if "run" in o:
            line.append(f" — {o['run']['summary']}", style="dim")
        for card in o["cards"]:
            if card["text"]:
                line.append(f" — {card['icons']}{card['text']}", style="dim")
        if o["irreversible"]:
            line.append("  (cannot be taken back)", style="bold red")
        console.print(line, highlight=False)


def render_view(game, view: dict, console: Console, highlight: Set[str] = frozenset()) -> None:
    """Print what the seat may see: boards, ring, zones, variables and recent events."""
    seat = view["seat"]
    header = f"[bold]{escape(game.name)}[/] — seat {seat}"
    shown = {k: v for k, v in view["variables"].items() if isinstance(v, (int, str)) and not isinstance(v, bool)}
    if shown:
        header += "   " + escape("  ".join(f"{k}: {v}" for k, v in shown.items()))
    console.rule(header)
    for family, boards in game.board_files.items():
        if game.vocabulary.boards.get(family) is PLAYER:
            board = boards[seat % len(boards)]
            mine = view["player_variables"][seat]
            highlight = {v for v in mine.values() if isinstance(v, str)}
            console.print(render_plane_board(board, highlight, f"{family} of seat {seat} ({board.id})"))
        elif isinstance(boards[0], GridBoard) and "width" in boards[0].graph.graph:  # a graph board has no grid
            spaces = [f for f, fam in game.zone_families.items() if fam.key == family]
            pieces = {
                zone.partition(":")[2]: cards
                for zone, cards in view["zones"].items()
                if zone.partition(":")[0] in spaces and cards
            }
            hints = Hints.merged(game.draw, boards[0].draw)
            console.print(render_grid_board(boards[0], pieces, boards[0].id, hints))
    ring = render_ring(game, view, set(highlight))
    if ring is not None:
        console.print(ring)
    table = Table(title="Table", show_lines=False, expand=False)
    table.add_column("zone")
    table.add_column("n", justify="right")
    table.add_column("cards (▒ = face down)")
    for zone, cards in view["zones"].items():
        if not cards and game.zone_family(zone).visibility == "hidden":
            continue
        if game.zone_family(zone).key in game.board_files:
            continue  # drawn on its board
        mine = game.zone_owner(zone) == seat
        table.add_row(Text(zone, style="bold green" if mine else ""), str(len(cards)), escape(_zone_summary(cards)))
    console.print(table)
    players = Table(title="Players", expand=False)
    players.add_column("seat")
    keys = sorted({k for pv in view["player_variables"] for k in pv})
    for k in keys:
        players.add_column(escape(k))
    for p, pv in enumerate(view["player_variables"]):
        players.add_row(
            f"{p}{' (you)' if p == seat else ''}", *[escape(plain(pv[k])) if k in pv else "hidden" for k in keys]
        )
    console.print(players)
    log = view["log"][-8:]
    if log:
        console.print(Panel(escape("\n".join(log)), title="recent events", expand=False))
