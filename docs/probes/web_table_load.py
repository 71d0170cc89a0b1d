"""The live web table under racing clients: `rulespec serve GAME --seats human,policy` on
127.0.0.1 (a free port, records in a temporary folder), then --clients threads that race for
the human seat's decisions (each: read the view, answer a random option of the decision at the
version it read, the bots answering at once) until --count requests or --seconds have passed,
while --silent more connections are opened and left silent (half of them sending half a request
head); then --silent fresh silent connections and the answer time of a view request with them
open. The race's silent connections are counted as closed by the server at the end (its head
deadline, docs/PLAYTEST.md "Slow and idle clients").

Checked: every accepted decision is unique (one per table version) and consecutive (each
accepted answer was made at the version the previous accepted one left), and the saved record
holds exactly the accepted answers at the seat's places; no HTTP 500 (every status counted);
nothing on the server's stderr that looks like a traceback or an internal error.

    python docs/probes/web_table_load.py [--count REQUESTS] [--seconds S] [--clients N] [--silent N]
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from common import arguments, header

LINK = re.compile(r"^\s+(.+?) \((\w[^)]*)\): (http://127\.0\.0\.1:(\d+)/(seat|host)/(\S+))$")


def start(game: str, seed: int, records: Path) -> tuple[subprocess.Popen, int, dict[str, str]]:
    """The serve process, its port and the tokens of its links by seat label (and 'host')."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", RULESPEC_NATIVE="0")
    serve = subprocess.Popen([sys.executable, "-m", "rulespec", "serve", game, "--seats", "human,policy",
                              "--port", "0", "--seed", str(seed), "--records", str(records)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             start_new_session=True)
    tokens, port, deadline = {}, None, time.monotonic() + 180
    while time.monotonic() < deadline:
        line = serve.stdout.readline()
        if not line:
            raise SystemExit(f"serve ended before its links: {serve.stderr.read()[-2000:]}")
        match = LINK.match(line.rstrip("\n"))
        if match:
            port = int(match.group(4))
            tokens["host" if match.group(5) == "host" else match.group(2)] = match.group(6)
            if "host" in tokens:
                return serve, port, tokens
    raise SystemExit("serve printed no links within 180 s")


class Client(threading.Thread):
    """One racing client of the human seat."""

    def __init__(self, port: int, token: str, race: "Race", seed: int):
        super().__init__(daemon=True)
        self.port, self.token, self.race, self.rng = port, token, race, random.Random(seed)

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, json.dumps(body) if body is not None else None,
                               {"Content-Type": "application/json"})
            answer = connection.getresponse()
            data = answer.read()
            status = answer.status
        except (OSError, http.client.HTTPException) as err:
            status, data = f"no answer ({type(err).__name__})", b"{}"
        finally:
            connection.close()
        self.race.count(status)
        try:
            return status, json.loads(data or b"{}")
        except ValueError:
            return status, {}

    def run(self) -> None:
        while self.race.going():
            status, view = self.call("GET", f"/api/{self.token}/view")
            decision = view.get("decision") if status == 200 else None
            if view.get("result") or view.get("error"):
                self.race.over.set()
                return
            if not decision:
                continue
            option = self.rng.choice(decision["options"])["id"]
            asked = {"version": view["version"], "decisions": view["decisions"]}
            status, after = self.call("POST", f"/api/{self.token}/choose",
                                      {"option": option, "version": view["version"], "bots": True})
            if status == 200:
                self.race.accept(dict(asked, option=option, left=after["version"],
                                      decisions_after=after["decisions"]))


class Race:
    """What the clients share: the request budget, the statuses and the accepted answers."""

    def __init__(self, requests: int, seconds: float):
        self.left, self.until = requests, time.monotonic() + seconds
        self.lock, self.statuses, self.accepted = threading.Lock(), Counter(), []
        self.over = threading.Event()

    def going(self) -> bool:
        with self.lock:
            return self.left > 0 and time.monotonic() < self.until and not self.over.is_set()

    def count(self, status) -> None:
        with self.lock:
            self.left -= 1
            self.statuses[status] += 1

    def accept(self, answer: dict) -> None:
        with self.lock:
            self.accepted.append(answer)


