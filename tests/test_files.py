"""Saves and files: what the engine reads stays in the game's folders, and what it writes is whole.

Each class of problem has its test: writes interrupted or failing, paths that lead out
(absolute, '..', symlinks), files that are not regular (devices, FIFOs), files too large,
tampered saves, boards beside the game, replays of games outside rules/, and a game that
stops on a rule error while being saved.
"""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import textwrap
import threading
from pathlib import Path

import pytest
import yaml
from cache_helpers import counter

import engine
from engine import StateError
from engine.errors import WriteError
from engine.load.safe_files import MAX_FILE_BYTES, read_text
from engine.load.yaml_source import MAX_NODES, parse_yaml
from engine.runtime.saves import read_save, replay, save_data, write_save
from tests.test_cli import run

SECRET = "secret-content: do-not-echo\n"
GAME = """\
    id: tiny
    name: Tiny
    players: {min: 2, max: 2}
    include: [parts.yaml]
    boards:
      - {id: house, files: [house.yaml]}
    zones:
      - {id: box, visibility: public}
    play: |
      x = choose "go" from ["on", "fail"]
      y = choose "pick" from [x] where it == "on"
    """
PARTS = """\
    components:
      - kind: token
        start: box
        items:
          - {id: bead}
    """
HOUSE = """\
    id: house
    kind: grid
    cells: {width: 2, height: 1}
    rooms:
      - {id: hall, area: [0, 0, 1, 0]}
    """


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def tiny(folder: Path, boards: Path | None = None, game: str = GAME) -> Path:
    """A two-choice game in ``folder`` whose board file sits in ``boards`` (default: beside it)."""
    write(folder / "game.yaml", game)
    write(folder / "parts.yaml", PARTS)
    write((boards or folder) / "house.yaml", HOUSE)
    return folder


def load_fails(target) -> list[engine.Diagnostic]:
    with pytest.raises(engine.RulesError) as info:
        engine.load_game(target)
    return info.value.diagnostics


def refused(target, code: str) -> engine.Diagnostic:
    """The one diagnostic of loading ``target``, which must have ``code`` and quote nothing of SECRET."""
    problems = load_fails(target)
    assert [d.code for d in problems] == [code], [d.format() for d in problems]
    assert "do-not-echo" not in problems[0].format()
    return problems[0]


@pytest.fixture
def fifo():
    """Make FIFOs; a writer thread answers every open of one with EOF, so code that opens it fails instead
    of hanging, and the teardown asserts that nobody did."""
    made = []

    def make(path: Path) -> Path:
        os.mkfifo(path)
        stop, opened = threading.Event(), []

        def writer():
            while not stop.is_set():
                open(path, "wb").close()  # blocks until someone opens the FIFO to read
                opened.append(1)

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        made.append((path, stop, opened, thread))
        return path

    yield make
    for path, stop, opened, thread in made:
        stop.set()
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # releases the writer's last open
        thread.join()
        os.close(fd)
        assert len(opened) == 1, f"{path.name} was opened {len(opened) - 1} times"


def played(tmp_path, moves: int = 3):
    state = engine.load_game("caty-mini").new_game(players=2, seed=1)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return state


# ------------------------------------------------------------------ writing
@pytest.mark.parametrize(
    "failure", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()], ids=["disk-full", "interrupt"]
)
def test_a_write_that_fails_midway_keeps_the_previous_save(tmp_path, monkeypatch, failure):
    """An OSError or an interrupt while the data is written leaves the old save byte for byte, and no temp file."""
    save = tmp_path / "game.json"
    write_save(played(tmp_path, 1), save)
    before = save.read_bytes()

    def fail(fd):
        raise failure

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(WriteError if isinstance(failure, OSError) else KeyboardInterrupt) as info:
        write_save(played(tmp_path, 3), save)
    assert save.read_bytes() == before and os.listdir(tmp_path) == ["game.json"]
    if isinstance(failure, OSError):
        assert str(info.value) == f"{save}: cannot write: No space left on device"


