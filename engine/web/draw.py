"""Boards as SVG text: pure functions of board data, drawing hints and what a seat may see.

Nothing here knows a game.  Every name shown comes from the files (point ids,
cell labels, room names, zone ids, card ids); every colour and symbol from
their ``draw:`` hints (``Hints``), with neutral defaults.  Clickable parts
carry ``data-action`` (the option id they choose), so the page needs no
knowledge of the board to make them work.
"""

from __future__ import annotations

import math
from html import escape

from engine.boards.graphs import HEXAGON_DIRECTIONS, space_name
from engine.boards.hints import NEUTRAL, Hints  # noqa: F401  (re-exported for the table)

CELL = 40  # pixels per cell side
MARGIN = 56  # room around a plane floor for the fixtures standing on its walls
SEAT_COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#8e6c8a", "#30638e")


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "middle", cls: str = "", **extra) -> str:
    attrs = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in extra.items())
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'dominant-baseline="middle"{klass}{attrs}>{escape(text)}</text>'
    )


def _icon(icon: str, fallback: str) -> dict:
    """Attributes of a text drawn as an icon: the page shows ``fallback`` if no font has its glyph."""
    return {"cls": "icon", "data_fallback": fallback} if icon else {}


SPACES = "board spaces"  # the class of a board whose spaces are what a player touches


