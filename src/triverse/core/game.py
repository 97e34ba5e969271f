"""The game model: a configured :class:`Game` and the :class:`State` of one play of it.

Every Triverse game subclasses these two. A :class:`Game` is immutable: a rule set, a player
count and resolved options (including a named rule ``variant`` where the game has one). A
:class:`State` is one position: it lists legal actions lazily, applies one at a time, returns the
events that happened, and knows whose turn it is and the scores. A multi-action turn (play a
card, buy one, end the turn) is simply several actions in a row by the same player.

Chance comes from the state's integer ``seed`` through :func:`triverse.core.rng.derive`, so the
same seed and the same actions always give the same game.

Hidden information never leaves a state except through :meth:`State.observation`, and a
computer player that needs a full state to search builds one with :meth:`Game.determinize` from
an observation: it cannot see what its seat may not.

>>> from triverse.core.plugins import available_games, load_game
>>> for name in available_games():
...     state = load_game(name).new_initial_state(seed=1)
...     events = state.apply(next(state.legal_actions()))
...     assert sum(e.points for e in events) == sum(state.scores), name
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from triverse.core.errors import GameOverError, IllegalActionError, OptionError
from triverse.core.events import Event
from triverse.core.messages import (
    CORE_MESSAGES,
    YOU,
    Text,
    message_of,
    second_person,
    template_text,
)
from triverse.core.options import OptionSpec, OptionValue, resolve_options
from triverse.core.rng import fresh_seed


class Action(Protocol):
    """What every game's action type provides: a stable text notation.

    Actions are frozen dataclasses, hashable and comparable; ``str(action)`` is its notation and
    ``game.parse_action(str(action)) == action``.
    """

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


A = TypeVar("A", bound=Action)
S = TypeVar("S", bound="State[Any]")


def rank_by_score(scores: Sequence[int]) -> tuple[int, ...]:
    """Competition ranks, highest score first; equal scores share a place.

    >>> rank_by_score([10, 30, 10, 5])
    (2, 1, 2, 4)
    """
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)


@dataclass(frozen=True, slots=True)
class Result:
    """The final standings: every seat's score and place (1 is first; ties share a place)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]

    @classmethod
    def from_scores(cls, scores: Sequence[int]) -> Result:
        return cls(tuple(scores), rank_by_score(scores))

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (several on a draw)."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "ranks": list(self.ranks)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        return cls(tuple(int(s) for s in data["scores"]), tuple(int(r) for r in data["ranks"]))


class Observation(ABC):
    """What one seat (or a spectator, ``player is None``) may see of a state.

    Subclasses are frozen dataclasses. :meth:`to_json` is the only form in which a state's
    contents leave the server.
    """

    player: int | None

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """JSON types only; nothing the seat may not see."""

    @abstractmethod
    def to_tensor(self) -> list[float]:
        """A fixed-length numeric encoding (length ``game.tensor_size``) for learning agents."""


