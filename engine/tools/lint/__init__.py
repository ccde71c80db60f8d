"""``tabletop lint``: the checks, a project's configuration, fixes, and output formats."""
