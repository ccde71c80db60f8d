"""A second load of unchanged rules reads from the compiled-game cache; anything changed or damaged is rebuilt.

Hits and misses are told apart by counting builds, parses and compiled procedures
(never by timing); a game read back must play exactly like the one built.  An
entry is unpickled only if the user's key signed it, in a folder no one else
can write.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import pickle
import random
import re
import stat
import subprocess
import sys
import textwrap
from importlib import import_module
from pathlib import Path

import pytest
from cache_helpers import counter, write_rules

from engine import RuntimeRuleError, load_game
from engine.lang import parser
from engine.load import cache, compiled_cache
from engine.load.documents import load_documents, resolve
from engine.load.schemas import check_document
from engine.runtime import gamedef, lower, reference

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "lark",
    "jsonschema",
    "networkx",
    "rich",
    "yaml",
    "engine.web",
    "engine.lab.playtest",
    "engine.lab.ray_backend",
    "ray",
)

GAME = """\
format: 3
id: mini
name: Mini
players: {min: 2, max: 2}
variables:
  n: {type: int}
play: |
  n = 1
  x = choose "pick" from [1, 2, 3]
  n = n + x
  end_game
"""
BOARD_USE = """\
boards:
  - {id: room, files: [room.yaml]}
zones:
  - {id: spot, per: room, visibility: public}
"""
ROOM = """\
id: room
kind: grid
source: original
cells: {{width: {w}, height: 1}}
rooms:
  - {{id: all, area: [0, 0, {x}, 0]}}
"""


@pytest.fixture
def work(monkeypatch):
    """Counts of what a load did: builds, parsed programs, compiled procedures."""
    build, parse, compiled = (
        counter(monkeypatch, owner, name)
        for owner, name in ((gamedef, "check"), (parser, "parse_program"), (reference.ReferenceCompiler, "procedure"))
    )
    return _Counts(build, parse, compiled)


class _Counts:
    def __init__(self, *counts: list[int]):
        self.counts = dict(zip(("build", "parse", "compile"), counts))

    def __getitem__(self, what: str) -> int:
        return self.counts[what][0]

    def now(self) -> dict[str, int]:
        return {what: n[0] for what, n in self.counts.items()}


@pytest.fixture
def mini(tmp_path):
    return write_rules(tmp_path, GAME)


def entries() -> list[Path]:
    return sorted(cache.folder().glob("*.game"))


def play(game, players: int, seed: int, decisions: int = 120):
    """A seeded random game: (every legal list, the final state as JSON)."""
    state, rnd, seen = game.new_game(players=players, seed=seed), random.Random(seed), []
    for _ in range(decisions):
        seen.append(state.legal_actions())
        if state.is_terminal:
            break
        state.apply(rnd.choice(seen[-1]))
    return seen, state.to_json()


def test_a_second_load_of_a_shipped_game_checks_and_parses_nothing_and_plays_the_same(work):
    built = load_game("cat-town")
    assert work["build"] == 1 and work["parse"] > 0 and work["compile"] > 0 and len(entries()) == 1
    parsed, compiled = work["parse"], work["compile"]
    kept = load_game("cat-town")
    assert (work["build"], work["parse"], work["compile"]) == (1, parsed, 2 * compiled) and kept is not built
    for players in (2, 4):
        for seed in range(3):
            assert play(kept, players, seed) == play(built, players, seed)


def test_a_game_is_frozen_facts_and_what_its_play_worked_out_is_not_kept_with_it():
    """None of a game's facts can be set; what its states worked out and kept (zones, what each seat sees) is in
    its cache, which a game of the same checked rules compiled again does not hold."""
    checked = gamedef.check(load_documents(*resolve("cat-town", None), check_document))
    built = checked.game()
    play(built, 3, 1)
    assert built.cache.zones and built.cache.sights
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.step_budget = 1
    kept = compiled_cache._Unpickler(io.BytesIO(compiled_cache._dump(checked))).load().game()
    assert not kept.cache.zones and not kept.cache.sights
    assert play(kept, 3, 1) == play(built, 3, 1)


class _Names(compiled_cache._Unpickler):
    """Reads an entry as the cache does, noting each name it holds."""

    def __init__(self, data: bytes):
        super().__init__(io.BytesIO(data))
        self.names: set[tuple[str, str]] = set()

    def find_class(self, module: str, name: str):
        self.names.add((module, name))
        return super().find_class(module, name)


@pytest.mark.parametrize("name", ["cat-town", "cats-mansion", "liars-dice"])
def test_an_entry_is_the_checked_game_as_data_and_holds_no_code(name, work):
    """Nothing read from disk is run: an entry names the engine's classes (a type by the function that interns
    it), paths and fractions, and no function; a load compiles the rules' texts again."""
    load_game(name)
    [entry] = entries()
    reader = _Names(cache.load(entry).partition(b"\n")[2])
    assert isinstance(reader.load(), gamedef.Checked)
    functions = {n for n in reader.names if not isinstance(getattr(import_module(n[0]), n[1]), type)}
    assert functions == {("engine.lang.types", "_intern")}


