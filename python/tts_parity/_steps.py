"""The step rules both recorders share: steps are entered 1, 2, 3... in order, each once (1 = the prefill),
one block at a time; a step entered twice, out of order or inside another block is refused naming it."""

from __future__ import annotations

from .errors import ParityStateError, ParityTypeError, ParityValueError

__all__ = ["StepSequence", "check_step_number"]


def check_step_number(step: object, what: str = "step") -> int:
    """`step` as an int >= 1, else ParityTypeError / ParityValueError naming `what`."""
    if isinstance(step, bool) or not isinstance(step, int):
        raise ParityTypeError(f"{what}: expected an integer >= 1 (1 = the prefill), found {step!r}")
    if step < 1:
        raise ParityValueError(f"{what}: expected an integer >= 1 (1 = the prefill), found {step}")
    return step


class StepSequence:
    """Which step and which block a recorder is in. `owner` starts every message ("ModuleRecorder(a.safetensors)")."""

    def __init__(self, owner: str, last: int = 0) -> None:
        self.owner = owner
        self.last = last  # the last step entered (0: none yet)
        self.block: str | None = None  # "step" | "graph_capture" | None
        self.current: int | None = None  # the step whose block is open
        self.closed = False

    def check_open(self, action: str) -> None:
        if self.closed:
            where = f"step {self.last + 1}: " if action == "step" else ""
            raise ParityStateError(f"{where}{self.owner}: {action}() after close(): the recorder is closed")

    def enter_step(self, step: object) -> int:
        n = check_step_number(step)
        self.check_open("step")
        if self.block == "step":
            raise ParityStateError(
                f"step {n}: {self.owner}: entered inside step {self.current}; leave its `with` block first"
            )
        if self.block == "graph_capture":
            raise ParityStateError(f"step {n}: {self.owner}: entered inside graph_capture(); a capture is not a step")
        if n == self.last:
            raise ParityStateError(
                f"step {n}: {self.owner}: step {n} entered twice; each step is entered once, in order"
            )
        if n != self.last + 1:
            expected = self.last + 1
            if n < self.last:
                raise ParityStateError(
                    f"step {n}: {self.owner}: entered after step {self.last}; steps are entered 1, 2, 3... "
                    f"in order (expected step {expected})"
                )
            raise ParityStateError(
                f"step {n}: {self.owner}: entered after step {self.last}, skipping step {expected}; "
                "steps are entered 1, 2, 3... in order, each once"
            )
        self.last, self.block, self.current = n, "step", n
        return n

    def leave_step(self) -> None:
        self.block, self.current = None, None

    def enter_capture(self) -> str | None:
        """Enters a graph_capture() block (allowed inside a step: a capture made lazily at the first replayed
        step); returns the block to restore on leaving."""
        self.check_open("graph_capture")
        if self.block == "graph_capture":
            raise ParityStateError(f"{self.owner}: graph_capture() entered inside graph_capture()")
        outer, self.block = self.block, "graph_capture"
        return outer

    def leave_capture(self, outer: str | None) -> None:
        self.block = outer