def _svg(width: float, height: float, body: list[str], title: str, kind: str = "board") -> str:
    """A board's drawing; ``board spaces`` marks one whose spaces are touch targets at their drawn size, so a
    phone scrolls it rather than shrinking them below a finger."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{kind}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


# ------------------------------------------------------------------ plane
def plane_svg(
    board,
    hints: Hints,
    trails: dict[int, list[str]] | None = None,
    previews: list[dict] | None = None,
    title: str = "",
    key: str = "",
) -> str:
    """A plane board: floor, labelled cells, wall fixtures with labelled anchor points, trails and previews.

    Points named ``group/part`` are drawn as one fixture ``group``
    with a mark per part.  ``trails`` maps a seat to the points its path
    passed through; ``previews`` are candidate paths ``{action, points,
    summary}``, hidden until the page shows the one under the pointer.  Each point is a target
    ``point:KEY/POINT`` (``key``: the board as the table names it), clicked to choose an option about it.
    """
    g = board.graph
    width, height = g.graph["width"], g.graph["height"]
    pts = {n: d for n, d in g.nodes(data=True) if d["kind"] == "point"}

    def at(point: str) -> tuple[float, float]:
        x, y = pts[point]["at"]
        return MARGIN + float(x) * CELL, MARGIN + float(y) * CELL

    body = [
        (
            f'<rect x="{MARGIN}" y="{MARGIN}" width="{width * CELL}" height="{height * CELL}" fill="#fbf8f1" '
            f'stroke="#555" stroke-width="4"/>'
        )
    ]
    for x in range(1, width):
        body.append(
            f'<line x1="{MARGIN + x * CELL}" y1="{MARGIN}" x2="{MARGIN + x * CELL}" '
            f'y2="{MARGIN + height * CELL}" stroke="#eee"/>'
        )
    for y in range(1, height):
        body.append(
            f'<line x1="{MARGIN}" y1="{MARGIN + y * CELL}" x2="{MARGIN + width * CELL}" '
            f'y2="{MARGIN + y * CELL}" stroke="#eee"/>'
        )
    for node, d in g.nodes(data=True):
        if d["kind"] != "cell":
            continue
        x, y = MARGIN + node[1] * CELL, MARGIN + node[2] * CELL
        label = d["label"]
        icon = hints.icon(label)
        body.append(
            f'<g class="cell" data-label="{escape(label)}"><rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
            f'height="{CELL - 4}" rx="6" fill="{hints.colour(label, default="#fff1c9")}" stroke="#b59b5a"/>'
            + _text(x + CELL / 2, y + CELL / 2 - 4, icon or label[:1].upper(), 16, **_icon(icon, label[:1].upper()))
            + _text(x + CELL / 2, y + CELL - 7, label, 8)
            + "</g>"
        )
    groups: dict[str, list[str]] = {}
    for p in pts:
        groups.setdefault(pts[p]["group"], []).append(p)
    for name, members in groups.items():
        xs, ys = zip(*(at(p) for p in members))
        tags = pts[members[0]]["tags"]
        colour = hints.colour(*tags, name)
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        # push the fixture outwards, off the floor, on the side of the wall it stands on
        ox = -1 if cx <= MARGIN else 1 if cx >= MARGIN + width * CELL else 0
        oy = -1 if cy <= MARGIN else 1 if cy >= MARGIN + height * CELL else 0
        fx, fy = cx + ox * 22, cy + oy * 22
        w, h = max(x1 - x0, 0) + 30, max(y1 - y0, 0) + 30
        if ox:
            w = 26
        if oy:
            h = 26
        body.append(
            f'<g class="fixture" data-name="{escape(name)}"><rect x="{fx - w / 2:.1f}" y="{fy - h / 2:.1f}" '
            f'width="{w:.1f}" height="{h:.1f}" rx="4" fill="{colour}" fill-opacity="0.55" stroke="{colour}"/>'
            + _text(fx, fy, name, 9, transform=f"rotate({90 if ox else 0} {fx:.1f} {fy:.1f})")
            + "</g>"
        )
    for p in pts:
        nx, ny = at(p)
        part = pts[p]["label"]
        body.append(
            f'<g class="anchor" data-point="{escape(p)}" data-target="point:{escape(key)}/{escape(p)}">'
            f'<circle class="hit" cx="{nx:.1f}" cy="{ny:.1f}" r="14" fill="#000" fill-opacity="0"/>'
            f'<circle cx="{nx:.1f}" cy="{ny:.1f}" r="4" fill="#333"/>'
            + _text(
                nx,
                ny + (-9 if ny > MARGIN else 10) if nx not in (MARGIN, MARGIN + width * CELL) else ny,
                part[:1].upper(),
                8,
                fill="#333",
            )
            + "</g>"
        )
    for seat, points in (trails or {}).items():
        known = [p for p in points if p in pts]
        if known:
            line = " ".join(f"{at(p)[0]:.1f},{at(p)[1]:.1f}" for p in known)
            body.append(
                f'<polyline class="trail" data-seat="{seat}" points="{line}" fill="none" '
                f'stroke="{seat_colour(seat)}" stroke-width="3" stroke-linejoin="round"/>'
            )
            ex, ey = at(known[-1])
            body.append(f'<circle class="end" cx="{ex:.1f}" cy="{ey:.1f}" r="7" fill="{seat_colour(seat)}"/>')
    for prev in previews or []:
        known = [p for p in prev["points"] if p in pts]
        if not known:
            continue
        line = " ".join(f"{at(p)[0]:.1f},{at(p)[1]:.1f}" for p in known)
        lx, ly = at(known[-1])
        summary = f"{prev['action']}: {prev['summary']}"
        body.append(
            f'<g class="preview" data-action="{escape(prev["action"])}">'
            f'<polyline points="{line}" fill="none" stroke="#000" stroke-width="3" '
            f'stroke-dasharray="8 5"/><circle cx="{lx:.1f}" cy="{ly:.1f}" r="9" fill="#000" '
            f'fill-opacity="0.35"/>'
            + _text(MARGIN + width * CELL / 2, MARGIN + height * CELL + MARGIN - 8, summary, 12, cls="summary")
            + "</g>"
        )
    return _svg(width * CELL + 2 * MARGIN, height * CELL + 2 * MARGIN, body, title or board.id)


# ------------------------------------------------------------------ ring
def ring_svg(
    piles: list[dict],
    tokens: dict[str, list[int]],
    highlight: set[str],
    hints: Hints,
    title: str = "",
) -> str:
    """Piles in a circle, clockwise from the top: ``piles`` are ``{zone, count, top}`` (top: a face or None).

    Each pile is the target ``zone:ZONE``: the page makes it clickable when an option is about it.
    """
    n = max(len(piles), 1)
    radius = 70 + 22 * n
    size = 2 * radius + 140
    c = size / 2
    body = [
        (f'<circle cx="{c}" cy="{c}" r="{radius}" fill="none" stroke="#ddd" stroke-width="2" stroke-dasharray="4 6"/>')
    ]
    for i, pile in enumerate(piles):
        angle = 2 * math.pi * i / n - math.pi / 2
        x, y = c + radius * math.cos(angle), c + radius * math.sin(angle)
        zone = pile["zone"]
        lit = zone in highlight
        body.append(
            f'<g class="pile{" lit" if lit else ""}" data-zone="{escape(zone)}" data-target="zone:{escape(zone)}">'
            + f'<rect x="{x - 30:.1f}" y="{y - 40:.1f}" width="60" height="80" rx="6" '
            f'fill="{hints.colour(pile.get("top"), default="#6b5b95")}" '
            f'stroke="{"#f4c20d" if lit else "#333"}" '
            f'stroke-width="{5 if lit else 1.5}"/>'
            + _text(x, y - 22, zone.partition(":")[2] or zone, 11, fill="#fff")
            + _text(x, y + 4, str(pile["count"]), 20, fill="#fff", cls="count")
            + _text(x, y + 26, "cards", 9, fill="#fff")
            + "</g>"
        )
        for k, seat in enumerate(tokens.get(zone, [])):
            tx, ty = (
                x + 44 * math.cos(angle) + (k - 0.5) * 18 * math.sin(angle),
                y + 44 * math.sin(angle) - (k - 0.5) * 18 * math.cos(angle),
            )
            body.append(
                f'<g class="token" data-seat="{seat}"><circle cx="{tx:.1f}" cy="{ty:.1f}" r="10" '
                f'fill="{seat_colour(seat)}" stroke="#222"/>' + _text(tx, ty, str(seat), 11, fill="#fff") + "</g>"
            )
    body.append(_text(c, c, "↻ clockwise", 12, fill="#999"))
    return _svg(size, size, body, title or "ring")


# ------------------------------------------------------------------ spaces
def spaces_svg(board, pieces: dict[str, list[dict]], destinations: list[dict], hints: Hints, title: str = "") -> str:
    """A board of spaces drawn as itself: hexagons, a graph's nodes and edges, or a grid's cells or intersections."""
    kind = board.graph.graph.get("kind")
    draw = hexagons_svg if kind == "hexagons" else graph_svg if kind == "graph" else grid_svg
    return draw(board, pieces, destinations, hints, title)


def _space(space: str, cx: float, cy: float, shape: str, fill: str) -> str:
    """A space: its shape (clickable when an option is about it: ``data-target``) and its name, shown on demand."""
    return (
        f'<g class="space" data-space="{escape(space)}" data-target="space:{escape(space)}">'
        f"<title>{escape(space)}</title>{shape.format(fill=fill)}"
        + _text(cx, cy + CELL / 2 - 8, space, 9, cls="coord", fill="#333")
        + "</g>"
    )


def _pieces_at(centre: tuple[float, float], here: list[dict]) -> list[str]:
    """The pieces on a space, stacked: a circle in the piece's colour with its icon (its name on hover)."""
    cx, cy = centre
    out = []
    for k, piece in enumerate(here):
        r = CELL / 2 - 6 - 3 * k
        x, y = cx + 5 * k, cy + 4 * k
        ink = "#fff" if _dark(piece["colour"]) else "#000"
        out.append(
            f'<g class="piece" data-piece="{escape(piece["id"])}" data-target="card:{escape(piece["id"])}">'
            f"<title>{escape(piece['label'])}</title>"
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="{piece["colour"]}" stroke="#000"/>'
            + (
                _text(x, y, piece["icon"], 14, fill=ink, **_icon(piece["icon"], piece["label"][:2]))
                if piece["icon"]
                else ""
            )
            + "</g>"
        )
    return out


