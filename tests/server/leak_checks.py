"""What a seat may not learn before the end, and the checks that it does not.

A seat (or a spectator) cannot tell apart two positions that differ only in what is hidden
from it: the match seed, the order of every hidden pile (a pool, a bag, a deck, face-down
cards) and which unseen tile or card is where (the other seats' hands). :func:`world_like`
builds such a twin of a position for a viewer; everything the server sends the viewer (the
observation, the legal actions, a preview, the error a notation gets) must then be the same
in both. Besides, :class:`Scan` looks for the seed, the hidden tiles and the order of a hidden
pile in anything sent (the move log's events too, which the twin test cannot cover), and for
the match's other secrets it is given: the salt of its shuffle commitment and the digest of
its deal (the commitment itself is public).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from server_helpers import TILE

from triverse.core.errors import TriverseError
from triverse.core.game import State
from triverse.server.live import preview_of
from triverse.server.views import action_json, jsonable

RUN = 4
"""A hidden pile's order shows when this many of its items appear in a row, out of order."""
ID_RUN = 5
"""The same for a game whose cards are ids (Trivinity): longer than its lists of other small
numbers (a seat order, a score per seat), so that those are not taken for cards."""

SEED_LOW = 10**15
"""Seeds in these tests are at least this, so that no other number is mistaken for one."""


# --- twins ---------------------------------------------------------------------------------
def world_like(state: State[Any], viewer: int | None, rng: random.Random) -> State[Any]:
    """A position ``viewer`` cannot tell from ``state``: another seed, and what is hidden from
    the viewer dealt anew (same sizes, the viewer's own cards and announced tiles in place)."""
    twin = state.clone()
    twin.seed = rng.randrange(SEED_LOW, 2**63)
    name = state.game.name
    if name in ("triominoes", "trinity"):
        _tiles_like(twin, viewer, rng)
    elif name == "trident":
        _trident_like(twin, viewer, rng)
    elif name == "trivinity":
        _trivinity_like(twin, viewer, rng)
    elif not state.game.perfect_information:  # pragma: no cover - a new game needs a twin
        raise AssertionError(f"no twin maker for {name}")
    return twin


def _tiles_like(twin: Any, viewer: int | None, rng: random.Random) -> None:
    """Tri-ominoes, Trinity: the pool and the other hands dealt anew (announced tiles kept)."""
    fixed = set(twin.opening)
    others = [q for q in range(twin.game.num_players) if q != viewer]
    unseen = list(twin.pool[twin.pool_pos:])
    unseen += [t for q in others for t in twin.hands[q] if t not in fixed]
    rng.shuffle(unseen)
    for q in others:
        kept = [t for t in twin.hands[q] if t in fixed]
        take = len(twin.hands[q]) - len(kept)
        twin.hands[q] = dict.fromkeys(kept + unseen[:take])
        del unseen[:take]
    twin.pool = tuple(twin.pool[:twin.pool_pos]) + tuple(unseen)


def _trident_like(twin: Any, viewer: int | None, rng: random.Random) -> None:
    """Trident: the bag, the tiles aside and the other racks dealt anew."""
    others = [q for q in range(twin.game.num_players) if q != viewer]
    unseen = list(twin.bag) + list(twin.aside) + [t for q in others for t in twin.racks[q]]
    rng.shuffle(unseen)
    for q in others:
        size = len(twin.racks[q])
        twin.racks[q] = sorted(unseen[:size])
        del unseen[:size]
    size = len(twin.aside)
    twin.aside = sorted(unseen[:size])
    twin.bag = unseen[size:]


def _trivinity_like(twin: Any, viewer: int | None, rng: random.Random) -> None:
    """Trivinity: every deck reshuffled, the other seats' hands and decks mixed (each seat
    keeps its cards), and the face-down stack and Limbo cards the viewer has not seen dealt
    anew."""
    for q in range(twin.game.num_players):
        if q == viewer:
            twin.decks[q] = rng.sample(twin.decks[q], len(twin.decks[q]))
            continue
        cards = twin.hands[q] + twin.decks[q]
        rng.shuffle(cards)
        size = len(twin.hands[q])
        twin.hands[q] = sorted(cards[:size])
        twin.decks[q] = cards[size:]
    known = twin.known[viewer] if viewer is not None else frozenset()
    slots = [(s, i) for s, stack in enumerate(twin.stacks)
             for i in range(twin.buried[s], len(stack) - 1) if stack[i] not in known]
    unseen = [twin.stacks[s][i] for s, i in slots] + list(twin.limbo_down)
    rng.shuffle(unseen)
    twin.stacks = [stack.copy() for stack in twin.stacks]
    for (s, i), card in zip(slots, unseen, strict=False):
        twin.stacks[s][i] = card
    twin.limbo_down = sorted(unseen[len(slots):])


def answers(state: State[Any], viewer: int | None, notations: Sequence[str]) -> Any:
    """Everything ``viewer`` is told of ``state``: its observation and, when it is to move,
    its legal actions and what each of ``notations`` gets (an error or a preview)."""
    told: dict[str, Any] = {"observation": state.observation(viewer).to_json()}
    if viewer is None or state.is_terminal() or state.current_player != viewer:
        return told
    told["legal"] = [action_json(state, a) for a in state.legal_actions()]
    preview = preview_of(state)
    for text in notations:
        try:
            reason = state.illegal_reason(state.parse_action(text))
        except TriverseError as exc:
            reason = f"{type(exc).__name__}: {exc}"
        told[f"error {text}"] = reason
        if preview is not None:
            told[f"preview {text}"] = jsonable(preview(text))
    return told


