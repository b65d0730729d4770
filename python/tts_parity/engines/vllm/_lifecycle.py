"""A recorder's traces close with the runner's own lifecycle, as every vLLM recorder here closes them: when the
scheduler reports a request finished (`runner._update_states`, before the runner drops it) and when the runner shuts
down (`runner.shutdown`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .failsafe import report, requests_label

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["close_with_runner"]


def close_with_runner(runner: Any, finish: Callable[[str], None], close: Callable[[], None] | None = None) -> None:
    """Patches `runner._update_states` to call `finish(req_id)` for each request the step reports finished, and, with
    `close`, `runner.shutdown` to call `close()` first (a runner without `shutdown` gets one that only closes).
    A recorder's failure there is said in one line and the runner's own call still runs (failsafe.py)."""
    update_states = runner._update_states

    def recorded_update_states(scheduler_output: Any) -> Any:
        finished = list(getattr(scheduler_output, "finished_req_ids", None) or ())
        for req_id in finished:
            try:
                finish(req_id)
            except Exception as error:  # the recorder never stops the engine
                report(requests_label([req_id]), "closing the trace", error, "generation goes on")
        return update_states(scheduler_output)

    runner._update_states = recorded_update_states
    if close is None:
        return
    shutdown = getattr(runner, "shutdown", None)

    def recorded_shutdown(*args: Any, **kwargs: Any) -> Any:
        try:
            close()
        except Exception as error:  # the runner still shuts down
            report("the runner's open traces", "closing at shutdown", error, "the runner shuts down")
        return shutdown(*args, **kwargs) if shutdown is not None else None

    runner.shutdown = recorded_shutdown
