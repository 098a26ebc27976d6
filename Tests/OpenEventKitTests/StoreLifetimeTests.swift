import Foundation
import TestSupport
import Testing

/// A store that nothing holds any more is freed, and with it its change watcher's inotify
/// instance, also in a process whose main thread never lets the main actor run: a
/// command-line tool, a REPL reading its input, `oek-store-helper lifetimes` here.
///
/// The typed message (`EKEventStore.EventStoreChanged`), posted on the main actor after each
/// `EKEventStoreChanged`, once held its store until the main actor ran: such a process kept
/// every store it had made that saw a commit, each with an inotify instance, and after a few
/// dozen (a user may have 128) its stores could not watch and posted nothing (`ekbench
/// batching`, run in one process, docs/PERFORMANCE.md). Swift Testing runs the main actor, so
/// a store dropped inside a test was freed all along: the stores are made by the helper.
///
/// What ships is a release build: scripts/test runs this again against the release helper
/// (`OPENEVENTKIT_TEST_RELEASE=…:oek-store-helper`, Tests/TestSupport/BuildProducts.swift).
@Suite struct StoreLifetimeTests {
  @Test(arguments: ["observe", "quiet"])
  func aStoreDroppedByABusyMainThreadIsFreed(_ observer: String) throws {
    let folder = try TemporaryFolder()
    let helper = try HelperProcess(["lifetimes", folder.url.path, "3", observer])
    let lines = try helper.readAll().split(separator: "\n").map(String.init)
    let (status, errors) = helper.finish()
    try #require(status == 0, "\(errors)")
    // "inotify N" before any store, then each store freed and the instances back to N.
    let before = try #require(lines.first?.split(separator: " ").last.map(String.init))
    #expect(lines == ["inotify \(before)"] + (0..<3).map { "store \($0) freed inotify \(before)" })
  }
}