class Game(ABC, Generic[S, A]):
    """A game definition with its player count and options resolved.

    Subclasses declare the class attributes below and implement the abstract methods.
    """

    name: ClassVar[str]
    """Machine name, used in the CLI, records and URLs, and the name of its plugin."""
    title: ClassVar[str]
    """Display name, as players write it."""
    summary: ClassVar[str]
    """One sentence for the lobby."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 2
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    """Declared options. A game with rule variants declares a ``variant`` choice option."""
    variants: ClassVar[Mapping[str, str]] = {}
    """Named rule variants and what each changes; the first is the seed's rules."""
    perfect_information: ClassVar[bool] = False
    """True when no seat ever has hidden information."""
    record_options: ClassVar[Mapping[int, Mapping[str, OptionValue]]] = {}
    """By older record format version: the options such a record leaves out, because they did
    not exist yet, with the values that give the rules it was played under
    (:data:`triverse.core.records.OLD_VERSIONS`)."""
    messages: ClassVar[Mapping[str, str]] = {}
    """English templates of the game's message codes (docs/messages.md), for renderers."""

    @classmethod
    def texts(cls) -> Iterator[Text]:
        """Every English text of the game's own data that players read: its title and summary,
        its options' helps and labels (with their choices' labels and explanations), its
        variants' descriptions and its message templates (core's included, as clients receive
        them), for the translation catalogues. A game whose data holds more (card texts, say)
        adds them.
        """
        yield Text("game", cls.title)
        yield Text("game", cls.summary)
        for spec in cls.option_specs:
            yield Text("option", spec.help)
            if spec.label:
                yield Text("option", spec.label)
            for label, explanation in spec.choice_labels.values():
                yield Text("option", label)
                yield Text("option", explanation)
        for description in cls.variants.values():
            yield Text("variant", description)
        messages = {**CORE_MESSAGES, **cls.messages}
        for code, template in messages.items():
            if template and not code.startswith(("name:", YOU)):
                yield template_text(cls.name, code, template)
                you = second_person(code, messages)
                if you:  # said to the player it is about, in the same context
                    yield template_text(cls.name, code, you)

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        players = self.default_players if players is None else players
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError(f"the number of players is a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        self.num_players: int = players
        self.options: Mapping[str, OptionValue] = resolve_options(self.option_specs, options)

    def option(self, name: str) -> OptionValue:
        return self.options[name]

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(players={self.num_players}{opts})"

    def __eq__(self, other: object) -> bool:
        return (
            type(self) is type(other)
            and isinstance(other, Game)
            and self.num_players == other.num_players
            and dict(self.options) == dict(other.options)
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.num_players, tuple(sorted(self.options.items()))))

    def to_json(self) -> dict[str, Any]:
        return {"game": self.name, "players": self.num_players, "options": dict(self.options)}

    def new_initial_state(
        self, seed: int | None = None, setup: Mapping[str, Any] | None = None
    ) -> S:
        """The start of a game. ``seed`` drives every chance event (a fresh one if omitted).

        ``setup`` is an explicit opening (for example the hands and the order of the draw pile)
        in the game's documented JSON form; chance after it still comes from ``seed``.
        """
        return self._initial_state(fresh_seed() if seed is None else seed, setup)

    @abstractmethod
    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> S:
        """Build the initial state; raise :class:`RecordError` for a bad ``setup``."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Parse an action's notation (syntax only); raise :class:`NotationError`."""

    @abstractmethod
    def determinize(self, observation: Any, rng: random.Random) -> S:
        """A full state consistent with ``observation``, hidden parts sampled from ``rng``."""

    # --- integer action ids, for OpenSpiel and PettingZoo -----------------------------------
    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """The size of the integer action space used by :meth:`State.encode_action`."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions in one game."""

    @property
    @abstractmethod
    def tensor_size(self) -> int:
        """The length of :meth:`Observation.to_tensor`."""

    def client_data(self) -> dict[str, Any]:
        """Public data a client needs to draw this game, the same in every position (JSON
        types): a card game's table of card texts, say. The server serves it once,
        cacheable."""
        return {}

    def render_text(self, observation: Observation) -> str:
        """A plain-text picture of what ``observation`` shows, for the terminal."""
        import json

        return json.dumps(observation.to_json(), indent=1)

    def describe_action(self, action: A) -> str:
        """A short English description of an action, for menus and logs."""
        return str(action)

    @property
    def min_score(self) -> int:
        """A lower bound on a final score (for OpenSpiel's utility range)."""
        return -10_000

    @property
    def max_score(self) -> int:
        """An upper bound on a final score."""
        return 10_000


