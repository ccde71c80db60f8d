"""How the VM is built: tools/build_backend.py compiles it against its committed execution profile
(engine/vm/pgo, made by tools/vm_pgo.py) where the rustc at hand made that profile, else plainly; a profile
made from other sources than the tree's fails here, as it would slow the VM silently."""

import json
import lzma
import os

import pytest
from tool_helpers import load_tool

backend = load_tool("build_backend")
MADE_BY = json.loads(backend.MANIFEST.read_text())["rustc"]
LLVM_INDEXED_PROFILE = b"\xfflprofi\x81"  # the magic of an indexed LLVM instrumentation profile


def test_the_vm_profile_was_made_from_the_vm_sources_as_they_are():
    made_from = json.loads(backend.MANIFEST.read_text())["sources"]
    assert made_from == backend.sources_digest(), (
        "the VM's sources changed since its profile was made: run python tools/vm_pgo.py "
        "(it needs the llvm-profdata of rustc's LLVM)"
    )


def test_the_sources_digest_follows_every_source_of_the_crate(tmp_path):
    crate = tmp_path / "vm"
    (crate / "src" / "deep").mkdir(parents=True)
    for name in ("Cargo.toml", "Cargo.lock", "src/lib.rs", "src/deep/ops.rs"):
        (crate / name).write_text(name)
    first = backend.sources_digest(crate)
    (crate / "src" / "deep" / "ops.rs").write_text("changed")
    second = backend.sources_digest(crate)
    (crate / "Cargo.lock").write_text("changed")
    third = backend.sources_digest(crate)
    assert len({first, second, third}) == 3
    (crate / "README.md").write_text("not compiled")
    (crate / "examples").mkdir()
    (crate / "examples" / "playouts.rs").write_text("not in the module")
    assert backend.sources_digest(crate) == third


def test_the_build_uses_the_profile_where_this_rustc_made_it(tmp_path):
    (tmp_path / "0123456789abcdef.profdata").write_bytes(b"an earlier profile")
    variables, why = backend.profile_env({"PATH": os.environ.get("PATH", "")}, MADE_BY, tmp_path)
    [unpacked] = tmp_path.glob("*.profdata")
    assert variables == {"RUSTFLAGS": f"-Cprofile-use={unpacked}", "TABLETOP_VM_PROFILE": unpacked.stem}
    assert "with the VM's profile" in why
    assert unpacked.read_bytes() == lzma.decompress(backend.PROFILE.read_bytes())
    assert unpacked.read_bytes().startswith(LLVM_INDEXED_PROFILE)


@pytest.mark.parametrize("field", ["release", "commit-hash", "LLVM version"])
def test_another_rustc_builds_the_vm_plainly_and_says_why(tmp_path, field):
    other = {**MADE_BY, field: "0.0.0"}
    variables, why = backend.profile_env({}, other, tmp_path)
    assert variables is None and not list(tmp_path.iterdir())
    assert why.endswith("built without it") and MADE_BY["release"] in why


@pytest.mark.parametrize("variable", ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS"])
def test_a_builders_own_rustflags_win(tmp_path, variable):
    variables, why = backend.profile_env({variable: "-Ctarget-cpu=native"}, MADE_BY, tmp_path)
    assert variables is None and why.startswith("RUSTFLAGS are set")


def test_a_failed_build_with_the_profile_is_built_again_without_it(monkeypatch, capsys):
    monkeypatch.delenv("RUSTFLAGS", raising=False)
    monkeypatch.setenv("TABLETOP_VM_PROFILE", "set by someone")
    variables = {"RUSTFLAGS": "-Cprofile-use=p", "TABLETOP_VM_PROFILE": "p"}
    monkeypatch.setattr(backend, "profile_env", lambda environ, rustc: (variables, "with it"))
    seen = []

    def build(directory):
        seen.append((os.environ.get("RUSTFLAGS"), os.environ.get("TABLETOP_VM_PROFILE")))
        if len(seen) == 1:
            raise SystemExit(1)  # as maturin's backend ends a failed build
        return "tabletop.whl"

    assert backend._built(build, "wheels") == "tabletop.whl"
    assert seen == [("-Cprofile-use=p", "p"), (None, None)]
    assert "RUSTFLAGS" not in os.environ and "TABLETOP_VM_PROFILE" not in os.environ
    assert "building without it" in capsys.readouterr().err


def test_a_build_with_the_profile_returns_the_wheel_and_leaves_the_environment_as_it_was(monkeypatch, capsys):
    monkeypatch.delenv("RUSTFLAGS", raising=False)
    variables = {"RUSTFLAGS": "-Cprofile-use=p", "TABLETOP_VM_PROFILE": "p"}
    monkeypatch.setattr(backend, "profile_env", lambda environ, rustc: (variables, "built with it"))
    assert backend._built(lambda directory: "tabletop.whl", "wheels") == "tabletop.whl"
    assert "RUSTFLAGS" not in os.environ and "TABLETOP_VM_PROFILE" not in os.environ
    assert capsys.readouterr().out == "tabletop: built with it\n"


def test_the_installed_vm_says_which_profile_it_was_compiled_against(tmp_path):
    """The module this suite runs was built by pip through the backend: with the committed profile wherever this
    rustc made it (CI's machines), so that a build falling back to the plain one without a word is seen."""
    _vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")
    variables, why = backend.profile_env({}, backend.rustc_identity(), tmp_path)
    expected = None if variables is None else variables["TABLETOP_VM_PROFILE"]
    assert expected == _vm.PROFILE, f"{why}; the installed VM's: {_vm.PROFILE} (reinstall: python -m pip install -e .)"


def test_the_project_builds_through_its_backend():
    import tomllib

    system = tomllib.loads((backend.CRATE.parents[1] / "pyproject.toml").read_text())["build-system"]
    assert system["build-backend"] == "build_backend" and system["backend-path"] == ["tools"]
    assert {"build_wheel", "build_editable", "build_sdist", "prepare_metadata_for_build_wheel"} <= set(backend.__all__)
    assert all(callable(getattr(backend, hook)) for hook in backend.__all__)


def test_making_a_profile_without_llvm_profdata_of_rustcs_llvm_says_what_to_install(monkeypatch):
    pgo = load_tool("vm_pgo")
    monkeypatch.setattr(pgo.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match=r"^no llvm-profdata of LLVM 22 \(rustc's\): apt-get install llvm-22$"):
        pgo.llvm_profdata("22.1.2")
