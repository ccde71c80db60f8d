"""CHANGELOG.md tells every format and deprecation of engine/load/formats.py's table, so the two cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

from engine.load.formats import DEPRECATIONS, ENGINE_VERSION, RULES_FORMATS, SAVE_FORMATS

CHANGELOG = (Path(__file__).resolve().parents[1] / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_changelog_has_a_section_for_this_version():
    assert re.search(rf"^## \[{re.escape(ENGINE_VERSION)}\] - \d{{4}}-\d\d-\d\d$", CHANGELOG, re.M)
    assert CHANGELOG.index("## [Unreleased]") < CHANGELOG.index(f"## [{ENGINE_VERSION}]")


def test_each_rules_format_has_its_section_dated_as_the_table_says():
    for f in RULES_FORMATS:
        date = f.since.split(", ")[1]
        assert f"### Rules format {f.number} ({date})" in CHANGELOG, f.number


def test_each_breaking_change_has_a_migration_note():
    sections = re.split(r"^### ", CHANGELOG, flags=re.M)
    for f in RULES_FORMATS[1:]:
        [section] = [s for s in sections if s.startswith(f"Rules format {f.number} ")]
        notes = re.findall(r"^- \*\*", section, re.M)
        assert len(notes) >= len(f.changes), f.number
        assert section.count("*Migration") + section.count("`upgrade` adds") >= len(f.changes), f.number


def test_each_save_format_is_named():
    for f in SAVE_FORMATS:
        assert re.search(rf"\b[Ss]ave format {f.number}\b", CHANGELOG), f.number


def test_each_deprecation_is_in_the_table_with_its_formats():
    for d in DEPRECATIONS:
        row = rf"^ *\| {d.code} \| [^|]+ \| {d.deprecated_in} \| {d.removed_in} \| [^|]+ \|$"
        assert re.search(row, CHANGELOG, re.M), d.code
