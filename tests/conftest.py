import pytest
from hypothesis import HealthCheck, settings

from engine import load_game

# Every test bounds its work by examples or steps, never by the clock: no hypothesis deadline and no
# "too slow" health check, so a machine shared with other work cannot fail a test.
settings.register_profile("tabletop", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tabletop")


@pytest.fixture(autouse=True)
def _check_cache(tmp_path_factory, monkeypatch):
    """Each test keeps validation results in a folder of its own, never in the user's cache."""
    monkeypatch.setenv("TABLETOP_CACHE", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def caty():
    return load_game("caty-mini")


@pytest.fixture(scope="session")
def caty_older():
    return load_game("caty-mini", variant="older-players")
