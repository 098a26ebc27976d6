#!/usr/bin/env python3
"""A webcal feed for the subscription tests, on 127.0.0.1.

Serves ROOT/feed.ics at /feed.ics with an ETag (the SHA-256 of its bytes) and a
Last-Modified (its mtime), answering 304 to an If-None-Match or If-Modified-Since that
matches, as a real feed does. The test changes the file to change the feed, and writes
ROOT/mode to make it fail in one way:

  404     answers 404
  html    answers 200 with an HTML page
  huge    answers 200 with 50 MB of garbage
  loop    redirects to itself, for ever
  slow    says nothing for 120 s
  nocond  serves the file but ignores the conditional headers (no 304)

Every request is a line on standard output:
  GET /feed.ics inm=<If-None-Match or -> ims=<If-Modified-Since or -> -> <status>
"""

import argparse
import email.utils
import hashlib
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--root", required=True)
args = parser.parse_args()


def mode():
    try:
        with open(os.path.join(args.root, "mode")) as f:
            return f.read().strip()
    except FileNotFoundError:
        return ""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def said(self, status):
        inm = self.headers.get("If-None-Match", "-")
        ims = self.headers.get("If-Modified-Since", "-")
        print(f"GET {self.path} inm={inm} ims={ims} -> {status}", flush=True)

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.said(status)

    def do_GET(self):
        if not self.path.startswith("/feed.ics"):
            return self.send(404, b"no such feed")
        m = mode()
        if m == "404":
            return self.send(404, b"Not Found")
        if m == "html":
            return self.send(200, b"<!doctype html><html><body>Log in</body></html>",
                             [("Content-Type", "text/html")])
        if m == "loop":
            return self.send(302, headers=[("Location", "/feed.ics?again")])
        if m == "slow":
            time.sleep(120)
            return
        if m == "huge":
            size = 50 << 20
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = os.urandom(1 << 16)
            try:
                for _ in range(size // len(chunk)):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.said(200)
            return
        path = os.path.join(args.root, "feed.ics")
        with open(path, "rb") as f:
            body = f.read()
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        modified = email.utils.formatdate(int(os.stat(path).st_mtime), usegmt=True)
        if m != "nocond":
            if self.headers.get("If-None-Match") == etag or (
                "If-None-Match" not in self.headers
                and self.headers.get("If-Modified-Since") == modified
            ):
                return self.send(304, headers=[("ETag", etag)])
        headers = [("Content-Type", "text/calendar; charset=utf-8")]
        if m != "nocond":
            headers += [("ETag", etag), ("Last-Modified", modified)]
        self.send(200, body, headers)


server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
server.daemon_threads = True
print(f"listening on {args.port}", flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
