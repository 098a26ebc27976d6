import Foundation
import Logging
import MCP
import OpenEventKit
import Synchronization

/// The MCP server: JSON-RPC on standard input and output (`PipeTransport`), the
/// tools and calendar resources of ``CalendarTools``, and the store's change notices passed
/// on to the agent.
enum CalendarServer {
  /// Serves until standard input ends (the host closed it) or the host stops the process.
  static func serve(_ location: StoreFolder) throws {
    // Standard input is the protocol's: no request for access may read an answer there.
    EKEventStore.accessPromptPresenter = NoPrompt()
    let finished = DispatchSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    Task {
      do {
        try await run(location)
      } catch {
        failure.withLock { $0 = error }
      }
      finished.signal()
    }
    finished.wait()
    if let error = failure.withLock({ $0 }) { throw error }
  }

  static func run(_ location: StoreFolder) async throws {
    let log = Logger(label: "org.openeventkit.mcp")
    let tools = CalendarTools(location: location)
    let server = Server(
      name: "openeventkit", version: "1.0", title: "Calendars (OpenEventKit)",
      instructions: """
        The person's own calendars, reminders and free time, on this computer. Times are RFC \
        3339 with offsets; a time without one needs timeZone (IANA). A repeating event is \
        changed with an explicit span (this or future); changes to many items need confirm: \
        true, which you ask the person for first. undo takes back your last change.
        """,
      capabilities: .init(
        resources: .init(subscribe: true, listChanged: true), tools: .init(listChanged: true)))
    let subscriptions = Subscriptions()

    await server.withMethodHandler(ListTools.self) { _ in
      ListTools.Result(tools: await tools.listed())
    }
    await server.withMethodHandler(Checked<CallTool>.self) { params in
      let call = try Checked<CallTool>.parameters(
        params, shape: "an object: name (a string) and arguments (an object)")
      return try await tools.call(call.name, call.arguments)
    }
    await server.withMethodHandler(ListResources.self) { _ in
      ListResources.Result(resources: await tools.resources())
    }
    let uriShape = "an object: uri (a string)"
    await server.withMethodHandler(Checked<ReadResource>.self) { params in
      try await tools.read(Checked<ReadResource>.parameters(params, shape: uriShape).uri)
    }
    await server.withMethodHandler(Checked<ResourceSubscribe>.self) { params in
      let request = try Checked<ResourceSubscribe>.parameters(params, shape: uriShape)
      guard request.uri.hasPrefix(CalendarResources.scheme) else {
        throw MCPError.invalidParams("No resource \(request.uri): calendars are calendar://ID")
      }
      subscriptions.add(request.uri)
      return Empty()
    }
    await server.withMethodHandler(Checked<ResourceUnsubscribe>.self) { params in
      let request = try Checked<ResourceUnsubscribe>.parameters(params, shape: uriShape)
      subscriptions.remove(request.uri)
      return Empty()
    }

    // A change by anyone (another app, ekctl, a sync, this server) reaches the agent: each
    // subscribed calendar is told, the resource list and the tool list too when they change
    // (a calendar made or removed; the person may decide while the server runs).
    let listedTools = WatchedNames(await tools.listed().map(\.name))
    let resources = WatchedNames(await tools.resources().map(\.uri))
    let observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: tools.store, queue: nil
    ) { _ in
      Task {
        for uri in subscriptions.all {
          try? await server.notify(ResourceUpdatedNotification.message(.init(uri: uri)))
        }
        if listedTools.changed(to: await tools.listed().map(\.name)) {
          try? await server.notify(ToolListChangedNotification.message())
        }
        if resources.changed(to: await tools.resources().map(\.uri)) {
          try? await server.notify(ResourceListChangedNotification.message())
        }
      }
    }
    defer { NotificationCenter.default.removeObserver(observer) }

    let transport = PipeTransport(logger: log)
    try await server.start(transport: transport)
    log.info("serving \(location.folder?.path ?? "the user's store") as \(Authorization.app)")
    await server.waitUntilCompleted()
    await server.stop()
  }
}

/// The resources an agent subscribed to.
final class Subscriptions: Sendable {
  private let uris = Mutex<[String]>([])

  func add(_ uri: String) { uris.withLock { if !$0.contains(uri) { $0.append(uri) } } }
  func remove(_ uri: String) { uris.withLock { $0.removeAll { $0 == uri } } }
  var all: [String] { uris.withLock { $0 } }
}

/// The names last listed (tools, resources), to tell the agent only when they changed.
final class WatchedNames: Sendable {
  private let names: Mutex<[String]>

  init(_ names: [String]) { self.names = Mutex(names) }

  func changed(to new: [String]) -> Bool {
    names.withLock { old in
      defer { old = new }
      return old != new
    }
  }
}

/// The server never asks for access: an undecided request stays undecided, and the tools say
/// what the person runs (`ekctl mcp --authorize`).
struct NoPrompt: AccessPromptPresenter {
  func present(_ request: AccessPromptRequest) -> Bool? { nil }
}