def test_a_signed_entry_naming_anything_but_the_engines_classes_is_never_unpickled(mini, work, tmp_path):
    """Even an entry the user's key signed (say, written by another engine of theirs) names nothing else."""
    load_game(mini)
    [entry] = entries()
    marker = tmp_path / "planted-code-ran"
    header = cache.load(entry).partition(b"\n")[0]
    cache.store(entry, header + b"\n" + pickle.dumps(Planted(marker)))
    assert load_game(mini).new_game(players=2).vars["n"] == 1
    assert not marker.exists() and work["build"] == 2


def test_a_board_game_read_back_plays_the_same(work):
    built = load_game("cats-mansion")
    kept = load_game("cats-mansion")
    assert work["build"] == 1
    assert play(kept, 2, 5) == play(built, 2, 5)


def test_a_changed_rule_file_is_rebuilt_and_its_change_is_seen(mini, work):
    assert load_game(mini).new_game(players=2).vars["n"] == 1
    mini.write_text(GAME.replace("n = 1", "n = 7"), encoding="utf-8")
    assert load_game(mini).new_game(players=2).vars["n"] == 7 and work["build"] == 2


def test_a_changed_board_file_is_rebuilt(mini, work):
    mini.write_text(GAME + BOARD_USE, encoding="utf-8")
    room = mini.parent / "room.yaml"
    room.write_text(ROOM.format(w=2, x=1), encoding="utf-8")
    assert len(load_game(mini).board("room").nodes) == 2
    room.write_text(ROOM.format(w=3, x=2), encoding="utf-8")
    assert len(load_game(mini).board("room").nodes) == 3 and work["build"] == 2


