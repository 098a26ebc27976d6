// swift-tools-version: 6.1
//
// OpenEventKit: Apple's EventKit API on Linux, over one SQLite calendar store shared by every
// app of the user; the RFC 5545 engine (ICalendar), CalDAV sync (OpenEventKitSync, run by
// ekctl-sync: no other program links the network stack), ekctl and five sample apps.
//
// Copyright 2026 the OpenEventKit authors. Licensed under the Apache License, Version 2.0
// (the LICENSE file); distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF
// ANY KIND.

import PackageDescription

// The release ekctl carries Swift's runtime and Foundation inside it: it starts for every
// command typed, and loading them as shared libraries is most of a short command's time
// (docs/PERFORMANCE.md). Compiled with the flag as well as linked: its imports of Foundation
// then come from the static resource folder and name the static libraries' own dependencies
// (_FoundationCShims, _FoundationICU), which the link alone leaves undefined. ekctl only, so
// that the modules it shares with the samples are built once: ekctl-sync (its network words,
// which wait on a server) and the samples (started once a session) load the libraries.
// OPENEVENTKIT_DYNAMIC_EKCTL (scripts/install --dynamic) makes a release ekctl that loads
// them too.
let staticStdlib: [String] =
  Context.environment["OPENEVENTKIT_DYNAMIC_EKCTL"] == nil ? ["-static-stdlib"] : []

