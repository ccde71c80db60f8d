"""Every shipped game, variant and player count, for the adapters' conformance tests."""

from engine import load_game
from engine.load.documents import known_games, known_variants, resolve

BOUND = 40  # decisions after which a game whose rules declare no bound is cut off in these tests


def _cells() -> list[tuple[str, str | None, int]]:
    found = []
    for name in known_games():
        for variant in [None, *known_variants(resolve(name)[0].parent)]:
            game = load_game(name, variant)
            found += [(name, variant, n) for n in range(game.min_players, game.max_players + 1)]
    return found


CELLS = _cells()
SIMULTANEOUS = [cell for cell in CELLS if load_game(cell[0], cell[1]).info(cell[2]).simultaneous]


def cell_id(cell: tuple) -> str:
    name, variant, players = cell
    return f"{name}{'-' + variant if variant else ''}-{players}p"
