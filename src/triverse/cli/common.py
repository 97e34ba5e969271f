"""What the commands share: their errors, the ``--players`` list, a game from its options, and a
computer player's move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from triverse.ai.basic import Player
from triverse.core.game import Game, State
from triverse.core.options import parse_option_args
from triverse.core.records import PLAYER_KINDS
from triverse.core.rng import derive
from triverse.games import load_game
from triverse.i18n import _, pgettext


class CliError(Exception):
    """A problem with the command line, printed without a traceback (after ``triverse
    COMMAND:`` unless ``whole``)."""

    def __init__(self, message: str, *, whole: bool = False) -> None:
        super().__init__(message)
        self.whole = whole


def parse_players(text: str) -> list[str]:
    """The player kinds of ``--players``, one a seat."""
    kinds = [p.strip() for p in text.split(",") if p.strip()]
    if not kinds:
        raise CliError(_("--players needs one entry per seat, e.g. human,average"))
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise CliError(_("--players: {kind} is not one of {kinds}").format(
                kind=repr(kind), kinds=", ".join(PLAYER_KINDS)))
    return kinds


def make_game(name: str, seats: int, option_args: Sequence[str]) -> Game[Any, Any]:
    return load_game(name, seats, **parse_option_args(option_args))


def bot_move(game: Game[Any, Any], state: State[Any], bot: Player, seed: int, seat: int) -> Any:
    """The move of the computer player ``bot`` at ``seat``, from its own stream of chance."""
    rng = derive(seed, "bot", seat, state.move_number)
    return bot.choose(game, state.observation(seat), rng)


def level_name(kind: str) -> str:
    """A computer player's level in words."""
    levels = {"novice": pgettext("computer level", "novice"),
              "average": pgettext("computer level", "average"),
              "veteran": pgettext("computer level", "veteran")}
    return levels.get(kind, kind)
