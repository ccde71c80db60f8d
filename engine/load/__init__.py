"""Reading a game's files: safe YAML with positions, documents and variant overlays, JSON Schema checks, and the
signed caches of checked and compiled games."""