def probes(state: State[Any], rng: random.Random, count: int = 4) -> list[str]:
    """Notations to try on the seat to move: some legal ones, and each with its numbers
    changed (other tiles, cards, cells), which mostly draw errors."""
    legal = [str(a) for a in state.legal_actions()]
    picked = rng.sample(legal, min(count, len(legal)))
    changed = [re.sub(r"\d+", lambda m: str(rng.randrange(0, 10 ** len(m[0]) + 1)), text)
               for text in picked]
    return picked + changed


# --- scans ---------------------------------------------------------------------------------
def hidden_tiles(state: Any, viewer: int | None) -> set[str]:
    """The tiles of a tile game hidden from ``viewer``: the other hands and the pool, less the
    tiles the rules announce for the opening."""
    hidden = {str(t) for t in state.pool[state.pool_pos:]}
    for q, hand in enumerate(state.hands):
        if q != viewer:
            hidden |= {str(t) for t in hand}
    return hidden - {str(t) for t in getattr(state, "opening", ())}


def hidden_piles(state: State[Any], viewer: int | None) -> list[list[Any]]:
    """The piles whose order is hidden from ``viewer``, top or next first: tiles as their
    values (Trident's numbers, the other games' names), Trivinity's cards as ids."""
    name = state.game.name
    n = state.game.num_players
    s: Any = state
    if name in ("triominoes", "trinity"):
        return ([[str(t) for t in s.pool[s.pool_pos:]]]
                + [[str(t) for t in s.hands[q]] for q in range(n) if q != viewer])
    if name == "trident":
        return ([list(reversed(s.bag)), list(s.aside)]
                + [list(s.racks[q]) for q in range(n) if q != viewer])
    if name == "trivinity":
        known = s.known[viewer] if viewer is not None else frozenset()
        return ([list(reversed(deck)) for deck in s.decks]
                + [list(s.hands[q]) for q in range(n) if q != viewer]
                + [[c for c in reversed(stack[s.buried[k]:-1]) if c not in known]
                   for k, stack in enumerate(s.stacks)])
    return []


def _runs(piles: Iterable[list[Any]], length: int, as_text: bool) -> set[tuple[Any, ...]]:
    """Every run of ``length`` items in a row of a pile that is out of sorted order (a sorted
    listing of a pile's contents shows nothing of its order); ``as_text``: the items as
    strings, as a view writes tiles (Trident's ``"4"`` too; Trivinity's cards are ids)."""
    out: set[tuple[Any, ...]] = set()
    for pile in piles:
        for k in range(len(pile) - length + 1):
            run = pile[k:k + length]
            if any(a > b for a, b in itertools.pairwise(run)):
                out.add(tuple(str(x) for x in run) if as_text else tuple(run))
    return out


def _lists(value: Any, length: int) -> Iterator[list[Any]]:
    """Every list of ``length`` scalars or more in a JSON value."""
    if isinstance(value, dict):
        for item in value.values():
            if isinstance(item, (dict, list)):
                yield from _lists(item, length)
    elif isinstance(value, list):
        nested = [item for item in value if isinstance(item, (dict, list))]
        if len(value) >= length and not nested:
            yield value
        for item in nested:
            yield from _lists(item, length)


class Scan:
    """What ``viewer`` may not be shown at one position: the seed, the hidden tiles (tile
    games), the order of a hidden pile, and ``secrets`` (the commitment's salt, the deal's
    digest: strings no other text holds)."""

    def __init__(self, state: State[Any], viewer: int | None,
                 secrets: Iterable[str] = ()) -> None:
        self.viewer = viewer
        self.seed = str(state.seed)  # of 16 digits or more: no other number holds it
        self.secrets = tuple(secrets)
        tiles = state.game.name in ("triominoes", "trinity")
        self.tiles = hidden_tiles(state, viewer) if tiles else set()
        ids = state.game.name == "trivinity"
        self.length = ID_RUN if ids else RUN
        self.runs = _runs(hidden_piles(state, viewer), self.length, not ids)

    def check(self, value: Any, where: str, allowed: Iterable[str] = ()) -> int:
        """Assert that ``value`` (JSON) shows nothing of this; the tile names checked."""
        text = json.dumps(value)
        assert self.seed not in text, f"{where}: the seed, for {self.viewer}: {text[:200]}"
        for secret in self.secrets:
            assert secret not in text, f"{where}: a secret {secret}, for {self.viewer}"
        found: set[str] = set()
        if self.tiles:
            found = set(TILE.findall(text))
            leak = (found & self.tiles) - set(allowed)
            at = text.find(min(leak)) if leak else 0
            assert not leak, (f"{where}: seat {self.viewer} sees hidden tiles {sorted(leak)}: "
                              f"...{text[max(0, at - 300):at + 100]}...")
        if self.runs:
            runs, length = self.runs, self.length
            for items in _lists(value, length):
                for k in range(len(items) - length + 1):
                    run = tuple(items[k:k + length])
                    assert run not in runs, (
                        f"{where}: seat {self.viewer} sees the order of a hidden pile {run}")
        return len(found)
