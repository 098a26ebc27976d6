#!/usr/bin/env python3
"""A hostile CalDAV server for the tests, on 127.0.0.1, one of four ways (--mode):

  redirect        every PROPFIND on --port is answered 307 to http://localhost:OTHER/dav/
  home-elsewhere  the principal on --port names its calendar home http://localhost:OTHER/dav/
  foreign-hrefs   one calendar, /dav/cal/, whose calendar-multiget answers hrefs nobody asked
                  for (/etc/passwd, /other.ics, http://127.0.0.2:1/evil.ics,
                  /dav/cal/unasked.ics) beside the one asked
  endless-report  the same calendar, whose sync-collection report never ends: a multistatus
                  whose first response's calendar-data is text without end, sent until the
                  client closes the connection

With --other-port, a second listener there (reached as localhost) answers as an honest
server would, so that a client that follows the first does get somewhere. Every request is
printed as `PORT METHOD PATH authorization=yes|no` (never the header itself), which the tests
read. GET answers at once (the tests' readiness probe).

    python3 hostile-caldav.py --mode redirect --port 6001 --other-port 6005
"""
import argparse
import http.server
import re
import socketserver
import threading

XML = "application/xml; charset=utf-8"


def event(uid, summary):
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Hostile//EN\r\nBEGIN:VEVENT\r\n"
        f"UID:{uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260302T090000Z\r\n"
        f"DTEND:20260302T100000Z\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )


def multistatus(*responses, token=None):
    tail = f"<D:sync-token>{token}</D:sync-token>" if token else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
        + "".join(responses) + tail + "</D:multistatus>"
    )


def response(href, props="", status="HTTP/1.1 200 OK"):
    return (
        f"<D:response><D:href>{href}</D:href><D:propstat><D:prop>{props}</D:prop>"
        f"<D:status>{status}</D:status></D:propstat></D:response>"
    )


HOME_PROPS = (
    "<D:current-user-principal><D:href>/dav/</D:href></D:current-user-principal>"
    "<C:calendar-home-set><D:href>{home}</D:href></C:calendar-home-set>"
    "<D:resourcetype><D:collection/></D:resourcetype>"
)
CALENDAR_PROPS = (
    "<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"
    "<D:displayname>Cal</D:displayname>"
    "<C:supported-calendar-component-set><C:comp name=\"VEVENT\"/>"
    "</C:supported-calendar-component-set>"
)


class State:
    mode = "redirect"
    port = 0
    other_port = 0
    lock = threading.Lock()
    removed = set()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def record(self):
        port = self.server.server_address[1]
        authorization = "yes" if self.headers.get("Authorization") else "no"
        print(f"{port} {self.command} {self.path} authorization={authorization}", flush=True)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode("utf-8", "replace") if length else ""

    def answer(self, status, body="", headers=()):
        data = body.encode("utf-8")
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if body:
            self.send_header("Content-Type", XML)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.record()
        self.answer(200, "hostile caldav\n")

    def on_other(self):
        return self.server.server_address[1] == State.other_port

    def do_PROPFIND(self):
        self.record()
        if self.on_other():
            return self.honest_propfind()
        if State.mode == "redirect":
            location = f"http://localhost:{State.other_port}/dav/"
            return self.answer(307, headers=[("Location", location)])
        if State.mode == "home-elsewhere":
            home = f"http://localhost:{State.other_port}/dav/"
            return self.answer(207, multistatus(response(self.path, HOME_PROPS.format(home=home))))
        self.honest_propfind()

    def honest_propfind(self):
        """A home at /dav/ holding one calendar, /dav/cal/."""
        if self.headers.get("Depth") == "1" and self.path.rstrip("/") == "/dav":
            return self.answer(
                207,
                multistatus(
                    response("/dav/", "<D:resourcetype><D:collection/></D:resourcetype>"),
                    response("/dav/cal/", CALENDAR_PROPS),
                ),
            )
        self.answer(207, multistatus(response(self.path, HOME_PROPS.format(home="/dav/"))))

    def do_REPORT(self):
        body = self.record()
        if "sync-collection" in body and State.mode == "endless-report":
            return self.endless()
        if "sync-collection" in body:
            listed = []
            with State.lock:
                if "/dav/cal/own.ics" not in State.removed:
                    listed.append(response("/dav/cal/own.ics", '<D:getetag>"1"</D:getetag>'))
            return self.answer(207, multistatus(*listed, token="http://hostile/token/1"))
        if "calendar-multiget" in body:
            asked = re.findall(r"<D:href>([^<]*)</D:href>", body)
            answers = []
            for href in asked:
                answers.append(self.resource(href, "own", "Own"))
            answers += [
                self.resource("/etc/passwd", "passwd", "Passwd"),
                self.resource("/other.ics", "other", "Other"),
                self.resource("http://127.0.0.2:1/evil.ics", "evil", "Evil"),
                self.resource("/dav/cal/unasked.ics", "unasked", "Unasked"),
            ]
            return self.answer(207, multistatus(*answers))
        self.answer(400)

    def endless(self):
        """207, then a response whose calendar data has no end (no Content-Length: the body
        runs until the connection closes)."""
        self.send_response(207)
        self.send_header("Content-Type", XML)
        self.send_header("Connection", "close")
        self.end_headers()
        start = (
            '<?xml version="1.0" encoding="utf-8"?>'
            '<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
            '<D:response><D:href>/dav/cal/own.ics</D:href><D:propstat><D:prop>'
            '<D:getetag>"1"</D:getetag><C:calendar-data>BEGIN:VCALENDAR\r\n'
        )
        garbage = ("X-GARBAGE:" + "A" * 1014 + "\r\n").encode() * 64
        try:
            self.wfile.write(start.encode())
            while True:
                self.wfile.write(garbage)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    @staticmethod
    def resource(href, uid, summary):
        data = event(uid, summary).replace("&", "&amp;").replace("<", "&lt;")
        return response(
            href, f'<D:getetag>"{uid}-1"</D:getetag><C:calendar-data>{data}</C:calendar-data>'
        )

    def do_DELETE(self):
        self.record()
        with State.lock:
            State.removed.add(self.path)
        self.answer(204)

    def do_PUT(self):
        self.record()
        self.answer(201, headers=[("ETag", '"put-1"')])


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--mode", choices=["redirect", "home-elsewhere", "foreign-hrefs", "endless-report"], required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--other-port", type=int, default=0)
    arguments = parser.parse_args()
    State.mode = arguments.mode
    State.port = arguments.port
    State.other_port = arguments.other_port
    if arguments.other_port:
        # Bound before the main listener, so that it accepts once the main one answers.
        other = Server(("127.0.0.1", arguments.other_port), Handler)
        threading.Thread(target=other.serve_forever, daemon=True).start()
    Server(("127.0.0.1", arguments.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