def _destinations(destinations: list[dict], centre) -> list[str]:
    """Where an option moves a piece: a ring on top of the space, which a click on it reaches (the space's
    target: when several pieces may go there, the page offers their moves, or takes the selected piece's)."""
    out = []
    for dest in destinations:
        at = centre(dest["space"])
        if at is None:
            continue
        x, y = at
        out.append(
            f'<g class="dest" data-action="{escape(dest["action"])}" data-piece="{escape(dest["piece"])}" '
            f'data-target="space:{escape(dest["space"])}">'
            f'<title>{escape(dest["action"])}</title><circle cx="{x}" cy="{y}" r="{CELL / 2 - 3}" '
            f'fill="#2e7d32" fill-opacity="0.25" stroke="#2e7d32" stroke-width="3"/></g>'
        )
    return out


# ------------------------------------------------------------------ hexagons
HEX = CELL / math.sqrt(3)  # a pointy-top hexagon's side, so that its width is one CELL


def hexagons_svg(board, pieces: dict[str, list[dict]], destinations: list[dict], hints: Hints, title: str = "") -> str:
    """A rhombus of pointy-top hexagons; an edge tagged with a coloured tag (``colours``) is drawn in its colour."""
    g = board.graph
    width, height = g.graph["width"], g.graph["height"]
    pad = CELL

    at = {space: (pad + CELL * (d["x"] + d["y"] / 2), pad + HEX * 1.5 * d["y"]) for space, d in g.nodes(data=True)}

    def corner(cx: float, cy: float, i: int) -> tuple[float, float]:
        angle = math.radians(60 * i - 90)  # corner 0 at the top, then clockwise
        return cx + HEX * math.cos(angle), cy + HEX * math.sin(angle)

    # the side facing each direction, as the two corners it joins
    sides = {
        "northeast": (0, 1),
        "east": (1, 2),
        "southeast": (2, 3),
        "southwest": (3, 4),
        "west": (4, 5),
        "northwest": (5, 0),
    }
    body = []
    for space, d in g.nodes(data=True):
        cx, cy = at[space]
        outline = " ".join(f"{x:.1f},{y:.1f}" for x, y in (corner(cx, cy, i) for i in range(6)))
        shape = f'<polygon points="{outline}" fill="{{fill}}" stroke="#8a7f6a" stroke-width="1.5"/>'
        body.append(_space(space, cx, cy, shape, hints.colour(d["room"], default="#f3ead7")))
    for tag, across in _board_edges(board).items():
        colour = hints.colours.get(tag)
        for space in board.tagged(tag):
            d = g.nodes[space]
            cx, cy = at[space]
            for direction, (dx, dy) in HEXAGON_DIRECTIONS.items():
                nx, ny = d["x"] + dx, d["y"] + dy
                off = not 0 <= (nx if across == "x" else ny) < (width if across == "x" else height)
                if off and colour:
                    (x1, y1), (x2, y2) = (corner(cx, cy, i) for i in sides[direction])
                    body.append(
                        f'<line class="edge" data-tag="{escape(tag)}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                        f'y2="{y2:.1f}" stroke="{colour}" stroke-width="6" stroke-linecap="round"/>'
                    )
    for x in range(width):  # coordinates along the rim, shown on demand
        cx, cy = at[space_name(x, 0)]
        body.append(_text(cx, cy - HEX - 8, space_name(x, 0)[:-1], 11, cls="coord rim", fill="#555"))
    for y in range(height):
        cx, cy = at[space_name(0, y)]
        body.append(_text(cx - CELL / 2 - 10, cy, str(y + 1), 11, cls="coord rim", fill="#555"))
    for space, here in pieces.items():
        if space in at:
            body += _pieces_at(at[space], here)
    body += _destinations(destinations, at.get)
    return _svg(
        CELL * (width + (height - 1) / 2) + 2 * pad,
        HEX * (1.5 * height + 0.5) + 2 * pad - HEX,
        body,
        title or board.id,
        SPACES,
    )


