"""The Triangles computer players on concrete positions (the Triangles issue's average player:
"takes a triangle when it can, and otherwise avoids lines that hand one to the opponent")."""

from __future__ import annotations

import random
from typing import Any

from triverse import load_game
from triverse.ai.knowledge.triangles import Position, TrianglesKnowledge
from triverse.core.rng import derive

SQUARE_AND_FAR_STAR = [[0, 0], [1000, 0], [1000, 1000], [0, 1000], [2500, 2500]]
"""A unit square 0-1-2-3 and a far star 4 (the line 0-4 passes through star 2)."""

KNOWLEDGE = TrianglesKnowledge()


def position(lines: list[str], stars: list[list[int]] = SQUARE_AND_FAR_STAR) -> Any:
    state = load_game("triangles").new_initial_state(setup={"stars": stars})
    for text in lines:
        state.apply_notation(text)
    return state


def average_choices(state: Any, tries: int = 60) -> set[str]:
    seat = state.current_player
    return {str(KNOWLEDGE.average_move(state, seat, random.Random(i))) for i in range(tries)}


def test_average_avoids_the_lines_that_hand_over_a_triangle() -> None:
    state = position(["0-1"])
    # 0-2, 1-2 (triangle 0-1-2), 0-3 and 1-3 (triangle 0-1-3) would each leave a triangle with
    # two sides drawn and the third legal: the opponent would close it. 0-4 is no line (it
    # passes through star 2), so triangle 0-1-4 is dead and 1-4 is safe.
    assert {str(a) for a in state.legal_actions()} == {
        "0-2", "0-3", "1-2", "1-3", "1-4", "2-3", "2-4", "3-4"}
    assert average_choices(state) == {"1-4", "2-3", "2-4", "3-4"}


def test_average_takes_the_biggest_capture() -> None:
    # The square's sides and 2-4 are drawn: a diagonal closes two triangles, 1-4 and 3-4 one.
    state = position(["0-1", "1-2", "2-3", "3-0", "2-4"])
    analysis = Position.of(state)
    closes = {str(state.board.lines[line]): n for line, n in analysis.analysis()[0].items()}
    assert closes == {"0-2": 2, "1-3": 2, "1-4": 1, "3-4": 1}
    assert average_choices(state) == {"0-2", "1-3"}


def test_average_gives_the_fewest_when_every_line_gives() -> None:
    checked = 0
    for seed in range(40):
        state = load_game("triangles", stars=24).new_initial_state(seed=seed)
        rng = derive(seed, "test")
        while not state.is_terminal():
            pos = Position.of(state)
            closes, gives, safe = pos.analysis()
            seat = state.current_player
            move = KNOWLEDGE.average_move(state, seat, rng)
            line = state.board.lines.index(move)
            if not closes and not safe:
                fewest = min(gives.get(i, 0) for i in range(state.board.num_candidates)
                             if (pos.legal >> i) & 1)
                assert gives.get(line, 0) == fewest
                checked += 1
            elif closes:
                assert closes.get(line, 0) == max(closes.values())
            else:
                assert (safe >> line) & 1
            state.apply(move)
    assert checked > 0


def test_average_beats_novice_in_a_short_arena() -> None:
    # Seeded, so exact: the 400-game figures are in docs/ai.md.
    from triverse.ai.arena import ArenaConfig, run_arena

    result = run_arena(ArenaConfig("triangles", ("average", "novice"), games=4, seed=11,
                                   options=("stars=24",)))
    assert [entry.label for entry in result.entries] == ["average", "novice"]
    assert result.entries[0].wins >= 3
