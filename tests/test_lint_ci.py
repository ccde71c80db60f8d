"""`tabletop lint` in CI and editors: output formats checked against their spec, project configuration,
inline suppressions, --fix, and the pre-commit hook run on a temporary repository."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from test_lint import CHOICE, EMPTIES, project_fixture  # noqa: F401  (the fixture `project`: a folder with the mini game)

from engine.cli import main
from engine.errors import Diagnostic
from engine.tools.lint.output import format_report

ROOT = Path(__file__).resolve().parents[1]
# SARIF 2.1.0 (its rtm.5 schema, as Microsoft ships it in the npm package @microsoft/jest-sarif, MIT)
SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif-2.1.0-rtm.5.json"
UNREAD = ('  log "after {turns} turns"\n', "")  # makes W303: variable 'turns' is never read


def edit(project: Path, old: str, new: str) -> Path:
    game_file = project / "rules" / "mini" / "game.yaml"
    text = game_file.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    game_file.write_text(text.replace(old, new), encoding="utf-8")
    return game_file


def lint(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["lint", *args])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ formats
def test_sarif_validates_against_the_sarif_2_1_0_schema(project, capsys):
    edit(project, *UNREAD)
    edit(project, "hand(me))\n", "hnad(me))\n")  # and an error
    code, out, _ = lint(capsys, "--format", "sarif", "rules")
    log = json.loads(out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)
    assert code == 1 and log["version"] == "2.1.0"
    run = log["runs"][0]
    results = {r["ruleId"]: r for r in run["results"]}
    assert set(results) == {"E501"}  # a game that does not load gets no warnings
    result = results["E501"]
    assert result["level"] == "error"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "E501"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "rules/mini/game.yaml"
    text = (project / "rules" / "mini" / "game.yaml").read_text(encoding="utf-8").splitlines()
    line = location["region"]["startLine"]
    assert text[line - 1][location["region"]["startColumn"] - 1 :].startswith("hnad")


def test_sarif_of_a_warning_and_of_a_clean_run(project, capsys):
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    code, out, _ = lint(capsys, "--format", "sarif", "rules")
    jsonschema.Draft4Validator(schema).validate(json.loads(out))
    assert code == 0 and json.loads(out)["runs"][0]["results"] == []
    edit(project, *UNREAD)
    code, out, _ = lint(capsys, "--format", "sarif", "rules")
    jsonschema.Draft4Validator(schema).validate(json.loads(out))
    [result] = json.loads(out)["runs"][0]["results"]
    assert code == 1 and result["ruleId"] == "W303" and result["level"] == "warning"
    assert "'turns' is never read" in result["message"]["text"]


def test_github_annotations(project, capsys):
    edit(project, *UNREAD)
    code, out, _ = lint(capsys, "--format", "github", "rules")
    line = next(
        i
        for i, t in enumerate((project / "rules" / "mini" / "game.yaml").read_text().splitlines(), 1)
        if t.startswith("  turns:")
    )
    assert code == 1
    assert out.splitlines() == [
        f"::warning file=rules/mini/game.yaml,line={line},col=3,title=W303::W303 variable "
        f"'turns' is never read by a rule (players still see it in their views; remove it "
        f"if it is only a leftover)"
    ]


def test_github_annotations_escape_what_would_break_the_command():
    """As the Actions toolkit escapes: % CR LF in the message; also : and , in properties."""
    d = Diagnostic("rules/a,b:c.yaml", 3, 4, "E501", "100% wrong\nhere")
    assert (
        format_report([d], "github")
        == "::error file=rules/a%2Cb%3Ac.yaml,line=3,col=4,title=E501::E501 100%25 wrong%0Ahere"
    )


def test_json_is_a_list_of_diagnostics(project, capsys):
    edit(project, *UNREAD)
    code, out, _ = lint(capsys, "--format", "json", "rules")
    found = json.loads(out)
    assert code == 1 and [d["code"] for d in found] == ["W303"]
    assert set(found[0]) == {"path", "line", "col", "code", "severity", "message", "hint"}
    assert lint(capsys, "--json", "rules")[1] == out


def test_json_and_another_format_is_a_usage_error(project, capsys):
    code, _, err = lint(capsys, "--json", "--format", "sarif", "rules")
    assert code == 2 and "--json and --format" in err


# ------------------------------------------------------------ configuration
def configure(project: Path, toml: str) -> None:
    (project / "pyproject.toml").write_text(toml, encoding="utf-8")


@pytest.mark.parametrize(
    "toml, reported",
    [
        ('[tool.tabletop.lint]\nignore = ["W303"]\n', []),
        ('[tool.tabletop.lint]\nignore = ["W3"]\n', []),
        ('[tool.tabletop.lint]\nselect = ["W4"]\n', []),
        ('[tool.tabletop.lint]\nselect = ["W3"]\n', ["W303"]),
        ('[tool.tabletop.lint.per-file-ignores]\n"rules/*/game.yaml" = ["W303"]\n', []),
        ('[tool.tabletop.lint.per-file-ignores]\n"rules/*/variants/*.yaml" = ["W303"]\n', ["W303"]),
        ("[tool.other]\nx = 1\n", ["W303"]),
    ],
)
def test_pyproject_selects_and_ignores_codes(project, capsys, toml, reported):
    edit(project, *UNREAD)
    configure(project, toml)
    code, out, _ = lint(capsys, "--json", "rules")
    assert [d["code"] for d in json.loads(out)] == reported and code == (1 if reported else 0)


def test_the_nearest_pyproject_above_the_linted_path_applies(project, capsys):
    edit(project, *UNREAD)
    configure(project, '[tool.tabletop.lint]\nignore = ["W303"]\n')
    os.chdir(project / "rules" / "mini")
    assert lint(capsys, "game.yaml")[0] == 0


def test_errors_are_reported_whatever_the_configuration(project, capsys):
    edit(project, "hand(me))\n", "hnad(me))\n")
    configure(project, '[tool.tabletop.lint]\nselect = ["W3"]\n')
    code, out, _ = lint(capsys, "--json", "rules")
    assert code == 1 and [d["code"] for d in json.loads(out)] == ["E501"]


@pytest.mark.parametrize(
    "toml, said",
    [
        ('[tool.tabletop.lint]\nignore = ["E501"]\n', "'E501' is an error; errors cannot be ignored"),
        ('[tool.tabletop.lint]\nignore = ["W999"]\n', "no code starts with 'W999'"),
        ('[tool.tabletop.lint]\nignore = "W303"\n', "ignore must be a list of codes"),
        ('[tool.tabletop.lint]\nignroe = ["W303"]\n', "has no setting 'ignroe'"),
        ("[tool.tabletop.lint\n", "not valid TOML"),
    ],
)
def test_a_bad_configuration_is_one_line_e110(project, capsys, toml, said):
    configure(project, toml)
    code, _, err = lint(capsys, "rules")
    assert code == 1 and "E110" in err and said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# ------------------------------------------------------------ suppressions
def test_a_suppression_with_a_reason_silences_its_line(project, capsys):
    edit(project, "  turns: {type: int}\n", "  turns: {type: int}  # tabletop: ignore[W303] shown to players only\n")
    edit(project, *UNREAD)
    assert lint(capsys, "rules")[0] == 0


def test_a_suppression_on_its_own_line_silences_the_next(project, capsys):
    edit(
        project,
        "  turns: {type: int}\n",
        "  # tabletop: ignore[W303, W304] shown to players only\n  turns: {type: int}\n",
    )
    edit(project, *UNREAD)
    assert lint(capsys, "rules")[0] == 0


def test_a_suppression_of_another_code_silences_nothing(project, capsys):
    edit(project, "  turns: {type: int}\n", "  turns: {type: int}  # tabletop: ignore[W304] not this one\n")
    edit(project, *UNREAD)
    _, out, _ = lint(capsys, "--json", "rules")
    assert [d["code"] for d in json.loads(out)] == ["W303"]


def test_a_suppression_without_a_reason_is_w901(project, capsys):
    game_file = edit(project, "  turns: {type: int}\n", "  turns: {type: int}  # tabletop: ignore[W303]\n")
    edit(project, *UNREAD)
    code, out, _ = lint(capsys, "--json", "rules")
    [d] = json.loads(out)
    line = next(i for i, t in enumerate(game_file.read_text().splitlines(), 1) if "tabletop: ignore" in t)
    assert code == 1 and d["code"] == "W901" and d["line"] == line and d["severity"] == "warning"


def test_a_suppression_in_an_effect_text(project, capsys):
    edit(project, CHOICE, EMPTIES)  # the hand runs out: W402
    _, out, _ = lint(capsys, "--json", "rules")
    assert [d["code"] for d in json.loads(out)] == ["W402"]
    edit(
        project,
        'c = choose "play" from hand(me)\n',
        'c = choose "play" from hand(me)  # tabletop: ignore[W402] the deck deals at least one card\n',
    )
    assert lint(capsys, "rules")[0] == 0


# --------------------------------------------------------------------- fix
VARIANT = """\
extends: mini
id: quick
name: Mini — quick
# the quick game counts turns the same way
variables:
  # the turn counter
  turns: {type: int}   # as the base
