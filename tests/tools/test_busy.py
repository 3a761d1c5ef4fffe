"""tools/busy.py: a command beside CPU spinners (`make test-busy`), which never outlive it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Each test starts processes and CPU spinners, which would slow the other test process of `make
# check` beside them: they run in `make test`.
pytestmark = pytest.mark.slow(s=0.5)

BUSY = Path(__file__).resolve().parents[2] / "tools" / "busy.py"
# The command beside the spinners: writes its siblings (busy.py's other children: the spinners)
# and whether each is running, then sleeps or exits as told.
SIBLINGS = """import os, sys, time
parent = os.getppid()
with open(f"/proc/{parent}/task/{parent}/children") as f:
    kids = [int(p) for p in f.read().split() if int(p) != os.getpid()]
with open(sys.argv[1], "w") as f:
    f.write(" ".join(map(str, kids)))
if sys.argv[2] == "sleep":
    time.sleep(60)
sys.exit(int(sys.argv[2]))
"""


def gone(pid: int) -> bool:
    """True when no process `pid` runs any more (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def spinners_of(path: Path) -> list[int]:
    for _ in range(200):  # the command writes them as it starts (a wait for that, capped at 20 s)
        if path.exists() and path.read_text():
            return [int(p) for p in path.read_text().split()]
        time.sleep(0.1)
    raise AssertionError("the command beside the spinners never started")


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")


@needs_proc
@pytest.mark.parametrize("status", [0, 3])
def test_the_spinners_run_beside_the_command_and_stop_with_it(tmp_path, status):
    out = tmp_path / "spinners"
    cmd = [sys.executable, str(BUSY), "--spinners", "2", "--"]
    beside = [sys.executable, "-c", SIBLINGS, str(out), str(status)]
    done = subprocess.run([*cmd, *beside], check=False)
    assert done.returncode == status  # the command's own status, a failure included
    pids = spinners_of(out)
    assert len(pids) == 2
    assert all(gone(p) for p in pids)


@needs_proc
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_the_spinners_stop_when_the_run_is_interrupted(tmp_path, how):
    out = tmp_path / "spinners"
    cmd = [sys.executable, str(BUSY), "--spinners", "2", "--"]
    # Its own process group, as a terminal's Ctrl+C reaches every process of the foreground job;
    # SIGINT not ignored, as in a terminal's foreground job (pytest run as a shell's background
    # job inherits it ignored, and busy.py keeps an ignored SIGINT ignored).
    run = subprocess.Popen(
        [*cmd, sys.executable, "-c", SIBLINGS, str(out), "sleep"],
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    pids = spinners_of(out)
    assert len(pids) == 2 and not any(gone(p) for p in pids)
    os.killpg(run.pid, how) if how == signal.SIGINT else run.send_signal(how)
    assert run.wait(timeout=30) != 0
    assert all(gone(p) for p in pids)


@needs_proc
def test_a_spinner_stops_by_itself_when_its_parent_dies(tmp_path):
    """busy.py killed outright (SIGKILL: no finally runs): its spinners notice and stop."""
    out = tmp_path / "spinners"
    cmd = [sys.executable, str(BUSY), "--spinners", "1", "--"]
    run = subprocess.Popen([*cmd, sys.executable, "-c", SIBLINGS, str(out), "sleep"])
    pids = spinners_of(out)
    with open(f"/proc/{run.pid}/task/{run.pid}/children") as f:
        command = [int(p) for p in f.read().split() if int(p) not in pids]
    run.kill()
    run.wait()
    for _ in range(300):  # a spinner checks its parent every million counts: well under a second
        if all(gone(p) for p in pids):
            break
        time.sleep(0.1)
    assert all(gone(p) for p in pids), [Path(f"/proc/{p}/status").read_text()[:400] for p in pids]
    for pid in command:  # the command itself (a sleep) was orphaned too: stop it
        os.kill(pid, signal.SIGKILL)
