"""What a search can report, event by event, to whoever watches it (the teaching tools).

The reference engines (``minimax`` and ``AlphaBeta``) take an optional observer.
Without one they pay a single ``is not None`` test per event; with one, every node
they visit is reported in order, so a trace (``search.trace``) can rebuild the tree
searched: the tree shown is the tree searched.

Every value and window is in negamax form, from the view of the side to move at
the node it concerns; ``alpha``/``beta`` are ``±INFINITY`` when open (minimax passes
the open window at every node). Events of one node come in this order::

    enter  (children: enter ... closed)  [cutoff]  exit
    enter  leaf | tt_hit                    (a node with no children searched)

``root_best`` comes from the root loop of ``AlphaBeta`` each time a root move
becomes the best so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from abgames.games.base import GameState, Move
from abgames.search.tt import Bound


class SearchObserver:
    """Does nothing for every event; subclasses override what they watch.

    An observer may raise an exception to end the search (a trace's size cap);
    the search then leaves ``state`` part-way, so run such searches on a copy.
    """

    def enter(self, state: GameState, alpha: int, beta: int, depth: int) -> None:
        """A node is entered: ``state`` is its position (its last move the one that led
        here, except at the root), ``depth`` the plies left to the horizon."""

    def leaf(self, value: int, end: bool) -> None:
        """The current node is a leaf: the game is over there (``end``) or the horizon
        is reached and the evaluation gave ``value``. The node is closed."""

    def tt_hit(self, value: int, bound: Bound) -> None:
        """The transposition table answered for the current node. The node is closed."""

    def cutoff(self, move: Move, skipped: Sequence[Move]) -> None:
        """``move``'s value reached beta at the current node: ``skipped`` (the moves not
        yet searched, in order) are cut off."""

    def exit(self, value: int) -> None:
        """The current node's children are done: ``value`` is backed up. The node is closed."""

    def root_best(self, move: Move, value: int) -> None:
        """At the root, ``move`` has become the best move so far, worth ``value``."""
