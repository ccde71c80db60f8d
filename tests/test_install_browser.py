"""tools/install_browser.py: a machine where the browser cannot be installed still runs the suite; CI does not."""

import pytest
from tool_helpers import load_tool

install_browser = load_tool("install_browser")


@pytest.fixture
def nothing_installable(monkeypatch):
    """Chromium and the emoji font are missing, and there is no apt-get to install them."""
    monkeypatch.setattr(install_browser, "missing", lambda: ["chromium", "fonts-noto-color-emoji"])
    monkeypatch.setattr(install_browser.shutil, "which", lambda name: None)


def test_a_machine_without_apt_get_warns_and_lets_the_tests_run(nothing_installable, monkeypatch, capsys):
    monkeypatch.delenv("CI", raising=False)
    assert install_browser.main() == 0
    warning = capsys.readouterr().err
    assert "chromium, fonts-noto-color-emoji missing and apt-get is not available" in warning
    assert "the browser tests will skip" in warning


def test_ci_fails_where_the_browser_cannot_be_installed(nothing_installable, monkeypatch, capsys):
    monkeypatch.setenv("CI", "true")
    assert install_browser.main() == 1
    assert "failing, since CI=true" in capsys.readouterr().err


def test_a_failing_apt_get_warns_outside_ci(monkeypatch, capsys):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(install_browser, "missing", lambda: ["chromium"])
    monkeypatch.setattr(install_browser.shutil, "which", lambda name: "/usr/bin/apt-get")
    monkeypatch.setattr(install_browser.subprocess, "run", lambda *a, **k: type("Done", (), {"returncode": 100})())
    assert install_browser.main() == 0
    assert "apt-get update -qq failed (100)" in capsys.readouterr().err


def test_nothing_to_do_when_both_are_there(monkeypatch, capsys):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr(install_browser, "missing", list)
    assert install_browser.main() == 0
    assert capsys.readouterr().err == ""
