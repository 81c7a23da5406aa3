"""A pool job a request waits for: its result a JSON-ready dictionary.

``submit_for_answer`` puts the job in the pool and returns its key and a future:
the future gets the dictionary, or ``BadInput`` with the message the job put under
``error_field`` (the request was refused by the work itself), or a 500 ``WebError``
when the job failed. A full queue is ``Busy``. The caller waits as it needs (until
the client goes away, or a time limit) and cancels the key if it stops waiting.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from abgames.ui.web.errors import BadInput, Busy, WebError
from abgames.ui.web.jobs import JobSpec
from abgames.ui.web.pool import Job, QueueFullError, SearchPool

_job_numbers = itertools.count(1)


def submit_for_answer(
    pool: SearchPool,
    spec: JobSpec,
    *,
    prefix: str,
    purpose: str,
    client: str,
    error_field: str,
    failed: str,
    busy: str,
) -> tuple[str, asyncio.Future[dict[str, Any]]]:
    """Submit ``spec`` (key ``<prefix>-<n>``); ``failed`` names the work in a failure
    ("the search failed: ..."), ``busy`` is the message of a full queue."""
    answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def on_done(result: Any, error: str | None) -> None:
        if answer.done():
            return
        if isinstance(result, dict) and error_field in result:
            answer.set_exception(BadInput(str(result[error_field])))
        elif isinstance(result, dict):
            answer.set_result(result)
        else:
            answer.set_exception(WebError(f"{failed}: {error}", status=500))

    key = f"{prefix}-{next(_job_numbers)}"
    job = Job(key=key, spec=spec, purpose=purpose, on_done=on_done, client=client)
    try:
        pool.submit(job)
    except QueueFullError:
        raise Busy(busy) from None
    return key, answer