def chain_problems(accepted: list[dict], choices: list[str]) -> list[str]:
    """Each accepted answer at its own version, made where the previous one left the table,
    and the record's choice at its place."""
    problems, ordered = [], sorted(accepted, key=lambda a: a["version"])
    versions = Counter(a["version"] for a in ordered)
    problems += [f"version {v} accepted {n} answers" for v, n in versions.items() if n > 1]
    for before, after in zip(ordered, ordered[1:]):
        if after["version"] != before["left"]:
            problems.append(f"answer at version {after['version']} after one that left version {before['left']}")
    for answer in ordered:
        at = answer["decisions"]
        if at >= len(choices) or choices[at] != answer["option"]:
            problems.append(f"the record's decision {at + 1} is not the accepted {answer['option']}")
    return problems


def silent_connections(port: int, count: int) -> list[socket.socket]:
    out = []
    for number in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if number % 2:
            sock.sendall(b"GET / HTTP/1.1\r\nHo")  # half a head, then nothing
        out.append(sock)
    return out


def answer_times(port: int, token: str, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        begun = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", f"/api/{token}/view")
        connection.getresponse().read()
        connection.close()
        times.append(time.monotonic() - begun)
    return times


def main() -> int:
    parser = arguments(__doc__, count=15000)
    # Terraforming Mars: a random human seat plays hundreds of decisions before the game ends
    # (the Fox and Twilight Struggle end after 40-60 of them)
    parser.add_argument("--game", default="terraforming_mars", help="the game served (default terraforming_mars)")
    parser.add_argument("--seconds", type=float, default=120, help="the race's limit in seconds (default 120)")
    parser.add_argument("--clients", type=int, default=50, help="racing clients (default 50)")
    parser.add_argument("--silent", type=int, default=200, help="silent connections (default 200)")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="probe-web-") as tmp:
        serve, port, tokens = start(args.game, args.seed, Path(tmp) / "records")
        try:
            human = next(t for label, t in tokens.items() if label != "host")
            quiet = answer_times(port, human, 10)
            race = Race(args.count, args.seconds)
            racing_silent = silent_connections(port, args.silent // 2)  # half before the race, half in it
            clients = [Client(port, human, race, args.seed * 1000 + n) for n in range(args.clients)]
            for client in clients:
                client.start()
            racing_silent += silent_connections(port, args.silent - args.silent // 2)
            racing = answer_times(port, human, 10)
            for client in clients:
                client.join()
            # the race's silent connections: the server closes them after its head deadline
            closed_by_server = sum(1 for s in racing_silent if not _open(s))
            silent = silent_connections(port, args.silent)
            with_silent = answer_times(port, human, 10)
            still_open = sum(1 for s in silent if _open(s))
            for sock in silent + racing_silent:
                sock.close()
            saved = Client(port, human, race, 0).call("POST", f"/api/{tokens['host']}/save", {"name": "probe"})[1]
            files = list((Path(tmp) / "records").glob(f"*/{saved.get('saved')}.json"))
            record = json.loads(files[0].read_text()) if files else {"choices": []}
        finally:
            serve.terminate()
            err = serve.communicate(timeout=30)[1]
    problems = chain_problems(race.accepted, record["choices"])
    summary = {"probe": "web table", **header(), "seconds": round(time.monotonic() - started, 1),
               "game": args.game, "clients": args.clients, "silent": args.silent,
               "requests": sum(race.statuses.values()), "statuses": {str(k): v for k, v in race.statuses.items()},
               "accepted": len(race.accepted), "chain_problems": problems[:10],
               "server_errors": race.statuses.get(500, 0),
               "server_tracebacks": int(bool(re.search(r"Traceback|internal error", err))),
               "view_ms_quiet_median": _ms(statistics.median(quiet)),
               "view_ms_racing_median": _ms(statistics.median(racing)),
               "view_ms_silent_open_median": _ms(statistics.median(with_silent)),
               "view_ms_silent_open_max": _ms(max(with_silent)), "silent_still_open": still_open,
               "race_silent_closed_by_server": closed_by_server,
               "game_over": race.over.is_set()}
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 1 if problems or summary["server_errors"] or summary["server_tracebacks"] else 0


def _open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


if __name__ == "__main__":
    sys.exit(main())
