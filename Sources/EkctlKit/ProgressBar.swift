import Foundation
import OpenEventKit

/// A progress bar on standard error for an import, export or sync that takes more than a
/// moment.
/// None when standard error is not a terminal (piped, redirected), so logs stay clean.
/// Drawn from one thread at a time: a sync's progress comes from its task while the command's
/// thread waits for it.
package final class ProgressBar: @unchecked Sendable {
  private let label: String
  private let isTerminal = isatty(STDERR_FILENO) == 1
  private let started = Date()
  private var drawn = false
  private var lastPercent = -1

  /// How long an operation runs before the bar appears.
  package static let delay: TimeInterval = 0.3

  package init(label: String) { self.label = label }

  package func update(_ progress: ICalendarTransferProgress) {
    update(fraction: progress.fraction, phase: progress.phase == .reading ? "reading" : "writing")
  }

  /// Draws the bar at `fraction` (0…1) with a word for what is happening.
  package func update(fraction: Double, phase: String) {
    guard isTerminal, Date().timeIntervalSince(started) >= ProgressBar.delay else { return }
    let fraction = min(max(fraction, 0), 1)
    let percent = Int(fraction * 100)
    guard percent != lastPercent || !drawn else { return }
    lastPercent = percent
    let width = 30
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    let line = "\r\(label) \(bar) \(String(percent).leftPadded(3))% \(phase) "
    FileHandle.standardError.write(Data(line.utf8))
    drawn = true
  }

  /// Clears the bar, if one was drawn.
  package func finish() {
    guard drawn else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    drawn = false
  }
}

extension String {
  package func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
