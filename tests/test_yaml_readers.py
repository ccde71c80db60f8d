"""Rule files are read by libyaml where it reads them as PyYAML's pure-Python reader does, and by the latter
everywhere else: the same data, the same place for every value, the same messages for a broken file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from cache_helpers import counter
from tool_helpers import REPO, load_tool

import engine
from engine.load import yaml_source
from engine.load.kept import Kept
from engine.load.yaml_source import parse_yaml

SHIPPED = sorted(p for folder in ("rules", "boards") for p in (REPO / folder).rglob("*.yaml"))


def pure_python(monkeypatch: pytest.MonkeyPatch, text: str, path: str):
    """``parse_yaml`` with every text sent to the pure-Python reader: its Document, or its diagnostics."""
    with monkeypatch.context() as mp:
        mp.setattr(yaml_source, "_PYTHON_ONLY", re.compile(""))
        mp.setattr(yaml_source, "_READ", Kept(1))  # read now, not the Document kept from the fast read
        return read(text, path)


def read(text: str, path: str):
    try:
        return parse_yaml(text, path)
    except engine.RulesError as exc:
        return exc.diagnostics


def test_every_shipped_file_is_read_by_libyaml_with_every_value_in_the_same_place(monkeypatch):
    """Each shipped rule, variant, component and board file: no pure-Python reading, and the same data, places of
    values and keys, and places of the text inside each string as the pure-Python reader finds."""
    assert len(SHIPPED) > 20
    texts = {str(p.relative_to(REPO)): p.read_text(encoding="utf-8") for p in SHIPPED}
    monkeypatch.setattr(yaml_source, "_READ", Kept(64))  # each read now, none kept from the tests before
    python_reads = counter(monkeypatch, yaml.reader.Reader, "__init__")
    fast_reads = counter(monkeypatch, yaml_source._FastLoader, "__init__")
    documents = {path: read(text, path) for path, text in texts.items()}
    assert fast_reads == [len(texts)]
    assert python_reads == [0]
    for path, doc in documents.items():
        assert isinstance(doc, yaml_source.Document), path
        assert doc == pure_python(monkeypatch, texts[path], path), path


@pytest.mark.parametrize(
    "line",
    [
        "name\t: Miau card",  # a tab before the colon
        "start: character\tİs",  # a tab inside a plain text
    ],
)
def test_a_tab_libyaml_would_take_is_the_error_pyyaml_finds(line):
    """PyYAML refuses a tab that libyaml lets through: the designer gets PyYAML's E102, at the tab."""
    text = f"kind: card\n{line}\n"
    with pytest.raises(engine.RulesError) as info:
        parse_yaml(text, "parts.yaml")
    (d,) = info.value.diagnostics
    assert (d.code, d.line, d.col) == ("E102", 2, line.index("\t") + 1)
    assert d.message == (
        "YAML syntax error: found character '\\t' that cannot start any token (while scanning for the next token)"
    )


def test_mutated_files_read_the_same_by_either_reader(monkeypatch):
    """The fuzzer's mutants of the shipped files (truncated, junk inserted, indentation broken, lines deleted or
    repeated, keys duplicated, values changed…): the Document or the diagnostics are the pure-Python reader's."""
    fuzz_rules = load_tool("fuzz_rules")
    games = ["caty-mini", "cat-town", "cats-mansion"]
    ws = fuzz_rules.Workspace(games)
    fast = 0
    try:
        for i in range(40):
            m = fuzz_rules.make_mutant(ws, games, 7, i)
            try:
                text = m.content.decode("utf-8")
            except UnicodeDecodeError:  # refused before any YAML is read
                continue
            doc = read(text, m.file)
            fast += isinstance(doc, yaml_source.Document)
            assert doc == pure_python(monkeypatch, text, m.file), f"mutant {i}: {m.description}"
    finally:
        ws.close()
    assert fast >= 10, "too few mutants read cleanly to compare the two readers"


def test_a_text_without_newline_at_the_end_reads_as_with_one(monkeypatch):
    """The last line's values keep their places when the file does not end in a line break."""
    text = Path(REPO / "rules" / "caty-mini" / "game.yaml").read_text(encoding="utf-8").rstrip("\n")
    assert read(text, "game.yaml") == pure_python(monkeypatch, text, "game.yaml")


def test_a_file_read_again_is_not_parsed_again_and_each_reader_gets_data_of_its_own(monkeypatch):
    """A game's files are read again as each of its variants loads: the second reading composes nothing, and
    what one caller does to its Document's data is not seen by the next."""
    text = (REPO / "rules" / "caty-mini" / "components.yaml").read_text(encoding="utf-8")
    first = parse_yaml(text, "components.yaml")
    composed = counter(monkeypatch, yaml.composer.Composer, "compose_node")
    second = parse_yaml(text, "components.yaml")
    assert composed == [0] and second == first
    first.data["components"][0]["kind"] = "changed"
    first.data["components"].clear()
    first.positions.clear()
    assert second != first and parse_yaml(text, "components.yaml") == second
    assert parse_yaml(text, "other/components.yaml").path == "other/components.yaml"


def test_a_pyyaml_built_without_libyaml_reads_and_validates_every_game(tmp_path):
    """PyYAML installed from source on a machine without libyaml has no C loader: every file is then read by
    the pure-Python reader, and the games load as before."""
    script = (
        "import yaml\n"
        "del yaml.CSafeLoader\n"
        "yaml.__with_libyaml__ = False\n"
        "from engine import load_game\n"
        "from engine.load import yaml_source\n"
        "assert yaml_source._FastLoader is None\n"
        "print(load_game('caty-mini', reference=True).id)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "TABLETOP_CACHE": str(tmp_path)},
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "caty-mini", done.stderr[-2000:]
