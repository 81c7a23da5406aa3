"""The search pool's scheduling with stand-in workers: fairness between clients, quotas,
cancel and stop, and a job retried when its worker dies. No process is started."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest

from abgames.ui.web.fairqueue import FairQueue
from abgames.ui.web.jobs import SearchSpec
from abgames.ui.web.pool import MAX_ATTEMPTS, Job, QueueFullError, SearchPool
from abgames.ui.web.workers import OnGone, OnMessage, WorkerHandle


class FakeWorker:
    """A worker that only records what it is sent; the test says when a job ends."""

    def __init__(self, on_message: OnMessage, on_gone: OnGone, number: int) -> None:
        self.on_message = on_message
        self.on_gone = on_gone
        self.job: Any = None
        self.ready = False
        self.alive = True
        self.sent: list[tuple[Any, ...]] = []
        self.number = number

    @property
    def pid(self) -> int | None:
        return self.number

    def send(self, message: tuple[Any, ...]) -> None:
        if not self.alive:
            raise OSError("gone")
        self.sent.append(message)

    async def close(self) -> None:
        self.alive = False


class Workers:
    def __init__(self) -> None:
        self.made: list[FakeWorker] = []

    def __call__(self, on_message: OnMessage, on_gone: OnGone) -> WorkerHandle:
        worker = FakeWorker(on_message, on_gone, len(self.made) + 1)
        self.made.append(worker)
        return worker


def job(key: str, client: str, log: list[tuple[str, Any, str | None]] | None = None) -> Job:
    def on_done(result: Any, error: str | None) -> None:
        if log is not None:
            log.append((key, result, error))

    return Job(
        key=key,
        spec=SearchSpec({"game": "tictactoe"}, "easy", None),
        purpose="move",
        on_done=on_done,
        client=client,
    )


def running_keys(pool: SearchPool) -> set[str]:
    return {w.job.key for w in pool._workers if w.job is not None}


async def finish(pool: SearchPool, key: str, result: Any = "answer") -> None:
    """The worker running ``key`` reports it done (through the loop, as a real one does)."""
    (worker,) = [w for w in pool._workers if w.job is not None and w.job.key == key]
    assert isinstance(worker, FakeWorker)
    worker.on_message(worker, ("done", worker.job.id, result, None))
    await asyncio.sleep(0)


def run(coroutine: Any) -> Any:
    """Run ``coroutine`` on a loop of its own thread (the browser tests' Playwright keeps
    a loop running on the main thread for the whole session)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_fair_queue_serves_clients_round_robin() -> None:
    queue: FairQueue[Job] = FairQueue()
    for number in range(4):
        queue.push(job(f"flood{number}", "flooder"))
    queue.push(job("honest", "honest"))
    assert [j.key for j in queue.order()] == ["flood0", "honest", "flood1", "flood2", "flood3"]
    started = [queue.next_job(lambda _client: True) for _ in range(2)]
    assert [j.key for j in started if j is not None] == ["flood0", "honest"]
    queue.push(job("late", "latecomer"))  # a client new to the queue is served next
    assert [j.key for j in queue.order()] == ["late", "flood1", "flood2", "flood3"]
    assert queue.next_job(lambda client: client != "latecomer") is not None
    assert len(queue) == 3


def test_a_flooding_client_leaves_a_worker_for_everyone_else() -> None:
    async def scenario() -> None:
        workers = Workers()
        pool = SearchPool(2, 100, worker_factory=workers)
        await pool.start()
        assert pool.max_running_per_client == 1
        for number in range(6):
            pool.submit(job(f"flood{number}", "10.0.0.66"))
        # The flood runs one search; the other worker stays free for another client.
        assert running_keys(pool) == {"flood0"}
        assert pool.waiting == 5
        pool.submit(job("honest", "10.0.0.7"))
        assert running_keys(pool) == {"flood0", "honest"}
        assert pool.position("honest") is None  # running, not waiting
        await finish(pool, "flood0")
        assert running_keys(pool) == {"flood1", "honest"}
        await pool.close()

    run(scenario())


def test_the_queue_position_interleaves_clients() -> None:
    async def scenario() -> None:
        pool = SearchPool(1, 100, worker_factory=Workers())
        await pool.start()
        for number in range(4):
            pool.submit(job(f"flood{number}", "flooder"))
        pool.submit(job("honest", "honest"))
        # flood0 runs; the honest client's job is next, not fifth.
        assert pool.position("honest") == 1
        await finish(pool, "flood0")
        assert running_keys(pool) == {"honest"}
        await pool.close()

    run(scenario())


def test_each_client_has_a_quota_of_waiting_jobs() -> None:
    async def scenario() -> None:
        pool = SearchPool(1, 100, worker_factory=Workers(), max_waiting_per_client=2)
        await pool.start()
        for number in range(3):  # one runs, two wait
            pool.submit(job(f"flood{number}", "flooder"))
        assert not pool.has_room("flooder")
        with pytest.raises(QueueFullError):
            pool.submit(job("flood3", "flooder"))
        assert pool.has_room("honest")
        pool.submit(job("honest", "honest"))
        await pool.close()

    run(scenario())


def test_cancel_drops_a_waiting_job_and_stops_a_running_one() -> None:
    async def scenario() -> None:
        workers = Workers()
        log: list[tuple[str, Any, str | None]] = []
        pool = SearchPool(1, 100, worker_factory=workers)
        await pool.start()
        pool.submit(job("a", "one", log))
        pool.submit(job("b", "two", log))
        assert pool.cancel("b") and pool.waiting == 0
        assert pool.stop("a")
        (worker,) = workers.made
        assert worker.sent[-1][0] == "stop"
        assert pool.cancel("a")
        assert worker.sent[-1] == ("stop", worker.sent[0][1])
        await finish(pool, "a")  # the cancelled job's answer is discarded
        assert log == []
        await pool.close()

    run(scenario())


def test_a_job_whose_worker_dies_runs_again_on_another() -> None:
    async def scenario() -> None:
        workers = Workers()
        log: list[tuple[str, Any, str | None]] = []
        pool = SearchPool(1, 100, worker_factory=workers)
        await pool.start()
        pool.submit(job("game", "one", log))
        for attempt in range(1, MAX_ATTEMPTS + 1):
            worker = workers.made[-1]
            assert worker.job is not None and worker.job.key == "game"
            assert worker.job.attempts == attempt
            worker.alive = False
            worker.on_gone(worker)
            await asyncio.sleep(0.7)  # the respawn delay
        assert len(workers.made) == MAX_ATTEMPTS + 1
        assert log == [("game", None, "the AI's worker stopped unexpectedly, again and again")]
        assert pool.retried == MAX_ATTEMPTS - 1
        await pool.close()

    run(scenario())
