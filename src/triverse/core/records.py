"""Game records: a finished (or unfinished) game as JSON, and its faithful replay.

A record holds the format and its version, the game with its options, the players, the seed
(and, where the opening was given explicitly, the ``setup``), the commitment to the game's
randomness (:mod:`triverse.core.fairness`), the actions in notation, and the result.
``docs/records.md`` documents the format; :mod:`triverse.core.verify` checks a record's
commitment.

>>> from triverse.core.plugins import available_games, load_game
>>> state = load_game(available_games()[0]).new_initial_state(seed=3)  # any game
>>> for _ in range(5):
...     _ = state.apply(next(state.legal_actions()))
>>> record = Record.from_state(state, ["Ann", "Bob"])
>>> Record.loads(record.dumps()) == record
True
>>> replay(record).scores == state.scores
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from triverse.core.errors import IllegalActionError, NotationError, OptionError, RecordError
from triverse.core.events import Event
from triverse.core.fairness import Commitment, new_salt
from triverse.core.game import Result, State
from triverse.core.plugins import game_class, load_game

FORMAT = "triverse-record"
VERSION = 3
"""The format version written."""
OLD_VERSIONS = (1, 2)
"""The older format versions still read. A game whose rules changed since says, in
:attr:`Game.record_options <triverse.core.game.Game.record_options>`, which options such a
record leaves out and with which values it replays as it was played."""
PLAYER_KINDS = ("human", "novice", "average", "veteran")


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A seat: a display name and who plays it (``human`` or a computer level)."""

    name: str
    kind: str = "human"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind}


