// swift-tools-version: 6.1
// libFuzzer targets for OpenEventKit's parsers (docs/Reliability.md, "Fuzzing"). A package of
// its own, so that the main package builds no sanitizer and no executable without a `main`.
// Built and run by scripts/fuzz:
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
import PackageDescription

let package = Package(
  name: "OpenEventKitFuzzing",
  // Named, so that the products below find it whatever the clone's folder is called.
  dependencies: [.package(name: "OpenEventKit", path: "..")],
  targets: [
    // The `main` of each target, handing over to libFuzzer's driver.
    .target(name: "FuzzingEntry"),
    // RRULE text → RecurrenceRule, and the expansion of a recurrence set.
    .executableTarget(
      name: "fuzz-rrule",
      dependencies: ["FuzzingEntry", .product(name: "ICalendar", package: "OpenEventKit")]),
    // .ics bytes → ICalendarDocument, its writer, and the typed readings of its values.
    .executableTarget(
      name: "fuzz-ics",
      dependencies: ["FuzzingEntry", .product(name: "ICalendar", package: "OpenEventKit")]),
    // .ics bytes imported into a real store in a temporary folder, read back and exported.
    .executableTarget(
      name: "fuzz-import",
      dependencies: [
        "FuzzingEntry", .product(name: "ICalendar", package: "OpenEventKit"),
        .product(name: "OpenEventKit", package: "OpenEventKit"),
      ]),
    // A typed line → the REPL's words.
    .executableTarget(
      name: "fuzz-words",
      dependencies: ["FuzzingEntry", .product(name: "REPLKit", package: "OpenEventKit")]),
  ],
  swiftLanguageModes: [.v6]
)