// Linux only, hence no `platforms:` (Apple platforms' minimum versions, which SwiftPM
// ignores on Linux): the store and ekctl's alarm agent watch the database with inotify, an
// app's identity and the sync agent's program are found through /proc/self/exe, the store
// asks statfs(2) (<sys/vfs.h>) for the file system, and the REPLs read lines with GNU
// readline. A macOS port would need macOS 15 at least (`Mutex`, from Synchronization) and
// those replaced.
let package = Package(
  name: "OpenEventKit",
  products: [
    .library(name: "ICalendar", targets: ["ICalendar"]),
    .library(name: "OpenEventKit", targets: ["OpenEventKit"]),
    .library(name: "OpenEventKitSync", targets: ["OpenEventKitSync"]),
    .library(name: "OpenEventKitUI", targets: ["OpenEventKitUI"]),
    .library(name: "REPLKit", targets: ["REPLKit"]),
    .library(name: "OpenEventKitApp", targets: ["OpenEventKitApp"]),
    .executable(name: "ekctl", targets: ["ekctl"]),
    .executable(name: "ekctl-sync", targets: ["ekctl-sync"]),
    .executable(name: "ekctl-mcp", targets: ["ekctl-mcp"]),
    .executable(name: "ekbench", targets: ["ekbench"]),
    .executable(name: "ekbench-cold-open", targets: ["ekbench-cold-open"]),
    .executable(name: "loan-scheduler", targets: ["loan-scheduler"]),
    .executable(name: "poker-vote", targets: ["poker-vote"]),
    .executable(name: "book-club", targets: ["book-club"]),
    .executable(name: "recipe-reminders", targets: ["recipe-reminders"]),
    .executable(name: "wedding-planner", targets: ["wedding-planner"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    // MD5 and SHA-256 for Digest authentication (CalDAV) and resources' names (OpenEventKitSync):
    // the range swift-certificates, under AsyncHTTPClient, already resolves.
    .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"6.0.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    // `swift package generate-documentation` (scripts/docs): the libraries' DocC catalogs.
    // swift-sdk asks for this plugin's `main` branch; a root package's requirement is the one
    // SwiftPM keeps, so 1.5.0 (a tag the offline mirror has) serves both.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // The Model Context Protocol (ekctl-mcp): its server, JSON-RPC over standard input and
    // output. Exact: its API changed from one 0.x to the next. On Linux its library links
    // swift-system and swift-log only (no SwiftNIO: that is its example servers').
    .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
  ],
  targets: [
    .target(name: "ICalendar"),
    // Where a person's files live ($OPENEVENTKIT_HOME, XDG) and how they are made private:
    // below the store and REPLKit, so that a REPL finds its history without the store.
    .target(name: "OpenEventKitPaths"),
    .target(
      name: "OpenEventKit",
      dependencies: [
        "ICalendar", "OpenEventKitPaths", "CFileSystem",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]),
    // The CalDAV sync engine: accounts (CalDAVAccounts), and a sync of one, which talks to
    // the server and reads and records through the store's package door, SyncStore. Apps do
    // not link it: their store asks the sync agent (ekctl-sync), which does.
    .target(
      name: "OpenEventKitSync",
      dependencies: [
        "ICalendar", "OpenEventKit", "OpenEventKitPaths", "CalDAV",
        // A subscribed calendar's feed is a plain HTTP GET, beside CalDAV's client.
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // statfs(2), for the store to know a network file system (CalendarDatabase.mayMap).
    .systemLibrary(name: "CFileSystem", path: "Sources/CFileSystem"),
    // The CalDAV protocol client (RFC 4791, 6578, 6764): discovery, collections, sync
    // reports, conditional writes, Basic and Digest authentication. No store.
    .target(
      name: "CalDAV",
      dependencies: [
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The system's libdbus-1 (libdbus-1-dev), and the small D-Bus client over it that the alarm
    // agent's desktop notifications use: calls with deadlines, and signals.
    .systemLibrary(
      name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1",
      providers: [.apt(["libdbus-1-dev"])]),
    .target(name: "DBus", dependencies: ["CDBus"]),
    // GNU readline, from the system (libreadline-dev), and REPLKit's C functions around it.
    // A C target, not a header of inline functions: its state must exist once per process.
    .target(name: "CReadline"),
    .target(
      name: "REPLKit",
      dependencies: [
        "ICalendar", "OpenEventKitPaths", "CReadline",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .target(name: "OpenEventKitUI", dependencies: ["OpenEventKit", "REPLKit"]),
    // What every sample app needs: identity, session, access at need, calendar choice, change
    // tracking, its own database (OpenEventKitApp.docc/WritingASample.md).
    .target(
      name: "OpenEventKitApp",
      dependencies: [
        "OpenEventKit", "OpenEventKitPaths", "OpenEventKitUI", "REPLKit",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // What ekctl and ekctl-sync share: --db (on their root commands too), one-line errors,
    // inert output, the progress bar, and the names, help and options of the network words,
    // so that ekctl's help and ekctl-sync's usage errors are one text.
    .target(
      name: "EkctlKit",
      dependencies: [
        "ICalendar", "OpenEventKit", "REPLKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .executableTarget(
      name: "ekctl",
      dependencies: [
        "EkctlKit", "ICalendar", "OpenEventKit", "OpenEventKitPaths", "REPLKit", "DBus",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: [.unsafeFlags(staticStdlib, .when(configuration: .release))],
      linkerSettings: [.unsafeFlags(staticStdlib, .when(configuration: .release))]),
    // ekctl's network words (sync, account, accounts), which ekctl execs when they are typed:
    // found beside it as git finds git-foo, so that ekctl itself needs no network stack.
    .executableTarget(
      name: "ekctl-sync",
      dependencies: [
        "EkctlKit", "OpenEventKit", "OpenEventKitSync", "REPLKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // `ekctl mcp`, the calendar for AI agents: an MCP server over the store, an app of its
    // own to the privacy layer (its Info.plist in Bundle). ekctl execs it as it execs
    // ekctl-sync, so that ekctl's start carries no MCP library.
    .executableTarget(
      name: "ekctl-mcp",
      dependencies: [
        "EkctlKit", "ICalendar", "OpenEventKit", "REPLKit",
        .product(name: "MCP", package: "swift-sdk"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      resources: [.copy("Bundle")]),
    .executableTarget(
      name: "ekbench",
      dependencies: [
        "ICalendar", "OpenEventKit", "OpenEventKitSync", "CalDAV",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // An app's cold open to its first month, which `ekbench store` spawns from beside itself
    // and times from spawn to exit: it links what an app links (OpenEventKit), not what
    // ekbench links.
    .executableTarget(name: "ekbench-cold-open", dependencies: ["OpenEventKit"]),
    .executableTarget(
      name: "loan-scheduler",
      dependencies: [
        "OpenEventKitApp", "OpenEventKitUI", "REPLKit",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ], path: "Samples/LoanScheduler", resources: [.copy("Bundle")]),
    .executableTarget(
      name: "poker-vote",
      dependencies: [
        "OpenEventKit", "OpenEventKitApp", "OpenEventKitUI", "REPLKit", "ICalendar",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Samples/PokerVote", resources: [.copy("Bundle")]),
    // The model sample of WritingASample.md, at most 160 lines.
    .executableTarget(
      name: "book-club",
      dependencies: [
        "OpenEventKit", "OpenEventKitApp", "OpenEventKitUI", "REPLKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Samples/BookClub", resources: [.copy("Bundle")]),
    .executableTarget(
      name: "recipe-reminders",
      dependencies: [
        "ICalendar", "OpenEventKit", "OpenEventKitApp", "REPLKit",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Samples/RecipeReminders", resources: [.copy("Bundle")]),
    .executableTarget(
      name: "wedding-planner",
      dependencies: [
        "ICalendar", "OpenEventKit", "OpenEventKitApp", "OpenEventKitUI", "REPLKit",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Samples/WeddingPlanner", resources: [.copy("Bundle")]),
    // A file that imports OpenEventKit alone and uses Foundation, CGColor and CLLocation as
    // EventKit code does: it compiles only while OpenEventKit re-exports Foundation.
    .testTarget(
      name: "EventKitImportTests", dependencies: ["OpenEventKit", "TestSupport"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
    .testTarget(
      name: "ICalendarTests",
      dependencies: [
        "ICalendar", .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    // What the test targets share: temporary folders and homes, the built executables run
    // with piped input or on a pseudo-terminal.
    .target(
      name: "TestSupport",
      dependencies: ["OpenEventKit", .product(name: "GRDB", package: "GRDB.swift")],
      path: "Tests/TestSupport"),
    .testTarget(
      name: "OpenEventKitTests",
      dependencies: [
        "OpenEventKit", "oek-store-helper", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    // Another process on the same database, for the tests that need one.
    .executableTarget(
      name: "oek-store-helper", dependencies: ["OpenEventKit"], path: "Tests/StoreHelper",
      resources: [.copy("Bundle")]),
    .testTarget(
      name: "EkctlTests",
      dependencies: ["ekctl", "ekctl-sync", "ekctl-mcp", "OpenEventKit", "TestSupport"]),
    // ekctl mcp against the Model Context Protocol's own Python client (the pinned `mcp`
    // package, Tests/Fixtures/mcp/client.py), started as an MCP host starts it.
    .testTarget(
      name: "MCPTests", dependencies: ["ekctl", "ekctl-mcp", "OpenEventKit", "TestSupport"]),
    // The D-Bus client against another implementation: a notification service written with
    // python's dbus-next on a private dbus-daemon.
    .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
    // The samples run as people run them: built executables, piped input, a temporary home.
    .testTarget(
      name: "SampleTests",
      dependencies: [
        "loan-scheduler", "poker-vote", "recipe-reminders", "wedding-planner", "book-club",
        "ekctl", "ekctl-sync", "OpenEventKit", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      // The golden transcripts, read by path (TranscriptTests).
      exclude: ["Transcripts"]),
    // The reliability suite: damaged and hostile files, first opens from many processes, file
    // modes, crashes and concurrency. A short form runs with every test; scripts/reliability
    // runs the full one (OPENEVENTKIT_RELIABILITY=full).
    .testTarget(
      name: "ReliabilityTests",
      dependencies: [
        "loan-scheduler", "poker-vote", "recipe-reminders", "wedding-planner", "ekctl",
        "oek-store-helper", "OpenEventKit", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    // ekbench's spawned measurements: the programs it starts are found and really do the work.
    .testTarget(
      name: "EkbenchTests",
      dependencies: ["ekbench", "ekbench-cold-open", "OpenEventKit", "TestSupport"]),
    .testTarget(
      name: "REPLKitTests",
      dependencies: [
        "REPLKit", .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // The CalDAV client against a real Radicale server (and a Digest proxy) on 127.0.0.1.
    .testTarget(
      name: "CalDAVTests",
      dependencies: [
        "CalDAV", "TestSupport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]),
    // CalDAV sync end to end: stores ("machines") syncing through a real Radicale on
    // 127.0.0.1, ekctl's account and sync commands, another client (python caldav), kills,
    // and the sync agent an app asks (oek-store-helper is such an app).
    .testTarget(
      name: "SyncTests",
      dependencies: [
        "OpenEventKit", "OpenEventKitSync", "CalDAV", "ekctl", "ekctl-sync", "oek-store-helper",
        "TestSupport",
      ]),
    .testTarget(
      name: "OpenEventKitUITests", dependencies: ["OpenEventKitUI", "oek-ui-helper", "TestSupport"]),
    // A REPL over the store built from REPLKit and OpenEventKitUI, driven by those tests.
    .executableTarget(
      name: "oek-ui-helper",
      dependencies: [
        "OpenEventKitApp", "OpenEventKitUI", "REPLKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tests/UIHelper",
      resources: [.copy("Bundle")]),
  ],
  swiftLanguageModes: [.v6]
)
