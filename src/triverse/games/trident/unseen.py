"""What a Trident seat does not see, dealt anew: the tiles of the other racks, the tiles set
aside and the bag, for the computer players' sampled worlds (``TridentGame.determinize``)."""

from __future__ import annotations

import random
from collections import Counter

from triverse.games.trident.observation import TridentObservation
from triverse.games.trident.tiles import JOKER, TILE_SET


def deal_unseen(obs: TridentObservation,
                rng: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
    """The racks (the seat's own as it is, the others drawn from the unseen tiles by their
    counts), the tiles set aside and the bag, shuffled by ``rng``."""
    unseen = Counter(TILE_SET)
    unseen.subtract(JOKER if obs.board[s] >= 16 else obs.board[s] for s in obs.placed)
    own = obs.rack or ()
    unseen.subtract(own)
    if any(count < 0 for count in unseen.values()):
        raise ValueError("the observation shows more tiles of a kind than the game has")
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    racks: list[list[int]] = []
    for seat, count in enumerate(obs.rack_counts):
        if seat == obs.player:
            racks.append(sorted(own))
        else:
            racks.append(sorted(pool[:count]))
            pool = pool[count:]
    aside, pool = pool[:obs.aside_count], pool[obs.aside_count:]
    if len(pool) != obs.bag_count or len(aside) != obs.aside_count:
        raise ValueError(f"{len(pool)} unseen tiles left for a bag of {obs.bag_count}")
    return racks, pool, sorted(aside)
