"""Waiting jobs, one line per client, served in turn: one client cannot starve another.

A client is whatever key the caller gives (``clients.client_key``: the peer's address).
``next_job`` takes the first job of the client served least recently among those that
may run one now (a client new to the queue comes first), so clients take turns however
many jobs each has waiting; ``order`` is the order in which the waiting jobs would start
if every client could run one (the queue positions shown to players).
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from typing import Generic, Protocol, TypeVar

#: Clients whose last turn is remembered after their line empties (oldest forgotten).
REMEMBERED_CLIENTS = 4096


class HasClient(Protocol):
    client: str


J = TypeVar("J", bound=HasClient)


class _Line(Generic[J]):
    """One client's waiting jobs and when it was last served (0: not yet)."""

    def __init__(self) -> None:
        self.jobs: deque[J] = deque()
        self.served_at = 0


class FairQueue(Generic[J]):
    """Jobs waiting by client; clients in turn, first-in first-out within one."""

    def __init__(self) -> None:
        self._lines: dict[str, _Line[J]] = {}
        self._count = 0
        self._ticks = itertools.count(1)
        # When each client was last served, kept while its line is empty too, so a
        # client whose jobs are started one by one does not look new with each one.
        self._served: OrderedDict[str, int] = OrderedDict()

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[J]:
        return iter(self.order())

    def __contains__(self, job: object) -> bool:
        line = self._lines.get(getattr(job, "client", ""))
        return line is not None and any(waiting is job for waiting in line.jobs)

    def waiting_of(self, client: str) -> int:
        """Jobs ``client`` has waiting."""
        line = self._lines.get(client)
        return len(line.jobs) if line is not None else 0

    def push(self, job: J, *, front: bool = False) -> None:
        """Add ``job`` at the back of its client's line (``front``: at the front)."""
        line = self._lines.get(job.client)
        if line is None:
            line = self._lines[job.client] = _Line()
            line.served_at = self._served.get(job.client, 0)
        if front:
            line.jobs.appendleft(job)
        else:
            line.jobs.append(job)
        self._count += 1

    def remove(self, job: J) -> bool:
        """Drop ``job`` if it waits; whether it did."""
        line = self._lines.get(job.client)
        if line is None:
            return False
        for index, waiting in enumerate(line.jobs):
            if waiting is job:
                del line.jobs[index]
                self._count -= 1
                if not line.jobs:
                    del self._lines[job.client]
                return True
        return False

    def _turns(self) -> list[tuple[str, _Line[J]]]:
        """The lines, least recently served first (ties: the order they arrived in)."""
        return sorted(self._lines.items(), key=lambda item: item[1].served_at)

    def next_job(self, may_run: Callable[[str], bool]) -> J | None:
        """The next job to start: from the least recently served client that ``may_run``."""
        for client, line in self._turns():
            if may_run(client):
                job = line.jobs.popleft()
                self._count -= 1
                line.served_at = next(self._ticks)
                self._served[client] = line.served_at
                self._served.move_to_end(client)
                while len(self._served) > REMEMBERED_CLIENTS:
                    self._served.popitem(last=False)
                if not line.jobs:
                    del self._lines[client]
                return job
        return None

    def order(self) -> list[J]:
        """Every waiting job in the order they would start (clients in turn)."""
        lines = [list(line.jobs) for _, line in self._turns()]
        ordered: list[J] = []
        depth = 0
        while len(ordered) < self._count:
            for jobs in lines:
                if depth < len(jobs):
                    ordered.append(jobs[depth])
            depth += 1
        return ordered

    def clear(self) -> list[J]:
        """Empty the queue; the jobs that waited, in order."""
        jobs = self.order()
        self._lines.clear()
        self._count = 0
        return jobs