def _board_edges(board) -> dict[str, str]:
    """Tags that mark one whole row or column of the board, with the axis across them ("y" for a row)."""
    out = {}
    g = board.graph
    for tag in sorted(set().union(*board.tags.values())):
        spaces = board.tagged(tag)
        xs = {g.nodes[s]["x"] for s in spaces}
        ys = {g.nodes[s]["y"] for s in spaces}
        if len(ys) == 1 and len(xs) == g.graph["width"]:
            out[tag] = "y"
        elif len(xs) == 1 and len(ys) == g.graph["height"]:
            out[tag] = "x"
    return out


# ------------------------------------------------------------------ graph
def graph_svg(board, pieces: dict[str, list[dict]], destinations: list[dict], hints: Hints, title: str = "") -> str:
    """A graph board: its nodes where the file places them (``at``), else around a circle; its edges, one-way
    ones with an arrow head, labelled ones with their label."""
    g = board.graph
    nodes = list(g.nodes)
    placed = {n: g.nodes[n].get("at") for n in nodes}
    radius = max(2 * CELL, len(nodes) * CELL * 0.35)
    at: dict[str, tuple[float, float]] = {}
    for i, n in enumerate(nodes):
        if placed[n] is not None:
            at[n] = (CELL + float(placed[n][0]) * CELL * 1.5, CELL + float(placed[n][1]) * CELL * 1.5)
        else:
            angle = 2 * math.pi * i / max(len(nodes), 1) - math.pi / 2
            at[n] = (CELL + radius + radius * math.cos(angle), CELL + radius + radius * math.sin(angle))
    body = [
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>'
    ]
    done = set()
    for a, b, d in g.edges(data=True):
        both = g.has_edge(b, a)
        if both and (b, a) in done:
            continue
        done.add((a, b))
        (x1, y1), (x2, y2) = at[a], at[b]
        length = math.dist((x1, y1), (x2, y2)) or 1
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        shrink = CELL / 2
        head = "" if both else ' marker-end="url(#arrow)"'
        body.append(
            f'<line class="link" x1="{x1 + ux * shrink:.1f}" y1="{y1 + uy * shrink:.1f}" x2="{x2 - ux * shrink:.1f}" '
            f'y2="{y2 - uy * shrink:.1f}" stroke="#555" stroke-width="2"{head}/>'
        )
        if d.get("label"):
            body.append(_text((x1 + x2) / 2, (y1 + y2) / 2 - 6, d["label"], 9, fill="#777"))
    for n in nodes:
        x, y = at[n]
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CELL / 2 - 2}" fill="{{fill}}" stroke="#555"/>'
        body.append(_space(n, x, y, shape, hints.colour(*sorted(board.tags[n]), board.rooms[n], default="#f2f2f2")))
    for space, here in pieces.items():
        if space in at:
            body += _pieces_at(at[space], here)
    body += _destinations(destinations, at.get)
    xs, ys = [x for x, _ in at.values()], [y for _, y in at.values()]
    return _svg(max(xs) + CELL, max(ys) + CELL, body, title or board.id, SPACES)


