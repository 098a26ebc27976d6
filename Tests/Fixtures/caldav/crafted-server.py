#!/usr/bin/env python3
"""A CalDAV server of the tests' own, answering as the tests shape it: user alice, home
/dav/alice/, one calendar /dav/alice/big/ of --events generated events (UIDs e-1, e-2…).
No authentication is checked. Every request is logged on one line, with what it asked:

    SYNC token=- limit=100 -> 100 of 1000, 507      (a sync-collection page)
    SYNC token=- limit=100 data -> 100 of 1000, 507 (one asking calendar-data too)
    MULTIGET 100                                    (a calendar-multiget of 100 hrefs)
    PROPFIND /dav/alice/big/ depth=1

How the sync-collection report (RFC 6578) answers a DAV:limit (--limit):
  honour  pages of at most the limit, truncated with 507 on the collection (§3.6)
  ignore  every change at once, as Radicale does
  refuse  507 number-of-matches-within-limits to any limit (§3.7); every change without one
  none    no sync-collection at all (501): clients list with PROPFIND instead
  loop    the first page of the limit, truncated, again and again under the same token

A report asking calendar-data gets it for each member with --sync-data (as Radicale and
sabre/dav answer), and 404 for it without (as Xandikos does).

    python3 crafted-server.py --port 6001 --events 1000 --limit honour
"""
import argparse
import http.server
import re
import socketserver
import threading

CALENDAR = "/dav/alice/big/"
TOKEN = "http://crafted.example/sync/"


class State:
    def __init__(self, arguments):
        self.arguments = arguments
        self.lock = threading.Lock()
        self.multigets = 0
        self.failed = False
        self.members = [f"e-{n}.ics" for n in range(1, arguments.events + 1)]
        if arguments.multi_uid:
            self.members.append("many.ics")

    def data(self, name):
        if name == "many.ics":
            events = "".join(event(f"many-{n}") for n in range(1, self.arguments.multi_uid + 1))
        else:
            events = event(name[: -len(".ics")])
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//crafted//EN\r\n" + events + "END:VCALENDAR\r\n"


def event(uid):
    number = int(uid.rsplit("-", 1)[1])
    day = 1 + number % 28
    return (
        f"BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20240101T000000Z\r\n"
        f"DTSTART:202403{day:02d}T090000Z\r\nDTEND:202403{day:02d}T100000Z\r\n"
        f"SUMMARY:Event {uid}\r\nEND:VEVENT\r\n"
    )


def etag(name):
    return f'"v1-{name}"'


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def multistatus(responses, token=None):
    token = f"<D:sync-token>{escape(token)}</D:sync-token>" if token else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:" '
        'xmlns:C="urn:ietf:params:xml:ns:caldav">' + "".join(responses) + token + "</D:multistatus>"
    ).encode()


def propstat(props):
    return f"<D:propstat><D:prop>{props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>"


