#!/usr/bin/env python3
"""A hostile CalDAV server for the tests: every PROPFIND and REPORT is answered with its
headers at once, then a body one byte a second, which resets a client's read timeout with
each byte and never ends in time. GET answers at once (the tests' readiness probe).

    python3 trickle-server.py --port 6001
"""
import argparse
import http.server
import socketserver
import time


class Trickle(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = b"trickle server\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def trickle(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.send_response(207)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.wfile.flush()
        # At most ten minutes of bytes, then the connection ends: nothing here runs forever.
        for _ in range(600):
            try:
                self.wfile.write(b" ")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return
            time.sleep(1)

    do_PROPFIND = trickle
    do_REPORT = trickle

    def log_message(self, format, *args):
        print(format % args, flush=True)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    arguments = parser.parse_args()
    Server(("127.0.0.1", arguments.port), Trickle).serve_forever()


if __name__ == "__main__":
    main()
