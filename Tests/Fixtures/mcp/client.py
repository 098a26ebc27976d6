#!/usr/bin/env python3
"""The other end of `ekctl mcp` in the tests: the Model Context Protocol's own Python client
(the `mcp` package, pinned in scripts/requirements.txt), speaking to the server over its
standard input and output as an MCP host does.

Usage: client.py SCENARIO SERVER [ARGUMENT...]

SERVER and its arguments start the server (the tests give `ekctl mcp --db FILE`, so ekctl's
exec of ekctl-mcp is on the path too). The environment is passed on whole. Each scenario
prints one JSON object on standard output, what the client saw, for the Swift test to check;
the server's standard error passes through to this script's.

Scenarios:
  tour        every tool called, a repeating event edited with each span, undo
  access      tools/list and a read and a write tool called (the test decided beforehand)
  malformed   calls that do not fit their tool's schema, each answered with a protocol error
  notice      a calendar subscribed, then OTHER (after --) run as another process; waits
              for notifications/resources/updated (at most 120 s)
"""

import asyncio
import json
import os
import subprocess
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
import mcp.types as types


def result(answer):
    """A tool's answer as plain data: isError, its value, the text. A success's value is its
    text read as JSON (the server sends no structured content then); an error's is its
    structured content, {"error": KIND, "message": ...}."""
    text = "".join(part.text for part in answer.content if getattr(part, "type", "") == "text")
    if answer.isError:
        value = answer.structuredContent
    else:
        if answer.structuredContent is not None:
            raise ValueError("a success came with structured content as well as its text")
        value = json.loads(text)
    return {"isError": bool(answer.isError), "value": value, "text": text}


async def call(session, name, arguments=None):
    return result(await session.call_tool(name, arguments or {}))


async def protocol_error(session, name, arguments):
    """The JSON-RPC error a malformed call gets, or what it answered instead."""
    try:
        answer = await session.call_tool(name, arguments)
    except McpError as error:
        return {"code": error.error.code, "message": error.error.message}
    return {"answered": result(answer)}