class State(ABC, Generic[A]):
    """One position of a game.

    The base class keeps the scores, the action history and the seed; subclasses keep the rest
    and implement the abstract methods. Scores change only through :meth:`_score`, which also
    makes the event, so a score is always the sum of its score events.
    """

    def __init__(self, game: Game[Any, A], seed: int) -> None:
        self.game = game
        self.seed = seed
        self.scores: list[int] = [0] * game.num_players
        self.history: list[A] = []

    # --- what subclasses implement -------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def legal_actions(self) -> Iterator[A]:
        """Lazily generate the legal actions of the current player (none when terminal)."""

    @abstractmethod
    def illegal_reason(self, action: A) -> str | None:
        """Why ``action`` is illegal here, or ``None`` if it is legal: a
        :class:`~triverse.core.messages.Reason` (English text with a message code)."""

    @abstractmethod
    def _apply(self, action: A) -> list[Event]:
        """Apply a legal action and return its events. Never called with an illegal one."""

    @abstractmethod
    def observation(self, player: int | None) -> Observation:
        """What ``player`` may see (``None``: a spectator, the public view only)."""

    @abstractmethod
    def clone(self) -> State[A]:
        """An independent copy, cheap enough for search (no deep copies of immutable parts)."""

    @abstractmethod
    def encode_action(self, action: A) -> int:
        """The action's integer id in ``range(game.num_distinct_actions)`` in this state."""

    @abstractmethod
    def decode_action(self, action_id: int) -> A:
        """The action for an id; raise :class:`IllegalActionError` for an id that means none."""

    @abstractmethod
    def setup(self) -> dict[str, Any] | None:
        """The explicit opening this state was built from (``None`` if it came from the seed)."""

    @abstractmethod
    def deal(self) -> dict[str, Any]:
        """The randomness fixed at the start of this game, as JSON (notation strings, whole
        numbers), in the order the game will use it: the tiles in the order they are dealt and
        drawn, the order of play, the cards of each deck... (each game's rules document says
        which keys). It depends on the seed, the options and the setup alone (it is the same
        in every position of one game), and costs about as much as a new initial state.

        A game's commitment hashes it (:func:`triverse.core.fairness.game_commitment`); chance
        that comes later (a new round's shuffle, a reshuffled discard pile) is derived from the
        seed as the game goes, and a replay of the record checks it.
        """

    # --- shared behaviour ------------------------------------------------------------------------
    def _copy_base_into(self, other: State[A]) -> None:
        """Copy the base fields into a fresh clone (call from :meth:`clone`)."""
        other.game = self.game
        other.seed = self.seed
        other.scores = self.scores.copy()
        other.history = self.history.copy()

    def _score(
        self,
        player: int,
        points: int,
        kind: str,
        label: str,
        *,
        secret: Mapping[str, Any] | None = None,
        code: str = "",
        params: Mapping[str, Any] | None = None,
        **data: Any,
    ) -> Event:
        """Change ``player``'s score by ``points`` and return the event that says so.

        ``secret`` holds what only ``player`` may see (the tile a draw brought, say); ``code``
        and ``params`` are the event's message.
        """
        self.scores[player] += points
        return Event(kind, player, points, label, data, secret, code, params or {})

    def describe_action(self, action: A) -> str:
        """A short English description of ``action`` here, for menus and logs.

        The game's description, unless the state knows more (which card a hand slot holds).
        """
        return self.game.describe_action(action)

    def legal_action_list(self) -> list[A]:
        return list(self.legal_actions())

    def is_legal(self, action: A) -> bool:
        return not self.is_terminal() and self.illegal_reason(action) is None

    def apply(self, action: A) -> list[Event]:
        """Apply ``action`` for the current player and return what happened.

        Raises :class:`IllegalActionError` (the state unchanged) when the rules forbid it.
        """
        if self.is_terminal():
            raise GameOverError(f"{action}: the game is over", action=str(action))
        reason = self.illegal_reason(action)
        if reason is not None:
            code, params = message_of(reason)
            raise IllegalActionError(f"{action}: {reason}", code, action=str(action), **params)
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: A) -> list[Event]:
        """Apply an action known to be legal (one from :meth:`legal_actions`), for search."""
        events = self._apply(action)
        self.history.append(action)
        return events

    def parse_action(self, text: str) -> A:
        """Parse notation and check legality: :class:`NotationError` or
        :class:`IllegalActionError` says what is wrong."""
        action: A = self.game.parse_action(text)
        if self.is_terminal():
            raise GameOverError(f"{text}: the game is over", action=str(action))
        reason = self.illegal_reason(action)
        if reason is not None:
            code, params = message_of(reason)
            raise IllegalActionError(f"{text}: {reason}", code, action=str(action), **params)
        return action

    def apply_notation(self, text: str) -> list[Event]:
        return self.apply_unchecked(self.parse_action(text))

    def result(self) -> Result:
        """The standings: by score unless a game decides otherwise (tiebreakers)."""
        return Result.from_scores(self.scores)

    def determinize(self, player: int, rng: random.Random) -> State[A]:
        """A full state consistent with what ``player`` sees; built from the observation only."""
        determinized: State[A] = self.game.determinize(self.observation(player), rng)
        return determinized

    @property
    def move_number(self) -> int:
        """How many actions have been applied: the server's guard against stale intents."""
        return len(self.history)
