#!/usr/bin/env python3
"""A CalDAV stand-in for the tests that measures concurrency on the wire: every PUT is held
for a third of a second before its 201, and the server prints, as each comes, how many PUTs
it holds then ("holding 3"). GET answers at once (the tests' readiness probe).

    python3 slow-put-server.py --port 6001
"""
import argparse
import http.server
import threading
import time

lock = threading.Lock()
holding = 0


class SlowPut(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.answer(200, b"slow put server\n")

    def do_PUT(self):
        global holding
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with lock:
            holding += 1
            print(f"holding {holding}", flush=True)
        time.sleep(0.33)
        with lock:
            holding -= 1
        self.answer(201, headers=[("ETag", f'"{self.path}"')])

    def log_message(self, format, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), SlowPut)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