def corruptions(data: bytes) -> list[bytes]:
    """Ways an entry can be damaged: cut short, a flipped byte in the body, the MAC or the header, another format,
    empty."""

    def flipped(at: int) -> bytes:
        damaged = bytearray(data)
        damaged[at] ^= 0x01
        return bytes(damaged)

    mac = data.index(b"\n") + 1
    header = data.index(b"\n", mac) + 1
    return [
        data[: len(data) // 2],
        flipped(-10),
        flipped(mac + 3),
        flipped(header + 3),
        b"not an entry\n" + data[mac:],
        b"",
    ]


def test_a_corrupt_entry_is_rebuilt_not_trusted_and_made_whole_again(mini, work):
    play(load_game(mini), 2, 1)  # the entry holds the game's IR too, where a VM runs it
    [entry] = entries()
    good = entry.read_bytes()
    for n, damaged in enumerate(corruptions(good), start=2):
        entry.write_bytes(damaged)
        game = load_game(mini)
        assert work["build"] == n and play(game, 2, 1)[1] == play(load_game(mini), 2, 1)[1]
        assert work["build"] == n  # the rebuilt entry is whole again: the second load read it
        assert entry.read_bytes()[:50] == good[:50]


def test_an_entry_of_another_engine_is_never_read(mini, work, monkeypatch):
    load_game(mini)
    monkeypatch.setattr(cache, "_fingerprint", "another engine's source")
    load_game(mini)
    assert work["build"] == 2 and len(entries()) == 2


class Planted:
    """Unpickled, it makes the file ``marker``: the stand-in for any code a forged entry would run."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return Path.touch, (self.marker,)


def planted(genuine: bytes, marker: Path) -> bytes:
    """``genuine`` with its pickle swapped for a ``Planted`` one, and any SHA-256 of the body made to match."""
    evil = pickle.dumps(Planted(marker), protocol=5)
    head = genuine[: genuine.index(b"\n\x80\x05") + 1]  # everything before the pickle (its protocol 5 opcode)
    return re.sub(rb'"sha256": "[0-9a-f]{64}"', f'"sha256": "{hashlib.sha256(evil).hexdigest()}"'.encode(), head) + evil


def test_a_planted_entry_is_never_unpickled_and_the_game_still_loads(mini, work, tmp_path):
    """Whoever writes an entry without the user's key cannot make a load run their code."""
    load_game(mini)
    [entry] = entries()
    marker = tmp_path / "planted-code-ran"
    entry.write_bytes(planted(entry.read_bytes(), marker))
    assert load_game(mini).new_game(players=2).vars["n"] == 1
    assert not marker.exists() and work["build"] == 2


def test_an_entry_copied_over_another_ones_name_is_rebuilt(mini, work):
    """The MAC signs the entry's name: a game built with other overrides is not taken for this one."""
    mini.write_text(GAME.replace("n = 1", "n = start").replace("variables:", "constants: {start: 1}\nvariables:"))
    load_game(mini)
    [plain] = entries()
    load_game(mini, overrides={"constants.start": 4})
    [other] = [e for e in entries() if e != plain]
    plain.write_bytes(other.read_bytes())
    assert load_game(mini).new_game(players=2).vars["n"] == 1 and work["build"] == 3


def test_a_signed_entry_holding_another_type_is_rebuilt(mini, work):
    load_game(mini)
    [entry] = entries()
    header = cache.load(entry).partition(b"\n")[0]
    cache.store(entry, header + b"\n" + pickle.dumps(["not a game"]))
    assert load_game(mini).new_game(players=2).vars["n"] == 1 and work["build"] == 2


@pytest.mark.parametrize("damage", ["cut-short", "others-can-read", "a-folder"])
def test_a_damaged_key_is_replaced_and_its_entries_rebuilt(mini, work, damage):
    load_game(mini)
    key = cache.folder() / "key"
    if damage == "cut-short":
        key.write_bytes(key.read_bytes()[:16])
    elif damage == "others-can-read":
        key.chmod(0o644)
    else:
        key.unlink()
        key.mkdir()
    load_game(mini)
    load_game(mini)
    assert work["build"] == (2 if damage != "a-folder" else 3)
    if damage != "a-folder":
        assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32


@pytest.mark.parametrize("how", ["others-can-write", "group-can-write", "not-yours"])
def test_a_cache_folder_others_could_write_is_not_used(mini, work, tmp_path, monkeypatch, capsys, how):
    """Anyone who can write the folder could plant a key and entries: no cache, and one notice line."""
    shared = tmp_path / "shared"
    shared.mkdir()
    if how == "not-yours":
        uid = os.geteuid() + 1
        monkeypatch.setattr(os, "geteuid", lambda: uid)
    else:
        shared.chmod(0o777 if how == "others-can-write" else 0o770)
    monkeypatch.setenv("TABLETOP_CACHE", str(shared))
    for _ in range(3):
        load_game(mini)
    assert work["build"] == 3 and os.listdir(shared) == []
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("note: ") and str(shared) in err, err


def test_the_folder_and_its_new_parents_are_private_and_so_are_entries(mini, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_CACHE", str(tmp_path / "new" / "cache"))
    old_mask = os.umask(0o022)
    try:
        load_game(mini)
    finally:
        os.umask(old_mask)
    modes = {
        p.name: stat.S_IMODE(p.stat().st_mode)
        for p in (tmp_path / "new", tmp_path / "new" / "cache", *(tmp_path / "new" / "cache").iterdir())
    }
    assert modes.pop("new") == modes.pop("cache") == 0o700
    assert set(modes.values()) == {0o600} and len(modes) == 2, modes  # the key and the entry


def test_the_reference_path_and_rules_with_errors_are_never_kept(mini, work):
    load_game(mini, reference=True)
    load_game(mini, reference=True)
    assert work["build"] == 2 and entries() == []
    mini.write_text(GAME.replace("n = 1", "n = nonsense(1)"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(gamedef.RulesError):
            load_game(mini)
    assert work["build"] == 4 and entries() == []


def test_overrides_are_part_of_the_key(mini, work):
    text = GAME.replace("n = 1", "n = start").replace("variables:", "constants: {start: 1}\nvariables:")
    mini.write_text(text, encoding="utf-8")
    assert load_game(mini, overrides={"constants.start": 4}).new_game(players=2).vars["n"] == 4
    assert load_game(mini).new_game(players=2).vars["n"] == 1
    assert load_game(mini, overrides={"constants.start": 4}).new_game(players=2).vars["n"] == 4
    assert work["build"] == 2


def test_a_rule_failure_in_code_read_back_names_its_line(mini, work):
    mini.write_text(GAME.replace("n = 1", "n = first([]) + 1"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RuntimeRuleError) as info:
            load_game(mini).new_game(players=2)
        assert info.value.diagnostic.code == "E702" and info.value.diagnostic.line == 8
    assert work["build"] == 1


def run(code: str, cache: Path) -> list[str]:
    """Run ``code`` in a fresh interpreter of this checkout; its output lines."""
    env = dict(os.environ, TABLETOP_CACHE=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    return done.stdout.splitlines()


LOADED = f"import sys, json; print(json.dumps(sorted(m for m in sys.modules if m.startswith({HEAVY!r}))))"


def test_the_command_line_and_a_warm_validate_load_no_heavy_module(mini, tmp_path):
    """Validating from the cache needs no YAML reader, schema validator, parser, graph library or web parts."""
    assert json.loads(run("import engine.cli\n" + LOADED, tmp_path / "c")[-1]) == []
    validate = f"from engine.cli import main\nmain(['validate', {str(mini)!r}])\n"
    first = run(validate + LOADED, tmp_path / "c")
    assert first[0] == "no problems found" and "lark" in json.loads(first[-1])  # the first really checks
    second = run(validate + LOADED, tmp_path / "c")
    assert second[0] == "no problems found" and json.loads(second[-1]) == []


def test_a_game_read_back_loads_no_parser_schema_validator_or_graph_library(mini, tmp_path):
    """Play reads a board's tables; its graph is rebuilt only when a tool asks for it."""
    mini.write_text(GAME + BOARD_USE, encoding="utf-8")
    (mini.parent / "room.yaml").write_text(ROOM.format(w=2, x=1), encoding="utf-8")
    load = textwrap.dedent(f"""\
        from engine import load_game
        game = load_game({str(mini)!r})
        state = game.new_game(players=2)
        state.apply(state.legal_actions()[0])
        """)
    run(load, tmp_path / "c")
    loaded = json.loads(run(load + LOADED, tmp_path / "c")[-1])
    assert not {"lark", "jsonschema", "networkx", "rich"} & {m.split(".")[0] for m in loaded}
    tool = load + "print(sorted(game.board('room').graph.nodes))\n"
    assert run(tool, tmp_path / "c") == ["['a1', 'b1']"]


LOWERED = """\
from engine.runtime import lower
lowered, lowering = [0], lower.Lowerer.ir
def counted(self):
    lowered[0] += 1
    return lowering(self)
lower.Lowerer.ir = counted
from engine import load_game
game = load_game({path!r})
state = game.new_game(players=2)
state.apply(state.legal_actions()[1])
print(lowered[0], lower.native_game(game)[0] is not None, state.to_json())
"""


def test_a_warm_load_in_a_fresh_process_takes_the_ir_from_the_entry_and_lowers_nothing(mini, tmp_path):
    """The first process to run the game on the VM lowers it once and keeps the IR in the entry; every later
    process plays from that IR."""
    pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")
    code = LOWERED.format(path=str(mini))
    first = run(code, tmp_path / "c")[-1].split(" ", 2)
    assert first[:2] == ["1", "True"]
    for _ in range(2):
        assert run(code, tmp_path / "c")[-1].split(" ", 2) == ["0", "True", first[2]]


@pytest.fixture
def lowered(monkeypatch):
    """How many times a game has been lowered to the VM's IR."""
    pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")
    return counter(monkeypatch, lower.Lowerer, "ir")


def on_vm(path: Path):
    """A fresh load of ``path``, on the VM: its first state after choosing 3."""
    game = load_game(path)
    assert lower.native_game(game)[0] is not None
    state = game.new_game(players=2)
    state.apply(state.legal_actions()[2])
    return state.vars["n"]


def test_an_entry_whose_ir_was_tampered_with_is_rebuilt_and_the_game_lowered_again(mini, work, lowered):
    assert on_vm(mini) == 4 and lowered[0] == 1
    [entry] = entries()
    kept = entry.read_bytes()
    assert cache.load(entry).endswith(lower.ir_bytes(load_game(mini)))
    lowered[0] = 0
    entry.write_bytes(kept[:-3] + bytes([kept[-3] ^ 1]) + kept[-2:])  # the IR changed without the user's key
    assert on_vm(mini) == 4 and (work["build"], lowered[0]) == (2, 1)
    assert on_vm(mini) == 4 and (work["build"], lowered[0]) == (2, 1)


def test_a_game_that_does_not_lower_keeps_no_ir_and_is_lowered_again_next_time(mini, work, lowered, monkeypatch):
    def unsupported(_lowerer):
        raise lower.Unsupported("a construct the VM does not run")

    with monkeypatch.context() as patched:
        patched.setattr(lower.Lowerer, "ir", unsupported)
        game = load_game(mini)
        assert lower.native_game(game) == (None, "a construct the VM does not run")
        assert game.new_game(players=2).vars["n"] == 1
    assert on_vm(mini) == 4 and (work["build"], lowered[0]) == (1, 1)
