"""Problems found in a text of the effect language, apart from the parser.

The checker and the game builder report these too, and code that only runs
compiled rules imports the checker's vocabulary: keeping them here lets that
code load without the parser library.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DslProblem:
    """A problem at (line, col) inside a DSL text."""

    line: int
    col: int
    code: str
    message: str
    hint: str | None = None


class DslSyntaxError(Exception):
    def __init__(self, problem: DslProblem):
        self.problem = problem
        super().__init__(problem.message)
