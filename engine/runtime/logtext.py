"""Log lines formatted only when read.

An entry of ``State.log_entries`` is ``[audience, text]`` (who reads it: ``sight.hears``).  The text is kept as
``(format, value, …)`` until someone reads it: a simulated or searched game
writes a line at every decision and reads almost none.  The values are the
rules' own (never changed in place), so the text read later is the text the
line had when it was written.
"""

from __future__ import annotations


def log_text(entry: list) -> str:
    """The text of a log entry, formatted now if it was kept as ``(format, value, …)``."""
    text = entry[1]
    if text.__class__ is not str:
        text = entry[1] = text[0](*text[1:])  # entries are shared by copies: the same text for all
    return text


def seat_did(seat: str, action: str) -> str:
    """The line of a decision taken, ``seat`` as the log names it (``Labeller.seat_name``)."""
    return f"{seat}: {action}"
