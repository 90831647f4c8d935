#!/usr/bin/env python3
"""Resource bounds of `cardkit serve` on hostile requests: starts the service
on a free port for each group of checks, with the flags the group needs,
sends the requests over raw sockets and prints the wall time, the server's
peak RSS (VmHWM in /proc/PID/status) and the status answered, then a verdict:
  - status: the one the book promises (docs/service.md) (200 with `valid` false, 408, 413,
    415, 400), never a crash or a hang;
  - time and memory: at most the bound given in each label (about twice what
    was measured on a 2-core machine);
  - after every check, /healthz answers `ok` on a fresh connection.
Inputs are generated under target/hostile (the gzip bomb and the 400 MB
member name are cached there).
Prints one line per check and exits 1 if any check fails.

Usage: bench/serve_hostile.py [CARDKIT_BINARY [CHECK...]]
  (default target/release/cardkit, every check; CHECK is a function's name,
  such as idle_flood, to run only those)
Standard library only.
"""

import gzip
import json
import os
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                         else os.path.join(ROOT, "target/release/cardkit"))
os.chdir(ROOT)
HOSTILE = "target/hostile"
CATALOG = "target/bench-data/catalog-small.json"
MB = 1 << 20
failed = False
key400_passed = False


class Server:
    """`cardkit serve` on a free port; `rss()` is its peak RSS in MB so far."""

    def __init__(self, *flags):
        self.proc = subprocess.Popen(
            [BINARY, "serve", "--addr", "127.0.0.1:0", *flags],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        line = self.proc.stderr.readline().decode(errors="replace")
        if "listening on http://" not in line:
            self.stop()
            raise RuntimeError(f"cardkit serve did not start: {line!r}")
        self.port = int(line.split("listening on http://", 1)[1].split()[0].rsplit(":", 1)[1])
        self.log = []
        # Drain standard error so that the server never blocks on it.
        threading.Thread(target=lambda: self.log.extend(self.proc.stderr), daemon=True).start()

    def rss(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) // 1024
        except OSError:
            pass
        return -1

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Response:
    def __init__(self):
        self.status = None
        self.headers = {}
        self.body = b""
        self.size = 0          # bytes of body received
        self.first_byte = None  # seconds to the response's first byte
        self.elapsed = None    # seconds to the end of the response
        self.error = None      # why the response did not come whole

    def json(self):
        return json.loads(self.body)


class Reader:
    """Buffered reads from a socket, for parsing a response as it comes."""

    def __init__(self, sock, started, response):
        self.sock, self.started, self.response = sock, started, response
        self.buf, self.at = b"", 0

    def fill(self):
        data = self.sock.recv(256 * 1024)
        if not data:
            raise EOFError("connection closed")
        if self.response.first_byte is None:
            self.response.first_byte = time.monotonic() - self.started
        self.buf = self.buf[self.at:] + data
        self.at = 0

    def until(self, marker):
        while True:
            found = self.buf.find(marker, self.at)
            if found >= 0:
                out, self.at = self.buf[self.at:found], found + len(marker)
                return out
            if len(self.buf) - self.at > 64 * 1024:
                raise ValueError("line too long")
            self.fill()

    def take(self, n):
        """Up to n bytes, at least one."""
        if self.at == len(self.buf):
            self.fill()
        out = self.buf[self.at:self.at + n]
        self.at += len(out)
        return out


def read_chunked(reader, got):
    """A chunked body: the chunks whole in the buffer are taken in a tight
    loop (a streamed report comes as a chunk per document), the others a
    piece at a time."""
    while True:
        buf, at, pieces = reader.buf, reader.at, []
        while True:
            end = buf.find(b"\r\n", at)
            if end < 0:
                break
            size = int(buf[at:end].split(b";")[0], 16)
            if size == 0 or end + size + 4 > len(buf):
                break
            pieces.append(buf[end + 2:end + 2 + size])
            at = end + size + 4
        reader.at = at
        if pieces:
            got(b"".join(pieces))
        size = int(reader.until(b"\r\n").split(b";")[0], 16)
        if size == 0:
            reader.until(b"\r\n")
            return
        while size:
            data = reader.take(size)
            size -= len(data)
            got(data)
        reader.until(b"\r\n")


def exchange(port, method, path, headers=(), body=None, chunked=False, sink=None,
             timeout=30, after_send=None):
    """One request on a fresh connection. `body` is bytes or an iterable of
    bytes, sent on a thread while the response is read (a streamed report
    must be read for the body to go on). `sink(chunk)` takes the response
    body as it comes instead of keeping it. `after_send(sock)` runs once the
    body is sent. Returns a Response; errors are in its `error`."""
    response = Response()
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", *headers]
    if chunked:
        head.append("Transfer-Encoding: chunked")
    elif isinstance(body, (bytes, bytearray)) and not any(
            h.lower().startswith("content-length:") for h in headers):
        head.append(f"Content-Length: {len(body)}")
    started = time.monotonic()
    send_error = []

    def send():
        try:
            sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
            pieces = [body] if isinstance(body, (bytes, bytearray)) else (body or [])
            for piece in pieces:
                if chunked:
                    if piece:
                        sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                else:
                    sock.sendall(piece)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
            if after_send:
                after_send(sock)
        except OSError as error:  # the server answered early and closed: fine
            send_error.append(error)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    reader = Reader(sock, started, response)
    keep = sink is None
    try:
        status_line = reader.until(b"\r\n").decode("latin-1")
        response.status = int(status_line.split()[1])
        while True:
            line = reader.until(b"\r\n").decode("latin-1")
            if not line:
                break
            name, _, value = line.partition(":")
            response.headers[name.strip().lower()] = value.strip()

        def got(data):
            response.size += len(data)
            if keep:
                response.body += data
            else:
                sink(data)

        if "chunked" in response.headers.get("transfer-encoding", "").lower():
            read_chunked(reader, got)
        elif "content-length" in response.headers:
            left = int(response.headers["content-length"])
            while left:
                data = reader.take(left)
                left -= len(data)
                got(data)
        else:
            while True:
                try:
                    got(reader.take(1 << 20))
                except EOFError:
                    break
    except (OSError, EOFError, ValueError) as error:
        response.error = f"{type(error).__name__}: {error}"
    response.elapsed = time.monotonic() - started
    sock.close()
    sender.join(5)
    return response


def healthz(port, timeout=2.0):
    """(answered ok within timeout on a fresh connection, seconds)."""
    started = time.monotonic()
    try:
        response = exchange(port, "GET", "/healthz", timeout=timeout)
    except OSError:
        return False, time.monotonic() - started
    good = response.status == 200 and response.body.strip() == b"ok"
    return good and response.elapsed <= timeout, response.elapsed


def check(label, figures, problems, server):
    """Prints the check's line; `problems` empty means ok. The server must
    still be up and answer /healthz."""
    global failed
    if not server.alive():
        problems.append(f"server exited with {server.proc.returncode}")
    else:
        good, seconds = healthz(server.port)
        if not good:
            problems.append(f"/healthz did not answer within 2 s ({seconds:.2f}s)")
    if problems:
        failed = True
        print(f"FAIL  {label:<46} {figures}: {'; '.join(problems)}", flush=True)
    else:
        print(f"ok    {label:<46} {figures}", flush=True)


def bounds(problems, seconds, max_seconds, rss, max_rss):
    if seconds > max_seconds:
        problems.append(f"took {seconds:.2f}s > {max_seconds}s")
    if rss > max_rss:
        problems.append(f"peak RSS {rss} MB > {max_rss} MB")


def expect(problems, response, status, problem_json=False):
    if response.status != status:
        problems.append(f"status {response.status} (want {status}; {response.error or 'no error'})")
    elif problem_json and "application/problem+json" not in response.headers.get("content-type", ""):
        problems.append(f"content-type {response.headers.get('content-type')!r}")


def report_valid(response):
    try:
        return response.json()["files"][0]["valid"]
    except (ValueError, KeyError, IndexError, TypeError):
        return "unparsed"


def pieces(total, piece, byte=b" "):
    block = byte * piece
    sent = 0
    while sent < total:
        n = min(piece, total - sent)
        yield block[:n]
        sent += n


JSON = "Content-Type: application/json"
NDJSON = "Content-Type: application/x-ndjson"


def slowloris():
    server = Server("--max-concurrent", "128")
    try:
        conns = []
        started = time.monotonic()
        for _ in range(300):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
            conns.append(sock)
        opened = time.monotonic() - started
        time.sleep(0.5)
        answers = [healthz(server.port) for _ in range(3)]
        worst = max(seconds for _, seconds in answers)
        problems = []
        if not all(good for good, _ in answers):
            problems.append("/healthz not answered within 2 s while stalled")
        for sock in conns:
            sock.close()
        rss = server.rss()
        bounds(problems, worst, 2, rss, 24)
        check("slowloris: 300 stalled heads (2 s, 24 MB)",
              f"opened in {opened:.2f}s, /healthz {worst * 1000:.0f} ms, {rss} MB",
              problems, server)
    finally:
        server.stop()


def deep_nesting():
    server = Server()
    try:
        response = exchange(server.port, "POST", "/v1/validate", [JSON],
                            pieces(20 * MB, 64 * 1024, b"["), chunked=True)
        rss = server.rss()
        problems = []
        expect(problems, response, 200)
        valid = report_valid(response)
        if valid is not False:
            problems.append(f"valid {valid}")
        bounds(problems, response.elapsed, 2, rss, 192)
        check("20 MB of `[`, chunked (2 s, 192 MB)",
              f"{response.elapsed:.2f}s, {rss} MB, {response.status}, valid {valid}",
              problems, server)
    finally:
        server.stop()


def ensure_bomb():
    """2 GiB of spaces, gzipped to 2 MB (cached)."""
    bomb = os.path.join(HOSTILE, "bomb.gz")
    if not os.path.exists(bomb):
        block = b" " * (4 * MB)
        with gzip.open(bomb + ".part", "wb", compresslevel=6) as out:
            for _ in range(512):  # 2 GiB
                out.write(block)
        os.replace(bomb + ".part", bomb)
    with open(bomb, "rb") as f:
        return f.read()


def gzip_bomb():
    compressed = ensure_bomb()
    # Declared by Content-Encoding, and sent without it (told by its magic
    # bytes): the same limit on the bytes decoded.
    for headers, label in [([JSON, "Content-Encoding: gzip"], "gzip bomb"),
                           ([JSON], "gzip bomb, no Content-Encoding")]:
        server = Server("--max-body", "64MiB")
        try:
            # Whitespace is no document: reading it need hold none of it
            # (blank JSON Lines cost 16 MB), so the bound is that of a
            # streamed read, not of the 64 MiB let through.
            response = exchange(server.port, "POST", "/v1/validate", headers, compressed)
            rss = server.rss()
            problems = []
            expect(problems, response, 413, problem_json=True)
            bounds(problems, response.elapsed, 2, rss, 32)
            check(f"{label}: 2 GiB in 2 MB, 64 MiB limit (2 s, 32 MB)",
                  f"{response.elapsed:.2f}s, {rss} MB, {response.status}, "
                  f"{len(compressed) / MB:.1f} MB sent", problems, server)
        finally:
            server.stop()


def many_lines():
    server = Server()
    try:
        # The report (about 270 MB) is counted as it comes, not kept: its
        # summary is its last member, parsed from the tail with json.
        tail = bytearray()

        def sink(data):
            tail.extend(data)
            if len(tail) > MB:
                del tail[:-64 * 1024]

        response = exchange(server.port, "POST", "/v1/validate", [NDJSON],
                            pieces(3_000_000, 30_000, b"{}\n"), chunked=True, sink=sink)
        rss = server.rss()
        problems = []
        expect(problems, response, 200)
        documents = None
        try:
            text = tail.decode(errors="replace")
            key = '"summary":'
            summary, _ = json.JSONDecoder().raw_decode(text, text.rindex(key) + len(key))
            documents = summary["documents"]
        except (ValueError, KeyError, TypeError) as error:
            problems.append(f"summary unparsed: {error}")
        if documents != 1_000_000:
            problems.append(f"documents {documents}")
        bounds(problems, response.elapsed, 6, rss, 128)
        check("1,000,000 `{}` lines (6 s, 128 MB)",
              f"{response.elapsed:.2f}s (report from {response.first_byte:.2f}s), {rss} MB, "
              f"{response.status}, report {response.size / MB:.0f} MB, documents {documents}",
              problems, server)
    finally:
        server.stop()


def bad_bytes():
    server = Server()
    try:
        body = (b'{"object":"migration","uri":"https://x.example/\xff\xfe\xc0\xaf",'
                b'"note":"a\x00b\x01c\x1f\x7f","k\xed\xa0\x80":1}\n')
        figures, problems = [], []
        for name, data in [("invalid UTF-8 and controls", body), ("raw bytes", bytes(range(256)) * 64)]:
            response = exchange(server.port, "POST", "/v1/validate", [JSON], data, timeout=5)
            expect(problems, response, 200)
            valid = report_valid(response)
            if valid is not False:
                problems.append(f"{name}: valid {valid}")
            figures.append(f"{name}: {response.status} valid {valid}")
        rss = server.rss()
        bounds(problems, 0, 0, rss, 16)
        check("invalid UTF-8, control characters (16 MB)", f"{'; '.join(figures)}, {rss} MB",
              problems, server)

        response = exchange(server.port, "POST", "/v1/validate", ["Content-Type: text/plain"],
                            b'{"object":"migration"}', timeout=5)
        problems = []
        expect(problems, response, 415, problem_json=True)
        bounds(problems, response.elapsed, 1, 0, 0)
        check("text/plain body (1 s)", f"{response.elapsed * 1000:.0f} ms, {response.status}",
              problems, server)

        response = exchange(server.port, "POST", "/v1/validate", [JSON, "Content-Length: 1000"],
                            [b'{"object":'], timeout=5,
                            after_send=lambda sock: sock.shutdown(socket.SHUT_WR))
        problems = []
        expect(problems, response, 400, problem_json=True)
        bounds(problems, response.elapsed, 1, 0, 0)
        check("body cut: 10 of 1000 bytes, then EOF (1 s)",
              f"{response.elapsed * 1000:.0f} ms, {response.status}", problems, server)
    finally:
        server.stop()


def slow_upload():
    server = Server("--timeout", "2")
    try:
        def trickle():
            for _ in range(30):
                yield b" "
                time.sleep(1)

        response = exchange(server.port, "POST", "/v1/validate", [JSON, "Content-Length: 30"],
                            trickle(), timeout=10)
        rss = server.rss()
        problems = []
        expect(problems, response, 408, problem_json=True)
        bounds(problems, response.elapsed, 4, rss, 16)
        check("a byte a second, --timeout 2 (4 s, 16 MB)",
              f"{response.elapsed:.2f}s, {rss} MB, {response.status}", problems, server)
    finally:
        server.stop()


def ensure_catalog():
    if not os.path.exists(CATALOG):
        os.makedirs(os.path.dirname(CATALOG), exist_ok=True)
        subprocess.run(["python3", "../shared/bench/make_allprintings.py",
                        "../shared/corpus/raw/set/mightstone_set_BRO.json", "--size-mb", "10",
                        "--seed", "1", "--neutral", "-o", CATALOG], check=True)
    with open(CATALOG, "rb") as f:
        return f.read()


def concurrent_uploads(catalog):
    server = Server()
    try:
        results = [None] * 16

        def upload(i):
            results[i] = exchange(server.port, "POST", "/v1/validate", [JSON],
                                  pieces_of(catalog, 256 * 1024), chunked=True, timeout=30)

        started = time.monotonic()
        threads = [threading.Thread(target=upload, args=(i,)) for i in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        rss = server.rss()
        problems = []
        statuses = sorted({r.status for r in results})
        valid = sum(1 for r in results if r.status == 200 and report_valid(r) is True)
        if statuses != [200] or valid != 16:
            problems.append(f"statuses {statuses}, {valid} valid; "
                            f"{[r.error for r in results if r.error][:1]}")
        bounds(problems, elapsed, 5, rss, 640)
        check("16 concurrent 10 MB catalogs (5 s, 640 MB)",
              f"{elapsed:.2f}s, {rss} MB, statuses {statuses}, {valid}/16 valid",
              problems, server)
    finally:
        server.stop()


def pieces_of(data, piece):
    view = memoryview(data)
    for at in range(0, len(data), piece):
        yield view[at:at + piece]


def abandoned_uploads(catalog, label="50 half uploads dropped", paced=True):
    """50 uploads of half of `catalog`, each dropped, then the whole of it.
    `paced`: sending a half takes longer than validating it (a plain
    catalog), so that at most a few of the 50 find the 4 slots taken, and
    the whole is validated at once. Otherwise (a gzipped catalog, sent in a
    few ms) the 50 come faster than their received bytes are decoded and
    validated: how many are shed is only told, and the whole is sent again
    until the slots are free (within 2 s)."""
    server = Server("--max-concurrent", "4")
    try:
        half = catalog[:len(catalog) // 2]
        shed = 0
        started = time.monotonic()
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            try:
                sock.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n" % len(catalog))
                sock.sendall(half)
                sock.setblocking(False)
                try:
                    if b" 503 " in sock.recv(4096)[:16]:
                        shed += 1
                except BlockingIOError:
                    pass
            except OSError:
                shed += 1  # answered early (refused) and closed
            sock.close()
        elapsed = time.monotonic() - started
        response = exchange(server.port, "POST", "/v1/validate", [JSON], catalog, timeout=30)
        while not paced and response.status == 503 and time.monotonic() - started < elapsed + 2:
            time.sleep(0.05)
            response = exchange(server.port, "POST", "/v1/validate", [JSON], catalog, timeout=30)
        waited = time.monotonic() - started - elapsed
        rss = server.rss()
        problems = []
        expect(problems, response, 200)
        valid = report_valid(response)
        if valid is not True:
            problems.append(f"valid {valid}")
        # A slot is freed once its validation reads on and finds the client
        # gone, after the bytes already received: under load the next upload
        # may find all 4 still draining (2 to 5 of the 50 on a quiet
        # machine, 12 on a loaded one). Slots not freed at all would refuse
        # every upload after the 4th: 46.
        if paced and shed > 25:
            problems.append(f"{shed} of the 50 refused (slots not freed)")
        bounds(problems, elapsed + waited, 4, rss, 128)
        check(f"{label}, 4 slots (4 s, 128 MB)",
              f"{elapsed:.2f}s + {waited:.2f}s, {rss} MB, {shed} shed, "
              f"then {response.status} valid {valid}", problems, server)
    finally:
        server.stop()


H2C_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def idle_connection(port, h2c):
    """A connection that sends nothing (HTTP/1), or only HTTP/2's preface
    and an empty SETTINGS frame (h2c), then waits."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if h2c:
        sock.sendall(H2C_PREFACE)
    return sock


def closed_by_server(sock, within):
    """Whether the server closes `sock` within `within` seconds (what it
    sends, such as HTTP/2's SETTINGS, is read and dropped)."""
    end = time.monotonic() + within
    try:
        while time.monotonic() < end:
            sock.settimeout(max(0.01, end - time.monotonic()))
            if not sock.recv(65536):
                return True
    except socket.timeout:
        return False
    except OSError:
        return True  # reset
    return False


def idle_flood():
    """256 connections that send no byte and 64 h2c ones that send only the
    preface and SETTINGS, with the default flags (256 connections at most):
    /healthz and / must still answer at once (the connections idle longest
    are closed for new ones); then, with --idle-timeout 3, idle connections
    of both kinds are closed within 3 s (and a second)."""
    server = Server()
    try:
        started = time.monotonic()
        conns = [idle_connection(server.port, i >= 256) for i in range(320)]
        opened = time.monotonic() - started
        time.sleep(0.5)
        answers = [healthz(server.port) for _ in range(3)]
        page = exchange(server.port, "GET", "/", timeout=2)
        worst = max(seconds for _, seconds in answers + [(None, page.elapsed)])
        problems = []
        if not all(good for good, _ in answers):
            problems.append("/healthz not answered within 2 s behind idle connections")
        expect(problems, page, 200)
        for sock in conns:
            sock.close()
        rss = server.rss()
        bounds(problems, worst, 2, rss, 32)
        check("256 idle + 64 idle h2c connections (2 s, 32 MB)",
              f"opened in {opened:.2f}s, /healthz and / within {worst * 1000:.0f} ms, {rss} MB",
              problems, server)
    finally:
        server.stop()
    server = Server("--idle-timeout", "3")
    try:
        conns = [idle_connection(server.port, i % 2 == 1) for i in range(100)]
        started = time.monotonic()
        results = [None] * len(conns)

        def watch(i):
            results[i] = closed_by_server(conns[i], 6)

        threads = [threading.Thread(target=watch, args=(i,)) for i in range(len(conns))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        closed = sum(1 for r in results if r)
        for sock in conns:
            sock.close()
        problems = []
        if closed != len(conns):
            problems.append(f"{len(conns) - closed} of {len(conns)} not closed within 6 s")
        bounds(problems, elapsed, 4, 0, 0)
        check("--idle-timeout 3: 50 idle, 50 idle h2c (4 s)",
              f"{closed}/{len(conns)} closed by {elapsed:.2f}s", problems, server)
    finally:
        server.stop()


def slow_bodies(catalog):
    """64 uploads, the default --max-concurrent, each of a byte every 5 s of
    a declared 100 MB body: the minimum body rate (1 KiB/s over 10 s by
    default) answers each 408 and frees its slot, after which a catalog is
    validated (200)."""
    server = Server()
    try:
        results = [None] * 64
        stop = threading.Event()

        def trickle():
            yield b"["
            while not stop.wait(5):
                yield b" "

        def upload(i):
            results[i] = exchange(server.port, "POST", "/v1/validate",
                                  [JSON, "Content-Length: 100000000"], trickle(), timeout=40)

        started = time.monotonic()
        threads = [threading.Thread(target=upload, args=(i,), daemon=True) for i in range(64)]
        for thread in threads:
            thread.start()
        time.sleep(1)
        during = exchange(server.port, "POST", "/v1/validate", [JSON], b"{}", timeout=5)
        for thread in threads:
            thread.join(45)
        stop.set()
        # When the last of them was answered (their senders stop later).
        freed = max([r.elapsed for r in results if r is not None] or [time.monotonic() - started])
        after = exchange(server.port, "POST", "/v1/validate", [JSON], catalog, timeout=30)
        rss = server.rss()
        problems = []
        statuses = sorted({r.status for r in results if r is not None})
        timed_out = sum(1 for r in results if r is not None and r.status == 408)
        if timed_out != 64:
            problems.append(f"{timed_out}/64 answered 408 (statuses {statuses})")
        expect(problems, after, 200)
        bounds(problems, freed, 15, rss, 64)
        check("64 uploads of a byte every 5 s (15 s, 64 MB)",
              f"while they held the slots: {during.status}; all 408 by {freed:.2f}s; "
              f"then a catalog {after.status}; {rss} MB", problems, server)
    finally:
        stop.set()
        server.stop()


def key400_body():
    """A gzip body (about 400 KB) holding one member name of 400 MB:
    `{"kkk…": 1}`, cached under target/hostile."""
    path = os.path.join(HOSTILE, "key400.gz")
    if not os.path.exists(path):
        block = b"k" * (4 * 1000 * 1000)
        with gzip.open(path + ".part", "wb", compresslevel=9) as out:
            out.write(b'{"')
            for _ in range(100):  # 400,000,000 bytes
                out.write(block)
            out.write(b'": 1}')
        os.replace(path + ".part", path)
    with open(path, "rb") as f:
        return f.read()


def key400():
    """The 400 MB member name, as a set, sent without Content-Encoding (told
    by its first bytes): a 200 whose report quotes the name bounded, within
    time and memory bounds. The service sends any report in chunks of 64
    KiB, and the library quotes a name bounded (16 KiB): with a library that
    quoted it whole, 29 s, 1667 MB and a report of 381 MB here. A document
    is held once while it is validated (a container's documents one at a
    time): about 400 MB here (903 MB when the pointers copied the name and
    the reading made room for as much again)."""
    body = key400_body()
    server = Server()
    try:
        response = exchange(server.port, "POST", "/v1/validate?kind=set", [JSON], body,
                            timeout=120, sink=lambda data: None)
        rss = server.rss()
        problems = []
        expect(problems, response, 200)
        if response.size > MB:
            problems.append(f"report of {response.size / MB:.0f} MB > 1 MB")
        bounds(problems, response.elapsed, 10, rss, 512)
        global key400_passed
        key400_passed = not problems
        check("a 400 MB member name, gzip (10 s, 512 MB, report 1 MB)",
              f"{response.elapsed:.2f}s, {rss} MB, {response.status}, "
              f"report {response.size / 1024:.0f} KiB", problems, server)
    finally:
        server.stop()


def key400_six():
    """Six of the 400 MB member names at once (once, they aborted the
    server: an allocation of 400 MB failed). Run only when one alone kept
    to its bounds: six over them would take the machine's memory."""
    if not key400_passed:
        global failed
        failed = True
        print("FAIL  six 400 MB member names at once: not run, one alone went past its bounds",
              flush=True)
        return
    body = key400_body()
    server = Server()
    try:
        results = [None] * 6

        def upload(i):
            results[i] = exchange(server.port, "POST", "/v1/validate?kind=set", [JSON], body,
                                  timeout=120, sink=lambda data: None)

        started = time.monotonic()
        threads = [threading.Thread(target=upload, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        rss = server.rss()
        problems = []
        statuses = sorted({r.status for r in results})
        largest = max(r.size for r in results)
        if statuses != [200]:
            problems.append(f"statuses {statuses}")
        if largest > MB:
            problems.append(f"a report of {largest / MB:.0f} MB > 1 MB")
        # No abort, and each request within about one copy of its document.
        bounds(problems, elapsed, 60, rss, 3072)
        check("six 400 MB member names at once (60 s, 3072 MB)",
              f"{elapsed:.2f}s, {rss} MB, statuses {statuses}, "
              f"largest report {largest / 1024:.0f} KiB", problems, server)
    finally:
        server.stop()


def render_card(children, width=750, height=1050):
    """A card design of `children` layers, as bytes."""
    return json.dumps({"name": "Hostile", "width": width, "height": height,
                       "data": {"type": "group", "children": children}}).encode()


def render_answer(response):
    """The JSON answer of /v1/render: (report lines, svg bytes), or None."""
    try:
        answer = response.json()
        return len(answer["report"]), len(answer["svg"])
    except (ValueError, KeyError, TypeError):
        return None


def hostile_renders():
    """POST /v1/render on hostile designs: a problem (413, 422) or a render
    bounded in time and memory, never a 5xx; the service up after each. A
    render holds its body whole (64 MiB at most, whatever --max-body), so
    the bounds are above it. Bounds about twice the release binary's
    figures on a loaded 2-core machine."""
    compressed = ensure_bomb()
    text = {"type": "text", "size": 12, "x": 10, "y": 10, "width": 700, "height": 900}
    cases = [
        # label, body, headers, status, seconds, MB
        ("render: gzip bomb, 2 GiB in 2 MB", compressed, [JSON, "Content-Encoding: gzip"],
         413, 2, 224),
        ("render: 60 MB of `[`", b"[" * (60 * MB), [JSON], 422, 1, 160),
        ("render: 100,001 layers", render_card([{"type": "group", "children": []}] * 100_001),
         [JSON], 422, 2, 256),
        ("render: 100,000,000 px square card", render_card([], 100_000_000, 100_000_000),
         [JSON], 422, 1, 32),
        ("render: a text of 10 MB", render_card([dict(text, text="word " * (2 * MB))]),
         [JSON], 200, 1, 96),
        ("render: 20,000 text layers", render_card(
            [dict(text, text="a few words each", x=i % 700, y=i % 1000) for i in range(20_000)]),
         [JSON], 200, 24, 640),
    ]
    for label, body, headers, status, max_seconds, max_rss in cases:
        server = Server()
        try:
            response = exchange(server.port, "POST", "/v1/render", headers, body, timeout=120)
            rss = server.rss()
            problems = []
            expect(problems, response, status, problem_json=status != 200)
            answer = render_answer(response) if status == 200 else None
            if status == 200 and answer is None:
                problems.append("no JSON answer")
            bounds(problems, response.elapsed, max_seconds, rss, max_rss)
            shown = f", {answer[0]} report lines, SVG {answer[1] / MB:.1f} MB" if answer else ""
            check(f"{label} ({max_seconds} s, {max_rss} MB)",
                  f"{response.elapsed:.2f}s, {rss} MB, {response.status}{shown}",
                  problems, server)
        finally:
            server.stop()
    # Renders at once past --max-concurrent: shed with 503, never queued.
    template = open("examples/valid/template.json", "rb").read()
    server = Server("--max-concurrent", "4")
    try:
        results = []
        started = time.monotonic()
        threads = [threading.Thread(target=lambda: results.append(
            exchange(server.port, "POST", "/v1/render", [JSON, "Accept: image/png"], template)))
            for _ in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        rss = server.rss()
        statuses = sorted(response.status for response in results)
        problems = []
        if any(status not in (200, 503) for status in statuses) or 200 not in statuses:
            problems.append(f"statuses {statuses}")
        bounds(problems, elapsed, 2, rss, 128)
        check("render: 16 PNGs at once, 4 slots (2 s, 128 MB)",
              f"{elapsed:.2f}s, {rss} MB, {statuses.count(200)} drawn, "
              f"{statuses.count(503)} shed", problems, server)
    finally:
        server.stop()


def main():
    os.makedirs(HOSTILE, exist_ok=True)
    catalog = ensure_catalog()
    only = set(sys.argv[2:])
    for run, args in [(slowloris, ()), (idle_flood, ()), (deep_nesting, ()), (gzip_bomb, ()), (many_lines, ()),
                      (bad_bytes, ()), (slow_upload, ()), (concurrent_uploads, (catalog,)),
                      (slow_bodies, (catalog,)), (key400, ()), (key400_six, ()),
                      (abandoned_uploads, (catalog,)), (hostile_renders, ()),
                      # Gzipped, sent without Content-Encoding: told by its
                      # magic bytes, decoded as it arrives.
                      (abandoned_uploads, (gzip.compress(catalog, 6),
                                           "50 half gzip uploads dropped", False))]:
        if only and run.__name__ not in only:
            continue
        try:
            run(*args)
        except Exception as error:  # a check that cannot run fails, the others still run
            global failed
            failed = True
            print(f"FAIL  {run.__name__}: {type(error).__name__}: {error}",
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
