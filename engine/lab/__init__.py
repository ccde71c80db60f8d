"""Many games at once: simulation, the playtest lab and its report, the Ray backend, and the invariants every
game keeps."""
