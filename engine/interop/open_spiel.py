"""A tabletop game as an OpenSpiel game: ``load(game, players=…, variant=…)`` gives a ``pyspiel.Game``.

Actions are indexes into ``GameDef.action_space(players)``.  Chance is explicit: every draw the
rules make (a shuffle is one draw per place, Fisher–Yates) is a chance node whose outcomes are
equally likely (``State.apply(…, draws=…)`` and ``ChanceNeeded``).  Decisions are sequential by
default: of a simultaneous decision each seat chooses in turn, unseen by the others; with
``simultaneous=True`` such a decision is one simultaneous node.  Information-state and observation
strings and tensors come from ``engine.runtime.observe`` (the information-state tensor: the observation,
the decisions taken as the seat knows them, one slot each up to the game's bound, the information key's
bits, and at a chance node who decided and how much is drawn); ``resample_from_infostate`` is
``State.determinized``.  A game whose rules declare no ``max_decisions`` is cut off after
``max_decisions`` (a parameter) as a draw.

The game is registered with pyspiel as ``tabletop`` (parameters ``game``, ``variant``, ``players``,
``simultaneous``, ``max_decisions``), so ``pyspiel.load_game`` and OpenSpiel's serialization find it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from engine.errors import TabletopError
from engine.interop import game_of, library
from engine.runtime import observe, rng
from engine.runtime.state import ChanceEvent, ChanceNeeded

pyspiel: Any = library("pyspiel", "the OpenSpiel adapter")

__all__ = ["CUT_OFF", "TabletopGame", "TabletopState", "load"]

CUT_OFF = 1000  # decisions after which a game whose rules declare no bound is stopped (a draw)
SHORT_NAME = "tabletop"
SETTING_UP = "setting up"  # the strings of the first chance nodes, before the setup has drawn all it draws
_PARAMETERS = {"game": "", "variant": "", "players": 2, "simultaneous": False, "max_decisions": 0}


def _game_type(info, simultaneous: bool):
    Type = pyspiel.GameType
    return Type(
        short_name=SHORT_NAME,
        long_name="Tabletop game",
        dynamics=Type.Dynamics.SIMULTANEOUS if simultaneous else Type.Dynamics.SEQUENTIAL,
        chance_mode=Type.ChanceMode.EXPLICIT_STOCHASTIC if info.chance else Type.ChanceMode.DETERMINISTIC,
        information=(
            Type.Information.PERFECT_INFORMATION if info.perfect_information else Type.Information.IMPERFECT_INFORMATION
        ),
        utility=Type.Utility.ZERO_SUM if info.zero_sum else Type.Utility.GENERAL_SUM,  # a house: each on its own
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=info.players,
        min_num_players=info.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=_PARAMETERS,
    )


_RULES: dict[tuple, Any] = {}  # (game, variant) → its GameDef, loaded once a process


class _Drawing(NamedTuple):
    """At a chance node: the action taken (None: the game being set up), its seat, and the outcomes drawn so far.
    Never changed once made, so a copy of the state shares it (OpenSpiel copies a state's attributes deeply)."""

    action: str | None
    seat: int | None
    drawn: tuple[int, ...]

    def __deepcopy__(self, memo: dict) -> _Drawing:
        return self


class TabletopGame(pyspiel.Game):
    """The rules of one game, variant and table size, as OpenSpiel sees them."""

    def __init__(self, params=None):
        params = {**_PARAMETERS, **(params or {})}
        if not params["game"]:
            raise TabletopError("name the game: tabletop(game=NAME,players=N,…), or use engine.interop.open_spiel.load")
        key = (params["game"], params["variant"] or None)
        if key not in _RULES:  # OpenSpiel makes the game again for every state it reads back
            _RULES[key] = game_of(*key)
        self.rules = _RULES[key]
        self.players = int(params["players"])
        self.facts = self.rules.info(self.players)
        self.simultaneous = bool(params["simultaneous"]) and self.facts.simultaneous
        self.max_decisions = self.facts.max_decisions or int(params["max_decisions"]) or CUT_OFF
        self.space = self.rules.action_space(self.players)
        self.encoding = observe.encoding(self.rules, self.players)
        # a simultaneous node of a game without a declared bound is as many decisions as seats choose
        spread = self.players if self.simultaneous and not self.facts.max_decisions else 1
        self.information = observe.information_encoding(self.rules, self.players, self.max_decisions * spread)
        seats = tuple(f"seat {p} decided" for p in range(self.players))
        self.chance_part = observe.Part("chance", self.information.size, ("drawing", *seats, "drawn"))
        # the initial state's (engine state, drawing, event), worked out by the first: OpenSpiel makes an initial
        # state for every copy it makes of a state
        self.initial: tuple | None = None
        super().__init__(
            _game_type(self.facts, self.simultaneous),
            pyspiel.GameInfo(
                num_distinct_actions=len(self.space),
                max_chance_outcomes=max(len(self.rules.card_ids), 1) if self.facts.chance else 0,
                num_players=self.players,
                min_utility=self.facts.min_utility,
                max_utility=self.facts.max_utility,
                utility_sum=0.0 if self.facts.zero_sum else None,
                max_game_length=self.max_decisions,
            ),
            params,
        )

    def new_initial_state(self):
        return TabletopState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self, iig_obs_type)


