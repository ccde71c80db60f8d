"""The reserved words of the effect language and what each means (for ``tabletop explain``, the docs, and
parse errors that name a reserved word as such).

Most are keywords of the grammar (``parser.grammar``; a test checks that each keyword is here); ``me``,
``it`` and ``this`` are names the language gives a value where they appear.
"""

from __future__ import annotations

__all__ = ["IMPLICIT", "RESERVED"]

IMPLICIT = ("me", "it", "this")  # names with a value the language sets, not keywords of the grammar

RESERVED: dict[str, str] = {
    "me": "the player whose rules are running: the current player in the play program, the player who "
    "plays a card in its effect; setting it (me = p) makes p the current player",
    "it": "inside a 'where' condition, the option being tested: choose from hand(me) where it.cost < 3; "
    "inside a 'by:' key, the item being weighed: max(hand(me), by: it.cost)",
    "this": "inside a card's effect, the card itself: this.power",
    "true": "the true/false value 'true'",
    "false": "the true/false value 'false'",
    "none": "no value: what an optional choice gives when the player passes, or the top of an empty zone",
    "choose": 'x = choose "verb" from OPTIONS …: a player decides; the game waits for the answer',
    "from": "in 'choose … from OPTIONS', the options; in 'window p from PLAYER', who is asked first",
    "several": 'x = choose "verb" several [A to B] from LIST: the player picks between A and B of the items '
    "(any number without 'A to B'); the choice is a list, its members in the order of their ids",
    "where": "in 'choose … where COND', keeps the options for which COND holds (the option is 'it')",
    "by": "in 'choose … by PLAYER', who chooses (the current player, me, unless 'by'); in max(LIST, by: KEY), "
    "min and sorted, what the items are weighed by",
    "optional": "in 'choose … optional', the player may pass (the choice is then none); "
    "'optional \"decline\"' names the action",
    "secretly": "in 'choose … secretly', the others' logs do not say what was chosen",
    "each": "in 'choose … by each p in PLAYERS simultaneously', every one of PLAYERS chooses (p names the "
    "chooser in the options)",
    "simultaneously": "in 'choose … by each p in PLAYERS simultaneously', the players choose in secret and in "
    "any order; the choices are revealed together as a list, one per player in the order of PLAYERS",
    "window": "window p from PLAYER: …: asks each player in turn, from PLAYER, whether to respond",
    "reopen": "inside a window: ask every player again (after a response)",
    "close": "inside a window: end it at once (a cancelling response); nothing after it in its block runs",
    "end_game": 'end_game ["reason"]: the game ends now; scoring decides the winners',
    "log": 'log "text with {expressions}" [to PLAYER]: a line in the game log',
    "to": "in 'log … to PLAYER', the one player who sees the line",
    "for": "for x in LIST: …: the block once per item; also [EXPR for x in LIST if COND] builds a list",
    "in": "in 'for x in LIST' the list walked; as an operator, 'a in LIST' is true when a is among its items",
    "while": "while COND: …: the block as long as COND holds (bounded by the step budget)",
    "repeat": "repeat N: …: the block N times",
    "if": "if COND: … [elif COND: …] [else: …]; also 'A if COND else B', a value",
    "elif": "in an if statement: the next condition tried when the ones above did not hold",
    "else": "in an if statement: the block run when no condition held; in 'A if COND else B', the other value",
    "break": "inside a for, while or repeat loop: leave it at once",
    "continue": "inside a for, while or repeat loop: go on with its next round, skipping the rest of the block",
    "pass": "a statement that does nothing (a block must hold at least one)",
    "return": "leave the procedure (or card effect) being run; nothing after it in its block runs; "
    "'return VALUE' gives the value of a function or of a procedure that declares 'returns:'",
    "and": "a and b: true when both are (b is not looked at when a is false)",
    "or": "a or b: true when either is (b is not looked at when a is true)",
    "not": "not a: true when a is false; 'a not in LIST': a is not among the items",
}