def member(name, data=None, unfound=""):
    props = f"<D:getetag>{escape(etag(name))}</D:getetag><D:resourcetype/>"
    if data is not None:
        props += f"<C:calendar-data>{escape(data)}</C:calendar-data>"
    missing = (
        f"<D:propstat><D:prop>{unfound}</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>"
        if unfound else ""
    )
    return f"<D:response><D:href>{CALENDAR}{name}</D:href>" + propstat(props) + missing + "</D:response>"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: State = None

    def log_message(self, format, *args):
        pass

    def say(self, line):
        print(line, flush=True)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode("utf-8", "replace")

    def answer(self, status, body=b"", content_type="application/xml; charset=utf-8"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.answer(200, b"crafted server\n", "text/plain")

    def do_PROPFIND(self):
        self.body()
        depth = self.headers.get("Depth", "0")
        self.say(f"PROPFIND {self.path} depth={depth}")
        principal = (
            "<D:current-user-principal><D:href>/dav/alice/</D:href></D:current-user-principal>"
            "<C:calendar-home-set><D:href>/dav/alice/</D:href></C:calendar-home-set>"
        )
        if self.path in ("/dav/", "/dav/alice/") and depth == "0":
            props = principal + "<D:resourcetype><D:collection/></D:resourcetype>"
            response = f"<D:response><D:href>{self.path}</D:href>{propstat(props)}</D:response>"
            return self.answer(207, multistatus([response]))
        if self.path == "/dav/alice/":
            calendar = (
                f"<D:response><D:href>{CALENDAR}</D:href>"
                + propstat(
                    "<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"
                    "<D:displayname>Big</D:displayname><C:supported-calendar-component-set>"
                    '<C:comp name="VEVENT"/></C:supported-calendar-component-set>'
                )
                + "</D:response>"
            )
            home = f"<D:response><D:href>/dav/alice/</D:href>{propstat('<D:resourcetype><D:collection/></D:resourcetype>')}</D:response>"
            return self.answer(207, multistatus([home, calendar]))
        if self.path == CALENDAR:
            own = (
                f"<D:response><D:href>{CALENDAR}</D:href>"
                + propstat("<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"
                           f"<CS:getctag xmlns:CS=\"http://calendarserver.org/ns/\">c-{len(self.state.members)}</CS:getctag>")
                + "</D:response>"
            )
            responses = [own]
            if depth == "1":
                responses += [member(name) for name in self.state.members]
            return self.answer(207, multistatus(responses))
        self.answer(404)

    def do_REPORT(self):
        body = self.body()
        if "sync-collection" in body:
            return self.sync(body)
        if "calendar-multiget" in body:
            return self.multiget(body)
        self.answer(501)

    def sync(self, body):
        mode = self.state.arguments.limit
        token = re.search(r"<D:sync-token>([^<]*)</D:sync-token>", body)
        token = token.group(1) if token else None
        limit = re.search(r"<D:nresults>(\d+)</D:nresults>", body)
        limit = int(limit.group(1)) if limit else None
        members = self.state.members
        if mode == "none":
            self.say(f"SYNC token={token or '-'} limit={limit or '-'} -> 501")
            return self.answer(501)
        if mode == "refuse" and limit is not None:
            self.say(f"SYNC token={token or '-'} limit={limit} -> 507 refused")
            error = (
                '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:">'
                "<D:number-of-matches-within-limits/></D:error>"
            ).encode()
            return self.answer(507, error)
        if mode == "loop":
            token = None
        start = int(token[len(TOKEN):]) if token and token.startswith(TOKEN) else 0
        if token and not token.startswith(TOKEN):
            return self.answer(403, b'<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>')
        page = len(members) - start
        if mode in ("honour", "loop") and limit is not None:
            page = min(page, limit)
        end = start + page
        asked = "calendar-data" in body
        if asked and self.state.arguments.sync_data:
            responses = [member(name, self.state.data(name)) for name in members[start:end]]
        elif asked:
            responses = [member(name, unfound="<C:calendar-data/>") for name in members[start:end]]
        else:
            responses = [member(name) for name in members[start:end]]
        truncated = end < len(members)
        if truncated:
            responses.append(
                f"<D:response><D:href>{CALENDAR}</D:href>"
                "<D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>"
            )
        self.say(
            f"SYNC token={token or '-'} limit={limit or '-'}{' data' if asked else ''} -> {page} of {len(members)}"
            + (", 507" if truncated else "")
        )
        self.answer(207, multistatus(responses, f"{TOKEN}{end}"))

    def multiget(self, body):
        hrefs = re.findall(r"<D:href>([^<]*)</D:href>", body)
        with self.state.lock:
            self.state.multigets += 1
            fail = (
                not self.state.failed
                and self.state.multigets == self.state.arguments.fail_multiget
            )
            if fail:
                self.state.failed = True
        if fail:
            self.say(f"MULTIGET {len(hrefs)} -> 503")
            return self.answer(503, b"busy", "text/plain")
        self.say(f"MULTIGET {len(hrefs)}")
        responses = []
        names = set(self.state.members)
        for href in hrefs:
            name = href.rsplit("/", 1)[-1]
            if not href.startswith(CALENDAR) or name not in names:
                responses.append(
                    f"<D:response><D:href>{escape(href)}</D:href>"
                    "<D:status>HTTP/1.1 404 Not Found</D:status></D:response>"
                )
                continue
            props = (
                f"<D:getetag>{escape(etag(name))}</D:getetag>"
                f"<C:calendar-data>{escape(self.state.data(name))}</C:calendar-data>"
            )
            responses.append(f"<D:response><D:href>{escape(href)}</D:href>{propstat(props)}</D:response>")
        self.answer(207, multistatus(responses))


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--limit", choices=["honour", "ignore", "refuse", "none", "loop"], default="honour")
    parser.add_argument("--multi-uid", type=int, default=0,
                        help="add many.ics, one resource of this many events of different UIDs")
    parser.add_argument("--sync-data", action="store_true",
                        help="give calendar-data in a sync report that asks for it")
    parser.add_argument("--fail-multiget", type=int, default=0,
                        help="answer 503 to this multiget (counted from 1), once")
    arguments = parser.parse_args()
    Handler.state = State(arguments)
    Server(("127.0.0.1", arguments.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