class TabletopState(pyspiel.State):
    """One game: an engine state at a decision, or, at a chance node, the state it came from with the
    action taken and the outcomes drawn so far.  OpenSpiel copies and serializes it by pickling its
    attributes: the engine's state pickles as its plain data (``State.__reduce__``)."""

    def __init__(self, game: TabletopGame):
        super().__init__(game)
        self.n = game.players
        self.simultaneous = game.simultaneous
        self.limit = game.max_decisions
        self.state: Any = None  # the engine's State (None at the chance nodes of the setup, before it is dealt)
        self.pending: _Drawing | None = None  # at a chance node: what is being drawn for
        self.event: ChanceEvent | None = None  # at a chance node: the draw the rules make next
        self.decisions = 0
        self.resamples = 0  # copies dealt by ``resample_from_infostate``: each from its own seed
        if game.initial is None:
            self._run(None, None, [])
            game.initial = (self.state, self.pending, self.event)
        state, self.pending, self.event = game.initial
        self.state = state.clone() if state is not None else None

    # -------------------------------------------------------------- internal
    def _run(self, action: str | None, seat: int | None, drawn: list[int]) -> None:
        """Take ``action`` (None: set the game up) with the outcomes ``drawn``; a chance node if the rules draw more."""
        try:
            if action is None:
                self.state = self.get_game().rules.new_game(self.n, draws=drawn)
            else:
                self.state.apply(action, seat=seat, draws=drawn)
        except ChanceNeeded as need:
            self.pending, self.event = _Drawing(action, seat, tuple(drawn)), need.event
            return
        self.pending = self.event = None

    def _seat_to_act(self) -> int:
        return self.state.current_player

    def _is_cut_off(self) -> bool:
        return self.decisions >= self.limit

    # --------------------------------------------------------------- pyspiel
    def current_player(self):
        if self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self.state.is_terminal or self._is_cut_off():
            return pyspiel.PlayerId.TERMINAL
        if self.simultaneous and len(self.state.to_act) > 1:
            return pyspiel.PlayerId.SIMULTANEOUS
        return self._seat_to_act()

    def _legal_actions(self, player):
        if self.pending is not None or self._is_cut_off():
            return []
        return self.state.legal_action_indices(player)

    def chance_outcomes(self):
        return self.event.outcomes() if self.event is not None else []

    def _apply_action(self, action):
        if self.pending is not None:
            taken, seat, drawn = self.pending
            self._run(taken, seat, [*drawn, int(action)])
            return
        seat = self._seat_to_act()
        self.decisions += 1
        self._run(self.get_game().space[action], seat, [])

    def _apply_actions(self, actions):
        seats = self.state.to_act
        for seat in seats[:-1]:
            self.state.apply(self.get_game().space[actions[seat]], seat=seat)
        self.decisions += 1
        self._run(self.get_game().space[actions[seats[-1]]], seats[-1], [])

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {self.event.kind if self.event is not None else 'draw'} {action}"
        return self.get_game().space[action]

    def is_terminal(self):
        return self.pending is None and (self.state.is_terminal or self._is_cut_off())

    def returns(self):
        if self.pending is None and self.state.is_terminal:
            return self.state.returns()
        return [0.0] * self.n

    def information_state_string(self, player=None):
        player = self.current_player() if player is None else player
        if self.state is None:
            return SETTING_UP
        key = observe.information_key(self.state, player)
        if self.pending is None:
            return key
        return f"{key} {self.pending[1]} decided, {len(self.pending[2])} drawn"

    def observation_string(self, player=None):
        player = self.current_player() if player is None else player
        return observe.observation_text(self.state, player) if self.state is not None else SETTING_UP

    def observation_tensor(self, player=None):
        player = self.current_player() if player is None else player
        return self.tensor(player).tolist()

    def information_state_tensor(self, player=None):
        player = self.current_player() if player is None else player
        return self.information_tensor(player).tolist()

    def tensor(self, player: int) -> np.ndarray:
        """The seat's observation (``engine.runtime.observe``); zeros while the game is being set up."""
        encoding = self.get_game().encoding
        if self.state is None:
            return np.zeros(encoding.size, np.float32)
        return encoding.encode(self.state, player)

    def information_tensor(self, player: int) -> np.ndarray:
        """All the seat knows, past included, as ``information_state_string`` tells it: the information
        encoding, then, at a chance node after a decision, who decided and how many outcomes are drawn;
        zeros while the game is being set up."""
        game = self.get_game()
        chance = game.chance_part
        out = np.zeros(chance.offset + chance.size, np.float32)
        if self.state is None:
            return out
        out[: chance.offset] = game.information.encode(self.state, player)
        if self.pending is not None:
            _, seat, drawn = self.pending
            out[chance.offset] = 1
            out[chance.offset + 1 + seat] = 1
            out[chance.offset + chance.size - 1] = len(drawn)
        return out

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the seat cannot tell from this one: hidden cards dealt again (``State.determinized``)."""
        copy = self.clone()
        if self.pending is None:
            self.resamples += 1
            copy.state = self.state.determinized(player_id, rng.derive(self.state.seed, "resample", self.resamples))
        return copy

    def __str__(self):
        if self.state is None:
            return SETTING_UP
        return observe.observation_text(self.state, self.state.current_player or 0)


class _Observer:
    """OpenSpiel's observer protocol over ``engine.runtime.observe``: the tensor, and the strings."""

    def __init__(self, game: TabletopGame, iig_obs_type):
        self.game = game
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        parts = (*game.information.parts, game.chance_part) if self.perfect_recall else game.encoding.parts
        self.tensor = np.zeros(parts[-1].offset + parts[-1].size, np.float32)
        self.dict = {part.name: self.tensor[part.offset : part.offset + part.size] for part in parts}

    def set_from(self, state: TabletopState, player: int) -> None:
        self.tensor[:] = state.information_tensor(player) if self.perfect_recall else state.tensor(player)

    def string_from(self, state: TabletopState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


def load(game, players: int | None = None, variant: str | None = None, simultaneous: bool = False, max_decisions=0):
    """The pyspiel game of ``game`` (a name, a path or a loaded GameDef) at ``players`` seats (default: fewest)."""
    rules = game_of(game, variant)
    name = game if isinstance(game, str) else str(rules.rules.folder)
    _RULES[(name, rules.variant or None)] = rules  # the very definition given (it may hold overrides)
    params = {
        "game": name,
        "variant": rules.variant or "",
        "players": players or rules.min_players,
        "simultaneous": simultaneous,
        "max_decisions": max_decisions,
    }
    _register()
    return pyspiel.load_game(SHORT_NAME, params)


def _register() -> None:
    if SHORT_NAME not in [t.short_name for t in pyspiel.registered_games()]:
        pyspiel.register_game(_game_type(_DEFAULT_FACTS, False), TabletopGame)


class _DefaultFacts:
    """The registration's facts; each loaded game states its own (``_game_type``)."""

    players, chance, perfect_information, zero_sum = 2, True, False, True


_DEFAULT_FACTS = _DefaultFacts()
