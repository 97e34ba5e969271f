"""Trivinity for people: the terminal picture of an observation, prompts, action descriptions.

>>> from triverse.games.trivinity.engine import TrivinityGame, TrivinityAction
>>> game = TrivinityGame(2, {"module_1": "world", "module_2": "disasters"})
>>> state = game.new_initial_state(seed=3)
>>> text = game.render_text(state.observation(state.current_player))
>>> "Your hand" in text and "Stack 9" in text
True
>>> state.describe_action(TrivinityAction("end"))
'end: end the turn and draw 5'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from triverse.games.trivinity.cards import RESOURCES, CardTable
from triverse.games.trivinity.rules import frame_steps, total_score
from triverse.games.trivinity.text import (
    TIER_MARKS,
    card_text,
    cost_text,
    short_cost,
    short_worth,
    step_text,
    worth_text,
)

if TYPE_CHECKING:
    from triverse.games.trivinity.actions import TrivinityAction
    from triverse.games.trivinity.engine import TrivinityGame
    from triverse.games.trivinity.observation import TrivinityObservation
    from triverse.games.trivinity.rules import Pending
    from triverse.games.trivinity.state import TrivinityState


def card_json(table: CardTable, instance: int) -> dict[str, Any]:
    """One physical card for clients: its design and its English text."""
    card = table.card(instance)
    module = table.module(card.module)
    return {
        "id": instance,
        "key": card.key,
        "name": card.name,
        "module": card.module,
        "symbol": module.symbol,
        "glyph": module.glyph,
        "tier": card.tier,
        "cost": {**dict(zip(RESOURCES, card.cost.typed, strict=True)), "any": card.cost.any},
        "worth": dict(zip(RESOURCES, card.worth, strict=True)),
        "text": card_text(card),
        "until_next_turn": card.delayed,
        "reaction": card.reaction,
    }


def label(table: CardTable, instance: int) -> str:
    """A card in a list: ``Divine Forge (T2, 2P+3, worth 3P)``."""
    card = table.card(instance)
    if card.tier == 0:
        return card.name
    return f"{card.name} (T{card.tier} {short_cost(card.cost)}, worth {short_worth(card.worth)})"


def names(table: CardTable, cards: Any) -> str:
    return ", ".join(table.card(c).name for c in cards) or "-"


def prompt(state: TrivinityState, pending: Pending) -> str:
    """The question a pending decision asks, in English."""
    if pending.kind == "free":
        return "take a tier-1 card for free from stack 1, 2 or 3 (you discarded your hand)"
    table = state.table
    card = table.card(pending.card)
    if pending.kind == "block":
        return (f"player {pending.owner + 1}'s {card.name} attacks you: block with a reaction "
                f"card from your hand, or pass")
    if pending.kind == "card" and pending.victim >= 0:
        return f"{card.name} attacks you: discard a card of your choice"
    if pending.kind == "seat":
        return f"choose the opponent {card.name} attacks"
    step = frame_steps(table, table.design_of[pending.card], pending.part)[pending.index]
    return f"{card.name}: {step_text(step)}"


def describe(action: TrivinityAction) -> str:
    """The notation, for a bare action (a state's ``describe_action`` names the card too)."""
    return str(action)


def _stack_cell(table: CardTable, obs: TrivinityObservation, s: int) -> list[str]:
    view = obs.stacks[s]
    head = f"Stack {s + 1} ({view.count})"
    if view.top < 0:
        return [head, " empty"]
    card = table.card(view.top)
    lines = [head, f" {card.name} [{TIER_MARKS[card.tier]}{_glyph(table, view.top)}]",
             f" cost {short_cost(card.cost)}", f" worth {short_worth(card.worth)}",
             f" {view.face_down} face down"]
    lines += [f" under: {table.card(c).name}" for c in view.buried]
    if view.known:
        lines.append(" you have seen, under the top:")
        lines += [f"  {d}. {table.card(c).name}" for d, c in sorted(view.known)]
    return lines


def _glyph(table: CardTable, instance: int) -> str:
    return table.module(table.card(instance).module).glyph


def render_observation(game: TrivinityGame, obs: TrivinityObservation) -> str:
    """A plain-text picture of everything ``obs`` shows."""
    table = game.table
    out: list[str] = []
    who = "spectator" if obs.player is None else f"player {obs.player + 1}"
    modules = ", ".join(f"P{q + 1} {table.module(m).name}" for q, m in enumerate(obs.modules))
    out.append(f"Trivinity, seen by {who}. Modules: {modules}. "
               f"Turn {obs.turn_number}: player {obs.turn_player + 1} ({obs.phase} phase).")
    out += _grid_lines(table, obs)
    limbo = names(table, obs.limbo_up)
    out.append(f"Limbo: {limbo}; {obs.limbo_down} face down")
    for q in range(obs.num_players):
        out += _player_lines(table, obs, q)
    out.append(f"Pool: {worth_text(obs.pool)}"
               + (f", discount {obs.discount}" if obs.discount else ""))
    if obs.player is not None:
        out += _hand_lines(table, obs)
    if obs.pending is not None:
        out.append(f"Waiting for player {obs.pending.player + 1} to decide.")
    if obs.over:
        out.append("The game is over. Scores: "
                   + ", ".join(f"P{q + 1} {s}" for q, s in enumerate(obs.scores)))
    return "\n".join(out)


def _grid_lines(table: CardTable, obs: TrivinityObservation) -> list[str]:
    """The 3x3 grid of stacks, a row of three cells a tier."""
    out: list[str] = []
    width = 28
    for row in range(3):
        out.append(f"-- tier {row + 1} " + "-" * (3 * width - 10))
        cells = [_stack_cell(table, obs, s) for s in range(row * 3, row * 3 + 3)]
        height = max(len(cell) for cell in cells)
        for i in range(height):
            parts = [(cell[i] if i < len(cell) else "")[:width - 1].ljust(width)
                     for cell in cells]
            out.append("".join(parts).rstrip())
    return out


def _player_lines(table: CardTable, obs: TrivinityObservation, q: int) -> list[str]:
    """One player's piles, worth and turns (``>`` marks the turn player)."""
    mark = ">" if q == obs.turn_player else " "
    worth = obs.totals[q]
    out = [f"{mark} Player {q + 1}: hand {obs.hand_sizes[q]}, deck {obs.deck_sizes[q]},"
           f" discard {len(obs.discards[q])}; worth {short_worth(worth[:3])}, "
           f"{worth[3]} tier-2, {worth[4]} tier-3; score now {total_score(worth)}; "
           f"turns {obs.turns[q]}"]
    if obs.discards[q]:
        out.append(f"    discard pile (top last): {names(table, obs.discards[q])}")
    if obs.played[q]:
        out.append(f"    in play: {names(table, obs.played[q])}")
    if obs.delayed[q]:
        out.append(f"    waiting for the next turn: {names(table, obs.delayed[q])}")
    return out


def _hand_lines(table: CardTable, obs: TrivinityObservation) -> list[str]:
    """The viewer's hand, each card with its text."""
    out = ["Your hand:"]
    for i, c in enumerate(obs.hand, 1):
        text = card_text(table.card(c))
        out.append(f"  {i}. {label(table, c)}" + (f": {text}" if text else ""))
    if not obs.hand:
        out.append("  (empty)")
    return out


def note_for(state: TrivinityState, action: TrivinityAction) -> str:
    """What an action concerns in ``state``: the card, stack, seat or resource."""
    table = state.table
    kind, arg = action.kind, action.arg
    if kind in ("play", "discard"):
        return table.card(state.hands[state.turn_player][arg - 1]).name
    if kind in ("card", "block"):
        assert state.pending is not None
        return table.card(state.hands[state.pending.player][arg - 1]).name
    if kind in ("buy", "stack"):
        stack = state.stacks[arg - 1]
        if not stack:
            return "empty"
        card = table.card(stack[-1])
        if kind == "buy":
            return f"{card.name} for {cost_text(card.cost)}"
        return f"stack {arg}, {card.name} on top"
    if kind == "limbo":
        return table.card(state.limbo_up[arg - 1]).name
    if kind == "seat":
        return f"player {arg}"
    if kind == "resource":
        return RESOURCES[arg].capitalize()
    if kind == "discard-all":
        free = "" if state.played_any or state.free_used else ", then take a tier-1 card free"
        return "discard the whole hand" + free
    if kind == "end":
        return "end the turn and draw 5"
    return "decline"