async def tour(session):
    seen = {}
    seen["tools"] = sorted(tool.name for tool in (await session.list_tools()).tools)
    seen["calendarsBefore"] = await call(session, "list_calendars")
    agent = await call(session, "create_calendar", {"title": "Agent", "kind": "events"})
    seen["createCalendar"] = agent
    calendar = agent["value"]["calendar"]["id"]
    seen["dentist"] = await call(session, "create_event", {
        "title": "Dentist", "start": "2026-03-02T09:00:00", "end": "2026-03-02T10:00:00",
        "timeZone": "Europe/Paris", "calendar": "Agent", "location": "Rue de la Paix",
        "alarms": [30]})
    seen["standup"] = await call(session, "create_event", {
        "title": "Standup", "start": "2026-03-02T09:30:00+01:00", "end": "2026-03-02T09:45:00+01:00",
        "calendar": calendar, "recurrence": {"frequency": "weekly", "daysOfWeek": ["MO"], "count": 6}})
    seen["picnic"] = await call(session, "create_event", {
        "title": "Picnic", "start": "2026-03-02T11:00:00+01:00", "end": "2026-03-02T11:30:00+01:00",
        "calendar": "Agent", "availability": "free"})
    seen["retreat"] = await call(session, "create_event", {
        "title": "Retreat", "start": "2026-03-05", "end": "2026-03-06", "allDay": True,
        "calendar": "Agent"})
    seen["events"] = await call(session, "list_events", {
        "start": "2026-03-01T00:00:00+01:00", "end": "2026-04-01T00:00:00+02:00",
        "calendars": ["Agent"]})
    seen["eventsInStJohns"] = await call(session, "list_events", {
        "start": "2026-03-02T00:00:00Z", "end": "2026-03-03T00:00:00Z", "calendars": ["Agent"],
        "timeZone": "America/St_Johns"})
    seen["search"] = await call(session, "search_events", {
        "query": "DENT", "start": "2026-03-01T00:00:00Z", "end": "2026-04-01T00:00:00Z"})
    seen["freeBusy"] = await call(session, "free_busy", {
        "start": "2026-03-02T08:00:00", "end": "2026-03-02T12:00:00", "timeZone": "Europe/Paris",
        "minimumMinutes": 30})
    seen["freeBusyAllDay"] = await call(session, "free_busy", {
        "start": "2026-03-04T12:00:00+01:00", "end": "2026-03-06T12:00:00+01:00",
        "timeZone": "Europe/Paris"})
    standup = seen["standup"]["value"]["event"]["eventId"]
    seen["noSpan"] = await call(session, "update_event", {"eventId": standup, "title": "x"})
    seen["thisSpan"] = await call(session, "update_event", {
        "eventId": standup, "occurrenceDate": "2026-03-09T09:30:00+01:00", "span": "this",
        "title": "Standup (moved)", "start": "2026-03-09T10:00:00+01:00"})
    # Undone (the occurrence set back as it was), then done again.
    seen["undoThis"] = await call(session, "undo")
    seen["afterUndoThis"] = await call(session, "list_events", {
        "start": "2026-03-09T00:00:00+01:00", "end": "2026-03-10T00:00:00+01:00",
        "calendars": ["Agent"]})
    seen["thisSpanAgain"] = await call(session, "update_event", {
        "eventId": standup, "occurrenceDate": "2026-03-09T09:30:00+01:00", "span": "this",
        "title": "Standup (moved)", "start": "2026-03-09T10:00:00+01:00"})
    seen["futureUnconfirmed"] = await call(session, "update_event", {
        "eventId": standup, "occurrenceDate": "2026-03-23T08:30:00Z", "span": "future",
        "title": "Late standup"})
    seen["futureSpan"] = await call(session, "update_event", {
        "eventId": standup, "occurrenceDate": "2026-03-23T08:30:00Z", "span": "future",
        "confirm": True, "title": "Late standup"})
    seen["undoFuture"] = await call(session, "undo")
    seen["deleteThis"] = await call(session, "delete_event", {
        "eventId": standup, "occurrenceDate": "2026-03-16T09:30:00+01:00", "span": "this"})
    dentist = seen["dentist"]["value"]["event"]["eventId"]
    seen["rename"] = await call(session, "update_event", {"eventId": dentist, "title": "Dentist (Dr Who)"})
    seen["undoRename"] = await call(session, "undo")
    seen["afterUndoRename"] = await call(session, "search_events", {
        "query": "dentist", "start": "2026-03-01T00:00:00Z", "end": "2026-04-01T00:00:00Z"})
    seen["deleteDentist"] = await call(session, "delete_event", {"eventId": dentist})
    seen["undoDelete"] = await call(session, "undo")
    seen["undoAgain"] = await call(session, "undo")
    seen["shopping"] = await call(session, "create_calendar", {"title": "Shopping", "kind": "reminders"})
    seen["milk"] = await call(session, "create_reminder", {
        "title": "Milk", "list": "Shopping", "due": "2026-03-03", "priority": 1, "alarms": [60]})
    seen["bread"] = await call(session, "create_reminder", {
        "title": "Bread", "list": "Shopping", "due": "2026-03-10T18:00:00",
        "timeZone": "Europe/Paris", "recurrence": {"frequency": "weekly"}})
    seen["incomplete"] = await call(session, "list_reminders", {"lists": ["Shopping"]})
    seen["dueBefore"] = await call(session, "list_reminders", {
        "dueBefore": "2026-03-05T00:00:00+01:00", "lists": ["Shopping"]})
    milk = seen["milk"]["value"]["reminder"]["reminderId"]
    bread = seen["bread"]["value"]["reminder"]["reminderId"]
    seen["complete"] = await call(session, "complete_reminder", {"reminderId": milk})
    seen["completed"] = await call(session, "list_reminders", {"status": "completed"})
    seen["deleteUnconfirmed"] = await call(session, "delete_reminder", {"reminderIds": [milk, bread]})
    seen["deleteConfirmed"] = await call(session, "delete_reminder", {
        "reminderIds": [milk, bread], "confirm": True})
    seen["undoDeleteReminders"] = await call(session, "undo")
    seen["all"] = await call(session, "list_reminders", {"status": "all", "lists": ["Shopping"]})
    resources = (await session.list_resources()).resources
    seen["resources"] = sorted(str(resource.uri) for resource in resources)
    read = await session.read_resource(f"calendar://{calendar}")
    seen["resource"] = json.loads(read.contents[0].text)
    return seen


async def access(session):
    seen = {"tools": sorted(tool.name for tool in (await session.list_tools()).tools)}
    seen["listEvents"] = await call(session, "list_events", {
        "start": "2026-03-01T00:00:00Z", "end": "2026-03-08T00:00:00Z"})
    seen["createEvent"] = await call(session, "create_event", {
        "title": "Agent's", "start": "2026-03-02T09:00:00Z", "end": "2026-03-02T10:00:00Z"})
    seen["createReminder"] = await call(session, "create_reminder", {"title": "Agent's"})
    seen["createCalendar"] = await call(session, "create_calendar", {"title": "Agent's", "kind": "events"})
    seen["listCalendars"] = await call(session, "list_calendars")
    return seen


