"""Policies over the environments' observations: the ladder's agents and the examples'.

A policy is any callable ``policy(observation) -> action`` taking the dict the
environments hand out (``observation``: planes from the mover's view, channel 0 its
own stones; ``action_mask``). Here:

- ``random_policy(seed)``: a legal action chosen uniformly.
- ``greedy_policy(game, seed)``: one ply ahead: an action that completes a row
  (3, 4 or 5 in a row: five *or more* in Gomoku, whatever the rule) if there is one,
  else a random legal action.
- ``TabularPolicy``: a table from observation to action, saved as JSON (the
  example's tic-tac-toe learner writes one); positions not in it play at random.
- ``load_policy(spec, game)``: any of these by name (``random``, ``greedy``), a
  saved table (``policy.json``), or ``module:function`` / ``file.py:function``
  naming a policy (or a function of no arguments returning one).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from abgames.files import read_text, write_atomically

Observation = dict[str, npt.NDArray[np.int8]]
Policy = Callable[[Observation], int]

#: Stones in a row that win each game.
ROW_TO_WIN = {"tictactoe": 3, "connect4": 4, "gomoku": 5}
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def legal_actions(observation: Observation) -> list[int]:
    return [int(a) for a in np.flatnonzero(observation["action_mask"])]


def random_policy(seed: int | None = None) -> Policy:
    """A uniformly random legal action."""
    rng = random.Random(seed)

    def policy(observation: Observation) -> int:
        return rng.choice(legal_actions(observation))

    return policy


def landing_cell(game: str, planes: npt.NDArray[np.int8], action: int) -> tuple[int, int]:
    """The plane cell (row, column) where ``action`` puts a stone (see envs.boards)."""
    if game == "connect4":
        column = planes[:, action, 0] | planes[:, action, 1]
        empty_rows = np.flatnonzero(column == 0)
        return int(empty_rows[-1]), action  # row 0 is the top: the lowest empty row
    row, col = divmod(action, int(planes.shape[1]))
    return row, col


def completes_row(plane: npt.NDArray[np.int8], row: int, col: int, length: int) -> bool:
    """Whether a stone at (row, col) gives ``plane`` ``length`` or more in a row through it."""
    rows, cols = plane.shape
    for dr, dc in _DIRECTIONS:
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < rows and 0 <= c < cols and plane[r, c]:
                count += 1
                r += sign * dr
                c += sign * dc
        if count >= length:
            return True
    return False


def greedy_policy(game: str, seed: int | None = None) -> Policy:
    """A move that completes a row now if there is one, else a random legal move."""
    length = ROW_TO_WIN[game]
    rng = random.Random(seed)

    def policy(observation: Observation) -> int:
        planes = observation["observation"]
        legal = legal_actions(observation)
        for action in legal:
            row, col = landing_cell(game, planes, action)
            if completes_row(planes[:, :, 0], row, col, length):
                return action
        return rng.choice(legal)

    return policy


def observation_key(observation: Observation) -> str:
    """The position as text from the mover's view: ``x`` own, ``o`` the opponent's, ``.``."""
    planes = observation["observation"]
    cells = planes[:, :, 0].ravel() + 2 * planes[:, :, 1].ravel()
    return "".join(".xo"[int(v)] for v in cells)


#: The largest saved policy read.
MAX_POLICY_BYTES = 256 * 1024 * 1024


class TabularPolicy:
    """A table from ``observation_key`` to action; unknown positions play at random."""

    def __init__(self, game: str, table: dict[str, int], seed: int | None = None) -> None:
        self.game = game
        self.table = table
        self.rng = random.Random(seed)

    def __call__(self, observation: Observation) -> int:
        action = self.table.get(observation_key(observation))
        legal = legal_actions(observation)
        if action is None or action not in legal:
            return self.rng.choice(legal)
        return action

    def save(self, path: Path) -> None:
        """Write the table as JSON, atomically, to a regular file or a new name."""
        data = {"kind": "tabular", "game": self.game, "table": self.table}
        write_atomically(path, (json.dumps(data, sort_keys=True) + "\n").encode("utf-8"))

    @classmethod
    def load(cls, path: Path, seed: int | None = None) -> TabularPolicy:
        """A saved table; ``OSError`` for a file that is not a regular one or is over
        ``MAX_POLICY_BYTES``, ``ValueError`` for one that is not a saved policy."""
        data = json.loads(read_text(path, MAX_POLICY_BYTES))
        if not isinstance(data, dict) or data.get("kind") != "tabular":
            raise ValueError(f"{path} is not a saved tabular policy")
        try:
            table = {str(key): int(action) for key, action in data["table"].items()}
            return cls(str(data["game"]), table, seed)
        except (KeyError, AttributeError, TypeError):
            raise ValueError(f"{path} is not a saved tabular policy") from None


def load_policy(spec: str, game: str, seed: int | None = None) -> Policy:
    """The policy named by ``spec`` (see the module docstring); ``ValueError`` if none."""
    if spec == "random":
        return random_policy(seed)
    if spec == "greedy":
        return greedy_policy(game, seed)
    if spec.endswith(".json"):
        policy = TabularPolicy.load(Path(spec), seed)
        if policy.game != game:
            raise ValueError(f"{spec} plays {policy.game}, not {game}")
        return policy
    where, _, attribute = spec.rpartition(":")
    if not where or not attribute:
        raise ValueError(
            f"agent {spec!r}: give random, greedy, a saved policy.json, "
            "module:function or file.py:function"
        )
    if where.endswith(".py"):
        module_spec = importlib.util.spec_from_file_location(Path(where).stem, where)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load {where}")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    found: Any = getattr(module, attribute, None)
    if not callable(found):
        raise ValueError(f"{spec}: {attribute} is not a callable in {where}")
    required = [
        p
        for p in inspect.signature(found).parameters.values()
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if required:  # a policy takes the observation
        return found  # type: ignore[no-any-return]
    made = found()  # a factory of no arguments returns the policy
    if not callable(made):
        raise ValueError(f"{spec}: calling {attribute}() gave {type(made).__name__}, not a policy")
    return made  # type: ignore[no-any-return]
