#!/usr/bin/env python3
"""A reverse proxy that demands HTTP Digest authentication (RFC 7616) and forwards what it
lets through to a server that takes Basic (Radicale), for testing a client's Digest.

    digest-proxy.py --port 8000 --upstream http://127.0.0.1:5232 \
        --user alice --password alice [--algorithm MD5|SHA-256] [--stale-after N]

Only qop=auth is offered. Each nonce is good for --stale-after requests (unlimited by
default), after which the proxy answers 401 with stale=true and a fresh nonce. A nonce count
used twice, a wrong uri, user, algorithm or response is refused with 401. Standard
library only.
"""

import argparse
import base64
import hashlib
import http.client
import http.server
import secrets
import sys
import threading
import urllib.parse

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-authenticate", "proxy-authorization", "content-length"}


def parse_auth_params(text):
    """The name=value pairs of a Digest Authorization header (after the scheme)."""
    params, i, n = {}, 0, len(text)
    while i < n:
        while i < n and text[i] in " \t,":
            i += 1
        start = i
        while i < n and text[i] not in "= \t,":
            i += 1
        name = text[start:i].lower()
        while i < n and text[i] in " \t":
            i += 1
        if i >= n or text[i] != "=":
            continue
        i += 1
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == '"':
            i += 1
            value = []
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                value.append(text[i])
                i += 1
            i += 1
            params[name] = "".join(value)
        else:
            start = i
            while i < n and text[i] not in ", \t":
                i += 1
            params[name] = text[start:i]
    return params


class Proxy(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, options):
        super().__init__(address, Handler)
        self.options = options
        self.realm = "digest-proxy"
        self.opaque = secrets.token_hex(16)
        self.lock = threading.Lock()
        self.nonces = {}  # nonce -> [uses, nonce counts seen]
        upstream = urllib.parse.urlsplit(options.upstream)
        self.upstream_host = upstream.hostname
        self.upstream_port = upstream.port or 80
        credentials = f"{options.user}:{options.password}".encode()
        self.basic = "Basic " + base64.b64encode(credentials).decode()

    def hash(self, text):
        name = "sha256" if self.options.algorithm == "SHA-256" else "md5"
        return hashlib.new(name, text.encode()).hexdigest()

    def new_nonce(self):
        nonce = secrets.token_urlsafe(24)
        with self.lock:
            self.nonces[nonce] = [0, set()]
        return nonce

    def check(self, method, path, header):
        """None when the header is right; else whether the nonce was merely stale."""
        if not header or not header.lower().startswith("digest "):
            return False
        p = parse_auth_params(header[7:])
        if (p.get("username") != self.options.user or p.get("realm") != self.realm
                or p.get("uri") != path or p.get("qop") != "auth"
                or p.get("algorithm", "MD5").upper() != self.options.algorithm.upper()
                or p.get("opaque") != self.opaque or "cnonce" not in p):
            return False
        try:
            nc = int(p.get("nc", ""), 16)
        except ValueError:
            return False
        ha1 = self.hash(f"{self.options.user}:{self.realm}:{self.options.password}")
        ha2 = self.hash(f"{method}:{path}")
        expected = self.hash(f"{ha1}:{p.get('nonce')}:{p.get('nc')}:{p['cnonce']}:auth:{ha2}")
        if p.get("response") != expected:
            return False
        with self.lock:
            state = self.nonces.get(p.get("nonce"))
            if state is None:
                return True  # a nonce from before a restart: stale
            limit = self.options.stale_after
            if limit and state[0] >= limit:
                return True
            if nc in state[1]:
                return False  # a replayed nonce count
            state[0] += 1
            state[1].add(nc)
        return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.forward
        raise AttributeError(name)

    def forward(self):
        server = self.server
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        verdict = server.check(self.command, self.path, self.headers.get("Authorization"))
        if verdict is not None:
            stale = ", stale=true" if verdict else ""
            challenge = (f'Digest realm="{server.realm}", qop="auth", '
                         f'algorithm={server.options.algorithm}, nonce="{server.new_nonce()}", '
                         f'opaque="{server.opaque}"{stale}')
            message = b"Digest authentication required\n"
            self.send_response(401)
            self.send_header("WWW-Authenticate", challenge)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(message)))
            self.end_headers()
            self.wfile.write(message)
            return
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() not in HOP_BY_HOP and k.lower() not in ("authorization", "host")}
        headers["Authorization"] = server.basic
        headers["Host"] = f"{server.upstream_host}:{server.upstream_port}"
        if body is not None:
            headers["Content-Length"] = str(len(body))
        connection = http.client.HTTPConnection(server.upstream_host, server.upstream_port,
                                                timeout=30)
        try:
            connection.request(self.command, self.path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        except OSError as error:
            message = f"upstream: {error}\n".encode()
            self.send_response(502)
            self.send_header("Content-Length", str(len(message)))
            self.end_headers()
            self.wfile.write(message)
            return
        finally:
            connection.close()
        self.send_response(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--algorithm", choices=["MD5", "SHA-256"], default="MD5")
    parser.add_argument("--stale-after", type=int, default=0)
    options = parser.parse_args()
    server = Proxy(("127.0.0.1", options.port), options)
    print(f"http://127.0.0.1:{options.port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