zones:
  # same deck
  - id: deck
      # face down, as in the base
    visibility: hidden
  - {id: hand, per: player, visibility: public}  # shown: the one change

players: {min: 2, max: 4}
"""

FIXED = """\
extends: mini
id: quick
name: Mini — quick
# the quick game counts turns the same way
# the turn counter
# as the base
zones:
  # same deck
  # face down, as in the base
  - {id: hand, per: player, visibility: public}  # shown: the one change

"""


def test_fix_removes_what_repeats_the_base_and_keeps_every_comment(project, capsys):
    variant = project / "rules" / "mini" / "variants" / "quick.yaml"
    variant.write_text(VARIANT, encoding="utf-8")
    _, out, _ = lint(capsys, "--json", "rules")
    assert [d["code"] for d in json.loads(out)] == ["W306"] * 3
    code, out, err = lint(capsys, "--fix", "rules")
    assert code == 0 and "no problems found" in out
    assert "removed 3 settings that repeat the base" in err
    assert variant.read_text(encoding="utf-8") == FIXED  # each comment stays where it was, at the setting's depth


def test_fix_keeps_no_hash_of_a_removed_value_as_a_comment(project, capsys):
    """A '#' inside quotes or inside a block of text is part of the value removed, not a comment."""
    ruling = '    question: "Does a # count?"\n    answer: |  # the answer\n      Yes.\n      # twice\n'
    edit(project, "    question: Does a spark count twice?\n    answer: Yes.\n", ruling)
    variant = project / "rules" / "mini" / "variants" / "quick.yaml"
    head = "extends: mini\nid: quick\nname: Quick\n"
    same = "rulings:\n  - id: spark-doubles\n" + ruling + "    test: tests/test_mini.py::test_spark\n"
    variant.write_text(head + same, encoding="utf-8")
    code, _, err = lint(capsys, "--fix", "rules")
    assert code == 0 and "removed 1 setting" in err
    assert variant.read_text(encoding="utf-8") == head + "# the answer\n"


def test_fix_leaves_a_setting_it_cannot_remove_safely(project, capsys):
    variant = project / "rules" / "mini" / "variants" / "quick.yaml"
    text = "extends: mini\nid: quick\nname: Quick\nvariables: {turns: {type: int}, extra: {type: int}}\n"
    variant.write_text(text, encoding="utf-8")
    code, out, _ = lint(capsys, "--fix", "--json", "rules")
    assert sorted(d["code"] for d in json.loads(out)) == ["W303", "W306"] and code == 1
    assert variant.read_text(encoding="utf-8") == text


def test_fix_respects_suppressions(project, capsys):
    variant = project / "rules" / "mini" / "variants" / "quick.yaml"
    text = (
        "extends: mini\nid: quick\nname: Quick\nplayers: {min: 2, max: 4}  # tabletop: ignore[W306] kept for readers\n"
    )
    variant.write_text(text, encoding="utf-8")
    assert lint(capsys, "--fix", "rules")[0] == 0
    assert variant.read_text(encoding="utf-8") == text


# --------------------------------------------------------------- pre-commit
def test_the_pre_commit_hook_runs_on_a_rules_repository(project, tmp_path_factory):
    """pre-commit itself, on a temporary git repository, with the hook as .pre-commit-hooks.yaml defines it;
    only its language becomes `system` so that pre-commit runs this checkout instead of installing it."""
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["entry"] == "tabletop lint" and hook["language"] == "python"
    shutil.rmtree(project / "tests")  # a rules repository: its rulings' tests live elsewhere
    edit(project, "    test: tests/test_mini.py::test_spark\n", "")
    (project / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": "local", "hooks": [dict(hook, language="system")]}]}), encoding="utf-8"
    )
    bin_dir = tmp_path_factory.mktemp("bin")
    shim = bin_dir / "tabletop"  # the `tabletop` of this checkout (the installed one may be another)
    shim.write_text(
        f"#!/bin/sh\nexec {sys.executable} -c 'import sys; from engine.cli import main; sys.exit(main())' \"$@\"\n",
        encoding="utf-8",
    )
    shim.chmod(0o755)
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        PYTHONPATH=str(ROOT),
        PRE_COMMIT_HOME=str(tmp_path_factory.mktemp("pre-commit-home")),
        GIT_CONFIG_GLOBAL=os.devnull,
    )

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(args, cwd=project, env=env, capture_output=True, text=True, check=False)

    run("git", "init", "-q")
    run("git", "add", "-A")
    clean = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "tabletop lint" in clean.stdout and "Passed" in clean.stdout
    edit(project, *UNREAD)
    run("git", "add", "-A")
    dirty = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert dirty.returncode == 1 and "Failed" in dirty.stdout
    assert "W303 variable 'turns' is never read" in dirty.stdout
