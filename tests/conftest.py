import pytest
from hypothesis import HealthCheck, settings

from engine import load_game

# Every test bounds its work by examples or steps, never by the clock: no hypothesis deadline and no
# "too slow" health check, so a machine shared with other work cannot fail a test.
settings.register_profile("tabletop", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tabletop")


@pytest.fixture(scope="session")
def caty():
    return load_game("caty-mini")


@pytest.fixture(scope="session")
def caty_older():
    return load_game("caty-mini", variant="older-players")