MALFORMED = [
    ("no_such_tool", {}),
    ("create_event", {"start": "2026-03-02T09:00:00Z", "end": "2026-03-02T10:00:00Z"}),
    ("create_event", {"title": "A", "start": "tomorrow", "end": "2026-03-02T10:00:00Z"}),
    ("create_event", {"title": "A", "start": "2026-03-02T09:00:00", "end": "2026-03-02T10:00:00"}),
    ("create_event", {"title": "A", "start": "2026-02-30T09:00:00Z", "end": "2026-03-02T10:00:00Z"}),
    ("create_event", {"title": "A", "start": "2026-03-02T09:00:00Z", "end": "2026-03-02T10:00:00Z",
                      "colour": "red"}),
    ("create_event", {"title": 42, "start": "2026-03-02T09:00:00Z", "end": "2026-03-02T10:00:00Z"}),
    ("create_event", {"title": "A", "start": "2026-03-02T09:00:00", "end": "2026-03-02T10:00:00",
                      "timeZone": "CET"}),
    ("create_event", {"title": "A", "start": "2026-03-02T09:00:00Z", "end": "2026-03-02T10:00:00Z",
                      "recurrence": {"frequency": "hourly"}}),
    ("create_event", {"title": "A", "start": "2026-03-02T09:00:00Z", "end": "2026-03-02T10:00:00Z",
                      "allDay": "yes"}),
    ("list_events", {"start": "2026-03-01T00:00:00Z", "end": "2026-03-08T00:00:00Z", "limit": "ten"}),
    ("create_reminder", {"title": "B", "priority": 12}),
    ("delete_reminder", {"reminderIds": "all"}),
]


async def malformed(session):
    seen = {"errors": []}
    for name, arguments in MALFORMED:
        seen["errors"].append({"tool": name, **await protocol_error(session, name, arguments)})
    # A method this server does not serve (it has no prompts).
    try:
        await session.list_prompts()
        seen["unknownMethod"] = {"answered": True}
    except McpError as error:
        seen["unknownMethod"] = {"code": error.error.code, "message": error.error.message}
    # The store's own refusal is the tool's error, not a protocol one: an end before the start.
    seen["storeRefusal"] = await call(session, "create_event", {
        "title": "Backwards", "start": "2026-03-02T10:00:00Z", "end": "2026-03-02T09:00:00Z"})
    return seen


async def notice(session, other):
    seen = {}
    resources = (await session.list_resources()).resources
    seen["resources"] = sorted(str(resource.uri) for resource in resources)
    uri = seen["resources"][0]
    await session.subscribe_resource(uri)
    started = time.monotonic()
    finished = subprocess.run(other, capture_output=True, text=True, timeout=120)
    seen["other"] = {"status": finished.returncode, "stderr": finished.stderr}
    try:
        updated = await asyncio.wait_for(UPDATES.get(), timeout=120)
        seen["updated"] = updated
        seen["seconds"] = round(time.monotonic() - started, 3)
    except asyncio.TimeoutError:
        seen["updated"] = None
    return seen


UPDATES = asyncio.Queue()


async def on_message(message):
    if isinstance(message, types.ServerNotification):
        inner = message.root
        if isinstance(inner, types.ResourceUpdatedNotification):
            await UPDATES.put(str(inner.params.uri))


async def main():
    scenario, rest = sys.argv[1], sys.argv[2:]
    other = []
    if "--" in rest:
        other = rest[rest.index("--") + 1:]
        rest = rest[:rest.index("--")]
    parameters = StdioServerParameters(command=rest[0], args=rest[1:], env=dict(os.environ))
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            initialized = await session.initialize()
            seen = {
                "server": initialized.serverInfo.name,
                "protocolVersion": initialized.protocolVersion,
                "subscribe": bool(initialized.capabilities.resources
                                  and initialized.capabilities.resources.subscribe),
            }
            if scenario == "tour":
                seen.update(await tour(session))
            elif scenario == "access":
                seen.update(await access(session))
            elif scenario == "malformed":
                seen.update(await malformed(session))
            elif scenario == "notice":
                seen.update(await notice(session, other))
            else:
                raise SystemExit(f"unknown scenario {scenario}")
            print(json.dumps(seen, sort_keys=True), flush=True)


def only_closing(group):
    """Whether every error is the client's reader finding its own stream closed: a notice
    the server sent as the client hung up (mcp's stdio_client does not swallow those)."""
    import anyio
    return all(isinstance(error, anyio.BrokenResourceError)
               or (isinstance(error, BaseExceptionGroup) and only_closing(error))
               for error in group.exceptions)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except BaseExceptionGroup as group:
        if not only_closing(group):
            raise
