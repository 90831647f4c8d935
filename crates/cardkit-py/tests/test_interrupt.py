"""Ctrl-C stops a long `validate` or `read_tables`: the run holds no GIL,
and its reads run Python's signal handlers, so SIGINT raises
KeyboardInterrupt within a moment, long before the run would end (a
folder of 4 GB of catalogs, which takes seconds)."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from conftest import SHARED, missing

# What each child runs first: a test runner started in the background (`&`
# in a script, nohup) hands SIGINT on ignored, and Python then installs no
# handler for it, so that Ctrl-C would never reach the run.
RESTORE_SIGINT = """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
"""

CHILD = RESTORE_SIGINT + """
import pathlib, sys, time
import cardkit
path = pathlib.Path(sys.argv[2])
print("started", flush=True)
began = time.monotonic()
try:
    if sys.argv[1] == "validate":
        cardkit.validate(path)
    else:
        # Its tables are held: 12 catalogs (1.2 GB).
        cardkit.read_tables(sorted(path.glob("*.json"))[:12])
except KeyboardInterrupt:
    print(f"interrupted after {time.monotonic() - began:.2f}", flush=True)
    raise
print(f"finished after {time.monotonic() - began:.2f}", flush=True)
"""


@pytest.fixture(scope="module")
def large_catalog(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A folder of catalogs that takes seconds to read: a 100 MB catalog
    made by the benchmark's generator, under 40 names (4 GB: `validate`
    reads 800 MB a second on an idle 2-core machine)."""
    generator = SHARED / "bench" / "make_allprintings.py"
    real = SHARED / "corpus" / "raw" / "set" / "mightstone_set_BRO.json"
    if not generator.exists() or not real.exists():
        missing(f"no catalog generator or set at {generator}, {real}")
    folder = tmp_path_factory.mktemp("large")
    first = folder / "catalog-00.json"
    subprocess.run(
        [sys.executable, str(generator), str(real), "--size-mb", "100", "--seed", "2", "--neutral", "-o", str(first)],
        check=True,
        capture_output=True,
    )
    for n in range(1, 40):
        os.link(first, folder / f"catalog-{n:02}.json")
    return folder


@pytest.mark.parametrize("function", ["validate", "read_tables"])
def test_sigint_raises_keyboard_interrupt(large_catalog: pathlib.Path, function: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, function, str(large_catalog)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "started"
    time.sleep(0.3)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    stopped = time.monotonic() - sent
    assert "interrupted after" in out and "finished" not in out, out + err
    assert "KeyboardInterrupt" in err
    assert child.returncode != 0
    # Stopped within a moment of the signal (the run takes seconds more).
    assert stopped < 2.0, stopped


FIFO_CHILD = RESTORE_SIGINT + """
import pathlib, sys
import cardkit
print("started", flush=True)
try:
    cardkit.validate(pathlib.Path(sys.argv[1]))
except KeyboardInterrupt:
    print("interrupted", flush=True)
    raise
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_sigint_stops_a_validate_waiting_on_a_fifo(tmp_path: pathlib.Path) -> None:
    """A FIFO with no writer: its opening waits, with the GIL released
    and Ctrl-C watched for, so SIGINT raises KeyboardInterrupt."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    child = subprocess.Popen(
        [sys.executable, "-c", FIFO_CHILD, str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "started"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    assert "interrupted" in out, out + err
    assert "KeyboardInterrupt" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_read_as_a_stream(tmp_path: pathlib.Path) -> None:
    import threading

    import cardkit

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(b'{"object": "migration"}'))
    writer.start()
    report = cardkit.validate(fifo)
    writer.join()
    # Read as a stream: the one document was read and checked (it lacks a
    # migration's required members), not left unread.
    summary = report.to_dict()["summary"]
    assert (summary["files"], summary["unreadable"], summary["documents"]) == (1, 0, 1), summary
    assert [d["kind"] for d in report.to_dict()["files"][0]["documents"]] == ["migration"]