# ------------------------------------------------------------------ grid
def grid_svg(board, pieces: dict[str, list[dict]], destinations: list[dict], hints: Hints, title: str = "") -> str:
    """A grid board: rooms (coloured, named), walls, doors, marked spaces, pieces and destinations.

    ``pieces`` maps a space to what stands there, each ``{id, label, colour,
    icon}``; ``destinations`` are ``{action, space, piece}``: an option that
    moves ``piece`` to ``space``.  A board whose hints say ``on: intersections``
    is drawn as lines whose crossings are the spaces (pieces stand on the points).
    """
    g = board.graph
    width, height = g.graph["width"], g.graph["height"]
    pad = 24
    crossings = board.draw.get("on") == "intersections"

    def origin(space: str) -> tuple[float, float]:
        d = g.nodes[space]
        return pad + d["x"] * CELL, pad + d["y"] * CELL

    at = {space: (origin(space)[0] + CELL / 2, origin(space)[1] + CELL / 2) for space in g}

    body = []
    if crossings:
        body.append(
            f'<rect x="0" y="0" width="{width * CELL + 2 * pad}" height="{height * CELL + 2 * pad}" fill="#e8c98f"/>'
        )
        for a, b in g.edges():
            (x1, y1), (x2, y2) = at[a], at[b]
            body.append(
                f'<line class="link" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#333" stroke-width="1.5"/>'
            )
    for space, d in g.nodes(data=True):
        x, y = origin(space)
        if crossings:
            shape = (
                f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="{CELL / 2 - 4}" fill="{{fill}}" fill-opacity="0"/>'
            )
            body.append(_space(space, x + CELL / 2, y + CELL / 2, shape, "#fff"))
            continue
        shape = f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{{fill}}" stroke="#0001"/>'
        body.append(_space(space, x + CELL / 2, y + CELL / 2, shape, hints.colour(d["room"], default="#f2f2f2")))
        for tag in sorted(board.tags[space]):
            mark = hints.marks.get(tag)
            if mark:
                body.append(
                    f'<g class="mark" data-tag="{escape(tag)}"><title>{escape(mark.get("label", tag))}'
                    f"</title>"
                    + _text(
                        x + CELL / 2,
                        y + CELL / 2,
                        mark.get("icon", "•"),
                        22,
                        fill="#0005",
                        **_icon(mark.get("icon", ""), "•"),
                    )
                    + "</g>"
                )
    walls = []
    for space, d in g.nodes(data=True):
        if crossings:
            break
        x, y = origin(space)
        for dx, dy, line in (
            (1, 0, (x + CELL, y, x + CELL, y + CELL)),
            (0, 1, (x, y + CELL, x + CELL, y + CELL)),
            (-1, 0, (x, y, x, y + CELL)),
            (0, -1, (x, y, x + CELL, y)),
        ):
            other = space_name(d["x"] + dx, d["y"] + dy)
            if other not in g or (not g.has_edge(space, other) and (dx > 0 or dy > 0)):
                walls.append(line)
            elif g.has_edge(space, other) and g.edges[space, other].get("door") and (dx > 0 or dy > 0):
                body.append(
                    f'<line class="door" x1="{line[0]}" y1="{line[1]}" x2="{line[2]}" y2="{line[3]}" '
                    f'stroke="#fff" stroke-width="4" stroke-dasharray="3 3"/>'
                )
    for x1, y1, x2, y2 in walls:
        body.append(
            f'<line class="wall" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#333" stroke-width="4" '
            f'stroke-linecap="square"/>'
        )
    if len(board.spaces_in) > 1:
        for room, spaces in board.spaces_in.items():
            x, y = min(origin(s)[0] for s in spaces), min(origin(s)[1] for s in spaces)
            body.append(_text(x + 4, y + 8, hints.names.get(room, room), 9, anchor="start", cls="room", fill="#444"))
    for space, here in pieces.items():
        if space in at:
            body += _pieces_at(at[space], here)
    body += _destinations(destinations, at.get)
    return _svg(width * CELL + 2 * pad, height * CELL + 2 * pad, body, title or board.id, SPACES)


def _dark(colour: str) -> bool:
    """Is a ``#rrggbb`` colour dark enough to need light text on it?"""
    if len(colour) != 7 or not colour.startswith("#"):
        return False
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 140