def test_play_interrupted_while_saving_leaves_a_whole_save(tmp_path, capsys, monkeypatch):
    """Ctrl-C during the 4th save of a bot game: the save holds the 2 actions of the 3rd, and replays exactly."""
    save = tmp_path / "game.json"
    calls, real_replace = [], os.replace

    def replace(src, dst):
        if os.path.realpath(dst) == os.path.realpath(save):  # not the compiled game kept in the cache
            calls.append(dst)
        if len(calls) == 4:
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    code, _, err = run(capsys, "play", "caty-mini", "--bot", "all=random", "--quiet", "--save", save)
    assert code == 1 and "interrupted" in err
    data = read_save(save)
    assert len(data["actions"]) == 2 and os.listdir(tmp_path) == ["game.json"]
    replay(engine.load_game("caty-mini"), data)  # the digest matches: the save is whole


@pytest.mark.parametrize("target", ["folder", "missing-folder", "/dev/full"])
@pytest.mark.parametrize("command", ["play", "doc"])
def test_an_unwritable_target_is_a_one_line_error(tmp_path, capsys, target, command):
    """A folder, a missing folder or a device as output: one line, exit 1, nothing created or replaced."""
    if target == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    path = {"folder": tmp_path, "missing-folder": tmp_path / "no" / "game.json"}.get(target, target)
    argv = (
        ["play", "caty-mini", "--bot", "all=random", "--quiet", "--seed", "1", "--save", path]
        if command == "play"
        else ["doc", "caty-mini", "-o", path]
    )
    code, _, err = run(capsys, *argv)
    assert code == 1 and err.startswith(f"error: {path}: ") and err.count("\n") == 1, err
    assert os.listdir(tmp_path) == []
    if target == "/dev/full":
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_rewritten_save_keeps_its_link_and_permissions(tmp_path):
    """Replacing by rename must not turn a linked save into a plain file, nor reset its mode to 0600."""
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    old_mask = os.umask(0o022)
    try:
        write_save(played(tmp_path, 1), real)
    finally:
        os.umask(old_mask)
    assert stat.S_IMODE(real.stat().st_mode) == 0o644  # a new save is made like any new file
    os.chmod(real, 0o640)
    os.symlink(real, link)
    write_save(played(tmp_path, 3), link)
    assert link.is_symlink() and len(read_save(real)["actions"]) == 3
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_doc_output_is_written_whole(tmp_path, capsys):
    """`doc -o` goes through the same writer: the file holds the reference and nothing else is left."""
    code, _out, _ = run(capsys, "doc", "caty-mini", "-o", tmp_path / "ref.md")
    assert code == 0 and os.listdir(tmp_path) == ["ref.md"]
    assert (tmp_path / "ref.md").read_text(encoding="utf-8").startswith("#")


# ------------------------------------------------- reading: paths that lead out
@pytest.mark.parametrize("name", ["/etc/passwd", "/dev/zero", "../secret.yaml", "sub/../../secret.yaml"])
def test_a_path_out_of_the_game_is_refused_at_its_name(tmp_path, name):
    """Absolute paths and '..' out are E108 at the name in game.yaml; the file is never read."""
    write(tmp_path / "secret.yaml", SECRET)
    folder = tiny(tmp_path / "game", game=GAME.replace("[house.yaml]", f"['{name}']"))
    d = refused(folder, "E108")
    text = (folder / "game.yaml").read_text()
    line = text[: text.index(name)].count("\n") + 1
    assert (d.path, d.line) == (str(folder / "game.yaml"), line) and name in d.message


@pytest.mark.parametrize("where", ["board", "include"])
def test_a_symlink_out_is_refused_and_one_inside_is_followed(tmp_path, where):
    """A link to a file outside the game's folders is E108; a link to a file inside them loads."""
    write(tmp_path / "secret.yaml", SECRET)
    folder = tiny(tmp_path / "game")
    name = "house.yaml" if where == "board" else "parts.yaml"
    os.rename(folder / name, folder / "real.yaml")
    os.symlink(folder / "real.yaml", folder / name)
    engine.load_game(folder)
    os.remove(folder / name)
    os.symlink(tmp_path / "secret.yaml", folder / name)
    assert name in refused(folder, "E108").message


