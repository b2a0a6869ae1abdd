#!/usr/bin/env python3
"""A bot that attacks fow's trust boundary, for the tests of the sandbox, the program's
environment and its lifetime (tests/sandbox.rs, tests/lifetime.rs, tests/external.rs).

Usage: hostile.py MODE [ARG...], MODE one of
  probe --dir=D [--etc=1]
                  writes one JSON line to stderr saying what it could do: its uid, gid and
                  effective capabilities, whether it could remount its own folder
                  read-write, write a file into its own folder, into D or (with --etc=1,
                  for the sandbox only) into /etc, list
                  D, which process ids /proc shows, its environment's names and its open
                  descriptors; then plays legal moves
  stubborn --pids=F
                  ignores SIGTERM, SIGINT and SIGHUP, starts a child that ignores them too
                  and sleeps for ten minutes, appends "PID CHILD" to F, then plays legal
                  moves slowly (50 ms each)
  rtl             answers its first turn with an error whose text holds a right-to-left
                  override and zero-width characters
  badutf8         says hello with a name that is not UTF-8
"""
import ctypes, json, os, signal, sys, time

mode = sys.argv[1]
arg = dict(a[2:].split("=", 1) for a in sys.argv[2:] if a.startswith("--") and "=" in a)


def say(obj):
    print(json.dumps(obj), flush=True)


def attempt(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return e.__class__.__name__


def probe():
    here = os.path.dirname(os.path.abspath(__file__))
    status = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if ":" in l)
    libc = ctypes.CDLL(None, use_errno=True)
    MS_REMOUNT, MS_BIND = 32, 4096

    def remount():
        if libc.mount(b"none", here.encode(), None, MS_REMOUNT | MS_BIND, None) != 0:
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))

    def write(path):
        def w():
            with open(path, "w") as f:
                f.write("written by a bot\n")
        return w

    d = arg.get("dir", "/nonexistent")
    fds = sorted(int(f) for f in os.listdir("/proc/self/fd"))
    report = {
        "uid": os.getuid(),
        "gid": os.getgid(),
        "capeff": status["CapEff"].strip(),
        "remount": attempt(remount),
        "write_own": attempt(write(os.path.join(here, "written-by-bot"))),
        "write_dir": attempt(write(os.path.join(d, "written-by-bot"))),
        # Only where asked (--etc=1): unsandboxed as root, it would succeed.
        "write_etc": attempt(write("/etc/written-by-bot")) if arg.get("etc") else "not tried",
        "write_home": attempt(write(os.path.join(os.environ.get("HOME", "/nonexistent"), "scratch"))),
        "list_dir": attempt(lambda: os.listdir(d)),
        "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
        "env": sorted(os.environ),
        "home": os.environ.get("HOME", ""),
        "fds": fds[:-1] if len(fds) > 3 else fds,
    }
    print("probe " + json.dumps(report), file=sys.stderr, flush=True)


if mode == "probe":
    probe()
if mode == "stubborn":
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)
    child = os.fork()
    if child == 0:
        sys.stdin.close()
        os.close(1)
        time.sleep(600)
        os._exit(0)
    with open(arg["pids"], "a") as f:
        f.write(f"{os.getpid()} {child}\n")
if mode == "badutf8":
    sys.stdout.buffer.write(b'{"type": "hello", "protocol": 1, "name": "\xff\xfe bad"}\n')
    sys.stdout.flush()
for line in sys.stdin:
    msg = json.loads(line)
    t = msg["type"]
    if t == "hello":
        if mode != "badutf8":
            say({"type": "hello", "protocol": 1, "name": "hostile-" + mode})
    elif t == "new_game":
        say({"type": "ready"})
    elif t == "turn":
        if mode == "rtl":
            say({"type": "error", "message": "I \u202eniw\u202c\u200b\u2066 always\ufeff"})
            continue
        if mode == "stubborn":
            time.sleep(0.05)
        say({"type": "move", "move": msg["legal"][0]})
    elif t == "quit":
        sys.exit(0)