@dataclass(frozen=True)
class Record:
    """One game, as saved. Equal records replay identically."""

    game: str
    players: tuple[PlayerInfo, ...]
    seed: int
    actions: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    setup: Mapping[str, Any] | None = None
    result: Result | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    """Free-form details (dates, the server's game id); not used by the replay."""
    commitment: Commitment | None = None
    """The commitment to the game's randomness, its salt and its deal (``None`` in a record
    of version 1 or 2, or one written without it)."""

    @classmethod
    def from_state(
        cls,
        state: State[Any],
        players: Sequence[str | PlayerInfo],
        meta: Mapping[str, Any] | None = None,
        salt: str | None = None,
    ) -> Record:
        """The record of everything played so far in ``state``, with the commitment to its
        randomness under ``salt`` (the one published at its start; a fresh one if omitted)."""
        infos = tuple(p if isinstance(p, PlayerInfo) else PlayerInfo(p) for p in players)
        if len(infos) != state.game.num_players:
            raise RecordError(
                f"{len(infos)} players named for a game of {state.game.num_players}"
            )
        return cls(
            game=state.game.name,
            players=infos,
            seed=state.seed,
            actions=tuple(str(a) for a in state.history),
            options=dict(state.game.options),
            setup=state.setup(),
            result=state.result() if state.is_terminal() else None,
            meta=dict(meta or {}),
            commitment=Commitment.of(state, new_salt() if salt is None else salt),
        )

    # --- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
            "seed": self.seed,
            "setup": dict(self.setup) if self.setup is not None else None,
            "commitment": self.commitment.to_json() if self.commitment is not None else None,
            "actions": list(self.actions),
            "result": self.result.to_json() if self.result is not None else None,
            "meta": dict(self.meta),
        }

    def dumps(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_json(), indent=indent, sort_keys=False)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Check and read a record; :class:`RecordError` names the first thing wrong.

        A record of an older version (:data:`OLD_VERSIONS`) gets the options it left out that
        name the rules it was played under (the game's ``record_options``), so that it replays
        as it was played.
        """
        record, version = _checked_header(data)
        game = _field(record, "game", str)
        seed = _field(record, "seed", int)
        players = _players(_field(record, "players", list))
        actions = _field(record, "actions", list)
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise RecordError(f"actions[{i}] must be a string in notation, not {a!r}")
        options = record.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        if version != VERSION:
            options = {**_record_options(game, version), **options}
        setup = record.get("setup")
        if setup is not None and not isinstance(setup, dict):
            raise RecordError("'setup' must be an object or null")
        result = _result(record.get("result"))
        meta = record.get("meta") or {}
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be an object")
        raw_commitment = record.get("commitment") if version == VERSION else None
        commitment = None if raw_commitment is None else Commitment.from_json(raw_commitment)
        return cls(game, tuple(players), seed, tuple(actions), options, setup, result, meta,
                   commitment)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        return cls.loads(text)

    # --- replay ----------------------------------------------------------------------------------
    def initial_state(self) -> State[Any]:
        try:
            game = load_game(self.game, len(self.players), **dict(self.options))
        except OptionError as exc:
            raise RecordError(f"the record's game cannot be set up: {exc}") from None
        state: State[Any] = game.new_initial_state(seed=self.seed, setup=self.setup)
        return state

    def steps(
        self, state: State[Any] | None = None
    ) -> Iterator[tuple[int, str, State[Any], list[Event]]]:
        """Re-apply each action in turn: ``(index, notation, state after it, its events)``.

        ``state`` is the initial state to replay on (a new one if omitted); it is changed in
        place. Raises :class:`ReplayError` naming the first action that does not parse or is
        illegal.
        """
        if state is None:
            state = self.initial_state()
        for index, text in enumerate(self.actions):
            try:
                events = state.apply_notation(text)
            except (NotationError, IllegalActionError) as exc:
                raise ReplayError(index, text, str(exc)) from None
            yield index, text, state, events


def _record_options(game: str, version: int) -> Mapping[str, Any]:
    """The options an older record of ``game`` leaves out (none for a game not installed:
    its replay fails on that, with a clear error)."""
    try:
        cls = game_class(game)
    except OptionError:
        return {}
    return cls.record_options.get(version, {})


class ReplayError(RecordError):
    """A record's action does not parse, is illegal, or the result differs from the replay."""

    def __init__(self, index: int | None, action: str | None, reason: str) -> None:
        self.index = index
        self.action = action
        self.reason = reason
        where = f"action {index + 1} ({action!r})" if index is not None else "the result"
        super().__init__(f"{where}: {reason}")


def replay(record: Record, *, check_result: bool = True) -> State[Any]:
    """Replay ``record`` to its last action and return the state.

    With ``check_result``, a record that states a result must end in a finished game with
    exactly that result.
    """
    state = record.initial_state()
    for _ in record.steps(state):
        pass
    if check_result and record.result is not None:
        if not state.is_terminal():
            raise ReplayError(None, None, "the record states a result but the game is not over")
        actual = state.result()
        if actual != record.result:
            raise ReplayError(
                None, None,
                f"the record says scores {list(record.result.scores)} and places "
                f"{list(record.result.ranks)}; the replay gives {list(actual.scores)} "
                f"and {list(actual.ranks)}",
            )
    return state


def _checked_header(data: object) -> tuple[dict[str, Any], int]:
    """A record (a JSON object of the Triverse format, of a version this Triverse reads) and
    its version."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a Triverse record: 'format' is {data.get('format')!r}, "
                          f"not {FORMAT!r}")
    version = data.get("version")
    if type(version) is not int or (version != VERSION and version not in OLD_VERSIONS):
        readable = ", ".join(str(v) for v in sorted([*OLD_VERSIONS, VERSION]))
        raise RecordError(f"record version {version!r} is not supported "
                          f"(this Triverse reads versions {readable})")
    return data, version


def _players(raw_players: list[Any]) -> list[PlayerInfo]:
    """A record's players, each an object with a ``name`` and a known ``kind``."""
    players = []
    for i, p in enumerate(raw_players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise RecordError(f"players[{i}] must be an object with a 'name'")
        kind = p.get("kind", "human")
        if kind not in PLAYER_KINDS:
            raise RecordError(f"players[{i}].kind is {kind!r}; it is one of "
                              f"{', '.join(PLAYER_KINDS)}")
        players.append(PlayerInfo(p["name"], kind))
    return players


def _result(raw_result: Any) -> Result | None:
    """A record's result (``None``: the record does not give one)."""
    if raw_result is None:
        return None
    try:
        return Result.from_json(raw_result)
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"'result' is malformed: {exc}") from None


def _field(data: Mapping[str, Any], name: str, kind: type) -> Any:
    if name not in data:
        raise RecordError(f"the record has no {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{name!r} must be a {kind.__name__}, not {value!r}")
    return value
