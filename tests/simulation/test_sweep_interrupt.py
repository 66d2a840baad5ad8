"""Issue #28, item 17: Ctrl-C during a sweep on a local Dask cluster prints the one clean
"interrupted" line, no Dask tracebacks, and leaves no process of the sweep behind.

Ctrl-C in a terminal sends SIGINT to every process of the foreground group: the sweep and
its cluster's worker processes alike.  The test does the same (``killpg``) once the first
chunk is saved, so that the workers are mid-chunk."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")
def test_hostile_sweep_ctrl_c_on_a_local_cluster_prints_no_dask_traceback(tmp_path):
    out = tmp_path / "sweep"
    sweep = subprocess.Popen([sys.executable, "-m", "cardgen", "sweep", "himmel", "--games", "4000", "--seed", "1",
                              "--players", "3", "--workers", "2", "--out", str(out)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        began = time.monotonic()
        while not list(out.glob("chunks/*/*.json")) and time.monotonic() - began < 180 and sweep.poll() is None:
            time.sleep(0.1)
        assert sweep.poll() is None, sweep.communicate()
        os.killpg(sweep.pid, signal.SIGINT)  # what Ctrl-C does: the sweep and its workers alike
        _, err = sweep.communicate(timeout=120)
    finally:
        if sweep.poll() is None:
            os.killpg(sweep.pid, signal.SIGKILL)
    assert sweep.returncode == 130, err
    assert "Traceback" not in err and "ERROR" not in err, err
    assert err.strip().splitlines()[-1].startswith("interrupted: the finished chunks are kept in")
    deadline = time.monotonic() + 20
    while _group_alive(sweep.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _group_alive(sweep.pid), "a worker process outlived the interrupted sweep"
