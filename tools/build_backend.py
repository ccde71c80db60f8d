"""The project's build backend: maturin, with the VM compiled against its committed execution profile.

The VM is an interpreter, so which of its branches and calls are hot is decided by the games it plays; with a
profile of the VM playing them (made by tools/vm_pgo.py), rustc/LLVM lays out and inlines the hot paths as they
run (profile-guided optimization). A profile names the functions of one rustc's build, so it is used only where
this rustc is the one that made it, and only where the builder set no RUSTFLAGS of their own; else, or if that
build fails, the VM is built plainly. The build prints which of the two it made and why.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import maturin
from maturin import (
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]

CRATE = Path(__file__).resolve().parents[1] / "engine" / "vm"
PROFILE = CRATE / "pgo" / "vm.profdata.xz"
MANIFEST = CRATE / "pgo" / "vm.profdata.json"


def sources_digest(crate: Path = CRATE) -> str:
    """SHA-256 of what the VM's machine code is compiled from: its Rust sources, manifest and lock file."""
    digest = hashlib.sha256()
    files = sorted([*crate.glob("src/**/*.rs"), crate / "Cargo.toml", crate / "Cargo.lock"])
    for path in files:
        digest.update(path.relative_to(crate).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def rustc_identity() -> dict[str, str]:
    """rustc's release, commit and LLVM version (``rustc -vV``); empty where rustc does not answer."""
    try:
        text = subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    return {key: fields[key] for key in ("release", "commit-hash", "LLVM version") if key in fields}


def profile_env(environ: dict[str, str], rustc: dict[str, str], unpack_to: Path = CRATE / "target" / "pgo"):
    """(the variables of a build that uses the committed profile, or None; why), for a build in ``environ`` by
    ``rustc``: RUSTFLAGS, and TABLETOP_VM_PROFILE, the profile's id, which the module keeps (``_vm.PROFILE``).
    The profile is unpacked into ``unpack_to`` (rustc reads it plain) once."""
    if environ.get("RUSTFLAGS") or environ.get("CARGO_ENCODED_RUSTFLAGS"):
        return None, "RUSTFLAGS are set: built with them, without the VM's profile"
    if not (PROFILE.is_file() and MANIFEST.is_file()):
        return None, "no profile of the VM in engine/vm/pgo: built without one"
    made_by = json.loads(MANIFEST.read_text())["rustc"]
    if rustc != made_by:
        return None, (
            f"the VM's profile was made by rustc {made_by.get('release')} (LLVM {made_by.get('LLVM version')}), "
            f"this is {rustc.get('release', 'unknown')}: built without it"
        )
    data = PROFILE.read_bytes()
    profile_id = hashlib.sha256(data).hexdigest()[:16]
    unpacked = unpack_to / f"{profile_id}.profdata"
    if not unpacked.is_file():
        unpacked.parent.mkdir(parents=True, exist_ok=True)
        for earlier in unpacked.parent.glob("*.profdata"):
            earlier.unlink()
        partial = unpacked.with_suffix(".partial")
        partial.write_bytes(lzma.decompress(data))
        partial.replace(unpacked)
    variables = {"RUSTFLAGS": f"-Cprofile-use={unpacked}", "TABLETOP_VM_PROFILE": profile_id}
    return variables, "built with the VM's profile (engine/vm/pgo)"


def _built(build: Callable[..., str], *args) -> str:
    """``build(*args)`` with the VM's profile where it can be used; plainly where not, or where that fails."""
    variables, why = profile_env(dict(os.environ), rustc_identity())
    os.environ.pop("TABLETOP_VM_PROFILE", None)  # a module says it has the profile only when built with it
    if variables is None:
        print(f"tabletop: {why}", flush=True)
        return build(*args)
    os.environ.update(variables)
    try:
        name = build(*args)
    except SystemExit:  # maturin's backend ends a failed build so
        name = None
    finally:
        for key in variables:
            del os.environ[key]
    if name is None:
        print("tabletop: the build with the VM's profile failed: building without it", file=sys.stderr, flush=True)
        return build(*args)
    print(f"tabletop: {why}", flush=True)
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    return _built(maturin.build_wheel, wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    return _built(maturin.build_editable, wheel_directory, config_settings, metadata_directory)
