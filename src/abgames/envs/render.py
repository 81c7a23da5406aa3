"""Pictures of a board as ``uint8`` RGB arrays (``render_mode="rgb_array"``), numpy only.

The board is drawn cell by cell from three sprites (empty, first player, second
player) made once per game and cell size, so a frame costs one gather of tiles.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from abgames.envs.boards import BoardCore

RgbArray = npt.NDArray[np.uint8]
CELL_PIXELS = {"tictactoe": 64, "connect4": 48, "gomoku": 24}

_WHITE = (245, 245, 245)
_INK = (30, 30, 30)
_BLUE = (40, 80, 200)
_RED = (220, 40, 40)
_YELLOW = (240, 210, 40)
_WOOD = (220, 180, 110)
_STONE_WHITE = (250, 250, 250)
_STONE_BLACK = (20, 20, 20)


def _disc(size: int, radius: float) -> npt.NDArray[np.bool_]:
    centre = (size - 1) / 2.0
    y, x = np.mgrid[0:size, 0:size]
    result: npt.NDArray[np.bool_] = (x - centre) ** 2 + (y - centre) ** 2 <= radius**2
    return result


def _filled(size: int, colour: tuple[int, int, int]) -> RgbArray:
    tile = np.empty((size, size, 3), dtype=np.uint8)
    tile[:] = colour
    return tile


@cache
def sprites(game: str, size: int) -> RgbArray:
    """Tiles ``(3, size, size, 3)``: empty, first player's, second player's."""
    if game == "connect4":
        empty = _filled(size, _BLUE)
        empty[_disc(size, size * 0.4)] = _WHITE
        first, second = empty.copy(), empty.copy()
        first[_disc(size, size * 0.4)] = _RED
        second[_disc(size, size * 0.4)] = _YELLOW
        return np.stack([empty, first, second])
    if game == "gomoku":
        empty = _filled(size, _WOOD)
        middle = size // 2
        empty[middle, :] = _INK
        empty[:, middle] = _INK
        first, second = empty.copy(), empty.copy()
        first[_disc(size, size * 0.45)] = _STONE_BLACK
        second[_disc(size, size * 0.45)] = _INK
        second[_disc(size, size * 0.45 - 1.5)] = _STONE_WHITE
        return np.stack([empty, first, second])
    empty = _filled(size, _WHITE)
    empty[0, :] = empty[-1, :] = empty[:, 0] = empty[:, -1] = _INK  # the grid
    cross = empty.copy()
    y, x = np.mgrid[0:size, 0:size]
    margin = size * 0.2
    inside = (x > margin) & (x < size - margin) & (y > margin) & (y < size - margin)
    cross[inside & ((np.abs(x - y) < size * 0.06) | (np.abs(x + y - size) < size * 0.06))] = _INK
    ring = empty.copy()
    ring[_disc(size, size * 0.32) & ~_disc(size, size * 0.24)] = _INK
    return np.stack([empty, cross, ring])


def rgb_array(core: BoardCore) -> RgbArray:
    """The board as an RGB image, ``(rows * cell, cols * cell, 3)`` ``uint8``."""
    cell = CELL_PIXELS[core.state.name]
    tiles = sprites(core.state.name, cell)[core.grid()]  # (rows, cols, cell, cell, 3)
    rows, cols = tiles.shape[:2]
    image: RgbArray = tiles.transpose(0, 2, 1, 3, 4).reshape(rows * cell, cols * cell, 3)
    return image
