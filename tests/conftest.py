import pytest

from engine import load_game


@pytest.fixture(scope="session")
def caty():
    return load_game("caty-mini")


@pytest.fixture(scope="session")
def caty_older():
    return load_game("caty-mini", variant="older-players")
