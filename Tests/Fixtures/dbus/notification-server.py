#!/usr/bin/env python3
"""The desktop's notification service (org.freedesktop.Notifications, "Desktop Notifications
Specification" 1.2) for the tests, written with python's dbus-next: a D-Bus implementation
other than the client under test, so that a fault both ends share cannot pass unseen.

    python3 notification-server.py --address unix:path=/tmp/…/bus [--silent]

Prints `ready NAME` (its unique name) once it owns org.freedesktop.Notifications, then one
JSON line per call it gets: {"member": "Notify", "args": [...]}, a variant as
{"signature": "y", "value": 1}. Lines on standard input make it emit a signal:
`closed ID REASON` (NotificationClosed) or `action ID KEY` (ActionInvoked). It ends with its
standard input. --silent: it takes every call to the service and never answers.
"""
import argparse
import asyncio
import json
import os
import signal as signals
import sys

from dbus_next import Message, MessageType, Variant
from dbus_next.aio import MessageBus
from dbus_next.constants import NameFlag, RequestNameReply
from dbus_next.service import ServiceInterface, method, signal

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def plain(value):
    """A D-Bus value as JSON: variants as their signature and value."""
    if isinstance(value, Variant):
        return {"signature": value.signature, "value": plain(value.value)}
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def report(member, args):
    print(json.dumps({"member": member, "args": plain(args)}), flush=True)


class Notifications(ServiceInterface):
    def __init__(self):
        super().__init__(NAME)
        self.last_id = 0

    @method()
    def Notify(
        self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s",
        actions: "as", hints: "a{sv}", expire_timeout: "i",
    ) -> "u":
        report("Notify", [app_name, replaces_id, app_icon, summary, body, actions, hints,
                          expire_timeout])
        self.last_id += 1
        return self.last_id

    @method()
    def GetCapabilities(self) -> "as":
        report("GetCapabilities", [])
        return ["actions", "body", "body-markup"]

    @method()
    def CloseNotification(self, id: "u"):
        report("CloseNotification", [id])
        self.NotificationClosed(id, 3)

    @method()
    def GetServerInformation(self) -> "ssss":
        report("GetServerInformation", [])
        return ["notification-server.py", "OpenEventKit tests", "1", "1.2"]

    @signal()
    def NotificationClosed(self, id, reason) -> "uu":
        return [id, reason]

    @signal()
    def ActionInvoked(self, id, key) -> "us":
        return [id, key]


async def main():
    # A test runner's threads block SIGTERM, and a child inherits the mask: clear it, so that
    # the test can end this service.
    signals.pthread_sigmask(signals.SIG_SETMASK, [])
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--silent", action="store_true")
    options = parser.parse_args()
    bus = await MessageBus(bus_address=options.address).connect()
    service = Notifications()
    if options.silent:
        def swallow(message):
            if message.message_type == MessageType.METHOD_CALL and message.interface == NAME:
                report(message.member, message.body)
                return True  # handled: no reply, ever
            return False
        bus.add_message_handler(swallow)
    bus.export(PATH, service)
    reply = await bus.request_name(NAME, NameFlag.DO_NOT_QUEUE)
    if reply != RequestNameReply.PRIMARY_OWNER:
        sys.exit(f"{NAME} is taken: {reply}")
    print(f"ready {bus.unique_name}", flush=True)

    loop = asyncio.get_running_loop()
    ended = loop.create_future()

    pending = b""

    def command():
        # Read from the descriptor, not through sys.stdin's buffer: two lines that come together
        # would leave the second in the buffer, and nothing would wake the reader for it.
        nonlocal pending
        data = os.read(sys.stdin.fileno(), 4096)
        if not data:
            loop.remove_reader(sys.stdin.fileno())
            ended.set_result(None)
            return
        pending += data
        *lines, pending = pending.split(b"\n")
        for line in lines:
            words = line.decode().split()
            if len(words) == 3 and words[0] == "closed":
                service.NotificationClosed(int(words[1]), int(words[2]))
            elif len(words) == 3 and words[0] == "action":
                service.ActionInvoked(int(words[1]), words[2])
            else:
                print(f"unknown command: {line!r}", file=sys.stderr, flush=True)

    loop.add_reader(sys.stdin.fileno(), command)
    await ended
    bus.disconnect()


asyncio.run(main())
