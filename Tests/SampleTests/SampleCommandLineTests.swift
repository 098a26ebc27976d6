import Foundation
import TestSupport
import Testing

/// Every sample's command line is read by swift-argument-parser, as ekctl's is: a bad value
/// or an unknown option is refused before the store is opened, with ArgumentParser's message,
/// the sample's usage line and exit status 64 (EX_USAGE), as ekctl exits.
@Suite struct SampleCommandLineTests {
  static let samples = [
    "loan-scheduler", "poker-vote", "recipe-reminders", "wedding-planner", "book-club",
  ]

  @Test(arguments: samples) func badOptionsExitWithUsage(_ sample: String) throws {
    let home = try SampleHome()
    let badClock = try SampleRun.session(sample, "", arguments: ["--now", "soon"], home: home)
    #expect(badClock.status == 64, "\(badClock.output)")
    #expect(
      badClock.output.hasPrefix("Error: The value 'soon' is invalid for '--now <iso-date-time>'"),
      "\(badClock.output)")
    let unknown = try SampleRun.session(sample, "", arguments: ["--verbose"], home: home)
    #expect(unknown.status == 64, "\(unknown.output)")
    #expect(unknown.output.hasPrefix("Error: Unknown option '--verbose'"), "\(unknown.output)")
    #expect(unknown.output.contains("\nUsage: \(sample) "), "\(unknown.output)")
    // Refused before anything was opened: no store was made.
    #expect(
      !FileManager.default.fileExists(
        atPath: home.calendarDatabase.path))
  }
}
