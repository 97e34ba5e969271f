"""Trident (seed 003): the published game Triolet (DJ Games, 1996), played online with hidden
racks. Number tiles 0-15 and two jokers are laid crossword style on a 15 x 15 board; two tiles
side by side total 15 or less, three exactly 15.

- :mod:`~triverse.games.trident.tiles`: the tiles, the actions and their notation;
- :mod:`~triverse.games.trident.board`: the layout, runs and cross-check masks;
- :mod:`~triverse.games.trident.movegen`: the legal plays, from anchors and masks;
- :mod:`~triverse.games.trident.scoring`: a play's score, line by line;
- :mod:`~triverse.games.trident.rules`: the rule variants and the game's limits;
- :mod:`~triverse.games.trident.legality`: why a play or an exchange is illegal, in words;
- :mod:`~triverse.games.trident.engine`: :class:`TridentGame` and its state: the deal, the
  turns, the scores and the end;
- :mod:`~triverse.games.trident.observation`: what a seat sees, and the preview of a play;
- :mod:`~triverse.games.trident.action_ids`: the integer action ids;
- :mod:`~triverse.games.trident.setup`: explicit positions (setups), checked and loaded;
- :mod:`~triverse.games.trident.text`: the text board and English descriptions.
"""

from triverse.games.trident.engine import TridentGame, TridentObservation, TridentState

__all__ = ["TridentGame", "TridentObservation", "TridentState"]
