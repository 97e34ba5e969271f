"""The Triangles computer players on concrete positions (the Triangles issue's average player:
"takes a triangle when it can, and otherwise avoids lines that hand one to the opponent")."""

from __future__ import annotations

import random
from typing import Any

from ai_helpers import advance

from triverse import load_game
from triverse.ai.knowledge.triangles import (
    TEMPO_WEIGHT,
    AlphaBeta,
    Position,
    TrianglesKnowledge,
    _bits,
    average_line,
    exact_lines,
    playout,
)
from triverse.ai.levels import VeteranPlayer
from triverse.ai.search import SearchLimits
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
    from triverse.arena import ArenaConfig, run_arena

    result = run_arena(ArenaConfig("triangles", ("average", "novice"), games=4, seed=11,
                                   options=("stars=24",)))
    assert [entry.label for entry in result.entries] == ["average", "novice"]
    assert result.entries[0].wins >= 3


SQUARE = [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]
"""A unit square 0-1-2-3: four empty triangles, and the diagonals 0-2 and 1-3 cross."""


def test_positions_kept_up_to_date_agree_with_a_fresh_analysis() -> None:
    # Position.play keeps, line by line, what each line closes and gives; a position rebuilt
    # from the state, and the one-pass analysis the average player uses, must agree with it.
    for stars, again in ((24, False), (24, True), (60, False)):
        game = load_game("triangles", stars=stars, again=again)
        for seed in range(4):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            pos = Position.of(state)
            while not state.is_terminal():
                closes, gives, safe = pos.analysis()
                assert {line: pos.closes[line] for line in _bits(pos.capture)} == closes
                assert {line: pos.gives[line] for line in _bits(pos.legal)
                        if pos.gives[line]} == gives
                assert pos.safe == safe
                line = rng.choice(list(_bits(pos.legal)))
                pos, _closed = pos.play(line, again)
                state.apply(state.board.lines[line])
                fresh = Position.of(state)
                assert (fresh.drawn, fresh.legal, fresh.alive) == (pos.drawn, pos.legal, pos.alive)
                assert (fresh.closes, fresh.gives) == (pos.closes, pos.gives)
                assert (fresh.hot, fresh.capture) == (pos.hot, pos.capture)
                if not state.is_terminal():
                    assert fresh.mover == pos.mover


def test_playouts_follow_the_average_player() -> None:
    # The veteran's fast playout makes the average player's choices, with the same random
    # generator: the same game as average_line played move by move.
    for again in (False, True):
        game = load_game("triangles", again=again)
        for seed in range(6):
            start = Position.of(game.new_initial_state(seed=seed))
            for _ in range(3 * seed):
                start, _closed = start.play(average_line(start, random.Random(seed)), again)
            pos, rng, expected = start, random.Random(100 + seed), 0
            while pos.alive:
                mover = pos.mover
                pos, closed = pos.play(average_line(pos, rng), again)
                expected += closed if mover == start.mover else -closed
            assert playout(start, again, random.Random(100 + seed)) == expected


def test_the_run_of_safe_lines_counts_lines_that_spoil_each_other() -> None:
    # On the empty square all six lines are safe, but a diagonal crosses the other and makes
    # every side give (0-1 after 0-2 leaves 0-1-2 with two sides drawn): a run that starts
    # with a diagonal is one line long. A run that starts with a side (0-1) goes on with the
    # opposite side (2-3) only: two lines.
    state = position([], SQUARE)
    start = Position.of(state)
    assert start.safe.bit_count() == 6
    runs = {playout(start, False, random.Random(seed), stop=True) for seed in range(40)}
    assert runs == {1, 2}
    after_diagonal = Position.of(position(["0-2"], SQUARE))
    assert after_diagonal.safe == 0 and after_diagonal.capture == 0
    searcher = AlphaBeta(False, float("inf"), random.Random(0))
    assert searcher.evaluate(after_diagonal) == -TEMPO_WEIGHT    # the mover must give


def test_veteran_solves_the_square_exactly() -> None:
    # The first player draws a diagonal, 0-2: 1-3 is crossed, 1-2-3 and 0-1-3 are dead, and
    # every side gives. Say the second player draws 0-1: the first closes 0-1-2 with 1-2,
    # and the second must draw 2-3 or 0-3, which gives 0-2-3: 2-0. A side first (0-1) is
    # answered by the opposite side (2-3); the first player must give, and the two triangles
    # are shared: 1-1.
    game = load_game("triangles")
    state = position([], SQUARE)
    result = KNOWLEDGE.search(game, state.observation(0), random.Random(1),
                              SearchLimits(float("inf"), 60))
    values = {str(e.action): (e.mean, e.count) for e in result.estimates}
    assert values == {"0-2": (2.0, 1), "1-3": (2.0, 1), "0-1": (0.0, 1), "1-2": (0.0, 1),
                      "2-3": (0.0, 1), "0-3": (0.0, 1)}
    assert str(result.best) in {"0-2", "1-3"}
    assert result.worlds == 6                                       # searched to the end


def test_exact_search_depends_on_the_budget() -> None:
    assert exact_lines(0.2) < exact_lines(0.8) < exact_lines(float("inf"))
    assert exact_lines(0.0) == 0


def test_veteran_is_reproducible_with_a_depth_limit() -> None:
    # Without a clock (an infinite budget and a depth limit) the choice and every estimate
    # depend on the random generator alone.
    game = load_game("triangles")
    state = game.new_initial_state(seed=3)
    seat = advance(state, 36, random.Random(3))
    bot = VeteranPlayer(time_budget=float("inf"), max_worlds=2)
    first = bot.analyse(game, state.observation(seat), random.Random(7))
    again = bot.analyse(game, state.observation(seat), random.Random(7))
    assert state.is_legal(first.best) and first.best == again.best
    assert [(e.action, e.mean) for e in first.estimates] == [
        (e.action, e.mean) for e in again.estimates]
    assert len(first.estimates) == len(state.legal_action_list())
    assert all(e.count == 1 for e in first.estimates) and first.worlds == 2
