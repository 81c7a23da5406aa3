"""The learned evaluation's weights file: reading, checking and packing it.

A network file is JSON (``FORMAT``): the integer weights of the network that
``evaluate.net_score`` runs (``hidden`` units over ``weights.NET_INPUTS`` inputs,
fixed point ``weights.NET_SCALE``), the record of the training run that made it
(``training``), and a check set: labelled positions held out of the training, with
the correlation the integer network's evaluation reached on them when the file was
written (``check``). ``abgames fit gomoku --model net`` writes it; the package ships
one (``SHIPPED``), which ``EngineSettings.eval_net`` switches on.

Nothing here compiles a kernel: ``pack`` only writes the network into an evaluation
vector.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from abgames.ai.gomoku.weights import (
    EVAL_LEN,
    NET_HIDDEN,
    NET_HIDDEN_BIAS,
    NET_HIDDEN_MAX,
    NET_IN,
    NET_INPUTS,
    NET_ON,
    NET_OUT,
    NET_OUT_BIAS,
    NET_SCALE,
)

FORMAT = "abgames-gomoku-net-1"
#: The network the package ships.
SHIPPED = Path(__file__).with_name("eval_net.json")
#: An environment variable naming another network file for ``EngineSettings.eval_net``
#: (an experiment's candidate, played through the arena before it is shipped).
NET_FILE_VARIABLE = "ABGAMES_GOMOKU_NET"
#: The largest magnitude one integer weight may take (sums stay far from overflow).
NET_WEIGHT_LIMIT = 1 << 30
#: Files larger than this are refused unread.
MAX_FILE_BYTES = 8 << 20


class NetFileError(ValueError):
    """A network file that cannot be used, with the reason."""


@dataclass(frozen=True)
class Network:
    """A network's integer weights, as ``evaluate.net_score`` runs them."""

    hidden_bias: npt.NDArray[np.int64]  # [hidden]
    output: npt.NDArray[np.int64]  # [hidden], evaluation units per full activation
    output_bias: int
    input_weights: npt.NDArray[np.int64]  # [hidden, NET_INPUTS]
    training: dict[str, Any] = field(default_factory=dict)
    check: dict[str, Any] = field(default_factory=dict)

    @property
    def hidden(self) -> int:
        return int(self.output.shape[0])

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "inputs": NET_INPUTS,
            "hidden": self.hidden,
            "scale": NET_SCALE,
            "hidden_bias": [int(v) for v in self.hidden_bias],
            "output": [int(v) for v in self.output],
            "output_bias": int(self.output_bias),
            "input_weights": [[int(v) for v in row] for row in self.input_weights],
            "training": self.training,
            "check": self.check,
        }


def _integers(value: object, length: int, what: str) -> npt.NDArray[np.int64]:
    if not isinstance(value, list) or len(value) != length:
        raise NetFileError(f"{what}: expected a list of {length} whole numbers")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise NetFileError(f"{what}: expected whole numbers")
    if any(abs(v) > NET_WEIGHT_LIMIT for v in value):
        raise NetFileError(f"{what}: a weight beyond ±{NET_WEIGHT_LIMIT}")
    return np.array(value, np.int64)


def from_json(data: object) -> Network:
    """The network described by ``data`` (a parsed file); ``NetFileError`` says what is
    wrong with it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NetFileError(f"not a network file (format {FORMAT!r} expected)")
    if data.get("inputs") != NET_INPUTS or data.get("scale") != NET_SCALE:
        raise NetFileError(
            f"made for {data.get('inputs')} inputs at scale {data.get('scale')}; "
            f"this engine takes {NET_INPUTS} at {NET_SCALE}"
        )
    hidden = data.get("hidden")
    if not isinstance(hidden, int) or not 1 <= hidden <= NET_HIDDEN_MAX:
        raise NetFileError(f"hidden: expected 1 to {NET_HIDDEN_MAX} units")
    rows = data.get("input_weights")
    if not isinstance(rows, list) or len(rows) != hidden:
        raise NetFileError(f"input_weights: expected {hidden} rows")
    bias = data.get("output_bias")
    if not isinstance(bias, int) or isinstance(bias, bool) or abs(bias) > NET_WEIGHT_LIMIT:
        raise NetFileError("output_bias: expected a whole number")
    training = data.get("training", {})
    check = data.get("check", {})
    if not isinstance(training, dict) or not isinstance(check, dict):
        raise NetFileError("training and check: expected objects")
    return Network(
        hidden_bias=_integers(data.get("hidden_bias"), hidden, "hidden_bias"),
        output=_integers(data.get("output"), hidden, "output"),
        output_bias=bias,
        input_weights=np.stack(
            [_integers(row, NET_INPUTS, f"input_weights[{i}]") for i, row in enumerate(rows)]
        ),
        training=training,
        check=check,
    )


def read(path: Path) -> Network:
    """The network in ``path``; ``NetFileError`` (or ``OSError``) says why not."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise NetFileError(f"{path}: over {MAX_FILE_BYTES >> 20} MB, not a network file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NetFileError(f"{path}: not JSON ({error})") from None
    except RecursionError:
        raise NetFileError(f"{path}: nested too deeply, not a network file") from None
    try:
        return from_json(data)
    except NetFileError as error:
        raise NetFileError(f"{path}: {error}") from None


def write(network: Network, path: Path) -> None:
    """Write ``network`` to ``path`` atomically (a temporary file renamed over it)."""
    text = json.dumps(network.as_json(), separators=(",", ":"))
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text + "\n", encoding="utf-8")
    os.replace(temporary, path)


def engine_network() -> Network:
    """The network ``EngineSettings.eval_net`` plays: the file named by
    ``NET_FILE_VARIABLE`` when set, else the shipped one (read once while the file
    stays the same)."""
    named = os.environ.get(NET_FILE_VARIABLE)
    path = Path(named) if named else SHIPPED
    status = path.stat()
    return _read_once(str(path), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=4)
def _read_once(path: str, mtime_ns: int, size: int) -> Network:
    """``read(path)``, remembered for the file's modification time and size."""
    return read(Path(path))


def pack(vector: npt.NDArray[np.int64], network: Network) -> None:
    """Write ``network`` into the evaluation ``vector`` (``weights.EVAL_LEN`` long) and
    switch it on."""
    if vector.shape != (EVAL_LEN,):
        raise ValueError(f"an evaluation vector has {EVAL_LEN} entries")
    hidden = network.hidden
    vector[NET_ON] = 1
    vector[NET_HIDDEN] = hidden
    vector[NET_OUT_BIAS] = network.output_bias
    vector[NET_HIDDEN_BIAS : NET_HIDDEN_BIAS + NET_HIDDEN_MAX] = 0
    vector[NET_HIDDEN_BIAS : NET_HIDDEN_BIAS + hidden] = network.hidden_bias
    vector[NET_OUT : NET_OUT + NET_HIDDEN_MAX] = 0
    vector[NET_OUT : NET_OUT + hidden] = network.output
    rows = np.zeros((NET_INPUTS, NET_HIDDEN_MAX), np.int64)
    rows[:, :hidden] = network.input_weights.T
    vector[NET_IN:] = rows.reshape(-1)
