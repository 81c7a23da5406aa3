"""The store under the web app: versions, group commit, and failures kept to one write."""

from __future__ import annotations

import asyncio
from pathlib import Path

from abgames.ui.web.store import GameStore, Insert, StoredGame, Update
from abgames.ui.web.writer import GroupWriter

RECORD = {
    "format": "abgames-game",
    "version": 1,
    "game": "tictactoe",
    "options": {},
    "moves": [],
    "players": ["human", "human"],
    "levels": [None, None],
}


def game(number: int) -> StoredGame:
    return StoredGame(
        id=f"game{number:020d}",
        secret_hash="h",
        mode="human-human",
        first="human",
        level="perfect",
        seed=None,
        record=RECORD,
        analyses=[],
        version=1,
    )


def test_a_burst_of_writes_is_committed_together_each_with_its_answer(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    writer = GroupWriter(store)

    async def burst() -> list[bool | BaseException]:
        writer.start()
        await asyncio.gather(*(writer.write(Insert(game(n))) for n in range(50)))
        first = game(0)
        moved = first.changed(record=RECORD | {"moves": ["b2"]}, analyses=[None])
        writes = [
            writer.write(Update(first, moved)),
            writer.write(Update(first, moved)),  # stale: version 1 is gone by now
            writer.write(Insert(game(1))),  # the id exists: this write alone fails
            writer.write(Insert(game(99))),
        ]
        results = await asyncio.gather(*writes, return_exceptions=True)
        await writer.close()
        return results

    results = asyncio.run(burst())
    assert results[0] is True and results[1] is False and results[3] is True
    assert "UNIQUE" in str(results[2])
    assert writer.writes == 54 and writer.batches < writer.writes
    assert store.count() == 51
    stored = store.get(game(0).id)
    assert stored is not None and stored.version == 2 and stored.record["moves"] == ["b2"]


def test_an_update_writes_only_the_analyses_that_changed(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    first = game(1)
    store.insert(first)
    analysis = {"move": 0, "why": "O plays a1"}
    second = first.changed(record=RECORD | {"moves": ["b2", "a1"]}, analyses=[None, analysis])
    assert store.update(first, second)
    third = second.changed(record=RECORD | {"moves": ["b2"]}, analyses=[None])  # undo
    assert store.update(second, third)
    stored = store.get(first.id)
    assert stored is not None and stored.analyses == [None]
    fourth = third.changed(record=RECORD | {"moves": ["b2", "c3"]}, analyses=[None, analysis])
    assert store.update(third, fourth)
    stored = store.get(first.id)
    assert stored is not None and stored.analyses == [None, analysis]
