"""tts_parity.engines.vllm._lifecycle without vLLM: a recorder's traces close when the runner's scheduler step reports
the request finished (before the runner's own `_update_states` drops it) and when the runner shuts down."""

from __future__ import annotations

from types import SimpleNamespace

from tts_parity.engines.vllm._lifecycle import close_with_runner


class Runner:
    def __init__(self, log: list) -> None:
        self.log = log

    def _update_states(self, scheduler_output):
        self.log.append(("update", sorted(scheduler_output.finished_req_ids)))
        return "updated"

    def shutdown(self, *args, **kwargs):
        self.log.append(("shutdown", args, kwargs))
        return "shut"


def test_finished_requests_close_before_the_runner_updates_and_close_runs_before_shutdown():
    log: list = []
    runner = Runner(log)
    close_with_runner(runner, lambda req_id: log.append(("finish", req_id)), lambda: log.append(("close",)))
    assert runner._update_states(SimpleNamespace(finished_req_ids={"b", "a"})) == "updated"
    assert runner.shutdown(1, timeout=2) == "shut"
    assert log[:2] in ([("finish", "a"), ("finish", "b")], [("finish", "b"), ("finish", "a")])
    assert log[2:] == [("update", ["a", "b"]), ("close",), ("shutdown", (1,), {"timeout": 2})]


def test_without_close_shutdown_is_left_alone_and_a_runner_without_shutdown_gets_one_that_closes():
    log: list = []
    runner = Runner(log)
    original = runner.shutdown
    close_with_runner(runner, lambda req_id: log.append(("finish", req_id)))
    assert runner.shutdown == original
    bare = SimpleNamespace(_update_states=lambda scheduler_output: None)
    close_with_runner(bare, lambda req_id: None, lambda: log.append(("close",)))
    assert bare.shutdown() is None
    assert log == [("close",)]


def test_a_recorder_failing_to_close_says_so_in_one_line_and_the_runner_still_updates_and_shuts_down(capsys):
    log: list = []
    runner = Runner(log)

    def finish(req_id: str) -> None:
        if req_id == "a":
            raise OSError(28, "No space left on device")
        log.append(("finish", req_id))

    def close() -> None:
        raise RuntimeError("the folder went away")

    close_with_runner(runner, finish, close)
    assert runner._update_states(SimpleNamespace(finished_req_ids=["a", "b"])) == "updated"
    assert runner.shutdown() == "shut"
    assert log == [("finish", "b"), ("update", ["a", "b"]), ("shutdown", (), {})]
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "tts_parity vLLM recorder: request a: closing the trace failed (OSError: [Errno 28] No space left on device);"
        " generation goes on",
        "tts_parity vLLM recorder: the runner's open traces: closing at shutdown failed"
        " (RuntimeError: the folder went away); the runner shuts down",
    ]