PASSWD = "root:x:0:0:do-not-echo:/root:/bin/bash\n"  # read as YAML, a string a message would quote


@pytest.mark.parametrize("which", ["game.yaml", "variants/big.yaml"])
def test_a_game_or_variant_file_that_links_out_is_refused_unread(tmp_path, capsys, which):
    """Named by its place, not by a rule file, it must still stay in the game's folder: E108 at the link."""
    write(tmp_path / "passwd", PASSWD)
    folder = tiny(tmp_path / "games" / "tiny")
    link = folder / which
    link.parent.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    os.symlink(tmp_path / "passwd", link)
    for argv in (
        ["validate", folder],
        ["validate", link],
        ["play", folder, "--bot", "all=random", "--quiet", *(["--variant", "big"] if "variants" in which else [])],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 1 and f"{link}:1:1: E108 " in out + err and "do-not-echo" not in out + err, out + err
    _, out, err = run(capsys, "list", tmp_path / "games")
    assert "do-not-echo" not in out + err


def test_a_game_file_that_links_inside_its_folder_loads(tmp_path):
    folder = tiny(tmp_path / "tiny")
    os.rename(folder / "game.yaml", folder / "rules.yaml")
    os.symlink("rules.yaml", folder / "game.yaml")
    assert engine.load_game(folder).id == "tiny"


def test_a_saves_rules_whose_game_file_links_out_are_refused_unread(tmp_path, capsys):
    save = tmp_path / "mygame" / "save.json"
    folder = _save_tiny(tmp_path, capsys, save)
    write(tmp_path / "passwd", PASSWD)
    os.remove(folder / "game.yaml")
    os.symlink(tmp_path / "passwd", folder / "game.yaml")
    code, _, err = run(capsys, "replay", save)
    assert (
        code == 1
        and err == f"{folder / 'game.yaml'}:1:1: E108 is a link that leads out of the game's folder; it was not read\n"
    )


def test_a_symlink_to_a_device_is_refused(tmp_path):
    """A board file that links to /dev/zero (size 0 to stat) is refused, not read until memory runs out."""
    folder = tiny(tmp_path / "game")
    os.remove(folder / "house.yaml")
    os.symlink("/dev/zero", folder / "house.yaml")
    refused(folder, "E108")


def test_a_relative_path_inside_the_game_is_allowed(tmp_path):
    """The rule is about leaving the folders, not about slashes: sub/house.yaml loads."""
    folder = tiny(tmp_path / "game", tmp_path / "game" / "sub", game=GAME.replace("[house.yaml]", "[sub/house.yaml]"))
    assert engine.load_game(folder).board("house") is not None


# ------------------------------------------- reading: what is not a regular file
def test_a_fifo_as_board_file_is_refused_without_blocking(tmp_path, fifo):
    folder = tiny(tmp_path / "game")
    os.remove(folder / "house.yaml")
    fifo(folder / "house.yaml")
    d = refused(folder, "E109")
    assert d.path.endswith("house.yaml")


def test_validate_and_replay_refuse_a_fifo(tmp_path, capsys, fifo):
    """`validate` of a FIFO is E109; `replay` of one is a one-line error; neither opens it."""
    code, out, err = run(capsys, "validate", fifo(tmp_path / "game.yaml"))
    assert code == 1 and "E109" in out
    code, _, err = run(capsys, "replay", fifo(tmp_path / "save.json"))
    assert code == 1 and "not a regular file" in err and err.count("\n") == 1


def test_a_device_named_directly_is_not_read(tmp_path, capsys):
    """Even a path the user gives (not one inside a file) is read only if it is a regular file."""
    os.symlink(os.devnull, tmp_path / "null.yaml")
    code, out, _ = run(capsys, "validate", tmp_path / "null.yaml")
    assert code == 1 and "E109" in out


def test_an_oversize_board_file_is_e107(tmp_path):
    folder = tiny(tmp_path / "game")
    write(folder / "house.yaml", HOUSE + "# " + "x" * 2_000_001 + "\n")
    d = refused(folder, "E107")
    assert d.path.endswith("house.yaml")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_reading_is_bounded_by_bytes_not_by_the_size_stat_reports():
    """/proc files are regular and report size 0; the read still stops at the limit."""
    assert os.stat("/proc/self/status").st_size == 0
    with pytest.raises(engine.RulesError) as info:
        read_text("/proc/self/status", "status", limit=10)
    assert info.value.diagnostics[0].code == "E107"


# ------------------------------------------------------------ the alias bomb
def test_many_values_without_aliases_is_about_size():
    """A big file with no alias is E107 about values, never blamed on aliases."""
    text = "v: [" + ", ".join(["0"] * MAX_NODES) + "]\n"
    with pytest.raises(engine.RulesError) as info:
        parse_yaml(text, "big.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "E107" and "alias" not in d.format().lower()


def test_a_file_of_too_many_values_is_refused_at_the_first_value_past_the_bound(monkeypatch):
    """Well under the size limit, a file of twice the values allowed is refused as they are read, not after:
    libyaml's reader stops at the bound, and so does the pure-Python one that then words the message."""
    composed = counter(monkeypatch, yaml.composer.Composer, "compose_node")
    text = "v: [" + ", ".join(["0"] * (2 * MAX_NODES)) + "]\n"
    assert len(text) < MAX_FILE_BYTES
    with pytest.raises(engine.RulesError) as info:
        parse_yaml(text, "big.yaml")
    assert info.value.diagnostics[0].code == "E107" and composed[0] == 2 * MAX_NODES  # the next one was refused


def test_many_values_through_aliases_is_about_aliases():
    text = "a: &a [" + ", ".join(["0"] * 1000) + "]\nb: [" + ", ".join(["*a"] * 60) + "]\n"
    with pytest.raises(engine.RulesError) as info:
        parse_yaml(text, "bomb.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "E105" and "60 YAML aliases" in d.message


# --------------------------------------------------------- tampered saves
def _tampered(data: dict, how: str) -> dict:
    changes = {
        "game-path": ("game", "/etc/passwd"),
        "game-dots": ("game", "../../etc"),
        "variant-path": ("variant", "/etc/passwd.yaml"),
        "format": ("format", 7),
        "finished-text": ("finished", "yes"),
        "digest-short": ("digest", "abc"),
        "actions": ("actions", "go on"),
        "players-bool": ("players", True),
    }
    if how in ("no-digest", "no-finished"):
        del data[how[3:]]
    else:
        key, value = changes[how]
        data[key] = value
    return data


@pytest.mark.parametrize(
    "how",
    [
        "game-path",
        "game-dots",
        "variant-path",
        "format",
        "finished-text",
        "digest-short",
        "actions",
        "players-bool",
        "no-digest",
        "no-finished",
    ],
)
def test_a_tampered_save_is_refused_before_any_rules_are_read(tmp_path, capsys, how):
    """Saves name games by id; a path, a missing digest or a wrong field is one line, and nothing is read."""
    save = tmp_path / "save.json"
    save.write_text(json.dumps(_tampered(save_data(played(tmp_path)), how)))
    with pytest.raises(StateError):
        read_save(save)
    code, _, err = run(capsys, "replay", save)
    assert code == 1 and err.count("\n") == 1 and "root:" not in err


def test_a_deeply_nested_save_is_a_one_line_error(tmp_path, capsys):
    save = tmp_path / "save.json"
    save.write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = run(capsys, "replay", save)
    assert code == 1 and "nested too deeply" in err and err.count("\n") == 1


def test_a_save_whose_finished_flag_lies_is_noticed(tmp_path):
    data = save_data(played(tmp_path))
    data["finished"] = True
    with pytest.raises(StateError, match="different state"):
        replay(engine.load_game("caty-mini"), data)


def test_an_oversize_save_is_refused(tmp_path, monkeypatch):
    save = tmp_path / "save.json"
    write_save(played(tmp_path), save)
    monkeypatch.setattr("engine.runtime.saves.MAX_SAVE_BYTES", 100)
    with pytest.raises(StateError, match="larger than 100 bytes"):
        read_save(save)


# ------------------------------------------------- boards beside the game
def test_a_game_with_its_board_beside_game_yaml_loads_and_plays(tmp_path, capsys):
    folder = tiny(tmp_path / "anywhere" / "tiny")
    code, out, _ = play_tiny(capsys, folder, "1\n1\n")
    assert code == 0 and "game over" in out


@pytest.mark.parametrize("named", ["rules/tiny", "rules/tiny/game.yaml", "game.yaml", "."])
def test_a_game_named_by_a_relative_path_finds_its_boards(tmp_path, monkeypatch, named):
    """rules/<id>/ with boards in boards/<id>/, named relative to any working folder."""
    tiny(tmp_path / "rules" / "tiny", tmp_path / "boards" / "tiny")
    monkeypatch.chdir(tmp_path / "rules" / "tiny" if named in ("game.yaml", ".") else tmp_path)
    assert engine.load_game(named).board("house") is not None


def test_a_board_found_nowhere_names_both_places(tmp_path):
    folder = tiny(tmp_path / "rules" / "tiny")
    os.remove(folder / "house.yaml")
    d = load_fails(folder)[0]
    assert d.code == "E101" and "rules/tiny" in d.message and "boards/tiny" in d.message


# ------------------------------------------------ replaying games outside rules/
def play_tiny(capsys, folder: Path, answers: str, *argv) -> tuple[int, str, str]:
    """`tabletop play FOLDER ARGV…` with ``answers`` typed at the prompts."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdin", io.StringIO(answers))
        return run(capsys, "play", folder, *argv)


def _save_tiny(tmp_path, capsys, save: Path, *, answers: str = "1\n1\n") -> Path:
    folder = tiny(tmp_path / "mygame")
    play_tiny(capsys, folder, answers, "--save", save)
    return folder


def test_a_save_beside_its_rules_replays_without_help(tmp_path, capsys):
    save = tmp_path / "mygame" / "save.json"
    _save_tiny(tmp_path, capsys, save)
    assert read_save(save)["rules_path"] == str((tmp_path / "mygame").resolve())
    code, out, _ = run(capsys, "replay", save)
    assert code == 0 and "replayed 2 actions: game over" in out


def test_a_save_far_from_its_rules_says_how_to_point_at_them(tmp_path, capsys, monkeypatch):
    """Rules outside the save's folder and the working folder are not followed; the error names --rules."""
    (tmp_path / "saves").mkdir()
    save = tmp_path / "saves" / "save.json"
    folder = _save_tiny(tmp_path, capsys, save)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, _, err = run(capsys, "replay", save)
    assert code == 1 and f"--rules {folder.resolve()}" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "replay", save, "--rules", folder)
    assert code == 0 and "game over" in out


def test_a_save_of_an_unknown_game_without_a_folder_names_rules(tmp_path, capsys):
    save = tmp_path / "save.json"
    _save_tiny(tmp_path, capsys, save)
    data = json.loads(save.read_text())
    del data["rules_path"]
    save.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", save)
    assert code == 1 and "no shipped game named 'tiny'" in err and "--rules PATH" in err


# ------------------------------------------------ a rule error while saving
def test_a_rule_error_during_play_is_saved_and_replays_to_the_same_error(tmp_path, capsys):
    """The save ends with the action that failed, so `replay` stops on the very same diagnostic."""
    save = tmp_path / "mygame" / "save.json"
    _save_tiny(tmp_path, capsys, save, answers="2\n")
    data = read_save(save)
    assert data["actions"] == ["go fail"] and not data["finished"] and "E701" in data["stopped"]
    code, _, err = run(capsys, "replay", save)
    assert code == 1 and "E701" in err and data["stopped"] in err
