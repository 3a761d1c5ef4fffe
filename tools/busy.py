"""Run a command beside CPU spinners: the test suite as a busy machine runs it (issue 40).

Run: make test-busy [TESTS="tests/browser/test_main.py"] [SPINNERS=2]
     (or .venv/bin/python tools/busy.py --spinners 2 -- .venv/bin/pytest -m browser …)
Each spinner is a Python process that only counts, so a 2-core machine has two cores' worth of
other work while the command runs. They are stopped when the command ends, fails, or is
interrupted (Ctrl+C, SIGTERM); one whose parent dies without stopping it stops by itself.
Prints the load average before and after; exits with the command's status.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

# A spinner: count, and every million counts check that the process that started it is still
# there (its parent becomes another process when it dies, even by SIGKILL); on Linux the kernel
# also stops it when its parent dies (prctl PR_SET_PDEATHSIG).
SPIN = """import ctypes, os, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
except (AttributeError, OSError):
    pass  # not Linux: the count's check below does it
parent = int(sys.argv[1])  # busy.py's pid: it may have died before this line ran
n = 0
while True:
    n += 1
    if n % 1_000_000 == 1 and os.getppid() != parent:
        break
"""


def start_spinners(count: int) -> list[subprocess.Popen]:
    """`count` spinners, each a Python process counting, in a session of its own: Ctrl+C (sent
    to the terminal's whole job) never reaches one, even one still starting; busy.py stops it."""
    spin = [sys.executable, "-c", SPIN, str(os.getpid())]
    return [subprocess.Popen(spin, start_new_session=True) for _ in range(count)]


def stop(processes: list[subprocess.Popen]) -> None:
    """Stop them all (SIGTERM, then SIGKILL for one that does not go within 5 s)."""
    for p in processes:
        if p.poll() is None:
            p.terminate()
    for p in processes:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def load() -> str:
    """The load averages over 1, 5 and 15 minutes, as `uptime` prints them."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def run_busy(command: list[str], spinners: int) -> int:
    """Run `command` with `spinners` spinners beside it; its exit status."""

    def to_exit(signum, _frame):
        raise SystemExit(128 + signum)  # SIGTERM: stop the spinners on the way out (finally)

    # Ctrl+C reaches the command too (a terminal signals its whole foreground job): note it and
    # keep waiting, so that the command finishes its report and its status is the one returned.
    # Not KeyboardInterrupt: raised just after waitpid has reaped the command, it loses the
    # command's status, and subprocess then reports 0 (a busy machine hit it: issue 40's flake).
    # Started with SIGINT ignored (a shell's background job, nohup), busy.py and the command keep
    # ignoring it, as the shell meant.
    interrupted: list[int] = []
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, lambda signum, _frame: interrupted.append(signum))
    signal.signal(signal.SIGTERM, to_exit)
    print(f"busy: {spinners} CPU spinners beside: {' '.join(command)} (load {load()})", flush=True)
    busy = start_spinners(spinners)
    child = None
    try:
        if interrupted:  # Ctrl+C while the spinners started: the command never runs
            return 128 + signal.SIGINT
        child = subprocess.Popen(command)
        status = child.wait()
    finally:
        if child and child.poll() is None:
            child.terminate()
            child.wait()
        stop(busy)
        print(f"busy: spinners stopped (load {load()})", flush=True)
    return 128 - status if status < 0 else status  # killed by signal N: 128 + N, as a shell says


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spinners", type=int, default=2, help="CPU spinners (default 2)")
    parser.add_argument("command", nargs="+", help="the command, after --")
    args = parser.parse_args(argv)
    if args.spinners < 0:
        parser.error("--spinners must be 0 or more")
    return run_busy(args.command, args.spinners)


if __name__ == "__main__":
    sys.exit(main())
