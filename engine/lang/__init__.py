"""The effect language: grammar, parser, typed AST, types, checker and the table of operations — everything that
reads or checks rule text, nothing that runs it."""
