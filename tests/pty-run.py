#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pty-run.py - run a command on a pseudo-terminal (its stdin, stdout and
stderr), write everything it printed, raw, to our stdout, and exit with
its status (128 + N when killed by signal N).

  pty-run.py [--sigint-after REGEX] [--timeout S] -- CMD [ARG...]

--sigint-after: once REGEX (bytes, Python re) has appeared in the
output, send SIGINT to the command's process group, as Ctrl-C does.
--timeout: SIGKILL the group after S seconds (default 60), exit 124.
"""
import os
import pty
import re
import select
import signal
import sys
import time


def main():
    args = sys.argv[1:]
    pattern, timeout = None, 60.0
    while args and args[0] != "--":
        if args[0] == "--sigint-after":
            pattern = re.compile(args[1].encode())
            args = args[2:]
        elif args[0] == "--timeout":
            timeout = float(args[1])
            args = args[2:]
        else:
            sys.exit("pty-run.py: unknown option " + args[0])
    cmd = args[1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    out, sent, deadline = b"", False, time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            sys.exit(124)
        r, _, _ = select.select([fd], [], [], min(left, 0.5))
        if not r:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the other side closed
            chunk = b""
        if not chunk:
            break
        out += chunk
        if pattern and not sent and pattern.search(out):
            # the terminal's foreground group: the command (a session
            # leader: its pid is its group)
            os.killpg(pid, signal.SIGINT)
            sent = True
    _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(out)
    if os.WIFSIGNALED(status):
        sys.exit(128 + os.WTERMSIG(status))
    sys.exit(os.WEXITSTATUS(status))


main()
