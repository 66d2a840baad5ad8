"""Reading and checking the YAML content of the games."""

from cardgen.content.checks import CompositionRow, composition
from cardgen.content.loader import Game, PhysicalCard, discover_games, load_game, load_games

__all__ = [
    "CompositionRow",
    "Game",
    "PhysicalCard",
    "composition",
    "discover_games",
    "load_game",
    "load_games",
]
