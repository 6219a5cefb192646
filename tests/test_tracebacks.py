"""The proof that a test logs no traceback (tests/tracebacks.py) finds the tracebacks it says."""

from __future__ import annotations

import logging

from tests.tracebacks import TracebackRecorder, logged_tracebacks, server_logs


def log_failure(name: str) -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger(name).exception("It failed.")


def test_a_traceback_of_a_watched_logger_is_kept_even_where_no_handler_shows_it():
    uvicorn = logging.getLogger("uvicorn.error")
    propagates = uvicorn.propagate
    uvicorn.propagate = False
    try:
        with TracebackRecorder() as recorder:
            log_failure("django_services.server")
            log_failure("uvicorn.error")
            log_failure("some.library")  # not watched
            logging.getLogger("socketio.server").error("No traceback.")
    finally:
        uvicorn.propagate = propagates
    assert [record.name for record in recorder.records] == [
        "django_services.server",
        "uvicorn.error",
    ]
    assert "ValueError: boom" in recorder.report()
    assert logging.getLogRecordFactory() is recorder.factory


def test_a_traceback_a_server_process_logs_is_found_since_the_mark(tmp_path):
    earlier = tmp_path / "server.log"
    earlier.write_text("Traceback (most recent call last):\n  old\n")
    before = server_logs(tmp_path)
    assert logged_tracebacks(tmp_path, before) == []

    with earlier.open("a") as log:
        log.write("INFO: fine\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "other.log").write_text("Traceback (most recent call last):\n  new\n")
    assert logged_tracebacks(tmp_path, before) == [
        "--- other.log\nTraceback (most recent call last):\n  new\n"
    ]
